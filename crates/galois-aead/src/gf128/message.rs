//! GHASH keys made for one message (XAES-256-GCM's subkeys, AES-GCM-SIV's
//! POLYVAL keys): on the wide backends only the powers of H the message
//! and the key's user can use (H^1..H^32, or H^1..H^64 from 2 KiB on, and
//! no more than one reduction of the user spans: 16 on `vaes_avx2`, whose
//! stitched loop reduces every 16 blocks, and one hashing group for
//! POLYVAL), in a table on the stack: no allocation, nothing computed that
//! the message does not need.
//! Other backends use their ordinary key. Wiped on drop.

#[cfg(target_arch = "x86_64")]
use super::wide::WideKey;
use super::GhashImpl;

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
    pub(crate) fn empty(&mut self) -> &mut super::wide::LeanTable {
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

/// What a backend's key for one message does (`GhashImpl::Message`);
/// `MessageKey` dispatches to it.
pub(crate) trait MessageImpl<'t>: Sized {
    /// The key for H and a message of `len` bytes, its powers (if any) in
    /// `table`, for a user whose reductions span at most `most` blocks;
    /// `None` if the CPU lacks the backend's features.
    fn new(table: &'t mut MessageTable, h: u128, len: usize, most: usize) -> Option<Self>;

    /// x * H.
    fn mul_h(&self, x: u128) -> u128;

    /// Absorbs whole blocks: y <- (y xor B_i) * H for each.
    fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128;

    /// The same of blocks in POLYVAL's byte order, where the backend loads
    /// them as they are; `None`: the caller reverses a copy.
    fn update_polyval_blocks(&self, y: u128, blocks: &[u8]) -> Option<u128> {
        let _ = (y, blocks);
        None
    }

    /// The powers for the stitched kernels, on the wide backends.
    #[cfg(target_arch = "x86_64")]
    fn wide(&self) -> Option<WideKey<'t>> {
        None
    }
}

/// The message key of a backend without a lean form: its ordinary key,
/// boxed, wiped on drop.
pub(crate) struct OwnKey<'t, K: GhashImpl>(Box<K>, core::marker::PhantomData<&'t MessageTable>);

impl<K: GhashImpl> Drop for OwnKey<'_, K> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<'t, K: GhashImpl> MessageImpl<'t> for OwnKey<'t, K> {
    #[inline]
    fn new(table: &'t mut MessageTable, h: u128, len: usize, most: usize) -> Option<Self> {
        let _ = (table, len, most);
        Some(OwnKey(Box::new(K::new(h)?), core::marker::PhantomData))
    }

    #[inline]
    fn mul_h(&self, x: u128) -> u128 {
        self.0.mul_h(x)
    }

    #[inline]
    fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
        self.0.update_blocks(y, blocks)
    }
}
