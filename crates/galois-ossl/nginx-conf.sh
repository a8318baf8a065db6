# Sourced by scripts/test-ossl.sh and crates/galois-ossl/nginx-cpu.sh.
# nginx_conf DIR PORT CERT KEY ROOT [SSL-DIRECTIVE...]: writes DIR/nginx.conf,
# a one-worker nginx in the foreground serving ROOT over TLS on 127.0.0.1:PORT,
# its pid, error log and temporary files under DIR, keeping OPENSSL_CONF and
# GALOIS_PROVIDER_STATS for the worker (nginx clears the environment).
nginx_conf() {
  local ng=$1 port=$2 cert=$3 key=$4 root=$5
  shift 5
  mkdir -p "$ng/tmp"
  {
    cat <<CONF
daemon off;
worker_processes 1;
pid $ng/nginx.pid;
error_log $ng/error.log;
env OPENSSL_CONF;
env GALOIS_PROVIDER_STATS;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $ng/tmp/body;
  proxy_temp_path $ng/tmp/proxy;
  fastcgi_temp_path $ng/tmp/fastcgi;
  uwsgi_temp_path $ng/tmp/uwsgi;
  scgi_temp_path $ng/tmp/scgi;
  server {
    listen 127.0.0.1:$port ssl;
    server_name localhost;
    ssl_certificate $cert;
    ssl_certificate_key $key;
    root $root;
CONF
    for d in "$@"; do echo "    $d;"; done
    echo "  }"
    echo "}"
  } >"$ng/nginx.conf"
}
