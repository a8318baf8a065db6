//! Bulk TLS 1.3 throughput and handshake rate, in one process over in-memory
//! pipes (no sockets): rustls with the galois provider against rustls with
//! aws-lc-rs and with ring, side by side, round robin.
//!
//! ```text
//! taskset -c 1 cargo run --release -p galois-rustls --example bench -- [--rounds 7] [--mib 64] [--quick]
//! ```
//!
//! For each suite (TLS13_AES_128_GCM_SHA256, TLS13_AES_256_GCM_SHA384, and
//! TLS 1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256) and
//! record size (16384 and 1500 bytes of plaintext per record), one client
//! and one server of the same implementation send data client -> server:
//! `seal` times the sender (rustls writer + record encryption + write_tls
//! into a buffer), `open` the receiver (read_tls + decryption +
//! reading the plaintext out), `both` their sum. Figures are medians over
//! the rounds of GB/s of plaintext (10^9 bytes/s); the ratio column is
//! galois over the best of the others. The table is made twice: through
//! rustls's buffered API (`writer`, `write_tls`, `read_tls`, `reader`) and
//! through its unbuffered API (records encrypted straight into the wire
//! buffer, decrypted in place there: no read or write copies); `--api`
//! picks one. `--imp`, `--suite`, `--record` and `--bulk-only` narrow a run for
//! profiling. Then full TLS 1.3 handshakes per
//! second (client and server in this thread, X25519, ECDSA P-256, no
//! resumption, no tickets) and the cost of building one record key pair.

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Instant;

use rustls::client::{ClientConnectionData, UnbufferedClientConnection};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::{ServerConnectionData, UnbufferedServerConnection};
use rustls::unbuffered::{ConnectionState, UnbufferedStatus};
use rustls::{
    CipherSuite, ClientConfig, ClientConnection, Connection, RootCertStore, ServerConfig,
    ServerConnection,
};

#[derive(Clone, Copy, PartialEq)]
enum Imp {
    Galois,
    AwsLc,
    Ring,
}

const IMPS: [Imp; 3] = [Imp::Galois, Imp::AwsLc, Imp::Ring];

impl Imp {
    fn name(self) -> &'static str {
        match self {
            Imp::Galois => "galois",
            Imp::AwsLc => "aws-lc-rs",
            Imp::Ring => "ring",
        }
    }

    fn provider(self, suite: CipherSuite) -> Arc<CryptoProvider> {
        let mut p = match self {
            Imp::Galois => galois_rustls::provider(),
            Imp::AwsLc => rustls::crypto::aws_lc_rs::default_provider(),
            Imp::Ring => rustls::crypto::ring::default_provider(),
        };
        p.cipher_suites.retain(|s| s.suite() == suite);
        // Same key exchange everywhere: X25519.
        p.kx_groups
            .retain(|g| g.name() == rustls::NamedGroup::X25519);
        assert_eq!(p.cipher_suites.len(), 1);
        assert_eq!(p.kx_groups.len(), 1);
        Arc::new(p)
    }
}

struct Certs {
    ca: CertificateDer<'static>,
    chain: Vec<CertificateDer<'static>>,
    key: Vec<u8>,
}

fn certs() -> Certs {
    let ca_key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    Certs {
        ca: ca.der().clone(),
        chain: vec![leaf.der().clone()],
        key: key.serialize_der(),
    }
}

fn configs(c: &Certs, imp: Imp, suite: CipherSuite) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    // The version the suite belongs to.
    let version: &'static rustls::SupportedProtocolVersion =
        if format!("{suite:?}").starts_with("TLS13_") {
            &rustls::version::TLS13
        } else {
            &rustls::version::TLS12
        };
    let mut roots = RootCertStore::empty();
    roots.add(c.ca.clone()).unwrap();
    let mut cc = ClientConfig::builder_with_provider(imp.provider(suite))
        .with_protocol_versions(&[version])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    cc.resumption = rustls::client::Resumption::disabled();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(c.key.clone()));
    let mut sc = ServerConfig::builder_with_provider(imp.provider(suite))
        .with_protocol_versions(&[version])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(c.chain.clone(), key)
        .unwrap();
    sc.send_tls13_tickets = 0;
    (Arc::new(cc), Arc::new(sc))
}

fn transfer(from: &mut Connection, to: &mut Connection, wire: &mut Vec<u8>) {
    wire.clear();
    while from.wants_write() {
        from.write_tls(wire).unwrap();
    }
    let mut rd = &wire[..];
    while !rd.is_empty() {
        to.read_tls(&mut rd).unwrap();
        to.process_new_packets().unwrap();
    }
}

fn handshake(
    cc: &Arc<ClientConfig>,
    sc: &Arc<ServerConfig>,
    wire: &mut Vec<u8>,
) -> (Connection, Connection) {
    let mut c: Connection = ClientConnection::new(cc.clone(), "localhost".try_into().unwrap())
        .unwrap()
        .into();
    let mut s: Connection = ServerConnection::new(sc.clone()).unwrap().into();
    while c.is_handshaking() || s.is_handshaking() {
        transfer(&mut c, &mut s, wire);
        transfer(&mut s, &mut c, wire);
    }
    transfer(&mut c, &mut s, wire);
    transfer(&mut s, &mut c, wire);
    (c, s)
}

/// (seal seconds, open seconds) for `total` bytes in records of `rec`,
/// sent in batches of about 1 MiB: `send(wire, data, n)` writes `n` bytes
/// of `data` into `wire` as records, `recv(wire)` reads them all back and
/// returns the plaintext bytes it got.
fn batches<W: ?Sized>(
    rec: usize,
    total: usize,
    wire: &mut W,
    mut send: impl FnMut(&mut W, &[u8], usize),
    mut recv: impl FnMut(&mut W) -> usize,
) -> (f64, f64) {
    let data = vec![0x5au8; rec];
    let batch = (1 << 20) / rec * rec;
    let (mut seal, mut open) = (0f64, 0f64);
    let mut done = 0;
    while done < total {
        let n = batch.min(total - done);
        let t0 = Instant::now();
        send(wire, &data, n);
        let t1 = Instant::now();
        let got = recv(wire);
        let t2 = Instant::now();
        assert_eq!(got, n);
        seal += (t1 - t0).as_secs_f64();
        open += (t2 - t1).as_secs_f64();
        done += n;
    }
    (seal, open)
}

/// [`batches`] through the buffered API.
fn bulk(
    c: &mut Connection,
    s: &mut Connection,
    rec: usize,
    total: usize,
    wire: &mut Vec<u8>,
) -> (f64, f64) {
    let mut sink = vec![0u8; 1 << 16];
    batches(
        rec,
        total,
        wire,
        |wire, data, n| {
            wire.clear();
            let mut left = n;
            while left > 0 {
                // One record at a time, written out at once, as a server with
                // a socket would (rustls allocates each record's buffer).
                let k = rec.min(left);
                c.writer().write_all(&data[..k]).unwrap();
                while c.wants_write() {
                    c.write_tls(wire).unwrap();
                }
                left -= k;
            }
        },
        |wire| {
            let mut rd = &wire[..];
            let mut got = 0;
            while !rd.is_empty() {
                s.read_tls(&mut rd).unwrap();
                s.process_new_packets().unwrap();
                loop {
                    match s.reader().read(&mut sink) {
                        Ok(0) => break,
                        Ok(m) => got += m,
                        Err(_) => break,
                    }
                }
            }
            got
        },
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Api {
    Buffered,
    Unbuffered,
}

/// A connected client and server through one of rustls's two APIs.
// Three per table, made once and never moved in a loop.
#[allow(clippy::large_enum_variant)]
enum Pair {
    Buffered(Connection, Connection),
    Unbuffered(UnbufferedClientConnection, UnbufferedServerConnection),
}

impl Pair {
    fn new(api: Api, cc: &Arc<ClientConfig>, sc: &Arc<ServerConfig>, wire: &mut Vec<u8>) -> Pair {
        match api {
            Api::Buffered => {
                let (mut c, mut s) = handshake(cc, sc, wire);
                c.set_buffer_limit(None);
                s.set_buffer_limit(None);
                Pair::Buffered(c, s)
            }
            Api::Unbuffered => {
                let (c, s) = handshake_unbuffered(cc, sc);
                Pair::Unbuffered(c, s)
            }
        }
    }

    fn bulk(&mut self, rec: usize, total: usize, wire: &mut Vec<u8>) -> (f64, f64) {
        match self {
            Pair::Buffered(c, s) => bulk(c, s, rec, total, wire),
            Pair::Unbuffered(c, s) => {
                // Room for a batch's records (about 1 MiB and their framing).
                wire.resize(2 << 20, 0);
                bulk_unbuffered(c, s, rec, total, wire)
            }
        }
    }
}

/// The two unbuffered connection types behind one call.
trait Unbuffered {
    type Data;
    fn process<'c, 'i>(
        &'c mut self,
        incoming: &'i mut [u8],
    ) -> UnbufferedStatus<'c, 'i, Self::Data>;
}

/// `process_tls_records` is inherent on each of the two types.
macro_rules! unbuffered {
    ($conn:ty, $data:ty) => {
        impl Unbuffered for $conn {
            type Data = $data;
            fn process<'c, 'i>(
                &'c mut self,
                incoming: &'i mut [u8],
            ) -> UnbufferedStatus<'c, 'i, Self::Data> {
                self.process_tls_records(incoming)
            }
        }
    };
}

unbuffered!(UnbufferedClientConnection, ClientConnectionData);
unbuffered!(UnbufferedServerConnection, ServerConnectionData);

/// Runs one side of an unbuffered handshake until it blocks on its peer
/// or may send application data (returned as `true`); what it sends is
/// appended to `to_peer`, what it consumed is removed from `incoming`.
fn pump<C: Unbuffered>(conn: &mut C, incoming: &mut Vec<u8>, to_peer: &mut Vec<u8>) -> bool {
    let mut out = vec![0u8; 1 << 16];
    loop {
        let UnbufferedStatus { discard, state } = conn.process(&mut incoming[..]);
        let done = match state.expect("handshake") {
            ConnectionState::EncodeTlsData(mut e) => {
                let n = e.encode(&mut out).expect("64 KiB holds a handshake flight");
                to_peer.extend_from_slice(&out[..n]);
                None
            }
            ConnectionState::TransmitTlsData(t) => {
                t.done();
                None
            }
            ConnectionState::BlockedHandshake => Some(false),
            ConnectionState::WriteTraffic(_) => Some(true),
            _ => panic!("unexpected state during the handshake"),
        };
        incoming.drain(..discard);
        if let Some(d) = done {
            return d;
        }
    }
}

fn handshake_unbuffered(
    cc: &Arc<ClientConfig>,
    sc: &Arc<ServerConfig>,
) -> (UnbufferedClientConnection, UnbufferedServerConnection) {
    let mut c =
        UnbufferedClientConnection::new(cc.clone(), "localhost".try_into().unwrap()).unwrap();
    let mut s = UnbufferedServerConnection::new(sc.clone()).unwrap();
    let (mut to_s, mut to_c) = (Vec::new(), Vec::new());
    for _ in 0..16 {
        let cd = pump(&mut c, &mut to_c, &mut to_s);
        let sd = pump(&mut s, &mut to_s, &mut to_c);
        if cd && sd && to_s.is_empty() && to_c.is_empty() {
            return (c, s);
        }
    }
    panic!("unbuffered handshake did not finish");
}

/// [`batches`] through rustls's unbuffered API: records encrypted straight
/// into the wire buffer, decrypted in place in it.
fn bulk_unbuffered(
    c: &mut UnbufferedClientConnection,
    s: &mut UnbufferedServerConnection,
    rec: usize,
    total: usize,
    wire: &mut [u8],
) -> (f64, f64) {
    // The bytes of records in the wire buffer: written by send, read by recv.
    let len = std::cell::Cell::new(0);
    batches(
        rec,
        total,
        wire,
        |wire, data, n| {
            len.set(0);
            let mut left = n;
            while left > 0 {
                // One record per call, as a server answering a socket event would.
                let k = rec.min(left);
                match c.process_tls_records(&mut []).state.unwrap() {
                    ConnectionState::WriteTraffic(mut w) => {
                        let at = len.get();
                        len.set(at + w.encrypt(&data[..k], &mut wire[at..]).unwrap());
                    }
                    _ => panic!("client cannot write"),
                }
                left -= k;
            }
        },
        |wire| {
            let (mut off, mut got) = (0, 0);
            let end = len.get();
            while off < end {
                let UnbufferedStatus { mut discard, state } =
                    s.process_tls_records(&mut wire[off..end]);
                match state.unwrap() {
                    ConnectionState::ReadTraffic(mut r) => {
                        while let Some(rec) = r.next_record() {
                            let rec = rec.unwrap();
                            discard += rec.discard;
                            got += rec.payload.len();
                            std::hint::black_box(rec.payload);
                        }
                    }
                    ConnectionState::WriteTraffic(_) => {}
                    _ => panic!("server cannot read"),
                }
                assert!(discard > 0, "no progress");
                off += discard;
            }
            got
        },
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let mut rounds = 7usize;
    let mut mib = 64usize;
    let mut hs_per_round = 200usize;
    // Profiling aids: one implementation, one suite, no handshake table.
    let mut only_imp: Option<String> = None;
    let mut only_suite: Option<String> = None;
    let mut bulk_only = false;
    let mut only_record: Option<usize> = None;
    let mut apis = vec![Api::Buffered, Api::Unbuffered];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--mib" => mib = args.next().and_then(|v| v.parse().ok()).expect("--mib N"),
            "--handshakes" => {
                hs_per_round = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--handshakes N")
            }
            "--imp" => only_imp = Some(args.next().expect("--imp galois|aws-lc-rs|ring")),
            "--suite" => only_suite = Some(args.next().expect("--suite NAME-PART")),
            "--bulk-only" => bulk_only = true,
            "--record" => {
                only_record = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|n| [16384, 1500].contains(n));
                assert!(only_record.is_some(), "--record 16384|1500");
            }
            "--api" => {
                apis = match args.next().as_deref() {
                    Some("buffered") => vec![Api::Buffered],
                    Some("unbuffered") => vec![Api::Unbuffered],
                    Some("both") => vec![Api::Buffered, Api::Unbuffered],
                    _ => panic!("--api buffered|unbuffered|both"),
                }
            }
            "--quick" => {
                rounds = 1;
                mib = 4;
                hs_per_round = 20;
            }
            _ => {
                eprintln!(
                    "usage: bench [--rounds N] [--mib N] [--handshakes N] [--quick] [--imp NAME] [--suite PART] [--bulk-only] [--record 16384|1500] [--api buffered|unbuffered|both]"
                );
                std::process::exit(2);
            }
        }
    }
    let certs = certs();
    let g = galois_aead::AesGcm::new(&[0u8; 16]).unwrap();
    println!(
        "galois-rustls bench: rounds {rounds}, {mib} MiB per 16 KiB measurement ({} MiB at 1500 B), galois backend {:?}/{:?}",
        (mib / 4).max(1),
        g.aes_backend(),
        g.backend()
    );
    let suites = [
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        CipherSuite::TLS13_AES_256_GCM_SHA384,
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    ];
    let mut wire = Vec::with_capacity(3 << 20);

    for api in apis {
        println!();
        println!("{}", match api {
        Api::Buffered => "rustls's buffered API (writer / write_tls / read_tls / reader):",
        Api::Unbuffered => "rustls's unbuffered API (encrypt into the wire buffer, decrypt in place there):",
    });
        println!();
        println!("| suite | record | impl | seal GB/s | open GB/s | both GB/s | galois / best other (both) |");
        println!("|---|---|---|---|---|---|---|");
        let want = |i: Imp| only_imp.as_deref().is_none_or(|n| n == i.name());
        for suite in suites {
            if let Some(part) = &only_suite {
                if !format!("{suite:?}").contains(part.as_str()) {
                    continue;
                }
            }
            for rec in [16384usize, 1500] {
                if only_record.is_some_and(|r| r != rec) {
                    continue;
                }
                let total = if rec == 16384 {
                    mib << 20
                } else {
                    ((mib / 4).max(1)) << 20
                };
                let mut res: Vec<(Vec<f64>, Vec<f64>, Vec<f64>)> =
                    vec![Default::default(); IMPS.len()];
                let mut conns: Vec<Pair> = IMPS
                    .iter()
                    .map(|&i| {
                        let (cc, sc) = configs(&certs, i, suite);
                        let mut p = Pair::new(api, &cc, &sc, &mut wire);
                        // Warm up.
                        p.bulk(rec, 1 << 20, &mut wire);
                        p
                    })
                    .collect();
                for _ in 0..rounds {
                    for (k, p) in conns.iter_mut().enumerate() {
                        if !want(IMPS[k]) {
                            continue;
                        }
                        let (se, op) = p.bulk(rec, total, &mut wire);
                        let gb = total as f64 / 1e9;
                        res[k].0.push(gb / se);
                        res[k].1.push(gb / op);
                        res[k].2.push(gb / (se + op));
                    }
                }
                let both: Vec<f64> = res
                    .iter()
                    .map(|r| {
                        if r.2.is_empty() {
                            0.0
                        } else {
                            median(r.2.clone())
                        }
                    })
                    .collect();
                let best_other = both[1..].iter().cloned().fold(0.0, f64::max);
                for (k, imp) in IMPS.iter().enumerate() {
                    if res[k].2.is_empty() {
                        continue;
                    }
                    let ratio = if *imp == Imp::Galois && best_other > 0.0 {
                        format!("{:.2}x", both[0] / best_other)
                    } else {
                        String::new()
                    };
                    println!(
                        "| {suite:?} | {rec} B | {} | {:.2} | {:.2} | {:.2} | {ratio} |",
                        imp.name(),
                        median(res[k].0.clone()),
                        median(res[k].1.clone()),
                        both[k],
                    );
                }
            }
        }
    }

    if bulk_only {
        return;
    }
    println!();
    println!("| handshakes (TLS 1.3, X25519, ECDSA P-256, AES-128-GCM) | impl | per second | galois / aws-lc-rs |");
    println!("|---|---|---|---|");
    let cfgs: Vec<_> = IMPS
        .iter()
        .map(|&i| configs(&certs, i, suites[0]))
        .collect();
    let mut rates = vec![Vec::new(); IMPS.len()];
    for (cc, sc) in &cfgs {
        handshake(cc, sc, &mut wire);
    }
    for _ in 0..rounds {
        for (k, (cc, sc)) in cfgs.iter().enumerate() {
            let t = Instant::now();
            for _ in 0..hs_per_round {
                let (c, s) = handshake(cc, sc, &mut wire);
                assert!(!c.is_handshaking() && !s.is_handshaking());
            }
            rates[k].push(hs_per_round as f64 / t.elapsed().as_secs_f64());
        }
    }
    let hs: Vec<f64> = rates.into_iter().map(median).collect();
    for (k, imp) in IMPS.iter().enumerate() {
        let ratio = if *imp == Imp::Galois {
            format!("{:.2}x", hs[0] / hs[1])
        } else {
            String::new()
        };
        println!(
            "| full handshake, client + server | {} | {:.0} | {ratio} |",
            imp.name(),
            hs[k]
        );
    }

    // One record key pair (encrypter + decrypter) as rustls builds it per
    // direction: TLS13_AES_256_GCM_SHA384 (a 32-byte key).
    println!();
    println!("| key setup: encrypter + decrypter, AES-256-GCM | impl | ns |");
    println!("|---|---|---|");
    let suite256 = |i: Imp| match i {
        Imp::Galois => galois_rustls::TLS13_AES_256_GCM_SHA384,
        Imp::AwsLc => rustls::crypto::aws_lc_rs::cipher_suite::TLS13_AES_256_GCM_SHA384,
        Imp::Ring => rustls::crypto::ring::cipher_suite::TLS13_AES_256_GCM_SHA384,
    };
    let n = if hs_per_round < 100 { 2_000 } else { 50_000 };
    let mut ns = vec![Vec::new(); IMPS.len()];
    for _ in 0..rounds {
        for (k, &imp) in IMPS.iter().enumerate() {
            let alg = suite256(imp).tls13().unwrap().aead_alg;
            let t = Instant::now();
            for i in 0..n {
                let e = alg.encrypter([i as u8; 32].into(), [1u8; 12].into());
                let d = alg.decrypter([i as u8; 32].into(), [1u8; 12].into());
                std::hint::black_box((e, d));
            }
            ns[k].push(t.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    for (k, imp) in IMPS.iter().enumerate() {
        println!(
            "| per connection direction pair | {} | {:.0} |",
            imp.name(),
            median(ns[k].clone())
        );
    }
}
