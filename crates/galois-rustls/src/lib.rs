//! A [rustls] `CryptoProvider` whose AES-GCM is [galois_aead].
//!
//! The TLS 1.3 suites `TLS13_AES_128_GCM_SHA256` and `TLS13_AES_256_GCM_SHA384`,
//! the TLS 1.2 suites `TLS_ECDHE_{ECDSA,RSA}_WITH_AES_{128,256}_GCM_*`, and
//! QUIC packet and header protection for the two TLS 1.3 suites, all seal
//! and open records with galois (the stitched AES-GCM kernels, in place on
//! the record buffer). Everything else (key exchange, signatures, hashes,
//! HKDF and the TLS 1.2 PRF, randomness, the ChaCha20-Poly1305 suites) is
//! rustls's own aws-lc-rs provider, unchanged.
//!
//! ```
//! use std::sync::Arc;
//! let provider = Arc::new(galois_rustls::provider());
//! let config = rustls::ClientConfig::builder_with_provider(provider)
//!     .with_safe_default_protocol_versions()?
//!     .with_root_certificates(rustls::RootCertStore::empty())
//!     .with_no_client_auth();
//! assert_eq!(config.crypto_provider().cipher_suites.len(), 9);
//! # Ok::<(), rustls::Error>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use rustls::crypto::aws_lc_rs;
use rustls::crypto::CryptoProvider;
use rustls::SupportedCipherSuite;

mod aead;
pub mod quic;
mod tls12;
mod tls13;

pub use tls12::{
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
};
pub use tls13::{TLS13_AES_128_GCM_SHA256, TLS13_AES_256_GCM_SHA384};

/// The cipher suites of [`provider()`], most preferred first: the same list
/// and order as rustls's aws-lc-rs default, with every AES-GCM suite
/// replaced by its galois counterpart and the ChaCha20-Poly1305 suites kept.
///
/// ```
/// use rustls::CipherSuite;
/// let names: Vec<CipherSuite> =
///     galois_rustls::DEFAULT_CIPHER_SUITES.iter().map(|s| s.suite()).collect();
/// assert_eq!(names[0], CipherSuite::TLS13_AES_256_GCM_SHA384);
/// assert!(names.contains(&CipherSuite::TLS13_CHACHA20_POLY1305_SHA256));
/// ```
pub static DEFAULT_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    TLS13_AES_256_GCM_SHA384,
    TLS13_AES_128_GCM_SHA256,
    aws_lc_rs::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    aws_lc_rs::cipher_suite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    aws_lc_rs::cipher_suite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];

/// The six AES-GCM suites whose record protection is galois (TLS 1.3 first).
///
/// ```
/// assert_eq!(galois_rustls::GALOIS_CIPHER_SUITES.len(), 6);
/// ```
pub static GALOIS_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    TLS13_AES_256_GCM_SHA384,
    TLS13_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
];

/// rustls's aws-lc-rs default provider with [`DEFAULT_CIPHER_SUITES`].
///
/// ```
/// let p = galois_rustls::provider();
/// assert!(p.cipher_suites.iter().all(|s| !s.fips()));
/// ```
pub fn provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: DEFAULT_CIPHER_SUITES.to_vec(),
        ..aws_lc_rs::default_provider()
    }
}

/// Like [`provider()`], but with the AES-GCM suites only (no
/// ChaCha20-Poly1305): every connection it makes runs on galois.
///
/// ```
/// let p = galois_rustls::provider_galois_only();
/// assert_eq!(p.cipher_suites, galois_rustls::GALOIS_CIPHER_SUITES);
/// ```
pub fn provider_galois_only() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: GALOIS_CIPHER_SUITES.to_vec(),
        ..aws_lc_rs::default_provider()
    }
}

/// The aws-lc-rs TLS 1.3 suite a galois suite takes its hash and HKDF from.
const fn aws_tls13(s: SupportedCipherSuite) -> &'static rustls::Tls13CipherSuite {
    match s.tls13() {
        Some(t) => t,
        None => panic!("not a TLS 1.3 suite"),
    }
}

/// The aws-lc-rs TLS 1.2 suite a galois suite takes its hash, PRF and
/// signature schemes from.
const fn aws_tls12(s: SupportedCipherSuite) -> &'static rustls::Tls12CipherSuite {
    match s {
        SupportedCipherSuite::Tls12(t) => t,
        SupportedCipherSuite::Tls13(_) => panic!("not a TLS 1.2 suite"),
    }
}

/// Whether `suite` is one of this crate's suites (records sealed and
/// opened by galois), as opposed to a same-named suite of another provider.
///
/// ```
/// use galois_rustls::{is_galois_suite, TLS13_AES_128_GCM_SHA256};
/// assert!(is_galois_suite(&TLS13_AES_128_GCM_SHA256));
/// let aws = rustls::crypto::aws_lc_rs::cipher_suite::TLS13_AES_128_GCM_SHA256;
/// assert!(!is_galois_suite(&aws));
/// ```
pub fn is_galois_suite(suite: &SupportedCipherSuite) -> bool {
    GALOIS_CIPHER_SUITES.iter().any(|g| match (g, suite) {
        (SupportedCipherSuite::Tls13(a), SupportedCipherSuite::Tls13(b)) => core::ptr::eq(*a, *b),
        (SupportedCipherSuite::Tls12(a), SupportedCipherSuite::Tls12(b)) => core::ptr::eq(*a, *b),
        _ => false,
    })
}
