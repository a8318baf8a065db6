// Simulation model of the ECP5 DP16KD block RAM for `make netlist-test`, written for this
// project: yosys's share/ecp5/cells_sim.v declares DP16KD as a blackbox. It models what
// synth_ecp5 (memory_libmap, brams_map.v) instantiates for our ROMs: reads on both ports
// (synchronous: DO is the word at the address of the last enabled clock edge), REGMODE NOREG
// or OUTREG, DATA_WIDTH 9 or 18, the contents from INITVAL_00..3F (16 words of 18 bits per
// INITVAL, each in 20 bits: the layout of yosys's brams_map.v), synchronous RST to zero.
// Anything else (writes, other widths, chip selects) stops the simulation: not modelled.
module DP16KD(
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA, CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB, CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  parameter DATA_WIDTH_A = 18;
  parameter DATA_WIDTH_B = 18;
  parameter REGMODE_A = "NOREG";
  parameter REGMODE_B = "NOREG";
  parameter RESETMODE = "SYNC";
  parameter ASYNC_RESET_RELEASE = "SYNC";
  parameter CSDECODE_A = "0b000";
  parameter CSDECODE_B = "0b000";
  parameter WRITEMODE_A = "NORMAL";
  parameter WRITEMODE_B = "NORMAL";
  parameter CLKAMUX = "CLKA";
  parameter CLKBMUX = "CLKB";
  parameter GSR = "ENABLED";
  parameter [319:0] INITVAL_00 = 320'h0;
  parameter [319:0] INITVAL_01 = 320'h0;
  parameter [319:0] INITVAL_02 = 320'h0;
  parameter [319:0] INITVAL_03 = 320'h0;
  parameter [319:0] INITVAL_04 = 320'h0;
  parameter [319:0] INITVAL_05 = 320'h0;
  parameter [319:0] INITVAL_06 = 320'h0;
  parameter [319:0] INITVAL_07 = 320'h0;
  parameter [319:0] INITVAL_08 = 320'h0;
  parameter [319:0] INITVAL_09 = 320'h0;
  parameter [319:0] INITVAL_0A = 320'h0;
  parameter [319:0] INITVAL_0B = 320'h0;
  parameter [319:0] INITVAL_0C = 320'h0;
  parameter [319:0] INITVAL_0D = 320'h0;
  parameter [319:0] INITVAL_0E = 320'h0;
  parameter [319:0] INITVAL_0F = 320'h0;
  parameter [319:0] INITVAL_10 = 320'h0;
  parameter [319:0] INITVAL_11 = 320'h0;
  parameter [319:0] INITVAL_12 = 320'h0;
  parameter [319:0] INITVAL_13 = 320'h0;
  parameter [319:0] INITVAL_14 = 320'h0;
  parameter [319:0] INITVAL_15 = 320'h0;
  parameter [319:0] INITVAL_16 = 320'h0;
  parameter [319:0] INITVAL_17 = 320'h0;
  parameter [319:0] INITVAL_18 = 320'h0;
  parameter [319:0] INITVAL_19 = 320'h0;
  parameter [319:0] INITVAL_1A = 320'h0;
  parameter [319:0] INITVAL_1B = 320'h0;
  parameter [319:0] INITVAL_1C = 320'h0;
  parameter [319:0] INITVAL_1D = 320'h0;
  parameter [319:0] INITVAL_1E = 320'h0;
  parameter [319:0] INITVAL_1F = 320'h0;
  parameter [319:0] INITVAL_20 = 320'h0;
  parameter [319:0] INITVAL_21 = 320'h0;
  parameter [319:0] INITVAL_22 = 320'h0;
  parameter [319:0] INITVAL_23 = 320'h0;
  parameter [319:0] INITVAL_24 = 320'h0;
  parameter [319:0] INITVAL_25 = 320'h0;
  parameter [319:0] INITVAL_26 = 320'h0;
  parameter [319:0] INITVAL_27 = 320'h0;
  parameter [319:0] INITVAL_28 = 320'h0;
  parameter [319:0] INITVAL_29 = 320'h0;
  parameter [319:0] INITVAL_2A = 320'h0;
  parameter [319:0] INITVAL_2B = 320'h0;
  parameter [319:0] INITVAL_2C = 320'h0;
  parameter [319:0] INITVAL_2D = 320'h0;
  parameter [319:0] INITVAL_2E = 320'h0;
  parameter [319:0] INITVAL_2F = 320'h0;
  parameter [319:0] INITVAL_30 = 320'h0;
  parameter [319:0] INITVAL_31 = 320'h0;
  parameter [319:0] INITVAL_32 = 320'h0;
  parameter [319:0] INITVAL_33 = 320'h0;
  parameter [319:0] INITVAL_34 = 320'h0;
  parameter [319:0] INITVAL_35 = 320'h0;
  parameter [319:0] INITVAL_36 = 320'h0;
  parameter [319:0] INITVAL_37 = 320'h0;
  parameter [319:0] INITVAL_38 = 320'h0;
  parameter [319:0] INITVAL_39 = 320'h0;
  parameter [319:0] INITVAL_3A = 320'h0;
  parameter [319:0] INITVAL_3B = 320'h0;
  parameter [319:0] INITVAL_3C = 320'h0;
  parameter [319:0] INITVAL_3D = 320'h0;
  parameter [319:0] INITVAL_3E = 320'h0;
  parameter [319:0] INITVAL_3F = 320'h0;
  function [319:0] iv(input integer k);
    case (k)
      0: iv = INITVAL_00;
      1: iv = INITVAL_01;
      2: iv = INITVAL_02;
      3: iv = INITVAL_03;
      4: iv = INITVAL_04;
      5: iv = INITVAL_05;
      6: iv = INITVAL_06;
      7: iv = INITVAL_07;
      8: iv = INITVAL_08;
      9: iv = INITVAL_09;
      10: iv = INITVAL_0A;
      11: iv = INITVAL_0B;
      12: iv = INITVAL_0C;
      13: iv = INITVAL_0D;
      14: iv = INITVAL_0E;
      15: iv = INITVAL_0F;
      16: iv = INITVAL_10;
      17: iv = INITVAL_11;
      18: iv = INITVAL_12;
      19: iv = INITVAL_13;
      20: iv = INITVAL_14;
      21: iv = INITVAL_15;
      22: iv = INITVAL_16;
      23: iv = INITVAL_17;
      24: iv = INITVAL_18;
      25: iv = INITVAL_19;
      26: iv = INITVAL_1A;
      27: iv = INITVAL_1B;
      28: iv = INITVAL_1C;
      29: iv = INITVAL_1D;
      30: iv = INITVAL_1E;
      31: iv = INITVAL_1F;
      32: iv = INITVAL_20;
      33: iv = INITVAL_21;
      34: iv = INITVAL_22;
      35: iv = INITVAL_23;
      36: iv = INITVAL_24;
      37: iv = INITVAL_25;
      38: iv = INITVAL_26;
      39: iv = INITVAL_27;
      40: iv = INITVAL_28;
      41: iv = INITVAL_29;
      42: iv = INITVAL_2A;
      43: iv = INITVAL_2B;
      44: iv = INITVAL_2C;
      45: iv = INITVAL_2D;
      46: iv = INITVAL_2E;
      47: iv = INITVAL_2F;
      48: iv = INITVAL_30;
      49: iv = INITVAL_31;
      50: iv = INITVAL_32;
      51: iv = INITVAL_33;
      52: iv = INITVAL_34;
      53: iv = INITVAL_35;
      54: iv = INITVAL_36;
      55: iv = INITVAL_37;
      56: iv = INITVAL_38;
      57: iv = INITVAL_39;
      58: iv = INITVAL_3A;
      59: iv = INITVAL_3B;
      60: iv = INITVAL_3C;
      61: iv = INITVAL_3D;
      62: iv = INITVAL_3E;
      63: iv = INITVAL_3F;
      default: iv = 320'h0;
    endcase
  endfunction
  reg [17:0] mem [0:1023];
  integer k, i;
  initial begin
    for (k = 0; k < 64; k = k + 1)
      for (i = 0; i < 16; i = i + 1)
        mem[k * 16 + i] = iv(k) >> (20 * i);
  end
  function [17:0] rd(input [13:0] a, input integer w);
    reg [17:0] row;
    begin
      row = mem[a[13:4]];
      if (w == 18) rd = row;
      else rd = {9'd0, a[3] ? row[17:9] : row[8:0]};
    end
  endfunction
  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
  reg  [17:0] qa = 18'd0, oa = 18'd0;
  always @(posedge CLKA) begin
    if (RSTA) qa <= 18'd0;
    else if (CEA) qa <= rd(ada, DATA_WIDTH_A);
    if (RSTA) oa <= 18'd0;
    else if (OCEA) oa <= qa;
    if (WEA && CEA) begin $display("DP16KD: write on port A not modelled"); $stop; end
  end
  initial if ((DATA_WIDTH_A != 9 && DATA_WIDTH_A != 18) || CLKAMUX != "CLKA" || CSDECODE_A != "0b000") begin
    $display("DP16KD: port A configuration not modelled"); $stop;
  end
  wire [17:0] doa = (REGMODE_A == "OUTREG") ? oa : qa;
  assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
  wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
  reg  [17:0] qb = 18'd0, ob = 18'd0;
  always @(posedge CLKB) begin
    if (RSTB) qb <= 18'd0;
    else if (CEB) qb <= rd(adb, DATA_WIDTH_B);
    if (RSTB) ob <= 18'd0;
    else if (OCEB) ob <= qb;
    if (WEB && CEB) begin $display("DP16KD: write on port B not modelled"); $stop; end
  end
  initial if ((DATA_WIDTH_B != 9 && DATA_WIDTH_B != 18) || CLKBMUX != "CLKB" || CSDECODE_B != "0b000") begin
    $display("DP16KD: port B configuration not modelled"); $stop;
  end
  wire [17:0] dob = (REGMODE_B == "OUTREG") ? ob : qb;
  assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;
endmodule
