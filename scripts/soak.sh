#!/usr/bin/env bash
# Soak test (crates/galois-aead/examples/soak.rs): packets of mixed sizes through the
# packet sealer and opener (shuffled inside the window, one replay per batch of 32,
# a forgery every 64 batches) and a stream sealed into a pipe by one thread and
# opened by another, every byte checked; resident memory sampled throughout and
# required to stay flat.
# Usage: scripts/soak.sh [--short] [extra soak arguments]
#   --short   10^6 packets and 256 MiB of stream (CI, a few seconds)
#   default   10^8 packets and 10 GiB of stream (a few minutes), then GCM's
#             plaintext limit reached for real (64 GiB through the on-line API,
#             the soak's --gcm-limit phase, about 2 minutes)
# Runs at nice 5 on the CPUs in SOAK_CPUS (default 0; empty: no pinning).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/hardening}"

args=(--packets 100000000 --stream-bytes 10G --gcm-limit)
full=1
if [ "${1:-}" = --short ]; then
  shift
  args=(--packets 1000000 --stream-bytes 256M)
  full=0
fi

# --workspace: the features `cargo test --workspace --release` resolved,
# so in CI the example that run built is reused (-p would rebuild the
# crate and aws-lc under other features).
echo "== cargo build --release --workspace --example soak"
cargo build --release --locked --workspace --example soak
bin="$CARGO_TARGET_DIR/release/examples/soak"
run=(nice -n 5)
cpus="${SOAK_CPUS-0}"
if [ -n "$cpus" ] && command -v taskset >/dev/null 2>&1; then
  run+=(taskset -c "$cpus")
fi
echo "== ${run[*]} soak ${args[*]} $*"
"${run[@]}" "$bin" "${args[@]}" "$@"
