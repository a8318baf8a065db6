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
//! - `powers.rs`: tables of H^1..H^n (times x^-1) and their Karatsuba
//!   middle operands: a key's low powers at setup, all [`MAX_BATCH`] on
//!   first use, and per-message tables of only what one message uses.
//! - `ghash.rs`: Karatsuba sums, the two-fold reduction, and the GHASH-only
//!   loop with one reduction per group of blocks.
//!
//! The stitched AES-GCM kernels built on this live in the AEAD layer
//! (`gcm::kernels`); they reach a key's powers through [`WideKey`].

mod ghash;
mod lanes;
mod powers;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg_attr(not(target_arch = "x86_64"), allow(unused_imports))]
pub(crate) use ghash::{absorb_vector, ghash, ghash_padded, polyval_blocks, polyval_short, Sums};
pub(crate) use lanes::{block_to_u128, u128_to_block, Lanes};
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_imports))]
pub(crate) use powers::{
    lean_fill_for, At, FullTable, LeanTable, LowTable, Powers, LOW_POWERS, MAX_BATCH,
};

use super::GhashBackend;

/// Wipes a per-message table with the widest vector stores the CPU has
/// (whichever backend filled it).
#[cfg(target_arch = "x86_64")]
pub(crate) fn wipe_lean(t: &mut LeanTable) {
    use core::arch::x86_64::{__m256i, __m512i};
    /// # Safety
    /// The CPU has AVX-512 F.
    #[target_feature(enable = "avx512f")]
    unsafe fn zmm(t: &mut LeanTable) {
        // SAFETY: this function enables AVX-512 F.
        unsafe { t.wipe_with::<__m512i>() }
    }
    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx,avx2")]
    unsafe fn ymm(t: &mut LeanTable) {
        // SAFETY: this function enables AVX2.
        unsafe { t.wipe_with::<__m256i>() }
    }
    if crate::detect::has_vaes_avx512() {
        // SAFETY: detected (VAES-AVX512 includes AVX-512 F).
        unsafe { zmm(t) }
    } else if crate::detect::has_avx2() {
        // SAFETY: detected.
        unsafe { ymm(t) }
    } else {
        zeroize::Zeroize::zeroize(t);
    }
}

/// The powers of H of a wide backend's key, with the backend that made
/// them. Only the backends' `Key`s build one (`new` is private to
/// `gf128`), and a `Key` exists only after its backend's CPU detection
/// succeeded: holding a `WideKey` proves the features of its backend.
#[derive(Clone, Copy)]
pub(crate) struct WideKey<'a> {
    pw: Powers<'a>,
    backend: GhashBackend,
}

impl<'a> WideKey<'a> {
    /// Only for a `Key` (or `Lean`) of `backend` (see the type's doc).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(in crate::gf128) fn new(pw: Powers<'a>, backend: GhashBackend) -> Self {
        WideKey { pw, backend }
    }

    /// The powers of H.
    pub(crate) fn powers(&self) -> Powers<'a> {
        self.pw
    }

    /// The backend whose CPU features were detected for this key.
    pub(crate) fn backend(&self) -> GhashBackend {
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
        use super::GhashImpl;
        use core::arch::x86_64::*;
        use zeroize::Zeroize;

        /// H^1..H^LOW_POWERS from setup on, H^1..H^MAX_BATCH from the
        /// first message that can use them, each in a box computed in place
        /// (inline, the 1.1 KiB low table was copied with every move of the
        /// key: five copies cost more than the powers and the allocation
        /// together). Each table wipes itself on drop.
        pub(crate) struct Key {
            low: Box<wide::LowTable>,
            full: std::sync::OnceLock<Box<wide::FullTable>>,
        }

        impl Zeroize for Key {
            fn zeroize(&mut self) {
                self.low.zeroize();
                // The boxed table wipes itself as it drops.
                drop(self.full.take());
            }
        }

        impl Key {
            /// The table for a message of `len` bytes: the full one if a
            /// stitched reduction group of its would use more than the low
            /// powers (computed on first use), else the low one.
            #[inline(always)]
            fn table_for(&self, len: usize) -> Powers<'_> {
                let chunk = 8 * <$v as wide::Lanes>::L;
                if Powers::needs_high(len / (16 * chunk), chunk) {
                    self.full
                        // SAFETY: a Key exists only where $detect succeeded.
                        .get_or_init(|| unsafe { full_table(&self.low) })
                        .view()
                } else {
                    self.low.view()
                }
            }
        }

        /// H^1..H^LOW_POWERS, computed in a new box.
        ///
        /// # Safety
        /// The CPU has `features` (`detect` returned true).
        #[target_feature(enable = $features)]
        unsafe fn low_table(h: u128) -> Box<wide::LowTable> {
            let mut t = wide::LowTable::boxed_empty();
            // SAFETY: this function enables the vector's features.
            unsafe { t.fill::<$v>(h, wide::LOW_POWERS) };
            t
        }

        /// H^1..H^MAX_BATCH, from the low powers. A function of its own so
        /// the vector code runs with the features enabled (a closure does
        /// not inherit them).
        ///
        /// # Safety
        /// The CPU has `features` (`detect` returned true).
        #[target_feature(enable = $features)]
        unsafe fn full_table(low: &wide::LowTable) -> Box<wide::FullTable> {
            let mut t = wide::FullTable::boxed_empty();
            // SAFETY: this function enables the vector's features.
            unsafe { t.extend_from::<$v, _>(low, wide::MAX_BATCH) };
            t
        }

        /// Fills a per-message table.
        ///
        /// # Safety
        /// The CPU has `features` (`detect` returned true).
        #[target_feature(enable = $features)]
        unsafe fn lean_fill(t: &mut wide::LeanTable, h: u128, fill: usize) {
            // SAFETY: this function enables the vector's features.
            unsafe { t.fill::<$v>(h, fill) }
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

        /// y absorbing `data` (whole blocks) in POLYVAL's byte order.
        ///
        /// # Safety
        /// The CPU has `features` (`detect` returned true).
        #[target_feature(enable = $features)]
        unsafe fn polyval(pw: &Powers, y: u128, data: &[u8]) -> u128 {
            // SAFETY: this function enables the vector's features.
            unsafe {
                wide::block_to_u128(wide::polyval_blocks::<$v>(pw, wide::u128_to_block(y), data))
            }
        }

        impl GhashImpl for Key {
            type Message<'t> = Lean<'t>;

            /// The low table, and the full one once a long message needed it.
            const KEY_BYTES: usize =
                core::mem::size_of::<wide::LowTable>() + core::mem::size_of::<wide::FullTable>();

            fn new(h: u128) -> Option<Self> {
                if !$detect() {
                    return None;
                }
                Some(Key {
                    // SAFETY: $detect proved the features `low_table` enables.
                    low: unsafe { low_table(h) },
                    full: std::sync::OnceLock::new(),
                })
            }

            fn mul_h(&self, x: u128) -> u128 {
                // SAFETY: a Key exists only where $detect succeeded (new).
                unsafe { ghash(&self.low.view(), 0, &x.to_be_bytes()) }
            }

            fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
                // SAFETY: as in mul_h (hashing alone uses the low powers).
                unsafe { ghash(&self.low.view(), y, blocks) }
            }

            #[inline(always)]
            fn wide(&self, len: usize) -> Option<WideKey<'_>> {
                // A Key of this backend: its features were detected (new).
                Some(WideKey::new(self.table_for(len), $backend))
            }
        }

        /// A GHASH key for one message: only the powers it can use (see
        /// `lean_fill_for`), in a table the caller keeps on its stack (no
        /// allocation, no copy; the table wipes itself).
        pub(crate) struct Lean<'t> {
            t: &'t wide::LeanTable,
        }

        impl<'t> crate::gf128::message::MessageImpl<'t> for Lean<'t> {
            #[inline]
            fn new(
                table: &'t mut crate::gf128::MessageTable,
                h: u128,
                len: usize,
                most: usize,
            ) -> Option<Self> {
                if !$detect() {
                    return None;
                }
                let t = table.empty();
                let fill = wide::lean_fill_for(len, <$v as wide::Lanes>::L, most);
                // SAFETY: $detect proved the features `lean_fill` enables.
                unsafe { lean_fill(t, h, fill) };
                Some(Lean { t })
            }

            #[inline]
            fn mul_h(&self, x: u128) -> u128 {
                // SAFETY: a Lean exists only where $detect succeeded (new).
                unsafe { ghash(&self.t.view(), 0, &x.to_be_bytes()) }
            }

            #[inline]
            fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
                // SAFETY: as in mul_h.
                unsafe { ghash(&self.t.view(), y, blocks) }
            }

            #[inline]
            fn update_polyval_blocks(&self, y: u128, blocks: &[u8]) -> Option<u128> {
                // SAFETY: as in mul_h.
                Some(unsafe { polyval(&self.t.view(), y, blocks) })
            }

            #[inline]
            fn wide(&self) -> Option<WideKey<'t>> {
                // A Lean of this backend: its features were detected (new).
                Some(WideKey::new(self.t.view(), $backend))
            }
        }

        #[allow(dead_code)]
        type Vector = $v;
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use wide_backend;
