#!/usr/bin/env python3
"""A small, independent Cobblestone (c2sp.org/chunked-encryption) for
interoperability tests: HKDF-Expand-SHA-512 and AES-GCM from the
`cryptography` package, written from the specification alone.

    cobblestone.py seal KEYFILE CONTEXT IN OUT
    cobblestone.py open KEYFILE CONTEXT IN OUT

KEYFILE holds the raw 16- or 32-byte input key; CONTEXT is text (UTF-8).
`open` exits 1 (writing nothing) if anything fails to verify.
"""

import os
import sys

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

CHUNK = 16384
TAG = 16
SALT = 24
COMMIT = 32
NONCE = 12
MAX_CHUNKS = 1 << 38


def derive(key: bytes, salt: bytes, context: bytes):
    aead = {16: b"AEAD_AES_128_GCM", 32: b"AEAD_AES_256_GCM"}.get(len(key))
    if aead is None:
        raise ValueError("the input key must have 16 or 32 bytes")
    info = b"c2sp.org/chunked-encryption@v1+" + aead + b"\x00" + salt + context
    okm = HKDFExpand(hashes.SHA512(), len(key) + NONCE + COMMIT, info).derive(key)
    k, base, commitment = okm[: len(key)], okm[len(key) : len(key) + NONCE], okm[len(key) + NONCE :]
    return AESGCM(k), int.from_bytes(base, "big"), commitment


def nonce(base: int, i: int) -> bytes:
    if i >= MAX_CHUNKS:
        raise ValueError("too many chunks")
    return (base ^ i).to_bytes(NONCE, "big")


def seal(key: bytes, context: bytes, pt: bytes, salt: bytes = b"") -> bytes:
    salt = salt or os.urandom(SALT)
    gcm, base, commitment = derive(key, salt, context)
    out = [salt, commitment]
    # Whole chunks, then the final one: always shorter than a chunk, maybe empty.
    n_full = len(pt) // CHUNK
    for i in range(n_full):
        out.append(gcm.encrypt(nonce(base, i), pt[i * CHUNK : (i + 1) * CHUNK], None))
    out.append(gcm.encrypt(nonce(base, n_full), pt[n_full * CHUNK :], None))
    return b"".join(out)


def open_(key: bytes, context: bytes, ct: bytes) -> bytes:
    if len(ct) < SALT + COMMIT:
        raise ValueError("shorter than the header")
    gcm, base, commitment = derive(key, ct[:SALT], context)
    if ct[SALT : SALT + COMMIT] != commitment:
        raise ValueError("wrong key or context")
    body = ct[SALT + COMMIT :]
    n_full, rem = divmod(len(body), CHUNK + TAG)
    if rem < TAG:
        raise ValueError("truncated: no short final chunk")
    pt = []
    for i in range(n_full + 1):
        c = body[i * (CHUNK + TAG) : (i + 1) * (CHUNK + TAG)]
        pt.append(gcm.decrypt(nonce(base, i), c, None))
    return b"".join(pt)


def main(argv):
    if len(argv) != 6 or argv[1] not in ("seal", "open"):
        print(__doc__, file=sys.stderr)
        return 2
    _, op, keyfile, context, src, dst = argv
    with open(keyfile, "rb") as f:
        key = f.read()
    with open(src, "rb") as f:
        data = f.read()
    try:
        out = seal(key, context.encode(), data) if op == "seal" else open_(key, context.encode(), data)
    except (ValueError, InvalidTag) as e:
        print(f"cobblestone.py: {op} failed: {e or 'authentication failed'}", file=sys.stderr)
        return 1
    with open(dst, "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
