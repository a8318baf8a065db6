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

# Poly1305 (issue 17): the portable radix-2^64 loop (as inlined into
# Poly1305::mac_with_backend, 1 block per iteration) and the NEON loop of
# poly1305/neon.rs (blocks_neon, 4 blocks per iteration).
loop_of() { # symbol-regex out: the first backward branch's loop in that function
  llvm-objdump-16 -d --no-show-raw-insn "$R" 2>/dev/null |
    awk -v re="$1" '$0 ~ "^[0-9a-f]+ <.*"re {p=1; next} p && /^[0-9a-f]+ </ {exit} p' > "$T/fn.s"
  python3 - "$T/fn.s" "$2" <<'PY'
import re, sys
ins = []
for l in open(sys.argv[1]):
    m = re.match(r"\s*([0-9a-f]+):\s*(.*)", l)
    if m:
        ins.append((int(m.group(1), 16), re.sub(r"<[^>]*>", "", m.group(2)).strip()))
for a, t in ins:
    m = re.match(r"(b\.\w+|cbnz|cbz|b)\s+(?:\w+,\s*)?0x([0-9a-f]+)", t)
    if m and int(m.group(2), 16) < a:
        s, e = int(m.group(2), 16), a
        break
open(sys.argv[2], "w").write("".join(t + "\n" for a, t in ins if s <= a < e))
PY
}
mca() { # name file blocks-per-iteration
  for c in neoverse-n1 neoverse-v1 apple-m1; do
    printf "%-14s %-12s %4s instr " "$1" "$c" "$(wc -l < "$2")"
    llvm-mca-16 -mtriple=aarch64-linux-gnu -mcpu=$c -mattr=+aes,+sha3 -iterations=400 "$2" |
      awk -v n="$3" '/Total Cycles/{c=$3} /Block RThroughput/{r=$3} END{printf "cycles/block %.2f  cycles/byte %.2f  (resource bound %.2f cycles/block)\n", c/400/n, c/400/n/16, r/n}'
  done
}
loop_of 'Poly130516mac_with_backend>' "$T/p1305-portable.s" && mca poly1305-port "$T/p1305-portable.s" 1
loop_of '4neon11blocks_neon' "$T/p1305-neon.s" && mca poly1305-neon "$T/p1305-neon.s" 4
