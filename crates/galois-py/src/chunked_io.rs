//! C2SP chunked encryption: whole messages, streams and the file classes.

use crate::*;
use zeroize::Zeroizing;

// ---------------------------------------------------------------------------
// Chunked encryption (C2SP chunked-encryption, "Cobblestone")
// ---------------------------------------------------------------------------

/// A Python file object seen as Rust `Read`/`Write`/`Seek`. Every call
/// takes the GIL; a Python exception raised by the file is kept and
/// re-raised as is (the Rust side sees an `io::Error`).
pub(crate) struct PyFile {
    pub(crate) obj: Py<PyAny>,
    pub(crate) pyerr: ErrSlot,
}

/// Where a [`PyFile`] keeps the Python exception of its file (shared, so
/// it can be read after the PyFile moved into a reader).
pub(crate) type ErrSlot = Arc<Mutex<Option<PyErr>>>;

impl PyFile {
    pub(crate) fn new(obj: &Bound<'_, PyAny>) -> Self {
        PyFile {
            obj: obj.clone().unbind(),
            pyerr: Arc::new(Mutex::new(None)),
        }
    }

    pub(crate) fn keep(&mut self, e: PyErr) -> std::io::Error {
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
pub(crate) fn chunked_err(e: StreamError, file: Option<&ErrSlot>) -> PyErr {
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

pub(crate) fn chunked_crypto_err(e: Error) -> PyErr {
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

pub(crate) fn chunked_key_check(k: &In<'_>) -> PyResult<()> {
    if !matches!(k.len(), 16 | 32) {
        return Err(chunked_crypto_err(Error::InvalidKeyLength { got: k.len() }));
    }
    Ok(())
}

/// A chunked call's key (16 or 32 bytes) and context, read once.
fn key_and_context<'py>(
    key: &Bound<'py, PyAny>,
    context: &Bound<'py, PyAny>,
) -> PyResult<(In<'py>, In<'py>)> {
    let k = input(key, "key")?;
    chunked_key_check(&k)?;
    Ok((k, input(context, "context")?))
}

/// `chunked::seal` or `chunked::open`: key, context, data to result.
type WholeFn = fn(&[u8], &[u8], &[u8]) -> Result<Vec<u8>, Error>;
/// `chunked::seal_stream` or `chunked::open_stream` between two files.
type StreamFn = fn(&[u8], &[u8], &mut PyFile, &mut PyFile) -> Result<u64, StreamError>;

/// Runs a whole-message function of the library (`chunked::seal` or
/// `chunked::open`) without the GIL and returns its result as bytes; the
/// Rust copy is wiped.
fn whole_message<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    context: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    f: WholeFn,
) -> PyResult<Bound<'py, PyBytes>> {
    let (k, c) = key_and_context(key, context)?;
    let d = input(data, "data")?;
    let (k, c, d) = (k.for_detach(), c.for_detach(), d.for_detach());
    let v = Zeroizing::new(
        py.detach(move || f(k.as_slice(), c.as_slice(), d.as_slice()))
            .map_err(chunked_crypto_err)?,
    );
    Ok(PyBytes::new(py, &v))
}

/// Runs a streaming function of the library (`chunked::seal_stream` or
/// `chunked::open_stream`) from the file object `src` to `dst` without the
/// GIL; a Python exception of either file is raised as is.
fn between_files(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    context: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    f: StreamFn,
) -> PyResult<u64> {
    let (k, c) = key_and_context(key, context)?;
    let (k, c) = (Zeroizing::new(k.as_slice().to_vec()), c.as_slice().to_vec());
    let (mut r, mut w) = (PyFile::new(src), PyFile::new(dst));
    let res = py.detach(|| f(&k, &c, &mut r, &mut w));
    res.map_err(|e| {
        let rs = r.pyerr.lock().map(|g| g.is_some()).unwrap_or(false);
        chunked_err(e, Some(if rs { &r.pyerr } else { &w.pyerr }))
    })
}

/// A `#[pyfunction]` `$name(key, context, data)` running the library's
/// whole-message `$f` through [`whole_message`].
macro_rules! whole_message_fn {
    ($(#[$m:meta])* $name:ident => $f:path) => {
        $(#[$m])*
        #[pyfunction]
        #[pyo3(signature = (key, context, data))]
        pub(crate) fn $name<'py>(
            py: Python<'py>,
            key: &Bound<'py, PyAny>,
            context: &Bound<'py, PyAny>,
            data: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyBytes>> {
            whole_message(py, key, context, data, $f)
        }
    };
}

/// A `#[pyfunction]` `$name(key, context, src, dst)` running the library's
/// streaming `$f` through [`between_files`].
macro_rules! between_files_fn {
    ($(#[$m:meta])* $name:ident => $f:path) => {
        $(#[$m])*
        #[pyfunction]
        #[pyo3(signature = (key, context, src, dst))]
        pub(crate) fn $name(
            py: Python<'_>,
            key: &Bound<'_, PyAny>,
            context: &Bound<'_, PyAny>,
            src: &Bound<'_, PyAny>,
            dst: &Bound<'_, PyAny>,
        ) -> PyResult<u64> {
            between_files(py, key, context, src, dst, $f)
        }
    };
}

whole_message_fn! {
    /// Seals ``data`` as one C2SP chunked-encryption message (header, 16 KiB
    /// chunks, the short final chunk) under a 16- or 32-byte key and
    /// ``context`` (bytes, may be empty). Returns the sealed bytes.
    chunked_seal => chunked::seal
}

whole_message_fn! {
    /// Opens a whole sealed message: returns the plaintext, or raises
    /// ``InvalidTag`` (wrong key or context, any chunk altered, truncated,
    /// trailing data) with nothing released.
    chunked_open => chunked::open
}

between_files_fn! {
    /// Seals everything read from the file object ``src`` (``read(n)``) into
    /// ``dst`` (``write(b)``); returns the number of plaintext bytes.
    chunked_seal_stream => chunked::seal_stream
}

between_files_fn! {
    /// Opens a sealed message from ``src`` into ``dst``, writing each chunk
    /// only after it verified; returns the plaintext bytes written. On
    /// ``InvalidTag`` what was written verified but is incomplete: discard it.
    chunked_open_stream => chunked::open_stream
}

/// The state of a chunked reader or opener: the object, or the error that
/// ended it (raised again on every later call).
pub(crate) enum Chk<T> {
    Live(T),
    /// The error that ended it: one of galois's, or `None` for MemoryError.
    Failed(Option<Exc>, String),
    Closed,
}

impl<T> Chk<T> {
    /// The live object, or the error that ended it raised again, or
    /// ValueError once closed.
    pub(crate) fn live(&mut self) -> PyResult<&mut T> {
        match self {
            Chk::Live(x) => Ok(x),
            Chk::Failed(k, m) => Err(chunked_again(*k, m)),
            Chk::Closed => Err(PyValueError::new_err("I/O operation on closed file.")),
        }
    }
}

pub(crate) fn chunked_again(kind: Option<Exc>, msg: &str) -> PyErr {
    match kind {
        Some(k) => raise(k, msg.to_string()),
        None => PyMemoryError::new_err(msg.to_string()),
    }
}

pub(crate) const NO_MEMORY: &str = "no memory for the plaintext read; what was read is wiped";

pub(crate) fn no_memory() -> PyErr {
    PyMemoryError::new_err(NO_MEMORY)
}

/// The most a read allocates beyond the bytes it already holds (and the
/// first buffer's size): a read of `n` bytes allocates at most about twice
/// what it returns plus this, however large `n` is.
pub(crate) const READ_STEP: usize = 1 << 16;

/// Why [`read_bounded`] stopped.
pub(crate) enum Bounded {
    Io(std::io::Error),
    NoMemory,
}

/// Reads up to `n` bytes from `r` (to the end for `n < 0`). The buffer
/// starts at [`READ_STEP`] bytes at most and grows only when full, by at
/// most its size or `READ_STEP`, into a new allocation (refused as
/// [`Bounded::NoMemory`], never an abort); the old one, which held
/// plaintext, is wiped, and so is the returned one on drop.
pub(crate) fn read_bounded(
    r: &mut impl std::io::Read,
    n: i64,
) -> Result<Zeroizing<Vec<u8>>, Bounded> {
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
pub(crate) fn chunked_fail<T>(st: &mut Chk<T>, e: PyErr, py: Python<'_>) -> PyErr {
    if let Ok(t) = exc_types(py) {
        if e.get_type(py).is(t[Exc::InvalidTag as usize].bind(py)) {
            *st = Chk::Failed(Some(Exc::InvalidTag), e.value(py).to_string());
        }
    }
    e
}

/// The state and file-error slot of a chunked file class: the key checked,
/// then `open` run over `file` (its own exception re-raised as is).
#[allow(clippy::type_complexity)]
pub(crate) fn open_file<T>(
    key: &Bound<'_, PyAny>,
    context: &Bound<'_, PyAny>,
    file: &Bound<'_, PyAny>,
    open: impl FnOnce(&[u8], &[u8], PyFile) -> Result<T, StreamError>,
) -> PyResult<(Mutex<Chk<T>>, ErrSlot)> {
    let (k, c) = key_and_context(key, context)?;
    let f = PyFile::new(file);
    let file_err = Arc::clone(&f.pyerr);
    match open(k.as_slice(), c.as_slice(), f) {
        Ok(x) => Ok((Mutex::new(Chk::Live(x)), file_err)),
        Err(e) => Err(chunked_err(e, Some(&file_err))),
    }
}

/// The `#[pymethods]` of a chunked file class (`st` and `file_err` fields):
/// the constructor (`$open` over the file), the class's own methods,
/// ``close`` (drops the object, wiping what it holds; later calls raise
/// ValueError), ``closed`` and the repr. One block per class (a second one
/// would need pyo3's multiple-pymethods feature).
macro_rules! chunked_file {
    ($class:ident, $name:literal, $open:path; { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (key, context, file))]
            pub(crate) fn new(
                key: &Bound<'_, PyAny>,
                context: &Bound<'_, PyAny>,
                file: &Bound<'_, PyAny>,
            ) -> PyResult<Self> {
                let (st, file_err) = open_file(key, context, file, $open)?;
                Ok($class { st, file_err })
            }

            $($own)*

            /// Wipes the cached plaintext; later calls raise ValueError.
            pub(crate) fn close(&self) -> PyResult<()> {
                *lock(&self.st, $name)? = Chk::Closed;
                Ok(())
            }

            #[getter]
            pub(crate) fn closed(&self) -> PyResult<bool> {
                Ok(matches!(*lock(&self.st, $name)?, Chk::Closed))
            }

            pub(crate) fn __repr__(&self) -> &'static str {
                concat!("galois_aead.", $name, "()")
            }
        }
    };
}

/// Random access to a sealed message in a seekable file object
/// (``read``/``seek``): a read-only binary file over its plaintext with
/// ``read(n=-1)``, ``seek(offset, whence=0)``, ``tell()``, ``close()``.
/// Each chunk is verified before any of its bytes are returned; a seek
/// relative to the end (and reading up to the end) first authenticates the
/// final chunk. After ``InvalidTag`` every call raises it again.
#[pyclass(module = "galois_aead", name = "ChunkedReader")]
pub(crate) struct ChunkedReader {
    pub(crate) st: Mutex<Chk<RandomAccess<PyFile>>>,
    pub(crate) file_err: ErrSlot,
}

impl ChunkedReader {
    pub(crate) fn with<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut RandomAccess<PyFile>) -> std::io::Result<R>,
    ) -> PyResult<R> {
        let mut g = lock(&self.st, "ChunkedReader")?;
        let ra = g.live()?;
        match f(ra) {
            Ok(v) => Ok(v),
            Err(e) => {
                let pe = chunked_err(StreamError::Io(e), Some(&self.file_err));
                Err(chunked_fail(&mut g, pe, py))
            }
        }
    }
}

chunked_file! {
    ChunkedReader, "ChunkedReader", RandomAccess::new;
    {
        /// Reads up to ``n`` plaintext bytes (all the rest for ``n < 0``).
        #[pyo3(signature = (n = -1), text_signature = "($self, n=-1)")]
        pub(crate) fn read<'py>(&self, py: Python<'py>, n: i64) -> PyResult<Bound<'py, PyBytes>> {
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
        pub(crate) fn seek(&self, py: Python<'_>, offset: i64, whence: i32) -> PyResult<u64> {
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
        pub(crate) fn tell(&self, py: Python<'_>) -> PyResult<u64> {
            self.with(py, std::io::Seek::stream_position)
        }

        /// The plaintext length (authenticates the final chunk first).
        pub(crate) fn length(&self, py: Python<'_>) -> PyResult<u64> {
            self.with(py, |ra| ra.len())
        }
    }
}

/// Opens a sealed message read from a file object (``read(n)``) as a
/// read-only binary file over its plaintext, in order: ``read(n=-1)``
/// returns only verified bytes (a chunk is released after its tag
/// verified); the end comes only after the final chunk verified. After an
/// error every call raises it again.
#[pyclass(module = "galois_aead", name = "ChunkedOpener")]
pub(crate) struct ChunkedOpener {
    pub(crate) st: Mutex<Chk<Opener<PyFile>>>,
    pub(crate) file_err: ErrSlot,
}

chunked_file! {
    ChunkedOpener, "ChunkedOpener", Opener::new;
    {
        /// Reads up to ``n`` verified plaintext bytes (all the rest for ``n < 0``).
        #[pyo3(signature = (n = -1), text_signature = "($self, n=-1)")]
        pub(crate) fn read<'py>(&self, py: Python<'py>, n: i64) -> PyResult<Bound<'py, PyBytes>> {
            let mut g = lock(&self.st, "ChunkedOpener")?;
            let o = g.live()?;
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
    }
}
