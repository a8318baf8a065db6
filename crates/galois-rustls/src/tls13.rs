//! TLS 1.3 AES-GCM record protection (RFC 8446 section 5.2).

use rustls::crypto::cipher::{
    make_tls13_aad, AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter,
    OutboundOpaqueMessage, OutboundPlainMessage, Tls13AeadAlgorithm, UnsupportedOperationError,
};
use rustls::crypto::CipherSuiteCommon;
use rustls::{
    CipherSuite, ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion,
    SupportedCipherSuite, Tls13CipherSuite,
};

use crate::aead::{KeyIv, Opened, Sealed, TAG_LEN};
use crate::aws_tls13;
use crate::quic::{AES_128_GCM as QUIC_AES_128_GCM, AES_256_GCM as QUIC_AES_256_GCM};
use rustls::crypto::aws_lc_rs::cipher_suite as aws;

const AWS_128: &Tls13CipherSuite = aws_tls13(aws::TLS13_AES_128_GCM_SHA256);
const AWS_256: &Tls13CipherSuite = aws_tls13(aws::TLS13_AES_256_GCM_SHA384);

/// `pub static $name` (the rustls suite of that name) with galois record
/// and QUIC packet protection for `$bits`, hash and HKDF from `$aws`.
macro_rules! tls13_suite {
    ($(#[$m:meta])* $name:ident = $aws:expr, $bits:expr, $quic:expr) => {
        $(#[$m])*
        pub static $name: SupportedCipherSuite = SupportedCipherSuite::Tls13(&Tls13CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::$name,
                hash_provider: $aws.common.hash_provider,
                // RFC 8446 section 5.5: 2^24.5 full records; rustls updates keys before.
                confidentiality_limit: 1 << 24,
            },
            hkdf_provider: $aws.hkdf_provider,
            aead_alg: &Tls13Gcm($bits),
            quic: Some(&$quic),
        });
    };
}

tls13_suite! {
    /// TLS_AES_128_GCM_SHA256 with galois record protection.
    ///
    /// ```
    /// assert_eq!(
    ///     galois_rustls::TLS13_AES_128_GCM_SHA256.suite(),
    ///     rustls::CipherSuite::TLS13_AES_128_GCM_SHA256
    /// );
    /// ```
    TLS13_AES_128_GCM_SHA256 = AWS_128, Bits::B128, QUIC_AES_128_GCM
}

tls13_suite! {
    /// TLS_AES_256_GCM_SHA384 with galois record protection.
    ///
    /// ```
    /// assert_eq!(
    ///     galois_rustls::TLS13_AES_256_GCM_SHA384.suite(),
    ///     rustls::CipherSuite::TLS13_AES_256_GCM_SHA384
    /// );
    /// ```
    TLS13_AES_256_GCM_SHA384 = AWS_256, Bits::B256, QUIC_AES_256_GCM
}

/// AES key size of a suite.
#[derive(Clone, Copy)]
pub(crate) enum Bits {
    B128,
    B256,
}

impl Bits {
    pub(crate) const fn key_len(self) -> usize {
        match self {
            Bits::B128 => 16,
            Bits::B256 => 32,
        }
    }

    pub(crate) fn secrets(self, key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        match self {
            Bits::B128 => ConnectionTrafficSecrets::Aes128Gcm { key, iv },
            Bits::B256 => ConnectionTrafficSecrets::Aes256Gcm { key, iv },
        }
    }
}

struct Tls13Gcm(Bits);

impl Tls13AeadAlgorithm for Tls13Gcm {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Tls13Encrypter(KeyIv::new(key.as_ref(), iv)))
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Tls13Decrypter(KeyIv::new(key.as_ref(), iv)))
    }

    fn key_len(&self) -> usize {
        self.0.key_len()
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(self.0.secrets(key, iv))
    }
}

struct Tls13Encrypter(KeyIv);

impl MessageEncrypter for Tls13Encrypter {
    fn encrypt(&mut self, msg: OutboundPlainMessage<'_>, seq: u64) -> Sealed {
        // TLSInnerPlaintext = content || type (no padding), then the tag.
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let nonce = self.0.nonce(seq);
        let aad = make_tls13_aad(total_len);
        let trailer = msg.typ.to_array();
        let payload =
            self.0
                .key
                .seal_record(&nonce, &aad, total_len, &[], &msg.payload, &trailer)?;
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

struct Tls13Decrypter(KeyIv);

impl MessageDecrypter for Tls13Decrypter {
    fn decrypt<'a>(&mut self, mut msg: InboundOpaqueMessage<'a>, seq: u64) -> Opened<'a> {
        let payload = &mut msg.payload;
        let len = payload.len();
        let Some(ct_len) = len.checked_sub(TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let nonce = self.0.nonce(seq);
        let aad = make_tls13_aad(len);
        self.0.key.open_record(&nonce, &aad, payload, ct_len)?;
        payload.truncate(ct_len);
        msg.into_tls13_unpadded_message()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TLS 1.3 records from one piece (the content type in place after
    /// it), from two and from aws-lc-rs agree (`check_records`). (A 16-byte
    /// `AeadKey` can only be made inside rustls; AES-128 records are
    /// checked against peers in tests/tls.rs.)
    #[test]
    fn split_records_equal_copied_ones_and_aws_lc_rs() {
        let key = [0x3au8; 32];
        let iv = || Iv::new([0x5c; 12]);
        let alg = Tls13Gcm(Bits::B256);
        let mut ours = alg.encrypter(AeadKey::from(key), iv());
        let mut theirs = AWS_256.aead_alg.encrypter(AeadKey::from(key), iv());
        let mut dec = alg.decrypter(AeadKey::from(key), iv());
        crate::aead::check_records(&mut *ours, &mut *theirs, &mut *dec);
    }
}
