//! Portable constant-time GF(2^64) multiplication from integer multiplies.
//!
//! A carry-less product is an integer product without carries. Keep the
//! carries away from the bits we read by spreading each 32-bit operand
//! over four "holey" words, x_k = x & (0x11111111 << k): one bit in four
//! kept, three zero bits between. In the 64-bit integer product x_i * y_j a
//! bit position p collects one partial product for each pair of kept bits
//! whose positions add up to p; with eight kept bits per operand there are
//! at most eight such pairs, a count that fits in the three free bits above
//! p, so the parity (the carry-less bit) is exactly bit p of the sum. The
//! positions p = k (mod 4) of the product come from the four pairs with
//! i + j = k (mod 4): XOR those four products and keep the bits of class k.
//! That is `clmul32`, a full 32 x 32 -> 64 carry-less product.
//!
//! A 64 x 64 -> 128 product is Karatsuba on 32-bit halves: three
//! `clmul32`. The reduction of the 128-bit product of two reflected
//! elements is shared with the PCLMULQDQ backend, [`super::reduce`].
//!
//! Integer multiplication is constant time on the CPUs we target; there
//! are no tables, branches or secret-dependent indices here.

use super::reduce;

const M0: u64 = 0x1111_1111;
const M1: u64 = M0 << 1;
const M2: u64 = M0 << 2;
const M3: u64 = M0 << 3;
const W0: u64 = 0x1111_1111_1111_1111;

/// The 64-bit carry-less product of two 32-bit values.
#[inline(always)]
fn clmul32(x: u32, y: u32) -> u64 {
    let (x, y) = (x as u64, y as u64);
    let xs = [x & M0, x & M1, x & M2, x & M3];
    let ys = [y & M0, y & M1, y & M2, y & M3];
    let m = u64::wrapping_mul;
    let mut out = 0u64;
    for k in 0..4 {
        let mut z = 0u64;
        for i in 0..4 {
            z ^= m(xs[i], ys[(k + 4 - i) & 3]);
        }
        out |= z & (W0 << k);
    }
    out
}

/// The 128-bit carry-less product of two 64-bit values (Karatsuba).
#[inline(always)]
pub(crate) fn clmul64(a: u64, b: u64) -> u128 {
    let (a1, a0) = ((a >> 32) as u32, a as u32);
    let (b1, b0) = ((b >> 32) as u32, b as u32);
    let lo = clmul32(a0, b0);
    let hi = clmul32(a1, b1);
    let mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    ((hi as u128) << 64) ^ ((mid as u128) << 32) ^ lo as u128
}

/// x * y in GF(2^64): [`clmul64`] then [`reduce`].
#[inline(always)]
fn mul(x: u64, y: u64) -> u64 {
    reduce(clmul64(x, y))
}

crate::registry::plain_key!(u64, super::Gf64Mul);

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook carry-less product, for the test only.
    fn clmul64_slow(a: u64, b: u64) -> u128 {
        let mut r = 0u128;
        for i in 0..64 {
            if (b >> i) & 1 == 1 {
                r ^= (a as u128) << i;
            }
        }
        r
    }

    #[test]
    fn clmul64_matches_schoolbook() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..5000 {
            let a = crate::registry::xorshift(&mut s);
            let b = s.rotate_left(29) ^ 0xdead_beef;
            assert_eq!(clmul64(a, b), clmul64_slow(a, b));
        }
        assert_eq!(
            clmul64(u64::MAX, u64::MAX),
            clmul64_slow(u64::MAX, u64::MAX)
        );
    }
}
