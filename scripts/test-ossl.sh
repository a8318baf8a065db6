#!/usr/bin/env bash
# The OpenSSL provider (crates/galois-ossl) in real programs, loopback only,
# every program bounded in time:
#   1. install (scripts/install-c.sh into $TARGET/ossl-prefix): the module
#      and the config; `openssl list` shows the galois ciphers;
#   2. the EVP test program (crates/galois-ossl/tests/evp.rs) against the
#      installed module: every AES-GCM/GMAC vector file whole and split,
#      random messages against the default provider, tampering, re-init, copy;
#      GMAC (EVP_MAC) against the default provider and the GMAC vectors; then
#      the same program under valgrind memcheck;
#      AES-GCM-SIV: every AES-GCM-SIV vector file, one-update rule, forged tag;
#      TLS 1.2 records through EVP_Cipher against the default provider; bad
#      parameters;
#   3. openssl s_server + s_client with OPENSSL_CONF=<the config>: TLS 1.3
#      (both AES-GCM suites) and TLS 1.2 (ECDHE-RSA and ECDHE-ECDSA, AES-128
#      and AES-256-GCM), 1 MiB each way, compared byte for byte; each side's
#      `galois provider: N seals, M opens` line must have N, M > 0 (and a
#      ChaCha20 control must show 0, 0);
#   4. a proxy that flips a bit of the server's first encrypted record: the
#      client sends a bad_record_mac alert and prints no data (TLS 1.3, 1.2);
#   5. Debian's nginx serving a 64 MiB file over TLS 1.3 and TLS 1.2 with the
#      config, fetched by curl and by Python's urllib with the same config:
#      hashes checked, stats lines of nginx's worker and of each client.
# Installs what it needs (apt) first.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

need=()
dpkg -s libssl-dev >/dev/null 2>&1 || need+=(libssl-dev)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v curl >/dev/null 2>&1 || need+=(curl)
[ -x /usr/bin/python3 ] || need+=(python3)
command -v ss >/dev/null 2>&1 || need+=(iproute2)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
  echo "test-ossl: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
# Debian's Python, on the system libssl3 (OPENSSL_CONF loads the module
# into that libcrypto).
PY=/usr/bin/python3

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac

echo "== install (PREFIX=\$TARGET/ossl-prefix bash scripts/install-c.sh)"
P="$TARGET/ossl-prefix"
rm -rf "$P"
PREFIX="$P" bash scripts/install-c.sh >/dev/null
MOD="$P/lib/ossl-modules/galois.so"
CNF="$P/share/galois/openssl-galois.cnf"
fail() { echo "test-ossl: $*" >&2; exit 1; }
[ -f "$MOD" ] || fail "no $MOD"
[ -f "$CNF" ] || fail "no $CNF"
grep -qx "module = $MOD" "$CNF" || fail "the config does not name the installed module"
grep -qx "default_properties = ?provider=galois" "$CNF" || fail "the config does not prefer galois"
listed=$(openssl list -cipher-algorithms -provider-path "$P/lib/ossl-modules" -provider galois)
for n in 128 192 256; do
  grep -q "aes-$n-gcm, id-aes$n-GCM } @ galois" <<<"$listed" || { echo "$listed"; fail "openssl list: no AES-$n-GCM @ galois"; }
  grep -q "AES-$n-GCM-SIV @ galois" <<<"$listed" || { echo "$listed"; fail "openssl list: no AES-$n-GCM-SIV @ galois"; }
done
macs=$(openssl list -mac-algorithms -provider-path "$P/lib/ossl-modules" -provider galois)
grep -q "GMAC } @ galois" <<<"$macs" || { echo "$macs"; fail "openssl list: no GMAC @ galois"; }
echo "install: $MOD, $CNF; openssl list shows AES-128/192/256-GCM, AES-128/192/256-GCM-SIV and GMAC @ galois"

echo "== the EVP test program against the installed module"
# --workspace: the test binary the CI build made (-p would resolve other features).
GALOIS_OSSL_MODULE="$MOD" bash scripts/expect-tests.sh 8 \
  cargo test --workspace --release --locked --test evp
echo "== the same under valgrind memcheck (the library's AES-NI paths: valgrind hides VAES)"
EVP_BIN=$(cargo test --workspace --release --locked --test evp --no-run 2>&1 |
  sed -n 's/.*Executable .* (\(.*\))$/\1/p')
[ -x "$EVP_BIN" ] || fail "no evp test binary"
GALOIS_OSSL_MODULE="$MOD" bash scripts/expect-tests.sh 8 \
  valgrind -q --error-exitcode=9 "$EVP_BIN" --test-threads=1

dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT

san="subjectAltName=DNS:localhost,IP:127.0.0.1"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -addext "$san" \
  -keyout "$dir/rsa.key" -out "$dir/rsa.crt" 2>/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -addext "$san" -keyout "$dir/ec.key" -out "$dir/ec.crt" 2>/dev/null
head -c 1048576 /dev/urandom >"$dir/s.bin"
head -c 1048573 /dev/urandom >"$dir/c.bin"

free_port() {
  "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_listen() { # PORT
  for _ in $(seq 200); do
    [ -n "$(ss -Hltn "sport = :$1")" ] && return 0
    sleep 0.05
  done
  return 1
}
# The stats line of a program's stderr: "N M".
stats() { sed -n 's/^galois provider: \([0-9]*\) seals, \([0-9]*\) opens$/\1 \2/p' "$1" | tail -1; }
used_galois() { # FILE: N, M > 0
  local s
  s=$(stats "$1")
  [ -n "$s" ] && [ "${s% *}" -gt 0 ] && [ "${s#* }" -gt 0 ]
}

echo "== openssl s_server + s_client, OPENSSL_CONF=$CNF (1 MiB each way)"
export GALOIS_PROVIDER_STATS=1
tls_pair() { # NAME KIND ARGS... (the same protocol/suite arguments on both sides)
  local name=$1 kind=$2
  shift 2
  local port
  port=$(free_port)
  rm -f "$dir/srv.out" "$dir/cli.out"
  touch "$dir/srv.out"
  # The server sends s.bin, then keeps its stdin open until all of c.bin
  # has arrived, and closes the connection at its stdin's end.
  { cat "$dir/s.bin"; while [ "$(stat -c %s "$dir/srv.out")" -lt "$(stat -c %s "$dir/c.bin")" ]; do sleep 0.05; done; } |
    OPENSSL_CONF="$CNF" timeout 60 openssl s_server -accept "127.0.0.1:$port" -cert "$dir/$kind.crt" \
      -key "$dir/$kind.key" -naccept 1 -quiet "$@" >"$dir/srv.out" 2>"$dir/srv.err" &
  local spid=$!
  pids+=($spid)
  wait_listen "$port" || fail "$name: s_server did not listen"
  OPENSSL_CONF="$CNF" timeout 60 openssl s_client -connect "127.0.0.1:$port" -servername localhost \
    -CAfile "$dir/$kind.crt" -verify_return_error -quiet "$@" <"$dir/c.bin" >"$dir/cli.out" 2>"$dir/cli.err" ||
    { cat "$dir/cli.err"; fail "$name: s_client failed"; }
  wait "$spid" || { cat "$dir/srv.err"; fail "$name: s_server failed"; }
  cmp -s "$dir/s.bin" "$dir/cli.out" || fail "$name: the client received other bytes"
  cmp -s "$dir/c.bin" "$dir/srv.out" || fail "$name: the server received other bytes"
}
for t in "TLS 1.3 TLS_AES_128_GCM_SHA256|rsa|-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256" \
  "TLS 1.3 TLS_AES_256_GCM_SHA384|ec|-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384" \
  "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256|rsa|-tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256" \
  "TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384|rsa|-tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384" \
  "TLS 1.2 ECDHE-ECDSA-AES128-GCM-SHA256|ec|-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256" \
  "TLS 1.2 ECDHE-ECDSA-AES256-GCM-SHA384|ec|-tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384"; do
  IFS='|' read -r name kind args <<<"$t"
  # shellcheck disable=SC2086 # the arguments are words
  tls_pair "$name" "$kind" $args
  used_galois "$dir/srv.err" || { cat "$dir/srv.err"; fail "$name: server records not through galois"; }
  used_galois "$dir/cli.err" || { cat "$dir/cli.err"; fail "$name: client records not through galois"; }
  echo "ok: $name, data both ways; server: $(stats "$dir/srv.err"), client: $(stats "$dir/cli.err") (seals opens)"
done
# The control: a suite galois does not offer counts nothing.
tls_pair "TLS 1.3 TLS_CHACHA20_POLY1305_SHA256" rsa -tls1_3 -ciphersuites TLS_CHACHA20_POLY1305_SHA256
[ "$(stats "$dir/srv.err")" = "0 0" ] && [ "$(stats "$dir/cli.err")" = "0 0" ] ||
  fail "ChaCha20 control: stats $(stats "$dir/srv.err") / $(stats "$dir/cli.err"), expected 0 0"
echo "ok: control TLS_CHACHA20_POLY1305_SHA256 (not galois): server and client 0 seals, 0 opens"

echo "== a flipped bit in the server's first encrypted record"
tamper() { # NAME ARGS...
  local name=$1
  shift
  local port
  port=$(free_port)
  rm -f "$dir/proxy.port"
  { printf 'secret-reply\n'; sleep 3; } |
    OPENSSL_CONF="$CNF" timeout 30 openssl s_server -accept "127.0.0.1:$port" -cert "$dir/rsa.crt" \
      -key "$dir/rsa.key" -naccept 1 -quiet "$@" >"$dir/srv.out" 2>"$dir/srv.err" &
  pids+=($!)
  wait_listen "$port" || fail "$name: s_server did not listen"
  timeout 40 "$PY" crates/galois-ossl/tests/tamper_proxy.py 0 "$port" "$dir/proxy.port" 2>"$dir/proxy.err" &
  local ppid=$!
  pids+=($ppid)
  for _ in $(seq 100); do [ -s "$dir/proxy.port" ] && break; sleep 0.05; done
  local rc=0
  { printf 'hello\n'; sleep 2; } | OPENSSL_CONF="$CNF" timeout 30 openssl s_client \
    -connect "127.0.0.1:$(cat "$dir/proxy.port")" -servername localhost -CAfile "$dir/rsa.crt" \
    -quiet "$@" >"$dir/cli.out" 2>"$dir/cli.err" || rc=$?
  wait "$ppid" || true
  grep -q "flipped a bit" "$dir/proxy.err" || fail "$name: the proxy flipped nothing"
  [ "$rc" != 0 ] || fail "$name: the client succeeded"
  grep -q "bad record mac" "$dir/cli.err" || { cat "$dir/cli.err"; fail "$name: the client did not fail on the record MAC"; }
  [ ! -s "$dir/cli.out" ] || fail "$name: the client printed data: $(head -c 100 "$dir/cli.out")"
  for _ in $(seq 100); do grep -q "alert bad record mac" "$dir/srv.err" && break; sleep 0.05; done
  grep -q "alert bad record mac" "$dir/srv.err" || { cat "$dir/srv.err"; fail "$name: the server got no bad_record_mac alert"; }
  echo "ok: $name: client failed (bad record mac), no data, server received the bad_record_mac alert"
}
tamper "TLS 1.3 TLS_AES_128_GCM_SHA256 (EncryptedExtensions flipped)" -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256
tamper "TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384 (first application record flipped)" -tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384

echo "== nginx ($("$NGINX" -v 2>&1)) serving 64 MiB, curl and Python urllib, all with OPENSSL_CONF"
ng="$dir/nginx"
mkdir -p "$ng/www"
# nginx's worker runs as an unprivileged user: it must reach www/ (mktemp -d is 0700).
chmod 711 "$dir"
chmod 755 "$ng" "$ng/www"
head -c $((64 << 20)) /dev/urandom >"$ng/www/big.bin"
want=$(sha256sum <"$ng/www/big.bin" | cut -d' ' -f1)
port=$(free_port)
# shellcheck source=crates/galois-ossl/nginx-conf.sh
. crates/galois-ossl/nginx-conf.sh
nginx_conf "$ng" "$port" "$dir/rsa.crt" "$dir/rsa.key" "$ng/www" "ssl_protocols TLSv1.2 TLSv1.3" \
  "ssl_ciphers ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384" \
  "ssl_conf_command Ciphersuites TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256"
OPENSSL_CONF="$CNF" "$NGINX" -p "$ng" -c "$ng/nginx.conf" -e "$ng/error.log" &
ngpid=$!
pids+=($ngpid)
wait_listen "$port" || { cat "$ng/error.log"; fail "nginx did not listen"; }
url="https://localhost:$port/big.bin"
fetch_curl() { # NAME CURL-ARGS...
  local name=$1
  shift
  local got
  got=$(OPENSSL_CONF="$CNF" curl -fsS --max-time 120 --cacert "$dir/rsa.crt" --resolve "localhost:$port:127.0.0.1" \
    "$@" "$url" 2>"$dir/curl.err" | sha256sum | cut -d' ' -f1)
  [ "$got" = "$want" ] || { cat "$dir/curl.err"; fail "$name: sha256 $got, want $want"; }
  used_galois "$dir/curl.err" || { cat "$dir/curl.err"; fail "$name: curl's records not through galois"; }
  echo "ok: $name: 64 MiB, sha256 matches; curl: $(stats "$dir/curl.err") (seals opens)"
}
fetch_curl "curl TLS 1.3 TLS_AES_256_GCM_SHA384" --tlsv1.3 --tls13-ciphers TLS_AES_256_GCM_SHA384
fetch_curl "curl TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256" --tlsv1.2 --tls-max 1.2 --ciphers ECDHE-RSA-AES128-GCM-SHA256
fetch_py() { # NAME VERSION
  local name=$1 got
  got=$(OPENSSL_CONF="$CNF" timeout 120 "$PY" - "$url" "$dir/rsa.crt" "$2" 2>"$dir/py.err" <<'EOF'
import hashlib, ssl, sys, urllib.request
url, ca, version = sys.argv[1:]
ctx = ssl.create_default_context(cafile=ca)
if version == "1.2":
    ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    ctx.set_ciphers("ECDHE-RSA-AES256-GCM-SHA384")
else:
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
h = hashlib.sha256()
with urllib.request.urlopen(url, context=ctx, timeout=60) as r:
    while True:
        chunk = r.read(1 << 20)
        if not chunk:
            break
        h.update(chunk)
print(h.hexdigest())
EOF
  ) || { cat "$dir/py.err"; fail "$name: urllib failed"; }
  [ "$got" = "$want" ] || { cat "$dir/py.err"; fail "$name: sha256 $got, want $want"; }
  used_galois "$dir/py.err" || { cat "$dir/py.err"; fail "$name: Python's records not through galois"; }
  echo "ok: $name: 64 MiB, sha256 matches; python: $(stats "$dir/py.err") (seals opens)"
}
fetch_py "Python urllib TLS 1.3" 1.3
fetch_py "Python urllib TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384" 1.2
kill -QUIT "$ngpid"
wait "$ngpid" || true
# The worker's line (nginx sends its stderr to the error log): records sealed
# and opened; the master's shows 0, 0.
wstats=$(sed -n 's/.*galois provider: \([0-9]*\) seals, \([0-9]*\) opens$/\1 \2/p' "$ng/error.log" | sort -n | tail -1)
[ -n "$wstats" ] && [ "${wstats% *}" -gt 0 ] && [ "${wstats#* }" -gt 0 ] ||
  { cat "$ng/error.log"; fail "nginx: the worker's records not through galois"; }
echo "ok: nginx worker: $wstats (seals opens; 4 fetches of 64 MiB)"
echo "test-ossl: all passed"
