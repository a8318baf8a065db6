#!/usr/bin/env python3
"""Per-call time of galois_aead.AESGCM beside cryptography's AESGCM (not a test).

Both are measured side by side in one process, alternating in every round, on
the same key, nonce, data and associated data: AES-128-GCM encrypt and decrypt
of 16 and 1500 bytes (13 bytes of associated data, as in a TLS record). Each
sample times a loop of calls; the figure is the median of the samples.

usage: python bench.py [--rounds N] [--calls N] [--bits 128|256]
"""
import argparse
import os
import statistics
import time

from cryptography.hazmat.primitives.ciphers.aead import AESGCM as CryptoAESGCM

import galois_aead


def sample(fn, calls):
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    return (time.perf_counter_ns() - t0) / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--bits", type=int, default=128, choices=(128, 192, 256))
    args = ap.parse_args()

    key = os.urandom(args.bits // 8)
    nonce, aad = os.urandom(12), os.urandom(13)
    impls = {"galois": galois_aead.AESGCM(key), "cryptography": CryptoAESGCM(key)}
    print(f"AES-{args.bits}-GCM, {args.rounds} rounds x {args.calls} calls, median ns/call")
    print(f"{'op':<8}{'bytes':>6}{'galois':>10}{'cryptography':>14}{'ratio':>8}")
    for size in (16, 1500):
        data = os.urandom(size)
        ct = impls["galois"].encrypt(nonce, data, aad)
        assert ct == impls["cryptography"].encrypt(nonce, data, aad)
        for op in ("encrypt", "decrypt"):
            arg = data if op == "encrypt" else ct
            fns = {n: (lambda f=getattr(a, op): f(nonce, arg, aad)) for n, a in impls.items()}
            for f in fns.values():  # warm up
                sample(f, args.calls // 10 or 1)
            res = {n: [] for n in fns}
            for r in range(args.rounds):
                order = list(fns) if r % 2 == 0 else list(fns)[::-1]
                for n in order:
                    res[n].append(sample(fns[n], args.calls))
            g = statistics.median(res["galois"])
            c = statistics.median(res["cryptography"])
            print(f"{op:<8}{size:>6}{g:>10.0f}{c:>14.0f}{c / g:>7.2f}x")
    print("ratio = cryptography time / galois time (above 1: galois is faster per call)")


if __name__ == "__main__":
    main()
