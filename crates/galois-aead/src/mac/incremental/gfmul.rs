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
    // A u128 in memory is little-endian: lane 0 holds the low 64 bits.
    let va = _mm_loadu_si128((&a as *const u128).cast());
    let vb = _mm_loadu_si128((&b as *const u128).cast());
    let lo = _mm_clmulepi64_si128::<0x00>(va, vb);
    let hi = _mm_clmulepi64_si128::<0x11>(va, vb);
    let mid = _mm_xor_si128(
        _mm_clmulepi64_si128::<0x10>(va, vb),
        _mm_clmulepi64_si128::<0x01>(va, vb),
    );
    let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    // The 256-bit value hi:lo shifted left by one bit.
    let hi = _mm_or_si128(
        _mm_or_si128(
            _mm_slli_epi64::<1>(hi),
            _mm_slli_si128::<8>(_mm_srli_epi64::<63>(hi)),
        ),
        _mm_srli_si128::<8>(_mm_srli_epi64::<63>(lo)),
    );
    let lo = _mm_or_si128(
        _mm_slli_epi64::<1>(lo),
        _mm_slli_si128::<8>(_mm_srli_epi64::<63>(lo)),
    );
    // d = lo ^ (lo << 127) ^ (lo << 126) ^ (lo << 121): only lane 0's low
    // bits move, into lane 1.
    let t = _mm_xor_si128(
        _mm_xor_si128(_mm_slli_epi64::<63>(lo), _mm_slli_epi64::<62>(lo)),
        _mm_slli_epi64::<57>(lo),
    );
    let d = _mm_xor_si128(lo, _mm_slli_si128::<8>(t));
    // hi ^ d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7) as 128-bit shifts: each lane
    // shifted, plus the bits lane 1 passes down into lane 0.
    let r = _mm_xor_si128(
        _mm_xor_si128(_mm_srli_epi64::<1>(d), _mm_srli_epi64::<2>(d)),
        _mm_srli_epi64::<7>(d),
    );
    let c = _mm_xor_si128(
        _mm_xor_si128(_mm_slli_epi64::<63>(d), _mm_slli_epi64::<62>(d)),
        _mm_slli_epi64::<57>(d),
    );
    let res = _mm_xor_si128(
        _mm_xor_si128(hi, d),
        _mm_xor_si128(r, _mm_srli_si128::<8>(c)),
    );
    let mut out = 0u128;
    _mm_storeu_si128((&mut out as *mut u128).cast(), res);
    out
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
            let mut w = super::super::Windows::new(a);
            w.ensure(70_000, ONE, |x, y| m.mul(x, y));
            let mut p = ONE;
            for n in 0..600u64 {
                assert_eq!(w.pow(n, ONE, |x, y| m.mul(x, y)), p, "{n}");
                p = m.mul(p, a);
            }
            let big = w.pow(65_536 + 257, ONE, |x, y| m.mul(x, y));
            let mut want = ONE;
            let mut e = 65_536u64 + 257;
            let mut b = a;
            while e > 0 {
                if e & 1 == 1 {
                    want = m.mul(want, b);
                }
                b = m.mul(b, b);
                e >>= 1;
            }
            assert_eq!(big, want);
        }
    }
}
