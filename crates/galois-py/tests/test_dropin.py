"""Issue 14: galois as a drop-in for pyca cryptography.

Code written for cryptography, that knows only cryptography's exception classes,
runs unchanged against cryptography's AESGCM (the reference) and against
galois_aead.AESGCM swapped in; the same for the GCM contexts and the MAC
failures. Errors are compared side by side with the real cryptography.
"""
import array
import copy
import ctypes
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
from cryptography.exceptions import (
    AlreadyFinalized,
    AlreadyUpdated,
    InvalidSignature,
    InvalidTag,
    NotYetFinalized,
)
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as CryptographyAESGCM
from cryptography.hazmat.primitives.poly1305 import Poly1305 as CryptographyPoly1305

import galois_aead

IMPLS = pytest.mark.parametrize(
    "AESGCM", [CryptographyAESGCM, galois_aead.AESGCM], ids=["cryptography", "galois"]
)


def outcome(call):
    """(exception class or None, message) of a call."""
    try:
        call()
    except Exception as e:
        return type(e), str(e)
    return None, ""


# ---- the acceptance test: cryptography-only code, AESGCM swapped -----------------

@IMPLS
def test_code_written_for_cryptography_runs_with_galois(AESGCM):
    key = AESGCM.generate_key(bit_length=256)
    aesgcm = AESGCM(key)
    nonce = os.urandom(12)
    aad = b"authenticated but unencrypted data"
    ct = aesgcm.encrypt(nonce, b"a secret message", aad)
    assert aesgcm.decrypt(nonce, ct, aad) == b"a secret message"

    caught = []
    for bad in (ct[:-1] + bytes([ct[-1] ^ 1]), ct[:5], b""):
        try:
            aesgcm.decrypt(nonce, bad, aad)
        except InvalidTag:
            caught.append(bad)
    assert len(caught) == 3
    with pytest.raises(InvalidTag):
        aesgcm.decrypt(nonce, ct, b"other aad")

    buf = bytearray(len(b"a secret message") + 16)
    assert aesgcm.encrypt_into(nonce, b"a secret message", aad, buf) == len(buf)
    assert bytes(buf) == ct
    out = bytearray(16)
    assert aesgcm.decrypt_into(nonce, bytes(buf), aad, out) == 16
    assert out == b"a secret message"
    buf[0] ^= 1
    with pytest.raises(InvalidTag):
        aesgcm.decrypt_into(nonce, bytes(buf), aad, out)

    for n in (b"", bytes(7), bytes(129)):
        with pytest.raises(ValueError, match="^Nonce must be between 8 and 128 bytes$"):
            aesgcm.encrypt(n, b"x", None)
    assert aesgcm.decrypt(bytes(8), aesgcm.encrypt(bytes(8), b"x", None), None) == b"x"
    assert aesgcm.decrypt(bytes(128), aesgcm.encrypt(bytes(128), b"x", None), None) == b"x"


# ---- errors compared side by side with the real cryptography -------------------

KEY, NONCE = bytes(range(16)), bytes(12)


def side_by_side(call):
    theirs = outcome(lambda: call(CryptographyAESGCM(KEY)))
    ours = outcome(lambda: call(galois_aead.AESGCM(KEY)))
    return theirs, ours


@pytest.mark.parametrize("n", [0, 1, 7, 8, 12, 128, 129, 500])
def test_nonce_lengths_as_cryptography(n):
    for call in (lambda a: a.encrypt(bytes(n), b"data", None),
                 lambda a: a.decrypt(bytes(n), bytes(40), None),
                 lambda a: a.decrypt(bytes(n), bytes(3), None),
                 lambda a: a.encrypt_into(bytes(n), b"data", None, bytearray(20))):
        theirs, ours = side_by_side(call)
        if theirs[0] is ValueError:
            assert ours == theirs  # same class, same message
        else:
            assert ours[0] is theirs[0] or issubclass(ours[0], theirs[0]), (theirs, ours)


STRIDED = memoryview(bytearray(64))[::2]
CASES = {
    "data non-contiguous": lambda a: a.encrypt(NONCE, STRIDED, None),
    "nonce non-contiguous": lambda a: a.encrypt(memoryview(bytearray(24))[::2], b"x", None),
    "aad non-contiguous": lambda a: a.encrypt(NONCE, b"x", STRIDED),
    "buf non-contiguous": lambda a: a.encrypt_into(NONCE, b"abc", None, memoryview(bytearray(38))[::2]),
    "decrypt data non-contiguous": lambda a: a.decrypt(NONCE, STRIDED, None),
    "data array('I')": lambda a: a.encrypt(NONCE, array.array("I", [1, 2, 3]), None),
    "data array('H')": lambda a: a.encrypt(NONCE, array.array("H", [1, 2, 3]), None),
    "data memoryview cast 'I'": lambda a: a.encrypt(NONCE, memoryview(bytearray(8)).cast("I"), None),
    "aad array('d')": lambda a: a.encrypt(NONCE, b"x", array.array("d", [1.0])),
    "nonce array('I')": lambda a: a.encrypt(array.array("I", [0, 0, 0]), b"x", None),
    "buf array('I')": lambda a: a.encrypt_into(NONCE, b"abc", None, array.array("I", [0] * 5)),
    "data array('B')": lambda a: a.encrypt(NONCE, array.array("B", [1, 2, 3]), None),
    "data array('b')": lambda a: a.encrypt(NONCE, array.array("b", [1, 2, 3]), None),
    "data memoryview cast 'B'": lambda a: a.encrypt(NONCE, memoryview(bytearray(8)).cast("B"), None),
    "data memoryview cast 'c'": lambda a: a.encrypt(NONCE, memoryview(bytearray(8)).cast("c"), None),
    "data memoryview cast '?'": lambda a: a.encrypt(NONCE, memoryview(bytearray(8)).cast("?"), None),
    "data ctypes c_ubyte array": lambda a: a.encrypt(NONCE, (ctypes.c_ubyte * 4)(), None),
    "data str": lambda a: a.encrypt(NONCE, "text", None),
    "buf read-only": lambda a: a.encrypt_into(NONCE, b"abc", None, bytes(19)),
    "buf too short": lambda a: a.encrypt_into(NONCE, b"abc", None, bytearray(18)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_buffers_refused_as_cryptography_refuses_them(case):
    theirs, ours = side_by_side(CASES[case])
    assert ours[0] is theirs[0], (theirs, ours)
    if ours[0] is ValueError:
        assert ours[1].startswith(theirs[1]), (theirs, ours)


def test_key_buffers_as_cryptography():
    for key in (array.array("I", [0] * 4), memoryview(bytearray(32))[::2], bytearray(16),
                memoryview(bytes(32))):
        theirs = outcome(lambda: CryptographyAESGCM(key))
        ours = outcome(lambda: galois_aead.AESGCM(key))
        assert ours[0] is theirs[0], (key, theirs, ours)


# ---- GCM contexts ----------------------------------------------------------

def crypto_encryptor(key, nonce):
    return Cipher(algorithms.AES(key), modes.GCM(nonce)).encryptor()


def crypto_decryptor(key, nonce, tag=None):
    return Cipher(algorithms.AES(key), modes.GCM(nonce, tag)).decryptor()


def galois_encryptor(key, nonce):
    return galois_aead.AESGCM(key).encryptor(nonce)


def galois_decryptor(key, nonce, tag=None):
    return galois_aead.AESGCM(key).decryptor(nonce, tag)


CONTEXTS = pytest.mark.parametrize(
    "encryptor,decryptor",
    [(crypto_encryptor, crypto_decryptor), (galois_encryptor, galois_decryptor)],
    ids=["cryptography", "galois"],
)


@CONTEXTS
def test_gcm_context_code_written_for_cryptography(encryptor, decryptor):
    key, nonce, aad = bytes(range(32)), bytes(range(12)), b"header"
    msg = bytes(range(256)) * 40
    chunks = [msg[i:i + 1000] for i in range(0, len(msg), 1000)]
    want = CryptographyAESGCM(key).encrypt(nonce, msg, aad)

    enc = encryptor(key, nonce)
    with pytest.raises(NotYetFinalized):
        enc.tag
    enc.authenticate_additional_data(aad)
    ct = b"".join(enc.update(c) for c in chunks) + enc.finalize()
    assert ct + enc.tag == want
    with pytest.raises(AlreadyFinalized):
        enc.update(b"x")
    with pytest.raises(AlreadyFinalized):
        enc.finalize()

    # update_into, as in cryptography's documentation
    enc = encryptor(key, nonce)
    enc.authenticate_additional_data(aad)
    buf = bytearray(len(msg) + 15)
    n = enc.update_into(msg, buf)
    ct2 = bytes(buf[:n]) + enc.finalize()
    assert ct2 + enc.tag == want

    dec = decryptor(key, nonce)
    dec.authenticate_additional_data(aad)
    pt = b"".join(dec.update(c) for c in [ct[:5000], ct[5000:]])
    pt += dec.finalize_with_tag(want[-16:])
    assert pt == msg
    with pytest.raises(AlreadyFinalized):
        dec.update(b"x")

    dec = decryptor(key, nonce, want[-16:])  # tag given up front: finalize()
    dec.authenticate_additional_data(aad)
    n = dec.update_into(ct, buf)
    assert bytes(buf[:n]) + dec.finalize() == msg

    dec = decryptor(key, nonce)
    dec.authenticate_additional_data(aad)
    dec.update(ct)
    with pytest.raises(InvalidTag):
        dec.finalize_with_tag(bytes(16))

    dec = decryptor(key, nonce)
    with pytest.raises(ValueError, match="Authentication tag must be provided when decrypting."):
        dec.finalize()
    dec = decryptor(key, nonce, want[-16:])
    with pytest.raises(ValueError, match="Authentication tag must be provided only once."):
        dec.finalize_with_tag(want[-16:])
    dec = decryptor(key, nonce)
    with pytest.raises(ValueError, match="Authentication tag must be 16 bytes or longer."):
        dec.finalize_with_tag(bytes(4))

    enc = encryptor(key, nonce)
    enc.update(b"x")
    with pytest.raises(AlreadyUpdated):
        enc.authenticate_additional_data(b"late")


def test_galois_decryptor_releases_nothing_before_the_tag():
    """The one documented difference: update()/update_into() release nothing."""
    key, nonce = bytes(16), bytes(12)
    ct = CryptographyAESGCM(key).encrypt(nonce, b"p" * 5000, None)
    dec = galois_decryptor(key, nonce)
    assert dec.update(ct[:-16]) == b""
    buf = bytearray(b"\xaa" * 5000)
    dec2 = galois_decryptor(key, nonce)
    assert dec2.update_into(ct[:-16], buf) == 0 and buf == b"\xaa" * 5000
    bad = bytearray(ct[-16:])
    bad[0] ^= 1
    with pytest.raises(InvalidTag):
        dec.finalize_with_tag(bytes(bad))
    assert dec2.finalize_with_tag(ct[-16:]) == b"p" * 5000


# ---- MACs -----------------------------------------------------------------

def test_mac_failures_are_cryptography_invalid_signature():
    key = bytes(range(32))
    tag = CryptographyPoly1305.generate_tag(key, b"msg")
    assert galois_aead.Poly1305.generate_tag(key, b"msg") == tag
    for verify in (CryptographyPoly1305.verify_tag, galois_aead.Poly1305.verify_tag):
        with pytest.raises(InvalidSignature):
            verify(key, b"msg!", tag)
    p = galois_aead.Poly1305(key)
    p.update(b"msg")
    p.finalize()
    with pytest.raises(AlreadyFinalized):
        p.update(b"x")
    with pytest.raises(InvalidSignature):
        galois_aead.GMAC(bytes(16)).verify(NONCE, b"m", bytes(16))
    pk = galois_aead.Poly1305AES.generate_key()
    with pytest.raises(InvalidSignature):
        galois_aead.Poly1305AES(pk).verify(bytes(16), b"m", bytes(16))


def test_galois_names_stay_importable():
    from galois_aead import AlreadyFinalized as A, InvalidSignature as S, InvalidTag as T
    for ours, theirs in ((T, InvalidTag), (S, InvalidSignature), (A, AlreadyFinalized),
                         (galois_aead.NotYetFinalized, NotYetFinalized),
                         (galois_aead.AlreadyUpdated, AlreadyUpdated)):
        assert issubclass(ours, theirs) and ours is not theirs
        assert ours.__module__ == "galois_aead"
    with pytest.raises(T):
        galois_aead.AESGCM(KEY).decrypt(NONCE, bytes(16), None)


def test_without_cryptography_the_exceptions_are_plain():
    """cryptography not importable: the classes subclass Exception, and work."""
    code = textwrap.dedent("""
        import sys
        sys.modules["cryptography"] = None  # any import of it fails
        import galois_aead as g
        for name in ("InvalidTag", "InvalidSignature", "AlreadyFinalized",
                     "NotYetFinalized", "AlreadyUpdated"):
            cls = getattr(g, name)
            assert cls.__mro__[1] is Exception, cls.__mro__
        try:
            g.AESGCM(bytes(16)).decrypt(bytes(12), bytes(16), None)
        except g.InvalidTag:
            pass
        else:
            raise SystemExit("no InvalidTag")
        e = g.AESGCM(bytes(16)).encryptor(bytes(12))
        e.finalize()
        try:
            e.finalize()
        except g.AlreadyFinalized:
            print("ok")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


# ---- reprs --------------------------------------------------------------------

def test_reprs_are_readable_and_show_no_key_material():
    key = bytes.fromhex("8f3a61c2d94e07b5aa1c3e5f7092b4d6e8f1a3c5e7092b4d6f8a1c3e5f70a2b4")
    nonce = bytes(12)
    objs = {
        "galois_aead.AESGCM(AES-256, tag_length=16)": galois_aead.AESGCM(key),
        "galois_aead.AESGCM(AES-128, tag_length=12)": galois_aead.AESGCM(key[:16], tag_length=12),
        "galois_aead.GMAC(AES-192, tag_length=16)": galois_aead.GMAC(key[:24]),
        "galois_aead.AESGCMSIV(AES-128, tag_length=16)": galois_aead.AESGCMSIV(key[:16]),
        "galois_aead.AESGCMSIV(AES-256, tag_length=16)": galois_aead.AESGCMSIV(key),
        "galois_aead.XAES256GCM(AES-256, tag_length=16)": galois_aead.XAES256GCM(key),
        "galois_aead.GCMEncryptor(AES-256, tag_length=16, finalized=False)":
            galois_aead.AESGCM(key).encryptor(nonce),
        "galois_aead.GCMDecryptor(AES-256, tag_length=16, finalized=False)":
            galois_aead.AESGCM(key).decryptor(nonce),
        "galois_aead.Poly1305(finalized=False)": galois_aead.Poly1305(key),
    }
    pkey = bytearray(key)
    for i in (3, 7, 11, 15):
        pkey[16 + i] &= 15
    for i in (4, 8, 12):
        pkey[16 + i] &= 252
    objs["galois_aead.Poly1305AES(AES-128)"] = galois_aead.Poly1305AES(bytes(pkey))
    secrets = [key.hex(), key.hex().upper(), bytes(pkey).hex(), repr(key)[2:-1], repr(bytes(pkey))[2:-1]]
    for want, o in objs.items():
        for leak in (pickle.dumps, copy.copy, copy.deepcopy):  # no way out for the key
            with pytest.raises(TypeError, match="cannot pickle"):
                leak(o)
        for text in (repr(o), str(o)):
            assert text == want
            for s in secrets:  # no 4-byte piece of any key, in any form
                for i in range(0, len(s) - 8):
                    assert s[i:i + 8] not in text, (text, s[i:i + 8])
