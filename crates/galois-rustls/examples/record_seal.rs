//! Record sealing through the galois provider, TLS 1.2 and TLS 1.3, the two
//! paths side by side in one process (round robin, medians of 41 samples):
//! a plaintext handed over in one piece (the record buffer zeroed, then
//! sealed from the plaintext where it is) and the same plaintext in two
//! pieces (copied into the record buffer, then sealed in place). Run
//! pinned: `nice -n -20 taskset -c 0 target/release/examples/record_seal
//! [SUITE-PART [RECORD-BYTES]]` (the arguments pick rows, for profiling).
use rustls::crypto::cipher::{AeadKey, Iv, MessageEncrypter, OutboundChunks, OutboundPlainMessage};
use rustls::{ContentType, ProtocolVersion, SupportedCipherSuite};
use std::time::Instant;

fn encrypters() -> Vec<(&'static str, Box<dyn MessageEncrypter>)> {
    let SupportedCipherSuite::Tls12(s12) = galois_rustls::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384
    else {
        unreachable!()
    };
    let SupportedCipherSuite::Tls13(s13) = galois_rustls::TLS13_AES_256_GCM_SHA384 else {
        unreachable!()
    };
    vec![
        (
            "TLS 1.2 AES-256",
            s12.aead_alg
                .encrypter(AeadKey::from([7u8; 32]), &[1, 2, 3, 4], &[5; 8]),
        ),
        (
            "TLS 1.3 AES-256",
            s13.aead_alg
                .encrypter(AeadKey::from([7u8; 32]), Iv::new([9; 12])),
        ),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite_part = args.first().cloned().unwrap_or_default();
    let only_size: Option<usize> = args.get(1).map(|a| a.parse().expect("RECORD-BYTES"));
    println!("| suite | record | one piece ns | two pieces (copy + in place) ns | ratio |");
    println!("|---|---|---|---|---|");
    for (name, mut enc) in encrypters() {
        if !name.contains(&suite_part) {
            continue;
        }
        for (rec, iters) in [
            (16384usize, 2000usize),
            (1500, 20000),
            (256, 50000),
            (32, 50000),
        ] {
            if only_size.is_some_and(|s| s != rec) {
                continue;
            }
            let pt = vec![0x5au8; rec];
            let pieces: [&[u8]; 2] = [&pt[..rec / 2], &pt[rec / 2..]];
            let mut t = [Vec::new(), Vec::new()];
            let mut seq = 0u64;
            for _ in 0..41 {
                for (k, tk) in t.iter_mut().enumerate() {
                    let start = Instant::now();
                    for _ in 0..iters {
                        let payload = if k == 0 {
                            OutboundChunks::Single(&pt)
                        } else {
                            OutboundChunks::new(&pieces)
                        };
                        let msg = OutboundPlainMessage {
                            typ: ContentType::ApplicationData,
                            version: ProtocolVersion::TLSv1_2,
                            payload,
                        };
                        seq += 1;
                        std::hint::black_box(enc.encrypt(msg, seq).unwrap());
                    }
                    tk.push(start.elapsed().as_nanos() as f64 / iters as f64);
                }
            }
            let med = |v: &mut Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let (a, b) = (med(&mut t[0]), med(&mut t[1]));
            println!("| {name} | {rec} B | {a:.0} | {b:.0} | {:.3}x |", b / a);
        }
    }
}
