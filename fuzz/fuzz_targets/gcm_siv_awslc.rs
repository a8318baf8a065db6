//! AES-GCM-SIV (RFC 8452) on one (POLYVAL backend, AES backend) pair per
//! execution, out of every pair this CPU can run, against aws-lc-rs
//! (`AES_128_GCM_SIV` / `AES_256_GCM_SIV`); 24-byte keys (an extension
//! aws-lc-rs lacks) against the bit-serial / portable pair. Every seal and
//! open entry point in turn (`galois_fuzz::aead16`): the same sealed bytes,
//! genuine messages open, a one-bit tamper (ciphertext, tag, AAD or nonce)
//! refused with the output wiped, bad nonce lengths and inputs shorter
//! than a tag refused. Arbitrary inputs are also opened by both: the same
//! outcome, and the same plaintext on success.
//!
//! Input: pair byte, key-size byte (mod 3: 16/24/32), flags byte, tamper
//! position (2 bytes), key (32, the first 16/24/32 used), nonce (12), AAD
//! (2-byte length mod 1025), plaintext (the rest; with flags bit 2 also
//! opened as a sealed message).
#![no_main]

use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM_SIV, AES_256_GCM_SIV};
use galois_aead::{AesBackend, AesGcmSiv, GhashBackend};
use galois_fuzz::aead16::exercise;
use galois_fuzz::{backend_pair, check_eq, mismatch, Reader};
use libfuzzer_sys::fuzz_target;

fn aws(key: &[u8]) -> Option<LessSafeKey> {
    let alg = match key.len() {
        16 => &AES_128_GCM_SIV,
        32 => &AES_256_GCM_SIV,
        _ => return None,
    };
    Some(LessSafeKey::new(
        UnboundKey::new(alg, key).expect("aws-lc-rs key"),
    ))
}

fn siv(key: &[u8], b: GhashBackend, a: AesBackend) -> AesGcmSiv {
    match AesGcmSiv::with_options(key, galois_aead::Options::new().backend(b).aes_backend(a)) {
        Ok(g) => g,
        Err(e) => mismatch!("setup {b}/{}: {e:?}", a.name()),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let (b, a) = backend_pair(r.byte());
    let key_len = [16, 24, 32][r.byte() as usize % 3];
    let flags = r.byte();
    let pos = r.u16() as usize;
    let key = r.fixed::<32>();
    let key = &key[..key_len];
    let nonce = r.fixed::<12>();
    let aad = r.field(1024);
    let pt = r.rest();

    let g = siv(key, b, a);
    let name = format!("{b}/{}", a.name());
    let theirs = aws(key);
    let want = match &theirs {
        Some(k) => {
            let mut buf = pt.to_vec();
            k.seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(aad),
                &mut buf,
            )
            .expect("aws-lc-rs seal");
            buf
        }
        None => match siv(key, GhashBackend::Bitserial, AesBackend::Portable).seal(&nonce, aad, pt) {
            Ok(s) => s,
            Err(e) => mismatch!("bitserial/portable seal refused: {e:?}"),
        },
    };
    exercise(&name, &g, &nonce, aad, pt, &want, flags, pos);

    // The plaintext as an untrusted sealed message.
    if flags & 4 != 0 {
        let ours = g.open(&nonce, aad, pt);
        let reference = match &theirs {
            Some(k) => {
                let mut buf = pt.to_vec();
                k.open_in_place(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(aad),
                    &mut buf,
                )
                .map(|p| p.to_vec())
                .ok()
            }
            None => siv(key, GhashBackend::Bitserial, AesBackend::Portable)
                .open(&nonce, aad, pt)
                .ok(),
        };
        check_eq!(ours.ok(), reference, "{name}: opening arbitrary bytes");
    }
});
