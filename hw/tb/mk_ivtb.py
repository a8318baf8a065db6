#!/usr/bin/env python3
"""Second-simulator smoke test: writes a self-checking Verilog testbench (for Icarus
Verilog) that sends the first valid AES-128 cases of a cases file (vec2txt.py format) back
to back through the combined core, encrypting then decrypting each, and compares every
output word with the expected one. Prints "iverilog: N passed, M failed" at the end.

usage: mk_ivtb.py CASES.txt OUT.v [max_cases]"""
import sys


def words(b, n=16):
    return [b[i:i + n] for i in range(0, len(b), n)]


def v128(b):
    b = b + bytes(16 - len(b))
    return "128'h" + b.hex()


def main():
    src, dst = sys.argv[1], sys.argv[2]
    maxc = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    cases = []
    for line in open(src):
        f = line.split()
        if not f or f[0] != "CASE" or f[2] != "valid":
            continue
        un = lambda x: b"" if x in ("-", "null") else bytes.fromhex(x)
        key, iv, aad, pt, ct, tag = (un(x) for x in f[3:9])
        if not iv or not (4 <= len(tag) <= 16):
            continue
        cases.append((f[1], key, iv, aad, pt, ct, tag))
        if len(cases) >= maxc:
            break
    stim, exp = [], []
    for cid, key, iv, aad, pt, ct, tag in cases:
        for dec in (0, 1):
            data = ct if dec else pt
            ws = []
            iv96 = len(iv) == 12
            if not iv96:
                ivw = words(iv)
                for i, w in enumerate(ivw):
                    ws.append((3, w, len(w), int(i == len(ivw) - 1)))
            ws += [(0, w, len(w), 0) for w in words(aad)]
            ws += [(1, w, len(w), 0) for w in words(data)]
            ws.append((2, tag if dec else b"", 16, 0))
            for i, (k, w, nb, last) in enumerate(ws):
                stim.append("    send(3'd%d, %s, 5'd%d, 1'b%d, 1'b%d, %s, 96'h%s, 1'b%d, 1'b%d, 5'd%d);" % (
                    k, v128(w), nb, last, int(i == 0), v128(key), (iv if iv96 else bytes(12)).hex(),
                    int(iv96), dec, len(tag)))
            for w in words(aad):
                exp.append((0, w, 0))
            for w in words(pt if dec else ct):
                exp.append((1, w, 0))
            exp.append((2, b"" if dec else tag, 0))
    out = ["`timescale 1ns/1ps", "module iv_tb;",
           "  reg clk = 0, rst = 1;", "  always #5 clk = ~clk;",
           "  reg in_valid = 0; wire in_ready; reg [2:0] in_kind; reg [127:0] in_data, in_key;",
           "  reg [4:0] in_bytes, in_taglen; reg in_last, in_sop, in_iv96, in_dec; reg [95:0] in_iv;",
           "  wire out_valid, out_fail; wire [1:0] out_kind; wire [127:0] out_data; wire [4:0] out_bytes;",
           "  gcm_core #(.MODE(2)) dut (.clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready),",
           "    .in_kind(in_kind), .in_data(in_data), .in_bytes(in_bytes), .in_last(in_last), .in_sop(in_sop),",
           "    .in_key(in_key), .in_iv(in_iv), .in_iv96(in_iv96), .in_dec(in_dec), .in_taglen(in_taglen),",
           "    .out_valid(out_valid), .out_kind(out_kind), .out_data(out_data), .out_bytes(out_bytes), .out_fail(out_fail));",
           "  task send(input [2:0] k, input [127:0] d, input [4:0] nb, input l, input s, input [127:0] key,",
           "            input [95:0] iv, input i96, input dc, input [4:0] tl);",
           "    begin",
           "      in_valid = 1; in_kind = k; in_data = d; in_bytes = nb; in_last = l; in_sop = s; in_key = key;",
           "      in_iv = iv; in_iv96 = i96; in_dec = dc; in_taglen = tl;",
           "      #1; while (!in_ready) begin @(posedge clk); #1; end",
           "      @(posedge clk); #1; in_valid = 0;",
           "    end",
           "  endtask",
           "  localparam N = %d;" % len(exp),
           "  reg [1:0] ek [0:N-1]; reg [127:0] ed [0:N-1];",
           "  integer n = 0, bad = 0, pk, fl;",
           "  initial begin"]
    for i, (k, w, f) in enumerate(exp):
        out.append("    ek[%d] = 2'd%d; ed[%d] = %s;" % (i, k, i, v128(w) if k != 2 or w else "128'h0"))
    out += ["  end",
            "  always @(posedge clk) if (!rst && out_valid) begin",
            "    if (n >= N) bad = bad + 1;",
            "    else if (out_kind != ek[n] || out_data != ed[n] || out_fail) begin",
            "      $display(\"mismatch at output word %0d: kind %0d data %h fail %0d\", n, out_kind, out_data, out_fail);",
            "      bad = bad + 1;",
            "    end",
            "    n = n + 1;",
            "  end",
            "  initial begin",
            "    repeat (3) @(posedge clk); #1 rst = 0;"]
    out += stim
    out += ["    repeat (40) @(posedge clk);",
            "    if (n != N) begin $display(\"expected %0d output words, got %0d\", N, n); bad = bad + 1; end",
            "    $display(\"iverilog: %%0d passed, %%0d failed\", (bad == 0) ? %d : 0, (bad == 0) ? 0 : %d);" % (len(cases), len(cases)),
            "    $finish;",
            "  end",
            "endmodule", ""]
    open(dst, "w").write("\n".join(out))


if __name__ == "__main__":
    main()
