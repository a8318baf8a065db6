#!/usr/bin/env python3
"""Copies yosys's ECP5 simulation models (share/ecp5/cells_sim.v and the files it includes)
into OUT without its DP16KD, which cells_sim.v declares as a blackbox: tb/dp16kd_sim.v is the
model that make netlist-test uses instead.   usage: net_cells.py SHARE_ECP5_DIR OUT_DIR"""
import os
import re
import shutil
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for f in os.listdir(src):
    if f.endswith(".vh"):
        shutil.copy(os.path.join(src, f), os.path.join(out, f))
text = open(os.path.join(src, "cells_sim.v")).read()
new, n = re.subn(r"\(\* blackbox \*\)\s*module DP16KD\(.*?\nendmodule\n", "", text, count=1, flags=re.S)
if n != 1:
    raise SystemExit("net_cells.py: no DP16KD blackbox found in " + src + "/cells_sim.v")
open(os.path.join(out, "cells_sim.v"), "w").write(new)
