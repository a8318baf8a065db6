//! Precomputed AAD prefixes, IV prefixes and keystreams give exactly what
//! the plain computation gives.

use galois_aead::gcm::precompute::{
    open_in_place, seal_in_place, AadPrefix, IvInput, IvPrefix, Keystream,
};
use galois_aead::{AesGcm, Error, Options};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn aad_and_iv_prefixes_equal_plain(
        key in proptest::collection::vec(any::<u8>(), 16),
        iv in proptest::collection::vec(any::<u8>(), 1..40),
        ivcut in any::<prop::sample::Index>(),
        aad in proptest::collection::vec(any::<u8>(), 0..90),
        acut in any::<prop::sample::Index>(),
        pt in proptest::collection::vec(any::<u8>(), 0..100),
    ) {
        let g = AesGcm::new(&key).unwrap();
        let mut plain = pt.clone();
        let want = g.seal_in_place_detached(&iv, &aad, &mut plain).unwrap();

        let a = acut.index(aad.len() + 1);
        let i = ivcut.index(iv.len() + 1);
        let ap = AadPrefix::new(&g, &aad[..a]).unwrap();
        let ip = IvPrefix::new(&g, &iv[..i]).unwrap();
        for (ivin, pre) in [
            (IvInput::Full(&iv), Some(&ap)),
            (IvInput::Prefixed(&ip, &iv[i..]), Some(&ap)),
            (IvInput::Prefixed(&ip, &iv[i..]), None),
        ] {
            let rest = if pre.is_some() { &aad[a..] } else { &aad[..] };
            let mut b = pt.clone();
            let t = seal_in_place(&g, ivin, pre, rest, &mut b).unwrap();
            prop_assert_eq!(&b, &plain);
            prop_assert_eq!(t, want);
            open_in_place(&g, ivin, pre, rest, &mut b, want.as_bytes()).unwrap();
            prop_assert_eq!(&b, &pt);
        }
        // The saved state is reusable: a second message with another tail.
        let mut aad2 = aad[..a].to_vec();
        aad2.extend_from_slice(b"other tail");
        let mut x = pt.clone();
        let mut y = pt.clone();
        let t1 = g.seal_in_place_detached(&iv, &aad2, &mut x).unwrap();
        let t2 = seal_in_place(&g, IvInput::Full(&iv), Some(&ap), b"other tail", &mut y).unwrap();
        prop_assert_eq!((x, t1), (y, t2));
    }

    #[test]
    fn keystream_equals_plain(
        key in proptest::collection::vec(any::<u8>(), 32),
        iv in proptest::collection::vec(any::<u8>(), 1..30),
        aad in proptest::collection::vec(any::<u8>(), 0..50),
        pt in proptest::collection::vec(any::<u8>(), 0..200),
        spare in 0usize..40,
    ) {
        let g = AesGcm::new(&key).unwrap();
        let mut plain = pt.clone();
        let want = g.seal_in_place_detached(&iv, &aad, &mut plain).unwrap();
        let ks = Keystream::new(&g, &iv, pt.len() + spare).unwrap();
        let mut b = pt.clone();
        let t = ks.seal_in_place(&aad, &mut b).unwrap();
        prop_assert_eq!(&b, &plain);
        prop_assert_eq!(t, want);
        let ks = Keystream::new(&g, &iv, pt.len() + spare).unwrap();
        ks.open_in_place(&aad, &mut b, want.as_bytes()).unwrap();
        prop_assert_eq!(&b, &pt);
    }
}

#[test]
fn misuse_is_refused() {
    let g = AesGcm::new(&[1u8; 16]).unwrap();
    let other = AesGcm::new(&[2u8; 16]).unwrap();
    let ap = AadPrefix::new(&g, b"fixed header").unwrap();
    let ip = IvPrefix::new(&g, b"fixed iv part").unwrap();
    let mut b = b"data".to_vec();
    assert!(matches!(
        seal_in_place(&other, IvInput::Full(&[0; 12]), Some(&ap), b"", &mut b),
        Err(Error::InvalidKey { .. })
    ));
    assert!(matches!(
        seal_in_place(&other, IvInput::Prefixed(&ip, b"x"), None, b"", &mut b),
        Err(Error::InvalidKey { .. })
    ));
    // Keystream too short for the data.
    let ks = Keystream::new(&g, &[3; 12], 3).unwrap();
    assert_eq!(
        ks.seal_in_place(b"", &mut b),
        Err(Error::BufferLength {
            expected: 3,
            got: 4
        })
    );
    // Tampering: wiped, refused.
    let mut c = b"data".to_vec();
    let t = seal_in_place(&g, IvInput::Full(&[0; 12]), Some(&ap), b"", &mut c).unwrap();
    c[0] ^= 1;
    assert_eq!(
        open_in_place(
            &g,
            IvInput::Full(&[0; 12]),
            Some(&ap),
            b"",
            &mut c,
            t.as_bytes()
        ),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(c, [0u8; 4]);
    // Short-tag keys keep their 12-byte IV rule with prefixes too.
    let s = AesGcm::with_options(&[1u8; 16], Options::new().tag_len(12).unwrap()).unwrap();
    let ip = IvPrefix::new(&s, b"1234").unwrap();
    let mut d = b"x".to_vec();
    assert!(seal_in_place(&s, IvInput::Prefixed(&ip, b"12345678"), None, b"", &mut d).is_ok());
    assert!(matches!(
        seal_in_place(&s, IvInput::Prefixed(&ip, b"123456789"), None, b"", &mut d),
        Err(Error::IvLengthNotAllowedWithShortTag { .. })
    ));
    let e = AesGcm::new(&[1u8; 16]).unwrap();
    let empty = IvPrefix::new(&e, b"").unwrap();
    assert!(matches!(
        seal_in_place(&e, IvInput::Prefixed(&empty, b""), None, b"", &mut d),
        Err(Error::InvalidIvLength { got: 0 })
    ));
}

/// Every prefix length of the AAD and of a long IV, exhaustively.
#[test]
fn every_prefix_length() {
    let g = AesGcm::new(&[0x77; 24]).unwrap();
    let aad: Vec<u8> = (0..50u8).collect();
    let iv: Vec<u8> = (200..240u8).collect();
    let pt = b"precomputed, block-aligned or not";
    for ivlen in [12usize, 1, 16, 40] {
        let iv = &iv[..ivlen];
        let mut want = pt.to_vec();
        let tag = g.seal_in_place_detached(iv, &aad, &mut want).unwrap();
        for cut in 0..=aad.len() {
            let ap = AadPrefix::new(&g, &aad[..cut]).unwrap();
            let icut = cut.min(ivlen);
            let ip = IvPrefix::new(&g, &iv[..icut]).unwrap();
            let mut b = pt.to_vec();
            let t = seal_in_place(
                &g,
                IvInput::Prefixed(&ip, &iv[icut..]),
                Some(&ap),
                &aad[cut..],
                &mut b,
            )
            .unwrap();
            assert_eq!((&b, t), (&want, tag), "aad cut {cut}, iv cut {icut}");
        }
    }
}
