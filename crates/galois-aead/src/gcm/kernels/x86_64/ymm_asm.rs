//! The 256-bit stitched loop written out in assembly (backend `vaes_avx2`,
//! x86-64 with VAES and VPCLMULQDQ but no AVX-512).
//!
//! Why assembly here. The generic loop (`stitched.rs`) instantiated for
//! `__m256i` needs more than AVX2's 16 vector registers as LLVM allocates
//! it: eight AES states, the round key, three Karatsuba sums, the hashed
//! vector and its temporaries, the counter. LLVM keeps some of them on the
//! stack (about 23 stores and 24 reloads per 16 blocks) and hoists the
//! multiplies into one run after the rounds. Here every value has a
//! register of its own for the whole loop and each round carries its share
//! of the multiplies. On Zen 3 the loop alone takes 73-80 TSC cycles per
//! 16 blocks of AES-128-GCM (0.29-0.31 cycles/byte; the AES and carry-less
//! multiplies alone, with no loads, shuffles or reduction: 56), and whole
//! messages ran 5-8% faster than with the generic loop (docs/speed.md,
//! tenth session).
//!
//! Registers, for the whole loop:
//! - ymm0..ymm7: the AES states, 16 counter blocks (two per register);
//! - ymm14: the round key of the current round, broadcast to both lanes
//!   (`vbroadcasti128` from the 16-byte schedule);
//! - ymm15: the next counters in integer form (each lane byte-reversed, so
//!   GCM's 32-bit increment is a `vpaddd` on dword 0; see `counters.rs`);
//! - ymm9: the vector being hashed, ymm10 a temporary;
//! - ymm11, ymm12, ymm13: the Karatsuba sums lo, mid, hi; between
//!   reductions xmm11 holds the reduced GHASH value y (upper lane zero).
//!
//! Representation and math are those of `gf128::wide` (lanes in integer
//! form, powers premultiplied by x^-1, so a carry-less product needs no
//! shift). Each batch hashes 16 blocks X_1..X_16 against H^16..H^1:
//! Y' = (Y ^ X_1) H^16 ^ X_2 H^15 ^ ... ^ X_16 H, lane-wise Karatsuba
//! (x.lo h.lo, x.hi h.hi, (x.lo ^ x.hi)(h.lo ^ h.hi), the last operand
//! precomputed in the table), one vector per round in rounds 1..8; in
//! round 9 the sums are folded across the two lanes and reduced with the
//! two 64-bit folds of `gf128::wide::ghash` (multiplications by
//! 0xC2 << 56). Long messages go two batches per reduction
//! (`stitched_pairs!`: 32 blocks against H^32..H^1, the first batch's
//! round 9 plain); the sums stay in registers either way, and 32 powers
//! are what every GCM key's table has from setup (`LOW_POWERS`).
//!
//! The same loop seals and opens: batch i encrypts (or decrypts) the 256
//! bytes at src into dst while hashing the 256 bytes at `hash`. A sealer
//! points `hash` one batch behind dst (the ciphertext of the previous
//! batch, stored by the previous iteration); an opener points it at src
//! (the ciphertext it is decrypting, loaded in rounds 1..8, before this
//! batch's stores, so in place is safe).

use super::aes_lanes::RoundKeys;
use super::counters::Ctr;
use crate::gf128::wide::Powers;
use core::arch::x86_64::{__m128i, __m256i};

/// Per 128-bit lane: reverses the 16 bytes (integer form <-> block).
#[repr(C, align(32))]
struct Mask([u8; 32]);
static BSWAP: Mask = Mask([
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, //
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
]);
/// The reduction constant x^7 + x^2 + x + 1, reflected and shifted for the
/// powers' x^-1, in the low 64 bits (as `gf128::wide::ghash::fold` has it).
#[repr(C, align(16))]
struct Poly(u128);
static POLY: Poly = Poly(0xC200_0000_0000_0000);
/// Two blocks' worth of counter increment: 2 in dword 0 of each lane.
static STEP: Mask = Mask([
    2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/// Round r, hashing vector j of the batch into the sums, its powers `$p`
/// bytes into the table from {hd} and {hk} (256 for the second batch of
/// a pair: its 16 blocks take the 16 powers after the first's).
macro_rules! hash_round {
    ($r:literal, $j:literal, $p:literal) => {
        concat!(
            "vbroadcasti128 ymm14, xmmword ptr [{rk} + 16*",
            $r,
            "]\n",
            "vaesenc ymm0, ymm0, ymm14\n",
            "vmovdqu ymm9, ymmword ptr [{h} + 32*",
            $j,
            "]\n",
            "vaesenc ymm1, ymm1, ymm14\n",
            "vpshufb ymm9, ymm9, ymmword ptr [{bs}]\n",
            "vaesenc ymm2, ymm2, ymm14\n",
            "vpclmulqdq ymm10, ymm9, ymmword ptr [{hd} + ",
            $p,
            " + 32*",
            $j,
            "], 0x00\n",
            "vaesenc ymm3, ymm3, ymm14\n",
            "vpxor ymm11, ymm11, ymm10\n",
            "vpclmulqdq ymm10, ymm9, ymmword ptr [{hd} + ",
            $p,
            " + 32*",
            $j,
            "], 0x11\n",
            "vaesenc ymm4, ymm4, ymm14\n",
            "vpxor ymm13, ymm13, ymm10\n",
            "vpshufd ymm10, ymm9, 0x4e\n",
            "vaesenc ymm5, ymm5, ymm14\n",
            "vpxor ymm10, ymm10, ymm9\n",
            "vaesenc ymm6, ymm6, ymm14\n",
            "vpclmulqdq ymm10, ymm10, ymmword ptr [{hk} + ",
            $p,
            " + 32*",
            $j,
            "], 0x00\n",
            "vaesenc ymm7, ymm7, ymm14\n",
            "vpxor ymm12, ymm12, ymm10\n",
        )
    };
}

/// Rounds 2..8, hashing vectors 1..7 of the batch against powers `$p`
/// bytes into the table (as `hash_round!`).
macro_rules! hash_rounds {
    ($p:literal) => {
        concat!(
            hash_round!(2, 1, $p),
            hash_round!(3, 2, $p),
            hash_round!(4, 3, $p),
            hash_round!(5, 4, $p),
            hash_round!(6, 5, $p),
            hash_round!(7, 6, $p),
            hash_round!(8, 7, $p),
        )
    };
}

/// Round 1, hashing vector 0 with y added to its first block: its products
/// start the sums.
macro_rules! hash_round_first {
    () => {
        concat!(
            "vbroadcasti128 ymm14, xmmword ptr [{rk} + 16]\n",
            "vaesenc ymm0, ymm0, ymm14\n",
            "vmovdqu ymm9, ymmword ptr [{h}]\n",
            "vaesenc ymm1, ymm1, ymm14\n",
            "vpshufb ymm9, ymm9, ymmword ptr [{bs}]\n",
            "vaesenc ymm2, ymm2, ymm14\n",
            "vpxor ymm9, ymm9, ymm11\n",
            "vaesenc ymm3, ymm3, ymm14\n",
            "vpclmulqdq ymm11, ymm9, ymmword ptr [{hd}], 0x00\n",
            "vaesenc ymm4, ymm4, ymm14\n",
            "vpclmulqdq ymm13, ymm9, ymmword ptr [{hd}], 0x11\n",
            "vpshufd ymm10, ymm9, 0x4e\n",
            "vaesenc ymm5, ymm5, ymm14\n",
            "vpxor ymm10, ymm10, ymm9\n",
            "vaesenc ymm6, ymm6, ymm14\n",
            "vpclmulqdq ymm12, ymm10, ymmword ptr [{hk}], 0x00\n",
            "vaesenc ymm7, ymm7, ymm14\n",
        )
    };
}

/// Round r with the sums folded across lanes and reduced into xmm11.
macro_rules! reduce_round {
    ($r:literal) => {
        concat!(
            "vbroadcasti128 ymm14, xmmword ptr [{rk} + 16*",
            $r,
            "]\n",
            "vaesenc ymm0, ymm0, ymm14\n",
            "vextracti128 xmm10, ymm11, 1\n",
            "vpxor xmm11, xmm11, xmm10\n",
            "vaesenc ymm1, ymm1, ymm14\n",
            "vextracti128 xmm10, ymm13, 1\n",
            "vpxor xmm13, xmm13, xmm10\n",
            "vaesenc ymm2, ymm2, ymm14\n",
            "vextracti128 xmm10, ymm12, 1\n",
            "vpxor xmm12, xmm12, xmm10\n",
            "vaesenc ymm3, ymm3, ymm14\n",
            "vpxor xmm12, xmm12, xmm11\n",
            "vpxor xmm12, xmm12, xmm13\n",
            "vaesenc ymm4, ymm4, ymm14\n",
            "vpclmulqdq xmm10, xmm11, xmmword ptr [{c}], 0x00\n",
            "vpshufd xmm11, xmm11, 0x4e\n",
            "vaesenc ymm5, ymm5, ymm14\n",
            "vpxor xmm12, xmm12, xmm11\n",
            "vpxor xmm12, xmm12, xmm10\n",
            "vaesenc ymm6, ymm6, ymm14\n",
            "vpclmulqdq xmm10, xmm12, xmmword ptr [{c}], 0x00\n",
            "vpshufd xmm12, xmm12, 0x4e\n",
            "vaesenc ymm7, ymm7, ymm14\n",
            "vpxor xmm13, xmm13, xmm12\n",
            "vpxor xmm11, xmm13, xmm10\n",
        )
    };
}

/// A round with no hashing.
macro_rules! plain_round {
    ($r:literal) => {
        concat!(
            "vbroadcasti128 ymm14, xmmword ptr [{rk} + 16*",
            $r,
            "]\n",
            "vaesenc ymm0, ymm0, ymm14\n",
            "vaesenc ymm1, ymm1, ymm14\n",
            "vaesenc ymm2, ymm2, ymm14\n",
            "vaesenc ymm3, ymm3, ymm14\n",
            "vaesenc ymm4, ymm4, ymm14\n",
            "vaesenc ymm5, ymm5, ymm14\n",
            "vaesenc ymm6, ymm6, ymm14\n",
            "vaesenc ymm7, ymm7, ymm14\n",
        )
    };
}

/// Round 0: the next 16 counter blocks, XORed with the first round key.
macro_rules! counters_round {
    () => {
        concat!(
            "vbroadcasti128 ymm14, xmmword ptr [{rk}]\n",
            counter!("ymm0"),
            counter!("ymm1"),
            counter!("ymm2"),
            counter!("ymm3"),
            counter!("ymm4"),
            counter!("ymm5"),
            counter!("ymm6"),
            counter!("ymm7"),
        )
    };
}

/// One vector of counter blocks into state `$s`, XORed with round key 0.
macro_rules! counter {
    ($s:literal) => {
        concat!(
            "vpshufb ",
            $s,
            ", ymm15, ymmword ptr [{bs}]\n",
            "vpaddd ymm15, ymm15, ymmword ptr [{st}]\n",
            "vpxor ",
            $s,
            ", ",
            $s,
            ", ymm14\n",
        )
    };
}

/// The last round (key r): each state's input XORed into the key, so
/// `vaesenclast` yields the output, stored at dst; then the pointers
/// advance to the next batch. Its temporaries are ymm9 and ymm10 only (the
/// core renames them): the sums of a pair's first batch live on in
/// ymm11..ymm13.
macro_rules! last_round {
    ($r:literal) => {
        concat!(
            "vbroadcasti128 ymm14, xmmword ptr [{rk} + 16*",
            $r,
            "]\n",
            last_vector!("ymm0", "ymm9", 0),
            last_vector!("ymm1", "ymm10", 1),
            last_vector!("ymm2", "ymm9", 2),
            last_vector!("ymm3", "ymm10", 3),
            last_vector!("ymm4", "ymm9", 4),
            last_vector!("ymm5", "ymm10", 5),
            last_vector!("ymm6", "ymm9", 6),
            last_vector!("ymm7", "ymm10", 7),
            "add {src}, 256\n",
            "add {dst}, 256\n",
            "add {h}, 256\n",
        )
    };
}

/// State `$s` through the last round into dst + 32 `$j` (`$t` a temporary).
macro_rules! last_vector {
    ($s:literal, $t:literal, $j:literal) => {
        concat!(
            "vpxor ",
            $t,
            ", ymm14, ymmword ptr [{src} + 32*",
            $j,
            "]\n",
            "vaesenclast ",
            $s,
            ", ",
            $s,
            ", ",
            $t,
            "\n",
            "vmovdqu ymmword ptr [{dst} + 32*",
            $j,
            "], ",
            $s,
            "\n",
        )
    };
}

/// Rounds 0..8 of a batch that starts the sums: its counters, then
/// vectors 0..7 hashed, y added to the first.
macro_rules! batch_start {
    () => {
        concat!(counters_round!(), hash_round_first!(), hash_rounds!("0"))
    };
}

/// The loop for one AES size (the rounds after 9 plain, then the last),
/// a batch per iteration: its sums reduced in round 9.
macro_rules! stitched_loop {
    ($($plain:literal)*; $last:literal) => {
        concat!(
            "vmovdqa xmm11, xmm11\n",
            ".p2align 5\n",
            "2:\n",
            batch_start!(),
            reduce_round!(9),
            $(plain_round!($plain),)*
            last_round!($last),
            "dec {n}\n",
            "jnz 2b\n",
        )
    };
}

/// The same loop two batches per iteration, against H^32..H^1: the
/// first batch's sums are carried into the second's rounds (its round 9
/// plain) and reduced once, in the second's round 9. The reduction's ~16
/// instructions (two of them carry-less multiplies) then come once per
/// 32 blocks: on Zen 3 the loop alone took 69-79 TSC cycles per 16 blocks
/// of AES-128 against 74-82 one batch per iteration, 80-89 against 83-92
/// for AES-256 (the least of each of six alternated runs; four batches per
/// reduction measured no better than two).
macro_rules! stitched_pairs {
    ($($plain:literal)*; $last:literal) => {
        concat!(
            "vmovdqa xmm11, xmm11\n",
            ".p2align 5\n",
            "2:\n",
            batch_start!(),
            plain_round!(9),
            $(plain_round!($plain),)*
            last_round!($last),
            counters_round!(),
            hash_round!(1, 0, "256"),
            hash_rounds!("256"),
            reduce_round!(9),
            $(plain_round!($plain),)*
            last_round!($last),
            "dec {n}\n",
            "jnz 2b\n",
        )
    };
}

/// Runs loop macro `$lp` (its plain rounds after 9 and last round given)
/// for `$n` iterations against H^`$top`..H^1 under the round keys at
/// `$keys`, carrying y, the next counters and the hash, source and
/// destination pointers in the variables `$y`, `$next`, `$h`, `$s`, `$d`
/// (each loop leaves them advanced).
macro_rules! run_loop {
    ($lp:ident, $top:literal, $n:expr, $keys:expr, $pw:expr,
     $y:ident, $next:ident, $h:ident, $s:ident, $d:ident; $($plain:literal)*; $last:literal) => {{
        let (hd, hk) = $pw.raw($pw.at($top));
        // SAFETY: per the callers of `batches` and `long`: the loads and
        // stores stay within the buffers' 256 bytes per batch (the pointers
        // come back advanced past the batches run), the powers within
        // H^top..H^1 (the callers checked the table has that many), the
        // round keys within the NR + 1 (RoundKeys checked their count); the
        // features are enabled. Every register written is an operand or
        // declared clobbered.
        unsafe {
            core::arch::asm!(
                $lp!($($plain)*; $last),
                rk = in(reg) $keys,
                h = inout(reg) $h,
                src = inout(reg) $s,
                dst = inout(reg) $d,
                n = inout(reg) $n => _,
                hd = in(reg) hd,
                hk = in(reg) hk,
                bs = in(reg) BSWAP.0.as_ptr(),
                st = in(reg) STEP.0.as_ptr(),
                c = in(reg) &POLY.0,
                inout("xmm11") $y,
                inout("ymm15") $next,
                out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
                out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
                out("ymm9") _, out("ymm10") _, out("ymm12") _, out("ymm13") _,
                out("ymm14") _,
                options(nostack),
            )
        }
    }};
}

/// [`run_loop`] for the key size: NR = `$nr` rounds.
macro_rules! run_sized {
    ($lp:ident, $top:literal, $n:expr, $nr:expr, $keys:expr, $pw:expr,
     $y:ident, $next:ident, $h:ident, $s:ident, $d:ident) => {
        match $nr {
            10 => run_loop!($lp, $top, $n, $keys, $pw, $y, $next, $h, $s, $d; ; 10),
            12 => run_loop!($lp, $top, $n, $keys, $pw, $y, $next, $h, $s, $d; 10 11; 12),
            _ => run_loop!($lp, $top, $n, $keys, $pw, $y, $next, $h, $s, $d; 10 11 12 13; 14),
        }
    };
}

/// The fewest batches that go through the pair loop (`stitched_pairs!`,
/// all but an odd one). Below, its larger body costs more than the
/// reductions it saves: a 1500-byte seal (4 batches in the loop) took 4-9%
/// longer in pairs, 2 and 4 KiB messages about the same, on Zen 3; 16 KiB
/// ran 4-6% (AES-128) and 1-3% (AES-256) faster (docs/speed.md, twelfth
/// session).
const PAIRS_MIN: usize = 16;

/// Runs `count` (> 0) batches of 16 blocks: encrypts the 256 bytes at
/// `src` into `dst` under the next counters of `ctr` while hashing the
/// 256 bytes at `hash` into y, then advances all three by 256 bytes. From
/// PAIRS_MIN batches on, where the table has 32 powers (every GCM key's
/// has: `LOW_POWERS`), two batches per reduction ([`long`]).
///
/// # Safety
/// The CPU has AVX2, VAES and VPCLMULQDQ; `src`, `hash` are valid for
/// reads and `dst` for writes of 256 `count` bytes, `dst` either equals
/// `src` or does not overlap it, and `hash`'s bytes of batch i are not
/// written by batch i (they are dst's bytes of batch i - 1, or src's own);
/// `pw` has at least 16 powers.
#[allow(clippy::too_many_arguments)]
#[inline]
#[target_feature(enable = "avx,avx2,vaes,vpclmulqdq")]
pub(super) unsafe fn batches<const NR: usize>(
    rk: &RoundKeys<__m256i>,
    ctr: &mut Ctr<__m256i>,
    pw: &Powers,
    y: &mut __m128i,
    hash: *const u8,
    src: *const u8,
    dst: *mut u8,
    count: usize,
) {
    debug_assert!(count > 0 && pw.filled() >= 16);
    let keys = rk.all().as_ptr().cast::<u8>();
    if pw.filled() >= 32 && count >= PAIRS_MIN {
        // SAFETY: per the caller, and the powers checked here.
        unsafe { long::<NR>(keys, ctr, pw, y, hash, src, dst, count) };
        return;
    }
    let (mut yv, mut next) = (*y, ctr.next());
    let (mut h, mut s, mut d) = (hash, src, dst);
    run_sized!(stitched_loop, 16, count, NR, keys, pw, yv, next, h, s, d);
    // The pointers come back advanced; after the last loop nothing reads them.
    let _ = (h, s, d);
    *y = yv;
    ctr.advance(next, 16 * count);
}

/// [`batches`] two per reduction (`stitched_pairs!`), and one more if
/// `count` is odd. Out of line: inlined, its bodies (one per key size, with
/// the one-batch loop's) sat in the middle of every seal and opening, and
/// 1500-byte openings, which never run them, measured 3-10% slower.
///
/// # Safety
/// As [`batches`], and `pw` has at least 32 powers.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[target_feature(enable = "avx,avx2,vaes,vpclmulqdq")]
unsafe fn long<const NR: usize>(
    keys: *const u8,
    ctr: &mut Ctr<__m256i>,
    pw: &Powers,
    y: &mut __m128i,
    hash: *const u8,
    src: *const u8,
    dst: *mut u8,
    count: usize,
) {
    let (mut yv, mut next) = (*y, ctr.next());
    let (mut h, mut s, mut d) = (hash, src, dst);
    let pairs = count / 2;
    run_sized!(stitched_pairs, 32, pairs, NR, keys, pw, yv, next, h, s, d);
    if count % 2 == 1 {
        run_sized!(stitched_loop, 16, 1usize, NR, keys, pw, yv, next, h, s, d);
    }
    // The pointers come back advanced; after the last loop nothing reads them.
    let _ = (h, s, d);
    *y = yv;
    ctr.advance(next, 16 * count);
}
