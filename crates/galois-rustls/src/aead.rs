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

    /// Encrypts `src` into `out` (`src.len() + 16` bytes: ciphertext, then
    /// the tag) in one pass, out of place: the plaintext is read where the
    /// caller has it, not copied into `out` first.
    #[inline]
    pub(crate) fn seal_into(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        src: &[u8],
        out: &mut [u8],
    ) -> Option<()> {
        self.0.as_ref()?.seal_into(nonce, aad, src, out).ok()
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
