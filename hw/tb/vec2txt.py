#!/usr/bin/env python3
"""Turns a vectors-v1 JSON file into the line format read by the Verilator driver.

  CASE <id> <valid|invalid> <key> <iv> <aad> <pt> <ct> <tag>     ('-' = empty, 'null' = null)
  UNSUP <id> <reason>

Supported: algorithm AES-GCM or AES-GMAC with 16-byte keys (the core is AES-128).
Everything else (other key sizes, other algorithms) is reported as unsupported."""
import json
import sys


def hx(v):
    if v is None:
        return "null"
    return v.lower() if v else "-"


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        doc = json.load(f)
    if doc.get("schema") != "vectors-v1":
        raise SystemExit("%s: not a vectors-v1 file" % src)
    alg = doc.get("algorithm", "")
    out = []
    for i, t in enumerate(doc.get("tests", [])):
        tid = str(t.get("id", "case-%d" % i)).replace(" ", "_")
        if alg not in ("AES-GCM", "AES-GMAC"):
            out.append("UNSUP %s algorithm_%s" % (tid, alg.replace(" ", "_")))
            continue
        key = t.get("key") or ""
        if len(key) != 32:
            out.append("UNSUP %s key_of_%d_bytes" % (tid, len(key) // 2))
            continue
        res = t.get("result", "valid")
        if res not in ("valid", "invalid"):
            out.append("UNSUP %s result_%s" % (tid, str(res).replace(" ", "_")))
            continue
        pt, ct = t.get("pt"), t.get("ct")
        if alg == "AES-GMAC":       # GMAC = GCM with an empty plaintext
            pt = pt or ""
            ct = ct or ""
        out.append("CASE %s %s %s %s %s %s %s %s" % (
            tid, res, hx(key), hx(t.get("iv")), hx(t.get("aad")), hx(pt), hx(ct), hx(t.get("tag"))))
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
