"""Wrong types raise TypeError, wrong sizes ValueError, with a clear message;
nothing crashes the interpreter."""
import array
import doctest
import threading

import pytest

import galois_aead

KEY, NONCE = bytes(16), bytes(12)


@pytest.mark.parametrize("bad", [5, "sixteen bytes!!!", None, 1.5, [0] * 16, object()])
def test_key_wrong_type(bad):
    for cls in (galois_aead.AESGCM, galois_aead.GMAC, galois_aead.Poly1305AES):
        with pytest.raises(TypeError, match="key must be a bytes-like object"):
            cls(bad)


@pytest.mark.parametrize("n", [0, 1, 5, 15, 17, 20, 31, 33, 64])
def test_key_wrong_size(n):
    with pytest.raises(ValueError, match=rf"aes-gcm key must be 16, 24 or 32 bytes \(128, 192 or 256 bits\), got {n}"):
        galois_aead.AESGCM(bytes(n))
    with pytest.raises(ValueError, match=f"key must be 16, 24 or 32 bytes, got {n}"):
        galois_aead.GMAC(bytes(n))


def test_poly_key_errors():
    with pytest.raises(ValueError, match="key must be 32 bytes .*got 16"):
        galois_aead.Poly1305AES(bytes(16))
    key = bytearray(galois_aead.Poly1305AES.generate_key())
    key[16 + 3] |= 0x10  # r[3] >= 16: not clamped
    with pytest.raises(ValueError, match="not clamped"):
        galois_aead.Poly1305AES(key)
    mac = galois_aead.Poly1305AES(galois_aead.Poly1305AES.generate_key())
    with pytest.raises(ValueError, match="nonce must be 16 bytes, got 12"):
        mac.authenticate(NONCE, b"m")
    with pytest.raises(ValueError, match="nonce must be 16 bytes, got 12"):
        mac.verify(NONCE, b"m", bytes(16))
    with pytest.raises(galois_aead.InvalidSignature):
        mac.verify(bytes(16), b"m", bytes(15))
    with pytest.raises(TypeError, match="data must be a bytes-like object"):
        mac.authenticate(bytes(16), "text")


@pytest.mark.parametrize("bits", [0, 64, 100, 255, 512, -128])
def test_generate_key_bad_bits(bits):
    with pytest.raises(ValueError, match=f"bit_length must be 128, 192 or 256, got {bits}"):
        galois_aead.AESGCM.generate_key(bits)


def test_generate_key_bad_type():
    with pytest.raises(TypeError, match="bit_length must be an integer"):
        galois_aead.AESGCM.generate_key("128")


def test_tag_length_options():
    for t in (0, 3, 5, 6, 7, 9, 10, 11, 17):
        with pytest.raises(ValueError, match="tag_length must be"):
            galois_aead.AESGCM(KEY, tag_length=t)
    for t in (0, 3, 17):
        with pytest.raises(ValueError, match="tag_length must be 4 to 16"):
            galois_aead.AESGCM(KEY, tag_length=t, permissive=True)
    with pytest.raises(TypeError):
        galois_aead.AESGCM(KEY, 16)  # keyword-only
    assert galois_aead.AESGCM(KEY, tag_length=5, permissive=True).tag_length == 5


@pytest.mark.parametrize("arg", ["nonce", "data", "associated_data"])
@pytest.mark.parametrize("bad", ["text", 12, 3.0, [1, 2]])
def test_encrypt_wrong_types(arg, bad):
    aead = galois_aead.AESGCM(KEY)
    args = {"nonce": NONCE, "data": b"data", "associated_data": b"aad"}
    args[arg] = bad
    with pytest.raises(TypeError, match=f"{arg} must be a bytes-like object"):
        aead.encrypt(args["nonce"], args["data"], args["associated_data"])
    with pytest.raises(TypeError, match=f"{arg} must be a bytes-like object"):
        aead.decrypt(args["nonce"], bytes(32) if arg != "data" else bad, args["associated_data"])


def test_none_is_only_allowed_for_associated_data():
    aead = galois_aead.AESGCM(KEY)
    with pytest.raises(TypeError, match="nonce must be"):
        aead.encrypt(None, b"d", None)
    with pytest.raises(TypeError, match="data must be"):
        aead.encrypt(NONCE, None, None)


def test_empty_nonce():
    wide = {"any_nonce_length": True}
    with pytest.raises(ValueError, match="nonce must be at least 1 byte, got 0"):
        galois_aead.AESGCM(KEY, **wide).encrypt(b"", b"d", None)
    with pytest.raises(ValueError, match="nonce must be at least 1 byte"):
        galois_aead.GMAC(KEY, **wide).authenticate(b"", b"d")
    with pytest.raises(ValueError, match="nonce must be at least 1 byte"):
        galois_aead.AESGCM(KEY, **wide).encryptor(b"")
    for n in (b"", bytes(7), bytes(129)):  # the default range is cryptography's
        with pytest.raises(ValueError, match="^Nonce must be between 8 and 128 bytes$"):
            galois_aead.AESGCM(KEY).encrypt(n, b"d", None)
        with pytest.raises(ValueError, match="^Nonce must be between 8 and 128 bytes$"):
            galois_aead.GMAC(KEY).authenticate(n, b"d")
        with pytest.raises(ValueError, match="^Nonce must be between 8 and 128 bytes$"):
            galois_aead.AESGCM(KEY).decryptor(n)


def test_short_ciphertext_is_invalid_tag():
    aead = galois_aead.AESGCM(KEY)
    for n in range(16):
        with pytest.raises(galois_aead.InvalidTag):
            aead.decrypt(NONCE, bytes(n), None)
        with pytest.raises(galois_aead.InvalidTag):
            aead.decrypt_into(NONCE, bytes(n), None, bytearray(0))


def test_invalid_tag_is_an_exception_class():
    assert issubclass(galois_aead.InvalidTag, Exception)
    assert galois_aead.InvalidTag.__module__ == "galois_aead"


def test_into_buffer_checks():
    aead = galois_aead.AESGCM(KEY)
    ct = aead.encrypt(NONCE, b"12345", None)
    for n in (0, 20, 22, 100):
        with pytest.raises(ValueError, match=f"buffer must be 21 bytes, got {n}"):
            aead.encrypt_into(NONCE, b"12345", None, bytearray(n))
    with pytest.raises(ValueError, match="buffer must be 5 bytes, got 6"):
        aead.decrypt_into(NONCE, ct, None, bytearray(6))
    with pytest.raises(TypeError, match="buf must be writable"):
        aead.encrypt_into(NONCE, b"12345", None, bytes(21))
    with pytest.raises(TypeError, match="buf must be writable"):
        aead.encrypt_into(NONCE, b"12345", None, memoryview(bytearray(21)).toreadonly())
    with pytest.raises(TypeError, match="buf must be a writable bytes-like object"):
        aead.encrypt_into(NONCE, b"12345", None, "x" * 21)
    with pytest.raises(BufferError, match="not contiguous"):
        aead.encrypt_into(NONCE, b"12345", None, memoryview(bytearray(42))[::2])


def test_decrypt_into_wipes_on_failure():
    aead = galois_aead.AESGCM(KEY)
    ct = bytearray(aead.encrypt(NONCE, b"plaintext!", b"a"))
    ct[0] ^= 1
    out = bytearray(b"\xaa" * 10)
    with pytest.raises(galois_aead.InvalidTag):
        aead.decrypt_into(NONCE, ct, b"a", out)
    assert out == bytearray(10)


def test_in_place_aliasing_is_correct():
    """buf sharing memory with data (in-place use through memoryviews)."""
    aead = galois_aead.AESGCM(KEY)
    msg = b"in place message"
    store = bytearray(msg + bytes(16))
    mv = memoryview(store)
    aead.encrypt_into(NONCE, mv[:len(msg)], None, mv)
    assert bytes(store) == aead.encrypt(NONCE, msg, None)
    aead.decrypt_into(NONCE, bytes(store), None, mv[:len(msg)])
    assert bytes(store[:len(msg)]) == msg


def test_any_contiguous_buffer_is_bytes():
    aead = galois_aead.AESGCM(KEY)
    a = array.array("B", [1, 2, 3, 4])
    assert aead.encrypt(NONCE, a, None) == aead.encrypt(NONCE, a.tobytes(), None)
    with pytest.raises(BufferError, match="not contiguous"):
        aead.encrypt(NONCE, memoryview(b"abcdef")[::2], None)
    with pytest.raises(TypeError, match="format .I. .4 bytes."):
        aead.encrypt(NONCE, array.array("I", [1, 2, 3, 4]), None)


def test_threads_share_one_key():
    """Many threads on one AESGCM object (GIL released for large inputs)."""
    aead = galois_aead.AESGCM(KEY)
    data = bytes(range(256)) * 256  # 64 KiB: the detached path
    want = aead.encrypt(NONCE, data, b"x")
    errors = []

    def work():
        try:
            for _ in range(20):
                assert aead.decrypt(NONCE, aead.encrypt(NONCE, data, b"x"), b"x") == data
                assert aead.encrypt(NONCE, bytearray(data), b"x") == want
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_docstring_examples():
    """Every example in the package's docstrings runs (doctest)."""
    objs = [galois_aead, galois_aead.AESGCM, galois_aead.GCMEncryptor, galois_aead.GCMDecryptor,
            galois_aead.GMAC, galois_aead.Poly1305AES, galois_aead.Poly1305]
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(verbose=False)
    examples = 0
    for o in objs:
        assert o.__doc__, f"{o} has no docstring"
        t = parser.get_doctest(o.__doc__, {"galois_aead": galois_aead}, getattr(o, "__name__", "?"), None, 0)
        examples += len(t.examples)
        runner.run(t)
    res = runner.summarize(verbose=False)
    assert res.failed == 0
    assert examples >= 10


def test_methods_have_docstrings():
    for cls in (galois_aead.AESGCM, galois_aead.GMAC, galois_aead.Poly1305AES, galois_aead.GCMEncryptor, galois_aead.GCMDecryptor,
                galois_aead.Poly1305):
        for name in dir(cls):
            if not name.startswith("_"):
                assert getattr(cls, name).__doc__, f"{cls.__name__}.{name} has no docstring"
