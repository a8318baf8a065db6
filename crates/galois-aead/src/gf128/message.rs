//! GHASH keys made for one message (XAES-256-GCM's subkeys, AES-GCM-SIV's
//! POLYVAL keys): on the wide backends only the powers of H the message
//! and the key's user can use (H^1..H^32, or H^1..H^64 from 2 KiB on, and
//! no more than one reduction of the user spans: 16 on `vaes_avx2`, whose
//! stitched loop reduces every 16 blocks, and one hashing group for
//! POLYVAL), in a table on the stack: no allocation, nothing computed that
//! the message does not need.
//! Other backends use their ordinary key. Wiped on drop.

use super::wide::WideKey;
use super::{GhashBackend, GhashKey};
use crate::error::Result;
use zeroize::Zeroize;

/// Room for a message key's powers, on the caller's stack: left
/// uninitialized until a key takes it (built and returned whole, its 2 KiB
/// were written twice per message, a fill and a copy), then wiped on drop.
/// Aligned to a cache line (the table first), so that no vector load of a
/// power straddles two lines (the boxed tables of GCM keys are not: an
/// aligned allocation cost more in `malloc` than the loads gain).
#[repr(C, align(64))]
pub(crate) struct MessageTable {
    #[cfg(target_arch = "x86_64")]
    t: core::mem::MaybeUninit<super::wide::LeanTable>,
    #[cfg(target_arch = "x86_64")]
    init: bool,
}

impl MessageTable {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        // Only the flag is written: built as `MessageTable { t: uninit,
        // init: false }`, LLVM filled the whole 2 KiB with zeros (it may
        // choose any value for uninitialized bytes, and chose one memset).
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut s = core::mem::MaybeUninit::<Self>::uninit();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a write of the one field that needs initializing.
        unsafe {
            core::ptr::addr_of_mut!((*s.as_mut_ptr()).init).write(false)
        };
        // SAFETY: `t` is a MaybeUninit (needs no initialization) and `init`
        // is written (on other targets the struct has no fields).
        unsafe { s.assume_init() }
    }

    /// The table, empty (a table used before is wiped first).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn empty(&mut self) -> &mut super::wide::LeanTable {
        if self.init {
            // SAFETY: `init` says the table was set up by `init_empty`.
            let t = unsafe { self.t.assume_init_mut() };
            super::wide::wipe_lean(t);
            return t;
        }
        self.init = true;
        super::wide::LeanTable::init_empty(&mut self.t)
    }
}

#[cfg(target_arch = "x86_64")]
impl Drop for MessageTable {
    fn drop(&mut self) {
        if self.init {
            // Wiped with vector stores; the table holds nothing else, so
            // its own drop (the same wipe, by `memset`) is not run.
            // SAFETY: set up by `init_empty` (`init`).
            super::wide::wipe_lean(unsafe { self.t.assume_init_mut() });
        }
    }
}

pub(crate) enum MessageKey<'t> {
    #[cfg(target_arch = "x86_64")]
    VaesAvx512(super::vaes_avx512::Lean<'t>),
    #[cfg(target_arch = "x86_64")]
    VaesAvx2(super::vaes_avx2::Lean<'t>),
    #[cfg(target_arch = "x86_64")]
    AesniClmul(super::aesni_clmul::Lean<'t>),
    /// Boxed: a `GhashKey` is as large as its largest variant.
    Other(Box<GhashKey>, core::marker::PhantomData<&'t MessageTable>),
}

impl Drop for MessageKey<'_> {
    #[allow(irrefutable_let_patterns)]
    fn drop(&mut self) {
        // The lean tables wipe themselves.
        if let MessageKey::Other(k, _) = self {
            k.zeroize();
        }
    }
}

impl<'t> MessageKey<'t> {
    /// The key for H on `backend`, for a message of `len` bytes (AAD and
    /// text; it only decides how many powers are worth computing), its
    /// powers in `table` (one per key). `most`: the most blocks a
    /// reduction of its user spans (a stitched kernel's groups), 0 if it
    /// is only hashed with (its groups are then the hashing loop's).
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(crate) fn new(
        table: &'t mut MessageTable,
        h: u128,
        backend: GhashBackend,
        len: usize,
        most: usize,
    ) -> Result<Self> {
        let unavailable = crate::error::Error::BackendUnavailable {
            backend: backend.name(),
        };
        let _ = (len, most, &table);
        Ok(match backend {
            #[cfg(target_arch = "x86_64")]
            GhashBackend::VaesAvx512 => MessageKey::VaesAvx512(
                super::vaes_avx512::Lean::new(table.empty(), h, len, most).ok_or(unavailable)?,
            ),
            #[cfg(target_arch = "x86_64")]
            GhashBackend::VaesAvx2 => MessageKey::VaesAvx2(
                super::vaes_avx2::Lean::new(table.empty(), h, len, most).ok_or(unavailable)?,
            ),
            #[cfg(target_arch = "x86_64")]
            GhashBackend::AesniClmul => MessageKey::AesniClmul(
                super::aesni_clmul::Lean::new(table.empty(), h, len, most).ok_or(unavailable)?,
            ),
            b => MessageKey::Other(Box::new(GhashKey::new(h, b)?), core::marker::PhantomData),
        })
    }

    /// x * H.
    #[inline]
    pub(crate) fn mul_h(&self, x: u128) -> u128 {
        match self {
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx512(k) => k.mul_h(x),
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx2(k) => k.mul_h(x),
            #[cfg(target_arch = "x86_64")]
            MessageKey::AesniClmul(k) => k.mul_h(x),
            MessageKey::Other(k, _) => k.mul_h(x),
        }
    }

    /// Absorbs whole blocks: y <- (y xor B_i) * H for each.
    #[inline]
    pub(crate) fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
        debug_assert_eq!(blocks.len() % 16, 0);
        match self {
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx512(k) => k.update_blocks(y, blocks),
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx2(k) => k.update_blocks(y, blocks),
            #[cfg(target_arch = "x86_64")]
            MessageKey::AesniClmul(k) => k.update_blocks(y, blocks),
            MessageKey::Other(k, _) => k.update_blocks(y, blocks),
        }
    }

    /// [`MessageKey::update_blocks`] of blocks each byte-reversed
    /// (POLYVAL's order), on the wide backends, which load them as they
    /// are; `None` on the others (the caller reverses a copy).
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    pub(crate) fn update_polyval_blocks(&self, y: u128, blocks: &[u8]) -> Option<u128> {
        debug_assert_eq!(blocks.len() % 16, 0);
        match self {
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx512(k) => Some(k.update_polyval_blocks(y, blocks)),
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx2(k) => Some(k.update_polyval_blocks(y, blocks)),
            #[cfg(target_arch = "x86_64")]
            MessageKey::AesniClmul(k) => Some(k.update_polyval_blocks(y, blocks)),
            MessageKey::Other(..) => None,
        }
    }

    /// The powers of a wide backend's key, for the stitched AES-GCM
    /// kernels (the other backends: `None`).
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn wide(&self) -> Option<WideKey<'t>> {
        match self {
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx512(k) => Some(k.wide()),
            #[cfg(target_arch = "x86_64")]
            MessageKey::VaesAvx2(k) => Some(k.wide()),
            #[cfg(target_arch = "x86_64")]
            MessageKey::AesniClmul(k) => Some(k.wide()),
            MessageKey::Other(..) => None,
        }
    }
}
