// Fully pipelined AES-128 encryption with the S-boxes in block RAM (aes_sbox_rom2: one ROM,
// two look-ups per clock, a DP16KD on the ECP5): one block per clock, latency 20, the key
// carried with its block (on-the-fly key expansion in every stage), as aes_pipe SPLIT = 1.
// Each of rounds 1..9 takes two clocks: the ROMs' registered addresses (the state and the
// round key's last word after the previous round), then a register on the ROMs' outputs;
// ShiftRows, MixColumns, the key step's XORs and AddRoundKey (aes_round_b) sit between that
// register and the next round's ROM addresses. Round 10 (no MixColumns) goes from the ROM
// outputs straight into the output register. Per round 10 ROMs (16 state + 4 key look-ups),
// 100 in all. E(key, blk) is on dout 20 clocks after (vin, blk, key) were presented.
// RK = 1: no key in the pipeline: the round keys K1..K10 are held in one
// register per round, written by the H engine (aes_iter SPLIT = 2, ports rkey / rkey_n) as it
// expands a new key, so each round does 16 look-ups (8 ROMs, 80 in all), no key step and
// carries no key. The engine writes round r's register at the end of the clock in which it
// computes K_r, i.e. in the clock 2r - 1 after its start; a block presented in the engine's
// start clock (or later) reaches round r's AddRoundKey 2r clocks after it was presented, a
// block presented before it 2r - 1 clocks or earlier, so each sees its own packet's key as
// long as the engine is started no later than the new key's first block and after the last
// block of the previous key (gcm_core: the first word of a new-key packet starts the engine
// and leaves the Input Reg in the same clock). Round 10's key is written at the end of clock
// 19 and XORed after the output register (dout = register ^ K10, read in clock 20). The
// initial AddRoundKey (blk ^ key) stays at the input. Latency 20 as RK = 0.
module aes_pipe_bram #(parameter RK = 0) (input wire clk, input wire rst, input wire vin, input wire [127:0] blk,
                      input wire [127:0] key, input wire [127:0] rkey, input wire [3:0] rkey_n,
                      output wire vout, output wire [127:0] dout);
  function [7:0] rcon_of(input integer r);
    case (r)
      1: rcon_of = 8'h01; 2: rcon_of = 8'h02; 3: rcon_of = 8'h04; 4: rcon_of = 8'h08;
      5: rcon_of = 8'h10; 6: rcon_of = 8'h20; 7: rcon_of = 8'h40; 8: rcon_of = 8'h80;
      9: rcon_of = 8'h1b; default: rcon_of = 8'h36;
    endcase
  endfunction
  localparam integer NR = RK ? 8 : 10;   // ROMs per round
  genvar r;
  generate for (r = 1; r <= 10; r = r + 1) begin : stg
    wire [127:0] si, ki;          // this round's input state and carried round key (combinational)
    wire         vi;
    wire [127:0] so, ko;          // this round's output (combinational, rounds 1..9)
    wire         vo;
    if (r == 1) begin : first
      assign si = blk ^ key; assign ki = key; assign vi = vin;
    end else begin : next
      assign si = stg[r-1].so; assign ki = stg[r-1].ko; assign vi = stg[r-1].vo;
    end
    // the look-up addresses: state bytes 0..15, then (RK = 0) SubWord(RotWord(w3))
    wire [16*NR-1:0] la, ly;
    if (RK) begin : st16
      assign la = si;
    end else begin : st20
      assign la = {si, ki[23:16], ki[15:8], ki[7:0], ki[31:24]};
    end
    aes_sbox_bank #(.N(NR)) rom (.clk(clk), .a(la), .y(ly));
    wire [127:0] sb = ly[16*NR-1 -: 128];
    wire [31:0]  sw = RK ? 32'd0 : ly[31:0];
    reg  [127:0] k1, rk;          // the carried key (RK = 0), K_r (RK = 1)
    reg          v1;
    always @(posedge clk) begin
      k1 <= ki;
      v1 <= rst ? 1'b0 : vi;
      if (RK && rkey_n == r) rk <= rkey;
    end
    // with RK = 1 the key step gets zeros: aes_round_b is ShiftRows and MixColumns only
    wire [127:0] sr;
    if (r < 10) begin : mid
      reg [127:0] sb2, k2;
      reg [31:0]  sw2;
      reg         v2;
      always @(posedge clk) begin
        sb2 <= sb; sw2 <= sw; k2 <= k1;
        v2 <= rst ? 1'b0 : v1;
      end
      aes_round_b rb (.sb(sb2), .sw(sw2), .rk_in(RK ? 128'd0 : k2), .rcon(RK ? 8'd0 : rcon_of(r)), .last(1'b0),
                      .state_out(sr), .rk_out(ko));
      assign so = RK ? sr ^ rk : sr;
      assign vo = v2;
    end else begin : fin
      reg  [127:0] st;
      reg          v;
      aes_round_b rb (.sb(sb), .sw(sw), .rk_in(RK ? 128'd0 : k1), .rcon(RK ? 8'd0 : rcon_of(r)), .last(1'b1),
                      .state_out(sr), .rk_out(ko));
      always @(posedge clk) begin
        st <= sr;
        v <= rst ? 1'b0 : v1;
      end
      assign so = RK ? st ^ rk : st; assign vo = v;
    end
  end endgenerate
  assign dout = stg[10].so;
  assign vout = stg[10].vo;
endmodule

// N S-box ROMs (aes_sbox_rom2, one DP16KD each), 2N synchronous look-ups: byte k of a (k = 0
// leftmost) is looked up into byte k of y, one clock later.
module aes_sbox_bank #(parameter N = 8) (input wire clk, input wire [16*N-1:0] a, output wire [16*N-1:0] y);
  genvar j;
  generate for (j = 0; j < N; j = j + 1) begin : rom
    aes_sbox_rom2 s (.clk(clk), .a0(a[16*N-1-16*j -: 8]), .a1(a[16*N-9-16*j -: 8]),
                     .y0(y[16*N-1-16*j -: 8]), .y1(y[16*N-9-16*j -: 8]));
  end endgenerate
endmodule
