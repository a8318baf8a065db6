//! AESGCM (cryptography's call shapes, any nonce length, short tags) and the key helpers every AEAD class shares.

use crate::*;

/// The nonce range of cryptography's AESGCM, unless `any_nonce_length`.
pub(crate) const NONCE_MIN: usize = 8;
pub(crate) const NONCE_MAX: usize = 128;

pub(crate) fn nonce_arg<'py>(obj: &Bound<'py, PyAny>, any_len: bool) -> PyResult<In<'py>> {
    let n = input(obj, "nonce")?;
    if !any_len && !(NONCE_MIN..=NONCE_MAX).contains(&n.len()) {
        // cryptography's exact message.
        return Err(PyValueError::new_err(
            "Nonce must be between 8 and 128 bytes",
        ));
    }
    Ok(n)
}

/// `new(key, options)` (AES-GCM's or GMAC's constructor) with the options
/// of ``tag_length`` and ``permissive``; an option error is raised at once,
/// a key error is left to the caller's message.
pub(crate) fn with_gcm_options<T>(
    key: &Bound<'_, PyAny>,
    tag_length: usize,
    permissive: bool,
    new: impl FnOnce(&[u8], Options) -> Result<T, Error>,
) -> PyResult<Result<T, Error>> {
    let k = input(key, "key")?;
    let opts = gcm_options(tag_length, permissive)?;
    Ok(new(k.as_slice(), opts))
}

pub(crate) fn gcm_options(tag_length: usize, permissive: bool) -> PyResult<Options> {
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

// ---------------------------------------------------------------------------
// AESGCM
// ---------------------------------------------------------------------------

/// `items` as English: "16, 24 or 32".
pub(crate) fn or_list(items: impl Iterator<Item = usize>) -> String {
    let v: Vec<String> = items.map(|x| x.to_string()).collect();
    match v.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The key-length error of the AEAD `A`: its name and `A::KEY_LENS`.
pub(crate) fn key_len_err<A: AeadInit>(got: usize) -> PyErr {
    PyValueError::new_err(format!(
        "{} key must be {} bytes ({} bits), got {got}",
        A::NAME,
        or_list(A::KEY_LENS.iter().copied()),
        or_list(A::KEY_LENS.iter().map(|k| k * 8)),
    ))
}

/// `e` as a Python exception, a key-length error with `A`'s message.
pub(crate) fn aead_err<A: AeadInit>(e: Error) -> PyErr {
    match e {
        Error::InvalidKeyLength { got } => key_len_err::<A>(got),
        e => err(e),
    }
}

/// The AEAD `A` over `key` (any bytes-like object).
pub(crate) fn new_aead<A: AeadInit>(key: &Bound<'_, PyAny>) -> PyResult<A> {
    A::new(input(key, "key")?.as_slice()).map_err(aead_err::<A>)
}

/// A random key for `A` of `bit_length` bits (one of `A::KEY_LENS` x 8)
/// from the OS; `None` only when `A` has one key length.
pub(crate) fn generate_key<A: AeadInit>(
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

/// Starts an on-line operation (`start`) that borrows the `AesGcm` in
/// `gcm` for `'static`, and returns it with its own handle on that `Arc`.
///
/// # Safety
/// The borrow is sound only while the returned `Arc` lives: the caller keeps
/// it next to the operation and drops it after the operation (a struct field
/// declared after the operation's).
unsafe fn started<T>(
    gcm: &Arc<AesGcm>,
    start: impl FnOnce(&'static AesGcm) -> Result<T, Error>,
) -> PyResult<(T, Arc<AesGcm>)> {
    let key = Arc::clone(gcm);
    // SAFETY: the AesGcm sits in the Arc's heap allocation, whose address is
    // stable and which outlives the borrow by the caller's contract.
    let k: &'static AesGcm = unsafe { &*Arc::as_ptr(&key) };
    Ok((start(k).map_err(err)?, key))
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
pub(crate) struct PyAesGcm {
    pub(crate) gcm: Arc<AesGcm>,
    pub(crate) any_nonce: bool,
}

aead_class!(PyAesGcm {
    #[new]
    #[pyo3(signature = (key, *, tag_length = 16, permissive = false, any_nonce_length = false))]
    pub(crate) fn new(
        key: &Bound<'_, PyAny>,
        tag_length: usize,
        permissive: bool,
        any_nonce_length: bool,
    ) -> PyResult<Self> {
        let gcm = with_gcm_options(key, tag_length, permissive, AesGcm::with_options)?
            .map_err(aead_err::<AesGcm>)?;
        Ok(PyAesGcm {
            gcm: Arc::new(gcm),
            any_nonce: any_nonce_length,
        })
    }

    /// A random key of ``bit_length`` bits (128, 192 or 256) from the OS.
    #[staticmethod]
    #[pyo3(signature = (bit_length = None))]
    pub(crate) fn generate_key(
        py: Python<'_>,
        bit_length: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyBytes>> {
        generate_key::<AesGcm>(py, bit_length)
    }

    /// The tag length in bytes.
    #[getter]
    pub(crate) fn tag_length(&self) -> usize {
        self.gcm.tag_len()
    }

    /// Starts an on-line encryption under ``nonce`` (cryptography's GCM
    /// encryption context): associated data, then data in pieces of any
    /// size; ``finalize()`` returns ``b""`` and the tag is then ``.tag``.
    pub(crate) fn encryptor(&self, nonce: &Bound<'_, PyAny>) -> PyResult<GcmEncryptor> {
        let n = nonce_arg(nonce, self.any_nonce)?;
        // SAFETY: GcmEncryptor keeps the Arc in a field declared after (so
        // dropped after) the encryptor.
        let (enc, key) = unsafe { started(&self.gcm, |k| k.encryptor(n.as_slice())) }?;
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
    pub(crate) fn decryptor(
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
        // SAFETY: GcmDecryptor keeps the Arc in a field declared after (so
        // dropped after) the decryptor.
        let (dec, key) = unsafe { started(&self.gcm, |k| k.decryptor(n.as_slice())) }?;
        Ok(GcmDecryptor {
            st: Mutex::new(DecState {
                dec: Some(dec),
                updated: false,
            }),
            tag,
            key,
        })
    }

    pub(crate) fn __repr__(&self) -> String {
        format!(
            "galois_aead.AESGCM(AES-{}, tag_length={})",
            self.gcm.cipher().key_len() * 8,
            self.gcm.tag_len()
        )
    }
});

impl HasAead for PyAesGcm {
    type Inner = AesGcm;
    fn inner(&self) -> &AesGcm {
        &self.gcm
    }

    /// 8..128 bytes unless ``any_nonce_length``.
    fn nonce<'py>(&self, nonce: &Bound<'py, PyAny>) -> PyResult<In<'py>> {
        nonce_arg(nonce, self.any_nonce)
    }
}
