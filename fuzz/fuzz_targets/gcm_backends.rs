//! AES-GCM through every GHASH backend (stitched kernels included) and
//! both AES backends, against the bit-serial reference with portable AES.
//! Each execution checks one (GHASH backend, AES backend) pair, picked by
//! the first byte (mod the number of pairs of backends this CPU can run: all
//! of them over a run), so an execution costs one key setup and
//! not twenty; an empty IV is checked on every pair at once.
//!
//! Input: pair byte, key-size byte (mod 3: 16/24/32), tag byte (4 + mod 13), flags
//! byte, tamper position (2 bytes), key, IV (2-byte length mod 257, so an
//! empty IV is tried too and must be refused), AAD (2-byte length mod
//! 4097), plaintext (the rest).
#![no_main]

use galois_aead::{AesBackend, AesGcm, GhashBackend, BatchPacket, Error, Options};
use galois_fuzz::{aes_backends, check, check_eq, ghash_backends, mismatch, tamper, Reader, Rng};
use libfuzzer_sys::fuzz_target;

fn gcm(key: &[u8], tag_len: usize, b: GhashBackend, a: AesBackend) -> AesGcm {
    // Pairs are drawn from the backends this CPU can run.
    if !b.is_available() || !a.is_available() {
        mismatch!("backend {b} / AES {} not available on this CPU", a.name());
    }
    let opts = Options::new()
        .permissive_tag_len(tag_len)
        .unwrap()
        .backend(b)
        .aes_backend(a);
    match AesGcm::with_options(key, opts) {
        Ok(g) => g,
        Err(e) => mismatch!("setup {b}/{}: {e:?}", a.name()),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let pair = r.byte() as usize % (ghash_backends().len() * aes_backends().len());
    let key_len = [16, 24, 32][r.byte() as usize % 3];
    let tag_len = 4 + r.byte() as usize % 13;
    let flags = r.byte();
    let pos = r.u16() as usize;
    let key = r.fixed::<32>();
    let key = &key[..key_len];
    let iv = r.field(256);
    let aad = r.field(4096);
    let pt = r.rest();

    let reference = gcm(key, tag_len, GhashBackend::Bitserial, AesBackend::Portable);
    let sealed = match reference.seal(iv, aad, pt) {
        Ok(s) => s,
        Err(e) => {
            check_eq!(e, Error::InvalidIvLength { got: 0 }, "reference refused");
            for &b in ghash_backends() {
                for &a in aes_backends() {
                    let g = gcm(key, tag_len, b, a);
                    check!(g.seal(iv, aad, pt).is_err(), "{b}: sealed with an empty IV");
                    let mut buf = vec![0x55u8; pt.len()];
                    let res = g.open_in_place_detached(iv, aad, &mut buf, &[0u8; 16][..tag_len]);
                    check!(res.is_err(), "{b}: opened with an empty IV");
                    check!(buf.iter().all(|&x| x == 0), "{b}: buffer not wiped");
                }
            }
            return;
        }
    };
    let (ct, tag) = sealed.split_at(pt.len());

    // A tampered copy: flip one bit of the ciphertext, tag, AAD or IV.
    let (t_iv, t_aad, t_sealed) = tamper(iv, aad, &sealed, tag_len, flags, pos);

    // Batches (12-byte nonces): the plaintext cut into packets.
    let batch_sizes = if iv.len() == 12 {
        let mut rng = Rng::new(pos as u64 ^ ((flags as u64) << 16) ^ ((pt.len() as u64) << 24));
        let mut s = rng.chunks(pt.len());
        s.truncate(12);
        let used: usize = s.iter().sum();
        if used < pt.len() {
            s.push(pt.len() - used);
        }
        s
    } else {
        Vec::new()
    };
    let nonce_of = |k: usize| {
        let mut n: [u8; 12] = iv.try_into().unwrap();
        n[11] ^= k as u8;
        n[10] ^= 0x80;
        n
    };
    let batch_ref: Vec<Vec<u8>> = {
        let mut at = 0;
        batch_sizes
            .iter()
            .enumerate()
            .map(|(k, &n)| {
                let s = reference.seal(&nonce_of(k), aad, &pt[at..at + n]).unwrap();
                at += n;
                s
            })
            .collect()
    };

    {
        {
            let (i, j) = (pair / aes_backends().len(), pair % aes_backends().len());
            let (b, a) = (ghash_backends()[i], aes_backends()[j]);
            let g = gcm(key, tag_len, b, a);
            let name = format!("{b}/{}", a.name());
            // Seal, through one of the entry points.
            if (i + j + flags as usize / 4) % 2 == 0 {
                check_eq!(g.seal(iv, aad, pt).unwrap(), sealed, "{name}: seal");
            } else {
                let mut buf = pt.to_vec();
                let t = g.seal_in_place_detached(iv, aad, &mut buf).unwrap();
                check_eq!(buf.as_slice(), ct, "{name}: ciphertext");
                check_eq!(t.as_bytes(), tag, "{name}: tag");
            }
            // Open round-trips.
            match g.open(iv, aad, &sealed) {
                Ok(p) => check_eq!(p.as_slice(), pt, "{name}: open"),
                Err(e) => mismatch!("{name}: open refused a genuine message: {e:?}"),
            }
            // Tampered: refused, output wiped.
            let mut out = vec![0xa5u8; pt.len()];
            let res = g.open_into(&t_iv, &t_aad, &t_sealed, &mut out);
            check_eq!(
                res,
                Err(Error::AuthenticationFailed),
                "{name}: tampered open"
            );
            check!(out.iter().all(|&x| x == 0), "{name}: output not wiped");
            let mut buf = t_sealed[..pt.len()].to_vec();
            let res = g.open_in_place_detached(&t_iv, &t_aad, &mut buf, &t_sealed[pt.len()..]);
            check!(res.is_err(), "{name}: tampered open in place");
            check!(buf.iter().all(|&x| x == 0), "{name}: buffer not wiped");
            // Batch sealing.
            if !batch_sizes.is_empty() {
                let mut bufs: Vec<Vec<u8>> = {
                    let mut at = 0;
                    batch_sizes
                        .iter()
                        .map(|&n| {
                            at += n;
                            pt[at - n..at].to_vec()
                        })
                        .collect()
                };
                let mut batch: Vec<BatchPacket<'_>> = bufs
                    .iter_mut()
                    .enumerate()
                    .map(|(k, d)| BatchPacket::new(nonce_of(k), aad, d))
                    .collect();
                g.seal_batch(&mut batch).unwrap();
                for (k, p) in batch.iter().enumerate() {
                    let want = &batch_ref[k];
                    let n = p.data().len();
                    check_eq!(p.data(), &want[..n], "{name}: batch packet {k} ciphertext");
                    let t = p.tag().unwrap();
                    check_eq!(t.as_bytes(), &want[n..], "{name}: batch packet {k} tag");
                }
            }
        }
    }
});
