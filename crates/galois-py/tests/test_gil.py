"""Large inputs are processed with the GIL released: another Python thread runs
while one long call is in progress.

Thread A takes a timestamp, makes one long call (128 MiB), takes another. The main
thread records timestamps in a loop meanwhile. If the call held the GIL, the main
thread could not run Python code at all between A's two timestamps except in the
few bytecodes around the call, so no stamp could fall in the middle half of the
call. The negative control is a long C call that holds the GIL (bytes.count): the
same check must see no stamp there, which shows that the check can fail.
"""
import threading
import time

import galois

N = 128 << 20


def stamps_during(call):
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
    aead = galois.AESGCM(bytes(16))
    data = bytes(N)
    dur, middle = stamps_during(lambda: aead.encrypt(bytes(12), data, None))
    assert middle > 0, f"no other thread ran during a {dur * 1e3:.0f} ms call"


def test_gmac_releases_the_gil():
    mac = galois.GMAC(bytes(16))
    data = bytes(N)
    dur, middle = stamps_during(lambda: mac.authenticate(bytes(12), data))
    assert middle > 0, f"no other thread ran during a {dur * 1e3:.0f} ms call"


def test_poly1305aes_releases_the_gil():
    mac = galois.Poly1305AES(galois.Poly1305AES.generate_key())
    data = bytes(N)
    dur, middle = stamps_during(lambda: mac.authenticate(bytes(16), data))
    assert middle > 0, f"no other thread ran during a {dur * 1e3:.0f} ms call"


def test_negative_control_a_gil_holding_call_is_detected():
    data = bytes(N)
    dur, middle = stamps_during(lambda: data.count(b"\x01\x02"))
    assert middle == 0, f"{middle} stamps during a GIL-holding call of {dur * 1e3:.0f} ms"
