//! GMAC as an `EVP_MAC` (OpenSSL's `GMAC`): AES-GCM over the message as AAD
//! with no text, run by the cipher context of [`crate::gcm`], so its rules
//! hold here too (each IV authenticates one message; key objects wiped on
//! free and on a new key).

use crate::cipher::Cipher;
use crate::ffi::{self, Param};
use crate::gcm::{self, Ctx};
use crate::params::{self, fail, Res};
use std::ffi::{c_int, c_void};

/// GMAC's tag length.
const SIZE: usize = 16;

/// A GMAC context: the AES-GCM context of the cipher its `cipher`
/// parameter names.
pub struct Mac {
    gcm: Option<Ctx>,
}

impl Mac {
    fn gcm(&mut self) -> Res<&mut Ctx> {
        match self.gcm.as_mut() {
            Some(c) => Ok(c),
            None => fail(
                ffi::PROV_R_NO_KEY_SET,
                "galois: GMAC needs its cipher parameter (AES-128-GCM, AES-192-GCM or AES-256-GCM)",
            ),
        }
    }

    /// `cipher`, then `key`, then `iv`, whatever their order in the array
    /// (`properties` names the implementation of the cipher: this one).
    ///
    /// # Safety
    /// `params` is NULL or a valid `OSSL_PARAM` array.
    unsafe fn set_params(&mut self, params: *const Param) -> Res {
        let (mut cipher, mut key, mut iv) = (None, None, None);
        // SAFETY: the caller's contract.
        unsafe {
            params::read_each(params, |k, p| {
                match k {
                    b"cipher" => cipher = Some(params::get_utf8(p)?),
                    b"key" => key = params::get_octets(p)?,
                    b"iv" => iv = params::get_octets(p)?,
                    _ => {}
                }
                Ok(())
            })
        }?;
        if let Some(name) = cipher {
            let Some(keylen) = gcm::keylen_of(name) else {
                return fail(
                    ffi::PROV_R_FAILED_TO_SET_PARAMETER,
                    format!("galois: no GMAC over {}", String::from_utf8_lossy(name)),
                );
            };
            self.gcm = Some(Ctx::new(keylen));
        }
        let none = std::ptr::null();
        if let Some(key) = key {
            // SAFETY: no parameter array (NULL).
            unsafe { self.gcm()?.init(true, Some(key), None, none) }?;
        }
        if let Some(iv) = iv {
            // SAFETY: as above.
            unsafe { self.gcm()?.init(true, None, Some(iv), none) }?;
        }
        Ok(())
    }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn newctx(_provctx: *mut c_void) -> *mut c_void {
    params::entry(std::ptr::null_mut(), || {
        Ok(params::boxed(Mac { gcm: None }))
    })
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn dupctx(vctx: *mut c_void) -> *mut c_void {
    params::entry(std::ptr::null_mut(), || {
        // SAFETY: OpenSSL passes a live context.
        let m = unsafe { params::object::<Mac>(vctx) }?;
        let gcm = m.gcm.as_ref().map(Ctx::dup).transpose()?;
        Ok(params::boxed(Mac { gcm }))
    })
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn init(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    params: *const Param,
) -> c_int {
    // SAFETY: OpenSSL's contract: a live context, `key` NULL or of
    // `keylen` bytes, `params` NULL or a valid array.
    unsafe {
        params::with_object(vctx, |m: &mut Mac| {
            m.set_params(params)?;
            if let Some(key) = params::bytes(key, keylen) {
                m.gcm()?.init(true, Some(key), None, std::ptr::null())?;
            }
            Ok(())
        })
    }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn update(vctx: *mut c_void, input: *const u8, inl: usize) -> c_int {
    // SAFETY: a live context; `input` holds `inl` bytes (OpenSSL's
    // contract), taken as AAD (no output).
    unsafe {
        params::with_object(vctx, |m: &mut Mac| {
            m.gcm()?.update(std::ptr::null_mut(), 0, input, inl)?;
            Ok(())
        })
    }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn final_(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
) -> c_int {
    params::entry(0, || {
        // SAFETY: OpenSSL passes a live context.
        let c = unsafe { params::object::<Mac>(vctx) }?.gcm()?;
        if out.is_null() || outsize < SIZE {
            return fail(
                ffi::PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                "galois: GMAC gives 16 bytes",
            );
        }
        c.finish()?;
        let Some(tag) = c.sealed_tag() else {
            return fail(ffi::PROV_R_CIPHER_OPERATION_FAILED, "galois: no tag");
        };
        // SAFETY: `out` has `outsize >= 16` writable bytes and `outl` is
        // writable (OpenSSL's contract).
        unsafe {
            std::ptr::copy_nonoverlapping(tag.as_ptr(), out, SIZE);
            if !outl.is_null() {
                *outl = SIZE;
            }
        }
        Ok(1)
    })
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn get_ctx_params(_vctx: *mut c_void, params: *mut Param) -> c_int {
    params::entry(0, || {
        // SAFETY: OpenSSL passes a valid writable array.
        unsafe { params::set_size(params, c"size", SIZE) }?;
        Ok(1)
    })
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn set_ctx_params(vctx: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: a live context and a valid array (OpenSSL's contract).
    unsafe { params::with_object(vctx, |m: &mut Mac| m.set_params(params)) }
}

impl params::Lists for Mac {
    const GETTABLE: ffi::ParamList = ffi::param_list![c"size" => OSSL_PARAM_UNSIGNED_INTEGER];
    const SETTABLE: ffi::ParamList = ffi::param_list![
        c"cipher" => OSSL_PARAM_UTF8_STRING,
        c"properties" => OSSL_PARAM_UTF8_STRING,
        c"key" => OSSL_PARAM_OCTET_STRING,
        c"iv" => OSSL_PARAM_OCTET_STRING,
    ];
}
