#!/usr/bin/env bash
# `openssl speed` with and without the galois provider, side by side in one
# run: for each cipher and mode, the default provider (OpenSSL's own) and
# galois (OPENSSL_CONF=the installed config) alternate REPS times, pinned to
# one CPU; the table gives the medians in MB/s and the ratio galois/OpenSSL,
# and the spread of OpenSSL against itself (the control: max/min of its runs).
# Usage: bash crates/galois-ossl/speed.sh [REPS] [CPU]   (after scripts/install-c.sh;
#        GALOIS_OSSL_CNF=.../openssl-galois.cnf, default $TARGET/ossl-prefix/...)
# Modes: "-evp" and "-aead -evp". OpenSSL 3.0.19's loops re-init the context
# with the key and the IV for every message in both (the provider sees a key,
# an IV, one update, final); -aead adds 13 bytes of AAD. `openssl speed`
# divides by the process's user CPU time, not wall time.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPS=${1:-3}
CPU=${2:-1}
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
CNF=${GALOIS_OSSL_CNF:-$TARGET/ossl-prefix/share/galois/openssl-galois.cnf}
[ -f "$CNF" ] || { echo "speed: no $CNF (PREFIX=$TARGET/ossl-prefix bash scripts/install-c.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # WHO CIPHER MODE... -> the result line's numbers (kB/s)
  local who=$1 cipher=$2
  shift 2
  local conf=/dev/null
  [ "$who" = galois ] && conf=$CNF
  GALOIS_PROVIDER_STATS=1 OPENSSL_CONF=$conf taskset -c "$CPU" openssl speed -seconds 1 "$@" "$cipher" 2>"$tmp/err" |
    awk -v c="$(tr a-z A-Z <<<"$cipher")" '$1 == c { $1 = ""; print }' | tr -d k
  if [ "$who" = galois ]; then
    grep -Eq '^galois provider: [1-9][0-9]* seals' "$tmp/err" || { cat "$tmp/err"; echo "speed: galois not used" >&2; exit 1; }
  elif grep -q "^galois provider" "$tmp/err"; then
    echo "speed: galois used in the OpenSSL run" >&2; exit 1
  fi
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "openssl speed, pinned to CPU $CPU, $REPS alternated runs each, medians (MB/s = 10^6 B/s)"
for mode in "-evp" "-aead -evp"; do
  for cipher in aes-128-gcm aes-256-gcm; do
    : >"$tmp/openssl"
    : >"$tmp/galois"
    for _ in $(seq "$REPS"); do
      # shellcheck disable=SC2086 # the mode is words
      run openssl "$cipher" $mode >>"$tmp/openssl"
      # shellcheck disable=SC2086
      run galois "$cipher" $mode >>"$tmp/galois"
    done
    if [ "$mode" = "-evp" ]; then sizes="16 64 256 1024 8192 16384"; else sizes="2 31 136 1024 8192 16384"; fi
    echo
    echo "$cipher, openssl speed $mode"
    echo "| bytes | OpenSSL 3.0 MB/s | galois MB/s | galois / OpenSSL | OpenSSL max/min (control) |"
    echo "|---:|---:|---:|---:|---:|"
    i=0
    for s in $sizes; do
      i=$((i + 1))
      o=$(awk -v i="$i" '{ print $i }' "$tmp/openssl" | median)
      g=$(awk -v i="$i" '{ print $i }' "$tmp/galois" | median)
      spread=$(awk -v i="$i" 'NR == 1 || $i > mx { mx = $i } NR == 1 || $i < mn { mn = $i } END { printf "%.2f", mx / mn }' "$tmp/openssl")
      awk -v s="$s" -v o="$o" -v g="$g" -v c="$spread" 'BEGIN { printf "| %s | %.0f | %.0f | %.2f | %s |\n", s, o / 1000, g / 1000, g / o, c }'
    done
  done
done
