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
//! every fourth block: for each group of four blocks but the last,
//! A = (A + m) r^4; for the last group, A_j = (A_j + m) r^(4-j), then
//! h = sum_j A_j. Block m_i is multiplied by r^(N-i+1), as in the serial
//! definition. From `FOUR_MIN` groups (2 KiB) on, the main loop takes four
//! groups per step,
//!
//! ```text
//! A = (A + M_k) r^16 + M_{k+1} r^12 + M_{k+2} r^8 + M_{k+3} r^4
//! ```
//!
//! Only the first product depends on A, so one multiplication per 256
//! bytes is on the dependency chain, and the four products share one carry
//! chain (the sums stay far below 2^64, see Bounds). Shorter inputs, and
//! the groups left over, run two per step (r^8, r^4) or one (r^4), then
//! the last group. The powers are computed per call from r in the vector
//! unit (`table`), three or four products deep.
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
//! The multipliers (r_i and s_i of each power, broadcast, or one power per
//! lane for the last group) sit in a 32-byte-aligned table on the stack and
//! every product reads its multiplier from there as the memory operand of
//! `vpmuludq`, so the 16 registers hold accumulators and message limbs
//! only. The products are written as `asm!`: through the intrinsic, LLVM
//! hoists the implicit masking of a loop-invariant multiplier out of the
//! loop, then no longer knows inside the loop that its upper halves are
//! zero and expands each product into three multiplies, two shifts and two
//! adds (70 multiplies per 128 bytes instead of 50, measured in the
//! compiled loop).
//!
//! # Bounds
//!
//! Lanes enter a product below 2^27 (limbs below 2^26 + 2^11 after the
//! carry, plus a message limb below 2^26), multiplier limbs below
//! 2^26 + 2^8, s below 2^29: each product is below 2^56, each d_k below
//! 5 2^56 < 2^59, and the sum of four groups' d_k below 2^61. The carry chain d0 -> d1 -> d2 -> d3
//! -> d4 -> (times 5) d0 -> d1 brings every limb back below 2^26 + 2^11.
//! The code is the same for every key and message: no secret-dependent
//! branch or index.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::radix44::{self, to26, to44, M26};

/// Bytes per group (four blocks, one per lane).
pub(crate) const CHUNK: usize = 64;
/// Shortest input the vector code takes; shorter ones run the portable
/// code, with no powers of r computed.
///
/// Measured against OpenSSL's AVX2 Poly1305 in the same runs (`galois-bench
/// poly1305 --backend avx2 --sizes ...`, medians of five alternated runs
/// per build, Intel Xeon; docs/poly1305.md): the vector code from 256 bytes
/// against from 512, 256 B 1.17x against 1.60x, 384 B 1.11x against 1.35x,
/// 448 B 1.13x against 1.11x; from 512 against from 1024, 640 B 1.13x
/// against 0.96x, 768 B 1.14x against 0.87x, 896 B 1.07x against 0.89x.
pub(crate) const MIN_LEN: usize = 512;

super::simd_backend! {
    /// Proof that this CPU has AVX2. Only [`Avx2::new`] creates one, after
    /// run-time detection. The powers of r are computed per call in the
    /// vector unit ([`table`]), so the caller's slot for cached powers goes
    /// unused.
    Avx2 = crate::detect::has_avx2, min_len = MIN_LEN,
    bulk = |t, h, k, _, data| {
        if data.len() < MIN_LEN {
            return 0;
        }
        let n = data.len() / CHUNK * CHUNK;
        t.blocks(h, k, &data[..n]);
        n
    }
}

impl Avx2 {
    /// h = h r^N + sum m_i r^(N-i+1) for the N = data.len() / 16 blocks of
    /// `data` (a non-zero multiple of [`CHUNK`] bytes) under the key `k`.
    pub(crate) fn blocks(self, h: &mut [u64; 3], k: &super::portable::Key64, data: &[u8]) {
        assert!(data.len().is_multiple_of(CHUNK) && !data.is_empty());
        let mut r = to26(&radix44::r_from_bytes(&k.r_bytes()));
        // SAFETY: an `Avx2` value exists only if `detect::has_avx2()`
        // returned true, so the avx2 target feature of `blocks_avx2` is
        // present on this CPU; the assert above gives its length contract.
        unsafe { blocks_avx2(h, &r, data) };
        zeroize::Zeroize::zeroize(&mut r);
    }
}

type V5 = [__m256i; 5];

/// Groups (of 64 bytes) from which the loop takes four groups per step:
/// below, r^12 and r^16 (one more product on the set-up's critical path)
/// cost more than the carries they save, and the loop takes two per step.
const FOUR_MIN: usize = 32;

/// Vectors per multiplier in the table: r0..r4, then s1..s4 (s_i = 5 r_i).
const ENTRY: usize = 9;
/// The table's multipliers, in order: the last group's r^4, r^2, r^3, r^1
/// (one per lane), then r^4, r^8, r^12, r^16 broadcast to every lane.
/// A table of `SHORT` sets stops after r^8 (inputs below `FOUR_MIN`
/// groups), one of `LONG` has them all.
const LAST: usize = 0;
const R4: usize = 1;
const R8: usize = 2;
const R12: usize = 3;
const R16: usize = 4;
const SHORT: usize = 3;
const LONG: usize = 5;

/// The multipliers, 32-byte aligned for the memory operands of `vpmuludq`:
/// `S` entries, each one written once and wiped once per call (no
/// zero-filled unused entries: at 1 KiB, zeroing and wiping the five-entry
/// table was 90 of the call's 32-byte stores).
#[repr(C, align(32))]
struct Table<const S: usize>([[__m256i; ENTRY]; S]);

/// `a` times the multiplier vector `$i` (0..9) of the entry at `$p`, per
/// 64-bit lane, low 32 bits of each: one `vpmuludq` with a memory operand.
macro_rules! vmul {
    ($a:expr, $p:expr, $i:literal) => {{
        let d: __m256i;
        // No `unsafe` block of its own: the macro runs inside the unsafe
        // block of `blocks_avx2`, whose SAFETY comment covers it (`$p`
        // points to a table entry of ENTRY vectors, so the 32 bytes at
        // `$p + 32 $i` are in bounds and aligned; the instruction writes
        // only `d`; AVX2 is enabled there).
        core::arch::asm!(
            "vpmuludq {d}, {a}, ymmword ptr [{p} + {off}]",
            d = lateout(ymm_reg) d,
            a = in(ymm_reg) $a,
            p = in(reg) $p,
            off = const 32 * $i,
            options(pure, readonly, nostack, preserves_flags),
        );
        d
    }};
}

/// The five sums d0..d4 of the module comment (not carried) of `$a` (a
/// `V5`) with the multiplier entry `$m` (r0..r4, s1..s4), each product
/// `$mul!(limb, $m, index)`: `vmul` for an entry in the table (`$m` its
/// address), `vmulv` for one in registers (`$m` an array). A macro, not a
/// function: the `asm!` operands need the caller's `avx2` target feature.
macro_rules! mul_sum {
    ($a:expr, $mul:ident, $m:expr) => {{
        let a: &V5 = $a;
        let p = $m;
        let add = |x: __m256i, y: __m256i| _mm256_add_epi64(x, y);
        // Entries: r0..r4 at 0..4, s1..s4 at 5..8.
        let d0 = add(
            add(
                add($mul!(a[0], p, 0), $mul!(a[1], p, 8)),
                add($mul!(a[2], p, 7), $mul!(a[3], p, 6)),
            ),
            $mul!(a[4], p, 5),
        );
        let d1 = add(
            add(
                add($mul!(a[0], p, 1), $mul!(a[1], p, 0)),
                add($mul!(a[2], p, 8), $mul!(a[3], p, 7)),
            ),
            $mul!(a[4], p, 6),
        );
        let d2 = add(
            add(
                add($mul!(a[0], p, 2), $mul!(a[1], p, 1)),
                add($mul!(a[2], p, 0), $mul!(a[3], p, 8)),
            ),
            $mul!(a[4], p, 7),
        );
        let d3 = add(
            add(
                add($mul!(a[0], p, 3), $mul!(a[1], p, 2)),
                add($mul!(a[2], p, 1), $mul!(a[3], p, 0)),
            ),
            $mul!(a[4], p, 8),
        );
        let d4 = add(
            add(
                add($mul!(a[0], p, 4), $mul!(a[1], p, 3)),
                add($mul!(a[2], p, 2), $mul!(a[3], p, 1)),
            ),
            $mul!(a[4], p, 0),
        );
        [d0, d1, d2, d3, d4]
    }};
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

/// `a` times vector `$i` of the multiplier entry `$m` (an array in
/// registers) per 64-bit lane, low 32 bits of each (`vpmuludq`). As `vmul!`,
/// it runs inside the caller's unsafe block (AVX2 enabled there; the
/// instruction touches no memory).
macro_rules! vmulv {
    ($a:expr, $m:expr, $i:literal) => {{
        let d: __m256i;
        core::arch::asm!(
            "vpmuludq {d}, {a}, {b}",
            d = lateout(ymm_reg) d,
            a = in(ymm_reg) $a,
            b = in(ymm_reg) $m[$i],
            options(pure, nomem, nostack, preserves_flags),
        );
        d
    }};
}

/// 5 x per lane.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn times5(x: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe { _mm256_add_epi64(x, _mm256_slli_epi64::<2>(x)) }
}

/// a y mod p per lane, each lane with its own multiplier, carried (the
/// products of the module comment with s_i = 5 y_i): limbs below
/// 2^26 + 2^8 for inputs below 2^26 + 2^12.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn mul_lanes(a: &V5, y: &V5) -> V5 {
    // SAFETY: AVX2 is enabled in this function (and guaranteed by the
    // caller); the products touch registers only.
    unsafe {
        let add = |x: __m256i, z: __m256i| _mm256_add_epi64(x, z);
        let m = entry(y);
        let [d0, d1, d2, d3, d4] = mul_sum!(a, vmulv, m);
        // Two rounds of carries in parallel instead of the serial chain
        // (about half its latency; this is the set-up's critical path).
        // From d_k < 2^57: after one round limbs are below 2^26 + 2^34,
        // after two below 2^26 + 2^8.
        let mask = _mm256_set1_epi64x(M26 as i64);
        let round = |d: V5| -> V5 {
            let c: V5 = core::array::from_fn(|i| _mm256_srli_epi64::<26>(d[i]));
            let l: V5 = core::array::from_fn(|i| _mm256_and_si256(d[i], mask));
            [
                add(l[0], times5(c[4])),
                add(l[1], c[0]),
                add(l[2], c[1]),
                add(l[3], c[2]),
                add(l[4], c[3]),
            ]
        };
        round(round([d0, d1, d2, d3, d4]))
    }
}

/// Per limb: `a` with the 64-bit lanes of `MASK` (two bits per lane, as
/// `vpblendd` takes them) from `b`.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn blend<const MASK: i32>(a: &V5, b: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe { core::array::from_fn(|i| _mm256_blend_epi32::<MASK>(a[i], b[i])) }
}

/// Per limb: lane `SEL` (given four times, as `vpermq` takes it) in every
/// lane.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn spread<const SEL: i32>(a: &V5) -> V5 {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe { core::array::from_fn(|i| _mm256_permute4x64_epi64::<SEL>(a[i])) }
}

/// A table entry: r0..r4 of `x`, then s1..s4.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn entry(x: &V5) -> [__m256i; ENTRY] {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        [
            x[0],
            x[1],
            x[2],
            x[3],
            x[4],
            times5(x[1]),
            times5(x[2]),
            times5(x[3]),
            times5(x[4]),
        ]
    }
}

/// The multiplier table from r (radix 2^26), computed in the vector unit
/// three or four products deep: r^2; r^4 (lane 0) and r^3 (lanes 1-3);
/// r^8; for a table of `LONG` sets, r^16 (lane 0) and r^12 (lanes 1-3).
/// The last group's lanes r^4, r^2, r^3, r^1 are blended from the first
/// three. Limbs stay below 2^26 + 2^8 (`mul_lanes`), fine as multipliers.
/// `S` is `SHORT` or `LONG`.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn table<const S: usize>(r: &[u64; 5]) -> Table<S> {
    // SAFETY: AVX2 is enabled in this function (and guaranteed by the
    // caller); everything stays in registers and the returned value.
    unsafe {
        // Lane masks for `blend` (two 32-bit halves per 64-bit lane).
        const L0: i32 = 0b0000_0011;
        const L1: i32 = 0b0000_1100;
        const L3: i32 = 0b1100_0000;
        const L123: i32 = 0b1111_1100;
        let r1: V5 = core::array::from_fn(|i| _mm256_set1_epi64x(r[i] as i64));
        let r2 = mul_lanes(&r1, &r1);
        let x = mul_lanes(&r2, &blend::<L123>(&r2, &r1)); // r^4, r^3, r^3, r^3
        let last = blend::<L3>(&blend::<L1>(&x, &r2), &r1); // r^4, r^2, r^3, r^1
        let r4 = spread::<0b00_00_00_00>(&x);
        let r8 = mul_lanes(&r4, &r4);
        let short = [entry(&last), entry(&r4), entry(&r8)];
        // r^12, r^16 for a long table (unused, and not stored, otherwise).
        let long = if S == LONG {
            let y = mul_lanes(&r8, &blend::<L0>(&r4, &r8)); // r^16, r^12, r^12, r^12
            [
                entry(&spread::<0b01_01_01_01>(&y)),
                entry(&spread::<0b00_00_00_00>(&y)),
            ]
        } else {
            [[_mm256_setzero_si256(); ENTRY]; 2]
        };
        Table(core::array::from_fn(|i| {
            if i < SHORT {
                short[i]
            } else {
                long[i - SHORT]
            }
        }))
    }
}

/// # Safety
///
/// The CPU must support AVX2 (an `Avx2` value proves it), and `data` must be
/// a non-zero multiple of [`CHUNK`] bytes: the loads read whole chunks. `r`
/// is the key's r in radix 2^26.
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2(h: &mut [u64; 3], r: &[u64; 5], data: &[u8]) {
    // SAFETY: the caller's contract (# Safety) is `blocks_sets`'s.
    unsafe {
        if data.len() / CHUNK >= FOUR_MIN {
            blocks_sets::<LONG>(h, r, data)
        } else {
            blocks_sets::<SHORT>(h, r, data)
        }
    }
}

/// [`blocks_avx2`] with a table of `S` sets: `LONG` (four groups per
/// step) from `FOUR_MIN` groups on, else `SHORT`.
///
/// # Safety
///
/// As [`blocks_avx2`]; with `S` = `LONG` only from `FOUR_MIN` groups on.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn blocks_sets<const S: usize>(h: &mut [u64; 3], r: &[u64; 5], data: &[u8]) {
    // SAFETY: the caller guarantees AVX2 (# Safety); every `load4` reads the
    // `CHUNK` bytes at `p + k * CHUNK` with `k < data.len() / CHUNK`, and the
    // store writes the 32-byte `t`; every multiplier pointer is the start
    // of one of the table's `S` entries (r^12 and r^16 only when `S` is
    // `LONG`): all in bounds.
    unsafe {
        let h26 = to26(&radix44::from64(h));
        let n = data.len() / CHUNK;
        let mut t = table::<S>(r);
        let at = |set: usize| t.0[set.min(S - 1)].as_ptr();
        let (p8, p4) = (at(R8), at(R4));
        let mut acc: V5 = [
            _mm256_set_epi64x(0, 0, 0, h26[0] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[1] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[2] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[3] as i64),
            _mm256_set_epi64x(0, 0, 0, h26[4] as i64),
        ];
        let p = data.as_ptr();
        let mut k = 0;
        // Four groups per step: A = (A + M_k) r^16 + M_{k+1} r^12
        // + M_{k+2} r^8 + M_{k+3} r^4; the product with A last, so the
        // other three are summed by the time it is ready.
        if S == LONG {
            let (p16, p12) = (at(R16), at(R12));
            while k + 4 < n {
                let m1 = mul_sum!(&load4(p.add((k + 1) * CHUNK)), vmul, p12);
                let m2 = mul_sum!(&load4(p.add((k + 2) * CHUNK)), vmul, p8);
                let m3 = mul_sum!(&load4(p.add((k + 3) * CHUNK)), vmul, p4);
                let m0 = mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), vmul, p16);
                acc = carry5(add5(&add5(&m1, &add5(&m2, &m3)), &m0));
                k += 4;
            }
        }
        while k + 2 < n {
            let m1 = mul_sum!(&load4(p.add((k + 1) * CHUNK)), vmul, p4);
            let m0 = mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), vmul, p8);
            acc = carry5(add5(&m1, &m0));
            k += 2;
        }
        while k + 1 < n {
            acc = carry5(mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), vmul, p4));
            k += 1;
        }
        // Last group: lanes hold blocks 0, 2, 1, 3 -> r^4, r^2, r^3, r^1.
        acc = carry5(mul_sum!(
            &add5(&acc, &load4(p.add(k * CHUNK))),
            vmul,
            at(LAST)
        ));
        // The multipliers are powers of the key: wiped before returning.
        core::ptr::write_volatile(&mut t, Table([[_mm256_setzero_si256(); ENTRY]; S]));
        let mut out = [0u64; 5];
        for (i, v) in acc.iter().enumerate() {
            let mut t = [0u64; 4];
            _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, *v);
            out[i] = t[0] + t[1] + t[2] + t[3];
        }
        *h = radix44::to64(&to44(&out));
    }
}
