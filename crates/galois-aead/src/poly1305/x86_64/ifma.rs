//! AVX-512 IFMA Poly1305: radix 2^44, eight blocks in parallel (512-bit
//! registers) for long inputs, four (256-bit registers, at the end of this
//! file) for medium ones.
//!
//! # Representation
//!
//! Same radix as the portable code: an element is `x0 + x1 2^44 + x2 2^88`.
//! A 512-bit register holds one limb of eight independent elements (one per
//! 64-bit lane), so three registers hold eight accumulators A_0..A_7.
//!
//! # Eight-way Horner
//!
//! For N = 8K blocks m_1..m_N and an incoming accumulator h, lane j takes
//! the blocks m_i with i = j + 1 (mod 8):
//!
//! ```text
//! A_j = 0 (A_0 = h);   for each group k < K-1:  A_j = (A_j + m_{8k+j+1}) r^8
//! last group:          A_j = (A_j + m_{8(K-1)+j+1}) r^(8-j);   h = sum_j A_j
//! ```
//!
//! Block m_i is then multiplied by r^(N-i+1), as in the serial definition.
//! The powers (r^1..r^8, r^16, and r^24, r^32 for long inputs) are
//! computed here, in the vector unit, per call (so only for long messages;
//! see `MIN_LEN`).
//!
//! Several groups per loop step: two steps of the recurrence are
//! `A = (A + M_k) r^16 + M_{k+1} r^8`, four are `A = (A + M_k) r^32 +
//! M_{k+1} r^24 + M_{k+2} r^16 + M_{k+3} r^8`. Only the first product
//! depends on A, so one multiplication per 512 bytes lies on the dependency
//! chain, and the products are summed before one shared carry step.
//! Measured on Zen 4 at 16 KiB: one group per step 0.26 TSC ticks per byte,
//! two 0.15, four 0.14 (inputs of 9 groups and more take the four-group
//! step; r^24 and r^32 cost one more product level).
//!
//! # Multiplication with vpmadd52luq / vpmadd52huq
//!
//! `madd52lo(acc, a, b)` adds the low 52 bits of the 104-bit product of the
//! low 52 bits of a and b; `madd52hi` adds bits 52..103. With b = b0 + b1
//! 2^44 + b2 2^88 and t_i = 20 b_i (2^132 = 20 mod p):
//!
//! ```text
//! d0 = a0 b0 + a1 t2 + a2 t1,  d1 = a0 b1 + a1 b0 + a2 t2,  d2 = a0 b2 + a1 b1 + a2 b0
//! ```
//!
//! each d_k = lo_k + 2^52 hi_k. As 2^52 = 2^8 2^44, hi_k belongs 8 bits up
//! in the next limb, and hi_2 sits at 2^140 = 2^10 2^130 = 5 2^10 (mod p):
//!
//! ```text
//! x0 = lo0 + 5120 hi2,  x1 = lo1 + 2^8 hi0,  x2 = lo2 + 2^8 hi1
//! ```
//!
//! Then one parallel carry step (each limb's excess goes to the next limb,
//! x2's bits above 2^130 to x0 times 5) leaves every limb at most a few bits
//! above 44, so with a message limb added the inputs of the next product
//! stay far below the 52 bits that IFMA reads.
//!
//! Bounds: lanes enter a product below 2^46; b limbs below 2^44 + 2^18
//! (powers as the carry step leaves them), t below 2^49: each product is
//! below 2^95, hi terms below 2^43, and with up to four products per step
//! (twelve terms per sum) lo sums stay below 2^56, hi sums below 2^47,
//! 5120 hi2 below 2^60, so every x_k < 2^61. After the carry step the limbs
//! are below 2^44 + 2^18 (x2 below 2^42 + 2^18), and a message block
//! adds less than 2^44 per limb: all far below the 52 bits IFMA reads.
//! Every operation is the same for every key and message: no
//! secret-dependent branch or index.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::radix44::{self, M42, M44};

/// Bytes per loop iteration (eight blocks).
pub(crate) const CHUNK: usize = 128;
/// Shortest input the eight-lane code takes; from [`MIN_LEN4`] up to here
/// the four-lane code runs, below that the portable code (no powers of r).
///
/// Measured (best-of timing of one-time Poly1305 per message, TSC ticks,
/// this Zen 4), eight lanes against four (with four groups per step):
/// 4096 bytes 821 against 731, 8192 bytes 1321 against 1301, 16 KiB 2322
/// against 2423. Below 10 KiB the four-lane code (`MIN_LEN4`) runs instead.
pub(crate) const MIN_LEN: usize = 10240;

super::simd_backend! {
    /// Proof that this CPU has AVX-512 F, VL and IFMA. Only [`Ifma::new`]
    /// creates one, after run-time detection. The four-lane code takes
    /// inputs from `MIN_LEN4`; the powers of r are computed per call in the
    /// vector unit.
    Ifma = crate::detect::has_avx512ifma, min_len = MIN_LEN4,
    bulk = |t, h, k, _, data| {
        let n = if data.len() >= MIN_LEN {
            data.len() / CHUNK * CHUNK
        } else if data.len() >= MIN_LEN4 {
            data.len() / CHUNK4 * CHUNK4
        } else {
            return 0;
        };
        let mut r = radix44::r_from_bytes(&k.r_bytes());
        if n >= MIN_LEN {
            t.blocks(h, &r, &data[..n]);
        } else {
            t.blocks4(h, &r, &data[..n]);
        }
        zeroize::Zeroize::zeroize(&mut r);
        n
    }
}

impl Ifma {
    /// h = h r^N + sum m_i r^(N-i+1) for the N = data.len() / 16 blocks of
    /// `data` (a non-zero multiple of [`CHUNK`] bytes); `r` in radix 2^44.
    pub(crate) fn blocks(self, h: &mut [u64; 3], r: &[u64; 3], data: &[u8]) {
        assert!(data.len().is_multiple_of(CHUNK) && !data.is_empty());
        // SAFETY: an `Ifma` value exists only if `detect::has_avx512ifma()`
        // returned true, so the avx512f/avx512vl/avx512ifma target features
        // of `blocks_ifma` are present on this CPU; the assert above gives
        // its length contract.
        unsafe { blocks_ifma(h, r, data) }
    }
}

/// The six partial-product sums of a b (lo and hi halves per limb),
/// accumulated onto `acc`.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn mul_acc(
    acc: [__m512i; 6],
    a: &[__m512i; 3],
    b: &[__m512i; 3],
    t: &[__m512i; 2], // t[0] = 20 b1, t[1] = 20 b2
) -> [__m512i; 6] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let lo = |c, x, y| _mm512_madd52lo_epu64(c, x, y);
        let hi = |c, x, y| _mm512_madd52hi_epu64(c, x, y);
        [
            lo(lo(lo(acc[0], a[0], b[0]), a[1], t[1]), a[2], t[0]),
            hi(hi(hi(acc[1], a[0], b[0]), a[1], t[1]), a[2], t[0]),
            lo(lo(lo(acc[2], a[0], b[1]), a[1], b[0]), a[2], t[1]),
            hi(hi(hi(acc[3], a[0], b[1]), a[1], b[0]), a[2], t[1]),
            lo(lo(lo(acc[4], a[0], b[2]), a[1], b[1]), a[2], b[0]),
            hi(hi(hi(acc[5], a[0], b[2]), a[1], b[1]), a[2], b[0]),
        ]
    }
}

/// Folds lo/hi sums [lo0, hi0, lo1, hi1, lo2, hi2] into three limbs with
/// one parallel carry step (see the module comment).
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn reduce(d: [__m512i; 6]) -> [__m512i; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let [lo0, hi0, lo1, hi1, lo2, hi2] = d;
        // x0 = lo0 + 5120 hi2, x1 = lo1 + 2^8 hi0, x2 = lo2 + 2^8 hi1.
        let x0 = _mm512_add_epi64(
            lo0,
            _mm512_add_epi64(_mm512_slli_epi64::<12>(hi2), _mm512_slli_epi64::<10>(hi2)),
        );
        let x1 = _mm512_add_epi64(lo1, _mm512_slli_epi64::<8>(hi0));
        let x2 = _mm512_add_epi64(lo2, _mm512_slli_epi64::<8>(hi1));
        let m44 = _mm512_set1_epi64(M44 as i64);
        let m42 = _mm512_set1_epi64(M42 as i64);
        let c0 = _mm512_srli_epi64::<44>(x0);
        let c1 = _mm512_srli_epi64::<44>(x1);
        let c2 = _mm512_srli_epi64::<42>(x2);
        let c2x5 = _mm512_add_epi64(c2, _mm512_slli_epi64::<2>(c2));
        [
            _mm512_add_epi64(_mm512_and_si512(x0, m44), c2x5),
            _mm512_add_epi64(_mm512_and_si512(x1, m44), c0),
            _mm512_add_epi64(_mm512_and_si512(x2, m42), c1),
        ]
    }
}

/// a b mod p per lane, partially carried.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn mul_reduce(a: [__m512i; 3], b: &[__m512i; 3], t: &[__m512i; 2]) -> [__m512i; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let z = _mm512_setzero_si512();
        reduce(mul_acc([z; 6], &a, b, t))
    }
}

/// u b + v c mod p per lane: the two products share one carry step, and
/// v c (which does not depend on the running accumulator) is summed first,
/// off the critical path.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn mul2_reduce(
    u: [__m512i; 3],
    b: &[__m512i; 3],
    tb: &[__m512i; 2],
    v: [__m512i; 3],
    c: &[__m512i; 3],
    tc: &[__m512i; 2],
) -> [__m512i; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let z = _mm512_setzero_si512();
        let d = mul_acc([z; 6], &v, c, tc);
        reduce(mul_acc(d, &u, b, tb))
    }
}

/// Loads eight blocks as limbs (lane j = block j), with the 2^128 bit.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`. `p` must be valid for reads of 128 bytes.
#[inline(always)]
unsafe fn load8(p: *const u8) -> [__m512i; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety). and `p` is valid for 128 bytes (# Safety).
    unsafe {
        let x = _mm512_loadu_si512(p as *const _);
        let y = _mm512_loadu_si512(p.add(64) as *const _);
        let idx_lo = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
        let idx_hi = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
        let lo = _mm512_permutex2var_epi64(x, idx_lo, y);
        let hi = _mm512_permutex2var_epi64(x, idx_hi, y);
        let m44 = _mm512_set1_epi64(M44 as i64);
        [
            _mm512_and_si512(lo, m44),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
                m44,
            ),
            _mm512_or_si512(_mm512_srli_epi64::<24>(hi), _mm512_set1_epi64(1 << 40)),
        ]
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn add3(a: [__m512i; 3], b: [__m512i; 3]) -> [__m512i; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        [
            _mm512_add_epi64(a[0], b[0]),
            _mm512_add_epi64(a[1], b[1]),
            _mm512_add_epi64(a[2], b[2]),
        ]
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn times20(x: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        // 20 x = 16 x + 4 x
        _mm512_add_epi64(_mm512_slli_epi64::<4>(x), _mm512_slli_epi64::<2>(x))
    }
}

/// u b + v c + w d + x e mod p per lane: four products, one carry step;
/// only u depends on the running accumulator.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn mul4_reduce(
    u: [__m512i; 3],
    b: &Mul,
    v: [__m512i; 3],
    c: &Mul,
    w: [__m512i; 3],
    d: &Mul,
    x: [__m512i; 3],
    e: &Mul,
) -> [__m512i; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let z = _mm512_setzero_si512();
        let s = mul_acc([z; 6], &x, &e.b, &e.t);
        let s = mul_acc(s, &w, &d.b, &d.t);
        let s = mul_acc(s, &v, &c.b, &c.t);
        reduce(mul_acc(s, &u, &b.b, &b.t))
    }
}

/// A multiplier: limbs and their 20-fold (t1 = 20 b1, t2 = 20 b2).
#[derive(Clone, Copy)]
struct Mul {
    b: [__m512i; 3],
    t: [__m512i; 2],
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn multiplier(b: [__m512i; 3]) -> Mul {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        Mul {
            t: [times20(b[1]), times20(b[2])],
            b,
        }
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn times(a: &Mul, b: &Mul) -> Mul {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe { multiplier(mul_reduce(a.b, &b.b, &b.t)) }
}

/// The powers the loop needs, computed in the vector unit from r: r^8 and
/// r^16 in every lane, and the last group's lane powers r^8, r^7, .., r^1
/// (lane j holds r^(8-j)). Lane j's power is r^(1 + b0 + 2 b1 + 4 b2) for
/// the bits b of 7 - j: three multiplications by r, r^2 or r^4 where a bit
/// is set and by 1 elsewhere (masks fixed at compile time), in parallel with
/// the squarings r^2, r^4, r^8, r^16. Four products deep in all. Limbs stay
/// below 2^44 + 2^18 (the carry step's bound), fine as multipliers.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn powers(r: &[u64; 3]) -> (Mul, Mul, Mul) {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety); every
    // `load4` reads the `CHUNK4` bytes at `p + k * CHUNK4` with
    // `k < data.len() / CHUNK4`, and the stores write whole local arrays: all in
    // bounds.
    unsafe {
        let b = |x: u64| _mm512_set1_epi64(x as i64);
        let r1 = multiplier([b(r[0]), b(r[1]), b(r[2])]);
        let one = multiplier([b(1), b(0), b(0)]);
        // Blend: lanes whose mask bit is set take `x`, the others 1.
        let sel = |m: __mmask8, x: &Mul| Mul {
            b: [
                _mm512_mask_blend_epi64(m, one.b[0], x.b[0]),
                _mm512_mask_blend_epi64(m, one.b[1], x.b[1]),
                _mm512_mask_blend_epi64(m, one.b[2], x.b[2]),
            ],
            t: [
                _mm512_mask_blend_epi64(m, one.t[0], x.t[0]),
                _mm512_mask_blend_epi64(m, one.t[1], x.t[1]),
            ],
        };
        // Lane j (bit j of a mask), e = 7 - j: bit 0 of e is set in lanes
        // 0, 2, 4, 6; bit 1 in lanes 0, 1, 4, 5; bit 2 in lanes 0..3.
        let r2 = times(&r1, &r1);
        let l1 = times(&r1, &sel(0b0101_0101, &r1));
        let r4 = times(&r2, &r2);
        let l2 = times(&l1, &sel(0b0011_0011, &r2));
        let r8 = times(&r4, &r4);
        let lanes = times(&l2, &sel(0b0000_1111, &r4));
        let r16 = times(&r8, &r8);
        (r8, r16, lanes)
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA (an `Ifma` value
/// proves it), and `data` must be a non-zero multiple of [`CHUNK`] bytes: the
/// loads read whole chunks.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn blocks_ifma(h: &mut [u64; 3], r: &[u64; 3], data: &[u8]) {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety); every
    // `load8` reads the `CHUNK` bytes at `p + k * CHUNK` with
    // `k < data.len() / CHUNK`, and the stores write whole local arrays: all in
    // bounds.
    unsafe {
        let (m8, m16, ml) = powers(r);
        // The portable accumulator (radix 2^64) in radix 2^44, in lane 0.
        let hc = radix44::from64(h);
        let mut acc = [
            _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, hc[0] as i64),
            _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, hc[1] as i64),
            _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, hc[2] as i64),
        ];
        let n = data.len() / CHUNK;
        let p = data.as_ptr();
        let mut k = 0;
        // Four groups per step for long inputs: A = (A + M_k) r^32 +
        // M_{k+1} r^24 + M_{k+2} r^16 + M_{k+3} r^8.
        if n >= 9 {
            let m24 = times(&m16, &m8);
            let m32 = times(&m16, &m16);
            while k + 4 < n {
                let a = load8(p.add(k * CHUNK));
                let b = load8(p.add((k + 1) * CHUNK));
                let c = load8(p.add((k + 2) * CHUNK));
                let d = load8(p.add((k + 3) * CHUNK));
                acc = mul4_reduce(add3(acc, a), &m32, b, &m24, c, &m16, d, &m8);
                k += 4;
            }
        }
        // Two groups per step: A = (A + M_k) r^16 + M_{k+1} r^8, which is two
        // steps of the recurrence with only one product on the critical path.
        while k + 2 < n {
            let m0 = load8(p.add(k * CHUNK));
            let m1 = load8(p.add((k + 1) * CHUNK));
            acc = mul2_reduce(add3(acc, m0), &m16.b, &m16.t, m1, &m8.b, &m8.t);
            k += 2;
        }
        while k + 1 < n {
            let m = load8(p.add(k * CHUNK));
            acc = mul_reduce(add3(acc, m), &m8.b, &m8.t);
            k += 1;
        }
        // Last group: lane j times r^(8-j).
        let m = load8(p.add(k * CHUNK));
        acc = mul_reduce(add3(acc, m), &ml.b, &ml.t);
        // Sum the lanes: each limb below 8 (2^44 + 2^18) < 2^48.
        let out = [
            _mm512_reduce_add_epi64(acc[0]) as u64,
            _mm512_reduce_add_epi64(acc[1]) as u64,
            _mm512_reduce_add_epi64(acc[2]) as u64,
        ];
        *h = radix44::to64(&out);
    }
}

// ---------------------------------------------------------------------
// Four lanes (256-bit registers) for medium inputs.
//
// Between MIN_LEN4 and MIN_LEN the eight-lane code's set-up (powers four
// products deep, eight-lane sums) costs more than its wider steps save. The same
// arithmetic on four lanes needs only r^2 and r^4 (two products deep) and
// handles 64 bytes per step: A = (A + M_k) r^4, last group times the lane
// powers; from four groups on, two groups per step with r^8 (one more
// product level), from 32 groups four per step (r^12, r^16), as in the
// eight-lane loop. Loads interleave blocks as in the AVX2 code (lanes hold blocks 0,
// 2, 1, 3), so the lane powers are r^4, r^2, r^3, r^1. Bounds are those of
// the eight-lane code with one product per step.

/// Bytes per step of the four-lane code.
pub(crate) const CHUNK4: usize = 64;
/// Shortest input the four-lane code takes. Measured (best-of timing of
/// one-time Poly1305 per message, TSC ticks, this Zen 4), four lanes against
/// portable: 128 bytes 133 against 107, 192 bytes 153 against 154, 256
/// bytes 164 against 201, 320 bytes 187 against 240.
pub(crate) const MIN_LEN4: usize = 192;

type V3 = [__m256i; 3];

/// The six partial-product sums of a b on four lanes, onto `acc`.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn mul_acc4(acc: [__m256i; 6], a: &V3, b: &V3, t: &[__m256i; 2]) -> [__m256i; 6] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let lo = |c, x, y| _mm256_madd52lo_epu64(c, x, y);
        let hi = |c, x, y| _mm256_madd52hi_epu64(c, x, y);
        [
            lo(lo(lo(acc[0], a[0], b[0]), a[1], t[1]), a[2], t[0]),
            hi(hi(hi(acc[1], a[0], b[0]), a[1], t[1]), a[2], t[0]),
            lo(lo(lo(acc[2], a[0], b[1]), a[1], b[0]), a[2], t[1]),
            hi(hi(hi(acc[3], a[0], b[1]), a[1], b[0]), a[2], t[1]),
            lo(lo(lo(acc[4], a[0], b[2]), a[1], b[1]), a[2], b[0]),
            hi(hi(hi(acc[5], a[0], b[2]), a[1], b[1]), a[2], b[0]),
        ]
    }
}

/// The carry step of [`reduce`] on four lanes.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn reduce4(d: [__m256i; 6]) -> V3 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let [lo0, hi0, lo1, hi1, lo2, hi2] = d;
        // x0 = lo0 + 5120 hi2, x1 = lo1 + 2^8 hi0, x2 = lo2 + 2^8 hi1.
        let x0 = _mm256_add_epi64(
            lo0,
            _mm256_add_epi64(_mm256_slli_epi64::<12>(hi2), _mm256_slli_epi64::<10>(hi2)),
        );
        let x1 = _mm256_add_epi64(lo1, _mm256_slli_epi64::<8>(hi0));
        let x2 = _mm256_add_epi64(lo2, _mm256_slli_epi64::<8>(hi1));
        let m44 = _mm256_set1_epi64x(M44 as i64);
        let m42 = _mm256_set1_epi64x(M42 as i64);
        let c0 = _mm256_srli_epi64::<44>(x0);
        let c1 = _mm256_srli_epi64::<44>(x1);
        let c2 = _mm256_srli_epi64::<42>(x2);
        let c2x5 = _mm256_add_epi64(c2, _mm256_slli_epi64::<2>(c2));
        [
            _mm256_add_epi64(_mm256_and_si256(x0, m44), c2x5),
            _mm256_add_epi64(_mm256_and_si256(x1, m44), c0),
            _mm256_add_epi64(_mm256_and_si256(x2, m42), c1),
        ]
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn mul_reduce4(a: &V3, b: &V3, t: &[__m256i; 2]) -> V3 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let z = _mm256_setzero_si256();
        reduce4(mul_acc4([z; 6], a, b, t))
    }
}

/// u b + v c + w d + x e on four lanes, one carry step; only u depends on
/// the running accumulator.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn mul4_reduce4(
    u: &V3,
    b: &Mul4,
    v: &V3,
    c: &Mul4,
    w: &V3,
    d: &Mul4,
    x: &V3,
    e: &Mul4,
) -> V3 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let z = _mm256_setzero_si256();
        let s = mul_acc4([z; 6], x, &e.b, &e.t);
        let s = mul_acc4(s, w, &d.b, &d.t);
        let s = mul_acc4(s, v, &c.b, &c.t);
        reduce4(mul_acc4(s, u, &b.b, &b.t))
    }
}

/// u b + v c on four lanes, one carry step; v c is off the critical path.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn mul2_reduce4(u: &V3, b: &Mul4, v: &V3, c: &Mul4) -> V3 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let z = _mm256_setzero_si256();
        let d = mul_acc4([z; 6], v, &c.b, &c.t);
        reduce4(mul_acc4(d, u, &b.b, &b.t))
    }
}

/// A four-lane multiplier: limbs and t1 = 20 b1, t2 = 20 b2.
#[derive(Clone, Copy)]
struct Mul4 {
    b: V3,
    t: [__m256i; 2],
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn multiplier4(b: V3) -> Mul4 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let t20 =
            |x: __m256i| _mm256_add_epi64(_mm256_slli_epi64::<4>(x), _mm256_slli_epi64::<2>(x));
        Mul4 {
            t: [t20(b[1]), t20(b[2])],
            b,
        }
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
#[inline(always)]
unsafe fn times4(a: &Mul4, b: &Mul4) -> Mul4 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe { multiplier4(mul_reduce4(&a.b, &b.b, &b.t)) }
}

/// Loads four blocks as limbs; lanes hold blocks 0, 2, 1, 3.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`. `p` must be valid for reads of 64 bytes.
#[inline(always)]
unsafe fn load4(p: *const u8) -> V3 {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety). and `p` is valid for 64 bytes (# Safety).
    unsafe {
        let x = _mm256_loadu_si256(p as *const __m256i);
        let y = _mm256_loadu_si256(p.add(32) as *const __m256i);
        let lo = _mm256_unpacklo_epi64(x, y);
        let hi = _mm256_unpackhi_epi64(x, y);
        let m44 = _mm256_set1_epi64x(M44 as i64);
        [
            _mm256_and_si256(lo, m44),
            _mm256_and_si256(
                _mm256_or_si256(_mm256_srli_epi64::<44>(lo), _mm256_slli_epi64::<20>(hi)),
                m44,
            ),
            _mm256_or_si256(_mm256_srli_epi64::<24>(hi), _mm256_set1_epi64x(1 << 40)),
        ]
    }
}

impl Ifma {
    /// As [`Ifma::blocks`] with four lanes, for `data` a non-zero multiple
    /// of [`CHUNK4`] bytes.
    pub(crate) fn blocks4(self, h: &mut [u64; 3], r: &[u64; 3], data: &[u8]) {
        assert!(data.len().is_multiple_of(CHUNK4) && !data.is_empty());
        // SAFETY: an `Ifma` value exists only if `detect::has_avx512ifma()`
        // returned true, so the avx512f/avx512vl/avx512ifma target features
        // of `blocks_ifma4` are present on this CPU; the assert above gives
        // its length contract.
        unsafe { blocks_ifma4(h, r, data) }
    }
}

/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and AVX-512IFMA (an `Ifma` value
/// proves it), and `data` must be a non-zero multiple of [`CHUNK4`] bytes: the
/// loads read whole chunks.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
unsafe fn blocks_ifma4(h: &mut [u64; 3], r: &[u64; 3], data: &[u8]) {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let b = |x: u64| _mm256_set1_epi64x(x as i64);
        let r1 = multiplier4([b(r[0]), b(r[1]), b(r[2])]);
        let one = multiplier4([b(1), b(0), b(0)]);
        let sel = |m: __mmask8, x: &Mul4| Mul4 {
            b: [
                _mm256_mask_blend_epi64(m, one.b[0], x.b[0]),
                _mm256_mask_blend_epi64(m, one.b[1], x.b[1]),
                _mm256_mask_blend_epi64(m, one.b[2], x.b[2]),
            ],
            t: [
                _mm256_mask_blend_epi64(m, one.t[0], x.t[0]),
                _mm256_mask_blend_epi64(m, one.t[1], x.t[1]),
            ],
        };
        // Lanes hold blocks 0, 2, 1, 3 and need r^4, r^2, r^3, r^1, that is
        // r^(1 + e) with e = 3, 1, 2, 0: bit 0 of e is set in lanes 0 and 1,
        // bit 1 in lanes 0 and 2.
        let r2 = times4(&r1, &r1);
        let l1 = times4(&r1, &sel(0b0011, &r1));
        let r4 = times4(&r2, &r2);
        let lanes = times4(&l1, &sel(0b0101, &r2));
        let hc = radix44::from64(h);
        let mut acc: V3 = [
            _mm256_set_epi64x(0, 0, 0, hc[0] as i64),
            _mm256_set_epi64x(0, 0, 0, hc[1] as i64),
            _mm256_set_epi64x(0, 0, 0, hc[2] as i64),
        ];
        let n = data.len() / CHUNK4;
        let p = data.as_ptr();
        let add = |a: &V3, m: &V3| -> V3 {
            [
                _mm256_add_epi64(a[0], m[0]),
                _mm256_add_epi64(a[1], m[1]),
                _mm256_add_epi64(a[2], m[2]),
            ]
        };
        let mut k = 0;
        if n >= 4 {
            let r8 = times4(&r4, &r4);
            if n >= 32 {
                // Four groups per step: A = (A + M_k) r^16 + M_{k+1} r^12 +
                // M_{k+2} r^8 + M_{k+3} r^4. From 2 KiB: below, the extra
                // product level for r^12 and r^16 costs more than it saves
                // (measured: 1024 bytes 294 -> 314 TSC ticks, 4096 789 -> 731).
                let r12 = times4(&r8, &r4);
                let r16 = times4(&r8, &r8);
                while k + 4 < n {
                    let a = load4(p.add(k * CHUNK4));
                    let b = load4(p.add((k + 1) * CHUNK4));
                    let c = load4(p.add((k + 2) * CHUNK4));
                    let d = load4(p.add((k + 3) * CHUNK4));
                    acc = mul4_reduce4(&add(&acc, &a), &r16, &b, &r12, &c, &r8, &d, &r4);
                    k += 4;
                }
            }
            // Two groups per step: A = (A + M_k) r^8 + M_{k+1} r^4.
            while k + 2 < n {
                let m0 = load4(p.add(k * CHUNK4));
                let m1 = load4(p.add((k + 1) * CHUNK4));
                acc = mul2_reduce4(&add(&acc, &m0), &r8, &m1, &r4);
                k += 2;
            }
        }
        while k + 1 < n {
            let m = load4(p.add(k * CHUNK4));
            acc = mul_reduce4(&add(&acc, &m), &r4.b, &r4.t);
            k += 1;
        }
        let m = load4(p.add(k * CHUNK4));
        acc = mul_reduce4(&add(&acc, &m), &lanes.b, &lanes.t);
        let mut out = [0u64; 3];
        for (o, v) in out.iter_mut().zip(acc.iter()) {
            let mut t = [0u64; 4];
            _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, *v);
            *o = t[0] + t[1] + t[2] + t[3];
        }
        *h = radix44::to64(&out);
    }
}
