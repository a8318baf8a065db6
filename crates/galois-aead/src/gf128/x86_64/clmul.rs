//! GHASH with the PCLMULQDQ carry-less multiplier (Gueron-Kounavis).
//!
//! Representation: a GCM element is loaded byte-reversed (PSHUFB), so the
//! register holds `u128::from_be_bytes(block)`, the same integer the
//! portable backends use: bit 127 is x^0. We never reverse bits; the
//! reduction is the bit-reflected one of the `gf128` module doc
//! ([`super::ctmul64::reduce`]).
//!
//! Multiplication is the carry-less Karatsuba of the paper's Algorithm 1:
//! for a = a1:a0 and b = b1:b0 (64-bit halves), a0*b0, a1*b1 and
//! (a0^a1)*(b0^b1) give the middle term by two XORs, three PCLMULQDQ
//! instead of four. The XOR of the halves of each key power is computed
//! once, at key setup.
//!
//! Aggregated reduction: n blocks absorbed into the accumulator Y,
//! Y' = (...((Y^X1)H ^ X2)H ... ^ Xn)H, equal
//! (Y^X1)H^n ^ X2 H^(n-1) ^ ... ^ Xn H. With H^1..H^8 precomputed, eight
//! blocks cost eight unreduced Karatsuba products, XORed together (the
//! reduction is linear), and a single reduction. This generalizes the
//! even/odd two-multiplier trick of the spec's section 4.2 (which is the
//! case n = 2) to n = 8.
//!
//! The key exists only where `pclmulqdq`, `sse2` and `ssse3` were detected,
//! which makes calling the `#[target_feature]` functions sound.

use super::ctmul64::reduce;
use super::GhashImpl;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// Blocks per aggregated reduction.
const N: usize = 8;

/// Boxed (see `shoup8_vartime::Shoup`: `GhashKey` is as large as its
/// largest variant).
#[derive(Zeroize)]
pub(crate) struct Key {
    /// pow[i] = H^(i+1).
    pow: Box<[u128; N]>,
    /// kar[i] = high half ^ low half of pow[i], for Karatsuba.
    kar: Box<[u64; N]>,
}

/// Loads a `u128` into a vector (little-endian lanes, as the integer lies in
/// memory). SSE2 is part of x86-64, and the load reads exactly `*v`.
#[inline(always)]
fn load_u128(v: &u128) -> __m128i {
    // SAFETY: `v` is a valid, readable 16-byte value; the load is unaligned.
    unsafe { _mm_loadu_si128((v as *const u128).cast()) }
}

/// The inverse of [`load_u128`].
#[inline(always)]
fn to_u128(v: __m128i) -> u128 {
    let mut out = 0u128;
    // SAFETY: `out` is a writable 16-byte local; the store is unaligned.
    unsafe { _mm_storeu_si128((&mut out as *mut u128).cast(), v) };
    out
}

/// a * b for any two elements: the Karatsuba product of the module doc, then
/// [`reduce`]. A safe `target_feature` function: callers without PCLMULQDQ
/// enabled need an `unsafe` block and a detection result.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn mul(a: u128, b: u128) -> u128 {
    let va = load_u128(&a);
    let vb = load_u128(&b);
    let lo = _mm_clmulepi64_si128::<0x00>(va, vb);
    let hi = _mm_clmulepi64_si128::<0x11>(va, vb);
    let ka = _mm_xor_si128(va, _mm_shuffle_epi32::<0x4e>(va));
    let kb = _mm_xor_si128(vb, _mm_shuffle_epi32::<0x4e>(vb));
    let mid = _mm_clmulepi64_si128::<0x00>(ka, kb);
    let mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
    let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    reduce(to_u128(hi), to_u128(lo))
}

impl Key {
    /// Absorbs 1..=8 blocks with one reduction.
    ///
    /// # Safety
    ///
    /// The CPU must support PCLMULQDQ and SSSE3 (a `Key` proves it).
    #[target_feature(enable = "pclmulqdq,sse2,ssse3")]
    unsafe fn absorb(&self, y: u128, blocks: &[u8]) -> u128 {
        let n = blocks.len() / 16;
        debug_assert!((1..=N).contains(&n));
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let mut lo = _mm_setzero_si128();
        let mut hi = _mm_setzero_si128();
        let mut mid = _mm_setzero_si128();
        for i in 0..n {
            // SAFETY: i < n = blocks.len() / 16, so the 16 bytes at 16 i are
            // inside `blocks`; the load is unaligned.
            let m = unsafe { _mm_loadu_si128(blocks.as_ptr().add(16 * i).cast()) };
            let mut x = _mm_shuffle_epi8(m, bswap);
            if i == 0 {
                x = _mm_xor_si128(x, load_u128(&y));
            }
            let p = n - 1 - i;
            let h = load_u128(&self.pow[p]);
            let hk = _mm_cvtsi64_si128(self.kar[p] as i64);
            lo = _mm_xor_si128(lo, _mm_clmulepi64_si128::<0x00>(x, h));
            hi = _mm_xor_si128(hi, _mm_clmulepi64_si128::<0x11>(x, h));
            let xk = _mm_xor_si128(x, _mm_shuffle_epi32::<0x4e>(x));
            mid = _mm_xor_si128(mid, _mm_clmulepi64_si128::<0x00>(xk, hk));
        }
        mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
        let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
        let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
        reduce(to_u128(hi), to_u128(lo))
    }
}

impl GhashImpl for Key {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = N * 16 + N * 8;

    fn new(h: u128) -> Option<Self> {
        if !crate::detect::has_pclmul() {
            return None;
        }
        let mut key = Key {
            pow: Box::new([0; N]),
            kar: Box::new([0; N]),
        };
        // mul_h only reads pow[0] and kar[0], so each power can be computed
        // from the previous one on the key being built.
        let mut p = h;
        for i in 0..N {
            key.pow[i] = p;
            key.kar[i] = ((p >> 64) as u64) ^ (p as u64);
            p = key.mul_h(p);
        }
        p.zeroize();
        Some(key)
    }

    fn mul_h(&self, x: u128) -> u128 {
        // SAFETY: a Key exists only where PCLMULQDQ/SSSE3 were detected (new).
        unsafe { self.absorb(0, &x.to_be_bytes()) }
    }

    fn update_blocks(&self, mut y: u128, blocks: &[u8]) -> u128 {
        for chunk in blocks.chunks(16 * N) {
            // SAFETY: as in mul_h.
            y = unsafe { self.absorb(y, chunk) };
        }
        y
    }
}
