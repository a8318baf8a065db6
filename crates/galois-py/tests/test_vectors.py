"""The shared known-answer vectors (every vectors-v1 file in GALOIS_VECTORS_DIR)."""
import pytest

import galois_aead
from conftest import load_cases

GCM_FILES, GCM_CASES = load_cases({"AES-GCM", "AES-GMAC"})
POLY_FILES, POLY_CASES = load_cases({"Poly1305-AES"})
ONETIME_FILES, ONETIME_CASES = load_cases({"Poly1305"})


def h(x):
    return bytes.fromhex(x) if x is not None else None


def gcm_kwargs(tag_len, iv_len):
    """Strict where the spec allows the tag length, else the permissive mode."""
    if tag_len == 16 or (iv_len == 12 and (tag_len >= 12 or tag_len in (8, 4))):
        return {"tag_length": tag_len, "any_nonce_length": True}
    return {"tag_length": tag_len, "permissive": True, "any_nonce_length": True}


def test_vector_files_present(vector_files):
    assert GCM_FILES and GCM_CASES, "no AES-GCM cases found"
    assert POLY_CASES, "no Poly1305-AES cases found"
    assert ONETIME_CASES, "no one-time Poly1305 cases found"


def case_id(c):
    return f"{c[0]}:{c[2]['id']}"


@pytest.mark.parametrize("case", GCM_CASES, ids=case_id)
def test_gcm_vector(case):
    _, alg, t = case
    key, iv, aad, pt, ct, tag = (h(t[k]) if t.get(k) is not None else None
                                 for k in ("key", "iv", "aad", "pt", "ct", "tag"))
    kw = gcm_kwargs(len(tag), len(iv))
    if t["result"] == "invalid":
        try:
            aead = galois_aead.AESGCM(key, **kw)
        except ValueError:
            return  # parameters refused with a clear error
        with pytest.raises((galois_aead.InvalidTag, ValueError)):
            aead.decrypt(iv, ct + tag, aad)
        if alg == "AES-GMAC":
            with pytest.raises((galois_aead.InvalidSignature, ValueError)):
                galois_aead.GMAC(key, **kw).verify(iv, aad, tag)
        return
    assert t["result"] == "valid"
    aead = galois_aead.AESGCM(key, **kw)
    assert aead.encrypt(iv, pt, aad) == ct + tag
    assert aead.decrypt(iv, ct + tag, aad) == pt
    # the buffer forms
    out = bytearray(len(pt) + len(tag))
    assert aead.encrypt_into(iv, bytearray(pt), memoryview(aad), out) == len(out)
    assert bytes(out) == ct + tag
    back = bytearray(len(pt))
    assert aead.decrypt_into(memoryview(iv), out, aad, back) == len(pt)
    assert bytes(back) == pt
    # streaming, split in two
    enc = aead.encryptor(iv)
    enc.authenticate_additional_data(aad)
    half = len(pt) // 2
    assert enc.update(pt[:half]) + enc.update(pt[half:]) + enc.finalize() == ct
    assert enc.tag == tag
    dec = aead.decryptor(iv)
    dec.authenticate_additional_data(aad)
    assert dec.update(ct[:half]) + dec.update(ct[half:]) + dec.finalize_with_tag(tag) == pt
    # a flipped tag bit fails
    bad = bytearray(ct + tag)
    bad[-1] ^= 1
    with pytest.raises(galois_aead.InvalidTag):
        aead.decrypt(iv, bytes(bad), aad)
    if not pt:  # GMAC is GCM with an empty plaintext
        mac = galois_aead.GMAC(key, **kw)
        assert mac.authenticate(iv, aad) == tag
        assert mac.verify(iv, aad, tag) is None


@pytest.mark.parametrize("case", POLY_CASES, ids=case_id)
def test_poly1305aes_vector(case):
    _, _, t = case
    key, nonce, msg, tag = (h(t[k]) for k in ("key", "nonce", "msg", "tag"))
    if t["result"] == "invalid":
        try:
            mac = galois_aead.Poly1305AES(key)
        except ValueError:
            return
        with pytest.raises(galois_aead.InvalidSignature):
            mac.verify(nonce, msg, tag)
        return
    mac = galois_aead.Poly1305AES(key)
    assert mac.authenticate(nonce, msg) == tag
    assert mac.verify(nonce, bytearray(msg), tag) is None


@pytest.mark.parametrize("case", ONETIME_CASES, ids=case_id)
def test_poly1305_onetime_vector(case):
    _, _, t = case
    key, msg, tag = (h(t[k]) for k in ("key", "msg", "tag"))
    if t["result"] == "invalid":
        with pytest.raises((galois_aead.InvalidSignature, ValueError)):
            galois_aead.Poly1305.verify_tag(key, msg, tag)
        return
    assert galois_aead.Poly1305.generate_tag(key, msg) == tag
    p = galois_aead.Poly1305(key)
    p.update(msg[:7])
    p.update(bytearray(msg[7:]))
    assert p.finalize() == tag
    galois_aead.Poly1305.verify_tag(key, memoryview(msg), tag)
