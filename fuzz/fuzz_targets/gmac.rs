//! GMAC through one (GHASH, AES) backend pair per execution (first byte,
//! mod 20) against the bit-serial reference; GHASH fed in random pieces
//! against GHASH in one call; and, one execution in four, the incremental
//! GMAC under random replace/append/truncate edits against GMAC of the
//! edited message computed from scratch.
//!
//! Input: pair byte, key-size byte (mod 3), tag byte (4 + mod 13), flags
//! byte, chunking seed (8 bytes), key (32 bytes), IV (2-byte length mod
//! 257; empty must be refused), message (the rest).
#![no_main]

use galois_aead::mac::incremental::IncrementalGmac;
use galois_aead::{AesBackend, AesGcm, AesGmac, GhashBackend, Error, Ghash, Options};
use galois_fuzz::{aes_backends, check, check_eq, ghash_backends, mismatch, pieces, Reader, Rng};
use libfuzzer_sys::fuzz_target;

fn opts(tag_len: usize, b: GhashBackend, a: AesBackend) -> Options {
    if !b.is_available() || !a.is_available() {
        mismatch!("backend {b} / AES {} not available on this CPU", a.name());
    }
    Options::new()
        .permissive_tag_len(tag_len)
        .unwrap()
        .backend(b)
        .aes_backend(a)
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let pair = r.byte() as usize % (ghash_backends().len() * aes_backends().len());
    let (b, a) = (
        ghash_backends()[pair / aes_backends().len()],
        aes_backends()[pair % aes_backends().len()],
    );
    let key_len = [16, 24, 32][r.byte() as usize % 3];
    let tag_len = 4 + r.byte() as usize % 13;
    let flags = r.byte();
    let seed = r.u64();
    let key = r.fixed::<32>();
    let key = &key[..key_len];
    let iv = r.field(256);
    let msg = r.rest();
    let mut rng = Rng::new(seed);

    let reference =
        AesGmac::with_options(key, opts(tag_len, GhashBackend::Bitserial, AesBackend::Portable))
            .unwrap();
    let mac = AesGmac::with_options(key, opts(tag_len, b, a)).unwrap();
    let name = format!("{b}/{}", a.name());
    let want = match reference.authenticate(iv, msg) {
        Ok(t) => t,
        Err(e) => {
            check_eq!(e, Error::InvalidIvLength { got: 0 }, "reference refused");
            check!(mac.authenticate(iv, msg).is_err(), "{name}: empty IV taken");
            check!(
                mac.verify(iv, msg, &[0; 16][..tag_len]).is_err(),
                "{name}: empty IV"
            );
            return;
        }
    };
    let got = mac.authenticate(iv, msg).unwrap();
    check_eq!(got.as_bytes(), want.as_bytes(), "{name}: tag");
    check!(
        mac.verify(iv, msg, want.as_bytes()).is_ok(),
        "{name}: verify"
    );
    let mut bad = want.as_bytes().to_vec();
    bad[seed as usize % tag_len] ^= 1 << (flags >> 5);
    check_eq!(
        mac.verify(iv, msg, &bad),
        Err(Error::AuthenticationFailed),
        "{name}: tampered tag"
    );
    if !msg.is_empty() {
        let mut m = msg.to_vec();
        m[(seed >> 8) as usize % msg.len()] ^= 1 << (flags >> 5);
        check!(
            mac.verify(iv, &m, want.as_bytes()).is_err(),
            "{name}: tampered message"
        );
    }

    // GHASH in pieces (with pads) against GHASH in one call, under H = key[..16].
    let h: [u8; 16] = key[..16].try_into().unwrap();
    let sizes = rng.chunks(msg.len());
    let mut inc = Ghash::with_backend(&h, b).unwrap();
    let mut one = Ghash::with_backend(&h, GhashBackend::Bitserial).unwrap();
    for (k, p) in pieces(msg, &sizes).into_iter().enumerate() {
        if flags & 4 != 0 && k % 2 == 1 {
            inc.update_padded(p);
            one.update_padded(p);
        } else {
            inc.update(p);
            one.update(p);
        }
        if k % 3 == 0 {
            check_eq!(inc.state(), one.state(), "{b}: GHASH state after piece {k}");
        }
    }
    check_eq!(inc.finalize(), one.finalize(), "{b}: GHASH");

    // Incremental GMAC (16-byte tags) under edits.
    if flags & 3 != 0 {
        return;
    }
    let gcm = AesGcm::with_options(key, Options::new().backend(b).aes_backend(a)).unwrap();
    if gcm.h_is_zero() {
        return;
    }
    let full = AesGmac::with_options(key, Options::new().backend(GhashBackend::Bitserial)).unwrap();
    let split = rng.below(msg.len() + 1);
    let mut model = msg[..split].to_vec();
    let extra = &msg[split..];
    let mut g = IncrementalGmac::new(gcm, &model).unwrap();
    let steps = 1 + rng.below(6);
    for k in 0..steps {
        match rng.below(3) {
            0 if !model.is_empty() => {
                let off = rng.below(model.len());
                let n = rng.below(model.len() - off + 1).min(64);
                let src = if extra.is_empty() { msg } else { extra };
                let d: Vec<u8> = (0..n)
                    .map(|i| src[(off + i) % src.len()] ^ k as u8)
                    .collect();
                g.replace(off, &d).unwrap();
                model[off..off + n].copy_from_slice(&d);
            }
            1 => {
                let n = rng.below(extra.len() + 1);
                let d: Vec<u8> = extra[..n].iter().map(|x| x ^ k as u8).collect();
                g.append(&d).unwrap();
                model.extend_from_slice(&d);
            }
            _ => {
                let n = rng.below(model.len() + 1);
                g.truncate(n).unwrap();
                model.truncate(n);
            }
        }
        check_eq!(g.message(), model.as_slice(), "{name}: incremental message");
        let mut kiv = iv.to_vec();
        kiv.push(k as u8);
        let want = full.authenticate(&kiv, &model).unwrap();
        check!(
            g.verify(&kiv, want.as_bytes()).is_ok(),
            "{name}: incremental verify"
        );
        let t = g.tag(&kiv).unwrap();
        check_eq!(t.as_bytes(), want.as_bytes(), "{name}: incremental tag");
        check_eq!(g.tag(&kiv), Err(Error::IvReused), "{name}: IV reuse");
    }
    // Replacing past the end is refused, the message unchanged.
    check!(
        g.replace(model.len(), b"x").is_err(),
        "{name}: replace past the end"
    );
    check!(
        g.truncate(model.len() + 1).is_err(),
        "{name}: truncate past the end"
    );
    check_eq!(
        g.message(),
        model.as_slice(),
        "{name}: message after refusals"
    );
});
