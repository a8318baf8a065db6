//! `OSSL_PARAM` access and OpenSSL's error stack: the module's one place
//! for both. Integers go through libcrypto's own converters (a caller may
//! pass any integer width); octet strings are read from the array directly.

use crate::ffi::{self, Param};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};

/// A failure to report on OpenSSL's error stack: a `PROV_R_*` reason and a
/// message.
#[derive(Debug)]
pub struct Fail {
    pub reason: c_int,
    pub msg: String,
}

pub type Res<T = ()> = Result<T, Fail>;

pub fn fail<T>(reason: c_int, msg: impl Into<String>) -> Res<T> {
    Err(Fail {
        reason,
        msg: msg.into(),
    })
}

impl From<galois_aead::Error> for Fail {
    /// The one mapping of the library's errors to OpenSSL reasons.
    fn from(e: galois_aead::Error) -> Self {
        use galois_aead::Error as E;
        let reason = match e {
            E::InvalidKeyLength { .. } | E::InvalidKey { .. } => ffi::PROV_R_INVALID_KEY_LENGTH,
            E::InvalidIvLength { .. } | E::InvalidNonceLength { .. } => {
                ffi::PROV_R_INVALID_IV_LENGTH
            }
            E::InvalidTagLength { .. } | E::IvLengthNotAllowedWithShortTag { .. } => {
                ffi::PROV_R_INVALID_TAG_LENGTH
            }
            E::AuthenticationFailed => ffi::PROV_R_FAILED_TO_DECRYPT,
            E::MessageTooLong { .. } | E::AadTooLong | E::TooLong { .. } => {
                ffi::PROV_R_INVALID_INPUT_LENGTH
            }
            _ => ffi::PROV_R_CIPHER_OPERATION_FAILED,
        };
        Fail {
            reason,
            msg: format!("galois: {e}"),
        }
    }
}

impl Fail {
    /// Pushes this failure onto the calling thread's OpenSSL error stack.
    pub fn raise(&self) {
        let msg = CString::new(self.msg.replace('\0', " ")).unwrap_or_default();
        // SAFETY: ERR_new/ERR_set_debug/ERR_set_error are what ERR_raise_data
        // expands to; every pointer is a NUL-terminated string that outlives
        // the calls (libcrypto copies the formatted message), and the format
        // "%s" consumes exactly the one string argument passed.
        unsafe {
            ffi::ERR_new();
            ffi::ERR_set_debug(c"galois-ossl".as_ptr(), 0, c"galois".as_ptr());
            ffi::ERR_set_error(ffi::ERR_LIB_PROV, self.reason, c"%s".as_ptr(), msg.as_ptr());
        }
    }
}

/// Runs one entry point's body: a panic becomes a failure on the error
/// stack (never an unwind into C), an `Err` is raised, and `Ok(v)` is `v`.
pub fn entry<T>(failed: T, body: impl FnOnce() -> Res<T>) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        Ok(Err(f)) => {
            f.raise();
            failed
        }
        Err(_) => {
            Fail {
                reason: ffi::PROV_R_CIPHER_OPERATION_FAILED,
                msg: "galois: internal error".into(),
            }
            .raise();
            failed
        }
    }
}

/// The parameter lists of a context type (what `gettable_ctx_params` and
/// `settable_ctx_params` return).
pub trait Lists {
    /// The context parameters `get_ctx_params` gives.
    const GETTABLE: ffi::ParamList;
    /// The context parameters `set_ctx_params` takes.
    const SETTABLE: ffi::ParamList;
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn gettable_ctx<T: Lists>(
    _cctx: *mut c_void,
    _provctx: *mut c_void,
) -> *const Param {
    T::GETTABLE.as_ptr()
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
pub unsafe extern "C" fn settable_ctx<T: Lists>(
    _cctx: *mut c_void,
    _provctx: *mut c_void,
) -> *const Param {
    T::SETTABLE.as_ptr()
}

/// Calls `f` with the key and the entry of each element of a parameter
/// array to read.
///
/// # Safety
/// `params` is NULL or a valid `OSSL_PARAM` array that outlives `'a`.
pub unsafe fn read_each<'a>(
    params: *const Param,
    mut f: impl FnMut(&'a [u8], &'a Param) -> Res,
) -> Res {
    // SAFETY: the caller's contract; the entries are only read.
    for (key, p) in unsafe { each(params.cast_mut()) } {
        // SAFETY: `p` is an element of the array.
        f(key, unsafe { &*p })?;
    }
    Ok(())
}

/// Calls `f` with the key and the entry of each element of a parameter
/// array to fill; `f` gives the result of a `put_*`, or `None` for a key it
/// does not answer.
///
/// # Safety
/// `params` is NULL or a valid writable `OSSL_PARAM` array.
pub unsafe fn write_each(
    params: *mut Param,
    mut f: impl FnMut(&[u8], *mut Param) -> Res<Option<c_int>>,
) -> Res {
    // SAFETY: the caller's contract.
    for (key, p) in unsafe { each(params) } {
        if let Some(ok) = f(key, p)? {
            check(ok, key)?;
        }
    }
    Ok(())
}

/// A context handed to OpenSSL (freed by [`free`]).
pub fn boxed<T>(t: T) -> *mut c_void {
    Box::into_raw(Box::new(t)).cast()
}

/// The context behind a pointer from [`boxed`].
///
/// # Safety
/// `v` came from `boxed::<T>` and is not freed; OpenSSL never uses a
/// context from two threads at once.
pub unsafe fn object<'a, T>(v: *mut c_void) -> Res<&'a mut T> {
    // SAFETY: the caller's contract.
    match unsafe { v.cast::<T>().as_mut() } {
        Some(c) => Ok(c),
        None => fail(ffi::PROV_R_CIPHER_OPERATION_FAILED, "galois: NULL context"),
    }
}

/// The body of an entry point that answers 1 or 0: `f` on the context
/// `vctx` of type `T`, under [`entry`].
///
/// # Safety
/// `vctx` is NULL or a live context of type `T`.
pub unsafe fn with_object<T>(vctx: *mut c_void, f: impl FnOnce(&mut T) -> Res) -> c_int {
    entry(0, || {
        // SAFETY: the caller's contract.
        f(unsafe { object::<T>(vctx) }?)?;
        Ok(1)
    })
}

/// `freectx` of every context type: drops (and so wipes) it.
///
/// # Safety
/// `v` is NULL or came from `boxed::<T>`, freed once.
pub unsafe extern "C" fn free<T>(v: *mut c_void) {
    entry((), || {
        if !v.is_null() {
            // SAFETY: the caller's contract (OpenSSL frees each context once).
            drop(unsafe { Box::from_raw(v.cast::<T>()) });
        }
        Ok(())
    })
}

/// `n` bytes at `p`, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or holds `n` readable bytes that outlive the slice.
pub unsafe fn bytes<'a>(p: *const u8, n: usize) -> Option<&'a [u8]> {
    // SAFETY: the caller's contract.
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, n) })
}

/// A UTF-8 string parameter's bytes (up to a NUL, if it holds one).
pub fn get_utf8(p: &Param) -> Res<&[u8]> {
    if p.data_type != ffi::OSSL_PARAM_UTF8_STRING || p.data.is_null() {
        return fail(
            ffi::PROV_R_FAILED_TO_GET_PARAMETER,
            "galois: a UTF-8 string was expected",
        );
    }
    // SAFETY: an OSSL_PARAM string holds `data_size` readable bytes at
    // `data` (core.h), for as long as the parameter array lives.
    let s = unsafe { std::slice::from_raw_parts(p.data as *const u8, p.data_size) };
    Ok(s.split(|&b| b == 0).next().unwrap_or_default())
}

/// The entry of `params` named `key`, to write a value into.
///
/// # Safety
/// `params` is NULL or a valid writable `OSSL_PARAM` array (terminated by
/// an entry with a NULL key) that outlives the returned pointer.
pub unsafe fn find_mut(params: *mut Param, key: &CStr) -> Option<*mut Param> {
    if params.is_null() {
        return None;
    }
    // SAFETY: `params` is a valid terminated array (the caller's contract);
    // the result is NULL or an element of it.
    let p = unsafe { ffi::OSSL_PARAM_locate(params, key.as_ptr()) };
    (!p.is_null()).then_some(p)
}

/// The entries of a parameter array in order, with their keys.
///
/// # Safety
/// `params` is NULL or a valid terminated `OSSL_PARAM` array that outlives
/// the iteration.
pub unsafe fn each<'a>(params: *mut Param) -> impl Iterator<Item = (&'a [u8], *mut Param)> {
    let mut next = params;
    std::iter::from_fn(move || {
        // SAFETY: `next` is NULL or an element of the terminated array, not
        // past its end (the caller's contract; iteration stops at the end).
        let e = unsafe { next.as_ref() }?;
        if e.key.is_null() {
            return None;
        }
        let cur = next;
        // SAFETY: `e` is not the terminator, so the next element exists; its
        // key is a NUL-terminated string living as long as the array.
        let key = unsafe {
            next = next.add(1);
            CStr::from_ptr(e.key).to_bytes()
        };
        Some((key, cur))
    })
}

/// Writes a `size_t` into `p` (any integer type libcrypto converts to);
/// 1 on success.
///
/// # Safety
/// `p` is a writable element of a parameter array (from [`each`]).
pub unsafe fn put_size(p: *mut Param, v: usize) -> c_int {
    // SAFETY: the caller's contract.
    unsafe { ffi::OSSL_PARAM_set_size_t(p, v) }
}

/// Copies `v` into the octet-string parameter `p` if it has room; 1 on
/// success.
///
/// # Safety
/// As for [`put_size`].
pub unsafe fn put_octets(p: *mut Param, v: &[u8]) -> c_int {
    // SAFETY: the caller's contract; libcrypto checks the room and copies
    // `v.len()` bytes from `v`.
    unsafe { ffi::OSSL_PARAM_set_octet_string(p, v.as_ptr().cast(), v.len()) }
}

/// The result of a `put_*` on the parameter `key`.
pub fn check(ok: c_int, key: &[u8]) -> Res {
    if ok == 1 {
        Ok(())
    } else {
        fail(
            ffi::PROV_R_FAILED_TO_SET_PARAMETER,
            format!(
                "galois: cannot return parameter {}",
                String::from_utf8_lossy(key)
            ),
        )
    }
}

/// An integer parameter as a `size_t`.
pub fn get_size(p: &Param) -> Res<usize> {
    let mut v = 0usize;
    // SAFETY: `p` is a valid parameter (from `each`); `v` is a local.
    if unsafe { ffi::OSSL_PARAM_get_size_t(p, &mut v) } == 1 {
        Ok(v)
    } else {
        fail(
            ffi::PROV_R_FAILED_TO_GET_PARAMETER,
            "galois: an integer parameter was expected",
        )
    }
}

/// An octet-string parameter's bytes; `None` when its data pointer is NULL
/// (how `EVP_CTRL_AEAD_SET_TAG` passes a tag length alone).
pub fn get_octets(p: &Param) -> Res<Option<&[u8]>> {
    if p.data_type != ffi::OSSL_PARAM_OCTET_STRING {
        return fail(
            ffi::PROV_R_FAILED_TO_GET_PARAMETER,
            "galois: an octet string was expected",
        );
    }
    if p.data.is_null() {
        return Ok(None);
    }
    // SAFETY: an OSSL_PARAM octet string holds `data_size` readable bytes at
    // `data` (core.h), for as long as the parameter array lives.
    Ok(Some(unsafe {
        std::slice::from_raw_parts(p.data as *const u8, p.data_size)
    }))
}

fn set_ok(ok: c_int, what: &CStr) -> Res {
    check(ok, what.to_bytes())
}

/// Writes a value into the entry `key` of `params` if present, with
/// `write` (one of libcrypto's `OSSL_PARAM_set_*`).
///
/// # Safety
/// As for [`find_mut`]; `write` is sound on any valid element.
unsafe fn set_with(params: *mut Param, key: &CStr, write: impl FnOnce(*mut Param) -> c_int) -> Res {
    // SAFETY: the caller's contract.
    match unsafe { find_mut(params, key) } {
        Some(p) => set_ok(write(p), key),
        None => Ok(()),
    }
}

/// # Safety
/// As for [`find_mut`].
pub unsafe fn set_size(params: *mut Param, key: &CStr, v: usize) -> Res {
    // SAFETY: the caller's contract; `p` is an element of the array.
    unsafe { set_with(params, key, |p| ffi::OSSL_PARAM_set_size_t(p, v)) }
}

/// # Safety
/// As for [`find_mut`].
pub unsafe fn set_uint(params: *mut Param, key: &CStr, v: c_uint) -> Res {
    // SAFETY: the caller's contract; `p` is an element of the array.
    unsafe { set_with(params, key, |p| ffi::OSSL_PARAM_set_uint(p, v)) }
}

/// # Safety
/// As for [`find_mut`].
pub unsafe fn set_int(params: *mut Param, key: &CStr, v: c_int) -> Res {
    // SAFETY: the caller's contract; `p` is an element of the array.
    unsafe { set_with(params, key, |p| ffi::OSSL_PARAM_set_int(p, v)) }
}

/// # Safety
/// As for [`find_mut`].
pub unsafe fn set_utf8_ptr(params: *mut Param, key: &CStr, v: &'static CStr) -> Res {
    let v: *const c_char = v.as_ptr();
    // SAFETY: the caller's contract; `v` is a static string.
    unsafe { set_with(params, key, |p| ffi::OSSL_PARAM_set_utf8_ptr(p, v)) }
}

/// EVP's input and output buffers as one slice holding the input: `inl`
/// bytes copied from `input` to `out` (memmove: they may be the same or
/// overlap), for a call that works in place on `out`.
pub fn io_slices<'a>(
    out: *mut u8,
    outsize: usize,
    input: *const u8,
    inl: usize,
) -> Res<&'a mut [u8]> {
    if inl == 0 {
        return Ok(&mut []);
    }
    if out.is_null() || input.is_null() {
        return fail(ffi::PROV_R_CIPHER_OPERATION_FAILED, "galois: NULL buffer");
    }
    if outsize < inl {
        return fail(
            ffi::PROV_R_OUTPUT_BUFFER_TOO_SMALL,
            "galois: output buffer too small",
        );
    }
    // SAFETY: EVP's contract: `input` holds `inl` readable bytes and `out`
    // `outsize >= inl` writable ones; they may overlap (in place), which
    // `copy` (memmove) allows. The input is not read again afterwards.
    unsafe {
        std::ptr::copy(input, out, inl);
        Ok(std::slice::from_raw_parts_mut(out, inl))
    }
}

/// Whether `key` is the key kept in `raw` (constant time in the contents).
pub fn same_key(raw: &[u8], key: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    raw.len() == key.len() && bool::from(raw.ct_eq(key))
}
