// GHASH core of Figure 2: AC Reg (the 128-bit input word), X Reg (the running hash), H Reg
// and the single-cycle parallel GF(2^128) multiplier:  X <= (X xor AC) * H.
// in_hs starts a new hash (X taken as 0). x_out is valid the clock after the word was in AC.
module ghash (input wire clk, input wire rst,
              input wire in_v, input wire in_hs, input wire [127:0] in_data,
              input wire h_load, input wire [127:0] h_in,
              output wire [127:0] x_out, output reg x_v);
  reg [127:0] ac, x, h;
  reg ac_v, ac_hs;
  wire [127:0] mul_a = (ac_hs ? 128'd0 : x) ^ ac;
  wire [127:0] mul_z;
  gf128_mul_par gfmul (.a(mul_a), .h(h), .z(mul_z));
  always @(posedge clk) begin
    if (rst) begin ac_v <= 1'b0; x_v <= 1'b0; end
    else begin ac_v <= in_v; x_v <= ac_v; end
    if (in_v) begin ac <= in_data; ac_hs <= in_hs; end
    if (h_load) h <= h_in;
    if (ac_v) x <= mul_z;
  end
  assign x_out = x;
endmodule
