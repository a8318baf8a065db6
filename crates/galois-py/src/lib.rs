//! Python bindings of galois (the `galois_aead._galois` extension module; the
//! `galois_aead` package re-exports it). Built by maturin as an abi3 wheel for
//! CPython 3.11 and later (the buffer protocol is in the limited API from
//! 3.11 on).
//!
//! Inputs are any C-contiguous buffer (`bytes`, `bytearray`, `memoryview`,
//! `array`, ...). `bytes` are read in place; other buffers are read in place
//! while the GIL is held, and copied first when the GIL is released (inputs of
//! [`GIL_RELEASE_BYTES`] or more), so no other thread can change them under
//! the computation. Results for the caller's own buffers (`*_into`) are built
//! in private memory and copied out with the GIL held once complete (and,
//! for decryption, verified); on any error those buffers are zeroed.

pub(crate) use galois_aead::chunked::{self, Opener, RandomAccess};
pub(crate) use galois_aead::poly1305::{Poly1305, Poly1305Aes};
pub(crate) use galois_aead::stream::StreamError;
pub(crate) use galois_aead::{Aead, AeadInit};
pub(crate) use galois_aead::{Aes, AesGcm, AesGmac, Error, Options, ShortTag};
pub(crate) use pyo3::buffer::{Element, PyUntypedBuffer};
pub(crate) use pyo3::exceptions::{
    PyBufferError, PyException, PyMemoryError, PyOSError, PyRuntimeError, PyTypeError, PyValueError,
};
pub(crate) use pyo3::prelude::*;
pub(crate) use pyo3::sync::PyOnceLock;
pub(crate) use pyo3::types::PyBytes;
pub(crate) use pyo3::types::PyType;
pub(crate) use std::ffi::CStr;
pub(crate) use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

#[macro_use]
mod aead;
mod aesgcm;
mod buffers;
mod chunked_io;
mod errors;
mod gcm_ctx;
mod mac;

use aead::*;
use aesgcm::*;
use buffers::*;
use chunked_io::*;
use errors::*;
use gcm_ctx::*;
use mac::*;

#[pymodule]
fn _galois(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for ((name, _, _), t) in EXCEPTIONS.iter().zip(exc_types(m.py())?) {
        m.add(*name, t.bind(m.py()))?;
    }
    m.add_class::<PyAesGcm>()?;
    m.add_class::<GcmEncryptor>()?;
    m.add_class::<GcmDecryptor>()?;
    m.add_class::<PyGmac>()?;
    m.add_class::<PyPoly1305Aes>()?;
    m.add_class::<PyPoly1305>()?;
    m.add_class::<ChunkedReader>()?;
    m.add_class::<ChunkedOpener>()?;
    m.add_function(wrap_pyfunction!(chunked_seal, m)?)?;
    m.add_function(wrap_pyfunction!(chunked_open, m)?)?;
    m.add_function(wrap_pyfunction!(chunked_seal_stream, m)?)?;
    m.add_function(wrap_pyfunction!(chunked_open_stream, m)?)?;
    m.add_class::<PyAesGcmSiv>()?;
    m.add_class::<PyXAes256Gcm>()?;
    m.add("GIL_RELEASE_BYTES", GIL_RELEASE_BYTES)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
