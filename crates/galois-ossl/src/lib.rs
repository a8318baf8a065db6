//! `galois.so`, an OpenSSL 3 provider module: galois-aead's AES-GCM for
//! any program on libcrypto or libssl 3.0 or later, loaded at run time from
//! a config file (see the crate README).
//!
//! The module is a C ABI and nothing else: `OSSL_provider_init` hands
//! OpenSSL the dispatch tables built here. Every entry point runs its body
//! under `catch_unwind` (no panic crosses into C) and reports failures on
//! OpenSSL's error stack (`params::entry`).

mod cipher;
mod ffi;
mod gcm;
mod gmac;
mod params;
mod siv;

use ffi::{Algorithm, Dispatch, Param, Table};
use std::ffi::{c_int, c_void};
use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

static SEALS: AtomicU64 = AtomicU64::new(0);
static OPENS: AtomicU64 = AtomicU64::new(0);
/// Loaded instances of the provider (one per library context).
static INSTANCES: AtomicUsize = AtomicUsize::new(0);

/// One message sealed (an encryption's `final`, or one TLS 1.2 record).
pub(crate) fn count_seal() {
    SEALS.fetch_add(1, Ordering::Relaxed);
}

/// One message opened: its tag verified.
pub(crate) fn count_open() {
    OPENS.fetch_add(1, Ordering::Relaxed);
}

/// Casts an entry point to the common pointer type of `OSSL_DISPATCH`.
macro_rules! func {
    ($id:expr, $f:expr, $ty:ty) => {
        Dispatch {
            id: $id,
            // SAFETY: OpenSSL calls the pointer only through the type that
            // `$id` implies (core_dispatch.h), which is `$ty`, the type the
            // function is cast from here.
            func: Some(unsafe { std::mem::transmute::<$ty, unsafe extern "C" fn()>($f) }),
        }
    };
}

const DISPATCH_END: Dispatch = Dispatch { id: 0, func: None };

/// `dispatch![OSSL_FUNC_ID: function => Type, ...]`: a dispatch table of
/// those entries (each function cast from its `core_dispatch.h` type), ended.
macro_rules! dispatch {
    ($($id:ident: $f:expr => $ty:ty),* $(,)?) => {
        Table([$(func!(ffi::$id, $f, $ty),)* DISPATCH_END])
    };
}

type NewCtx = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
type FreeCtx = unsafe extern "C" fn(*mut c_void);
type Init =
    unsafe extern "C" fn(*mut c_void, *const u8, usize, *const u8, usize, *const Param) -> c_int;
type Update =
    unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize, usize, *const u8, usize) -> c_int;
type Final = unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize, usize) -> c_int;
type GetParams = unsafe extern "C" fn(*mut Param) -> c_int;
type GetCtxParams = unsafe extern "C" fn(*mut c_void, *mut Param) -> c_int;
type SetCtxParams = unsafe extern "C" fn(*mut c_void, *const Param) -> c_int;
type Gettable = unsafe extern "C" fn(*mut c_void) -> *const Param;
type CtxGettable = unsafe extern "C" fn(*mut c_void, *mut c_void) -> *const Param;

/// The dispatch table of the cipher context type `$t` with `$k`-byte keys.
macro_rules! cipher_table {
    ($t:ty, $k:literal) => {
        dispatch![
            OSSL_FUNC_CIPHER_NEWCTX: cipher::newctx::<$t, $k> => NewCtx,
            OSSL_FUNC_CIPHER_FREECTX: params::free::<$t> => FreeCtx,
            OSSL_FUNC_CIPHER_DUPCTX: cipher::dupctx::<$t> => NewCtx,
            OSSL_FUNC_CIPHER_ENCRYPT_INIT: cipher::init::<$t, true> => Init,
            OSSL_FUNC_CIPHER_DECRYPT_INIT: cipher::init::<$t, false> => Init,
            OSSL_FUNC_CIPHER_UPDATE: cipher::update::<$t, false> => Update,
            OSSL_FUNC_CIPHER_FINAL: cipher::final_::<$t> => Final,
            OSSL_FUNC_CIPHER_CIPHER: cipher::update::<$t, true> => Update,
            OSSL_FUNC_CIPHER_GET_PARAMS: cipher::get_params::<$t, $k> => GetParams,
            OSSL_FUNC_CIPHER_GET_CTX_PARAMS: cipher::get_ctx_params::<$t> => GetCtxParams,
            OSSL_FUNC_CIPHER_SET_CTX_PARAMS: cipher::set_ctx_params::<$t> => SetCtxParams,
            OSSL_FUNC_CIPHER_GETTABLE_PARAMS: cipher::gettable_params => Gettable,
            OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS: params::gettable_ctx::<$t> => CtxGettable,
            OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS: params::settable_ctx::<$t> => CtxGettable,
        ]
    };
}

static AES_128_GCM: Table<Dispatch, 15> = cipher_table!(gcm::Ctx, 16);
static AES_192_GCM: Table<Dispatch, 15> = cipher_table!(gcm::Ctx, 24);
static AES_256_GCM: Table<Dispatch, 15> = cipher_table!(gcm::Ctx, 32);
static AES_128_GCM_SIV: Table<Dispatch, 15> = cipher_table!(siv::SivCtx, 16);
static AES_192_GCM_SIV: Table<Dispatch, 15> = cipher_table!(siv::SivCtx, 24);
static AES_256_GCM_SIV: Table<Dispatch, 15> = cipher_table!(siv::SivCtx, 32);

const PROPERTIES: &std::ffi::CStr = c"provider=galois";

/// OpenSSL's own names, aliases and OIDs for each cipher.
/// An algorithm of this provider.
const fn algorithm(
    names: &'static std::ffi::CStr,
    imp: *const Dispatch,
    desc: &'static std::ffi::CStr,
) -> Algorithm {
    Algorithm {
        names: names.as_ptr(),
        properties: PROPERTIES.as_ptr(),
        implementation: imp,
        description: desc.as_ptr(),
    }
}

const ALGORITHM_END: Algorithm = Algorithm {
    names: std::ptr::null(),
    properties: std::ptr::null(),
    implementation: std::ptr::null(),
    description: std::ptr::null(),
};

/// OpenSSL's own names, aliases and OIDs for each cipher (AES-GCM-SIV's
/// names as OpenSSL 3.2 gave them).
static CIPHERS: Table<Algorithm, 7> = Table([
    algorithm(
        gcm::NAMES[0].0,
        AES_128_GCM.as_ptr(),
        c"AES-128-GCM (galois)",
    ),
    algorithm(
        gcm::NAMES[1].0,
        AES_192_GCM.as_ptr(),
        c"AES-192-GCM (galois)",
    ),
    algorithm(
        gcm::NAMES[2].0,
        AES_256_GCM.as_ptr(),
        c"AES-256-GCM (galois)",
    ),
    algorithm(
        c"AES-128-GCM-SIV",
        AES_128_GCM_SIV.as_ptr(),
        c"AES-128-GCM-SIV (galois)",
    ),
    algorithm(
        c"AES-192-GCM-SIV",
        AES_192_GCM_SIV.as_ptr(),
        c"AES-192-GCM-SIV (galois)",
    ),
    algorithm(
        c"AES-256-GCM-SIV",
        AES_256_GCM_SIV.as_ptr(),
        c"AES-256-GCM-SIV (galois)",
    ),
    ALGORITHM_END,
]);

type MacInit = unsafe extern "C" fn(*mut c_void, *const u8, usize, *const Param) -> c_int;
type MacUpdate = unsafe extern "C" fn(*mut c_void, *const u8, usize) -> c_int;

static GMAC: Table<Dispatch, 11> = dispatch![
    OSSL_FUNC_MAC_NEWCTX: gmac::newctx => NewCtx,
    OSSL_FUNC_MAC_DUPCTX: gmac::dupctx => NewCtx,
    OSSL_FUNC_MAC_FREECTX: params::free::<gmac::Mac> => FreeCtx,
    OSSL_FUNC_MAC_INIT: gmac::init => MacInit,
    OSSL_FUNC_MAC_UPDATE: gmac::update => MacUpdate,
    OSSL_FUNC_MAC_FINAL: gmac::final_ => Final,
    OSSL_FUNC_MAC_GET_CTX_PARAMS: gmac::get_ctx_params => GetCtxParams,
    OSSL_FUNC_MAC_SET_CTX_PARAMS: gmac::set_ctx_params => SetCtxParams,
    OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS: params::gettable_ctx::<gmac::Mac> => CtxGettable,
    OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS: params::settable_ctx::<gmac::Mac> => CtxGettable,
];

/// OpenSSL's names of GMAC.
static MACS: Table<Algorithm, 2> = Table([
    algorithm(
        c"GMAC:1.0.9797.3.4",
        GMAC.as_ptr(),
        c"GMAC over AES-GCM (galois)",
    ),
    ALGORITHM_END,
]);

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
unsafe extern "C" fn query_operation(
    _provctx: *mut c_void,
    op: c_int,
    no_cache: *mut c_int,
) -> *const Algorithm {
    if !no_cache.is_null() {
        // SAFETY: OpenSSL passes a writable int.
        unsafe { *no_cache = 0 };
    }
    match op {
        ffi::OSSL_OP_CIPHER => CIPHERS.as_ptr(),
        ffi::OSSL_OP_MAC => MACS.as_ptr(),
        _ => std::ptr::null(),
    }
}

static PROVIDER_GETTABLE: ffi::ParamList = ffi::param_list![
    c"name" => OSSL_PARAM_UTF8_PTR,
    c"version" => OSSL_PARAM_UTF8_PTR,
    c"buildinfo" => OSSL_PARAM_UTF8_PTR,
    c"status" => OSSL_PARAM_UNSIGNED_INTEGER,
];

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
unsafe extern "C" fn provider_gettable(_provctx: *mut c_void) -> *const Param {
    PROVIDER_GETTABLE.as_ptr()
}

const VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
) {
    Ok(v) => v,
    Err(_) => c"unknown",
};

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
unsafe extern "C" fn provider_get_params(_provctx: *mut c_void, params: *mut Param) -> c_int {
    params::entry(0, || {
        // SAFETY (each call): OpenSSL passes a valid writable array.
        unsafe {
            params::set_utf8_ptr(params, c"name", c"galois")?;
            params::set_utf8_ptr(params, c"version", VERSION)?;
            params::set_utf8_ptr(params, c"buildinfo", c"galois-aead AES-GCM provider")?;
            params::set_uint(params, c"status", 1)?;
        }
        Ok(1)
    })
}

/// # Safety
/// Called by OpenSSL through the dispatch table, with the arguments its
/// `core_dispatch.h` type promises (live contexts; buffers of the sizes given).
unsafe extern "C" fn teardown(_provctx: *mut c_void) {
    params::entry((), || {
        let last = INSTANCES.fetch_sub(1, Ordering::AcqRel) == 1;
        if last && std::env::var_os("GALOIS_PROVIDER_STATS").is_some_and(|v| v == "1") {
            let (s, o) = (SEALS.load(Ordering::Relaxed), OPENS.load(Ordering::Relaxed));
            let _ = writeln!(std::io::stderr(), "galois provider: {s} seals, {o} opens");
        }
        Ok(())
    })
}

type Teardown = unsafe extern "C" fn(*mut c_void);
type Query = unsafe extern "C" fn(*mut c_void, c_int, *mut c_int) -> *const Algorithm;
type ProvGetParams = unsafe extern "C" fn(*mut c_void, *mut Param) -> c_int;

static PROVIDER: Table<Dispatch, 5> = dispatch![
    OSSL_FUNC_PROVIDER_TEARDOWN: teardown => Teardown,
    OSSL_FUNC_PROVIDER_GETTABLE_PARAMS: provider_gettable => Gettable,
    OSSL_FUNC_PROVIDER_GET_PARAMS: provider_get_params => ProvGetParams,
    OSSL_FUNC_PROVIDER_QUERY_OPERATION: query_operation => Query,
];

/// The module's entry point, which OpenSSL looks up by name.
///
/// # Safety
/// Called by OpenSSL's provider loader with writable `out` and `provctx`.
#[no_mangle]
pub unsafe extern "C" fn OSSL_provider_init(
    handle: *const c_void,
    _core: *const Dispatch,
    out: *mut *const Dispatch,
    provctx: *mut *mut c_void,
) -> c_int {
    params::entry(0, || {
        if out.is_null() || provctx.is_null() {
            return params::fail(
                ffi::PROV_R_CIPHER_OPERATION_FAILED,
                "galois: bad provider init call",
            );
        }
        INSTANCES.fetch_add(1, Ordering::AcqRel);
        // SAFETY: both are writable (checked non-NULL; OpenSSL's contract).
        // The provider context is only ever passed back to us and not
        // dereferenced: the core handle serves as a non-NULL token.
        unsafe {
            *out = PROVIDER.as_ptr();
            *provctx = handle as *mut c_void;
        }
        Ok(1)
    })
}
