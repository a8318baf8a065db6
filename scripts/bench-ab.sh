#!/bin/bash
# Side-by-side speed of two or more galois-bench binaries (say, before and
# after a change): ROUNDS rounds, each binary once per round, pinned to one
# core; prints each row's median ns per call per binary, with its ratio to
# the first binary.
#   bash scripts/bench-ab.sh 12 old/galois-bench new/galois-bench
#     galois's automatic backend and aws-lc-rs, AES-128/256-GCM and GMAC at
#     1500 B and 16 KiB (`gcm --quick`)
#   bash scripts/bench-ab.sh --keys 7 old/galois-bench new/galois-bench
#     every row of `keys --quick`: GCM key setup, XAES and GCM-SIV messages
# BENCH_CPU=0 pins to core 0 instead of core 1 (when another tenant loads it).
set -euo pipefail
mode=gcm
if [ "${1:-}" = --keys ]; then
    mode=keys
    shift
fi
rounds=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
    for b in "$@"; do
        # One "binary <tab> row <tab> ns" line per row.
        if [ "$mode" = gcm ]; then
            nice -n -20 taskset -c "${BENCH_CPU:-1}" "$b" gcm --quick --sizes 1500,16384 2>&1 |
                awk -v b="$b" '/^(aes|gmac)/{s=$1} $1 ~ /^[0-9]+$/ && /galois\/auto|aws-lc-rs|ring/{split($2, i, "="); printf "%s\t%-12s %6s %-13s\t%s\n", b, s, $1, i[1], $4}'
        else
            # Rows are "label ... median lowest-decile".
            nice -n -20 taskset -c "${BENCH_CPU:-1}" "$b" keys --quick 2>&1 |
                awk -v b="$b" 'NR > 2 && NF >= 3 {v = $(NF-1); $NF = ""; $(NF-1) = ""; sub(/ +$/, ""); print b "\t" $0 "\t" v}'
        fi
    done >>"$out"
done
python3 - "$out" "$@" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    b, row, v = line.rstrip("\n").split("\t")
    if row not in order:
        order.append(row)
    d[(row, b)].append(float(v))
bins = sys.argv[2:]
for row in order:
    base = statistics.median(d[(row, bins[0])])
    cells = [f"{statistics.median(d[(row, b)]):8.1f} ({statistics.median(d[(row, b)]) / base:.3f})" for b in bins]
    print(f"{row:40}", " ".join(cells))
PY
