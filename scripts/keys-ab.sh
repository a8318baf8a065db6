#!/bin/bash
# Side-by-side key setup and per-message-key speed of two or more galois-bench
# binaries (say, before and after a change): ROUNDS rounds, each binary's
# `keys --quick` once per round, pinned to one core; prints every row's median
# ns per call per binary, with its ratio to the first binary.
#   bash scripts/keys-ab.sh 7 old/galois-bench new/galois-bench
set -euo pipefail
rounds=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
    for b in "$@"; do
        # Rows are "label ... median lowest-decile": keep the label and the median.
        nice -n -20 taskset -c 1 "$b" keys --quick 2>&1 |
            awk -v b="$b" 'NR > 2 && NF >= 3 {v = $(NF-1); $NF = ""; $(NF-1) = ""; sub(/ +$/, ""); print b "\t" $0 "\t" v}' >>"$out"
    done
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
