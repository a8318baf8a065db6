//! galois's exception classes and the mapping of galois errors to Python exceptions.

use crate::*;

/// galois's exception classes. When `cryptography` is importable, each
/// subclasses `cryptography.exceptions.<same name>`, so code written for
/// cryptography (`except cryptography.exceptions.InvalidTag`) catches them;
/// otherwise each subclasses `Exception`.
#[derive(Clone, Copy)]
pub(crate) enum Exc {
    InvalidTag = 0,
    InvalidSignature = 1,
    AlreadyFinalized = 2,
    NotYetFinalized = 3,
    AlreadyUpdated = 4,
}

pub(crate) const EXCEPTIONS: [(&str, &CStr, &CStr); 5] = [
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

pub(crate) static EXC_TYPES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

pub(crate) fn exc_types(py: Python<'_>) -> PyResult<&Vec<Py<PyType>>> {
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
pub(crate) fn raise(kind: Exc, msg: impl Into<String>) -> PyErr {
    let msg: String = msg.into();
    Python::attach(|py| match exc_types(py) {
        Ok(t) => PyErr::from_type(t[kind as usize].bind(py).clone(), msg),
        Err(e) => e,
    })
}

pub(crate) fn invalid_tag() -> PyErr {
    raise(Exc::InvalidTag, "the tag did not verify")
}

pub(crate) fn invalid_signature() -> PyErr {
    raise(Exc::InvalidSignature, "the tag did not verify")
}

/// galois errors as Python exceptions: a failed tag is InvalidTag, every
/// parameter error a ValueError with galois's own message.
pub(crate) fn err(e: Error) -> PyErr {
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
pub(crate) fn mac_err(e: Error) -> PyErr {
    match e {
        Error::AuthenticationFailed | Error::InvalidTagLength { .. } => invalid_signature(),
        e => err(e),
    }
}
