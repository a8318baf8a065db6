//! The C ABI of galois: AES-GCM, AES-GMAC and Poly1305-AES with
//! caller-allocated state, in the manner of libsodium. The header is
//! `include/galois.h` at the top of the repository; this file and the header
//! must agree (a unit test compares every constant with the header).
//!
//! # Design
//!
//! * Every function returns an `int`: [`GALOIS_OK`] (0) or one of the
//!   negative `GALOIS_ERR_*` codes below, each with its own meaning.
//! * Nothing unwinds or aborts across the ABI: every entry point validates
//!   its pointers and lengths first and runs under `catch_unwind`; a panic
//!   (a bug) comes back as [`GALOIS_ERR_INTERNAL`].
//! * A state is `*_statebytes()` bytes of caller memory with **no alignment
//!   requirement**: a 16-byte header (magic number, offset) is read and
//!   written unaligned, and the Rust key object is placed at the first
//!   suitably aligned address after it. A state must therefore not be moved
//!   or copied after `*_init` (a moved state is detected and refused with
//!   [`GALOIS_ERR_STATE`]); `*_wipe` frees what the key object holds,
//!   zeroes the whole state and may be called again.
//! * Seal, open, authenticate and verify only read the state: one state may
//!   be shared by several threads at once. Init and wipe need exclusive use.
//!
//! The C test program (`crates/galois-capi/tests-c/`) is the example: it
//! runs the shared vector files and every error path through the header.
#![allow(clippy::missing_safety_doc)]

use core::ffi::{c_char, c_int, c_uint, c_void};
use core::mem::{align_of, size_of};
use core::ptr;
use galois_aead::poly1305::{Poly1305, Poly1305Aes};
use galois_aead::{AesGcm, AesGmac, Error, Options, ShortTag};
use std::panic::{catch_unwind, AssertUnwindSafe};

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
/// The state was not initialized by the matching `*_init`, was wiped, or was moved.
pub const GALOIS_ERR_STATE: c_int = -8;
/// The key breaks a constraint of the primitive (an unclamped Poly1305 r).
pub const GALOIS_ERR_INVALID_KEY: c_int = -9;
/// The output overlaps an input without being the same pointer (in place).
pub const GALOIS_ERR_OVERLAP: c_int = -10;
/// The ciphertext given to open is shorter than the tag.
pub const GALOIS_ERR_INPUT_TOO_SHORT: c_int = -11;
/// Unknown bits in a `flags` argument.
pub const GALOIS_ERR_FLAGS: c_int = -12;
/// The operating system's random source failed.
pub const GALOIS_ERR_RANDOM: c_int = -13;
/// A bug inside galois (a caught panic). Please report it.
pub const GALOIS_ERR_INTERNAL: c_int = -14;

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

/// Whether the byte ranges [a, a+alen) and [b, b+blen) share a byte.
fn overlaps(a: *const u8, alen: usize, b: *const u8, blen: usize) -> bool {
    if alen == 0 || blen == 0 {
        return false;
    }
    let (a, b) = (a as usize, b as usize);
    a < b.saturating_add(blen) && b < a.saturating_add(alen)
}

/// Refuses an output that overlaps any of `inputs` (pointer, length).
fn no_overlap(out: *const u8, out_len: usize, inputs: &[(*const u8, usize)]) -> Result<(), c_int> {
    if inputs.iter().any(|&(p, l)| overlaps(out, out_len, p, l)) {
        Err(GALOIS_ERR_OVERLAP)
    } else {
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Caller-allocated state: [magic u64][offset u64] ... padding ... [T]
// ---------------------------------------------------------------------------

const HEADER: usize = 16;
const MAGIC_AESGCM: u64 = 0x6761_6c6f_6973_4743; // "galoisGC"
const MAGIC_GMAC: u64 = 0x6761_6c6f_6973_4d41; // "galoisMA"
const MAGIC_POLY: u64 = 0x6761_6c6f_6973_5031; // "galoisP1"

const fn statebytes_of<T>() -> usize {
    HEADER + align_of::<T>() - 1 + size_of::<T>()
}

fn object_offset<T>(base: usize) -> usize {
    let a = align_of::<T>();
    ((base + HEADER + a - 1) & !(a - 1)) - base
}

/// Places `value` in the state and marks it with `magic`.
unsafe fn state_put<T>(state: *mut c_void, magic: u64, value: T) {
    let base = state as *mut u8;
    let off = object_offset::<T>(base as usize);
    // SAFETY: the state has statebytes_of::<T>() bytes (header contract), and
    // off + size_of::<T>() <= that; the object address is aligned for T.
    unsafe {
        ptr::write(base.add(off) as *mut T, value);
        ptr::write_unaligned(base as *mut u64, magic);
        ptr::write_unaligned(base.add(8) as *mut u64, off as u64);
    }
}

/// Marks a state as holding nothing (after a failed init).
/// Builds a key object with `make` and installs it in `state` under
/// `magic`; on any failure the state is cleared and the error returned.
///
/// # Safety
/// `state` is null or has `statebytes_of::<T>()` writable bytes.
unsafe fn init_state<T>(
    state: *mut c_void,
    magic: u64,
    make: impl FnOnce() -> Result<T, c_int>,
) -> c_int {
    if state.is_null() {
        return GALOIS_ERR_NULL_POINTER;
    }
    let r = guard(|| {
        let value = make()?;
        // SAFETY: the caller's state has statebytes_of::<T>() bytes.
        unsafe { state_put(state, magic, value) };
        Ok(())
    });
    if r != GALOIS_OK {
        // SAFETY: as above.
        unsafe { state_clear(state, statebytes_of::<T>()) };
    }
    r
}

unsafe fn state_clear(state: *mut c_void, bytes: usize) {
    let base = state as *mut u8;
    for i in 0..bytes {
        // SAFETY: within the caller's statebytes; volatile so it is kept.
        unsafe { ptr::write_volatile(base.add(i), 0) };
    }
}

/// The object of an initialized state.
unsafe fn state_get<'a, T>(state: *const c_void, magic: u64) -> Result<&'a T, c_int> {
    if state.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    let base = state as *const u8;
    // SAFETY: the caller passes a state of statebytes_of::<T>() bytes.
    let (m, off) = unsafe {
        (
            ptr::read_unaligned(base as *const u64),
            ptr::read_unaligned(base.add(8) as *const u64),
        )
    };
    if m != magic || off as usize != object_offset::<T>(base as usize) {
        return Err(GALOIS_ERR_STATE);
    }
    // SAFETY: the magic says state_put wrote a T at this (same) offset.
    Ok(unsafe { &*(base.add(off as usize) as *const T) })
}

/// Drops the object (if the state holds one of this kind) and zeroes the state.
unsafe fn state_wipe<T>(state: *mut c_void, magic: u64) -> Result<(), c_int> {
    if state.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    // SAFETY: as state_get; then the object is dropped exactly once and the
    // magic cleared with the rest of the state.
    unsafe {
        if state_get::<T>(state, magic).is_ok() {
            let off = object_offset::<T>(state as usize);
            ptr::drop_in_place((state as *mut u8).add(off) as *mut T);
        }
        state_clear(state, statebytes_of::<T>());
    }
    Ok(())
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
        GALOIS_ERR_STATE => b"state not initialized, wiped, or moved\0",
        GALOIS_ERR_INVALID_KEY => b"invalid key (Poly1305 r not clamped)\0",
        GALOIS_ERR_OVERLAP => b"output overlaps an input\0",
        GALOIS_ERR_INPUT_TOO_SHORT => b"ciphertext shorter than the tag\0",
        GALOIS_ERR_FLAGS => b"unknown flags\0",
        GALOIS_ERR_RANDOM => b"the operating system's random source failed\0",
        GALOIS_ERR_INTERNAL => b"internal error (a bug in galois)\0",
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
        init_state(state, MAGIC_AESGCM, || {
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
        t = unsafe { state_get::<AesGcm>(state, MAGIC_AESGCM)? }.tag_len() as c_int;
        Ok(())
    });
    if r == GALOIS_OK {
        t
    } else {
        r
    }
}

/// Encrypts `in` into `out` as ciphertext || tag (`in_len + taglen` bytes).
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
    guard(|| {
        let g = unsafe { state_get::<AesGcm>(state, MAGIC_AESGCM)? };
        let t = g.tag_len();
        let need = in_len.checked_add(t).ok_or(GALOIS_ERR_TOO_LONG)?;
        if !out_len.is_null() {
            unsafe { *out_len = need };
        }
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        no_overlap(out, need, &[(ad, ad_len), (nonce, nonce_len)])?;
        if in_len > 0 && ptr::eq(in_, out) {
            let buf = unsafe { output(out, need)? };
            let (c, tag_out) = buf.split_at_mut(in_len);
            let tag = g.seal_in_place_detached(nonce_s, ad_s, c).map_err(code)?;
            tag_out.copy_from_slice(tag.as_bytes());
            return Ok(());
        }
        no_overlap(out, need, &[(in_, in_len)])?;
        let pt = unsafe { input(in_, in_len)? };
        let o = unsafe { output(out, need)? };
        g.seal_into(nonce_s, ad_s, pt, o).map_err(code)
    })
}

/// Verifies and decrypts ciphertext || tag from `in` into `out`
/// (`in_len - taglen` bytes). On failure `out` is zeroed.
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
    guard(|| {
        let g = unsafe { state_get::<AesGcm>(state, MAGIC_AESGCM)? };
        let t = g.tag_len();
        if in_len < t {
            return Err(GALOIS_ERR_INPUT_TOO_SHORT);
        }
        let need = in_len - t;
        if !out_len.is_null() {
            unsafe { *out_len = need };
        }
        if out_cap < need {
            return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        no_overlap(out, need, &[(ad, ad_len), (nonce, nonce_len)])?;
        if need > 0 && ptr::eq(in_, out) {
            let buf = unsafe { output(out, in_len)? };
            let mut tag = [0u8; 16];
            tag[..t].copy_from_slice(&buf[need..]);
            return g
                .open_in_place_detached(nonce_s, ad_s, &mut buf[..need], &tag[..t])
                .map_err(code);
        }
        no_overlap(out, need, &[(in_, in_len)])?;
        let ct = unsafe { input(in_, in_len)? };
        let o = unsafe { output(out, need)? };
        g.open_into(nonce_s, ad_s, ct, o).map_err(code)
    })
}

/// Encrypts `in_len` bytes from `in` into `out` (same length; may be the
/// same pointer) and writes the tag (`tag_len` must equal the state's tag
/// length) to `tag`.
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
    guard(|| {
        let g = unsafe { state_get::<AesGcm>(state, MAGIC_AESGCM)? };
        if tag_len != g.tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        let ins = [(ad, ad_len), (nonce, nonce_len)];
        no_overlap(out, in_len, &ins)?;
        no_overlap(tag, tag_len, &ins)?;
        no_overlap(tag, tag_len, &[(in_, in_len), (out, in_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = if in_len > 0 && ptr::eq(in_, out) {
            let buf = unsafe { output(out, in_len)? };
            g.seal_in_place_detached(nonce_s, ad_s, buf).map_err(code)?
        } else {
            no_overlap(out, in_len, &[(in_, in_len)])?;
            let pt = unsafe { input(in_, in_len)? };
            let o = unsafe { output(out, in_len)? };
            g.seal_detached_into(nonce_s, ad_s, pt, o).map_err(code)?
        };
        tag_s.copy_from_slice(t.as_bytes());
        Ok(())
    })
}

/// Verifies `tag` and decrypts `in_len` bytes from `in` into `out` (same
/// length; may be the same pointer). On failure `out` is zeroed.
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
    guard(|| {
        let g = unsafe { state_get::<AesGcm>(state, MAGIC_AESGCM)? };
        if tag_len != g.tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let ad_s = unsafe { input(ad, ad_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        no_overlap(
            out,
            in_len,
            &[(ad, ad_len), (nonce, nonce_len), (tag, tag_len)],
        )?;
        if in_len > 0 && ptr::eq(in_, out) {
            let buf = unsafe { output(out, in_len)? };
            return g
                .open_in_place_detached(nonce_s, ad_s, buf, tag_s)
                .map_err(code);
        }
        no_overlap(out, in_len, &[(in_, in_len)])?;
        let ct = unsafe { input(in_, in_len)? };
        let o = unsafe { output(out, in_len)? };
        g.open_detached_into(nonce_s, ad_s, ct, tag_s, o)
            .map_err(code)
    })
}

/// Writes a fresh random AES key of `key_len` bytes (16, 24 or 32) to `key`.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_keygen(key: *mut u8, key_len: usize) -> c_int {
    guard(|| {
        if !matches!(key_len, 16 | 24 | 32) {
            return Err(GALOIS_ERR_KEY_LENGTH);
        }
        let out = unsafe { output(key, key_len)? };
        getrandom::fill(out).map_err(|_| GALOIS_ERR_RANDOM)
    })
}

/// Frees and zeroes an AES-GCM state. Safe to call twice.
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_wipe(state: *mut c_void) -> c_int {
    guard(|| unsafe { state_wipe::<AesGcm>(state, MAGIC_AESGCM) })
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
        init_state(state, MAGIC_GMAC, || {
            let key = input(key, key_len)?;
            AesGmac::with_options(key, gcm_options(tag_len, flags)?).map_err(code)
        })
    }
}

/// Writes the GMAC tag of `msg` under `nonce` to `tag` (`tag_len` must equal
/// the state's tag length).
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
    guard(|| {
        let g = unsafe { state_get::<AesGmac>(state, MAGIC_GMAC)? };
        if tag_len != g.gcm().tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        no_overlap(tag, tag_len, &[(nonce, nonce_len), (msg, msg_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = g.authenticate(nonce_s, msg_s).map_err(code)?;
        tag_s.copy_from_slice(t.as_bytes());
        Ok(())
    })
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
        let g = unsafe { state_get::<AesGmac>(state, MAGIC_GMAC)? };
        if tag_len != g.gcm().tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        g.verify(nonce_s, msg_s, tag_s).map_err(code)
    })
}

/// Frees and zeroes a GMAC state. Safe to call twice.
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_wipe(state: *mut c_void) -> c_int {
    guard(|| unsafe { state_wipe::<AesGmac>(state, MAGIC_GMAC) })
}

// ---------------------------------------------------------------------------
// Poly1305-AES
// ---------------------------------------------------------------------------

/// Bytes of caller memory a Poly1305-AES state needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_poly1305aes_statebytes() -> usize {
    statebytes_of::<Poly1305Aes>()
}

/// Writes a fresh random Poly1305-AES key (32 bytes, r clamped) to `key`.
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_keygen(key: *mut u8, key_len: usize) -> c_int {
    guard(|| {
        if key_len != GALOIS_POLY1305AES_KEYBYTES {
            return Err(GALOIS_ERR_KEY_LENGTH);
        }
        let out = unsafe { output(key, key_len)? };
        let k = Poly1305Aes::generate_key().map_err(code)?;
        out.copy_from_slice(&k[..]);
        Ok(())
    })
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
        init_state(state, MAGIC_POLY, || {
            Poly1305Aes::new(input(key, key_len)?).map_err(code)
        })
    }
}

/// Writes the 16-byte tag of `msg` under the 16-byte `nonce` to `tag`.
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
    guard(|| {
        let m = unsafe { state_get::<Poly1305Aes>(state, MAGIC_POLY)? };
        if tag_len != GALOIS_POLY1305AES_TAGBYTES {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        no_overlap(tag, tag_len, &[(nonce, nonce_len), (msg, msg_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = m.authenticate(nonce_s, msg_s).map_err(code)?;
        tag_s.copy_from_slice(&t);
        Ok(())
    })
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
        let m = unsafe { state_get::<Poly1305Aes>(state, MAGIC_POLY)? };
        let nonce_s = unsafe { input(nonce, nonce_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        m.verify(nonce_s, msg_s, tag_s).map_err(code)
    })
}

/// Frees and zeroes a Poly1305-AES state. Safe to call twice.
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_wipe(state: *mut c_void) -> c_int {
    guard(|| unsafe { state_wipe::<Poly1305Aes>(state, MAGIC_POLY) })
}

// ---------------------------------------------------------------------------
// One-time Poly1305 (RFC 8439)
// ---------------------------------------------------------------------------

/// Writes the 16-byte one-time Poly1305 tag of `msg` under the 32-byte key
/// r || s (RFC 8439; r is clamped by the MAC). A key authenticates one
/// message only.
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305_onetimeauth(
    tag: *mut u8,
    tag_len: usize,
    msg: *const u8,
    msg_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    guard(|| {
        if tag_len != GALOIS_POLY1305_TAGBYTES {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let key_s = unsafe { input(key, key_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        no_overlap(tag, tag_len, &[(msg, msg_len), (key, key_len)])?;
        let tag_s = unsafe { output(tag, tag_len)? };
        let t = Poly1305::mac(key_s, msg_s).map_err(code)?;
        tag_s.copy_from_slice(&t);
        Ok(())
    })
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
        let key_s = unsafe { input(key, key_len)? };
        let msg_s = unsafe { input(msg, msg_len)? };
        let tag_s = unsafe { input(tag, tag_len)? };
        let mut p = Poly1305::new(key_s).map_err(code)?;
        p.update(msg_s);
        p.verify(tag_s).map_err(code)
    })
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
            errs, 14,
            "every error code of the header is a Rust constant"
        );
    }

    #[test]
    fn every_error_has_a_description() {
        for c in GALOIS_ERR_INTERNAL..=GALOIS_OK {
            let s = unsafe { core::ffi::CStr::from_ptr(galois_strerror(c)) };
            assert_ne!(s.to_str().unwrap(), "unknown galois return code", "{c}");
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
