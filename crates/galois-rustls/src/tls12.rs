//! TLS 1.2 AES-GCM record protection (RFC 5288): a 4-byte fixed IV from
//! the key block and an 8-byte explicit nonce sent with each record.

use rustls::crypto::cipher::{
    make_tls12_aad, AeadKey, InboundOpaqueMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage, Tls12AeadAlgorithm,
    UnsupportedOperationError, NONCE_LEN,
};
use rustls::crypto::CipherSuiteCommon;
use rustls::{
    CipherSuite, ConnectionTrafficSecrets, Error, SupportedCipherSuite, Tls12CipherSuite,
};

use crate::aead::{GcmKey, KeyIv, Opened, Sealed, TAG_LEN};
use crate::aws_tls12;
use crate::tls13::Bits;
use rustls::crypto::aws_lc_rs::cipher_suite as aws;

const EXPLICIT_NONCE_LEN: usize = 8;
const FIXED_IV_LEN: usize = 4;
const OVERHEAD: usize = EXPLICIT_NONCE_LEN + TAG_LEN;
/// Largest TLSPlaintext fragment (RFC 5246 section 6.2.1).
const MAX_FRAGMENT_LEN: usize = 16384;

const AWS_ECDSA_128: &Tls12CipherSuite = aws_tls12(aws::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256);
const AWS_ECDSA_256: &Tls12CipherSuite = aws_tls12(aws::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384);
const AWS_RSA_128: &Tls12CipherSuite = aws_tls12(aws::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256);
const AWS_RSA_256: &Tls12CipherSuite = aws_tls12(aws::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384);

/// A galois TLS 1.2 suite: hash, PRF, key exchange and signature schemes
/// from the aws-lc-rs suite of the same name, AEAD from galois.
const fn suite(
    name: CipherSuite,
    aws: &'static Tls12CipherSuite,
    aead: &'static Tls12Gcm,
) -> Tls12CipherSuite {
    Tls12CipherSuite {
        common: CipherSuiteCommon {
            suite: name,
            hash_provider: aws.common.hash_provider,
            confidentiality_limit: 1 << 24,
        },
        prf_provider: aws.prf_provider,
        kx: aws.kx,
        sign: aws.sign,
        aead_alg: aead,
    }
}

static GCM_128: Tls12Gcm = Tls12Gcm(Bits::B128);
static GCM_256: Tls12Gcm = Tls12Gcm(Bits::B256);

/// `pub static $name` (the rustls suite of that name) with galois record
/// protection for `$aead`, the rest from `$aws`.
macro_rules! tls12_suite {
    ($(#[$m:meta])* $name:ident = $aws:expr, $aead:expr) => {
        $(#[$m])*
        pub static $name: SupportedCipherSuite =
            SupportedCipherSuite::Tls12(&suite(CipherSuite::$name, $aws, $aead));
    };
}

tls12_suite! {
    /// TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 with galois record protection.
    ///
    /// ```
    /// let s = galois_rustls::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
    /// assert_eq!(s.version(), &rustls::version::TLS12);
    /// ```
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 = AWS_ECDSA_128, &GCM_128
}

tls12_suite! {
    /// TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 with galois record protection.
    ///
    /// ```
    /// let s = galois_rustls::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384;
    /// assert_eq!(s.suite(), rustls::CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384);
    /// ```
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 = AWS_ECDSA_256, &GCM_256
}

tls12_suite! {
    /// TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 with galois record protection.
    ///
    /// ```
    /// let s = galois_rustls::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256;
    /// assert_eq!(s.suite(), rustls::CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256);
    /// ```
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 = AWS_RSA_128, &GCM_128
}

tls12_suite! {
    /// TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 with galois record protection.
    ///
    /// ```
    /// let s = galois_rustls::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384;
    /// assert_eq!(s.suite(), rustls::CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384);
    /// ```
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 = AWS_RSA_256, &GCM_256
}

struct Tls12Gcm(Bits);

/// The 12-byte nonce base: fixed IV || the key block's 8 extra bytes. Each
/// record's nonce is this base xor the sequence number (the construction
/// TLS 1.3 uses), and its last 8 bytes go on the wire as the explicit
/// nonce: unique per key, as RFC 5288 section 3 requires.
fn nonce_base(fixed_iv: &[u8], explicit: &[u8]) -> Iv {
    let mut iv = [0u8; NONCE_LEN];
    let n = fixed_iv.len().min(FIXED_IV_LEN);
    iv[..n].copy_from_slice(&fixed_iv[..n]);
    let m = explicit.len().min(EXPLICIT_NONCE_LEN);
    iv[FIXED_IV_LEN..FIXED_IV_LEN + m].copy_from_slice(&explicit[..m]);
    Iv::new(iv)
}

impl Tls12AeadAlgorithm for Tls12Gcm {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        Box::new(Tls12Encrypter(KeyIv::new(
            key.as_ref(),
            nonce_base(iv, extra),
        )))
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        let mut salt = [0u8; FIXED_IV_LEN];
        let n = iv.len().min(FIXED_IV_LEN);
        salt[..n].copy_from_slice(&iv[..n]);
        Box::new(Tls12Decrypter {
            key: GcmKey::new(key.as_ref()),
            salt,
        })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: self.0.key_len(),
            fixed_iv_len: FIXED_IV_LEN,
            explicit_nonce_len: EXPLICIT_NONCE_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(self.0.secrets(key, nonce_base(iv, explicit)))
    }
}

struct Tls12Encrypter(KeyIv);

impl MessageEncrypter for Tls12Encrypter {
    fn encrypt(&mut self, msg: OutboundPlainMessage<'_>, seq: u64) -> Sealed {
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        let nonce = self.0.nonce(seq);
        let payload = self.0.key.seal_record(
            &nonce,
            &aad,
            self.encrypted_payload_len(msg.payload.len()),
            &nonce[FIXED_IV_LEN..],
            &msg.payload,
            &[],
        )?;
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + OVERHEAD
    }
}

struct Tls12Decrypter {
    key: GcmKey,
    salt: [u8; FIXED_IV_LEN],
}

impl MessageDecrypter for Tls12Decrypter {
    fn decrypt<'a>(&mut self, mut msg: InboundOpaqueMessage<'a>, seq: u64) -> Opened<'a> {
        let len = msg.payload.len();
        let Some(plain_len) = len.checked_sub(OVERHEAD) else {
            return Err(Error::DecryptError);
        };
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..FIXED_IV_LEN].copy_from_slice(&self.salt);
        nonce[FIXED_IV_LEN..].copy_from_slice(&msg.payload[..EXPLICIT_NONCE_LEN]);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        let body = &mut msg.payload[EXPLICIT_NONCE_LEN..];
        self.key.open_record(&nonce, &aad, body, plain_len)?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        Ok(msg.into_plain_message_range(EXPLICIT_NONCE_LEN..EXPLICIT_NONCE_LEN + plain_len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TLS 1.2 records from one piece, from two and from aws-lc-rs agree
    /// (`check_records`).
    #[test]
    fn split_records_equal_copied_ones_and_aws_lc_rs() {
        let key = [7u8; 32];
        let (iv, extra) = ([1u8, 2, 3, 4], [9u8; 8]);
        let mut ours = GCM_256.encrypter(AeadKey::from(key), &iv, &extra);
        let mut theirs = AWS_ECDSA_256
            .aead_alg
            .encrypter(AeadKey::from(key), &iv, &extra);
        let mut dec = GCM_256.decrypter(AeadKey::from(key), &iv);
        crate::aead::check_records(&mut *ours, &mut *theirs, &mut *dec);
    }
}
