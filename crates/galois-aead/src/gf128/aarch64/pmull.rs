//! GHASH with the ARMv8 carry-less multiplier PMULL/PMULL2 (aarch64).
//!
//! Representation: a block is loaded and byte-reversed (one TBL), so the
//! register holds `u128::from_be_bytes(block)`, the integer every other
//! backend uses: integer bit k is the coefficient of x^(127-k). Read the
//! other way round, bit k is the coefficient of y^k of the *reflected*
//! polynomial E(y) = y^127 e(1/y). The reflected field polynomial is
//! P'(y) = y^128 P(1/y) = y^128 + y^127 + y^126 + y^121 + 1, and from
//! ab = qP + c one gets, for the integer carry-less product,
//! A(y)B(y) y = Q'(y)P'(y) + y^128 C(y): the product we want is
//! C = (AB y) y^-128 mod P', a Montgomery reduction by y^128.
//!
//! The factor y is folded into the key: each power of H is stored
//! "twisted", H~ = H y mod P' (a left shift by one and, if bit 127 fell out,
//! an XOR of 0xC2 << 120 | 1). Then C = REDC(A * H~) with no bit shift at
//! all. REDC takes two 64-bit Montgomery steps: P' = 1 mod y^64, so the
//! multiplier of each step is just the lowest 64-bit word m, and
//! m P' = m + m y^64 (y^57 + y^62 + y^63) + m y^128, one PMULL by the
//! constant K = 0xC2 << 56 and XORs. For the 256-bit product [d3 d2 d1 d0]
//! (words, high first):
//!   T = d0 K;  V = [d1 ^ T.lo, d0 ^ T.hi];  T' = V.hi K;
//!   C = [d3 d2] ^ V ^ T'.
//! (The identity is checked against the bit-serial reference by every
//! equivalence test; the derivation is the one above, no bit reversal.)
//!
//! Multiplication is Karatsuba: for a = a1:a0 and h = h1:h0, a0 h0 (PMULL),
//! a1 h1 (PMULL2) and (a0 ^ a1)(h0 ^ h1) (PMULL; h0 ^ h1 precomputed per
//! power) give the 256-bit product with three multiplies.
//!
//! Aggregated reduction: eight blocks X1..X8 absorbed into Y give
//! (Y ^ X1) H^8 ^ X2 H^7 ^ ... ^ X8 H. With H~^1..H~^8 precomputed, the
//! eight unreduced Karatsuba products are XORed together (reduction is
//! linear) and reduced once: 24 PMULL + 2 for the reduction per 8 blocks.
//!
//! With FEAT_SHA3 (`pmull_eor3`), the three-way XOR EOR3 merges two
//! products into an accumulator in one instruction; the code is otherwise
//! the same (one macro, instantiated twice with different target features).
//!
//! Constant time: PMULL, EOR, EXT and TBL take data-independent time and
//! the code has no branch or index on secrets. A key exists only where
//! `neon` and `pmull` (and `sha3` for the EOR3 variant) were detected at
//! run time, which makes calling the `#[target_feature]` functions sound.

use super::GhashImpl;
use core::arch::aarch64::*;
use zeroize::Zeroize;

/// Blocks per aggregated reduction.
pub(crate) const N: usize = 8;

/// The Montgomery constant y^57 + y^62 + y^63.
pub(crate) const K: u64 = 0xC2 << 56;

/// H y mod P' (see the module documentation), in constant time.
fn twist(p: u128) -> u128 {
    let carry = 0u128.wrapping_sub(p >> 127);
    (p << 1) ^ (carry & ((0xC2 << 120) | 1))
}

/// Powers of H, twisted, with their Karatsuba halves.
#[derive(Zeroize)]
pub(crate) struct Powers {
    /// tw[i] = twist(H^(i+1)).
    pub(crate) tw: [u128; N],
    /// kar[i] = high half ^ low half of tw[i], in both lanes.
    pub(crate) kar: [u128; N],
}

/// The TBL index that reverses the 16 bytes of a block.
pub(crate) const REV: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];

/// Two-input XOR spelled like EOR3 with a third operand, for the plain
/// NEON variant.
#[inline(always)]
pub(crate) fn xor3(a: uint8x16_t, b: uint8x16_t, c: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is part of the aarch64 baseline.
    unsafe { veorq_u8(veorq_u8(a, b), c) }
}

/// One block's three partial products (low, high, middle) against its
/// power of H: block `i` of `n` at `blocks`, XORed with the accumulator
/// `yv` if it is the first. Macros, so that the code expands inside the
/// `#[target_feature]` functions.
macro_rules! block_products {
    ($pw:expr, $yv:expr, $blocks:expr, $n:expr, $rev:expr, $i:expr) => {{
        let i: usize = $i;
        let mut x = vqtbl1q_u8(vld1q_u8($blocks.add(16 * i)), $rev);
        if i == 0 {
            x = veorq_u8(x, $yv);
        }
        let p = $n - 1 - i;
        let h = vreinterpretq_p64_u8(vld1q_u8((&$pw.tw[p] as *const u128).cast()));
        let hk = vgetq_lane_u64::<0>(vld1q_u64((&$pw.kar[p] as *const u128).cast()));
        let x64 = vreinterpretq_p64_u8(x);
        let xk = vreinterpretq_u64_u8(veorq_u8(x, vextq_u8::<8>(x, x)));
        (
            vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64::<0>(x64), vgetq_lane_p64::<0>(h))),
            vreinterpretq_u8_p128(vmull_high_p64(x64, h)),
            vreinterpretq_u8_p128(vmull_p64(vgetq_lane_u64::<0>(xk), hk)),
        )
    }};
}

/// Adds the products of blocks `i` and `i + 1` (of `n`) into the
/// accumulators `lo`, `hi`, `mid`.
macro_rules! pair {
    ($pw:expr, $yv:expr, $blocks:expr, $n:expr, $rev:expr, $i:expr, $xor3:path,
     $lo:ident, $hi:ident, $mid:ident) => {{
        let (l0, h0, m0) = block_products!($pw, $yv, $blocks, $n, $rev, $i);
        let (l1, h1, m1) = block_products!($pw, $yv, $blocks, $n, $rev, $i + 1);
        $lo = $xor3($lo, l0, l1);
        $hi = $xor3($hi, h0, h1);
        $mid = $xor3($mid, m0, m1);
    }};
}

/// Karatsuba's middle term and the Montgomery reduction of the summed
/// products; evaluates to the new accumulator. The middle term is never
/// split into its words: with z = mid ^ T (mid the true middle, T = d0 K)
/// and w = lo ^ [z.lo, z.hi] (z's words swapped), w.hi = d1 ^ mid.lo ^
/// T.lo is the word the second step multiplies, and w.lo = d0 ^ T.hi ^
/// mid.hi carries the middle's part of d2, so the result is hi ^ w ^
/// w.hi K (the stitched kernel's `pmull_aes` reduction, which has it
/// too). Three instructions fewer than splitting the middle (two EXT, an
/// EOR), and T no longer waits for it.
macro_rules! reduce {
    ($lo:expr, $hi:expr, $mid:expr, $xor3:path) => {{
        let (lo, hi) = ($lo, $hi);
        // Montgomery reduction by y^128 (module documentation).
        let k = vreinterpretq_p64_u64(vdupq_n_u64(K));
        let t = vreinterpretq_u8_p128(vmull_p64(vgetq_lane_p64::<0>(vreinterpretq_p64_u8(lo)), K));
        // z = (Karatsuba's middle ^ lo ^ hi) ^ T.
        let z = veorq_u8($xor3($mid, lo, hi), t);
        let w = veorq_u8(lo, vextq_u8::<8>(z, z));
        let t2 = vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(w), k));
        $xor3(hi, w, t2)
    }};
}

/// Eight blocks at `blocks` absorbed into `yv` with one reduction, written
/// out (constant indices: no loop, no bounds checks).
macro_rules! absorb8 {
    ($pw:expr, $yv:expr, $blocks:expr, $rev:expr, $xor3:path) => {{
        let zero = vdupq_n_u8(0);
        let (mut lo, mut hi, mut mid) = (zero, zero, zero);
        // The pair holding the accumulator last: the loop-carried chain
        // through Y then crosses one XOR into the sums, not four.
        pair!($pw, $yv, $blocks, N, $rev, 2, $xor3, lo, hi, mid);
        pair!($pw, $yv, $blocks, N, $rev, 4, $xor3, lo, hi, mid);
        pair!($pw, $yv, $blocks, N, $rev, 6, $xor3, lo, hi, mid);
        pair!($pw, $yv, $blocks, N, $rev, 0, $xor3, lo, hi, mid);
        reduce!(lo, hi, mid, $xor3)
    }};
}

/// `n` = 1..=7 blocks at `blocks` absorbed into `yv` with one reduction.
// The stitched AES-GCM kernels (gcm/kernels/aarch64/pmull_aes.rs) interleave these
// with AES rounds.
pub(crate) use {absorb8, block_products, pair, reduce};

macro_rules! absorb_n {
    ($pw:expr, $yv:expr, $blocks:expr, $n:expr, $rev:expr, $xor3:path) => {{
        let n: usize = $n;
        let zero = vdupq_n_u8(0);
        let (mut lo, mut hi, mut mid) = (zero, zero, zero);
        let mut i = 0;
        while i + 2 <= n {
            pair!($pw, $yv, $blocks, n, $rev, i, $xor3, lo, hi, mid);
            i += 2;
        }
        if i < n {
            let (l0, h0, m0) = block_products!($pw, $yv, $blocks, n, $rev, i);
            lo = veorq_u8(lo, l0);
            hi = veorq_u8(hi, h0);
            mid = veorq_u8(mid, m0);
        }
        reduce!(lo, hi, mid, $xor3)
    }};
}

macro_rules! absorb_fn {
    ($(#[$attr:meta])* $name:ident, $xor3:path) => {
        /// Absorbs the whole blocks of `blocks` into `y`: eight at a time
        /// with one reduction each, then the remaining 1..=7 with one more.
        ///
        /// # Safety
        ///
        /// The CPU must have the target features enabled on this function
        /// (checked when the key was made).
        $(#[$attr])*
        #[inline]
        pub(crate) unsafe fn $name(pw: &Powers, y: u128, blocks: &[u8]) -> u128 {
            // SAFETY: the features per the caller (# Safety); the loads read
            // whole blocks of `blocks` (chunks and the remainder's n blocks)
            // and the powers table, the stores `out`.
            unsafe {
                debug_assert_eq!(blocks.len() % 16, 0);
                let rev = vld1q_u8(REV.as_ptr());
                let mut yv = vld1q_u8((&y as *const u128).cast());
                let mut chunks = blocks.chunks_exact(16 * N);
                for c in &mut chunks {
                    yv = absorb8!(pw, yv, c.as_ptr(), rev, $xor3);
                }
                let rest = chunks.remainder();
                let n = rest.len() / 16;
                if n > 0 {
                    yv = absorb_n!(pw, yv, rest.as_ptr(), n, rev, $xor3);
                }
                let mut out = 0u128;
                vst1q_u8((&mut out as *mut u128).cast(), yv);
                out
            }
        }
    };
}

absorb_fn!(
    #[target_feature(enable = "neon,aes")]
    absorb_neon,
    xor3
);
absorb_fn!(
    #[target_feature(enable = "neon,aes,sha3")]
    absorb_eor3,
    veor3q_u8
);

impl Powers {
    /// The powers of `h`, computed with `mul` (which only reads tw[0] and
    /// kar[0] of the table being built).
    fn new(h: u128, mul: impl Fn(&Powers, u128) -> u128) -> Self {
        let mut pw = Powers {
            tw: [0; N],
            kar: [0; N],
        };
        let mut p = h;
        for i in 0..N {
            let t = twist(p);
            pw.tw[i] = t;
            let k = ((t >> 64) as u64 ^ t as u64) as u128;
            pw.kar[i] = k | (k << 64);
            p = mul(&pw, p);
        }
        p.zeroize();
        pw
    }
}

/// H for the plain NEON + PMULL path.
#[derive(Zeroize)]
pub(crate) struct Key(pub(crate) Box<Powers>);

impl GhashImpl for Key {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = 2 * N * 16;

    fn new(h: u128) -> Option<Self> {
        if !crate::detect::has_pmull() {
            return None;
        }
        Some(Key(Box::new(Powers::new(h, |pw, x| {
            // SAFETY: PMULL and NEON were detected just above; the block
            // is a local 16-byte array.
            unsafe { absorb_neon(pw, 0, &x.to_be_bytes()) }
        }))))
    }

    fn mul_h(&self, x: u128) -> u128 {
        // SAFETY: a Key exists only where PMULL/NEON were detected (new);
        // one block of 16 readable bytes.
        unsafe { absorb_neon(&self.0, 0, &x.to_be_bytes()) }
    }

    fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
        // SAFETY: as in mul_h (the features); `absorb` reads whole blocks
        // of the slice only.
        unsafe { absorb_neon(&self.0, y, blocks) }
    }
}

/// The FEAT_SHA3 variant: the same code with EOR3.
pub(crate) mod pmull_eor3 {
    use super::*;

    /// H for the PMULL + EOR3 path.
    #[derive(Zeroize)]
    pub(crate) struct Key(pub(crate) Box<Powers>);

    impl GhashImpl for Key {
        type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

        const KEY_BYTES: usize = 2 * N * 16;

        fn new(h: u128) -> Option<Self> {
            if !(crate::detect::has_pmull() && crate::detect::has_sha3()) {
                return None;
            }
            Some(Key(Box::new(Powers::new(h, |pw, x| {
                // SAFETY: PMULL, NEON and SHA3 were detected just above;
                // the block is a local 16-byte array.
                unsafe { absorb_eor3(pw, 0, &x.to_be_bytes()) }
            }))))
        }

        fn mul_h(&self, x: u128) -> u128 {
            // SAFETY: a Key exists only where PMULL/NEON/SHA3 were detected
            // (new); one block of 16 readable bytes.
            unsafe { absorb_eor3(&self.0, 0, &x.to_be_bytes()) }
        }

        fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
            // SAFETY: as in mul_h (the features); `absorb` reads whole blocks
            // of the slice only.
            unsafe { absorb_eor3(&self.0, y, blocks) }
        }
    }
}
