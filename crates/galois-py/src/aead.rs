//! AESGCMSIV and XAES256GCM: one generic implementation over galois_aead::AeadInit.

use crate::*;
use zeroize::{Zeroize, Zeroizing};

// ---------------------------------------------------------------------------
// AESGCMSIV and XAES256GCM (issue 15)
// ---------------------------------------------------------------------------

/// A nonce of exactly `len` bytes, with cryptography's message.
pub(crate) fn exact_nonce<'py>(obj: &Bound<'py, PyAny>, len: usize) -> PyResult<In<'py>> {
    let n = input(obj, "nonce")?;
    if n.len() != len {
        return Err(PyValueError::new_err(format!(
            "Nonce must be {len} bytes long"
        )));
    }
    Ok(n)
}

/// encrypt (`seal`) or decrypt of a one-shot AEAD class into a new bytes
/// object (ciphertext || tag, or the plaintext), as AESGCM's: the object is
/// private until returned, the message is read once into it and sealed or
/// opened in place there (without the GIL for inputs of
/// [`GIL_RELEASE_BYTES`] or more, from a copy made with the GIL held unless
/// they are immutable `bytes`), and it is wiped on failure.
pub(crate) fn fixed_new<'py, A: AeadInit>(
    py: Python<'py>,
    aead: &A,
    n: &In<'_>,
    d: &In<'_>,
    a: &In<'_>,
    seal: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let t = aead.tag_len();
    let (len, msg) = match (seal, d.len().checked_sub(t)) {
        (true, _) => (d.len() + t, d.len()),
        (false, Some(m)) => (m, m),
        (false, None) => return Err(invalid_tag()),
    };
    let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
    let tag = TagBuf::new(if seal { &[] } else { &d.as_slice()[msg..] });
    let run = move |n: &[u8], a: &[u8], m: &mut [u8], tag_out: &mut [u8]| {
        if seal {
            let tg = aead.seal_in_place_detached(n, a, m)?;
            tag_out.copy_from_slice(tg.as_bytes());
            Ok(())
        } else {
            aead.open_in_place_detached(n, a, m, tag.get())
        }
    };
    PyBytes::new_with(py, len, |out| {
        let (m, tag_out) = out.split_at_mut(msg);
        let p = Pending::copy(d, 0..msg, m, big);
        let r = if big {
            let (n, a) = (n.for_detach(), a.for_detach());
            py.detach(move || {
                p.finish(m);
                run(n.as_slice(), a.as_slice(), m, tag_out)
            })
        } else {
            run(n.as_slice(), a.as_slice(), m, tag_out)
        };
        r.map_err(|e| {
            // The object is freed unreturned: leave no plaintext in it.
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
pub(crate) fn fixed_into<A: AeadInit>(
    py: Python<'_>,
    aead: &A,
    n: &In<'_>,
    d: &In<'_>,
    a: &In<'_>,
    out: &Out,
    seal: bool,
) -> PyResult<usize> {
    let t = aead.tag_len();
    let big = d.len() + a.len() >= GIL_RELEASE_BYTES;
    let (mut scratch, tag, p) = if seal {
        out.check_len(d.len() + t)?;
        let mut s = Zeroizing::new(vec![0u8; d.len() + t]);
        let p = Pending::copy(d, 0..d.len(), &mut s[..d.len()], big);
        (s, TagBuf::new(&[]), p)
    } else {
        if d.len() < t {
            return Err(invalid_tag());
        }
        out.check_len(d.len() - t)?;
        let mut s = Zeroizing::new(vec![0u8; d.len() - t]);
        let p = Pending::copy(d, 0..d.len() - t, &mut s, big);
        (s, TagBuf::new(&d.as_slice()[d.len() - t..]), p)
    };
    let len = if seal { d.len() } else { d.len() - t };
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
pub(crate) fn into_call(
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

/// The one-shot AEAD classes (AESGCM, AESGCMSIV, XAES256GCM): which library
/// type each wraps and how it reads its arguments.
pub(crate) trait HasAead {
    type Inner: AeadInit;
    fn inner(&self) -> &Self::Inner;
    /// The nonce of a call: by default exactly `NONCE_LEN` bytes.
    fn nonce<'py>(&self, nonce: &Bound<'py, PyAny>) -> PyResult<In<'py>> {
        exact_nonce(nonce, Self::Inner::NONCE_LEN)
    }
    /// The nonce, data and associated data of a call, as the methods take
    /// them.
    #[allow(clippy::type_complexity)]
    fn args<'py>(
        &self,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated_data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(In<'py>, In<'py>, In<'py>)> {
        Ok((
            self.nonce(nonce)?,
            input(data, "data")?,
            input_opt(associated_data, "associated_data")?,
        ))
    }
}

/// encrypt_into (`seal`) or decrypt_into of a [`HasAead`] class: its
/// arguments parsed inside [`into_call`], which zeroes `buf` on any error.
pub(crate) fn into_method<C: HasAead>(
    py: Python<'_>,
    class: &C,
    nonce: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    associated_data: Option<&Bound<'_, PyAny>>,
    buf: &Bound<'_, PyAny>,
    seal: bool,
) -> PyResult<usize> {
    into_call(py, buf, |out| {
        let (n, d, a) = class.args(nonce, data, associated_data)?;
        fixed_into(py, class.inner(), &n, &d, &a, out, seal)
    })
}

/// The `#[pymethods]` of a [`HasAead`] class: its own (constructor, key
/// generation), then encrypt, decrypt, encrypt_into and decrypt_into, the
/// same for each (the nonce length is its AEAD's). One block per class (a
/// second one would need pyo3's multiple-pymethods feature).
macro_rules! aead_class {
    ($class:ident, $field:ident, $aead:ty, $pyname:literal, $bits:expr) => {
        impl HasAead for $class {
            type Inner = $aead;
            fn inner(&self) -> &Self::Inner {
                &self.$field
            }
        }

        aead_class!($class {
            #[new]
            fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok($class {
                    $field: new_aead(key)?,
                })
            }

            /// A random key of ``bit_length`` bits (one of the key lengths, in
            /// bits) from the OS.
            #[staticmethod]
            #[pyo3(signature = (bit_length = None))]
            fn generate_key(
                py: Python<'_>,
                bit_length: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyBytes>> {
                generate_key::<$aead>(py, bit_length)
            }

            /// The class, AES key size and tag length; never the key.
            fn __repr__(&self) -> String {
                let bits: fn(&$aead) -> usize = $bits;
                format!(
                    concat!("galois_aead.", $pyname, "(AES-{}, tag_length={})"),
                    bits(&self.$field),
                    self.$field.tag_len()
                )
            }
        });
    };
    ($class:ident { $($own:tt)* }) => {
        aead_class!(@emit $class { $($own)* } [
            /// Encrypts ``data`` and returns ciphertext || tag.
            encrypt => true,
            /// Verifies and decrypts ciphertext || tag; raises ``InvalidTag`` if it
            /// does not verify (nothing is returned then).
            decrypt => false
        ] [
            /// Encrypts ``data`` into ``buf`` (a writable buffer of exactly
            /// ``len(data) + tag_length`` bytes) as ciphertext || tag; returns the number of
            /// bytes written. The result is computed in private memory and copied
            /// into ``buf`` whole; on any error ``buf`` is zeroed.
            encrypt_into => true,
            /// Verifies and decrypts ciphertext || tag into ``buf`` (exactly
            /// ``len(data) - tag_length`` bytes); returns the number of bytes written.
            /// ``buf`` receives the plaintext only after the tag verified, in one
            /// copy; on any error (``InvalidTag`` included) it is zeroed.
            decrypt_into => false
        ]);
    };
    (
        @emit $class:ident { $($own:tt)* }
        [$($(#[$om:meta])* $one:ident => $one_seal:expr),*]
        [$($(#[$im:meta])* $into:ident => $seal:expr),*]
    ) => {
        #[pymethods]
        impl $class {
            $($own)*

            $(
                $(#[$om])*
                #[pyo3(signature = (nonce, data, associated_data))]
                fn $one<'py>(
                    &self,
                    py: Python<'py>,
                    nonce: &Bound<'py, PyAny>,
                    data: &Bound<'py, PyAny>,
                    associated_data: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, PyBytes>> {
                    let (n, d, a) = self.args(nonce, data, associated_data)?;
                    fixed_new(py, self.inner(), &n, &d, &a, $one_seal)
                }
            )*

            $(
                $(#[$im])*
                #[pyo3(signature = (nonce, data, associated_data, buf))]
                fn $into(
                    &self,
                    py: Python<'_>,
                    nonce: &Bound<'_, PyAny>,
                    data: &Bound<'_, PyAny>,
                    associated_data: Option<&Bound<'_, PyAny>>,
                    buf: &Bound<'_, PyAny>,
                ) -> PyResult<usize> {
                    into_method(py, self, nonce, data, associated_data, buf, $seal)
                }
            )*
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
pub(crate) struct PyAesGcmSiv {
    pub(crate) siv: galois_aead::AesGcmSiv,
}

aead_class!(PyAesGcmSiv, siv, galois_aead::AesGcmSiv, "AESGCMSIV", |a| a
    .key_len()
    * 8);

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
pub(crate) struct PyXAes256Gcm {
    pub(crate) x: galois_aead::XAes256Gcm,
}

aead_class!(
    PyXAes256Gcm,
    x,
    galois_aead::XAes256Gcm,
    "XAES256GCM",
    |_| 256
);
