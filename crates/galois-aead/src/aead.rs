//! The one interface the formats and protocols of this crate ([`packet`],
//! [`limits::RandomNonceGcm`]) use for the AEAD under them, so another
//! AEAD plugs in by implementing [`Aead`] here, without touching each of
//! them.
//!
//! The trait is public so that `PacketSealer<AesGcmSiv>` can be named, but
//! sealed: only this crate's AEADs ([`AesGcm`], [`AesGcmSiv`],
//! [`XAes256Gcm`]) implement it, so its methods can grow without breaking
//! anyone. Each AEAD keeps its own inherent API; the trait's methods have
//! the same names and meanings.
//!
//! Adding an AEAD: one `impl Aead` block below (name, nonce length, key
//! setup, the length checks, and the core seal/open pairs; `seal` and
//! `open` follow from the core), and a line in `sealed`. The formats
//! (`PacketSealer::with_aead`, `PacketOpener::with_aead`,
//! `RandomNonceGcm::with_aead`) then take it as they are.
//!
//! [`packet`]: crate::packet
//! [`limits::RandomNonceGcm`]: crate::limits::RandomNonceGcm
//!
//! ```
//! use galois_aead::aead::Aead;
//! use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
//! fn round_trip<A: Aead>(key: &[u8]) -> galois_aead::Result<()> {
//!     let a = A::for_formats(key)?;
//!     let nonce = vec![7u8; A::NONCE_LEN];
//!     let sealed = Aead::seal(&a, &nonce, b"aad", b"msg")?;
//!     assert_eq!(sealed.len(), 3 + a.tag_len());
//!     assert_eq!(Aead::open(&a, &nonce, b"aad", &sealed)?, b"msg");
//!     Ok(())
//! }
//! round_trip::<AesGcm>(&[1; 16])?;
//! round_trip::<AesGcmSiv>(&[1; 32])?;
//! round_trip::<XAes256Gcm>(&[1; 32])?;
//! # Ok::<(), galois_aead::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::gcm::{AesGcm, Options, Tag};
use crate::gcm_siv::AesGcmSiv;
use crate::xaes::XAes256Gcm;

mod sealed {
    /// Only this crate implements [`super::Aead`]:
    ///
    /// ```compile_fail
    /// struct Mine;
    /// impl galois_aead::aead::Aead for Mine {
    ///     const NAME: &'static str = "mine";
    ///     const NONCE_LEN: usize = 12;
    ///     // ...
    /// }
    /// ```
    pub trait Sealed {}
    impl Sealed for crate::gcm::AesGcm {}
    impl Sealed for crate::gcm_siv::AesGcmSiv {}
    impl Sealed for crate::xaes::XAes256Gcm {}
}

/// An AEAD of this crate, as the formats see it (sealed: see the module
/// documentation).
///
/// ```
/// use galois_aead::aead::Aead;
/// assert_eq!(<galois_aead::XAes256Gcm as Aead>::NONCE_LEN, 24);
/// assert_eq!(<galois_aead::AesGcmSiv as Aead>::NAME, "aes-gcm-siv");
/// ```
pub trait Aead: sealed::Sealed + Send + Sync + Sized {
    /// A short lower-case name ("aes-gcm", "aes-gcm-siv", "xaes-256-gcm").
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// assert_eq!(<AesGcm as Aead>::NAME, "aes-gcm");
    /// assert_eq!(<XAes256Gcm as Aead>::NAME, "xaes-256-gcm");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    const NAME: &'static str;
    /// The nonce length the formats use, in bytes.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// assert_eq!((<AesGcm as Aead>::NONCE_LEN, <AesGcmSiv as Aead>::NONCE_LEN), (12, 12));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    const NONCE_LEN: usize;

    /// The key as the formats set it up: 16-byte tags, and for AES-GCM a
    /// key with H = 0 refused ([`Options::refuse_zero_h`]).
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// assert_eq!(AesGcm::for_formats(&[1; 16])?.tag_len(), 16);
    /// assert!(AesGcmSiv::for_formats(&[1; 20]).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn for_formats(key: &[u8]) -> Result<Self>;

    /// The key as `new` sets it up (16-byte tags, automatic backends): what
    /// the bindings' one-shot functions use.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let x = <XAes256Gcm as Aead>::from_key(&[1; 32])?;
    /// assert_eq!(Aead::seal(&x, &[0; 24], b"", b"m")?, x.seal(&[0; 24], b"", b"m")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn from_key(key: &[u8]) -> Result<Self>;

    /// The tag length in bytes.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// assert_eq!(Aead::tag_len(&AesGcmSiv::from_key(&[1; 16])?), 16);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn tag_len(&self) -> usize;

    /// Refuses additional data or a text too long for one message, before
    /// any work (a format checks this before it spends a nonce).
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let siv = AesGcmSiv::from_key(&[1; 16])?;
    /// assert!(siv.check_lengths(b"", 100).is_ok());
    /// assert!(siv.check_lengths(b"", (1 << 36) + 1).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn check_lengths(&self, aad: &[u8], text_len: usize) -> Result<()>;

    /// Encrypts `buf` in place and returns the detached tag.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let g = AesGcm::from_key(&[1; 16])?;
    /// let mut buf = *b"abc";
    /// let tag = Aead::seal_in_place_detached(&g, &[0; 12], b"", &mut buf)?;
    /// assert_eq!([&buf[..], tag.as_bytes()].concat(), g.seal(&[0; 12], b"", b"abc")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal_in_place_detached(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag>;

    /// Decrypts `buf` in place if `tag` verifies; on failure `buf` is wiped.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let g = AesGcmSiv::from_key(&[1; 16])?;
    /// let mut buf = *b"abc";
    /// let tag = Aead::seal_in_place_detached(&g, &[0; 12], b"", &mut buf)?;
    /// Aead::open_in_place_detached(&g, &[0; 12], b"", &mut buf, tag.as_bytes())?;
    /// assert_eq!(&buf, b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<()>;

    /// Seals `pt` into `out` (`pt.len() + tag_len()` bytes: ciphertext then
    /// tag); a refused seal leaves `out` wiped.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let x = XAes256Gcm::from_key(&[1; 32])?;
    /// let mut out = [0u8; 3 + 16];
    /// Aead::seal_into(&x, &[0; 24], b"", b"abc", &mut out)?;
    /// assert_eq!(out.to_vec(), x.seal(&[0; 24], b"", b"abc")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal_into(&self, nonce: &[u8], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<()>;

    /// Opens ciphertext-then-tag `input` into `out` (`input.len() -
    /// tag_len()` bytes); on failure `out` is wiped.
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let x = XAes256Gcm::from_key(&[1; 32])?;
    /// let sealed = x.seal(&[0; 24], b"", b"abc")?;
    /// let mut out = [0u8; 3];
    /// Aead::open_into(&x, &[0; 24], b"", &sealed, &mut out)?;
    /// assert_eq!(&out, b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open_into(&self, nonce: &[u8], aad: &[u8], input: &[u8], out: &mut [u8]) -> Result<()>;

    /// Ciphertext then tag, in a new vector (derived from `seal_into`).
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let g = AesGcm::from_key(&[1; 16])?;
    /// assert_eq!(Aead::seal(&g, &[0; 12], b"a", b"m")?, g.seal(&[0; 12], b"a", b"m")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal(&self, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
        let mut out = vec![0u8; pt.len() + self.tag_len()];
        self.seal_into(nonce, aad, pt, &mut out)?;
        Ok(out)
    }

    /// The plaintext of ciphertext-then-tag `input`, only if it verifies
    /// (derived from `open_into`).
    /// ```
    /// use galois_aead::aead::Aead;
    /// use galois_aead::{AesGcm, AesGcmSiv, XAes256Gcm};
    /// let g = AesGcmSiv::from_key(&[1; 16])?;
    /// let sealed = g.seal(&[0; 12], b"a", b"m")?;
    /// assert_eq!(Aead::open(&g, &[0; 12], b"a", &sealed)?, b"m");
    /// assert!(Aead::open(&g, &[0; 12], b"b", &sealed).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open(&self, nonce: &[u8], aad: &[u8], input: &[u8]) -> Result<Vec<u8>> {
        let t = self.tag_len();
        if input.len() < t {
            return Err(Error::CiphertextTooShort {
                len: input.len(),
                min: t,
            });
        }
        let mut out = vec![0u8; input.len() - t];
        self.open_into(nonce, aad, input, &mut out)?;
        Ok(out)
    }
}

/// Every method forwards to the inherent method of the same name.
macro_rules! forward_core {
    () => {
        fn seal_in_place_detached(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag> {
            Self::seal_in_place_detached(self, nonce, aad, buf)
        }
        fn open_in_place_detached(
            &self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
            tag: &[u8],
        ) -> Result<()> {
            Self::open_in_place_detached(self, nonce, aad, buf, tag)
        }
        fn seal_into(&self, nonce: &[u8], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<()> {
            Self::seal_into(self, nonce, aad, pt, out)
        }
        fn open_into(&self, nonce: &[u8], aad: &[u8], input: &[u8], out: &mut [u8]) -> Result<()> {
            Self::open_into(self, nonce, aad, input, out)
        }
    };
}

impl Aead for AesGcm {
    const NAME: &'static str = "aes-gcm";
    const NONCE_LEN: usize = 12;

    fn for_formats(key: &[u8]) -> Result<Self> {
        Self::with_options(key, Options::new().refuse_zero_h())
    }

    fn from_key(key: &[u8]) -> Result<Self> {
        Self::new(key)
    }

    fn tag_len(&self) -> usize {
        Self::tag_len(self)
    }

    fn check_lengths(&self, aad: &[u8], text_len: usize) -> Result<()> {
        Self::check_lengths(aad, text_len)
    }

    forward_core!();
}

impl Aead for AesGcmSiv {
    const NAME: &'static str = "aes-gcm-siv";
    const NONCE_LEN: usize = crate::gcm_siv::NONCE_BYTES;

    fn for_formats(key: &[u8]) -> Result<Self> {
        Self::new(key)
    }

    fn from_key(key: &[u8]) -> Result<Self> {
        Self::new(key)
    }

    fn tag_len(&self) -> usize {
        crate::gcm_siv::TAG_BYTES
    }

    fn check_lengths(&self, aad: &[u8], text_len: usize) -> Result<()> {
        Self::check(&[0; crate::gcm_siv::NONCE_BYTES], aad, text_len)
    }

    forward_core!();
}

impl Aead for XAes256Gcm {
    const NAME: &'static str = "xaes-256-gcm";
    const NONCE_LEN: usize = crate::xaes::NONCE_BYTES;

    fn for_formats(key: &[u8]) -> Result<Self> {
        Self::new(key)
    }

    fn from_key(key: &[u8]) -> Result<Self> {
        Self::new(key)
    }

    fn tag_len(&self) -> usize {
        crate::xaes::TAG_BYTES
    }

    fn check_lengths(&self, aad: &[u8], text_len: usize) -> Result<()> {
        AesGcm::check_lengths(aad, text_len)
    }

    forward_core!();
}
