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
//! definition. The main loop takes four groups per step,
//!
//! ```text
//! A = (A + M_k) r^16 + M_{k+1} r^12 + M_{k+2} r^8 + M_{k+3} r^4
//! ```
//!
//! Only the first product depends on A, so one multiplication per 256
//! bytes is on the dependency chain, and the four products share one carry
//! chain (the sums stay far below 2^64, see Bounds). The groups left over
//! run two per step (r^8, r^4) or one (r^4), then the last group.
//! r^1..r^8 come from the caller (once per message, only for long
//! messages); r^12 and r^16 are computed here.
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
//! carry, plus a message limb below 2^26), r limbs below 2^26, s below
//! 2^29: each product is below 2^56, each d_k below 5 2^56 < 2^59, and the
//! sum of four groups' d_k below 2^61. The carry chain d0 -> d1 -> d2 -> d3
//! -> d4 -> (times 5) d0 -> d1 brings every limb back below 2^26 + 2^11.
//! The code is the same for every key and message: no secret-dependent
//! branch or index.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::radix44::{self, to26, to44, Limbs, M26};
use super::Powers;

/// Bytes per group (four blocks, one per lane).
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

/// Vectors per multiplier in the table: r0..r4, then s1..s4 (s_i = 5 r_i).
const ENTRY: usize = 9;
/// The table's multipliers, in order: r^16, r^12, r^8, r^4 broadcast to
/// every lane, then the last group's r^4, r^2, r^3, r^1 (one per lane).
const R16: usize = 0;
const R12: usize = 1;
const R8: usize = 2;
const R4: usize = 3;
const LAST: usize = 4;
const SETS: usize = 5;

/// The multipliers, 32-byte aligned for the memory operands of `vpmuludq`.
#[repr(C, align(32))]
struct Table([__m256i; ENTRY * SETS]);

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
/// `V5`) with the multiplier entry at `$p`. A macro, not a function: the
/// `asm!` operands need the caller's `avx2` target feature.
macro_rules! mul_sum {
    ($a:expr, $p:expr) => {{
        let a: &V5 = $a;
        let p: *const __m256i = $p;
        let add = |x: __m256i, y: __m256i| _mm256_add_epi64(x, y);
        // Entries: r0..r4 at 0..4, s1..s4 at 5..8.
        let d0 = add(
            add(
                add(vmul!(a[0], p, 0), vmul!(a[1], p, 8)),
                add(vmul!(a[2], p, 7), vmul!(a[3], p, 6)),
            ),
            vmul!(a[4], p, 5),
        );
        let d1 = add(
            add(
                add(vmul!(a[0], p, 1), vmul!(a[1], p, 0)),
                add(vmul!(a[2], p, 8), vmul!(a[3], p, 7)),
            ),
            vmul!(a[4], p, 6),
        );
        let d2 = add(
            add(
                add(vmul!(a[0], p, 2), vmul!(a[1], p, 1)),
                add(vmul!(a[2], p, 0), vmul!(a[3], p, 8)),
            ),
            vmul!(a[4], p, 7),
        );
        let d3 = add(
            add(
                add(vmul!(a[0], p, 3), vmul!(a[1], p, 2)),
                add(vmul!(a[2], p, 1), vmul!(a[3], p, 0)),
            ),
            vmul!(a[4], p, 8),
        );
        let d4 = add(
            add(
                add(vmul!(a[0], p, 4), vmul!(a[1], p, 3)),
                add(vmul!(a[2], p, 2), vmul!(a[3], p, 1)),
            ),
            vmul!(a[4], p, 0),
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

/// Writes the multiplier entry `set` of the table: r0..r4 from `lanes`
/// (one radix-2^26 element per lane, lane 0 first), then s_i = 5 r_i.
///
/// # Safety
///
/// The CPU must support AVX2: call only from `avx2` target-feature code
/// reached after `detect::has_avx2()`.
#[inline(always)]
unsafe fn put(t: &mut Table, set: usize, lanes: [&[u64; 5]; 4]) {
    // SAFETY: the caller guarantees AVX2 (# Safety).
    unsafe {
        for i in 0..5 {
            let v = _mm256_set_epi64x(
                lanes[3][i] as i64,
                lanes[2][i] as i64,
                lanes[1][i] as i64,
                lanes[0][i] as i64,
            );
            t.0[set * ENTRY + i] = v;
            if i > 0 {
                t.0[set * ENTRY + 4 + i] = _mm256_add_epi64(v, _mm256_slli_epi64::<2>(v));
            }
        }
    }
}

/// a b mod p in radix 2^44, carried.
fn mul44(a: &Limbs, b: &Limbs) -> Limbs {
    let mut x = radix44::mul(a, b);
    radix44::carry(&mut x);
    x
}

/// # Safety
///
/// The CPU must support AVX2 (an `Avx2` value proves it), and `data` must be
/// a non-zero multiple of [`CHUNK`] bytes: the loads read whole chunks.
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2(h: &mut [u64; 3], pw: &Powers, data: &[u8]) {
    // SAFETY: the caller guarantees AVX2 (# Safety); every `load4` reads the
    // `CHUNK` bytes at `p + k * CHUNK` with `k < data.len() / CHUNK`, and the
    // store writes the 32-byte `t`; every multiplier pointer is the start
    // of one of the table's `SETS` entries: all in bounds.
    unsafe {
        let h26 = to26(&radix44::from64(h));
        let n = data.len() / CHUNK;
        let mut t = Table([_mm256_setzero_si256(); ENTRY * SETS]);
        let q: [[u64; 5]; 4] = [
            to26(&pw.p[3]),
            to26(&pw.p[1]),
            to26(&pw.p[2]),
            to26(&pw.p[0]),
        ];
        let r8 = to26(&pw.p[7]);
        put(&mut t, R4, [&q[0]; 4]);
        put(&mut t, R8, [&r8; 4]);
        put(&mut t, LAST, [&q[0], &q[1], &q[2], &q[3]]);
        if n > 4 {
            let r12 = to26(&mul44(&pw.p[7], &pw.p[3]));
            let r16 = to26(&mul44(&pw.p[7], &pw.p[7]));
            put(&mut t, R12, [&r12; 4]);
            put(&mut t, R16, [&r16; 4]);
        }
        let at = |set: usize| t.0.as_ptr().add(set * ENTRY);
        let (p16, p12, p8, p4) = (at(R16), at(R12), at(R8), at(R4));
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
        while k + 4 < n {
            let m1 = mul_sum!(&load4(p.add((k + 1) * CHUNK)), p12);
            let m2 = mul_sum!(&load4(p.add((k + 2) * CHUNK)), p8);
            let m3 = mul_sum!(&load4(p.add((k + 3) * CHUNK)), p4);
            let m0 = mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), p16);
            acc = carry5(add5(&add5(&m1, &add5(&m2, &m3)), &m0));
            k += 4;
        }
        while k + 2 < n {
            let m1 = mul_sum!(&load4(p.add((k + 1) * CHUNK)), p4);
            let m0 = mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), p8);
            acc = carry5(add5(&m1, &m0));
            k += 2;
        }
        while k + 1 < n {
            acc = carry5(mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), p4));
            k += 1;
        }
        // Last group: lanes hold blocks 0, 2, 1, 3 -> r^4, r^2, r^3, r^1.
        acc = carry5(mul_sum!(&add5(&acc, &load4(p.add(k * CHUNK))), at(LAST)));
        // The multipliers are powers of the key: wiped before returning.
        core::ptr::write_volatile(&mut t, Table([_mm256_setzero_si256(); ENTRY * SETS]));
        let mut out = [0u64; 5];
        for (i, v) in acc.iter().enumerate() {
            let mut t = [0u64; 4];
            _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, *v);
            out[i] = t[0] + t[1] + t[2] + t[3];
        }
        *h = radix44::to64(&to44(&out));
    }
}
