//! The one-shot AEADs (key given with every call), over `galois_aead::AeadInit`.

use super::*;

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
pub(crate) unsafe fn oneshot_seal(
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
pub(crate) unsafe fn oneshot_open(
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
pub(crate) fn seal_with<A: galois_aead::AeadInit>(
    key: &[u8],
    nonce: &[u8],
    ad: &[u8],
    buf: &mut [u8],
) -> galois_aead::Result<galois_aead::Tag> {
    A::new(key)?.seal_in_place_detached(nonce, ad, buf)
}

/// The one-shot open of any AEAD of the library (see [`seal_with`]).
pub(crate) fn open_with<A: galois_aead::AeadInit>(
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
