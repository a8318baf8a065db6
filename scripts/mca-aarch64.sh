#!/usr/bin/env bash
# llvm-mca estimate (not a measurement) of the 8-block GHASH loop of gf128/aarch64/pmull.rs:
# build first with
#   RUSTFLAGS="--cfg galois_cross" cargo +nightly build --release -Zbuild-std \
#     --target aarch64-unknown-linux-gnu -p galois-aead
# needs llvm-mca: llvm-19 where the distribution has it (apt-get install
# llvm-19; its Neoverse V1 model has the V1's four vector pipes), else
# llvm-16 (whose neoverse-v1 is the N2 model). MCA=llvm-mca-16 to choose.
# See docs/speed.md. MCA_DIR=DIR KEEP=1 keeps the extracted loops in DIR.
set -e
MCA=${MCA:-$(command -v llvm-mca-19 || command -v llvm-mca-16)}
OBJDUMP=${OBJDUMP:-$(command -v llvm-objdump-19 || command -v llvm-objdump-16)}
echo "# $($MCA --version | grep -m1 -o 'LLVM version [0-9.]*')"

T=${MCA_DIR:-$(mktemp -d)}
trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT
R=$(ls -t target/aarch64-unknown-linux-gnu/release/deps/libgalois_aead-*.rlib | head -1)
for v in eor3 neon; do
  "$OBJDUMP" -d --no-show-raw-insn "$R" 2>/dev/null |
    awk -v v="$v" '/^[0-9a-f]+ </ {p = ($0 ~ "pmull11absorb_"v); if (p) print "FN"; next} p' |
    sed 's/<_RN[^>]*>//' > "$T/fn-$v.s"
  # LLVM may emit several copies of the function (one per codegen unit, some
  # specialized to one block): take the first whose first backward branch
  # closes a loop with PMULL in it (the 8-block loop).
  python3 - "$v" "$T" <<'PY'
import re, sys
v, T = sys.argv[1], sys.argv[2]
fns, ins = [], None
for l in open(f"{T}/fn-{v}.s"):
    if l.startswith("FN"):
        ins = []
        fns.append(ins)
    elif ins is not None and re.match(r"\s*[0-9a-f]+:", l):
        a, rest = l.split(":", 1)
        ins.append((int(a, 16), rest.strip()))
loop = None
for ins in fns:
    for a, t in ins:
        m = re.match(r"(b\.\w+|cbnz|cbz|b)\s+(?:\w+,\s*)?0x([0-9a-f]+)", t)
        if m and int(m.group(2), 16) < a:
            body = [x for b, x in ins if int(m.group(2), 16) <= b < a]
            if any(x.startswith("pmull") for x in body):
                loop = body
            break
    if loop:
        break
assert loop, "no GHASH loop found"
open(f"{T}/loop-{v}.s", "w").write("".join(t + "\n" for t in loop))
PY
  for c in neoverse-n1 neoverse-v1 apple-m1; do
    printf "%-5s %-12s %4s instr " "$v" "$c" "$(wc -l < "$T/loop-$v.s")"
    $MCA -mtriple=aarch64-linux-gnu -mcpu=$c -mattr=+aes,+sha3 -iterations=400 "$T/loop-$v.s" |
      awk '/Total Cycles/{c=$3} /Block RThroughput/{r=$3} END{printf "cycles/8 blocks %.1f  cycles/block %.2f  (resource bound %.1f/8 blocks)\n", c/400, c/400/8, r}'
  done
done

# Poly1305 (issue 17): the portable radix-2^64 loop (as inlined into
# Poly1305::mac_with_backend, 1 block per iteration) and the NEON loop of
# poly1305/aarch64/neon.rs (blocks_neon, 4 blocks per iteration).
loop_of() { # symbol-regex out: the first backward branch's loop in that function
  "$OBJDUMP" -d --no-show-raw-insn "$R" 2>/dev/null |
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
    $MCA -mtriple=aarch64-linux-gnu -mcpu=$c -mattr=+aes,+sha3 -iterations=400 "$2" |
      awk -v n="$3" '/Total Cycles/{c=$3} /Block RThroughput/{r=$3} END{printf "cycles/block %.2f  cycles/byte %.2f  (resource bound %.2f cycles/block)\n", c/400/n, c/400/n/16, r/n}'
  done
}
loop_of 'Poly130516mac_with_backend>' "$T/p1305-portable.s" && mca poly1305-port "$T/p1305-portable.s" 1
loop_of '4neon11blocks_neon' "$T/p1305-neon.s" && mca poly1305-neon "$T/p1305-neon.s" 4

# Stitched AES-128-GCM (gcm/kernels/aarch64/pmull_aes.rs): the loop holding both
# AESE and PMULL (8 blocks per iteration), beside the pipe bound of its AES
# and PMULL instructions on each model (llvm-mca's per-instruction
# reciprocal throughputs; see docs/speed.md for how the bound is formed).
# `neon`: the intrinsics loop of neon::seal::<10>; `eor3`: AES-128 batches
# of the EOR3 kernel run in the asm loop of batches128_eor3 (eor3::seal::<10>
# still holds the intrinsics loop, which AES-128 no longer reaches on
# little-endian targets).
stitched_loop() { # variant(neon|eor3) out
  local fn="pmull_aes::$1::seal::<10>"
  [ "$1" = eor3 ] && fn="pmull_aes::batches128_eor3>"
  "$OBJDUMP" -d -C --no-show-raw-insn "$R" 2>/dev/null |
    awk -v re="$fn" 'index($0, re) && /^[0-9a-f]+ </ {p=1; next} p && /^[0-9a-f]+ </ {exit} p' > "$T/fn.s"
  python3 - "$T/fn.s" "$2" <<'PY'
import re, sys
ins = []
for l in open(sys.argv[1]):
    m = re.match(r"\s*([0-9a-f]+):\s*(.*)", l)
    if m:
        ins.append((int(m.group(1), 16), re.sub(r"\s*<.*>\s*$", "", m.group(2)).strip()))
best = None
for a, t in ins:
    m = re.match(r"(b\.\w+|cbnz|cbz|b)\s+(?:\w+,\s*)?0x([0-9a-f]+)", t)
    if m and int(m.group(2), 16) < a:
        body = [x for b, x in ins if int(m.group(2), 16) <= b < a]
        if any(x.startswith("aese") for x in body) and any(x.startswith("pmull") for x in body):
            best = body
            break
assert best and not any(x.startswith("bl") for x in best), "no call-free stitched loop found"
open(sys.argv[2], "w").write("".join(t + "\n" for t in best))
PY
}
bound() { # file model: AES and PMULL pipe-cycles per block from the model's throughputs
  $MCA -mtriple=aarch64-linux-gnu -mcpu=$2 -mattr=+aes,+sha3 -iterations=1 -instruction-info "$1" |
    awk '/\[1\]/ {hdr=1; next} hdr && NF > 5 && $0 ~ /(aese|aesmc|pmull)/ {
      split($0, f, /[ \t]+/); rt = $3; if ($0 ~ /aese|aesmc/) a += rt; else p += rt }
      END { printf "AES %.2f + PMULL %.2f pipe-cycles/block", a/8, p/8 }'
}
for v in neon eor3; do
  stitched_loop $v "$T/gcm-$v.s"
  for c in neoverse-n1 neoverse-v1 apple-m1; do
    printf "aes128-gcm-%-4s %-12s %4s instr " "$v" "$c" "$(wc -l < "$T/gcm-$v.s")"
    $MCA -mtriple=aarch64-linux-gnu -mcpu=$c -mattr=+aes,+sha3 -iterations=400 "$T/gcm-$v.s" |
      awk '/Total Cycles/{c=$3} /Block RThroughput/{r=$3} END{printf "cycles/block %.2f  (resource bound %.2f) ", c/400/8, r/8}'
    bound "$T/gcm-$v.s" $c
    echo
  done
done
