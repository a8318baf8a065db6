// AES-128-GCM core after Yang, Mishra, Karri, "A High Speed Architecture for GCM" (Figure 5).
//
// MODE = 0: encryption only, 1: decryption only, 2: combined (per-packet in_dec).
//
// Input stream: one 128-bit word per clock (valid/ready). A packet is
//   [IV words (kind IV, only when in_iv96 = 0; in_last on the final one)]
//   AAD words (kind AAD) ... DATA words (kind DATA) ... one END word (kind END).
// in_bytes gives the valid bytes (1..16) of AAD/DATA/IV words; only the last word of a
// field may be partial. The first word of a packet carries in_sop = 1 and the per-packet
// side band: in_key, in_iv (96-bit IV, when in_iv96 = 1), in_iv96, in_dec, in_taglen.
// For decryption the END word carries the received tag in its leftmost in_taglen bytes.
//
// Output stream (out_valid): AAD words passed through, DATA words (ciphertext for
// encryption, plaintext for decryption, masked to out_bytes) and, in the END slot, a TAG
// word: the tag MSB_t(GHASH xor E(K,Y0)) (zero beyond in_taglen bytes) when encrypting; when
// decrypting its data is zero and out_fail = 1 says the received tag differs from the computed one.
// Latency: the word accepted at clock t is on the output at clock t+14; one output word
// per input word, so packets follow each other back to back with m + n + 1 clocks per
// packet (96-bit IV, key unchanged or changed at most every 10 clocks).
//
// GH selects the GHASH core: 0 = ghash.v (one one-clock parallel multiplier, Figure 2);
// 1, 2, 3 = ghash_eo.v, the spec's even/odd GHASH (000 section 4.2) with two one-clock
// parallel multipliers (1), two parallel multipliers with a register in the XOR tree (2),
// two digit-serial D = 64 multipliers (3). GL = clocks per multiply (1, 1, 2, 2); with
// GL = 2 the tag is one clock later and the latency is 15 instead of 14.
// SPLIT = 1: AES with two pipeline stages per round (pipelined AES 20 stages, FIFO 20
// entries, the H engine 20 clocks per key): latency +10, a new key at most every 20 clocks.
//
// The small core (ITER = 1): one iterative AES-128 (aes_iter.v, TA = 10 clocks per block,
// 20 with SPLIT = 1) instead of the pipelined AES and the separate H engine. It computes
// the keystream blocks, E(K,Y0) and, for a packet with a new key, H = E(K,0^128) first (an
// extra AES job before the packet's first word leaves the Input Reg). Its latency is the
// pipeline's (10 clocks), so the FIFO, MUX2, GHASH and MUX3 are the same; the Input Reg
// holds a DATA or END word until the AES is free, so a counter block enters it at most
// every TA clocks. GH = 4, 5: ghash_eo.v with two digit-serial D = 32 / D = 16 multipliers
// (GL = 4 / 8 clocks per multiply, one block per 2 / 4 clocks): the Input Reg also spaces
// the words sent to GHASH by R = GL/2 clocks, and the data words wait GL - 1 clocks for
// the hash (latency 13 + GL). GH = 6: ghash_eo.v ARCH 3, two digit-serial D = 16
// multipliers with a load clock (GL = 9, one block per 5 clocks, latency 22).
// GH = 7: ghash_eo.v ARCH 4, one parallel multiplier with a register in its XOR tree shared
// by the even and odd blocks (GL = 2, one block per clock). SPLIT = 2: the pipelined AES with
// its S-boxes in block RAM (aes_pipe_bram.v, latency 20 like SPLIT = 1; the H engine is the
// SPLIT = 1 iterative AES). GH = 8: as GH = 7 with the Karatsuba-Ofman multiplier
// (ghash_eo.v ARCH 5). GH = 9: ARCH 6, the same multiplier with its operands (the AC Reg
// and the multiplicand) registered in Karatsuba leaf form, the accumulator XORed in before
// the AC Reg.
// With ITER = 1, E(K,Y0) and the received tag are not delayed (END words are TA >= GL
// clocks apart); with ITER = 0 (GH = 4..6 beside the pipelined AES, one word per GR clocks)
// they are.
module gcm_core #(parameter MODE = 2, parameter GH = 0, parameter SPLIT = 0, parameter ITER = 0) (
  input  wire         clk,
  input  wire         rst,
  input  wire         in_valid,
  output wire         in_ready,
  input  wire [2:0]   in_kind,
  input  wire [127:0] in_data,
  input  wire [4:0]   in_bytes,
  input  wire         in_last,
  input  wire         in_sop,
  input  wire [127:0] in_key,
  input  wire [95:0]  in_iv,
  input  wire         in_iv96,
  input  wire         in_dec,
  input  wire [4:0]   in_taglen,
  output reg          out_valid,
  output reg  [1:0]   out_kind,
  output reg  [127:0] out_data,
  output reg  [4:0]   out_bytes,
  output reg          out_fail
);
  localparam [2:0] K_AAD = 3'd0, K_DATA = 3'd1, K_END = 3'd2, K_IV = 3'd3, K_IVLEN = 3'd4;
  localparam [1:0] O_AAD = 2'd0, O_DATA = 2'd1, O_TAG = 2'd2;
  localparam integer FIFO_DEPTH = SPLIT ? 20 : 10;   // = AES pipeline depth
  localparam integer GL = (GH == 6) ? 9 : (GH == 5) ? 8 : (GH == 4) ? 4 : (GH >= 2) ? 2 : 1;   // clocks per GHASH multiply
  localparam integer GR = (GL + 1) / 2;       // clocks per GHASH block (ghash_eo.v in_ready)

  function [127:0] bytemask(input [4:0] n);   // leftmost n bytes set
    integer b;
    begin
      for (b = 0; b < 16; b = b + 1) bytemask[127-8*b -: 8] = (b < n) ? 8'hff : 8'h00;
    end
  endfunction
  function [127:0] incr32(input [127:0] y);
    incr32 = {y[127:32], y[31:0] + 32'd1};
  endfunction

  // ------------------------------------------------------------------ key / H engine
  // Iterative AES computing H = E(K, 0^128) for each new key, started when the first word
  // of a packet with a new key is in the Input Reg, so H is ready when that packet reaches
  // GHASH. The key comparison at the port only feeds a register (ir_newkey).
  reg         lastkey_v;
  reg [127:0] lastkey;
  wire        newkey = !lastkey_v || (in_key != lastkey);
  wire        eng_ready, eng_done;
  wire [127:0] h_new;
  wire [127:0] eng_rkey;                  // SPLIT = 3: the engine's round keys for the pipeline
  wire [3:0]   eng_rkey_n;

  // ------------------------------------------------------------------ Input Reg
  reg         ir_v, ir_sop, ir_last, ir_iv96, ir_dec, ir_newkey;
  reg [2:0]   ir_kind;
  reg [127:0] ir_data, ir_key, ir_blk;   // ir_blk: counter block for the AES pipeline (MUX1)
  reg [95:0]  ir_iv;
  reg [4:0]   ir_bytes, ir_taglen;
  reg         y0_pending;            // a non-96-bit IV packet waits for Y0 = GHASH(H,{},IV)
  // a new-key packet waits in the Input Reg while the engine is still busy with the
  // previous new key (one H per 10 clocks)
  // ITER = 1: the word waits while H is not yet started (hneed), while the AES is busy
  // (counter words) and while GHASH cannot take a word yet (gh_cool)
  reg         h_started;             // ITER: H of the Input Reg's packet is being computed
  reg  [3:0]  gh_cool;               // clocks until GHASH takes the next word (GR > 1)
  wire        aes_ready;             // ITER: the iterative AES is idle
  wire        hreq  = ir_v && ir_sop && ir_newkey && !h_started;   // H not yet started
  wire        hneed = ITER && hreq;
  wire        gh_wait = (GR > 1) && (gh_cool != 4'd0);
  wire        ir_ctr;
  // ITER = 0 with GR > 1 (GH = 4..6 beside the pipelined AES): the word also waits for GHASH;
  // the H engine is started once (h_started), the word may leave in the start clock
  wire        hold = ITER ? (ir_v && (hneed || gh_wait || (ir_ctr && !aes_ready)))
                   : (GR == 1) ? (ir_v && ir_sop && ir_newkey && !eng_ready)
                   : (ir_v && ((hreq && !eng_ready) || gh_wait));
  wire        inject_ivlen = ir_v && ir_kind == K_IV && ir_last && !hold;
  wire        y0_capture;            // X Reg holds GHASH(H,{},IV) this cycle
  wire        in_is_ctr = (in_kind == K_DATA) || (in_kind == K_END);
`ifdef GCM_RREADY
  // FPGA experiment (cores whose Input Reg words are GR > 1 clocks apart): a word is accepted
  // only into an empty Input Reg, so in_ready and the port registers' load enable come from
  // flip-flops instead of through the hold logic; no clock is lost when GR > 1
  assign in_ready = !rst && !ir_v
`else
  assign in_ready = !rst && !hold && !inject_ivlen
`endif
                    && !(y0_pending && in_is_ctr)
                    && !(in_sop && !in_iv96 && y0_pending);
  wire        acc = in_valid && in_ready;
  wire        mode_dec = (MODE == 1) ? 1'b1 : (MODE == 0) ? 1'b0 : in_dec;

  generate if (!ITER) begin : heng
  aes_iter #(.SPLIT(SPLIT >= 2 ? 2 : SPLIT ? 1 : 0)) engine (.clk(clk), .rst(rst), .start((GR == 1) ? (ir_v && ir_sop && ir_newkey) : hreq),
                   .blk(128'd0),
                   .key(ir_key), .ready(eng_ready), .done(eng_done), .dout(h_new),
                   .rkey(eng_rkey), .rkey_n(eng_rkey_n));
  end else begin : nheng
    assign eng_ready = 1'b1;
    assign eng_done = 1'b0;
  end endgenerate

  always @(posedge clk) begin
    if (rst) begin
      ir_v <= 1'b0; lastkey_v <= 1'b0; y0_pending <= 1'b0;
`ifdef GCM_RREADY
    end else begin
      if (acc) begin                                      // into the empty Input Reg
        ir_v <= 1'b1;
        ir_kind <= in_kind; ir_data <= in_data; ir_bytes <= in_bytes; ir_last <= in_last;
        ir_sop <= in_sop; ir_blk <= blk_next;
        if (in_sop) begin
          ir_key <= in_key; ir_iv <= in_iv; ir_iv96 <= in_iv96; ir_dec <= mode_dec;
          ir_taglen <= in_taglen; ir_newkey <= newkey;
          lastkey <= in_key; lastkey_v <= 1'b1;
        end
      end else if (inject_ivlen) begin
        ir_v <= 1'b1; ir_kind <= K_IVLEN; ir_sop <= 1'b0; ir_last <= 1'b0; ir_bytes <= 5'd16;
      end else if (ir_v && !hold) begin
        ir_v <= 1'b0;                                     // the word left
      end
      if (acc && in_sop && !in_iv96) y0_pending <= 1'b1;
      else if (y0_capture) y0_pending <= 1'b0;
    end
`else
    end else begin
      if (hold) begin
        // keep the Input Reg
      end else if (inject_ivlen) begin
        // the length block of the IV hash: 0^64 || len(IV) (filled in by the Len Reg)
        ir_v <= 1'b1; ir_kind <= K_IVLEN; ir_sop <= 1'b0; ir_last <= 1'b0; ir_bytes <= 5'd16;
      end else begin
        ir_v <= acc;
        if (acc) begin
          ir_kind <= in_kind; ir_data <= in_data; ir_bytes <= in_bytes; ir_last <= in_last;
          ir_sop <= in_sop; ir_blk <= blk_next;
          if (in_sop) begin
            ir_key <= in_key; ir_iv <= in_iv; ir_iv96 <= in_iv96; ir_dec <= mode_dec;
            ir_taglen <= in_taglen; ir_newkey <= newkey;
            lastkey <= in_key; lastkey_v <= 1'b1;
          end
        end
      end
      if (acc && in_sop && !in_iv96) y0_pending <= 1'b1;
      else if (y0_capture) y0_pending <= 1'b0;
    end
`endif
    if (rst || (ir_v && !hold)) h_started <= 1'b0;        // ITER: the H job of this packet
    else if (hreq && (ITER ? aes_ready : eng_ready)) h_started <= 1'b1;
    if (rst) gh_cool <= 4'd0;                             // GHASH spacing (GR > 1)
    else if (ir_v && !hold) gh_cool <= GR - 1;
    else if (gh_cool != 4'd0) gh_cool <= gh_cool - 4'd1;
  end

  // ------------------------------------------------------------------ counter (MUX1)
  // The counter block of each word is chosen when the word is accepted and held in the
  // Input Reg (ir_blk), so only the key XOR stands between the Input Reg and AES round 1.
  // DATA words take Y1, Y2, ... (Y_i = incr(Y_{i-1}), incr on the rightmost 32 bits), the END
  // word takes Y0. Y0 = IV || 0^31 1 for 96-bit IVs, else GHASH(H, {}, IV) from X Reg.
  reg  [127:0] y0_reg, y1_reg, ctr_reg;   // Y0, Y1 = incr(Y0), next counter of the packet
  reg          fd_reg;                    // the next DATA word is the first of its packet
  reg          dec_reg;
  reg  [4:0]   taglen_reg;
  wire [127:0] x_reg_out;
  wire [127:0] y0_in   = (in_sop && in_iv96) ? {in_iv, 32'd1} : y0_reg;
  wire [127:0] y1_in   = (in_sop && in_iv96) ? {in_iv, 32'd2} : y1_reg;
  wire         fd_in   = in_sop ? 1'b1 : fd_reg;
  wire [127:0] ctr_in  = fd_in ? y1_in : ctr_reg;
  wire [127:0] blk_next = (in_kind == K_END) ? y0_in : ctr_in;
  assign       ir_ctr  = ir_v && (ir_kind == K_DATA || ir_kind == K_END);
  wire         pkt_dec = ir_sop ? ir_dec : dec_reg;
  wire [4:0]   pkt_taglen = ir_sop ? ir_taglen : taglen_reg;
  wire         pkt_newkey = ir_sop ? ir_newkey : 1'b0;

  always @(posedge clk) begin
    if (ir_v) begin
      dec_reg <= pkt_dec; taglen_reg <= pkt_taglen;
    end
    if (acc) begin
      fd_reg <= (in_kind == K_DATA) ? 1'b0 : fd_in;
      if (in_kind == K_DATA) ctr_reg <= incr32(ctr_in);
    end
    if (y0_capture) begin                                 // MUX1: Y0 from X Reg
      y0_reg <= x_reg_out; y1_reg <= incr32(x_reg_out);
    end else if (acc && in_sop && in_iv96) begin          // MUX1: Y0 = IV || 0^31 1
      y0_reg <= {in_iv, 32'd1}; y1_reg <= {in_iv, 32'd2};
    end
  end

  // ------------------------------------------------------------------ pipelined AES
  wire         ks_v;
  wire [127:0] ks;
  generate if (!ITER && SPLIT == 3) begin : piperk
  aes_pipe_bram #(.RK(1)) aes (.clk(clk), .rst(rst), .vin(ir_ctr && !hold), .blk(ir_blk), .key(ir_key),
                .rkey(eng_rkey), .rkey_n(eng_rkey_n), .vout(ks_v), .dout(ks));
  assign aes_ready = 1'b1;
  end else if (!ITER && SPLIT == 2) begin : pipeb
  aes_pipe_bram aes (.clk(clk), .rst(rst), .vin(ir_ctr && !hold), .blk(ir_blk), .key(ir_key),
                .rkey(128'd0), .rkey_n(4'd0), .vout(ks_v), .dout(ks));
  assign aes_ready = 1'b1;
  end else if (!ITER) begin : pipe
  aes_pipe #(.SPLIT(SPLIT)) aes (.clk(clk), .rst(rst), .vin(ir_ctr && !hold), .blk(ir_blk), .key(ir_key),
                .vout(ks_v), .dout(ks));
  assign aes_ready = 1'b1;
  end else begin : iter
    // ITER: the iterative AES, started for H = E(K,0^128) (hneed) or for the Input Reg's
    // counter block when it leaves the Input Reg; E(K,Yi) is on dout from TA clocks after
    // the start until the next job ends, so it is there when the word leaves the FIFO.
    // H is kept in h_iter until the packet's first word loads it into the GHASH H Reg.
    wire         a_done;
    wire [127:0] a_out;
    reg          job_h;                                  // the running job computes H
    reg  [127:0] h_iter;
    aes_iter #(.SPLIT(SPLIT)) aes (.clk(clk), .rst(rst), .start(hneed || (ir_ctr && !hold)),
                .blk(hneed ? 128'd0 : ir_blk), .key(ir_key), .ready(aes_ready), .done(a_done), .dout(a_out));
    always @(posedge clk) begin
      if (aes_ready && (hneed || (ir_ctr && !hold))) job_h <= hneed;
      if (a_done && job_h) h_iter <= a_out;
    end
    assign ks = a_out;
    assign ks_v = 1'b0;
    assign h_new = h_iter;
  end endgenerate

  // ------------------------------------------------------------------ FIFO
  // The packet words wait here while their counter blocks go through the AES pipeline:
  // a constant-occupancy FIFO of FIFO_DEPTH entries (write and read every clock).
  localparam integer FW = 1 + 3 + 5 + 1 + 1 + 5 + 1 + 128;
  wire [FW-1:0] fifo_in = {ir_v && !hold, ir_kind, ir_bytes, ir_sop, pkt_dec, pkt_taglen, pkt_newkey, ir_data};
  genvar gi;
  generate for (gi = 0; gi < FIFO_DEPTH; gi = gi + 1) begin : fifo
    reg [FW-1:0] e;
    wire [FW-1:0] d;
    if (gi == 0) begin : wr
      assign d = fifo_in;
    end else begin : sh
      assign d = fifo[gi-1].e;
    end
    always @(posedge clk) begin
      e[FW-2:0] <= d[FW-2:0];
      e[FW-1]   <= rst ? 1'b0 : d[FW-1];                  // only the valid bit is reset
    end
  end endgenerate
  wire [FW-1:0] fo = fifo[FIFO_DEPTH-1].e;
  wire          fo_v      = fo[FW-1];
  wire [2:0]    fo_kind   = fo[FW-2 -: 3];
  wire [4:0]    fo_bytes  = fo[FW-5 -: 5];
  wire          fo_sop    = fo[FW-10];
  wire          fo_dec    = (MODE == 2) ? fo[FW-11] : (MODE == 1);   // constant in the single-mode cores
  wire [4:0]    fo_taglen = fo[FW-12 -: 5];
  wire          fo_newkey = fo[FW-17];
  wire [127:0]  fo_data   = fo[127:0];

  // ------------------------------------------------------------------ H register
  wire h_load = fo_v && fo_sop && fo_newkey;               // H Reg of the GHASH core

  // ------------------------------------------------------------------ stream xor, MUX2, Len Reg
  wire [127:0] mask    = bytemask(fo_bytes);
  wire [127:0] xored   = (fo_data ^ ks) & mask;          // C = P xor E(K,Yi)  /  P = C xor E(K,Yi)
  wire [127:0] in_mask = fo_data & mask;
  reg  [63:0]  alen, clen, ivlen;                         // Len Reg (bits)
  wire [63:0]  alen_c  = fo_sop ? 64'd0 : alen;
  wire [63:0]  clen_c  = fo_sop ? 64'd0 : clen;
  wire [63:0]  ivlen_c = fo_sop ? 64'd0 : ivlen;
  wire [63:0]  nbits   = {56'd0, fo_bytes, 3'd0};
  reg          after_ivlen;
  reg          ac_v, ac_end, ac_ivlen;
  reg  [127:0] mux2;                                      // MUX2 output (-> AC Reg)
  reg          c_v;
  reg  [1:0]   c_kind;
  reg  [4:0]   c_bytes;
  reg  [127:0] c_data;                                    // C Reg
  reg  [127:0] ey0_reg, tagin_reg;                        // E(K,Y0) Reg, received tag
  reg  [4:0]   t_len;
  reg          t_dec;

  always @(posedge clk) begin
    if (rst) begin
      ac_v <= 1'b0; c_v <= 1'b0; after_ivlen <= 1'b0;
    end else begin
      ac_v <= fo_v;
      c_v  <= fo_v && (fo_kind == K_AAD || fo_kind == K_DATA);
      if (fo_v) after_ivlen <= (fo_kind == K_IVLEN);
    end
    if (fo_v) begin
      alen  <= alen_c  + ((fo_kind == K_AAD)  ? nbits : 64'd0);
      clen  <= clen_c  + ((fo_kind == K_DATA) ? nbits : 64'd0);
      ivlen <= ivlen_c + ((fo_kind == K_IV)   ? nbits : 64'd0);
      ac_end <= (fo_kind == K_END);
      ac_ivlen <= (fo_kind == K_IVLEN);
      c_kind  <= (fo_kind == K_DATA) ? O_DATA : O_AAD;
      c_bytes <= fo_bytes;
      c_data  <= (fo_kind == K_DATA) ? xored : in_mask;
      if (fo_kind == K_END) begin
        ey0_reg <= ks; tagin_reg <= fo_data; t_len <= fo_taglen; t_dec <= fo_dec;
      end
    end
  end

  always @* begin
    case (fo_kind)                                        // MUX2
      K_DATA:  mux2 = fo_dec ? in_mask : xored;           // GHASH always on the ciphertext
      K_END:   mux2 = {alen_c, clen_c};                   // len(A) || len(C)
      K_IVLEN: mux2 = {64'd0, ivlen_c};                   // 0^64 || len(IV)
      default: mux2 = in_mask;                            // AAD, IV words (zero padded)
    endcase
  end

  // ------------------------------------------------------------------ GHASH (Figure 2)
  wire [127:0] x_reg;                                     // X Reg
  wire         x_v;
  reg          x_end, x_ivlen;
  wire         gh_in_hs = fo_sop || after_ivlen;
  generate
    if (GH == 0) begin : gh1
      ghash gh (.clk(clk), .rst(rst), .in_v(fo_v), .in_hs(gh_in_hs), .in_data(mux2),
                .h_load(h_load), .h_in(h_new), .x_out(x_reg), .x_v(x_v));
    end else begin : gheo
      ghash_eo #(.ARCH(GH == 10 ? 7 : GH == 9 ? 6 : GH == 8 ? 5 : GH == 7 ? 4 : GH == 6 ? 3 : GH >= 3 ? 2 : GH - 1), .D(GH >= 5 ? 16 : GH == 4 ? 32 : 64)) gh (.clk(clk), .rst(rst), .in_v(fo_v), .in_hs(gh_in_hs),
                .in_last(fo_kind == K_END || fo_kind == K_IVLEN), .in_data(mux2), .in_ready(),
                .h_load(h_load), .h_in(h_new), .x_out(x_reg), .x_v(x_v));
    end
  endgenerate
  // with GL = 2 the hash is ready one clock later: the data words, the tag inputs and the
  // END / IVLEN flags wait one more clock (C2 Reg) so that the tag still follows the data
  wire         c2_v;
  wire [1:0]   c2_kind;
  wire [4:0]   c2_bytes;
  wire [127:0] c2_data, ey0_c2, tagin_c2;
  wire [4:0]   t_len_c2;
  wire         t_dec_c2, ac2_end, ac2_ivlen;
  generate
    if (GL == 1) begin : nodly
      assign {c2_v, c2_kind, c2_bytes, c2_data, ey0_c2, tagin_c2, t_len_c2, t_dec_c2} =
             {c_v, c_kind, c_bytes, c_data, ey0_reg, tagin_reg, t_len, t_dec};
      assign ac2_end = ac_v && ac_end;
      assign ac2_ivlen = ac_v && ac_ivlen;
    end else if (GL > 2) begin : dlyn
      // GL - 1 clocks for the data words and the END / IVLEN flags; E(K,Y0), the received
      // tag and its length stay in their registers (END words are TA >= GL clocks apart)
      reg          r_v [1:GL-1];
      reg          r_end [1:GL-1];
      reg          r_ivlen [1:GL-1];
      reg  [1:0]   r_kind [1:GL-1];
      reg  [4:0]   r_bytes [1:GL-1];
      reg  [127:0] r_data [1:GL-1];
      integer k;
      always @(posedge clk) begin
        if (rst) begin
          for (k = 1; k < GL; k = k + 1) begin r_v[k] <= 1'b0; r_end[k] <= 1'b0; r_ivlen[k] <= 1'b0; end
        end else begin
          r_v[1] <= c_v; r_end[1] <= ac_v && ac_end; r_ivlen[1] <= ac_v && ac_ivlen;
          for (k = 2; k < GL; k = k + 1) begin r_v[k] <= r_v[k-1]; r_end[k] <= r_end[k-1]; r_ivlen[k] <= r_ivlen[k-1]; end
        end
        r_kind[1] <= c_kind; r_bytes[1] <= c_bytes; r_data[1] <= c_data;
        for (k = 2; k < GL; k = k + 1) begin
          r_kind[k] <= r_kind[k-1]; r_bytes[k] <= r_bytes[k-1]; r_data[k] <= r_data[k-1];
        end
      end
      if (ITER) begin : nd
        assign {c2_v, c2_kind, c2_bytes, c2_data, ey0_c2, tagin_c2, t_len_c2, t_dec_c2} =
               {r_v[GL-1], r_kind[GL-1], r_bytes[GL-1], r_data[GL-1], ey0_reg, tagin_reg, t_len, t_dec};
      end else begin : dd                                 // ITER = 0: END words only GR apart
        reg  [127:0] r_ey0 [1:GL-1];
        reg  [127:0] r_tagin [1:GL-1];
        reg  [4:0]   r_tlen [1:GL-1];
        reg          r_tdec [1:GL-1];
        integer j;
        always @(posedge clk) begin
          r_ey0[1] <= ey0_reg; r_tagin[1] <= tagin_reg; r_tlen[1] <= t_len; r_tdec[1] <= t_dec;
          for (j = 2; j < GL; j = j + 1) begin
            r_ey0[j] <= r_ey0[j-1]; r_tagin[j] <= r_tagin[j-1]; r_tlen[j] <= r_tlen[j-1]; r_tdec[j] <= r_tdec[j-1];
          end
        end
        assign {c2_v, c2_kind, c2_bytes, c2_data, ey0_c2, tagin_c2, t_len_c2, t_dec_c2} =
               {r_v[GL-1], r_kind[GL-1], r_bytes[GL-1], r_data[GL-1], r_ey0[GL-1], r_tagin[GL-1], r_tlen[GL-1],
                r_tdec[GL-1]};
      end
      assign ac2_end = r_end[GL-1];
      assign ac2_ivlen = r_ivlen[GL-1];
    end else begin : dly
      reg          r_v, r_end, r_ivlen;
      reg  [1:0]   r_kind;
      reg  [4:0]   r_bytes, r_tlen;
      reg  [127:0] r_data, r_ey0, r_tagin;
      reg          r_tdec;
      always @(posedge clk) begin
        if (rst) begin r_v <= 1'b0; r_end <= 1'b0; r_ivlen <= 1'b0; end
        else begin r_v <= c_v; r_end <= ac_v && ac_end; r_ivlen <= ac_v && ac_ivlen; end
        r_kind <= c_kind; r_bytes <= c_bytes; r_data <= c_data;
        r_ey0 <= ey0_reg; r_tagin <= tagin_reg; r_tlen <= t_len; r_tdec <= t_dec;
      end
      assign {c2_v, c2_kind, c2_bytes, c2_data, ey0_c2, tagin_c2, t_len_c2, t_dec_c2} =
             {r_v, r_kind, r_bytes, r_data, r_ey0, r_tagin, r_tlen, r_tdec};
      assign ac2_end = r_end;
      assign ac2_ivlen = r_ivlen;
    end
  endgenerate
  reg          d_v;                                       // alignment register after C Reg
  reg  [1:0]   d_kind;
  reg  [4:0]   d_bytes;
  reg  [127:0] d_data;
  reg  [127:0] ey0_d, tagin_d;
  reg  [4:0]   t_len_d;
  reg          t_dec_d;
  always @(posedge clk) begin
    if (rst) begin
      x_end <= 1'b0; x_ivlen <= 1'b0; d_v <= 1'b0;
    end else begin
      x_end <= ac2_end;
      x_ivlen <= ac2_ivlen;
      d_v <= c2_v;
    end
    d_kind <= c2_kind; d_bytes <= c2_bytes; d_data <= c2_data;
    ey0_d <= ey0_c2; tagin_d <= tagin_c2; t_len_d <= t_len_c2; t_dec_d <= t_dec_c2;
  end
  assign x_reg_out  = x_reg;
  assign y0_capture = x_ivlen;

  // ------------------------------------------------------------------ tag, comparator, MUX3
  wire [127:0] tmask = bytemask(t_len_d);
  wire [127:0] tag   = (x_reg ^ ey0_d) & tmask;           // MSB_t(GHASH xor E(K,Y0))
  wire         fail  = ((tag ^ tagin_d) & tmask) != 128'd0;
  always @(posedge clk) begin
    if (rst) begin
      out_valid <= 1'b0;
    end else begin
      out_valid <= x_end || d_v;
    end
    if (x_end) begin                                      // MUX3: tag
      // the computed tag leaves the core only when encrypting: a decryptor that showed it
      // would hand out the right tag for any forged packet
      out_kind <= O_TAG; out_data <= t_dec_d ? 128'd0 : tag; out_bytes <= t_len_d;
      out_fail <= (MODE == 0) ? 1'b0 : (t_dec_d && fail);
    end else begin                                        // MUX3: AAD / data
      out_kind <= d_kind; out_data <= d_data; out_bytes <= d_bytes; out_fail <= 1'b0;
    end
  end
endmodule
