//! The formats over the `Aead` trait: packets and random-nonce sealing work
//! unchanged over AES-GCM-SIV and XAES-256-GCM, byte for byte what the
//! AEAD gives for the documented nonce, and AES-GCM through the trait is
//! the same as before.

use galois_aead::limits::{RandomNonceGcm, UsageLimits};
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::{Aead, AeadInit};
use galois_aead::{AesGcm, AesGcmSiv, Error, XAes256Gcm};

/// `salt' || seq`, zero-padded to the nonce length.
fn packet_nonce<A: Aead>(salt: [u8; 4], role: Role, seq: u64) -> Vec<u8> {
    let mut n = vec![0u8; A::NONCE_LEN];
    n[..4].copy_from_slice(&salt);
    if role == Role::Responder {
        n[0] ^= 0x80;
    }
    n[4..12].copy_from_slice(&seq.to_be_bytes());
    n
}

fn packets_over<A: AeadInit>(key: &[u8]) {
    let salt = [9, 8, 7, 6];
    let mut tx = PacketSealer::with_aead(
        A::for_formats(key).unwrap(),
        salt,
        Role::Initiator,
        Start::At(5),
        UsageLimits::PACKETS,
    )
    .unwrap();
    let mut rx =
        PacketOpener::with_aead(A::for_formats(key).unwrap(), salt, Role::Responder, 3, 64)
            .unwrap();
    let mut back =
        PacketOpener::with_aead(A::for_formats(key).unwrap(), salt, Role::Initiator, 3, 64)
            .unwrap();
    let p = tx.seal(b"hdr", b"payload of a packet").unwrap();
    // The wire format: header || seq || the AEAD's ciphertext and tag.
    let direct = A::for_formats(key).unwrap();
    let nonce = packet_nonce::<A>(salt, Role::Initiator, 5);
    let want = Aead::seal(
        &direct,
        &nonce,
        &[&b"hdr"[..], &5u64.to_be_bytes()].concat(),
        b"payload of a packet",
    )
    .unwrap();
    assert_eq!(
        p,
        [&b"hdr"[..], &5u64.to_be_bytes(), &want].concat(),
        "{}",
        A::NAME
    );
    let o = rx.open(&p).unwrap();
    assert_eq!((o.seq, &o.payload[..]), (5, &b"payload of a packet"[..]));
    assert_eq!(rx.open(&p), Err(Error::Replay { seq: 5 }), "{}", A::NAME);
    assert_eq!(back.open(&p), Err(Error::AuthenticationFailed), "reflected");
    let mut bad = tx.seal(b"hdr", b"x").unwrap();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert_eq!(
        rx.open(&bad),
        Err(Error::AuthenticationFailed),
        "{}",
        A::NAME
    );
    // The window did not move for the forgery: seq 6 still opens.
    bad[last] ^= 1;
    assert_eq!(rx.open(&bad).unwrap().seq, 6);
}

/// `$f::<A>(&[3; n])` for each AEAD `A` and each of its key lengths `n`.
macro_rules! with_keys {
    ($f:ident: $($t:ident[$($n:expr),*]),*) => {
        $($($f::<$t>(&[3; $n]);)*)*
    };
}

#[test]
fn packets_over_aes_gcm_siv_and_xaes() {
    with_keys!(packets_over: AesGcmSiv[16, 32], XAes256Gcm[32], AesGcm[24]);
}

#[test]
fn aes_gcm_through_the_trait_is_unchanged() {
    let (key, salt) = ([5u8; 16], [1, 2, 3, 4]);
    let mut a = PacketSealer::new(&key, salt, Role::Responder, Start::NewKey).unwrap();
    let mut b = PacketSealer::with_aead(
        AesGcm::for_formats(&key).unwrap(),
        salt,
        Role::Responder,
        Start::NewKey,
        UsageLimits::PACKETS,
    )
    .unwrap();
    for i in 0..3 {
        let pt = vec![i as u8; 40 * i];
        assert_eq!(a.seal(b"h", &pt).unwrap(), b.seal(b"h", &pt).unwrap());
    }
}

fn random_nonce_over<A: AeadInit>(key: &[u8]) {
    let mut r =
        RandomNonceGcm::with_aead(A::for_formats(key).unwrap(), UsageLimits::messages(2)).unwrap();
    let s = r.seal(b"aad", b"message").unwrap();
    assert_eq!(s.len(), A::NONCE_LEN + 7 + 16, "{}", A::NAME);
    let direct = A::for_formats(key).unwrap();
    let n = A::NONCE_LEN;
    assert_eq!(
        Aead::open(&direct, &s[..n], b"aad", &s[n..]).unwrap(),
        b"message"
    );
    assert_eq!(r.open(b"aad", &s).unwrap(), b"message");
    assert_eq!(r.open(b"other", &s), Err(Error::AuthenticationFailed));
    assert!(matches!(
        r.open(b"aad", &s[..n + 15]),
        Err(Error::CiphertextTooShort { .. })
    ));
    let t = r.seal(b"aad", b"message").unwrap();
    assert_ne!(s[..n], t[..n], "a fresh nonce each time");
    assert!(matches!(r.seal(b"", b""), Err(Error::LimitReached { .. })));
}

#[test]
fn random_nonces_over_every_aead() {
    random_nonce_over::<AesGcm>(&[6; 32]);
    random_nonce_over::<AesGcmSiv>(&[6; 32]);
    random_nonce_over::<XAes256Gcm>(&[6; 32]);
}

/// `RandomNonceGcm::with_limits` still checks the limits before the key.
#[test]
fn random_nonce_limits_are_checked_before_the_key() {
    assert!(matches!(
        RandomNonceGcm::with_limits(&[0; 5], UsageLimits::PACKETS),
        Err(Error::LimitReached { .. })
    ));
    assert!(matches!(
        RandomNonceGcm::with_limits(&[0; 5], UsageLimits::RANDOM_IV),
        Err(Error::InvalidKeyLength { got: 5 })
    ));
}

/// Every refused call of every AEAD, out of place: the output holds no
/// plaintext (it is wiped), whatever the reason (a nonce of the wrong
/// length, an output of the wrong length, a bad tag length, a forgery).
/// (AES-GCM-SIV's `seal_into` once copied the plaintext into `out` before
/// checking the nonce.)
fn refused_calls_leave_no_plaintext<A: AeadInit>(key: &[u8]) {
    let a = A::new(key).unwrap();
    let n = A::NONCE_LEN;
    let pt = [0x5au8; 40];
    let t = a.tag_len();
    let clean = |out: &[u8], what: &str| {
        assert!(
            out.iter().all(|&b| b == 0),
            "{} {what}: {out:02x?}",
            A::NAME
        );
    };
    // Wrong nonce lengths (AES-GCM takes any IV length but the empty one).
    let bad_nonces: Vec<usize> = if A::NAME == "aes-gcm" {
        vec![0]
    } else {
        vec![0, n - 1, n + 1]
    };
    for &bn in &bad_nonces {
        let nonce = vec![1u8; bn];
        let mut out = vec![0xa5u8; pt.len() + t];
        assert!(a.seal_into(&nonce, b"", &pt, &mut out).is_err());
        clean(&out, &format!("seal_into nonce {bn}"));
        let mut out = vec![0xa5u8; pt.len()];
        assert!(a.seal_detached_into(&nonce, b"", &pt, &mut out).is_err());
        clean(&out, &format!("seal_detached_into nonce {bn}"));
        assert!(a.seal(&nonce, b"", &pt).is_err());
    }
    let nonce = vec![1u8; n];
    // Outputs of the wrong length.
    for len in [
        0,
        pt.len() - 1,
        pt.len() + 1,
        pt.len() + t - 1,
        pt.len() + t + 1,
    ] {
        let mut out = vec![0xa5u8; len];
        assert!(a.seal_into(&nonce, b"", &pt, &mut out).is_err());
        clean(&out, &format!("seal_into out {len}"));
    }
    let mut out = vec![0xa5u8; pt.len() + 1];
    assert!(a.seal_detached_into(&nonce, b"", &pt, &mut out).is_err());
    clean(&out, "seal_detached_into long out");
    // Opening: forged, wrong tag length, too short, wrong output length.
    let sealed = a.seal(&nonce, b"ad", &pt).unwrap();
    let mut out = vec![0xa5u8; pt.len()];
    assert_eq!(
        a.open_into(&nonce, b"AD", &sealed, &mut out),
        Err(Error::AuthenticationFailed)
    );
    clean(&out, "open_into forged");
    let (c, tag) = sealed.split_at(pt.len());
    let mut out = vec![0xa5u8; pt.len()];
    assert!(a
        .open_detached_into(&nonce, b"ad", c, &tag[..t - 1], &mut out)
        .is_err());
    clean(&out, "open_detached_into short tag");
    let mut out = vec![0xa5u8; pt.len() + 1];
    assert!(a
        .open_detached_into(&nonce, b"ad", c, tag, &mut out)
        .is_err());
    clean(&out, "open_detached_into long out");
    let mut out = vec![0xa5u8; 4];
    assert!(a
        .open_into(&nonce, b"ad", &sealed[..t - 1], &mut out)
        .is_err());
    clean(&out, "open_into too short");
    let mut buf = sealed.clone();
    buf[0] ^= 1;
    assert!(a.open_in_place(&nonce, b"ad", &mut buf).is_err());
    assert!(buf.is_empty());
    // And the successful paths still agree with each other.
    let mut out = vec![0u8; pt.len()];
    a.open_into(&nonce, b"ad", &sealed, &mut out).unwrap();
    assert_eq!(out, pt);
}

#[test]
fn refused_calls_of_every_aead_leave_no_plaintext() {
    with_keys!(refused_calls_leave_no_plaintext: AesGcm[16, 32], AesGcmSiv[16, 32], XAes256Gcm[32]);
}
