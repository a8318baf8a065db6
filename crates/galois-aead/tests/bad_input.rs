//! Bad input gets its specific error, never a panic or a wrong answer.

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash];
use common::*;
use galois_aead::{AesGcm, AesGmac, BlockCipher128, Error, Gcm, GhashBackend, Options, ShortTag};

#[test]
fn wrong_key_sizes() {
    for n in [0, 1, 15, 17, 23, 25, 31, 33, 64] {
        common::refuses_key_len(n, AesGcm::new(&vec![0u8; n]));
        common::refuses_key_len(n, AesGmac::new(&vec![0u8; n]));
    }
}

#[test]
fn empty_iv_is_refused() {
    let g = AesGcm::new(&[0u8; 16]).unwrap();
    assert_eq!(
        g.seal(&[], b"", b"x").err(),
        Some(Error::InvalidIvLength { got: 0 })
    );
    let sealed = g.seal(&[1; 12], b"", b"x").unwrap();
    let mut out = [0xa5u8; 1];
    assert_eq!(
        g.open_into(&[], b"", &sealed, &mut out).err(),
        Some(Error::InvalidIvLength { got: 0 })
    );
    assert_eq!(out, [0], "nothing released");
    let p = galois_aead::Options::new()
        .permissive_tag_len(4)
        .and_then(|o| AesGcm::with_options(&[0u8; 16], o))
        .unwrap();
    assert_eq!(
        p.seal(&[], b"", b"").err(),
        Some(Error::InvalidIvLength { got: 0 })
    );
}

#[test]
fn tag_length_policy() {
    let key = [0u8; 16];
    for n in [0, 1, 3, 4, 5, 8, 11, 17, 32] {
        assert_eq!(
            galois_aead::Options::new()
                .tag_len(n)
                .and_then(|o| AesGcm::with_options(&key, o))
                .err(),
            Some(Error::InvalidTagLength { got: n }),
            "{n}"
        );
    }
    for n in 12..=16 {
        assert_eq!(
            galois_aead::Options::new()
                .tag_len(n)
                .and_then(|o| AesGcm::with_options(&key, o))
                .unwrap()
                .tag_len(),
            n
        );
    }
    for n in [0, 1, 3, 17] {
        assert_eq!(
            galois_aead::Options::new()
                .permissive_tag_len(n)
                .and_then(|o| AesGcm::with_options(&key, o))
                .err(),
            Some(Error::InvalidTagLength { got: n })
        );
    }
    assert_eq!(
        AesGcm::with_options(
            &key,
            galois_aead::Options::new().short_tag(ShortTag::Bytes8)
        )
        .unwrap()
        .tag_len(),
        8
    );
    assert_eq!(
        AesGcm::with_options(
            &key,
            galois_aead::Options::new().short_tag(ShortTag::Bytes4)
        )
        .unwrap()
        .tag_len(),
        4
    );
}

#[test]
fn short_tags_take_only_96_bit_ivs_unless_permissive() {
    let key = [3u8; 16];
    for g in [
        galois_aead::Options::new()
            .tag_len(12)
            .and_then(|o| AesGcm::with_options(&key, o))
            .unwrap(),
        AesGcm::with_options(
            &key,
            galois_aead::Options::new().short_tag(ShortTag::Bytes8),
        )
        .unwrap(),
        AesGcm::with_options(
            &key,
            galois_aead::Options::new().short_tag(ShortTag::Bytes4),
        )
        .unwrap(),
    ] {
        assert!(g.seal(&[1; 12], b"", b"hi").is_ok());
        for iv_len in [1, 8, 11, 13, 16, 128] {
            assert_eq!(
                g.seal(&vec![1; iv_len], b"", b"hi").err(),
                Some(Error::IvLengthNotAllowedWithShortTag {
                    iv_len,
                    tag_len: g.tag_len()
                })
            );
        }
    }
    let p = galois_aead::Options::new()
        .permissive_tag_len(4)
        .and_then(|o| AesGcm::with_options(&key, o))
        .unwrap();
    let s = p.seal(&[1], b"", b"hi").unwrap();
    assert_eq!(p.open(&[1], b"", &s).unwrap(), b"hi");
    // A 16-byte tag takes any IV length by default.
    assert!(AesGcm::new(&key).unwrap().seal(&[1; 1], b"", b"hi").is_ok());
}

#[test]
fn wrong_tag_length_on_open() {
    let g = AesGcm::new(&[0u8; 16]).unwrap();
    let mut buf = b"hello".to_vec();
    let tag = g.seal_in_place_detached(&[0; 12], b"", &mut buf).unwrap();
    let mut c = buf.clone();
    assert_eq!(
        g.open_in_place_detached(&[0; 12], b"", &mut c, &tag.as_bytes()[..12])
            .err(),
        Some(Error::InvalidTagLength { got: 12 })
    );
    assert_eq!(c, vec![0; 5], "wiped");
    assert_eq!(
        g.open(&[0; 12], b"", &[0u8; 15]).err(),
        Some(Error::CiphertextTooShort { len: 15, min: 16 })
    );
}

#[test]
fn output_buffer_sizes() {
    let g = AesGcm::new(&[0u8; 16]).unwrap();
    for got in [20, 2] {
        let mut out = vec![0u8; got];
        assert_eq!(
            g.seal_into(&[0; 12], b"", b"abc", &mut out).err(),
            Some(Error::BufferLength { expected: 19, got })
        );
    }
    let sealed = g.seal(&[0; 12], b"", b"abc").unwrap();
    let mut out = vec![7u8; 4];
    assert_eq!(
        g.open_into(&[0; 12], b"", &sealed, &mut out).err(),
        Some(Error::BufferLength {
            expected: 3,
            got: 4
        })
    );
    assert_eq!(out, vec![0; 4], "wiped");
}

#[test]
fn tampering_anywhere_fails_opaquely_and_wipes() {
    let mut r = rng(30);
    for b in ghash_backends() {
        let g = AesGcm::with_options(&bytes(&mut r, 16), Options::new().backend(b)).unwrap();
        let (iv, aad, pt) = (bytes(&mut r, 12), bytes(&mut r, 33), bytes(&mut r, 77));
        let sealed = g.seal(&iv, &aad, &pt).unwrap();
        let check = |iv: &[u8], aad: &[u8], input: &[u8]| {
            let mut out = vec![0xAAu8; input.len() - 16];
            assert_eq!(
                g.open_into(iv, aad, input, &mut out),
                Err(Error::AuthenticationFailed),
                "{b}"
            );
            assert!(out.iter().all(|&x| x == 0), "{b}: output not wiped");
            let (c, t) = input.split_at(input.len() - 16);
            let mut v = c.to_vec();
            assert_eq!(
                g.open_in_place_detached(iv, aad, &mut v, t),
                Err(Error::AuthenticationFailed)
            );
            assert!(v.iter().all(|&x| x == 0));
        };
        for bit in (0..sealed.len() * 8).step_by(7) {
            let mut t = sealed.clone();
            t[bit / 8] ^= 1 << (bit % 8);
            check(&iv, &aad, &t);
        }
        for bit in 0..aad.len() * 8 {
            let mut a = aad.clone();
            a[bit / 8] ^= 1 << (bit % 8);
            check(&iv, &a, &sealed);
        }
        for bit in 0..96 {
            let mut v = iv.clone();
            v[bit / 8] ^= 1 << (bit % 8);
            check(&v, &aad, &sealed);
        }
        // Truncated or extended AAD and ciphertext.
        check(&iv, &aad[..32], &sealed);
        check(&iv, &[aad.as_slice(), &[0]].concat(), &sealed);
        let mut shorter = sealed.clone();
        shorter.remove(0);
        check(&iv, &aad, &shorter);
    }
}

#[test]
fn gmac_verifies_and_rejects() {
    let m = AesGmac::new(&[9u8; 32]).unwrap();
    let t = m.authenticate(&[1; 12], b"message").unwrap();
    assert!(m.verify(&[1; 12], b"message", t.as_bytes()).is_ok());
    assert_eq!(
        m.verify(&[1; 12], b"messagf", t.as_bytes()),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(
        m.verify(&[2; 12], b"message", t.as_bytes()),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(
        m.verify(&[1; 12], b"message", &t.as_bytes()[..15]),
        Err(Error::InvalidTagLength { got: 15 })
    );
}

#[test]
fn pinning_an_unknown_backend_is_an_error() {
    assert_eq!(GhashBackend::from_name("nope"), Err(Error::UnknownBackend));
    for b in GhashBackend::ALL {
        assert_eq!(GhashBackend::from_name(b.name()), Ok(*b));
    }
}

/// A "cipher" with E(K, 0) = 0: the identity.
struct Identity;
impl BlockCipher128 for Identity {
    fn encrypt_block(&self, _block: &mut [u8; 16]) {}
}

#[test]
fn h_zero_is_reported() {
    let g = Gcm::from_cipher(Identity, Options::new()).unwrap();
    assert!(g.h_is_zero());
    assert_eq!(
        Gcm::from_cipher(Identity, Options::new().refuse_zero_h()).err(),
        Some(Error::InvalidKey {
            reason: "the hash key H = E(K, 0) is zero"
        })
    );
    assert!(!AesGcm::new(&[0u8; 16]).unwrap().h_is_zero());
}

#[test]
fn length_limits_are_the_spec_limits() {
    assert_eq!(galois_aead::gcm::MAX_PLAINTEXT_BYTES, (1u64 << 36) - 32);
    assert_eq!(galois_aead::gcm::MAX_AAD_BYTES, (1u64 << 61) - 1);
}
