//! The streaming GCM contexts (AESGCM.encryptor()/decryptor()).

use crate::*;
use zeroize::{Zeroize, Zeroizing};

/// A received tag, copied out of the input (at most 16 bytes).
#[derive(Clone, Copy)]
pub(crate) struct TagBuf([u8; 16], usize);

impl TagBuf {
    pub(crate) fn new(t: &[u8]) -> Self {
        let mut b = [0u8; 16];
        let n = t.len().min(16);
        b[..n].copy_from_slice(&t[..n]);
        TagBuf(b, t.len())
    }
    pub(crate) fn get(&self) -> &[u8] {
        &self.0[..self.1.min(16)]
    }
}

// ---------------------------------------------------------------------------
// Streaming GCM
// ---------------------------------------------------------------------------

pub(crate) fn finalized() -> PyErr {
    raise(Exc::AlreadyFinalized, "Context was already finalized.")
}

/// Locks a streaming context without waiting: a second thread using the same
/// context at once gets a RuntimeError (waiting would deadlock, since the
/// first one may be running without the GIL and need it back).
pub(crate) fn lock<'a, T>(m: &'a Mutex<T>, what: &str) -> PyResult<MutexGuard<'a, T>> {
    match m.try_lock() {
        Ok(g) => Ok(g),
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(format!(
            "this {what} is in use by another thread"
        ))),
    }
}

pub(crate) fn check_room(out: &Out, need: usize) -> PyResult<()> {
    if out.len() < need {
        return Err(PyValueError::new_err(format!(
            "buffer must be at least {need} bytes, got {}",
            out.len()
        )));
    }
    Ok(())
}

/// The live context of an on-line GCM call, while associated data may
/// still come (before the first update).
fn before_update<T>(ctx: Option<&mut T>, updated: bool) -> PyResult<&mut T> {
    let ctx = ctx.ok_or_else(finalized)?;
    if updated {
        return Err(raise(
            Exc::AlreadyUpdated,
            "Update has been called on this context.",
        ));
    }
    Ok(ctx)
}

/// `finalized=` of a context's repr: `?` while another thread holds it.
pub(crate) fn finalized_text(finalized: Option<bool>) -> &'static str {
    match finalized {
        Some(true) => "True",
        Some(false) => "False",
        None => "?",
    }
}

/// The repr of an on-line GCM context (`finalized` is `None` while another
/// thread holds it).
fn context_repr(class: &str, key: &AesGcm, finalized: Option<bool>) -> String {
    let fin = finalized_text(finalized);
    format!(
        "galois_aead.{class}(AES-{}, tag_length={}, finalized={fin})",
        key.cipher().key_len() * 8,
        key.tag_len()
    )
}

/// The live context of an on-line GCM call for an update (after which no
/// more associated data is taken).
fn for_update<'a, T>(ctx: &'a mut Option<T>, updated: &mut bool) -> PyResult<&'a mut T> {
    let ctx = ctx.as_mut().ok_or_else(finalized)?;
    *updated = true;
    Ok(ctx)
}

/// The `#[pymethods]` of an on-line GCM context class (`$field` is its
/// context in `self.st`): `authenticate_additional_data`, `update` and
/// `update_into` (through the class's `update_bytes` and `update_buf`), the
/// repr, and the class's own methods. One block per class (a second one
/// would need pyo3's multiple-pymethods feature).
macro_rules! online_ctx {
    (
        $class:ident, $name:literal, $field:ident;
        $(#[$um:meta])* update;
        $(#[$im:meta])* update_into;
        { $($own:tt)* }
    ) => {
        #[pymethods]
        impl $class {
            /// Absorbs associated data (only before the first ``update``; after it,
            /// ``AlreadyUpdated``).
            pub(crate) fn authenticate_additional_data(&self, data: &Bound<'_, PyAny>) -> PyResult<()> {
                let d = input(data, "data")?;
                let mut g = lock(&self.st, $name)?;
                let updated = g.updated;
                before_update(g.$field.as_mut(), updated)?
                    .aad(d.as_slice())
                    .map_err(err)
            }

            $(#[$um])*
            pub(crate) fn update<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
                self.update_bytes(py, &input(data, "data")?)
            }

            $(#[$im])*
            pub(crate) fn update_into(&self, py: Python<'_>, data: &Bound<'_, PyAny>, buf: &Bound<'_, PyAny>) -> PyResult<usize> {
                into_call(py, buf, |out| {
                    let d = input(data, "data")?;
                    check_room(out, d.len())?;
                    self.update_buf(py, &d, out)
                })
            }

            pub(crate) fn __repr__(&self) -> String {
                let fin = self.st.try_lock().ok().map(|g| g.$field.is_none());
                context_repr($name, &self.key, fin)
            }

            $($own)*
        }
    };
}

pub(crate) type OnlineEnc = galois_aead::gcm::online::Encryptor<'static, Aes>;
pub(crate) type OnlineDec = galois_aead::gcm::online::Decryptor<'static, Aes>;

pub(crate) struct EncState {
    pub(crate) enc: Option<OnlineEnc>,
    pub(crate) tag: Option<Vec<u8>>,
    pub(crate) updated: bool,
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
pub(crate) struct GcmEncryptor {
    // Declared (and so dropped) before the key it borrows.
    pub(crate) st: Mutex<EncState>,
    pub(crate) key: Arc<AesGcm>,
}

impl GcmEncryptor {
    /// ``update``: the ciphertext of `d` in a new bytes object.
    fn update_bytes<'py>(&self, py: Python<'py>, d: &In<'_>) -> PyResult<Bound<'py, PyBytes>> {
        let mut g = lock(&self.st, "GCMEncryptor")?;
        let st = &mut *g;
        let enc = for_update(&mut st.enc, &mut st.updated)?;
        let big = d.len() >= GIL_RELEASE_BYTES;
        // The new bytes object is private until returned: the plaintext is
        // copied into it and encrypted in place there.
        PyBytes::new_with(py, d.len(), |out| {
            let p = Pending::copy(d, 0..d.len(), out, big);
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

    /// ``update_into``: the ciphertext of `d`, computed in private memory,
    /// copied into the start of `out`.
    fn update_buf(&self, py: Python<'_>, d: &In<'_>, out: &Out) -> PyResult<usize> {
        let mut g = lock(&self.st, "GCMEncryptor")?;
        let st = &mut *g;
        let enc = for_update(&mut st.enc, &mut st.updated)?;
        let big = d.len() >= GIL_RELEASE_BYTES;
        let mut scratch = Zeroizing::new(vec![0u8; d.len()]);
        let p = Pending::copy(d, 0..d.len(), &mut scratch, big);
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
    }
}

online_ctx! {
    GcmEncryptor, "GCMEncryptor", enc;
    /// Encrypts a piece of data and returns its ciphertext (same length).
    update;
    /// Encrypts ``data`` into the first ``len(data)`` bytes of ``buf`` (at
    /// least that long) and returns ``len(data)``. Computed in private memory
    /// and copied into ``buf`` whole; on any error ``buf`` is zeroed.
    update_into;
    {
        /// Ends the encryption; returns ``b""`` (GCM has no final block). The
        /// tag is then in ``tag``.
        pub(crate) fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
            let mut g = lock(&self.st, "GCMEncryptor")?;
            let enc = g.enc.take().ok_or_else(finalized)?;
            g.tag = Some(enc.finish().as_bytes().to_vec());
            Ok(PyBytes::new(py, b""))
        }

        /// The tag, after ``finalize()`` (before it: ``NotYetFinalized``).
        #[getter]
        pub(crate) fn tag<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
            let g = lock(&self.st, "GCMEncryptor")?;
            match &g.tag {
                Some(t) => Ok(PyBytes::new(py, t)),
                None => Err(raise(
                    Exc::NotYetFinalized,
                    "You must finalize encryption before getting the tag.",
                )),
            }
        }
    }
}

pub(crate) struct DecState {
    pub(crate) dec: Option<OnlineDec>,
    pub(crate) updated: bool,
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
pub(crate) struct GcmDecryptor {
    // Declared (and so dropped) before the key it borrows.
    pub(crate) st: Mutex<DecState>,
    pub(crate) tag: Option<TagBuf>,
    pub(crate) key: Arc<AesGcm>,
}

impl GcmDecryptor {
    pub(crate) fn finish<'py>(
        &self,
        py: Python<'py>,
        tag: Option<&[u8]>,
    ) -> PyResult<Bound<'py, PyBytes>> {
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

    /// Takes ciphertext `d` (kept until the tag is checked).
    fn take_update(&self, py: Python<'_>, d: &In<'_>) -> PyResult<()> {
        let mut g = lock(&self.st, "GCMDecryptor")?;
        let st = &mut *g;
        let dec = for_update(&mut st.dec, &mut st.updated)?;
        run_maybe_detached(py, d.len() >= GIL_RELEASE_BYTES, [d], |[d]| dec.update(d)).map_err(err)
    }

    /// ``update``: takes `d`, releases nothing.
    fn update_bytes<'py>(&self, py: Python<'py>, d: &In<'_>) -> PyResult<Bound<'py, PyBytes>> {
        self.take_update(py, d)?;
        Ok(PyBytes::new(py, b""))
    }

    /// ``update_into``: takes `d`, writes nothing.
    fn update_buf(&self, py: Python<'_>, d: &In<'_>, _out: &Out) -> PyResult<usize> {
        self.take_update(py, d)?;
        Ok(0)
    }
}

online_ctx! {
    GcmDecryptor, "GCMDecryptor", dec;
    /// Takes a piece of ciphertext, kept until the tag is checked; returns
    /// ``b""`` (no plaintext is released before verification).
    update;
    /// As ``update``: takes the ciphertext, writes nothing to ``buf`` (which
    /// must hold at least ``len(data)`` bytes, as in cryptography) and
    /// returns 0. The plaintext comes from ``finalize_with_tag``. On any
    /// error ``buf`` is zeroed.
    update_into;
    {
        /// Verifies ``tag`` and returns the whole plaintext, or raises
        /// ``InvalidTag`` (for a context made without a tag).
        pub(crate) fn finalize_with_tag<'py>(
            &self,
            py: Python<'py>,
            tag: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyBytes>> {
            let t = input(tag, "tag")?;
            self.finish(py, Some(t.as_slice()))
        }

        /// Verifies the tag given to ``decryptor(nonce, tag)`` and returns the
        /// whole plaintext, or raises ``InvalidTag``.
        pub(crate) fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
            self.finish(py, None)
        }
    }
}
