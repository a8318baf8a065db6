//! On-line GCM equals one-shot GCM for every split (property test), and
//! the safe decryptor releases nothing unverified.

use galois_aead::{AesGcm, Error, Options};
use proptest::prelude::*;

/// Splits `data` at the given cut points (taken modulo len + 1, sorted).
fn split<'a>(data: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut c: Vec<usize> = cuts.iter().map(|&x| x % (data.len() + 1)).collect();
    c.sort_unstable();
    let mut out = Vec::new();
    let mut prev = 0;
    for x in c {
        out.push(&data[prev..x]);
        prev = x;
    }
    out.push(&data[prev..]);
    out
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), 32)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn every_split_equals_one_shot(
        key in key_strategy(),
        iv in proptest::collection::vec(any::<u8>(), 1..40),
        aad in proptest::collection::vec(any::<u8>(), 0..100),
        pt in proptest::collection::vec(any::<u8>(), 0..300),
        acuts in proptest::collection::vec(any::<usize>(), 0..6),
        pcuts in proptest::collection::vec(any::<usize>(), 0..10),
        dcuts in proptest::collection::vec(any::<usize>(), 0..10),
        flip in any::<prop::sample::Index>(),
    ) {
        let g = AesGcm::new(&key).unwrap();
        let one = g.seal(&iv, &aad, &pt).unwrap();
        let (want_ct, want_tag) = one.split_at(pt.len());

        let mut e = g.encryptor(&iv).unwrap();
        for piece in split(&aad, &acuts) {
            e.aad(piece).unwrap();
        }
        let mut ct = Vec::new();
        for piece in split(&pt, &pcuts) {
            let mut b = piece.to_vec();
            e.encrypt(&mut b).unwrap();
            ct.extend_from_slice(&b);
        }
        let tag = e.finish();
        prop_assert_eq!(&ct[..], want_ct);
        prop_assert_eq!(tag.as_bytes(), want_tag);

        // Safe decryptor, another split.
        let mut d = g.decryptor(&iv).unwrap();
        for piece in split(&aad, &dcuts) {
            d.aad(piece).unwrap();
        }
        for piece in split(&ct, &pcuts) {
            d.update(piece).unwrap();
        }
        prop_assert_eq!(d.finish(want_tag).unwrap(), pt.clone());

        // Unverified decryptor.
        let mut u = g.unverified_decryptor(&iv).unwrap();
        u.aad(&aad).unwrap();
        let mut out = Vec::new();
        for piece in split(&ct, &dcuts) {
            let mut b = piece.to_vec();
            u.decrypt_unverified(&mut b).unwrap();
            out.extend_from_slice(&b);
        }
        prop_assert_eq!(&out, &pt);
        prop_assert!(u.finish(want_tag).is_ok());

        // Any flipped bit: the safe form refuses and releases nothing.
        let mut bad = one.clone();
        let i = flip.index(bad.len());
        bad[i] ^= 0x80;
        let (bc, bt) = bad.split_at(pt.len());
        let mut d = g.decryptor(&iv).unwrap();
        d.aad(&aad).unwrap();
        d.update(bc).unwrap();
        prop_assert_eq!(d.finish(bt), Err(Error::AuthenticationFailed));
        let mut u = g.unverified_decryptor(&iv).unwrap();
        u.aad(&aad).unwrap();
        let mut b = bc.to_vec();
        u.decrypt_unverified(&mut b).unwrap();
        prop_assert_eq!(u.finish(bt), Err(Error::AuthenticationFailed));
    }
}

#[test]
fn short_tags_and_order_rules() {
    let g = AesGcm::with_options(&[5u8; 16], Options::new().tag_len(12).unwrap()).unwrap();
    let one = g.seal(&[1; 12], b"a", b"hello world").unwrap();
    let mut e = g.encryptor(&[1; 12]).unwrap();
    e.aad(b"a").unwrap();
    let mut b = b"hello world".to_vec();
    e.encrypt(&mut b[..3]).unwrap();
    e.encrypt(&mut b[3..]).unwrap();
    // AAD after text is refused.
    assert!(matches!(e.aad(b"late"), Err(Error::LimitReached { .. })));
    let t = e.finish();
    assert_eq!(t.as_bytes().len(), 12);
    assert_eq!([&b[..], t.as_bytes()].concat(), one);
    // A 12-byte-tag key refuses a 13-byte IV, as one-shot does.
    assert!(g.encryptor(&[1; 13]).is_err());
    let mut d = g.decryptor(&[1; 12]).unwrap();
    d.update(&one[..11]).unwrap();
    assert_eq!(
        d.finish(&one[11..22]),
        Err(Error::InvalidTagLength { got: 11 })
    );
    assert!(g.encryptor(&[]).is_err());
}

/// Exhaustive over small sizes: every single cut of the AAD and every pair
/// of cuts of the text give the one-shot result.
#[test]
fn every_cut_exhaustively() {
    let g = AesGcm::new(&[0x3c; 16]).unwrap();
    let aad: Vec<u8> = (0..20u8).collect();
    let pt: Vec<u8> = (100..141u8).collect();
    let iv = [9u8; 12];
    for plen in [0usize, 1, 15, 16, 17, 33, 41] {
        let pt = &pt[..plen];
        let one = g.seal(&iv, &aad, pt).unwrap();
        for a in 0..=aad.len() {
            for c1 in 0..=plen {
                for c2 in c1..=plen {
                    let mut e = g.encryptor(&iv).unwrap();
                    e.aad(&aad[..a]).unwrap();
                    e.aad(&aad[a..]).unwrap();
                    let mut b = pt.to_vec();
                    let (x, rest) = b.split_at_mut(c1);
                    let (y, z) = rest.split_at_mut(c2 - c1);
                    e.encrypt(x).unwrap();
                    e.encrypt(y).unwrap();
                    e.encrypt(z).unwrap();
                    let t = e.finish();
                    assert_eq!([&b[..], t.as_bytes()].concat(), one, "{a} {c1} {c2}");
                }
            }
            // Decrypt with the AAD cut at a and the ciphertext at a too.
            let mut d = g.decryptor(&iv).unwrap();
            d.aad(&aad[..a]).unwrap();
            d.aad(&aad[a..]).unwrap();
            let c = a.min(plen);
            d.update(&one[..c]).unwrap();
            d.update(&one[c..plen]).unwrap();
            assert_eq!(d.finish(&one[plen..]).unwrap(), pt);
        }
    }
}
