//! The stitched kernels on x86-64: [`AesLanes`] for `__m128i` (AES-NI),
//! `__m256i` and `__m512i` (VAES), and the entry points of the three
//! backends, each an instantiation of the generic loops (`stitched.rs`,
//! `multibuffer.rs`) inside functions that enable its features. The lanes
//! hold elements in integer form (`gf128::wide`; the reduction is derived
//! in the `gf128` module doc).

use super::aes_lanes::{AesLanes, RoundKeys};
use super::counters::Ctr;
use super::tuning::BATCH_VECTORS;
use crate::gf128::wide::Powers;
use core::arch::x86_64::*;

/// The empty `asm!` behind [`AesLanes::fence`], for one register class.
/// Miri cannot run inline assembly; the fence only steers scheduling, so
/// under Miri it is left out.
macro_rules! fence_asm {
    ($reg:ident, $s:ident, $x:ident) => {
        const _: () = assert!(BATCH_VECTORS == 8, "the fence names 8 states");
        // SAFETY: the template is empty; it only marks the operands as
        // read and rewritten (with their own values).
        #[cfg(not(miri))]
        unsafe {
            core::arch::asm!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} {8} */",
                inout($reg) $s[0], inout($reg) $s[1], inout($reg) $s[2], inout($reg) $s[3],
                inout($reg) $s[4], inout($reg) $s[5], inout($reg) $s[6], inout($reg) $s[7],
                inout($reg) *$x,
                options(nomem, nostack, preserves_flags)
            )
        }
        #[cfg(miri)]
        let _ = ($s, $x);
    };
}

/// The AES rounds and 32-bit counter addition of an [`AesLanes`] impl:
/// on the vector with the given intrinsics, and on a single block with
/// AES-NI and SSE2 (the same for every width); and the fence on the
/// width's registers, with its attributes.
macro_rules! lane_ops {
    ($aesenc:ident, $aesenclast:ident, $add32:ident; fence: $reg:ident $(, #[$fattr:meta])*) => {
        /// # Safety
        /// The `AesLanes` contract.
        $(#[$fattr])*
        unsafe fn fence(s: &mut [Self; BATCH_VECTORS], x: &mut Self) {
            fence_asm!($reg, s, x);
        }
        /// # Safety
        /// The `AesLanes` contract.
        #[inline(always)]
        unsafe fn aesenc(a: Self, k: Self) -> Self {
            // SAFETY: the AesLanes contract (the width's AES instructions).
            unsafe { $aesenc(a, k) }
        }
        /// # Safety
        /// The `AesLanes` contract.
        #[inline(always)]
        unsafe fn aesenclast(a: Self, k: Self) -> Self {
            // SAFETY: the AesLanes contract (the width's AES instructions).
            unsafe { $aesenclast(a, k) }
        }
        /// # Safety
        /// The `AesLanes` contract.
        #[inline(always)]
        unsafe fn add32(a: Self, b: Self) -> Self {
            // SAFETY: the AesLanes contract (SSE2, AVX2 or AVX-512 F).
            unsafe { $add32(a, b) }
        }
        /// # Safety
        /// The `AesLanes` contract.
        #[inline(always)]
        unsafe fn block_aesenc(a: __m128i, k: __m128i) -> __m128i {
            // SAFETY: the AesLanes contract (AES-NI).
            unsafe { _mm_aesenc_si128(a, k) }
        }
        /// # Safety
        /// The `AesLanes` contract.
        #[inline(always)]
        unsafe fn block_aesenclast(a: __m128i, k: __m128i) -> __m128i {
            // SAFETY: the AesLanes contract (AES-NI).
            unsafe { _mm_aesenclast_si128(a, k) }
        }
        /// # Safety
        /// The `AesLanes` contract.
        #[inline(always)]
        unsafe fn block_add32(a: __m128i, b: __m128i) -> __m128i {
            // SAFETY: the AesLanes contract (SSE2).
            unsafe { _mm_add_epi32(a, b) }
        }
    };
}

impl AesLanes for __m128i {
    lane_ops!(_mm_aesenc_si128, _mm_aesenclast_si128, _mm_add_epi32; fence: xmm_reg, #[inline(always)]);
}

impl AesLanes for __m256i {
    lane_ops!(_mm256_aesenc_epi128, _mm256_aesenclast_epi128, _mm256_add_epi32;
        fence: ymm_reg, #[inline], #[target_feature(enable = "avx")]);

    /// Miri cannot run assembly: there the generic loop runs.
    const OWN_BATCHES: bool = cfg!(not(miri));

    /// # Safety
    /// The `AesLanes` contract, for `__m256i`, and [`AesLanes::batches`]'s.
    #[inline(always)]
    #[cfg(not(miri))]
    unsafe fn batches<const NR: usize>(
        rk: &RoundKeys<Self>,
        ctr: &mut Ctr<Self>,
        pw: &Powers,
        y: &mut __m128i,
        hash: *const u8,
        src: *const u8,
        dst: *mut u8,
        count: usize,
    ) {
        // SAFETY: the AesLanes contract (VAES, VPCLMULQDQ, AVX2) and
        // batches' (buffers, powers), which are ymm_asm::batches' own.
        unsafe { super::ymm_asm::batches::<NR>(rk, ctr, pw, y, hash, src, dst, count) }
    }
}

impl AesLanes for __m512i {
    lane_ops!(_mm512_aesenc_epi128, _mm512_aesenclast_epi128, _mm512_add_epi32;
        fence: zmm_reg, #[inline], #[target_feature(enable = "avx512f")]);
}

/// The entry points of one backend's stitched kernels: `crypt` (seal or
/// open) and `seal_batch` for vector type `vector`, compiled with `features` enabled
/// and dispatched on the AES key size.
macro_rules! entry_points {
    (vector: $v:ty, features: $features:literal $(,)?) => {
        use super::super::{multibuffer, stitched};
        use crate::block::round_keys::AesRoundKeys;
        use crate::gcm::kernels::KernelMsg;
        use crate::gcm::BatchPacket;
        use crate::gf128::wide::Powers;
        use core::arch::x86_64::*;

        /// [`stitched::crypt`] for this width: seals (`OPEN` false) or
        /// opens.
        ///
        /// # Safety
        /// The CPU has `features`, and `src`, if given, is no longer than
        /// `buf` (sealing) or has `buf`'s length (opening).
        #[target_feature(enable = $features)]
        pub(in crate::gcm::kernels) unsafe fn crypt<const OPEN: bool>(
            pw: &Powers,
            rk: &AesRoundKeys,
            msg: KernelMsg<'_>,
        ) -> u128 {
            // SAFETY: this function enables the features; src per the caller.
            unsafe {
                match rk {
                    AesRoundKeys::Aes128(k) => stitched::crypt::<$v, 10, OPEN>(pw, k, msg),
                    AesRoundKeys::Aes192(k) => stitched::crypt::<$v, 12, OPEN>(pw, k, msg),
                    AesRoundKeys::Aes256(k) => stitched::crypt::<$v, 14, OPEN>(pw, k, msg),
                }
            }
        }

        /// [`multibuffer::seal_batch`] for this width.
        ///
        /// # Safety
        /// The CPU has `features`, and `tags` is as long as `packets`.
        #[target_feature(enable = $features)]
        pub(in crate::gcm::kernels) unsafe fn seal_batch(
            pw: &Powers,
            rk: &AesRoundKeys,
            packets: &mut [BatchPacket<'_>],
            tags: &mut [u128],
        ) {
            // SAFETY: this function enables the features; tags per the caller.
            unsafe {
                match rk {
                    AesRoundKeys::Aes128(k) => {
                        multibuffer::seal_batch::<$v, 10>(pw, k, packets, tags)
                    }
                    AesRoundKeys::Aes192(k) => {
                        multibuffer::seal_batch::<$v, 12>(pw, k, packets, tags)
                    }
                    AesRoundKeys::Aes256(k) => {
                        multibuffer::seal_batch::<$v, 14>(pw, k, packets, tags)
                    }
                }
            }
        }
    };
}

/// AES-NI + PCLMULQDQ on 128-bit vectors (backend `aesni_clmul`): 8 blocks
/// per batch.
pub(super) mod xmm {
    entry_points! {
        vector: __m128i,
        features: "aes,pclmulqdq,sse2,ssse3,sse4.1",
    }
}

/// VAES + VPCLMULQDQ on 256-bit vectors (backend `vaes_avx2`): 16 blocks
/// per batch.
pub(super) mod ymm {
    entry_points! {
        vector: __m256i,
        features: "avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    }
}

/// VAES + VPCLMULQDQ on 512-bit vectors (backend `vaes_avx512`): 32 blocks
/// per batch.
pub(super) mod zmm {
    entry_points! {
        vector: __m512i,
        features: "avx512f,avx512bw,avx512vl,avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    }
}
