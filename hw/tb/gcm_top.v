// Simulation top: the three cores of Table 1 (encryption, decryption, combined) behind one
// port; sel picks the core that is driven and observed. GH: the GHASH core (gcm_core.v).
module gcm_top #(parameter GH = 0, parameter SPLIT = 0, parameter ITER = 0) (
  input  wire clk, input wire rst, input wire [1:0] sel,
  input  wire in_valid, output wire in_ready, input wire [2:0] in_kind,
  input  wire [127:0] in_data, input wire [4:0] in_bytes, input wire in_last, input wire in_sop,
  input  wire [127:0] in_key, input wire [95:0] in_iv, input wire in_iv96, input wire in_dec,
  input  wire [4:0] in_taglen,
  output wire out_valid, output wire [1:0] out_kind, output wire [127:0] out_data,
  output wire [4:0] out_bytes, output wire out_fail
);
  wire [2:0] rdy, ov, of;
  wire [1:0] ok [0:2];
  wire [127:0] od [0:2];
  wire [4:0] ob [0:2];
  genvar m;
  generate for (m = 0; m < 3; m = m + 1) begin : core
    gcm_core #(.MODE(m), .GH(GH), .SPLIT(SPLIT), .ITER(ITER)) u (
      .clk(clk), .rst(rst), .in_valid(in_valid && sel == m), .in_ready(rdy[m]),
      .in_kind(in_kind), .in_data(in_data), .in_bytes(in_bytes), .in_last(in_last),
      .in_sop(in_sop), .in_key(in_key), .in_iv(in_iv), .in_iv96(in_iv96), .in_dec(in_dec),
      .in_taglen(in_taglen), .out_valid(ov[m]), .out_kind(ok[m]), .out_data(od[m]),
      .out_bytes(ob[m]), .out_fail(of[m]));
  end endgenerate
  assign in_ready  = rdy[sel];
  assign out_valid = ov[sel];
  assign out_kind  = ok[sel];
  assign out_data  = od[sel];
  assign out_bytes = ob[sel];
  assign out_fail  = of[sel];
endmodule
