"""Issue 36: bounded chunked reads, refused encrypt_into leaves no plaintext,
one set of call shapes for the one-shot AEADs, chunked files as io.RawIOBase."""
import io
import subprocess
import sys
import textwrap

import pytest

import galois_aead
from galois_aead import chunked

KEY = bytes(range(16))
MSG = bytes(range(256)) * 200 + b"tail"  # 51,204 bytes: four chunks
SEALED = chunked.seal(KEY, b"ctx", MSG)


def run_limited(body):
    """Runs `body` in a fresh interpreter whose address space is capped at
    1 GiB: an abort (failed Rust allocation) or a zero-filled n-byte buffer
    shows as a non-zero exit instead of taking pytest down."""
    code = textwrap.dedent(
        """
        import io, resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from galois_aead import chunked
        key = bytes(range(16))
        msg = bytes(range(256)) * 200 + b"tail"
        sealed = chunked.seal(key, b"ctx", msg)
        """
    ) + textwrap.dedent(body)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}"
    return r.stdout


@pytest.mark.parametrize("cls", ["Reader", "Opener"])
@pytest.mark.parametrize("n", [1 << 31, 1 << 50, (1 << 63) - 1])
def test_huge_read_returns_what_is_there(cls, n):
    out = run_limited(
        f"""
        f = chunked.{cls}(key, b"ctx", io.BytesIO(sealed))
        assert f.read(100) == msg[:100]
        assert f.read({n}) == msg[100:]
        assert f.read({n}) == b""
        print("ok")
        """
    )
    assert out == "ok\n"


@pytest.mark.parametrize("cls", [chunked.Reader, chunked.Opener])
def test_reads_of_every_size_match(cls):
    for n in (0, 1, 7, 16384, 16385, 70000, -1):
        f = cls(KEY, b"ctx", io.BytesIO(SEALED))
        got = b""
        while True:
            part = f.read(n)
            if n == 0:
                assert part == b""
                part = f.read()
            if not part:
                break
            got += part
            if n < 0:
                assert f.read() == b""
                break
        assert got == MSG


AEADS = [
    ("AESGCM", lambda: galois_aead.AESGCM(bytes(16)), 12, [bytes(7), bytes(129)]),
    ("AESGCMSIV", lambda: galois_aead.AESGCMSIV(bytes(32)), 12, [bytes(11), bytes(13), b""]),
    ("XAES256GCM", lambda: galois_aead.XAES256GCM(bytes(32)), 24, [bytes(23), bytes(25), bytes(12)]),
]


@pytest.mark.parametrize("name,new,nlen,bad_nonces", AEADS)
@pytest.mark.parametrize("size", [5, 5000])
def test_refused_encrypt_into_leaves_no_plaintext(name, new, nlen, bad_nonces, size):
    aead = new()
    pt = bytes([0x5A]) * size
    calls = [lambda buf, n=n: aead.encrypt_into(n, pt, None, buf) for n in bad_nonces]
    calls.append(lambda buf: aead.encrypt_into(bytes(nlen), pt, None, buf[:-1]))  # too short
    calls.append(lambda buf: aead.encrypt_into(bytes(nlen), pt, None, buf[: size + 15]))
    calls.append(lambda buf: aead.encrypt_into(bytes(nlen), pt, 5, buf))  # bad AAD type
    for i, call in enumerate(calls):
        store = bytearray(pt + bytes(16))  # the plaintext, as if encrypting in place
        with pytest.raises((ValueError, TypeError)):
            call(memoryview(store))
        assert 0x5A not in store[: size + 15], f"{name} case {i}: plaintext left in buf"


@pytest.mark.parametrize("cls,lens", [
    (galois_aead.AESGCM, (16, 24, 32)),
    (galois_aead.AESGCMSIV, (16, 24, 32)),
    (galois_aead.XAES256GCM, (32,)),
])
def test_one_shot_classes_share_call_shapes(cls, lens):
    for klen in lens:
        key = cls.generate_key(klen * 8)
        assert len(key) == klen
        assert len(cls.generate_key(bit_length=klen * 8)) == klen
        cls(key)
    with pytest.raises(ValueError, match=f"bit_length must be .*{lens[-1] * 8}, got 64"):
        cls.generate_key(64)
    with pytest.raises(TypeError, match="bit_length must be an integer"):
        cls.generate_key("256")
    bits = " or ".join(str(k * 8) for k in lens) if len(lens) < 3 else "128, 192 or 256"
    with pytest.raises(ValueError, match=rf"key must be .* bytes \({bits} bits\), got 20"):
        cls(bytes(20))
    nonce = bytes(24 if cls is galois_aead.XAES256GCM else 12)
    aead = cls(bytes(32))
    ct = aead.encrypt(nonce, b"data", associated_data=b"a")
    assert aead.decrypt(nonce, ct, associated_data=b"a") == b"data"


def test_xaes_generate_key_default():
    assert len(galois_aead.XAES256GCM.generate_key()) == 32


@pytest.mark.parametrize("cls", [chunked.Reader, chunked.Opener])
def test_chunked_files_are_raw_io(cls):
    text = b"".join(b"line %d\n" % i for i in range(5000)) + b"last"
    sealed = chunked.seal(KEY, b"", text)
    f = cls(KEY, b"", io.BytesIO(sealed))
    assert isinstance(f, io.RawIOBase)
    assert f.readable() and not f.writable()
    assert f.readline() == b"line 0\n"
    buf = bytearray(10)
    assert f.readinto(buf) == 10 and bytes(buf) == text[7:17]
    mv = memoryview(bytearray(8)).cast("B")
    assert f.readinto(mv) == 8 and bytes(mv) == text[17:25]
    assert list(f) == text[25:].splitlines(keepends=True)
    assert f.readinto(bytearray(4)) == 0
    f.close()
    assert f.closed
    with pytest.raises(ValueError):
        f.read(1)
    with pytest.raises(ValueError):
        f.readable()


@pytest.mark.parametrize("cls", [chunked.Reader, chunked.Opener])
def test_buffered_reader_over_chunked_file(cls):
    raw = cls(KEY, b"ctx", io.BytesIO(SEALED))
    with io.BufferedReader(raw, buffer_size=1000) as b:
        assert b.read(3) == MSG[:3]
        assert b.peek(1)[:1] == MSG[3:4]
        assert not raw.closed
        assert b.read() == MSG[3:]
        assert not raw.closed
    assert raw.closed  # closing the buffered file closes its raw file, as in io
    with cls(KEY, b"ctx", io.BytesIO(SEALED)) as r:
        lines = list(io.TextIOWrapper(io.BufferedReader(r), encoding="latin-1", newline=""))
    assert "".join(lines).encode("latin-1") == MSG


def test_reader_seek_through_buffered():
    b = io.BufferedReader(chunked.Reader(KEY, b"ctx", io.BytesIO(SEALED)))
    assert b.seekable()
    b.seek(40000)
    assert b.read(10) == MSG[40000:40010]
    b.seek(-4, io.SEEK_END)
    assert b.read() == b"tail"
    assert b.tell() == len(MSG)


def test_chunked_file_errors_still_raise():
    bad = bytearray(SEALED)
    bad[56 + 16384 + 16 + 5] ^= 1  # second chunk
    for cls in (chunked.Reader, chunked.Opener):
        f = io.BufferedReader(cls(KEY, b"ctx", io.BytesIO(bytes(bad))))
        assert f.read(16384) == MSG[:16384]
        for _ in range(2):
            with pytest.raises(galois_aead.InvalidTag):
                f.read(100)
    with pytest.raises(galois_aead.InvalidTag):
        chunked.Opener(bytes(16), b"ctx", io.BytesIO(SEALED))
