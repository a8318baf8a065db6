#!/usr/bin/env bash
# Installs what hw/ needs (idempotent): Verilator, Yosys, Icarus Verilog, a C++ compiler,
# make and python3. Python code under hw/ uses the standard library only, so no venv is needed.
set -euo pipefail
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
