//! The OpenSSL 3 provider ABI, written by hand from `openssl/core.h`,
//! `openssl/core_dispatch.h`, `openssl/core_names.h` and `openssl/proverr.h`
//! (3.0; these values are part of OpenSSL's stable provider ABI), and the
//! few libcrypto functions the module calls (the process that loads the
//! module has libcrypto loaded already).

use std::ffi::{c_char, c_int, c_uint, c_void};

/// `OSSL_DISPATCH`: a function id and a function pointer of the type that
/// id implies (cast to a common type).
#[repr(C)]
pub struct Dispatch {
    pub id: c_int,
    pub func: Option<unsafe extern "C" fn()>,
}

/// `OSSL_PARAM`.
#[repr(C)]
pub struct Param {
    pub key: *const c_char,
    pub data_type: c_uint,
    pub data: *mut c_void,
    pub data_size: usize,
    pub return_size: usize,
}

/// `OSSL_ALGORITHM`.
#[repr(C)]
pub struct Algorithm {
    pub names: *const c_char,
    pub properties: *const c_char,
    pub implementation: *const Dispatch,
    pub description: *const c_char,
}

/// A static table of the C types above: they hold raw pointers to other
/// statics only (never to anything mutable), so sharing them between
/// threads is sound.
#[repr(transparent)]
pub struct Table<T, const N: usize>(pub [T; N]);
// SAFETY: the tables are immutable and point only at immutable statics.
unsafe impl<T, const N: usize> Sync for Table<T, N> {}

impl<T, const N: usize> Table<T, N> {
    pub const fn as_ptr(&self) -> *const T {
        self.0.as_ptr()
    }
}

// OSSL_PARAM data types (core.h).
pub const OSSL_PARAM_INTEGER: c_uint = 1;
pub const OSSL_PARAM_UNSIGNED_INTEGER: c_uint = 2;
pub const OSSL_PARAM_UTF8_STRING: c_uint = 4;
pub const OSSL_PARAM_UTF8_PTR: c_uint = 6;
pub const OSSL_PARAM_OCTET_STRING: c_uint = 5;

// Provider functions (core_dispatch.h).
pub const OSSL_FUNC_PROVIDER_TEARDOWN: c_int = 1024;
pub const OSSL_FUNC_PROVIDER_GETTABLE_PARAMS: c_int = 1025;
pub const OSSL_FUNC_PROVIDER_GET_PARAMS: c_int = 1026;
pub const OSSL_FUNC_PROVIDER_QUERY_OPERATION: c_int = 1027;

// Operations.
pub const OSSL_OP_CIPHER: c_int = 2;
pub const OSSL_OP_MAC: c_int = 3;

// MAC functions.
pub const OSSL_FUNC_MAC_NEWCTX: c_int = 1;
pub const OSSL_FUNC_MAC_DUPCTX: c_int = 2;
pub const OSSL_FUNC_MAC_FREECTX: c_int = 3;
pub const OSSL_FUNC_MAC_INIT: c_int = 4;
pub const OSSL_FUNC_MAC_UPDATE: c_int = 5;
pub const OSSL_FUNC_MAC_FINAL: c_int = 6;
pub const OSSL_FUNC_MAC_GET_CTX_PARAMS: c_int = 8;
pub const OSSL_FUNC_MAC_SET_CTX_PARAMS: c_int = 9;
pub const OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS: c_int = 11;
pub const OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS: c_int = 12;

// Cipher functions.
pub const OSSL_FUNC_CIPHER_NEWCTX: c_int = 1;
pub const OSSL_FUNC_CIPHER_ENCRYPT_INIT: c_int = 2;
pub const OSSL_FUNC_CIPHER_DECRYPT_INIT: c_int = 3;
pub const OSSL_FUNC_CIPHER_UPDATE: c_int = 4;
pub const OSSL_FUNC_CIPHER_FINAL: c_int = 5;
pub const OSSL_FUNC_CIPHER_CIPHER: c_int = 6;
pub const OSSL_FUNC_CIPHER_FREECTX: c_int = 7;
pub const OSSL_FUNC_CIPHER_DUPCTX: c_int = 8;
pub const OSSL_FUNC_CIPHER_GET_PARAMS: c_int = 9;
pub const OSSL_FUNC_CIPHER_GET_CTX_PARAMS: c_int = 10;
pub const OSSL_FUNC_CIPHER_SET_CTX_PARAMS: c_int = 11;
pub const OSSL_FUNC_CIPHER_GETTABLE_PARAMS: c_int = 12;
pub const OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS: c_int = 13;
pub const OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS: c_int = 14;

/// `EVP_CIPH_GCM_MODE` (evp.h), what `EVP_CIPHER_get_mode` reports.
pub const EVP_CIPH_GCM_MODE: c_uint = 0x6;

// Error reasons (proverr.h) under ERR_LIB_PROV (err.h).
pub const ERR_LIB_PROV: c_int = 57;
pub const PROV_R_CIPHER_OPERATION_FAILED: c_int = 102;
pub const PROV_R_FAILED_TO_GET_PARAMETER: c_int = 103;
pub const PROV_R_FAILED_TO_SET_PARAMETER: c_int = 104;
pub const PROV_R_INVALID_KEY_LENGTH: c_int = 105;
pub const PROV_R_INVALID_IV_LENGTH: c_int = 109;
pub const PROV_R_INVALID_TAG: c_int = 110;
pub const PROV_R_INVALID_TAG_LENGTH: c_int = 118;
pub const PROV_R_TAG_NOT_SET: c_int = 119;
pub const PROV_R_FAILED_TO_DECRYPT: c_int = 162;
pub const PROV_R_OUTPUT_BUFFER_TOO_SMALL: c_int = 106;
pub const PROV_R_NO_KEY_SET: c_int = 114;
pub const PROV_R_INVALID_INPUT_LENGTH: c_int = 230;

#[link(name = "crypto")]
extern "C" {
    pub fn OSSL_PARAM_locate(p: *mut Param, key: *const c_char) -> *mut Param;
    pub fn OSSL_PARAM_get_size_t(p: *const Param, val: *mut usize) -> c_int;
    pub fn OSSL_PARAM_set_size_t(p: *mut Param, val: usize) -> c_int;
    pub fn OSSL_PARAM_set_uint(p: *mut Param, val: c_uint) -> c_int;
    pub fn OSSL_PARAM_set_int(p: *mut Param, val: c_int) -> c_int;
    pub fn OSSL_PARAM_set_utf8_ptr(p: *mut Param, val: *const c_char) -> c_int;
    pub fn OSSL_PARAM_set_octet_string(p: *mut Param, val: *const c_void, len: usize) -> c_int;
    pub fn ERR_new();
    pub fn ERR_set_debug(file: *const c_char, line: c_int, func: *const c_char);
    pub fn ERR_set_error(lib: c_int, reason: c_int, fmt: *const c_char, ...);
}

/// A static parameter list (what `gettable_*`/`settable_*` return): names
/// and types, terminated.
pub struct ParamList(pub &'static [Param]);
// SAFETY: the lists are immutable and point only at static strings.
unsafe impl Sync for ParamList {}

impl ParamList {
    pub const fn as_ptr(&self) -> *const Param {
        self.0.as_ptr()
    }
}

/// `param_list![c"name" => TYPE, ...]`: a [`ParamList`] of those entries.
macro_rules! param_list {
    ($($key:literal => $ty:ident),* $(,)?) => {
        $crate::ffi::ParamList(&[$($crate::ffi::describe($key, $crate::ffi::$ty),)* $crate::ffi::PARAM_END])
    };
}
pub(crate) use param_list;

/// A settable/gettable list entry: the name and type only.
pub const fn describe(key: &'static std::ffi::CStr, data_type: c_uint) -> Param {
    Param {
        key: key.as_ptr(),
        data_type,
        data: std::ptr::null_mut(),
        data_size: 0,
        return_size: 0,
    }
}

/// The terminating entry of a parameter table.
pub const PARAM_END: Param = Param {
    key: std::ptr::null(),
    data_type: 0,
    data: std::ptr::null_mut(),
    data_size: 0,
    return_size: 0,
};
