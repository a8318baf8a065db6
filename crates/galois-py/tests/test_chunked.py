"""Issue 15: C2SP chunked encryption from Python (buffer, streaming, random access).

An independent opener built from cryptography's HKDF and AESGCM (the spec's
construction) checks what galois seals; tampering, truncation and trailing data
must raise InvalidTag, and the file classes keep raising after an error.
"""
import io
import os
import random

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

import galois_aead
from galois_aead import chunked

CHUNK = 16384
SEALED_CHUNK = CHUNK + 16
SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 777]


def message(n, seed=0):
    return random.Random(n * 31 + seed).randbytes(n)


def reference_open(key, context, sealed):
    """The spec's opener, written independently from cryptography's HKDF-Expand
    (SHA-512, PRK = the input key) and AESGCM: salt, commitment, then chunks with
    nonce = base XOR the big-endian counter; the short final chunk ends it."""
    name = b"AEAD_AES_128_GCM" if len(key) == 16 else b"AEAD_AES_256_GCM"
    salt, commit, body = sealed[:24], sealed[24:56], sealed[56:]
    info = b"c2sp.org/chunked-encryption@v1+" + name + b"\x00" + salt + context
    okm = HKDFExpand(hashes.SHA512(), len(key) + 12 + 32, info).derive(key.ljust(64, b"\x00"))
    k, base, want = okm[:len(key)], okm[len(key):len(key) + 12], okm[len(key) + 12:]
    if want != commit:
        raise InvalidTag()
    out, i = [], 0
    while True:
        c = body[i * SEALED_CHUNK:(i + 1) * SEALED_CHUNK]
        nonce = base[:7] + bytes(a ^ b for a, b in zip(base[7:], i.to_bytes(5, "big")))
        out.append(AESGCM(k).decrypt(nonce, c, None))
        if len(c) < SEALED_CHUNK:
            if (i + 1) * SEALED_CHUNK < len(body):
                raise InvalidTag()
            return b"".join(out)
        i += 1


@pytest.mark.parametrize("n", SIZES)
def test_independent_opener_opens_what_galois_seals(n):
    for klen in (16, 32):
        key, ctx, pt = os.urandom(klen), b"ctx", message(n, 9)
        s = chunked.seal(key, ctx, pt)
        assert len(s) == 56 + (n // CHUNK + 1) * 16 + n
        assert reference_open(key, ctx, s) == pt
        d = io.BytesIO()
        chunked.seal_stream(key, ctx, io.BytesIO(pt), d)
        assert reference_open(key, ctx, d.getvalue()) == pt


@pytest.mark.parametrize("klen", [16, 32])
@pytest.mark.parametrize("n", SIZES)
def test_buffer_round_trip(klen, n):
    key, ctx, pt = os.urandom(klen), os.urandom(5), message(n)
    s = chunked.seal(key, ctx, pt)
    assert chunked.open(key, ctx, s) == pt
    assert chunked.open(bytearray(key), memoryview(ctx), bytearray(s)) == pt
    assert chunked.seal(key, ctx, pt) != s  # fresh salt each time


def test_wrong_key_context_tamper_truncation_trailing():
    key, ctx, pt = os.urandom(32), b"file.txt", message(3 * CHUNK + 5)
    s = chunked.seal(key, ctx, pt)
    with pytest.raises(InvalidTag):
        chunked.open(os.urandom(32), ctx, s)
    with pytest.raises(galois_aead.InvalidTag):
        chunked.open(key, b"other", s)
    for pos in (0, 30, 56, 56 + SEALED_CHUNK + 3, len(s) - 1):
        bad = bytearray(s)
        bad[pos] ^= 1
        with pytest.raises(InvalidTag):
            chunked.open(key, ctx, bytes(bad))
    for cut in (0, 10, 56, 56 + SEALED_CHUNK, 56 + 3 * SEALED_CHUNK, len(s) - 1):
        with pytest.raises(InvalidTag):
            chunked.open(key, ctx, s[:cut])
    with pytest.raises(InvalidTag):
        chunked.open(key, ctx, s + b"\x00")
    # A chunk swapped with another.
    c1, c2 = s[56:56 + SEALED_CHUNK], s[56 + SEALED_CHUNK:56 + 2 * SEALED_CHUNK]
    swapped = s[:56] + c2 + c1 + s[56 + 2 * SEALED_CHUNK:]
    with pytest.raises(InvalidTag):
        chunked.open(key, ctx, swapped)


def test_bad_keys_and_types():
    for n in (0, 15, 24, 33):
        with pytest.raises(ValueError, match="16 .* or 32"):
            chunked.seal(b"k" * n, b"", b"x")
        with pytest.raises(ValueError, match="16 .* or 32"):
            chunked.open(b"k" * n, b"", b"x" * 100)
    with pytest.raises(TypeError):
        chunked.seal("k" * 16, b"", b"x")
    with pytest.raises(TypeError):
        chunked.seal(b"k" * 16, b"", "x")


@pytest.mark.parametrize("n", SIZES)
def test_streams_round_trip(n):
    key, ctx, pt = os.urandom(16), b"s", message(n, 1)
    dst = io.BytesIO()
    assert chunked.seal_stream(key, ctx, io.BytesIO(pt), dst) == n
    sealed = dst.getvalue()
    assert chunked.open(key, ctx, sealed) == pt
    out = io.BytesIO()
    assert chunked.open_stream(key, ctx, io.BytesIO(sealed), out) == n
    assert out.getvalue() == pt
    with chunked.Opener(key, ctx, io.BytesIO(sealed)) as o:
        assert o.read() == pt
    o = chunked.Opener(key, ctx, io.BytesIO(sealed))
    got = b""
    while True:
        b = o.read(5000)
        if not b:
            break
        got += b
    assert got == pt


def test_streams_with_real_files(tmp_path):
    key, pt = os.urandom(32), message(5 * CHUNK + 9, 2)
    (tmp_path / "p").write_bytes(pt)
    with open(tmp_path / "p", "rb") as src, open(tmp_path / "s", "wb") as dst:
        chunked.seal_stream(key, b"", src, dst)
    with open(tmp_path / "s", "rb") as src, open(tmp_path / "o", "wb") as dst:
        chunked.open_stream(key, b"", src, dst)
    assert (tmp_path / "o").read_bytes() == pt
    with open(tmp_path / "s", "rb") as f:
        r = chunked.Reader(key, b"", f)
        r.seek(3 * CHUNK - 4)
        assert r.read(10) == pt[3 * CHUNK - 4:3 * CHUNK + 6]


def test_open_stream_writes_only_verified_chunks_then_fails():
    key, pt = os.urandom(16), message(4 * CHUNK + 100, 3)
    s = bytearray(chunked.seal(key, b"", pt))
    s[56 + 2 * SEALED_CHUNK + 7] ^= 1  # the third chunk
    out = io.BytesIO()
    with pytest.raises(InvalidTag):
        chunked.open_stream(key, b"", io.BytesIO(bytes(s)), out)
    got = out.getvalue()
    assert len(got) <= 2 * CHUNK and got == pt[:len(got)]


def test_opener_never_releases_an_unverified_chunk_and_keeps_raising():
    key, pt = os.urandom(16), message(3 * CHUNK, 4)
    s = bytearray(chunked.seal(key, b"", pt))
    s[56 + SEALED_CHUNK + 1] ^= 1  # the second chunk
    o = chunked.Opener(key, b"", io.BytesIO(bytes(s)))
    assert o.read(CHUNK) == pt[:CHUNK]
    with pytest.raises(InvalidTag):
        o.read(10)
    for _ in range(3):
        with pytest.raises(InvalidTag):
            o.read(1)
    # Truncated just after a whole chunk: the missing final chunk is an error.
    t = chunked.Opener(key, b"", io.BytesIO(chunked.seal(key, b"", pt)[:56 + SEALED_CHUNK]))
    with pytest.raises(InvalidTag):
        t.read()
    with pytest.raises(InvalidTag):
        t.read()
    # A wrong key fails at once (the commitment), before any chunk.
    with pytest.raises(InvalidTag):
        chunked.Opener(os.urandom(16), b"", io.BytesIO(chunked.seal(key, b"", pt)))


@pytest.mark.parametrize("n", [0, 1, CHUNK, 2 * CHUNK + 500, 5 * CHUNK - 1])
def test_reader_random_reads_equal_streaming_output(n):
    key, ctx, pt = os.urandom(32), b"ra", message(n, 5)
    s = chunked.seal(key, ctx, pt)
    streamed = io.BytesIO()
    chunked.open_stream(key, ctx, io.BytesIO(s), streamed)
    assert streamed.getvalue() == pt
    r = chunked.Reader(key, ctx, io.BytesIO(s))
    assert r.length() == n and r.tell() == 0
    assert r.read() == streamed.getvalue()
    rng = random.Random(n)
    for _ in range(200):
        off = rng.randrange(n + 3)
        ln = rng.randrange(0, 2 * CHUNK)
        assert r.seek(off) == off
        assert r.read(ln) == pt[off:off + ln]
        assert r.tell() == min(off + ln, max(n, off))
    if n:
        assert r.seek(-1, 2) == n - 1 and r.read() == pt[-1:]
        r.seek(0)
        r.read(1)
        assert r.seek(2, 1) == 3
    assert r.seek(0, 2) == n and r.read(5) == b""
    with pytest.raises(ValueError):
        r.seek(-1)
    with pytest.raises(ValueError):
        r.seek(0, 3)
    r.close()
    assert r.closed
    with pytest.raises(ValueError):
        r.read(1)


def test_reader_tamper_truncation_and_keeps_raising():
    key, pt = os.urandom(16), message(4 * CHUNK + 10, 6)
    s = chunked.seal(key, b"", pt)
    bad = bytearray(s)
    bad[56 + 2 * SEALED_CHUNK + 3] ^= 1  # the third chunk
    r = chunked.Reader(key, b"", io.BytesIO(bytes(bad)))
    r.seek(5)
    assert r.read(10) == pt[5:15]  # an intact chunk reads
    r.seek(2 * CHUNK + 1)
    with pytest.raises(InvalidTag):
        r.read(1)
    with pytest.raises(InvalidTag):
        r.seek(0)
    with pytest.raises(InvalidTag):
        r.read(1)
    # The final chunk tampered: a seek relative to the end fails (length not authentic).
    bad = bytearray(s)
    bad[-1] ^= 1
    r = chunked.Reader(key, b"", io.BytesIO(bytes(bad)))
    assert r.read(3) == pt[:3]
    with pytest.raises(InvalidTag):
        r.seek(-2, 2)
    # Truncated at a chunk boundary (no final chunk) or mid-chunk: refused.
    for cut in (56 + 4 * SEALED_CHUNK, 56 + 2 * SEALED_CHUNK, len(s) - 5):
        with pytest.raises(InvalidTag):
            rr = chunked.Reader(key, b"", io.BytesIO(s[:cut]))
            rr.seek(0, 2)
            rr.read()
    with pytest.raises(InvalidTag):
        chunked.Reader(os.urandom(16), b"", io.BytesIO(s))
    with pytest.raises(InvalidTag):
        chunked.Reader(key, b"wrong", io.BytesIO(s))


def test_file_errors_propagate():
    class Boom(io.RawIOBase):
        def read(self, n=-1):
            raise RuntimeError("disk on fire")
    with pytest.raises(RuntimeError, match="disk on fire"):
        chunked.seal_stream(bytes(16), b"", Boom(), io.BytesIO())
    with pytest.raises(RuntimeError, match="disk on fire"):
        chunked.Opener(bytes(16), b"", Boom())
