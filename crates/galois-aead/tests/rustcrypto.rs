#![cfg(feature = "rustcrypto")]
//! The RustCrypto trait implementations: galois types dropped into generic
//! code written for the `aes-gcm` crate give the same bytes; GHASH and
//! Poly1305 through `UniversalHash` match the shared vectors.

use aead::inout::InOutBuf;
use aead::{Aead, AeadInOut, KeyInit, Nonce, Payload};
use galois_aead::rustcrypto::{self, GHash, Poly1305};
use rand::{rngs::StdRng, Rng, SeedableRng};
use universal_hash::UniversalHash;

fn bytes(rng: &mut StdRng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill(&mut v[..]);
    v
}

/// Generic code as a user of the `aes-gcm` crate writes it.
fn seal_generic<A: AeadInOut + KeyInit>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
) -> Vec<u8> {
    let cipher = A::new_from_slice(key).expect("key length");
    let nonce = Nonce::<A>::try_from(nonce).expect("nonce length");
    let mut buf = pt.to_vec();
    let tag = cipher
        .encrypt_inout_detached(&nonce, aad, buf.as_mut_slice().into())
        .expect("seal");
    buf.extend_from_slice(&tag);
    buf
}

fn open_generic<A: AeadInOut + KeyInit>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>, aead::Error> {
    let cipher = A::new_from_slice(key).expect("key length");
    let nonce = Nonce::<A>::try_from(nonce).expect("nonce length");
    let mut buf = sealed.to_vec();
    cipher.decrypt_in_place(&nonce, aad, &mut buf)?;
    Ok(buf)
}

fn same_as_aes_gcm<Ours, Theirs>(key_len: usize, seed: u64)
where
    Ours: AeadInOut + KeyInit,
    Theirs: AeadInOut + KeyInit,
{
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..300 {
        let key = bytes(&mut rng, key_len);
        let nonce = bytes(&mut rng, 12);
        let aad_len = rng.random_range(0..100);
        let aad = bytes(&mut rng, aad_len);
        let len = if i < 64 { i } else { rng.random_range(0..5000) };
        let pt = bytes(&mut rng, len);
        let ours = seal_generic::<Ours>(&key, &nonce, &aad, &pt);
        let theirs = seal_generic::<Theirs>(&key, &nonce, &aad, &pt);
        assert_eq!(ours, theirs, "case {i}: len {len}");
        assert_eq!(
            open_generic::<Ours>(&key, &nonce, &aad, &theirs).unwrap(),
            pt
        );
        assert_eq!(
            open_generic::<Theirs>(&key, &nonce, &aad, &ours).unwrap(),
            pt
        );
        let mut bad = ours.clone();
        let at = rng.random_range(0..bad.len());
        bad[at] ^= 1 << rng.random_range(0..8);
        assert_eq!(
            open_generic::<Ours>(&key, &nonce, &aad, &bad),
            Err(aead::Error)
        );
        assert_eq!(
            open_generic::<Theirs>(&key, &nonce, &aad, &bad),
            Err(aead::Error)
        );
    }
}

#[test]
fn aes128gcm_drops_into_aes_gcm_generic_code() {
    same_as_aes_gcm::<rustcrypto::Aes128Gcm, aes_gcm::Aes128Gcm>(16, 1);
}

#[test]
fn aes256gcm_drops_into_aes_gcm_generic_code() {
    same_as_aes_gcm::<rustcrypto::Aes256Gcm, aes_gcm::Aes256Gcm>(32, 2);
}

#[test]
fn aes192gcm_matches_the_galois_api() {
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..50 {
        let (key, nonce) = (bytes(&mut rng, 24), bytes(&mut rng, 12));
        let pt_len = rng.random_range(0..500);
        let (aad, pt) = (bytes(&mut rng, 20), bytes(&mut rng, pt_len));
        let want = galois_aead::AesGcm::new(&key)
            .unwrap()
            .seal(&nonce, &aad, &pt)
            .unwrap();
        assert_eq!(
            seal_generic::<rustcrypto::Aes192Gcm>(&key, &nonce, &aad, &pt),
            want
        );
    }
}

#[test]
fn blanket_aead_and_separate_buffers() {
    let key = [0x42u8; 16];
    let ours = rustcrypto::Aes128Gcm::new(&key.into());
    let theirs = aes_gcm::Aes128Gcm::new(&key.into());
    let nonce = Nonce::<rustcrypto::Aes128Gcm>::from([7u8; 12]);
    let payload = || Payload {
        msg: b"message",
        aad: b"aad",
    };
    let ct = ours.encrypt(&nonce, payload()).unwrap();
    assert_eq!(ct, theirs.encrypt(&nonce, payload()).unwrap());
    assert_eq!(
        ours.decrypt(
            &nonce,
            Payload {
                msg: &ct,
                aad: b"aad"
            }
        )
        .unwrap(),
        b"message"
    );
    assert!(ours
        .decrypt(
            &nonce,
            Payload {
                msg: &ct,
                aad: b"AAD"
            }
        )
        .is_err());
    assert!(
        ours.decrypt(&nonce, &ct[..15]).is_err(),
        "shorter than a tag"
    );

    // in and out in different buffers
    let input = b"separate buffers".to_vec();
    let mut out = vec![0u8; input.len()];
    let tag = ours
        .encrypt_inout_detached(&nonce, b"", InOutBuf::new(&input, &mut out).unwrap())
        .unwrap();
    let mut back = vec![0u8; input.len()];
    ours.decrypt_inout_detached(&nonce, b"", InOutBuf::new(&out, &mut back).unwrap(), &tag)
        .unwrap();
    assert_eq!(back, input);
    // a bad tag leaves no plaintext in the output
    let mut bad = tag;
    bad[3] ^= 0x10;
    let mut back = vec![0xa5u8; input.len()];
    assert!(ours
        .decrypt_inout_detached(&nonce, b"", InOutBuf::new(&out, &mut back).unwrap(), &bad)
        .is_err());
    assert!(back.iter().all(|&b| b == 0), "output wiped");
}

#[test]
fn wrong_key_length_is_an_error_not_a_panic() {
    assert!(rustcrypto::Aes128Gcm::new_from_slice(&[0u8; 15]).is_err());
    assert!(rustcrypto::Aes256Gcm::new_from_slice(&[0u8; 16]).is_err());
    assert!(GHash::new_from_slice(&[0u8; 17]).is_err());
    assert!(Poly1305::new_from_slice(&[0u8; 16]).is_err());
}

fn vectors(name: &str) -> serde_json::Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors");
    let path = format!("{dir}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn hex(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

/// Generic code over any universal hash.
fn uhf_padded<U: UniversalHash + KeyInit>(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    let mut u = U::new_from_slice(key).unwrap();
    for p in parts {
        u.update_padded(p);
    }
    u.finalize().to_vec()
}

#[test]
fn ghash_universal_hash_gives_the_spec_values() {
    let doc = vectors("mcgrew_viega_gcm_spec.json");
    let mut n = 0;
    for t in doc["tests"].as_array().unwrap() {
        let im = &t["intermediates"];
        let (h, a, c) = (hex(&im["H"]), hex(&t["aad"]), hex(&t["ct"]));
        let mut lens = [0u8; 16];
        lens[..8].copy_from_slice(&(a.len() as u64 * 8).to_be_bytes());
        lens[8..].copy_from_slice(&(c.len() as u64 * 8).to_be_bytes());
        let got = uhf_padded::<GHash>(&h, &[&a, &c, &lens]);
        assert_eq!(got, hex(&im["GHASH(H,A,C)"]), "{}", t["id"]);
        n += 1;
    }
    assert_eq!(n, 18);
}

#[test]
fn ghash_blocks_in_any_grouping() {
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..50 {
        let h = bytes(&mut rng, 16);
        let data_len = rng.random_range(0..400);
        let data = bytes(&mut rng, data_len);
        let mut r = galois_aead::Ghash::new(&h.clone().try_into().unwrap());
        r.update_padded(&data);
        let want = r.finalize();
        let mut u = GHash::new_from_slice(&h).unwrap();
        let cut = (rng.random_range(0..=data.len()) / 16) * 16;
        u.update_padded(&data[..cut]);
        u.update_padded(&data[cut..]);
        assert_eq!(u.finalize().as_slice(), &want);
    }
}

#[test]
fn poly1305_universal_hash_gives_the_rfc8439_tags() {
    let doc = vectors("poly1305_onetime_rfc8439.json");
    let mut whole_blocks = 0;
    let mut n = 0;
    for t in doc["tests"].as_array().unwrap() {
        let (key, msg, tag) = (hex(&t["key"]), hex(&t["msg"]), hex(&t["tag"]));
        let p = Poly1305::new_from_slice(&key).unwrap();
        assert_eq!(p.compute_unpadded(&msg).as_slice(), &tag[..], "{}", t["id"]);
        if msg.len() % 16 == 0 {
            assert_eq!(uhf_padded::<Poly1305>(&key, &[&msg]), tag, "{}", t["id"]);
            whole_blocks += 1;
        }
        n += 1;
    }
    assert!(n >= 10);
    assert!(
        whole_blocks >= 1,
        "no whole-block case exercised the trait path"
    );
}
