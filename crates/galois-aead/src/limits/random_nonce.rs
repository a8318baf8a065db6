//! AES-GCM with random 96-bit IVs drawn by the library, counted against
//! usage limits.

use super::{aes_gcm_refusing_zero_h, Usage, UsageLimits, MAX_RANDOM_IV_MESSAGES, MAX_TOTAL_BYTES};
use crate::aead::Aead;
use crate::error::{Error, Result};
use crate::gcm::{AesGcm, Options};

/// AES-GCM with random 96-bit IVs drawn by the library, counted against
/// [`UsageLimits`] (default [`UsageLimits::RANDOM_IV`]). Sealed messages
/// are IV (12 bytes) || ciphertext || tag.
///
/// ```
/// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 32])?;
/// let sealed = gcm.seal(b"aad", b"no IV to manage")?;
/// assert_eq!(sealed.len(), 12 + 15 + 16);
/// assert_eq!(gcm.open(b"aad", &sealed)?, b"no IV to manage");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct RandomNonceGcm<A: Aead = AesGcm> {
    gcm: A,
    usage: Usage,
}

impl RandomNonceGcm {
    /// A key with the default limits (2^32 messages, 2^68 bytes); refuses
    /// H = 0.
    ///
    /// ```
    /// use galois_aead::limits::{RandomNonceGcm, UsageLimits};
    /// let gcm = RandomNonceGcm::new(&[1u8; 16])?;
    /// assert_eq!(gcm.usage().limits(), UsageLimits::RANDOM_IV);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_limits(key, UsageLimits::RANDOM_IV)
    }

    /// A key with chosen limits. The message limit may not exceed 2^32:
    /// beyond that random 96-bit IVs collide too likely.
    ///
    /// ```
    /// use galois_aead::limits::{RandomNonceGcm, UsageLimits};
    /// assert!(RandomNonceGcm::with_limits(&[1u8; 16], UsageLimits::messages(1000)).is_ok());
    /// // More than 2^32 random IVs per key is refused.
    /// assert!(RandomNonceGcm::with_limits(&[1u8; 16], UsageLimits::PACKETS).is_err());
    /// ```
    pub fn with_limits(key: &[u8], limits: UsageLimits) -> Result<Self> {
        // The limits before the key, as before the Aead trait.
        check_limits(&limits)?;
        Self::with_aead(aes_gcm_refusing_zero_h(key, Options::new())?, limits)
    }
}

impl<A: Aead> RandomNonceGcm<A> {
    /// Random nonces of the AEAD's nonce length (24 bytes for XAES-256-GCM)
    /// over any AEAD of this crate, with the same limits checks. Sealed
    /// messages are nonce || ciphertext || tag.
    ///
    /// ```
    /// use galois_aead::{Aead, AeadInit};
    /// use galois_aead::limits::{RandomNonceGcm, UsageLimits};
    /// use galois_aead::XAes256Gcm;
    /// let mut x = RandomNonceGcm::with_aead(XAes256Gcm::for_formats(&[1u8; 32])?, UsageLimits::RANDOM_IV)?;
    /// let sealed = x.seal(b"aad", b"msg")?;
    /// assert_eq!(sealed.len(), 24 + 3 + 16);
    /// assert_eq!(x.open(b"aad", &sealed)?, b"msg");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_aead(aead: A, limits: UsageLimits) -> Result<Self> {
        check_limits(&limits)?;
        Ok(RandomNonceGcm {
            gcm: aead,
            usage: Usage::new(limits),
        })
    }

    /// Seals under a fresh random IV; refuses past the limits.
    ///
    /// ```
    /// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 16])?;
    /// let (a, b) = (gcm.seal(b"", b"same")?, gcm.seal(b"", b"same")?);
    /// assert_ne!(a[..12], b[..12]); // a fresh IV each time
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
        self.gcm.check_lengths(aad, pt.len())?;
        self.usage.charge((aad.len() + pt.len()) as u64)?;
        let n = A::NONCE_LEN;
        let mut out = vec![0u8; n];
        getrandom::fill(&mut out).map_err(|_| Error::RandomSourceFailed)?;
        let iv = out.clone();
        out.extend_from_slice(pt);
        let tag = self.gcm.seal_in_place_detached(&iv, aad, &mut out[n..])?;
        out.extend_from_slice(tag.as_bytes());
        Ok(out)
    }

    /// Opens IV || ciphertext || tag.
    ///
    /// ```
    /// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 16])?;
    /// let mut sealed = gcm.seal(b"", b"msg")?;
    /// sealed[0] ^= 1; // the IV
    /// assert_eq!(gcm.open(b"", &sealed), Err(galois_aead::Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn open(&self, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>> {
        let (n, min) = (A::NONCE_LEN, A::NONCE_LEN + self.gcm.tag_len());
        if sealed.len() < min {
            return Err(Error::CiphertextTooShort {
                len: sealed.len(),
                min,
            });
        }
        self.gcm.open(&sealed[..n], aad, &sealed[n..])
    }

    /// The usage so far.
    ///
    /// ```
    /// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 16])?;
    /// gcm.seal(b"ab", b"cde")?;
    /// assert_eq!((gcm.usage().messages(), gcm.usage().bytes()), (1, 5));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn usage(&self) -> &Usage {
        &self.usage
    }
}

/// Refuses limits above 2^32 random nonces or 2^68 bytes.
fn check_limits(limits: &UsageLimits) -> Result<()> {
    if limits.max_messages > MAX_RANDOM_IV_MESSAGES || limits.max_total_bytes > MAX_TOTAL_BYTES {
        return Err(Error::LimitReached {
            what: "requested limit above 2^32 random IVs or 2^68 bytes",
        });
    }
    Ok(())
}
