//! The on-line GCM API (Encryptor, Decryptor, UnverifiedDecryptor) and the
//! segmented stream API (in memory and through Read/Write with short
//! reads) under random chunkings: the output equals the one-shot output.
//! The Read/Write stream functions start a thread per batch, so they run
//! in one execution in 1024 (chosen by the chunking seed): a thread start
//! costs milliseconds on a loaded core, the rest of an execution microseconds.
//!
//! Input: pair byte (GHASH backend x AES backend, mod 20), key-size byte
//! (mod 3), segment-size bytes (2: 16 + mod 497), chunking seed (8 bytes),
//! key (32), salt (15), nonce prefix (7), IV (2-byte length mod 65; empty
//! must be refused), AAD (2-byte length mod 1025), plaintext (the rest).
#![no_main]

use galois_aead::stream;
use galois_aead::{AesGcm, Error, Options};
use galois_fuzz::{aes_backends, check, check_eq, ghash_backends, mismatch, pieces, Reader, Rng};
use libfuzzer_sys::fuzz_target;
use std::io::Read;

/// Hands out its bytes in pieces of random sizes (at least one byte).
struct ShortReads<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        let n = (1 + self.rng.below(97)).min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let pair = r.byte() as usize % (ghash_backends().len() * aes_backends().len());
    let (b, a) = (
        ghash_backends()[pair / aes_backends().len()],
        aes_backends()[pair % aes_backends().len()],
    );
    let key_len = [16, 24, 32][r.byte() as usize % 3];
    let seg = 16 + r.u16() as usize % 497;
    let mut rng = Rng::new(r.u64());
    let key = r.fixed::<32>();
    let key = &key[..key_len];
    let salt = r.fixed::<15>();
    let prefix = r.fixed::<7>();
    let iv = r.field(64);
    let aad = r.field(1024);
    let pt = r.rest();
    if !b.is_available() || !a.is_available() {
        mismatch!("backend {b} / AES {} not available on this CPU", a.name());
    }
    let name = format!("{b}/{}", a.name());

    // On-line GCM against one-shot GCM on the same key.
    let g = AesGcm::with_options(key, Options::new().backend(b).aes_backend(a)).unwrap();
    if iv.is_empty() {
        check!(g.encryptor(iv).is_err(), "{name}: empty IV taken");
        check!(g.decryptor(iv).is_err(), "{name}: empty IV taken");
        check!(
            g.unverified_decryptor(iv).is_err(),
            "{name}: empty IV taken"
        );
    } else {
        let sealed = g.seal(iv, aad, pt).unwrap();
        let (ct, tag) = sealed.split_at(pt.len());
        let aad_parts = pieces(aad, &rng.chunks(aad.len()));
        let pt_parts = pieces(pt, &rng.chunks(pt.len()));
        let ct_parts = pieces(ct, &rng.chunks(ct.len()));

        let mut e = g.encryptor(iv).unwrap();
        for p in &aad_parts {
            e.aad(p).unwrap();
        }
        let mut out = Vec::with_capacity(pt.len());
        for p in &pt_parts {
            let mut buf = p.to_vec();
            e.encrypt(&mut buf).unwrap();
            out.extend_from_slice(&buf);
        }
        if !pt.is_empty() {
            check!(e.aad(b"late").is_err(), "{name}: AAD after text taken");
        }
        check_eq!(out.as_slice(), ct, "{name}: on-line ciphertext");
        check_eq!(e.finish().as_bytes(), tag, "{name}: on-line tag");

        let mut bad = tag.to_vec();
        bad[rng.below(16)] ^= 1 << rng.below(8);
        for t in [tag, &bad[..]] {
            let mut d = g.decryptor(iv).unwrap();
            for p in &aad_parts {
                d.aad(p).unwrap();
            }
            for p in &ct_parts {
                d.update(p).unwrap();
            }
            match d.finish(t) {
                Ok(p) if t == tag => check_eq!(p.as_slice(), pt, "{name}: on-line open"),
                Ok(_) => mismatch!("{name}: on-line open released with a bad tag"),
                Err(e) if t == tag => mismatch!("{name}: on-line open refused: {e:?}"),
                Err(e) => check_eq!(e, Error::AuthenticationFailed, "{name}: bad tag"),
            }
            let mut u = g.unverified_decryptor(iv).unwrap();
            for p in &aad_parts {
                u.aad(p).unwrap();
            }
            let mut back = Vec::with_capacity(pt.len());
            for p in &ct_parts {
                let mut buf = p.to_vec();
                u.decrypt_unverified(&mut buf).unwrap();
                back.extend_from_slice(&buf);
            }
            check_eq!(back.as_slice(), pt, "{name}: unverified decryption");
            check_eq!(u.finish(t).is_ok(), t == tag, "{name}: unverified finish");
        }
    }

    // Streams: in memory, and through readers that return short pieces.
    let s1 = stream::seal_with_salt_for_tests(key, seg, salt, prefix, pt).unwrap();
    check_eq!(
        stream::open(key, &s1).unwrap().as_slice(),
        pt,
        "stream open"
    );
    if rng.below(1024) != 0 {
        return;
    }
    let mut out = Vec::new();
    let n = stream::open_stream(
        key,
        &mut ShortReads {
            data: &s1,
            rng: Rng::new(rng.next()),
        },
        &mut out,
    )
    .unwrap();
    check_eq!(n as usize, pt.len(), "open_stream count");
    check_eq!(out.as_slice(), pt, "open_stream");

    let mut s2 = Vec::new();
    let mut src = ShortReads {
        data: pt,
        rng: Rng::new(rng.next()),
    };
    let n = stream::seal_stream_with_aad(key, aad, seg, &mut src, &mut s2).unwrap();
    check_eq!(n as usize, pt.len(), "seal_stream count");
    check_eq!(s2.len(), s1.len(), "seal_stream length");
    let mut out = Vec::new();
    let mut src = ShortReads {
        data: &s2,
        rng: Rng::new(rng.next()),
    };
    stream::open_stream_with_aad(key, aad, &mut src, &mut out).unwrap();
    check_eq!(out.as_slice(), pt, "seal_stream then open_stream");
    // (Opening with the wrong AAD is left to stream_open_arbitrary: a failed
    // segment starts the opener's search for where it belongs.)
    if aad.is_empty() {
        check_eq!(
            stream::open(key, &s2).unwrap().as_slice(),
            pt,
            "seal_stream then open"
        );
    }
});
