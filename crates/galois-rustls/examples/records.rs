//! Record protection alone, through each provider's `MessageEncrypter` and
//! `MessageDecrypter` (no rustls connection around them): TLS 1.3
//! AES-256-GCM records of 16384 and 1500 bytes, galois
//! against rustls's aws-lc-rs and ring providers, round robin in one
//! process, medians of 31 samples in ns per record. A record is sealed
//! from the application's slice into a fresh payload (as rustls asks) and
//! opened in place at the wire's 5-byte header offset. Run pinned:
//! `nice -n -20 taskset -c 0 target/release/examples/records`.
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use rustls::{ContentType, ProtocolVersion, SupportedCipherSuite};
use std::time::Instant;

fn suite(
    p: &rustls::crypto::CryptoProvider,
    name: rustls::CipherSuite,
) -> &'static rustls::Tls13CipherSuite {
    let s = p
        .cipher_suites
        .iter()
        .find(|s| s.suite() == name)
        .expect("suite");
    match s {
        SupportedCipherSuite::Tls13(t) => t,
        _ => unreachable!(),
    }
}

fn main() {
    let provs = [
        ("galois", galois_rustls::provider()),
        ("aws-lc-rs", rustls::crypto::aws_lc_rs::default_provider()),
        ("ring", rustls::crypto::ring::default_provider()),
    ];
    println!("| suite | record | impl | seal ns | open ns | galois / this (seal, open) |");
    println!("|---|---|---|---|---|---|");
    // rustls builds only 32-byte `AeadKey`s outside the key schedule.
    let name = rustls::CipherSuite::TLS13_AES_256_GCM_SHA384;
    for (rec, iters) in [(16384usize, 1000usize), (1500, 10000)] {
        let pt = vec![0x5au8; rec];
        let mut encs: Vec<(Box<dyn MessageEncrypter>, Box<dyn MessageDecrypter>)> = provs
            .iter()
            .map(|(_, p)| {
                let s = suite(p, name);
                let k = || AeadKey::from([7u8; 32]);
                (
                    s.aead_alg.encrypter(k(), Iv::new([9; 12])),
                    s.aead_alg.decrypter(k(), Iv::new([9; 12])),
                )
            })
            .collect();
        // One sealed record per implementation to open, at the wire's
        // offset (a 5-byte header before it).
        let wires: Vec<Vec<u8>> = encs
            .iter_mut()
            .map(|(e, _)| {
                let msg = OutboundPlainMessage {
                    typ: ContentType::ApplicationData,
                    version: ProtocolVersion::TLSv1_2,
                    payload: OutboundChunks::Single(&pt),
                };
                e.encrypt(msg, 0).unwrap().encode()
            })
            .collect();
        let mut t = vec![(Vec::new(), Vec::new()); provs.len()];
        let mut work = vec![0u8; wires[0].len()];
        // Every record sealed under its own sequence number.
        let mut seq = 0u64;
        for _ in 0..31 {
            for (i, (e, d)) in encs.iter_mut().enumerate() {
                let start = Instant::now();
                for _ in 0..iters {
                    seq += 1;
                    let msg = OutboundPlainMessage {
                        typ: ContentType::ApplicationData,
                        version: ProtocolVersion::TLSv1_2,
                        payload: OutboundChunks::Single(&pt),
                    };
                    std::hint::black_box(e.encrypt(msg, seq).unwrap());
                }
                t[i].0
                    .push(start.elapsed().as_nanos() as f64 / iters as f64);
                let mut open = 0f64;
                for _ in 0..iters {
                    work.copy_from_slice(&wires[i]);
                    let start = Instant::now();
                    let m = InboundOpaqueMessage::new(
                        ContentType::ApplicationData,
                        ProtocolVersion::TLSv1_2,
                        &mut work[5..],
                    );
                    std::hint::black_box(d.decrypt(m, 0).unwrap());
                    open += start.elapsed().as_nanos() as f64;
                }
                t[i].1.push(open / iters as f64);
            }
        }
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let m: Vec<(f64, f64)> = t.iter_mut().map(|(a, b)| (med(a), med(b))).collect();
        for (i, (imp, _)) in provs.iter().enumerate() {
            let r = if i == 0 {
                String::new()
            } else {
                format!("{:.3}x, {:.3}x", m[i].0 / m[0].0, m[i].1 / m[0].1)
            };
            println!(
                "| {name:?} | {rec} B | {imp} | {:.0} | {:.0} | {r} |",
                m[i].0, m[i].1
            );
        }
    }
}
