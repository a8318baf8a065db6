//! Sealing and opening into caller buffers, written once over
//! `galois_aead::Aead` (the AES-GCM state API and the one-shot AEADs use
//! the same two functions), and the one-shot AEADs themselves: AES-GCM-SIV
//! (RFC 8452) and XAES-256-GCM (C2SP), the key given with every call (both
//! derive per-message keys anyway), each instantiated by one macro line.

use super::*;
use core::borrow::Borrow;
use galois_aead::{Aead, AeadInit, AesGcmSiv, XAes256Gcm};

/// The buffers of one seal or open into a caller buffer, as the C caller
/// gave them: output (capacity, and where its length is reported), input
/// message, associated data, nonce.
pub(crate) struct Io {
    pub(crate) out: *mut u8,
    pub(crate) out_cap: usize,
    pub(crate) out_len: *mut usize,
    pub(crate) in_: *const u8,
    pub(crate) in_len: usize,
    pub(crate) ad: *const u8,
    pub(crate) ad_len: usize,
    pub(crate) nonce: *const u8,
    pub(crate) nonce_len: usize,
}

/// Whether `out` works in place on `in_` (the same pointer, bytes to do).
pub(crate) fn in_place(in_: *const u8, out: *const u8, len: usize) -> bool {
    len > 0 && ptr::eq(in_, out)
}

/// Runs `f` under [`guard`] and [`zero_if_failed`].
///
/// # Safety
/// Each of `outs` is NULL or has its length in writable bytes.
pub(crate) unsafe fn zero_on_failure(
    outs: &[(*mut u8, usize)],
    state: Option<Range>,
    f: impl FnOnce() -> Result<(), c_int>,
) -> c_int {
    // SAFETY: the caller's contract, passed on.
    unsafe { zero_if_failed(guard(f), outs, state) }
}

impl Io {
    /// The output's required length is `need`: reports it, refuses a short
    /// output, and returns the nonce and associated data, refusing an
    /// output that overlaps them, `other` (the state or the key) or the
    /// message (unless exactly in place).
    ///
    /// # Safety
    /// Pointers and lengths as galois.h documents them.
    unsafe fn prepare(
        &self,
        need: usize,
        msg_len: usize,
        other: Range,
    ) -> Result<(&[u8], &[u8]), c_int> {
        let call = [
            other,
            (self.out as *const u8, self.out_cap),
            (self.in_, self.in_len),
            (self.ad, self.ad_len),
            (self.nonce, self.nonce_len),
        ];
        // SAFETY (all blocks): the caller's contract, passed on.
        unsafe { need_out(self.out_len, self.out_cap, need, &call)? };
        let nonce = unsafe { input(self.nonce, self.nonce_len)? };
        let ad = unsafe { input(self.ad, self.ad_len)? };
        no_overlap(
            self.out,
            need,
            &[other, (self.ad, self.ad_len), (self.nonce, self.nonce_len)],
        )?;
        if !in_place(self.in_, self.out, msg_len) {
            no_overlap(self.out, need, &[(self.in_, self.in_len)])?;
        }
        check_message(msg_len)?;
        Ok((nonce, ad))
    }
}

/// Seals `io.in` into `io.out` as ciphertext || tag (`t` bytes), or (if
/// `open`) verifies and decrypts ciphertext || tag from `io.in` into
/// `io.out`, written only once the tag verified; through private memory,
/// with the AEAD `aead` yields (called after every check of the buffers);
/// `other` is the state or key the output must not overlap. The caller runs
/// it under [`zero_on_failure`].
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
pub(crate) unsafe fn appended<A: Aead, G: Borrow<A>>(
    io: &Io,
    t: usize,
    other: Range,
    open: bool,
    aead: impl FnOnce() -> Result<G, c_int>,
) -> Result<(), c_int> {
    let (need, msg_len) = if open {
        let n = io.in_len.checked_sub(t).ok_or(GALOIS_ERR_INPUT_TOO_SHORT)?;
        (n, n)
    } else {
        let n = io.in_len.checked_add(t).ok_or(GALOIS_ERR_TOO_LONG)?;
        (n, io.in_len)
    };
    // SAFETY (all blocks): the caller's contract, passed on; the output is
    // written only after the overlap checks.
    let (nonce, ad) = unsafe { io.prepare(need, msg_len, other)? };
    // The message and a received tag are read once, into private memory.
    let mut tag = [0u8; 16];
    let mut s = {
        let c = unsafe { input(io.in_, io.in_len)? };
        if open {
            tag[..t].copy_from_slice(&c[msg_len..]);
        }
        Scratch::copy_of(&c[..msg_len])?
    };
    let g = aead()?;
    let a = g.borrow();
    if open {
        a.open_in_place_detached(nonce, ad, s.bytes(), &tag[..t])
            .map_err(code)?;
        unsafe { output(io.out, need)? }.copy_from_slice(s.bytes());
    } else {
        let tag = a
            .seal_in_place_detached(nonce, ad, s.bytes())
            .map_err(code)?;
        let o = unsafe { output(io.out, need)? };
        o[..msg_len].copy_from_slice(s.bytes());
        o[msg_len..].copy_from_slice(tag.as_bytes());
    }
    Ok(())
}

/// Writes a fresh random key of `key_len` bytes, one of `A::KEY_LENS`.
///
/// # Safety
/// `key` is NULL or has `key_len` writable bytes.
pub(crate) unsafe fn keygen<A: AeadInit>(key: *mut u8, key_len: usize) -> c_int {
    // SAFETY (both blocks): key_len writable bytes (contract).
    unsafe {
        zero_on_failure(&[(key, key_len)], None, || {
            if !A::KEY_LENS.contains(&key_len) {
                return Err(GALOIS_ERR_KEY_LENGTH);
            }
            getrandom::fill(output(key, key_len)?).map_err(|_| GALOIS_ERR_RANDOM)
        })
    }
}

/// The AES-GCM tag length of the one-shot AEADs.
const ONESHOT_TAG: usize = 16;

/// The one-shot seal (`open == false`) or open of the AEAD `A` with the
/// key given: on any error `out[0..out_cap)` is zeroed.
///
/// # Safety
/// Pointers and lengths as galois.h documents them.
pub(crate) unsafe fn oneshot<A: AeadInit>(
    io: Io,
    key: *const u8,
    key_len: usize,
    open: bool,
) -> c_int {
    let new = || {
        // SAFETY: key_len readable bytes (contract).
        A::new(unsafe { input(key, key_len)? }).map_err(code)
    };
    let k = (key, key_len);
    // SAFETY (all blocks): the caller's contract, passed on.
    unsafe {
        zero_on_failure(&[(io.out, io.out_cap)], None, || {
            appended::<A, A>(&io, ONESHOT_TAG, k, open, new)
        })
    }
}

/// An `extern "C"` seal or open into a caller buffer: the parameters before
/// the buffers (`$b`), then the output, message, associated data and nonce
/// (gathered into the [`Io`] named `$io`), then those after (`$a`); `$body`
/// uses them.
macro_rules! io_fn {
    ($(#[$m:meta])* $f:ident($($b:ident: $bt:ty),*; $io:ident; $($a:ident: $at:ty),*) $body:block) => {
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "C" fn $f(
            $($b: $bt,)*
            out: *mut u8, out_cap: usize, out_len: *mut usize,
            in_: *const u8, in_len: usize,
            ad: *const u8, ad_len: usize,
            nonce: *const u8, nonce_len: usize,
            $($a: $at,)*
        ) -> c_int {
            let $io = $crate::aead::Io { out, out_cap, out_len, in_, in_len, ad, ad_len, nonce, nonce_len };
            $body
        }
    };
}
pub(crate) use io_fn;

/// `galois_<name>_keygen` for the AEAD `$aead`.
macro_rules! aead_keygen {
    ($aead:ty => $keygen:ident) => {
        /// Writes a fresh random key of `key_len` bytes (one of the AEAD's
        /// key lengths) to `key`; on any error `key[0..key_len)` is zeroed.
        ///
        /// # Safety
        /// Pointers and lengths as galois.h documents them.
        #[no_mangle]
        pub unsafe extern "C" fn $keygen(key: *mut u8, key_len: usize) -> c_int {
            // SAFETY: the caller's contract, passed on.
            unsafe { $crate::aead::keygen::<$aead>(key, key_len) }
        }
    };
}
pub(crate) use aead_keygen;

/// The one-shot seal, open and keygen of the AEAD `$aead`.
macro_rules! aead_oneshot {
    ($aead:ty => $seal:ident, $open:ident, $keygen:ident) => {
        aead_oneshot!(@one $aead, $seal, false, "Encrypts `in` into `out` as ciphertext || 16-byte tag.");
        aead_oneshot!(@one $aead, $open, true, "Verifies and decrypts ciphertext || 16-byte tag into `out`.");
        aead_keygen!($aead => $keygen);
    };
    (@one $aead:ty, $f:ident, $open:expr, $doc:literal) => {
        io_fn! {
            #[doc = $doc]
            /// On any error `out[0..out_cap)` is zeroed.
            ///
            /// # Safety
            /// Pointers and lengths as galois.h documents them.
            $f(; io; key: *const u8, key_len: usize) {
                // SAFETY: the caller's contract, passed on.
                unsafe { oneshot::<$aead>(io, key, key_len, $open) }
            }
        }
    };
}

aead_oneshot!(AesGcmSiv => galois_aesgcmsiv_seal, galois_aesgcmsiv_open, galois_aesgcmsiv_keygen);
aead_oneshot!(XAes256Gcm => galois_xaes256gcm_seal, galois_xaes256gcm_open, galois_xaes256gcm_keygen);
