#!/bin/bash
# Deterministic per-call counts under valgrind's cachegrind (a cache
# simulator: the same figures on every run, whatever the load):
# instructions, data references, I1/D1 and last-level cache misses per call.
# Each row is two runs of `galois-bench count` with N1 and N2 calls on one
# buffer; per call = (count(N2) - count(N1)) / (N2 - N1), so set-up and
# start-up cancel out. The caches are warm after the first call, so misses
# per call are what the call's own code and data evict (none, in every row
# measured). "Data lines" is the call's data footprint: D1 misses per call
# when a 256 KiB sweep after each call empties the first-level data cache,
# less the sweep's own misses (a run of the sweep alone).
# valgrind's virtual CPU has AES-NI, PCLMULQDQ and AVX2 but no VAES, no
# VPCLMULQDQ, no AVX-512: every library runs its AES-NI/AVX code here.
#   bash scripts/counts.sh                      # every row of docs/speed.md
#   bash scripts/counts.sh aes-256-gcm-siv      # one primitive (any of those below)
#   BENCH=path/to/galois-bench N1=20 N2=120 bash scripts/counts.sh
set -euo pipefail
bench=${BENCH:-${CARGO_TARGET_DIR:-target}/release/galois-bench}
n1=${N1:-20}
n2=${N2:-120}
sizes=${SIZES:-16 1500 16384}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The summary line of a cachegrind output file, in the order of its
# "events:" line (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw).
summary() {
    awk '/^events:/{for (i = 2; i <= NF; i++) e[i-1] = $i}
         /^summary:/{for (i = 2; i <= NF; i++) v[e[i-1]] = $i}
         END{print v["Ir"], v["I1mr"], v["ILmr"], v["Dr"] + v["Dw"], v["D1mr"] + v["D1mw"], v["DLmr"] + v["DLmw"]}' "$1"
}

evict=262144
# Per-call counts of one configuration: prim impl size evict-bytes; sets
# $label and $per (the six summary figures per call).
per_call() {
    for n in "$n1" "$n2"; do
        label=$(valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$tmp/cg.$n" \
            "$bench" count --prim "$1" --impl "$2" --size "$3" --calls "$n" --evict-bytes "$4" \
            2>"$tmp/log" | cut -d: -f1) || { cat "$tmp/log" >&2; exit 1; }
    done
    per=$(paste <(summary "$tmp/cg.$n1" | tr ' ' '\n') <(summary "$tmp/cg.$n2" | tr ' ' '\n') |
        awk -v d=$((n2 - n1)) '{v = ($2 - $1) / d; if (v < 0.05 && v > -0.05) v = 0; printf "%.1f ", v}')
}

per_call none none 16 "$evict"
sweep=$(echo "$per" | cut -d' ' -f5)

row() { # prim impl size
    per_call "$1" "$2" "$3" 0
    local warm=$per
    per_call "$1" "$2" "$3" "$evict"
    local cold
    cold=$(echo "$per" | awk -v s="$sweep" '{printf "%.1f", $5 - s}')
    echo "$warm" | awk -v p="$1" -v n="$3" -v l="$label" -v c="$cold" \
        '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p, n, l, $1, $4, $2, $5, $6, c}'
}

prims=${1:-"aes-128-gcm aes-256-gcm-siv aes-128-gcm-siv poly1305-aes"}
echo "| primitive | bytes | implementation | instructions | data refs | I1 misses | D1 misses | LL misses | data lines |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in $prims; do
    case $p in
        aes-128-gcm | aes-256-gcm) impls="galois ring aws-lc-rs openssl" ;;
        aes-128-gcm-siv | aes-256-gcm-siv) impls="galois aws-lc-rs" ;;
        poly1305-aes) impls="galois openssl" ;;
        *) echo "unknown primitive $p" >&2; exit 2 ;;
    esac
    for s in $sizes; do
        for i in $impls; do
            row "$p" "$i" "$s"
        done
    done
done
# The simulated caches (valgrind takes them from the host's CPUID).
valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$tmp/cg.x" "$bench" count \
    --prim aes-128-gcm --impl galois --size 16 --calls 1 2>&1 >/dev/null | grep -E "warning: simulated|^desc:" || true
grep "^desc:" "$tmp/cg.x" | sed 's/$/\n/' | grep .
