"""Issue 12 item 3/4 (AESGCM) and issue 15 (AESGCMSIV, XAES256GCM): buffers other
threads can reach while the GIL is released.

A call on a large input runs without the GIL. These tests run such a call in a
worker thread and, from the main thread meanwhile, read (or write) the caller's
buffers. They check, for every one-shot AEAD class:
- the output buffer of encrypt_into/decrypt_into is never computed in: another
  thread sees either its old contents or the complete result, never plaintext
  being encrypted, ciphertext being decrypted, or unverified plaintext;
- an input changed during the call is read once: the result is either the
  authentic plaintext or InvalidTag with the buffer zeroed (all or nothing);
- on every error the output buffer is zeroed.
Each test also checks that the main thread did observe the buffer during calls
(otherwise it would prove nothing).
"""
import random
import threading

import pytest

import galois_aead

N = 16 << 20  # 16 MiB: several ms per call, far above GIL_RELEASE_BYTES
PT = b"SECRET!!" * (N // 8)
OLD = 0xAA
W = 16  # window size sampled

# name: (constructor, nonce, nonces the class refuses)
AEADS = {
    "AESGCM": (lambda: galois_aead.AESGCM(bytes(range(16))), bytes(12), [b""]),
    "AESGCMSIV-128": (lambda: galois_aead.AESGCMSIV(bytes(range(16))), bytes(12), [bytes(11), bytes(13)]),
    "AESGCMSIV-256": (lambda: galois_aead.AESGCMSIV(bytes(range(32))), bytes(12), [bytes(11), bytes(13)]),
    "XAES256GCM": (lambda: galois_aead.XAES256GCM(bytes(range(32))), bytes(range(24)), [bytes(23), bytes(25)]),
}
params = pytest.mark.parametrize("name", list(AEADS))


def make(name):
    new, nonce, _ = AEADS[name]
    return new(), nonce


def sample_during(calls, buf, classify):
    """Runs calls() in a worker; samples W-byte windows of buf meanwhile.
    Returns {class: count} of the windows seen while the worker ran."""
    seen = {}
    done = threading.Event()
    errors = []

    def worker():
        try:
            calls()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            done.set()

    t = threading.Thread(target=worker)
    rng = random.Random(1)
    t.start()
    while not done.is_set():
        i = rng.randrange(0, len(buf) - W)
        w = bytes(buf[i:i + W])
        if not done.is_set():
            c = classify(i, w)
            seen[c] = seen.get(c, 0) + 1
    t.join()
    assert not errors, errors
    return seen


def assert_only_seen(calls, buf, kinds, allowed, other):
    """Samples buf during calls(); each window is the first of `kinds`
    (label, window at i) it equals, else `other`; every label seen must be in
    `allowed`, and at least 20 windows must have been seen."""

    def classify(i, w):
        for label, want in kinds:
            if w == want(i):
                return label
        return other

    seen = sample_during(calls, buf, classify)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= allowed, seen


def old(_i):
    return bytes([OLD]) * W


def plaintext(i):
    return PT[i:i + W]


@params
def test_decrypt_into_never_shows_unverified_plaintext(name):
    aead, nonce = make(name)
    ct = bytearray(aead.encrypt(nonce, PT, None))
    ct[-1] ^= 1  # a forged tag: nothing of the plaintext may ever be visible
    buf = bytearray([OLD]) * N

    def calls():
        for _ in range(8):
            with pytest.raises(galois_aead.InvalidTag):
                aead.decrypt_into(nonce, ct, None, buf)
            buf[:] = bytes([OLD]) * N

    kinds = [("old", old), ("zero", lambda _i: bytes(W)), ("UNVERIFIED PLAINTEXT", plaintext)]
    assert_only_seen(calls, buf, kinds, {"old", "zero"}, "OTHER (ciphertext or partial)")
    assert buf == bytearray([OLD]) * N


@params
def test_decrypt_into_is_all_or_nothing(name):
    aead, nonce = make(name)
    ct = aead.encrypt(nonce, PT, None)
    buf = bytearray([OLD]) * N

    def calls():
        for _ in range(8):
            buf[:] = bytes([OLD]) * N
            assert aead.decrypt_into(nonce, ct, None, buf) == N

    kinds = [("old", old), ("plaintext", plaintext)]
    assert_only_seen(calls, buf, kinds, {"old", "plaintext"}, "OTHER (ciphertext or partial)")
    assert buf == PT


@params
def test_encrypt_into_is_all_or_nothing(name):
    aead, nonce = make(name)
    want = aead.encrypt(nonce, PT, None)
    buf = bytearray([OLD]) * len(want)

    def calls():
        for _ in range(8):
            buf[:] = bytes([OLD]) * len(want)
            aead.encrypt_into(nonce, PT, None, buf)

    kinds = [("old", old), ("ciphertext", lambda i: want[i:i + W]), ("PLAINTEXT IN OUTPUT", plaintext)]
    assert_only_seen(calls, buf, kinds, {"old", "ciphertext"}, "OTHER (partial)")
    assert buf == want


@params
def test_input_changed_during_decrypt_is_read_once(name):
    """A thread flips a ciphertext byte back and forth during decrypt_into
    calls: each call either returns the authentic plaintext or raises
    InvalidTag with buf zeroed; never anything else."""
    aead, nonce = make(name)
    ct = bytearray(aead.encrypt(nonce, PT, None))
    buf = bytearray(N)
    outcomes = {"ok": 0, "invalid": 0}
    stop = threading.Event()
    errors = []

    def worker():
        try:
            for _ in range(12):
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
    assert flips > 100 and sum(outcomes.values()) == 12, (flips, outcomes)


@params
@pytest.mark.parametrize("size", [5, 5000])  # GIL held, GIL released
def test_every_error_zeroes_the_output_buffer(name, size):
    """Issue 12 item 4: any error of encrypt_into/decrypt_into leaves buf
    zeroed (here buf starts as a copy of the plaintext, as in in-place use)."""
    aead, nonce = make(name)
    pt = bytes(range(256)) * (size // 256) + b"p" * (size % 256)
    ct = aead.encrypt(nonce, pt, b"a")
    bad_ct = bytearray(ct)
    bad_ct[0] ^= 1
    cases = [
        (lambda b: aead.encrypt_into(nonce, pt, "text", b), TypeError),  # bad AAD type
        (lambda b: aead.encrypt_into(nonce, pt, None, b[:-1]), ValueError),  # wrong size
        (lambda b: aead.decrypt_into(nonce, bad_ct, b"a", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(nonce, ct, b"other", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(nonce, ct[:10], b"a", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(nonce, ct, b"a", b[:size + 1]), ValueError),
    ]
    for bad in AEADS[name][2]:  # a nonce of a length the class refuses
        cases.append((lambda b, bad=bad: aead.encrypt_into(bad, pt, None, b), ValueError))
        cases.append((lambda b, bad=bad: aead.decrypt_into(bad, ct, b"a", b[:size]), ValueError))
    if name == "AESGCM":  # a short tag with a 16-byte nonce
        short = galois_aead.AESGCM(bytes(range(16)), tag_length=8)
        cases.append((lambda b: short.encrypt_into(bytes(16), pt, None, b[:size + 8]), ValueError))
    for i, (call, exc) in enumerate(cases):
        store = bytearray(pt + bytes(16))
        mv = memoryview(store)
        with pytest.raises(exc):
            call(mv)
        assert store[:size] == bytearray(size), f"case {i}: plaintext left in buf"
    with pytest.raises(TypeError):
        aead.encrypt_into(nonce, pt, None, bytes(size + 16))  # read-only buf
