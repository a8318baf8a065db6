//! Segmented streams: round trips (in memory and over Read/Write, in
//! parallel), the six attacks, header errors, and the format test vector.

use galois_aead::stream::{
    self, open_stream, seal_stream, StreamError, HEADER_AAD_LEN, HEADER_LEN, TAG_LEN,
};
use galois_aead::Error;
use openssl::symm::{encrypt_aead, Cipher, Crypter, Mode};

const KEY: [u8; 32] = [0x42; 32];

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + i / 7) as u8).collect()
}

/// Seals with segment size 64 into exactly `n` full segments plus a short one.
fn sealed(seg: usize, len: usize) -> Vec<u8> {
    stream::seal(&KEY, seg, &data(len)).unwrap()
}

fn chunk(s: &[u8], seg: usize, k: usize) -> std::ops::Range<usize> {
    let cs = seg + TAG_LEN;
    let a = HEADER_LEN + k * cs;
    a..(a + cs).min(s.len())
}

#[test]
fn round_trips_all_sizes_both_apis() {
    for seg in [16usize, 64, 1000] {
        for len in [0, 1, seg - 1, seg, seg + 1, 2 * seg, 7 * seg + 3, 40 * seg] {
            let pt = data(len);
            let s = stream::seal(&KEY, seg, &pt).unwrap();
            let nseg = len.div_ceil(seg).max(1);
            assert_eq!(s.len(), HEADER_LEN + len + nseg * TAG_LEN);
            assert_eq!(stream::open(&KEY, &s).unwrap(), pt, "seg {seg} len {len}");
            // Over Read/Write, both directions.
            let mut out = Vec::new();
            assert_eq!(
                open_stream(&KEY, &mut &s[..], &mut out).unwrap(),
                len as u64
            );
            assert_eq!(out, pt);
            let mut s2 = Vec::new();
            seal_stream(&KEY, seg, &mut &pt[..], &mut s2).unwrap();
            assert_eq!(s2.len(), s.len());
            assert_ne!(s2[12..34], s[12..34], "fresh salt and prefix per stream");
            assert_eq!(stream::open(&KEY, &s2).unwrap(), pt);
        }
    }
}

#[test]
fn large_stream_parallel() {
    let pt = data(3 << 20);
    let s = stream::seal(&KEY, 1 << 16, &pt).unwrap();
    let mut out = Vec::new();
    open_stream(&KEY, &mut &s[..], &mut out).unwrap();
    assert_eq!(out, pt);
    assert_eq!(stream::open(&KEY, &s).unwrap(), pt);
}

fn both(s: &[u8]) -> (Error, Error) {
    let a = stream::open(&KEY, s).unwrap_err();
    let mut out = Vec::new();
    let b = match open_stream(&KEY, &mut &s[..], &mut out) {
        Err(StreamError::Crypto(e)) => e,
        other => panic!("{other:?}"),
    };
    (a, b)
}

#[test]
fn truncation_is_detected() {
    let seg = 64;
    let s = sealed(seg, 5 * seg + 10); // 6 segments
    for keep in 1..6 {
        let cut = &s[..chunk(&s, seg, keep - 1).end];
        assert_eq!(
            both(cut),
            (Error::StreamTruncated, Error::StreamTruncated),
            "{keep}"
        );
    }
    // Only the header.
    assert_eq!(both(&s[..HEADER_LEN]).0, Error::StreamTruncated);
    // Exact multiple: the last full segment is final; dropping it is caught.
    let s = sealed(seg, 3 * seg);
    let cut = &s[..chunk(&s, seg, 1).end];
    assert_eq!(both(cut).0, Error::StreamTruncated);
    // Cut inside the final piece, leaving less than a tag.
    let s = sealed(seg, 2 * seg + 30);
    let r = chunk(&s, seg, 2);
    assert_eq!(both(&s[..r.start + 5]).0, Error::StreamTruncated);
}

#[test]
fn reordering_is_detected() {
    let seg = 64;
    let s = sealed(seg, 5 * seg + 10);
    let mut t = s.clone();
    let (r1, r3) = (chunk(&s, seg, 1), chunk(&s, seg, 3));
    t[r1.clone()].copy_from_slice(&s[r3.clone()]);
    t[r3].copy_from_slice(&s[r1]);
    let e = Error::StreamOutOfOrder {
        expected: 1,
        found: 3,
    };
    assert_eq!(both(&t), (e, e));
}

#[test]
fn duplication_is_detected() {
    let seg = 64;
    let s = sealed(seg, 5 * seg + 10);
    let r1 = chunk(&s, seg, 1);
    let mut t = s[..r1.end].to_vec();
    t.extend_from_slice(&s[r1.clone()]);
    t.extend_from_slice(&s[r1.end..]);
    let e = Error::StreamDuplicate { segment: 1 };
    assert_eq!(both(&t), (e, e));
    // Replacing a segment by an earlier one: also a duplicate.
    let mut t = s.clone();
    let r0 = chunk(&s, seg, 0);
    t[chunk(&s, seg, 2)].copy_from_slice(&s[r0]);
    assert_eq!(both(&t).0, Error::StreamDuplicate { segment: 0 });
}

#[test]
fn appending_is_detected() {
    let seg = 64;
    for len in [5 * seg + 10, 3 * seg] {
        let s = sealed(seg, len);
        // Junk of various sizes, and a whole copy of a segment.
        for extra in [1usize, 15, 16, 40, seg + 16, 3 * seg] {
            let mut t = s.clone();
            t.extend(std::iter::repeat_n(0xa5u8, extra));
            assert_eq!(
                both(&t),
                (Error::StreamTrailingData, Error::StreamTrailingData),
                "len {len} extra {extra}"
            );
        }
        let mut t = s.clone();
        t.extend_from_slice(&s[chunk(&s, seg, 0)]);
        assert_eq!(both(&t).0, Error::StreamTrailingData);
        // Two streams concatenated.
        let mut t = s.clone();
        t.extend_from_slice(&s);
        assert_eq!(both(&t).0, Error::StreamTrailingData);
    }
}

#[test]
fn wrong_key_and_header_errors() {
    let s = sealed(64, 300);
    assert_eq!(
        stream::open(&[0x43; 32], &s).unwrap_err(),
        Error::StreamWrongKey
    );
    assert_eq!(
        stream::open(&[0x42; 16], &s).unwrap_err(),
        Error::StreamWrongKey
    );
    let mut out = Vec::new();
    assert!(matches!(
        open_stream(&[0x43; 32], &mut &s[..], &mut out),
        Err(StreamError::Crypto(Error::StreamWrongKey))
    ));
    assert!(out.is_empty());
    let bad = |i: usize, v: u8| {
        let mut t = s.clone();
        t[i] = v;
        stream::open(&KEY, &t).unwrap_err()
    };
    assert!(matches!(bad(0, b'X'), Error::StreamBadHeader { .. }));
    assert!(matches!(bad(4, 2), Error::StreamBadHeader { .. }));
    assert!(matches!(bad(6, 1), Error::StreamBadHeader { .. }));
    assert!(matches!(bad(8, 0xff), Error::StreamBadHeader { .. }));
    // Authenticated fields: salt, prefix, segment size, key check. The
    // salt, prefix and key check are random, so they are changed by flipping a bit
    // (set to 0, a byte that already was 0 left the header as it was: one
    // run in 256 per byte opened and failed the test).
    let flipped = |i: usize| {
        let mut t = s.clone();
        t[i] ^= 1;
        stream::open(&KEY, &t).unwrap_err()
    };
    assert_eq!(bad(11, 65), Error::StreamWrongKey);
    assert_eq!(flipped(20), Error::StreamWrongKey);
    assert_eq!(flipped(30), Error::StreamWrongKey);
    assert_eq!(flipped(40), Error::StreamWrongKey);
    assert!(matches!(
        stream::open(&KEY, &s[..20]),
        Err(Error::StreamBadHeader { .. })
    ));
    assert!(stream::seal(&KEY, 8, b"x").is_err());
    assert!(stream::seal(&KEY, (1 << 24) + 1, b"x").is_err());
}

#[test]
fn bit_flips_fail_and_release_nothing_after() {
    let seg = 64;
    let s = sealed(seg, 4 * seg + 7);
    for i in (HEADER_LEN..s.len()).step_by(13) {
        let mut t = s.clone();
        t[i] ^= 0x10;
        assert_eq!(
            stream::open(&KEY, &t).unwrap_err(),
            Error::AuthenticationFailed
        );
        // The streaming opener writes only the segments before the bad one.
        let bad_seg = (i - HEADER_LEN) / (seg + TAG_LEN);
        let mut out = Vec::new();
        assert!(open_stream(&KEY, &mut &t[..], &mut out).is_err());
        assert!(out.len() <= bad_seg * seg);
        assert_eq!(out[..], data(4 * seg + 7)[..out.len()]);
    }
}

fn aes_ecb(key: &[u8], block: &[u8; 16]) -> [u8; 16] {
    let c = match key.len() {
        16 => Cipher::aes_128_ecb(),
        _ => Cipher::aes_256_ecb(),
    };
    let mut cr = Crypter::new(c, Mode::Encrypt, key, None).unwrap();
    cr.pad(false);
    let mut out = [0u8; 32];
    let n = cr.update(block, &mut out).unwrap();
    assert_eq!(n, 16);
    out[..16].try_into().unwrap()
}

const VECTOR: &str = concat!(
    "4753545201000000",
    "00000020",
    "a0a1a2a3a4a5a6a7a8a9aaabacadae",
    "b0b1b2b3b4b5b6",
    "082ce8eaa00a81aa4886b9ebcd8def38",
    "92fbb59025644cbcd12d20e8653b3fe5d8659d8c851bc8ca33f04d8c58ae601c",
    "b0d971e23f2160793d309f38883d06b5",
    "5387fcc5f687c2e57094d66e697152ef9b5e1fc9e058745f98af98abfc5240eb",
    "0fc59187033e0e60676c79ff2178ad49",
    "b00b540d3ed843f5ade9",
    "e10b3e1a7df2d027259f0b95",
);

/// The vector of docs/stream-format.md, and an independent recomputation
/// of its key derivation, key check and segments 0 and 2 with OpenSSL.
#[test]
fn format_test_vector() {
    let key: Vec<u8> = (0u8..32).collect();
    let salt: [u8; 15] = core::array::from_fn(|i| 0xa0 + i as u8);
    let prefix: [u8; 7] = core::array::from_fn(|i| 0xb0 + i as u8);
    let pt: Vec<u8> = (0u8..70).collect();
    let v = hex::decode(VECTOR).unwrap();
    assert_eq!(v.len(), 168);
    let s = stream::seal_with_salt_for_tests(&key, 32, salt, prefix, &pt).unwrap();
    assert_eq!(hex::encode(&s), VECTOR);
    assert_eq!(stream::open(&key, &v).unwrap(), pt);

    // K_s = AES_K(salt || 00) || AES_K(salt || 01).
    let mut ks = Vec::new();
    for j in 0..2u8 {
        let mut b = [0u8; 16];
        b[..15].copy_from_slice(&salt);
        b[15] = j;
        ks.extend_from_slice(&aes_ecb(&key, &b));
    }
    let aad = &v[..HEADER_AAD_LEN];
    let gcm = |nonce: &[u8], p: &[u8]| {
        let mut tag = [0u8; 16];
        let mut c =
            encrypt_aead(Cipher::aes_256_gcm(), &ks, Some(nonce), aad, p, &mut tag).unwrap();
        c.extend_from_slice(&tag);
        c
    };
    let mut n = prefix.to_vec();
    n.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 2]);
    assert_eq!(gcm(&n, b""), v[34..50]);
    let mut n = prefix.to_vec();
    n.extend_from_slice(&[0, 0, 0, 0, 0]);
    assert_eq!(gcm(&n, &pt[..32]), v[50..98]);
    let mut n = prefix.to_vec();
    n.extend_from_slice(&[0, 0, 0, 2, 1]);
    assert_eq!(gcm(&n, &pt[64..]), v[146..]);
}

/// A reader that hands out at most a few bytes per call.
struct Trickle<'a>(&'a [u8], usize);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.1 = self.1 % 7 + 1;
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Garbage, alone or after a genuine header, is refused, never a
        /// panic, and releases nothing.
        #[test]
        fn garbage_is_refused(
            junk in proptest::collection::vec(any::<u8>(), 0..400),
            keep_header in any::<bool>(),
        ) {
            let mut data = if keep_header {
                sealed(16, 0)[..HEADER_LEN].to_vec()
            } else {
                Vec::new()
            };
            data.extend_from_slice(&junk);
            prop_assert!(stream::open(&KEY, &data).is_err());
            let mut out = Vec::new();
            prop_assert!(open_stream(&KEY, &mut &data[..], &mut out).is_err());
            prop_assert!(out.is_empty());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        /// Round trips for any size over short reads, and any single
        /// flipped bit is caught with no output past the damaged segment.
        #[test]
        fn any_size_any_flip(
            seg in 16usize..200,
            pt in proptest::collection::vec(any::<u8>(), 0..1500),
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
        ) {
            let mut s = Vec::new();
            seal_stream(&KEY, seg, &mut Trickle(&pt, 0), &mut s).unwrap();
            let mut out = Vec::new();
            open_stream(&KEY, &mut Trickle(&s, 3), &mut out).unwrap();
            prop_assert_eq!(&out, &pt);
            prop_assert_eq!(stream::open(&KEY, &s).unwrap(), pt.clone());
            let mut bad = s.clone();
            let i = flip.index(bad.len());
            bad[i] ^= 1 << bit;
            prop_assert!(stream::open(&KEY, &bad).is_err());
            let mut out = Vec::new();
            prop_assert!(open_stream(&KEY, &mut &bad[..], &mut out).is_err());
            if i >= HEADER_LEN {
                let damaged = (i - HEADER_LEN) / (seg + TAG_LEN);
                prop_assert!(out.len() <= damaged * seg);
            } else {
                prop_assert!(out.is_empty());
            }
        }
    }
}
