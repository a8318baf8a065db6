#!/usr/bin/env bash
# Installs galois's C library the way C users expect:
#   $PREFIX/include/galois.h
#   $PREFIX/lib/libgalois.so.<version>   (stripped; SONAME libgalois.so.<major>)
#   $PREFIX/lib/libgalois.so.<major> -> libgalois.so.<version>
#   $PREFIX/lib/libgalois.so -> libgalois.so.<major>
#   $PREFIX/lib/libgalois.a              (debug info stripped)
#   $PREFIX/lib/pkgconfig/galois.pc         cc app.c $(pkg-config --cflags --libs galois)
#   $PREFIX/lib/pkgconfig/galois-static.pc  the same, linking libgalois.a
#   $PREFIX/lib/ossl-modules/galois.so     the OpenSSL 3 provider (crates/galois-ossl)
#   $PREFIX/share/galois/openssl-galois.cnf  OPENSSL_CONF that loads it beside the
#                                            default provider and prefers it
# Usage: PREFIX=/usr/local bash scripts/install-c.sh   (PREFIX: absolute, default /usr/local)
#        DESTDIR=/tmp/stage PREFIX=/usr bash scripts/install-c.sh   (staged, for packaging:
#        files go under $DESTDIR$PREFIX, the .pc files name $PREFIX)
# Builds the libraries first (cargo build --release -p galois-capi, -p galois-ossl). Linux only.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
case "$PREFIX" in /*) ;; *) echo "install-c: PREFIX must be an absolute path (got '$PREFIX')" >&2; exit 2 ;; esac
PREFIX="${PREFIX%/}"
[ -n "$PREFIX" ] || PREFIX=/
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
case "$TARGET" in /*) ;; *) TARGET="$PWD/$TARGET" ;; esac

cargo build --release --locked -p galois-capi
cargo build --release --locked -p galois-ossl
VERSION=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
MAJOR="${VERSION%%.*}"
[ -n "$VERSION" ] || { echo "install-c: no version in Cargo.toml" >&2; exit 1; }
SO="$TARGET/release/libgalois.so"
dyn=$(readelf -d "$SO")
grep -q "SONAME.*\[libgalois\.so\.$MAJOR\]" <<<"$dyn" ||
  { echo "install-c: $SO lacks the SONAME libgalois.so.$MAJOR (crates/galois-capi/build.rs)" >&2; exit 1; }

LIB="$DESTDIR$PREFIX/lib"
INC="$DESTDIR$PREFIX/include"
install -d "$LIB/pkgconfig" "$INC"
install -m 644 include/galois.h "$INC/galois.h"
install -m 755 "$SO" "$LIB/libgalois.so.$VERSION"
strip --strip-unneeded "$LIB/libgalois.so.$VERSION"
ln -sfn "libgalois.so.$VERSION" "$LIB/libgalois.so.$MAJOR"
ln -sfn "libgalois.so.$MAJOR" "$LIB/libgalois.so"
install -m 644 "$TARGET/release/libgalois.a" "$LIB/libgalois.a"
strip --strip-debug "$LIB/libgalois.a"

# What the Rust standard library in libgalois.a needs from the system (rustc
# --print native-static-libs on Linux).
PRIVATE="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
pc_head() {
  cat <<EOF
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

EOF
}
{
  pc_head
  cat <<EOF
Name: galois
Description: AES-GCM, AES-GMAC and Poly1305-AES (C interface of galois-aead)
Version: $VERSION
Cflags: -I\${includedir}
Libs: -L\${libdir} -lgalois
Libs.private: $PRIVATE
EOF
} >"$LIB/pkgconfig/galois.pc"
{
  pc_head
  cat <<EOF
Name: galois-static
Description: AES-GCM, AES-GMAC and Poly1305-AES (C interface of galois-aead), static library
Version: $VERSION
Cflags: -I\${includedir}
Libs: \${libdir}/libgalois.a $PRIVATE
EOF
} >"$LIB/pkgconfig/galois-static.pc"
chmod 644 "$LIB/pkgconfig/galois.pc" "$LIB/pkgconfig/galois-static.pc"

# The OpenSSL provider and a config that activates it beside the default
# provider and prefers it for what it offers:
#   OPENSSL_CONF=$PREFIX/share/galois/openssl-galois.cnf any-openssl-program
MODDIR="$LIB/ossl-modules"
SHARE="$DESTDIR$PREFIX/share/galois"
install -d "$MODDIR" "$SHARE"
install -m 755 "$TARGET/release/libgalois_ossl.so" "$MODDIR/galois.so"
strip --strip-unneeded "$MODDIR/galois.so"
cat >"$SHARE/openssl-galois.cnf" <<EOF
# OpenSSL 3 configuration: galois's provider (AES-GCM) beside the default
# provider, preferred for the algorithms it offers. Use it with
#   OPENSSL_CONF=$PREFIX/share/galois/openssl-galois.cnf program
# It replaces the system openssl.cnf for that program.
openssl_conf = galois_init

[galois_init]
providers = galois_providers
alg_section = galois_algorithms

[galois_providers]
default = galois_default
galois = galois_galois

[galois_default]
activate = 1

[galois_galois]
module = $PREFIX/lib/ossl-modules/galois.so
activate = 1

[galois_algorithms]
default_properties = ?provider=galois
EOF
chmod 644 "$SHARE/openssl-galois.cnf"

# A system library directory needs the loader cache refreshed (not when staging).
if [ -z "$DESTDIR" ] && [ "$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null 2>&1; then
  ldconfig 2>/dev/null || true
fi
echo "install-c: galois $VERSION installed in $DESTDIR$PREFIX (include/galois.h, lib/libgalois.so.$VERSION, lib/libgalois.a, lib/pkgconfig/galois.pc, lib/ossl-modules/galois.so, share/galois/openssl-galois.cnf)"
