//! Portable constant-time Poly1305 arithmetic: radix 2^44, three 64-bit
//! limbs, 128-bit products.
//!
//! # Representation
//!
//! An element h of Z/(2^130 - 5) is kept as `h0 + h1 2^44 + h2 2^88` with
//! `h0, h1` normally below 2^44 and `h2` below 2^42 (44 + 44 + 42 = 130
//! bits). Limbs are allowed to run a few bits over between operations (the
//! bounds are stated at each step); only [`finalize`] produces the unique
//! representative below p = 2^130 - 5.
//!
//! # Multiplication
//!
//! With r = r0 + r1 2^44 + r2 2^88, the product h r has partial products at
//! 2^0, 2^44, 2^88, 2^132 and 2^176. Since 2^130 = 5 (mod p), 2^132 = 20
//! (mod p), so the terms at 2^132 and 2^176 fold down multiplied by 20:
//!
//! ```text
//! d0 = h0 r0 + h1 (20 r2) + h2 (20 r1)
//! d1 = h0 r1 + h1 r0      + h2 (20 r2)
//! d2 = h0 r2 + h1 r1      + h2 r0
//! ```
//!
//! Each d_i is a `u128`. Bounds: a clamped r is below 2^124, so r0, r1 <
//! 2^44, r2 < 2^36 (powers of r used by the SIMD code are fully reduced, so
//! r2 < 2^42); 20 r1 < 2^49. Entering a multiplication h0, h1 < 2^45 and
//! h2 < 2^43 (a carried h plus a message block), so every d_i < 2^95.
//!
//! # Carrying
//!
//! One pass carries d0 -> d1 -> d2, folds the bits of d2 above 2^130 back
//! into h0 times 5, and carries h0 -> h1 once more. Afterwards h0 < 2^44,
//! h2 < 2^42 and h1 < 2^44 + 2^13. All of it is straight-line code: no
//! branch or memory index depends on the key or the message.
//!
//! # Final reduction
//!
//! [`finalize`] carries fully, computes g = h - p with a borrow chain and
//! selects g or h by a mask made from the sign of g (no branch), then adds
//! the 128-bit pad s modulo 2^128.

/// 2^44 - 1.
pub(crate) const M44: u64 = (1 << 44) - 1;
/// 2^42 - 1.
pub(crate) const M42: u64 = (1 << 42) - 1;

/// An element in radix 2^44.
pub(crate) type Limbs = [u64; 3];

/// Splits 16 little-endian bytes into radix-2^44 limbs (no 2^128 bit).
#[inline(always)]
pub(crate) fn limbs_from_bytes(b: &[u8; 16]) -> Limbs {
    let t0 = u64::from_le_bytes(b[0..8].try_into().unwrap());
    let t1 = u64::from_le_bytes(b[8..16].try_into().unwrap());
    [t0 & M44, ((t0 >> 44) | (t1 << 20)) & M44, t1 >> 24]
}

/// h = (h + m + hibit 2^128) r mod p, for one 16-byte block.
/// `hibit` is 1 for a full block and 0 for a padded final block.
#[inline(always)]
pub(crate) fn block(h: &mut Limbs, r: &Limbs, m: &[u8; 16], hibit: u64) {
    let t0 = u64::from_le_bytes(m[0..8].try_into().unwrap());
    let t1 = u64::from_le_bytes(m[8..16].try_into().unwrap());
    let h0 = h[0] + (t0 & M44);
    let h1 = h[1] + (((t0 >> 44) | (t1 << 20)) & M44);
    let h2 = h[2] + ((t1 >> 24) | (hibit << 40));
    *h = mul_carry(h0, h1, h2, r);
}

/// (h0 + h1 2^44 + h2 2^88) r mod p, partially carried.
#[inline(always)]
pub(crate) fn mul_carry(h0: u64, h1: u64, h2: u64, r: &Limbs) -> Limbs {
    let (r0, r1, r2) = (r[0], r[1], r[2]);
    let s1 = r1 * 20;
    let s2 = r2 * 20;
    let m = |a: u64, b: u64| (a as u128) * (b as u128);
    let d0 = m(h0, r0) + m(h1, s2) + m(h2, s1);
    let mut d1 = m(h0, r1) + m(h1, r0) + m(h2, s2);
    let mut d2 = m(h0, r2) + m(h1, r1) + m(h2, r0);
    d1 += d0 >> 44;
    let h0 = (d0 as u64) & M44;
    d2 += d1 >> 44;
    let h1 = (d1 as u64) & M44;
    let c = (d2 >> 42) as u64;
    let h2 = (d2 as u64) & M42;
    let h0 = h0 + c * 5;
    let h1 = h1 + (h0 >> 44);
    let h0 = h0 & M44;
    [h0, h1, h2]
}

/// a b mod p (partially carried).
#[inline(always)]
pub(crate) fn mul(a: &Limbs, b: &Limbs) -> Limbs {
    mul_carry(a[0], a[1], a[2], b)
}

/// Carries limbs of up to 63 bits each into h0, h1 < 2^44 + 2^20, h2 < 2^42.
#[inline(always)]
pub(crate) fn carry(h: &mut Limbs) {
    let mut h1 = h[1] + (h[0] >> 44);
    let h0 = h[0] & M44;
    let h2 = h[2] + (h1 >> 44);
    h1 &= M44;
    let h0 = h0 + (h2 >> 42) * 5;
    let h2 = h2 & M42;
    let h1 = h1 + (h0 >> 44);
    let h0 = h0 & M44;
    *h = [h0, h1, h2];
}

/// Processes whole 16-byte blocks (each with the 2^128 bit).
pub(crate) fn blocks(h: &mut Limbs, r: &Limbs, data: &[u8]) {
    debug_assert!(data.len() % 16 == 0);
    for c in data.chunks_exact(16) {
        block(h, r, c.try_into().unwrap(), 1);
    }
}

/// The unique representative of h mod p, in limbs h0, h1 < 2^44, h2 < 2^42.
#[inline(always)]
pub(crate) fn reduce_full(h: &Limbs) -> Limbs {
    let mut h = *h;
    carry(&mut h);
    carry(&mut h);
    // Now h0 < 2^44, h1 <= 2^44, h2 < 2^42: make h1 canonical.
    let h2 = h[2] + (h[1] >> 44);
    let h1 = h[1] & M44;
    let h0 = h[0];
    // h < 2^130 + 2^88 < 2p. g = h - p = h + 5 - 2^130.
    let g0 = h0 + 5;
    let g1 = h1 + (g0 >> 44);
    let g0 = g0 & M44;
    let g2 = h2.wrapping_add(g1 >> 44).wrapping_sub(1 << 42);
    let g1 = g1 & M44;
    // g2 negative (top bit set) means h < p: keep h.
    let keep_g = (g2 >> 63).wrapping_sub(1); // all ones when g >= 0
    [
        (h0 & !keep_g) | (g0 & keep_g),
        (h1 & !keep_g) | (g1 & keep_g),
        (h2 & !keep_g) | (g2 & keep_g),
    ]
}

/// The fully reduced value as 17 little-endian bytes (130 bits).
pub(crate) fn to_bytes17(h: &Limbs) -> [u8; 17] {
    let h = reduce_full(h);
    let lo = (h[0] as u128) | ((h[1] as u128) << 44) | ((h[2] as u128) << 88);
    let mut out = [0u8; 17];
    out[..16].copy_from_slice(&lo.to_le_bytes());
    out[16] = (h[2] >> 40) as u8;
    out
}

/// (h mod p + s) mod 2^128, little-endian: the tag.
#[inline(always)]
pub(crate) fn finalize(h: &Limbs, s: &[u8; 16]) -> [u8; 16] {
    let h = reduce_full(h);
    let lo = (h[0] as u128) | ((h[1] as u128) << 44) | ((h[2] as u128) << 88);
    lo.wrapping_add(u128::from_le_bytes(*s)).to_le_bytes()
}
