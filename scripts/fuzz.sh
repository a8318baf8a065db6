#!/usr/bin/env bash
# Differential fuzzing with cargo-fuzz / libFuzzer (targets in fuzz/fuzz_targets).
#
#   bash scripts/fuzz.sh --ci                 6 s of fuzzing per target (CI)
#   bash scripts/fuzz.sh --long N [target..]  N executions per target (-runs=N)
#   bash scripts/fuzz.sh --time S [target..]  S seconds per target
#
# Installs what it needs (the nightly toolchain through scripts/setup-nightly.sh,
# cargo-fuzz through cargo install), builds every target (no sanitizer: the
# targets check results themselves; debug assertions and overflow checks on;
# coverage without compare tracing, for throughput), writes seed corpora from
# the shared vectors into fuzz/corpus (kept between runs, not committed),
# replays the committed seeds of the targets that have them (fuzz/seeds/<target>/,
# written by scripts/fuzz-seeds.py; -runs=0, every file whole: chunked_open's
# records carry the outcome the Python Cobblestone reference gave), runs
# (those seeds joining the corpus), and prints: target, executions, crashes,
# mismatches, seconds. Exits non-zero
# on any crash (panic, abort, timeout, out of memory) or mismatch; the input
# that caused it is left in fuzz/artifacts/<target>/.
#
# Long runs as recorded in fuzz/RESULTS.md (one core, leaving the other free):
#   nice -n 15 taskset -c 0 bash scripts/fuzz.sh --long 10000000
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

MODE=${1:---ci}
case "$MODE" in
  --ci) shift || true; AMOUNT=6 ;;
  --long|--time) shift; AMOUNT=${1:?"$MODE needs a number"}; shift ;;
  *) echo "usage: $0 --ci | --long RUNS [target...] | --time SECONDS [target...]"; exit 2 ;;
esac

ALL="gcm_backends gcm_openssl gmac poly1305_aes online_splits stream_open_arbitrary packet_open_arbitrary vector_parser chunked_open gcm_siv_awslc xaes_spec"
TARGETS=${*:-$ALL}

# Longest input per target (what the recorded long runs used): short enough
# for the executions to count on one core, long enough for the batch paths
# (8- and 16-block GCM kernels, IFMA Poly1305 from 192 bytes; AVX2 and
# eight-lane IFMA Poly1305 through the target's 10-14 KiB repeat mode;
# chunked_open builds files of up to four 16 KiB chunks from short inputs,
# and its longer seeds are replayed whole).
# FUZZ_MAX_LEN overrides it for every target.
max_len() {
  if [ -n "${FUZZ_MAX_LEN:-}" ]; then echo "$FUZZ_MAX_LEN"; return; fi
  case "$1" in
    gcm_backends|gmac) echo 300 ;;
    online_splits|poly1305_aes) echo 400 ;;
    gcm_siv_awslc|xaes_spec) echo 600 ;;
    chunked_open) echo 1024 ;;
    stream_open_arbitrary) echo 1024 ;;
    vector_parser) echo 4096 ;;
    *) echo 2048 ;;
  esac
}

bash scripts/setup-nightly.sh >/dev/null
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  env -u CARGO_TARGET_DIR cargo install cargo-fuzz --locked
fi

# The seed generator is galois-cli's example `fuzz_seed` (stable Rust), built
# in the workspace's own target directory as the workspace builds its
# examples: in CI the build stage made it already (same features, same
# directory), so nothing is compiled twice. It builds alongside the targets
# (nightly), whose build is serial in places.
SEED_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
echo "fuzz: building the targets and the seed generator"
CARGO_TARGET_DIR="$SEED_DIR" cargo build --release --locked --quiet --workspace --examples &
seed_build=$!
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$ROOT/fuzz/target}"
cargo +nightly fuzz build -s none --no-trace-compares
wait "$seed_build"
BIN="$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release"

VECTORS="$ROOT/vectors"
echo "fuzz: seed corpora from $VECTORS"
"$SEED_DIR/release/examples/fuzz_seed" "$VECTORS" fuzz/corpus >/dev/null

LOGS="$ROOT/fuzz/artifacts/logs"
mkdir -p "$LOGS"
fail=0
rows=()
for t in $TARGETS; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  seeds=()
  if [ -d "fuzz/seeds/$t" ]; then
    seeds=("fuzz/seeds/$t")
    if ! "$BIN/$t" -runs=0 -artifact_prefix="fuzz/artifacts/$t/" "fuzz/seeds/$t" >"$LOGS/$t.seeds.log" 2>&1; then
      fail=1
      echo "fuzz: $t FAILED on its committed seeds (log: $LOGS/$t.seeds.log)"
      grep -m3 -E 'MISMATCH:|panicked at|ERROR: libFuzzer' "$LOGS/$t.seeds.log" || true
    fi
  fi
  if [ "$MODE" = --long ]; then limit=(-runs="$AMOUNT"); else limit=(-max_total_time="$AMOUNT"); fi
  before=$(ls "fuzz/artifacts/$t" | wc -l)
  start=$(date +%s%N)
  set +e
  "$BIN/$t" "${limit[@]}" -max_len="$(max_len "$t")" -timeout=60 -print_final_stats=1 \
    -artifact_prefix="fuzz/artifacts/$t/" "fuzz/corpus/$t" "${seeds[@]}" >"$LOGS/$t.log" 2>&1
  rc=$?
  set -e
  ds=$(( ($(date +%s%N) - start) / 100000000 ))
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$LOGS/$t.log" | grep -o '[0-9]*$' || true)
  if [ -z "$execs" ]; then
    # No final statistics after a crash: the last status line's count.
    execs=$(grep -o '^#[0-9]*' "$LOGS/$t.log" | tail -1 | tr -d '#' || true)
  fi
  mism=$(grep -c 'MISMATCH:' "$LOGS/$t.log" || true)
  crashes=$(( $(ls "fuzz/artifacts/$t" | wc -l) - before ))
  if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes=1; fi
  if [ "$mism" -gt 0 ] && [ "$crashes" -gt 0 ]; then crashes=$((crashes - 1)); fi
  if [ "$rc" -ne 0 ] || [ "$mism" -gt 0 ] || [ "$crashes" -gt 0 ]; then
    fail=1
    echo "fuzz: $t FAILED (log: $LOGS/$t.log)"
    grep -m3 -E 'MISMATCH:|panicked at|ERROR: libFuzzer' "$LOGS/$t.log" || true
  fi
  rows+=("$(printf '| %-22s | %12s | %7s | %10s | %6d.%d |' "$t" "${execs:-0}" "$crashes" "$mism" $((ds / 10)) $((ds % 10)))")
done

echo
echo "| target                 |   executions | crashes | mismatches | time (s) |"
echo "|------------------------|--------------|---------|------------|----------|"
printf '%s\n' "${rows[@]}"
if [ "$fail" -ne 0 ]; then
  echo "fuzz: FAILED (inputs in fuzz/artifacts/<target>/)"
  exit 1
fi
echo "fuzz: no crashes, no mismatches"
