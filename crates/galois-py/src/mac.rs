//! GMAC, Poly1305-AES and one-time Poly1305.

use crate::*;

// ---------------------------------------------------------------------------
// The keyed MAC classes (GMAC, Poly1305AES): authenticate and verify once
// ---------------------------------------------------------------------------

/// GMAC and Poly1305AES, seen alike by their authenticate and verify.
pub(crate) trait MacClass {
    type Mac: LibMac;
    fn mac(&self) -> &Self::Mac;
    /// The nonce argument, checked as the class takes it.
    fn nonce<'py>(&self, nonce: &Bound<'py, PyAny>) -> PyResult<In<'py>>;
    /// The tag length verify takes (any other: ``InvalidSignature``).
    fn tag_len(&self) -> usize;
}

/// The library MACs behind the classes: a tag as bytes, and verification.
pub(crate) trait LibMac: Sync {
    fn tag_bytes(&self, nonce: &[u8], data: &[u8]) -> Result<Vec<u8>, Error>;
    fn check(&self, nonce: &[u8], data: &[u8], tag: &[u8]) -> Result<(), Error>;
}

/// [`LibMac`] for each library MAC `$t`, whose tag `$tag` is as bytes `$bytes`.
macro_rules! lib_mac {
    ($($t:ty => |$tag:ident| $bytes:expr),*) => {$(
        impl LibMac for $t {
            fn tag_bytes(&self, nonce: &[u8], data: &[u8]) -> Result<Vec<u8>, Error> {
                let $tag = self.authenticate(nonce, data)?;
                Ok($bytes)
            }
            fn check(&self, nonce: &[u8], data: &[u8], tag: &[u8]) -> Result<(), Error> {
                self.verify(nonce, data, tag)
            }
        }
    )*};
}
lib_mac!(AesGmac => |t| t.as_bytes().to_vec(), Poly1305Aes => |t| t.to_vec());

/// The `#[pymethods]` of a [`MacClass`]: its own methods, then
/// ``authenticate`` and ``verify`` (without the GIL for long data). One
/// block per class (a second one would need pyo3's multiple-pymethods
/// feature).
macro_rules! mac_class {
    (
        $class:ident($mac:ty), |$s:ident, $n:ident| nonce = $nonce:expr, tag_len = $tl:expr;
        $(#[$am:meta])* authenticate; $(#[$vm:meta])* verify; { $($own:tt)* }
    ) => {
        impl MacClass for $class {
            type Mac = $mac;
            fn mac(&self) -> &$mac {
                &self.mac
            }
            #[allow(unused_variables)]
            fn nonce<'py>(&self, $n: &Bound<'py, PyAny>) -> PyResult<In<'py>> {
                let $s = self;
                $nonce
            }
            #[allow(unused_variables)]
            fn tag_len(&self) -> usize {
                let $s = self;
                $tl
            }
        }

        #[pymethods]
        impl $class {
            $($own)*

            $(#[$am])*
            pub(crate) fn authenticate<'py>(
                &self,
                py: Python<'py>,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                let n = self.nonce(nonce)?;
                let d = input(data, "data")?;
                let m = self.mac();
                let big = d.len() >= GIL_RELEASE_BYTES;
                let tag = run_maybe_detached(py, big, [&n, &d], |[n, d]| m.tag_bytes(n, d));
                Ok(PyBytes::new(py, &tag.map_err(err)?))
            }

            $(#[$vm])*
            pub(crate) fn verify(
                &self,
                py: Python<'_>,
                nonce: &Bound<'_, PyAny>,
                data: &Bound<'_, PyAny>,
                tag: &Bound<'_, PyAny>,
            ) -> PyResult<()> {
                let n = self.nonce(nonce)?;
                let d = input(data, "data")?;
                let t = input(tag, "tag")?;
                if t.len() != MacClass::tag_len(self) {
                    return Err(invalid_signature());
                }
                let m = self.mac();
                let big = d.len() >= GIL_RELEASE_BYTES;
                run_maybe_detached(py, big, [&n, &d, &t], |[n, d, t]| m.check(n, d, t))
                    .map_err(mac_err)
            }
        }
    };
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
pub(crate) struct PyGmac {
    pub(crate) mac: Arc<AesGmac>,
    pub(crate) any_nonce: bool,
}

mac_class! {
    PyGmac(AesGmac), |s, n| nonce = nonce_arg(n, s.any_nonce), tag_len = s.mac.gcm().tag_len();
    /// The tag of ``data`` under ``nonce``.
    authenticate;
    /// Returns None if ``tag`` is the tag of ``data`` under ``nonce``, else
    /// raises ``galois_aead.InvalidSignature`` (also for a tag of the wrong length).
    verify;
    {
        #[new]
        #[pyo3(signature = (key, *, tag_length = 16, permissive = false, any_nonce_length = false))]
        pub(crate) fn new(key: &Bound<'_, PyAny>, tag_length: usize, permissive: bool, any_nonce_length: bool) -> PyResult<Self> {
            let mac = with_gcm_options(key, tag_length, permissive, AesGmac::with_options)?.map_err(err)?;
            Ok(PyGmac {
                mac: Arc::new(mac),
                any_nonce: any_nonce_length,
            })
        }

        /// A random key of ``bit_length`` bits (128, 192 or 256).
        #[staticmethod]
        pub(crate) fn generate_key(
            py: Python<'_>,
            bit_length: &Bound<'_, PyAny>,
        ) -> PyResult<Py<PyBytes>> {
            generate_key::<AesGcm>(py, Some(bit_length))
        }

        /// The tag length in bytes.
        #[getter]
        pub(crate) fn tag_length(&self) -> usize {
            self.mac.gcm().tag_len()
        }

        pub(crate) fn __repr__(&self) -> String {
            format!(
                "galois_aead.GMAC(AES-{}, tag_length={})",
                self.mac.gcm().cipher().key_len() * 8,
                self.mac.gcm().tag_len()
            )
        }
    }
}

// ---------------------------------------------------------------------------
// Poly1305-AES
// ---------------------------------------------------------------------------

/// A Poly1305-AES nonce: exactly 16 bytes.
fn poly1305_aes_nonce<'py>(nonce: &Bound<'py, PyAny>) -> PyResult<In<'py>> {
    input_of_len(nonce, "nonce", 16, "")
}

/// Poly1305-AES (Bernstein 2005): a 32-byte key k || r (r clamped), 16-byte
/// nonces, 16-byte tags. Never reuse a nonce with one key.
///
/// >>> import galois_aead
/// >>> key = galois_aead.Poly1305AES.generate_key()
/// >>> mac = galois_aead.Poly1305AES(key)
/// >>> tag = mac.authenticate(bytes(16), b"message")
/// >>> mac.verify(bytes(16), b"message", tag)
#[pyclass(frozen, module = "galois_aead", name = "Poly1305AES")]
pub(crate) struct PyPoly1305Aes {
    pub(crate) mac: Arc<Poly1305Aes>,
}

mac_class! {
    PyPoly1305Aes(Poly1305Aes), |s, n| nonce = poly1305_aes_nonce(n), tag_len = 16;
    /// The 16-byte tag of ``data`` under the 16-byte ``nonce``.
    authenticate;
    /// Returns None if ``tag`` verifies, else raises ``galois_aead.InvalidSignature``.
    verify;
    {
        #[new]
        pub(crate) fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
            let k = input_of_len(key, "key", 32, " (16-byte AES key k, then r)")?;
            let mac = Poly1305Aes::new(k.as_slice()).map_err(err)?;
            Ok(PyPoly1305Aes { mac: Arc::new(mac) })
        }

        pub(crate) fn __repr__(&self) -> &'static str {
            "galois_aead.Poly1305AES(AES-128)"
        }

        /// A random 32-byte key k || r with r clamped.
        #[staticmethod]
        pub(crate) fn generate_key(py: Python<'_>) -> PyResult<Bound<'_, PyBytes>> {
            let k = Poly1305Aes::generate_key().map_err(err)?;
            Ok(PyBytes::new(py, &k[..]))
        }
    }
}

// ---------------------------------------------------------------------------
// One-time Poly1305 (RFC 8439)
// ---------------------------------------------------------------------------

pub(crate) fn onetime_key<'py>(key: &Bound<'py, PyAny>) -> PyResult<In<'py>> {
    input_of_len(key, "key", 32, " (r || s)")
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
pub(crate) struct PyPoly1305 {
    pub(crate) st: Mutex<Option<Poly1305>>,
}

#[pymethods]
impl PyPoly1305 {
    #[new]
    pub(crate) fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = onetime_key(key)?;
        let p = Poly1305::new(k.as_slice()).map_err(err)?;
        Ok(PyPoly1305 {
            st: Mutex::new(Some(p)),
        })
    }

    pub(crate) fn __repr__(&self) -> String {
        let fin = finalized_text(self.st.try_lock().ok().map(|g| g.is_none()));
        format!("galois_aead.Poly1305(finalized={fin})")
    }

    /// Appends message bytes.
    pub(crate) fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let d = input(data, "data")?;
        let mut g = lock(&self.st, "Poly1305")?;
        let p = g.as_mut().ok_or_else(finalized)?;
        run_maybe_detached(py, d.len() >= GIL_RELEASE_BYTES, [&d], |[d]| p.update(d));
        Ok(())
    }

    /// The 16-byte tag of everything given; the object is then finalized.
    pub(crate) fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let p = lock(&self.st, "Poly1305")?.take().ok_or_else(finalized)?;
        Ok(PyBytes::new(py, &p.finalize()))
    }

    /// Returns None if ``tag`` is the tag of everything given, else raises
    /// ``galois_aead.InvalidSignature``; the object is then finalized.
    pub(crate) fn verify(&self, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = input(tag, "tag")?;
        let p = lock(&self.st, "Poly1305")?.take().ok_or_else(finalized)?;
        match p.verify(t.as_slice()) {
            Ok(()) => Ok(()),
            Err(_) => Err(invalid_signature()),
        }
    }

    /// The tag of ``data`` under the one-time ``key``, in one call.
    #[staticmethod]
    pub(crate) fn generate_tag<'py>(
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let k = onetime_key(key)?;
        let d = input(data, "data")?;
        let big = d.len() >= GIL_RELEASE_BYTES;
        let t = run_maybe_detached(py, big, [&k, &d], |[k, d]| Poly1305::mac(k, d)).map_err(err)?;
        Ok(PyBytes::new(py, &t))
    }

    /// Returns None if ``tag`` is the tag of ``data`` under ``key``, else
    /// raises ``galois_aead.InvalidSignature``.
    #[staticmethod]
    pub(crate) fn verify_tag(
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
