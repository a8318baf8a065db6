//! [`Lanes`] for x86-64: `__m128i` (SSE2, SSSE3, SSE4.1, PCLMULQDQ; one
//! block), `__m256i` (AVX2 and VPCLMULQDQ; two) and `__m512i` (AVX-512 F
//! and BW, VPCLMULQDQ; four). A lane holds an element in integer form (see
//! `lanes.rs`; the reduction is derived in the `gf128` module doc); the
//! single-lane type of all three is `__m128i`. Written out per width so
//! each intrinsic is named where it is used.
//!
//! Every method body is one intrinsic (or a few) under the `Lanes`
//! contract: the caller enabled the width's features, and pointers are
//! valid for the bytes the method names.

use super::lanes::{read_upto16, write_upto16, Lanes};
use core::arch::x86_64::*;

/// The PSHUFB mask that reverses 16 bytes.
///
/// # Safety
/// SSE2 is enabled (always true on x86-64).
#[inline(always)]
unsafe fn bswap_mask() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
}

/// 32 bytes of ones, then 32 of zeros: the 16 or 32 bytes at 32 - n keep
/// the first n bytes of a vector.
#[repr(C, align(64))]
struct KeepMask([u8; 64]);
static KEEP: KeepMask = {
    let mut m = [0u8; 64];
    let mut i = 0;
    while i < 32 {
        m[i] = 0xff;
        i += 1;
    }
    KeepMask(m)
};

impl Lanes for __m128i {
    type Block = __m128i;
    const L: usize = 1;
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the Lanes contract (SSE2).
        unsafe { _mm_setzero_si128() }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the Lanes contract: p valid for 16 bytes.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // SAFETY: the Lanes contract: p valid for 16 bytes.
        unsafe { _mm_storeu_si128(p.cast(), v) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (SSE2).
        unsafe { _mm_xor_si128(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn clmul00(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (PCLMULQDQ).
        unsafe { _mm_clmulepi64_si128::<0x00>(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn clmul11(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (PCLMULQDQ).
        unsafe { _mm_clmulepi64_si128::<0x11>(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn bswap(a: Self) -> Self {
        // SAFETY: the Lanes contract (SSSE3).
        unsafe { _mm_shuffle_epi8(a, bswap_mask()) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn swap64(a: Self) -> Self {
        // SAFETY: the Lanes contract (SSE2).
        unsafe { _mm_shuffle_epi32::<0x4e>(a) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn broadcast(x: __m128i) -> Self {
        x
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn low(x: __m128i) -> Self {
        x
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn fold(a: Self) -> __m128i {
        a
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn keep(v: Self, n: usize) -> Self {
        // SAFETY: n < 16, so the 16 bytes at 32 - n lie in KEEP; SSE2.
        unsafe { _mm_and_si128(v, _mm_loadu_si128(KEEP.0.as_ptr().add(32 - n).cast())) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn with_lane(_v: Self, _l: usize, x: __m128i) -> Self {
        x
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        // SAFETY: p is valid for n bytes (the contract); SSE2.
        unsafe {
            let (lo, hi) = read_upto16(p, n);
            _mm_set_epi64x(hi as i64, lo as i64)
        }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m128i`.
    #[inline(always)]
    unsafe fn store_partial(p: *mut u8, n: usize, v: Self) {
        // SAFETY: p is valid for n bytes (the contract); SSE4.1.
        unsafe {
            let lo = _mm_cvtsi128_si64(v) as u64;
            let hi = _mm_extract_epi64::<1>(v) as u64;
            write_upto16(p, n, lo, hi);
        }
    }
}

impl Lanes for __m256i {
    type Block = __m128i;
    const L: usize = 2;
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the Lanes contract (AVX).
        unsafe { _mm256_setzero_si256() }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the Lanes contract: p valid for 32 bytes.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // SAFETY: the Lanes contract: p valid for 32 bytes.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (AVX2).
        unsafe { _mm256_xor_si256(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn clmul00(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (VPCLMULQDQ).
        unsafe { _mm256_clmulepi64_epi128::<0x00>(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn clmul11(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (VPCLMULQDQ).
        unsafe { _mm256_clmulepi64_epi128::<0x11>(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn bswap(a: Self) -> Self {
        // SAFETY: the Lanes contract (AVX2).
        unsafe { _mm256_shuffle_epi8(a, _mm256_broadcastsi128_si256(bswap_mask())) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn swap64(a: Self) -> Self {
        // SAFETY: the Lanes contract (AVX2).
        unsafe { _mm256_shuffle_epi32::<0x4e>(a) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn broadcast(x: __m128i) -> Self {
        // SAFETY: the Lanes contract (AVX2).
        unsafe { _mm256_broadcastsi128_si256(x) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn low(x: __m128i) -> Self {
        // SAFETY: the Lanes contract (AVX).
        unsafe { _mm256_zextsi128_si256(x) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn fold(a: Self) -> __m128i {
        // SAFETY: the Lanes contract (AVX2).
        unsafe { _mm_xor_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a)) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn keep(v: Self, n: usize) -> Self {
        // SAFETY: n < 32, so the 32 bytes at 32 - n lie in KEEP; AVX2.
        unsafe { _mm256_and_si256(v, _mm256_loadu_si256(KEEP.0.as_ptr().add(32 - n).cast())) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn with_lane(v: Self, l: usize, x: __m128i) -> Self {
        // SAFETY: the Lanes contract (AVX2).
        unsafe {
            let b = _mm256_broadcastsi128_si256(x);
            if l == 0 {
                _mm256_blend_epi32::<0x0f>(v, b)
            } else {
                _mm256_blend_epi32::<0xf0>(v, b)
            }
        }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        // SAFETY: p is valid for n (< 32) bytes (the contract); AVX2.
        unsafe {
            if n >= 16 {
                let hi = <__m128i as Lanes>::load_partial(p.add(16), n - 16);
                _mm256_set_m128i(hi, _mm_loadu_si128(p.cast()))
            } else {
                _mm256_zextsi128_si256(<__m128i as Lanes>::load_partial(p, n))
            }
        }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m256i`.
    #[inline(always)]
    unsafe fn store_partial(p: *mut u8, n: usize, v: Self) {
        // SAFETY: p is valid for n (< 32) bytes (the contract); AVX2.
        unsafe {
            let lo = _mm256_castsi256_si128(v);
            if n >= 16 {
                _mm_storeu_si128(p.cast(), lo);
                let hi = _mm256_extracti128_si256::<1>(v);
                <__m128i as Lanes>::store_partial(p.add(16), n - 16, hi);
            } else {
                <__m128i as Lanes>::store_partial(p, n, lo);
            }
        }
    }
}

impl Lanes for __m512i {
    type Block = __m128i;
    const L: usize = 4;
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe { _mm512_setzero_si512() }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the Lanes contract: p valid for 64 bytes.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // SAFETY: the Lanes contract: p valid for 64 bytes.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe { _mm512_xor_si512(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn clmul00(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (VPCLMULQDQ).
        unsafe { _mm512_clmulepi64_epi128::<0x00>(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn clmul11(a: Self, b: Self) -> Self {
        // SAFETY: the Lanes contract (VPCLMULQDQ).
        unsafe { _mm512_clmulepi64_epi128::<0x11>(a, b) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn bswap(a: Self) -> Self {
        // SAFETY: the Lanes contract (AVX-512 BW).
        unsafe { _mm512_shuffle_epi8(a, _mm512_broadcast_i32x4(bswap_mask())) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn swap64(a: Self) -> Self {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe { _mm512_shuffle_epi32::<0x4e>(a) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn broadcast(x: __m128i) -> Self {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe { _mm512_broadcast_i32x4(x) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn low(x: __m128i) -> Self {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe { _mm512_zextsi128_si512(x) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn fold(a: Self) -> __m128i {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe {
            _mm_xor_si128(
                _mm_xor_si128(_mm512_castsi512_si128(a), _mm512_extracti32x4_epi32::<1>(a)),
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<2>(a),
                    _mm512_extracti32x4_epi32::<3>(a),
                ),
            )
        }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        if n == 0 {
            // No access at all: an empty slice's pointer is dangling, and a
            // masked access there, though it faults on nothing, took a
            // microcode assist of ~100 ns (an empty GCM message cost 140 ns).
            // SAFETY: the Lanes contract (AVX-512 F).
            return unsafe { _mm512_setzero_si512() };
        }
        // SAFETY: the Lanes contract: p valid for the n bytes the mask
        // selects (masked-off bytes are not accessed).
        unsafe { _mm512_maskz_loadu_epi8((1u64 << n) - 1, p.cast()) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn store_partial(p: *mut u8, n: usize, v: Self) {
        if n == 0 {
            // As in load_partial: no access to a dangling pointer.
            return;
        }
        // SAFETY: as in load_partial.
        unsafe { _mm512_mask_storeu_epi8(p.cast(), (1u64 << n) - 1, v) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn keep(v: Self, n: usize) -> Self {
        // SAFETY: the Lanes contract (AVX-512 BW).
        unsafe { _mm512_maskz_mov_epi8((1u64 << n) - 1, v) }
    }
    /// # Safety
    /// The `Lanes` contract, for `__m512i`.
    #[inline(always)]
    unsafe fn with_lane(v: Self, l: usize, x: __m128i) -> Self {
        // SAFETY: the Lanes contract (AVX-512 F).
        unsafe { _mm512_mask_broadcast_i32x4(v, 0xf << (4 * l), x) }
    }
}
