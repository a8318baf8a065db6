#!/usr/bin/env python3
"""Writes the size-sweep known answers of vectors/ from pyca `cryptography`.

The library's own code computes none of these values: AES-GCM, GMAC and
AES-GCM-SIV come from `cryptography`'s AESGCM and AESGCMSIV (its bundled
OpenSSL), XAES-256-GCM is composed from `cryptography`'s AES-256 CMAC and
AESGCM as c2sp.org/XAES-256-GCM defines it (checked first against the
spec's own vectors in vectors/xaes_256_gcm_c2sp.json). Inputs come from a
seeded generator, so a run writes the same bytes every time.

usage: bash scripts/gen-vectors.sh   (makes the venv, pins cryptography)
       python3 scripts/gen-vectors.py [--check] [OUT_DIR]
--check compares the files with what would be written (exit 1 if they differ).
"""
import json
import random
import sys
from pathlib import Path

import cryptography
from cryptography.hazmat.primitives import cmac
from cryptography.hazmat.primitives.ciphers import algorithms
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, AESGCMSIV

SEED = 20261128
# Message (and AAD) lengths: every block-count boundary of the 8-, 16- and
# 32-block batches (128, 256 and 512 bytes) and of the loops over them,
# with the bytes either side, up to 64 KiB.
SIZES = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256,
         257, 383, 384, 511, 512, 513, 1023, 1024, 1025, 4095, 4096, 4097,
         16383, 16384, 65536]
# Sizes at which every key length runs (the others rotate through them).
EVERY_KEY = [4095, 4096, 16383, 16384]
ROOT = Path(__file__).resolve().parent.parent


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def bytes(self, n):
        return self.r.randbytes(n)

    def small(self, i):
        """A short length for the other input of a case (AAD or message)."""
        return [0, 1, 12, 16, 20, 31, 33, 48, 60, 100][i % 10]


def hexs(b):
    return b.hex()


def header(algorithm, description, tests):
    valid = sum(1 for t in tests if t["result"] == "valid")
    return {
        "schema": "vectors-v1",
        "algorithm": algorithm,
        "description": description,
        "provenance": {
            "generator": "scripts/gen-vectors.py",
            "seed": SEED,
            "library": "cryptography %s (%s)" % (
                cryptography.__version__,
                __import__("cryptography.hazmat.backends.openssl", fromlist=["backend"])
                .backend.openssl_version_text()),
        },
        "counts": {"total": len(tests), "valid": valid, "invalid": len(tests) - valid},
        "tests": tests,
    }


def flipped(case, field):
    """An invalid copy of a valid case with the last byte of `field` changed."""
    c = dict(case)
    b = bytearray(bytes.fromhex(c[field]))
    b[-1] ^= 0x80
    c[field] = b.hex()
    c["id"] = case["id"] + "-bad-" + field
    c["result"] = "invalid"
    c["pt"] = None
    return c


def gcm_case(cid, key, iv, aad, pt, tag_len=16):
    out = AESGCM(key).encrypt(iv, pt, aad)
    ct, tag = out[:-16], out[-16:]
    return {"id": cid, "key": hexs(key), "iv": hexs(iv), "aad": hexs(aad),
            "pt": hexs(pt), "ct": hexs(ct), "tag": hexs(tag[:tag_len]),
            "result": "valid"}


def gcm(g):
    tests = []
    keys = [16, 24, 32]
    # Non-96-bit IVs (GHASHed into Y0) and truncated tags on some cases.
    ivs = [12, 12, 12, 8, 12, 16, 12, 60]
    for i, m in enumerate(SIZES):
        klens = keys if m in EVERY_KEY else [keys[i % 3]]
        for k in klens:
            ivl = ivs[(i + k) % len(ivs)]
            tag_len = 12 if (i % 7 == 3 and ivl == 12) else 16
            c = gcm_case("aes%d-pt%d" % (k * 8, m), g.bytes(k), g.bytes(ivl),
                         g.bytes(g.small(i)), g.bytes(m), tag_len)
            tests.append(c)
            if m in (256, 4096, 16384) and k == 16:
                tests.append(flipped(c, "tag"))
                if m:
                    tests.append(flipped(c, "ct"))
    # Long AAD with a short message: the AAD's own batches.
    for i, a in enumerate(SIZES):
        k = keys[(i + 1) % 3]
        tests.append(gcm_case("aes%d-aad%d" % (k * 8, a), g.bytes(k), g.bytes(12),
                              g.bytes(a), g.bytes(g.small(i + 3))))
    return header("AES-GCM", "AES-128/192/256-GCM, messages and AAD of 0 to 64 KiB "
                  "around every batch boundary, from pyca cryptography's AESGCM",
                  tests)


def gmac(g):
    tests = []
    for i, a in enumerate(SIZES):
        k = [16, 24, 32][i % 3]
        c = gcm_case("gmac%d-aad%d" % (k * 8, a), g.bytes(k), g.bytes(12), g.bytes(a), b"")
        tests.append(c)
        if a in (4096, 16384):
            tests.append(flipped(c, "tag"))
    return header("AES-GMAC", "AES-GMAC (GCM with an empty message) over 0 to 64 KiB, "
                  "from pyca cryptography's AESGCM", tests)


def siv(g):
    tests = []
    for i, m in enumerate(SIZES):
        for k in ([16, 32] if m in EVERY_KEY else [[16, 32][i % 2]]):
            key, nonce, aad, pt = g.bytes(k), g.bytes(12), g.bytes(g.small(i)), g.bytes(m)
            out = AESGCMSIV(key).encrypt(nonce, pt, aad)
            c = {"id": "siv%d-pt%d" % (k * 8, m), "key": hexs(key), "iv": hexs(nonce),
                 "aad": hexs(aad), "pt": hexs(pt), "ct": hexs(out[:-16]),
                 "tag": hexs(out[-16:]), "result": "valid"}
            tests.append(c)
            if m in (4096, 16384) and k == 16:
                tests.append(flipped(c, "ct"))
    for i, a in enumerate(SIZES):
        key, nonce, aad, pt = g.bytes(32), g.bytes(12), g.bytes(a), g.bytes(g.small(i + 5))
        out = AESGCMSIV(key).encrypt(nonce, pt, aad)
        tests.append({"id": "siv256-aad%d" % a, "key": hexs(key), "iv": hexs(nonce),
                      "aad": hexs(aad), "pt": hexs(pt), "ct": hexs(out[:-16]),
                      "tag": hexs(out[-16:]), "result": "valid"})
    return header("AES-GCM-SIV", "AES-128/256-GCM-SIV (RFC 8452), messages and AAD of "
                  "0 to 64 KiB, from pyca cryptography's AESGCMSIV", tests)


def xaes_seal(key, nonce, aad, pt):
    """c2sp.org/XAES-256-GCM: Kx = CMAC-KDF(K, "X", N[:12]) (two one-block
    CMACs, each AES_K(M xor K1)), then AES-256-GCM(Kx, N[12:])."""
    def block(i):
        c = cmac.CMAC(algorithms.AES(key))
        c.update(bytes([0, i, 0x58, 0]) + nonce[:12])
        return c.finalize()
    kx = block(1) + block(2)
    return AESGCM(kx).encrypt(nonce[12:], pt, aad)


def xaes_self_check():
    """The composition against the spec's vectors before it writes any."""
    doc = json.loads((ROOT / "vectors" / "xaes_256_gcm_c2sp.json").read_text())
    n = 0
    for t in doc["tests"]:
        if t["result"] != "valid" or len(bytes.fromhex(t["iv"])) != 24:
            continue
        out = xaes_seal(bytes.fromhex(t["key"]), bytes.fromhex(t["iv"]),
                        bytes.fromhex(t["aad"]), bytes.fromhex(t["pt"]))
        if out != bytes.fromhex(t["ct"] + t["tag"]):
            sys.exit("gen-vectors: the XAES composition fails the spec's case %s" % t["id"])
        n += 1
    if n == 0:
        sys.exit("gen-vectors: no XAES spec case to check the composition against")


def xaes(g):
    xaes_self_check()
    tests = []
    for i, m in enumerate(SIZES):
        key, nonce, aad, pt = g.bytes(32), g.bytes(24), g.bytes(g.small(i)), g.bytes(m)
        out = xaes_seal(key, nonce, aad, pt)
        c = {"id": "xaes-pt%d" % m, "key": hexs(key), "iv": hexs(nonce), "aad": hexs(aad),
             "pt": hexs(pt), "ct": hexs(out[:-16]), "tag": hexs(out[-16:]),
             "result": "valid"}
        tests.append(c)
        if m in (4096, 16384):
            tests.append(flipped(c, "tag"))
    for i, a in enumerate([1, 255, 257, 4095, 16384]):
        key, nonce, aad, pt = g.bytes(32), g.bytes(24), g.bytes(a), g.bytes(g.small(i))
        out = xaes_seal(key, nonce, aad, pt)
        tests.append({"id": "xaes-aad%d" % a, "key": hexs(key), "iv": hexs(nonce),
                      "aad": hexs(aad), "pt": hexs(pt), "ct": hexs(out[:-16]),
                      "tag": hexs(out[-16:]), "result": "valid"})
    return header("XAES-256-GCM", "XAES-256-GCM, messages of 0 to 64 KiB, composed from "
                  "pyca cryptography's AES-256 CMAC and AESGCM per c2sp.org/XAES-256-GCM",
                  tests)


FILES = [("aes_gcm_sizes_pyca.json", gcm), ("aes_gmac_sizes_pyca.json", gmac),
         ("aes_gcm_siv_sizes_pyca.json", siv), ("xaes_256_gcm_sizes_pyca.json", xaes)]


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    out = Path(args[0]) if args else ROOT / "vectors"
    differ = []
    for i, (name, make) in enumerate(FILES):
        # Each file its own seeded stream: one file's change leaves the others.
        text = json.dumps(make(Gen(SEED + i)), indent=1) + "\n"
        # The provenance line names the library version: compare without it.
        path = out / name
        if check:
            old = path.read_text() if path.exists() else ""
            strip = lambda s: "\n".join(l for l in s.splitlines() if '"library"' not in l)
            if strip(old) != strip(text):
                differ.append(name)
        else:
            path.write_text(text)
            print("gen-vectors: %s: %d cases, %d bytes" % (path, len(json.loads(text)["tests"]),
                                                           len(text)))
    if differ:
        sys.exit("gen-vectors: differ from a fresh run: %s" % ", ".join(differ))


if __name__ == "__main__":
    main()
