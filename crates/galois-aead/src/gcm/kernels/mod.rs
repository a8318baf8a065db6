//! The stitched AES-GCM kernels: AES-CTR and GHASH interleaved in one loop,
//! on vectors of 1, 2 or 4 blocks, for the keys whose GHASH backend is a
//! wide one (`gf128::wide`: lanes of field elements in integer form, powers
//! of H premultiplied by x^-1; the bit-reflected reduction is derived once
//! in the `gf128` module doc). This is the AEAD layer: it imports the field
//! layer (`gf128::wide`) and the cipher's round keys, never the reverse.
//!
//! The x86-64 kernels are in `x86_64/`, one file per job, generic over the
//! vector (`aes_lanes::AesLanes`), compiled only for x86-64:
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
//!
//! The aarch64 kernel is `aarch64/pmull_aes.rs`: AESE/AESMC with the PMULL GHASH of
//!   `gf128::pmull`, written for that field code (8 blocks per batch), for
//!   the `pmull` and `pmull_eor3` keys.
//!
//! The `kernels!` table below lists them; [`Kernel`] picks the entry points
//! for the backend a key's GHASH has.

#[cfg(target_arch = "x86_64")]
#[path = "x86_64/aes_lanes.rs"]
mod aes_lanes;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/counters.rs"]
mod counters;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/multibuffer.rs"]
mod multibuffer;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
#[path = "aarch64/pmull_aes.rs"]
mod pmull_aes;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/stitched.rs"]
mod stitched;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/tuning.rs"]
mod tuning;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/x86.rs"]
mod x86;
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[path = "x86_64/ymm_asm.rs"]
mod ymm_asm;

use crate::block::round_keys::AesRoundKeys;
use crate::gcm::BatchPacket;
#[cfg(target_arch = "x86_64")]
use crate::gf128::wide::WideKey;
/// The powers of H a kernel takes: a view of a wide key's table, or the
/// PMULL ones on aarch64.
#[cfg(target_arch = "x86_64")]
type KernelPowers<'a> = crate::gf128::wide::Powers<'a>;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
type KernelPowers<'a> = &'a crate::gf128::pmull::Powers;
/// No kernel exists on other targets.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little")
)))]
type KernelPowers<'a> = core::marker::PhantomData<&'a ()>;
use crate::gf128::GhashKey;

/// One message for a kernel: the counter block Y0, whether it is public
/// (IV || 1 from a 96-bit IV, rather than GHASH(H, IV); only public
/// counters may steer a branch), the AAD, and the text: `src` into `buf`,
/// or `buf` in place.
/// (Only x86-64's kernels read `y0_public`; other targets have none.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct KernelMsg<'a> {
    pub(crate) y0: &'a [u8; 16],
    pub(crate) y0_public: bool,
    pub(crate) aad: &'a [u8],
    pub(crate) src: Option<&'a [u8]>,
    pub(crate) buf: &'a mut [u8],
}

impl<'a> KernelMsg<'a> {
    /// The message of its five parts.
    #[inline(always)]
    pub(crate) fn new(
        y0: &'a [u8; 16],
        y0_public: bool,
        aad: &'a [u8],
        src: Option<&'a [u8]>,
        buf: &'a mut [u8],
    ) -> Self {
        KernelMsg {
            y0,
            y0_public,
            aad,
            src,
            buf,
        }
    }
}

/// The stitched kernels' table: a line per kernel, naming the module whose
/// `crypt` (seal or open) and `seal_batch` it runs (one signature for all) and the
/// GHASH backend whose keys take it. A key of that backend proves the
/// kernel's CPU features (see `gf128::wide::WideKey` and `gf128::pmull`),
/// which is what makes the calls below sound. Adding a kernel: its module
/// and a line here (and its backend's line in the GHASH table).
macro_rules! kernels {
    ($(
        $(#[$cfg:meta])*
        $isa:ident => $($m:ident)::+, backend = $backend:ident, $doc:literal;
    )*) => {
        /// The instruction sets with a stitched kernel. Empty on targets
        /// without one, so every match on it is exhaustive there with no arm.
        #[derive(Clone, Copy)]
        enum Isa {
            $( #[doc = $doc] $(#[$cfg])* $isa, )*
        }

        impl Isa {
            /// The kernel of a GHASH backend, if it has one.
            #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
            #[inline(always)]
            fn for_backend(b: crate::GhashBackend) -> Option<Isa> {
                match b {
                    $( $(#[$cfg])* crate::GhashBackend::$backend => Some(Isa::$isa), )*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            /// Seals (`OPEN` false) or opens `buf` with the kernel.
            ///
            /// # Safety
            /// The CPU has the kernel's features (a key of its backend
            /// proves them; an `AesRoundKeys` proves hardware AES); `src`,
            /// if any, is no longer than `buf` (sealing) or as long as it
            /// (opening).
            #[inline(always)]
            unsafe fn crypt<const OPEN: bool>(
                self,
                pw: &KernelPowers<'_>,
                rk: &AesRoundKeys,
                msg: KernelMsg<'_>,
            ) -> u128 {
                let _ = (pw, rk, &msg);
                match self {
                    // SAFETY: the caller's contract is each kernel's.
                    $( $(#[$cfg])* Isa::$isa => unsafe { $($m)::+::crypt::<OPEN>(pw, rk, msg) }, )*
                }
            }

            /// # Safety
            /// As for [`Isa::crypt`], with a tag slot per packet.
            #[inline(always)]
            unsafe fn seal_batch(
                self,
                pw: &KernelPowers<'_>,
                rk: &AesRoundKeys,
                packets: &mut [BatchPacket<'_>],
                tags: &mut [u128],
            ) {
                let _ = (pw, rk, &packets, &tags);
                match self {
                    // SAFETY: the caller's contract is each kernel's.
                    $( $(#[$cfg])* Isa::$isa => unsafe { $($m)::+::seal_batch(pw, rk, packets, tags) }, )*
                }
            }
        }
    };
}

kernels! {
    #[cfg(target_arch = "x86_64")]
    Zmm => x86::zmm, backend = VaesAvx512, "VAES + VPCLMULQDQ, 512-bit vectors.";
    #[cfg(target_arch = "x86_64")]
    Ymm => x86::ymm, backend = VaesAvx2, "VAES + VPCLMULQDQ, 256-bit vectors.";
    #[cfg(target_arch = "x86_64")]
    Xmm => x86::xmm, backend = AesniClmul, "AES-NI + PCLMULQDQ, 128-bit vectors.";
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    PmullEor3 => pmull_aes::eor3_kernel, backend = PmullEor3, "AESE/AESMC + PMULL with EOR3 (FEAT_SHA3), 8 blocks per batch.";
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    Pmull => pmull_aes::plain_kernel, backend = Pmull, "AESE/AESMC + PMULL (aarch64), 8 blocks per batch.";
}

/// The vector width of a line of the table whose probe said yes on this
/// CPU, for AES code outside the kernels that may run at the same width
/// (GCM-SIV's counter mode). Built only from a `Kernel` or by [`Width::of`]:
/// holding a 512-bit (256-bit) one proves VAES with AVX-512 F, BW and VL
/// (with AVX2).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Width(Isa);

#[cfg(target_arch = "x86_64")]
impl Width {
    /// The width of `backend`'s kernel, if it has one and the backend's
    /// probe says this CPU runs it.
    #[inline]
    pub(crate) fn of(backend: crate::GhashBackend) -> Option<Width> {
        if backend.is_available() {
            Isa::for_backend(backend).map(Width)
        } else {
            None
        }
    }

    /// 512, 256 or 128.
    #[inline(always)]
    pub(crate) fn bits(self) -> usize {
        match self.0 {
            Isa::Zmm => 512,
            Isa::Ymm => 256,
            Isa::Xmm => 128,
        }
    }
}

/// Whether GHASH `backend` has a stitched kernel (its keys run AES-GCM
/// through one).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn has_kernel(backend: crate::GhashBackend) -> bool {
    Isa::for_backend(backend).is_some()
}

/// The most blocks a reduction of `backend`'s stitched kernel spans, which
/// is as many powers of H as a key made for one message needs for it
/// (`gf128::MessageKey`): a batch's worth where the width's own loop
/// reduces every batch (`AesLanes::OWN_BATCHES`), else no limit.
#[cfg(target_arch = "x86_64")]
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
            let _ = len;
            Some(Kernel {
                pw: ghash.pmull()?.0,
                isa: Isa::for_backend(ghash.backend())?,
            })
        }
        #[cfg(target_arch = "x86_64")]
        {
            Self::for_wide(ghash.wide(len)?)
        }
        // No kernel on other targets.
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little")
        )))]
        {
            let _ = (ghash, len);
            None
        }
    }

    /// The stitched kernel for a wide key's powers (a GCM key's, or one
    /// message's: `gf128::MessageKey`).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn for_wide(wide: WideKey<'a>) -> Option<Self> {
        Some(Kernel {
            pw: wide.powers(),
            isa: Isa::for_backend(wide.backend())?,
        })
    }

    /// The vector width of this kernel's line.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn width(&self) -> Width {
        Width(self.isa)
    }

    /// Encrypts the plaintext `src || buf[src.len()..]` into `buf` (`src`
    /// no longer than `buf`; `None`: `buf` in place) under counters Y0+1,
    /// Y0+2, ...
    pub(crate) fn seal(&self, rk: &AesRoundKeys, msg: KernelMsg<'_>) -> u128 {
        assert!(
            msg.src.is_none_or(|s| s.len() <= msg.buf.len()),
            "src is longer than buf"
        );
        // The aarch64 kernel takes a whole `src` or none.
        #[cfg(not(target_arch = "x86_64"))]
        let msg = {
            let mut msg = msg;
            if let Some(s) = msg.src.filter(|s| s.len() < msg.buf.len()) {
                msg.buf[..s.len()].copy_from_slice(s);
                msg.src = None;
            }
            msg
        };
        // SAFETY: the features of the kernel were proven for this key (see
        // `isa`), hardware AES by the existence of an AesRoundKeys
        // (aes::aesni::AesNi::new_boxed, derive256_in; aes::armv8::Armv8::new
        // on aarch64); src is no longer than buf (asserted).
        unsafe { self.isa.crypt::<false>(&self.pw, rk, msg) }
    }

    /// Decrypts `src` into `buf` (or `buf` in place); the caller compares
    /// the tag and wipes `buf` if it does not verify.
    pub(crate) fn open(&self, rk: &AesRoundKeys, msg: KernelMsg<'_>) -> u128 {
        assert!(
            msg.src.is_none_or(|s| s.len() == msg.buf.len()),
            "src and buf differ in length"
        );
        // SAFETY: as in `seal`; src is as long as buf (asserted).
        unsafe { self.isa.crypt::<true>(&self.pw, rk, msg) }
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
        // SAFETY: as in `seal`; tags has a slot per packet (asserted).
        unsafe { self.isa.seal_batch(&self.pw, rk, packets, tags) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GhashBackend;

    /// The kernels' table against the GHASH table and its keys: a backend
    /// has a kernel exactly when its keys give one, and only constant-time
    /// backends have one.
    #[test]
    fn kernel_table_agrees_with_the_ghash_table() {
        for &b in GhashBackend::ALL {
            if has_kernel(b) {
                assert!(b.is_constant_time(), "{b}");
            }
            if !b.is_available() {
                continue;
            }
            let key = GhashKey::new(0x1234_5678_9abc_def0_u128 << 3, b).unwrap();
            assert_eq!(
                Kernel::for_ghash(&key, 4096).is_some(),
                has_kernel(b),
                "{b}"
            );
        }
    }
}
