//! Arguments and outputs: Python buffers read once, caller buffers written once.

use crate::*;
use zeroize::Zeroizing;

/// Inputs at least this long are processed with the GIL released.
pub(crate) const GIL_RELEASE_BYTES: usize = 4096;

// ---------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------

/// A read-only view of a Python bytes-like argument.
pub(crate) enum In<'py> {
    Bytes(Bound<'py, PyBytes>),
    Buf(PyUntypedBuffer),
    Empty,
}

impl In<'_> {
    /// The bytes, read in place. Use only with the GIL held (no Python
    /// thread can write a buffer then) and for no longer than the call.
    pub(crate) fn as_slice(&self) -> &[u8] {
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

    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// The bytes for use without the GIL: `bytes` (immutable) are pointed
    /// to, anything else is copied now, while the GIL is held, into private
    /// memory (wiped when dropped), so no thread can change them under the
    /// computation.
    pub(crate) fn for_detach(&self) -> Detached {
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
pub(crate) struct RawSlice(*const u8, usize);
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
pub(crate) struct Pending(Option<RawSlice>);

impl Pending {
    pub(crate) fn copy(
        src: &In<'_>,
        range: core::ops::Range<usize>,
        dst: &mut [u8],
        detached: bool,
    ) -> Self {
        let s = &src.as_slice()[range];
        if detached && matches!(src, In::Bytes(_) | In::Empty) {
            Pending(Some(RawSlice(s.as_ptr(), s.len())))
        } else {
            dst.copy_from_slice(s);
            Pending(None)
        }
    }

    pub(crate) fn finish(self, dst: &mut [u8]) {
        if let Some(r) = self.0 {
            // SAFETY: r points into an immutable `bytes` object kept alive by
            // the caller's In for the whole call.
            dst.copy_from_slice(unsafe { r.get() });
        }
    }
}

/// Runs `f` on the bytes of `ins`: with the GIL held, or, when `big`,
/// without it on [`In::for_detach`] views (so no thread can change them
/// under the computation).
pub(crate) fn run_maybe_detached<R: Send, const N: usize>(
    py: Python<'_>,
    big: bool,
    ins: [&In<'_>; N],
    f: impl FnOnce([&[u8]; N]) -> R + Send,
) -> R {
    if big {
        let d = ins.map(In::for_detach);
        py.detach(move || f(d.each_ref().map(Detached::as_slice)))
    } else {
        f(ins.map(In::as_slice))
    }
}

pub(crate) enum Detached {
    Borrowed(RawSlice),
    Owned(Zeroizing<Vec<u8>>),
}

impl Detached {
    pub(crate) fn as_slice(&self) -> &[u8] {
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
pub(crate) struct Out {
    pub(crate) buf: PyUntypedBuffer,
}

impl Out {
    pub(crate) fn len(&self) -> usize {
        self.buf.len_bytes()
    }

    /// Copies `src` (exactly `len()` bytes of private memory) into the buffer.
    pub(crate) fn fill_from(&self, gil: Python<'_>, src: &[u8]) {
        assert_eq!(src.len(), self.len());
        self.fill_prefix(gil, src);
    }

    /// Copies `src` (private memory, at most `len()` bytes) into the start
    /// of the buffer.
    pub(crate) fn fill_prefix(&self, _gil: Python<'_>, src: &[u8]) {
        assert!(src.len() <= self.len());
        if !src.is_empty() {
            // SAFETY: the buffer is writable and C-contiguous with len()
            // bytes (at least src.len()), kept exported (not freed or
            // resized) by self.buf; src is our private memory, so the two do
            // not overlap.
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
    pub(crate) fn wipe(&self, _gil: Python<'_>) {
        if self.len() != 0 {
            // SAFETY: as in fill_prefix, for all len() bytes.
            unsafe { core::ptr::write_bytes(self.buf.buf_ptr() as *mut u8, 0, self.len()) }
        }
    }
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Checks a buffer the way cryptography does: a non-contiguous buffer is a
/// BufferError, items of more than one byte (array('I'), a memoryview cast
/// to 'I') a TypeError.
pub(crate) fn check_buffer(
    obj: &Bound<'_, PyAny>,
    buf: &PyUntypedBuffer,
    what: &str,
) -> PyResult<()> {
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
pub(crate) fn input<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<In<'py>> {
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

/// As [`input`], of exactly `len` bytes: otherwise ValueError
/// "`what` must be `len` bytes`detail`, got N".
pub(crate) fn input_of_len<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    len: usize,
    detail: &str,
) -> PyResult<In<'py>> {
    let b = input(obj, what)?;
    if b.len() != len {
        return Err(PyValueError::new_err(format!(
            "{what} must be {len} bytes{detail}, got {}",
            b.len()
        )));
    }
    Ok(b)
}

/// As [`input`], with `None` read as empty.
pub(crate) fn input_opt<'py>(obj: Option<&Bound<'py, PyAny>>, what: &str) -> PyResult<In<'py>> {
    match obj {
        None => Ok(In::Empty),
        Some(o) if o.is_none() => Ok(In::Empty),
        Some(o) => input(o, what),
    }
}

/// A writable buffer argument (its length is checked by [`Out::check_len`]).
pub(crate) fn output(obj: &Bound<'_, PyAny>) -> PyResult<Out> {
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
    pub(crate) fn check_len(&self, need: usize) -> PyResult<()> {
        if self.len() != need {
            return Err(PyValueError::new_err(format!(
                "buffer must be {need} bytes, got {}",
                self.len()
            )));
        }
        Ok(())
    }
}

pub(crate) fn random_bytes(py: Python<'_>, n: usize) -> PyResult<Bound<'_, PyBytes>> {
    PyBytes::new_with(py, n, |b| {
        getrandom::fill(b).map_err(|e| PyOSError::new_err(format!("random source: {e}")))
    })
}
