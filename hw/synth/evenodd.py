#!/usr/bin/env python3
"""The GHASH trade-off table of hw/README.md (GCM spec 000 section 4.2, "parallelize the
multiplication step"): ghash.v (one parallel multiplier) against ghash_eo.v (even/odd, two
multipliers on H^2) with parallel, pipelined parallel and digit-serial multipliers.
Area and longest path from yosys (the flow and gate equivalents of synth.py), clocks per
block measured by tb_ghash (the ghash.log of make ghash-test).
usage: evenodd.py --hw HW --out DIR --ghash-log LOG [--jobs 2]"""
import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth import run_yosys, summarize  # noqa: E402

ROWS = [  # name, top params, label, tb_ghash label, multipliers, clocks per multiply
    ("ghash", None, "one parallel multiplier (ghash.v, the paper's Figure 2)", "ghash.v, 1 parallel (1 clock)", 1, "1"),
    ("eo_par", {"ARCH": 0}, "even/odd, two parallel multipliers", "even/odd, 2 parallel (1 clock)", 2, "1"),
    ("eo_par2", {"ARCH": 1}, "even/odd, two parallel multipliers, register in the XOR tree",
     "even/odd, 2 parallel pipelined (2 clocks)", 2, "2"),
    ("eo_ds64", {"ARCH": 2, "D": 64}, "even/odd, two digit-serial D = 64", "even/odd, 2 digit-serial D=64", 2, "128/64 = 2"),
    ("eo_ds32", {"ARCH": 2, "D": 32}, "even/odd, two digit-serial D = 32", "even/odd, 2 digit-serial D=32", 2, "128/32 = 4"),
    ("eo_ds16", {"ARCH": 2, "D": 16}, "even/odd, two digit-serial D = 16", "even/odd, 2 digit-serial D=16", 2, "128/16 = 8"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ghash-log", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    out = os.path.join(a.out, "yosys-eo")
    gen = os.path.join(out, "gen")
    os.makedirs(gen, exist_ok=True)
    py, g = sys.executable, os.path.join(a.hw, "gen", "gfmul.py")
    mods = {"gf128_mul_par": ["--arch", "parallel"], "gf128_sq": ["--arch", "square"],
            "gf128_mul_par2": ["--arch", "parallel", "--stages", "2", "--cut", "4"]}
    for d in (64, 32, 16):
        mods["gf128_mul_dsf%d" % d] = ["--arch", "digit-serial", "--fused", "--digit", str(d)]
    for n, args in mods.items():
        subprocess.run([py, g, "--poly", "128,7,2,1,0", "--name", n, "-o", os.path.join(gen, n + ".v")] + args, check=True)
    files = [os.path.join(a.hw, "rtl", "ghash.v"), os.path.join(a.hw, "rtl", "ghash_eo.v")] + \
        [os.path.join(gen, n + ".v") for n in mods]
    cpb = {}
    for line in open(a.ghash_log):
        m = re.match(r"\s+(.*?)\s{2,}\d+ hashes .*: (\d+) wrong; ([\d.]+) clocks/block", line)
        if m:
            cpb[m.group(1)] = (float(m.group(3)), int(m.group(2)))
    t0 = time.time()
    res = {}
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {n: ex.submit(run_yosys, n, files, "ghash" if n == "ghash" else "ghash_eo", out, p)
                for n, p, *_ in ROWS}
        for n, f in futs.items():
            res[n] = f.result()
    print("## GHASH trade-off: one multiplier or the spec's even/odd pair (measured)\n")
    print("| GHASH core | multipliers | clocks per multiply | clocks per block (simulation) | blocks per clock "
          "| cells | flip-flops | gate equivalents | GE / one parallel | longest register-to-register path (gates) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    base = summarize(res["ghash"])[2]
    for n, p, label, tbl, nm, cpm in ROWS:
        by, total, ge, ff = summarize(res[n])
        c, wrong = cpb.get(tbl, (float("nan"), -1))
        cs = "%.0f" % c if wrong == 0 else "not measured"
        bpc = "%.2f" % (1.0 / round(c)) if wrong == 0 else "-"
        print("| %s | %d | %s | %s | %s | %d | %d | %.0f | %.2f | %s |" % (label, nm, cpm, cs, bpc, total, ff, ge,
                                                                         ge / base, res[n]["ltp"]))
    print("\nClocks per block: a long stream of back-to-back blocks through each core alone "
          "(tb_ghash, `make -C hw ghash-test`, which also checks every hash against a C++ model). "
          "Area: yosys generic gates and the gate equivalents of the synthesis table (NAND2 = 1). "
          "(yosys wall time %.0f s, %d jobs)" % (time.time() - t0, a.jobs))


if __name__ == "__main__":
    main()
