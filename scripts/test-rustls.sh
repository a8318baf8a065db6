#!/usr/bin/env bash
# galois-rustls against real clients with the example server binary itself
# (the in-process versions of these checks, s_server and the tamper proxy are
# in crates/galois-rustls/tests/interop.rs, run by `cargo test`):
# certificates made here with the openssl CLI, then for each galois suite
# `curl` fetches a file (hash checked) and `openssl s_client` connects.
# Loopback only; every client call is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
for t in curl openssl; do command -v "$t" >/dev/null || { echo "test-rustls: $t missing (scripts/setup.sh installs it)"; exit 1; }; done

# --workspace: in CI the example `cargo test --workspace --release` built
# (-p would rebuild it under other features).
cargo build --release --locked --workspace --example serve
bin=target/release/examples/serve
dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT

san="subjectAltName=DNS:localhost,IP:127.0.0.1"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -addext "$san" -keyout "$dir/ec-key.pem" -out "$dir/ec-cert.pem" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -addext "$san" -keyout "$dir/rsa-key.pem" -out "$dir/rsa-cert.pem" 2>/dev/null
head -c 1000003 /dev/urandom >"$dir/file.bin"
want=$(sha256sum <"$dir/file.bin" | cut -d' ' -f1)

# start KIND MODE...: an example server on a free port; sets $port.
start() {
  local kind=$1; shift
  "$bin" --listen 127.0.0.1:0 --cert "$dir/$kind-cert.pem" --key "$dir/$kind-key.pem" \
    --file "$dir/file.bin" "$@" >"$dir/log-$kind$*.txt" 2>&1 &
  pids+=($!)
  local log="$dir/log-$kind$*.txt"
  for _ in $(seq 100); do grep -q "on https://" "$log" 2>/dev/null && break; sleep 0.1; done
  port=$(sed -n 's|.*on https://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log")
  [ -n "$port" ] || { cat "$log"; echo "test-rustls: server did not start"; exit 1; }
}

fails=0; passes=0
check() { # NAME KIND PORT CURL-ARGS... -- S_CLIENT-ARGS...
  local name=$1 kind=$2 port=$3; shift 3
  local cargs=() sargs=()
  while [ "$1" != "--" ]; do cargs+=("$1"); shift; done; shift; sargs=("$@")
  local got
  got=$(curl -sS --max-time 30 --cacert "$dir/$kind-cert.pem" --resolve "localhost:$port:127.0.0.1" \
    "${cargs[@]}" "https://localhost:$port/x" | sha256sum | cut -d' ' -f1) || true
  local sc
  sc=$(printf 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n' | timeout 30 openssl s_client -connect "127.0.0.1:$port" \
    -servername localhost -verify_return_error -CAfile "$dir/$kind-cert.pem" -ign_eof "${sargs[@]}" 2>&1 | tr -d '\0' | grep -a -E "Cipher is|Verify return code|^HTTP/1.1" | sort -u | tr '\n' ' ') || true
  if [ "$got" = "$want" ] && [[ "$sc" == *"Cipher is"* ]] && [[ "$sc" == *"Verify return code: 0 (ok)"* ]] && [[ "$sc" == *"HTTP/1.1 200 OK"* ]]; then
    echo "ok: $name (curl hash ok; s_client: $sc)"; passes=$((passes + 1))
  else
    echo "FAIL: $name (curl sha256 $got; s_client: $sc)"; fails=$((fails + 1))
  fi
}

start ec --tls13-only
check "TLS 1.3 AES-128-GCM (ECDSA)" ec "$port" --tlsv1.3 --tls13-ciphers TLS_AES_128_GCM_SHA256 -- -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256
check "TLS 1.3 AES-256-GCM (ECDSA)" ec "$port" --tlsv1.3 --tls13-ciphers TLS_AES_256_GCM_SHA384 -- -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384
start rsa --tls13-only
check "TLS 1.3 AES-256-GCM (RSA)" rsa "$port" --tlsv1.3 --tls13-ciphers TLS_AES_256_GCM_SHA384 -- -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384
start ec --tls12-only
for s in ECDHE-ECDSA-AES128-GCM-SHA256 ECDHE-ECDSA-AES256-GCM-SHA384; do
  check "TLS 1.2 $s" ec "$port" --tlsv1.2 --tls-max 1.2 --ciphers "$s" -- -tls1_2 -cipher "$s"
done
start rsa --tls12-only
for s in ECDHE-RSA-AES128-GCM-SHA256 ECDHE-RSA-AES256-GCM-SHA384; do
  check "TLS 1.2 $s" rsa "$port" --tlsv1.2 --tls-max 1.2 --ciphers "$s" -- -tls1_2 -cipher "$s"
done
echo "== server logs"
cat "$dir"/log-*.txt
grep -q "(galois)" "$dir"/log-*.txt || { echo "test-rustls: no galois connection logged"; fails=$((fails + 1)); }
echo "test-rustls: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
