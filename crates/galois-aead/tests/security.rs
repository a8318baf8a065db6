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
        (&full, &[1; 12], PT.len() + 1, full_err_len(PT.len(), PT.len() + 1)),
    ];
    for (g, iv, out_len, want) in cases {
        let mut out = vec![0xa5u8; out_len];
        let r = g.seal_detached_into(iv, b"ad", PT, &mut out);
        assert_eq!(r.unwrap_err(), want);
        assert!(out.iter().all(|&b| b == 0), "out wiped after {want:?}");
        // seal_into: ciphertext and tag space both wiped.
        let mut out = vec![0xa5u8; out_len + g.tag_len()];
        assert!(g.seal_into(iv, b"ad", PT, &mut out).is_err());
        assert!(out.iter().all(|&b| b == 0), "seal_into out wiped after {want:?}");
    }
}

fn full_err(g: &AesGcm, iv: &[u8]) -> Error {
    g.seal(iv, b"", b"").unwrap_err()
}

fn full_err_len(expected: usize, got: usize) -> Error {
    Error::BufferLength { expected, got }
}
