//! General multiplication in GF(2^128), GCM bit order, for the powers
//! H^k of the incremental GMAC (the GHASH backends only multiply by a
//! fixed H).
//!
//! With PCLMULQDQ (detected at run time): the 256-bit carry-less product
//! of a = a1:a0 and b = b1:b0 is a0 b0 + (a0 b1 + a1 b0) x^64 + a1 b1 x^128
//! (four PCLMULQDQ, schoolbook). The operands are reflected (most
//! significant bit = x^0), so that integer product is the reflected field
//! product shifted right by one bit: shift the 256 bits left by one. Then
//! the high half holds x^0..x^127 and the low half `lo` x^128..x^255 (its
//! top bit x^128). Each x^(128+j) = x^j (1 + x + x^2 + x^7): XOR `lo`
//! shifted right by 0, 1, 2 and 7 into the high half. Those shifts drop the
//! terms that pass x^127; they are `lo` shifted left by 127, 126 and 121,
//! of degree at most 6 after one more fold, so folding them into `lo`
//! first finishes the reduction.
//!
//! Without PCLMULQDQ the product comes from the portable constant-time
//! GHASH backend keyed with b. Both paths are constant time.

use crate::gf128::{Backend, GhashKey};
use zeroize::Zeroize;

/// The field's one: x^0, the most significant bit.
pub(crate) const ONE: u128 = 1 << 127;

/// A multiplier chosen once by CPU detection.
#[derive(Clone, Copy)]
pub(crate) struct Mul {
    clmul: bool,
}

impl Mul {
    pub(crate) fn new() -> Self {
        Mul {
            clmul: cfg!(target_arch = "x86_64") && crate::detect::has_pclmul(),
        }
    }

    /// a * b.
    #[inline]
    pub(crate) fn mul(self, a: u128, b: u128) -> u128 {
        #[cfg(target_arch = "x86_64")]
        if self.clmul {
            // SAFETY: `clmul` is true only where PCLMULQDQ was detected.
            return unsafe { mul_clmul(a, b) };
        }
        let mut k = GhashKey::new(b, Backend::Ctmul64).expect("portable backend");
        let r = k.mul_h(a);
        k.zeroize();
        r
    }

    /// x^n for the table `pow2` of x^(2^j): square-and-multiply with the
    /// squares precomputed. `n` is public (a block position).
    pub(crate) fn pow(self, pow2: &[u128; 64], n: u64) -> u128 {
        let mut r = ONE;
        let mut first = true;
        for (j, p) in pow2.iter().enumerate() {
            if (n >> j) & 1 == 1 {
                r = if first { *p } else { self.mul(r, *p) };
                first = false;
            }
        }
        r
    }

    /// The table x^(2^j), j = 0..63.
    pub(crate) fn pow2_table(self, x: u128) -> [u128; 64] {
        let mut t = [0u128; 64];
        let mut p = x;
        for e in t.iter_mut() {
            *e = p;
            p = self.mul(p, p);
        }
        t
    }

    /// x^-1 = x^(2^128 - 2) (x nonzero), by square-and-multiply.
    pub(crate) fn inverse(self, x: u128) -> u128 {
        let mut r = ONE;
        for i in (0..128).rev() {
            r = self.mul(r, r);
            if i != 0 {
                r = self.mul(r, x);
            }
        }
        r
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
unsafe fn mul_clmul(a: u128, b: u128) -> u128 {
    use core::arch::x86_64::*;
    let va = _mm_set_epi64x((a >> 64) as i64, a as i64);
    let vb = _mm_set_epi64x((b >> 64) as i64, b as i64);
    let lo = _mm_clmulepi64_si128::<0x00>(va, vb);
    let hi = _mm_clmulepi64_si128::<0x11>(va, vb);
    let m1 = _mm_clmulepi64_si128::<0x10>(va, vb);
    let m2 = _mm_clmulepi64_si128::<0x01>(va, vb);
    let mid = _mm_xor_si128(m1, m2);
    let get = |v: __m128i| -> u128 {
        let l = _mm_cvtsi128_si64(v) as u64;
        let h = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        ((h as u128) << 64) | l as u128
    };
    let (lo, hi, mid) = (get(lo), get(hi), get(mid));
    let hi = hi ^ (mid >> 64);
    let lo = lo ^ (mid << 64);
    // Shift the 256-bit product left by one, then reduce.
    let hi = (hi << 1) | (lo >> 127);
    let lo = lo << 1;
    let d = lo ^ (lo << 127) ^ (lo << 126) ^ (lo << 121);
    hi ^ d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_reference_and_inverts() {
        let m = Mul::new();
        let mut s = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3211u128;
        for _ in 0..500 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let a = s;
            let b = s.rotate_left(61) ^ 0x5555;
            let want = crate::gf128::mul_reference(a, b);
            assert_eq!(m.mul(a, b), want);
            let portable = Mul { clmul: false };
            assert_eq!(portable.mul(a, b), want);
            assert_eq!(m.mul(a, m.inverse(a)), ONE);
            let t = m.pow2_table(a);
            let mut p = ONE;
            for n in 0..40u64 {
                assert_eq!(m.pow(&t, n), p);
                p = m.mul(p, a);
            }
        }
    }
}
