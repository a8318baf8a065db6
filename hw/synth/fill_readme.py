#!/usr/bin/env python3
"""Copies the measured tables (build/report/*.md) into hw/README.md between the
<!-- BEGIN name --> / <!-- END name --> markers."""
import re
import sys

readme, pairs = sys.argv[1], sys.argv[2:]
text = open(readme).read()
for pair in pairs:
    name, path = pair.split("=", 1)
    body = open(path).read().strip()
    body = re.sub(r"^## ", "#### ", body, flags=re.M)
    pat = re.compile(r"(<!-- BEGIN %s -->\n).*?(\n<!-- END %s -->)" % (name, name), re.S)
    if not pat.search(text):
        raise SystemExit("marker %s not found in %s" % (name, readme))
    text = pat.sub(lambda m: m.group(1) + body + m.group(2), text)
open(readme, "w").write(text)
print("updated", readme)
