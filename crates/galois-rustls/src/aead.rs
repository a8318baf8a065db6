//! The one galois AES-GCM key that every record and packet key here wraps.

use galois_aead::AesGcm;

/// AES-GCM tag length in TLS and QUIC.
pub(crate) const TAG_LEN: usize = 16;

/// An AES-GCM key built once per connection direction (key schedule and
/// GHASH powers). rustls hands keys of the suite's length; a key galois
/// refuses anyway (it cannot happen through rustls) gives a key that fails
/// every operation instead of a panic. Key material is wiped on drop by
/// galois.
pub(crate) struct GcmKey(Option<AesGcm>);

impl GcmKey {
    pub(crate) fn new(key: &[u8]) -> Self {
        Self(AesGcm::new(key).ok())
    }

    /// Encrypts `buf` in place and returns the 16-byte tag.
    #[inline]
    pub(crate) fn seal(&self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Option<[u8; 16]> {
        let tag = self
            .0
            .as_ref()?
            .seal_in_place_detached(nonce, aad, buf)
            .ok()?;
        tag.as_bytes().try_into().ok()
    }

    /// Encrypts the plaintext `head || buf[head.len()..]` into `buf` and
    /// returns the 16-byte tag, in one pass: `head` is read where the
    /// caller has it, not copied into `buf` first.
    #[inline]
    pub(crate) fn seal_split(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        head: &[u8],
        buf: &mut [u8],
    ) -> Option<[u8; 16]> {
        let tag = self
            .0
            .as_ref()?
            .seal_split_detached(nonce, aad, head, buf)
            .ok()?;
        tag.as_bytes().try_into().ok()
    }

    /// Decrypts `buf` in place if `tag` verifies; otherwise `buf` is wiped
    /// (galois never releases unverified plaintext) and `None` returned.
    #[inline]
    pub(crate) fn open(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Option<()> {
        match &self.0 {
            Some(k) => k.open_in_place_detached(nonce, aad, buf, tag).ok(),
            None => {
                buf.fill(0);
                None
            }
        }
    }
}
