// Even/odd GHASH core (GCM spec, 000 section 4.2): two GF(2^128) multipliers, each
// multiplying by H^2, take the blocks of a hash alternately; the last block of a hash (the
// length block) is multiplied by H instead, and the hash is the XOR of the two
// accumulators:
//   ((((X5 H + X4) H + X3) H + X2) H + X1) H + X0) H
//     = [((X5 H^2 + X3) H^2 + X1) H^2] + [((X4 H^2 + X2) H^2 + X0) H]
// Each multiplier gets a new block every other block, so it may take two clocks per
// multiply while the core still takes one block per clock.
//
// ARCH 0: two one-clock parallel multipliers (L = 1 clock per multiply);
// ARCH 1: two parallel multipliers with a register bank in the XOR tree (L = 2);
// ARCH 2: two digit-serial multipliers of D bits per clock, no load clock (L = 128/D).
// ARCH 3: two digit-serial multipliers whose operand registers are loaded in the AC Reg's
// clock (the multiplier's load clock), so the multiplier start selects nothing inside the
// AND-XOR datapath (L = 128/D + 1; for the FPGA: ARCH 2's critical path runs from the
// AC Reg's control through the start multiplexers into the XOR tree).
// ARCH 4: ONE parallel multiplier with a register bank in its XOR tree (L = 2), shared by
// the two accumulators: it takes a block every clock, even and odd blocks interleaved in its
// two stages (half the AND-XOR array of ARCH 1 at the same rate and timing).
// ARCH 5: ARCH 4 with a Karatsuba-Ofman multiplier (gf128_mul_kar2: 9 leaf products of
// 32 x 32 bits registered, recombination and reduction in the second clock; no h x^i matrix).
// ARCH 6: ARCH 5 with the multiplier's operands in registers in Karatsuba leaf form
// (gf128_mul_kar2s: 9 x 32 leaf operand bits each): the block is XORed with its accumulator
// BEFORE the AC Reg (in the take clock: the accumulator then is the product on z, or the
// accumulator register after a bubble), and the AC Reg holds the leaf sums of that XOR; the
// multiplicand register holds the leaf sums of H^2 or H, kept in leaf form beside the H and
// H^2 Regs. So every AND term of the leaf products reads two flip-flops, and the accumulator
// selection, the epoch compares and the operand XORs sit before the registers, in the
// accumulate path z -> AC Reg. Same interface and timing as ARCH 5.
// ARCH 7: ARCH 6 with two copies of the AC Reg and of the multiplicand register
// (gf128_mul_kar2c: each copy feeds half of each leaf's product bits), kept apart by
// keep_hierarchy registers (kreg), so each operand flip-flop drives about 16 AND terms
// instead of 32.
// The core accepts one block every R = ceil(L/2) clocks (in_ready), so D = 64 keeps up with
// one block per clock, D = 32 with one block per two clocks, D = 16 one per four.
//
// Interface as ghash.v plus in_last (this block ends the hash: multiply by H) and in_ready.
// x_out holds the hash L clocks after its last block was in the AC Reg (x_v = 1 then).
// in_hs starts a new hash; blocks of the next hash may follow the last one directly.
// Which accumulator belongs to the current hash is tracked with a one-bit hash epoch:
// a multiplier whose accumulator carries another epoch takes it as zero.
module ghash_eo #(parameter ARCH = 2, parameter D = 64) (
  input  wire clk, input wire rst,
  input  wire in_v, input wire in_hs, input wire in_last, input wire [127:0] in_data,
  output wire in_ready,
  input  wire h_load, input wire [127:0] h_in,
  output wire [127:0] x_out, output reg x_v);
  localparam integer L = (ARCH == 0) ? 1 : (ARCH == 1 || ARCH >= 4) ? 2 : (ARCH == 3) ? 128 / D + 1 : 128 / D;
  localparam integer R = (L + 1) / 2;

  reg  [127:0] h, h2;                       // H Reg and H^2 Reg
  wire [127:0] h2_in;
  gf128_sq sq (.a(h_in), .z(h2_in));
  wire [127:0] h_cur  = h_load ? h_in : h;
  wire [127:0] h2_cur = h_load ? h2_in : h2;

  reg  [127:0] ac;                          // AC Reg
  reg          ac_v, ac_hs, ac_ep, ac_sel;
  reg          ep, par;                     // epoch of the current hash, next multiplier
  reg  [127:0] b0, b1;                      // multiplicand of each multiplier: H^2, or H (last block)
  reg  [127:0] bs;                          // ARCH 4: the shared multiplier's multiplicand
  reg  [3:0]   cool;
  assign in_ready = (cool == 4'd0);
  wire take = in_v && in_ready;
  wire ep_in = in_hs ? ~ep : ep;

  always @(posedge clk) begin
    if (rst) begin
      ac_v <= 1'b0; par <= 1'b0; ep <= 1'b1; cool <= 4'd0;
    end else begin
      ac_v <= take;
      if (take) begin
        par <= ~par; ep <= ep_in; cool <= R - 1;
      end else if (cool != 4'd0) cool <= cool - 4'd1;
    end
    if (take) begin
      ac <= in_data; ac_hs <= in_hs; ac_ep <= ep_in; ac_sel <= par;
      if (ARCH >= 4) bs <= in_last ? h_cur : h2_cur;
      else if (par) b1 <= in_last ? h_cur : h2_cur;
      else     b0 <= in_last ? h_cur : h2_cur;
    end
    if (h_load) begin h <= h_in; h2 <= h2_in; end
  end

  // accumulators (the X Regs of the two multipliers) with their epochs
  reg  [127:0] acc0, acc1;
  reg          aep0, aep1, xep;
  wire st0 = ac_v && !ac_sel, st1 = ac_v && ac_sel;
  wire [127:0] a0 = ac ^ ((!ac_hs && aep0 == ac_ep) ? acc0 : 128'd0);
  wire [127:0] a1 = ac ^ ((!ac_hs && aep1 == ac_ep) ? acc1 : 128'd0);
  wire [127:0] z0, z1;
  wire         dn0, dn1;                    // the product is on z this clock
  reg          mep0, mep1;                  // epoch of the block in each multiplier
  always @(posedge clk) begin
    if (st0) mep0 <= ac_ep;
    if (st1) mep1 <= ac_ep;
  end
  wire e0 = (L == 1) ? ac_ep : mep0;
  wire e1 = (L == 1) ? ac_ep : mep1;

  // the multipliers, in GCM's reflected bit order (bit 127 of a bus = x^0 = port bit 0)
  generate
    if (ARCH == 0) begin : par1
      gf128_mul_par m0 (.a(a0), .h(b0), .z(z0));
      gf128_mul_par m1 (.a(a1), .h(b1), .z(z1));
      assign dn0 = st0; assign dn1 = st1;
    end else if (ARCH == 1) begin : par2
      reg d0, d1;
      always @(posedge clk) begin
        d0 <= rst ? 1'b0 : st0; d1 <= rst ? 1'b0 : st1;
      end
      gf128_mul_par2 m0 (.clk(clk), .start(st0), .a(a0), .h(b0), .z(z0));
      gf128_mul_par2 m1 (.clk(clk), .start(st1), .a(a1), .h(b1), .z(z1));
      assign dn0 = d0; assign dn1 = d1;
    end else if (ARCH == 6 || ARCH == 7) begin : split
      // the AC Reg and the multiplicand register in leaf form; the incoming block's
      // accumulator (even blocks acc0, odd blocks acc1) as the AC Reg would see it in the
      // next clock: the product on z now if it is that accumulator's, else the register
      reg d0, d1;
      reg  [0:287] al, bl, hl, h2l;
      wire [0:287] hl_in, h2l_in, al_in, bl_in;
      wire [127:0] z;
      wire [127:0] acc_nx = par ? (d1 ? z : acc1) : (d0 ? z : acc0);
      wire         aep_nx = par ? (d1 ? mep1 : aep1) : (d0 ? mep0 : aep0);
      wire [127:0] a_in = in_data ^ ((!in_hs && aep_nx == ep_in) ? acc_nx : 128'd0);
      gf128_mul_kar2s_sum sh (.a(h_in), .s(hl_in));
      gf128_mul_kar2s_sum sh2 (.a(h2_in), .s(h2l_in));
      gf128_mul_kar2s_sum sa (.a(a_in), .s(al_in));
      assign bl_in = in_last ? (h_load ? hl_in : hl) : (h_load ? h2l_in : h2l);
      always @(posedge clk) begin
        d0 <= rst ? 1'b0 : st0; d1 <= rst ? 1'b0 : st1;
        if (h_load) begin hl <= hl_in; h2l <= h2l_in; end
        if (take) begin
          al <= al_in;
          bl <= bl_in;
        end
      end
      if (ARCH == 6) begin : one
        gf128_mul_kar2s m (.clk(clk), .la(al), .lb(bl), .z(z));
      end else begin : two
        wire [0:287] al2, bl2;
        kreg #(.W(576)) c2 (.clk(clk), .en(take), .d({al_in, bl_in}), .q({al2, bl2}));
        gf128_mul_kar2c m (.clk(clk), .la({al, al2}), .lb({bl, bl2}), .z(z));
      end
      assign z0 = z; assign z1 = z;
      assign dn0 = d0; assign dn1 = d1;
    end else if (ARCH == 4 || ARCH == 5) begin : shared
      // the AC Reg's block with its accumulator (acc0 for even, acc1 for odd blocks) enters
      // the multiplier's first stage every clock; the product of the block of the previous
      // clock is on z and goes to that block's accumulator
      reg d0, d1;
      always @(posedge clk) begin
        d0 <= rst ? 1'b0 : st0; d1 <= rst ? 1'b0 : st1;
      end
      wire [127:0] z;
      if (ARCH == 5) begin : kar
        gf128_mul_kar2 m (.clk(clk), .start(1'b1), .a(ac_sel ? a1 : a0), .h(bs), .z(z));
      end else begin : mas
        gf128_mul_par2 m (.clk(clk), .start(1'b1), .a(ac_sel ? a1 : a0), .h(bs), .z(z));
      end
      assign z0 = z; assign z1 = z;
      assign dn0 = d0; assign dn1 = d1;
    end else if (ARCH == 3) begin : pre
      if (D == 16) begin : p16
        gf128_mul_dsp16 m0 (.clk(clk), .rst(rst), .load(st0), .a(a0), .b(b0), .z(z0), .last(dn0), .busy());
        gf128_mul_dsp16 m1 (.clk(clk), .rst(rst), .load(st1), .a(a1), .b(b1), .z(z1), .last(dn1), .busy());
      end
    end else if (D == 64) begin : ds64
      gf128_mul_dsf64 m0 (.clk(clk), .rst(rst), .start(st0), .a(a0), .b(b0), .z(z0), .last(dn0), .busy());
      gf128_mul_dsf64 m1 (.clk(clk), .rst(rst), .start(st1), .a(a1), .b(b1), .z(z1), .last(dn1), .busy());
    end else if (D == 32) begin : ds32
      gf128_mul_dsf32 m0 (.clk(clk), .rst(rst), .start(st0), .a(a0), .b(b0), .z(z0), .last(dn0), .busy());
      gf128_mul_dsf32 m1 (.clk(clk), .rst(rst), .start(st1), .a(a1), .b(b1), .z(z1), .last(dn1), .busy());
    end else if (D == 16) begin : ds16
      gf128_mul_dsf16 m0 (.clk(clk), .rst(rst), .start(st0), .a(a0), .b(b0), .z(z0), .last(dn0), .busy());
      gf128_mul_dsf16 m1 (.clk(clk), .rst(rst), .start(st1), .a(a1), .b(b1), .z(z1), .last(dn1), .busy());
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) begin
      x_v <= 1'b0; aep0 <= 1'b1; aep1 <= 1'b1; xep <= 1'b1;
    end else begin
      x_v <= dn0 || dn1;
      if (dn0) begin aep0 <= e0; xep <= e0; end
      if (dn1) begin aep1 <= e1; xep <= e1; end
    end
    if (dn0) acc0 <= z0;
    if (dn1) acc1 <= z1;
  end
  assign x_out = ((aep0 == xep) ? acc0 : 128'd0) ^ ((aep1 == xep) ? acc1 : 128'd0);
endmodule

// A register bank that synthesis keeps as its own (keep_hierarchy: not merged with an
// identical bank), for copies of high-fanout registers (ghash_eo ARCH 7).
(* keep_hierarchy *)
module kreg #(parameter W = 1) (input wire clk, input wire en, input wire [W-1:0] d, output reg [W-1:0] q);
  always @(posedge clk) if (en) q <= d;
endmodule
