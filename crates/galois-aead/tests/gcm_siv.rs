//! AES-GCM-SIV (RFC 8452): the RFC's Appendix C vectors on every backend,
//! agreement with an independent implementation (aws-lc-rs) on random
//! inputs, and the bad-input classes.

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash, common::Family::Aes];

use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM_SIV, AES_256_GCM_SIV};
use common::{bytes, rng};
use galois_aead::{AesGcmSiv, Error};
use rand::Rng;

/// Every implementation a test must run: each GHASH backend (POLYVAL runs
/// on it), then each AES backend.
fn implementations(key: &[u8]) -> Vec<AesGcmSiv> {
    common::pinned_implementations(key)
}

fn vectors() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../vectors/aes_gcm_siv_rfc8452.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn h(case: &serde_json::Value, name: &str) -> Vec<u8> {
    hex::decode(case[name].as_str().unwrap()).unwrap()
}

#[test]
fn rfc8452_appendix_c_on_every_backend() {
    let doc = vectors();
    let mut valid = 0;
    for case in doc["tests"].as_array().unwrap() {
        let key = h(case, "key");
        let (nonce, aad, ct, tag) = (h(case, "iv"), h(case, "aad"), h(case, "ct"), h(case, "tag"));
        let id = case["id"].as_str().unwrap();
        for siv in implementations(&key) {
            let who = format!("{id} {} {:?}", siv.backend(), siv.aes_backend());
            if case["result"] == "valid" {
                let pt = h(case, "pt");
                let mut sealed = ct.clone();
                sealed.extend_from_slice(&tag);
                assert_eq!(siv.seal(&nonce, &aad, &pt).unwrap(), sealed, "{who}");
                assert_eq!(siv.open(&nonce, &aad, &sealed).unwrap(), pt, "{who}");
            } else {
                let mut buf = ct.clone();
                assert!(
                    siv.open_in_place_detached(&nonce, &aad, &mut buf, &tag)
                        .is_err(),
                    "{who}"
                );
                assert!(buf.iter().all(|&b| b == 0), "{who}");
            }
        }
        valid += (case["result"] == "valid") as usize;
    }
    // C.1 and C.2 have 24 vectors each, C.3 two.
    assert_eq!(valid, 50);
}

fn aws(key: &[u8]) -> LessSafeKey {
    let alg = if key.len() == 16 {
        &AES_128_GCM_SIV
    } else {
        &AES_256_GCM_SIV
    };
    LessSafeKey::new(UnboundKey::new(alg, key).unwrap())
}

fn aws_seal(key: &LessSafeKey, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let mut v = pt.to_vec();
    key.seal_in_place_append_tag(
        Nonce::try_assume_unique_for_key(nonce).unwrap(),
        Aad::from(aad),
        &mut v,
    )
    .unwrap();
    v
}

/// Random keys, nonces, AAD and messages of every length class (empty,
/// partial blocks, the byte-reversal buffer and the wide backends' batch
/// boundaries) agree with aws-lc-rs both ways, on every implementation.
#[test]
fn agrees_with_aws_lc_rs_on_random_inputs() {
    let mut r = rng(0x5117);
    let lens = [
        0usize, 1, 15, 16, 17, 31, 32, 63, 64, 255, 256, 511, 512, 1023, 1024, 1025, 1500, 2047,
        2048, 2049, 4096, 5000, 16384, 16400, 65539,
    ];
    for key_len in [16, 32] {
        for &len in &lens {
            let key = bytes(&mut r, key_len);
            let nonce = bytes(&mut r, 12);
            let aad_len = [0, 1, 13, 16, 40, 1030][r.random_range(0..6)];
            let aad = bytes(&mut r, aad_len);
            let pt = bytes(&mut r, len);
            let theirs = aws_seal(&aws(&key), &nonce, &aad, &pt);
            for siv in implementations(&key) {
                let who = format!("{key_len} {len} {aad_len} {}", siv.backend());
                assert_eq!(siv.seal(&nonce, &aad, &pt).unwrap(), theirs, "{who}");
                assert_eq!(siv.open(&nonce, &aad, &theirs).unwrap(), pt, "{who}");
            }
            // aws-lc-rs opens ours.
            let ours = AesGcmSiv::new(&key)
                .unwrap()
                .seal(&nonce, &aad, &pt)
                .unwrap();
            let mut buf = ours.clone();
            let got = aws(&key)
                .open_in_place(
                    Nonce::try_assume_unique_for_key(&nonce).unwrap(),
                    Aad::from(&aad[..]),
                    &mut buf,
                )
                .unwrap();
            assert_eq!(got, &pt[..]);
        }
    }
}

#[test]
fn bad_input_is_refused_and_nothing_is_released() {
    assert_eq!(
        AesGcmSiv::new(&[0; 20]).err(),
        Some(Error::InvalidKeyLength { got: 20 })
    );
    assert_eq!(
        AesGcmSiv::new(&[0; 0]).err(),
        Some(Error::InvalidKeyLength { got: 0 })
    );
    let siv = AesGcmSiv::new(&[9; 16]).unwrap();
    for n in [0, 8, 11, 13, 16] {
        assert_eq!(
            siv.seal(&vec![0; n], b"", b"x").err(),
            Some(Error::InvalidNonceLength { got: n })
        );
    }
    let sealed = siv.seal(&[1; 12], b"a", b"message").unwrap();
    // Short input, wrong tag length, wrong buffer length.
    assert_eq!(
        siv.open(&[1; 12], b"a", &sealed[..15]).err(),
        Some(Error::CiphertextTooShort { len: 15, min: 16 })
    );
    let mut buf = sealed[..7].to_vec();
    assert_eq!(
        siv.open_in_place_detached(&[1; 12], b"a", &mut buf, &sealed[7..22]),
        Err(Error::InvalidTagLength { got: 15 })
    );
    assert_eq!(buf, [0; 7]);
    let mut out = [0xffu8; 6];
    assert!(siv.open_into(&[1; 12], b"a", &sealed, &mut out).is_err());
    assert_eq!(out, [0; 6]);
    // Every single-bit change of ciphertext, tag, nonce or AAD fails and
    // leaves nothing behind.
    for i in 0..sealed.len() * 8 {
        let mut bad = sealed.clone();
        bad[i / 8] ^= 1 << (i % 8);
        let mut out = [0x55u8; 7];
        assert_eq!(
            siv.open_into(&[1; 12], b"a", &bad, &mut out),
            Err(Error::AuthenticationFailed)
        );
        assert_eq!(out, [0; 7]);
    }
    let mut out = [0x55u8; 7];
    assert!(siv.open_into(&[1; 12], b"b", &sealed, &mut out).is_err());
    assert!(siv.open_into(&[2; 12], b"a", &sealed, &mut out).is_err());
    assert_eq!(out, [0; 7]);
    let mut v = sealed.clone();
    v[0] ^= 1;
    assert!(siv.open_in_place(&[1; 12], b"a", &mut v).is_err());
    assert!(v.is_empty());
}

/// Nonce misuse: the same nonce with different messages gives unrelated
/// ciphertexts (no keystream reuse), and equal inputs equal outputs.
#[test]
fn repeated_nonce_reveals_only_equality() {
    let siv = AesGcmSiv::new(&[3; 32]).unwrap();
    let a = siv.seal(&[0; 12], b"", &[0u8; 64]).unwrap();
    let b = siv.seal(&[0; 12], b"", &[1u8; 64]).unwrap();
    let x: Vec<u8> = a.iter().zip(&b).map(|(p, q)| p ^ q).collect();
    assert_ne!(
        &x[..64],
        &[1u8; 64][..],
        "keystream reused under a repeated nonce"
    );
    assert_eq!(a, siv.seal(&[0; 12], b"", &[0u8; 64]).unwrap());
}
