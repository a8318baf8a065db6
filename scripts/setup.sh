#!/usr/bin/env bash
# Installs everything the build and the tests need, idempotently. Safe to run
# on a fresh machine and again on one that has it all (then it is quick).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi

# Debian packages: OpenSSL headers for the differential tests and benchmarks.
need=()
for p in libssl-dev pkg-config; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
# curl and the openssl CLI: the rustls interop tests (crates/galois-rustls).
for p in curl openssl; do
  command -v "$p" >/dev/null 2>&1 || need+=("$p")
done
# venv and ensurepip: the Python binding's tests and the FPGA tools' venv
# (hw/setup.sh --fpga), which CI runs beside other stages: no apt-get there.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

# Rust: the machine image provides rustup's stable toolchain.
if ! command -v cargo >/dev/null 2>&1; then
  [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null 2>&1 || { echo "setup: cargo not found (install Rust >= 1.89)"; exit 1; }
# rustfmt for the test command's format check (a minimal rustup profile lacks it).
if ! cargo fmt --version >/dev/null 2>&1; then
  echo "setup: adding rustfmt"
  rustup component add rustfmt
fi

# The hardware model's tools (Verilator, Yosys, Icarus).
if [ -f hw/setup.sh ]; then bash hw/setup.sh; fi
echo "setup: done"
