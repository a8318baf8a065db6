#!/bin/bash
# Side-by-side speed of two or more galois-bench binaries (say, before and
# after a change): ROUNDS rounds, each binary once per round, pinned to one
# core; prints the median ns per call of galois's automatic backend and of
# aws-lc-rs for AES-128/256-GCM and GMAC at 1500 B and 16 KiB, with each
# binary's ratio to the first.
#   bash scripts/bench-ab.sh 12 old/galois-bench new/galois-bench
set -euo pipefail
rounds=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
    for b in "$@"; do
        nice -n -20 taskset -c 1 "$b" gcm --quick --sizes 1500,16384 2>&1 |
            awk -v b="$b" '/^(aes|gmac)/{s=$1} $1 ~ /^[0-9]+$/ && /galois\/auto|aws-lc-rs/{print b, s, $1, $2, $4}' >>"$out"
    done
done
python3 - "$out" "$@" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    b, s, n, impl, ns = line.split()
    d[(s, n, impl.split("=")[0], b)].append(float(ns))
bins = sys.argv[2:]
for k in sorted({k[:3] for k in d}):
    base = statistics.median(d[k + (bins[0],)])
    cells = [f"{statistics.median(d[k + (b,)]):8.1f} ({statistics.median(d[k + (b,)]) / base:.3f})" for b in bins]
    print(f"{k[0]:12} {k[1]:>6} {k[2]:13}", " ".join(cells))
PY
