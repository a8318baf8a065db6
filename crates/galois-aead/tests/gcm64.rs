//! GCM over 64-bit block ciphers: known answers for both variants on every
//! GF(2^64) backend, length limits, the Appendix A counter overlap, H = 0.

use galois_aead::gcm64::{set_odd_parity, Gcm64, Options64, TdeaGcm, Variant, WBIT_MAX_BYTES};
use galois_aead::gf64::{gf64_mul, gf64_mul_with, Gf64Backend};
use galois_aead::{BlockCipher64, Error};

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Gf64];

/// Every backend this CPU can run ([`common::every`]).
fn backends() -> Vec<Gf64Backend> {
    common::every(Gf64Backend::ALL, |b| b.is_available())
}

use common::kat::{hx, GcmKat};

/// A known answer of one variant, with H and Y0.
struct Kat {
    variant: Variant,
    gcm: GcmKat,
    h: &'static str,
    y0: &'static str,
}

/// Two cases of vectors/gcm64_tdea_sample.json (one per variant).
const KATS: &[Kat] = &[
    Kat {
        variant: Variant::WBit,
        gcm: GcmKat {
            key: "cea4d5a4cbab64b549fbb3dc525b1589b35b20b02c451f43",
            iv: "f91ad2f0",
            aad: "2f3779e62c",
            pt: "53e8c332d4c5fc0f",
            ct: "033d5c5548f1938c",
            tag: "8b12a9a6",
        },
        h: "86e799abe9643e71",
        y0: "f91ad2f000000001",
    },
    Kat {
        variant: Variant::AppendixA,
        gcm: GcmKat {
            key: "e679fd2c4ac7545e02133e293b2c13c2a7b5b56e3b32eadc",
            iv: "e3f22b20db6c0b4c438046d3f5f24c4c",
            aad: "a577c5e9ea",
            pt: "cef4339c700c9b4a2301151615e6c39b4962991276f7768980aff953892673d2409e296f036074744f2f6a4acd772ff22ff127574fe1b04726abfbb12c751930",
            ct: "8fb086bdb15757c42dde7c99ba5db2a3295aaf8df22d7a64b8308e3d4b2b8c1ced9cee837fb3aeee45658e48099b19892ab54d30a74a57acb9d8361e31c06c4a",
            tag: "83780a79",
        },
        h: "5488576b78bb9d7e",
        y0: "c926343644f75cdf",
    },
    Kat {
        variant: Variant::AppendixA,
        gcm: GcmKat {
            key: "7cae400dd96bd6b9c27685e038f72f767c6779a4a8f87f0d",
            iv: "e8ea0c20",
            aad: "6e9a5478bd",
            pt: "",
            ct: "",
            tag: "2f9d2900e276cc13",
        },
        h: "dea675eff42d41e7",
        y0: "00000001e8ea0c20",
    },
];

#[test]
fn known_answers_both_variants_every_backend() {
    for be in backends() {
        for k in KATS {
            let tag = hx(k.gcm.tag);
            let opts = Options64::new()
                .variant(k.variant)
                .backend(be)
                .tag_len(tag.len())
                .unwrap();
            let g = TdeaGcm::with_options(&hx(k.gcm.key), opts).unwrap();
            let sealed = g
                .seal(&hx(k.gcm.iv), &hx(k.gcm.aad), &hx(k.gcm.pt))
                .unwrap();
            let mut want = hx(k.gcm.ct);
            want.extend_from_slice(&tag);
            assert_eq!(
                hex::encode(&sealed),
                hex::encode(&want),
                "{be} {:?}",
                k.variant
            );
            assert_eq!(
                g.open(&hx(k.gcm.iv), &hx(k.gcm.aad), &sealed).unwrap(),
                hx(k.gcm.pt)
            );
            let (h, y0) = g.intermediates(&hx(k.gcm.iv)).unwrap();
            assert_eq!(h.to_vec(), hx(k.h));
            assert_eq!(y0.to_vec(), hx(k.y0));
        }
    }
}

#[test]
fn variants_differ_and_default_is_wbit() {
    let key = hx(KATS[0].gcm.key);
    let d = TdeaGcm::new(&key).unwrap();
    assert_eq!(d.variant(), Variant::WBit);
    assert_eq!(d.tag_len(), 8);
    let a = TdeaGcm::with_options(&key, Options64::new().variant(Variant::AppendixA)).unwrap();
    for iv in [&b"abcd"[..], &b"twelve bytes"[..]] {
        let x = d.seal(iv, b"aad", b"some plaintext").unwrap();
        let y = a.seal(iv, b"aad", b"some plaintext").unwrap();
        assert_ne!(x, y);
    }
}

#[test]
fn backends_agree_on_random_products() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..3000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let a = s.to_be_bytes();
        let b = s.rotate_left(17).wrapping_mul(3).to_be_bytes();
        let want = gf64_mul(&a, &b);
        for be in backends() {
            assert_eq!(gf64_mul_with(be, &a, &b).unwrap(), want, "{be}");
        }
    }
    // a^63 * a = a^64 = 1 + a + a^3 + a^4 = 11011000 || 0^56.
    let a63 = 1u64.to_be_bytes();
    let a1 = (1u64 << 62).to_be_bytes();
    assert_eq!(u64::from_be_bytes(gf64_mul(&a63, &a1)), 0xD8 << 56);
}

#[test]
fn tampering_fails_and_wipes() {
    let g = TdeaGcm::new(&hx(KATS[0].gcm.key)).unwrap();
    let iv = b"\x01\x02\x03\x04";
    let sealed = g.seal(iv, b"hdr", b"attack at dawn, 17 bytes").unwrap();
    for i in 0..sealed.len() {
        let mut bad = sealed.clone();
        bad[i] ^= 0x40;
        assert_eq!(g.open(iv, b"hdr", &bad), Err(Error::AuthenticationFailed));
    }
    assert_eq!(
        g.open(iv, b"hdx", &sealed),
        Err(Error::AuthenticationFailed)
    );
    let (c, t) = sealed.split_at(sealed.len() - 8);
    let mut buf = c.to_vec();
    let mut tag = t.to_vec();
    tag[0] ^= 1;
    assert!(g
        .open_in_place_detached(iv, b"hdr", &mut buf, &tag)
        .is_err());
    assert!(buf.iter().all(|&b| b == 0));
}

#[test]
fn limits_per_variant() {
    let w = Variant::WBit;
    let a = Variant::AppendixA;
    assert_eq!(w.check_lengths(4, 0, 0), Ok(()));
    assert_eq!(
        w.check_lengths(0, 0, 0),
        Err(Error::InvalidIvLength { got: 0 })
    );
    // 32-bit length fields: 2^32 - 1 bits at most.
    assert_eq!(WBIT_MAX_BYTES * 8, (1u64 << 32) - 8);
    assert!(w.check_lengths(4, WBIT_MAX_BYTES, WBIT_MAX_BYTES).is_ok());
    assert!(matches!(
        w.check_lengths(4, WBIT_MAX_BYTES + 1, 0),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        w.check_lengths(WBIT_MAX_BYTES + 1, 0, 0),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        w.check_lengths(4, 0, WBIT_MAX_BYTES + 1),
        Err(Error::MessageTooLong { .. })
    ));
    // Appendix A: 64-bit lengths, 2^32 - 2 counter blocks of 8 bytes.
    assert!(a
        .check_lengths(4, WBIT_MAX_BYTES + 1, WBIT_MAX_BYTES + 1)
        .is_ok());
    let max = ((1u64 << 32) - 2) * 8;
    assert!(a.check_lengths(4, 0, max).is_ok());
    assert!(matches!(
        a.check_lengths(4, 0, max + 1),
        Err(Error::MessageTooLong { .. })
    ));
    assert!(matches!(
        a.check_lengths(4, 1 << 61, 0),
        Err(Error::TooLong { .. })
    ));
    // Errors reach the API too.
    let g = TdeaGcm::new(&hx(KATS[0].gcm.key)).unwrap();
    assert_eq!(
        g.seal(b"", b"", b"x"),
        Err(Error::InvalidIvLength { got: 0 })
    );
}

#[test]
fn tag_lengths_and_keys() {
    for n in 4..=8 {
        assert!(Options64::new().tag_len(n).is_ok());
    }
    for n in [0, 3, 9, 16] {
        assert_eq!(
            Options64::new().tag_len(n),
            Err(Error::InvalidTagLength { got: n })
        );
    }
    assert_eq!(
        TdeaGcm::new(&[1u8; 16]).err(),
        Some(Error::InvalidKeyLength { got: 16 })
    );
    // K1 = K2 collapses EDE to single DES: refused.
    let mut k = hx(KATS[0].gcm.key);
    k.copy_within(0..8, 8);
    assert!(matches!(TdeaGcm::new(&k), Err(Error::InvalidKey { .. })));
    // Every byte needs odd parity; set_odd_parity repairs derived keys.
    let mut k = hx(KATS[0].gcm.key);
    assert!(k.iter().all(|b| b.count_ones() % 2 == 1));
    k[5] ^= 1;
    assert!(matches!(TdeaGcm::new(&k), Err(Error::InvalidKey { .. })));
    set_odd_parity(&mut k);
    assert_eq!(k, hx(KATS[0].gcm.key));
    let mut raw: Vec<u8> = (0u8..24).map(|i| i.wrapping_mul(37)).collect();
    set_odd_parity(&mut raw);
    assert!(raw.iter().all(|b| b.count_ones() % 2 == 1));
    assert!(TdeaGcm::new(&raw).is_ok());
    // Tags of 1..3 bytes only through the conformance-only option.
    for n in 1..=8 {
        assert!(Options64::new().permissive_tag_len(n).is_ok());
    }
    assert!(Options64::new().permissive_tag_len(9).is_err());
    let g = TdeaGcm::with_options(
        &hx(KATS[0].gcm.key),
        Options64::new().permissive_tag_len(2).unwrap(),
    )
    .unwrap();
    let full = TdeaGcm::new(&hx(KATS[0].gcm.key)).unwrap();
    let a = g.seal(b"iviv", b"", b"x").unwrap();
    let b = full.seal(b"iviv", b"", b"x").unwrap();
    assert_eq!(
        a[..3],
        b[..3],
        "a truncated tag is a prefix of the full one"
    );
}

/// The hazard the module docs describe: with the literal Appendix A layout
/// a 32-bit IV sits in the counted bits, so IVs v and v + 1 share keystream.
#[test]
fn appendix_a_counter_overlap_and_wbit_has_none() {
    let key = hx(KATS[1].gcm.key);
    let zeros = [0u8; 24];
    let ks = |v: Variant, iv: u32| {
        let g = TdeaGcm::with_options(&key, Options64::new().variant(v)).unwrap();
        let mut b = zeros;
        g.seal_in_place_detached(&iv.to_be_bytes(), b"", &mut b)
            .unwrap();
        b
    };
    let a5 = ks(Variant::AppendixA, 5);
    let a6 = ks(Variant::AppendixA, 6);
    // IV 5 uses counters 6, 7, 8; IV 6 uses 7, 8, 9.
    assert_eq!(a5[8..24], a6[0..16]);
    let w5 = ks(Variant::WBit, 5);
    let w6 = ks(Variant::WBit, 6);
    for i in 0..3 {
        for j in 0..3 {
            assert_ne!(w5[8 * i..8 * i + 8], w6[8 * j..8 * j + 8]);
        }
    }
}

/// A test-only 64-bit "cipher" with E(K, 0) = 0: a byte rotation.
struct ZeroFixing;
impl BlockCipher64 for ZeroFixing {
    fn encrypt_block(&self, b: &mut [u8; 8]) {
        b.rotate_left(3);
    }
}

#[test]
fn zero_h_reported_and_refusable() {
    let g = Gcm64::from_cipher(ZeroFixing, Options64::new()).unwrap();
    assert!(g.h_is_zero());
    // With H = 0 the tag ignores the data: a forgery for free.
    let iv = [9u8; 4];
    let t1 = g.seal_in_place_detached(&iv, b"one", &mut []).unwrap();
    let t2 = g.seal_in_place_detached(&iv, b"two", &mut []).unwrap();
    assert_eq!(t1, t2);
    assert!(matches!(
        Gcm64::from_cipher(ZeroFixing, Options64::new().refuse_zero_h()),
        Err(Error::InvalidKey { .. })
    ));
    let real =
        TdeaGcm::with_options(&hx(KATS[0].gcm.key), Options64::new().refuse_zero_h()).unwrap();
    assert!(!real.h_is_zero());
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]
        /// Every backend gives the same bytes, and open inverts seal, for
        /// both variants and any lengths.
        #[test]
        fn backends_agree_and_round_trip(
            key in proptest::collection::vec(any::<u8>(), 24),
            iv in proptest::collection::vec(any::<u8>(), 1..30),
            aad in proptest::collection::vec(any::<u8>(), 0..60),
            pt in proptest::collection::vec(any::<u8>(), 0..100),
            appendix in any::<bool>(),
            flip in any::<prop::sample::Index>(),
        ) {
            let mut key = key;
            set_odd_parity(&mut key);
            prop_assume!(key[0..8] != key[8..16] && key[8..16] != key[16..24]);
            let v = if appendix { Variant::AppendixA } else { Variant::WBit };
            let mut first: Option<Vec<u8>> = None;
            for be in backends() {
                let g = TdeaGcm::with_options(&key, Options64::new().variant(v).backend(be)).unwrap();
                let s = g.seal(&iv, &aad, &pt).unwrap();
                prop_assert_eq!(g.open(&iv, &aad, &s).unwrap(), pt.clone());
                let mut bad = s.clone();
                let i = flip.index(bad.len());
                bad[i] ^= 1;
                prop_assert_eq!(g.open(&iv, &aad, &bad), Err(Error::AuthenticationFailed));
                match &first {
                    None => first = Some(s),
                    Some(f) => prop_assert_eq!(f, &s, "{}", be),
                }
            }
        }
    }
}
