//! Radix-2^44 arithmetic shared by the SIMD backends: powers of r,
//! carrying, and conversion to and from the portable radix 2^64.
//!
//! # Representation
//!
//! An element h of Z/(2^130 - 5) is `h0 + h1 2^44 + h2 2^88` with `h0, h1`
//! normally below 2^44 and `h2` below 2^42 (44 + 44 + 42 = 130 bits); limbs
//! may run a few bits over between operations (bounds at each step). The
//! IFMA backend computes in this radix directly (52-bit multipliers); the
//! AVX2 backend converts it to five 26-bit limbs.
//!
//! # Multiplication
//!
//! With r = r0 + r1 2^44 + r2 2^88, the partial products of h r sit at 2^0,
//! 2^44, 2^88, 2^132 and 2^176. Since 2^130 = 5 (mod p), 2^132 = 20, so the
//! terms at 2^132 and 2^176 fold down multiplied by 20:
//!
//! ```text
//! d0 = h0 r0 + h1 (20 r2) + h2 (20 r1)
//! d1 = h0 r1 + h1 r0      + h2 (20 r2)
//! d2 = h0 r2 + h1 r1      + h2 r0
//! ```
//!
//! each a `u128`. Entering a product h0, h1 < 2^45 and h2 < 2^43; r limbs
//! below 2^44 + 2^13 (r2 < 2^42); 20 r1 < 2^49: every d_i < 2^95. One carry
//! pass d0 -> d1 -> d2, the bits of d2 above 2^130 folded into h0 times 5,
//! then h0 -> h1, leaves h0 < 2^44, h2 < 2^42, h1 < 2^44 + 2^13. All
//! straight-line code: no branch or memory index depends on secrets.

/// 2^44 - 1.
pub(crate) const M44: u64 = (1 << 44) - 1;
/// 2^42 - 1.
pub(crate) const M42: u64 = (1 << 42) - 1;

/// An element in radix 2^44.
pub(crate) type Limbs = [u64; 3];

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

/// A radix-2^64 element (h0 + h1 2^64 + h2 2^128, h2 < 2^62) in radix
/// 2^44, carried.
#[inline(always)]
pub(crate) fn from64(h: &[u64; 3]) -> Limbs {
    let mut x = [
        h[0] & M44,
        ((h[0] >> 44) | (h[1] << 20)) & M44,
        (h[1] >> 24) | (h[2] << 40),
    ];
    carry(&mut x);
    x
}

/// A radix-2^44 element (limbs below 2^62) in radix 2^64, with the top
/// word small (below 2^22).
#[inline(always)]
pub(crate) fn to64(h: &Limbs) -> [u64; 3] {
    // Exact 44-bit h0 and h1, so the words below do not overlap.
    let [h0, h1, h2] = exact(h);
    [h0 | (h1 << 44), (h1 >> 20) | (h2 << 24), h2 >> 40]
}

/// h carried, then h0 and h1 made exactly 44 bits (h2 keeps the rest).
#[inline(always)]
fn exact(h: &Limbs) -> Limbs {
    let mut h = *h;
    carry(&mut h);
    let h1 = h[1] + (h[0] >> 44);
    let h0 = h[0] & M44;
    let h2 = h[2] + (h1 >> 44);
    [h0, h1 & M44, h2]
}

/// r (clamped, 16 bytes) in radix 2^44.
#[inline(always)]
pub(crate) fn r_from_bytes(b: &[u8; 16]) -> Limbs {
    let t0 = u64::from_le_bytes(b[0..8].try_into().unwrap());
    let t1 = u64::from_le_bytes(b[8..16].try_into().unwrap());
    [t0 & M44, ((t0 >> 44) | (t1 << 20)) & M44, t1 >> 24]
}

/// Mask of a 26-bit limb (the AVX2 and NEON backends' radix).
pub(crate) const M26: u64 = (1 << 26) - 1;

/// Radix 2^44 (carried) to five 26-bit limbs (the top one may keep a carry
/// bit), for the AVX2 and NEON backends.
pub(crate) fn to26(h: &Limbs) -> [u64; 5] {
    let [h0, h1, h2] = exact(h);
    [
        h0 & M26,
        ((h0 >> 26) | (h1 << 18)) & M26,
        (h1 >> 8) & M26,
        ((h1 >> 34) | (h2 << 10)) & M26,
        h2 >> 16,
    ]
}

/// Five radix-2^26 limbs (each up to 2^40) back to radix 2^44, carried.
pub(crate) fn to44(l: &[u64; 5]) -> Limbs {
    let mut l = *l;
    for i in 0..4 {
        l[i + 1] += l[i] >> 26;
        l[i] &= M26;
    }
    let mut h = [
        l[0] | ((l[1] & ((1 << 18) - 1)) << 26),
        (l[1] >> 18) | (l[2] << 8) | ((l[3] & ((1 << 10) - 1)) << 34),
        (l[3] >> 10) | (l[4] << 16),
    ];
    carry(&mut h);
    h
}
