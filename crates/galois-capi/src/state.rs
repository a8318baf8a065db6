//! Caller-allocated state: the header, the live table and init/get/wipe.

use super::*;

// ---------------------------------------------------------------------------
// Caller-allocated state:
//   [magic u64][home u64][slot u64][id u64] ... padding ... [T]
// home: the address init placed the state at; slot and id: its entry in the
// live table. All four are read and written unaligned.
// ---------------------------------------------------------------------------

pub(crate) const HEADER: usize = 32;

/// The live table: which states exist, each under an id never reused.
///
/// `CHUNK` holds the slots (one `AtomicU64` id each, 0 when free), in
/// chunks allocated on demand and never freed, so a use of a state reads
/// its slot without a lock and a stale or garbage slot number is harmless
/// (bounds-checked). `TABLE` (behind a mutex, taken by init and wipe only)
/// maps each live state's home address to its slot, and hands out slots
/// and ids.
pub(crate) mod live {
    use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
    use std::collections::BTreeMap;
    use std::sync::{Mutex, MutexGuard};

    const BASE_BITS: u32 = 6;
    const CHUNKS: usize = 40;
    /// Chunk k: `(1 << BASE_BITS) << k` slots.
    static CHUNK: [AtomicPtr<AtomicU64>; CHUNKS] =
        [const { AtomicPtr::new(core::ptr::null_mut()) }; CHUNKS];

    pub(crate) fn chunk_len(k: usize) -> usize {
        (1usize << BASE_BITS) << k
    }

    /// Chunk and index of a slot number, if it is in range.
    pub(crate) fn locate(slot: u64) -> Option<(usize, usize)> {
        let n = slot.checked_add(1 << BASE_BITS)?;
        let k = (63 - n.leading_zeros() - BASE_BITS) as usize;
        if k >= CHUNKS {
            return None;
        }
        Some((k, (n - ((1u64 << BASE_BITS) << k)) as usize))
    }

    pub(crate) fn slot_ref(slot: u64) -> Option<&'static AtomicU64> {
        let (k, i) = locate(slot)?;
        let p = CHUNK[k].load(Ordering::Acquire);
        if p.is_null() {
            return None;
        }
        // SAFETY: chunk k was allocated with chunk_len(k) slots and is
        // never freed; i < chunk_len(k) by `locate`.
        Some(unsafe { &*p.add(i) })
    }

    /// The id a slot holds now (0: free, never used, or out of range).
    pub(crate) fn id_of(slot: u64) -> u64 {
        slot_ref(slot).map_or(0, |s| s.load(Ordering::Acquire))
    }

    pub(crate) struct Table {
        homes: BTreeMap<usize, u64>,
        free: Vec<u64>,
        next_slot: u64,
        next_id: u64,
    }

    static TABLE: Mutex<Table> = Mutex::new(Table {
        homes: BTreeMap::new(),
        free: Vec::new(),
        next_slot: 0,
        next_id: 1,
    });

    /// The table, for an init or a wipe. No code under the lock panics on
    /// its own, so a poisoned lock still holds a consistent table.
    pub(crate) fn lock() -> MutexGuard<'static, Table> {
        TABLE.lock().unwrap_or_else(|e| e.into_inner())
    }

    impl Table {
        /// The slot of the live state whose home is `home`.
        pub(crate) fn slot_at(&self, home: usize) -> Option<u64> {
            self.homes.get(&home).copied()
        }

        /// Registers a new live state at `home`: (slot, id); None if the
        /// table is full (2^46 states at once).
        pub(crate) fn add(&mut self, home: usize) -> Option<(u64, u64)> {
            let slot = match self.free.pop() {
                Some(s) => s,
                None => {
                    let s = self.next_slot;
                    let (k, _) = locate(s)?;
                    self.next_slot += 1;
                    if CHUNK[k].load(Ordering::Acquire).is_null() {
                        let c: Box<[AtomicU64]> =
                            (0..chunk_len(k)).map(|_| AtomicU64::new(0)).collect();
                        let p = Box::into_raw(c) as *mut AtomicU64;
                        CHUNK[k].store(p, Ordering::Release);
                    }
                    s
                }
            };
            let id = self.next_id;
            self.next_id += 1;
            slot_ref(slot)?.store(id, Ordering::Release);
            self.homes.insert(home, slot);
            Some((slot, id))
        }

        /// Ends the live state in `slot` (home `home`).
        pub(crate) fn remove(&mut self, home: usize, slot: u64) {
            if let Some(s) = slot_ref(slot) {
                s.store(0, Ordering::Release);
            }
            if self.homes.get(&home) == Some(&slot) {
                self.homes.remove(&home);
            }
            self.free.push(slot);
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Header {
    magic: u64,
    home: u64,
    slot: u64,
    id: u64,
}

/// # Safety
/// `base` has at least [`HEADER`] readable bytes.
pub(crate) unsafe fn read_header(base: *const u8) -> Header {
    // SAFETY: HEADER readable bytes; unaligned reads.
    unsafe {
        Header {
            magic: ptr::read_unaligned(base as *const u64),
            home: ptr::read_unaligned(base.add(8) as *const u64),
            slot: ptr::read_unaligned(base.add(16) as *const u64),
            id: ptr::read_unaligned(base.add(24) as *const u64),
        }
    }
}

/// # Safety
/// `base` has at least [`HEADER`] writable bytes.
pub(crate) unsafe fn write_header(base: *mut u8, h: Header) {
    // SAFETY: HEADER writable bytes; unaligned writes.
    unsafe {
        ptr::write_unaligned(base as *mut u64, h.magic);
        ptr::write_unaligned(base.add(8) as *mut u64, h.home);
        ptr::write_unaligned(base.add(16) as *mut u64, h.slot);
        ptr::write_unaligned(base.add(24) as *mut u64, h.id);
    }
}

pub(crate) const fn statebytes_of<T>() -> usize {
    HEADER + align_of::<T>() - 1 + size_of::<T>()
}

/// Offset of the object in a state placed at `base`.
pub(crate) fn object_offset<T>(base: usize) -> usize {
    let a = align_of::<T>();
    ((base + HEADER + a - 1) & !(a - 1)) - base
}

/// The kinds of state.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Gcm,
    Gmac,
    Poly,
    ChunkSeal,
    ChunkOpen,
}

impl Kind {
    pub(crate) fn magic(self) -> u64 {
        match self {
            Kind::Gcm => 0x6761_6c6f_6973_4743,       // "galoisGC"
            Kind::Gmac => 0x6761_6c6f_6973_4d41,      // "galoisMA"
            Kind::Poly => 0x6761_6c6f_6973_5031,      // "galoisP1"
            Kind::ChunkSeal => 0x6761_6c6f_6973_4353, // "galoisCS"
            Kind::ChunkOpen => 0x6761_6c6f_6973_434f, // "galoisCO"
        }
    }

    pub(crate) fn of_magic(m: u64) -> Option<Kind> {
        [
            Kind::Gcm,
            Kind::Gmac,
            Kind::Poly,
            Kind::ChunkSeal,
            Kind::ChunkOpen,
        ]
        .into_iter()
        .find(|k| k.magic() == m)
    }

    pub(crate) fn bytes(self) -> usize {
        match self {
            Kind::Gcm => statebytes_of::<AesGcm>(),
            Kind::Gmac => statebytes_of::<AesGmac>(),
            Kind::Poly => statebytes_of::<Poly1305Aes>(),
            Kind::ChunkSeal => statebytes_of::<ChunkStream<PushSealer>>(),
            Kind::ChunkOpen => statebytes_of::<ChunkStream<PushOpener>>(),
        }
    }

    /// Drops the object of a state of this kind whose bytes sit at `base`,
    /// initialized at `home` (so the object sits at base + offset(home),
    /// aligned or not). Must run once per live object, under the table lock.
    ///
    /// # Safety
    /// `base` holds the bytes of a live state of this kind (the state
    /// itself or a bitwise copy of it) and the object was not dropped yet.
    pub(crate) unsafe fn drop_object(self, base: *mut u8, home: usize) {
        /// # Safety
        /// As `drop_object`, for T.
        unsafe fn drop_t<T>(base: *mut u8, home: usize) {
            // SAFETY: the object's bytes are at this offset (a copy keeps
            // its home's offset); read unaligned, moved out and dropped.
            unsafe {
                let p = base.add(object_offset::<T>(home)) as *const T;
                drop(ptr::read_unaligned(p));
            }
        }
        // SAFETY: forwarded.
        unsafe {
            match self {
                Kind::Gcm => drop_t::<AesGcm>(base, home),
                Kind::Gmac => drop_t::<AesGmac>(base, home),
                Kind::Poly => drop_t::<Poly1305Aes>(base, home),
                Kind::ChunkSeal => drop_t::<ChunkStream<PushSealer>>(base, home),
                Kind::ChunkOpen => drop_t::<ChunkStream<PushOpener>>(base, home),
            }
        }
    }
}

/// The state's own range, for the overlap checks of outputs.
pub(crate) fn state_range(state: *const c_void, kind: Kind) -> Range {
    (state as *const u8, kind.bytes())
}

/// Zeroes `bytes` bytes at `base` (kept by the compiler).
///
/// # Safety
/// `base` has `bytes` writable bytes.
pub(crate) unsafe fn zero_state(base: *mut u8, bytes: usize) {
    // SAFETY: as the function's contract.
    unsafe { core::slice::from_raw_parts_mut(base, bytes) }.zeroize();
}

/// If a live state has its home at `base`: drops its object and zeroes it
/// (when its bytes are still there), and ends it in the table.
///
/// # Safety
/// If the table has a state at `base`, `base` is memory the caller passes
/// as a state (so at least as many bytes as that state had).
unsafe fn release_home(t: &mut live::Table, base: *mut u8) {
    let Some(slot) = t.slot_at(base as usize) else {
        return;
    };
    // SAFETY: a state's memory (contract).
    let h = unsafe { read_header(base) };
    if h.home == base as u64 && h.slot == slot && h.id != 0 && live::id_of(slot) == h.id {
        if let Some(k) = Kind::of_magic(h.magic) {
            // SAFETY: the live state itself, at home; dropped once (the
            // slot ends below).
            unsafe {
                k.drop_object(base, base as usize);
                zero_state(base, k.bytes());
            }
        }
    }
    // Else the caller overwrote the state without wiping it: its object
    // cannot be found any more (a leak the header warns about).
    t.remove(base as usize, slot);
}

/// Builds a key object with `make` and installs it in `state`. A live
/// state at this address is first wiped and released, so a failed init
/// leaves the memory zeroed and holding no state.
///
/// # Safety
/// `state` is NULL or has `kind.bytes()` writable bytes, and no copy of a
/// state living at `state` is in use by another thread.
pub(crate) unsafe fn init_state<T>(
    state: *mut c_void,
    kind: Kind,
    make: impl FnOnce() -> Result<T, c_int>,
) -> c_int {
    if state.is_null() {
        return GALOIS_ERR_NULL_POINTER;
    }
    debug_assert_eq!(kind.bytes(), statebytes_of::<T>());
    let mut made = None;
    let r = guard(|| {
        made = Some(make()?);
        Ok(())
    });
    let base = state as *mut u8;
    // Guarded too: nothing may unwind across the ABI.
    guard(|| {
        let mut t = live::lock();
        // SAFETY: the caller's state memory.
        unsafe {
            release_home(&mut t, base);
            zero_state(base, kind.bytes());
        }
        if r != GALOIS_OK {
            return Err(r);
        }
        let value = made.take().ok_or(GALOIS_ERR_INTERNAL)?;
        let (slot, id) = t.add(base as usize).ok_or(GALOIS_ERR_INTERNAL)?;
        let off = object_offset::<T>(base as usize);
        // SAFETY: off + size_of::<T>() <= statebytes_of::<T>(); the object
        // address is aligned for T.
        unsafe {
            ptr::write(base.add(off) as *mut T, value);
            write_header(
                base,
                Header {
                    magic: kind.magic(),
                    home: base as u64,
                    slot,
                    id,
                },
            );
        }
        Ok(())
    })
}

/// The object of a live state of this kind at its home address.
///
/// # Safety
/// `state` is NULL or has `kind.bytes()` readable bytes.
pub(crate) unsafe fn state_get<'a, T>(state: *const c_void, kind: Kind) -> Result<&'a T, c_int> {
    // SAFETY: forwarded; the object is only read through this reference.
    Ok(unsafe { &*state_ptr::<T>(state, kind)? })
}

/// The address of the object of a live state of this kind at its home
/// address (derived from the caller's pointer, not from a reference).
///
/// # Safety
/// `state` is NULL or has `kind.bytes()` readable bytes.
pub(crate) unsafe fn state_ptr<T>(state: *const c_void, kind: Kind) -> Result<*mut T, c_int> {
    if state.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    let base = state as *const u8;
    // SAFETY: a state's bytes (contract).
    let h = unsafe { read_header(base) };
    if h.magic != kind.magic() || h.home != base as u64 || h.id == 0 || live::id_of(h.slot) != h.id
    {
        return Err(GALOIS_ERR_STATE);
    }
    // SAFETY: the id is live and the state sits at its home: init wrote a
    // T at this offset and it was not dropped (that ends the id).
    Ok(unsafe { base.add(object_offset::<T>(base as usize)) } as *mut T)
}

/// The object of a live state of this kind at its home address, for a
/// call that changes it (the streaming states: exclusive use, by contract).
///
/// # Safety
/// `state` is NULL or has `kind.bytes()` writable bytes that no other
/// thread uses during the call.
pub(crate) unsafe fn state_get_mut<'a, T>(
    state: *mut c_void,
    kind: Kind,
) -> Result<&'a mut T, c_int> {
    // SAFETY: forwarded: a live T in writable caller memory, used by this
    // call only.
    Ok(unsafe { &mut *state_ptr::<T>(state, kind)? })
}

/// [`state_wipe`] under [`guard`]: the body of every `galois_*_wipe` of a
/// state whose wipe must not unwind into C.
///
/// # Safety
/// As [`state_wipe`].
pub(crate) unsafe fn wipe_guarded(state: *mut c_void, kind: Kind) -> c_int {
    // SAFETY: forwarded contract.
    guard(|| match unsafe { state_wipe(state, kind) } {
        GALOIS_OK => Ok(()),
        e => Err(e),
    })
}

/// Wipes a state (see the header): releases the live key object these
/// bytes belong to (the state's own, or the original's when they are a
/// copy), zeroes the bytes, and returns [`GALOIS_OK`] only for a live
/// state of `kind` at its home, or for memory holding no live state.
///
/// # Safety
/// `state` is NULL or has `kind.bytes()` writable bytes (or the bytes of
/// the state of another kind it holds), and no copy of the state is in use
/// by another thread.
pub(crate) unsafe fn state_wipe(state: *mut c_void, kind: Kind) -> c_int {
    if state.is_null() {
        return GALOIS_ERR_NULL_POINTER;
    }
    let base = state as *mut u8;
    let mut t = live::lock();
    // SAFETY: a state's bytes (contract).
    let h = unsafe { read_header(base) };
    let live_kind = Kind::of_magic(h.magic).filter(|_| {
        h.id != 0 && live::id_of(h.slot) == h.id && t.slot_at(h.home as usize) == Some(h.slot)
    });
    let r = match live_kind {
        Some(k) => {
            // SAFETY: the bytes of the live state with this id (itself or
            // a bitwise copy); its slot ends right after, so once.
            unsafe {
                k.drop_object(base, h.home as usize);
                zero_state(base, k.bytes());
            }
            t.remove(h.home as usize, h.slot);
            if k == kind && h.home == base as u64 {
                GALOIS_OK
            } else {
                GALOIS_ERR_STATE
            }
        }
        None => GALOIS_OK,
    };
    // SAFETY: as above. Ends a live state whose home is here but whose
    // bytes were overwritten (by a copy, or anything else), then zeroes.
    unsafe {
        release_home(&mut t, base);
        zero_state(base, kind.bytes());
    }
    r
}
