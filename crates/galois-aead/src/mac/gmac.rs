//! GMAC: GCM with an empty plaintext, authenticating the message as
//! additional data (the GCM specification (McGrew and Viega), section 2.1).

use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::error::Result;
use crate::gcm::{Gcm, Options, Tag};

/// GMAC over any 128-bit block cipher. Each IV must be used once per key:
/// a repeated IV lets an attacker recover H.
///
/// ```
/// use galois_aead::{Aes, Gmac, Options};
/// let mac = Gmac::from_cipher(Aes::new(&[3u8; 16])?, Options::new())?;
/// let tag = mac.authenticate(&[1; 12], b"message")?;
/// mac.verify(&[1; 12], b"message", tag.as_bytes())?;
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Gmac<C: BlockCipher128> {
    gcm: Gcm<C>,
}

/// GMAC with AES-128, -192 or -256 by key length.
pub type AesGmac = Gmac<Aes>;

/// Its `Gcm` wipes itself.
impl zeroize::ZeroizeOnDrop for AesGmac {}

impl AesGmac {
    /// AES-GMAC with 16-byte tags on the fastest constant-time backends.
    ///
    /// ```
    /// let mac = galois_aead::AesGmac::new(&[0u8; 16])?;
    /// // GMAC of the empty message is GCM's tag over nothing: the spec's test case 1.
    /// let tag = mac.authenticate(&[0; 12], b"")?;
    /// assert_eq!(tag.as_bytes()[..4], [0x58, 0xe2, 0xfc, 0xce]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_options(key, Options::new())
    }

    /// AES-GMAC set up as `opts` says (tag length, IV policy, backends).
    ///
    /// ```
    /// use galois_aead::{AesGmac, Options};
    /// let mac = AesGmac::with_options(&[0u8; 16], Options::new().tag_len(12)?)?;
    /// assert_eq!(mac.authenticate(&[0; 12], b"m")?.as_bytes().len(), 12);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_options(key: &[u8], opts: Options) -> Result<Self> {
        Ok(Gmac {
            gcm: Gcm::<Aes>::with_options(key, opts)?,
        })
    }
}

impl<C: BlockCipher128> Gmac<C> {
    /// GMAC over `cipher`.
    ///
    /// ```
    /// use galois_aead::{Aes, AesGmac, Gmac, Options};
    /// let a = Gmac::from_cipher(Aes::new(&[5u8; 32])?, Options::new())?;
    /// let b = AesGmac::new(&[5u8; 32])?;
    /// assert_eq!(a.authenticate(&[0; 12], b"m")?, b.authenticate(&[0; 12], b"m")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn from_cipher(cipher: C, opts: Options) -> Result<Self> {
        Ok(Gmac {
            gcm: Gcm::from_cipher(cipher, opts)?,
        })
    }

    /// The tag of `msg` under a fresh `iv`.
    ///
    /// ```
    /// let mac = galois_aead::AesGmac::new(&[3u8; 16])?;
    /// let tag = mac.authenticate(&[1; 12], b"message")?;
    /// assert!(mac.verify(&[1; 12], b"message", tag.as_bytes()).is_ok());
    /// assert!(mac.verify(&[1; 12], b"massage", tag.as_bytes()).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn authenticate(&self, iv: &[u8], msg: &[u8]) -> Result<Tag> {
        self.gcm.seal_in_place_detached(iv, msg, &mut [])
    }

    /// Checks `tag` in constant time; [`crate::Error::AuthenticationFailed`]
    /// if it does not verify.
    ///
    /// ```
    /// let mac = galois_aead::AesGmac::new(&[3u8; 16])?;
    /// let tag = mac.authenticate(&[1; 12], b"message")?;
    /// assert_eq!(mac.verify(&[2; 12], b"message", tag.as_bytes()), Err(galois_aead::Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn verify(&self, iv: &[u8], msg: &[u8], tag: &[u8]) -> Result<()> {
        self.gcm.open_in_place_detached(iv, msg, &mut [], tag)
    }

    /// The GCM key underneath.
    ///
    /// ```
    /// let mac = galois_aead::AesGmac::new(&[3u8; 16])?;
    /// let tag = mac.authenticate(&[1; 12], b"aad only")?;
    /// assert_eq!(mac.gcm().seal(&[1; 12], b"aad only", b"")?, tag.as_bytes());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn gcm(&self) -> &Gcm<C> {
        &self.gcm
    }
}

/// The underlying GCM key's `Debug` (no secrets).
impl<C: BlockCipher128 + core::fmt::Debug> core::fmt::Debug for Gmac<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gmac").field("gcm", &self.gcm).finish()
    }
}
