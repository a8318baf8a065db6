//! AES-128/192/256-GCM-SIV (RFC 8452) as OpenSSL ciphers, with the names
//! and the interface OpenSSL 3.2 gave them: AAD by `update` with no output,
//! the text in ONE `update` (a SIV needs the whole message before its first
//! output byte), the tag by parameter, set before the ciphertext when
//! decrypting (it is the counter's start). Each text piece is one call of the
//! library's `Aead` (`seal_in_place_detached` / `open_in_place_detached`):
//! decryption releases plaintext only once the tag verified; a failure wipes
//! the output and fails that `update` and the `final` after it.

use crate::cipher::{Cipher, Iv};
use crate::ffi::{self, Param};
use crate::params::{self, fail, Res};
use galois_aead::{AeadInit, AesGcmSiv};
use std::ffi::c_uint;
use zeroize::{Zeroize, Zeroizing};

const TAG_LEN: usize = 16;

/// `EVP_CIPH_GCM_SIV_MODE` (OpenSSL 3.2's evp.h).
const EVP_CIPH_GCM_SIV_MODE: c_uint = 0x10005;

/// The state of the message under the current IV.
#[derive(Clone, Copy, PartialEq)]
enum State {
    /// AAD may come, then the text.
    Open,
    /// The text went through (sealed, or opened and verified).
    Done,
    /// Opening failed: `final` fails.
    Failed,
}

pub struct SivCtx {
    keylen: usize,
    enc: bool,
    key: Option<(AesGcmSiv, Zeroizing<Vec<u8>>)>,
    iv: Iv,
    aad: Vec<u8>,
    state: State,
    /// Decryption: the tag set; encryption: the tag made. Wiped on drop.
    tag: Zeroizing<[u8; TAG_LEN]>,
    tag_set: bool,
    tag_ready: bool,
}

impl SivCtx {
    fn key(&self) -> Res<&AesGcmSiv> {
        match &self.key {
            Some((k, _)) => Ok(k),
            None => fail(ffi::PROV_R_NO_KEY_SET, "galois: no key set"),
        }
    }

    /// The text of the message, in place: sealed, or opened if the tag set
    /// verifies.
    fn text(&mut self, buf: &mut [u8]) -> Res {
        if !self.iv.ready || self.state != State::Open {
            return fail(
                ffi::PROV_R_CIPHER_OPERATION_FAILED,
                "galois: AES-GCM-SIV takes the text in one update per IV",
            );
        }
        if self.enc {
            let tag = self
                .key()?
                .seal_in_place_detached(&self.iv.bytes, &self.aad, buf)?;
            self.tag.copy_from_slice(tag.as_bytes());
            self.tag_ready = true;
        } else {
            if !self.tag_set {
                return fail(
                    ffi::PROV_R_TAG_NOT_SET,
                    "galois: AES-GCM-SIV needs the tag before the ciphertext",
                );
            }
            self.state = State::Failed;
            // On failure the library wipes `buf`: nothing unverified leaves.
            self.key()?
                .open_in_place_detached(&self.iv.bytes, &self.aad, buf, &self.tag[..])?;
        }
        self.state = State::Done;
        Ok(())
    }
}

impl Cipher for SivCtx {
    const MODE: c_uint = EVP_CIPH_GCM_SIV_MODE;

    fn new(keylen: usize) -> Self {
        SivCtx {
            keylen,
            enc: true,
            key: None,
            iv: Iv::new(),
            aad: Vec::new(),
            state: State::Open,
            tag: Zeroizing::new([0; TAG_LEN]),
            tag_set: false,
            tag_ready: false,
        }
    }

    fn dup(&self) -> Res<Self> {
        let key = match &self.key {
            Some((_, raw)) => Some((AesGcmSiv::new(raw)?, raw.clone())),
            None => None,
        };
        Ok(SivCtx {
            keylen: self.keylen,
            enc: self.enc,
            key,
            iv: self.iv.clone(),
            aad: self.aad.clone(),
            state: self.state,
            tag: self.tag.clone(),
            tag_set: self.tag_set,
            tag_ready: self.tag_ready,
        })
    }

    fn begin(&mut self, enc: bool) {
        self.enc = enc;
        self.aad.clear();
        self.state = State::Open;
        self.tag.zeroize();
        (self.tag_set, self.tag_ready) = (false, false);
    }

    fn set_key(&mut self, key: &[u8]) -> Res {
        crate::cipher::rekey(
            &mut self.key,
            |(_, raw)| raw,
            self.keylen,
            key,
            |k| Ok((<AesGcmSiv as AeadInit>::new(k)?, Zeroizing::new(k.to_vec()))),
        )
    }

    fn iv(&mut self) -> &mut Iv {
        &mut self.iv
    }

    fn update(&mut self, out: *mut u8, outsize: usize, input: *const u8, inl: usize) -> Res<usize> {
        if inl == 0 {
            return Ok(0);
        }
        if out.is_null() {
            if input.is_null() || self.state != State::Open {
                return fail(
                    ffi::PROV_R_CIPHER_OPERATION_FAILED,
                    "galois: additional data must come before the text",
                );
            }
            // SAFETY: EVP's contract: `input` holds `inl` readable bytes.
            self.aad
                .extend_from_slice(unsafe { std::slice::from_raw_parts(input, inl) });
            return Ok(inl);
        }
        let buf = params::io_slices(out, outsize, input, inl)?;
        self.text(buf)?;
        Ok(inl)
    }

    fn finish(&mut self) -> Res<usize> {
        if self.state == State::Open {
            self.text(&mut [])?;
        }
        let done = self.state == State::Done && self.iv.ready;
        self.iv.ready = false;
        self.state = State::Failed;
        if !done {
            return fail(
                ffi::PROV_R_FAILED_TO_DECRYPT,
                "galois: no message to finish (failed, or the IV is used up)",
            );
        }
        if self.enc {
            crate::count_seal();
        } else {
            crate::count_open();
        }
        Ok(0)
    }

    unsafe fn get_params(&mut self, params: *mut Param) -> Res {
        // SAFETY (the closure too): the caller's contract; `p` is a writable
        // element of the array.
        unsafe {
            params::write_each(params, |key, p| {
                Ok(Some(match key {
                    b"ivlen" => params::put_size(p, self.iv.len),
                    b"keylen" => params::put_size(p, self.keylen),
                    b"taglen" => params::put_size(p, TAG_LEN),
                    b"tag" => {
                        if !self.enc || !self.tag_ready || (*p).data_size != TAG_LEN {
                            return fail(
                                ffi::PROV_R_INVALID_TAG,
                                "galois: no tag to get (encrypt first; 16 bytes)",
                            );
                        }
                        params::put_octets(p, &self.tag[..])
                    }
                    _ => return Ok(None),
                }))
            })
        }
    }

    unsafe fn set_params(&mut self, params: *const Param) -> Res {
        // SAFETY: the caller's contract.
        unsafe {
            params::read_each(params, |key, p| {
                match key {
                b"keylen" if params::get_size(p)? != self.keylen => {
                    return fail(
                        ffi::PROV_R_INVALID_KEY_LENGTH,
                        format!("galois: the key length is {}", self.keylen),
                    )
                }
                b"ivlen" => self.iv.len = params::get_size(p)?,
                b"tag" => match params::get_octets(p)? {
                    Some(t) if !self.enc && t.len() == TAG_LEN && self.state == State::Open => {
                        self.tag.copy_from_slice(t);
                        self.tag_set = true;
                    }
                    None if p.data_size == TAG_LEN => {}
                    _ => return fail(
                        ffi::PROV_R_INVALID_TAG,
                        "galois: AES-GCM-SIV takes a 16-byte tag, when decrypting, before the text",
                    ),
                },
                _ => {}
            }
                Ok(())
            })
        }?;
        Ok(())
    }
}

impl params::Lists for SivCtx {
    const GETTABLE: ffi::ParamList = ffi::param_list![
        c"keylen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"ivlen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"taglen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"tag" => OSSL_PARAM_OCTET_STRING,
    ];
    const SETTABLE: ffi::ParamList = ffi::param_list![
        c"ivlen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"keylen" => OSSL_PARAM_UNSIGNED_INTEGER,
        c"tag" => OSSL_PARAM_OCTET_STRING,
    ];
}
