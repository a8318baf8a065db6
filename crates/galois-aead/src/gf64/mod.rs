//! GF(2^64) in GCM's reflected bit order, for GCM over 64-bit block ciphers
//! (the GCM specification (McGrew and Viega), Appendix A; "The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 2 with w = 64).
//!
//! The field is GF(2)\[a\] / (a^64 + a^4 + a^3 + a + 1). As in GCM proper, an
//! element is the 64-bit string whose *leftmost* bit is the coefficient of
//! a^0; every backend here holds it as `u64::from_be_bytes(block)`, so the
//! integer's most significant bit is a^0 and its least significant bit a^63.
//! Multiplying by a is then a right shift, and a carried-out a^64 comes back
//! as 1 + a + a^3 + a^4, the constant [`R`] = 11011000 || 0^56.
//!
//! Three backends, one file each, each opening with its math:
//! [`Gf64Backend::Bitserial`] (the reference, Algorithm 1 of the spec cut to
//! 64 bits), [`Gf64Backend::Ctmul`] (portable, constant time, integer
//! multiplies) and [`Gf64Backend::Clmul`] (PCLMULQDQ, x86-64, chosen only
//! after run-time detection). All three are constant time.

use crate::error::Result;
use zeroize::Zeroize;

mod bitserial;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/clmul.rs"]
mod clmul;
mod ctmul;

/// 1 + a + a^3 + a^4 in the reflected bit order: what a^64 folds back to.
pub const R: u64 = 0xD8 << 56;

/// Multiplies an element by a (a right shift in GCM's bit order), in
/// constant time.
#[inline(always)]
pub(crate) fn mul_a(v: u64) -> u64 {
    (v >> 1) ^ (R & (v & 1).wrapping_neg())
}

/// Reduces a 128-bit carry-less product of two reflected elements.
///
/// For reflected operands x, y the integer carry-less product is the
/// reflected field product shifted right by one bit (reflection turns
/// degree i + j into bit position 126 - i - j of a 128-bit word, counted
/// from the top, whereas a^(i+j) belongs at position i + j from the top).
/// So shift left by one: then the high word holds a^0..a^63 (top bit a^0)
/// and the low word `lo` holds a^64..a^127 (top bit a^64). Each a^(64+j) is
/// a^j (1 + a + a^3 + a^4): XOR into the high word `lo` shifted right by 0,
/// 1, 3 and 4. The right shifts drop the terms that land at a^64 or beyond;
/// they are `lo` shifted left by 63, 61 and 60, of degree at most 3 after
/// one more fold, so folding them into `lo` first (`d`) finishes the job.
#[inline(always)]
pub(crate) fn reduce(prod: u128) -> u64 {
    let p = prod << 1;
    let hi = (p >> 64) as u64;
    let lo = p as u64;
    let d = lo ^ (lo << 63) ^ (lo << 61) ^ (lo << 60);
    hi ^ d ^ (d >> 1) ^ (d >> 3) ^ (d >> 4)
}

/// A GF(2^64) multiplication strategy keyed with H.
pub(crate) trait Gf64Mul: Zeroize + Sized {
    /// Prepares the multiplier for H; `None` if the CPU lacks the features.
    fn new(h: u64) -> Option<Self>;
    /// x * H.
    fn mul_h(&self, x: u64) -> u64;
    /// Absorbs whole 8-byte blocks: y <- (y xor B_i) * H for each.
    fn update_blocks(&self, mut y: u64, blocks: &[u8]) -> u64 {
        for b in blocks.chunks_exact(8) {
            y = self.mul_h(y ^ u64::from_be_bytes(b.try_into().unwrap()));
        }
        y
    }
}

/// The key enum of the table below: one variant per line, holding that
/// file's `Key`.
macro_rules! gf64_keys {
    ($($list:tt)*) => {
        crate::registry::mul_key_enum! { { $($list)* } Gf64Key for Gf64Backend, u64, 8; }
    };
}

crate::registry::registry! {
    /// A GF(2^64) multiplication backend for GCM-64. All are constant time.
    /// The list is the registry of `crate::registry`: fastest first, each
    /// line with the CPU-feature probe that makes it available.
    ///
    /// ```
    /// use galois_aead::gf64::{gf64_mul_with, Gf64Backend};
    /// let (a, b) = (*b"abcdefgh", *b"12345678");
    /// let want = gf64_mul_with(Gf64Backend::Bitserial, &a, &b)?;
    /// for backend in Gf64Backend::available() {
    ///     assert_eq!(gf64_mul_with(backend, &a, &b)?, want);
    /// }
    /// assert_eq!(Gf64Backend::Ctmul.name(), "gf64-ctmul");
    /// assert_eq!(Gf64Backend::from_name("clmul"), Err(galois_aead::Error::UnknownBackend));
    /// let auto = Gf64Backend::auto();
    /// assert!(auto.is_available() && auto != Gf64Backend::Bitserial);
    /// #[cfg(target_arch = "x86_64")]
    /// assert_eq!(Gf64Backend::Clmul.is_available(), galois_aead::detect::has_pclmul());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub enum Gf64Backend; path = "galois_aead::gf64::Gf64Backend", keys = gf64_keys;
    portable = Ctmul;
    Clmul => clmul, "gf64-clmul", ct = true, detect = crate::detect::has_pclmul, "PCLMULQDQ with four-block aggregated reduction (x86-64 only: the variant does not exist on other targets).", #[cfg(target_arch = "x86_64")];
    Ctmul => ctmul, "gf64-ctmul", ct = true, detect = crate::detect::always, "Portable: carry-less products from 32-bit integer multiplies with holes between the bits, Karatsuba, shift-and-XOR reduction.";
    Bitserial => bitserial, "gf64-bitserial", ct = true, detect = crate::detect::always, "One bit at a time with masks: the reference.";
}

/// Multiplies two GF(2^64) elements (8-byte blocks, GCM bit order) with the
/// bit-serial reference. For tests and tools.
///
/// ```
/// use galois_aead::gf64::gf64_mul;
/// let one = [0x80, 0, 0, 0, 0, 0, 0, 0]; // a^0 is the leftmost bit
/// assert_eq!(gf64_mul(b"anything", &one), *b"anything");
/// // a * a^63 = a^64 = 1 + a + a^3 + a^4.
/// assert_eq!(gf64_mul(&[0x40, 0, 0, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 0, 0, 1]), [0xd8, 0, 0, 0, 0, 0, 0, 0]);
/// ```
pub fn gf64_mul(a: &[u8; 8], b: &[u8; 8]) -> [u8; 8] {
    bitserial::mul(u64::from_be_bytes(*a), u64::from_be_bytes(*b)).to_be_bytes()
}

/// Multiplies two elements with a pinned backend (for cross-checks).
///
/// ```
/// use galois_aead::gf64::{gf64_mul, gf64_mul_with, Gf64Backend};
/// let (a, b) = ([3u8; 8], [0x81u8; 8]);
/// assert_eq!(gf64_mul_with(Gf64Backend::Ctmul, &a, &b)?, gf64_mul(&a, &b));
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn gf64_mul_with(backend: Gf64Backend, a: &[u8; 8], b: &[u8; 8]) -> Result<[u8; 8]> {
    let k = Gf64Key::new(u64::from_be_bytes(*b), backend)?;
    Ok(k.mul_h(u64::from_be_bytes(*a)).to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::registry::xorshift;

    #[test]
    fn one_is_identity_and_a_times_a63_is_a64() {
        let one = 1u64 << 63;
        let x = 0x0123_4567_89ab_cdefu64;
        assert_eq!(bitserial::mul(one, x), x);
        // a * a^63 = a^64 = 1 + a + a^3 + a^4 = R.
        assert_eq!(bitserial::mul(1u64 << 62, 1), R);
        assert_eq!(mul_a(1), R);
    }

    #[test]
    fn backends_agree_with_reference() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let a = xorshift(&mut s);
            let b = xorshift(&mut s);
            let want = bitserial::mul(a, b);
            for &be in Gf64Backend::available().iter() {
                let k = Gf64Key::new(b, be).unwrap();
                assert_eq!(k.mul_h(a), want, "{be} {a:016x} {b:016x}");
            }
        }
    }

    #[test]
    fn update_blocks_agree() {
        let mut s = 7u64;
        let data: Vec<u8> = (0..8 * 23).map(|_| xorshift(&mut s) as u8).collect();
        let h = xorshift(&mut s);
        let want = Gf64Key::new(h, Gf64Backend::Bitserial)
            .unwrap()
            .update_blocks(5, &data);
        for &be in Gf64Backend::available().iter() {
            for n in 0..=23 {
                let k = Gf64Key::new(h, be).unwrap();
                let y = k.update_blocks(5, &data[..8 * n]);
                let y = k.update_blocks(y, &data[8 * n..]);
                assert_eq!(y, want, "{be} split {n}");
            }
        }
    }

    #[test]
    fn field_axioms_hold() {
        let mut s = 3u64;
        for _ in 0..200 {
            let (a, b, c) = (xorshift(&mut s), xorshift(&mut s), xorshift(&mut s));
            let m = bitserial::mul;
            assert_eq!(m(a, b), m(b, a));
            assert_eq!(m(m(a, b), c), m(a, m(b, c)));
            assert_eq!(m(a, b ^ c), m(a, b) ^ m(a, c));
        }
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    /// Without the CPU features, the SIMD line is unavailable and its key
    /// is refused; automatic selection falls back to the portable line.
    #[test]
    fn unprobed_backends_are_unavailable() {
        let _hide = crate::detect::hidden::all();
        assert_eq!(
            Gf64Backend::available(),
            [Gf64Backend::Ctmul, Gf64Backend::Bitserial]
        );
        assert_eq!(Gf64Backend::auto(), Gf64Backend::Ctmul);
        for &b in Gf64Backend::ALL {
            assert_eq!(Gf64Key::new(1, b).is_ok(), b.is_available(), "{b}");
        }
    }

    #[test]
    fn order_is_fastest_first_and_auto_is_constant_time() {
        assert_eq!(Gf64Backend::ALL.last(), Some(&Gf64Backend::Bitserial));
        assert_eq!(Gf64Backend::auto(), Gf64Backend::available()[0]);
        assert!(Gf64Backend::auto().is_constant_time());
        for &b in Gf64Backend::ALL {
            assert_eq!(Gf64Backend::from_name(b.name()), Ok(b));
        }
    }
}
