// Fully pipelined AES-128 encryption: 10 round stages, one block per clock, latency 10.
// The key travels with its block (on-the-fly key expansion in every stage), so blocks under
// different keys may follow each other back to back. The initial AddRoundKey is folded into
// stage 1. E(key, blk) appears on dout 10 clocks after (vin, blk, key) were presented.
// SPLIT = 1: two stages per round (a register after SubBytes, aes_round_a / aes_round_b),
// 20 stages, latency 20.
module aes_pipe #(parameter SPLIT = 0) (input wire clk, input wire rst, input wire vin, input wire [127:0] blk,
                 input wire [127:0] key, output wire vout, output wire [127:0] dout);
  function [7:0] rcon_of(input integer r);
    case (r)
      1: rcon_of = 8'h01; 2: rcon_of = 8'h02; 3: rcon_of = 8'h04; 4: rcon_of = 8'h08;
      5: rcon_of = 8'h10; 6: rcon_of = 8'h20; 7: rcon_of = 8'h40; 8: rcon_of = 8'h80;
      9: rcon_of = 8'h1b; default: rcon_of = 8'h36;
    endcase
  endfunction
  genvar r;
  generate for (r = 1; r <= 10; r = r + 1) begin : stg
    reg [127:0] st, rk;
    reg v;
    wire [127:0] si, ki, so, ko;
    wire vi;
    if (r == 1) begin : first
      assign si = blk ^ key; assign ki = key; assign vi = vin;
    end else begin : next
      assign si = stg[r-1].st; assign ki = stg[r-1].rk; assign vi = stg[r-1].v;
    end
    if (SPLIT == 0) begin : one
      aes_round rnd (.state_in(si), .rk_in(ki), .rcon(rcon_of(r)), .last(r == 10),
                     .state_out(so), .rk_out(ko));
      always @(posedge clk) begin
        st <= so;
        rk <= ko;
        v <= rst ? 1'b0 : vi;
      end
    end else begin : two
      wire [127:0] sb;
      wire [31:0]  sw;
      reg  [127:0] sbr, kr;
      reg  [31:0]  swr;
      reg          vr;
      aes_round_a ra (.state_in(si), .rk_in(ki), .sb(sb), .sw(sw));
      aes_round_b rb (.sb(sbr), .sw(swr), .rk_in(kr), .rcon(rcon_of(r)), .last(r == 10),
                      .state_out(so), .rk_out(ko));
      always @(posedge clk) begin
        sbr <= sb; swr <= sw; kr <= ki; vr <= rst ? 1'b0 : vi;
        st <= so;
        rk <= ko;
        v <= rst ? 1'b0 : vr;
      end
    end
  end endgenerate
  assign dout = stg[10].st;
  assign vout = stg[10].v;
endmodule
