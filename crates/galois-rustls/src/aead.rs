//! The one galois AES-GCM key that every record and packet key here wraps.

use galois_aead::AesGcm;
use rustls::crypto::cipher::{
    InboundPlainMessage, Iv, Nonce, OutboundChunks, OutboundOpaqueMessage, PrefixedPayload,
};
use rustls::Error;

/// AES-GCM tag length in TLS and QUIC.
pub(crate) const TAG_LEN: usize = 16;

/// What `MessageEncrypter::encrypt` returns.
pub(crate) type Sealed = Result<OutboundOpaqueMessage, Error>;
/// What `MessageDecrypter::decrypt` returns.
pub(crate) type Opened<'a> = Result<InboundPlainMessage<'a>, Error>;

/// A record or packet key and the IV its nonces come from: the nonce of
/// sequence number `seq` is the IV xor `seq` (TLS 1.3, QUIC, and the TLS 1.2
/// records galois seals).
pub(crate) struct KeyIv {
    pub(crate) key: GcmKey,
    pub(crate) iv: Iv,
}

impl KeyIv {
    pub(crate) fn new(key: &[u8], iv: Iv) -> Self {
        KeyIv {
            key: GcmKey::new(key),
            iv,
        }
    }

    /// The nonce of sequence number `seq`.
    pub(crate) fn nonce(&self, seq: u64) -> [u8; 12] {
        Nonce::new(&self.iv, seq).0
    }
}

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

    /// A TLS record's payload: `prefix` (TLS 1.2's explicit nonce), then
    /// the ciphertext of `plain || trailer` and its tag, in a payload of
    /// `capacity` bytes. One piece is sealed from where it is into a zeroed
    /// record (a `memset`, far cheaper than copying it in), the trailer
    /// (TLS 1.3's content type) in place after it; pieces are copied in and
    /// sealed in place.
    pub(crate) fn seal_record(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        capacity: usize,
        prefix: &[u8],
        plain: &OutboundChunks<'_>,
        trailer: &[u8],
    ) -> Result<PrefixedPayload, Error> {
        let key = self.0.as_ref().ok_or(Error::EncryptError)?;
        let mut payload = PrefixedPayload::with_capacity(capacity);
        payload.extend_from_slice(prefix);
        let skip = prefix.len();
        let tag = match *plain {
            OutboundChunks::Single(src) => {
                payload.extend(core::iter::repeat_n(&0u8, src.len()));
                payload.extend_from_slice(trailer);
                key.seal_split_detached(nonce, aad, src, &mut payload.as_mut()[skip..])
            }
            _ => {
                payload.extend_from_chunks(plain);
                payload.extend_from_slice(trailer);
                key.seal_in_place_detached(nonce, aad, &mut payload.as_mut()[skip..])
            }
        }
        .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(tag.as_bytes());
        Ok(payload)
    }

    /// Opens a record body of ciphertext (`ct_len` bytes) || tag in place
    /// ([`GcmKey::open`]); `DecryptError` if it does not verify.
    pub(crate) fn open_record(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        body: &mut [u8],
        ct_len: usize,
    ) -> Result<(), Error> {
        let (ct, tag) = body.split_at_mut(ct_len);
        self.open(nonce, aad, ct, tag).ok_or(Error::DecryptError)
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

/// For the record tests of both TLS versions: records sealed from one
/// piece (out of place) equal records sealed from two (copied, then in
/// place) and `theirs`, at every length to 600 bytes and around each batch
/// and the largest record, and each opens to its plaintext.
#[cfg(test)]
pub(crate) fn check_records(
    ours: &mut dyn rustls::crypto::cipher::MessageEncrypter,
    theirs: &mut dyn rustls::crypto::cipher::MessageEncrypter,
    dec: &mut dyn rustls::crypto::cipher::MessageDecrypter,
) {
    use rustls::crypto::cipher::{InboundOpaqueMessage, OutboundChunks, OutboundPlainMessage};
    use rustls::{ContentType, ProtocolVersion};
    let lens = (0..=600).chain([1023, 1024, 1500, 4095, 4097, 16383, 16384]);
    for (seq, len) in lens.enumerate() {
        let pt: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
        let cut = len / 3;
        let pieces: [&[u8]; 2] = [&pt[..cut], &pt[cut..]];
        assert!(matches!(
            OutboundChunks::new(&pieces),
            OutboundChunks::Multiple { .. }
        ));
        let msg = |payload| OutboundPlainMessage {
            typ: ContentType::ApplicationData,
            version: ProtocolVersion::TLSv1_2,
            payload,
        };
        let seq = seq as u64;
        let single = ours
            .encrypt(msg(OutboundChunks::Single(&pt)), seq)
            .unwrap()
            .encode();
        let multi = ours
            .encrypt(msg(OutboundChunks::new(&pieces)), seq)
            .unwrap()
            .encode();
        let reference = theirs
            .encrypt(msg(OutboundChunks::Single(&pt)), seq)
            .unwrap()
            .encode();
        assert_eq!(single, multi, "{len} bytes");
        assert_eq!(single, reference, "{len} bytes");
        let mut body = single[5..].to_vec();
        let inbound = InboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            &mut body,
        );
        let plain = dec.decrypt(inbound, seq).unwrap();
        assert_eq!(plain.payload, &pt[..], "{len} bytes");
        assert_eq!(plain.typ, ContentType::ApplicationData);
    }
}
