#!/usr/bin/env bash
# The Python package's tests: a venv with pinned pytest, cryptography and mypy; the
# package installed by the README's one command (pip builds the abi3 wheel with
# maturin, the PEP 517 backend of crates/galois-py/pyproject.toml); then pytest
# (shared vectors, differential and drop-in tests against cryptography, bad input).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac
VENV="$TARGET/py-venv"

PY="${PYTHON:-python3}"
if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "== venv $VENV"
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check \
  "pytest==9.2.0" "cryptography==50.0.2" "mypy==2.4.1"

echo "== crates/galois-py/Cargo.lock is current (cargo metadata --locked fails if it would change)"
cargo metadata --locked --format-version 1 --manifest-path crates/galois-py/Cargo.toml >/dev/null

echo "== pip install ./crates/galois-py (the README's command; maturin as PEP 517 backend)"
# Exactly the command the README shows (test_install.py checks that they agree),
# run from the repository root. CARGO_TARGET_DIR only keeps the Rust build
# between runs. The lock was checked above; the build then cannot change it.
"$VENV/bin/python" -m pip uninstall -q -y galois-aead >/dev/null 2>&1 || true
CARGO_TARGET_DIR="$TARGET/galois-py" PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$VENV/bin/python" -m pip install ./crates/galois-py

echo "== pytest"
# Run from outside the source tree so the installed wheel is what gets imported.
cd "$TARGET"
"$VENV/bin/python" -m pytest -p no:cacheprovider "$OLDPWD/crates/galois-py/tests"
