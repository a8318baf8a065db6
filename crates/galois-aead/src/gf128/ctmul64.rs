//! Portable constant-time GHASH from 64-bit integer multiplies.
//!
//! A carry-less product can be had from an ordinary integer multiplier if
//! the carries are kept from reaching the bits we read. Split each 64-bit
//! operand into four "holey" parts, x_k = x & (0x1111..11 << k): every
//! fourth bit, three zero bits between. In x_i * y_j the bit at position p
//! collects one partial product per pair of set bits with a+b = p, at most
//! 15 of them inside the low 64 bits (16 only at bit 60 of x_0 * y_0, whose
//! carry leaves the word), so the count fits in the four-bit gap and its
//! parity, the carry-less bit, sits exactly at p. The product bits with
//! p = k (mod 4) come from the four pairs with i + j = k (mod 4); XOR them
//! and mask with 0x1111..11 << k. That yields the low 64 bits of the
//! 128-bit carry-less product (`bmul64`). The high 64 bits come from the
//! same routine on bit-reversed operands: rev(x) * rev(y) = rev(x * y) >> 1.
//!
//! A 128 x 128 product uses Karatsuba (three 64 x 64 products, so six
//! `bmul64`), then [`reduce`] (the bit-reflected reduction of the `gf128`
//! module doc).
//!
//! Integer multiplication runs in constant time on the CPUs we target; no
//! table, branch or secret-dependent index is used. This is the automatic
//! choice where PCLMULQDQ is missing.

const M0: u64 = 0x1111_1111_1111_1111;
const M1: u64 = M0 << 1;
const M2: u64 = M0 << 2;
const M3: u64 = M0 << 3;

/// The low 64 bits of the carry-less product of x and y.
#[inline(always)]
fn bmul64(x: u64, y: u64) -> u64 {
    let (x0, x1, x2, x3) = (x & M0, x & M1, x & M2, x & M3);
    let (y0, y1, y2, y3) = (y & M0, y & M1, y & M2, y & M3);
    let m = u64::wrapping_mul;
    let z0 = m(x0, y0) ^ m(x1, y3) ^ m(x2, y2) ^ m(x3, y1);
    let z1 = m(x0, y1) ^ m(x1, y0) ^ m(x2, y3) ^ m(x3, y2);
    let z2 = m(x0, y2) ^ m(x1, y1) ^ m(x2, y0) ^ m(x3, y3);
    let z3 = m(x0, y3) ^ m(x1, y2) ^ m(x2, y1) ^ m(x3, y0);
    (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3)
}

/// The full 128-bit carry-less product of x and y.
#[inline(always)]
fn clmul64(x: u64, y: u64) -> u128 {
    let lo = bmul64(x, y);
    let hi = bmul64(x.reverse_bits(), y.reverse_bits()).reverse_bits() >> 1;
    ((hi as u128) << 64) | lo as u128
}

/// The 256-bit carry-less product of a and b, as (high, low) halves.
#[inline(always)]
pub(crate) fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0) = ((a >> 64) as u64, a as u64);
    let (b1, b0) = ((b >> 64) as u64, b as u64);
    let lo = clmul64(a0, b0);
    let hi = clmul64(a1, b1);
    let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (hi ^ (mid >> 64), lo ^ (mid << 64))
}

/// Reduces the raw carry-less product (hi, lo) of two GCM elements held as
/// big-endian integers to their field product: the bit-reflected reduction,
/// derived in the `gf128` module doc. The one implementation of it.
#[inline(always)]
pub(crate) fn reduce(hi: u128, lo: u128) -> u128 {
    let hi = (hi << 1) | (lo >> 127);
    let lo = lo << 1;
    let d = lo ^ (lo << 127) ^ (lo << 126) ^ (lo << 121);
    hi ^ d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7)
}

/// a * b for any two elements, no key: [`clmul128`] then [`reduce`].
#[inline(always)]
pub(crate) fn mul(a: u128, b: u128) -> u128 {
    let (hi, lo) = clmul128(a, b);
    reduce(hi, lo)
}

crate::registry::plain_key! {
    u128, super::GhashImpl;
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;
    const KEY_BYTES: usize = 16;
}
