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
#   bash scripts/bench-ab.sh --ratio-gcm 11 old/galois-bench new/galois-bench
#   bash scripts/bench-ab.sh --ratio-keys 21 old/galois-bench new/galois-bench
#   bash scripts/bench-ab.sh --ratio-siv 11 new/galois-bench
#     ratios taken inside each run, for a host too noisy for absolute
#     numbers (rows of one binary moved by up to 1.4x between back-to-back
#     runs on the shared Zen 3 host): ring's ns over galois's (`gcm`: > 1 is
#     faster), or XAES-256-GCM's over fixed-key AES-256-GCM's (`keys`: issue
#     15's targets 1.5x at 1500 B, 1.1x at 16 KiB), or aws-lc-rs's over
#     galois's AES-GCM-SIV seal (`siv --control`'s ratio column, the median
#     of its rounds' ratios; SIZES or 16 B to 16 KiB; with the control:
#     aws-lc-rs over a second galois key); the
#     median and range of the per-run ratios per binary
# BENCH_CPU=0 pins to core 0 instead of core 1 (when another tenant loads it).
set -euo pipefail
mode=gcm
case "${1:-}" in
    --keys) mode=keys; shift ;;
    --ratio-gcm) mode=ratio-gcm; shift ;;
    --ratio-keys) mode=ratio-keys; shift ;;
    --ratio-siv) mode=ratio-siv; shift ;;
esac
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
        elif [ "$mode" = ratio-gcm ]; then
            nice -n -20 taskset -c "${BENCH_CPU:-1}" "$b" gcm --quick --sizes 1500,16384 2>&1 |
                awk -v b="$b" '/^[a-z]/{s=$1} /galois\/auto/{g[s" "$1]=$4} / ring /{r[s" "$1]=$4}
                  END{for (k in g) if (k in r) printf "%s\tring/galois %s\t%.4f\n", b, k, r[k]/g[k]}'
        elif [ "$mode" = ratio-siv ]; then
            nice -n -20 taskset -c "${BENCH_CPU:-1}" "$b" siv --control \
                --sizes "${SIZES:-16,64,256,1500,8192,16384}" 2>&1 |
                awk -v b="$b" '/^[a-z]/{s=$1} /control/{printf "%s\taws-lc-rs/control %s %s\t%s\n", b, s, $1, $NF; next}
                  /galois\// && s !~ /xaes/{printf "%s\taws-lc-rs/galois %s %s\t%s\n", b, s, $1, $NF}'
        elif [ "$mode" = ratio-keys ]; then
            nice -n -20 taskset -c "${BENCH_CPU:-1}" "$b" keys --quick 2>&1 |
                awk -v b="$b" '
                  /^aes-256-gcm fixed key [0-9]+ B/{f[$4]=$(NF-1)}
                  /^aes-256-gcm fixed key open [0-9]+ B/{fo[$5]=$(NF-1)}
                  /^xaes-256-gcm [0-9]+ B/{x[$2]=$(NF-1)}
                  /^xaes-256-gcm open [0-9]+ B/{xo[$3]=$(NF-1)}
                  END{for (k in x) if (k in f) printf "%s\txaes/fixed seal %s\t%.4f\n", b, k, x[k]/f[k];
                      for (k in xo) if (k in fo) printf "%s\txaes/fixed open %s\t%.4f\n", b, k, xo[k]/fo[k]}'
        else
            # Rows are "label ... median lowest-decile".
            nice -n -20 taskset -c "${BENCH_CPU:-1}" "$b" keys --quick 2>&1 |
                awk -v b="$b" 'NR > 2 && NF >= 3 {v = $(NF-1); $NF = ""; $(NF-1) = ""; sub(/ +$/, ""); print b "\t" $0 "\t" v}'
        fi
    done >>"$out"
done
python3 - "$out" "$mode" "$@" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    b, row, v = line.rstrip("\n").split("\t")
    if row not in order:
        order.append(row)
    d[(row, b)].append(float(v))
bins = sys.argv[3:]
if sys.argv[2].startswith("ratio"):
    for row in sorted(order):
        cells = []
        for b in bins:
            v = d.get((row, b), [])
            cells.append(f"{statistics.median(v):.3f} [{min(v):.2f}-{max(v):.2f}]" if v else "-")
        print(f"{row:40}", "  ".join(cells))
    sys.exit()
for row in order:
    base = statistics.median(d[(row, bins[0])])
    cells = [f"{statistics.median(d[(row, b)]):8.1f} ({statistics.median(d[(row, b)]) / base:.3f})" for b in bins]
    print(f"{row:40}", " ".join(cells))
PY
