// Simulation top for the GHASH cores alone (tb_ghash.cpp): core k has its own input port
// (in_v, in_hs, in_last, in_data, h_load; h_in is shared) and output (in_ready, x_out, x_v).
//   k = 0 ghash.v (one one-clock parallel multiplier)
//   k = 1 ghash_eo.v ARCH 0 (two one-clock parallel multipliers)
//   k = 2 ghash_eo.v ARCH 1 (two parallel multipliers, register in the XOR tree)
//   k = 3, 4, 5 ghash_eo.v ARCH 2, digit-serial D = 64, 32, 16
//   k = 6 ghash_eo.v ARCH 3, digit-serial D = 16 with preloaded operand registers
//   k = 7 ghash_eo.v ARCH 5, one shared two-stage Karatsuba multiplier
//   k = 8 ghash_eo.v ARCH 6, the same with its operands registered in leaf form
module gh_top (
  input wire clk, input wire rst, input wire [127:0] h_in,
  input wire [8:0] in_v, input wire [8:0] in_hs, input wire [8:0] in_last, input wire [8:0] h_load,
  input wire [127:0] d0, input wire [127:0] d1, input wire [127:0] d2,
  input wire [127:0] d3, input wire [127:0] d4, input wire [127:0] d5, input wire [127:0] d6,
  input wire [127:0] d7, input wire [127:0] d8,
  output wire [8:0] in_ready, output wire [8:0] x_v,
  output wire [127:0] x0, output wire [127:0] x1, output wire [127:0] x2,
  output wire [127:0] x3, output wire [127:0] x4, output wire [127:0] x5, output wire [127:0] x6,
  output wire [127:0] x7, output wire [127:0] x8);
  ghash g0 (.clk(clk), .rst(rst), .in_v(in_v[0]), .in_hs(in_hs[0]), .in_data(d0),
            .h_load(h_load[0]), .h_in(h_in), .x_out(x0), .x_v(x_v[0]));
  assign in_ready[0] = 1'b1;
  ghash_eo #(.ARCH(0)) g1 (.clk(clk), .rst(rst), .in_v(in_v[1]), .in_hs(in_hs[1]), .in_last(in_last[1]),
            .in_data(d1), .in_ready(in_ready[1]), .h_load(h_load[1]), .h_in(h_in), .x_out(x1), .x_v(x_v[1]));
  ghash_eo #(.ARCH(1)) g2 (.clk(clk), .rst(rst), .in_v(in_v[2]), .in_hs(in_hs[2]), .in_last(in_last[2]),
            .in_data(d2), .in_ready(in_ready[2]), .h_load(h_load[2]), .h_in(h_in), .x_out(x2), .x_v(x_v[2]));
  ghash_eo #(.ARCH(2), .D(64)) g3 (.clk(clk), .rst(rst), .in_v(in_v[3]), .in_hs(in_hs[3]), .in_last(in_last[3]),
            .in_data(d3), .in_ready(in_ready[3]), .h_load(h_load[3]), .h_in(h_in), .x_out(x3), .x_v(x_v[3]));
  ghash_eo #(.ARCH(2), .D(32)) g4 (.clk(clk), .rst(rst), .in_v(in_v[4]), .in_hs(in_hs[4]), .in_last(in_last[4]),
            .in_data(d4), .in_ready(in_ready[4]), .h_load(h_load[4]), .h_in(h_in), .x_out(x4), .x_v(x_v[4]));
  ghash_eo #(.ARCH(2), .D(16)) g5 (.clk(clk), .rst(rst), .in_v(in_v[5]), .in_hs(in_hs[5]), .in_last(in_last[5]),
            .in_data(d5), .in_ready(in_ready[5]), .h_load(h_load[5]), .h_in(h_in), .x_out(x5), .x_v(x_v[5]));
  ghash_eo #(.ARCH(3), .D(16)) g6 (.clk(clk), .rst(rst), .in_v(in_v[6]), .in_hs(in_hs[6]), .in_last(in_last[6]),
            .in_data(d6), .in_ready(in_ready[6]), .h_load(h_load[6]), .h_in(h_in), .x_out(x6), .x_v(x_v[6]));
  ghash_eo #(.ARCH(5)) g7 (.clk(clk), .rst(rst), .in_v(in_v[7]), .in_hs(in_hs[7]), .in_last(in_last[7]),
            .in_data(d7), .in_ready(in_ready[7]), .h_load(h_load[7]), .h_in(h_in), .x_out(x7), .x_v(x_v[7]));
  ghash_eo #(.ARCH(6)) g8 (.clk(clk), .rst(rst), .in_v(in_v[8]), .in_hs(in_hs[8]), .in_last(in_last[8]),
            .in_data(d8), .in_ready(in_ready[8]), .h_load(h_load[8]), .h_in(h_in), .x_out(x8), .x_v(x_v[8]));
endmodule
