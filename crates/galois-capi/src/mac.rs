//! AES-GMAC, Poly1305-AES and one-time Poly1305.

use super::*;

// ---------------------------------------------------------------------------
// The MACs with a state: one authenticate and one verify over both
// ---------------------------------------------------------------------------

/// AES-GMAC and Poly1305-AES, seen alike by their C functions.
pub(crate) trait StateMac {
    const KIND: Kind;
    /// The tag length authenticate writes.
    fn tag_len(&self) -> usize;
    /// The tag length verify requires before reading anything
    /// ([`GALOIS_ERR_TAG_LENGTH`] otherwise), or `None` to leave that to
    /// the MAC.
    fn verify_tag_len(&self) -> Option<usize>;
    fn tag_into(&self, nonce: &[u8], msg: &[u8], out: &mut [u8]) -> Result<(), Error>;
    fn check(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error>;
}

impl StateMac for AesGmac {
    const KIND: Kind = Kind::Gmac;
    fn tag_len(&self) -> usize {
        self.gcm().tag_len()
    }
    fn verify_tag_len(&self) -> Option<usize> {
        Some(self.gcm().tag_len())
    }
    fn tag_into(&self, nonce: &[u8], msg: &[u8], out: &mut [u8]) -> Result<(), Error> {
        out.copy_from_slice(self.authenticate(nonce, msg)?.as_bytes());
        Ok(())
    }
    fn check(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.verify(nonce, msg, tag)
    }
}

impl StateMac for Poly1305Aes {
    const KIND: Kind = Kind::Poly;
    fn tag_len(&self) -> usize {
        GALOIS_POLY1305AES_TAGBYTES
    }
    fn verify_tag_len(&self) -> Option<usize> {
        None
    }
    fn tag_into(&self, nonce: &[u8], msg: &[u8], out: &mut [u8]) -> Result<(), Error> {
        out.copy_from_slice(&self.authenticate(nonce, msg)?);
        Ok(())
    }
    fn check(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.verify(nonce, msg, tag)
    }
}

/// The authenticate and verify functions of the [`StateMac`] `$t`: the
/// tag of `msg` under `nonce` written to `tag` (`tag_len` must be the
/// state's tag length; on any error `tag[0..tag_len)` is zeroed), and the
/// tag checked in constant time ([`GALOIS_OK`] or [`GALOIS_ERR_AUTH`]).
macro_rules! mac_fns {
    ($t:ty; $(#[$am:meta])* $auth:ident; $(#[$vm:meta])* $verify:ident;) => {
        $(#[$am])*
        #[no_mangle]
        pub unsafe extern "C" fn $auth(
            state: *const c_void, tag: *mut u8, tag_len: usize,
            nonce: *const u8, nonce_len: usize, msg: *const u8, msg_len: usize,
        ) -> c_int {
            let st = state_range(state, <$t>::KIND);
            let r = guard(|| {
                // SAFETY (all blocks): as in galois_aesgcm_seal.
                let m = unsafe { state_get::<$t>(state, <$t>::KIND)? };
                if tag_len != StateMac::tag_len(m) {
                    return Err(GALOIS_ERR_TAG_LENGTH);
                }
                let nonce_s = unsafe { input(nonce, nonce_len)? };
                let msg_s = unsafe { input(msg, msg_len)? };
                no_overlap(tag, tag_len, &[st, (nonce, nonce_len), (msg, msg_len)])?;
                let tag_s = unsafe { output(tag, tag_len)? };
                m.tag_into(nonce_s, msg_s, tag_s).map_err(code)
            });
            // SAFETY: tag has tag_len bytes (contract).
            unsafe { zero_if_failed(r, &[(tag, tag_len)], Some(st)) }
        }

        $(#[$vm])*
        #[no_mangle]
        pub unsafe extern "C" fn $verify(
            state: *const c_void, tag: *const u8, tag_len: usize, nonce: *const u8, nonce_len: usize, msg: *const u8, msg_len: usize,
        ) -> c_int {
            guard(|| {
                // SAFETY (all blocks): as in galois_aesgcm_seal.
                let m = unsafe { state_get::<$t>(state, <$t>::KIND)? };
                if m.verify_tag_len().is_some_and(|t| t != tag_len) {
                    return Err(GALOIS_ERR_TAG_LENGTH);
                }
                let nonce_s = unsafe { input(nonce, nonce_len)? };
                let msg_s = unsafe { input(msg, msg_len)? };
                let tag_s = unsafe { input(tag, tag_len)? };
                m.check(nonce_s, msg_s, tag_s).map_err(code)
            })
        }
    };
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

gcm_init_ex! {
    /// AES-GMAC key setup with a chosen tag length (as `galois_aesgcm_init_ex`).
    AesGmac, Kind::Gmac => galois_gmac_init_ex
}

mac_fns! {
    AesGmac;
    /// Writes the GMAC tag of `msg` under `nonce` to `tag` (`tag_len` must equal
    /// the state's tag length); on any error `tag[0..tag_len)` is zeroed.
    galois_gmac_authenticate;
    /// Checks a GMAC tag in constant time: [`GALOIS_OK`] or [`GALOIS_ERR_AUTH`].
    galois_gmac_verify;
}

/// Wipes a GMAC state (see the header for copies and moved states).
#[no_mangle]
pub unsafe extern "C" fn galois_gmac_wipe(state: *mut c_void) -> c_int {
    // SAFETY: a state (contract).
    unsafe { wipe_guarded(state, Kind::Gmac) }
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
    // SAFETY: as above.
    unsafe { zero_if_failed(r, &[(key, key_len)], None) }
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

mac_fns! {
    Poly1305Aes;
    /// Writes the 16-byte tag of `msg` under the 16-byte `nonce` to `tag`; on
    /// any error `tag[0..tag_len)` is zeroed.
    galois_poly1305aes_authenticate;
    /// Checks a Poly1305-AES tag in constant time: [`GALOIS_OK`] or
    /// [`GALOIS_ERR_AUTH`].
    galois_poly1305aes_verify;
}

/// Wipes a Poly1305-AES state (see the header for copies and moved states).
#[no_mangle]
pub unsafe extern "C" fn galois_poly1305aes_wipe(state: *mut c_void) -> c_int {
    // SAFETY: a state (contract).
    unsafe { wipe_guarded(state, Kind::Poly) }
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
    // SAFETY: tag has tag_len bytes (contract).
    unsafe { zero_if_failed(r, &[(tag, tag_len)], None) }
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
