#!/usr/bin/env bash
# Miri over the portable code (crates/galois-aead/tests/miri.rs) and the stitched
# xmm AES-GCM kernel (tests/miri_simd.rs): (every portable GHASH
# and GF(2^64) backend, the portable AES and Poly1305, GCM/GMAC, the on-line API,
# the stream format including tampered/truncated/reordered streams, and the
# packet sealer/opener including replays), under Miri's default checks (Stacked
# Borrows, uninitialised memory, alignment, data races, leaks). Under Miri the
# run-time CPU detection finds no SIMD feature, so the automatic choices are the
# portable ones (the test checks that).
# Usage: scripts/miri.sh            (about 3 to 5 minutes on 2 cores, with setup)
# Extra arguments go to the test binary, e.g. scripts/miri.sh stream
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/hardening}"

bash scripts/setup-nightly.sh miri rust-src >/dev/null
start=$(date +%s)
echo "== cargo +nightly miri setup"
cargo +nightly miri setup >/dev/null 2>&1 || cargo +nightly miri setup
echo "== cargo +nightly miri test -p galois-aead --test miri"
# Miri interprets one thread at a time; one CPU makes the stream code's
# worker pools sequential (their threads are still spawned and joined).
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-num-cpus=1}"
cargo +nightly miri test --locked -p galois-aead --test miri -- "$@"
if [ $# -eq 0 ]; then
  echo "== cargo +nightly miri test -p galois-capi (the C state through the ABI)"
  bash scripts/expect-tests.sh 2 cargo +nightly miri test --locked -p galois-capi --lib -- \
    --exact tests::state_copies_and_reinit_through_the_abi tests::live_table_slots
  echo "== cargo +nightly miri test -p galois-aead --test miri_simd (the stitched xmm kernel)"
  # Miri runs AES-NI rounds, PCLMULQDQ and SSE4.1 when they are compiled in;
  # its detection then finds them. The aes crate (the reference side) is
  # kept on its software path, whose key schedule Miri can run.
  CARGO_TARGET_DIR="$CARGO_TARGET_DIR/simd" \
    RUSTFLAGS='-C target-feature=+aes,+pclmulqdq,+ssse3,+sse4.1 --cfg aes_backend="soft"' \
    cargo +nightly miri test --locked -p galois-aead --test miri_simd
fi
echo "miri: clean in $(($(date +%s) - start)) s"
