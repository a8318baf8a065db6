#!/usr/bin/env bash
# llvm-mca estimate (not a measurement) of the 8-block GHASH loop of gf128/pmull.rs:
# build first with
#   RUSTFLAGS="--cfg galois_cross" cargo +nightly build --release -Zbuild-std \
#     --target aarch64-unknown-linux-gnu -p galois-aead
# needs llvm-16 (apt-get install llvm-16). See docs/speed.md.
set -e
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=$(ls -t target/aarch64-unknown-linux-gnu/release/deps/libgalois_aead-*.rlib | head -1)
for v in eor3 neon; do
  llvm-objdump-16 -d --no-show-raw-insn "$R" 2>/dev/null |
    awk -v v="$v" '$0 ~ "^[0-9a-f]+ <.*pmull11absorb_"v {p=1; next} p && /^[0-9a-f]+ </ {exit} p' |
    sed 's/<_RN[^>]*>//' > "$T/fn-$v.s"
  # the first backward branch closes the 8-block loop
  python3 - "$v" "$T" <<'PY'
import re, sys
v, T = sys.argv[1], sys.argv[2]
lines = [l for l in open(f"{T}/fn-{v}.s") if re.match(r"\s*[0-9a-f]+:", l)]
ins = []
for l in lines:
    a, rest = l.split(":", 1)
    ins.append((int(a, 16), rest.strip()))
for a, t in ins:
    m = re.match(r"(b\.\w+|cbnz|cbz|b)\s+(?:\w+,\s*)?0x([0-9a-f]+)", t)
    if m and int(m.group(2), 16) < a:
        s, e = int(m.group(2), 16), a
        break
open(f"{T}/loop-{v}.s", "w").write("".join(t + "\n" for a, t in ins if s <= a < e))
PY
  for c in neoverse-n1 neoverse-v1 apple-m1; do
    printf "%-5s %-12s %4s instr " "$v" "$c" "$(wc -l < "$T/loop-$v.s")"
    llvm-mca-16 -mtriple=aarch64-linux-gnu -mcpu=$c -mattr=+aes,+sha3 -iterations=400 "$T/loop-$v.s" |
      awk '/Total Cycles/{c=$3} /Block RThroughput/{r=$3} END{printf "cycles/8 blocks %.1f  cycles/block %.2f  (resource bound %.1f/8 blocks)\n", c/400, c/400/8, r}'
  done
done
