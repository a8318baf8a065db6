//! Shared test helpers: certificates made here with rcgen, configs for each
//! provider, and an in-memory pump between a client and a server.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{
    CipherSuite, ClientConfig, ClientConnection, Connection, RootCertStore, ServerConfig,
    ServerConnection, SupportedCipherSuite, SupportedProtocolVersion,
};

/// Which implementation a side runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    Galois,
    AwsLc,
    Ring,
}

impl Impl {
    pub fn provider(self) -> CryptoProvider {
        match self {
            Impl::Galois => galois_rustls::provider(),
            Impl::AwsLc => rustls::crypto::aws_lc_rs::default_provider(),
            Impl::Ring => rustls::crypto::ring::default_provider(),
        }
    }
}

/// Server key type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    Ecdsa,
    Rsa,
}

pub struct Identity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key_der: Vec<u8>,
    pub cert_pem: String,
    pub key_pem: String,
}

pub struct Pki {
    pub ca_der: CertificateDer<'static>,
    pub ca_pem: String,
    pub ecdsa: Identity,
    pub rsa: Identity,
}

/// One CA and two leaf certificates for "localhost" (ECDSA P-256 and
/// RSA-2048), made once per test binary.
pub fn pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(|| {
        let ca_key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "galois-rustls test CA");
        let ca_cert = ca_params.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let leaf = |alg: &'static rcgen::SignatureAlgorithm| {
            let key = rcgen::KeyPair::generate_for(alg).unwrap();
            let mut params = rcgen::CertificateParams::new(vec![
                "localhost".to_string(),
                "127.0.0.1".to_string(),
            ])
            .unwrap();
            params
                .distinguished_name
                .push(rcgen::DnType::CommonName, "localhost");
            let cert = params.signed_by(&key, &issuer).unwrap();
            Identity {
                chain: vec![cert.der().clone()],
                key_der: key.serialize_der(),
                cert_pem: cert.pem(),
                key_pem: key.serialize_pem(),
            }
        };
        Pki {
            ca_der: ca_cert.der().clone(),
            ca_pem: ca_cert.pem(),
            ecdsa: leaf(&rcgen::PKCS_ECDSA_P256_SHA256),
            rsa: leaf(&rcgen::PKCS_RSA_SHA256),
        }
    })
}

/// The key kind a TLS 1.2 suite needs (TLS 1.3 suites take either).
pub fn key_kind_for(suite: CipherSuite) -> KeyKind {
    if format!("{suite:?}").contains("_RSA_") {
        KeyKind::Rsa
    } else {
        KeyKind::Ecdsa
    }
}

pub fn version_of(suite: CipherSuite) -> &'static SupportedProtocolVersion {
    if format!("{suite:?}").starts_with("TLS13_") {
        &rustls::version::TLS13
    } else {
        &rustls::version::TLS12
    }
}

/// `imp`'s provider cut to the one suite named `suite`.
pub fn provider_with(imp: Impl, suite: CipherSuite) -> Arc<CryptoProvider> {
    let mut p = imp.provider();
    p.cipher_suites.retain(|s| s.suite() == suite);
    assert_eq!(p.cipher_suites.len(), 1, "{imp:?} lacks {suite:?}");
    Arc::new(p)
}

pub fn server_config(imp: Impl, suite: CipherSuite) -> ServerConfig {
    let id = match key_kind_for(suite) {
        KeyKind::Ecdsa => &pki().ecdsa,
        KeyKind::Rsa => &pki().rsa,
    };
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(id.key_der.clone()));
    let mut cfg = ServerConfig::builder_with_provider(provider_with(imp, suite))
        .with_protocol_versions(&[version_of(suite)])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(id.chain.clone(), key)
        .unwrap();
    cfg.enable_secret_extraction = true;
    cfg
}

pub fn client_config(imp: Impl, suite: CipherSuite) -> ClientConfig {
    let mut roots = RootCertStore::empty();
    roots.add(pki().ca_der.clone()).unwrap();
    let mut cfg = ClientConfig::builder_with_provider(provider_with(imp, suite))
        .with_protocol_versions(&[version_of(suite)])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    cfg.enable_secret_extraction = true;
    cfg
}

pub struct Pair {
    pub client: Connection,
    pub server: Connection,
}

impl Pair {
    /// A client and server that have completed their handshake over
    /// `suite`, each checked to have negotiated it.
    pub fn new(client: Impl, server: Impl, suite: CipherSuite) -> Pair {
        Self::with_configs(
            client_config(client, suite),
            server_config(server, suite),
            suite,
        )
    }

    pub fn with_configs(cc: ClientConfig, sc: ServerConfig, suite: CipherSuite) -> Pair {
        let client = ClientConnection::new(Arc::new(cc), "localhost".try_into().unwrap()).unwrap();
        let server = ServerConnection::new(Arc::new(sc)).unwrap();
        let mut p = Pair {
            client: client.into(),
            server: server.into(),
        };
        p.client.set_buffer_limit(None);
        p.server.set_buffer_limit(None);
        p.handshake();
        for c in [&p.client, &p.server] {
            assert_eq!(c.negotiated_cipher_suite().unwrap().suite(), suite);
        }
        p
    }

    pub fn handshake(&mut self) {
        for _ in 0..20 {
            if !self.client.is_handshaking() && !self.server.is_handshaking() {
                // Flush whatever is still queued (session tickets).
                self.flush();
                return;
            }
            self.flush();
        }
        panic!("handshake did not finish");
    }

    /// Moves every pending byte both ways until neither side has more.
    pub fn flush(&mut self) {
        loop {
            let a = move_tls(&mut self.client, &mut self.server).unwrap();
            let b = move_tls(&mut self.server, &mut self.client).unwrap();
            if a == 0 && b == 0 {
                break;
            }
        }
    }

    pub fn sides(&mut self, client_to_server: bool) -> (&mut Connection, &mut Connection) {
        if client_to_server {
            (&mut self.client, &mut self.server)
        } else {
            (&mut self.server, &mut self.client)
        }
    }
}

/// Writes `from`'s pending TLS bytes into `to` and lets `to` process them.
/// Returns the number of bytes moved.
pub fn move_tls(from: &mut Connection, to: &mut Connection) -> Result<usize, rustls::Error> {
    let mut buf = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut buf).unwrap();
    }
    let plain = feed(to, &buf)?;
    assert!(plain.is_empty(), "unexpected application data");
    Ok(buf.len())
}

/// Hands `bytes` (raw TLS records) to `to`, processes them, and returns
/// the plaintext they carried (read as it arrives, so rustls's plaintext
/// buffer never fills).
pub fn feed(to: &mut Connection, mut bytes: &[u8]) -> Result<Vec<u8>, rustls::Error> {
    let mut plain = Vec::new();
    while !bytes.is_empty() {
        let n = to.read_tls(&mut bytes).unwrap();
        assert!(n > 0);
        to.process_new_packets()?;
        plain.extend(read_all(to));
    }
    Ok(plain)
}

/// `from`'s pending TLS output, without delivering it.
pub fn take_tls(from: &mut Connection) -> Vec<u8> {
    let mut buf = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut buf).unwrap();
    }
    buf
}

/// Splits a byte stream into TLS records: (content type, body length).
pub fn records(mut wire: &[u8]) -> Vec<(u8, usize)> {
    let mut out = Vec::new();
    while !wire.is_empty() {
        assert!(wire.len() >= 5, "truncated record header");
        let len = u16::from_be_bytes([wire[3], wire[4]]) as usize;
        out.push((wire[0], len));
        wire = &wire[5 + len..];
    }
    out
}

/// Everything `conn` has decrypted so far.
pub fn read_all(conn: &mut Connection) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match conn.reader().read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("read: {e}"),
        }
    }
    out
}

/// Sends `data` as one record (it must fit in one: <= 16 KiB) and checks
/// the record's length on the wire and the bytes the peer reads.
pub fn send_record(p: &mut Pair, client_to_server: bool, data: &[u8], overhead: usize) {
    let (from, to) = p.sides(client_to_server);
    from.writer().write_all(data).unwrap();
    let wire = take_tls(from);
    let recs = records(&wire);
    // A TLS 1.3 KeyUpdate a side owes (rustls sends it before its next
    // data) may precede: 5-byte message + type byte + tag.
    let (last, before) = recs.split_last().unwrap();
    assert!(
        before.iter().all(|r| overhead == 17 && *r == (23, 5 + 17)) && before.len() <= 1,
        "{} bytes went out as {recs:?}",
        data.len()
    );
    assert_eq!(*last, (23, data.len() + overhead));
    assert_eq!(feed(to, &wire).unwrap(), data);
}

/// Record overhead on the wire for a suite: TLS 1.3 adds the content-type
/// byte and the tag; TLS 1.2 GCM the explicit nonce and the tag.
pub fn overhead(suite: CipherSuite) -> usize {
    if version_of(suite) == &rustls::version::TLS13 {
        1 + 16
    } else if format!("{suite:?}").contains("CHACHA") {
        16
    } else {
        8 + 16
    }
}

/// Deterministic test bytes (xorshift), different per seed.
pub fn pattern(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

pub fn galois_suites() -> Vec<CipherSuite> {
    galois_rustls::GALOIS_CIPHER_SUITES
        .iter()
        .map(|s: &SupportedCipherSuite| s.suite())
        .collect()
}

/// The SHA-256 of `data` (aws-lc-rs), to compare what crossed a connection.
pub fn sha256(data: &[u8]) -> Vec<u8> {
    aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data)
        .as_ref()
        .to_vec()
}
