#!/usr/bin/env bash
# nginx's worker CPU seconds to serve a cached 1 GiB file over TLS 1.3
# TLS_AES_256_GCM_SHA384 to curl on loopback, with and without the galois
# provider: three nginx instances (OpenSSL, OpenSSL again as the control,
# galois via OPENSSL_CONF), worker pinned to CPU 1 and curl to CPU 0, fetches
# alternated REPS times; CPU = the worker's utime + stime (/proc/PID/stat)
# across one fetch. Prints the medians and ratios.
# Usage: bash crates/galois-ossl/nginx-cpu.sh [REPS]   (after scripts/install-c.sh
#        into $TARGET/ossl-prefix, e.g. by scripts/test-ossl.sh; nginx installed)
set -euo pipefail
cd "$(dirname "$0")/../.."
REPS=${1:-5}
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
CNF=${GALOIS_OSSL_CNF:-$TARGET/ossl-prefix/share/galois/openssl-galois.cnf}
[ -f "$CNF" ] || { echo "nginx-cpu: no $CNF" >&2; exit 1; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
# shellcheck source=crates/galois-ossl/nginx-conf.sh
. crates/galois-ossl/nginx-conf.sh
dir=$(mktemp -d)
masters=()
cleanup() { for p in "${masters[@]}"; do kill -QUIT "$p" 2>/dev/null || true; done; sleep 0.5; rm -rf "$dir"; }
trap cleanup EXIT
chmod 711 "$dir"
mkdir -m 755 "$dir/www"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost" -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
head -c $((1 << 30)) /dev/zero >"$dir/www/big.bin"
cat "$dir/www/big.bin" >/dev/null
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
declare -A port worker
start() { # NAME CONF
  local name=$1 conf=$2 ng="$dir/$1"
  port[$name]=$(free_port)
  nginx_conf "$ng" "${port[$name]}" "$dir/cert.pem" "$dir/key.pem" "$dir/www" \
    "ssl_protocols TLSv1.3" "ssl_conf_command Ciphersuites TLS_AES_256_GCM_SHA384"
  OPENSSL_CONF=$conf taskset -c 1 "$NGINX" -p "$ng" -c "$ng/nginx.conf" -e "$ng/error.log" &
  masters+=($!)
  local m=$!
  for _ in $(seq 100); do
    worker[$name]=$(pgrep -P "$m" | head -1 || true)
    [ -n "${worker[$name]}" ] && [ -n "$(ss -Hltn "sport = :${port[$name]}")" ] && return 0
    sleep 0.05
  done
  echo "nginx-cpu: $name did not start" >&2
  exit 1
}
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
start openssl /dev/null
start control /dev/null
start galois "$CNF"
hz=$(getconf CLK_TCK)
for name in openssl control galois; do : >"$dir/$name.cpu"; done
for _ in $(seq "$REPS"); do
  for name in openssl control galois; do
    t0=$(ticks "${worker[$name]}")
    s0=$(date +%s.%N)
    OPENSSL_CONF=/dev/null taskset -c 0 curl -sS --max-time 120 --cacert "$dir/cert.pem" \
      --resolve "localhost:${port[$name]}:127.0.0.1" --tlsv1.3 --tls13-ciphers TLS_AES_256_GCM_SHA384 \
      -o /dev/null "https://localhost:${port[$name]}/big.bin"
    s1=$(date +%s.%N)
    t1=$(ticks "${worker[$name]}")
    echo "$(((t1 - t0))) $s0 $s1" | awk -v hz="$hz" '{ printf "%.3f %.3f\n", $1 / hz, $3 - $2 }' >>"$dir/$name.cpu"
  done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
o=$(cut -d' ' -f1 "$dir/openssl.cpu" | median)
c=$(cut -d' ' -f1 "$dir/control.cpu" | median)
g=$(cut -d' ' -f1 "$dir/galois.cpu" | median)
echo "nginx worker CPU seconds per GiB (TLS 1.3 AES-256-GCM, $REPS alternated fetches, medians; per-run: cpu wall)"
for name in openssl control galois; do echo "$name: $(tr '\n' ';' <"$dir/$name.cpu")"; done
awk -v o="$o" -v c="$c" -v g="$g" 'BEGIN { printf "| OpenSSL 3.0 | %.3f s |\n| OpenSSL 3.0 again (control) | %.3f s (%.2fx) |\n| galois provider | %.3f s (OpenSSL / galois = %.2fx) |\n", o, c, o / c, g, o / g }'
