"""AESGCMSIV and XAES256GCM: encrypt_into / decrypt_into against encrypt / decrypt
(and cryptography's AESGCMSIV), and GIL release. Their race and error guarantees
(the output buffer is never computed in, an input changed during a call is read
once, every error zeroes the buffer) are checked with AESGCM's in test_races.py."""
import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV as CryptoAESGCMSIV

from test_gil import stamps_during
from test_races import AEADS, make

params = pytest.mark.parametrize("name", [n for n in AEADS if n != "AESGCM"])


@params
@pytest.mark.parametrize("size", [0, 1, 15, 16, 100, 4095, 4096, 5000, 70000])
def test_into_matches_encrypt_and_decrypt(name, size):
    aead, nonce = make(name)
    pt = bytes(range(256)) * (size // 256) + b"q" * (size % 256)
    for aad in (None, b"", b"header", bytes(5000)):
        want = aead.encrypt(nonce, pt, aad)
        buf = bytearray(size + 16)
        assert aead.encrypt_into(nonce, pt, aad, buf) == size + 16
        assert buf == want
        out = bytearray(size)
        assert aead.decrypt_into(nonce, memoryview(buf), aad, out) == size
        assert out == pt
        assert aead.decrypt(bytearray(nonce), bytearray(want), aad) == pt
    if name.startswith("AESGCMSIV"):
        theirs = CryptoAESGCMSIV(bytes(range(16 if name.endswith("128") else 32)))
        assert theirs.decrypt(nonce, bytes(buf), bytes(5000)) == pt


@params
def test_calls_release_the_gil(name):
    aead, nonce = make(name)
    data = bytes(128 << 20)
    ct = aead.encrypt(nonce, data, None)
    out = bytearray(len(data))
    for what, call in [
        ("encrypt", lambda: aead.encrypt(nonce, data, None)),
        ("decrypt", lambda: aead.decrypt(nonce, ct, None)),
        ("decrypt_into", lambda: aead.decrypt_into(nonce, ct, None, out)),
    ]:
        dur, middle = stamps_during(call)
        assert middle > 0, f"{name}.{what}: no other thread ran during a {dur * 1e3:.0f} ms call"
