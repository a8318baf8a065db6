//! Stitched AES-GCM for aarch64: AES-CTR with `AESE`/`AESMC` on eight
//! blocks, round by round, with the PMULL products of eight blocks of
//! ciphertext placed between the rounds, for the `pmull` and `pmull_eor3`
//! GHASH keys with the `armv8` AES key schedule.
//!
//! It lives beside the x86 kernels but does not use their `Lanes`/
//! `AesLanes` template: that template is written for the `gf128::wide`
//! field code (powers premultiplied by x^-1, reduction per 4 KiB group),
//! while this kernel reuses the PMULL field code of `gf128::pmull`
//! (twisted powers, Montgomery reduction per batch, its macros exported for
//! this file). The structure is that of the x86 stitched kernels: sealing hashes the
//! previous batch's ciphertext while it encrypts the next batch's counters
//! (its own ciphertext is not ready yet); opening hashes the batch it
//! decrypts, read before it is overwritten. The GHASH arithmetic is the
//! 8-block aggregated Karatsuba of `gf128/aarch64/pmull.rs` (one reduction per
//! batch); after round 2k+1 (k = 0..3) one pair of blocks is multiplied in,
//! the reduction follows the last round. The AES chain (eight independent
//! blocks, `AESE`+`AESMC` fused on most cores) and the GHASH chain share
//! no data, so the core overlaps the AES and PMULL pipes.
//!
//! Counters are Y0 with the low 32 bits counting modulo 2^32 (GCM's inc32);
//! no branch depends on them or on any secret. Lengths below one batch,
//! and the tail, go through a zero-padded 128-byte stack block (wiped).
//! AES-128/192/256 are three instantiations (NR = 10, 12, 14); the GCM
//! layer computes Y0 for every IV length and passes it in.
//!
//! AES-128 with EOR3 (the `pmull_eor3` key) runs its full batches, after
//! the first when sealing, in hand-scheduled assembly instead
//! ([`batches128_eor3`]): the same batch structure, rounds and one
//! reduction per batch, but the blocks hashed in `REV64` order against
//! powers with swapped halves, the Karatsuba middle operands of two blocks
//! formed together, a reduction that keeps the middle term whole, and
//! counter blocks loaded from memory, all to spend fewer vector-pipe µops
//! beside the AES and PMULL ones (its documentation and docs/speed.md,
//! aarch64). The GHASH result is the same field element. The plain `pmull`
//! kernel and AES-192/256 keep the intrinsics.
//!
//! Soundness: the functions enable `neon,aes` (and `sha3` for EOR3).
//! [`super::Kernel`] calls them only for a `pmull` (`pmull_eor3`) GHASH key,
//! which exists only where PMULL (and SHA3) were detected, and with an
//! [`AesRoundKeys`], which on aarch64 only `aes::armv8::Armv8::new` builds,
//! after it detected FEAT_AES.

use crate::block::round_keys::AesRoundKeys;
use crate::gcm::kernels::KernelMsg;
use crate::gf128::pmull::{
    absorb8, absorb_eor3, absorb_neon, block_products, pair, reduce, xor3, Powers, K, N, REV,
};
use core::arch::aarch64::*;
use zeroize::Zeroize;

/// Bytes per batch.
const BATCH: usize = 16 * N;

/// One full AES round (`AESE` with round key `r`, then `AESMC`) on the
/// eight states.
macro_rules! round8 {
    ($s:ident, $k:ident, $r:expr) => {{
        let k = $k[$r];
        $s[0] = vaesmcq_u8(vaeseq_u8($s[0], k));
        $s[1] = vaesmcq_u8(vaeseq_u8($s[1], k));
        $s[2] = vaesmcq_u8(vaeseq_u8($s[2], k));
        $s[3] = vaesmcq_u8(vaeseq_u8($s[3], k));
        $s[4] = vaesmcq_u8(vaeseq_u8($s[4], k));
        $s[5] = vaesmcq_u8(vaeseq_u8($s[5], k));
        $s[6] = vaesmcq_u8(vaeseq_u8($s[6], k));
        $s[7] = vaesmcq_u8(vaeseq_u8($s[7], k));
    }};
}

/// The first pair of a batch (blocks `$i`, `$i + 1`): its products start
/// the sums (no XOR with zero, which `EOR3` would not fold away).
macro_rules! pair_init {
    ($pw:expr, $yv:expr, $blocks:expr, $rev:expr, $i:expr, $lo:ident, $hi:ident, $mid:ident) => {{
        let (l0, h0, m0) = block_products!($pw, $yv, $blocks, N, $rev, $i);
        let (l1, h1, m1) = block_products!($pw, $yv, $blocks, N, $rev, $i + 1);
        $lo = veorq_u8(l0, l1);
        $hi = veorq_u8(h0, h1);
        $mid = veorq_u8(m0, m1);
    }};
}

/// The keystream of eight counter blocks `$s` under NR rounds; if
/// `$hash` is `Some(p)`, the eight blocks at `p` are absorbed into `$yv`
/// between the rounds (one reduction). Evaluates to the keystream.
macro_rules! stitched8 {
    ($pw:expr, $k:ident, $nr:expr, $s:ident, $yv:ident, $hash:expr, $rev:expr, $xor3:path) => {{
        let nr: usize = $nr;
        let hash: Option<*const u8> = $hash;
        let zero = vdupq_n_u8(0);
        let (mut lo, mut hi, mut mid) = (zero, zero, zero);
        let hp = hash.unwrap_or(core::ptr::null());
        // Rounds 0..nr-2 are full; the pairs go after rounds 1, 3, 5, 7
        // (every AES variant has at least nine full rounds).
        round8!($s, $k, 0);
        round8!($s, $k, 1);
        if hash.is_some() {
            pair_init!($pw, $yv, hp, $rev, 2, lo, hi, mid);
        }
        round8!($s, $k, 2);
        round8!($s, $k, 3);
        if hash.is_some() {
            pair!($pw, $yv, hp, N, $rev, 4, $xor3, lo, hi, mid);
        }
        round8!($s, $k, 4);
        round8!($s, $k, 5);
        if hash.is_some() {
            pair!($pw, $yv, hp, N, $rev, 6, $xor3, lo, hi, mid);
        }
        round8!($s, $k, 6);
        round8!($s, $k, 7);
        if hash.is_some() {
            // The pair holding the accumulator last, as in absorb8.
            pair!($pw, $yv, hp, N, $rev, 0, $xor3, lo, hi, mid);
        }
        round8!($s, $k, 8);
        if nr > 10 {
            round8!($s, $k, 9);
            round8!($s, $k, 10);
        }
        if nr > 12 {
            round8!($s, $k, 11);
            round8!($s, $k, 12);
        }
        if hash.is_some() {
            $yv = reduce!(lo, hi, mid, $xor3);
        }
        let (kp, kl) = ($k[nr - 1], $k[nr]);
        [
            veorq_u8(vaeseq_u8($s[0], kp), kl),
            veorq_u8(vaeseq_u8($s[1], kp), kl),
            veorq_u8(vaeseq_u8($s[2], kp), kl),
            veorq_u8(vaeseq_u8($s[3], kp), kl),
            veorq_u8(vaeseq_u8($s[4], kp), kl),
            veorq_u8(vaeseq_u8($s[5], kp), kl),
            veorq_u8(vaeseq_u8($s[6], kp), kl),
            veorq_u8(vaeseq_u8($s[7], kp), kl),
        ]
    }};
}

/// Y0 in a 16-byte aligned local, read once per counter block.
#[repr(C, align(16))]
struct Y0Block([u8; 16]);

/// Counter blocks `first .. first + 8` (inc32 of Y0). Each block is Y0
/// loaded afresh from `$y0` (a [`Y0Block`]) with its counter word
/// inserted. The volatile load keeps LLVM from hoisting Y0 into a register
/// and copying it per block: the copy is a vector-pipe µop, the load a
/// load-pipe one, and the loop is bound by the vector pipes (docs/speed.md,
/// aarch64). Building the words with vector adds instead measured worse
/// (register pressure: LLVM added moves).
macro_rules! counters {
    ($y0:expr, $base:expr, $first:expr) => {{
        let y0: &Y0Block = $y0;
        let c = |i: u32| {
            let v = ($base as u32)
                .wrapping_add($first)
                .wrapping_add(i)
                .swap_bytes();
            // (In the callers' `unsafe`: `y0` is a live, 16-byte aligned
            // 16-byte local.)
            let t: uint32x4_t = core::ptr::read_volatile((y0 as *const Y0Block).cast());
            vreinterpretq_u8_u32(vsetq_lane_u32::<3>(v, t))
        };
        [c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7)]
    }};
}

/// `dst[j] = src[j] ^ ks[j]` for the eight blocks of a batch; every load
/// before the first store (in place, src == dst).
macro_rules! xor_batch {
    ($src:expr, $dst:expr, $ks:expr) => {{
        let (sp, dp): (*const u8, *mut u8) = ($src, $dst);
        let ks = $ks;
        let m = [
            vld1q_u8(sp),
            vld1q_u8(sp.add(16)),
            vld1q_u8(sp.add(32)),
            vld1q_u8(sp.add(48)),
            vld1q_u8(sp.add(64)),
            vld1q_u8(sp.add(80)),
            vld1q_u8(sp.add(96)),
            vld1q_u8(sp.add(112)),
        ];
        for j in 0..8 {
            vst1q_u8(dp.add(16 * j), veorq_u8(m[j], ks[j]));
        }
    }};
}

/// Powers of H with their halves swapped, [h.hi, h.lo] (see
/// [`batches128_eor3`]); built once per call, wiped.
#[repr(C, align(16))]
struct Swapped([uint8x16_t; N]);

/// Eight counter blocks in memory (Y0 with the counter word), 16-byte
/// aligned, for [`batches128_eor3`].
#[repr(C, align(16))]
struct Ctr8([[u8; 16]; 8]);

/// For [`batches128_eor3`]'s template: the counter word of block `$i`
/// of the next batch (w + i, byte-reversed) stored at byte `$off` of the
/// counter blocks.
macro_rules! ctr_word_asm {
    ($i:literal, $off:literal) => {
        concat!(
            "add {t:w}, {w:w}, #",
            $i,
            "\n",
            "rev {t:w}, {t:w}\n",
            "str {t:w}, [{ctr}, #",
            $off,
            "]\n",
        )
    };
}

/// For [`batches128_eor3`]'s template: AES round `$k` (`AESE` with round
/// key v$k, then `AESMC`) on the eight states v16-v23.
macro_rules! round8_asm {
    ($k:literal) => {
        concat!(
            "// round ",
            $k,
            "\n",
            "aese v16.16b, v",
            $k,
            ".16b\n",
            "aesmc v16.16b, v16.16b\n",
            "aese v17.16b, v",
            $k,
            ".16b\n",
            "aesmc v17.16b, v17.16b\n",
            "aese v18.16b, v",
            $k,
            ".16b\n",
            "aesmc v18.16b, v18.16b\n",
            "aese v19.16b, v",
            $k,
            ".16b\n",
            "aesmc v19.16b, v19.16b\n",
            "aese v20.16b, v",
            $k,
            ".16b\n",
            "aesmc v20.16b, v20.16b\n",
            "aese v21.16b, v",
            $k,
            ".16b\n",
            "aesmc v21.16b, v21.16b\n",
            "aese v22.16b, v",
            $k,
            ".16b\n",
            "aesmc v22.16b, v22.16b\n",
            "aese v23.16b, v",
            $k,
            ".16b\n",
            "aesmc v23.16b, v23.16b\n",
        )
    };
}

/// For [`pair_asm`]: sum `v$d` = v28 ^ v29 (`start`) or ^= v28 ^ v29
/// (`add`, one EOR3).
macro_rules! sum_asm {
    (start, $d:literal) => {
        concat!("eor v", $d, ".16b, v28.16b, v29.16b\n")
    };
    (add, $d:literal) => {
        concat!("eor3 v", $d, ".16b, v", $d, ".16b, v28.16b, v29.16b\n")
    };
}

/// For [`batches128_eor3`]'s template: the Karatsuba products of two
/// blocks of the hashed batch (bytes `$hp` of `{hp}`, each half
/// byte-reversed by REV64, then the `$acc` lines) against two swapped
/// powers (bytes `$pw` of `{sw}`) and their middle operands (of `{kar}`),
/// into the sums lo, hi, mid (v12-v14), started (`start`) or added to
/// (`add`).
macro_rules! pair_asm {
    ($sum:tt, $hp:literal, $pw:literal, $acc:literal) => {
        concat!(
            "ldp q24, q25, [{hp}, #",
            $hp,
            "]\n",
            "rev64 v24.16b, v24.16b\n",
            "rev64 v25.16b, v25.16b\n",
            $acc,
            "ldp q26, q27, [{sw}, #",
            $pw,
            "]\n",
            "pmull2 v28.1q, v24.2d, v27.2d\n",
            "pmull2 v29.1q, v25.2d, v26.2d\n",
            sum_asm!($sum, "12"),
            "pmull v28.1q, v24.1d, v27.1d\n",
            "pmull v29.1q, v25.1d, v26.1d\n",
            sum_asm!($sum, "13"),
            "trn1 v28.2d, v24.2d, v25.2d\n",
            "trn2 v29.2d, v24.2d, v25.2d\n",
            "eor v28.16b, v28.16b, v29.16b\n",
            "ldp q26, q27, [{kar}, #",
            $pw,
            "]\n",
            "pmull v29.1q, v28.1d, v27.1d\n",
            "pmull2 v28.1q, v28.2d, v26.2d\n",
            sum_asm!($sum, "14"),
        )
    };
}

/// `n` AES-128-GCM batches of the EOR3 kernel in hand-scheduled assembly:
/// batch j (j = 0..n) encrypts (or decrypts) the counter blocks
/// `first + 8j ..` of `y0` (inc32 of its low word) XOR the 128 bytes at
/// `src + 128j` into `dst + 128j`, and absorbs the 128 bytes at
/// `hp + 128j` into `yv` with one reduction. Sealing passes the previous
/// batch's ciphertext as `hp` (`dst - 128`), opening the batch itself
/// (`src`).
///
/// Why assembly: llvm-mca's Neoverse V1 model runs the stitched loop at
/// the limit of its four vector pipes, so every vector µop that is not an
/// `AESE`/`AESMC`/`PMULL` costs time, and with intrinsics LLVM adds
/// register copies and decides the data movement itself (docs/speed.md,
/// aarch64). Per batch here, beside the 80 `AESE`, 72 `AESMC` and 26
/// `PMULL`/`PMULL2`, are 51 vector µops (llvm-mca's V1 model: 229 / 4 =
/// 57.25 cycles per batch against its 57.3):
/// - the counter blocks are vector loads of a [`Ctr8`] whose counter words
///   the batch before wrote with general-register stores (load and store
///   pipes, no vector µop; the stores are one batch, about 250
///   instructions, ahead of their loads, so that on hardware they have
///   left the store buffer: a 16-byte load from a pending 4-byte store is
///   in general not forwarded);
/// - a hashed block is taken as r = REV64(block) = [x.hi, x.lo] (x the
///   byte-reversed block, the field element of `gf128/aarch64/pmull.rs`), so with
///   the swapped power sw = [h.hi, h.lo], x.lo h.lo = `PMULL2`(r, sw) and
///   x.hi h.hi = `PMULL`(r, sw); the Karatsuba middle operands of two
///   blocks come from one `TRN1`, `TRN2`, `EOR` as
///   [ra.lo ^ ra.hi, rb.lo ^ rb.hi], multiplied by the precomputed
///   h.lo ^ h.hi of the two powers (lane 0 by `PMULL`, lane 1 by `PMULL2`);
///   the accumulator is kept as [Y.hi, Y.lo] and XORed into r of block 0;
/// - the Montgomery reduction of `gf128/aarch64/pmull.rs` rearranged so that the
///   Karatsuba middle term is never split into words: with
///   z = mid ^ lo ^ hi ^ T (T = lo.lo K) and w = lo ^ [z.hi, z.lo], the
///   reduced product is hi ^ w ^ w.hi K. (w.hi is the word d1 ^ T.lo that
///   `reduce!` multiplies, and w differs from its v only in the low word,
///   by the middle term's high half, which is the part of [d3 d2] that hi
///   lacks.) Then one `EXT` turns it into [Y.hi, Y.lo];
/// - the last round key and the message join the keystream in one `EOR3`
///   per block.
///
/// Registers: round keys v0-v10, the accumulator v11, the sums lo, hi,
/// mid v12-v14, [K, K] v15, the AES states v16-v23, scratch v24-v31. The
/// GHASH pairs follow AES rounds 1, 3, 5, 7 and the reduction round 8 (in
/// llvm-mca, every placement tried gave the same V1 time; this one keeps
/// Neoverse N1 at its bound).
///
/// Constant time: no branch or address depends on data; the only
/// addresses are the buffers, the power tables and the counter block.
///
/// # Safety
///
/// The CPU must have FEAT_AES, FEAT_PMULL and FEAT_SHA3; `k[0..=10]` are
/// the AES-128 round keys; for j < n, `hp + 128j` and `src + 128j` are
/// readable and `dst + 128j` writable for 128 bytes, `src` and `dst` are
/// equal or do not overlap, and `hp`'s bytes are not written by the batch
/// that reads them (the previous batch's output or the batch's own
/// input).
#[target_feature(enable = "neon,aes,sha3")]
#[allow(clippy::too_many_arguments)]
unsafe fn batches128_eor3(
    pw: &Powers,
    k: &[uint8x16_t; 15],
    y0: &[u8; 16],
    first: u32,
    yv: &mut uint8x16_t,
    mut hp: *const u8,
    mut src: *const u8,
    mut dst: *mut u8,
    n: usize,
) {
    // SAFETY: the features (# Safety); the intrinsics read the powers and
    // write locals; the asm reads 128 bytes at hp and src, writes 128 at
    // dst (# Safety), and reads and writes the locals `sw` (read), `ctr`.
    unsafe {
        let mut sw = Swapped([vdupq_n_u8(0); N]);
        for (p, h) in pw.tw.iter().enumerate() {
            let h = vld1q_u8((h as *const u128).cast());
            sw.0[p] = vextq_u8::<8>(h, h);
        }
        let base = u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]);
        let mut ctr = Ctr8([*y0; 8]);
        for (i, b) in ctr.0.iter_mut().enumerate() {
            let c = base.wrapping_add(first).wrapping_add(i as u32);
            b[12..].copy_from_slice(&c.to_be_bytes());
        }
        // The counter word of the next batch's first block (native order;
        // the asm byte-reverses it, as this module is little-endian only).
        let mut w = base.wrapping_add(first).wrapping_add(8);
        let kc = vreinterpretq_u8_u64(vdupq_n_u64(K));
        let mut ys = vextq_u8::<8>(*yv, *yv);
        let (swp, karp, cp) = (sw.0.as_ptr(), pw.kar.as_ptr(), &mut ctr as *mut Ctr8);
        for _ in 0..n {
            core::arch::asm!(
                "// this batch's counter blocks",
                "ldp q16, q17, [{ctr}]",
                "ldp q18, q19, [{ctr}, #32]",
                "ldp q20, q21, [{ctr}, #64]",
                "ldp q22, q23, [{ctr}, #96]",
                "// the next batch's counter words (general registers, store pipe)",
                ctr_word_asm!("0", "12"),
                ctr_word_asm!("1", "28"),
                ctr_word_asm!("2", "44"),
                ctr_word_asm!("3", "60"),
                ctr_word_asm!("4", "76"),
                ctr_word_asm!("5", "92"),
                ctr_word_asm!("6", "108"),
                ctr_word_asm!("7", "124"),
                round8_asm!("0"),
                round8_asm!("1"),
                "// GHASH: blocks 2, 3 of the hashed batch against H^6, H^5",
                pair_asm!(start, "32", "64", ""),
                round8_asm!("2"),
                round8_asm!("3"),
                "// GHASH: blocks 4, 5 of the hashed batch against H^4, H^3",
                pair_asm!(add, "64", "32", ""),
                round8_asm!("4"),
                round8_asm!("5"),
                "// GHASH: blocks 6, 7 of the hashed batch against H^2, H^1",
                pair_asm!(add, "96", "0", ""),
                round8_asm!("6"),
                round8_asm!("7"),
                "// GHASH: blocks 0, 1 of the hashed batch against H^8, H^7 (+ accumulator)",
                pair_asm!(add, "0", "96", "eor v24.16b, v24.16b, v11.16b\n"),
                round8_asm!("8"),
                "// GHASH: Montgomery reduction; the accumulator out as [Y.hi, Y.lo]",
                "pmull v28.1q, v12.1d, v15.1d",
                "eor3 v14.16b, v14.16b, v12.16b, v13.16b",
                "eor v14.16b, v14.16b, v28.16b",
                "ext v14.16b, v14.16b, v14.16b, #8",
                "eor v12.16b, v12.16b, v14.16b",
                "pmull2 v28.1q, v12.2d, v15.2d",
                "eor3 v13.16b, v13.16b, v12.16b, v28.16b",
                "ext v11.16b, v13.16b, v13.16b, #8",
                "// round 9, then keystream ^ round key 10 ^ message, stored",
                "ldp q24, q25, [{src}, #0]",
                "ldp q26, q27, [{src}, #32]",
                "ldp q28, q29, [{src}, #64]",
                "ldp q30, q31, [{src}, #96]",
                "aese v16.16b, v9.16b",
                "eor3 v16.16b, v16.16b, v10.16b, v24.16b",
                "aese v17.16b, v9.16b",
                "eor3 v17.16b, v17.16b, v10.16b, v25.16b",
                "aese v18.16b, v9.16b",
                "eor3 v18.16b, v18.16b, v10.16b, v26.16b",
                "aese v19.16b, v9.16b",
                "eor3 v19.16b, v19.16b, v10.16b, v27.16b",
                "aese v20.16b, v9.16b",
                "eor3 v20.16b, v20.16b, v10.16b, v28.16b",
                "aese v21.16b, v9.16b",
                "eor3 v21.16b, v21.16b, v10.16b, v29.16b",
                "aese v22.16b, v9.16b",
                "eor3 v22.16b, v22.16b, v10.16b, v30.16b",
                "aese v23.16b, v9.16b",
                "eor3 v23.16b, v23.16b, v10.16b, v31.16b",
                "stp q16, q17, [{dst}, #0]",
                "stp q18, q19, [{dst}, #32]",
                "stp q20, q21, [{dst}, #64]",
                "stp q22, q23, [{dst}, #96]",
                hp = in(reg) hp,
                sw = in(reg) swp,
                kar = in(reg) karp,
                ctr = in(reg) cp,
                src = in(reg) src,
                dst = in(reg) dst,
                w = in(reg) w,
                t = out(reg) _,
                in("v0") k[0],
                in("v1") k[1],
                in("v2") k[2],
                in("v3") k[3],
                in("v4") k[4],
                in("v5") k[5],
                in("v6") k[6],
                in("v7") k[7],
                in("v8") k[8],
                in("v9") k[9],
                in("v10") k[10],
                inout("v11") ys,
                out("v12") _,
                out("v13") _,
                out("v14") _,
                in("v15") kc,
                out("v16") _,
                out("v17") _,
                out("v18") _,
                out("v19") _,
                out("v20") _,
                out("v21") _,
                out("v22") _,
                out("v23") _,
                out("v24") _,
                out("v25") _,
                out("v26") _,
                out("v27") _,
                out("v28") _,
                out("v29") _,
                out("v30") _,
                out("v31") _,
                options(nostack, preserves_flags),
            );
            hp = hp.add(BATCH);
            src = src.add(BATCH);
            dst = dst.add(BATCH);
            w = w.wrapping_add(8);
        }
        *yv = vextq_u8::<8>(ys, ys);
        // The swapped powers are secret (powers of H).
        core::ptr::write_volatile(&mut sw, Swapped([vdupq_n_u8(0); N]));
    }
}

/// The hook of the EOR3 instantiation: AES-128 batches go through
/// [`batches128_eor3`]. Evaluates to the number of batches done.
macro_rules! asm128_eor3 {
    ($nr:expr, $pw:expr, $k:ident, $y0:expr, $first:expr, $yv:ident, $hp:expr, $src:expr,
     $dst:expr, $n:expr) => {{
        let n: usize = $n;
        if $nr == 10 && n > 0 {
            batches128_eor3($pw, &$k, $y0, $first, &mut $yv, $hp, $src, $dst, n);
            n
        } else {
            0
        }
    }};
}

/// The hook of the plain NEON instantiation: no assembly path.
macro_rules! no_asm {
    ($($t:tt)*) => {
        0usize
    };
}

macro_rules! gcm_fns {
    ($(#[$attr:meta])* $m:ident, $absorb:ident, $xor3:path, $asm:ident) => {
    mod $m {
        use super::*;

        /// `y` with the zero-padded `data` absorbed.
        ///
        /// # Safety
        ///
        /// The CPU must have the enabled features.
        $(#[$attr])*
        unsafe fn ghash_padded(pw: &Powers, y: u128, data: &[u8]) -> u128 {
            let whole = data.len() & !15;
            // SAFETY: the features (# Safety); whole blocks of `data` and
            // a 16-byte local.
            unsafe {
                let mut y = if whole > 0 { $absorb(pw, y, &data[..whole]) } else { y };
                if whole < data.len() {
                    let mut b = [0u8; 16];
                    b[..data.len() - whole].copy_from_slice(&data[whole..]);
                    y = $absorb(pw, y, &b);
                    b.zeroize();
                }
                y
            }
        }

        /// The length block absorbed into `y`, then xor E(K, Y0).
        ///
        /// # Safety
        ///
        /// The CPU must have the enabled features; `k` holds nr + 1 keys.
        $(#[$attr])*
        unsafe fn tag_of(
            pw: &Powers,
            y: u128,
            y0: &[u8; 16],
            k: &[uint8x16_t; 15],
            nr: usize,
            aad_len: usize,
            ct_len: usize,
        ) -> u128 {
            let lens = ((aad_len as u128 * 8) << 64) | (ct_len as u128 * 8);
            // SAFETY: the features (# Safety); `y0`, `ek` and the length
            // block are 16-byte locals.
            unsafe {
                let y = $absorb(pw, y, &lens.to_be_bytes());
                let mut s = vld1q_u8(y0.as_ptr());
                for kr in &k[..nr - 1] {
                    s = vaesmcq_u8(vaeseq_u8(s, *kr));
                }
                s = veorq_u8(vaeseq_u8(s, k[nr - 1]), k[nr]);
                let mut ek = [0u8; 16];
                vst1q_u8(ek.as_mut_ptr(), s);
                let t = y ^ u128::from_be_bytes(ek);
                ek.zeroize();
                t
            }
        }
        /// GHASH(H, A, C) xor E(K, Y0) for `len` bytes of plaintext at
        /// `src` encrypted to `dst` (the same pointer in place).
        ///
        /// # Safety
        ///
        /// The CPU must have the enabled features (a key of this module
        /// and an `AesRoundKeys` prove them); `rk` has NR + 1 keys; `src`
        /// is readable and `dst` writable for `len` bytes, and they are
        /// equal or do not overlap.
        $(#[$attr])*
        #[allow(unused_assignments)] // the accumulator of hash-free batches
        pub(super) unsafe fn seal<const NR: usize>(
            pw: &Powers,
            rk: &[[u8; 16]],
            y0: &[u8; 16],
            aad: &[u8],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) -> u128 {
            // SAFETY: the caller's contract (# Safety): features, key
            // count, and the extent of src/dst; every access below stays
            // within `len` bytes of them or in locals.
            unsafe {
                assert_eq!(rk.len(), NR + 1);
                let rev = vld1q_u8(REV.as_ptr());
                let mut k = [vdupq_n_u8(0); 15];
                for i in 0..=NR {
                    k[i] = vld1q_u8(rk[i].as_ptr());
                }
                let mut y = ghash_padded(pw, 0, aad);
                let ctr0 = Y0Block(*y0);
                let base = u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]);
                let full = len / BATCH;
                let mut yv = vld1q_u8((&y as *const u128).cast());
                if full > 0 {
                    let mut s = counters!(&ctr0, base, 1u32);
                    let ks = stitched8!(pw, k, NR, s, yv, None, rev, $xor3);
                    xor_batch!(src, dst, ks);
                    // Batches 1.. hash the batch before them (from `dst`).
                    let done = $asm!(
                        NR,
                        pw,
                        k,
                        y0,
                        1 + BATCH as u32 / 16,
                        yv,
                        dst as *const u8,
                        src.add(BATCH),
                        dst.add(BATCH),
                        full - 1
                    );
                    for b in 1 + done..full {
                        let mut s = counters!(&ctr0, base, 1 + 8 * b as u32);
                        let prev = dst.add(BATCH * (b - 1)) as *const u8;
                        let ks = stitched8!(pw, k, NR, s, yv, Some(prev), rev, $xor3);
                        xor_batch!(src.add(BATCH * b), dst.add(BATCH * b), ks);
                    }
                    yv = absorb8!(pw, yv, dst.add(BATCH * (full - 1)) as *const u8, rev, $xor3);
                }
                vst1q_u8((&mut y as *mut u128).cast(), yv);
                let rest = len - BATCH * full;
                if rest > 0 {
                    let mut t = [0u8; BATCH];
                    core::ptr::copy_nonoverlapping(src.add(BATCH * full), t.as_mut_ptr(), rest);
                    let mut s = counters!(&ctr0, base, 1 + 8 * full as u32);
                    let ks = stitched8!(pw, k, NR, s, yv, None, rev, $xor3);
                    xor_batch!(t.as_ptr(), t.as_mut_ptr(), ks);
                    // GHASH pads the last block with zeros.
                    t[rest..].fill(0);
                    core::ptr::copy_nonoverlapping(t.as_ptr(), dst.add(BATCH * full), rest);
                    y = $absorb(pw, y, &t[..rest.div_ceil(16) * 16]);
                    t.zeroize();
                }
                let tag = tag_of(pw, y, y0, &k, NR, aad.len(), len);
                // The round keys may have been spilled to this frame.
                core::ptr::write_volatile(&mut k, [vdupq_n_u8(0); 15]);
                tag
            }
        }

        /// The expected tag GHASH(H, A, C) xor E(K, Y0) for `len` bytes of
        /// ciphertext at `src`, decrypted to `dst` (the same pointer in
        /// place); each batch is hashed before it is overwritten.
        ///
        /// # Safety
        ///
        /// As for the seal twin.
        $(#[$attr])*
        #[allow(unused_assignments)] // the accumulator of hash-free batches
        pub(super) unsafe fn open<const NR: usize>(
            pw: &Powers,
            rk: &[[u8; 16]],
            y0: &[u8; 16],
            aad: &[u8],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) -> u128 {
            // SAFETY: as in the seal twin.
            unsafe {
                assert_eq!(rk.len(), NR + 1);
                let rev = vld1q_u8(REV.as_ptr());
                let mut k = [vdupq_n_u8(0); 15];
                for i in 0..=NR {
                    k[i] = vld1q_u8(rk[i].as_ptr());
                }
                let mut y = ghash_padded(pw, 0, aad);
                let ctr0 = Y0Block(*y0);
                let base = u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]);
                let full = len / BATCH;
                let mut yv = vld1q_u8((&y as *const u128).cast());
                let done = $asm!(NR, pw, k, y0, 1, yv, src, src, dst, full);
                for b in done..full {
                    let mut s = counters!(&ctr0, base, 1 + 8 * b as u32);
                    let cur = src.add(BATCH * b);
                    let ks = stitched8!(pw, k, NR, s, yv, Some(cur), rev, $xor3);
                    xor_batch!(cur, dst.add(BATCH * b), ks);
                }
                vst1q_u8((&mut y as *mut u128).cast(), yv);
                let rest = len - BATCH * full;
                if rest > 0 {
                    let mut t = [0u8; BATCH];
                    core::ptr::copy_nonoverlapping(src.add(BATCH * full), t.as_mut_ptr(), rest);
                    y = $absorb(pw, y, &t[..rest.div_ceil(16) * 16]);
                    let mut s = counters!(&ctr0, base, 1 + 8 * full as u32);
                    let ks = stitched8!(pw, k, NR, s, yv, None, rev, $xor3);
                    xor_batch!(t.as_ptr(), t.as_mut_ptr(), ks);
                    core::ptr::copy_nonoverlapping(t.as_ptr(), dst.add(BATCH * full), rest);
                    t.zeroize();
                }
                let tag = tag_of(pw, y, y0, &k, NR, aad.len(), len);
                // The round keys may have been spilled to this frame.
                core::ptr::write_volatile(&mut k, [vdupq_n_u8(0); 15]);
                tag
            }
        }
    }
    };
}

gcm_fns!(
    #[target_feature(enable = "neon,aes")]
    neon,
    absorb_neon,
    xor3,
    no_asm
);
gcm_fns!(
    #[target_feature(enable = "neon,aes,sha3")]
    eor3,
    absorb_eor3,
    veor3q_u8,
    asm128_eor3
);

/// Checks the lengths, takes the pointers, and runs `f` for the key size.
macro_rules! dispatch {
    ($m:ident, $f:ident, $pw:expr, $rk:expr, $msg:expr) => {{
        let KernelMsg {
            y0, aad, src, buf, ..
        } = $msg;
        assert!(
            src.is_none_or(|s| s.len() == buf.len()),
            "src and buf differ in length"
        );
        let len = buf.len();
        // Both pointers from one: `buf` is not touched again.
        let dst = buf.as_mut_ptr();
        let sp = src.map_or(dst as *const u8, |s| s.as_ptr());
        // SAFETY: the caller proved PMULL (and SHA3 for the EOR3
        // functions); an AesRoundKeys exists only where FEAT_AES was
        // detected (aes::armv8); src and buf have `len` bytes and are the
        // same buffer or do not overlap (a shared and an exclusive borrow).
        unsafe {
            match $rk {
                AesRoundKeys::Aes128(k) => $m::$f::<10>($pw, k, y0, aad, sp, dst, len),
                AesRoundKeys::Aes192(k) => $m::$f::<12>($pw, k, y0, aad, sp, dst, len),
                AesRoundKeys::Aes256(k) => $m::$f::<14>($pw, k, y0, aad, sp, dst, len),
            }
        }
    }};
}

/// Seals (`OPEN` false) with the plain NEON + PMULL kernel (`eor3`
/// false) or the EOR3 one, returning the full tag; or decrypts, hashing
/// the ciphertext, and returns the expected full tag (the caller compares
/// it and wipes `buf` on mismatch). `src` (of `buf`'s length) into `buf`,
/// or `buf` in place (`y0_public` is not needed here).
///
/// # Safety
///
/// The CPU must have PMULL (and FEAT_SHA3 if `eor3`): a `pmull` (or
/// `pmull_eor3`) GHASH key proves it. FEAT_AES is proven by the
/// `AesRoundKeys` (only `aes::armv8` builds one on aarch64).
pub(crate) unsafe fn crypt<const OPEN: bool>(
    pw: &Powers,
    eor3: bool,
    rk: &AesRoundKeys,
    msg: KernelMsg<'_>,
) -> u128 {
    match (eor3, OPEN) {
        (true, false) => dispatch!(eor3, seal, pw, rk, msg),
        (true, true) => dispatch!(eor3, open, pw, rk, msg),
        (false, false) => dispatch!(neon, seal, pw, rk, msg),
        (false, true) => dispatch!(neon, open, pw, rk, msg),
    }
}

/// Many packets (12-byte nonces) sealed in place one after another (no
/// cross-packet batching here), each full tag into `tags`.
///
/// # Safety
///
/// As for [`crypt`].
pub(crate) unsafe fn seal_batch(
    pw: &Powers,
    eor3: bool,
    rk: &AesRoundKeys,
    packets: &mut [crate::gcm::BatchPacket<'_>],
    tags: &mut [u128],
) {
    for (p, t) in packets.iter_mut().zip(tags.iter_mut()) {
        let y0 = crate::gcm::y0_96(&p.nonce);
        let msg = KernelMsg {
            y0: &y0,
            y0_public: true,
            aad: p.aad,
            src: None,
            buf: p.data,
        };
        // SAFETY: the caller's contract.
        *t = unsafe { crypt::<false>(pw, eor3, rk, msg) };
    }
}

/// The two kernels with the x86 kernels' signature, for the table of
/// `gcm::kernels` (`y0_public` is not needed here).
macro_rules! kernel_module {
    ($name:ident, $eor3:literal, $doc:literal) => {
        #[doc = $doc]
        pub(super) mod $name {
            use super::{AesRoundKeys, KernelMsg, Powers};

            /// # Safety
            /// As for [`super::crypt`].
            pub(in crate::gcm::kernels) unsafe fn crypt<const OPEN: bool>(
                pw: &&Powers,
                rk: &AesRoundKeys,
                msg: KernelMsg<'_>,
            ) -> u128 {
                // SAFETY: the caller's contract.
                unsafe { super::crypt::<OPEN>(pw, $eor3, rk, msg) }
            }

            /// # Safety
            /// As for [`super::seal_batch`].
            pub(in crate::gcm::kernels) unsafe fn seal_batch(
                pw: &&Powers,
                rk: &AesRoundKeys,
                packets: &mut [crate::gcm::BatchPacket<'_>],
                tags: &mut [u128],
            ) {
                // SAFETY: the caller's contract.
                unsafe { super::seal_batch(pw, $eor3, rk, packets, tags) }
            }
        }
    };
}

kernel_module!(
    plain_kernel,
    false,
    "The NEON + PMULL kernel (backend `pmull`)."
);
kernel_module!(
    eor3_kernel,
    true,
    "The same with EOR3 (backend `pmull_eor3`)."
);
