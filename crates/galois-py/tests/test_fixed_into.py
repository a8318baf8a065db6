"""AESGCMSIV and XAES256GCM: encrypt_into / decrypt_into and GIL release, with
AESGCM's guarantees (test_races.py, test_gil.py): the output buffer is never
computed in (other threads see its old bytes or the complete, verified result),
an input changed during a call is read once, and every error zeroes the buffer."""
import threading

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV as CryptoAESGCMSIV

import galois_aead
from test_gil import stamps_during
from test_races import N, OLD, PT, W, sample_during

AEADS = {
    "AESGCMSIV-128": (lambda: galois_aead.AESGCMSIV(bytes(range(16))), bytes(12)),
    "AESGCMSIV-256": (lambda: galois_aead.AESGCMSIV(bytes(range(32))), bytes(12)),
    "XAES256GCM": (lambda: galois_aead.XAES256GCM(bytes(range(32))), bytes(range(24))),
}
params = pytest.mark.parametrize("name", list(AEADS))


def make(name):
    new, nonce = AEADS[name]
    return new(), nonce


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
@pytest.mark.parametrize("size", [5, 5000])  # GIL held, GIL released
def test_every_error_zeroes_the_output_buffer(name, size):
    aead, nonce = make(name)
    pt = bytes(range(256)) * (size // 256) + b"p" * (size % 256)
    ct = aead.encrypt(nonce, pt, b"a")
    bad_ct = bytearray(ct)
    bad_ct[0] ^= 1
    cases = [
        (lambda b: aead.encrypt_into(nonce[:-1], pt, None, b), ValueError),  # nonce length
        (lambda b: aead.encrypt_into(nonce, pt, "text", b), TypeError),  # bad AAD type
        (lambda b: aead.encrypt_into(nonce, pt, None, b[:-1]), ValueError),  # wrong size
        (lambda b: aead.decrypt_into(nonce, bad_ct, b"a", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(nonce, ct, b"other", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(nonce + b"x", ct, b"a", b[:size]), ValueError),
        (lambda b: aead.decrypt_into(nonce, ct[:10], b"a", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(nonce, ct, b"a", b[:size + 1]), ValueError),
    ]
    for i, (call, exc) in enumerate(cases):
        store = bytearray(pt + bytes(16))
        mv = memoryview(store)
        with pytest.raises(exc):
            call(mv)
        assert store[:size] == bytearray(size), f"case {i}: plaintext left in buf"
    with pytest.raises(TypeError):
        aead.encrypt_into(nonce, pt, None, bytes(size + 16))  # read-only buf


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


@params
def test_decrypt_into_never_shows_unverified_plaintext(name):
    aead, nonce = make(name)
    ct = bytearray(aead.encrypt(nonce, PT, None))
    ct[-1] ^= 1  # a forged tag: nothing of the plaintext may ever be visible
    buf = bytearray([OLD]) * N

    def calls():
        for _ in range(6):
            with pytest.raises(galois_aead.InvalidTag):
                aead.decrypt_into(nonce, ct, None, buf)
            buf[:] = bytes([OLD]) * N

    def classify(i, w):
        if w == bytes([OLD]) * W:
            return "old"
        if w == bytes(W):
            return "zero"
        if w == PT[i:i + W]:
            return "UNVERIFIED PLAINTEXT"
        return "OTHER (ciphertext or partial)"

    seen = sample_during(calls, buf, classify)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= {"old", "zero"}, seen


@params
def test_into_is_all_or_nothing(name):
    aead, nonce = make(name)
    want = aead.encrypt(nonce, PT, None)
    cbuf = bytearray([OLD]) * len(want)
    pbuf = bytearray([OLD]) * N

    def calls():
        for _ in range(4):
            cbuf[:] = bytes([OLD]) * len(want)
            aead.encrypt_into(nonce, PT, None, cbuf)
            pbuf[:] = bytes([OLD]) * N
            assert aead.decrypt_into(nonce, want, None, pbuf) == N

    def classify_c(i, w):
        if w == bytes([OLD]) * W:
            return "old"
        if w == want[i:i + W]:
            return "ciphertext"
        if w == PT[i:i + W]:
            return "PLAINTEXT IN OUTPUT"
        return "OTHER (partial)"

    seen = sample_during(calls, cbuf, classify_c)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= {"old", "ciphertext"}, seen
    assert cbuf == want

    def classify_p(i, w):
        if w == bytes([OLD]) * W:
            return "old"
        if w == PT[i:i + W]:
            return "plaintext"
        return "OTHER (ciphertext or partial)"

    seen = sample_during(calls, pbuf, classify_p)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= {"old", "plaintext"}, seen
    assert pbuf == PT


@params
def test_input_changed_during_decrypt_is_read_once(name):
    aead, nonce = make(name)
    ct = bytearray(aead.encrypt(nonce, PT, None))
    buf = bytearray(N)
    outcomes = {"ok": 0, "invalid": 0}
    stop = threading.Event()
    errors = []

    def worker():
        try:
            for _ in range(8):
                try:
                    aead.decrypt_into(nonce, ct, None, buf)
                    assert buf == PT, "success with a plaintext that is not the authentic one"
                    outcomes["ok"] += 1
                except galois_aead.InvalidTag:
                    assert buf == bytearray(N), "buf not zeroed after InvalidTag"
                    outcomes["invalid"] += 1
                buf[:] = bytes(N)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            stop.set()

    t = threading.Thread(target=worker)
    t.start()
    flips = 0
    while not stop.is_set():
        ct[N // 2] ^= 0x01
        flips += 1
    t.join()
    assert not errors, errors
    assert flips > 100 and sum(outcomes.values()) == 8, (flips, outcomes)
