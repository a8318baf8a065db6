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

use galois_aead::{Aead, AeadInit};
use galois_aead::chunked::{self, Opener, RandomAccess};
use galois_aead::poly1305::{Poly1305, Poly1305Aes};
use galois_aead::stream::StreamError;
use galois_aead::{Aes, AesGcm, AesGmac, Error, Options, ShortTag};
use pyo3::buffer::{Element, PyUntypedBuffer};
use pyo3::exceptions::{
    PyBufferError, PyException, PyMemoryError, PyOSError, PyRuntimeError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyBytes;
use pyo3::types::PyType;
use std::ffi::CStr;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use zeroize::{Zeroize, Zeroizing};

/// galois's exception classes. When `cryptography` is importable, each
/// subclasses `cryptography.exceptions.<same name>`, so code written for
/// cryptography (`except cryptography.exceptions.InvalidTag`) catches them;
/// otherwise each subclasses `Exception`.
#[derive(Clone, Copy)]
enum Exc {
    InvalidTag = 0,
    InvalidSignature = 1,
    AlreadyFinalized = 2,
    NotYetFinalized = 3,
    AlreadyUpdated = 4,
}

const EXCEPTIONS: [(&str, &CStr, &CStr); 5] = [
    (
        "InvalidTag",
        c"galois_aead.InvalidTag",
        c"The AEAD tag did not verify: the data, the associated data, the nonce or \
          the key is not what was authenticated. No plaintext is released.",
    ),
    (
        "InvalidSignature",
        c"galois_aead.InvalidSignature",
        c"A MAC tag (GMAC, Poly1305-AES, Poly1305) did not verify.",
    ),
    (
        "AlreadyFinalized",
        c"galois_aead.AlreadyFinalized",
        c"The context was already finalized.",
    ),
    (
        "NotYetFinalized",
        c"galois_aead.NotYetFinalized",
        c"The tag is read before the encryption was finalized.",
    ),
    (
        "AlreadyUpdated",
        c"galois_aead.AlreadyUpdated",
        c"Associated data given after data.",
    ),
];

static EXC_TYPES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

fn exc_types(py: Python<'_>) -> PyResult<&Vec<Py<PyType>>> {
    EXC_TYPES.get_or_try_init(py, || {
        // Any failure to import cryptography (absent, broken) means plain
        // Exception subclasses.
        let crypto = py.import("cryptography.exceptions").ok();
        let exception = py.get_type::<PyException>();
        EXCEPTIONS
            .iter()
            .map(|(name, qual, doc)| {
                let base = crypto
                    .as_ref()
                    .and_then(|m| m.getattr(*name).ok())
                    .and_then(|b| b.cast_into::<PyType>().ok())
                    .filter(|b| b.is_subclass(&exception).unwrap_or(false))
                    .unwrap_or_else(|| exception.clone());
                PyErr::new_type(py, qual, Some(doc), Some(&base), None)
            })
            .collect()
    })
}

/// An exception of one of galois's classes.
fn raise(kind: Exc, msg: impl Into<String>) -> PyErr {
    let msg: String = msg.into();
    Python::attach(|py| match exc_types(py) {
        Ok(t) => PyErr::from_type(t[kind as usize].bind(py).clone(), msg),
        Err(e) => e,
    })
}

fn invalid_tag() -> PyErr {
    raise(Exc::InvalidTag, "the tag did not verify")
}

fn invalid_signature() -> PyErr {
    raise(Exc::InvalidSignature, "the tag did not verify")
}

/// Inputs at least this long are processed with the GIL released.
const GIL_RELEASE_BYTES: usize = 4096;

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

/// A read-only view of a Python bytes-like argument.
enum In<'py> {
    Bytes(Bound<'py, PyBytes>),
    Buf(PyUntypedBuffer),
    Empty,
}

impl In<'_> {
    /// The bytes, read in place. Use only with the GIL held (no Python
    /// thread can write a buffer then) and for no longer than the call.
    fn as_slice(&self) -> &[u8] {
        match self {
            In::Bytes(b) => b.as_bytes(),
            // SAFETY: a C-contiguous buffer of len_bytes() bytes, held
            // exported (so not resized or freed) for the life of self;
            // RawSlice::get handles the empty buffer (whose pointer may be
            // null).
            In::Buf(b) => unsafe { RawSlice(b.buf_ptr() as *const u8, b.len_bytes()).get() },
            In::Empty => &[],
        }
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// The bytes for use without the GIL: `bytes` (immutable) are pointed
    /// to, anything else is copied now, while the GIL is held, into private
    /// memory (wiped when dropped), so no thread can change them under the
    /// computation.
    fn for_detach(&self) -> Detached {
        match self {
            In::Bytes(_) | In::Empty => {
                let s = self.as_slice();
                Detached::Borrowed(RawSlice(s.as_ptr(), s.len()))
            }
            In::Buf(_) => Detached::Owned(Zeroizing::new(self.as_slice().to_vec())),
        }
    }
}

/// A pointer and length that may cross into a `detach` closure. Only built
/// from memory that stays alive and unchanged while the closure runs.
#[derive(Clone, Copy)]
struct RawSlice(*const u8, usize);
// SAFETY: see the type's docs: the callers keep the memory alive and nobody
// writes it (immutable `bytes`, or memory exclusively ours).
unsafe impl Send for RawSlice {}

impl RawSlice {
    /// # Safety
    /// The memory is alive and unchanged for 'a (and, if the length is not
    /// zero, the pointer is valid for reads of that many bytes).
    unsafe fn get<'a>(self) -> &'a [u8] {
        if self.1 == 0 {
            &[]
        } else {
            // SAFETY: non-empty, and the caller's guarantee above.
            unsafe { core::slice::from_raw_parts(self.0, self.1) }
        }
    }
}

/// A copy of input bytes into private memory: made at once (GIL held), or,
/// for immutable `bytes` in work that runs without the GIL, left to
/// [`Pending::finish`] inside the detached closure, so the GIL is not held
/// for a copy that needs no protection.
struct Pending(Option<RawSlice>);

impl Pending {
    fn copy(src: &In<'_>, range: core::ops::Range<usize>, dst: &mut [u8], detached: bool) -> Self {
        let s = &src.as_slice()[range];
        if detached && matches!(src, In::Bytes(_) | In::Empty) {
            Pending(Some(RawSlice(s.as_ptr(), s.len())))
        } else {
            dst.copy_from_slice(s);
            Pending(None)
        }
    }

    fn finish(self, dst: &mut [u8]) {
        if let Some(r) = self.0 {
            // SAFETY: r points into an immutable `bytes` object kept alive by
            // the caller's In for the whole call.
            dst.copy_from_slice(unsafe { r.get() });
        }
    }
}

enum Detached {
    Borrowed(RawSlice),
    Owned(Zeroizing<Vec<u8>>),
}

impl Detached {
    fn as_slice(&self) -> &[u8] {
        match self {
            // SAFETY: built by In::for_detach from immutable memory that
            // outlives us.
            Detached::Borrowed(r) => unsafe { r.get() },
            Detached::Owned(v) => v,
        }
    }
}

/// The caller's output buffer (`buf` of the `*_into` calls). It is never
/// computed in: results are built in private memory and copied here in one
/// go, with the GIL held, only once complete (for decryption: only after the
/// tag verified). No Rust reference to it is ever made, since other code
/// (another process sharing the memory, a thread outside Python) may reach
/// it; it is written through its raw pointer only.
struct Out {
    buf: PyUntypedBuffer,
}

impl Out {
    fn len(&self) -> usize {
        self.buf.len_bytes()
    }

    /// Copies `src` (exactly `len()` bytes of private memory) into the buffer.
    fn fill_from(&self, _gil: Python<'_>, src: &[u8]) {
        assert_eq!(src.len(), self.len());
        if !src.is_empty() {
            // SAFETY: the buffer is writable and C-contiguous with len()
            // bytes, kept exported (not freed or resized) by self.buf; src
            // is our private memory, so the two do not overlap.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    src.as_ptr(),
                    self.buf.buf_ptr() as *mut u8,
                    src.len(),
                )
            }
        }
    }

    /// Copies `src` (private memory, at most `len()` bytes) into the start
    /// of the buffer.
    fn fill_prefix(&self, _gil: Python<'_>, src: &[u8]) {
        assert!(src.len() <= self.len());
        if !src.is_empty() {
            // SAFETY: as in fill_from, for the first src.len() bytes.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    src.as_ptr(),
                    self.buf.buf_ptr() as *mut u8,
                    src.len(),
                )
            }
        }
    }

    /// Zeroes the buffer (on every error of a call that was given it).
    fn wipe(&self, _gil: Python<'_>) {
        if self.len() != 0 {
            // SAFETY: as in fill_from.
            unsafe { core::ptr::write_bytes(self.buf.buf_ptr() as *mut u8, 0, self.len()) }
        }
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Checks a buffer the way cryptography does: a non-contiguous buffer is a
/// BufferError, items of more than one byte (array('I'), a memoryview cast
/// to 'I') a TypeError.
fn check_buffer(obj: &Bound<'_, PyAny>, buf: &PyUntypedBuffer, what: &str) -> PyResult<()> {
    if !buf.is_c_contiguous() {
        return Err(PyBufferError::new_err(format!(
            "Buffer is not contiguous. ({what})"
        )));
    }
    // The formats cryptography takes: unsigned bytes ('B', 'c'), as pyo3's
    // u8 element check decides (it refuses 'b', '?' and wider items).
    if buf.item_size() != 1 || !<u8 as Element>::is_compatible_format(buf.format()) {
        return Err(PyTypeError::new_err(format!(
            "Cannot convert \"{}\" instance to a buffer: {what} has items of format '{}' \
             ({} bytes), not unsigned bytes (pass bytes, bytearray, or a memoryview cast to 'B')",
            obj.get_type(),
            buf.format().to_string_lossy(),
            buf.item_size()
        )));
    }
    Ok(())
}

/// Reads a bytes-like argument; TypeError with the argument's name otherwise.
fn input<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<In<'py>> {
    if let Ok(b) = obj.cast_exact::<PyBytes>() {
        return Ok(In::Bytes(b.clone()));
    }
    let buf = PyUntypedBuffer::get(obj).map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a bytes-like object (bytes, bytearray, memoryview), not {}",
            type_name(obj)
        ))
    })?;
    check_buffer(obj, &buf, what)?;
    Ok(In::Buf(buf))
}

/// As [`input`], with `None` read as empty.
fn input_opt<'py>(obj: Option<&Bound<'py, PyAny>>, what: &str) -> PyResult<In<'py>> {
    match obj {
        None => Ok(In::Empty),
        Some(o) if o.is_none() => Ok(In::Empty),
        Some(o) => input(o, what),
    }
}

/// A writable buffer argument (its length is checked by [`Out::check_len`]).
fn output(obj: &Bound<'_, PyAny>) -> PyResult<Out> {
    let buf = PyUntypedBuffer::get(obj).map_err(|_| {
        PyTypeError::new_err(format!(
            "buf must be a writable bytes-like object (bytearray, memoryview), not {}",
            type_name(obj)
        ))
    })?;
    if buf.readonly() {
        return Err(PyTypeError::new_err(format!(
            "buf must be writable ({} is read-only)",
            type_name(obj)
        )));
    }
    check_buffer(obj, &buf, "buf")?;
    Ok(Out { buf })
}

impl Out {
    fn check_len(&self, need: usize) -> PyResult<()> {
        if self.len() != need {
            return Err(PyValueError::new_err(format!(
                "buffer must be {need} bytes, got {}",
                self.len()
            )));
        }
        Ok(())
    }
}

/// galois errors as Python exceptions: a failed tag is InvalidTag, every
/// parameter error a ValueError with galois's own message.
fn err(e: Error) -> PyErr {
    match e {
        Error::AuthenticationFailed | Error::CiphertextTooShort { .. } => invalid_tag(),
        Error::RandomSourceFailed => PyOSError::new_err(e.to_string()),
        Error::InvalidKeyLength { got } => {
            PyValueError::new_err(format!("key must be 16, 24 or 32 bytes, got {got}"))
        }
        Error::InvalidIvLength { got: 0 } => {
            PyValueError::new_err("nonce must be at least 1 byte, got 0")
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// MAC verification errors: a tag that does not verify is InvalidSignature.
fn mac_err(e: Error) -> PyErr {
    match e {
        Error::AuthenticationFailed | Error::InvalidTagLength { .. } => invalid_signature(),
        e => err(e),
    }
}

/// The nonce range of cryptography's AESGCM, unless `any_nonce_length`.
const NONCE_MIN: usize = 8;
const NONCE_MAX: usize = 128;

fn nonce_arg<'py>(obj: &Bound<'py, PyAny>, any_len: bool) -> PyResult<In<'py>> {
    let n = input(obj, "nonce")?;
    if !any_len && !(NONCE_MIN..=NONCE_MAX).contains(&n.len()) {
        // cryptography's exact message.
        return Err(PyValueError::new_err(
            "Nonce must be between 8 and 128 bytes",
        ));
    }
    Ok(n)
}

fn gcm_options(tag_length: usize, permissive: bool) -> PyResult<Options> {
    let bad = || {
        PyValueError::new_err(if permissive {
            format!("tag_length must be 4 to 16 bytes, got {tag_length}")
        } else {
            format!(
                "tag_length must be 16, 12 to 15, 8 or 4 bytes, got {tag_length} \
                 (permissive=True allows 4 to 16)"
            )
        })
    };
    if permissive {
        return Options::new()
            .permissive_tag_len(tag_length)
            .map_err(|_| bad());
    }
    match tag_length {
        8 => Ok(Options::new().short_tag(ShortTag::Bytes8)),
        4 => Ok(Options::new().short_tag(ShortTag::Bytes4)),
        n => Options::new().tag_len(n).map_err(|_| bad()),
    }
}

fn random_bytes(py: Python<'_>, n: usize) -> PyResult<Bound<'_, PyBytes>> {
    PyBytes::new_with(py, n, |b| {
        getrandom::fill(b).map_err(|e| PyOSError::new_err(format!("random source: {e}")))
    })
}

// ---------------------------------------------------------------------------
// AESGCM
// ---------------------------------------------------------------------------

/// `items` as English: "16, 24 or 32".
fn or_list(items: impl Iterator<Item = usize>) -> String {
    let v: Vec<String> = items.map(|x| x.to_string()).collect();
    match v.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The key-length error of the AEAD `A`: its name and `A::KEY_LENS`.
fn key_len_err<A: AeadInit>(got: usize) -> PyErr {
    PyValueError::new_err(format!(
        "{} key must be {} bytes ({} bits), got {got}",
        A::NAME,
        or_list(A::KEY_LENS.iter().copied()),
        or_list(A::KEY_LENS.iter().map(|k| k * 8)),
    ))
}

/// `e` as a Python exception, a key-length error with `A`'s message.
fn aead_err<A: AeadInit>(e: Error) -> PyErr {
    match e {
        Error::InvalidKeyLength { got } => key_len_err::<A>(got),
        e => err(e),
    }
}

/// The AEAD `A` over `key` (any bytes-like object).
fn new_aead<A: AeadInit>(key: &Bound<'_, PyAny>) -> PyResult<A> {
    A::new(input(key, "key")?.as_slice()).map_err(aead_err::<A>)
}

/// A random key for `A` of `bit_length` bits (one of `A::KEY_LENS` x 8)
/// from the OS; `None` only when `A` has one key length.
fn generate_key<A: AeadInit>(
    py: Python<'_>,
    bit_length: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    let bits: i64 = match bit_length {
        Some(b) => b.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "bit_length must be an integer, not {}",
                type_name(b)
            ))
        })?,
        None if A::KEY_LENS.len() == 1 => A::KEY_LENS[0] as i64 * 8,
        None => {
            return Err(PyTypeError::new_err(
                "generate_key() missing required argument 'bit_length'",
            ))
        }
    };
    match A::KEY_LENS.iter().find(|&&k| k as i64 * 8 == bits) {
        Some(&k) => Ok(random_bytes(py, k)?.unbind()),
        None => Err(PyValueError::new_err(format!(
            "bit_length must be {}, got {bits}",
            or_list(A::KEY_LENS.iter().map(|k| k * 8))
        ))),
    }
}


/// AES-GCM with the call shapes of
/// ``cryptography.hazmat.primitives.ciphers.aead.AESGCM``.
///
/// ``AESGCM(key)`` takes a 16-, 24- or 32-byte key (AES-128/192/256).
/// Keyword-only options: ``tag_length`` (16 by default; 12 to 15, 8 or 4,
/// which then take 12-byte nonces only) and ``permissive=True`` (any tag
/// length 4 to 16 with any nonce length: for interoperability tests only).
///
/// Nonces are 8 to 128 bytes, as in cryptography (``any_nonce_length=True``:
/// any length of 1 byte or more); use 12 bytes, and never use a nonce twice
/// with one key.
///
/// >>> import galois_aead
/// >>> key = galois_aead.AESGCM.generate_key(128)
/// >>> aead = galois_aead.AESGCM(key)
/// >>> ct = aead.encrypt(b"\x00" * 12, b"secret", b"header")
/// >>> aead.decrypt(b"\x00" * 12, ct, b"header")
/// b'secret'
#[pyclass(frozen, module = "galois_aead", name = "AESGCM")]
struct PyAesGcm {
    gcm: Arc<AesGcm>,
    any_nonce: bool,
}

#[pymethods]
impl PyAesGcm {
    #[new]
    #[pyo3(signature = (key, *, tag_length = 16, permissive = false, any_nonce_length = false))]
    fn new(
        key: &Bound<'_, PyAny>,
        tag_length: usize,
        permissive: bool,
        any_nonce_length: bool,
    ) -> PyResult<Self> {
        let k = input(key, "key")?;
        let opts = gcm_options(tag_length, permissive)?;
        let gcm = AesGcm::with_options(k.as_slice(), opts).map_err(aead_err::<AesGcm>)?;
        Ok(PyAesGcm {
            gcm: Arc::new(gcm),
            any_nonce: any_nonce_length,
        })
    }

    /// A random key of ``bit_length`` bits (128, 192 or 256) from the OS.
    #[staticmethod]
    #[pyo3(signature = (bit_length = None))]
    fn generate_key(py: Python<'_>, bit_length: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyBytes>> {
        generate_key::<AesGcm>(py, bit_length)
    }

    /// The tag length in bytes.
    #[getter]
    fn tag_length(&self) -> usize {
        self.gcm.tag_len()
    }

    /// Encrypts ``data`` and returns ciphertext || tag.
    /// ``associated_data`` (or None) is authenticated, not encrypted.
    #[pyo3(signature = (nonce, data, associated_data))]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let d = input(data, "data")?;
        let a = input_opt(associated_data, "associated_data")?;
        let t = self.gcm.tag_len();
        let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
        // The new bytes object is private until returned: the plaintext is
        // copied into it and encrypted in place there.
        PyBytes::new_with(py, d.len() + t, |out| {
            let (c, tag_out) = out.split_at_mut(d.len());
            let p = Pending::copy(&d, 0..d.len(), c, big);
            let r = if big {
                let (n, a) = (n.for_detach(), a.for_detach());
                let g = Arc::clone(&self.gcm);
                py.detach(move || {
                    p.finish(c);
                    g.seal_in_place_detached(n.as_slice(), a.as_slice(), c)
                })
            } else {
                self.gcm
                    .seal_in_place_detached(n.as_slice(), a.as_slice(), c)
            };
            match r {
                Ok(tag) => {
                    tag_out.copy_from_slice(tag.as_bytes());
                    Ok(())
                }
                Err(e) => {
                    // The object is freed unreturned: leave no plaintext in it.
                    out.zeroize();
                    Err(err(e))
                }
            }
        })
    }

    /// Verifies and decrypts ciphertext || tag; raises ``galois_aead.InvalidTag``
    /// if it does not verify (nothing is returned then).
    #[pyo3(signature = (nonce, data, associated_data))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let d = input(data, "data")?;
        let a = input_opt(associated_data, "associated_data")?;
        let t = self.gcm.tag_len();
        if d.len() < t {
            return Err(invalid_tag());
        }
        let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
        // The ciphertext is read once into the new, still private bytes
        // object and opened in place there: the bytes hashed are the bytes
        // decrypted, and nobody sees them before the tag verified.
        PyBytes::new_with(py, d.len() - t, |out| {
            let tag = TagBuf::new(&d.as_slice()[d.len() - t..]);
            let p = Pending::copy(&d, 0..d.len() - t, out, big);
            let r = if big {
                let (n, a) = (n.for_detach(), a.for_detach());
                let g = Arc::clone(&self.gcm);
                let o = &mut *out;
                py.detach(move || {
                    p.finish(o);
                    g.open_in_place_detached(n.as_slice(), a.as_slice(), o, tag.get())
                })
            } else {
                self.gcm
                    .open_in_place_detached(n.as_slice(), a.as_slice(), out, tag.get())
            };
            r.map_err(|e| {
                out.zeroize();
                err(e)
            })
        })
    }

    /// Encrypts ``data`` into ``buf`` (a writable buffer of exactly
    /// ``len(data) + tag_length`` bytes) as ciphertext || tag; returns the
    /// number of bytes written. The result is computed in private memory and
    /// copied into ``buf`` whole; on any error ``buf`` is zeroed.
    #[pyo3(signature = (nonce, data, associated_data, buf))]
    fn encrypt_into(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        associated_data: Option<&Bound<'_, PyAny>>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let out = output(buf)?;
        let r = self.buffer_call(py, nonce, data, associated_data, &out, true);
        if r.is_err() {
            out.wipe(py);
        }
        r
    }

    /// Verifies and decrypts ciphertext || tag into ``buf`` (exactly
    /// ``len(data) - tag_length`` bytes); returns the number of bytes
    /// written. ``buf`` receives the plaintext only after the tag verified,
    /// in one copy; on any error (``InvalidTag`` included) it is zeroed.
    #[pyo3(signature = (nonce, data, associated_data, buf))]
    fn decrypt_into(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        associated_data: Option<&Bound<'_, PyAny>>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let out = output(buf)?;
        let r = self.buffer_call(py, nonce, data, associated_data, &out, false);
        if r.is_err() {
            out.wipe(py);
        }
        r
    }

    /// Starts an on-line encryption under ``nonce`` (cryptography's GCM
    /// encryption context): associated data, then data in pieces of any
    /// size; ``finalize()`` returns ``b""`` and the tag is then ``.tag``.
    fn encryptor(&self, nonce: &Bound<'_, PyAny>) -> PyResult<GcmEncryptor> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let key = Arc::clone(&self.gcm);
        let enc = key.encryptor(n.as_slice()).map_err(err)?;
        // SAFETY: the encryptor borrows the AesGcm inside the Arc, whose heap
        // address is stable; GcmEncryptor keeps that Arc in a field declared
        // after (so dropped after) the encryptor, so the borrow never dangles.
        let enc: OnlineEnc = unsafe { core::mem::transmute(enc) };
        Ok(GcmEncryptor {
            st: Mutex::new(EncState {
                enc: Some(enc),
                tag: None,
                updated: false,
            }),
            key,
        })
    }

    /// Starts an on-line decryption under ``nonce`` that releases nothing
    /// before the tag verifies: ``update()`` keeps the ciphertext and returns
    /// ``b""``; ``finalize_with_tag(tag)`` (or ``finalize()`` if ``tag`` is
    /// given here) returns the whole plaintext or raises ``InvalidTag``.
    #[pyo3(signature = (nonce, tag = None))]
    fn decryptor(
        &self,
        nonce: &Bound<'_, PyAny>,
        tag: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<GcmDecryptor> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let tag = match tag {
            Some(t) if !t.is_none() => {
                let t = input(t, "tag")?;
                let need = self.gcm.tag_len();
                if t.len() != need {
                    return Err(PyValueError::new_err(format!(
                        "tag must be {need} bytes, got {}",
                        t.len()
                    )));
                }
                Some(TagBuf::new(t.as_slice()))
            }
            _ => None,
        };
        let key = Arc::clone(&self.gcm);
        let dec = key.decryptor(n.as_slice()).map_err(err)?;
        // SAFETY: as in encryptor().
        let dec: OnlineDec = unsafe { core::mem::transmute(dec) };
        Ok(GcmDecryptor {
            st: Mutex::new(DecState {
                dec: Some(dec),
                updated: false,
            }),
            tag,
            key,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "galois_aead.AESGCM(AES-{}, tag_length={})",
            self.gcm.cipher().key_len() * 8,
            self.gcm.tag_len()
        )
    }
}

impl PyAesGcm {
    /// encrypt_into / decrypt_into. The inputs are read once, with the GIL
    /// held, into private scratch memory (wiped when dropped, on every path);
    /// the computation (without the GIL for large inputs) touches only that
    /// scratch; `out` is written after it finished, with the GIL held.
    fn buffer_call(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        associated_data: Option<&Bound<'_, PyAny>>,
        out: &Out,
        seal: bool,
    ) -> PyResult<usize> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let d = input(data, "data")?;
        let a = input_opt(associated_data, "associated_data")?;
        let t = self.gcm.tag_len();
        let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
        let (mut scratch, tag, p) = if seal {
            out.check_len(d.len() + t)?;
            let mut s = Zeroizing::new(vec![0u8; d.len() + t]);
            let p = Pending::copy(&d, 0..d.len(), &mut s[..d.len()], big);
            (s, TagBuf::new(&[]), p)
        } else {
            if d.len() < t {
                return Err(invalid_tag());
            }
            out.check_len(d.len() - t)?;
            let mut s = Zeroizing::new(vec![0u8; d.len() - t]);
            let p = Pending::copy(&d, 0..d.len() - t, &mut s, big);
            (s, TagBuf::new(&d.as_slice()[d.len() - t..]), p)
        };
        let g = &*self.gcm;
        let len = d.len();
        let run = move |n: &[u8], a: &[u8], s: &mut [u8]| -> Result<(), Error> {
            if seal {
                let (c, tag_out) = s.split_at_mut(len);
                let tag = g.seal_in_place_detached(n, a, c)?;
                tag_out.copy_from_slice(tag.as_bytes());
                Ok(())
            } else {
                g.open_in_place_detached(n, a, s, tag.get())
            }
        };
        let s = &mut scratch[..];
        if big {
            let (n, a) = (n.for_detach(), a.for_detach());
            py.detach(move || {
                p.finish(&mut s[..len - if seal { 0 } else { t }]);
                run(n.as_slice(), a.as_slice(), s)
            })
        } else {
            run(n.as_slice(), a.as_slice(), s)
        }
        .map_err(err)?;
        out.fill_from(py, &scratch);
        Ok(out.len())
    }
}

/// A received tag, copied out of the input (at most 16 bytes).
#[derive(Clone, Copy)]
struct TagBuf([u8; 16], usize);

impl TagBuf {
    fn new(t: &[u8]) -> Self {
        let mut b = [0u8; 16];
        let n = t.len().min(16);
        b[..n].copy_from_slice(&t[..n]);
        TagBuf(b, t.len())
    }
    fn get(&self) -> &[u8] {
        &self.0[..self.1.min(16)]
    }
}

// ---------------------------------------------------------------------------
// Streaming GCM
// ---------------------------------------------------------------------------

fn finalized() -> PyErr {
    raise(Exc::AlreadyFinalized, "Context was already finalized.")
}

/// Locks a streaming context without waiting: a second thread using the same
/// context at once gets a RuntimeError (waiting would deadlock, since the
/// first one may be running without the GIL and need it back).
fn lock<'a, T>(m: &'a Mutex<T>, what: &str) -> PyResult<MutexGuard<'a, T>> {
    match m.try_lock() {
        Ok(g) => Ok(g),
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(format!(
            "this {what} is in use by another thread"
        ))),
    }
}

fn check_room(out: &Out, need: usize) -> PyResult<()> {
    if out.len() < need {
        return Err(PyValueError::new_err(format!(
            "buffer must be at least {need} bytes, got {}",
            out.len()
        )));
    }
    Ok(())
}

type OnlineEnc = galois_aead::gcm::online::Encryptor<'static, Aes>;
type OnlineDec = galois_aead::gcm::online::Decryptor<'static, Aes>;

struct EncState {
    enc: Option<OnlineEnc>,
    tag: Option<Vec<u8>>,
    updated: bool,
}

/// An on-line AES-GCM encryption (from ``AESGCM.encryptor(nonce)``), with
/// the interface of cryptography's GCM encryption context:
/// ``authenticate_additional_data``, ``update``, ``update_into``,
/// ``finalize`` (returns ``b""``) and then ``tag``.
///
/// >>> import galois_aead
/// >>> aead = galois_aead.AESGCM(bytes(16))
/// >>> enc = aead.encryptor(bytes(12))
/// >>> enc.authenticate_additional_data(b"header")
/// >>> ct = enc.update(b"sec") + enc.update(b"ret") + enc.finalize()
/// >>> ct + enc.tag == aead.encrypt(bytes(12), b"secret", b"header")
/// True
#[pyclass(module = "galois_aead", name = "GCMEncryptor")]
struct GcmEncryptor {
    // Declared (and so dropped) before the key it borrows.
    st: Mutex<EncState>,
    key: Arc<AesGcm>,
}

#[pymethods]
impl GcmEncryptor {
    /// Absorbs associated data (only before the first ``update``; after it,
    /// ``AlreadyUpdated``).
    fn authenticate_additional_data(&self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let d = input(data, "data")?;
        let mut g = lock(&self.st, "GCMEncryptor")?;
        let updated = g.updated;
        let enc = g.enc.as_mut().ok_or_else(finalized)?;
        if updated {
            return Err(raise(
                Exc::AlreadyUpdated,
                "Update has been called on this context.",
            ));
        }
        enc.aad(d.as_slice()).map_err(err)
    }

    /// Encrypts a piece of data and returns its ciphertext (same length).
    fn update<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let d = input(data, "data")?;
        let mut g = lock(&self.st, "GCMEncryptor")?;
        let st = &mut *g;
        let enc = st.enc.as_mut().ok_or_else(finalized)?;
        st.updated = true;
        let big = d.len() >= GIL_RELEASE_BYTES;
        // The new bytes object is private until returned: the plaintext is
        // copied into it and encrypted in place there.
        PyBytes::new_with(py, d.len(), |out| {
            let p = Pending::copy(&d, 0..d.len(), out, big);
            let r = if big {
                let o = &mut *out;
                py.detach(move || {
                    p.finish(o);
                    enc.encrypt(o)
                })
            } else {
                enc.encrypt(out)
            };
            r.map_err(|e| {
                out.zeroize();
                err(e)
            })
        })
    }

    /// Encrypts ``data`` into the first ``len(data)`` bytes of ``buf`` (at
    /// least that long) and returns ``len(data)``. Computed in private memory
    /// and copied into ``buf`` whole; on any error ``buf`` is zeroed.
    fn update_into(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let out = output(buf)?;
        let r = (|| {
            let d = input(data, "data")?;
            check_room(&out, d.len())?;
            let mut g = lock(&self.st, "GCMEncryptor")?;
            let st = &mut *g;
            let enc = st.enc.as_mut().ok_or_else(finalized)?;
            st.updated = true;
            let big = d.len() >= GIL_RELEASE_BYTES;
            let mut scratch = Zeroizing::new(vec![0u8; d.len()]);
            let p = Pending::copy(&d, 0..d.len(), &mut scratch, big);
            let s = &mut scratch[..];
            if big {
                py.detach(move || {
                    p.finish(s);
                    enc.encrypt(s)
                })
            } else {
                enc.encrypt(s)
            }
            .map_err(err)?;
            out.fill_prefix(py, &scratch);
            Ok(d.len())
        })();
        if r.is_err() {
            out.wipe(py);
        }
        r
    }

    /// Ends the encryption; returns ``b""`` (GCM has no final block). The
    /// tag is then in ``tag``.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut g = lock(&self.st, "GCMEncryptor")?;
        let enc = g.enc.take().ok_or_else(finalized)?;
        g.tag = Some(enc.finish().as_bytes().to_vec());
        Ok(PyBytes::new(py, b""))
    }

    /// The tag, after ``finalize()`` (before it: ``NotYetFinalized``).
    #[getter]
    fn tag<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let g = lock(&self.st, "GCMEncryptor")?;
        match &g.tag {
            Some(t) => Ok(PyBytes::new(py, t)),
            None => Err(raise(
                Exc::NotYetFinalized,
                "You must finalize encryption before getting the tag.",
            )),
        }
    }

    fn __repr__(&self) -> String {
        let fin = match self.st.try_lock() {
            Ok(g) => {
                if g.enc.is_none() {
                    "True"
                } else {
                    "False"
                }
            }
            Err(_) => "?",
        };
        format!(
            "galois_aead.GCMEncryptor(AES-{}, tag_length={}, finalized={fin})",
            self.key.cipher().key_len() * 8,
            self.key.tag_len()
        )
    }
}

struct DecState {
    dec: Option<OnlineDec>,
    updated: bool,
}

/// An on-line AES-GCM decryption (from ``AESGCM.decryptor(nonce, tag=None)``)
/// with the interface of cryptography's GCM decryption context, except that
/// it never releases unverified plaintext: ``update`` keeps the ciphertext
/// and returns ``b""`` (``update_into`` writes nothing and returns 0), and
/// ``finalize_with_tag(tag)`` (or ``finalize()`` when the tag was given to
/// ``decryptor``) verifies the tag and returns the WHOLE plaintext, or
/// raises ``InvalidTag``. Code that concatenates what ``update`` and
/// ``finalize`` return (as cryptography's examples do) gets the same result;
/// code that ignores ``finalize``'s result gets nothing.
///
/// >>> import galois_aead
/// >>> aead = galois_aead.AESGCM(bytes(16))
/// >>> ct = aead.encrypt(bytes(12), b"secret", None)
/// >>> dec = aead.decryptor(bytes(12))
/// >>> dec.update(ct[:3]) + dec.update(ct[3:-16]) + dec.finalize_with_tag(ct[-16:])
/// b'secret'
#[pyclass(module = "galois_aead", name = "GCMDecryptor")]
struct GcmDecryptor {
    // Declared (and so dropped) before the key it borrows.
    st: Mutex<DecState>,
    tag: Option<TagBuf>,
    key: Arc<AesGcm>,
}

impl GcmDecryptor {
    fn finish<'py>(&self, py: Python<'py>, tag: Option<&[u8]>) -> PyResult<Bound<'py, PyBytes>> {
        let mut g = lock(&self.st, "GCMDecryptor")?;
        if g.dec.is_none() {
            return Err(finalized());
        }
        let tag: TagBuf = match (tag, self.tag) {
            (None, None) => {
                return Err(PyValueError::new_err(
                    "Authentication tag must be provided when decrypting.",
                ));
            }
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err(
                    "Authentication tag must be provided only once.",
                ));
            }
            (None, Some(t)) => t,
            (Some(t), None) => {
                let need = self.key.tag_len();
                if t.len() < need {
                    return Err(PyValueError::new_err(format!(
                        "Authentication tag must be {need} bytes or longer."
                    )));
                }
                if t.len() > need {
                    g.dec = None;
                    return Err(invalid_tag());
                }
                TagBuf::new(t)
            }
        };
        let dec = g.dec.take().ok_or_else(finalized)?;
        let r = match py.detach(move || dec.finish(tag.get())) {
            Err(Error::InvalidTagLength { .. }) => Err(Error::AuthenticationFailed),
            r => r,
        };
        let pt = Zeroizing::new(r.map_err(err)?);
        Ok(PyBytes::new(py, &pt))
    }

    fn take_update(&self, py: Python<'_>, d: &In<'_>) -> PyResult<()> {
        let mut g = lock(&self.st, "GCMDecryptor")?;
        let st = &mut *g;
        let dec = st.dec.as_mut().ok_or_else(finalized)?;
        st.updated = true;
        if d.len() >= GIL_RELEASE_BYTES {
            let dd = d.for_detach();
            py.detach(move || dec.update(dd.as_slice()))
        } else {
            dec.update(d.as_slice())
        }
        .map_err(err)
    }
}

#[pymethods]
impl GcmDecryptor {
    /// Absorbs associated data (only before the first ``update``; after it,
    /// ``AlreadyUpdated``).
    fn authenticate_additional_data(&self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let d = input(data, "data")?;
        let mut g = lock(&self.st, "GCMDecryptor")?;
        let updated = g.updated;
        let dec = g.dec.as_mut().ok_or_else(finalized)?;
        if updated {
            return Err(raise(
                Exc::AlreadyUpdated,
                "Update has been called on this context.",
            ));
        }
        dec.aad(d.as_slice()).map_err(err)
    }

    /// Takes a piece of ciphertext, kept until the tag is checked; returns
    /// ``b""`` (no plaintext is released before verification).
    fn update<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let d = input(data, "data")?;
        self.take_update(py, &d)?;
        Ok(PyBytes::new(py, b""))
    }

    /// As ``update``: takes the ciphertext, writes nothing to ``buf`` (which
    /// must hold at least ``len(data)`` bytes, as in cryptography) and
    /// returns 0. The plaintext comes from ``finalize_with_tag``. On any
    /// error ``buf`` is zeroed.
    fn update_into(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        buf: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let out = output(buf)?;
        let r = (|| {
            let d = input(data, "data")?;
            check_room(&out, d.len())?;
            self.take_update(py, &d)?;
            Ok(0)
        })();
        if r.is_err() {
            out.wipe(py);
        }
        r
    }

    /// Verifies ``tag`` and returns the whole plaintext, or raises
    /// ``InvalidTag`` (for a context made without a tag).
    fn finalize_with_tag<'py>(
        &self,
        py: Python<'py>,
        tag: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let t = input(tag, "tag")?;
        self.finish(py, Some(t.as_slice()))
    }

    /// Verifies the tag given to ``decryptor(nonce, tag)`` and returns the
    /// whole plaintext, or raises ``InvalidTag``.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.finish(py, None)
    }

    fn __repr__(&self) -> String {
        let fin = match self.st.try_lock() {
            Ok(g) => {
                if g.dec.is_none() {
                    "True"
                } else {
                    "False"
                }
            }
            Err(_) => "?",
        };
        format!(
            "galois_aead.GCMDecryptor(AES-{}, tag_length={}, finalized={fin})",
            self.key.cipher().key_len() * 8,
            self.key.tag_len()
        )
    }
}

// ---------------------------------------------------------------------------
// GMAC
// ---------------------------------------------------------------------------

/// AES-GMAC: GCM authenticating ``data`` without encrypting anything.
///
/// ``GMAC(key)`` takes a 16-, 24- or 32-byte key; ``tag_length``,
/// ``permissive`` and ``any_nonce_length`` (nonces of 8 to 128 bytes by
/// default) as for ``AESGCM``. Never reuse a nonce with one key.
///
/// >>> import galois_aead
/// >>> mac = galois_aead.GMAC(bytes(16))
/// >>> tag = mac.authenticate(bytes(12), b"message")
/// >>> mac.verify(bytes(12), b"message", tag)
#[pyclass(frozen, module = "galois_aead", name = "GMAC")]
struct PyGmac {
    mac: Arc<AesGmac>,
    any_nonce: bool,
}

#[pymethods]
impl PyGmac {
    #[new]
    #[pyo3(signature = (key, *, tag_length = 16, permissive = false, any_nonce_length = false))]
    fn new(
        key: &Bound<'_, PyAny>,
        tag_length: usize,
        permissive: bool,
        any_nonce_length: bool,
    ) -> PyResult<Self> {
        let k = input(key, "key")?;
        let opts = gcm_options(tag_length, permissive)?;
        let mac = AesGmac::with_options(k.as_slice(), opts).map_err(err)?;
        Ok(PyGmac {
            mac: Arc::new(mac),
            any_nonce: any_nonce_length,
        })
    }

    /// A random key of ``bit_length`` bits (128, 192 or 256).
    #[staticmethod]
    fn generate_key(py: Python<'_>, bit_length: &Bound<'_, PyAny>) -> PyResult<Py<PyBytes>> {
        generate_key::<AesGcm>(py, Some(bit_length))
    }

    /// The tag length in bytes.
    #[getter]
    fn tag_length(&self) -> usize {
        self.mac.gcm().tag_len()
    }

    fn __repr__(&self) -> String {
        format!(
            "galois_aead.GMAC(AES-{}, tag_length={})",
            self.mac.gcm().cipher().key_len() * 8,
            self.mac.gcm().tag_len()
        )
    }

    /// The tag of ``data`` under ``nonce``.
    fn authenticate<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let d = input(data, "data")?;
        let tag = if d.len() >= GIL_RELEASE_BYTES {
            let (n, d) = (n.for_detach(), d.for_detach());
            let m = Arc::clone(&self.mac);
            py.detach(move || m.authenticate(n.as_slice(), d.as_slice()))
        } else {
            self.mac.authenticate(n.as_slice(), d.as_slice())
        }
        .map_err(err)?;
        Ok(PyBytes::new(py, tag.as_bytes()))
    }

    /// Returns None if ``tag`` is the tag of ``data`` under ``nonce``, else
    /// raises ``galois_aead.InvalidSignature`` (also for a tag of the wrong length).
    fn verify(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        let d = input(data, "data")?;
        let t = input(tag, "tag")?;
        if t.len() != self.mac.gcm().tag_len() {
            return Err(invalid_signature());
        }
        if d.len() >= GIL_RELEASE_BYTES {
            let (n, d, t) = (n.for_detach(), d.for_detach(), t.for_detach());
            let m = Arc::clone(&self.mac);
            py.detach(move || m.verify(n.as_slice(), d.as_slice(), t.as_slice()))
        } else {
            self.mac.verify(n.as_slice(), d.as_slice(), t.as_slice())
        }
        .map_err(mac_err)
    }
}

// ---------------------------------------------------------------------------
// Poly1305-AES
// ---------------------------------------------------------------------------

/// Poly1305-AES (Bernstein 2005): a 32-byte key k || r (r clamped), 16-byte
/// nonces, 16-byte tags. Never reuse a nonce with one key.
///
/// >>> import galois_aead
/// >>> key = galois_aead.Poly1305AES.generate_key()
/// >>> mac = galois_aead.Poly1305AES(key)
/// >>> tag = mac.authenticate(bytes(16), b"message")
/// >>> mac.verify(bytes(16), b"message", tag)
#[pyclass(frozen, module = "galois_aead", name = "Poly1305AES")]
struct PyPoly1305Aes {
    mac: Arc<Poly1305Aes>,
}

#[pymethods]
impl PyPoly1305Aes {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = input(key, "key")?;
        if k.len() != 32 {
            return Err(PyValueError::new_err(format!(
                "key must be 32 bytes (16-byte AES key k, then r), got {}",
                k.len()
            )));
        }
        let mac = Poly1305Aes::new(k.as_slice()).map_err(err)?;
        Ok(PyPoly1305Aes { mac: Arc::new(mac) })
    }

    fn __repr__(&self) -> &'static str {
        "galois_aead.Poly1305AES(AES-128)"
    }

    /// A random 32-byte key k || r with r clamped.
    #[staticmethod]
    fn generate_key(py: Python<'_>) -> PyResult<Bound<'_, PyBytes>> {
        let k = Poly1305Aes::generate_key().map_err(err)?;
        Ok(PyBytes::new(py, &k[..]))
    }

    /// The 16-byte tag of ``data`` under the 16-byte ``nonce``.
    fn authenticate<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = input(nonce, "nonce")?;
        let d = input(data, "data")?;
        if n.len() != 16 {
            return Err(PyValueError::new_err(format!(
                "nonce must be 16 bytes, got {}",
                n.len()
            )));
        }
        let tag = if d.len() >= GIL_RELEASE_BYTES {
            let (n, d) = (n.for_detach(), d.for_detach());
            let m = Arc::clone(&self.mac);
            py.detach(move || m.authenticate(n.as_slice(), d.as_slice()))
        } else {
            self.mac.authenticate(n.as_slice(), d.as_slice())
        }
        .map_err(err)?;
        Ok(PyBytes::new(py, &tag))
    }

    /// Returns None if ``tag`` verifies, else raises ``galois_aead.InvalidSignature``.
    fn verify(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let n = input(nonce, "nonce")?;
        let d = input(data, "data")?;
        let t = input(tag, "tag")?;
        if n.len() != 16 {
            return Err(PyValueError::new_err(format!(
                "nonce must be 16 bytes, got {}",
                n.len()
            )));
        }
        if t.len() != 16 {
            return Err(invalid_signature());
        }
        if d.len() >= GIL_RELEASE_BYTES {
            let (n, d, t) = (n.for_detach(), d.for_detach(), t.for_detach());
            let m = Arc::clone(&self.mac);
            py.detach(move || m.verify(n.as_slice(), d.as_slice(), t.as_slice()))
        } else {
            self.mac.verify(n.as_slice(), d.as_slice(), t.as_slice())
        }
        .map_err(mac_err)
    }
}

// ---------------------------------------------------------------------------
// One-time Poly1305 (RFC 8439)
// ---------------------------------------------------------------------------

fn onetime_key<'py>(key: &Bound<'py, PyAny>) -> PyResult<In<'py>> {
    let k = input(key, "key")?;
    if k.len() != 32 {
        return Err(PyValueError::new_err(format!(
            "key must be 32 bytes (r || s), got {}",
            k.len()
        )));
    }
    Ok(k)
}

/// The one-time Poly1305 of RFC 8439 with the API of cryptography's
/// ``Poly1305``: key r || s (32 bytes; r is clamped by the MAC). A key
/// must authenticate ONE message only.
///
/// >>> import galois_aead
/// >>> key = bytes(range(32))
/// >>> p = galois_aead.Poly1305(key)
/// >>> p.update(b"mess"); p.update(b"age")
/// >>> p.finalize() == galois_aead.Poly1305.generate_tag(key, b"message")
/// True
/// >>> galois_aead.Poly1305.verify_tag(key, b"message", galois_aead.Poly1305.generate_tag(key, b"message"))
#[pyclass(module = "galois_aead", name = "Poly1305")]
struct PyPoly1305 {
    st: Mutex<Option<Poly1305>>,
}

#[pymethods]
impl PyPoly1305 {
    #[new]
    fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = onetime_key(key)?;
        let p = Poly1305::new(k.as_slice()).map_err(err)?;
        Ok(PyPoly1305 {
            st: Mutex::new(Some(p)),
        })
    }

    fn __repr__(&self) -> String {
        let fin = match self.st.try_lock() {
            Ok(g) => {
                if g.is_none() {
                    "True"
                } else {
                    "False"
                }
            }
            Err(_) => "?",
        };
        format!("galois_aead.Poly1305(finalized={fin})")
    }

    /// Appends message bytes.
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let d = input(data, "data")?;
        let mut g = lock(&self.st, "Poly1305")?;
        let p = g.as_mut().ok_or_else(finalized)?;
        if d.len() >= GIL_RELEASE_BYTES {
            let dd = d.for_detach();
            py.detach(move || {
                p.update(dd.as_slice());
            });
        } else {
            p.update(d.as_slice());
        }
        Ok(())
    }

    /// The 16-byte tag of everything given; the object is then finalized.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let p = lock(&self.st, "Poly1305")?.take().ok_or_else(finalized)?;
        Ok(PyBytes::new(py, &p.finalize()))
    }

    /// Returns None if ``tag`` is the tag of everything given, else raises
    /// ``galois_aead.InvalidSignature``; the object is then finalized.
    fn verify(&self, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = input(tag, "tag")?;
        let p = lock(&self.st, "Poly1305")?.take().ok_or_else(finalized)?;
        match p.verify(t.as_slice()) {
            Ok(()) => Ok(()),
            Err(_) => Err(invalid_signature()),
        }
    }

    /// The tag of ``data`` under the one-time ``key``, in one call.
    #[staticmethod]
    fn generate_tag<'py>(
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let k = onetime_key(key)?;
        let d = input(data, "data")?;
        let t = if d.len() >= GIL_RELEASE_BYTES {
            let (kk, dd) = (k.for_detach(), d.for_detach());
            py.detach(move || Poly1305::mac(kk.as_slice(), dd.as_slice()))
        } else {
            Poly1305::mac(k.as_slice(), d.as_slice())
        }
        .map_err(err)?;
        Ok(PyBytes::new(py, &t))
    }

    /// Returns None if ``tag`` is the tag of ``data`` under ``key``, else
    /// raises ``galois_aead.InvalidSignature``.
    #[staticmethod]
    fn verify_tag(
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let p = PyPoly1305::new(key)?;
        p.update(py, data)?;
        p.verify(tag)
    }
}

/// galois: AES-GCM, GMAC and Poly1305-AES over Galois fields (Rust).
// ---------------------------------------------------------------------------
// Chunked encryption (C2SP chunked-encryption, "Cobblestone")
// ---------------------------------------------------------------------------

/// A Python file object seen as Rust `Read`/`Write`/`Seek`. Every call
/// takes the GIL; a Python exception raised by the file is kept and
/// re-raised as is (the Rust side sees an `io::Error`).
struct PyFile {
    obj: Py<PyAny>,
    pyerr: ErrSlot,
}

/// Where a [`PyFile`] keeps the Python exception of its file (shared, so
/// it can be read after the PyFile moved into a reader).
type ErrSlot = Arc<Mutex<Option<PyErr>>>;

impl PyFile {
    fn new(obj: &Bound<'_, PyAny>) -> Self {
        PyFile {
            obj: obj.clone().unbind(),
            pyerr: Arc::new(Mutex::new(None)),
        }
    }

    fn keep(&mut self, e: PyErr) -> std::io::Error {
        let msg = e.to_string();
        if let Ok(mut g) = self.pyerr.lock() {
            *g = Some(e);
        }
        std::io::Error::other(msg)
    }
}

impl std::io::Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let r = Python::attach(|py| -> PyResult<usize> {
            let got = self.obj.bind(py).call_method1("read", (buf.len(),))?;
            let b = input(&got, "the file's read() result")?;
            let s = b.as_slice();
            if s.len() > buf.len() {
                return Err(PyValueError::new_err(
                    "read() returned more bytes than asked",
                ));
            }
            buf[..s.len()].copy_from_slice(s);
            Ok(s.len())
        });
        r.map_err(|e| self.keep(e))
    }
}

impl std::io::Write for PyFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = Python::attach(|py| -> PyResult<usize> {
            let n = self
                .obj
                .bind(py)
                .call_method1("write", (PyBytes::new(py, buf),))?;
            // Raw files may write less (an int); buffered ones return the
            // length or None.
            if n.is_none() {
                return Ok(buf.len());
            }
            let n: usize = n.extract()?;
            if n == 0 && !buf.is_empty() {
                return Err(PyOSError::new_err("write() wrote nothing"));
            }
            Ok(n.min(buf.len()))
        });
        r.map_err(|e| self.keep(e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let r = Python::attach(|py| -> PyResult<()> {
            let f = self.obj.bind(py);
            if f.hasattr("flush")? {
                f.call_method0("flush")?;
            }
            Ok(())
        });
        r.map_err(|e| self.keep(e))
    }
}

impl std::io::Seek for PyFile {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        let (off, whence): (i128, i32) = match pos {
            std::io::SeekFrom::Start(p) => (p as i128, 0),
            std::io::SeekFrom::Current(d) => (d as i128, 1),
            std::io::SeekFrom::End(d) => (d as i128, 2),
        };
        let r = Python::attach(|py| -> PyResult<u64> {
            self.obj
                .bind(py)
                .call_method1("seek", (off, whence))?
                .extract()
        });
        r.map_err(|e| self.keep(e))
    }
}

/// A chunked-encryption error as a Python exception: an authentication
/// failure of any kind (tag, commitment, truncation, trailing data, a bad
/// header) is InvalidTag; a Python exception from a file is re-raised.
fn chunked_err(e: StreamError, file: Option<&ErrSlot>) -> PyErr {
    if let Some(f) = file {
        if let Some(pe) = f.lock().ok().and_then(|mut g| g.take()) {
            return pe;
        }
    }
    match e {
        StreamError::Crypto(e) => chunked_crypto_err(e),
        StreamError::Io(io) => {
            if io.kind() == std::io::ErrorKind::InvalidData {
                if let Some(ge) = io.get_ref().and_then(|r| r.downcast_ref::<Error>()) {
                    return chunked_crypto_err(*ge);
                }
            }
            if io.kind() == std::io::ErrorKind::InvalidInput {
                return PyValueError::new_err(io.to_string());
            }
            PyOSError::new_err(io.to_string())
        }
    }
}

fn chunked_crypto_err(e: Error) -> PyErr {
    match e {
        Error::AuthenticationFailed
        | Error::StreamTruncated
        | Error::StreamTrailingData
        | Error::StreamWrongKey
        | Error::StreamBadHeader { .. }
        | Error::CiphertextTooShort { .. } => raise(Exc::InvalidTag, e.to_string()),
        Error::InvalidKeyLength { got } => PyValueError::new_err(format!(
            "chunked encryption key must be 16 (Cobblestone-128) or 32 (Cobblestone-256) bytes, got {got}"
        )),
        e => err(e),
    }
}

fn chunked_key_check(k: &In<'_>) -> PyResult<()> {
    if !matches!(k.len(), 16 | 32) {
        return Err(chunked_crypto_err(Error::InvalidKeyLength { got: k.len() }));
    }
    Ok(())
}

/// Seals ``data`` as one C2SP chunked-encryption message (header, 16 KiB
/// chunks, the short final chunk) under a 16- or 32-byte key and
/// ``context`` (bytes, may be empty). Returns the sealed bytes.
#[pyfunction]
#[pyo3(signature = (key, context, data))]
fn chunked_seal<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    context: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let k = input(key, "key")?;
    chunked_key_check(&k)?;
    let c = input(context, "context")?;
    let d = input(data, "data")?;
    let (k, c, d) = (k.for_detach(), c.for_detach(), d.for_detach());
    let v = py
        .detach(move || chunked::seal(k.as_slice(), c.as_slice(), d.as_slice()))
        .map_err(chunked_crypto_err)?;
    Ok(PyBytes::new(py, &v))
}

/// Opens a whole sealed message: returns the plaintext, or raises
/// ``InvalidTag`` (wrong key or context, any chunk altered, truncated,
/// trailing data) with nothing released.
#[pyfunction]
#[pyo3(signature = (key, context, data))]
fn chunked_open<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    context: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let k = input(key, "key")?;
    chunked_key_check(&k)?;
    let c = input(context, "context")?;
    let d = input(data, "data")?;
    let (k, c, d) = (k.for_detach(), c.for_detach(), d.for_detach());
    let v = Zeroizing::new(
        py.detach(move || chunked::open(k.as_slice(), c.as_slice(), d.as_slice()))
            .map_err(chunked_crypto_err)?,
    );
    Ok(PyBytes::new(py, &v))
}

/// Seals everything read from the file object ``src`` (``read(n)``) into
/// ``dst`` (``write(b)``); returns the number of plaintext bytes.
#[pyfunction]
#[pyo3(signature = (key, context, src, dst))]
fn chunked_seal_stream(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    context: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    let k = input(key, "key")?;
    chunked_key_check(&k)?;
    let c = input(context, "context")?;
    let (k, c) = (Zeroizing::new(k.as_slice().to_vec()), c.as_slice().to_vec());
    let (mut r, mut w) = (PyFile::new(src), PyFile::new(dst));
    let res = py.detach(|| chunked::seal_stream(&k, &c, &mut r, &mut w));
    res.map_err(|e| {
        let rs = r.pyerr.lock().map(|g| g.is_some()).unwrap_or(false);
        chunked_err(e, Some(if rs { &r.pyerr } else { &w.pyerr }))
    })
}

/// Opens a sealed message from ``src`` into ``dst``, writing each chunk
/// only after it verified; returns the plaintext bytes written. On
/// ``InvalidTag`` what was written verified but is incomplete: discard it.
#[pyfunction]
#[pyo3(signature = (key, context, src, dst))]
fn chunked_open_stream(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    context: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    let k = input(key, "key")?;
    chunked_key_check(&k)?;
    let c = input(context, "context")?;
    let (k, c) = (Zeroizing::new(k.as_slice().to_vec()), c.as_slice().to_vec());
    let (mut r, mut w) = (PyFile::new(src), PyFile::new(dst));
    let res = py.detach(|| chunked::open_stream(&k, &c, &mut r, &mut w));
    res.map_err(|e| {
        let rs = r.pyerr.lock().map(|g| g.is_some()).unwrap_or(false);
        chunked_err(e, Some(if rs { &r.pyerr } else { &w.pyerr }))
    })
}

/// The state of a chunked reader or opener: the object, or the error that
/// ended it (raised again on every later call).
enum Chk<T> {
    Live(T),
    /// The error that ended it: one of galois's, or `None` for MemoryError.
    Failed(Option<Exc>, String),
    Closed,
}

fn chunked_again(kind: Option<Exc>, msg: &str) -> PyErr {
    match kind {
        Some(k) => raise(k, msg.to_string()),
        None => PyMemoryError::new_err(msg.to_string()),
    }
}

const NO_MEMORY: &str = "no memory for the plaintext read; what was read is wiped";

fn no_memory() -> PyErr {
    PyMemoryError::new_err(NO_MEMORY)
}

/// The most a read allocates beyond the bytes it already holds (and the
/// first buffer's size): a read of `n` bytes allocates at most about twice
/// what it returns plus this, however large `n` is.
const READ_STEP: usize = 1 << 16;

/// Why [`read_bounded`] stopped.
enum Bounded {
    Io(std::io::Error),
    NoMemory,
}

/// Reads up to `n` bytes from `r` (to the end for `n < 0`). The buffer
/// starts at [`READ_STEP`] bytes at most and grows only when full, by at
/// most its size or `READ_STEP`, into a new allocation (refused as
/// [`Bounded::NoMemory`], never an abort); the old one, which held
/// plaintext, is wiped, and so is the returned one on drop.
fn read_bounded(r: &mut impl std::io::Read, n: i64) -> Result<Zeroizing<Vec<u8>>, Bounded> {
    let want = usize::try_from(n).unwrap_or(usize::MAX);
    let mut out = Zeroizing::new(Vec::new());
    let mut got = 0;
    while got < want {
        if got == out.len() {
            let len = got + (want - got).min(got.max(READ_STEP));
            let mut v = Vec::new();
            v.try_reserve_exact(len).map_err(|_| Bounded::NoMemory)?;
            v.extend_from_slice(&out[..got]);
            v.resize(len, 0);
            out = Zeroizing::new(v);
        }
        match r.read(&mut out[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) => return Err(Bounded::Io(e)),
        }
    }
    out.truncate(got);
    Ok(out)
}

/// Records an error: crypto failures end the object (every later call
/// raises InvalidTag again); the error is returned.
fn chunked_fail<T>(st: &mut Chk<T>, e: PyErr, py: Python<'_>) -> PyErr {
    if let Ok(t) = exc_types(py) {
        if e.get_type(py).is(t[Exc::InvalidTag as usize].bind(py)) {
            *st = Chk::Failed(Some(Exc::InvalidTag), e.value(py).to_string());
        }
    }
    e
}

/// Random access to a sealed message in a seekable file object
/// (``read``/``seek``): a read-only binary file over its plaintext with
/// ``read(n=-1)``, ``seek(offset, whence=0)``, ``tell()``, ``close()``.
/// Each chunk is verified before any of its bytes are returned; a seek
/// relative to the end (and reading up to the end) first authenticates the
/// final chunk. After ``InvalidTag`` every call raises it again.
#[pyclass(module = "galois_aead", name = "ChunkedReader")]
struct ChunkedReader {
    st: Mutex<Chk<RandomAccess<PyFile>>>,
    file_err: ErrSlot,
}

impl ChunkedReader {
    fn with<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut RandomAccess<PyFile>) -> std::io::Result<R>,
    ) -> PyResult<R> {
        let mut g = lock(&self.st, "ChunkedReader")?;
        let ra = match &mut *g {
            Chk::Live(ra) => ra,
            Chk::Failed(k, m) => return Err(chunked_again(*k, m)),
            Chk::Closed => return Err(PyValueError::new_err("I/O operation on closed file.")),
        };
        match f(ra) {
            Ok(v) => Ok(v),
            Err(e) => {
                let pe = chunked_err(StreamError::Io(e), Some(&self.file_err));
                Err(chunked_fail(&mut g, pe, py))
            }
        }
    }
}

#[pymethods]
impl ChunkedReader {
    #[new]
    #[pyo3(signature = (key, context, file))]
    fn new(
        key: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let k = input(key, "key")?;
        chunked_key_check(&k)?;
        let c = input(context, "context")?;
        let f = PyFile::new(file);
        let file_err = Arc::clone(&f.pyerr);
        match RandomAccess::new(k.as_slice(), c.as_slice(), f) {
            Ok(ra) => Ok(ChunkedReader {
                st: Mutex::new(Chk::Live(ra)),
                file_err,
            }),
            Err(e) => Err(chunked_err(e, Some(&file_err))),
        }
    }

    /// Reads up to ``n`` plaintext bytes (all the rest for ``n < 0``).
    #[pyo3(signature = (n = -1), text_signature = "($self, n=-1)")]
    fn read<'py>(&self, py: Python<'py>, n: i64) -> PyResult<Bound<'py, PyBytes>> {
        let v = self.with(py, |ra| {
            let at = std::io::Seek::stream_position(ra)?;
            match read_bounded(ra, n) {
                Ok(v) => Ok(Ok(v)),
                Err(Bounded::Io(e)) => Err(e),
                Err(Bounded::NoMemory) => {
                    // What was read is wiped; the position goes back to where the call began.
                    std::io::Seek::seek(ra, std::io::SeekFrom::Start(at))?;
                    Ok(Err(no_memory()))
                }
            }
        })??;
        Ok(PyBytes::new(py, &v))
    }

    /// Moves to ``offset`` from the start (``whence=0``), the current
    /// position (1) or the end (2); returns the new position.
    #[pyo3(signature = (offset, whence = 0))]
    fn seek(&self, py: Python<'_>, offset: i64, whence: i32) -> PyResult<u64> {
        let to = match whence {
            0 => {
                if offset < 0 {
                    return Err(PyValueError::new_err(format!(
                        "negative seek position {offset}"
                    )));
                }
                std::io::SeekFrom::Start(offset as u64)
            }
            1 => std::io::SeekFrom::Current(offset),
            2 => std::io::SeekFrom::End(offset),
            w => {
                return Err(PyValueError::new_err(format!(
                    "whence must be 0, 1 or 2, got {w}"
                )))
            }
        };
        self.with(py, |ra| std::io::Seek::seek(ra, to))
    }

    /// The current plaintext position.
    fn tell(&self, py: Python<'_>) -> PyResult<u64> {
        self.with(py, |ra| std::io::Seek::stream_position(ra))
    }

    /// The plaintext length (authenticates the final chunk first).
    fn length(&self, py: Python<'_>) -> PyResult<u64> {
        self.with(py, |ra| ra.len())
    }

    fn readable(&self) -> bool {
        true
    }

    fn seekable(&self) -> bool {
        true
    }

    fn writable(&self) -> bool {
        false
    }

    /// Wipes the cached plaintext; later calls raise ValueError.
    fn close(&self) -> PyResult<()> {
        *lock(&self.st, "ChunkedReader")? = Chk::Closed;
        Ok(())
    }

    #[getter]
    fn closed(&self) -> PyResult<bool> {
        Ok(matches!(*lock(&self.st, "ChunkedReader")?, Chk::Closed))
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.close()?;
        Ok(false)
    }

    fn __repr__(&self) -> &'static str {
        "galois_aead.ChunkedReader()"
    }
}

/// Opens a sealed message read from a file object (``read(n)``) as a
/// read-only binary file over its plaintext, in order: ``read(n=-1)``
/// returns only verified bytes (a chunk is released after its tag
/// verified); the end comes only after the final chunk verified. After an
/// error every call raises it again.
#[pyclass(module = "galois_aead", name = "ChunkedOpener")]
struct ChunkedOpener {
    st: Mutex<Chk<Opener<PyFile>>>,
    file_err: ErrSlot,
}

#[pymethods]
impl ChunkedOpener {
    #[new]
    #[pyo3(signature = (key, context, file))]
    fn new(
        key: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let k = input(key, "key")?;
        chunked_key_check(&k)?;
        let c = input(context, "context")?;
        let f = PyFile::new(file);
        let file_err = Arc::clone(&f.pyerr);
        match Opener::new(k.as_slice(), c.as_slice(), f) {
            Ok(o) => Ok(ChunkedOpener {
                st: Mutex::new(Chk::Live(o)),
                file_err,
            }),
            Err(e) => Err(chunked_err(e, Some(&file_err))),
        }
    }

    /// Reads up to ``n`` verified plaintext bytes (all the rest for ``n < 0``).
    #[pyo3(signature = (n = -1), text_signature = "($self, n=-1)")]
    fn read<'py>(&self, py: Python<'py>, n: i64) -> PyResult<Bound<'py, PyBytes>> {
        let mut g = lock(&self.st, "ChunkedOpener")?;
        let o = match &mut *g {
            Chk::Live(o) => o,
            Chk::Failed(k, m) => return Err(chunked_again(*k, m)),
            Chk::Closed => return Err(PyValueError::new_err("I/O operation on closed file.")),
        };
        match read_bounded(o, n) {
            Ok(out) => Ok(PyBytes::new(py, &out)),
            Err(Bounded::NoMemory) => {
                // The plaintext this call had read is wiped and cannot be read
                // again: the opener ends, as after an error.
                *g = Chk::Failed(None, NO_MEMORY.to_string());
                Err(no_memory())
            }
            Err(Bounded::Io(e)) => {
                // Bytes read in this call before the error are dropped
                // (wiped): the caller gets the error, not a partial read.
                let pe = chunked_err(StreamError::Io(e), Some(&self.file_err));
                Err(chunked_fail(&mut g, pe, py))
            }
        }
    }

    fn readable(&self) -> bool {
        true
    }

    fn seekable(&self) -> bool {
        false
    }

    fn writable(&self) -> bool {
        false
    }

    fn close(&self) -> PyResult<()> {
        *lock(&self.st, "ChunkedOpener")? = Chk::Closed;
        Ok(())
    }

    #[getter]
    fn closed(&self) -> PyResult<bool> {
        Ok(matches!(*lock(&self.st, "ChunkedOpener")?, Chk::Closed))
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.close()?;
        Ok(false)
    }

    fn __repr__(&self) -> &'static str {
        "galois_aead.ChunkedOpener()"
    }
}

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

// ---------------------------------------------------------------------------
// AESGCMSIV and XAES256GCM (issue 15)
// ---------------------------------------------------------------------------

/// A nonce of exactly `len` bytes, with cryptography's message.
fn exact_nonce<'py>(obj: &Bound<'py, PyAny>, len: usize) -> PyResult<In<'py>> {
    let n = input(obj, "nonce")?;
    if n.len() != len {
        return Err(PyValueError::new_err(format!(
            "Nonce must be {len} bytes long"
        )));
    }
    Ok(n)
}

/// Seals `d` into a new bytes object (ciphertext || 16-byte tag), as
/// AESGCM's encrypt: the object is private until returned, and inputs of
/// [`GIL_RELEASE_BYTES`] or more are sealed without the GIL (from a copy
/// made with the GIL held, unless they are immutable `bytes`).
fn fixed_encrypt<'py, A: AeadInit>(
    py: Python<'py>,
    aead: &A,
    n: &In<'_>,
    d: &In<'_>,
    a: &In<'_>,
) -> PyResult<Bound<'py, PyBytes>> {
    let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
    PyBytes::new_with(py, d.len() + 16, |out| {
        let (c, tag_out) = out.split_at_mut(d.len());
        let p = Pending::copy(d, 0..d.len(), c, big);
        let r = if big {
            let (n, a) = (n.for_detach(), a.for_detach());
            py.detach(move || {
                p.finish(c);
                aead.seal_in_place_detached(n.as_slice(), a.as_slice(), c)
            })
        } else {
            aead.seal_in_place_detached(n.as_slice(), a.as_slice(), c)
        };
        match r {
            Ok(tag) => {
                tag_out.copy_from_slice(tag.as_bytes());
                Ok(())
            }
            Err(e) => {
                // The object is freed unreturned: leave no plaintext in it.
                out.zeroize();
                Err(err(e))
            }
        }
    })
}

/// Opens ciphertext || 16-byte tag into a new bytes object, as AESGCM's
/// decrypt: read once into the private object and opened in place there
/// (without the GIL for long inputs), wiped on failure.
fn fixed_decrypt<'py, A: AeadInit>(
    py: Python<'py>,
    aead: &A,
    n: &In<'_>,
    d: &In<'_>,
    a: &In<'_>,
) -> PyResult<Bound<'py, PyBytes>> {
    if d.len() < 16 {
        return Err(invalid_tag());
    }
    let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
    PyBytes::new_with(py, d.len() - 16, |out| {
        let tag = TagBuf::new(&d.as_slice()[d.len() - 16..]);
        let p = Pending::copy(d, 0..d.len() - 16, out, big);
        let r = if big {
            let (n, a) = (n.for_detach(), a.for_detach());
            let o = &mut *out;
            py.detach(move || {
                p.finish(o);
                aead.open_in_place_detached(n.as_slice(), a.as_slice(), o, tag.get())
            })
        } else {
            aead.open_in_place_detached(n.as_slice(), a.as_slice(), out, tag.get())
        };
        r.map_err(|e| {
            out.zeroize();
            err(e)
        })
    })
}

/// encrypt_into / decrypt_into of the AESGCMSIV and XAES256GCM classes, as AESGCM's
/// `buffer_call`: inputs read once (GIL held) into private scratch (wiped
/// on every path), the work done there (without the GIL for long inputs),
/// `out` written once with the GIL held, after the tag verified; the
/// caller zeroes `out` on any error.
fn fixed_into<A: AeadInit>(
    py: Python<'_>,
    aead: &A,
    n: &In<'_>,
    d: &In<'_>,
    a: &In<'_>,
    out: &Out,
    seal: bool,
) -> PyResult<usize> {
    const T: usize = 16;
    let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
    let (mut scratch, tag, p) = if seal {
        out.check_len(d.len() + T)?;
        let mut s = Zeroizing::new(vec![0u8; d.len() + T]);
        let p = Pending::copy(d, 0..d.len(), &mut s[..d.len()], big);
        (s, TagBuf::new(&[]), p)
    } else {
        if d.len() < T {
            return Err(invalid_tag());
        }
        out.check_len(d.len() - T)?;
        let mut s = Zeroizing::new(vec![0u8; d.len() - T]);
        let p = Pending::copy(d, 0..d.len() - T, &mut s, big);
        (s, TagBuf::new(&d.as_slice()[d.len() - T..]), p)
    };
    let len = if seal { d.len() } else { d.len() - T };
    let run = move |n: &[u8], a: &[u8], s: &mut [u8]| -> Result<(), Error> {
        if seal {
            let (c, tag_out) = s.split_at_mut(len);
            let tag = aead.seal_in_place_detached(n, a, c)?;
            tag_out.copy_from_slice(tag.as_bytes());
            Ok(())
        } else {
            aead.open_in_place_detached(n, a, s, tag.get())
        }
    };
    let s = &mut scratch[..];
    if big {
        let (n, a) = (n.for_detach(), a.for_detach());
        py.detach(move || {
            p.finish(&mut s[..len]);
            run(n.as_slice(), a.as_slice(), s)
        })
    } else {
        run(n.as_slice(), a.as_slice(), s)
    }
    .map_err(err)?;
    out.fill_from(py, &scratch);
    Ok(out.len())
}

/// Runs `f` (an `_into` call) and zeroes `buf` if it fails.
fn into_call(
    py: Python<'_>,
    buf: &Bound<'_, PyAny>,
    f: impl FnOnce(&Out) -> PyResult<usize>,
) -> PyResult<usize> {
    let out = output(buf)?;
    let r = f(&out);
    if r.is_err() {
        out.wipe(py);
    }
    r
}

/// The classes over an [`Aead`] with 16-byte tags and no options
/// (AESGCMSIV, XAES256GCM): which library type each wraps.
trait HasAead {
    type Inner: Aead;
    fn inner(&self) -> &Self::Inner;
}

/// The nonce (exactly `A::NONCE_LEN` bytes), data and associated data of
/// a [`HasAead`] class's call, as its methods take them.
#[allow(clippy::type_complexity)]
fn fixed_args<'py, A: AeadInit>(
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    associated_data: Option<&Bound<'py, PyAny>>,
) -> PyResult<(In<'py>, In<'py>, In<'py>)> {
    Ok((
        exact_nonce(nonce, A::NONCE_LEN)?,
        input(data, "data")?,
        input_opt(associated_data, "associated_data")?,
    ))
}

/// encrypt_into (`seal`) or decrypt_into of a [`HasAead`] class: its
/// arguments parsed inside [`into_call`], which zeroes `buf` on any error.
fn fixed_into_call<A: AeadInit>(
    py: Python<'_>,
    aead: &A,
    nonce: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    associated_data: Option<&Bound<'_, PyAny>>,
    buf: &Bound<'_, PyAny>,
    seal: bool,
) -> PyResult<usize> {
    into_call(py, buf, |out| {
        let (n, d, a) = fixed_args::<A>(nonce, data, associated_data)?;
        fixed_into(py, aead, &n, &d, &a, out, seal)
    })
}

/// The `#[pymethods]` of a [`HasAead`] class: its own (constructor, key
/// generation), then encrypt, decrypt, encrypt_into and decrypt_into, the
/// same for each (the nonce length is its AEAD's). One block per class (a
/// second one would need pyo3's multiple-pymethods feature).
macro_rules! fixed_aead_methods {
    ($class:ident, $field:ident, $aead:ty) => {
        impl HasAead for $class {
            type Inner = $aead;
            fn inner(&self) -> &Self::Inner {
                &self.$field
            }
        }

        #[pymethods]
        impl $class {
        #[new]
        fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
            Ok($class { $field: new_aead(key)? })
        }

        /// A random key of ``bit_length`` bits (one of the key lengths, in
        /// bits) from the OS.
        #[staticmethod]
        #[pyo3(signature = (bit_length = None))]
        fn generate_key(py: Python<'_>, bit_length: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyBytes>> {
            generate_key::<$aead>(py, bit_length)
        }

        /// Encrypts ``data`` and returns ciphertext || tag.
        #[pyo3(signature = (nonce, data, associated_data))]
        fn encrypt<'py>(
            &self,
            py: Python<'py>,
            nonce: &Bound<'py, PyAny>,
            data: &Bound<'py, PyAny>,
            associated_data: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyBytes>> {
            let (n, d, a) = fixed_args::<<Self as HasAead>::Inner>(nonce, data, associated_data)?;
            fixed_encrypt(py, self.inner(), &n, &d, &a)
        }

        /// Verifies and decrypts ciphertext || tag; raises ``InvalidTag`` if it
        /// does not verify (nothing is returned then).
        #[pyo3(signature = (nonce, data, associated_data))]
        fn decrypt<'py>(
            &self,
            py: Python<'py>,
            nonce: &Bound<'py, PyAny>,
            data: &Bound<'py, PyAny>,
            associated_data: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyBytes>> {
            let (n, d, a) = fixed_args::<<Self as HasAead>::Inner>(nonce, data, associated_data)?;
            fixed_decrypt(py, self.inner(), &n, &d, &a)
        }

        /// Encrypts ``data`` into ``buf`` (a writable buffer of exactly
        /// ``len(data) + 16`` bytes) as ciphertext || tag; returns the number of
        /// bytes written. The result is computed in private memory and copied
        /// into ``buf`` whole; on any error ``buf`` is zeroed.
        #[pyo3(signature = (nonce, data, associated_data, buf))]
        fn encrypt_into(
            &self,
            py: Python<'_>,
            nonce: &Bound<'_, PyAny>,
            data: &Bound<'_, PyAny>,
            associated_data: Option<&Bound<'_, PyAny>>,
            buf: &Bound<'_, PyAny>,
        ) -> PyResult<usize> {
            fixed_into_call(py, self.inner(), nonce, data, associated_data, buf, true)
        }

        /// Verifies and decrypts ciphertext || tag into ``buf`` (exactly
        /// ``len(data) - 16`` bytes); returns the number of bytes written.
        /// ``buf`` receives the plaintext only after the tag verified, in one
        /// copy; on any error (``InvalidTag`` included) it is zeroed.
        #[pyo3(signature = (nonce, data, associated_data, buf))]
        fn decrypt_into(
            &self,
            py: Python<'_>,
            nonce: &Bound<'_, PyAny>,
            data: &Bound<'_, PyAny>,
            associated_data: Option<&Bound<'_, PyAny>>,
            buf: &Bound<'_, PyAny>,
        ) -> PyResult<usize> {
            fixed_into_call(py, self.inner(), nonce, data, associated_data, buf, false)
        }
        }
    };
}

/// AES-GCM-SIV (RFC 8452), nonce-misuse resistant, with the call shapes and
/// errors of cryptography's ``AESGCMSIV``: 16-, 24- or 32-byte keys (24:
/// the AES-192 extension OpenSSL and cryptography make), 12-byte nonces,
/// 16-byte tags. A repeated nonce reveals only whether two messages were
/// equal. Inputs of ``GIL_RELEASE_BYTES`` or more are processed with the
/// GIL released; ``encrypt_into`` / ``decrypt_into`` as AESGCM's.
///
/// >>> import galois_aead
/// >>> aead = galois_aead.AESGCMSIV(galois_aead.AESGCMSIV.generate_key(256))
/// >>> ct = aead.encrypt(b"\x00" * 12, b"secret", b"header")
/// >>> aead.decrypt(b"\x00" * 12, ct, b"header")
/// b'secret'
#[pyclass(frozen, module = "galois_aead", name = "AESGCMSIV")]
struct PyAesGcmSiv {
    siv: galois_aead::AesGcmSiv,
}

fixed_aead_methods!(PyAesGcmSiv, siv, galois_aead::AesGcmSiv);

/// XAES-256-GCM (c2sp.org/XAES-256-GCM): AES-256-GCM with 24-byte nonces
/// that may be random for about 2^80 messages per key (collision
/// probability 2^-32). 32-byte keys, 16-byte tags; the call shapes of the
/// other AEADs. Inputs of ``GIL_RELEASE_BYTES`` or more are processed with
/// the GIL released; ``encrypt_into`` / ``decrypt_into`` as AESGCM's.
///
/// >>> import galois_aead, os
/// >>> aead = galois_aead.XAES256GCM(galois_aead.XAES256GCM.generate_key())
/// >>> nonce = os.urandom(24)
/// >>> aead.decrypt(nonce, aead.encrypt(nonce, b"secret", None), None)
/// b'secret'
#[pyclass(frozen, module = "galois_aead", name = "XAES256GCM")]
struct PyXAes256Gcm {
    x: galois_aead::XAes256Gcm,
}

fixed_aead_methods!(PyXAes256Gcm, x, galois_aead::XAes256Gcm);
