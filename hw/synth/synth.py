#!/usr/bin/env python3
"""Synthesizes the designs with yosys to its generic gate library and prints the tables
(markdown) of hw/README.md: cell counts and gate equivalents of the iterative AES, the
pipelined AES, GHASH, the GCM encryption / decryption / combined cores; the logic depth of
the parallel multiplier (data path and H path); and the multiplier trade-off table for
GF(2^128) and GF(2^64).

Flow per design: read_verilog; synth -flatten -top T, its coarse step with memory -nordff
(see run_yosys) (yosys' generic cells: $_AND_, $_OR_,
$_XOR_, $_MUX_, $_NOT_, ... and flip-flops $_DFF_*, $_DFFE_*, $_SDFF*); stat.
Gate equivalents (NAND2 = 1) use the factors in GE below (stated in the output)."""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

GE = {  # 2-input NAND = 1; typical ratios of a 0.18 um-class standard-cell library
    "NOT": 0.67, "BUF": 1.0, "NAND": 1.0, "NOR": 1.0, "AND": 1.33, "OR": 1.33,
    "ANDNOT": 1.33, "ORNOT": 1.33, "XOR": 2.33, "XNOR": 2.33, "MUX": 2.33,
    "AOI3": 1.33, "OAI3": 1.33, "AOI4": 1.67, "OAI4": 1.67, "DFF": 4.33,
    "DFFE": 5.33, "SDFF": 5.0, "SDFFE": 6.0, "DFFR": 5.67, "DFFRE": 6.67,
}


def cell_class(t):
    """Yosys generic cell type -> class: $_AND_ -> AND, $_DFF_P_ -> DFF, $_DFF_PN0_ -> DFFR
    (async reset), $_DFFE_PP_ -> DFFE (enable), $_DFFE_PN0P_ -> DFFRE, $_SDFF_PP0_ -> SDFF
    (sync reset), $_SDFFE_*/$_SDFFCE_* -> SDFFE."""
    parts = t.strip("$").strip("_").split("_")
    base = parts[0]
    pol = parts[1] if len(parts) > 1 else ""
    if base == "DFF":
        return "DFF" if len(pol) == 1 else "DFFR"
    if base == "DFFE":
        return "DFFE" if len(pol) == 2 else "DFFRE"
    if base == "SDFF":
        return "SDFF"
    if base in ("SDFFE", "SDFFCE"):
        return "SDFFE"
    return base


def run_yosys(name, files, top, outdir, params=None, noabc=False, json_out=False):
    ys = os.path.join(outdir, name + ".ys")
    lines = ["read_verilog " + " ".join(files)]
    if params:
        for k, v in params.items():
            lines.append("chparam -set %s %s %s" % (k, v, top))
    # yosys' synth script, with one change: "memory -nomap -nordff". The S-box case statements
    # become ROMs (proc_rom) that memory_map turns into compact multiplexer trees; without
    # -nordff, memory_dff would first merge the pipeline registers in front of the S-boxes into
    # the ROMs' read ports, i.e. move the registers through the S-boxes (retiming).
    lines.append("synth -flatten -top %s -run begin:coarse" % top)
    lines += ["proc", "flatten", "opt_expr", "opt_clean", "check", "opt -nodffe -nosdff", "fsm", "opt",
              "wreduce", "peepopt", "opt_clean", "alumacc", "share", "opt", "memory -nomap -nordff",
              "opt_clean"]
    lines.append("synth -flatten -top %s -run fine:%s" % (top, " -noabc" if noabc else ""))
    lines.append("opt_clean")
    lines.append("tee -o %s stat" % os.path.join(outdir, name + ".stat"))
    lines.append("tee -q -o %s ltp -noff" % os.path.join(outdir, name + ".ltp"))
    if json_out:
        lines.append("write_json %s" % os.path.join(outdir, name + ".json"))
    open(ys, "w").write("\n".join(lines) + "\n")
    t0 = time.time()
    log = os.path.join(outdir, name + ".log")
    with open(log, "w") as f:
        r = subprocess.run(["yosys", "-q", "-s", ys], stdout=f, stderr=subprocess.STDOUT)
    if r.returncode:
        raise SystemExit("yosys failed for %s, see %s" % (name, log))
    cells = {}
    for line in open(os.path.join(outdir, name + ".stat")):
        m = re.match(r"\s+(\$\S+)\s+(\d+)", line)
        if m:
            cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    ltp = None
    for line in open(os.path.join(outdir, name + ".ltp")):
        m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", line)
        if m:
            ltp = int(m.group(1))
    return {"name": name, "cells": cells, "seconds": time.time() - t0, "ltp": ltp}


def summarize(res):
    by = {}
    for t, n in res["cells"].items():
        c = cell_class(t)
        by[c] = by.get(c, 0) + n
    total = sum(by.values())
    ge = sum(GE.get(c, 1.0) * n for c, n in by.items())
    ff = sum(n for c, n in by.items() if "DFF" in c)
    return by, total, ge, ff


def depth(jsonfile, top, srcport):
    """Longest combinational path (in gates) from the bits of input port srcport to any
    output, and how many of its gates are AND-like / XOR-like."""
    d = json.load(open(jsonfile))
    mod = d["modules"][top]
    src = set()
    for pname, p in mod["ports"].items():
        if pname == srcport:
            src.update(b for b in p["bits"] if isinstance(b, int))
    drivers = {}
    for cname, c in mod["cells"].items():
        for pin, dirn in c["port_directions"].items():
            if dirn == "output":
                for b in c["connections"][pin]:
                    if isinstance(b, int):
                        drivers[b] = c
    memo = {}

    def dist(bit):
        # returns (gates, ands, xors) on the longest path from src to bit, or None
        if bit in memo:
            return memo[bit]
        if bit in src:
            memo[bit] = (0, 0, 0)
            return memo[bit]
        c = drivers.get(bit)
        if c is None:
            memo[bit] = None
            return None
        best = None
        for pin, dirn in c["port_directions"].items():
            if dirn != "input":
                continue
            for b in c["connections"][pin]:
                if isinstance(b, int):
                    r = dist(b)
                    if r is not None and (best is None or r[0] > best[0]):
                        best = r
        if best is not None:
            t = cell_class(c["type"])
            best = (best[0] + 1, best[1] + (t in ("AND", "NAND", "ANDNOT", "NOR", "ORNOT", "OR")),
                    best[2] + (t in ("XOR", "XNOR")))
        memo[bit] = best
        return best

    sys.setrecursionlimit(100000)
    worst = (0, 0, 0)
    for pname, p in mod["ports"].items():
        if p["direction"] == "output":
            for b in p["bits"]:
                if isinstance(b, int):
                    r = dist(b)
                    if r and r[0] > worst[0]:
                        worst = r
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--mul-log", default="", help="output of tb_mul: measured clocks per multiply")
    a = ap.parse_args()
    hw, out = a.hw, os.path.join(a.out, "yosys")
    os.makedirs(out, exist_ok=True)
    gen = os.path.join(out, "gen")
    os.makedirs(gen, exist_ok=True)
    py = sys.executable
    sbox = os.path.join(gen, "aes_sbox.v")
    subprocess.run([py, os.path.join(hw, "gen", "aes_sbox.py"), sbox], check=True)
    muls = []  # (name, poly, arch, digit)
    for w, poly, digits in ((128, "128,7,2,1,0", (64, 32, 16, 8, 4, 2)), (64, "64,4,3,1,0", (32, 16, 8, 4, 2))):
        muls.append(("gf%d_mul_par" % w, poly, "parallel", 0, w))
        for dd in digits:
            muls.append(("gf%d_mul_ds%d" % (w, dd), poly, "digit-serial", dd, w))
        muls.append(("gf%d_mul_bs" % w, poly, "bit-serial", 1, w))
    for name, poly, arch, dd, w in muls:
        cmd = [py, os.path.join(hw, "gen", "gfmul.py"), "--poly", poly, "--arch", arch, "--name", name,
               "-o", os.path.join(gen, name + ".v")]
        if arch == "digit-serial":
            cmd += ["--digit", str(dd)]
        subprocess.run(cmd, check=True)
    rtl = lambda f: os.path.join(hw, "rtl", f)
    aes = [rtl("aes_round.v"), sbox]
    mulv = os.path.join(gen, "gf128_mul_par.v")
    # gcm_core.v names ghash_eo.v (GH != 0) too: give yosys the module and what it instantiates
    eo = [rtl("ghash_eo.v")]
    for n, args in (("gf128_sq", ["--arch", "square"]), ("gf128_mul_par2", ["--arch", "parallel", "--stages", "2"]),
                    ("gf128_mul_dsf64", ["--arch", "digit-serial", "--fused", "--digit", "64"])):
        subprocess.run([py, os.path.join(hw, "gen", "gfmul.py"), "--name", n, "-o", os.path.join(gen, n + ".v")] + args,
                       check=True)
        eo.append(os.path.join(gen, n + ".v"))
    core = [rtl("gcm_core.v"), rtl("ghash.v"), rtl("aes_pipe.v"), rtl("aes_iter.v"), mulv] + eo + aes
    jobs = [
        ("aes_iter", aes + [rtl("aes_iter.v")], "aes_iter", None),
        ("aes_pipe", aes + [rtl("aes_pipe.v")], "aes_pipe", None),
        ("ghash", [rtl("ghash.v"), mulv], "ghash", None),
        ("gcm_enc", core, "gcm_core", {"MODE": 0}),
        ("gcm_dec", core, "gcm_core", {"MODE": 1}),
        ("gcm_both", core, "gcm_core", {"MODE": 2}),
    ]
    mjobs = [(n, [os.path.join(gen, n + ".v")], n, None) for n, *_ in muls]
    if a.only:
        keep = set(a.only.split(","))
        jobs = [j for j in jobs if j[0] in keep]
        mjobs = [j for j in mjobs if j[0] in keep]
    results = {}
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {}
        # the big ones first
        for name, files, top, params in sorted(jobs, key=lambda j: j[0] != "gcm_both"):
            futs[name] = ex.submit(run_yosys, name, files, top, out, params)
        for name, files, top, params in mjobs:
            futs[name] = ex.submit(run_yosys, name, files, top, out, params)
        # depth of the parallel multiplier: the generator's structure (no abc) and after abc
        futs["depth_noabc"] = ex.submit(run_yosys, "gf128_mul_par_noabc", [mulv], "gf128_mul_par", out, None, True, True)
        futs["depth_abc"] = ex.submit(run_yosys, "gf128_mul_par_abc", [mulv], "gf128_mul_par", out, None, False, True)
        for k, f in futs.items():
            results[k] = f.result()
    paper = {"aes_iter": 29436, "aes_pipe": 287184, "ghash": 78974, "gcm_enc": 463328,
             "gcm_dec": 446108, "gcm_both": 498658}
    label = {"aes_iter": "Iterative AES", "aes_pipe": "Pipelined AES", "ghash": "GHASH",
             "gcm_enc": "GCM encryption", "gcm_dec": "GCM decryption", "gcm_both": "GCM en/decryption"}
    print("## Synthesis (yosys %s, `synth -flatten`, generic gates)\n" % subprocess.run(
        ["yosys", "-V"], capture_output=True, text=True).stdout.split()[1])
    print("| design | paper Table 1 (gates) | cells | of which flip-flops | gate equivalents (NAND2 = 1) | ratio GE / paper | longest register-to-register path (gates) | yosys time (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for k in ("aes_iter", "aes_pipe", "ghash", "gcm_enc", "gcm_dec", "gcm_both"):
        if k not in results:
            continue
        by, total, ge, ff = summarize(results[k])
        print("| %s | %s | %d | %d | %.0f | %.2f | %s | %.0f |" % (label[k], format(paper[k], ","), total, ff, ge,
                                                           ge / paper[k], results[k]["ltp"], results[k]["seconds"]))
    print("\nCell types per design:\n")
    for k in ("aes_iter", "aes_pipe", "ghash", "gcm_enc", "gcm_dec", "gcm_both"):
        if k in results:
            by, *_ = summarize(results[k])
            print("- %s: %s" % (label[k], ", ".join("%s %d" % (c, n) for c, n in sorted(by.items()))))
    print("\nGate equivalents: " + ", ".join("%s %.2f" % kv for kv in GE.items()) +
          " (NAND2 = 1; flip-flop classes: DFF plain, DFFE with enable, DFFR/DFFRE with asynchronous reset, SDFF/SDFFE with synchronous reset).")
    if "depth_noabc" in results:
        print("\n## Logic depth of the parallel GF(2^128) multiplier (longest path, gates)\n")
        print("| netlist | cells | data path a -> z | H path h -> z |")
        print("|---|---|---|---|")
        for k, nm in (("depth_noabc", "gf128_mul_par_noabc"), ("depth_abc", "gf128_mul_par_abc")):
            by, total, ge, ff = summarize(results[k])
            js = os.path.join(out, nm + ".json")
            da = depth(js, "gf128_mul_par", "a")
            dh = depth(js, "gf128_mul_par", "h")
            print("| %s (%s) | %s | %d gates (%d AND/OR-type, %d XOR-type) | %d gates (%d AND/OR-type, %d XOR-type) |" % (
                "generator structure, `synth -noabc`" if "noabc" in nm else "after abc (`synth`)",
                ", ".join("%s %d" % (c, n) for c, n in sorted(by.items())), total, da[0], da[1], da[2], dh[0], dh[1], dh[2]))
    measured = {}
    if a.mul_log and os.path.exists(a.mul_log):
        for line in open(a.mul_log):
            m = re.match(r"\s+(GF\(2\^\d+\) \S+(?: D=\d+)?)\s+(\d+) products, (\d+) wrong, (.*)$", line)
            if m:
                measured[m.group(1)] = "%s (%s products checked, %s wrong)" % (m.group(4), m.group(2), m.group(3))
    print("\n## Multiplier trade-off (GCM spec section 4.2): clocks measured in simulation, area by yosys\n")
    print("| field | architecture | spec: time, area | clocks per multiply (simulation) | cells | flip-flops | gate equivalents |")
    print("|---|---|---|---|---|---|---|")
    for name, poly, arch, dd, w in muls:
        if name not in results:
            continue
        by, total, ge, ff = summarize(results[name])
        an = arch if arch != "digit-serial" else "digit-serial D=%d" % dd
        spec = {"parallel": "1, O(q^2)", "digit-serial": "q/D = %d, O(qD)" % (w // max(dd, 1)),
                "bit-serial": "q = %d, O(q)" % w}[arch]
        meas = measured.get("GF(2^%d) %s" % (w, an), "not simulated")
        print("| GF(2^%d) | %s | %s | %s | %d | %d | %.0f |" % (w, an, spec, meas, total, ff, ge))
    print("\n(total yosys wall time %.0f s with %d parallel jobs)" % (time.time() - t0, a.jobs))


if __name__ == "__main__":
    main()
