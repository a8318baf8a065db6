#!/usr/bin/env bash
# The Python package's tests: a venv with pinned maturin, pytest and cryptography,
# the abi3 wheel built by maturin from crates/galois-py, installed into the venv,
# then pytest (shared vectors, differential tests against cryptography, bad input).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac
VENV="$TARGET/py-venv"
VECTORS="${GALOIS_VECTORS_DIR:-$(cd .. && pwd)/shared/vectors}"
ls "$VECTORS"/*.json >/dev/null || { echo "test-py: no vector files in $VECTORS"; exit 1; }
export GALOIS_VECTORS_DIR="$VECTORS"

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
  "maturin==1.16.0" "pytest==9.2.0" "cryptography==50.0.2" "mypy==2.4.1"

echo "== maturin build (abi3 wheel)"
# Not --locked: crates/galois-py/Cargo.lock pins pyo3 and the rest, but galois's own
# dependencies may grow in the workspace before this lock file is refreshed.
WHEELS="$TARGET/wheels"
rm -rf "$WHEELS"
(cd crates/galois-py && CARGO_TARGET_DIR="$TARGET/galois-py" \
  "$VENV/bin/maturin" build --release -i "$VENV/bin/python" -o "$WHEELS")
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/galois_aead-*.whl

echo "== pytest"
# Run from outside the source tree so the installed wheel is what gets imported.
cd "$TARGET"
"$VENV/bin/python" -m pytest -p no:cacheprovider "$OLDPWD/crates/galois-py/tests"
