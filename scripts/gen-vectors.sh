#!/usr/bin/env bash
# Regenerates the size-sweep known answers of vectors/ (*_sizes_pyca.json)
# with scripts/gen-vectors.py in a venv of its own holding a pinned pyca
# `cryptography`. `--check` (CI) regenerates them in memory and fails if the
# committed files differ.
# Usage: bash scripts/gen-vectors.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
VENV="$TARGET/gen-vectors-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "cryptography==50.0.2"
"$VENV/bin/python" scripts/gen-vectors.py "$@"
