//! The vector GHASH template behind the `aesni_clmul`, `vaes_avx2` and
//! `vaes_avx512` backends: written once, generic over the vector through
//! [`Lanes`], and instantiated by each backend inside functions that
//! enable its CPU features. Everything here is `#[inline(always)]`, so each
//! instantiation compiles to straight-line code for its width.
//!
//! Representation. A block is loaded byte-reversed, so a 128-bit lane holds
//! the integer `u128::from_be_bytes(block)`: bit 127 is x^0, as in every
//! backend. The carry-less product of two such integers is the reflected
//! product shifted right by one (derived once, in the `gf128` module doc).
//! Instead of shifting every product back, the powers of H are stored
//! premultiplied by x^-1, so A * (H^k x^-1) read as a 256-bit reflected
//! value with no shift is exactly the unreduced A * H^k.
//!
//! The parts, one file per job:
//! - `lanes.rs`: the [`Lanes`] trait, a vector of 1..4 blocks with an
//!   associated single-block type; no instruction set in it.
//! - `x86.rs`: its impls for `__m128i`, `__m256i` and `__m512i`.
//! - `powers.rs`: H^1..H^[`MAX_BATCH`] (times x^-1) and their Karatsuba
//!   middle operands, the low ones at key setup and the rest on first use.
//! - `ghash.rs`: Karatsuba sums, the two-fold reduction, and the GHASH-only
//!   loop with one reduction per group of blocks.
//!
//! The stitched AES-GCM kernels built on this live in the AEAD layer
//! (`gcm::kernels`); they reach a key's powers through [`WideKey`].

#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

mod ghash;
mod lanes;
mod powers;
#[cfg(target_arch = "x86_64")]
mod x86;

pub(crate) use ghash::{absorb_vector, ghash, ghash_padded, Sums};
pub(crate) use lanes::{block_to_u128, u128_to_block, Lanes};
pub(crate) use powers::{Powers, MAX_BATCH};

use super::Backend;

/// The powers of H of a wide backend's key, with the backend that made
/// them. Only the backends' `Key`s build one (`new` is private to
/// `gf128`), and a `Key` exists only after its backend's CPU detection
/// succeeded: holding a `WideKey` proves the features of its backend.
#[derive(Clone, Copy)]
pub(crate) struct WideKey<'a> {
    pw: &'a Powers,
    backend: Backend,
}

impl<'a> WideKey<'a> {
    /// Only for a `Key` of `backend` (see the type's doc).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(in crate::gf128) fn new(pw: &'a Powers, backend: Backend) -> Self {
        WideKey { pw, backend }
    }

    /// The powers of H.
    pub(crate) fn powers(&self) -> &'a Powers {
        self.pw
    }

    /// The backend whose CPU features were detected for this key.
    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }
}

/// The body of a wide backend file: its key (the powers of H) and its
/// GHASH, instantiated for the vector type `vector` inside functions that
/// enable `features`; `detect` proves those features at key setup, and
/// `backend` names the backend in the [`WideKey`] the AEAD layer's
/// stitched kernels take.
#[cfg(target_arch = "x86_64")]
macro_rules! wide_backend {
    (
        vector: $v:ty,
        features: $features:literal,
        detect: $detect:path,
        backend: $backend:expr $(,)?
    ) => {
        use super::wide::{self, Powers, WideKey};
        use super::GhashBackend;
        use core::arch::x86_64::*;
        use zeroize::Zeroize;

        #[derive(Zeroize)]
        pub(crate) struct Key {
            pw: Box<Powers>,
        }

        /// H^1..H^LOW_POWERS.
        ///
        /// # Safety
        /// The CPU has `features` (`detect` returned true).
        #[target_feature(enable = $features)]
        unsafe fn powers(h: u128) -> Powers {
            // SAFETY: this function enables the vector's features.
            unsafe { Powers::new::<$v>(h) }
        }

        /// y absorbing `data` (whole blocks).
        ///
        /// # Safety
        /// The CPU has `features` (`detect` returned true).
        #[target_feature(enable = $features)]
        unsafe fn ghash(pw: &Powers, y: u128, data: &[u8]) -> u128 {
            // SAFETY: this function enables the vector's features.
            unsafe { wide::block_to_u128(wide::ghash::<$v>(pw, wide::u128_to_block(y), data)) }
        }

        impl GhashBackend for Key {
            const KEY_BYTES: usize = core::mem::size_of::<Powers>();

            fn new(h: u128) -> Option<Self> {
                if !$detect() {
                    return None;
                }
                Some(Key {
                    // SAFETY: $detect proved the features `powers` enables.
                    pw: Box::new(unsafe { powers(h) }),
                })
            }

            fn mul_h(&self, x: u128) -> u128 {
                // SAFETY: a Key exists only where $detect succeeded (new).
                unsafe { ghash(&self.pw, 0, &x.to_be_bytes()) }
            }

            fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
                // SAFETY: as in mul_h.
                unsafe { ghash(&self.pw, y, blocks) }
            }

            fn wide(&self) -> Option<WideKey<'_>> {
                // A Key of this backend: its features were detected (new).
                Some(WideKey::new(&self.pw, $backend))
            }
        }

        #[allow(dead_code)]
        type Vector = $v;
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use wide_backend;
