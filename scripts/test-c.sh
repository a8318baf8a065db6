#!/usr/bin/env bash
# The C ABI's tests: installs libgalois (cdylib + staticlib, scripts/install-c.sh, staged)
# and checks the install, checks include/galois.h against the library's exported
# functions and their Rust signatures (scripts/check-c-header.py), builds and runs the
# README's C example as written and docs/c-api.md's streaming example against an
# install in a temporary HOME (pkg-config only), then builds the C test program
# through CMake against include/galois.h, and runs it with CTest: the shared vectors,
# every error code, random round trips, a differential test against OpenSSL, each
# against the shared and the static library, once more under valgrind memcheck,
# and in a second pass built with AddressSanitizer + UndefinedBehaviorSanitizer
# (GALOIS_C_SANITIZE=0 skips that pass). Groups: vectors errors roundtrip threads state
# wipe shared siv holes chunked cstream (openssl); see crates/galois-capi/tests-c/test_galois.c.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
dpkg -s libssl-dev >/dev/null 2>&1 || need+=(libssl-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
  echo "test-c: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac
VECTORS="$PWD/vectors"

echo "== every library error variant mapped to a C code (nightly lint, --cfg galois_exhaustive)"
bash scripts/setup-nightly.sh >/dev/null
RUSTFLAGS="--cfg galois_exhaustive" CARGO_TARGET_DIR="$TARGET/capi-exhaustive" \
  cargo +nightly check --locked -p galois-capi

echo "== install (scripts/install-c.sh, staged: DESTDIR=\$TARGET/c-stage PREFIX=/opt/galois)"
STAGE="$TARGET/c-stage"
rm -rf "$STAGE"
DESTDIR="$STAGE" PREFIX=/opt/galois bash scripts/install-c.sh
LIBDIR="$STAGE/opt/galois/lib"
VERSION=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
fail() { echo "test-c: install: $*" >&2; exit 1; }
[ -f "$STAGE/opt/galois/include/galois.h" ] || fail "no header"
[ -f "$LIBDIR/libgalois.so.$VERSION" ] && [ -f "$LIBDIR/libgalois.a" ] || fail "no libraries"
[ "$(readlink "$LIBDIR/libgalois.so.0")" = "libgalois.so.$VERSION" ] || fail "libgalois.so.0 link"
[ "$(readlink "$LIBDIR/libgalois.so")" = "libgalois.so.0" ] || fail "libgalois.so link"
dyn=$(readelf -d "$LIBDIR/libgalois.so.$VERSION")
grep -q 'SONAME.*\[libgalois\.so\.0\]' <<<"$dyn" || fail "SONAME"
sections=$(readelf -S "$LIBDIR/libgalois.so.$VERSION")
grep -qE '\.symtab|\.debug_' <<<"$sections" && fail "shared library not stripped"
grep -qx 'prefix=/opt/galois' "$LIBDIR/pkgconfig/galois.pc" || fail "galois.pc names the staging directory"
PKG_CONFIG_SYSROOT_DIR="$STAGE" PKG_CONFIG_LIBDIR="$LIBDIR/pkgconfig" pkg-config --exists galois galois-static ||
  fail "pkg-config does not read the .pc files"
echo "install: header, libgalois.so.$VERSION (SONAME libgalois.so.0, stripped), links, libgalois.a, .pc files"

echo "== include/galois.h against the exported symbols and the Rust signatures (scripts/check-c-header.py)"
CARGO_TARGET_DIR="$TARGET/capi-exhaustive" cargo +nightly rustc -q --locked -p galois-capi --lib \
  --profile=check -- -Zunpretty=expanded >"$TARGET/galois-capi-expanded.rs"
python3 scripts/check-c-header.py include/galois.h "$LIBDIR/libgalois.so.$VERSION" "$TARGET/galois-capi-expanded.rs"

echo "== the README's C example, run as written (HOME in a temporary directory)"
EX="$(mktemp -d)"
trap 'rm -rf "$EX"' EXIT
mkdir "$EX/home"
ln -s "$PWD/scripts" "$EX/scripts"
block() { # the fenced block after the README line '<!-- c-example: $1 ...'
  awk -v m="<!-- c-example: $1" 'index($0, m) == 1 { f = 1; next }
    f == 1 && /^```/ { f = 2; next } f == 2 && /^```/ { exit } f == 2 { print }' README.md
}
block app.c >"$EX/app.c"
block commands >"$EX/commands.sh"
[ -s "$EX/app.c" ] && [ -s "$EX/commands.sh" ] || fail "README example blocks not found"
out=$(cd "$EX" && env -u PKG_CONFIG_PATH HOME="$EX/home" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" \
  RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_TARGET_DIR="$TARGET" bash -euo pipefail commands.sh)
echo "$out"
[ "$(grep -c "success, tampered: authentication failed" <<<"$out")" = 2 ] || fail "README example output"
# (outputs captured first: grep -q closing a pipe early fails it under pipefail)
deps=$(ldd "$EX/app")
grep -qF "libgalois.so.0 => $EX/home/.local/lib/libgalois.so.0" <<<"$deps" || fail "app does not load the installed library"
deps=$(ldd "$EX/app-static")
grep -q libgalois <<<"$deps" && fail "app-static loads libgalois.so"
echo "README example: built with pkg-config from the installed files only, shared and static, ran"

echo "== docs/c-api.md's streaming example (built against the staged install, shared)"
awk -v m="<!-- c-example: stream.c" 'index($0, m) == 1 { f = 1; next }
  f == 1 && /^```/ { f = 2; next } f == 2 && /^```/ { exit } f == 2 { print }' docs/c-api.md >"$EX/stream.c"
[ -s "$EX/stream.c" ] || fail "docs/c-api.md example block not found"
cc -std=c11 -Wall -Wextra -Werror -I"$STAGE/opt/galois/include" "$EX/stream.c" -L"$LIBDIR" -lgalois \
  -Wl,-rpath,"$LIBDIR" -o "$EX/stream"
out=$("$EX/stream")
echo "$out"
grep -q "^stream: 40000 bytes sealed" <<<"$out" || fail "docs/c-api.md example output"

SAN=ON
[ "${GALOIS_C_SANITIZE:-1}" = 0 ] && SAN=OFF
BUILD="$TARGET/c-tests"
cmake -S crates/galois-capi/tests-c -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug \
  -DGALOIS_LIB_DIR="$LIBDIR" -DGALOIS_VECTORS_DIR="$VECTORS" -DGALOIS_VALGRIND=ON \
  -DGALOIS_SANITIZE=$SAN >/dev/null
cmake --build "$BUILD" -j2
ctest --test-dir "$BUILD" --output-on-failure -LE sanitize
if [ "$SAN" = ON ]; then
  echo "== second pass: ASan + UBSan (halt on the first report)"
  ctest --test-dir "$BUILD" --output-on-failure -L sanitize
fi
