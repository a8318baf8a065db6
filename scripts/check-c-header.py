#!/usr/bin/env python3
"""Checks include/galois.h against the library: every function libgalois.so
exports (nm -D --defined-only) is declared in the header, every declared
function is exported, and each one's return and parameter types in the header
equal those of its Rust `extern "C"` definition (read from the macro-expanded
crate source, so functions a macro defines are seen too).

Usage: check-c-header.py HEADER LIBGALOIS_SO EXPANDED_RS"""
import re
import subprocess
import sys

RUST_TO_C = {
    "*const u8": "const uint8_t *",
    "*mut u8": "uint8_t *",
    "*const c_void": "const void *",
    "*mut c_void": "void *",
    "*const c_char": "const char *",
    "*mut usize": "size_t *",
    "usize": "size_t",
    "u64": "uint64_t",
    "c_int": "int",
    "c_uint": "unsigned int",
}


def c_type(decl):
    """The type of a C parameter declaration (its name removed), normalized."""
    decl = " ".join(decl.replace("*", " * ").split())
    if decl == "void":
        return None
    words = decl.split(" ")
    if len(words) > 1 and re.fullmatch(r"[A-Za-z_]\w*", words[-1]):
        words = words[:-1]  # the parameter's name
    t = " ".join(words).replace("unsigned int", "unsigned").replace("unsigned", "unsigned int")
    return t.replace(" * ", " *").replace(" *", " *").strip()


def header_functions(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    out = {}
    for m in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(galois_\w+)\s*\(([^)]*)\)\s*;", text):
        ret, name, params = m.group(1), m.group(2), m.group(3)
        ps = [c_type(p) for p in params.split(",")] if params.strip() else []
        ps = [p for p in ps if p is not None]
        r = " ".join(ret.replace("*", " * ").split()).replace(" * ", " *").replace(" *", " *").strip()
        if name in out:
            sys.exit(f"check-c-header: {name} declared twice")
        out[name] = (r.strip(), ps)
    return out


def rust_type(t):
    t = " ".join(t.split())
    t = re.sub(r"^(core|std)::ffi::", "", t)
    t = re.sub(r"\*(const|mut) (core|std)::ffi::", r"*\1 ", t)
    if t not in RUST_TO_C:
        sys.exit(f"check-c-header: no C type for Rust type {t!r}")
    return RUST_TO_C[t]


def rust_functions(text):
    out = {}
    pat = r'pub\s+(?:unsafe\s+)?extern\s+"C"\s+fn\s+(\w+)\s*\(([^)]*)\)\s*(?:->\s*([^{]+?))?\s*\{'
    for m in re.finditer(pat, text):
        name, params, ret = m.group(1), m.group(2), m.group(3)
        ps = [p.split(":", 1)[1] for p in params.split(",") if p.strip()]
        out[name] = (rust_type(ret) if ret else "void", [rust_type(p) for p in ps])
    return out


def main():
    header, lib, expanded = sys.argv[1:4]
    h = header_functions(open(header).read())
    r = rust_functions(open(expanded).read())
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    exported = {l.split()[-1] for l in nm.splitlines() if l.split()[1:2] in (["T"], ["W"])}
    bad = []
    for s in sorted(exported - set(h)):
        bad.append(f"{s}: exported by {lib} but not declared in {header}")
    for s in sorted(set(h) - exported):
        bad.append(f"{s}: declared in {header} but not exported")
    for s in sorted(set(h) & exported):
        if s not in r:
            bad.append(f"{s}: no Rust extern \"C\" definition found")
        elif r[s] != h[s]:
            bad.append(f"{s}: header {h[s]} differs from the Rust definition {r[s]}")
    if bad:
        print("\n".join("check-c-header: " + b for b in bad), file=sys.stderr)
        sys.exit(1)
    print(f"check-c-header: {len(h)} functions declared, exported and typed alike")


main()
