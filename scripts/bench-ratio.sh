#!/bin/bash
# Ratios taken inside each run, for a host too noisy for absolute numbers
# (a row of one binary moved by up to 1.4x between back-to-back runs on the
# shared Zen 3 host): every round runs each binary once, pinned, and the
# medians (and ranges) of the per-run ratios are printed per binary.
#   bash scripts/bench-ratio.sh gcm 11 old/galois-bench new/galois-bench
#     ring's ns over galois's (automatic backend), AES-128/256-GCM seal and
#     AES-128-GCM open at 1500 B and 16 KiB (`gcm --quick`): > 1 is faster
#   bash scripts/bench-ratio.sh keys 21 old/galois-bench new/galois-bench
#     XAES-256-GCM's ns over fixed-key AES-256-GCM's, seal and open at
#     1500 B and 16 KiB (`keys --quick`; issue 15's targets 1.5x and 1.1x)
# BENCH_CPU picks the core (default 0).
set -euo pipefail
mode=$1
rounds=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$rounds"); do
  for b in "$@"; do
    if [ "$mode" = gcm ]; then
      nice -n -20 taskset -c "${BENCH_CPU:-0}" "$b" gcm --quick --sizes 1500,16384 2>&1 |
        awk -v b="$b" '/^[a-z]/{s=$1} /galois\/auto/{g[s" "$1]=$4} / ring /{r[s" "$1]=$4}
          END{for (k in g) if (k in r) printf "%s\t%s\t%.4f\n", b, k, r[k]/g[k]}'
    elif [ "$mode" = keys ]; then
      nice -n -20 taskset -c "${BENCH_CPU:-0}" "$b" keys --quick 2>&1 |
        awk -v b="$b" '
          /^aes-256-gcm fixed key [0-9]+ B/{f[$4]=$(NF-1)}
          /^aes-256-gcm fixed key open [0-9]+ B/{fo[$5]=$(NF-1)}
          /^xaes-256-gcm [0-9]+ B/{x[$2]=$(NF-1)}
          /^xaes-256-gcm open [0-9]+ B/{xo[$3]=$(NF-1)}
          END{for (k in x) if (k in f) printf "%s\tseal %s\t%.4f\n", b, k, x[k]/f[k];
              for (k in xo) if (k in fo) printf "%s\topen %s\t%.4f\n", b, k, xo[k]/fo[k]}'
    else
      echo "usage: $0 gcm|keys ROUNDS BIN..." >&2
      exit 2
    fi
  done
done >"$out"
python3 - "$out" "$@" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    b, k, v = line.rstrip("\n").split("\t")
    d[(k, b)].append(float(v))
bins = sys.argv[2:]
print("row".ljust(24) + "  ".join(b[-24:].rjust(24) for b in bins))
for k in sorted({k for k, _ in d}):
    cells = []
    for b in bins:
        v = d.get((k, b), [])
        cells.append((f"{statistics.median(v):.3f} [{min(v):.2f}-{max(v):.2f}]" if v else "-").rjust(24))
    print(k.ljust(24) + "  ".join(cells))
PY
