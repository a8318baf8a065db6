//! The on-line API (`Encryptor`, `Decryptor`, `UnverifiedDecryptor`, their
//! clones) against the one-shot seal and open, for every GHASH and AES
//! backend this CPU runs: every length 0..=600 under several chunkings
//! (whole-block runs long enough for the stitched kernel, and short ones
//! that are not, after and before partial blocks), and random chunkings of
//! 16 KiB.

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash, common::Family::Aes];
use common::*;
use galois_aead::{AesGcm, Error};
use rand::Rng;

/// Cut points from piece lengths (the last piece takes the rest).
fn pieces(len: usize, sizes: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut v = Vec::new();
    let mut at = 0;
    for &s in sizes {
        let end = (at + s).min(len);
        v.push(at..end);
        at = end;
    }
    v.push(at..len);
    v
}

/// Seals, opens (both decryptors) and clones mid-message along `cuts`,
/// each against the one-shot result `want`.
fn check(
    g: &AesGcm,
    iv: &[u8],
    aad: &[u8],
    pt: &[u8],
    cuts: &[std::ops::Range<usize>],
    want: &[u8],
    what: &str,
) {
    let n = pt.len();
    let mut e = g.encryptor(iv).unwrap();
    e.aad(aad).unwrap();
    let mut ct = pt.to_vec();
    let mut copy = None;
    for (i, c) in cuts.iter().enumerate() {
        if i == cuts.len() / 2 {
            copy = Some((e.clone(), c.start));
        }
        e.encrypt(&mut ct[c.clone()]).unwrap();
    }
    assert_eq!(
        [&ct[..], e.finish().as_bytes()].concat(),
        want,
        "seal {what}"
    );
    // The copy finishes in one piece.
    if let Some((mut f, at)) = copy {
        let mut rest = pt[at..].to_vec();
        f.encrypt(&mut rest).unwrap();
        assert_eq!(
            [&ct[..at], &rest, f.finish().as_bytes()].concat(),
            want,
            "clone {what}"
        );
    }

    let mut d = g.unverified_decryptor(iv).unwrap();
    d.aad(aad).unwrap();
    let mut out = want[..n].to_vec();
    for c in cuts {
        d.decrypt_unverified(&mut out[c.clone()]).unwrap();
    }
    assert_eq!(out, pt, "unverified {what}");
    let mut d2 = d.clone();
    d.finish(&want[n..]).unwrap();
    let mut bad = want[n..].to_vec();
    bad[0] ^= 1;
    assert_eq!(
        d2.clone().finish(&bad),
        Err(Error::AuthenticationFailed),
        "{what}"
    );
    if n > 0 {
        // More text after the copy: its tag no longer matches.
        d2.decrypt_unverified(&mut [0]).unwrap();
        assert_eq!(
            d2.finish(&want[n..]),
            Err(Error::AuthenticationFailed),
            "{what}"
        );
    }

    let mut d = g.decryptor(iv).unwrap();
    d.aad(aad).unwrap();
    for c in cuts {
        d.update(&want[c.clone()]).unwrap();
    }
    assert_eq!(
        d.clone().finish(&want[n..]).unwrap(),
        pt,
        "decryptor {what}"
    );
    assert_eq!(d.finish(&bad), Err(Error::AuthenticationFailed), "{what}");
}

#[test]
fn every_length_0_to_600_every_backend() {
    let mut r = rng(39);
    let key = bytes(&mut r, 16);
    let pt = bytes(&mut r, 600);
    let aads = [Vec::new(), bytes(&mut r, 13), bytes(&mut r, 32)];
    // A 96-bit IV (public counters) and a longer one (Y0 from GHASH).
    let ivs = [bytes(&mut r, 12), bytes(&mut r, 40)];
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        for (k, aad) in aads.iter().enumerate() {
            let iv = &ivs[k % 2];
            for n in 0..=600 {
                let pt = &pt[..n];
                let want = g.seal(iv, aad, pt).unwrap();
                let head = r.random_range(0..=n.min(40));
                let chunkings: [Vec<usize>; 5] = [
                    vec![],
                    vec![1],
                    vec![head, 16 * r.random_range(0..=12)],
                    vec![n / 3, n / 3],
                    vec![7, 130, 5, 250],
                ];
                for sizes in &chunkings {
                    let cuts = pieces(n, sizes);
                    check(
                        &g,
                        iv,
                        aad,
                        pt,
                        &cuts,
                        &want,
                        &format!("{opts:?} aad {} n {n} {sizes:?}", aad.len()),
                    );
                }
            }
        }
    }
}

#[test]
fn random_chunkings_of_16_kib_every_backend() {
    let mut r = rng(38);
    each_key(&mut r, |r, key, iv| {
        let aad = bytes(r, 21);
        let pt = bytes(r, 16384);
        for opts in implementations() {
            let g = AesGcm::with_options(key, opts).unwrap();
            let want = g.seal(iv, &aad, &pt).unwrap();
            for _ in 0..40 {
                let mut sizes = Vec::new();
                let mut total = 0;
                while total < pt.len() {
                    let s = match r.random_range(0..4) {
                        0 => r.random_range(0..=17),
                        1 => r.random_range(18..=300),
                        2 => 16 * r.random_range(1..=200),
                        _ => r.random_range(300..=6000),
                    };
                    sizes.push(s);
                    total += s;
                }
                let cuts = pieces(pt.len(), &sizes);
                check(
                    &g,
                    iv,
                    &aad,
                    &pt,
                    &cuts,
                    &want,
                    &format!("{opts:?} {sizes:?}"),
                );
            }
        }
    });
}

#[test]
fn clone_for_continues_on_another_key_object() {
    let mut r = rng(40);
    let key = bytes(&mut r, 24);
    let pt = bytes(&mut r, 5000);
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        // The copy's key object takes the automatic backends.
        let other = AesGcm::new(&key).unwrap();
        let want = g.seal(&[3; 12], b"hdr", &pt).unwrap();
        for at in [0, 1, 16, 100, 4096, 4999] {
            let mut e = g.encryptor(&[3; 12]).unwrap();
            e.aad(b"hdr").unwrap();
            let mut ct = pt.clone();
            e.encrypt(&mut ct[..at]).unwrap();
            let mut f = e.clone_for(&other).unwrap();
            f.encrypt(&mut ct[at..]).unwrap();
            assert_eq!(
                [&ct[..], f.finish().as_bytes()].concat(),
                want,
                "{opts:?} {at}"
            );

            let mut d = g.unverified_decryptor(&[3; 12]).unwrap();
            d.aad(b"hdr").unwrap();
            let mut out = want[..5000].to_vec();
            d.decrypt_unverified(&mut out[..at]).unwrap();
            let mut d2 = d.clone_for(&other).unwrap();
            d2.decrypt_unverified(&mut out[at..]).unwrap();
            d2.finish(&want[5000..]).unwrap();
            assert_eq!(out, pt);
        }
        let wrong = AesGcm::new(&bytes(&mut r, 24)).unwrap();
        let short =
            AesGcm::with_options(&key, galois_aead::Options::new().tag_len(12).unwrap()).unwrap();
        let e = g.encryptor(&[3; 12]).unwrap();
        assert!(matches!(e.clone_for(&wrong), Err(Error::InvalidKey { .. })));
        assert!(matches!(e.clone_for(&short), Err(Error::InvalidKey { .. })));
    }
}

/// A long IV whose Y0 (from GHASH) has its low 32 bits within 2^16 of the
/// wrap: the on-line forms count modulo 2^32 across it, inside and outside
/// the stitched kernel, as the one-shot seal does.
#[test]
fn counter_wraps_modulo_2_32_like_one_shot() {
    let mut r = rng(41);
    let key = bytes(&mut r, 16);
    let probe = AesGcm::new(&key).unwrap();
    let (iv, low) = (0u64..)
        .map(|i| {
            let iv = [&i.to_le_bytes()[..], &[0xa5; 8]].concat();
            let y0 = probe.intermediates(&iv, b"", b"").unwrap().y0;
            (iv, u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]))
        })
        .find(|&(_, low)| low >= u32::MAX - 0xffff)
        .unwrap();
    // Enough blocks to cross the wrap.
    let len = 16 * (u32::MAX - low) as usize + 5000;
    let pt = bytes(&mut r, len);
    let at = 16 * (u32::MAX - low) as usize - 100;
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        let want = g.seal(&iv, b"a", &pt).unwrap();
        // Pieces ending just before the wrap, across it, and after it.
        for sizes in [vec![at, 99, 3, 1000], vec![at + 37, 4096], vec![]] {
            let cuts = pieces(len, &sizes);
            check(
                &g,
                &iv,
                b"a",
                &pt,
                &cuts,
                &want,
                &format!("{opts:?} low {low:x} {sizes:?}"),
            );
        }
    }
}
