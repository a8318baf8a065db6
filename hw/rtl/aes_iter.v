// Iterative AES-128 encryption: one round circuit reused 10 times (Figure 1(a)).
// start (when ready) applies round 1 to blk ^ key in the same clock (the round circuit's
// input multiplexer takes blk ^ key and key instead of the state registers); rounds 2..10
// follow in the next 9 clocks, the 10th writes dout and pulses done. So dout is ready 10
// clocks after start (counting the start clock), and a new block can start every 10 clocks.
module aes_iter (input wire clk, input wire rst, input wire start, input wire [127:0] blk,
                 input wire [127:0] key, output wire ready, output reg done,
                 output reg [127:0] dout);
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
endmodule
