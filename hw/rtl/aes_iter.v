// Iterative AES-128 encryption: one round circuit reused 10 times (Figure 1(a)).
// start (when ready) loads blk ^ key; rounds 1..10 run in the next 10 clocks; on the 10th
// the result is written to dout and done pulses. ready is also high during the 10th
// round, so a new block can be loaded back to back (one block per 10 clocks).
module aes_iter (input wire clk, input wire rst, input wire start, input wire [127:0] blk,
                 input wire [127:0] key, output wire ready, output reg done,
                 output reg [127:0] dout);
  reg [127:0] st, rk;
  reg [3:0] rnd;      // round to apply this cycle (1..10), 0 = idle
  reg [7:0] rcon;
  wire [127:0] so, ko;
  aes_round r0 (.state_in(st), .rk_in(rk), .rcon(rcon), .last(rnd == 4'd10),
                .state_out(so), .rk_out(ko));
  assign ready = (rnd == 4'd0) || (rnd == 4'd10);
  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      rnd <= 4'd0;
    end else begin
      if (rnd != 4'd0) begin
        st <= so;
        rk <= ko;
        rcon <= {rcon[6:0], 1'b0} ^ (rcon[7] ? 8'h1b : 8'h00);
        rnd <= (rnd == 4'd10) ? 4'd0 : rnd + 4'd1;
        if (rnd == 4'd10) begin
          dout <= so;
          done <= 1'b1;
        end
      end
      if (start && ready) begin
        st <= blk ^ key;
        rk <= key;
        rcon <= 8'h01;
        rnd <= 4'd1;
      end
    end
  end
endmodule
