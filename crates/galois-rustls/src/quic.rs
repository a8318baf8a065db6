//! QUIC packet protection (RFC 9001 section 5.3) and header protection
//! (section 5.4) with galois, for the two TLS 1.3 AES-GCM suites.
//!
//! rustls reaches these through `Tls13CipherSuite::quic`; they are public
//! so that a QUIC stack (or a test) can also build keys directly.
//!
//! ```
//! use rustls::quic::Algorithm;
//! let alg = &galois_rustls::quic::AES_128_GCM;
//! let key = alg.packet_key([7u8; 32].into(), [1u8; 12].into());
//! // An AeadKey from a 32-byte array is cut to the suite's length by rustls;
//! // here the whole array is used, so this is an AES-256 key under the
//! // AES-128 algorithm and every operation fails cleanly.
//! assert!(key.encrypt_in_place(0, b"hdr", &mut [0u8; 4]).is_err());
//! assert_eq!(alg.aead_key_len(), 16);
//! ```

use galois_aead::{Aes, BlockCipher128};
use rustls::crypto::cipher::{AeadKey, Iv, Nonce};
use rustls::quic::{Algorithm, HeaderProtectionKey, PacketKey, Tag};
use rustls::Error;

use crate::aead::{KeyIv, TAG_LEN};

/// Packet and header protection for TLS_AES_128_GCM_SHA256.
pub static AES_128_GCM: QuicAesGcm = QuicAesGcm { key_len: 16 };
/// Packet and header protection for TLS_AES_256_GCM_SHA384.
pub static AES_256_GCM: QuicAesGcm = QuicAesGcm { key_len: 32 };

/// RFC 9001 section 6.6: AEAD_AES_128_GCM and AEAD_AES_256_GCM may protect
/// at most 2^23 packets under one key.
pub const CONFIDENTIALITY_LIMIT: u64 = 1 << 23;
/// RFC 9001 section 6.6: at most 2^52 packets may fail authentication
/// under one key before the connection must end.
pub const INTEGRITY_LIMIT: u64 = 1 << 52;

/// Header-protection sample length: one AES block.
const SAMPLE_LEN: usize = 16;

/// A [`rustls::quic::Algorithm`] with galois AES-GCM packet protection and
/// galois AES header protection.
pub struct QuicAesGcm {
    key_len: usize,
}

impl Algorithm for QuicAesGcm {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn PacketKey> {
        let k = key.as_ref();
        let k = if k.len() == self.key_len { k } else { &[] };
        Box::new(QuicPacketKey(KeyIv::new(k, iv)))
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn HeaderProtectionKey> {
        let k = key.as_ref();
        Box::new(QuicHeaderKey(if k.len() == self.key_len {
            Aes::new(k).ok()
        } else {
            None
        }))
    }

    fn aead_key_len(&self) -> usize {
        self.key_len
    }
}

struct QuicPacketKey(KeyIv);

impl QuicPacketKey {
    fn seal(&self, nonce: Nonce, header: &[u8], payload: &mut [u8]) -> Result<Tag, Error> {
        let tag = self
            .0
            .key
            .seal(&nonce.0, header, payload)
            .ok_or_else(|| Error::EncryptError)?;
        Ok(Tag::from(&tag[..]))
    }

    fn open<'a>(&self, n: Nonce, header: &[u8], payload: &'a mut [u8]) -> Result<&'a [u8], Error> {
        let Some(ct_len) = payload.len().checked_sub(TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let (ct, tag) = payload.split_at_mut(ct_len);
        self.0
            .key
            .open(&n.0, header, ct, tag)
            .ok_or_else(|| Error::DecryptError)?;
        Ok(&payload[..ct_len])
    }
}

impl PacketKey for QuicPacketKey {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        self.seal(Nonce::new(&self.0.iv, packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, Error> {
        self.seal(
            Nonce::for_path(path_id, &self.0.iv, packet_number),
            header,
            payload,
        )
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(Nonce::new(&self.0.iv, packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(
            Nonce::for_path(path_id, &self.0.iv, packet_number),
            header,
            payload,
        )
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        CONFIDENTIALITY_LIMIT
    }

    fn integrity_limit(&self) -> u64 {
        INTEGRITY_LIMIT
    }
}

/// AES header protection: mask = AES-ECB(hp_key, sample). The AES key
/// schedule is wiped on drop by galois.
struct QuicHeaderKey(Option<Aes>);

impl QuicHeaderKey {
    /// RFC 9001 section 5.4.1. `unmask` says whether the packet-number
    /// length must be read after removing protection from `first`.
    fn apply(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        unmask: bool,
    ) -> Result<(), Error> {
        let aes = self
            .0
            .as_ref()
            .ok_or_else(|| Error::General("header protection key unusable".into()))?;
        let mut mask: [u8; SAMPLE_LEN] = sample
            .try_into()
            .map_err(|_| Error::General("sample of invalid length".into()))?;
        if packet_number.len() > 4 {
            return Err(Error::General("packet number too long".into()));
        }
        aes.encrypt_block(&mut mask);
        // Long header (top bit set): 4 low bits protected; short header: 5.
        let bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let plain_first = if unmask {
            *first ^ (mask[0] & bits)
        } else {
            *first
        };
        let pn_len = (plain_first & 0x03) as usize + 1;
        *first ^= mask[0] & bits;
        for (b, m) in packet_number.iter_mut().zip(&mask[1..]).take(pn_len) {
            *b ^= m;
        }
        Ok(())
    }
}

impl HeaderProtectionKey for QuicHeaderKey {
    fn encrypt_in_place(&self, sample: &[u8], first: &mut u8, pn: &mut [u8]) -> Result<(), Error> {
        self.apply(sample, first, pn, false)
    }

    fn decrypt_in_place(&self, sample: &[u8], first: &mut u8, pn: &mut [u8]) -> Result<(), Error> {
        self.apply(sample, first, pn, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}
