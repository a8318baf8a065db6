// Simulation top for the generated multipliers: every architecture for GF(2^128) and
// GF(2^64) gets the same operands; the parallel ones are combinational, the serial ones
// run after start and pulse done.
module mul_top (input wire clk, input wire rst, input wire start,
                input wire [127:0] a128, input wire [127:0] b128,
                input wire [63:0] a64, input wire [63:0] b64,
                output wire [127:0] z128_par, output wire [127:0] z128_ds8,
                output wire [127:0] z128_ds32, output wire [127:0] z128_bs,
                output wire [63:0] z64_par, output wire [63:0] z64_ds8, output wire [63:0] z64_bs,
                output wire [4:0] done);
  gf128_mul_par  m0 (.a(a128), .h(b128), .z(z128_par));
  gf128_mul_ds8  m1 (.clk(clk), .rst(rst), .start(start), .a(a128), .b(b128), .z(z128_ds8),  .done(done[0]), .busy());
  gf128_mul_ds32 m2 (.clk(clk), .rst(rst), .start(start), .a(a128), .b(b128), .z(z128_ds32), .done(done[1]), .busy());
  gf128_mul_bs   m3 (.clk(clk), .rst(rst), .start(start), .a(a128), .b(b128), .z(z128_bs),   .done(done[2]), .busy());
  gf64_mul_par   m4 (.a(a64), .h(b64), .z(z64_par));
  gf64_mul_ds8   m5 (.clk(clk), .rst(rst), .start(start), .a(a64), .b(b64), .z(z64_ds8), .done(done[3]), .busy());
  gf64_mul_bs    m6 (.clk(clk), .rst(rst), .start(start), .a(a64), .b(b64), .z(z64_bs),  .done(done[4]), .busy());
endmodule
