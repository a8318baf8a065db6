#!/usr/bin/env bash
# Cross-builds galois for aarch64 (ARMv8, little-endian) and s390x
# (big-endian) against rustup's prebuilt std for each target and runs it
# under qemu-user
# (issue 17): the equivalence tests (every backend against the bit-serial
# reference over all lengths and splits), the Poly1305 and GCM-64 tests, and
# every vector file through `galois kat --all-backends`. aarch64 runs twice:
# `-cpu max` (AES, PMULL, SHA3: every suite) and `-cpu cortex-a72` (AES, PMULL,
# no SHA3: selftest, kat and GHASH), both with the armv8 AES and the stitched
# AES-GCM kernels (gcm/kernels/aarch64/pmull_aes.rs).
# Emulated time means nothing: no timing here.
#
# Usage: bash scripts/cross.sh [aarch64|s390x ...]   (default: both)
# Installs with apt and rustup what is missing. The differential tests against OpenSSL
# and aws-lc are not built (`--cfg galois_cross`; no target libssl).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

arches=("$@")
[ ${#arches[@]} -eq 0 ] && arches=(aarch64 s390x)

need=()
for p in gcc-aarch64-linux-gnu gcc-s390x-linux-gnu libc6-dev-arm64-cross libc6-dev-s390x-cross qemu-user; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" != 0 ] && SUDO=sudo
  echo "cross: installing ${need[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
# The targets' std, prebuilt (building it with nightly's -Zbuild-std cost
# CI minutes per target).
for a in "${arches[@]}"; do
  t="$a-unknown-linux-gnu"
  rustup target list --installed | grep -qx "$t" || rustup target add "$t"
done

export RUSTFLAGS="--cfg galois_cross"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CC_s390x_unknown_linux_gnu=s390x-linux-gnu-gcc
mapfile -t vector_files < <(bash scripts/vector-files.sh)
tests=(--test ghash_equivalence --test gcm_equivalence --test poly1305 --test gcm64)
# plus the library's unit tests (--lib: the stitched kernels' counter wrap);
# on aarch64 also the guard pages around every buffer of its own kernels
# (pmull, the fused AES-GCM loop, NEON Poly1305), ~1.5 min under -cpu max.
nbins=$((1 + 1 + ${#tests[@]} / 2))

# One profile (test: opt-level 2 with debug assertions) for the CLI and the
# tests, so the dependencies build once per target.
build() { # target [extra test flags] -> prints the executables, CLI first
  local t=$1
  shift
  cargo build -q --locked --target "$t" --profile test -p galois-cli --bin galois
  echo "target/$t/debug/galois"
  cargo test --no-run --locked --target "$t" -p galois-aead --lib "${tests[@]}" "$@" 2>&1 |
    sed -n 's/.*Executable .* (\(.*\))$/\1/p'
}

run() { # expected-auto-aes-backend expected-auto-ghash-backend qemu command... -- executables
  local aes=$1 want=$2 q=() bins=() seen=0
  shift 2
  for a in "$@"; do
    if [ "$a" = "--" ]; then seen=1; elif [ $seen = 0 ]; then q+=("$a"); else bins+=("$a"); fi
  done
  echo "cross: == ${q[*]} [$(date -u +%H:%M:%S)]"
  local out
  out=$("${q[@]}" "${bins[0]}" selftest)
  echo "$out"
  # The backend this CPU model must pick (so a missing backend is a failure).
  grep -q "^AES-GCM: aes=$aes ghash=$want\$" <<<"$out" ||
    { echo "cross: expected aes=$aes ghash=$want under ${q[*]}"; exit 1; }
  "${q[@]}" "${bins[0]}" kat --all-backends "${vector_files[@]}"
  for b in "${bins[@]:1}"; do
    echo "cross: [$(date -u +%H:%M:%S)] ${q[*]} $(basename "$b")"
    "${q[@]}" "$b" -q --test-threads 2
  done
}

# Each target's runs (qemu keeps about one core busy) go to the background
# as soon as it is built, beside the next target's build; their output is
# printed in order at the end.
logs=()
pids=()
for arch in "${arches[@]}"; do
  log="target/cross-$arch.log"
  case "$arch" in
    aarch64)
      mapfile -t bins < <(build aarch64-unknown-linux-gnu --test guard_pages)
      [ ${#bins[@]} -eq $((nbins + 1)) ] || { echo "cross: missing binaries: ${bins[*]}"; exit 1; }
      (
        export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
        run armv8 pmull_eor3 qemu-aarch64 -cpu max -- "${bins[@]}"
        # No SHA3: pmull_eor3 is listed but not available. What differs from
        # -cpu max, which ran every suite on the same backends: the automatic
        # choice (selftest must pick pmull), every backend this model has over
        # every vector file (kat: an instruction it lacks would trap), and GHASH
        # against the reference; the other suites would repeat -cpu max's run.
        a72=("${bins[0]}")
        for b in "${bins[@]:1}"; do
          case "$(basename "$b")" in ghash_equivalence-*) a72+=("$b") ;; esac
        done
        [ ${#a72[@]} -eq 2 ] || { echo "cross: no ghash_equivalence binary"; exit 1; }
        run armv8 pmull qemu-aarch64 -cpu cortex-a72 -- "${a72[@]}"
      ) >"$log" 2>&1 &
      ;;
    s390x)
      mapfile -t bins < <(build s390x-unknown-linux-gnu)
      [ ${#bins[@]} -eq $nbins ] || { echo "cross: missing binaries: ${bins[*]}"; exit 1; }
      (
        export QEMU_LD_PREFIX=/usr/s390x-linux-gnu
        run portable ctmul64 qemu-s390x -- "${bins[@]}"
      ) >"$log" 2>&1 &
      ;;
    *) echo "cross: unknown architecture $arch"; exit 2 ;;
  esac
  pids+=($!)
  logs+=("$log")
done
failed=0
for i in "${!pids[@]}"; do
  st=0
  wait "${pids[$i]}" || st=$?
  cat "${logs[$i]}"
  [ $st = 0 ] || { echo "cross: ${arches[$i]} failed (exit $st)"; failed=1; }
done
[ $failed = 0 ] || exit 1
# CI (GALOIS_CI_PRUNE=1): free the targets' builds.
if [ "${GALOIS_CI_PRUNE:-0}" = 1 ]; then
  for arch in "${arches[@]}"; do rm -rf "target/$arch-unknown-linux-gnu"; done
fi
echo "cross: all passed"
