#!/usr/bin/env bash
# Runs a filtered test command and fails unless its libtest summaries add up
# to exactly N passed tests: a filter that matches nothing (a renamed test)
# or more than meant fails instead of passing quietly. Give the names with
# libtest's --exact.
# Usage: bash scripts/expect-tests.sh N COMMAND [ARGS...]
set -euo pipefail
n=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
ran=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
if [ "$ran" != "$n" ]; then
  echo "expect-tests: $ran tests passed where $n were expected: $*" >&2
  exit 1
fi
