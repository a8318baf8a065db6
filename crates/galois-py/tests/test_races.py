"""Issue 12 item 3/4: buffers other threads can reach while the GIL is released.

A call on a large input runs without the GIL. These tests run such a call in a
worker thread and, from the main thread meanwhile, read (or write) the caller's
buffers. They check:
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
KEY, NONCE = bytes(range(16)), bytes(12)
PT = b"SECRET!!" * (N // 8)
OLD = 0xAA
W = 16  # window size sampled


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


def test_decrypt_into_never_shows_unverified_plaintext():
    aead = galois_aead.AESGCM(KEY)
    ct = bytearray(aead.encrypt(NONCE, PT, None))
    ct[-1] ^= 1  # a forged tag: nothing of the plaintext may ever be visible
    buf = bytearray([OLD]) * N

    def calls():
        for _ in range(8):
            with pytest.raises(galois_aead.InvalidTag):
                aead.decrypt_into(NONCE, ct, None, buf)
            buf[:] = bytes([OLD]) * N

    def classify(i, w):
        if w == bytes([OLD]) * W:
            return "old"
        if w == bytes(W):
            return "zero"  # wiped after the failure
        if w == PT[i:i + W]:
            return "UNVERIFIED PLAINTEXT"
        return "OTHER (ciphertext or partial)"

    seen = sample_during(calls, buf, classify)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= {"old", "zero"}, seen
    assert buf == bytearray([OLD]) * N


def test_decrypt_into_is_all_or_nothing():
    aead = galois_aead.AESGCM(KEY)
    ct = aead.encrypt(NONCE, PT, None)
    buf = bytearray([OLD]) * N

    def calls():
        for _ in range(8):
            buf[:] = bytes([OLD]) * N
            assert aead.decrypt_into(NONCE, ct, None, buf) == N

    def classify(i, w):
        if w == bytes([OLD]) * W:
            return "old"
        if w == PT[i:i + W]:
            return "plaintext"
        return "OTHER (ciphertext or partial)"

    seen = sample_during(calls, buf, classify)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= {"old", "plaintext"}, seen
    assert buf == PT


def test_encrypt_into_is_all_or_nothing():
    aead = galois_aead.AESGCM(KEY)
    want = aead.encrypt(NONCE, PT, None)
    buf = bytearray([OLD]) * len(want)

    def calls():
        for _ in range(8):
            buf[:] = bytes([OLD]) * len(want)
            aead.encrypt_into(NONCE, PT, None, buf)

    def classify(i, w):
        if w == bytes([OLD]) * W:
            return "old"
        if w == want[i:i + W]:
            return "ciphertext"
        if w == PT[i:i + W]:
            return "PLAINTEXT IN OUTPUT"
        return "OTHER (partial)"

    seen = sample_during(calls, buf, classify)
    assert sum(seen.values()) >= 20, seen
    assert set(seen) <= {"old", "ciphertext"}, seen
    assert buf == want


def test_input_changed_during_decrypt_is_read_once():
    """A thread flips a ciphertext byte back and forth during decrypt_into
    calls: each call either returns the authentic plaintext or raises
    InvalidTag with buf zeroed; never anything else."""
    aead = galois_aead.AESGCM(KEY)
    ct = bytearray(aead.encrypt(NONCE, PT, None))
    buf = bytearray(N)
    outcomes = {"ok": 0, "invalid": 0}
    stop = threading.Event()
    errors = []

    def worker():
        try:
            for _ in range(12):
                try:
                    aead.decrypt_into(NONCE, ct, None, buf)
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


@pytest.mark.parametrize("size", [5, 5000])  # GIL held, GIL released
def test_every_error_zeroes_the_output_buffer(size):
    """Issue 12 item 4: any error of encrypt_into/decrypt_into leaves buf
    zeroed (here buf starts as a copy of the plaintext, as in in-place use)."""
    aead = galois_aead.AESGCM(KEY)
    short = galois_aead.AESGCM(KEY, tag_length=8)
    pt = bytes(range(256)) * (size // 256) + b"p" * (size % 256)
    ct = aead.encrypt(NONCE, pt, b"a")
    bad_ct = bytearray(ct)
    bad_ct[0] ^= 1
    cases = [
        (lambda b: aead.encrypt_into(b"", pt, None, b), ValueError),  # empty nonce
        (lambda b: short.encrypt_into(bytes(16), pt, None, b[:size + 8]), ValueError),  # short tag, 16-byte nonce
        (lambda b: aead.encrypt_into(NONCE, pt, "text", b), TypeError),  # bad AAD type
        (lambda b: aead.encrypt_into(NONCE, pt, None, b[:-1]), ValueError),  # wrong size
        (lambda b: aead.decrypt_into(NONCE, bad_ct, b"a", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(NONCE, ct, b"other", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(b"", ct, b"a", b[:size]), ValueError),
        (lambda b: aead.decrypt_into(NONCE, ct[:10], b"a", b[:size]), galois_aead.InvalidTag),
        (lambda b: aead.decrypt_into(NONCE, ct, b"a", b[:size + 1]), ValueError),
    ]
    for i, (call, exc) in enumerate(cases):
        store = bytearray(pt + bytes(16))
        mv = memoryview(store)
        with pytest.raises(exc):
            call(mv)
        assert store[:size] == bytearray(size), f"case {i}: plaintext left in buf"
