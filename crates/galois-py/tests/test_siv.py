"""AESGCMSIV against cryptography's AESGCMSIV (same outputs, same errors) and
XAES256GCM against the C2SP spec's vectors (issue 15)."""
import os

import pytest
from cryptography.exceptions import InvalidTag as CryptoInvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV as CryptoAESGCMSIV

import galois_aead


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_aesgcmsiv_matches_cryptography(bits):
    rnd = __import__("random").Random(bits)
    for n in [0, 1, 15, 16, 17, 100, 1500, 4095, 4096, 5000, 16384]:
        key = rnd.randbytes(bits // 8)
        nonce = rnd.randbytes(12)
        aad = rnd.randbytes(rnd.choice([0, 1, 20, 1030]))
        data = rnd.randbytes(n)
        ours, theirs = galois_aead.AESGCMSIV(key), CryptoAESGCMSIV(key)
        ct = theirs.encrypt(nonce, data, aad or None)
        assert ours.encrypt(nonce, data, aad or None) == ct
        assert ours.decrypt(nonce, ct, aad or None) == data
        assert theirs.decrypt(nonce, ours.encrypt(bytearray(nonce), memoryview(data), aad), aad) == data


def test_aesgcmsiv_errors_match_cryptography():
    key = bytes(16)
    ours, theirs = galois_aead.AESGCMSIV(key), CryptoAESGCMSIV(key)
    for bad in [bytes(11), bytes(13), b""]:
        for a in (ours, theirs):
            with pytest.raises(ValueError, match="Nonce must be 12 bytes long"):
                a.encrypt(bad, b"x", None)
            with pytest.raises(ValueError, match="Nonce must be 12 bytes long"):
                a.decrypt(bad, bytes(20), None)
    for k in [bytes(20), b"", bytes(64)]:
        for cls in (galois_aead.AESGCMSIV, CryptoAESGCMSIV):
            with pytest.raises(ValueError, match="128, 192 or 256 bits"):
                cls(k)
    for cls in (galois_aead.AESGCMSIV, CryptoAESGCMSIV):
        with pytest.raises(ValueError):
            cls.generate_key(64)
        assert len(cls.generate_key(192)) == 24
    ct = ours.encrypt(bytes(12), b"message", b"aad")
    for bad_ct in [ct[:15], ct[:-1], bytes([ct[0] ^ 1]) + ct[1:], ct[:-1] + bytes([ct[-1] ^ 1])]:
        with pytest.raises(CryptoInvalidTag):
            ours.decrypt(bytes(12), bad_ct, b"aad")
        with pytest.raises(galois_aead.InvalidTag):
            ours.decrypt(bytes(12), bad_ct, b"aad")
    with pytest.raises(galois_aead.InvalidTag):
        ours.decrypt(bytes(12), ct, b"other")
    with pytest.raises(TypeError):
        ours.encrypt(bytes(12), "text", None)


def test_xaes256gcm_c2sp_vectors():
    nonce = b"ABCDEFGHIJKLMNOPQRSTUVWX"
    for key, aad, want in [
        (b"\x01" * 32, None, "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271"),
        (b"\x03" * 32, b"c2sp.org/XAES-256-GCM",
         "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d"),
    ]:
        x = galois_aead.XAES256GCM(key)
        assert x.encrypt(nonce, b"XAES-256-GCM", aad).hex() == want
        assert x.decrypt(nonce, bytes.fromhex(want), aad) == b"XAES-256-GCM"


def test_xaes256gcm_round_trip_and_errors():
    x = galois_aead.XAES256GCM(galois_aead.XAES256GCM.generate_key())
    nonce = os.urandom(24)
    ct = x.encrypt(nonce, b"secret" * 1000, b"h")
    assert x.decrypt(nonce, ct, b"h") == b"secret" * 1000
    for bad in [ct[:15], ct[:-1] + bytes([ct[-1] ^ 1])]:
        with pytest.raises(galois_aead.InvalidTag):
            x.decrypt(nonce, bad, b"h")
    other = bytes([nonce[0] ^ 1]) + nonce[1:]
    with pytest.raises(galois_aead.InvalidTag):
        x.decrypt(other, ct, b"h")
    with pytest.raises(ValueError, match="Nonce must be 24 bytes long"):
        x.encrypt(bytes(12), b"x", None)
    with pytest.raises(ValueError, match="32 bytes"):
        galois_aead.XAES256GCM(bytes(16))
