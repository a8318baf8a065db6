// Iterative AES-128 encryption: one round circuit reused 10 times (Figure 1(a)).
// start (when ready) applies round 1 to blk ^ key in the same clock (the round circuit's
// input multiplexer takes blk ^ key and key instead of the state registers); rounds 2..10
// follow in the next 9 clocks, the 10th writes dout and pulses done. So dout is ready 10
// clocks after start (counting the start clock), and a new block can start every 10 clocks.
// SPLIT = 1: the round in two halves with a register between them (aes_round_a / _b):
// 20 clocks per block, dout ready 20 clocks after start.
// SPLIT = 2: SPLIT = 1 with the 20 S-box look-ups in block RAM (10 aes_sbox_rom2, DP16KD on
// the ECP5): the ROMs' registered addresses take the place of the register after SubBytes,
// so the timing is SPLIT = 1's (20 clocks per block).
// rkey / rkey_n (SPLIT = 1, 2): the round key K_r computed in this clock and r (0: none);
// K_r is computed in the clock 2r - 1 after start (aes_pipe_bram RK = 1 takes its round keys there).
module aes_iter #(parameter SPLIT = 0) (input wire clk, input wire rst, input wire start, input wire [127:0] blk,
                 input wire [127:0] key, output wire ready, output reg done,
                 output reg [127:0] dout, output wire [127:0] rkey, output wire [3:0] rkey_n);
  generate if (SPLIT == 0) begin : one
  reg [127:0] st, rk;
  reg [3:0] rnd;      // round applied this clock from the registers (2..10), 0 = idle
  reg [7:0] rcon;
  reg idle, last;     // rnd == 0, rnd == 10 (as flip-flops: they select the round's inputs)
  assign ready = idle;
  wire go = start && idle;
  wire [127:0] si = idle ? (blk ^ key) : st;
  wire [127:0] ki = idle ? key : rk;
  wire [7:0]   ci = idle ? 8'h01 : rcon;
  wire [127:0] so, ko;
  aes_round r0 (.state_in(si), .rk_in(ki), .rcon(ci), .last(last),
                .state_out(so), .rk_out(ko));
  assign rkey = ko; assign rkey_n = 4'd0;
  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      rnd <= 4'd0; idle <= 1'b1; last <= 1'b0;
    end else if (go) begin
      st <= so; rk <= ko; rcon <= 8'h02; rnd <= 4'd2; idle <= 1'b0;
    end else if (!idle) begin
      st <= so; rk <= ko;
      rcon <= {rcon[6:0], 1'b0} ^ (rcon[7] ? 8'h1b : 8'h00);
      last <= (rnd == 4'd9);
      if (last) begin
        rnd <= 4'd0; idle <= 1'b1; dout <= so; done <= 1'b1;
      end else begin
        rnd <= rnd + 4'd1;
      end
    end
  end
  end else begin : two
  // SPLIT = 1, 2: the second half of a round works on the S-box look-ups of the clock before
  // it (the clock of go, or the first half), from a register (1) or from the ROMs (2)
  reg [127:0] st, rk, kr;
  reg [4:0]   step;   // step of this clock (1..19) when busy; odd = second half of a round
  reg [7:0]   rcon;
  reg         idle;
  assign ready = idle;
  wire go = start && idle;
  wire [127:0] si = idle ? (blk ^ key) : st;
  wire [127:0] ki = idle ? key : rk;
  wire [127:0] sbq, so, ko;
  wire [31:0]  swq;
  if (SPLIT == 2) begin : rom
    // the look-ups: the state, then SubWord(RotWord(w3)); the ROM outputs hold them through
    // the next clock
    wire [159:0] la = {si, ki[23:16], ki[15:8], ki[7:0], ki[31:24]};
    wire [159:0] ly;
    genvar j;
    for (j = 0; j < 10; j = j + 1) begin : sbx
      aes_sbox_rom2 s (.clk(clk), .a0(la[159-16*j -: 8]), .a1(la[151-16*j -: 8]),
                       .y0(ly[159-16*j -: 8]), .y1(ly[151-16*j -: 8]));
    end
    assign sbq = ly[159:32]; assign swq = ly[31:0];
  end else begin : lut
    reg  [127:0] sbr;
    reg  [31:0]  swr;
    wire [127:0] sb;
    wire [31:0]  sw;
    aes_round_a ra (.state_in(si), .rk_in(ki), .sb(sb), .sw(sw));
    always @(posedge clk)
      if (!rst && (go || (!idle && !step[0]))) begin sbr <= sb; swr <= sw; end
    assign sbq = sbr; assign swq = swr;
  end
  aes_round_b rb (.sb(sbq), .sw(swq), .rk_in(kr), .rcon(rcon), .last(step == 5'd19),
                  .state_out(so), .rk_out(ko));
  assign rkey = ko;
  assign rkey_n = (!idle && step[0]) ? step[4:1] + 4'd1 : 4'd0;
  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      idle <= 1'b1; step <= 5'd0;
    end else if (go) begin
      kr <= key; rcon <= 8'h01; step <= 5'd1; idle <= 1'b0;
    end else if (!idle) begin
      if (step[0]) begin                     // second half of round (step+1)/2
        st <= so; rk <= ko;
        if (step == 5'd19) begin idle <= 1'b1; dout <= so; done <= 1'b1; end
        else step <= step + 5'd1;
      end else begin                         // first half of the next round
        kr <= rk;
        rcon <= {rcon[6:0], 1'b0} ^ (rcon[7] ? 8'h1b : 8'h00);
        step <= step + 5'd1;
      end
    end
  end
  end endgenerate
endmodule
