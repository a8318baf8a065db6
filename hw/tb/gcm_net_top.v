// Simulation top for `make netlist-test`: the ports of gcm_top.v around the post-synthesis
// netlist of one ECP5 encryption core (yosys write_verilog after synth_ecp5: module gcm_core
// of LUT4, TRELLIS_FF, CCU2C, PFUMX, L6MUX21, DP16KD cells, simulated with yosys's
// share/ecp5/cells_sim.v and tb/dp16kd_sim.v). Only sel = 0 (encryption) has a core: run
// tb_gcm with --cores enc.
module gcm_top (
  input  wire clk, input wire rst, input wire [1:0] sel,
  input  wire in_valid, output wire in_ready, input wire [2:0] in_kind,
  input  wire [127:0] in_data, input wire [4:0] in_bytes, input wire in_last, input wire in_sop,
  input  wire [127:0] in_key, input wire [95:0] in_iv, input wire in_iv96, input wire in_dec,
  input  wire [4:0] in_taglen,
  output wire out_valid, output wire [1:0] out_kind, output wire [127:0] out_data,
  output wire [4:0] out_bytes, output wire out_fail
);
  wire rdy;
  gcm_core u (
    .clk(clk), .rst(rst), .in_valid(in_valid && sel == 2'd0), .in_ready(rdy),
    .in_kind(in_kind), .in_data(in_data), .in_bytes(in_bytes), .in_last(in_last),
    .in_sop(in_sop), .in_key(in_key), .in_iv(in_iv), .in_iv96(in_iv96), .in_dec(in_dec),
    .in_taglen(in_taglen), .out_valid(out_valid), .out_kind(out_kind), .out_data(out_data),
    .out_bytes(out_bytes), .out_fail(out_fail));
  assign in_ready = rdy && sel == 2'd0;
endmodule
