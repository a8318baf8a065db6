#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz targets chunked_open,
gcm_siv_awslc and xaes_spec into fuzz/seeds/<target>/ (in each target's
input layout, documented at the top of fuzz/fuzz_targets/<target>.rs).

chunked_open's seeds are mostly *records*: a Cobblestone file sealed, and
perhaps damaged, by scripts/cobblestone.py (the independent Python
reference: `cryptography`'s HKDF and AES-GCM), with the outcome that
reference gives when opening it (the plaintext's SHA-256, or which check
refused it) and a SHA-256 over the record; the target checks galois and
its in-process reference against that outcome whenever the digest matches
(so not for inputs libFuzzer mutated). `fuzz.sh --ci` replays the seeds
with -runs=0.

The AES-GCM-SIV and XAES-256-GCM seeds are the inputs of vectors/
(RFC 8452 Appendix C, c2sp.org/XAES-256-GCM), as messages to seal and,
sealed (valid and tampered), as untrusted input to open.

Deterministic: running it again writes the same files.
Usage: python3 scripts/fuzz-seeds.py [OUT_DIR]   (default fuzz/seeds)
"""

import hashlib
import json
import os
import shutil
import sys

from cryptography.exceptions import InvalidTag

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cobblestone  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHUNK = cobblestone.CHUNK
SEALED = CHUNK + cobblestone.TAG
HEADER = cobblestone.SALT + cobblestone.COMMIT


def det(n, seed):
    """n deterministic bytes."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(b"%s/%d" % (seed, i)).digest()
        i += 1
    return out[:n]


def outcome(key, context, sealed):
    """(outcome byte, plaintext digest) from the Python reference."""
    try:
        pt = cobblestone.open_(key, context, sealed)
    except InvalidTag:
        return 4, bytes(32)
    except ValueError as e:
        msg = str(e)
        code = 1 if "header" in msg else 2 if "wrong key" in msg else 3 if "truncated" in msg else None
        if code is None:
            raise
        return code, bytes(32)
    return 0, hashlib.sha256(pt).digest()


def prefix(mode, key, context):
    return bytes([mode | (4 if len(key) == 32 else 0)]) + key.ljust(32, b"\0") + bytes([len(context)]) + context


def record(key, context, sealed, open_context=None):
    ctx = context if open_context is None else open_context
    code, digest = outcome(key, ctx, sealed)
    body = prefix(0x80, key, ctx) + bytes([code]) + digest + sealed
    return body + hashlib.sha256(body).digest()


def flip(b, i, bit=1):
    b = bytearray(b)
    b[i] ^= bit
    return bytes(b)


def chunked_seeds():
    seeds = {}
    for klen in (16, 32):
        key = det(klen, b"key%d" % klen)
        ctx = b"file.txt" if klen == 16 else b""
        salt = det(24, b"salt%d" % klen)

        def seal(n, tag):
            return cobblestone.seal(key, ctx, det(n, tag), salt)

        small = {n: seal(n, b"pt%d" % n) for n in (0, 1, 15, 16, 17, 100)}
        for n, s in small.items():
            seeds["rec%d-len%d" % (klen, n)] = record(key, ctx, s)
        s100 = small[100]
        seeds["rec%d-flip-body" % klen] = record(key, ctx, flip(s100, HEADER + 7))
        seeds["rec%d-flip-tag" % klen] = record(key, ctx, flip(s100, len(s100) - 1, 0x80))
        seeds["rec%d-flip-salt" % klen] = record(key, ctx, flip(s100, 3))
        seeds["rec%d-flip-commitment" % klen] = record(key, ctx, flip(s100, 40))
        seeds["rec%d-short-header" % klen] = record(key, ctx, s100[: HEADER - 1])
        seeds["rec%d-header-only" % klen] = record(key, ctx, s100[:HEADER])
        seeds["rec%d-cut-in-tag" % klen] = record(key, ctx, s100[: HEADER + 10])
        seeds["rec%d-appended" % klen] = record(key, ctx, s100 + b"\0")
        seeds["rec%d-other-context" % klen] = record(key, ctx, s100, open_context=b"other")
        if klen == 16:
            # Multi-chunk files (about 16-33 KB each): a few, kept apart
            # from the small ones by length.
            for n in (CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 7):
                s = seal(n, b"big%d" % n)
                seeds["rec%d-len%d" % (klen, n)] = record(key, ctx, s)
            s = seal(CHUNK + 1, b"big%d" % (CHUNK + 1))
            seeds["rec16-no-final-chunk"] = record(key, ctx, s[: HEADER + SEALED])
            seeds["rec16-flip-chunk1"] = record(key, ctx, flip(s, HEADER + SEALED))
            seeds["rec16-chunk0-as-final"] = record(key, ctx, s[:HEADER] + s[HEADER : HEADER + 40])

        # Genuine header, arbitrary body.
        seeds["hdr%d-body100" % klen] = prefix(1, key, ctx) + salt + det(100, b"body")
        seeds["hdr%d-body16" % klen] = prefix(1, key, ctx) + salt + det(16, b"body")
        # Built and mutated: flags (bits 0-2 nonzero: own context), full
        # chunks byte, [extra], tail kind, u16, mutation count, 5 mutations.
        for name, full, tail, muts in (
            ("none", b"\x00", b"\x03\x00\x00", []),
            ("one-chunk-flip", b"\x05", b"\x00\x00\x05", [b"\x00\x00\x00\x50\x00\x03"]),
            ("two-chunks-swap", b"\x07\x00", b"\x02\x01\x00", [b"\x06\x00\x00\x00\x00\x01"]),
            ("near-chunk", b"\x00", b"\x01\x00\x02", [b"\x02\x00\x00\x01\x00\x05"]),
            ("truncate", b"\x05", b"\x00\x00\x03", [b"\x01\x00\x40\x38\x00\x00"]),
        ):
            m = b"".join(muts).ljust(30, b"\0")
            seeds["build%d-%s" % (klen, name)] = (
                prefix(2, key, ctx) + salt + b"\x01" + full + tail + bytes([len(muts)]) + m + det(37, name.encode())
            )
    return seeds


def vectors(name):
    with open(os.path.join(ROOT, "vectors", name)) as f:
        return json.load(f)["tests"]


def u16(n):
    return n.to_bytes(2, "big")


def aead_seeds(vector_file, ksize_byte):
    """Seeds from a vector file: each case's message to seal, and its
    sealed form (valid or tampered) as untrusted input to open."""
    seeds = {}
    for i, t in enumerate(vectors(vector_file)):
        key, iv, aad = (bytes.fromhex(t[k]) for k in ("key", "iv", "aad"))
        pt, sealed = bytes.fromhex(t["pt"] or ""), bytes.fromhex(t["ct"] + t["tag"])
        head = bytes([i % 7])
        if ksize_byte:
            head += bytes([{16: 0, 24: 1, 32: 2}[len(key)]])
        for suffix, flags, text in (("seal", 0x10 + i, pt), ("open", 0x04 + 8 * i, sealed)):
            # Every other case sealed (if valid) or opened: a few dozen seeds.
            if (suffix == "seal") != (i % 2 == 0) or (suffix == "seal" and t["result"] != "valid"):
                continue
            seeds["%s-%s" % (t["id"], suffix)] = (
                head + bytes([flags & 0xFF]) + u16(i * 13) + key.ljust(32, b"\0") + iv + u16(len(aad)) + aad + text
            )
    return seeds


def write(out, target, seeds):
    d = os.path.join(out, target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print("%s: %d seeds, %d bytes" % (target, len(seeds), sum(map(len, seeds.values()))))


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(ROOT, "fuzz", "seeds")
    write(out, "chunked_open", chunked_seeds())
    write(out, "gcm_siv_awslc", aead_seeds("aes_gcm_siv_rfc8452.json", True))
    write(out, "xaes_spec", aead_seeds("xaes_256_gcm_c2sp.json", False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
