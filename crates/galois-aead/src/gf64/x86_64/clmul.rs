//! GF(2^64) multiplication with the PCLMULQDQ carry-less multiplier.
//!
//! PCLMULQDQ multiplies two 64-bit words carry-lessly into 128 bits, which
//! is exactly the raw product of two GF(2^64) elements; no Karatsuba is
//! needed at this width. The operands are reflected elements held as
//! big-endian integers, so the product is the reflected field product
//! shifted right by one, and the shared [`super::reduce`] shifts it back
//! and folds a^64..a^127 in with 1 + a + a^3 + a^4.
//!
//! Aggregated reduction: reduction is linear, so absorbing four blocks,
//! Y' = (((Y ^ X1)H ^ X2)H ^ X3)H ^ X4)H = (Y ^ X1)H^4 ^ X2 H^3 ^ X3 H^2 ^ X4 H,
//! costs four carry-less products XORed together and one reduction. H^1..H^4
//! are computed at key setup.
//!
//! A key is built only after `crate::detect::has_pclmul()` said yes, which is
//! what makes calling the `#[target_feature]` function sound.

use super::{reduce, Gf64Mul};
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// Blocks per aggregated reduction.
const N: usize = 4;

#[derive(Zeroize)]
pub(crate) struct Key {
    /// pow[i] = H^(i+1).
    pow: [u64; N],
}

/// The raw 128-bit carry-less product of a and b. A safe `target_feature`
/// function: callers without PCLMULQDQ enabled need an `unsafe` block.
#[target_feature(enable = "pclmulqdq,sse2")]
fn clmul(a: u64, b: u64) -> u128 {
    let p = _mm_clmulepi64_si128::<0x00>(_mm_cvtsi64_si128(a as i64), _mm_cvtsi64_si128(b as i64));
    let lo = _mm_cvtsi128_si64(p) as u64;
    let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)) as u64;
    ((hi as u128) << 64) | lo as u128
}

impl Key {
    /// Absorbs 1..=4 whole blocks with one reduction.
    #[target_feature(enable = "pclmulqdq,sse2")]
    fn absorb(&self, y: u64, blocks: &[u8]) -> u64 {
        let n = blocks.len() / 8;
        debug_assert!((1..=N).contains(&n));
        let mut acc = 0u128;
        for i in 0..n {
            let mut x = u64::from_be_bytes(blocks[8 * i..8 * i + 8].try_into().unwrap());
            if i == 0 {
                x ^= y;
            }
            acc ^= clmul(x, self.pow[n - 1 - i]);
        }
        reduce(acc)
    }
}

impl Gf64Mul for Key {
    fn new(h: u64) -> Option<Self> {
        if !crate::detect::has_pclmul() {
            return None;
        }
        let mut key = Key { pow: [0; N] };
        let mut p = h;
        for i in 0..N {
            key.pow[i] = p;
            // SAFETY: PCLMULQDQ was detected just above.
            p = reduce(unsafe { clmul(p, h) });
        }
        p.zeroize();
        Some(key)
    }

    fn mul_h(&self, x: u64) -> u64 {
        // SAFETY: a Key exists only where PCLMULQDQ was detected (new).
        reduce(unsafe { clmul(x, self.pow[0]) })
    }

    fn update_blocks(&self, mut y: u64, blocks: &[u8]) -> u64 {
        for chunk in blocks.chunks(8 * N) {
            // SAFETY: a Key exists only where PCLMULQDQ was detected (new).
            y = unsafe { self.absorb(y, chunk) };
        }
        y
    }
}
