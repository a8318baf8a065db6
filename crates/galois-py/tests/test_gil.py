"""Large inputs are processed with the GIL released: another Python thread runs
while one long call is in progress.

Thread A takes a timestamp, makes one long call (128 MiB), takes another. The main
thread records timestamps in a loop meanwhile. If the call held the GIL, the main
thread could not run Python code at all between A's two timestamps except in the
few bytecodes around the call, so no stamp could fall in the middle half of the
call. The negative control is a long C call that holds the GIL (bytes.count): the
same check must see no stamp there, which shows that the check can fail.

On a loaded machine the main thread may simply not be scheduled during a call that
released the GIL, so a call is tried up to TRIES times and counts as releasing it if
any try sees a stamp; a GIL-holding call sees none however often it is tried.
"""
import threading
import time

import galois_aead

N = 128 << 20
TRIES = 5


def stamps_during(call):
    """(duration, stamps in the middle half) of the first of TRIES tries that
    saw a stamp there, else of the last try."""
    for _ in range(TRIES):
        dur, middle = one_try(call)
        if middle:
            break
    return dur, middle


def one_try(call):
    window = {}
    started = threading.Event()

    def worker():
        started.set()
        window["t0"] = time.perf_counter()
        call()
        window["t1"] = time.perf_counter()

    t = threading.Thread(target=worker)
    seen = []
    t.start()
    started.wait()
    while t.is_alive():
        seen.append(time.perf_counter())
    t.join()
    t0, t1 = window["t0"], window["t1"]
    lo, hi = t0 + (t1 - t0) / 4, t1 - (t1 - t0) / 4
    return t1 - t0, sum(lo <= s <= hi for s in seen)


def test_encrypt_releases_the_gil():
    aead = galois_aead.AESGCM(bytes(16))
    data = bytes(N)
    dur, middle = stamps_during(lambda: aead.encrypt(bytes(12), data, None))
    assert middle > 0, f"no other thread ran during a {dur * 1e3:.0f} ms call"


def test_gmac_releases_the_gil():
    mac = galois_aead.GMAC(bytes(16))
    data = bytes(N)
    dur, middle = stamps_during(lambda: mac.authenticate(bytes(12), data))
    assert middle > 0, f"no other thread ran during a {dur * 1e3:.0f} ms call"


def test_poly1305aes_releases_the_gil():
    mac = galois_aead.Poly1305AES(galois_aead.Poly1305AES.generate_key())
    data = bytes(N)
    dur, middle = stamps_during(lambda: mac.authenticate(bytes(16), data))
    assert middle > 0, f"no other thread ran during a {dur * 1e3:.0f} ms call"


def test_negative_control_a_gil_holding_call_is_detected():
    data = bytes(N)
    dur, middle = stamps_during(lambda: data.count(b"\x01\x02"))
    assert middle == 0, f"{middle} stamps during a GIL-holding call of {dur * 1e3:.0f} ms"


def test_streaming_releases_the_gil_and_refuses_concurrent_use():
    aead = galois_aead.AESGCM(bytes(16))
    data = bytes(N)
    enc = aead.encryptor(bytes(12))
    refused = []
    ok_calls = []
    result = {}
    started = threading.Event()

    def worker():
        started.set()
        result["ct"] = enc.update(data)

    t = threading.Thread(target=worker)
    t.start()
    started.wait()
    while t.is_alive():
        try:
            enc.update(b"")  # empty: changes nothing when it gets through
            ok_calls.append(1)
        except RuntimeError as e:
            assert "in use by another thread" in str(e)
            refused.append(e)
    t.join()
    assert refused, "the main thread never ran during the update (GIL held?)"
    assert result["ct"] + enc.finalize() + enc.tag == aead.encrypt(bytes(12), data, None)


def test_streaming_large_pieces_match_one_shot():
    aead = galois_aead.AESGCM(bytes(32))
    data = bytes(range(256)) * 1000  # 256000 bytes
    enc = aead.encryptor(bytes(12))
    enc.authenticate_additional_data(b"a" * 5000)
    ct = enc.update(data[:100000]) + enc.update(bytearray(data[100000:]))
    want = aead.encrypt(bytes(12), data, b"a" * 5000)
    assert ct + enc.finalize() + enc.tag == want
    dec = aead.decryptor(bytes(12))
    dec.authenticate_additional_data(memoryview(b"a" * 5000))
    dec.update(want[:7000])
    dec.update(bytearray(want[7000:-16]))
    assert dec.finalize_with_tag(want[-16:]) == data
