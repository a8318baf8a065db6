#!/usr/bin/env bash
# Installs the nightly toolchain pieces the hardening checks need (Miri, rust-src
# for Miri's std and for sanitizers, llvm-tools), without updating a nightly that
# is already there (an update would change the compiler under CI's feet).
# Usage: bash scripts/setup-nightly.sh [component ...]
set -euo pipefail
[ -x "$HOME/.cargo/bin/rustup" ] && export PATH="$HOME/.cargo/bin:$PATH"
command -v rustup >/dev/null 2>&1 || { echo "setup-nightly: rustup not found"; exit 1; }
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "setup-nightly: installing the nightly toolchain (minimal profile)"
  rustup toolchain install nightly --profile minimal
fi
for c in "$@"; do
  if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q "^$c"; then
    echo "setup-nightly: adding $c"
    rustup component add --toolchain nightly "$c"
  fi
done
rustup run nightly rustc --version
