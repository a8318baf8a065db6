//! Every GHASH backend against the bit-serial reference (Algorithm 1).

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash];
use common::*;
use galois_aead::{gf128_mul, Ghash, GhashBackend};
use proptest::prelude::*;

#[test]
fn every_backend_multiplies_like_bitserial() {
    let mut r = rng(1);
    for b in ghash_backends() {
        for _ in 0..2000 {
            let (h, x) = (block(&mut r), block(&mut r));
            let mut g = Ghash::with_backend(&h, b).unwrap();
            g.update(&x);
            assert_eq!(g.state(), gf128_mul(&x, &h), "{b}: x*H");
        }
        // Edge elements: 0, 1 (= x^0, leftmost bit), x^127, all ones.
        let one = {
            let mut o = [0u8; 16];
            o[0] = 0x80;
            o
        };
        let mut x127 = [0u8; 16];
        x127[15] = 1;
        for h in [[0u8; 16], one, x127, [0xff; 16]] {
            for x in [[0u8; 16], one, x127, [0xff; 16]] {
                let mut g = Ghash::with_backend(&h, b).unwrap();
                g.update(&x);
                assert_eq!(g.state(), gf128_mul(&x, &h), "{b}: edge");
            }
        }
    }
}

#[test]
fn field_laws_hold_for_the_reference() {
    let mut r = rng(2);
    let mut one = [0u8; 16];
    one[0] = 0x80;
    for _ in 0..200 {
        let (a, b, c) = (block(&mut r), block(&mut r), block(&mut r));
        assert_eq!(gf128_mul(&a, &one), a);
        assert_eq!(gf128_mul(&a, &b), gf128_mul(&b, &a));
        assert_eq!(
            gf128_mul(&gf128_mul(&a, &b), &c),
            gf128_mul(&a, &gf128_mul(&b, &c))
        );
        let bc: Vec<u8> = b.iter().zip(c.iter()).map(|(x, y)| x ^ y).collect();
        let lhs = gf128_mul(&a, &bc.try_into().unwrap());
        let rhs: Vec<u8> = gf128_mul(&a, &b)
            .iter()
            .zip(gf128_mul(&a, &c).iter())
            .map(|(x, y)| x ^ y)
            .collect();
        assert_eq!(lhs.to_vec(), rhs);
    }
    // x^127 * x = x^128 = x^7 + x^2 + x + 1 = 0xE1 || 0^120.
    let mut x127 = [0u8; 16];
    x127[15] = 1;
    let mut x1 = [0u8; 16];
    x1[0] = 0x40;
    let mut r_poly = [0u8; 16];
    r_poly[0] = 0xe1;
    assert_eq!(gf128_mul(&x127, &x1), r_poly);
}

fn reference_hash(h: &[u8; 16], data: &[u8]) -> [u8; 16] {
    let mut g = Ghash::with_backend(h, GhashBackend::Bitserial).unwrap();
    g.update(data);
    g.finalize()
}

#[test]
fn every_backend_over_every_length_0_to_1024() {
    let mut r = rng(3);
    let h = block(&mut r);
    let data = bytes(&mut r, 1024);
    let want: Vec<[u8; 16]> = (0..=1024).map(|n| reference_hash(&h, &data[..n])).collect();
    for b in ghash_backends() {
        for n in 0..=1024 {
            let mut g = Ghash::with_backend(&h, b).unwrap();
            g.update(&data[..n]);
            assert_eq!(g.finalize(), want[n], "{b}: length {n}");
        }
    }
}

#[test]
fn update_padded_pads_each_string() {
    let mut r = rng(4);
    let h = block(&mut r);
    let (a, c) = (bytes(&mut r, 21), bytes(&mut r, 35));
    for b in ghash_backends() {
        let mut g = Ghash::with_backend(&h, b).unwrap();
        g.update_padded(&a);
        g.update_padded(&c);
        let mut padded = a.clone();
        padded.resize(32, 0);
        padded.extend_from_slice(&c);
        padded.resize(80, 0);
        assert_eq!(g.finalize(), reference_hash(&h, &padded), "{b}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_split_gives_the_same_hash(
        h in any::<[u8; 16]>(),
        data in proptest::collection::vec(any::<u8>(), 0..700),
        cuts in proptest::collection::vec(0usize..700, 0..12),
    ) {
        let want = reference_hash(&h, &data);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
        cuts.sort();
        for b in ghash_backends() {
            let mut g = Ghash::with_backend(&h, b).unwrap();
            let mut last = 0;
            for &c in &cuts {
                g.update(&data[last..c]);
                last = c;
            }
            g.update(&data[last..]);
            prop_assert_eq!(g.finalize(), want, "{}", b);
        }
    }
}
