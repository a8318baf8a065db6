//! A QUIC transfer over loopback between two quinn endpoints whose packet
//! protection and header protection are galois (quinn still takes its
//! reset tokens and retry keys from aws-lc-rs). The galois QUIC algorithm
//! is wrapped in a counter so the test proves every packet went through it.

mod common;

use common::sha256;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{Algorithm, HeaderProtectionKey, PacketKey, Tag};
use rustls::{CipherSuite, SupportedCipherSuite, Tls13CipherSuite};

/// Counts what passes through the wrapped galois keys.
struct Counting {
    inner: &'static dyn Algorithm,
    sealed: AtomicU64,
    opened: AtomicU64,
    masks: AtomicU64,
}

struct CountingPacket(Box<dyn PacketKey>, &'static Counting);
struct CountingHeader(Box<dyn HeaderProtectionKey>, &'static Counting);

impl Algorithm for Counting {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn PacketKey> {
        let me: &'static Counting = counter_for(self.inner.aead_key_len());
        Box::new(CountingPacket(self.inner.packet_key(key, iv), me))
    }
    fn header_protection_key(&self, key: AeadKey) -> Box<dyn HeaderProtectionKey> {
        let me: &'static Counting = counter_for(self.inner.aead_key_len());
        Box::new(CountingHeader(self.inner.header_protection_key(key), me))
    }
    fn aead_key_len(&self) -> usize {
        self.inner.aead_key_len()
    }
}

impl PacketKey for CountingPacket {
    fn encrypt_in_place(
        &self,
        pn: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<Tag, rustls::Error> {
        self.1.sealed.fetch_add(1, Ordering::Relaxed);
        self.0.encrypt_in_place(pn, header, payload)
    }
    fn decrypt_in_place<'a>(
        &self,
        pn: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], rustls::Error> {
        let r = self.0.decrypt_in_place(pn, header, payload);
        if r.is_ok() {
            self.1.opened.fetch_add(1, Ordering::Relaxed);
        }
        r
    }
    fn tag_len(&self) -> usize {
        self.0.tag_len()
    }
    fn confidentiality_limit(&self) -> u64 {
        self.0.confidentiality_limit()
    }
    fn integrity_limit(&self) -> u64 {
        self.0.integrity_limit()
    }
}

/// What header protection returns.
type Masked = Result<(), rustls::Error>;

impl CountingHeader {
    /// The wrapped key, with one more mask counted.
    fn counted(&self) -> &dyn HeaderProtectionKey {
        self.1.masks.fetch_add(1, Ordering::Relaxed);
        &*self.0
    }
}

impl HeaderProtectionKey for CountingHeader {
    fn encrypt_in_place(&self, sample: &[u8], first: &mut u8, pn: &mut [u8]) -> Masked {
        self.counted().encrypt_in_place(sample, first, pn)
    }
    fn decrypt_in_place(&self, sample: &[u8], first: &mut u8, pn: &mut [u8]) -> Masked {
        self.counted().decrypt_in_place(sample, first, pn)
    }
    fn sample_len(&self) -> usize {
        self.0.sample_len()
    }
}

static C128: Counting = Counting {
    inner: &galois_rustls::quic::AES_128_GCM,
    sealed: AtomicU64::new(0),
    opened: AtomicU64::new(0),
    masks: AtomicU64::new(0),
};
static C256: Counting = Counting {
    inner: &galois_rustls::quic::AES_256_GCM,
    sealed: AtomicU64::new(0),
    opened: AtomicU64::new(0),
    masks: AtomicU64::new(0),
};

fn counter_for(key_len: usize) -> &'static Counting {
    if key_len == 16 {
        &C128
    } else {
        &C256
    }
}

/// The galois TLS 1.3 suites with their QUIC algorithm wrapped in counters.
fn counted_suites() -> Vec<SupportedCipherSuite> {
    [
        (galois_rustls::TLS13_AES_256_GCM_SHA384, &C256),
        (galois_rustls::TLS13_AES_128_GCM_SHA256, &C128),
    ]
    .into_iter()
    .map(|(s, c)| {
        let t = s.tls13().unwrap();
        assert!(galois_rustls::is_galois_suite(&s));
        let wrapped: &'static Tls13CipherSuite = Box::leak(Box::new(Tls13CipherSuite {
            common: rustls::crypto::CipherSuiteCommon { ..t.common },
            hkdf_provider: t.hkdf_provider,
            aead_alg: t.aead_alg,
            quic: Some(c as &'static dyn Algorithm),
        }));
        SupportedCipherSuite::Tls13(wrapped)
    })
    .collect()
}

fn provider(only: Option<CipherSuite>) -> Arc<rustls::crypto::CryptoProvider> {
    let mut p = galois_rustls::provider_galois_only();
    p.cipher_suites = counted_suites();
    if let Some(s) = only {
        p.cipher_suites.retain(|c| c.suite() == s);
    }
    Arc::new(p)
}

fn server_endpoint() -> (quinn::Endpoint, SocketAddr) {
    let id = &common::pki().ecdsa;
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(id.key_der.clone().into());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider(None))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(id.chain.clone(), key)
        .unwrap();
    tls.alpn_protocols = vec![b"galois-test".to_vec()];
    let qsc = quinn::crypto::rustls::QuicServerConfig::try_from(tls).unwrap();
    let cfg = quinn::ServerConfig::with_crypto(Arc::new(qsc));
    let ep = quinn::Endpoint::server(cfg, "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = ep.local_addr().unwrap();
    (ep, addr)
}

fn client_endpoint(suite: CipherSuite) -> quinn::Endpoint {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(common::pki().ca_der.clone()).unwrap();
    // The Initial packets always use AES-128-GCM (RFC 9001 section 5.2);
    // `suite` is what the handshake and 1-RTT packets use.
    let mut p = (*provider(None)).clone();
    p.cipher_suites.sort_by_key(|c| c.suite() != suite);
    let mut tls = rustls::ClientConfig::builder_with_provider(Arc::new(p))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    tls.alpn_protocols = vec![b"galois-test".to_vec()];
    let qcc = quinn::crypto::rustls::QuicClientConfig::try_from(tls).unwrap();
    let mut ep = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    ep.set_default_client_config(quinn::ClientConfig::new(Arc::new(qcc)));
    ep
}

/// 8 MiB client -> server and echoed back over a bidirectional stream, for
/// each 1-RTT suite; hashes match both ways, and the counters show galois
/// sealed, opened and masked the packets (both key sizes).
#[test]
fn quinn_loopback_transfer_over_galois() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), async {
            let (server, addr) = server_endpoint();
            // Server: echo every stream back.
            let srv = tokio::spawn(async move {
                while let Some(incoming) = server.accept().await {
                    let conn = incoming.await.unwrap();
                    tokio::spawn(async move {
                        while let Ok((mut send, mut recv)) = conn.accept_bi().await {
                            let mut buf = vec![0u8; 64 * 1024];
                            while let Some(n) = recv.read(&mut buf).await.unwrap() {
                                send.write_all(&buf[..n]).await.unwrap();
                            }
                            send.finish().unwrap();
                        }
                    });
                }
            });
            for suite in [
                CipherSuite::TLS13_AES_256_GCM_SHA384,
                CipherSuite::TLS13_AES_128_GCM_SHA256,
            ] {
                let (s128, s256) = (
                    C128.sealed.load(Ordering::Relaxed),
                    C256.sealed.load(Ordering::Relaxed),
                );
                let client = client_endpoint(suite);
                let conn = client.connect(addr, "localhost").unwrap().await.unwrap();
                let hd = conn
                    .handshake_data()
                    .unwrap()
                    .downcast::<quinn::crypto::rustls::HandshakeData>()
                    .unwrap();
                assert_eq!(hd.protocol.as_deref(), Some(&b"galois-test"[..]));
                let (mut send, mut recv) = conn.open_bi().await.unwrap();
                let data = common::pattern(8 << 20, u16::from(suite) as u64);
                let want = sha256(&data);
                let writer = tokio::spawn(async move {
                    for chunk in data.chunks(100_000) {
                        send.write_all(chunk).await.unwrap();
                    }
                    send.finish().unwrap();
                });
                let back = recv.read_to_end(64 << 20).await.unwrap();
                writer.await.unwrap();
                assert_eq!(back.len(), 8 << 20);
                assert_eq!(sha256(&back), want, "{suite:?}");
                conn.close(0u32.into(), b"done");
                client.wait_idle().await;
                // Thousands of 1-RTT packets went through the suite's galois keys.
                let (d128, d256) = (
                    C128.sealed.load(Ordering::Relaxed) - s128,
                    C256.sealed.load(Ordering::Relaxed) - s256,
                );
                if suite == CipherSuite::TLS13_AES_256_GCM_SHA384 {
                    assert!(d256 > 5000, "AES-256 packets sealed: {d256}");
                    assert!(d128 > 0, "Initial packets are AES-128");
                } else {
                    assert!(d128 > 5000, "AES-128 packets sealed: {d128}");
                    assert_eq!(d256, 0);
                }
            }
            for c in [&C128, &C256] {
                assert!(c.opened.load(Ordering::Relaxed) > 5000);
                assert!(c.masks.load(Ordering::Relaxed) > 10000);
            }
            srv.abort();
        })
        .await
        .expect("QUIC transfer took over 120 s");
    });
}
