//! General multiplication in GF(2^128), GCM bit order, for the powers
//! H^k of the incremental GMAC (the GHASH backends only multiply by a
//! fixed H): [`crate::gf128::mul`], PCLMULQDQ where detected, else the
//! portable constant-time `ctmul64`; both constant time.

/// The field's one: x^0, the most significant bit.
pub(crate) const ONE: u128 = 1 << 127;

/// The general field multiplier (a handle; the CPU choice is made, and
/// cached, inside [`crate::gf128::mul`]).
#[derive(Clone, Copy)]
pub(crate) struct Mul;

impl Mul {
    pub(crate) fn new() -> Self {
        Mul
    }

    /// a * b.
    #[inline]
    pub(crate) fn mul(self, a: u128, b: u128) -> u128 {
        crate::gf128::mul(a, b)
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
