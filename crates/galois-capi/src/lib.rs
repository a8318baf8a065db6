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
//! # Layout
//!
//! * this file: return codes, the library-error mapping (`code`), `guard`;
//! * `buffers`: caller pointers to slices, overlap checks, private scratch,
//!   and `zero_if_failed`, the one wipe of a failed call's outputs;
//! * `state`: caller-allocated states and the live table;
//! * `aead`: seal and open into a caller buffer written once over
//!   `galois_aead::Aead`, key generation over `AeadInit::KEY_LENS`, and the
//!   one-shot AEADs (one macro line each);
//! * `gcm`: library information and the AES-GCM state API;
//! * `mac`: AES-GMAC, Poly1305-AES, one-time Poly1305;
//! * `chunked`: Cobblestone whole-message and streaming.
//!
//! `scripts/check-c-header.py` (run by `scripts/test-c.sh`) checks that
//! every exported function is declared in the header with the same types.
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
pub(crate) fn code(e: Error) -> c_int {
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
        // No C function selects a backend or options, counts uses, or runs
        // a stream, the packet layer or IV-reuse tracking: these cannot come
        // back through this API, so one that does is a bug.
        Error::BackendUnavailable { .. }
        | Error::UnsupportedOption { .. }
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
pub(crate) fn guard(f: impl FnOnce() -> Result<(), c_int>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => GALOIS_OK,
        Ok(Err(c)) => c,
        Err(_) => GALOIS_ERR_INTERNAL,
    }
}

/// An input slice: NULL is allowed only with length 0.
mod aead;
mod buffers;
mod chunked;
mod gcm;
mod mac;
mod state;
#[cfg(test)]
mod tests;

use aead::*;
use buffers::*;
use chunked::*;
use gcm::*;
use state::*;
