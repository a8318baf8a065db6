"""galois against cryptography (OpenSSL) on random inputs, and against a small
pure-Python reference (built on cryptography's AES block function) where
cryptography has no API: nonces shorter than 8 or longer than 128 bytes, GMAC
with short tags, Poly1305-AES."""
import random

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as RefAESGCM
from cryptography.hazmat.primitives.poly1305 import Poly1305 as RefPoly1305

import galois_aead

SEED = 0x6A1015


def rbytes(rng, n):
    return rng.randbytes(n)


# ---- pure-Python reference GCM (spec 000 section 2) and Poly1305-AES ---------

def aes_block(key, block):
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return e.update(block) + e.finalize()


def gf_mul(x, y):
    r = 0xE1 << 120
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ r if v & 1 else v >> 1
    return z


def ghash(h, data):
    y = 0
    for i in range(0, len(data), 16):
        blk = data[i:i + 16].ljust(16, b"\0")
        y = gf_mul(y ^ int.from_bytes(blk, "big"), h)
    return y


def pad16(b):
    return b + b"\0" * (-len(b) % 16)


def ref_gcm(key, iv, aad, pt, tag_len=16):
    h = int.from_bytes(aes_block(key, bytes(16)), "big")
    if len(iv) == 12:
        y0 = iv + b"\0\0\0\1"
    else:
        y0 = ghash(h, pad16(iv) + (len(iv) * 8).to_bytes(16, "big")).to_bytes(16, "big")
    ct = bytearray()
    ctr = int.from_bytes(y0[12:], "big")
    for i in range(0, len(pt), 16):
        ctr = (ctr + 1) % 2**32
        ks = aes_block(key, y0[:12] + ctr.to_bytes(4, "big"))
        ct += bytes(a ^ b for a, b in zip(pt[i:i + 16], ks))
    lens = (len(aad) * 8).to_bytes(8, "big") + (len(ct) * 8).to_bytes(8, "big")
    s = ghash(h, pad16(aad) + pad16(bytes(ct)) + lens)
    t = (s ^ int.from_bytes(aes_block(key, y0), "big")).to_bytes(16, "big")
    return bytes(ct) + t[:tag_len]


def ref_poly1305aes(key, nonce, msg):
    k, r = key[:16], int.from_bytes(key[16:], "little")
    p = 2**130 - 5
    acc = 0
    for i in range(0, len(msg), 16):
        c = msg[i:i + 16]
        acc = (acc + int.from_bytes(c + b"\1", "little")) * r % p
    s = int.from_bytes(aes_block(k, nonce), "little")
    return ((acc + s) % 2**128).to_bytes(16, "little")


def test_reference_matches_cryptography():
    """The reference itself is checked against OpenSSL before it is trusted."""
    rng = random.Random(SEED)
    for _ in range(10):
        key, iv = rbytes(rng, 16), rbytes(rng, rng.choice([12, 8, 20, 64]))
        aad, pt = rbytes(rng, rng.randrange(40)), rbytes(rng, rng.randrange(70))
        assert ref_gcm(key, iv, aad, pt) == RefAESGCM(key).encrypt(iv, pt, aad)


# ---- AES-GCM vs cryptography -----------------------------------------------

@pytest.mark.parametrize("key_len", [16, 24, 32])
def test_aesgcm_random_vs_cryptography(key_len):
    rng = random.Random(SEED + key_len)
    for i in range(150):
        key = RefAESGCM.generate_key(key_len * 8)
        nonce_len = 12 if i % 3 else rng.randint(8, 128)  # cryptography's range
        nonce = rbytes(rng, nonce_len)
        data = rbytes(rng, rng.choice([0, 1, 15, 16, 17, rng.randrange(4097)]))
        aad = rbytes(rng, rng.choice([0, rng.randrange(4097)]))
        ref = RefAESGCM(key)
        ours = galois_aead.AESGCM(key)
        ct = ref.encrypt(nonce, data, aad)
        assert ours.encrypt(nonce, data, aad) == ct
        assert ours.decrypt(nonce, ct, aad) == data
        assert ref.decrypt(nonce, ours.encrypt(nonce, data, aad), aad) == data
        # buffer kinds and the *_into forms
        buf = bytearray(len(data) + 16)
        assert ours.encrypt_into(memoryview(nonce), bytearray(data), memoryview(aad), buf) == len(buf)
        assert bytes(buf) == ct
        out = bytearray(len(data))
        ours.decrypt_into(nonce, memoryview(buf), bytearray(aad), out)
        assert bytes(out) == data
        # tampering anywhere fails
        if ct:
            bad = bytearray(ct)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            with pytest.raises(galois_aead.InvalidTag):
                ours.decrypt(nonce, bytes(bad), aad)


def test_aesgcm_none_aad_equals_empty():
    key, nonce = bytes(range(16)), bytes(12)
    ref = RefAESGCM(key).encrypt(nonce, b"data", None)
    assert galois_aead.AESGCM(key).encrypt(nonce, b"data", None) == ref
    assert galois_aead.AESGCM(key).decrypt(nonce, ref, b"") == b"data"


def test_aesgcm_large_inputs_release_gil_path():
    """Inputs above GIL_RELEASE_BYTES take the detached path: same results."""
    rng = random.Random(SEED + 1)
    key, nonce = rbytes(rng, 32), rbytes(rng, 12)
    for n in [galois_aead.GIL_RELEASE_BYTES - 1, galois_aead.GIL_RELEASE_BYTES, 1 << 20]:
        data = rbytes(rng, n)
        ref = RefAESGCM(key).encrypt(nonce, data, b"a")
        ours = galois_aead.AESGCM(key)
        assert ours.encrypt(nonce, data, b"a") == ref
        assert ours.encrypt(nonce, bytearray(data), b"a") == ref  # copied path
        assert ours.decrypt(nonce, memoryview(ref), b"a") == data
        buf = bytearray(n + 16)
        ours.encrypt_into(nonce, data, b"a", buf)
        assert buf == ref


@pytest.mark.parametrize("nonce_len", [1, 2, 7, 129, 200])
def test_nonce_lengths_outside_cryptography_vs_reference(nonce_len):
    rng = random.Random(SEED + nonce_len)
    for _ in range(5):
        key = rbytes(rng, rng.choice([16, 24, 32]))
        nonce = rbytes(rng, nonce_len)
        aad, data = rbytes(rng, rng.randrange(50)), rbytes(rng, rng.randrange(100))
        want = ref_gcm(key, nonce, aad, data)
        aead = galois_aead.AESGCM(key, any_nonce_length=True)
        assert aead.encrypt(nonce, data, aad) == want
        assert aead.decrypt(nonce, want, aad) == data
        # refused by default, as cryptography refuses it
        with pytest.raises(ValueError, match="^Nonce must be between 8 and 128 bytes$"):
            galois_aead.AESGCM(key).encrypt(nonce, data, aad)


@pytest.mark.parametrize("tag_len", [4, 8, 12, 13, 14, 15])
def test_short_tags_vs_reference(tag_len):
    rng = random.Random(SEED + 100 + tag_len)
    key, nonce = rbytes(rng, 16), rbytes(rng, 12)
    data, aad = rbytes(rng, 33), rbytes(rng, 7)
    want = ref_gcm(key, nonce, aad, data, tag_len)
    aead = galois_aead.AESGCM(key, tag_length=tag_len)
    assert aead.tag_length == tag_len
    assert aead.encrypt(nonce, data, aad) == want
    assert aead.decrypt(nonce, want, aad) == data
    mac = galois_aead.GMAC(key, tag_length=tag_len)
    assert mac.authenticate(nonce, aad) == ref_gcm(key, nonce, aad, b"", tag_len)
    # a short tag with another nonce length needs permissive=True
    with pytest.raises(ValueError, match="12-byte IV"):
        aead.encrypt(nonce + b"x", data, aad)
    p = galois_aead.AESGCM(key, tag_length=tag_len, permissive=True)
    assert p.encrypt(nonce + b"x", data, aad) == ref_gcm(key, nonce + b"x", aad, data, tag_len)


# ---- streaming ------------------------------------------------------------

def test_streaming_every_split_matches_one_shot():
    rng = random.Random(SEED + 7)
    key, nonce = rbytes(rng, 16), rbytes(rng, 12)
    aead = galois_aead.AESGCM(key)
    for _ in range(40):
        data, aad = rbytes(rng, rng.randrange(300)), rbytes(rng, rng.randrange(40))
        want = RefAESGCM(key).encrypt(nonce, data, aad)
        enc = aead.encryptor(nonce)
        cut = rng.randrange(len(aad) + 1)
        enc.authenticate_additional_data(aad[:cut])
        enc.authenticate_additional_data(bytearray(aad[cut:]))
        got, pos = b"", 0
        while pos < len(data):
            step = rng.randrange(1, 40)
            got += enc.update(memoryview(data)[pos:pos + step])
            pos += step
        assert got + enc.finalize() + enc.tag == want
        dec = aead.decryptor(nonce)
        dec.authenticate_additional_data(aad)
        assert dec.update(want[:len(data) // 2]) == b""
        dec.update(want[len(data) // 2:len(data)])
        assert dec.finalize_with_tag(want[len(data):]) == data


def test_streaming_refuses_bad_tag_and_reuse():
    aead = galois_aead.AESGCM(bytes(16))
    ct = aead.encrypt(bytes(12), b"hello", None)
    dec = aead.decryptor(bytes(12))
    dec.update(ct[:-16])
    bad = bytearray(ct[-16:])
    bad[0] ^= 1
    with pytest.raises(galois_aead.InvalidTag):
        dec.finalize_with_tag(bytes(bad))
    with pytest.raises(galois_aead.AlreadyFinalized, match="finalized"):
        dec.update(b"x")
    dec = aead.decryptor(bytes(12))
    with pytest.raises(ValueError, match="16 bytes or longer"):
        dec.finalize_with_tag(b"short")
    enc = aead.encryptor(bytes(12))
    enc.update(b"x")
    with pytest.raises(galois_aead.AlreadyUpdated):
        enc.authenticate_additional_data(b"too late")
    enc.finalize()
    with pytest.raises(galois_aead.AlreadyFinalized, match="finalized"):
        enc.finalize()


# ---- GMAC and Poly1305-AES --------------------------------------------------

def test_gmac_vs_cryptography():
    rng = random.Random(SEED + 9)
    for _ in range(60):
        key = rbytes(rng, rng.choice([16, 24, 32]))
        nonce = rbytes(rng, rng.choice([12, 12, rng.randint(8, 128)]))
        msg = rbytes(rng, rng.randrange(3000))
        want = RefAESGCM(key).encrypt(nonce, b"", msg)  # GMAC = GCM with an empty text
        mac = galois_aead.GMAC(key)
        assert mac.authenticate(nonce, msg) == want
        assert mac.verify(nonce, bytearray(msg), want) is None
        with pytest.raises(galois_aead.InvalidSignature):
            mac.verify(nonce, msg + b"!", want)
        with pytest.raises(galois_aead.InvalidSignature):
            mac.verify(nonce, msg, want[:-1])


def test_poly1305aes_vs_reference():
    rng = random.Random(SEED + 11)
    for n in list(range(0, 70)) + [1000, 4095, 4096, 10000]:
        key = galois_aead.Poly1305AES.generate_key()
        nonce, msg = rbytes(rng, 16), rbytes(rng, n)
        want = ref_poly1305aes(key, nonce, msg)
        mac = galois_aead.Poly1305AES(key)
        assert mac.authenticate(nonce, msg) == want
        assert mac.authenticate(nonce, bytearray(msg)) == want
        mac.verify(nonce, memoryview(msg), want)
        bad = bytearray(want)
        bad[rng.randrange(16)] ^= 1 << rng.randrange(8)
        with pytest.raises(galois_aead.InvalidSignature):
            mac.verify(nonce, msg, bytes(bad))


def test_generated_keys_are_random_and_sized():
    for bits in (128, 192, 256):
        keys = {galois_aead.AESGCM.generate_key(bits) for _ in range(20)}
        assert len(keys) == 20 and all(len(k) == bits // 8 for k in keys)
    pk = {galois_aead.Poly1305AES.generate_key() for _ in range(20)}
    assert len(pk) == 20
    for k in pk:
        r = k[16:]
        assert all(r[i] < 16 for i in (3, 7, 11, 15)) and all(r[i] % 4 == 0 for i in (4, 8, 12))
        galois_aead.Poly1305AES(k)


def test_poly1305_onetime_vs_cryptography():
    rng = random.Random(SEED + 13)
    for n in list(range(0, 50)) + [255, 256, 4095, 4096, 5000, 100000]:
        key, msg = rbytes(rng, 32), rbytes(rng, n)
        want = RefPoly1305.generate_tag(key, msg)
        assert galois_aead.Poly1305.generate_tag(key, msg) == want
        p = galois_aead.Poly1305(key)
        cut = rng.randrange(n + 1)
        p.update(msg[:cut])
        p.update(memoryview(msg)[cut:])
        assert p.finalize() == want
        galois_aead.Poly1305.verify_tag(key, bytearray(msg), want)
        bad = bytearray(want)
        bad[rng.randrange(16)] ^= 1 << rng.randrange(8)
        with pytest.raises(galois_aead.InvalidSignature):
            galois_aead.Poly1305.verify_tag(key, msg, bytes(bad))


def test_poly1305_onetime_errors():
    with pytest.raises(ValueError, match="key must be 32 bytes .*got 31"):
        galois_aead.Poly1305(bytes(31))
    with pytest.raises(TypeError, match="key must be a bytes-like object"):
        galois_aead.Poly1305("k" * 32)
    p = galois_aead.Poly1305(bytes(32))
    p.finalize()
    with pytest.raises(galois_aead.AlreadyFinalized, match="finalized"):
        p.update(b"x")
    with pytest.raises(galois_aead.AlreadyFinalized, match="finalized"):
        p.finalize()
    with pytest.raises(galois_aead.InvalidSignature):
        galois_aead.Poly1305.verify_tag(bytes(range(32)), b"m", bytes(15))
