//! AES-GCM (automatic backends) against OpenSSL's EVP AES-GCM: the same
//! ciphertext and tag, each side opens what the other sealed, and both
//! refuse a tampered message.
//!
//! Input: key-size byte (mod 3), tag byte (4 + mod 13), flags byte, tamper
//! position (2 bytes), key (32 bytes, the first 16/24/32 used), IV (2-byte
//! length: 1 + mod 128, the lengths OpenSSL 3 accepts), AAD (2-byte length
//! mod 4097), plaintext (the rest).
#![no_main]

use galois_aead::{AesGcm, Error, Options};
use galois_fuzz::{check, check_eq, mismatch, tamper, Reader};
use libfuzzer_sys::fuzz_target;
use openssl::symm::{decrypt_aead, encrypt_aead, Cipher};

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let key_len = [16, 24, 32][r.byte() as usize % 3];
    let tag_len = 4 + r.byte() as usize % 13;
    let flags = r.byte();
    let pos = r.u16() as usize;
    let key = r.fixed::<32>();
    let key = &key[..key_len];
    let iv_len = 1 + r.u16() as usize % 128;
    let iv = r.fixed::<128>();
    let iv = &iv[..iv_len];
    let aad = r.field(4096);
    let pt = r.rest();

    let cipher = match key_len {
        16 => Cipher::aes_128_gcm(),
        24 => Cipher::aes_192_gcm(),
        _ => Cipher::aes_256_gcm(),
    };
    let mut ossl_tag = vec![0u8; tag_len];
    let ossl_ct = match encrypt_aead(cipher, key, Some(iv), aad, pt, &mut ossl_tag) {
        Ok(c) => c,
        Err(e) => mismatch!("OpenSSL refused to seal: {e}"),
    };
    let opts = Options::new().permissive_tag_len(tag_len).unwrap();
    let g = AesGcm::with_options(key, opts).unwrap();
    let sealed = g.seal(iv, aad, pt).unwrap();
    let (ct, tag) = sealed.split_at(pt.len());
    check_eq!(ct, ossl_ct.as_slice(), "ciphertext ({})", g.backend());
    check_eq!(tag, ossl_tag.as_slice(), "tag ({})", g.backend());

    // Each opens the other's output.
    match decrypt_aead(cipher, key, Some(iv), aad, ct, tag) {
        Ok(p) => check_eq!(p.as_slice(), pt, "OpenSSL open"),
        Err(e) => mismatch!("OpenSSL refused our message: {e}"),
    }
    let mut theirs = ossl_ct.clone();
    theirs.extend_from_slice(&ossl_tag);
    match g.open(iv, aad, &theirs) {
        Ok(p) => check_eq!(p.as_slice(), pt, "galois open"),
        Err(e) => mismatch!("galois refused OpenSSL's message: {e:?}"),
    }

    // One flipped bit: both refuse.
    let (t_iv, t_aad, t_sealed) = tamper(iv, aad, &sealed, tag_len, flags, pos);
    let (t_ct, t_tag) = t_sealed.split_at(pt.len());
    check!(
        decrypt_aead(cipher, key, Some(&t_iv), &t_aad, t_ct, t_tag).is_err(),
        "OpenSSL accepted a tampered message"
    );
    let mut out = vec![0x5au8; pt.len()];
    let res = g.open_into(&t_iv, &t_aad, &t_sealed, &mut out);
    check_eq!(res, Err(Error::AuthenticationFailed), "tampered open");
    check!(out.iter().all(|&x| x == 0), "output not wiped");
});
