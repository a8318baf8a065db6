//! AVX2 Poly1305: radix 2^26, four blocks in parallel.
//!
//! # Representation
//!
//! AVX2 multiplies 32 x 32 -> 64 bits (`vpmuludq`), so an element is split
//! into five 26-bit limbs `x0 + x1 2^26 + x2 2^52 + x3 2^78 + x4 2^104`.
//! A 256-bit register holds one limb of four independent elements (one per
//! 64-bit lane); five registers hold four accumulators.
//!
//! # Four-way Horner
//!
//! For N = 4K blocks and an incoming accumulator h (converted from the
//! portable radix 2^44 on entry and back on exit), the accumulators take
//! every fourth block: for each group but the last, A = (A + m) r^4; for the
//! last group, A_j = (A_j + m) r^(4-j), then h = sum_j A_j. Block m_i is
//! multiplied by r^(N-i+1), as in the serial definition. r^1..r^4 and r^8
//! are computed by the caller (once per message, only for long messages).
//! The loop takes two groups per step, A = (A + M_k) r^8 + M_{k+1} r^4:
//! the second product does not depend on A, so one multiplication per 128
//! bytes is on the dependency chain, and the two share one carry chain.
//!
//! The loads interleave blocks: with `vpunpcklqdq/hqdq` on two 32-byte loads
//! (blocks 0,1 and 2,3) the lanes hold blocks 0, 2, 1, 3, so the last
//! group's powers are arranged r^4, r^2, r^3, r^1.
//!
//! # Multiplication
//!
//! With 2^130 = 5 (mod p) and s_i = 5 r_i:
//!
//! ```text
//! d0 = a0 r0 + a1 s4 + a2 s3 + a3 s2 + a4 s1
//! d1 = a0 r1 + a1 r0 + a2 s4 + a3 s3 + a4 s2
//! d2 = a0 r2 + a1 r1 + a2 r0 + a3 s4 + a4 s3
//! d3 = a0 r3 + a1 r2 + a2 r1 + a3 r0 + a4 s4
//! d4 = a0 r4 + a1 r3 + a2 r2 + a3 r1 + a4 r0
//! ```
//!
//! Bounds: lanes enter a product below 2^27 (limbs below 2^26 + 2^11
//! after the carry, plus a message limb below 2^26), r limbs below 2^26, s
//! below 2^29: each d_k < 5 2^56 < 2^59, two summed products below 2^60.
//! The carry chain d0 -> d1 -> d2 -> d3 -> d4 -> (times 5) d0 -> d1 brings
//! every limb back below 2^26 + 2^11. The code is the same for every key
//! and message: no secret-dependent branch or index.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::radix44::{self, to26, to44, M26};
use super::Powers;

/// Bytes per loop iteration (four blocks).
pub(crate) const CHUNK: usize = 64;
/// Shortest input the vector code takes; shorter ones run the portable
/// code, with no powers of r computed.
///
/// Measured (`best of` timing, Poly1305-AES per message): the vector code,
/// with its powers of r and lane set-up, breaks even with the
/// portable code near 900 bytes on this Zen 4 (768 bytes: 610 against 594
/// TSC ticks per message; 1024 bytes: 750 against 796).
pub(crate) const MIN_LEN: usize = 1024;

/// Proof that this CPU has AVX2. Only [`Avx2::new`] creates one, after
/// run-time detection.
#[derive(Clone, Copy)]
pub(crate) struct Avx2 {
    _private: (),
}

impl Avx2 {
    pub(crate) fn new() -> Option<Self> {
        if crate::detect::has_avx2() {
            Some(Avx2 { _private: () })
        } else {
            None
        }
    }

    /// h = h r^N + sum m_i r^(N-i+1) for the N = data.len() / 16 blocks of
    /// `data` (a non-zero multiple of [`CHUNK`] bytes), with r^1..r^8 in `pw`.
    pub(crate) fn blocks(self, h: &mut [u64; 3], pw: &Powers, data: &[u8]) {
        assert!(data.len().is_multiple_of(CHUNK) && !data.is_empty() && pw.n >= 8);
        // SAFETY: an `Avx2` value exists only if `detect::has_avx2()`
        // returned true, so the avx2 target feature of `blocks_avx2` is
        // present on this CPU; the assert above gives its length contract.
        unsafe { blocks_avx2(h, pw, data) }
    }
}

/// This file's line in the registry table of `poly1305/mod.rs`.
pub(crate) type Imp = Avx2;

impl super::Poly1305Imp for Avx2 {
    fn new() -> Option<Self> {
        Avx2::new()
    }
    const MIN_LEN: usize = MIN_LEN;
    #[inline(always)]
    fn bulk<P: super::PowersSlot>(
        self,
        h: &mut [u64; 3],
        k: &super::portable::Key64,
        pw: &mut P,
        data: &[u8],
    ) -> usize {
        super::bulk_chunks::<MIN_LEN, CHUNK, 8>(h, k, pw, data, |h, pw, d| self.blocks(h, pw, d))
    }
}

type V5 = [__m256i; 5];

/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn mul_reduce(a: &V5, r: &V5, s: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe { carry5(mul_sum(a, r, s)) }
}

/// u b + v c per lane: both products summed, one carry chain. v c does not
/// depend on the running accumulator, so it is off the critical path.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn mul2_reduce(u: &V5, b: &V5, sb: &V5, v: &V5, c: &V5, sc: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        let x = mul_sum(u, b, sb);
        let y = mul_sum(v, c, sc);
        carry5(add5(&x, &y))
    }
}

/// The five sums d0..d4 of the module comment (not carried).
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn mul_sum(a: &V5, r: &V5, s: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        let m = |x: __m256i, y: __m256i| _mm256_mul_epu32(x, y);
        let add = |x: __m256i, y: __m256i| _mm256_add_epi64(x, y);
        let d0 = add(
            add(
                add(m(a[0], r[0]), m(a[1], s[4])),
                add(m(a[2], s[3]), m(a[3], s[2])),
            ),
            m(a[4], s[1]),
        );
        let d1 = add(
            add(
                add(m(a[0], r[1]), m(a[1], r[0])),
                add(m(a[2], s[4]), m(a[3], s[3])),
            ),
            m(a[4], s[2]),
        );
        let d2 = add(
            add(
                add(m(a[0], r[2]), m(a[1], r[1])),
                add(m(a[2], r[0]), m(a[3], s[4])),
            ),
            m(a[4], s[3]),
        );
        let d3 = add(
            add(
                add(m(a[0], r[3]), m(a[1], r[2])),
                add(m(a[2], r[1]), m(a[3], r[0])),
            ),
            m(a[4], s[4]),
        );
        let d4 = add(
            add(
                add(m(a[0], r[4]), m(a[1], r[3])),
                add(m(a[2], r[2]), m(a[3], r[1])),
            ),
            m(a[4], r[0]),
        );
        [d0, d1, d2, d3, d4]
    }
}

/// The carry chain d0 -> d1 -> d2 -> d3 -> d4 -> (times 5) d0 -> d1.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn carry5(d: V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        let [d0, d1, d2, d3, d4] = d;
        let add = |x: __m256i, y: __m256i| _mm256_add_epi64(x, y);
        let mask = _mm256_set1_epi64x(M26 as i64);
        let sr = |x: __m256i| _mm256_srli_epi64::<26>(x);
        let and = |x: __m256i| _mm256_and_si256(x, mask);
        let d1 = add(d1, sr(d0));
        let d0 = and(d0);
        let d2 = add(d2, sr(d1));
        let d1 = and(d1);
        let d3 = add(d3, sr(d2));
        let d2 = and(d2);
        let d4 = add(d4, sr(d3));
        let d3 = and(d3);
        let c = sr(d4);
        let d4 = and(d4);
        let d0 = add(d0, add(c, _mm256_slli_epi64::<2>(c)));
        let d1 = add(d1, sr(d0));
        let d0 = and(d0);
        [d0, d1, d2, d3, d4]
    }
}

/// Loads four blocks as limbs; lanes hold blocks 0, 2, 1, 3.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`. `p` must be valid for reads of 64 bytes.
#[inline(always)]
unsafe fn load4(p: *const u8) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety). and `p` is valid for 64 bytes (# Safety).
    unsafe {
        let x = _mm256_loadu_si256(p as *const __m256i);
        let y = _mm256_loadu_si256(p.add(32) as *const __m256i);
        let lo = _mm256_unpacklo_epi64(x, y);
        let hi = _mm256_unpackhi_epi64(x, y);
        let mask = _mm256_set1_epi64x(M26 as i64);
        [
            _mm256_and_si256(lo, mask),
            _mm256_and_si256(_mm256_srli_epi64::<26>(lo), mask),
            _mm256_and_si256(
                _mm256_or_si256(_mm256_srli_epi64::<52>(lo), _mm256_slli_epi64::<12>(hi)),
                mask,
            ),
            _mm256_and_si256(_mm256_srli_epi64::<14>(hi), mask),
            _mm256_or_si256(_mm256_srli_epi64::<40>(hi), _mm256_set1_epi64x(1 << 24)),
        ]
    }
}

/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn add5(a: &V5, b: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        [
            _mm256_add_epi64(a[0], b[0]),
            _mm256_add_epi64(a[1], b[1]),
            _mm256_add_epi64(a[2], b[2]),
            _mm256_add_epi64(a[3], b[3]),
            _mm256_add_epi64(a[4], b[4]),
        ]
    }
}

/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn times5(r: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        let f = |x: __m256i| _mm256_add_epi64(x, _mm256_slli_epi64::<2>(x));
        [f(r[0]), f(r[1]), f(r[2]), f(r[3]), f(r[4])]
    }
}

/// # Safety
///
/// The CPU must support AVX2 (an `Avx2` value proves it), and `data` must be
/// a non-zero multiple of [`CHUNK`] bytes: the loads read whole chunks.
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2(h: &mut [u64; 3], pw: &Powers, data: &[u8]) {
    // SAFETY: the caller guarantees AVX2 (# Safety); every `load4` reads the
    // `CHUNK` bytes at `p + k * CHUNK` with `k < data.len() / CHUNK`, and the
    // store writes the 32-byte `t`: all in bounds.
    unsafe {
        let h26 = to26(&radix44::from64(h));
        let r4 = to26(&pw.p[3]);
        let bcast = |l: &[u64; 5]| -> V5 {
            [
                _mm256_set1_epi64x(l[0] as i64),
                _mm256_set1_epi64x(l[1] as i64),
                _mm256_set1_epi64x(l[2] as i64),
                _mm256_set1_epi64x(l[3] as i64),
                _mm256_set1_epi64x(l[4] as i64),
            ]
        };
        let b4 = bcast(&r4);
        let s4 = times5(&b4);
        let mut acc: V5 = [
            _mm256_set_epi64x(0, 0, 0, h26[0] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[1] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[2] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[3] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[4] as i64),
        ];
        let b8 = bcast(&to26(&pw.p[7]));
        let s8 = times5(&b8);
        let n = data.len() / CHUNK;
        let p = data.as_ptr();
        let mut k = 0;
        // Two groups per step: A = (A + M_k) r^8 + M_{k+1} r^4.
        while k + 2 < n {
            let m0 = load4(p.add(k * CHUNK));
            let m1 = load4(p.add((k + 1) * CHUNK));
            acc = mul2_reduce(&add5(&acc, &m0), &b8, &s8, &m1, &b4, &s4);
            k += 2;
        }
        while k + 1 < n {
            let m = load4(p.add(k * CHUNK));
            acc = mul_reduce(&add5(&acc, &m), &b4, &s4);
            k += 1;
        }
        // Last group: lanes hold blocks 0, 2, 1, 3 -> r^4, r^2, r^3, r^1.
        let q = [
            to26(&pw.p[3]),
            to26(&pw.p[1]),
            to26(&pw.p[2]),
            to26(&pw.p[0]),
        ];
        let lane = |i: usize| {
            _mm256_set_epi64x(
                q[3][i] as i64,
                q[2][i] as i64,
                q[1][i] as i64,
                q[0][i] as i64,
            )
        };
        let bl = [lane(0), lane(1), lane(2), lane(3), lane(4)];
        let sl = times5(&bl);
        let m = load4(p.add(k * CHUNK));
        acc = mul_reduce(&add5(&acc, &m), &bl, &sl);
        let mut out = [0u64; 5];
        for (i, v) in acc.iter().enumerate() {
            let mut t = [0u64; 4];
            _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, *v);
            out[i] = t[0] + t[1] + t[2] + t[3];
        }
        *h = radix44::to64(&to44(&out));
    }
}
