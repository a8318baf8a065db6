//! TLS 1.2 record sealing through the galois provider, the two paths side
//! by side in one process (round robin, medians): a plaintext handed over
//! in one piece (sealed out of place, straight into the record buffer) and
//! the same plaintext in two pieces (copied into the record buffer, then
//! sealed in place). Run pinned:
//! `nice -n -20 taskset -c 1 target/release/examples/tls12_seal`
use rustls::crypto::cipher::{AeadKey, OutboundChunks, OutboundPlainMessage};
use rustls::{ContentType, ProtocolVersion, SupportedCipherSuite};
use std::time::Instant;

fn main() {
    let SupportedCipherSuite::Tls12(s) = galois_rustls::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384
    else {
        unreachable!()
    };
    let mut enc = s
        .aead_alg
        .encrypter(AeadKey::from([7u8; 32]), &[1, 2, 3, 4], &[5; 8]);
    println!("| record | one piece (out of place) ns | two pieces (copy + in place) ns | ratio |");
    println!("|---|---|---|---|");
    for (rec, iters) in [(16384usize, 2000usize), (1500, 20000)] {
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
        println!("| {rec} B | {a:.0} | {b:.0} | {:.3}x |", b / a);
    }
}
