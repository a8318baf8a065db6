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

/// An incremental MAC with its one-shot counterpart, as the edit tests
/// drive them.
trait Incremental {
    fn edit(&mut self, e: &Edit);
    fn message(&self) -> &[u8];
    /// Under the `k`-th fresh IV or nonce: the incremental tag, the
    /// one-shot MAC of `model`, and whether the tag verifies.
    fn tags(&mut self, k: usize, model: &[u8]) -> (Vec<u8>, Vec<u8>, bool);
}

impl Incremental for (AesIncrementalGmac, AesGmac) {
    fn edit(&mut self, e: &Edit) {
        match e {
            Edit::Replace(o, d) => self.0.replace(*o, d).unwrap(),
            Edit::Append(d) => self.0.append(d).unwrap(),
            Edit::Truncate(n) => self.0.truncate(*n).unwrap(),
        }
    }
    fn message(&self) -> &[u8] {
        self.0.message()
    }
    fn tags(&mut self, k: usize, model: &[u8]) -> (Vec<u8>, Vec<u8>, bool) {
        let mut iv = [0u8; 12];
        iv[4..].copy_from_slice(&(k as u64).to_be_bytes());
        let t = self.0.tag(&iv).unwrap();
        let one = self.1.authenticate(&iv, model).unwrap();
        let ok = self.0.verify(&iv, t.as_bytes()).is_ok();
        (t.as_bytes().to_vec(), one.as_bytes().to_vec(), ok)
    }
}

impl Incremental for (IncrementalPoly1305Aes, Poly1305Aes) {
    fn edit(&mut self, e: &Edit) {
        match e {
            Edit::Replace(o, d) => self.0.replace(*o, d).unwrap(),
            Edit::Append(d) => self.0.append(d),
            Edit::Truncate(n) => self.0.truncate(*n).unwrap(),
        }
    }
    fn message(&self) -> &[u8] {
        self.0.message()
    }
    fn tags(&mut self, k: usize, model: &[u8]) -> (Vec<u8>, Vec<u8>, bool) {
        let nonce = (k as u128 + 1000).to_le_bytes();
        let t = self.0.tag(&nonce).unwrap();
        let one = self.1.authenticate(&nonce, model).unwrap();
        (t.to_vec(), one.to_vec(), self.0.verify(&nonce, &t).is_ok())
    }
}

/// Applies `edits` to `mac` and to a plain copy of `init`; after each, the
/// messages agree and the tag equals the one recomputed from scratch.
fn edits_match_recompute(
    mut mac: impl Incremental,
    init: &[u8],
    edits: &[Edit],
) -> Result<(), TestCaseError> {
    let mut model = init.to_vec();
    for (k, e) in edits.iter().enumerate() {
        mac.edit(&apply(&mut model, e));
        prop_assert_eq!(mac.message(), &model[..]);
        let (t, one, verified) = mac.tags(k, &model);
        prop_assert_eq!(t, one);
        prop_assert!(verified);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn gmac_equals_recompute_after_edits(
        key in proptest::collection::vec(any::<u8>(), 16),
        init in proptest::collection::vec(any::<u8>(), 0..200),
        edits in proptest::collection::vec(edit(), 1..25),
    ) {
        let inc = AesIncrementalGmac::with_key(&key, &init).unwrap();
        edits_match_recompute((inc, AesGmac::new(&key).unwrap()), &init, &edits)?;
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
        let inc = IncrementalPoly1305Aes::new(&key, &init).unwrap();
        edits_match_recompute((inc, Poly1305Aes::new(&key).unwrap()), &init, &edits)?;
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
