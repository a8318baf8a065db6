// One AES-128 round (combinational), with the on-the-fly key expansion of that round.
//   rk_out    = KeyExpansion step of rk_in with rcon
//   state_out = AddRoundKey(MixColumns(ShiftRows(SubBytes(state_in))), rk_out)
//   (MixColumns skipped when last = 1, i.e. round 10)
// Byte i of a 128-bit value is bits [127-8i -: 8] (byte 0 = leftmost), column c = bytes 4c..4c+3.
module aes_keystep (input wire [127:0] rk_in, input wire [7:0] rcon, output wire [127:0] rk_out);
  wire [31:0] w0 = rk_in[127:96], w1 = rk_in[95:64], w2 = rk_in[63:32], w3 = rk_in[31:0];
  wire [31:0] sw;
  // SubWord(RotWord(w3)): RotWord moves byte 0 to the end
  aes_sbox s0 (.a(w3[23:16]), .y(sw[31:24]));
  aes_sbox s1 (.a(w3[15:8]),  .y(sw[23:16]));
  aes_sbox s2 (.a(w3[7:0]),   .y(sw[15:8]));
  aes_sbox s3 (.a(w3[31:24]), .y(sw[7:0]));
  // w_i' = w_i ^ w_{i-1}', written so that only one XOR follows the S-boxes
  wire [31:0] t  = sw ^ {rcon, 24'h0};
  wire [31:0] p1 = w0 ^ w1, p2 = p1 ^ w2, p3 = p1 ^ (w2 ^ w3);
  wire [31:0] n0 = w0 ^ t;
  wire [31:0] n1 = p1 ^ t;
  wire [31:0] n2 = p2 ^ t;
  wire [31:0] n3 = p3 ^ t;
  assign rk_out = {n0, n1, n2, n3};
endmodule

module aes_round (input wire [127:0] state_in, input wire [127:0] rk_in, input wire [7:0] rcon,
                  input wire last, output wire [127:0] state_out, output wire [127:0] rk_out);
  aes_keystep ks (.rk_in(rk_in), .rcon(rcon), .rk_out(rk_out));
  wire [127:0] sb;
  genvar i;
  generate for (i = 0; i < 16; i = i + 1) begin : sub
    aes_sbox s (.a(state_in[127-8*i -: 8]), .y(sb[127-8*i -: 8]));
  end endgenerate
  // ShiftRows: new byte (4c+r) = old byte (4((c+r) mod 4) + r)
  wire [127:0] sr;
  generate for (i = 0; i < 16; i = i + 1) begin : shr
    localparam integer C = i / 4, R = i % 4;
    localparam integer SRC = 4 * ((C + R) % 4) + R;
    assign sr[127-8*i -: 8] = sb[127-8*SRC -: 8];
  end endgenerate
  // MixColumns
  wire [127:0] mc;
  generate for (i = 0; i < 4; i = i + 1) begin : mix
    wire [7:0] a0 = sr[127-32*i -: 8], a1 = sr[119-32*i -: 8], a2 = sr[111-32*i -: 8], a3 = sr[103-32*i -: 8];
    wire [7:0] x0 = {a0[6:0], 1'b0} ^ (a0[7] ? 8'h1b : 8'h00);
    wire [7:0] x1 = {a1[6:0], 1'b0} ^ (a1[7] ? 8'h1b : 8'h00);
    wire [7:0] x2 = {a2[6:0], 1'b0} ^ (a2[7] ? 8'h1b : 8'h00);
    wire [7:0] x3 = {a3[6:0], 1'b0} ^ (a3[7] ? 8'h1b : 8'h00);
    assign mc[127-32*i -: 8] = x0 ^ (x1 ^ a1) ^ a2 ^ a3;
    assign mc[119-32*i -: 8] = a0 ^ x1 ^ (x2 ^ a2) ^ a3;
    assign mc[111-32*i -: 8] = a0 ^ a1 ^ x2 ^ (x3 ^ a3);
    assign mc[103-32*i -: 8] = (x0 ^ a0) ^ a1 ^ a2 ^ x3;
  end endgenerate
  assign state_out = (last ? sr : mc) ^ rk_out;
endmodule

// The round in two halves, for the pipelined variants (a register between them):
//   aes_round_a: SubBytes of the state, and SubWord(RotWord(w3)) of the round key's last word
//   aes_round_b: ShiftRows, MixColumns (not when last), the key step's XORs, AddRoundKey
// aes_round_b(aes_round_a(x)) is aes_round(x).
module aes_round_a (input wire [127:0] state_in, input wire [127:0] rk_in,
                    output wire [127:0] sb, output wire [31:0] sw);
  wire [31:0] w3 = rk_in[31:0];
  aes_sbox s0 (.a(w3[23:16]), .y(sw[31:24]));
  aes_sbox s1 (.a(w3[15:8]),  .y(sw[23:16]));
  aes_sbox s2 (.a(w3[7:0]),   .y(sw[15:8]));
  aes_sbox s3 (.a(w3[31:24]), .y(sw[7:0]));
  genvar i;
  generate for (i = 0; i < 16; i = i + 1) begin : sub
    aes_sbox s (.a(state_in[127-8*i -: 8]), .y(sb[127-8*i -: 8]));
  end endgenerate
endmodule

module aes_round_b (input wire [127:0] sb, input wire [31:0] sw, input wire [127:0] rk_in,
                    input wire [7:0] rcon, input wire last,
                    output wire [127:0] state_out, output wire [127:0] rk_out);
  wire [31:0] w0 = rk_in[127:96], w1 = rk_in[95:64], w2 = rk_in[63:32], w3 = rk_in[31:0];
  wire [31:0] t  = sw ^ {rcon, 24'h0};
  wire [31:0] p1 = w0 ^ w1, p2 = p1 ^ w2, p3 = p1 ^ (w2 ^ w3);
  assign rk_out = {w0 ^ t, p1 ^ t, p2 ^ t, p3 ^ t};
  wire [127:0] sr;
  genvar i;
  generate for (i = 0; i < 16; i = i + 1) begin : shr
    localparam integer C = i / 4, R = i % 4;
    localparam integer SRC = 4 * ((C + R) % 4) + R;
    assign sr[127-8*i -: 8] = sb[127-8*SRC -: 8];
  end endgenerate
  wire [127:0] mc;
  generate for (i = 0; i < 4; i = i + 1) begin : mix
    wire [7:0] a0 = sr[127-32*i -: 8], a1 = sr[119-32*i -: 8], a2 = sr[111-32*i -: 8], a3 = sr[103-32*i -: 8];
    wire [7:0] x0 = {a0[6:0], 1'b0} ^ (a0[7] ? 8'h1b : 8'h00);
    wire [7:0] x1 = {a1[6:0], 1'b0} ^ (a1[7] ? 8'h1b : 8'h00);
    wire [7:0] x2 = {a2[6:0], 1'b0} ^ (a2[7] ? 8'h1b : 8'h00);
    wire [7:0] x3 = {a3[6:0], 1'b0} ^ (a3[7] ? 8'h1b : 8'h00);
    assign mc[127-32*i -: 8] = x0 ^ (x1 ^ a1) ^ a2 ^ a3;
    assign mc[119-32*i -: 8] = a0 ^ x1 ^ (x2 ^ a2) ^ a3;
    assign mc[111-32*i -: 8] = a0 ^ a1 ^ x2 ^ (x3 ^ a3);
    assign mc[103-32*i -: 8] = (x0 ^ a0) ^ a1 ^ a2 ^ x3;
  end endgenerate
  assign state_out = (last ? sr : mc) ^ rk_out;
endmodule
