//! Portable constant-time Poly1305: radix 2^64, 64 x 64 -> 128-bit
//! products.
//!
//! Every backend runs this code for short messages (no powers of r, so no
//! per-key or per-message precomputation) and for the part of a long
//! message the vector code leaves over; [`Poly1305Backend::Portable`] runs it
//! alone.
//!
//! # Representation
//!
//! The accumulator is h = h0 + h1 2^64 + h2 2^128 with h0, h1 full 64-bit
//! words and h2 small (at most 7 between blocks). It is only partially
//! reduced: any value below 2^131 that is congruent to h mod p = 2^130 - 5.
//! The key is r = r0 + r1 2^64, clamped, so r0, r1 < 2^60 and 4 | r1.
//!
//! # Multiplication
//!
//! h r = h0 r0 + (h0 r1 + h1 r0) 2^64 + (h1 r1 + h2 r0) 2^128 + h2 r1 2^192.
//! Because 4 divides r1, h1 r1 2^128 = h1 (r1/4) 2^130 = 5 h1 (r1/4) (mod
//! p), and likewise h2 r1 2^192 = 5 h2 (r1/4) 2^64. With s1 = 5 r1 / 4 =
//! r1 + r1/4 (exact, below 2^61):
//!
//! ```text
//! d0 = h0 r0 + h1 s1                 (< 2^126)
//! d1 = h0 r1 + h1 r0 + h2 s1         (< 2^126)
//! d2 = h2 r0                         (< 2^63)
//! ```
//!
//! and h r = d0 + d1 2^64 + d2 2^128 (mod p). Summing gives words t0, t1
//! and a top word t2 < 2^63. Its bits from 2^130 up, c = t2 >> 2, fold back
//! as 5c = (t2 & !3) + (t2 >> 2), added into t0 with a carry chain; the new
//! h2 = (t2 & 3) + carry <= 4. A message block adds less than 2^129, so h
//! stays below 2^131 (h2 <= 7) and the bounds above hold at every block.
//! The chain per block is one round of four parallel 64-bit multiplies plus
//! short carry chains, about half the latency of the radix-2^44 form.
//!
//! # Final reduction
//!
//! [`finalize`] folds h2 above bit 2 once more (h < 2^130 + 35 < 2p), forms
//! g = h + 5 and selects g - 2^130 when g reaches 2^130 (that is, h >= p),
//! by a mask built from g's bit 130: no branch. Adding the 128-bit pad is a
//! wrapping 128-bit addition. No branch or memory index depends on the key,
//! the pad or the message bytes.
//!
//! [`Poly1305Backend::Portable`]: super::Backend::Portable

/// The clamped key in radix 2^64 with s1 = 5 r1 / 4.
#[derive(Clone, Copy)]
pub(crate) struct Key64 {
    pub(crate) r0: u64,
    pub(crate) r1: u64,
    pub(crate) s1: u64,
}

impl Key64 {
    /// From clamped r bytes.
    #[inline(always)]
    pub(crate) fn new(r: &[u8; 16]) -> Self {
        let r0 = u64::from_le_bytes(r[0..8].try_into().unwrap());
        let r1 = u64::from_le_bytes(r[8..16].try_into().unwrap());
        Key64 {
            r0,
            r1,
            s1: r1 + (r1 >> 2),
        }
    }

    pub(crate) fn wipe(&mut self) {
        // SAFETY: plain writes through a valid &mut; volatile so that the
        // compiler keeps them.
        unsafe {
            core::ptr::write_volatile(&mut self.r0, 0);
            core::ptr::write_volatile(&mut self.r1, 0);
            core::ptr::write_volatile(&mut self.s1, 0);
        }
    }

    /// r as 16 little-endian bytes.
    pub(crate) fn r_bytes(&self) -> [u8; 16] {
        ((self.r0 as u128) | ((self.r1 as u128) << 64)).to_le_bytes()
    }
}

/// The accumulator h0 + h1 2^64 + h2 2^128.
pub(crate) type Acc = [u64; 3];

#[inline(always)]
fn mul64(a: u64, b: u64) -> u128 {
    (a as u128) * (b as u128)
}

/// h = (h + m + hibit 2^128) r mod p (partially reduced), for one block of
/// two little-endian words `m0`, `m1`.
#[inline(always)]
pub(crate) fn block_words(h: &mut Acc, k: &Key64, m0: u64, m1: u64, hibit: u64) {
    // h += m
    let (h0, c) = h[0].overflowing_add(m0);
    let (h1, c1) = h[1].overflowing_add(m1);
    let (h1, c2) = h1.overflowing_add(c as u64);
    let h2 = h[2] + hibit + (c1 as u64) + (c2 as u64);
    // d = h r (mod p), see the module comment.
    let d0 = mul64(h0, k.r0) + mul64(h1, k.s1);
    let d1 = mul64(h0, k.r1) + mul64(h1, k.r0) + mul64(h2, k.s1);
    let d2 = h2 * k.r0;
    let t0 = d0 as u64;
    let (t1, c) = ((d0 >> 64) as u64).overflowing_add(d1 as u64);
    let t2 = ((d1 >> 64) as u64) + d2 + (c as u64);
    // Fold the bits from 2^130 up: 5c = (t2 & !3) + (t2 >> 2).
    let f = (t2 & !3) + (t2 >> 2);
    let (h0, c) = t0.overflowing_add(f);
    let (h1, c) = t1.overflowing_add(c as u64);
    *h = [h0, h1, (t2 & 3) + (c as u64)];
}

/// One full 16-byte block (with the 2^128 bit).
#[inline(always)]
pub(crate) fn block(h: &mut Acc, k: &Key64, m: &[u8; 16], hibit: u64) {
    let m0 = u64::from_le_bytes(m[0..8].try_into().unwrap());
    let m1 = u64::from_le_bytes(m[8..16].try_into().unwrap());
    block_words(h, k, m0, m1, hibit);
}

/// Whole 16-byte blocks (each with the 2^128 bit).
#[inline(always)]
pub(crate) fn blocks(h: &mut Acc, k: &Key64, data: &[u8]) {
    debug_assert!(data.len().is_multiple_of(16));
    for c in data.chunks_exact(16) {
        block(h, k, c.try_into().unwrap(), 1);
    }
}

/// A final partial block (1..15 bytes): the bytes, then a 1 byte, then
/// zeros, without the 2^128 bit.
#[inline(always)]
pub(crate) fn last_block(h: &mut Acc, k: &Key64, tail: &[u8]) {
    debug_assert!(!tail.is_empty() && tail.len() < 16);
    let mut buf = [0u8; 16];
    buf[..tail.len()].copy_from_slice(tail);
    buf[tail.len()] = 1;
    block(h, k, &buf, 0);
    // SAFETY: a volatile write through a valid &mut, so the copy of the
    // message tail does not outlive the call.
    unsafe { core::ptr::write_volatile(&mut buf, [0u8; 16]) };
}

/// The unique representative of h mod p as (low 128 bits, bits 128..129).
#[inline(always)]
pub(crate) fn reduce_full(h: &Acc) -> (u128, u64) {
    // Fold h2's bits from 2 up once more: h < 2^130 + 35.
    let t2 = h[2];
    let f = (t2 & !3) + (t2 >> 2);
    let (h0, c) = h[0].overflowing_add(f);
    let (h1, c) = h[1].overflowing_add(c as u64);
    let h2 = (t2 & 3) + (c as u64);
    // g = h + 5; h >= p exactly when g >= 2^130.
    let (g0, c) = h0.overflowing_add(5);
    let (g1, c) = h1.overflowing_add(c as u64);
    let g2 = h2 + (c as u64);
    let use_g = (g2 >> 2).wrapping_neg(); // all ones when g >= 2^130
    let lo =
        ((h0 & !use_g) | (g0 & use_g)) as u128 | ((((h1 & !use_g) | (g1 & use_g)) as u128) << 64);
    let top = (h2 & !use_g) | ((g2 & 3) & use_g);
    (lo, top)
}

/// (h mod p + s) mod 2^128, little-endian: the tag.
#[inline(always)]
pub(crate) fn finalize(h: &Acc, s: &[u8; 16]) -> [u8; 16] {
    let (lo, _) = reduce_full(h);
    lo.wrapping_add(u128::from_le_bytes(*s)).to_le_bytes()
}

/// The fully reduced value as 17 little-endian bytes (130 bits).
pub(crate) fn to_bytes17(h: &Acc) -> [u8; 17] {
    let (lo, top) = reduce_full(h);
    let mut out = [0u8; 17];
    out[..16].copy_from_slice(&lo.to_le_bytes());
    out[16] = top as u8;
    out
}

/// The portable backend's token: it needs no CPU feature and has no vector
/// code (every backend runs the functions above for short inputs and tails).
#[derive(Clone, Copy)]
pub(crate) struct Imp;

impl super::Poly1305Imp for Imp {
    fn new() -> Option<Self> {
        Some(Imp)
    }
    const MIN_LEN: usize = usize::MAX;
    fn bulk<P: super::PowersSlot>(self, _: &mut Acc, _: &Key64, _: &mut P, _: &[u8]) -> usize {
        0
    }
}
