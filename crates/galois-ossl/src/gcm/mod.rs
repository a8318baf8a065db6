//! AES-128/192/256-GCM as OpenSSL ciphers: the EVP streaming contract
//! (AAD by `update` with no output, text in pieces of any size, tag by
//! parameter) over galois-aead's on-line `Encryptor` and
//! `UnverifiedDecryptor`, and the TLS 1.2 record path (`tlsaad`,
//! `tlsivfixed`, `tlsivgen`, `tlsivinv`, one `cipher` call per record) over
//! the one-shot `Aead` calls. Every check of IVs, tags and lengths is the
//! library's; this file keeps only what OpenSSL's interface adds.

use crate::cipher::{Cipher, Iv};
use crate::ffi::{self, Param};
use crate::params::{self, fail, Res};
use std::ffi::c_uint;
use zeroize::{Zeroize, Zeroizing};

mod keyed;
mod tls;

use keyed::{Keyed, Message, Stream, AAD_KEEP};

/// OpenSSL's names of AES-GCM (name, alias, OID) and the key length of each:
/// the cipher algorithms, and what GMAC's `cipher` parameter accepts.
pub const NAMES: [(&std::ffi::CStr, usize); 3] = [
    (c"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", 16),
    (c"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", 24),
    (c"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", 32),
];

/// The key length of the AES-GCM named `name` (any of its names, any case).
pub fn keylen_of(name: &[u8]) -> Option<usize> {
    NAMES.iter().find_map(|(names, keylen)| {
        let mut all = names.to_bytes().split(|&b| b == b':');
        all.any(|n| n.eq_ignore_ascii_case(name)).then_some(*keylen)
    })
}

/// The longest GCM tag (and the only one the TLS record path uses).
const TAG_MAX: usize = 16;
/// TLS 1.2 GCM (RFC 5288): 13 bytes of AAD, a 4-byte fixed IV part
/// ("salt") from the key block and an 8-byte explicit part per record,
/// sent in front of the ciphertext, with the tag behind it.
const TLS_AAD_LEN: usize = 13;
const TLS_FIXED_IV_LEN: usize = 4;
const TLS_EXPLICIT_IV_LEN: usize = 8;

/// One cipher context (`EVP_CIPHER_CTX`'s provider side).
pub struct Ctx {
    keylen: usize,
    enc: bool,
    keyed: Option<Keyed>,
    iv: Iv,
    /// Decryption: the expected tag; encryption: the last message's tag.
    tag: [u8; TAG_MAX],
    /// Decryption: the length of the tag set. Encryption: a tag length set
    /// with a NULL tag, reported by `taglen`.
    taglen: Option<usize>,
    tag_ready: bool,
    tls_aad: Option<[u8; TLS_AAD_LEN]>,
    /// `tlsivfixed` was set: the TLS 1.2 IV is fixed part || counter.
    tls_iv: bool,
}

impl Drop for Ctx {
    fn drop(&mut self) {
        self.wipe_message();
    }
}

impl Ctx {
    /// The tag of the last message sealed.
    pub fn sealed_tag(&self) -> Option<&[u8]> {
        (self.enc && self.tag_ready).then_some(&self.tag[..])
    }

    /// Forgets the message in progress (and its tag).
    fn wipe_message(&mut self) {
        if let Some(k) = self.keyed.as_mut() {
            k.end();
        }
        self.tag.zeroize();
        self.taglen = None;
        self.tag_ready = false;
        if let Some(a) = self.tls_aad.as_mut() {
            a.zeroize();
        }
        self.tls_aad = None;
    }

    fn keyed(&mut self) -> Res<&mut Keyed> {
        match self.keyed.as_mut() {
            Some(k) => Ok(k),
            None => fail(ffi::PROV_R_NO_KEY_SET, "galois: no key set"),
        }
    }

    /// The length of the tag a decryption verifies.
    fn tag_len(&self) -> usize {
        self.taglen.unwrap_or(TAG_MAX)
    }

    /// The key and the IV.
    fn keyed_iv(&mut self) -> Res<(&mut Keyed, &[u8])> {
        match self.keyed.as_mut() {
            Some(k) => Ok((k, &self.iv.bytes)),
            None => fail(ffi::PROV_R_NO_KEY_SET, "galois: no key set"),
        }
    }

    /// The message in progress, taken out of the context (a new one if the
    /// IV is fresh).
    fn take_message(&mut self) -> Res<Message> {
        if self.tls_aad.is_some() {
            return fail(
                ffi::PROV_R_CIPHER_OPERATION_FAILED,
                "galois: a TLS record is pending: use EVP_Cipher",
            );
        }
        let iv_ready = self.iv.ready;
        let k = self.keyed_iv()?.0;
        match k.msg.take() {
            Some(m) => Ok(m),
            None if iv_ready => Ok(Message::Aad(k.buffer())),
            None => fail(
                ffi::PROV_R_CIPHER_OPERATION_FAILED,
                "galois: no IV set for this message (each IV is used once)",
            ),
        }
    }

    /// Ends the message in progress (after a failure: the IV is used up).
    fn abandon(&mut self) {
        if let Some(k) = self.keyed.as_mut() {
            k.end();
        }
        self.iv.ready = false;
    }

    fn add_aad(&mut self, aad: &[u8]) -> Res {
        let msg = self.take_message()?;
        let (enc, tag_len) = (self.enc, self.tag_len());
        let (k, iv) = self.keyed_iv()?;
        k.msg = Some(match msg {
            Message::Aad(mut kept) if kept.len() + aad.len() <= AAD_KEEP => {
                kept.extend_from_slice(aad);
                Message::Aad(kept)
            }
            Message::Aad(kept) => {
                let mut s = k.stream(enc, iv, tag_len, &kept)?;
                s.aad(aad)?;
                Message::Stream(s)
            }
            Message::Stream(mut s) => {
                s.aad(aad)?;
                Message::Stream(s)
            }
            Message::Sealed { .. } | Message::Opened => {
                return fail(
                    ffi::PROV_R_CIPHER_OPERATION_FAILED,
                    "galois: additional data must come before the text",
                )
            }
        });
        Ok(())
    }

    fn add_text(&mut self, buf: &mut [u8]) -> Res {
        let msg = self.take_message()?;
        let (enc, tag_len, tag_set) = (self.enc, self.tag_len(), self.taglen.is_some());
        let tag = self.tag;
        let (k, iv) = self.keyed_iv()?;
        k.msg = Some(match msg {
            Message::Aad(aad) if enc => {
                let tag = k.key(TAG_MAX)?.seal_in_place_detached(iv, &aad, buf)?;
                let mut ct = k.buffer();
                ct.extend_from_slice(buf);
                Message::Sealed { aad, ct, tag }
            }
            Message::Aad(aad) if tag_set => {
                let mut ct = k.buffer();
                ct.extend_from_slice(buf);
                let m = match k
                    .key(tag_len)?
                    .open_in_place_detached(iv, &aad, buf, &tag[..tag_len])
                {
                    Ok(()) => Message::Opened,
                    // Not authentic as a whole message, but more ciphertext
                    // may follow: on-line from the start, releasing
                    // unverified plaintext as EVP's contract has it; `final`
                    // decides.
                    Err(galois_aead::Error::AuthenticationFailed) => {
                        buf.copy_from_slice(&ct);
                        let mut s = k.stream(false, iv, tag_len, &aad)?;
                        s.text(buf)?;
                        Message::Stream(s)
                    }
                    Err(e) => return Err(e.into()),
                };
                k.give_back(aad);
                k.give_back(ct);
                m
            }
            Message::Aad(aad) => {
                let mut s = k.stream(enc, iv, tag_len, &aad)?;
                s.text(buf)?;
                Message::Stream(s)
            }
            Message::Sealed { aad, ct, .. } => {
                // More text: on-line from the start. The first piece's
                // plaintext, recovered from its ciphertext, goes through an
                // encryptor again (giving the same ciphertext).
                let mut first = Zeroizing::new(ct);
                k.stream(false, iv, TAG_MAX, &aad)?.text(&mut first)?;
                let mut s = k.stream(true, iv, TAG_MAX, &aad)?;
                s.text(&mut first)?;
                s.text(buf)?;
                Message::Stream(s)
            }
            Message::Opened => {
                return fail(
                    ffi::PROV_R_FAILED_TO_DECRYPT,
                    "galois: authentication failed: more ciphertext after a verified message",
                )
            }
            Message::Stream(mut s) => {
                s.text(buf)?;
                Message::Stream(s)
            }
        });
        Ok(())
    }

    /// `tag`: the expected tag of a decryption, or (no data) a tag length.
    fn set_tag(&mut self, p: &Param) -> Res {
        let tag = params::get_octets(p)?;
        let n = tag.map_or(p.data_size, <[u8]>::len);
        if n == 0 || n > TAG_MAX {
            return fail(
                ffi::PROV_R_INVALID_TAG_LENGTH,
                format!("galois: a tag of {n} bytes"),
            );
        }
        if let Some(t) = tag {
            if self
                .keyed
                .as_ref()
                .is_some_and(|k| matches!(k.msg, Some(Message::Opened)))
            {
                self.abandon();
                return fail(
                    ffi::PROV_R_INVALID_TAG,
                    "galois: the tag cannot change after the ciphertext it verified",
                );
            }
            if self.enc {
                return fail(
                    ffi::PROV_R_INVALID_TAG,
                    "galois: a tag is set for decryption only",
                );
            }
            self.tag[..n].copy_from_slice(t);
        }
        self.taglen = Some(n);
        Ok(())
    }
}

impl Cipher for Ctx {
    const MODE: c_uint = ffi::EVP_CIPH_GCM_MODE;

    fn new(keylen: usize) -> Self {
        Ctx {
            keylen,
            enc: true,
            keyed: None,
            iv: Iv::new(),
            tag: [0; TAG_MAX],
            taglen: None,
            tag_ready: false,
            tls_aad: None,
            tls_iv: false,
        }
    }

    /// `dupctx`: a copy with its own key schedule and a copy of the message
    /// in progress, which both continue independently (an on-line one
    /// through galois-aead's `clone_for` onto the copy's key objects).
    fn dup(&self) -> Res<Self> {
        let tag_len = self.tag_len();
        let keyed = match &self.keyed {
            Some(k) => {
                let mut copy = Keyed::new(&k.raw)?;
                let msg = match &k.msg {
                    None => None,
                    Some(Message::Aad(a)) => Some(Message::Aad(a.clone())),
                    Some(Message::Sealed { aad, ct, tag }) => Some(Message::Sealed {
                        aad: aad.clone(),
                        ct: ct.clone(),
                        tag: *tag,
                    }),
                    Some(Message::Opened) => Some(Message::Opened),
                    Some(Message::Stream(s)) => {
                        Some(Message::Stream(s.copy_onto(&mut copy, tag_len)?))
                    }
                };
                copy.msg = msg;
                Some(copy)
            }
            None => None,
        };
        Ok(Ctx {
            keylen: self.keylen,
            enc: self.enc,
            keyed,
            iv: self.iv.clone(),
            tag: self.tag,
            taglen: self.taglen,
            tag_ready: self.tag_ready,
            tls_aad: self.tls_aad,
            tls_iv: self.tls_iv,
        })
    }

    /// A new `einit`/`dinit` abandons the message in progress.
    fn begin(&mut self, enc: bool) {
        self.wipe_message();
        self.enc = enc;
    }

    fn set_key(&mut self, key: &[u8]) -> Res {
        self.tls_iv = false;
        crate::cipher::rekey(&mut self.keyed, |k| &k.raw, self.keylen, key, Keyed::new)
    }

    fn iv(&mut self) -> &mut Iv {
        &mut self.iv
    }

    /// `update`: a whole TLS 1.2 record when `tlsaad` was set (libssl
    /// sends each record through `EVP_CipherUpdate` or `EVP_Cipher`), else
    /// AAD when `out` is NULL, else text (in place or not). A failure ends
    /// the message.
    fn update(&mut self, out: *mut u8, outsize: usize, input: *const u8, inl: usize) -> Res<usize> {
        if self.tls_aad.is_some() {
            let r = self.tls_record(out, outsize, input, inl);
            self.wipe_message();
            return r;
        }
        if inl == 0 {
            return Ok(0);
        }
        if input.is_null() {
            return fail(ffi::PROV_R_CIPHER_OPERATION_FAILED, "galois: NULL input");
        }
        let r = if out.is_null() {
            // SAFETY: EVP's contract: `input` holds `inl` readable bytes.
            self.add_aad(unsafe { std::slice::from_raw_parts(input, inl) })
        } else {
            params::io_slices(out, outsize, input, inl).and_then(|buf| self.add_text(buf))
        };
        if r.is_err() {
            self.abandon();
        }
        r.map(|()| inl)
    }

    /// `final`: the tag (encryption) or its verification (decryption).
    /// The IV is used up either way.
    fn finish(&mut self) -> Res<usize> {
        let msg = self.take_message();
        self.abandon();
        let msg = msg?;
        let enc = self.enc;
        let Some(n) = (if enc { Some(TAG_MAX) } else { self.taglen }) else {
            return fail(ffi::PROV_R_TAG_NOT_SET, "galois: no tag set for decryption");
        };
        let want = self.tag;
        let (k, iv) = self.keyed_iv()?;
        let tag = match msg {
            Message::Aad(aad) => {
                let r = if enc {
                    k.key(TAG_MAX)?
                        .seal_in_place_detached(iv, &aad, &mut [])
                        .map(Some)
                } else {
                    k.key(n)?
                        .open_in_place_detached(iv, &aad, &mut [], &want[..n])
                        .map(|()| None)
                };
                k.give_back(aad);
                r?
            }
            Message::Sealed { aad, ct, tag } => {
                k.give_back(aad);
                k.give_back(ct);
                Some(tag)
            }
            Message::Opened => None,
            Message::Stream(Stream::Enc(e)) => Some(e.finish()),
            Message::Stream(Stream::Dec(d)) => {
                d.finish(&want[..n])?;
                None
            }
        };
        match tag {
            Some(t) => {
                self.tag.copy_from_slice(t.as_bytes());
                self.tag_ready = true;
                crate::count_seal();
            }
            None => crate::count_open(),
        }
        Ok(0)
    }

    /// A TLS record goes through `update`, but `EVP_Cipher` reports the
    /// whole record's length as OpenSSL's own GCM does (`update` reports the
    /// payload's when decrypting, which is what libssl reads).
    fn cipher(&mut self, out: *mut u8, outsize: usize, input: *const u8, inl: usize) -> Res<usize> {
        if self.tls_aad.is_some() {
            self.update(out, outsize, input, inl).map(|_| inl)
        } else if input.is_null() {
            self.finish()
        } else {
            self.update(out, outsize, input, inl)
        }
    }

    /// `get_ctx_params`.
    ///
    /// # Safety
    /// `params` is NULL or a valid writable `OSSL_PARAM` array.
    unsafe fn get_params(&mut self, params: *mut Param) -> Res {
        // SAFETY (the closure too): the caller's contract; `p` is a writable
        // element of the array.
        unsafe {
            params::write_each(params, |key, p| {
                let size = (*p).data_size;
                Ok(Some(match key {
                    b"ivlen" => params::put_size(p, self.iv.len),
                    b"keylen" => params::put_size(p, self.keylen),
                    b"taglen" => params::put_size(p, self.tag_len()),
                    b"tlsaadpad" if self.tls_aad.is_some() => params::put_size(p, TAG_MAX),
                    b"iv" | b"updated-iv" => {
                        if self.iv.bytes.len() != self.iv.len {
                            return fail(ffi::PROV_R_INVALID_IV_LENGTH, "galois: no IV set");
                        }
                        params::put_octets(p, &self.iv.bytes)
                    }
                    b"tag" => {
                        if !self.enc || !self.tag_ready || size == 0 || size > TAG_MAX {
                            return fail(
                                ffi::PROV_R_INVALID_TAG,
                                "galois: no tag to get (encrypt and finish first; 1 to 16 bytes)",
                            );
                        }
                        params::put_octets(p, &self.tag[..size])
                    }
                    b"tlsivgen" => {
                        // (OpenSSL gives at most the IV; never allocate what the caller claims)
                        let mut out = vec![0u8; size.min(self.iv.bytes.len())];
                        self.tls_next_iv(&mut out)?;
                        params::put_octets(p, &out)
                    }
                    _ => return Ok(None),
                }))
            })
        }
    }

    /// `set_ctx_params`.
    ///
    /// # Safety
    /// `params` is NULL or a valid `OSSL_PARAM` array.
    unsafe fn set_params(&mut self, params: *const Param) -> Res {
        // SAFETY: the caller's contract.
        unsafe {
            params::read_each(params, |key, p| {
                match key {
                    b"ivlen" => self.iv.len = params::get_size(p)?,
                    b"keylen" if params::get_size(p)? != self.keylen => {
                        return fail(
                            ffi::PROV_R_INVALID_KEY_LENGTH,
                            format!("galois: the key length is {}", self.keylen),
                        )
                    }
                    b"tag" => self.set_tag(p)?,
                    b"tlsaad" => self.tls_set_aad(params::get_octets(p)?.unwrap_or_default())?,
                    b"tlsivfixed" => {
                        self.tls_set_fixed_iv(params::get_octets(p)?.unwrap_or_default())?
                    }
                    b"tlsivinv" => {
                        self.tls_set_explicit_iv(params::get_octets(p)?.unwrap_or_default())?
                    }
                    _ => {}
                }
                Ok(())
            })
        }?;
        Ok(())
    }
}

impl params::Lists for Ctx {
    const GETTABLE: ffi::ParamList = ffi::param_list![
        c"keylen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"ivlen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"taglen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"iv" => OSSL_PARAM_OCTET_STRING,
        c"updated-iv" => OSSL_PARAM_OCTET_STRING,
        c"tag" => OSSL_PARAM_OCTET_STRING,
        c"tlsaadpad" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"tlsivgen" => OSSL_PARAM_OCTET_STRING,
    ];
    const SETTABLE: ffi::ParamList = ffi::param_list![
        c"ivlen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"keylen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"tag" => OSSL_PARAM_OCTET_STRING,
        c"tlsaad" => OSSL_PARAM_OCTET_STRING,
        c"tlsivfixed" => OSSL_PARAM_OCTET_STRING,
        c"tlsivinv" => OSSL_PARAM_OCTET_STRING,
    ];
}
