//! Library information and the AES-GCM state API.

use super::*;

pub(crate) fn gcm_options(tag_len: usize, flags: c_uint) -> Result<Options, c_int> {
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

/// `$f(state, key, key_len, tag_len, flags)`: key setup of a `$t` state
/// (`$kind`) with a chosen tag length (16, 12..15 or 8 or 4 with 12-byte
/// nonces only; any of 4..16 with any nonce under
/// [`GALOIS_FLAG_PERMISSIVE`]).
macro_rules! gcm_init_ex {
    ($(#[$m:meta])* $t:ident, $kind:expr => $f:ident) => {
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "C" fn $f(
            state: *mut c_void, key: *const u8, key_len: usize, tag_len: usize, flags: c_uint,
        ) -> c_int {
            // SAFETY: the caller passes a state of the type's statebytes() bytes.
            unsafe {
                init_state(state, $kind, || {
                    let key = input(key, key_len)?;
                    $t::with_options(key, gcm_options(tag_len, flags)?).map_err(code)
                })
            }
        }
    };
}
pub(crate) use gcm_init_ex;

gcm_init_ex! {
    /// AES-GCM key setup with a chosen tag length (16, 12..15 or 8 or 4 with
    /// 12-byte nonces only; any of 4..16 with any nonce under
    /// [`GALOIS_FLAG_PERMISSIVE`]).
    AesGcm, Kind::Gcm => galois_aesgcm_init_ex
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

/// Seal (`open == false`) or open into a caller buffer through an AES-GCM
/// state; on any error `out[0..out_cap)` is zeroed.
///
/// # Safety
/// Pointers, lengths and the state as galois.h documents them.
unsafe fn gcm_appended(state: *const c_void, io: Io, open: bool) -> c_int {
    let st = state_range(state, Kind::Gcm);
    // SAFETY (all blocks): the caller's contract, passed on.
    unsafe {
        zero_on_failure(&[(io.out, io.out_cap)], Some(st), || {
            let g = state_get::<AesGcm>(state, Kind::Gcm)?;
            appended::<AesGcm, _>(&io, g.tag_len(), st, open, || Ok(g))
        })
    }
}

io_fn! {
    /// Encrypts `in` into `out` as ciphertext || tag (`in_len + taglen` bytes).
    /// On any error `out[0..out_cap)` is zeroed ([`wipe_output`]).
    galois_aesgcm_seal(state: *const c_void; io;) {
        // SAFETY: the caller's contract, passed on.
        unsafe { gcm_appended(state, io, false) }
    }
}

io_fn! {
    /// Verifies and decrypts ciphertext || tag from `in` into `out`
    /// (`in_len - taglen` bytes). `out` is written only once the tag verified;
    /// on any error `out[0..out_cap)` is zeroed.
    galois_aesgcm_open(state: *const c_void; io;) {
        // SAFETY: the caller's contract, passed on.
        unsafe { gcm_appended(state, io, true) }
    }
}

/// The frame of a detached call on an AES-GCM state: the state, nonce and
/// associated data (once `tag_len` is the state's tag length) handed to
/// `body` with the ranges no output may overlap (the state's, the nonce's
/// and the associated data's), under [`guard`]; on any error the
/// buffers of `wipe` are zeroed (unless they overlap the state).
///
/// # Safety
/// Pointers, lengths and the state as galois.h documents them; each of
/// `wipe` is NULL or writable for its length.
unsafe fn detached_call(
    state: *const c_void,
    tag_len: usize,
    nonce: Range,
    ad: Range,
    wipe: &[(*mut u8, usize)],
    body: impl FnOnce(&AesGcm, &[u8], &[u8], &[Range; 3]) -> Result<(), c_int>,
) -> c_int {
    let st = state_range(state, Kind::Gcm);
    // What no output may overlap: the state, the nonce and the AAD.
    let fixed = [st, nonce, ad];
    let r = guard(|| {
        // SAFETY (all blocks): the caller's contract, passed on.
        let g = unsafe { state_get::<AesGcm>(state, Kind::Gcm)? };
        if tag_len != g.tag_len() {
            return Err(GALOIS_ERR_TAG_LENGTH);
        }
        let nonce_s = unsafe { input(nonce.0, nonce.1)? };
        let ad_s = unsafe { input(ad.0, ad.1)? };
        body(g, nonce_s, ad_s, &fixed)
    });
    // SAFETY: as the caller promises for `wipe`.
    unsafe { zero_if_failed(r, wipe, Some(st)) }
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
    let wipe = [(out, in_len), (tag, tag_len)];
    let (n, a) = ((nonce, nonce_len), (ad, ad_len));
    // SAFETY (all blocks): as in galois_aesgcm_seal; out has in_len and tag
    // tag_len bytes (contract).
    unsafe {
        detached_call(state, tag_len, n, a, &wipe, |g, nonce_s, ad_s, fixed| {
            no_overlap(out, in_len, fixed)?;
            no_overlap(tag, tag_len, fixed)?;
            no_overlap(tag, tag_len, &[(in_, in_len), (out, in_len)])?;
            if !in_place(in_, out, in_len) {
                no_overlap(out, in_len, &[(in_, in_len)])?;
            }
            check_message(in_len)?;
            let tag_s = output(tag, tag_len)?;
            let mut s = Scratch::copy_of(input(in_, in_len)?)?;
            let t = g
                .seal_in_place_detached(nonce_s, ad_s, s.bytes())
                .map_err(code)?;
            output(out, in_len)?.copy_from_slice(s.bytes());
            tag_s.copy_from_slice(t.as_bytes());
            Ok(())
        })
    }
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
    let (n, a) = ((nonce, nonce_len), (ad, ad_len));
    // SAFETY (all blocks): as in galois_aesgcm_seal; out has in_len bytes
    // (contract).
    unsafe {
        detached_call(
            state,
            tag_len,
            n,
            a,
            &[(out, in_len)],
            |g, nonce_s, ad_s, fixed| {
                let mut tag_b = [0u8; 16];
                tag_b[..tag_len].copy_from_slice(input(tag, tag_len)?);
                no_overlap(out, in_len, fixed)?;
                no_overlap(out, in_len, &[(tag, tag_len)])?;
                if !in_place(in_, out, in_len) {
                    no_overlap(out, in_len, &[(in_, in_len)])?;
                }
                check_message(in_len)?;
                let mut s = Scratch::copy_of(input(in_, in_len)?)?;
                g.open_in_place_detached(nonce_s, ad_s, s.bytes(), &tag_b[..tag_len])
                    .map_err(code)?;
                output(out, in_len)?.copy_from_slice(s.bytes());
                Ok(())
            },
        )
    }
}

aead_keygen!(AesGcm => galois_aesgcm_keygen);

/// Wipes an AES-GCM state (see the header for copies and moved states).
#[no_mangle]
pub unsafe extern "C" fn galois_aesgcm_wipe(state: *mut c_void) -> c_int {
    // SAFETY: a state (contract); the body does not panic but is guarded.
    unsafe { wipe_guarded(state, Kind::Gcm) }
}
