#!/usr/bin/env bash
# Cobblestone interoperability: files sealed by `galois seal` open with an
# independent implementation of c2sp.org/chunked-encryption (scripts/cobblestone.py,
# `cryptography`'s HKDF and AESGCM), and files it seals open with
# `galois open --raw-key`; tampered, truncated and wrong-context files are refused
# both ways. Uses the Python venv of scripts/test-py.sh (created here if absent).
# Usage: bash scripts/test-chunked.sh   (builds the release targets it needs)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac
VENV="$TARGET/py-venv"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PY" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv
  fi
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "cryptography==50.0.2"
# The targets scripts/test.sh built (under the test run's features: in CI
# this is fresh; -p galois-cli alone would compile the library again).
cargo build --release --locked --workspace --lib --bins --tests --examples >/dev/null
GALOIS="$TARGET/release/galois"
REF=("$VENV/bin/python" scripts/cobblestone.py)

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
check() { # check NAME COMMAND...: the command must succeed
  if "${@:2}" 2>"$T/err"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL $1: $(cat "$T/err")"; fi
}
refuse() { # refuse NAME COMMAND...: the command must fail
  if "${@:2}" 2>/dev/null; then failed=$((failed + 1)); echo "FAIL $1: accepted"; else
    passed=$((passed + 1)); fi
}
same() { # same NAME A B: files equal
  if cmp -s "$2" "$3"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL $1: files differ"; fi
}

for klen in 16 32; do
  head -c "$klen" /dev/urandom >"$T/raw$klen"
  for n in 0 1 16383 16384 16385 32768 100000 4210689; do
    head -c "$n" /dev/urandom >"$T/p"
    ctx="ctx $klen $n"
    # galois seals, the reference opens.
    check "galois seal $klen/$n" "$GALOIS" seal --raw-key "$T/raw$klen" --context "$ctx" -o "$T/g" --force "$T/p"
    check "ref open $klen/$n" "${REF[@]}" open "$T/raw$klen" "$ctx" "$T/g" "$T/gb"
    same "ref open $klen/$n" "$T/p" "$T/gb"
    refuse "ref open, wrong context $klen/$n" "${REF[@]}" open "$T/raw$klen" "other" "$T/g" "$T/x"
    # The reference seals, galois opens (--aad is the same flag as --context).
    check "ref seal $klen/$n" "${REF[@]}" seal "$T/raw$klen" "$ctx" "$T/p" "$T/r"
    check "galois open $klen/$n" "$GALOIS" open --raw-key "$T/raw$klen" --aad "$ctx" -o "$T/rb" --force "$T/r"
    same "galois open $klen/$n" "$T/p" "$T/rb"
    refuse "galois open, wrong context $klen/$n" "$GALOIS" open --raw-key "$T/raw$klen" -o "$T/x" --force "$T/r"
    # Cut at the last chunk boundary (the final chunk dropped), and one bit flipped.
    size=$(stat -c %s "$T/r")
    full=$(( (size - 56) / 16400 ))
    head -c $((56 + full * 16400)) "$T/r" >"$T/cut"
    refuse "galois open, final chunk dropped $klen/$n" "$GALOIS" open --raw-key "$T/raw$klen" --context "$ctx" -o "$T/x" --force "$T/cut"
    refuse "ref open, final chunk dropped $klen/$n" "${REF[@]}" open "$T/raw$klen" "$ctx" "$T/cut" "$T/x"
    cp "$T/g" "$T/flip"
    "$VENV/bin/python" -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[-1]^=0x41; open(p,'wb').write(b)" "$T/flip"
    refuse "ref open, flipped $klen/$n" "${REF[@]}" open "$T/raw$klen" "$ctx" "$T/flip" "$T/x"
    refuse "galois open, flipped $klen/$n" "$GALOIS" open --raw-key "$T/raw$klen" --context "$ctx" -o "$T/x" --force "$T/flip"
  done
done
echo "test-chunked: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
