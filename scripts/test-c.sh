#!/usr/bin/env bash
# The C ABI's tests: builds libgalois (cdylib + staticlib), then the C test program
# through CMake against include/galois.h, and runs it with CTest: the shared vectors,
# every error code, random round trips, a differential test against OpenSSL, each
# against the shared and the static library, once more under valgrind memcheck,
# and in a second pass built with AddressSanitizer + UndefinedBehaviorSanitizer
# (GALOIS_C_SANITIZE=0 skips that pass). Groups: vectors errors roundtrip threads state
# wipe shared (openssl); see crates/galois-capi/tests-c/test_galois.c.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
dpkg -s libssl-dev >/dev/null 2>&1 || need+=(libssl-dev)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
  echo "test-c: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac
VECTORS="${GALOIS_VECTORS_DIR:-$(cd .. && pwd)/shared/vectors}"
ls "$VECTORS"/*.json >/dev/null || { echo "test-c: no vector files in $VECTORS"; exit 1; }

echo "== every library error variant mapped to a C code (nightly lint, --cfg galois_exhaustive)"
bash scripts/setup-nightly.sh >/dev/null
RUSTFLAGS="--cfg galois_exhaustive" CARGO_TARGET_DIR="$TARGET/capi-exhaustive" \
  cargo +nightly check --locked -p galois-capi

echo "== cargo build --release -p galois-capi"
cargo build --release --locked -p galois-capi
ls "$TARGET/release/libgalois.so" "$TARGET/release/libgalois.a" >/dev/null

SAN=ON
[ "${GALOIS_C_SANITIZE:-1}" = 0 ] && SAN=OFF
BUILD="$TARGET/c-tests"
cmake -S crates/galois-capi/tests-c -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug \
  -DGALOIS_LIB_DIR="$TARGET/release" -DGALOIS_VECTORS_DIR="$VECTORS" -DGALOIS_VALGRIND=ON \
  -DGALOIS_SANITIZE=$SAN >/dev/null
cmake --build "$BUILD" -j2
ctest --test-dir "$BUILD" --output-on-failure -LE sanitize
if [ "$SAN" = ON ]; then
  echo "== second pass: ASan + UBSan (halt on the first report)"
  ctest --test-dir "$BUILD" --output-on-failure -L sanitize
fi
