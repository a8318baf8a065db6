//! Holes from the security review (issue 12) in the library itself, each
//! with the test that failed before its fix. docs/testing.md lists them.

use galois_aead::{AesGcm, Error, ShortTag};

const PT: &[u8] = b"plaintext that must never be left in a refused output buffer";

/// Item 4: a refused seal leaves no plaintext in `out`, whatever the reason
/// (empty IV, a non-96-bit IV under a short tag, wrong output size).
#[test]
fn refused_seals_leave_no_plaintext_in_out() {
    let full = AesGcm::new(&[3; 16]).unwrap();
    let short = AesGcm::new_short_tag(&[3; 16], ShortTag::Bytes8).unwrap();
    let cases: [(&AesGcm, &[u8], usize, Error); 3] = [
        (&full, &[], PT.len(), Error::InvalidIvLength { got: 0 }),
        (&short, &[1; 16], PT.len(), full_err(&short, &[1; 16])),
        (
            &full,
            &[1; 12],
            PT.len() + 1,
            full_err_len(PT.len(), PT.len() + 1),
        ),
    ];
    for (g, iv, out_len, want) in cases {
        // seal_into (the only out-of-place seal; its detached worker is
        // crate-private): ciphertext and tag space both wiped.
        let mut out = vec![0xa5u8; out_len + g.tag_len()];
        let want = match want {
            Error::BufferLength { expected, got } => Error::BufferLength {
                expected: expected + g.tag_len(),
                got: got + g.tag_len(),
            },
            e => e,
        };
        assert_eq!(g.seal_into(iv, b"ad", PT, &mut out).unwrap_err(), want);
        assert!(
            out.iter().all(|&b| b == 0),
            "seal_into out wiped after {want:?}"
        );
    }
}

fn full_err(g: &AesGcm, iv: &[u8]) -> Error {
    g.seal(iv, b"", b"").unwrap_err()
}

fn full_err_len(expected: usize, got: usize) -> Error {
    Error::BufferLength { expected, got }
}

/// Item 7: every public type that holds key material, H or its powers,
/// round keys, Poly1305 r or s, or a value derived from them wipes itself
/// when dropped (`ZeroizeOnDrop`: a compile-time check; before the fix the
/// precomputed states and `Intermediates` did not, and `IvPrefix` left its
/// GHASH state behind).
#[test]
fn secret_holding_types_wipe_on_drop() {
    fn wipes<T: zeroize::ZeroizeOnDrop>() {}
    use galois_aead::gcm::precompute::{AadPrefix, IvPrefix};
    use galois_aead::mac::incremental::{AesIncrementalGmac, IncrementalPoly1305Aes};
    use galois_aead::poly1305::{Poly1305, Poly1305Aes};
    wipes::<galois_aead::Aes>();
    wipes::<AesGcm>();
    wipes::<galois_aead::AesGmac>();
    wipes::<galois_aead::Ghash>();
    wipes::<AadPrefix>();
    wipes::<IvPrefix>();
    wipes::<galois_aead::gcm::Intermediates>();
    wipes::<Poly1305Aes>();
    wipes::<Poly1305>();
    wipes::<AesIncrementalGmac>();
    wipes::<IncrementalPoly1305Aes>();
    wipes::<galois_aead::gcm64::TdeaGcm>();
}

/// Item 7: a precomputed state is tied to its key by a random identifier,
/// not by a key-dependent value: two keys' states are told apart, and a
/// state reveals nothing of H (before the fix it held c * H for a public
/// constant c, from which H follows by one field division).
#[test]
fn precomputed_states_are_tied_to_their_key_object() {
    let a = AesGcm::new(&[1; 16]).unwrap();
    let b = AesGcm::new(&[2; 16]).unwrap();
    use galois_aead::gcm::precompute::{seal_in_place, AadPrefix, IvInput};
    let p = AadPrefix::new(&a, b"prefix").unwrap();
    let iv = IvInput::Full(&[0; 12]);
    let mut buf = *b"x";
    assert!(seal_in_place(&a, iv, Some(&p), b"", &mut buf).is_ok());
    let iv = IvInput::Full(&[0; 12]);
    assert!(matches!(
        seal_in_place(&b, iv, Some(&p), b"", &mut buf),
        Err(Error::InvalidKey { .. })
    ));
}

/// Every key type has `Debug`, and it shows no key material: not the key
/// bytes (as hex or as decimal bytes), not H.
#[test]
fn debug_of_key_types_shows_no_secret() {
    use galois_aead::poly1305::{Poly1305, Poly1305Aes};
    use galois_aead::{Aes, AesGcm, AesGcmSiv, AesGmac, Ghash, XAes256Gcm};
    let key = [0xc3u8; 32];
    let h = [0x5eu8; 16];
    // Poly1305 keys with r clamped: AES key (or s) 0xc3..., r 0x0c...
    let mut poly_key = [0xc3u8; 32];
    poly_key[16..].fill(0x0c);
    let mut onetime = [0xc3u8; 32];
    onetime[..16].fill(0x0c);
    let shown = [
        format!("{:?}", Aes::new(&key).unwrap()),
        format!("{:?}", AesGcm::new(&key).unwrap()),
        format!("{:?}", AesGcmSiv::new(&key).unwrap()),
        format!("{:?}", XAes256Gcm::new(&key).unwrap()),
        format!("{:?}", AesGmac::new(&key).unwrap()),
        format!("{:?}", Ghash::new(&h)),
        format!("{:?}", Poly1305Aes::new(&poly_key).unwrap()),
        format!("{:?}", Poly1305::new(&onetime).unwrap()),
    ];
    for s in &shown {
        assert!(s.contains("backend"), "{s}");
        for secret in ["c3", "C3", "195", "5e", "5E", "94", "0c"] {
            assert!(!s.contains(secret), "{s} shows {secret}");
        }
    }
}
