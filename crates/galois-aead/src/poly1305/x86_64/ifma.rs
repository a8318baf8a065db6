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

/// The lane operations of the radix-2^44 arithmetic, on eight lanes
/// (`__m512i`) or four (`__m256i`): one generic body for both widths.
///
/// # Safety
///
/// Every method needs AVX-512F, AVX-512VL and AVX-512IFMA: call only from
/// such target-feature code reached after `detect::has_avx512ifma()`.
trait Lanes44: Copy {
    /// c + the low 52 bits of each lane's product a b (`vpmadd52luq`).
    unsafe fn madd_lo(c: Self, a: Self, b: Self) -> Self;
    /// c + the high 52 bits of each lane's product a b (`vpmadd52huq`).
    unsafe fn madd_hi(c: Self, a: Self, b: Self) -> Self;
    /// Lane-wise a + b (the trait's `# Safety`, as for every method).
    unsafe fn add(a: Self, b: Self) -> Self;
    /// Lane-wise a & b.
    unsafe fn and(a: Self, b: Self) -> Self;
    /// Lane-wise a | b.
    unsafe fn or(a: Self, b: Self) -> Self;
    /// Each lane shifted left by N bits (N among the impl's shift list).
    unsafe fn shl<const N: u32>(a: Self) -> Self;
    /// Each lane shifted right by N bits (N among the impl's shift list).
    unsafe fn shr<const N: u32>(a: Self) -> Self;
    /// `x` in every lane.
    unsafe fn splat(x: u64) -> Self;
    /// Lanes whose bit of `m` is set from `b`, the others from `a`.
    unsafe fn blend(m: __mmask8, a: Self, b: Self) -> Self;
}

/// Implements [`Lanes44`] for one width from its intrinsics, in the order
/// splat, shl, shr, madd_lo, madd_hi, add, and, or, blend.
macro_rules! lanes44 {
    (@same $($f:ident($($a:ident),*) = $intr:ident),*) => {
        $(
            #[inline(always)]
            unsafe fn $f($($a: Self),*) -> Self {
                // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
                unsafe { $intr($($a),*) }
            }
        )*
    };
    (@shift $($f:ident = $intr:ident[$($n:literal)*]),*) => {
        $(
            #[inline(always)]
            unsafe fn $f<const N: u32>(a: Self) -> Self {
                // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
                unsafe {
                    match N {
                        $($n => $intr::<$n>(a),)*
                        _ => unreachable!("shift {N}"),
                    }
                }
            }
        )*
    };
    ($V:ty; $splat:ident, $shl:ident, $shr:ident, $lo:ident, $hi:ident, $add:ident, $and:ident, $or:ident, $blend:ident) => {
        impl Lanes44 for $V {
            lanes44!(@same madd_lo(c, a, b) = $lo, madd_hi(c, a, b) = $hi, add(a, b) = $add, and(a, b) = $and, or(a, b) = $or);

            #[inline(always)]
            unsafe fn splat(x: u64) -> Self {
                // SAFETY: as the methods above.
                unsafe { $splat(x as i64) }
            }

            #[inline(always)]
            unsafe fn blend(m: __mmask8, a: Self, b: Self) -> Self {
                // SAFETY: as the methods above.
                unsafe { $blend(m, a, b) }
            }

            // The intrinsics' shift counts differ in type (u32, i32) by
            // width: each count used is spelled out, one arm left per use.
            lanes44!(@shift shl = $shl[2 4 8 10 12 20], shr = $shr[24 42 44]);
        }
    };
}

lanes44!(__m512i; _mm512_set1_epi64, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_madd52lo_epu64, _mm512_madd52hi_epu64, _mm512_add_epi64, _mm512_and_si512, _mm512_or_si512, _mm512_mask_blend_epi64);
lanes44!(__m256i; _mm256_set1_epi64x, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_madd52lo_epu64, _mm256_madd52hi_epu64, _mm256_add_epi64, _mm256_and_si256, _mm256_or_si256, _mm256_mask_blend_epi64);

/// The six partial-product sums of a b (lo and hi halves per limb),
/// accumulated onto `acc`.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn mul_acc<V: Lanes44>(acc: [V; 6], a: &[V; 3], b: &[V; 3], t: &[V; 2]) -> [V; 6] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let lo = |c, x, y| V::madd_lo(c, x, y);
        let hi = |c, x, y| V::madd_hi(c, x, y);
        // t[0] = 20 b1, t[1] = 20 b2.
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
/// As [`Lanes44`].
#[inline(always)]
unsafe fn reduce<V: Lanes44>(d: [V; 6]) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let [lo0, hi0, lo1, hi1, lo2, hi2] = d;
        // x0 = lo0 + 5120 hi2, x1 = lo1 + 2^8 hi0, x2 = lo2 + 2^8 hi1.
        let x0 = V::add(lo0, V::add(V::shl::<12>(hi2), V::shl::<10>(hi2)));
        let x1 = V::add(lo1, V::shl::<8>(hi0));
        let x2 = V::add(lo2, V::shl::<8>(hi1));
        let m44 = V::splat(M44);
        let m42 = V::splat(M42);
        let c0 = V::shr::<44>(x0);
        let c1 = V::shr::<44>(x1);
        let c2 = V::shr::<42>(x2);
        let c2x5 = V::add(c2, V::shl::<2>(c2));
        [
            V::add(V::and(x0, m44), c2x5),
            V::add(V::and(x1, m44), c0),
            V::add(V::and(x2, m42), c1),
        ]
    }
}

/// A multiplier: limbs and their 20-fold (t1 = 20 b1, t2 = 20 b2).
#[derive(Clone, Copy)]
struct Mul<V> {
    b: [V; 3],
    t: [V; 2],
}

/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn multiplier<V: Lanes44>(b: [V; 3]) -> Mul<V> {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        // 20 x = 16 x + 4 x
        let t20 = |x| V::add(V::shl::<4>(x), V::shl::<2>(x));
        Mul {
            t: [t20(b[1]), t20(b[2])],
            b,
        }
    }
}

/// a b mod p per lane, partially carried.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn mul_reduce<V: Lanes44>(a: &[V; 3], b: &Mul<V>) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe { reduce(mul_acc([V::splat(0); 6], a, &b.b, &b.t)) }
}

/// u b + v c mod p per lane: the two products share one carry step, and
/// v c (which does not depend on the running accumulator) is summed first,
/// off the critical path.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn mul2_reduce<V: Lanes44>(u: &[V; 3], b: &Mul<V>, v: &[V; 3], c: &Mul<V>) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let d = mul_acc([V::splat(0); 6], v, &c.b, &c.t);
        reduce(mul_acc(d, u, &b.b, &b.t))
    }
}

/// u b + v c + w d + x e mod p per lane: four products, one carry step;
/// only u depends on the running accumulator.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn mul4_reduce<V: Lanes44>(
    u: &[V; 3],
    b: &Mul<V>,
    v: &[V; 3],
    c: &Mul<V>,
    w: &[V; 3],
    d: &Mul<V>,
    x: &[V; 3],
    e: &Mul<V>,
) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let s = mul_acc([V::splat(0); 6], x, &e.b, &e.t);
        let s = mul_acc(s, w, &d.b, &d.t);
        let s = mul_acc(s, v, &c.b, &c.t);
        reduce(mul_acc(s, u, &b.b, &b.t))
    }
}

/// a b as a multiplier.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn times<V: Lanes44>(a: &Mul<V>, b: &Mul<V>) -> Mul<V> {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe { multiplier(mul_reduce(&a.b, b)) }
}

/// a + b per limb.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn add3<V: Lanes44>(a: &[V; 3], b: &[V; 3]) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe { [V::add(a[0], b[0]), V::add(a[1], b[1]), V::add(a[2], b[2])] }
}

/// Per lane `x`, or 1 (the multiplier `one`) where the lane's bit of `m`
/// is clear.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn select<V: Lanes44>(one: &Mul<V>, m: __mmask8, x: &Mul<V>) -> Mul<V> {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        Mul {
            b: core::array::from_fn(|i| V::blend(m, one.b[i], x.b[i])),
            t: core::array::from_fn(|i| V::blend(m, one.t[i], x.t[i])),
        }
    }
}

/// The first two levels of the lane powers: r^4 in every lane, and per
/// lane r^(1 + b0 + 2 b1), where b0 is the lane's bit of `m1` and b1 of
/// `m2` (each product by r or r^2 where the bit is set and by 1 elsewhere,
/// [`select`], in parallel with the squarings r^2, r^4); with the
/// multiplier 1, for a further level.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn two_levels<V: Lanes44>(r: &[u64; 3], m1: __mmask8, m2: __mmask8) -> [Mul<V>; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let b = |x: u64| V::splat(x);
        let r1 = multiplier([b(r[0]), b(r[1]), b(r[2])]);
        let one = multiplier([b(1), b(0), b(0)]);
        let r2 = times(&r1, &r1);
        let l1 = times(&r1, &select(&one, m1, &r1));
        let r4 = times(&r2, &r2);
        let l2 = times(&l1, &select(&one, m2, &r2));
        [r4, l2, one]
    }
}

/// The loop of both widths over the `n` groups of `C` bytes at `p` (each
/// loaded by `load`): while more than four remain, four groups per step
/// with `four` (the multipliers of groups k..k+3: r^4g, r^3g, r^2g, r^g for
/// g blocks per group), then two per step with `two` (r^2g, r^g), one per
/// step with `one` (r^g); the last group times `last` (each lane its own
/// power). A = (A + M_k) r^4g + M_{k+1} r^3g + ...: only the product with
/// A is on the critical path.
///
/// # Safety
///
/// As [`Lanes44`]; `p` is valid for reads of `n` C bytes, and n >= 1.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn groups<V: Lanes44, const C: usize>(
    mut acc: [V; 3],
    p: *const u8,
    n: usize,
    load: impl Fn(*const u8) -> [V; 3],
    four: Option<[Mul<V>; 4]>,
    two: Option<[Mul<V>; 2]>,
    one: &Mul<V>,
    last: &Mul<V>,
) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety); every
    // load reads the C bytes at p + k C with k < n.
    unsafe {
        let mut k = 0;
        if let Some([m4, m3, m2, m1]) = four {
            while k + 4 < n {
                let a = load(p.add(k * C));
                let b = load(p.add((k + 1) * C));
                let c = load(p.add((k + 2) * C));
                let d = load(p.add((k + 3) * C));
                acc = mul4_reduce(&add3(&acc, &a), &m4, &b, &m3, &c, &m2, &d, &m1);
                k += 4;
            }
        }
        if let Some([m2, m1]) = two {
            while k + 2 < n {
                let a = load(p.add(k * C));
                let b = load(p.add((k + 1) * C));
                acc = mul2_reduce(&add3(&acc, &a), &m2, &b, &m1);
                k += 2;
            }
        }
        while k + 1 < n {
            acc = mul_reduce(&add3(&acc, &load(p.add(k * C))), one);
            k += 1;
        }
        mul_reduce(&add3(&acc, &load(p.add(k * C))), last)
    }
}

/// The three limbs (radix 2^44) of the blocks whose low and high 64-bit
/// halves are the lanes of `lo` and `hi`, with the 2^128 bit.
///
/// # Safety
///
/// As [`Lanes44`].
#[inline(always)]
unsafe fn limbs<V: Lanes44>(lo: V, hi: V) -> [V; 3] {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        let m44 = V::splat(M44);
        [
            V::and(lo, m44),
            V::and(V::or(V::shr::<44>(lo), V::shl::<20>(hi)), m44),
            V::or(V::shr::<24>(hi), V::splat(1 << 40)),
        ]
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
        limbs(lo, hi)
    }
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
unsafe fn powers(r: &[u64; 3]) -> (Mul<__m512i>, Mul<__m512i>, Mul<__m512i>) {
    // SAFETY: the caller guarantees AVX-512F/VL/IFMA (# Safety).
    unsafe {
        // Lane j (bit j of a mask), e = 7 - j: bit 0 of e is set in lanes
        // 0, 2, 4, 6; bit 1 in lanes 0, 1, 4, 5; bit 2 in lanes 0..3.
        let [r4, l2, one] = two_levels::<__m512i>(r, 0b0101_0101, 0b0011_0011);
        let r8 = times(&r4, &r4);
        let lanes = times(&l2, &select(&one, 0b0000_1111, &r4));
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
        // Four groups per step for long inputs (r^32, r^24, r^16, r^8),
        // two per step (r^16, r^8) otherwise; the last group lane j times
        // r^(8-j).
        let four = (n >= 9).then(|| {
            let m24 = times(&m16, &m8);
            let m32 = times(&m16, &m16);
            [m32, m24, m16, m8]
        });
        let load = |q| load8(q);
        acc = groups::<_, CHUNK>(acc, data.as_ptr(), n, load, four, Some([m16, m8]), &m8, &ml);
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
        limbs(lo, hi)
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
        // Lanes hold blocks 0, 2, 1, 3 and need r^4, r^2, r^3, r^1, that is
        // r^(1 + e) with e = 3, 1, 2, 0: bit 0 of e is set in lanes 0 and 1,
        // bit 1 in lanes 0 and 2.
        let [r4, lanes, _] = two_levels::<__m256i>(r, 0b0011, 0b0101);
        let hc = radix44::from64(h);
        let mut acc: V3 = [
            _mm256_set_epi64x(0, 0, 0, hc[0] as i64),
            _mm256_set_epi64x(0, 0, 0, hc[1] as i64),
            _mm256_set_epi64x(0, 0, 0, hc[2] as i64),
        ];
        let n = data.len() / CHUNK4;
        // From four groups on, two groups per step (r^8, r^4); from 32 (2
        // KiB) four per step (r^16, r^12, r^8, r^4): below, the extra
        // product level for r^12 and r^16 costs more than it saves
        // (measured: 1024 bytes 294 -> 314 TSC ticks, 4096 789 -> 731).
        let r8 = (n >= 4).then(|| times(&r4, &r4));
        let four = r8.filter(|_| n >= 32).map(|r8| {
            let r12 = times(&r8, &r4);
            let r16 = times(&r8, &r8);
            [r16, r12, r8, r4]
        });
        let two = r8.map(|r8| [r8, r4]);
        let load = |q| load4(q);
        acc = groups::<_, CHUNK4>(acc, data.as_ptr(), n, load, four, two, &r4, &lanes);
        let mut out = [0u64; 3];
        for (o, v) in out.iter_mut().zip(acc.iter()) {
            let mut t = [0u64; 4];
            _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, *v);
            *o = t[0] + t[1] + t[2] + t[3];
        }
        *h = radix44::to64(&out);
    }
}
