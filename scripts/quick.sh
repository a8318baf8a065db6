#!/usr/bin/env bash
# The fast path before a commit: galois-aead's and galois-cli's unit and
# integration tests (not the doc examples: scripts/check-docs.sh and the full
# run have those) on every backend this CPU has, then every known answer of
# vectors/ through `galois kat --all-backends`. Each test binary and the kat
# run end with `not run on this CPU: ...`. The whole of CI is scripts/test.sh.
# Usage: bash scripts/quick.sh   (under 5 minutes on 2 cores once built)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
mapfile -t VECTOR_FILES < <(bash scripts/vector-files.sh)
start=$SECONDS
cargo test --release --locked -p galois-aead -p galois-cli --lib --bins --tests
"$TARGET/release/galois" kat --all-backends "${VECTOR_FILES[@]}"
echo "quick: passed in $((SECONDS - start)) s"
