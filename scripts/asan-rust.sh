#!/usr/bin/env bash
# The Rust tests of the stream and packet code (and the Miri and bad-input test
# files) built with AddressSanitizer (nightly -Zsanitizer=address), on the native
# backends of this CPU, SIMD included: out-of-bounds accesses and use after free
# in galois and its dependencies stop the run. The standard library itself is
# not rebuilt (no -Zbuild-std), so its own accesses are not instrumented.
# Usage: scripts/asan-rust.sh   (mostly build time: about 3 to 5 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/hardening}/asan"

bash scripts/setup-nightly.sh >/dev/null
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Zsanitizer=address"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1"
# --target keeps build scripts and proc macros out of the sanitized build.
cargo +nightly test --locked --release -p galois-aead --target "$host" \
  --test stream --test packet --test hardening --test miri
echo "asan-rust: clean"
