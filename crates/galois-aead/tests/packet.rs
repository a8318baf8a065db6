//! Packets: sequence-number IVs, anti-replay window, tampering.

use galois_aead::limits::UsageLimits;
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::poly1305::nonce::{KeyId, NonceStore};
use galois_aead::Error;
use proptest::prelude::*;
use std::collections::BTreeSet;

const KEY: [u8; 16] = [0x11; 16];
const SALT: [u8; 4] = *b"salt";
const HDR: &[u8] = b"HDR8byte";

fn pair(window: u32) -> (PacketSealer, PacketOpener) {
    (
        PacketSealer::new(&KEY, SALT, Role::Initiator, Start::NewKey).unwrap(),
        PacketOpener::with_config(&KEY, SALT, Role::Responder, HDR.len(), 16, window).unwrap(),
    )
}

fn packets(s: &mut PacketSealer, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| s.seal(HDR, format!("payload {i}").as_bytes()).unwrap())
        .collect()
}

#[test]
fn layout_and_round_trip() {
    let (mut s, mut o) = pair(64);
    assert_eq!(s.next_sequence(), Some(1));
    let p = s.seal(HDR, b"data").unwrap();
    assert_eq!(&p[..8], HDR);
    assert_eq!(p[8..16], 1u64.to_be_bytes());
    assert_eq!(p.len(), 8 + 8 + 4 + 16);
    // Same as AES-GCM with IV = salt || seq and AAD = header || seq.
    let g = galois_aead::AesGcm::new(&KEY).unwrap();
    let mut iv = SALT.to_vec();
    iv.extend_from_slice(&1u64.to_be_bytes());
    assert_eq!(g.open(&iv, &p[..16], &p[16..]).unwrap(), b"data");
    let got = o.open(&p).unwrap();
    assert_eq!(
        (got.seq, &got.header[..], &got.payload[..]),
        (1, HDR, &b"data"[..])
    );
    let q = s.seal(HDR, b"").unwrap();
    assert_eq!(o.open(&q).unwrap().seq, 2);
}

#[test]
fn replay_is_refused() {
    let (mut s, mut o) = pair(64);
    let p = packets(&mut s, 3);
    o.open(&p[0]).unwrap();
    o.open(&p[2]).unwrap();
    assert_eq!(o.open(&p[0]), Err(Error::Replay { seq: 1 }));
    assert_eq!(o.open(&p[2]), Err(Error::Replay { seq: 3 }));
    o.open(&p[1]).unwrap();
    assert_eq!(o.open(&p[1]), Err(Error::Replay { seq: 2 }));
}

#[test]
fn reorder_inside_window_and_refusal_outside() {
    let (mut s, mut o) = pair(64);
    let p = packets(&mut s, 200);
    o.open(&p[99]).unwrap(); // seq 100
                             // Inside the window (100 - 63 = 37 .. 100): accepted in any order.
    for seq in [37usize, 80, 50, 99, 38] {
        o.open(&p[seq - 1]).unwrap();
    }
    assert_eq!(
        o.open(&p[35]),
        Err(Error::OutsideWindow {
            seq: 36,
            lowest: 37
        })
    );
    assert!(matches!(o.open(&p[0]), Err(Error::OutsideWindow { .. })));
    // Moving on slides the window: 37 and 38 fall off.
    o.open(&p[101]).unwrap(); // seq 102
    assert!(matches!(
        o.open(&p[37]),
        Err(Error::OutsideWindow { seq: 38, .. })
    ));
    assert_eq!(o.open(&p[79]), Err(Error::Replay { seq: 80 }));
    o.open(&p[100]).unwrap(); // 101, late but inside
                              // A jump larger than the window clears it.
    o.open(&p[199]).unwrap();
    assert!(matches!(o.open(&p[101]), Err(Error::OutsideWindow { .. })));
    o.open(&p[150]).unwrap();
}

#[test]
fn drops_are_fine() {
    let (mut s, mut o) = pair(64);
    let p = packets(&mut s, 20);
    for i in (0..20).step_by(3) {
        assert_eq!(o.open(&p[i]).unwrap().seq, i as u64 + 1);
    }
    assert_eq!(o.highest(), 19);
}

#[test]
fn tampering_fails_and_does_not_move_the_window() {
    let (mut s, mut o) = pair(64);
    let p = packets(&mut s, 5);
    o.open(&p[0]).unwrap();
    for i in 0..p[2].len() {
        let mut bad = p[2].clone();
        bad[i] ^= 0x01;
        let r = o.open(&bad);
        assert!(
            r == Err(Error::AuthenticationFailed) || matches!(r, Err(Error::Replay { .. })),
            "byte {i}: {r:?}"
        );
    }
    // A forged far-future sequence number must not slide the window.
    let mut forged = p[1].clone();
    forged[8..16].copy_from_slice(&1_000_000u64.to_be_bytes());
    assert_eq!(o.open(&forged), Err(Error::AuthenticationFailed));
    assert_eq!(o.highest(), 1);
    // Nor mark the genuine packet as seen.
    o.open(&p[2]).unwrap();
    o.open(&p[1]).unwrap();
    // Wrong salt or key: nothing opens.
    let mut other = PacketOpener::new(&KEY, *b"SALT", Role::Responder, HDR.len()).unwrap();
    assert_eq!(other.open(&p[3]), Err(Error::AuthenticationFailed));
    // Too short.
    assert!(matches!(
        o.open(&p[3][..20]),
        Err(Error::CiphertextTooShort { .. })
    ));
}

#[test]
fn sequence_numbers_never_wrap() {
    let mut s = PacketSealer::new(&KEY, SALT, Role::Initiator, Start::NewKey).unwrap();
    s.seal(HDR, b"a").unwrap();
    assert!(s.resume_at(1).is_err(), "may not go back");
    s.resume_at(u64::MAX).unwrap();
    let last = s.seal(HDR, b"last").unwrap();
    assert_eq!(last[8..16], u64::MAX.to_be_bytes());
    assert_eq!(s.next_sequence(), None);
    assert!(matches!(s.seal(HDR, b"x"), Err(Error::LimitReached { .. })));
    let mut o = PacketOpener::new(&KEY, SALT, Role::Responder, HDR.len()).unwrap();
    assert_eq!(o.open(&last).unwrap().seq, u64::MAX);
    // Starting at the last number directly; at 0, refused.
    let mut s = PacketSealer::new(&KEY, SALT, Role::Initiator, Start::At(u64::MAX)).unwrap();
    assert_eq!(s.seal(HDR, b"last").unwrap(), last);
    assert!(s.seal(HDR, b"x").is_err());
    assert!(PacketSealer::new(&KEY, SALT, Role::Initiator, Start::At(0)).is_err());
}

#[test]
fn sealer_usage_limit() {
    let mut s = PacketSealer::with_config(
        &KEY,
        SALT,
        Role::Initiator,
        Start::NewKey,
        16,
        UsageLimits::messages(2),
    )
    .unwrap();
    s.seal(HDR, b"1").unwrap();
    s.seal(HDR, b"2").unwrap();
    assert!(matches!(s.seal(HDR, b"3"), Err(Error::LimitReached { .. })));
    assert!(PacketOpener::with_config(&KEY, SALT, Role::Responder, 0, 16, 0).is_err());
    // A 12-byte ICV works end to end.
    let mut s = PacketSealer::with_config(
        &KEY,
        SALT,
        Role::Initiator,
        Start::NewKey,
        12,
        UsageLimits::PACKETS,
    )
    .unwrap();
    let mut o = PacketOpener::with_config(&KEY, SALT, Role::Responder, HDR.len(), 12, 64).unwrap();
    let p = s.seal(HDR, b"short icv").unwrap();
    assert_eq!(p.len(), 8 + 8 + 9 + 12);
    assert_eq!(o.open(&p).unwrap().payload, b"short icv");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The window against a model: accept iff never accepted before and
    /// within `window` of the highest accepted.
    #[test]
    fn window_matches_model(
        window in prop_oneof![Just(1u32), Just(64), Just(65), Just(100), Just(200)],
        order in proptest::collection::vec(0usize..300, 1..200),
    ) {
        let (mut s, mut o) = pair(window);
        let p = packets(&mut s, 300);
        let mut seen = BTreeSet::new();
        let mut highest = 0u64;
        for i in order {
            let seq = i as u64 + 1;
            let expect_ok = !seen.contains(&seq) && seq + window as u64 > highest;
            let r = o.open(&p[i]);
            prop_assert_eq!(r.is_ok(), expect_ok, "seq {} highest {}", seq, highest);
            if expect_ok {
                seen.insert(seq);
                highest = highest.max(seq);
            } else if seen.contains(&seq) && seq + window as u64 > highest {
                prop_assert_eq!(r, Err(Error::Replay { seq }));
            } else {
                prop_assert!(matches!(r, Err(Error::OutsideWindow { .. })), "{:?}", r);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Random bytes never open, never panic, and never move the window.
    #[test]
    fn garbage_is_refused(junk in proptest::collection::vec(any::<u8>(), 0..120)) {
        let (mut s, mut o) = pair(64);
        let p = packets(&mut s, 2);
        o.open(&p[0]).unwrap();
        prop_assert!(o.open(&junk).is_err());
        prop_assert_eq!(o.highest(), 1);
        prop_assert!(o.open(&p[1]).is_ok());
    }
}

/// Issue 12, item 9: one key and salt for both ends of a link. The two
/// roles never seal under the same IV (same payload, same number: different
/// ciphertexts, and each packet opens only as sealed by its role), a packet
/// reflected back to its sender is refused, and the responder's IV is the
/// salt with its first bit flipped.
#[test]
fn the_two_ends_of_a_link_never_share_an_iv() {
    let mut a = PacketSealer::new(&KEY, SALT, Role::Initiator, Start::NewKey).unwrap();
    let mut b = PacketSealer::new(&KEY, SALT, Role::Responder, Start::NewKey).unwrap();
    let mut a_rx = PacketOpener::new(&KEY, SALT, Role::Initiator, HDR.len()).unwrap();
    let mut b_rx = PacketOpener::new(&KEY, SALT, Role::Responder, HDR.len()).unwrap();
    let g = galois_aead::AesGcm::new(&KEY).unwrap();
    let mut keystreams = BTreeSet::new();
    for seq in 1..=200u64 {
        let zeros = [0u8; 48];
        let (pa, pb) = (a.seal(HDR, &zeros).unwrap(), b.seal(HDR, &zeros).unwrap());
        assert_eq!(
            (pa[8..16].to_vec(), pb[8..16].to_vec()),
            (seq.to_be_bytes().to_vec(), seq.to_be_bytes().to_vec())
        );
        // The ciphertext of zeros is the keystream: no two packets of
        // either end share one.
        assert!(
            keystreams.insert(pa[16..64].to_vec()),
            "initiator keystream repeated at {seq}"
        );
        assert!(
            keystreams.insert(pb[16..64].to_vec()),
            "responder keystream repeated at {seq}"
        );
        // The IVs are salt || seq and (salt ^ 0x80..) || seq.
        for (p, first) in [(&pa, SALT[0]), (&pb, SALT[0] ^ 0x80)] {
            let mut iv = SALT.to_vec();
            iv[0] = first;
            iv.extend_from_slice(&seq.to_be_bytes());
            assert_eq!(g.open(&iv, &p[..16], &p[16..]).unwrap(), zeros);
        }
        // Reflected packets are refused by their sender's own opener.
        assert_eq!(a_rx.open(&pa), Err(Error::AuthenticationFailed));
        assert_eq!(b_rx.open(&pb), Err(Error::AuthenticationFailed));
        assert_eq!(b_rx.open(&pa).unwrap().payload, zeros);
        assert_eq!(a_rx.open(&pb).unwrap().payload, zeros);
    }
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("packet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Issue 12, item 9: a sealer cannot be built without saying where its
/// numbers start (`Start` has no default; the compile-fail doctest on
/// `PacketSealer` shows the old two-argument constructor is gone). With a
/// nonce store, a restart, a crash (the sealer dropped with numbers still
/// reserved) or a second sealer on the same store never reuses a number.
#[test]
fn a_restart_continues_above_every_number_used() {
    let d = scratch("restart");
    let path = d.join("seq");
    let id = KeyId::from_bytes(*b"packet key id 01");
    let mut o =
        PacketOpener::with_config(&KEY, SALT, Role::Responder, HDR.len(), 16, 1 << 20).unwrap();
    let mut used = BTreeSet::new();
    let mut store = Some(NonceStore::create(&path, id, 16).unwrap());
    for run in 0..20 {
        let st = store
            .take()
            .unwrap_or_else(|| NonceStore::open(&path, id, 16).unwrap());
        let mut s = PacketSealer::new(&KEY, SALT, Role::Initiator, Start::Store(st)).unwrap();
        assert!(
            s.resume_at(1 << 40).is_err(),
            "a store-backed sealer moved by hand"
        );
        // A live sealer holds the store: a second one cannot start on it.
        assert!(NonceStore::open(&path, id, 16).is_err());
        for _ in 0..(run * 7) % 23 + 1 {
            let p = s.seal(HDR, b"x").unwrap();
            let seq = u64::from_be_bytes(p[8..16].try_into().unwrap());
            assert!(used.insert(seq), "number {seq} reused in run {run}");
            assert_eq!(o.open(&p).unwrap().seq, seq);
        }
        assert!(s.next_sequence().unwrap() > *used.last().unwrap());
    }
    // The store of another key is refused.
    let other = KeyId::from_bytes(*b"packet key id 02");
    assert!(NonceStore::open(&path, other, 16).is_err());
    let _ = std::fs::remove_dir_all(&d);
}

/// A store-backed sealer stops at sequence number 2^64 - 1 like a counter
/// one: the store is started near the end by writing its file in the
/// documented format (see tests/nonce_store.rs).
#[test]
fn a_store_backed_sealer_never_wraps() {
    let d = scratch("wrap");
    let path = d.join("seq");
    let id = KeyId::from_bytes(*b"packet key id 03");
    let hex: String = id.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let mut f = format!("galois-nonce-store-v2 key-id {hex}\n").into_bytes();
    for (at, generation) in [(512, 1u64), (1024, 0)] {
        f.resize(at, b'\n');
        let body = format!("slot {generation:016x} {:032x} ", u64::MAX as u128 - 2);
        let sum = body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        });
        f.extend_from_slice(format!("{body}{sum:016x}\n").as_bytes());
    }
    std::fs::write(&path, f).unwrap();
    let st = NonceStore::open(&path, id, 8).unwrap();
    let mut s = PacketSealer::new(&KEY, SALT, Role::Initiator, Start::Store(st)).unwrap();
    assert_eq!(s.next_sequence(), Some(u64::MAX - 1));
    let p = s.seal(HDR, b"a").unwrap();
    assert_eq!(p[8..16], (u64::MAX - 1).to_be_bytes());
    let q = s.seal(HDR, b"b").unwrap();
    assert_eq!(q[8..16], u64::MAX.to_be_bytes());
    assert_eq!(s.next_sequence(), None);
    for _ in 0..3 {
        assert!(matches!(s.seal(HDR, b"c"), Err(Error::LimitReached { .. })));
    }
    let mut o = PacketOpener::new(&KEY, SALT, Role::Responder, HDR.len()).unwrap();
    assert_eq!(o.open(&q).unwrap().seq, u64::MAX);
    let _ = std::fs::remove_dir_all(&d);
}
