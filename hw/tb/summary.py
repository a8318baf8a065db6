#!/usr/bin/env python3
"""Adds up the 'N passed, M failed' lines of the test logs and prints the total."""
import os
import re
import sys

d = sys.argv[1]
want = ["mul.log", "spec.log", "random.log", "random-iv.log", "stall.log", "stall-iv.log", "cycles.log", "iverilog.log",
        "ghash.log", "eo-spec.log", "eo-random.log", "eo-stall-iv.log", "eo-cycles.log",
        "iter-spec.log", "iter-random.log", "iter-stall.log", "iter-stall-iv.log", "iter-cycles.log",
        "fast-spec.log", "fast-random.log", "fast-stall.log", "fast-stall-iv.log", "fast-cycles.log"]
if len(sys.argv) > 2:   # summary.py DIR NAME.log ...: these logs instead (make netlist-test)
    want = sys.argv[2:]
tp = tf = 0
missing = []
for name in want:
    p = os.path.join(d, name)
    found = False
    if os.path.exists(p):
        for line in open(p):
            m = re.search(r"(\d+) passed, (\d+) failed", line)
            if m:
                tp += int(m.group(1)); tf += int(m.group(2)); found = True
    if not found:
        missing.append(name[:-4])
if missing:
    print("hw: no result from: " + ", ".join(missing))
    tf += len(missing)
print("%d passed, %d failed" % (tp, tf))
sys.exit(1 if tf else 0)
