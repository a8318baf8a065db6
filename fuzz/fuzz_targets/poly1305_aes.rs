//! Poly1305-AES and the one-time Poly1305 on every backend (portable, AVX2,
//! IFMA), in one call and in random pieces, against a big-integer
//! reference written here: h = sum c_i r^(q-i+1) mod 2^130 - 5 with c_i
//! the 16-byte chunk read little-endian plus 2^(8 len), tag = (h + pad)
//! mod 2^128 with pad = AES_k(n) (OpenSSL's AES) or s.
//!
//! Input: flags byte (bit 0: one-time Poly1305 instead of Poly1305-AES;
//! bit 1: clamp r, else an unclamped r must be refused; bits 2-7 all set (one input in 64):
//! the message is the rest repeated to 10..14 KiB, which reaches IFMA's
//! eight-lane path, and AVX2 from 1 KiB; the big-integer value is then
//! computed one time in 16, the portable backend standing in otherwise),
//! length byte pair (for the repeat), chunking seed (8
//! bytes), key (32), nonce (16), message (the rest).
#![no_main]

use galois_aead::poly1305::{is_clamped, Poly1305Backend, Poly1305, Poly1305Aes};
use galois_aead::Error;
use galois_fuzz::{check, check_eq, pieces, Reader, Rng};
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use openssl::symm::{Cipher, Crypter, Mode};

/// x mod 2^130 - 5, folding the bits above 130 (times 5) back in.
fn reduce(mut x: BigUint, mask: &BigUint, p: &BigUint) -> BigUint {
    while x.bits() > 130 {
        x = (&x & mask) + (&x >> 130u32) * 5u8;
    }
    if &x >= p {
        x -= p;
    }
    x
}

/// The polynomial of the paper, evaluated by Horner's rule.
fn poly_reference(r: &[u8; 16], msg: &[u8]) -> BigUint {
    let mask = (BigUint::from(1u8) << 130u32) - 1u8;
    let p = &mask - 4u8;
    let r = BigUint::from_bytes_le(r);
    let mut h = BigUint::default();
    let mut c = [0u8; 17];
    for chunk in msg.chunks(16) {
        c.fill(0);
        c[..chunk.len()].copy_from_slice(chunk);
        c[chunk.len()] = 1;
        h = reduce((h + BigUint::from_bytes_le(&c)) * &r, &mask, &p);
    }
    h
}

fn tag_reference(h: &BigUint, pad: &[u8; 16]) -> [u8; 16] {
    let t = (h + BigUint::from_bytes_le(pad)) % (BigUint::from(1u8) << 128u32);
    let mut out = [0u8; 16];
    let b = t.to_bytes_le();
    out[..b.len()].copy_from_slice(&b);
    out
}

fn h17(h: &BigUint) -> [u8; 17] {
    let mut out = [0u8; 17];
    let b = h.to_bytes_le();
    out[..b.len()].copy_from_slice(&b);
    out
}

/// AES-128_k(n) by OpenSSL.
fn aes_reference(k: &[u8], n: &[u8; 16]) -> [u8; 16] {
    let mut c = Crypter::new(Cipher::aes_128_ecb(), Mode::Encrypt, k, None).unwrap();
    c.pad(false);
    let mut out = [0u8; 32];
    let w = c.update(n, &mut out).unwrap();
    let w2 = c.finalize(&mut out[w..]).unwrap();
    assert_eq!(w + w2, 16);
    out[..16].try_into().unwrap()
}

/// The backends this CPU can run (every one whose features it has).
fn backends() -> &'static [Poly1305Backend] {
    static B: std::sync::OnceLock<Vec<Poly1305Backend>> = std::sync::OnceLock::new();
    B.get_or_init(Poly1305Backend::available)
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let flags = r.byte();
    let rep = r.u16() as usize;
    let mut rng = Rng::new(r.u64());
    let mut key = r.fixed::<32>();
    let nonce = r.fixed::<16>();
    let rest = r.rest();
    let long;
    let msg = if flags & 0xfc == 0xfc && !rest.is_empty() {
        let n = 10240 + rep % 4096;
        long = rest.iter().copied().cycle().take(n).collect::<Vec<u8>>();
        &long[..]
    } else {
        rest
    };
    let sizes = rng.chunks(msg.len());
    let parts = pieces(msg, &sizes);

    if flags & 1 == 1 {
        // One-time Poly1305 (RFC 8439): key r || s, r clamped by the MAC.
        let mut rr: [u8; 16] = key[..16].try_into().unwrap();
        galois_aead::poly1305::clamp_r(&mut rr);
        let h = if msg.len() < 10240 || rng.below(16) == 0 {
            poly_reference(&rr, msg)
        } else {
            let mut p = Poly1305::with_backend(&key, Poly1305Backend::Portable).unwrap();
            p.update(msg);
            BigUint::from_bytes_le(&p.poly_value())
        };
        let want = tag_reference(&h, key[16..].try_into().unwrap());
        for &b in backends() {
            let t = Poly1305::mac_with_backend(&key, msg, b).unwrap();
            check_eq!(t, want, "{b}: one-time tag");
            let mut st = Poly1305::with_backend(&key, b).unwrap();
            for p in &parts {
                st.update(p);
            }
            check_eq!(st.finalize(), want, "{b}: one-time tag in pieces");
            let mut st = Poly1305::with_backend(&key, b).unwrap();
            st.update(msg);
            check_eq!(st.poly_value(), h17(&h), "{b}: one-time polynomial");
            let mut bad = want;
            bad[rng.below(16)] ^= 1 << rng.below(8);
            let mut st = Poly1305::with_backend(&key, b).unwrap();
            st.update(msg);
            check_eq!(
                st.verify(&bad),
                Err(Error::AuthenticationFailed),
                "{b}: bad tag"
            );
        }
        return;
    }

    // Poly1305-AES: key k || r.
    if flags & 2 != 0 {
        galois_aead::poly1305::clamp(&mut key);
    }
    let rr: [u8; 16] = key[16..].try_into().unwrap();
    if !is_clamped(&rr) {
        for &b in backends() {
            check!(
                matches!(
                    Poly1305Aes::with_backend(&key, b),
                    Err(Error::InvalidKey { .. })
                ),
                "{b}: unclamped r accepted"
            );
        }
        return;
    }
    // The 10-14 KiB messages are checked against the big-integer value one
    // time in 16 (it costs more than everything else together), else
    // against the portable backend (checked against it on every other input).
    let h = if msg.len() < 10240 || rng.below(16) == 0 {
        poly_reference(&rr, msg)
    } else {
        let p = Poly1305Aes::with_backend(&key, Poly1305Backend::Portable).unwrap();
        BigUint::from_bytes_le(&p.poly_value(msg))
    };
    let want = tag_reference(&h, &aes_reference(&key[..16], &nonce));
    for &b in backends() {
        let mac = Poly1305Aes::with_backend(&key, b).unwrap();
        check_eq!(mac.backend(), b, "backend pinned");
        check_eq!(mac.authenticate(&nonce, msg).unwrap(), want, "{b}: tag");
        check_eq!(mac.poly_value(msg), h17(&h), "{b}: polynomial");
        let mut st = mac.stream(&nonce).unwrap();
        for p in &parts {
            st.update(p);
        }
        check_eq!(st.finalize(), want, "{b}: tag in pieces");
        check!(mac.verify(&nonce, msg, &want).is_ok(), "{b}: verify");
        let mut bad = want;
        bad[rng.below(16)] ^= 1 << rng.below(8);
        check_eq!(
            mac.verify(&nonce, msg, &bad),
            Err(Error::AuthenticationFailed),
            "{b}: bad tag"
        );
        let mut st = mac.stream(&nonce).unwrap();
        for p in &parts {
            st.update(p);
        }
        check_eq!(
            st.verify(&bad),
            Err(Error::AuthenticationFailed),
            "{b}: bad tag in pieces"
        );
        check!(
            mac.authenticate(&nonce[..15], msg).is_err(),
            "{b}: short nonce taken"
        );
    }
});
