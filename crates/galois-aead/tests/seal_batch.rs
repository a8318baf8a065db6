//! `AesGcm::seal_batch` refuses a batch in which two packets share a nonce,
//! before sealing any packet, on every implementation and every path
//! (all short packets, short and long mixed, long only, one GHASH at a time).

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash, common::Family::Aes];

use common::{bytes, implementations, rng};
use galois_aead::{AesGcm, BatchPacket, Error};

#[test]
fn batch_with_a_repeated_nonce_is_refused_untouched() {
    let mut r = rng(11);
    let key = bytes(&mut r, 16);
    // Payload sizes that take each path of seal_batch: all below the
    // short-packet threshold, a mix, and long only.
    let shapes: [&[usize]; 4] = [
        &[16, 44, 0, 100, 7],
        &[40, 1500, 64, 576, 3],
        &[552, 1500, 4096],
        &[16, 16],
    ];
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        for shape in shapes {
            let n = shape.len();
            // Every pair (i, j) of positions carries the same nonce once.
            for i in 0..n {
                for j in i + 1..n {
                    let plain: Vec<Vec<u8>> = shape.iter().map(|&l| bytes(&mut r, l)).collect();
                    let mut datas = plain.clone();
                    let nonces: Vec<[u8; 12]> = (0..n)
                        .map(|k| {
                            let mut nonce = [0u8; 12];
                            nonce[11] = if k == j { i as u8 } else { k as u8 };
                            nonce
                        })
                        .collect();
                    let mut batch: Vec<BatchPacket> = datas
                        .iter_mut()
                        .zip(&nonces)
                        .map(|(d, nonce)| BatchPacket::new(*nonce, b"aad", d))
                        .collect();
                    assert_eq!(
                        g.seal_batch(&mut batch),
                        Err(Error::IvReused),
                        "{opts:?} sizes {shape:?}, packets {i} and {j}"
                    );
                    for (k, p) in batch.iter().enumerate() {
                        assert!(p.tag().is_none(), "{opts:?} packet {k} got a tag");
                        assert_eq!(p.data(), &plain[k][..], "{opts:?} packet {k} changed");
                    }
                }
            }
            // The same batch with distinct nonces seals, and every packet
            // matches a one-at-a-time seal.
            let plain: Vec<Vec<u8>> = shape.iter().map(|&l| bytes(&mut r, l)).collect();
            let mut datas = plain.clone();
            let mut batch: Vec<BatchPacket> = datas
                .iter_mut()
                .enumerate()
                .map(|(k, d)| BatchPacket::new([k as u8; 12], b"aad", d))
                .collect();
            g.seal_batch(&mut batch).unwrap();
            for (k, p) in batch.iter().enumerate() {
                let one = g.seal(&[k as u8; 12], b"aad", &plain[k]).unwrap();
                assert_eq!([p.data(), p.tag().unwrap().as_bytes()].concat(), one);
            }
        }
    }
}
