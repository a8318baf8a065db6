//! NEON Poly1305 (aarch64): radix 2^26, two blocks in parallel.
//!
//! The arithmetic is that of `avx2.rs` (its module documentation has the
//! products d0..d4, the carry chain and the bounds) on two 64-bit lanes
//! instead of four: NEON multiplies 32 x 32 -> 64 bits with `UMULL/UMLAL`
//! (`vmull_u32`, `vmlal_u32`), whose 32-bit operands are the low halves of
//! the 64-bit lanes (one `XTN` per limb before a product).
//!
//! # Two-way Horner
//!
//! For N = 2K blocks the two accumulators (lanes) take every other block:
//! A = (A + M) r^2 for each pair but the last, A_j = (A_j + m) r^(2-j) for
//! the last, then h = A_0 + A_1. The loop takes two pairs per step,
//! A = (A + M_k) r^4 + M_{k+1} r^2: the second product does not depend on
//! A, so one multiplication per 32 bytes is on the loop-carried chain, and
//! both share one carry chain. Lane 0 holds the even blocks, lane 1 the
//! odd ones, so the last pair's powers are r^2, r^1.
//!
//! # Not picked automatically
//!
//! No ARM machine is available; llvm-mca (`scripts/mca-aarch64.sh`,
//! docs/speed.md) estimates this loop, per block, at 22.5 / 19.5 / 18.3
//! cycles on LLVM 19's Neoverse N1 / V1 / Apple M1 models against 40.0 /
//! 14.0 / 25.0 for the portable radix-2^64 loop (`MUL`/`UMULH`, one
//! dependent chain per block); LLVM 16's models put portable ahead on N1
//! too. Both loops are latency-bound: LLVM chains each of the five sums
//! through ten dependent `UMLAL`s. With estimates pointing both ways, the
//! automatic choice stays `portable` and this backend runs only when pinned
//! (`neon`); a per-core choice needs a measurement on hardware.
//!
//! Constant time: the same instructions run for every key and message; no
//! branch or memory index depends on secrets (the loop count depends on the
//! public length only).

use core::arch::aarch64::*;
use zeroize::Zeroize;

use super::radix44::{self, to26, to44, M26};
use super::Powers;

/// Bytes per loop iteration (two blocks).
pub(crate) const CHUNK: usize = 32;
/// Shortest input the vector code takes. Not measured (no ARM machine):
/// the set-up (r^2..r^4 in radix 2^44, conversions) costs about as much as
/// eight portable blocks, so the vector code starts at 16 blocks.
pub(crate) const MIN_LEN: usize = 256;

super::simd_backend! {
    /// Proof that this CPU has NEON. Only [`Neon::new`] creates one, after
    /// run-time detection.
    Neon = crate::detect::has_neon, min_len = MIN_LEN,
    bulk = |t, h, k, pw, data| {
        super::bulk_chunks::<MIN_LEN, CHUNK, 4>(h, k, pw, data, |h, pw, d| t.blocks(h, pw, d))
    }
}

impl Neon {
    /// h = h r^N + sum m_i r^(N-i+1) for the N = data.len() / 16 blocks of
    /// `data` (a non-zero multiple of [`CHUNK`] bytes), with r^1..r^4 in `pw`.
    pub(crate) fn blocks(self, h: &mut [u64; 3], pw: &Powers, data: &[u8]) {
        assert!(data.len().is_multiple_of(CHUNK) && !data.is_empty() && pw.n >= 4);
        // SAFETY: a `Neon` value exists only if NEON was detected at run
        // time (`new`), so the target feature of `blocks_neon` is present;
        // the assert above gives its length contract.
        unsafe { blocks_neon(h, pw, data) }
    }
}

/// Five limbs of two lanes.
type V5 = [uint64x2_t; 5];
/// Five limbs of a multiplier, 32 bits per lane.
type N5 = [uint32x2_t; 5];

/// The five sums d0..d4 (avx2.rs) of a r, s = 5 r, not carried.
#[inline(always)]
fn mul_sum(a: &V5, r: &N5, s: &N5) -> V5 {
    // SAFETY: NEON is part of the aarch64 baseline, and these intrinsics
    // only read and write registers.
    unsafe {
        let a = [
            vmovn_u64(a[0]),
            vmovn_u64(a[1]),
            vmovn_u64(a[2]),
            vmovn_u64(a[3]),
            vmovn_u64(a[4]),
        ];
        let d = |x0: uint32x2_t, x1: uint32x2_t, x2: uint32x2_t, x3: uint32x2_t, x4: uint32x2_t| {
            let t = vmull_u32(a[0], x0);
            let t = vmlal_u32(t, a[1], x1);
            let t = vmlal_u32(t, a[2], x2);
            let t = vmlal_u32(t, a[3], x3);
            vmlal_u32(t, a[4], x4)
        };
        [
            d(r[0], s[4], s[3], s[2], s[1]),
            d(r[1], r[0], s[4], s[3], s[2]),
            d(r[2], r[1], r[0], s[4], s[3]),
            d(r[3], r[2], r[1], r[0], s[4]),
            d(r[4], r[3], r[2], r[1], r[0]),
        ]
    }
}

/// Five limbs of two multipliers: lanes 0, 1 the first, 2, 3 the second.
type Q5 = [uint32x4_t; 5];

/// u b + v c per lane (u, v: two lanes each), both into one sum: the
/// limbs of u and v packed into one 4 x 32-bit register each (`UZP1`), the
/// multipliers b | c packed likewise (`bc`, `sbc` = 5 bc), so each limb
/// product is a `UMULL`/`UMLAL` of the low halves and an `UMLAL2` of the
/// high ones. Not carried. (Written with v's limbs in a register of their
/// own, LLVM 16 moves the products to scalar `MUL`s: twice the code.)
#[inline(always)]
fn mul2_sum(u: &V5, v: &V5, bc: &Q5, sbc: &Q5) -> V5 {
    // SAFETY: NEON is part of the aarch64 baseline; register operations.
    unsafe {
        let pk = |x: uint64x2_t, y: uint64x2_t| {
            vuzp1q_u32(vreinterpretq_u32_u64(x), vreinterpretq_u32_u64(y))
        };
        let a = [
            pk(u[0], v[0]),
            pk(u[1], v[1]),
            pk(u[2], v[2]),
            pk(u[3], v[3]),
            pk(u[4], v[4]),
        ];
        let d = |x0: uint32x4_t, x1: uint32x4_t, x2: uint32x4_t, x3: uint32x4_t, x4: uint32x4_t| {
            let t = vmull_u32(vget_low_u32(a[0]), vget_low_u32(x0));
            let t = vmlal_high_u32(t, a[0], x0);
            let t = vmlal_u32(t, vget_low_u32(a[1]), vget_low_u32(x1));
            let t = vmlal_high_u32(t, a[1], x1);
            let t = vmlal_u32(t, vget_low_u32(a[2]), vget_low_u32(x2));
            let t = vmlal_high_u32(t, a[2], x2);
            let t = vmlal_u32(t, vget_low_u32(a[3]), vget_low_u32(x3));
            let t = vmlal_high_u32(t, a[3], x3);
            let t = vmlal_u32(t, vget_low_u32(a[4]), vget_low_u32(x4));
            vmlal_high_u32(t, a[4], x4)
        };
        let (r, s) = (bc, sbc);
        [
            d(r[0], s[4], s[3], s[2], s[1]),
            d(r[1], r[0], s[4], s[3], s[2]),
            d(r[2], r[1], r[0], s[4], s[3]),
            d(r[3], r[2], r[1], r[0], s[4]),
            d(r[4], r[3], r[2], r[1], r[0]),
        ]
    }
}

/// The carry chain d0 -> d1 -> d2 -> d3 -> d4 -> (times 5) d0 -> d1.
#[inline(always)]
fn carry5(d: V5) -> V5 {
    // SAFETY: NEON is part of the aarch64 baseline; register operations.
    unsafe {
        let [d0, d1, d2, d3, d4] = d;
        let mask = vdupq_n_u64(M26);
        let sr = |x: uint64x2_t| vshrq_n_u64::<26>(x);
        let and = |x: uint64x2_t| vandq_u64(x, mask);
        let d1 = vaddq_u64(d1, sr(d0));
        let d0 = and(d0);
        let d2 = vaddq_u64(d2, sr(d1));
        let d1 = and(d1);
        let d3 = vaddq_u64(d3, sr(d2));
        let d2 = and(d2);
        let d4 = vaddq_u64(d4, sr(d3));
        let d3 = and(d3);
        let c = sr(d4);
        let d4 = and(d4);
        let d0 = vaddq_u64(d0, vaddq_u64(c, vshlq_n_u64::<2>(c)));
        let d1 = vaddq_u64(d1, sr(d0));
        let d0 = and(d0);
        [d0, d1, d2, d3, d4]
    }
}

#[inline(always)]
fn add5(a: &V5, b: &V5) -> V5 {
    // SAFETY: NEON is part of the aarch64 baseline; register operations.
    unsafe {
        [
            vaddq_u64(a[0], b[0]),
            vaddq_u64(a[1], b[1]),
            vaddq_u64(a[2], b[2]),
            vaddq_u64(a[3], b[3]),
            vaddq_u64(a[4], b[4]),
        ]
    }
}

/// Loads two blocks as limbs (lane 0: the first block), with the 2^128 bit.
///
/// # Safety
///
/// `p` must be valid for reads of 32 bytes.
#[inline(always)]
unsafe fn load2(p: *const u8) -> V5 {
    // SAFETY: `p` is valid for 32 bytes (# Safety); NEON is baseline.
    unsafe {
        let x = vld1q_u64(p.cast());
        let y = vld1q_u64(p.add(16).cast());
        // Little-endian: word 0 of each block is its low 64 bits.
        let lo = vzip1q_u64(x, y);
        let hi = vzip2q_u64(x, y);
        let mask = vdupq_n_u64(M26);
        [
            vandq_u64(lo, mask),
            vandq_u64(vshrq_n_u64::<26>(lo), mask),
            vandq_u64(
                vorrq_u64(vshrq_n_u64::<52>(lo), vshlq_n_u64::<12>(hi)),
                mask,
            ),
            vandq_u64(vshrq_n_u64::<14>(hi), mask),
            vorrq_u64(vshrq_n_u64::<40>(hi), vdupq_n_u64(1 << 24)),
        ]
    }
}

/// Two multipliers packed for [`mul2_sum`]: `a` in lanes 0, 1, `b` in
/// lanes 2, 3; and their times 5.
fn packed(a: &[u64; 5], b: &[u64; 5]) -> (Q5, Q5) {
    let mut r = [[0u32; 4]; 5];
    let mut s = [[0u32; 4]; 5];
    for i in 0..5 {
        r[i] = [a[i] as u32, a[i] as u32, b[i] as u32, b[i] as u32];
        s[i] = [
            (a[i] * 5) as u32,
            (a[i] * 5) as u32,
            (b[i] * 5) as u32,
            (b[i] * 5) as u32,
        ];
    }
    // SAFETY: each load reads one local [u32; 4]; NEON is baseline.
    let v = |x: &[[u32; 4]; 5]| unsafe {
        [
            vld1q_u32(x[0].as_ptr()),
            vld1q_u32(x[1].as_ptr()),
            vld1q_u32(x[2].as_ptr()),
            vld1q_u32(x[3].as_ptr()),
            vld1q_u32(x[4].as_ptr()),
        ]
    };
    let out = (v(&r), v(&s));
    // SAFETY: volatile writes to locals, so the key limbs do not linger.
    unsafe {
        core::ptr::write_volatile(&mut r, [[0; 4]; 5]);
        core::ptr::write_volatile(&mut s, [[0; 4]; 5]);
    }
    out
}

/// A multiplier with `a` in lane 0 and `b` in lane 1, and its times 5.
fn lanes(a: &[u64; 5], b: &[u64; 5]) -> (N5, N5) {
    let mut r = [[0u32; 2]; 5];
    let mut s = [[0u32; 2]; 5];
    for i in 0..5 {
        r[i] = [a[i] as u32, b[i] as u32];
        s[i] = [(a[i] * 5) as u32, (b[i] * 5) as u32];
    }
    // SAFETY: each load reads one local [u32; 2]; NEON is baseline.
    let v = |x: &[[u32; 2]; 5]| unsafe {
        [
            vld1_u32(x[0].as_ptr()),
            vld1_u32(x[1].as_ptr()),
            vld1_u32(x[2].as_ptr()),
            vld1_u32(x[3].as_ptr()),
            vld1_u32(x[4].as_ptr()),
        ]
    };
    let out = (v(&r), v(&s));
    // SAFETY: volatile writes to locals, so the key limbs do not linger.
    unsafe {
        core::ptr::write_volatile(&mut r, [[0; 2]; 5]);
        core::ptr::write_volatile(&mut s, [[0; 2]; 5]);
    }
    out
}

/// # Safety
///
/// The CPU must have NEON (a `Neon` value proves it), and `data` must be a
/// non-zero multiple of [`CHUNK`] bytes: the loads read whole chunks.
#[target_feature(enable = "neon")]
#[inline(never)] // one call per long message; a named loop for llvm-mca
unsafe fn blocks_neon(h: &mut [u64; 3], pw: &Powers, data: &[u8]) {
    let h26 = to26(&radix44::from64(h));
    let mut r2 = to26(&pw.p[1]);
    let mut r4 = to26(&pw.p[3]);
    let mut r1 = to26(&pw.p[0]);
    let (b2, s2) = lanes(&r2, &r2);
    let (b42, s42) = packed(&r4, &r2);
    // The last pair: block 0 (lane 0) times r^2, block 1 times r^1.
    let (bl, sl) = lanes(&r2, &r1);
    r1.zeroize();
    r2.zeroize();
    r4.zeroize();
    // SAFETY: register operations and loads/stores of locals; every `load2`
    // reads the `CHUNK` bytes at `p + k * CHUNK` with
    // `k < data.len() / CHUNK`: in bounds.
    unsafe {
        let z = vdupq_n_u64(0);
        let mut acc: V5 = [
            vsetq_lane_u64::<0>(h26[0], z),
            vsetq_lane_u64::<0>(h26[1], z),
            vsetq_lane_u64::<0>(h26[2], z),
            vsetq_lane_u64::<0>(h26[3], z),
            vsetq_lane_u64::<0>(h26[4], z),
        ];
        let n = data.len() / CHUNK;
        let p = data.as_ptr();
        let mut k = 0;
        // Two pairs per step: A = (A + M_k) r^4 + M_{k+1} r^2.
        while k + 2 < n {
            let m0 = load2(p.add(k * CHUNK));
            let m1 = load2(p.add((k + 1) * CHUNK));
            acc = carry5(mul2_sum(&add5(&acc, &m0), &m1, &b42, &s42));
            k += 2;
        }
        while k + 1 < n {
            let m = load2(p.add(k * CHUNK));
            acc = carry5(mul_sum(&add5(&acc, &m), &b2, &s2));
            k += 1;
        }
        let m = load2(p.add(k * CHUNK));
        acc = carry5(mul_sum(&add5(&acc, &m), &bl, &sl));
        let mut out = [0u64; 5];
        for (o, v) in out.iter_mut().zip(acc.iter()) {
            *o = vgetq_lane_u64::<0>(*v) + vgetq_lane_u64::<1>(*v);
        }
        *h = radix44::to64(&to44(&out));
    }
}
