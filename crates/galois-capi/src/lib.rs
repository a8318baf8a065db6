//! The C ABI of galois: AES-GCM, AES-GMAC and Poly1305-AES with
//! caller-allocated state, in the manner of libsodium. The header is
//! `include/galois.h` at the top of the repository; this file and the header
//! must agree (a unit test compares every constant with the header).
//!
//! # Design
//!
//! * Every function returns an `int`: [`GALOIS_OK`] (0) or one of the
//!   negative `GALOIS_ERR_*` codes below, each with its own meaning. Every
//!   library error variant maps to one of them explicitly ([`code`]).
//! * Nothing unwinds across the ABI: every entry point validates its
//!   pointers and lengths first and runs under `catch_unwind`; a panic (a
//!   bug) comes back as [`GALOIS_ERR_INTERNAL`]. Memory for a message is
//!   reserved fallibly ([`GALOIS_ERR_NO_MEMORY`]); only the few hundred
//!   bytes of a key setup can still end in Rust's out-of-memory abort.
//! * Outputs: seal and open work in private memory (the input is read once
//!   into it) and write the caller's output once, after every check and,
//!   for open, after the tag verified. On every error each output buffer is
//!   zeroed (see [`wipe_output`] for the exceptions).
//! * A state is `*_statebytes()` bytes of caller memory with **no alignment
//!   requirement**: a 32-byte header (magic number, the address the state
//!   was initialized at, a slot and an id in the live table) is read and
//!   written unaligned, and the Rust key object is placed at the first
//!   suitably aligned address after it. A state read at any other address
//!   than its own (a copy, a moved state) or whose id is no longer live (a
//!   wiped state, or a stale copy put back) is refused with
//!   [`GALOIS_ERR_STATE`]. The live table ([`live`]) makes release exact:
//!   each key object is dropped (and so wiped) exactly once, by the wipe of
//!   the state or of any copy of it, or by an init over its home address.
//! * Seal, open, authenticate and verify only read the state: one state may
//!   be shared by several threads at once. Init and wipe need exclusive use
//!   of the state and of every copy of it.
//!
//! The C test program (`crates/galois-capi/tests-c/`) is the example: it
//! runs the shared vector files and every error path through the header.
#![allow(clippy::missing_safety_doc)]
// `--cfg galois_exhaustive` (nightly; scripts/test-c.sh) makes a library
// error variant missing from `code` a compile error.
#![cfg_attr(galois_exhaustive, feature(non_exhaustive_omitted_patterns_lint))]

use core::ffi::{c_char, c_int, c_uint, c_void};
use core::mem::{align_of, size_of};
use core::ptr;
use galois_aead::chunked::{PushOpener, PushSealer};
use galois_aead::gcm::MAX_PLAINTEXT_BYTES;
use galois_aead::poly1305::{Poly1305, Poly1305Aes};
use galois_aead::{AesGcm, AesGmac, Error, Options, ShortTag};
use std::panic::{catch_unwind, AssertUnwindSafe};
use zeroize::Zeroize;

/// Success.
pub const GALOIS_OK: c_int = 0;
/// A required pointer was NULL (a NULL pointer is fine with a length of 0).
pub const GALOIS_ERR_NULL_POINTER: c_int = -1;
/// The key has a length the primitive does not take.
pub const GALOIS_ERR_KEY_LENGTH: c_int = -2;
/// The nonce (IV) has a length the primitive or the key's tag length does not allow.
pub const GALOIS_ERR_NONCE_LENGTH: c_int = -3;
/// A tag length the key does not allow, or a tag buffer of the wrong length.
pub const GALOIS_ERR_TAG_LENGTH: c_int = -4;
/// The output buffer is too small (`*out_len` then holds the size needed).
pub const GALOIS_ERR_BUFFER_TOO_SMALL: c_int = -5;
/// The tag did not verify. No plaintext is released (the output is zeroed).
pub const GALOIS_ERR_AUTH: c_int = -6;
/// The message or associated data is longer than the primitive allows.
pub const GALOIS_ERR_TOO_LONG: c_int = -7;
/// The state was not initialized by the matching `*_init`, was wiped, or
/// was moved or copied.
pub const GALOIS_ERR_STATE: c_int = -8;
/// The key breaks a constraint of the primitive (an unclamped Poly1305 r).
pub const GALOIS_ERR_INVALID_KEY: c_int = -9;
/// An output overlaps an input or the state without being the same
/// pointer as the input (in place).
pub const GALOIS_ERR_OVERLAP: c_int = -10;
/// The ciphertext given to open is shorter than the tag.
pub const GALOIS_ERR_INPUT_TOO_SHORT: c_int = -11;
/// Unknown bits in a `flags` argument.
pub const GALOIS_ERR_FLAGS: c_int = -12;
/// The operating system's random source failed.
pub const GALOIS_ERR_RANDOM: c_int = -13;
/// A bug inside galois (a caught panic). Please report it.
pub const GALOIS_ERR_INTERNAL: c_int = -14;
/// The private memory a seal or open needs (the message's length) could
/// not be allocated.
pub const GALOIS_ERR_NO_MEMORY: c_int = -15;

/// `galois_aesgcm_init_ex` / `galois_gmac_init_ex` flag: allow any tag length
/// from 4 to 16 bytes with IVs of any length (interoperability and
/// conformance testing only; see the header).
pub const GALOIS_FLAG_PERMISSIVE: c_uint = 1;

/// Bytes of a Poly1305-AES key (16-byte AES key k, then the clamped r).
pub const GALOIS_POLY1305AES_KEYBYTES: usize = 32;
/// Bytes of a Poly1305-AES nonce and tag.
pub const GALOIS_POLY1305AES_NONCEBYTES: usize = 16;
/// Bytes of a Poly1305-AES tag.
pub const GALOIS_POLY1305AES_TAGBYTES: usize = 16;
/// Bytes of a one-time Poly1305 key (r || s, RFC 8439).
pub const GALOIS_POLY1305_KEYBYTES: usize = 32;
/// Bytes of a one-time Poly1305 tag.
pub const GALOIS_POLY1305_TAGBYTES: usize = 16;
/// Plaintext bytes per chunk of chunked encryption.
pub const GALOIS_CHUNKED_CHUNKBYTES: usize = galois_aead::chunked::CHUNK_SIZE;
/// Header bytes of a chunked message (salt and commitment).
pub const GALOIS_CHUNKED_HEADERBYTES: usize = galois_aead::chunked::HEADER_LEN;

/// The return code of a library error. Every variant is listed: the arm
/// `_` exists only because `Error` is `#[non_exhaustive]` (stable Rust
/// demands it across crates); the nightly build with `--cfg
/// galois_exhaustive` (run by scripts/test-c.sh) denies omitted variants,
/// so a new variant fails that build until it is mapped here.
#[cfg_attr(galois_exhaustive, deny(non_exhaustive_omitted_patterns))]
fn code(e: Error) -> c_int {
    match e {
        Error::InvalidKeyLength { .. } => GALOIS_ERR_KEY_LENGTH,
        Error::InvalidIvLength { .. }
        | Error::InvalidNonceLength { .. }
        | Error::IvLengthNotAllowedWithShortTag { .. } => GALOIS_ERR_NONCE_LENGTH,
        Error::InvalidTagLength { .. } => GALOIS_ERR_TAG_LENGTH,
        Error::MessageTooLong { .. } | Error::AadTooLong | Error::TooLong { .. } => {
            GALOIS_ERR_TOO_LONG
        }
        Error::BufferLength { .. } => GALOIS_ERR_BUFFER_TOO_SMALL,
        Error::CiphertextTooShort { .. } => GALOIS_ERR_INPUT_TOO_SHORT,
        Error::InvalidKey { .. } => GALOIS_ERR_INVALID_KEY,
        Error::RandomSourceFailed => GALOIS_ERR_RANDOM,
        Error::AuthenticationFailed => GALOIS_ERR_AUTH,
        // No C function selects a backend, counts uses, or runs a stream,
        // the packet layer or IV-reuse tracking: these cannot come back
        // through this API, so one that does is a bug.
        Error::BackendUnavailable { .. }
        | Error::UnknownBackend
        | Error::LimitReached { .. }
        | Error::StreamTruncated
        | Error::StreamOutOfOrder { .. }
        | Error::StreamDuplicate { .. }
        | Error::StreamTrailingData
        | Error::StreamWrongKey
        | Error::StreamBadHeader { .. }
        | Error::Replay { .. }
        | Error::OutsideWindow { .. }
        | Error::IvReused => GALOIS_ERR_INTERNAL,
        _ => GALOIS_ERR_INTERNAL,
    }
}

/// Runs `f`, turning a panic into [`GALOIS_ERR_INTERNAL`].
fn guard(f: impl FnOnce() -> Result<(), c_int>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => GALOIS_OK,
        Ok(Err(c)) => c,
        Err(_) => GALOIS_ERR_INTERNAL,
    }
}

/// An input slice: NULL is allowed only with length 0.
///
/// # Safety
/// Unless `len` is 0 or `p` NULL, `p` points to `len` bytes that nobody
/// writes for `'a`.
unsafe fn input<'a>(p: *const u8, len: usize) -> Result<&'a [u8], c_int> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize {
        return Err(GALOIS_ERR_TOO_LONG);
    }
    // SAFETY: the caller promises `len` readable bytes at `p` (header contract).
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// An output slice: NULL is allowed only with length 0.
///
/// # Safety
/// Unless `len` is 0 or `p` NULL, `p` points to `len` writable bytes that
/// nobody else accesses for `'a`.
unsafe fn output<'a>(p: *mut u8, len: usize) -> Result<&'a mut [u8], c_int> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize {
        return Err(GALOIS_ERR_TOO_LONG);
    }
    // SAFETY: the caller promises `len` writable bytes at `p` (header contract).
    Ok(unsafe { core::slice::from_raw_parts_mut(p, len) })
}

/// Zeroes an output buffer after an error: `len` bytes at `p`, unless `p`
/// is NULL, `len` exceeds `isize::MAX` (refused before anything was
/// touched) or the buffer overlaps `state` (the state is never written
/// through an output).
///
/// # Safety
/// Unless one of those exceptions holds, `p` has `len` writable bytes.
unsafe fn wipe_output(p: *mut u8, len: usize, state: Option<Range>) {
    if p.is_null() || len == 0 || len > isize::MAX as usize {
        return;
    }
    if let Some((s, sl)) = state {
        if overlaps(p, len, s, sl) {
            return;
        }
    }
    // SAFETY: the caller's `len` writable bytes at `p`; zeroize's writes are
    // not optimized away.
    unsafe { core::slice::from_raw_parts_mut(p, len) }.zeroize();
}

/// A byte range given by the caller: pointer and length.
type Range = (*const u8, usize);

/// Whether the byte ranges [a, a+alen) and [b, b+blen) share a byte.
fn overlaps(a: *const u8, alen: usize, b: *const u8, blen: usize) -> bool {
    if alen == 0 || blen == 0 {
        return false;
    }
    let (a, b) = (a as usize, b as usize);
    a < b.saturating_add(blen) && b < a.saturating_add(alen)
}

/// Refuses an output that overlaps any of `others` (pointer, length).
fn no_overlap(out: *const u8, out_len: usize, others: &[Range]) -> Result<(), c_int> {
    if others.iter().any(|&(p, l)| overlaps(out, out_len, p, l)) {
        Err(GALOIS_ERR_OVERLAP)
    } else {
        Ok(())
    }
}

/// Writes `*out_len = n` (if `out_len` is not NULL), refusing an `out_len`
/// that overlaps any of `others` (the state, the buffers of the call).
///
/// # Safety
/// `out_len` is NULL or points to a writable `size_t`.
unsafe fn set_out_len(out_len: *mut usize, n: usize, others: &[Range]) -> Result<(), c_int> {
    if out_len.is_null() {
        return Ok(());
    }
    no_overlap(out_len as *const u8, size_of::<usize>(), others)?;
    // SAFETY: a writable size_t (header contract); unaligned for safety.
    unsafe { ptr::write_unaligned(out_len, n) };
    Ok(())
}

/// GCM's plaintext limit, checked before any private memory is reserved.
fn check_message(len: usize) -> Result<(), c_int> {
    if len as u64 > MAX_PLAINTEXT_BYTES {
        Err(GALOIS_ERR_TOO_LONG)
    } else {
        Ok(())
    }
}

/// Bytes of private memory on the stack; longer messages go to the heap.
const STACK_SCRATCH: usize = 256;

/// Private memory for one seal or open: a copy of the input, worked on in
/// place, then copied out. Wiped when dropped.
#[allow(clippy::large_enum_variant)] // the stack variant is the point: no allocation
enum Scratch {
    Stack([u8; STACK_SCRATCH], usize),
    Heap(Vec<u8>),
}

impl Scratch {
    fn copy_of(src: &[u8]) -> Result<Self, c_int> {
        if src.len() <= STACK_SCRATCH {
            let mut b = [0u8; STACK_SCRATCH];
            b[..src.len()].copy_from_slice(src);
            return Ok(Scratch::Stack(b, src.len()));
        }
        let mut v = Vec::new();
        v.try_reserve_exact(src.len())
            .map_err(|_| GALOIS_ERR_NO_MEMORY)?;
        v.extend_from_slice(src);
        Ok(Scratch::Heap(v))
    }

    fn bytes(&mut self) -> &mut [u8] {
        match self {
            Scratch::Stack(b, n) => &mut b[..*n],
            Scratch::Heap(v) => v,
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.bytes().zeroize();
    }
}

// ---------------------------------------------------------------------------
// Caller-allocated state:
//   [magic u64][home u64][slot u64][id u64] ... padding ... [T]
// home: the address init placed the state at; slot and id: its entry in the
// live table. All four are read and written unaligned.
// ---------------------------------------------------------------------------

const HEADER: usize = 32;

/// The live table: which states exist, each under an id never reused.
///
/// `CHUNK` holds the slots (one `AtomicU64` id each, 0 when free), in
/// chunks allocated on demand and never freed, so a use of a state reads
/// its slot without a lock and a stale or garbage slot number is harmless
/// (bounds-checked). `TABLE` (behind a mutex, taken by init and wipe only)
/// maps each live state's home address to its slot, and hands out slots
/// and ids.
mod live {
    use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
    use std::collections::BTreeMap;
    use std::sync::{Mutex, MutexGuard};

    const BASE_BITS: u32 = 6;
    const CHUNKS: usize = 40;
    /// Chunk k: `(1 << BASE_BITS) << k` slots.
    static CHUNK: [AtomicPtr<AtomicU64>; CHUNKS] =
        [const { AtomicPtr::new(core::ptr::null_mut()) }; CHUNKS];

    fn chunk_len(k: usize) -> usize {
        (1usize << BASE_BITS) << k
    }

    /// Chunk and index of a slot number, if it is in range.
    fn locate(slot: u64) -> Option<(usize, usize)> {
        let n = slot.checked_add(1 << BASE_BITS)?;
        let k = (63 - n.leading_zeros() - BASE_BITS) as usize;
        if k >= CHUNKS {
            return None;
        }
        Some((k, (n - ((1u64 << BASE_BITS) << k)) as usize))
    }

    fn slot_ref(slot: u64) -> Option<&'static AtomicU64> {
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
    pub(super) fn id_of(slot: u64) -> u64 {
        slot_ref(slot).map_or(0, |s| s.load(Ordering::Acquire))
    }

    pub(super) struct Table {
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
    pub(super) fn lock() -> MutexGuard<'static, Table> {
        TABLE.lock().unwrap_or_else(|e| e.into_inner())
    }

    impl Table {
        /// The slot of the live state whose home is `home`.
        pub(super) fn slot_at(&self, home: usize) -> Option<u64> {
            self.homes.get(&home).copied()
        }

        /// Registers a new live state at `home`: (slot, id); None if the
        /// table is full (2^46 states at once).
        pub(super) fn add(&mut self, home: usize) -> Option<(u64, u64)> {
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
        pub(super) fn remove(&mut self, home: usize, slot: u64) {
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
struct Header {
    magic: u64,
    home: u64,
    slot: u64,
    id: u64,
}

/// # Safety
/// `base` has at least [`HEADER`] readable bytes.
unsafe fn read_header(base: *const u8) -> Header {
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
unsafe fn write_header(base: *mut u8, h: Header) {
    // SAFETY: HEADER writable bytes; unaligned writes.
    unsafe {
        ptr::write_unaligned(base as *mut u64, h.magic);
        ptr::write_unaligned(base.add(8) as *mut u64, h.home);
        ptr::write_unaligned(base.add(16) as *mut u64, h.slot);
        ptr::write_unaligned(base.add(24) as *mut u64, h.id);
    }
}

const fn statebytes_of<T>() -> usize {
    HEADER + align_of::<T>() - 1 + size_of::<T>()
}

/// Offset of the object in a state placed at `base`.
fn object_offset<T>(base: usize) -> usize {
    let a = align_of::<T>();
    ((base + HEADER + a - 1) & !(a - 1)) - base
}

/// The kinds of state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gcm,
    Gmac,
    Poly,
    ChunkSeal,
    ChunkOpen,
}

impl Kind {
    fn magic(self) -> u64 {
        match self {
            Kind::Gcm => 0x6761_6c6f_6973_4743,       // "galoisGC"
            Kind::Gmac => 0x6761_6c6f_6973_4d41,      // "galoisMA"
            Kind::Poly => 0x6761_6c6f_6973_5031,      // "galoisP1"
            Kind::ChunkSeal => 0x6761_6c6f_6973_4353, // "galoisCS"
            Kind::ChunkOpen => 0x6761_6c6f_6973_434f, // "galoisCO"
        }
    }

    fn of_magic(m: u64) -> Option<Kind> {
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

    fn bytes(self) -> usize {
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
    unsafe fn drop_object(self, base: *mut u8, home: usize) {
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
fn state_range(state: *const c_void, kind: Kind) -> Range {
    (state as *const u8, kind.bytes())
}

/// Zeroes `bytes` bytes at `base` (kept by the compiler).
///
/// # Safety
/// `base` has `bytes` writable bytes.
unsafe fn zero_state(base: *mut u8, bytes: usize) {
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
unsafe fn init_state<T>(
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
unsafe fn state_get<'a, T>(state: *const c_void, kind: Kind) -> Result<&'a T, c_int> {
    // SAFETY: forwarded; the object is only read through this reference.
    Ok(unsafe { &*state_ptr::<T>(state, kind)? })
}

/// The address of the object of a live state of this kind at its home
/// address (derived from the caller's pointer, not from a reference).
///
/// # Safety
/// `state` is NULL or has `kind.bytes()` readable bytes.
unsafe fn state_ptr<T>(state: *const c_void, kind: Kind) -> Result<*mut T, c_int> {
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
unsafe fn state_get_mut<'a, T>(state: *mut c_void, kind: Kind) -> Result<&'a mut T, c_int> {
    // SAFETY: forwarded: a live T in writable caller memory, used by this
    // call only.
    Ok(unsafe { &mut *state_ptr::<T>(state, kind)? })
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
unsafe fn state_wipe(state: *mut c_void, kind: Kind) -> c_int {
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

fn gcm_options(tag_len: usize, flags: c_uint) -> Result<Options, c_int> {
    if flags & !GALOIS_FLAG_PERMISSIVE != 0 {
        return Err(GALOIS_ERR_FLAGS);
    }
    if flags & GALOIS_FLAG_PERMISSIVE != 0 {
        return Options::new().permissive_tag_len(tag_len).map_err(code);
    }
    match tag_len {
        8 => Ok(Options::new().short_tag(ShortTag::Bytes8)),
        4 => Ok(Options::new().short_tag(ShortTag::Bytes4)),
        _ => Options::new().tag_len(tag_len).map_err(code),
    }
}

// ---------------------------------------------------------------------------
// Library information
// ---------------------------------------------------------------------------

/// A static, NUL-terminated description of a return code.
#[no_mangle]
pub extern "C" fn galois_strerror(code: c_int) -> *const c_char {
    let s: &'static [u8] = match code {
        GALOIS_OK => b"success\0",
        GALOIS_ERR_NULL_POINTER => b"a required pointer is NULL\0",
        GALOIS_ERR_KEY_LENGTH => b"invalid key length\0",
        GALOIS_ERR_NONCE_LENGTH => b"invalid nonce (IV) length for this key\0",
        GALOIS_ERR_TAG_LENGTH => b"invalid tag length\0",
        GALOIS_ERR_BUFFER_TOO_SMALL => b"output buffer too small\0",
        GALOIS_ERR_AUTH => b"authentication failed\0",
        GALOIS_ERR_TOO_LONG => b"message or associated data too long\0",
        GALOIS_ERR_STATE => b"state not initialized, wiped, moved or copied\0",
        GALOIS_ERR_INVALID_KEY => b"invalid key (Poly1305 r not clamped)\0",
        GALOIS_ERR_OVERLAP => b"output overlaps an input or the state\0",
        GALOIS_ERR_INPUT_TOO_SHORT => b"ciphertext shorter than the tag\0",
        GALOIS_ERR_FLAGS => b"unknown flags\0",
        GALOIS_ERR_RANDOM => b"the operating system's random source failed\0",
        GALOIS_ERR_INTERNAL => b"internal error (a bug in galois)\0",
        GALOIS_ERR_NO_MEMORY => b"out of memory for the message\0",
        _ => b"unknown galois return code\0",
    };
    s.as_ptr() as *const c_char
}

/// The library version, NUL-terminated.
#[no_mangle]
pub extern "C" fn galois_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

// ---------------------------------------------------------------------------
// AES-GCM
// ---------------------------------------------------------------------------

/// Bytes of caller memory an AES-GCM state needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_aesgcm_statebytes() -> usize {
    statebytes_of::<AesGcm>()
}

/// AES-GCM key setup with 16-byte tags: key of 16, 24 or 32 bytes.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_init(
    state: *mut c_void,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { galois_aesgcm_init_ex(state, key, key_len, 16, 0) }
}

/// AES-GCM key setup with a chosen tag length (16, 12..15 or 8 or 4 with
/// 12-byte nonces only; any of 4..16 with any nonce under
/// [`GALOIS_FLAG_PERMISSIVE`]).
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_init_ex(
    state: *mut c_void,
    key: *const u8,
    key_len: usize,
    tag_len: usize,
    flags: c_uint,
) -> c_int {
    // SAFETY: the caller passes a state of galois_aesgcm_statebytes() bytes.
    unsafe {
        init_state(state, Kind::Gcm, || {
            let key = input(key, key_len)?;
            AesGcm::with_options(key, gcm_options(tag_len, flags)?).map_err(code)
        })
    }
}

/// The tag length of an initialized AES-GCM state (positive), or an error code.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_taglen(state: *const c_void) -> c_int {
    let mut t = 0;
    let r = guard(|| {
        // SAFETY: a state of galois_aesgcm_statebytes() bytes (contract).
        t = unsafe { state_get::<AesGcm>(state, Kind::Gcm)? }.tag_len() as c_int;
        Ok(())
    });
    if r == GALOIS_OK {
        t
    } else {
        r
    }
}

/// Whether `out` works in place on `in_` (the same pointer, bytes to do).
fn in_place(in_: *const u8, out: *const u8, len: usize) -> bool {
    len > 0 && ptr::eq(in_, out)
}

/// Encrypts `in` into `out` as ciphertext || tag (`in_len + taglen` bytes).
/// On any error `out[0..out_cap)` is zeroed ([`wipe_output`]).
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_seal(
    state: *const c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
) -> c_int {
    let st = state_range(state, Kind::Gcm);
    let r = guard(|| {
        // SAFETY (all blocks below): pointers and lengths as the header
        // documents them; outputs are written only after the overlap checks.
        let g = unsafe { state_get::<AesGcm>(state, Kind::Gcm)? };
        let t = g.tag_len();
        let need = in_len.checked_add(t).ok_or(GALOIS_ERR_TOO_LONG)?;
        let call = [
            st,
            (out, out_cap),
            (in_, in_len),
            (ad, ad_len),
            (nonce, nonce_len),
        ];
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        no_overlap(out, need, &[st, (ad, ad_len), (nonce, nonce_len)])?;
        if !in_place(in_, out, in_len) {
            no_overlap(out, need, &[(in_, in_len)])?;
        }
        check_message(in_len)?;
        let mut s = Scratch::copy_of(unsafe { input(in_, in_len)? })?;
        let tag = g
            .seal_in_place_detached(nonce_s, ad_s, s.bytes())
            .map_err(code)?;
        let o = unsafe { output(out, need)? };
        o[..in_len].copy_from_slice(s.bytes());
        o[in_len..].copy_from_slice(tag.as_bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, Some(st)) };
    }
    r
}

/// Verifies and decrypts ciphertext || tag from `in` into `out`
/// (`in_len - taglen` bytes). `out` is written only once the tag verified;
/// on any error `out[0..out_cap)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_open(
    state: *const c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
) -> c_int {
    let st = state_range(state, Kind::Gcm);
    let r = guard(|| {
        // SAFETY (all blocks below): as in galois_aesgcm_seal.
        let g = unsafe { state_get::<AesGcm>(state, Kind::Gcm)? };
        let t = g.tag_len();
        if in_len < t {
            return Err(GALOIS_ERR_INPUT_TOO_SHORT);
        }
        let need = in_len - t;
        let call = [
            st,
            (out, out_cap),
            (in_, in_len),
            (ad, ad_len),
            (nonce, nonce_len),
        ];
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        no_overlap(out, need, &[st, (ad, ad_len), (nonce, nonce_len)])?;
        if !in_place(in_, out, need) {
            no_overlap(out, need, &[(in_, in_len)])?;
        }
        check_message(need)?;
        let mut tag = [0u8; 16];
        let mut s = {
            let c = unsafe { input(in_, in_len)? };
            tag[..t].copy_from_slice(&c[need..]);
            Scratch::copy_of(&c[..need])?
        };
        g.open_in_place_detached(nonce_s, ad_s, s.bytes(), &tag[..t])
            .map_err(code)?;
        unsafe { output(out, need)? }.copy_from_slice(s.bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, Some(st)) };
    }
    r
}

/// Encrypts `in_len` bytes from `in` into `out` (same length; may be the
/// same pointer) and writes the tag (`tag_len` must equal the state's tag
/// length) to `tag`. On any error `out[0..in_len)` and `tag[0..tag_len)`
/// are zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_seal_detached(
    state: *const c_void,
    out: *mut u8,
    tag: *mut u8,
    tag_len: usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
) -> c_int {
    let st = state_range(state, Kind::Gcm);
    let r = guard(|| {
        // SAFETY (all blocks below): as in galois_aesgcm_seal.
        let g = unsafe { state_get::<AesGcm>(state, Kind::Gcm)? };
        if tag_len != g.tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        let fixed = [st, (ad, ad_len), (nonce, nonce_len)];
        no_overlap(out, in_len, &fixed)?;
        no_overlap(tag, tag_len, &fixed)?;
        no_overlap(tag, tag_len, &[(in_, in_len), (out, in_len)])?;
        if !in_place(in_, out, in_len) {
            no_overlap(out, in_len, &[(in_, in_len)])?;
        }
        check_message(in_len)?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let mut s = Scratch::copy_of(unsafe { input(in_, in_len)? })?;
        let t = g
            .seal_in_place_detached(nonce_s, ad_s, s.bytes())
            .map_err(code)?;
        unsafe { output(out, in_len)? }.copy_from_slice(s.bytes());
        tag_s.copy_from_slice(t.as_bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has in_len and tag tag_len bytes (contract).
        unsafe {
            wipe_output(out, in_len, Some(st));
            wipe_output(tag, tag_len, Some(st));
        }
    }
    r
}

/// Verifies `tag` and decrypts `in_len` bytes from `in` into `out` (same
/// length; may be the same pointer). `out` is written only once the tag
/// verified; on any error `out[0..in_len)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_open_detached(
    state: *const c_void,
    out: *mut u8,
    in_: *const u8,
    in_len: usize,
    tag: *const u8,
    tag_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
) -> c_int {
    let st = state_range(state, Kind::Gcm);
    let r = guard(|| {
        // SAFETY (all blocks below): as in galois_aesgcm_seal.
        let g = unsafe { state_get::<AesGcm>(state, Kind::Gcm)? };
        if tag_len != g.tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        let mut tag_b = [0u8; 16];
        tag_b[..tag_len].copy_from_slice(unsafe { input(tag, tag_len)? });
        no_overlap(
            out,
            in_len,
            &[st, (ad, ad_len), (nonce, nonce_len), (tag, tag_len)],
        )?;
        if !in_place(in_, out, in_len) {
            no_overlap(out, in_len, &[(in_, in_len)])?;
        }
        check_message(in_len)?;
        let mut s = Scratch::copy_of(unsafe { input(in_, in_len)? })?;
        g.open_in_place_detached(nonce_s, ad_s, s.bytes(), &tag_b[..tag_len])
            .map_err(code)?;
        unsafe { output(out, in_len)? }.copy_from_slice(s.bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has in_len bytes (contract).
        unsafe { wipe_output(out, in_len, Some(st)) };
    }
    r
}

/// Writes a fresh random AES key of `key_len` bytes (16, 24 or 32) to
/// `key`; on any error `key[0..key_len)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_keygen(key: *mut u8, key_len: usize) -> c_int {
    let r = guard(|| {
        if !matches!(key_len, 16 | 24 | 32) {
            return Err(GALOIS_ERR_KEY_LENGTH);
        }
        // SAFETY: key_len writable bytes (contract).
        let out = unsafe { output(key, key_len)? };
        getrandom::fill(out).map_err(|_| GALOIS_ERR_RANDOM)
    });
    if r != GALOIS_OK {
        // SAFETY: as above.
        unsafe { wipe_output(key, key_len, None) };
    }
    r
}

/// Wipes an AES-GCM state (see the header for copies and moved states).
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_wipe(state: *mut c_void) -> c_int {
    // SAFETY: a state (contract); the body does not panic but is guarded.
    guard(|| match unsafe { state_wipe(state, Kind::Gcm) } {
        GALOIS_OK => Ok(()),
        e => Err(e),
    })
}

// ---------------------------------------------------------------------------
// Chunked encryption (C2SP chunked-encryption, "Cobblestone"): one-shot
// ---------------------------------------------------------------------------

/// The return code of a chunked-encryption error: every way a message can
/// fail to open (tag, commitment, truncation, trailing data, header) is
/// [`GALOIS_ERR_AUTH`].
fn chunked_code(e: Error) -> c_int {
    match e {
        Error::StreamTruncated
        | Error::StreamTrailingData
        | Error::StreamWrongKey
        | Error::StreamBadHeader { .. }
        | Error::CiphertextTooShort { .. } => GALOIS_ERR_AUTH,
        Error::LimitReached { .. } => GALOIS_ERR_TOO_LONG,
        e => code(e),
    }
}

fn chunked_key(key: &[u8]) -> Result<(), c_int> {
    if matches!(key.len(), 16 | 32) {
        Ok(())
    } else {
        Err(GALOIS_ERR_KEY_LENGTH)
    }
}

/// The sealed length of a `pt_len`-byte message, or 0 if that overflows.
#[no_mangle]
pub extern "C" fn galois_chunked_sealed_len(pt_len: usize) -> usize {
    let chunks = pt_len / galois_aead::chunked::CHUNK_SIZE + 1;
    chunks
        .checked_mul(galois_aead::chunked::TAG_LEN)
        .and_then(|t| t.checked_add(pt_len))
        .and_then(|t| t.checked_add(galois_aead::chunked::HEADER_LEN))
        .unwrap_or(0)
}

/// Seals `in` as one chunked message into `out`; `*out_len` gets the
/// sealed length (also on [`GALOIS_ERR_BUFFER_TOO_SMALL`]). On any error
/// `out[0..out_cap)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_seal(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    let r = guard(|| {
        // SAFETY (all blocks below): pointers and lengths as the header
        // documents them; out is written only after the overlap checks.
        let need = galois_chunked_sealed_len(in_len);
        if need == 0 {
            return Err(GALOIS_ERR_TOO_LONG);
        }
        let call = [
            (out as *const u8, out_cap),
            (in_, in_len),
            (key, key_len),
            (ctx, ctx_len),
        ];
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        no_overlap(out, need, &call[1..])?;
        let k = unsafe { input(key, key_len)? };
        chunked_key(k)?;
        let c = unsafe { input(ctx, ctx_len)? };
        let p = unsafe { input(in_, in_len)? };
        let mut v = Vec::new();
        v.try_reserve_exact(need)
            .map_err(|_| GALOIS_ERR_NO_MEMORY)?;
        v.resize(need, 0);
        galois_aead::chunked::seal_into_on(1, k, c, p, &mut v).map_err(chunked_code)?;
        unsafe { output(out, need)? }.copy_from_slice(&v);
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, None) };
    }
    r
}

/// Opens a whole chunked message: `out` gets the plaintext only if every
/// chunk, the final chunk and the commitment verified ([`GALOIS_ERR_AUTH`]
/// otherwise, `out[0..out_cap)` zeroed, as on any error).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_open(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    let r = guard(|| {
        // SAFETY (all blocks below): as in galois_chunked_seal.
        let k = unsafe { input(key, key_len)? };
        chunked_key(k)?;
        let need = galois_aead::chunked::opened_len(in_len).map_err(chunked_code)?;
        let call = [
            (out as *const u8, out_cap),
            (in_, in_len),
            (key, key_len),
            (ctx, ctx_len),
        ];
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        no_overlap(out, need, &call[1..])?;
        let c = unsafe { input(ctx, ctx_len)? };
        let sealed = unsafe { input(in_, in_len)? };
        let mut v = zeroize::Zeroizing::new(Vec::new());
        v.try_reserve_exact(need)
            .map_err(|_| GALOIS_ERR_NO_MEMORY)?;
        v.resize(need, 0);
        let r = galois_aead::chunked::open_into_on(1, k, c, sealed, &mut v).map_err(chunked_code);
        if r.is_ok() {
            unsafe { output(out, need)? }.copy_from_slice(&v);
        }
        r
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, None) };
    }
    r
}

/// Random access: reads up to `out_cap` plaintext bytes at plaintext
/// `offset` of the sealed message `in` into `out` (`*out_len`: the bytes
/// read; fewer than `out_cap` only at the end, which is reported only after
/// the final chunk verified). Only the chunks covering the range are
/// verified and decrypted; `out` is written once, after all of them
/// verified, and zeroed on any error.
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_read_at(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    offset: u64,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    use std::io::{Read, Seek, SeekFrom};
    let r = guard(|| {
        // SAFETY (all blocks below): as in galois_chunked_seal.
        let k = unsafe { input(key, key_len)? };
        chunked_key(k)?;
        let call = [
            (out as *const u8, out_cap),
            (in_, in_len),
            (key, key_len),
            (ctx, ctx_len),
        ];
        no_overlap(out, out_cap, &call[1..])?;
        if !out_len.is_null() {
            no_overlap(out_len as *const u8, size_of::<usize>(), &call)?;
        }
        let c = unsafe { input(ctx, ctx_len)? };
        let sealed = unsafe { input(in_, in_len)? };
        let io = |e: std::io::Error| match e.get_ref().and_then(|r| r.downcast_ref::<Error>()) {
            Some(ge) => chunked_code(*ge),
            None => GALOIS_ERR_AUTH,
        };
        let mut ra = galois_aead::chunked::RandomAccess::new(k, c, std::io::Cursor::new(sealed))
            .map_err(|e| match e {
                galois_aead::stream::StreamError::Crypto(e) => chunked_code(e),
                galois_aead::stream::StreamError::Io(e) => io(e),
            })?;
        ra.seek(SeekFrom::Start(offset)).map_err(io)?;
        let mut v = zeroize::Zeroizing::new(Vec::new());
        v.try_reserve_exact(out_cap.min(in_len))
            .map_err(|_| GALOIS_ERR_NO_MEMORY)?;
        v.resize(out_cap.min(in_len), 0);
        let mut got = 0;
        let r = loop {
            if got == v.len() {
                break Ok(());
            }
            match ra.read(&mut v[got..]) {
                Ok(0) => break Ok(()),
                Ok(n) => got += n,
                Err(e) => break Err(io(e)),
            }
        };
        if r.is_ok() {
            unsafe { output(out, got)? }.copy_from_slice(&v[..got]);
            unsafe { set_out_len(out_len, got, &call)? };
        }
        r
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, None) };
        if !out_len.is_null() {
            // SAFETY: a writable size_t (contract); never overlaps out
            // (checked above, or the call failed before any write).
            let _ = unsafe { set_out_len(out_len, 0, &[(out as *const u8, out_cap)]) };
        }
    }
    r
}

// ---------------------------------------------------------------------------
// Chunked encryption: streaming (a sealer and an opener in caller memory)
// ---------------------------------------------------------------------------

/// A streaming chunked state's object: live, failed (every later update
/// or final returns the code again), or finished by a final that
/// succeeded (later calls: [`GALOIS_ERR_STATE`]).
enum ChunkStream<T> {
    Live(T),
    Failed(c_int),
    Done,
}

/// The library's push sealer and opener, seen alike by the C functions.
trait Push: Sized {
    const KIND: Kind;
    fn update_len(&self, n: usize) -> Option<usize>;
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn finish_len(&self) -> Result<usize, Error>;
    fn finish(self, out: &mut [u8]) -> Result<usize, Error>;
}

impl Push for PushSealer {
    const KIND: Kind = Kind::ChunkSeal;
    fn update_len(&self, n: usize) -> Option<usize> {
        PushSealer::update_len(self, n)
    }
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        PushSealer::update(self, input, out)
    }
    fn finish_len(&self) -> Result<usize, Error> {
        Ok(PushSealer::finish_len(self))
    }
    fn finish(self, out: &mut [u8]) -> Result<usize, Error> {
        PushSealer::finish(self, out)
    }
}

impl Push for PushOpener {
    const KIND: Kind = Kind::ChunkOpen;
    fn update_len(&self, n: usize) -> Option<usize> {
        PushOpener::update_len(self, n)
    }
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        PushOpener::update(self, input, out)
    }
    fn finish_len(&self) -> Result<usize, Error> {
        PushOpener::finish_len(self)
    }
    fn finish(self, out: &mut [u8]) -> Result<usize, Error> {
        PushOpener::finish(self, out)
    }
}

/// The shared body of the update and final functions. `input` is `None`
/// for final. Argument errors (NULL, overlap, a buffer too small, a state
/// that is not live) leave the stream as it was; any error of the stream
/// itself fails it for good. On any error `out[0..out_cap)` is zeroed
/// (unless it overlaps the state) and `*out_len` is 0, except on
/// [`GALOIS_ERR_BUFFER_TOO_SMALL`], where it has the size needed.
///
/// # Safety
/// As the header documents for these functions.
unsafe fn stream_call<T: Push>(
    state: *mut c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    input_: Option<(*const u8, usize)>,
) -> c_int {
    let st = state_range(state, T::KIND);
    let (in_, in_len) = input_.unwrap_or((ptr::null(), 0));
    let call = [(out as *const u8, out_cap), (in_, in_len), st];
    let r = guard(|| {
        // SAFETY (all blocks below): pointers and lengths as the header
        // documents them; exclusive use of the state (contract); out is
        // written only after the overlap checks.
        let obj = unsafe { state_get_mut::<ChunkStream<T>>(state, T::KIND)? };
        let s = match obj {
            ChunkStream::Live(s) => s,
            ChunkStream::Failed(c) => return Err(*c),
            ChunkStream::Done => return Err(GALOIS_ERR_STATE),
        };
        let data = unsafe { input(in_, in_len)? };
        let need = match input_ {
            Some(_) => s.update_len(in_len).ok_or(GALOIS_ERR_TOO_LONG)?,
            None => match s.finish_len() {
                Ok(n) => n,
                Err(e) => {
                    let c = chunked_code(e);
                    *obj = ChunkStream::Failed(c);
                    return Err(c);
                }
            },
        };
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        no_overlap(out, need, &call[1..])?;
        let o = unsafe { output(out, need)? };
        let res = match input_ {
            Some(_) => s.update(data, o),
            None => match core::mem::replace(obj, ChunkStream::Done) {
                ChunkStream::Live(s) => s.finish(o),
                _ => return Err(GALOIS_ERR_INTERNAL),
            },
        };
        match res {
            Ok(n) if n == need => Ok(()),
            Ok(_) => Err(GALOIS_ERR_INTERNAL),
            Err(e) => {
                let c = chunked_code(e);
                *obj = ChunkStream::Failed(c);
                Err(c)
            }
        }
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract); never the state's.
        unsafe { wipe_output(out, out_cap, Some(st)) };
        if r != GALOIS_ERR_BUFFER_TOO_SMALL {
            // SAFETY: a writable size_t (contract), refused if it overlaps
            // out, the input or the state.
            let _ = unsafe { set_out_len(out_len, 0, &call) };
        }
    }
    r
}

/// Bytes of caller memory a streaming chunked sealer needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_chunked_sealer_statebytes() -> usize {
    statebytes_of::<ChunkStream<PushSealer>>()
}

/// Bytes of caller memory a streaming chunked opener needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_chunked_opener_statebytes() -> usize {
    statebytes_of::<ChunkStream<PushOpener>>()
}

/// Starts sealing a message with a fresh random salt: `header` (at least
/// [`GALOIS_CHUNKED_HEADERBYTES`] bytes) gets its 56-byte header. On any
/// error `header[0..header_len)` is zeroed and the state holds nothing.
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_sealer_init(
    state: *mut c_void,
    header: *mut u8,
    header_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    let st = state_range(state, Kind::ChunkSeal);
    let mut h = zeroize::Zeroizing::new([0u8; GALOIS_CHUNKED_HEADERBYTES]);
    // SAFETY (all blocks below): pointers and lengths as the header
    // documents them; header is written only after the overlap checks.
    let mut r = unsafe {
        init_state(state, Kind::ChunkSeal, || {
            if header.is_null() {
                return Err(GALOIS_ERR_NULL_POINTER);
            }
            if header_len < GALOIS_CHUNKED_HEADERBYTES {
                return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
            }
            no_overlap(
                header,
                GALOIS_CHUNKED_HEADERBYTES,
                &[st, (ctx, ctx_len), (key, key_len)],
            )?;
            let k = input(key, key_len)?;
            chunked_key(k)?;
            let c = input(ctx, ctx_len)?;
            let (s, hd) = PushSealer::new(k, c).map_err(chunked_code)?;
            *h = hd;
            Ok(ChunkStream::Live(s))
        })
    };
    if r == GALOIS_OK {
        r = guard(|| {
            unsafe { output(header, GALOIS_CHUNKED_HEADERBYTES)? }.copy_from_slice(&*h);
            Ok(())
        });
    }
    if r != GALOIS_OK {
        unsafe { wipe_output(header, header_len, Some(st)) };
    }
    r
}

/// Seals `in[0..in_len)`: `out` gets every chunk it completes (a multiple
/// of 16400 bytes, at most ceil(in_len / 16384) chunks), `*out_len` the
/// bytes written.
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_sealer_update(
    state: *mut c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { stream_call::<PushSealer>(state, out, out_cap, out_len, Some((in_, in_len))) }
}

/// Seals the final chunk (at most 16399 bytes) into `out`; the sealer is
/// finished (later update and final: [`GALOIS_ERR_STATE`]).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_sealer_final(
    state: *mut c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { stream_call::<PushSealer>(state, out, out_cap, out_len, None) }
}

/// Wipes a streaming sealer (any state, as the other wipe functions).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_sealer_wipe(state: *mut c_void) -> c_int {
    // SAFETY: the caller's state memory (contract).
    unsafe { state_wipe(state, Kind::ChunkSeal) }
}

/// Starts opening a message: `header` is its first 56 bytes exactly; the
/// key commitment is checked here ([`GALOIS_ERR_AUTH`] for a wrong key or
/// context, or a header of another length).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_opener_init(
    state: *mut c_void,
    header: *const u8,
    header_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: pointers and lengths as the header documents them.
    unsafe {
        init_state(state, Kind::ChunkOpen, || {
            let k = input(key, key_len)?;
            chunked_key(k)?;
            let c = input(ctx, ctx_len)?;
            let h = input(header, header_len)?;
            let o = PushOpener::new(k, c, h).map_err(chunked_code)?;
            Ok(ChunkStream::Live(o))
        })
    }
}

/// Opens sealed bytes `in[0..in_len)`: `out` gets the plaintext of every
/// chunk they complete, each after it verified (less than in_len + 16384
/// bytes), `*out_len` the bytes written.
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_opener_update(
    state: *mut c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { stream_call::<PushOpener>(state, out, out_cap, out_len, Some((in_, in_len))) }
}

/// Verifies and opens the final chunk (at most 16383 bytes of plaintext)
/// into `out`; a message without one fails here ([`GALOIS_ERR_AUTH`]).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_opener_final(
    state: *mut c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { stream_call::<PushOpener>(state, out, out_cap, out_len, None) }
}

/// Wipes a streaming opener (any state, as the other wipe functions).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_opener_wipe(state: *mut c_void) -> c_int {
    // SAFETY: the caller's state memory (contract).
    unsafe { state_wipe(state, Kind::ChunkOpen) }
}

// ---------------------------------------------------------------------------
// AES-GMAC
// ---------------------------------------------------------------------------

/// Bytes of caller memory an AES-GMAC state needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_gmac_statebytes() -> usize {
    statebytes_of::<AesGmac>()
}

/// AES-GMAC key setup with 16-byte tags.
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_init(
    state: *mut c_void,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { galois_gmac_init_ex(state, key, key_len, 16, 0) }
}

/// AES-GMAC key setup with a chosen tag length (as `galois_aesgcm_init_ex`).
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_init_ex(
    state: *mut c_void,
    key: *const u8,
    key_len: usize,
    tag_len: usize,
    flags: c_uint,
) -> c_int {
    // SAFETY: the caller passes a state of galois_gmac_statebytes() bytes.
    unsafe {
        init_state(state, Kind::Gmac, || {
            let key = input(key, key_len)?;
            AesGmac::with_options(key, gcm_options(tag_len, flags)?).map_err(code)
        })
    }
}

/// Writes the GMAC tag of `msg` under `nonce` to `tag` (`tag_len` must equal
/// the state's tag length); on any error `tag[0..tag_len)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_authenticate(
    state: *const c_void,
    tag: *mut u8,
    tag_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
) -> c_int {
    let st = state_range(state, Kind::Gmac);
    let r = guard(|| {
        // SAFETY (all blocks): as in galois_aesgcm_seal.
        let g = unsafe { state_get::<AesGmac>(state, Kind::Gmac)? };
        if tag_len != g.gcm().tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        no_overlap(tag, tag_len, &[st, (nonce, nonce_len), (msg, msg_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = g.authenticate(nonce_s, msg_s).map_err(code)?;
        tag_s.copy_from_slice(t.as_bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: tag has tag_len bytes (contract).
        unsafe { wipe_output(tag, tag_len, Some(st)) };
    }
    r
}

/// Checks a GMAC tag in constant time: [`GALOIS_OK`] or [`GALOIS_ERR_AUTH`].
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_verify(
    state: *const c_void,
    tag: *const u8,
    tag_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY (all blocks): as in galois_aesgcm_seal.
        let g = unsafe { state_get::<AesGmac>(state, Kind::Gmac)? };
        if tag_len != g.gcm().tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        g.verify(nonce_s, msg_s, tag_s).map_err(code)
    })
}

/// Wipes a GMAC state (see the header for copies and moved states).
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_wipe(state: *mut c_void) -> c_int {
    // SAFETY: a state (contract).
    guard(|| match unsafe { state_wipe(state, Kind::Gmac) } {
        GALOIS_OK => Ok(()),
        e => Err(e),
    })
}

// ---------------------------------------------------------------------------
// Poly1305-AES
// ---------------------------------------------------------------------------

/// Bytes of caller memory a Poly1305-AES state needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_poly1305aes_statebytes() -> usize {
    statebytes_of::<Poly1305Aes>()
}

/// Writes a fresh random Poly1305-AES key (32 bytes, r clamped) to `key`;
/// on any error `key[0..key_len)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_keygen(key: *mut u8, key_len: usize) -> c_int {
    let r = guard(|| {
        if key_len != GALOIS_POLY1305AES_KEYBYTES {
            return Err(GALOIS_ERR_KEY_LENGTH);
        }
        // SAFETY: key_len writable bytes (contract).
        let out = unsafe { output(key, key_len)? };
        let k = Poly1305Aes::generate_key().map_err(code)?;
        out.copy_from_slice(&k[..]);
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: as above.
        unsafe { wipe_output(key, key_len, None) };
    }
    r
}

/// Poly1305-AES key setup: 32 bytes k || r with r clamped (else
/// [`GALOIS_ERR_INVALID_KEY`]).
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_init(
    state: *mut c_void,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: the caller passes a state of galois_poly1305aes_statebytes() bytes.
    unsafe {
        init_state(state, Kind::Poly, || {
            Poly1305Aes::new(input(key, key_len)?).map_err(code)
        })
    }
}

/// Writes the 16-byte tag of `msg` under the 16-byte `nonce` to `tag`; on
/// any error `tag[0..tag_len)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_authenticate(
    state: *const c_void,
    tag: *mut u8,
    tag_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
) -> c_int {
    let st = state_range(state, Kind::Poly);
    let r = guard(|| {
        // SAFETY (all blocks): as in galois_aesgcm_seal.
        let m = unsafe { state_get::<Poly1305Aes>(state, Kind::Poly)? };
        if tag_len != GALOIS_POLY1305AES_TAGBYTES {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        no_overlap(tag, tag_len, &[st, (nonce, nonce_len), (msg, msg_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = m.authenticate(nonce_s, msg_s).map_err(code)?;
        tag_s.copy_from_slice(&t);
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: tag has tag_len bytes (contract).
        unsafe { wipe_output(tag, tag_len, Some(st)) };
    }
    r
}

/// Checks a Poly1305-AES tag in constant time: [`GALOIS_OK`] or
/// [`GALOIS_ERR_AUTH`].
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_verify(
    state: *const c_void,
    tag: *const u8,
    tag_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY (all blocks): as in galois_aesgcm_seal.
        let m = unsafe { state_get::<Poly1305Aes>(state, Kind::Poly)? };
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        m.verify(nonce_s, msg_s, tag_s).map_err(code)
    })
}

/// Wipes a Poly1305-AES state (see the header for copies and moved states).
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_wipe(state: *mut c_void) -> c_int {
    // SAFETY: a state (contract).
    guard(|| match unsafe { state_wipe(state, Kind::Poly) } {
        GALOIS_OK => Ok(()),
        e => Err(e),
    })
}

// ---------------------------------------------------------------------------
// One-time Poly1305 (RFC 8439)
// ---------------------------------------------------------------------------

/// Writes the 16-byte one-time Poly1305 tag of `msg` under the 32-byte key
/// r || s (RFC 8439; r is clamped by the MAC). A key authenticates one
/// message only. On any error `tag[0..tag_len)` is zeroed.
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305_onetimeauth(
    tag: *mut u8,
    tag_len: usize,
    msg: *const u8,
    msg_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    let r = guard(|| {
        if tag_len != GALOIS_POLY1305_TAGBYTES {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        // SAFETY (all blocks): as in galois_aesgcm_seal.
        let key_s = unsafe { input(key, key_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        no_overlap(tag, tag_len, &[(msg, msg_len), (key, key_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = Poly1305::mac(key_s, msg_s).map_err(code)?;
        tag_s.copy_from_slice(&t);
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: tag has tag_len bytes (contract).
        unsafe { wipe_output(tag, tag_len, None) };
    }
    r
}

/// Checks a one-time Poly1305 tag in constant time: [`GALOIS_OK`] or
/// [`GALOIS_ERR_AUTH`].
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305_onetimeauth_verify(
    tag: *const u8,
    tag_len: usize,
    msg: *const u8,
    msg_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY (all blocks): as in galois_aesgcm_seal.
        let key_s = unsafe { input(key, key_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        let mut p = Poly1305::new(key_s).map_err(code)?;
        p.update(msg_s);
        p.verify(tag_s).map_err(code)
    })
}

// ---------------------------------------------------------------------------
// AES-GCM-SIV (RFC 8452) and XAES-256-GCM (C2SP): one call each, the key
// given with every call (both derive per-message keys anyway).
// ---------------------------------------------------------------------------

/// The seal of the one-call AEADs: `in` into `out` as ciphertext || 16-byte
/// tag, through private memory; on any error `out[0..out_cap)` is zeroed.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
#[allow(clippy::too_many_arguments)]
unsafe fn oneshot_seal(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    key: *const u8,
    key_len: usize,
    seal: impl FnOnce(&[u8], &[u8], &[u8], &mut [u8]) -> galois_aead::Result<galois_aead::Tag>,
) -> c_int {
    let r = guard(|| {
        // SAFETY (all blocks below): pointers and lengths as the header
        // documents them; outputs are written only after the overlap checks.
        let need = in_len.checked_add(16).ok_or(GALOIS_ERR_TOO_LONG)?;
        let call = [
            (out as *const u8, out_cap),
            (in_, in_len),
            (ad, ad_len),
            (nonce, nonce_len),
            (key, key_len),
        ];
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        let key_s = unsafe { input(key, key_len)? };
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        no_overlap(
            out,
            need,
            &[(ad, ad_len), (nonce, nonce_len), (key, key_len)],
        )?;
        if !in_place(in_, out, in_len) {
            no_overlap(out, need, &[(in_, in_len)])?;
        }
        check_message(in_len)?;
        let mut s = Scratch::copy_of(unsafe { input(in_, in_len)? })?;
        let tag = seal(key_s, nonce_s, ad_s, s.bytes()).map_err(code)?;
        let o = unsafe { output(out, need)? };
        o[..in_len].copy_from_slice(s.bytes());
        o[in_len..].copy_from_slice(tag.as_bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, None) };
    }
    r
}

/// The open of the one-call AEADs: ciphertext || 16-byte tag from `in`
/// into `out`, written only once the tag verified; on any error
/// `out[0..out_cap)` is zeroed.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
#[allow(clippy::too_many_arguments)]
unsafe fn oneshot_open(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    key: *const u8,
    key_len: usize,
    open: impl FnOnce(&[u8], &[u8], &[u8], &mut [u8], &[u8]) -> galois_aead::Result<()>,
) -> c_int {
    let r = guard(|| {
        // SAFETY (all blocks below): as in oneshot_seal.
        if in_len < 16 {
            return Err(GALOIS_ERR_INPUT_TOO_SHORT);
        }
        let need = in_len - 16;
        let call = [
            (out as *const u8, out_cap),
            (in_, in_len),
            (ad, ad_len),
            (nonce, nonce_len),
            (key, key_len),
        ];
        unsafe { set_out_len(out_len, need, &call)? };
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        let key_s = unsafe { input(key, key_len)? };
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        no_overlap(
            out,
            need,
            &[(ad, ad_len), (nonce, nonce_len), (key, key_len)],
        )?;
        if !in_place(in_, out, need) {
            no_overlap(out, need, &[(in_, in_len)])?;
        }
        check_message(need)?;
        let mut tag = [0u8; 16];
        let mut s = {
            let c = unsafe { input(in_, in_len)? };
            tag.copy_from_slice(&c[need..]);
            Scratch::copy_of(&c[..need])?
        };
        open(key_s, nonce_s, ad_s, s.bytes(), &tag).map_err(code)?;
        unsafe { output(out, need)? }.copy_from_slice(s.bytes());
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(out, out_cap, None) };
    }
    r
}

/// The one-shot seal of any AEAD of the library, through its `Aead` trait:
/// a further AEAD needs only its two `extern "C"` wrappers below.
fn seal_with<A: galois_aead::AeadInit>(
    key: &[u8],
    nonce: &[u8],
    ad: &[u8],
    buf: &mut [u8],
) -> galois_aead::Result<galois_aead::Tag> {
    A::new(key)?.seal_in_place_detached(nonce, ad, buf)
}

/// The one-shot open of any AEAD of the library (see [`seal_with`]).
fn open_with<A: galois_aead::AeadInit>(
    key: &[u8],
    nonce: &[u8],
    ad: &[u8],
    buf: &mut [u8],
    tag: &[u8],
) -> galois_aead::Result<()> {
    A::new(key)?.open_in_place_detached(nonce, ad, buf, tag)
}

/// AES-GCM-SIV (RFC 8452; 16-, 24- or 32-byte key, 12-byte nonce): encrypts
/// `in` into `out` as ciphertext || 16-byte tag.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcmsiv_seal(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        oneshot_seal(
            out,
            out_cap,
            out_len,
            in_,
            in_len,
            ad,
            ad_len,
            nonce,
            nonce_len,
            key,
            key_len,
            seal_with::<galois_aead::AesGcmSiv>,
        )
    }
}

/// AES-GCM-SIV: verifies and decrypts ciphertext || tag into `out`.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcmsiv_open(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        oneshot_open(
            out,
            out_cap,
            out_len,
            in_,
            in_len,
            ad,
            ad_len,
            nonce,
            nonce_len,
            key,
            key_len,
            open_with::<galois_aead::AesGcmSiv>,
        )
    }
}

/// XAES-256-GCM (C2SP; 32-byte key, 24-byte nonce): encrypts `in` into
/// `out` as ciphertext || 16-byte tag.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
#[no_mangle]
pub unsafe extern "C" fn galois_xaes256gcm_seal(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        oneshot_seal(
            out,
            out_cap,
            out_len,
            in_,
            in_len,
            ad,
            ad_len,
            nonce,
            nonce_len,
            key,
            key_len,
            seal_with::<galois_aead::XAes256Gcm>,
        )
    }
}

/// XAES-256-GCM: verifies and decrypts ciphertext || tag into `out`.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
#[no_mangle]
pub unsafe extern "C" fn galois_xaes256gcm_open(
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ad: *const u8,
    ad_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        oneshot_open(
            out,
            out_cap,
            out_len,
            in_,
            in_len,
            ad,
            ad_len,
            nonce,
            nonce_len,
            key,
            key_len,
            open_with::<galois_aead::XAes256Gcm>,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `#define GALOIS_*` number in include/galois.h equals the Rust
    /// constant of the same name, and every Rust code is in the header.
    #[test]
    fn header_constants_match() {
        let h = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../include/galois.h"
        ))
        .expect("include/galois.h");
        let rust: &[(&str, i64)] = &[
            ("GALOIS_OK", GALOIS_OK as i64),
            ("GALOIS_ERR_NULL_POINTER", GALOIS_ERR_NULL_POINTER as i64),
            ("GALOIS_ERR_KEY_LENGTH", GALOIS_ERR_KEY_LENGTH as i64),
            ("GALOIS_ERR_NONCE_LENGTH", GALOIS_ERR_NONCE_LENGTH as i64),
            ("GALOIS_ERR_TAG_LENGTH", GALOIS_ERR_TAG_LENGTH as i64),
            (
                "GALOIS_ERR_BUFFER_TOO_SMALL",
                GALOIS_ERR_BUFFER_TOO_SMALL as i64,
            ),
            ("GALOIS_ERR_AUTH", GALOIS_ERR_AUTH as i64),
            ("GALOIS_ERR_TOO_LONG", GALOIS_ERR_TOO_LONG as i64),
            ("GALOIS_ERR_STATE", GALOIS_ERR_STATE as i64),
            ("GALOIS_ERR_INVALID_KEY", GALOIS_ERR_INVALID_KEY as i64),
            ("GALOIS_ERR_OVERLAP", GALOIS_ERR_OVERLAP as i64),
            (
                "GALOIS_ERR_INPUT_TOO_SHORT",
                GALOIS_ERR_INPUT_TOO_SHORT as i64,
            ),
            ("GALOIS_ERR_FLAGS", GALOIS_ERR_FLAGS as i64),
            ("GALOIS_ERR_RANDOM", GALOIS_ERR_RANDOM as i64),
            ("GALOIS_ERR_INTERNAL", GALOIS_ERR_INTERNAL as i64),
            ("GALOIS_ERR_NO_MEMORY", GALOIS_ERR_NO_MEMORY as i64),
            ("GALOIS_FLAG_PERMISSIVE", GALOIS_FLAG_PERMISSIVE as i64),
            (
                "GALOIS_POLY1305AES_KEYBYTES",
                GALOIS_POLY1305AES_KEYBYTES as i64,
            ),
            (
                "GALOIS_POLY1305AES_NONCEBYTES",
                GALOIS_POLY1305AES_NONCEBYTES as i64,
            ),
            (
                "GALOIS_POLY1305AES_TAGBYTES",
                GALOIS_POLY1305AES_TAGBYTES as i64,
            ),
            (
                "GALOIS_CHUNKED_CHUNKBYTES",
                GALOIS_CHUNKED_CHUNKBYTES as i64,
            ),
            (
                "GALOIS_CHUNKED_HEADERBYTES",
                GALOIS_CHUNKED_HEADERBYTES as i64,
            ),
        ];
        let mut defined = std::collections::HashMap::new();
        for line in h.lines() {
            let mut w = line.split_whitespace();
            if w.next() != Some("#define") {
                continue;
            }
            let (Some(name), Some(val)) = (w.next(), w.next()) else {
                continue;
            };
            let v = val
                .trim_matches(|c| c == '(' || c == ')')
                .trim_end_matches('u');
            if let Ok(n) = v.parse::<i64>() {
                defined.insert(name.to_string(), n);
            }
        }
        for (name, v) in rust {
            assert_eq!(defined.get(*name), Some(v), "{name} in include/galois.h");
        }
        let errs = defined
            .keys()
            .filter(|k| k.starts_with("GALOIS_ERR_"))
            .count();
        assert_eq!(
            errs, 15,
            "every error code of the header is a Rust constant"
        );
    }

    #[test]
    fn every_error_has_a_description() {
        for c in GALOIS_ERR_NO_MEMORY..=GALOIS_OK {
            let s = unsafe { core::ffi::CStr::from_ptr(galois_strerror(c)) };
            assert_ne!(s.to_str().unwrap(), "unknown galois return code", "{c}");
        }
    }

    /// Slot numbers map onto the chunks without gaps or overlaps.
    #[test]
    fn live_table_slots() {
        let mut t = live::lock();
        let mut got = Vec::new();
        for i in 0..300usize {
            got.push(t.add(0x1000 + 64 * i).unwrap());
        }
        for (i, &(slot, id)) in got.iter().enumerate() {
            assert_eq!(live::id_of(slot), id, "slot {slot}");
            t.remove(0x1000 + 64 * i, slot);
            assert_eq!(live::id_of(slot), 0);
        }
        assert_eq!(live::id_of(u64::MAX), 0);
        assert_eq!(live::id_of(1 << 60), 0);
    }

    /// Each primitive's errors come back with the header's codes.
    #[test]
    fn library_errors_map_to_documented_codes() {
        assert_eq!(
            code(Error::InvalidKeyLength { got: 1 }),
            GALOIS_ERR_KEY_LENGTH
        );
        assert_eq!(
            code(Error::InvalidIvLength { got: 0 }),
            GALOIS_ERR_NONCE_LENGTH
        );
        assert_eq!(
            code(Error::IvLengthNotAllowedWithShortTag {
                iv_len: 8,
                tag_len: 8
            }),
            GALOIS_ERR_NONCE_LENGTH
        );
        assert_eq!(
            code(Error::InvalidNonceLength { got: 1 }),
            GALOIS_ERR_NONCE_LENGTH
        );
        assert_eq!(
            code(Error::InvalidTagLength { got: 3 }),
            GALOIS_ERR_TAG_LENGTH
        );
        assert_eq!(code(Error::AadTooLong), GALOIS_ERR_TOO_LONG);
        assert_eq!(
            code(Error::MessageTooLong { len: 1, max: 0 }),
            GALOIS_ERR_TOO_LONG
        );
        assert_eq!(
            code(Error::InvalidKey { reason: "r" }),
            GALOIS_ERR_INVALID_KEY
        );
        assert_eq!(code(Error::RandomSourceFailed), GALOIS_ERR_RANDOM);
        assert_eq!(code(Error::AuthenticationFailed), GALOIS_ERR_AUTH);
        assert_eq!(
            code(Error::CiphertextTooShort { len: 1, min: 16 }),
            GALOIS_ERR_INPUT_TOO_SHORT
        );
    }

    /// The state's life through the ABI, in Rust (so Miri can check the
    /// unsafe code): copies refused, the copy's wipe releases the key once,
    /// re-init over a live state, outputs inside the state refused.
    #[test]
    fn state_copies_and_reinit_through_the_abi() {
        let sb = galois_aesgcm_statebytes();
        let mut a = vec![0u8; sb + 8];
        let mut b = vec![0u8; sb + 8];
        let key = [7u8; 16];
        let (iv, pt) = ([1u8; 12], [2u8; 20]);
        let mut out = [0u8; 36];
        unsafe {
            let sa = a.as_mut_ptr().add(3) as *mut c_void;
            let sbp = b.as_mut_ptr().add(5) as *mut c_void;
            assert_eq!(galois_aesgcm_init(sa, key.as_ptr(), 16), GALOIS_OK);
            assert_eq!(galois_aesgcm_init(sa, key.as_ptr(), 16), GALOIS_OK);
            let seal = |st: *const c_void, out: &mut [u8; 36]| {
                galois_aesgcm_seal(
                    st,
                    out.as_mut_ptr(),
                    36,
                    ptr::null_mut(),
                    pt.as_ptr(),
                    20,
                    ptr::null(),
                    0,
                    iv.as_ptr(),
                    12,
                )
            };
            assert_eq!(seal(sa, &mut out), GALOIS_OK);
            let mut back = [0u8; 20];
            let r = galois_aesgcm_open(
                sa,
                back.as_mut_ptr(),
                20,
                ptr::null_mut(),
                out.as_ptr(),
                36,
                ptr::null(),
                0,
                iv.as_ptr(),
                12,
            );
            assert_eq!((r, back), (GALOIS_OK, pt));
            let inside = (sa as *mut u8).add(40);
            let r = galois_aesgcm_seal(
                sa,
                inside,
                36,
                ptr::null_mut(),
                pt.as_ptr(),
                20,
                ptr::null(),
                0,
                iv.as_ptr(),
                12,
            );
            assert_eq!(r, GALOIS_ERR_OVERLAP);
            ptr::copy_nonoverlapping(sa as *const u8, sbp as *mut u8, sb);
            assert_eq!(seal(sbp, &mut out), GALOIS_ERR_STATE);
            assert_eq!(galois_aesgcm_wipe(sbp), GALOIS_ERR_STATE);
            assert_eq!(seal(sa, &mut out), GALOIS_ERR_STATE);
            assert_eq!(out, [0u8; 36]);
            assert_eq!(galois_aesgcm_wipe(sa), GALOIS_OK);
            assert!(a.iter().all(|&x| x == 0) && b.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn sizes_and_alignment() {
        for (n, s, a) in [
            ("aesgcm", size_of::<AesGcm>(), align_of::<AesGcm>()),
            ("gmac", size_of::<AesGmac>(), align_of::<AesGmac>()),
            ("poly", size_of::<Poly1305Aes>(), align_of::<Poly1305Aes>()),
        ] {
            println!("{n}: size {s} align {a}");
            assert!(a.is_power_of_two());
        }
    }
}
