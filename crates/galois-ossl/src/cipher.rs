//! The cipher entry points of every AEAD of this provider, generic over
//! [`Cipher`]: each runs its body under [`params::entry`] (no panic crosses
//! into C; failures go on OpenSSL's error stack).

use crate::ffi::{self, Param};
use crate::params::{self, Res};
use std::ffi::{c_int, c_uint, c_void};
use zeroize::Zeroizing;

/// The default IV length of every cipher here.
pub const DEFAULT_IVLEN: usize = 12;

/// Sets the key of a context: unless `key` is the key `slot` holds (its
/// bytes by `raw_of`, compared in constant time; a common way to start each
/// message, which then needs no new key schedule), the old key objects are
/// dropped (and so wiped) and `make` builds new ones; a key of another
/// length than the cipher's is refused.
pub fn rekey<K>(
    slot: &mut Option<K>,
    raw_of: impl Fn(&K) -> &[u8],
    keylen: usize,
    key: &[u8],
    make: impl FnOnce(&[u8]) -> Res<K>,
) -> Res {
    if slot
        .as_ref()
        .is_some_and(|k| params::same_key(raw_of(k), key))
    {
        return Ok(());
    }
    *slot = None;
    if key.len() != keylen {
        return params::fail(
            ffi::PROV_R_INVALID_KEY_LENGTH,
            format!(
                "galois: this cipher takes a {keylen}-byte key, not {}",
                key.len()
            ),
        );
    }
    *slot = Some(make(key)?);
    Ok(())
}

/// The IV of a cipher context. Wiped on drop.
#[derive(Clone)]
pub struct Iv {
    /// The IV length (the `ivlen` parameter).
    pub len: usize,
    /// The IV of the next (or the last) message, `len` bytes once set.
    pub bytes: Zeroizing<Vec<u8>>,
    /// An IV is set and no message has ended under it.
    pub ready: bool,
}

impl Iv {
    pub fn new() -> Self {
        Iv {
            len: DEFAULT_IVLEN,
            bytes: Zeroizing::new(Vec::new()),
            ready: false,
        }
    }

    /// A new IV (its length becomes the IV length) for the next message.
    pub fn set(&mut self, iv: &[u8]) {
        self.bytes.clear();
        self.bytes.extend_from_slice(iv);
        self.len = iv.len();
        self.ready = true;
    }
}

/// One cipher context type (`EVP_CIPHER_CTX`'s provider side).
pub trait Cipher: Sized + params::Lists {
    /// `EVP_CIPH_*_MODE`, what `EVP_CIPHER_get_mode` reports.
    const MODE: c_uint;
    fn new(keylen: usize) -> Self;
    /// `dupctx`.
    fn dup(&self) -> Res<Self>;
    /// The start of `einit`/`dinit`: the message in progress is abandoned;
    /// `enc` is the direction from now on.
    fn begin(&mut self, enc: bool);
    /// A new key (through [`rekey`]: the old key objects wiped).
    fn set_key(&mut self, key: &[u8]) -> Res;
    /// The context's IV.
    fn iv(&mut self) -> &mut Iv;
    /// `einit`/`dinit`: the message in progress abandoned, a new key and/or
    /// IV, then `params`.
    ///
    /// # Safety
    /// `params` is NULL or a valid `OSSL_PARAM` array.
    unsafe fn init(
        &mut self,
        enc: bool,
        key: Option<&[u8]>,
        iv: Option<&[u8]>,
        params: *const Param,
    ) -> Res {
        self.begin(enc);
        if let Some(key) = key {
            self.set_key(key)?;
        }
        if let Some(iv) = iv {
            self.iv().set(iv);
        }
        // SAFETY: the caller's contract.
        unsafe { self.set_params(params) }
    }
    /// `update`: AAD when `out` is NULL, else text (EVP's buffers).
    fn update(&mut self, out: *mut u8, outsize: usize, input: *const u8, inl: usize) -> Res<usize>;
    /// `final`.
    fn finish(&mut self) -> Res<usize>;
    /// `cipher` (`EVP_Cipher`): `update` with input, `final` without.
    fn cipher(&mut self, out: *mut u8, outsize: usize, input: *const u8, inl: usize) -> Res<usize> {
        if input.is_null() {
            self.finish()
        } else {
            self.update(out, outsize, input, inl)
        }
    }
    /// `get_ctx_params`.
    ///
    /// # Safety
    /// `params` is NULL or a valid writable `OSSL_PARAM` array.
    unsafe fn get_params(&mut self, params: *mut Param) -> Res;
    /// `set_ctx_params`.
    ///
    /// # Safety
    /// `params` is NULL or a valid `OSSL_PARAM` array.
    unsafe fn set_params(&mut self, params: *const Param) -> Res;
}

/// The algorithm parameters `get_params` gives.
pub static ALG_GETTABLE: ffi::ParamList = ffi::param_list![
    c"mode" => OSSL_PARAM_UNSIGNED_INTEGER,
    c"keylen" => OSSL_PARAM_UNSIGNED_INTEGER,
    c"ivlen" => OSSL_PARAM_UNSIGNED_INTEGER,
    c"blocksize" => OSSL_PARAM_UNSIGNED_INTEGER,
    c"aead" => OSSL_PARAM_INTEGER,
    c"custom-iv" => OSSL_PARAM_INTEGER,
    c"cts" => OSSL_PARAM_INTEGER,
    c"tls-multi" => OSSL_PARAM_INTEGER,
    c"has-randkey" => OSSL_PARAM_INTEGER,
];

/// `get_params` of an AEAD algorithm of `mode` with `keylen`-byte keys.
///
/// # Safety
/// `params` is NULL or a valid writable `OSSL_PARAM` array.
pub unsafe fn alg_params(params: *mut Param, mode: c_uint, keylen: usize) -> Res {
    // SAFETY (each call): the caller's contract.
    unsafe {
        params::set_uint(params, c"mode", mode)?;
        params::set_size(params, c"keylen", keylen)?;
        params::set_size(params, c"ivlen", DEFAULT_IVLEN)?;
        params::set_size(params, c"blocksize", 1)?;
        params::set_int(params, c"aead", 1)?;
        params::set_int(params, c"custom-iv", 1)?;
        params::set_int(params, c"cts", 0)?;
        params::set_int(params, c"tls-multi", 0)?;
        params::set_int(params, c"has-randkey", 0)?;
    }
    Ok(())
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn newctx<T: Cipher, const K: usize>(_provctx: *mut c_void) -> *mut c_void {
    params::entry(std::ptr::null_mut(), || Ok(params::boxed(T::new(K))))
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn dupctx<T: Cipher>(vctx: *mut c_void) -> *mut c_void {
    params::entry(std::ptr::null_mut(), || {
        // SAFETY: OpenSSL passes a live context.
        let c = unsafe { params::object::<T>(vctx) }?.dup()?;
        Ok(params::boxed(c))
    })
}

/// `einit` (`ENC`) and `dinit`.
///
/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn init<T: Cipher, const ENC: bool>(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    params: *const Param,
) -> c_int {
    // SAFETY: EVP's contract: a live context, `key`/`iv` NULL or of
    // `keylen`/`ivlen` bytes, `params` NULL or a valid array.
    unsafe {
        params::with_object(vctx, |c: &mut T| {
            c.init(
                ENC,
                params::bytes(key, keylen),
                params::bytes(iv, ivlen),
                params,
            )
        })
    }
}

/// Shared shape of `update`, `cipher` and `final`.
///
/// # Safety
/// `vctx` is a live context of type `T`; `outl` is NULL or writable.
unsafe fn run<T: Cipher>(
    vctx: *mut c_void,
    outl: *mut usize,
    f: impl FnOnce(&mut T) -> Res<usize>,
) -> c_int {
    params::entry(0, || {
        // SAFETY: OpenSSL passes a live context.
        let n = f(unsafe { params::object::<T>(vctx) }?)?;
        if !outl.is_null() {
            // SAFETY: `outl` is EVP's writable size_t.
            unsafe { *outl = n };
        }
        Ok(1)
    })
}

/// `update`, and `cipher` (`CIPHER`).
///
/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn update<T: Cipher, const CIPHER: bool>(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
) -> c_int {
    // SAFETY: forwarded from OpenSSL with its contract.
    unsafe {
        run(vctx, outl, |c: &mut T| match CIPHER {
            true => c.cipher(out, outsize, input, inl),
            false => c.update(out, outsize, input, inl),
        })
    }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn final_<T: Cipher>(
    vctx: *mut c_void,
    _out: *mut u8,
    outl: *mut usize,
    _outsize: usize,
) -> c_int {
    // SAFETY: forwarded from OpenSSL with its contract.
    unsafe { run(vctx, outl, T::finish) }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn get_params<T: Cipher, const K: usize>(params: *mut Param) -> c_int {
    params::entry(0, || {
        // SAFETY: OpenSSL passes a valid array.
        unsafe { alg_params(params, T::MODE, K) }?;
        Ok(1)
    })
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn get_ctx_params<T: Cipher>(vctx: *mut c_void, params: *mut Param) -> c_int {
    // SAFETY: a live context and a valid array (OpenSSL's contract).
    unsafe { params::with_object(vctx, |c: &mut T| c.get_params(params)) }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn set_ctx_params<T: Cipher>(
    vctx: *mut c_void,
    params: *const Param,
) -> c_int {
    // SAFETY: a live context and a valid array (OpenSSL's contract).
    unsafe { params::with_object(vctx, |c: &mut T| c.set_params(params)) }
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn gettable_params(_provctx: *mut c_void) -> *const Param {
    ALG_GETTABLE.as_ptr()
}
