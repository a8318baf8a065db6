#!/usr/bin/env bash
# Prints the known-answer files, one per line: the repository's vectors/,
# then every file of $GALOIS_VECTORS_DIR (when set) whose name is not already
# in vectors/ (a same-named file must be identical). Fails if none are found.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
ours=("$PWD"/vectors/*.json)
[ ${#ours[@]} -gt 0 ] || { echo "vector-files: no vector files in $PWD/vectors" >&2; exit 1; }
printf '%s\n' "${ours[@]}"
if [ -n "${GALOIS_VECTORS_DIR:-}" ]; then
  [ -d "$GALOIS_VECTORS_DIR" ] || { echo "vector-files: GALOIS_VECTORS_DIR=$GALOIS_VECTORS_DIR is not a directory" >&2; exit 1; }
  for f in "$GALOIS_VECTORS_DIR"/*.json; do
    same="vectors/$(basename "$f")"
    if [ -e "$same" ]; then
      cmp -s "$f" "$same" || { echo "vector-files: $f differs from $same" >&2; exit 1; }
    else
      printf '%s\n' "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
    fi
  done
fi
