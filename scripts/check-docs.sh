#!/usr/bin/env bash
# Docs check: every public item of the galois library (all features) and of
# the galois-cli library has documentation and a runnable example.
#
# rustdoc's missing-doc-code-examples lint is nightly-only; the nightly comes
# from scripts/setup-nightly.sh, which never updates an installed one. The
# examples themselves run as doctests in `cargo test` (scripts/test.sh).
# Usage: bash scripts/check-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-nightly.sh >/dev/null
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/nightly-docs}"

lint=(-Z unstable-options -Zcrate-attr="feature(rustdoc_missing_doc_code_examples)"
  -D warnings -D missing_docs -D rustdoc::missing-doc-code-examples)

echo "== rustdoc lint: galois (all features)"
cargo +nightly rustdoc -p galois-aead --lib --all-features --locked -- "${lint[@]}"
echo "== rustdoc lint: galois-cli library"
cargo +nightly rustdoc -p galois-cli --lib --locked -- "${lint[@]}"

# The lint skips items that are public only through a `pub use` of a private
# module (Error, IncrementalGmac, the stream::io functions, ...): check their
# source too. Every `pub fn/struct/enum/trait` of the galois crate needs a
# fenced example in the doc comment right above it.
echo "== source scan: galois pub items without an example"
missing=$(find crates/galois-aead/src -name '*.rs' | sort | xargs awk '
  FNR == 1 { doc = ""; }
  /^[[:space:]]*\/\/\// { doc = doc $0 "\n"; next }
  # (a macro-built example: #[doc = concat!("```\n...")])
  /^[[:space:]]*#\[doc = / { doc = doc $0 "\n"; next }
  /^[[:space:]]*#\[/ { next }
  # (not macro templates: `pub enum $Name`, or `pub enum Name;` as a
  # macro input, which the rustdoc lint above checks once expanded)
  /^[[:space:]]*pub (unsafe )?(fn|struct|enum|trait) / && !/(fn|struct|enum|trait) \$/ && !/enum [A-Za-z0-9_]+;/ {
    if (index(doc, "```") == 0) print FILENAME ":" FNR ": " $0
  }
  { doc = "" }')
if [ -n "$missing" ]; then
  echo "$missing"
  echo "check-docs: the items above have no example"
  exit 1
fi
echo "== docs check passed"
