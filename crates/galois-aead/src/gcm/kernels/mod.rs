//! The stitched AES-GCM kernels: AES-CTR and GHASH interleaved in one loop,
//! on vectors of 1, 2 or 4 blocks, for the keys whose GHASH backend is a
//! wide one (`gf128::wide`: lanes of field elements in integer form, powers
//! of H premultiplied by x^-1; the bit-reflected reduction is derived once
//! in the `gf128` module doc). This is the AEAD layer: it imports the field
//! layer (`gf128::wide`) and the cipher's round keys, never the reverse.
//!
//! One file per job, generic over the vector (`aes_lanes::AesLanes`):
//! - `tuning.rs`: the Zen 4 tuning numbers, each with its measurement;
//! - `aes_lanes.rs`: the AES rounds, counter addition and scheduling fence
//!   on a vector, and the round keys;
//! - `counters.rs`: GCM's 32-bit counter blocks, a vector at a time;
//! - `stitched.rs`: the stitched seal and open loops, their head, tail and
//!   tiny-message paths;
//! - `multibuffer.rs`: many short packets sealed in shared AES batches;
//! - `x86.rs`: the x86-64 instruction set, and the three backends' entry
//!   points with their target features;
//! - `ymm_asm.rs`: the 256-bit loop over whole batches in assembly (16
//!   registers are too few for LLVM's allocation of the generic one);
//! - `pmull_aes.rs` (aarch64): AESE/AESMC with the PMULL GHASH of
//!   `gf128::pmull`, written for that field code (8 blocks per batch), for
//!   the `pmull` and `pmull_eor3` keys.
//!
//! [`Kernel`] picks the entry points for the backend a key's GHASH has.

#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

mod aes_lanes;
mod counters;
mod multibuffer;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod pmull_aes;
mod stitched;
mod tuning;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod ymm_asm;

use crate::block::round_keys::AesRoundKeys;
use crate::gcm::BatchPacket;
#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
use crate::gf128::wide::WideKey;
/// The powers of H a kernel takes: a view of a wide key's table, or the
/// PMULL ones on aarch64.
#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
type KernelPowers<'a> = crate::gf128::wide::Powers<'a>;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
type KernelPowers<'a> = &'a crate::gf128::pmull::Powers;
use crate::gf128::GhashKey;

/// The instruction sets with a stitched kernel. Empty on targets without
/// one, so every match on it is exhaustive there with no arm.
#[derive(Clone, Copy)]
enum Isa {
    /// AES-NI + PCLMULQDQ, 128-bit vectors.
    #[cfg(target_arch = "x86_64")]
    Xmm,
    /// VAES + VPCLMULQDQ, 256-bit vectors.
    #[cfg(target_arch = "x86_64")]
    Ymm,
    /// VAES + VPCLMULQDQ, 512-bit vectors.
    #[cfg(target_arch = "x86_64")]
    Zmm,
    /// AESE/AESMC + PMULL (aarch64), 8 blocks per batch.
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    Pmull,
    /// The same with EOR3 (FEAT_SHA3).
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    PmullEor3,
}

impl Isa {
    /// The kernel for a wide GHASH backend. A `WideKey` proves its
    /// backend's CPU features, which include those of the kernel named
    /// here for it.
    #[inline(always)]
    fn for_backend(b: crate::GhashBackend) -> Option<Isa> {
        match b {
            #[cfg(target_arch = "x86_64")]
            crate::GhashBackend::AesniClmul => Some(Isa::Xmm),
            #[cfg(target_arch = "x86_64")]
            crate::GhashBackend::VaesAvx2 => Some(Isa::Ymm),
            #[cfg(target_arch = "x86_64")]
            crate::GhashBackend::VaesAvx512 => Some(Isa::Zmm),
            _ => None,
        }
    }
}

/// The most blocks a reduction of `backend`'s stitched kernel spans, which
/// is as many powers of H as a key made for one message needs for it
/// (`gf128::MessageKey`): a batch's worth where the width's own loop
/// reduces every batch (`AesLanes::OWN_BATCHES`), else no limit.
pub(crate) fn lean_powers(backend: crate::GhashBackend) -> usize {
    match Isa::for_backend(backend) {
        #[cfg(target_arch = "x86_64")]
        Some(Isa::Ymm) if <core::arch::x86_64::__m256i as aes_lanes::AesLanes>::OWN_BATCHES => {
            tuning::BATCH_VECTORS * <core::arch::x86_64::__m256i as crate::gf128::wide::Lanes>::L
        }
        _ => usize::MAX,
    }
}

/// The stitched AES-GCM of a key whose GHASH backend has one. All three
/// functions take AES-NI round keys (11, 13 or 15) and return the full tag
/// GHASH(H, A, C) xor E(K, Y0) as an element.
#[derive(Clone, Copy)]
pub(crate) struct Kernel<'a> {
    pw: KernelPowers<'a>,
    /// Proven: the CPU features of the GHASH backend this came from
    /// (see `gf128::wide::WideKey`).
    isa: Isa,
}

impl<'a> Kernel<'a> {
    /// The stitched kernel for `ghash`'s backend and a message of `len`
    /// bytes, if the backend has one.
    #[inline(always)]
    pub(crate) fn for_ghash(ghash: &'a GhashKey, len: usize) -> Option<Self> {
        // A pmull key proves PMULL (and a pmull_eor3 key SHA3 too).
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        {
            // No wide (x86) backend exists on aarch64.
            debug_assert!(ghash.wide(len).is_none());
            ghash.pmull().map(|(pw, eor3)| Kernel {
                pw,
                isa: if eor3 { Isa::PmullEor3 } else { Isa::Pmull },
            })
        }
        #[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
        {
            Self::for_wide(ghash.wide(len)?)
        }
    }

    /// The stitched kernel for a wide key's powers (a GCM key's, or one
    /// message's: `gf128::MessageKey`).
    #[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
    #[inline(always)]
    pub(crate) fn for_wide(wide: WideKey<'a>) -> Option<Self> {
        Some(Kernel {
            pw: wide.powers(),
            isa: Isa::for_backend(wide.backend())?,
        })
    }

    /// Encrypts the plaintext `src || buf[src.len()..]` into `buf` (`src`
    /// no longer than `buf`; `None`: `buf` in place) under counters Y0+1,
    /// Y0+2, ... `y0_public`: whether Y0 is public (IV || 1 from a 96-bit
    /// IV) rather than GHASH(H, IV); only public counters may steer a
    /// branch.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(crate) fn seal(
        &self,
        rk: &AesRoundKeys,
        y0: &[u8; 16],
        y0_public: bool,
        aad: &[u8],
        src: Option<&[u8]>,
        buf: &mut [u8],
    ) -> u128 {
        assert!(
            src.is_none_or(|s| s.len() <= buf.len()),
            "src is longer than buf"
        );
        // The aarch64 kernel takes a whole `src` or none.
        #[cfg(not(target_arch = "x86_64"))]
        let src = match src {
            Some(s) if s.len() < buf.len() => {
                buf[..s.len()].copy_from_slice(s);
                None
            }
            s => s,
        };
        let pw = &self.pw;
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the features of the width were proven for this key (see
            // `isa`), AES-NI by the existence of an AesRoundKeys
            // (aes::aesni::AesNi::new_boxed, derive256_in); src is no
            // longer than buf (asserted).
            Isa::Xmm => unsafe { x86::xmm::seal(pw, rk, y0, y0_public, aad, src, buf) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the first arm.
            Isa::Ymm => unsafe { x86::ymm::seal(pw, rk, y0, y0_public, aad, src, buf) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the first arm.
            Isa::Zmm => unsafe { x86::zmm::seal(pw, rk, y0, y0_public, aad, src, buf) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: a pmull key proved PMULL (see `isa`), an AesRoundKeys
            // FEAT_AES (aes::armv8::Armv8::new is its only builder here).
            Isa::Pmull => unsafe { pmull_aes::seal(pw, false, rk, y0, aad, src, buf) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: as for the Pmull arm, and a pmull_eor3 key proved SHA3.
            Isa::PmullEor3 => unsafe { pmull_aes::seal(pw, true, rk, y0, aad, src, buf) },
        }
    }

    /// Decrypts `src` into `buf` (or `buf` in place); the caller compares
    /// the tag and wipes `buf` if it does not verify.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(crate) fn open(
        &self,
        rk: &AesRoundKeys,
        y0: &[u8; 16],
        y0_public: bool,
        aad: &[u8],
        src: Option<&[u8]>,
        buf: &mut [u8],
    ) -> u128 {
        assert!(
            src.is_none_or(|s| s.len() == buf.len()),
            "src and buf differ in length"
        );
        let pw = &self.pw;
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `seal`.
            Isa::Xmm => unsafe { x86::xmm::open(pw, rk, y0, y0_public, aad, src, buf) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the first arm.
            Isa::Ymm => unsafe { x86::ymm::open(pw, rk, y0, y0_public, aad, src, buf) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the first arm.
            Isa::Zmm => unsafe { x86::zmm::open(pw, rk, y0, y0_public, aad, src, buf) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: as in `seal`.
            Isa::Pmull => unsafe { pmull_aes::open(pw, false, rk, y0, aad, src, buf) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: as in `seal`.
            Isa::PmullEor3 => unsafe { pmull_aes::open(pw, true, rk, y0, aad, src, buf) },
        }
    }

    /// Encrypts many packets (12-byte nonces) in place, writing each full
    /// tag into `tags` (as long as `packets`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(crate) fn seal_batch(
        &self,
        rk: &AesRoundKeys,
        packets: &mut [BatchPacket<'_>],
        tags: &mut [u128],
    ) {
        assert_eq!(packets.len(), tags.len(), "one tag per packet");
        let pw = &self.pw;
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the features as in `seal`; tags has a slot per packet
            // (asserted).
            Isa::Xmm => unsafe { x86::xmm::seal_batch(pw, rk, packets, tags) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the first arm.
            Isa::Ymm => unsafe { x86::ymm::seal_batch(pw, rk, packets, tags) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for the first arm.
            Isa::Zmm => unsafe { x86::zmm::seal_batch(pw, rk, packets, tags) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: as in `seal`.
            Isa::Pmull => unsafe { pmull_aes::seal_batch(pw, false, rk, packets, tags) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: as in `seal`.
            Isa::PmullEor3 => unsafe { pmull_aes::seal_batch(pw, true, rk, packets, tags) },
        }
    }
}
