//! Incremental GMAC and Poly1305-AES: after any random sequence of edits
//! the tag equals the tag recomputed from scratch; IVs are never reused.

use galois_aead::mac::incremental::{AesIncrementalGmac, IncrementalPoly1305Aes, IvPolicy};
use galois_aead::poly1305::{clamp, Poly1305Aes};
use galois_aead::{AesGmac, Error};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, Vec<u8>),
    Append(Vec<u8>),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (
            any::<usize>(),
            proptest::collection::vec(any::<u8>(), 0..40)
        )
            .prop_map(|(o, d)| Edit::Replace(o, d)),
        proptest::collection::vec(any::<u8>(), 0..70).prop_map(Edit::Append),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

/// Applies an edit to a plain copy, clamped into range; returns the
/// effective (offset, data) for replacements.
fn apply(model: &mut Vec<u8>, e: &Edit) -> Edit {
    match e {
        Edit::Replace(o, d) => {
            let len = d.len().min(model.len());
            let o = if model.len() == len {
                0
            } else {
                o % (model.len() - len + 1)
            };
            model[o..o + len].copy_from_slice(&d[..len]);
            Edit::Replace(o, d[..len].to_vec())
        }
        Edit::Append(d) => {
            model.extend_from_slice(d);
            e.clone()
        }
        Edit::Truncate(n) => {
            let n = n % (model.len() + 1);
            model.truncate(n);
            Edit::Truncate(n)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn gmac_equals_recompute_after_edits(
        key in proptest::collection::vec(any::<u8>(), 16),
        init in proptest::collection::vec(any::<u8>(), 0..200),
        edits in proptest::collection::vec(edit(), 1..25),
    ) {
        let mut inc = AesIncrementalGmac::with_key(&key, &init).unwrap();
        let one = AesGmac::new(&key).unwrap();
        let mut model = init.clone();
        for (k, e) in edits.iter().enumerate() {
            match apply(&mut model, e) {
                Edit::Replace(o, d) => inc.replace(o, &d).unwrap(),
                Edit::Append(d) => inc.append(&d).unwrap(),
                Edit::Truncate(n) => inc.truncate(n).unwrap(),
            }
            prop_assert_eq!(inc.message(), &model[..]);
            let iv = (k as u64).to_be_bytes();
            let mut iv12 = [0u8; 12];
            iv12[4..].copy_from_slice(&iv);
            let t = inc.tag(&iv12).unwrap();
            prop_assert_eq!(t, one.authenticate(&iv12, &model).unwrap());
            prop_assert!(inc.verify(&iv12, t.as_bytes()).is_ok());
        }
    }

    #[test]
    fn poly1305aes_equals_recompute_after_edits(
        key in proptest::collection::vec(any::<u8>(), 32),
        init in proptest::collection::vec(any::<u8>(), 0..200),
        edits in proptest::collection::vec(edit(), 1..25),
    ) {
        let mut key: [u8; 32] = key.try_into().unwrap();
        clamp(&mut key);
        prop_assume!(key[16..] != [0u8; 16]);
        let mut inc = IncrementalPoly1305Aes::new(&key, &init).unwrap();
        let one = Poly1305Aes::new(&key).unwrap();
        let mut model = init.clone();
        for (k, e) in edits.iter().enumerate() {
            match apply(&mut model, e) {
                Edit::Replace(o, d) => inc.replace(o, &d).unwrap(),
                Edit::Append(d) => inc.append(&d),
                Edit::Truncate(n) => inc.truncate(n).unwrap(),
            }
            prop_assert_eq!(inc.message(), &model[..]);
            let nonce = (k as u128 + 1000).to_le_bytes();
            let t = inc.tag(&nonce).unwrap();
            prop_assert_eq!(t, one.authenticate(&nonce, &model).unwrap());
            prop_assert!(inc.verify(&nonce, &t).is_ok());
        }
    }
}

#[test]
fn ivs_and_nonces_are_never_reused() {
    let mut g = AesIncrementalGmac::with_key(&[9u8; 32], b"message").unwrap();
    let t = g.tag(&[1; 12]).unwrap();
    g.append(b" more").unwrap();
    assert_eq!(g.tag(&[1; 12]), Err(Error::IvReused));
    // Verifying under a used IV is fine (the old tag no longer matches).
    assert_eq!(
        g.verify(&[1; 12], t.as_bytes()),
        Err(Error::AuthenticationFailed)
    );
    g.truncate(7).unwrap();
    assert!(g.verify(&[1; 12], t.as_bytes()).is_ok());
    assert!(g.tag(&[2; 12]).is_ok());
    assert!(g.tag(&[]).is_err());

    let mut key = [7u8; 32];
    clamp(&mut key);
    let mut p = IncrementalPoly1305Aes::new(&key, b"abc").unwrap();
    p.tag(&[0; 16]).unwrap();
    assert_eq!(p.tag(&[0; 16]), Err(Error::IvReused));
    assert_eq!(p.tag(&[0; 15]), Err(Error::InvalidNonceLength { got: 15 }));
}

#[test]
fn increasing_iv_policy() {
    let mut g = AesIncrementalGmac::with_key(&[9u8; 16], b"m").unwrap();
    g.set_iv_policy(IvPolicy::Increasing).unwrap();
    g.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]).unwrap();
    assert_eq!(
        g.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]),
        Err(Error::IvReused)
    );
    assert_eq!(
        g.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]),
        Err(Error::IvReused)
    );
    g.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]).unwrap();
    assert_eq!(g.tag(&[1; 13]), Err(Error::InvalidIvLength { got: 13 }));
    assert!(g.set_iv_policy(IvPolicy::AnyOnce).is_err());
    let mut key = [7u8; 32];
    clamp(&mut key);
    let mut p = IncrementalPoly1305Aes::new(&key, b"abc").unwrap();
    p.set_iv_policy(IvPolicy::Increasing).unwrap();
    p.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9])
        .unwrap();
    assert_eq!(
        p.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9]),
        Err(Error::IvReused)
    );
    p.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0])
        .unwrap();
}

#[test]
fn bad_keys_and_ranges() {
    let unclamped = [0xffu8; 32];
    assert!(matches!(
        IncrementalPoly1305Aes::new(&unclamped, b""),
        Err(Error::InvalidKey { .. })
    ));
    let mut zero_r = [1u8; 32];
    zero_r[16..].fill(0);
    assert!(matches!(
        IncrementalPoly1305Aes::new(&zero_r, b""),
        Err(Error::InvalidKey { .. })
    ));
    assert!(IncrementalPoly1305Aes::new(&[0u8; 31], b"").is_err());
    let mut g = AesIncrementalGmac::with_key(&[9u8; 16], &[0u8; 40]).unwrap();
    assert!(matches!(
        g.replace(30, &[1; 11]),
        Err(Error::BufferLength { .. })
    ));
    assert!(matches!(g.truncate(41), Err(Error::BufferLength { .. })));
    assert!(g.replace_block(1, &[5; 16]).is_ok());
    assert!(g.replace_block(2, &[5; 16]).is_err(), "block 2 is partial");
}

/// A 1 MiB message, many single-block edits spread over it.
#[test]
fn large_message_single_block_edits() {
    let msg: Vec<u8> = (0..1 << 20).map(|i: u32| (i ^ (i >> 9)) as u8).collect();
    let mut g = AesIncrementalGmac::with_key(&[3u8; 16], &msg).unwrap();
    let one = AesGmac::new(&[3u8; 16]).unwrap();
    let mut model = msg.clone();
    for (k, i) in [0usize, 1, 4095, 30000, 65535].into_iter().enumerate() {
        let blk = [k as u8 ^ 0x5a; 16];
        g.replace_block(i, &blk).unwrap();
        model[16 * i..16 * i + 16].copy_from_slice(&blk);
        let iv = [k as u8; 12];
        assert_eq!(g.tag(&iv).unwrap(), one.authenticate(&iv, &model).unwrap());
    }
}
