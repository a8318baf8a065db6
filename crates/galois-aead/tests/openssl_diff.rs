//! Differential test against OpenSSL (EVP, through the `openssl` crate) on
//! random keys, IV lengths 1..256, AAD and plaintext lengths 0..4096 and
//! every tag length, for every backend.
//!
//! OpenSSL 3's GCM provider refuses IVs over 128 bytes, so IVs of 129..256
//! bytes are checked against our bit-serial reference instead (and OpenSSL
//! cases cover 1..128).

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash, common::Family::Aes];
use common::*;
use galois_aead::{AesGcm, Options};
use openssl::symm::{decrypt_aead, encrypt_aead, Cipher};
use rand::Rng;

fn cipher(key_len: usize) -> Cipher {
    match key_len {
        16 => Cipher::aes_128_gcm(),
        24 => Cipher::aes_192_gcm(),
        _ => Cipher::aes_256_gcm(),
    }
}

#[test]
fn random_inputs_agree_with_openssl() {
    let mut r = rng(20);
    let imps = implementations();
    for i in 0..400 {
        let key_len = [16, 24, 32][i % 3];
        let key = bytes(&mut r, key_len);
        let iv_len = if i % 4 == 0 {
            12
        } else {
            r.random_range(1..=128)
        };
        let iv = bytes(&mut r, iv_len);
        let aad_len = r.random_range(0..=4096);
        let aad = bytes(&mut r, aad_len);
        let pt_len = r.random_range(0..=4096);
        let pt = bytes(&mut r, pt_len);
        let tag_len = 4 + i % 13;
        let mut tag = vec![0u8; tag_len];
        let ct = encrypt_aead(cipher(key_len), &key, Some(&iv), &aad, &pt, &mut tag).unwrap();
        let opts = &imps[i % imps.len()];
        let g = AesGcm::with_options(&key, opts.permissive_tag_len(tag_len).unwrap()).unwrap();
        let mut buf = pt.clone();
        let t = g.seal_in_place_detached(&iv, &aad, &mut buf).unwrap();
        assert_eq!(buf, ct, "case {i} {opts:?}");
        assert_eq!(t.as_bytes(), &tag[..], "case {i} {opts:?}");
        // And OpenSSL opens what we sealed.
        let back =
            decrypt_aead(cipher(key_len), &key, Some(&iv), &aad, &buf, t.as_bytes()).unwrap();
        assert_eq!(back, pt);
    }
}

#[test]
fn openssl_rejects_what_we_reject() {
    let mut r = rng(21);
    let key = bytes(&mut r, 16);
    let g = AesGcm::new(&key).unwrap();
    for _ in 0..50 {
        let (iv, aad, pt) = (bytes(&mut r, 12), bytes(&mut r, 20), bytes(&mut r, 64));
        let mut sealed = g.seal(&iv, &aad, &pt).unwrap();
        let bit = r.random_range(0..sealed.len() * 8);
        sealed[bit / 8] ^= 1 << (bit % 8);
        assert!(g.open(&iv, &aad, &sealed).is_err());
        let (c, t) = sealed.split_at(64);
        assert!(decrypt_aead(Cipher::aes_128_gcm(), &key, Some(&iv), &aad, c, t).is_err());
    }
}

#[test]
fn long_ivs_beyond_openssl_match_reference() {
    let mut r = rng(22);
    for (i, opts) in implementations().into_iter().enumerate() {
        for iv_len in 129..=256 {
            let key = bytes(&mut r, [16, 24, 32][iv_len % 3]);
            let (iv, aad, pt) = (
                bytes(&mut r, iv_len),
                bytes(&mut r, i * 7),
                bytes(&mut r, iv_len * 3),
            );
            let refg = AesGcm::with_options(
                &key,
                Options::new().backend(galois_aead::GhashBackend::Bitserial),
            )
            .unwrap();
            let g = AesGcm::with_options(&key, opts).unwrap();
            assert_eq!(
                g.seal(&iv, &aad, &pt).unwrap(),
                refg.seal(&iv, &aad, &pt).unwrap()
            );
        }
    }
}
