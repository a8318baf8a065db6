#!/usr/bin/env bash
# Builds and runs ports.c (per-instruction costs behind the GCM kernels' speed).
set -euo pipefail
cd "$(dirname "$0")"
out="${TMPDIR:-/tmp}/galois-ports"
# 512-bit vectors where the CPU has AVX-512, else 256-bit ones.
if grep -qw avx512f /proc/cpuinfo; then
  cc -O2 -mavx512f -mavx512bw -mvaes -mvpclmulqdq ports.c -o "$out"
else
  cc -O2 -DYMM -mavx2 -mvaes -mvpclmulqdq ports.c -o "$out"
fi
if nice -n -20 true 2>/dev/null; then exec nice -n -20 taskset -c 1 "$out"; else exec taskset -c 1 "$out"; fi
