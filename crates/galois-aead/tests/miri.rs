//! The portable code paths with small inputs, sized so that Miri finishes
//! (`scripts/miri.sh` runs this file under `cargo miri test`); natively it
//! takes well under a second and runs with the other tests.
//!
//! Under Miri the run-time CPU detection sees no SIMD feature, so automatic
//! selection must land on the portable backends: the first test checks
//! that, the others pin every portable backend by name and check results
//! against known answers and round trips (each check can fail).

use galois_aead::gcm64::{Options64, TdeaGcm, Variant};
use galois_aead::gf64::Gf64Backend;
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::poly1305::{self, Poly1305Aes};
use galois_aead::stream::{self, open_stream, seal_stream, StreamError, HEADER_LEN, TAG_LEN};
use galois_aead::{AesBackend, AesGcm, AesGmac, Error, Ghash, GhashBackend, Options};
#[path = "common/kat.rs"]
mod kat;
use kat::{hx, GcmKat};

/// Deterministic filler bytes.
fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed) ^ (i >> 3) as u8)
        .collect()
}

/// The GHASH backends that need no CPU feature.
const PORTABLE_GHASH: &[GhashBackend] = &[
    GhashBackend::Bitserial,
    GhashBackend::Ctmul64,
    GhashBackend::Table8Vartime,
    GhashBackend::Table4Vartime,
    GhashBackend::Shoup8Vartime,
    GhashBackend::Shoup4Vartime,
];

/// The GF(2^64) backends that need no CPU feature.
const PORTABLE_GF64: &[Gf64Backend] = &[Gf64Backend::Bitserial, Gf64Backend::Ctmul];

/// Options pinning a GHASH backend and the portable AES.
fn portable(b: GhashBackend) -> Options {
    Options::new().backend(b).aes_backend(AesBackend::Portable)
}

const P60: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
const A20: &str = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const K128: &str = "feffe9928665731c6d6a8f9467308308";

/// Test cases 1, 2, 4, 5, 6, 10 and 16 of the GCM specification (as in
/// vectors/mcgrew_viega_gcm_spec.json): empty, one block, AAD with
/// a partial block, 64- and 480-bit IVs, AES-192 and AES-256.
const GCM_KATS: &[GcmKat] = &[
    GcmKat {
        key: "00000000000000000000000000000000",
        iv: "000000000000000000000000",
        aad: "",
        pt: "",
        ct: "",
        tag: "58e2fccefa7e3061367f1d57a4e7455a",
    },
    GcmKat {
        key: "00000000000000000000000000000000",
        iv: "000000000000000000000000",
        aad: "",
        pt: "00000000000000000000000000000000",
        ct: "0388dace60b6a392f328c2b971b2fe78",
        tag: "ab6e47d42cec13bdf53a67b21257bddf",
    },
    GcmKat {
        key: K128,
        iv: "cafebabefacedbaddecaf888",
        aad: A20,
        pt: P60,
        ct: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
        tag: "5bc94fbc3221a5db94fae95ae7121a47",
    },
    GcmKat {
        key: K128,
        iv: "cafebabefacedbad",
        aad: A20,
        pt: P60,
        ct: "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
        tag: "3612d2e79e3b0785561be14aaca2fccb",
    },
    GcmKat {
        key: K128,
        iv: "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
        aad: A20,
        pt: P60,
        ct: "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
        tag: "619cc5aefffe0bfa462af43c1699d050",
    },
    GcmKat {
        key: "feffe9928665731c6d6a8f9467308308feffe9928665731c",
        iv: "cafebabefacedbaddecaf888",
        aad: A20,
        pt: P60,
        ct: "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
        tag: "2519498e80f1478f37ba55bd6d27618c",
    },
    GcmKat {
        key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
        iv: "cafebabefacedbaddecaf888",
        aad: A20,
        pt: P60,
        ct: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
        tag: "76fc6ece0f4e1768cddf8853bb2d551b",
    },
];

#[test]
fn automatic_selection_is_portable_under_miri() {
    let g = AesGcm::new(&[1u8; 16]).unwrap();
    let p = Poly1305Aes::new(&[0u8; 32]).unwrap();
    if cfg!(miri) {
        assert_eq!(galois_aead::GhashBackend::auto(), GhashBackend::Ctmul64);
        assert_eq!(galois_aead::AesBackend::auto(), AesBackend::Portable);
        assert_eq!(g.backend(), GhashBackend::Ctmul64);
        assert_eq!(g.aes_backend(), AesBackend::Portable);
        assert_eq!(p.backend(), poly1305::Poly1305Backend::Portable);
        assert_eq!(Gf64Backend::auto(), Gf64Backend::Ctmul);
        assert_eq!(
            poly1305::Poly1305Backend::available(),
            [poly1305::Poly1305Backend::Portable]
        );
        // Pinning a backend the (interpreted) CPU lacks is refused.
        #[cfg(target_arch = "x86_64")]
        for (b, name) in [
            (GhashBackend::Clmul, "clmul"),
            (GhashBackend::VaesAvx2, "vaes_avx2"),
        ] {
            assert_eq!(
                AesGcm::with_options(&[1u8; 16], Options::new().backend(b)).err(),
                Some(Error::BackendUnavailable { backend: name })
            );
        }
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            galois_aead::Aes::with_backend(&[1u8; 16], AesBackend::AesNi).err(),
            Some(Error::BackendUnavailable { backend: "aesni" })
        );
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            Poly1305Aes::with_backend(&[0u8; 32], poly1305::Poly1305Backend::Avx2).err(),
            Some(Error::BackendUnavailable { backend: "avx2" })
        );
    }
    // Whatever was picked is constant time and runs.
    assert!(g.backend().is_constant_time());
    let s = g.seal(&[2; 12], b"a", b"b").unwrap();
    assert_eq!(g.open(&[2; 12], b"a", &s).unwrap(), b"b");
}

#[test]
fn ghash_every_portable_backend_matches_bitserial() {
    let h: [u8; 16] = data(16, 9).try_into().unwrap();
    let msg = data(83, 1);
    let mut want = Ghash::with_backend(&h, GhashBackend::Bitserial).unwrap();
    want.update(&msg);
    let want = want.finalize();
    // GCM test case 2: H = E(0, 0), GHASH(H, {}, C) before the length block.
    let h2: [u8; 16] = hx("66e94bd4ef8a2c3b884cfa59ca342b2e").try_into().unwrap();
    let c2 = hx("0388dace60b6a392f328c2b971b2fe78");
    let x1 = galois_aead::gf128_mul(&c2.clone().try_into().unwrap(), &h2);
    for &b in PORTABLE_GHASH {
        // Odd splits: 1, 15, 16, 17 and the rest.
        let mut g = Ghash::with_backend(&h, b).unwrap();
        assert_eq!(g.backend(), b);
        let (mut at, mut k) = (0, 0);
        for n in [1usize, 15, 16, 17, 34] {
            g.update(&msg[at..at + n]);
            at += n;
            k += 1;
        }
        assert_eq!(at, msg.len(), "{k} pieces");
        assert_eq!(g.finalize(), want, "{b}");
        let mut g = Ghash::with_backend(&h2, b).unwrap();
        g.update(&c2);
        assert_eq!(g.finalize(), x1, "{b}");
    }
}

#[test]
fn gcm_known_answers_every_portable_backend() {
    for &b in PORTABLE_GHASH {
        // Every vector on the automatic choice; on the others, the ones
        // with a partial AAD block and a partial text block (4) and with a
        // 60-byte IV hashed by GHASH (6): AES dominates Miri's time.
        for (n, k) in GCM_KATS.iter().enumerate() {
            if b != GhashBackend::Ctmul64 && n != 2 && n != 4 {
                continue;
            }
            let g = AesGcm::with_options(&hx(k.key), portable(b)).unwrap();
            assert_eq!((g.backend(), g.aes_backend()), (b, AesBackend::Portable));
            let (iv, aad, pt) = (hx(k.iv), hx(k.aad), hx(k.pt));
            let sealed = g.seal(&iv, &aad, &pt).unwrap();
            let want = [hx(k.ct), hx(k.tag)].concat();
            assert_eq!(hex::encode(&sealed), hex::encode(&want), "{b} vector {n}");
            assert_eq!(g.open(&iv, &aad, &sealed).unwrap(), pt, "{b} vector {n}");
            // A flipped tag bit: refused, output wiped.
            let mut bad = sealed.clone();
            *bad.last_mut().unwrap() ^= 0x80;
            let mut out = vec![0x55u8; pt.len()];
            assert_eq!(
                g.open_into(&iv, &aad, &bad, &mut out),
                Err(Error::AuthenticationFailed)
            );
            assert!(out.iter().all(|&x| x == 0), "{b}: not wiped");
        }
    }
}

#[test]
fn gmac_and_online_api_portable() {
    let key = hx(K128);
    let iv = hx("cafebabefacedbaddecaf888");
    let msg = data(45, 3);
    for &b in [GhashBackend::Ctmul64, GhashBackend::Shoup4Vartime].iter() {
        let gcm = AesGcm::with_options(&key, portable(b)).unwrap();
        let mac = AesGmac::with_options(&key, portable(b)).unwrap();
        let t = mac.authenticate(&iv, &msg).unwrap();
        // GMAC is GCM with the message as AAD and nothing to encrypt.
        assert_eq!(t.as_bytes(), &gcm.seal(&iv, &msg, b"").unwrap()[..]);
        assert!(mac.verify(&iv, &msg, t.as_bytes()).is_ok());
        let mut m2 = msg.clone();
        m2[44] ^= 1;
        assert_eq!(
            mac.verify(&iv, &m2, t.as_bytes()),
            Err(Error::AuthenticationFailed)
        );

        // On-line encryption in pieces equals the one-shot result.
        let k = &GCM_KATS[2];
        let (aad, pt) = (hx(k.aad), hx(k.pt));
        let one = gcm.seal(&iv, &aad, &pt).unwrap();
        let mut e = gcm.encryptor(&iv).unwrap();
        e.aad(&aad[..7]).unwrap();
        e.aad(&aad[7..]).unwrap();
        let mut buf = pt.clone();
        let (x, y) = buf.split_at_mut(21);
        e.encrypt(x).unwrap();
        e.encrypt(y).unwrap();
        let tag = e.finish();
        assert_eq!([&buf[..], tag.as_bytes()].concat(), one);

        // The safe decryptor releases the plaintext only with a good tag.
        let (ct, tg) = one.split_at(pt.len());
        let mut d = gcm.decryptor(&iv).unwrap();
        d.aad(&aad).unwrap();
        d.update(&ct[..33]).unwrap();
        d.update(&ct[33..]).unwrap();
        assert_eq!(d.finish(tg).unwrap(), pt);
        let mut d = gcm.decryptor(&iv).unwrap();
        d.aad(&aad).unwrap();
        d.update(ct).unwrap();
        assert_eq!(d.finish(&[0u8; 16]), Err(Error::AuthenticationFailed));

        // The unverified decryptor decrypts as it goes, then judges.
        let mut u = gcm.unverified_decryptor(&iv).unwrap();
        u.aad(&aad).unwrap();
        let mut c = ct.to_vec();
        let (x, y) = c.split_at_mut(5);
        u.decrypt_unverified(x).unwrap();
        u.decrypt_unverified(y).unwrap();
        assert_eq!(c, pt);
        assert!(u.finish(tg).is_ok());
    }
}

#[test]
fn gf64_portable_backends() {
    // A cross-check of the multipliers on a few pseudo-random elements.
    for i in 0..8u8 {
        let a: [u8; 8] = data(8, i).try_into().unwrap();
        let b: [u8; 8] = data(8, 100 + i).try_into().unwrap();
        let want = galois_aead::gf64::gf64_mul(&a, &b);
        for &be in PORTABLE_GF64 {
            assert_eq!(galois_aead::gf64::gf64_mul_with(be, &a, &b).unwrap(), want);
        }
    }
    // GCM-64 with TDEA: one case of each variant from
    // vectors/gcm64_tdea_sample.json.
    let kats = [
        (
            Variant::WBit,
            "cea4d5a4cbab64b549fbb3dc525b1589b35b20b02c451f43",
            "f91ad2f0",
            "2f3779e62c",
            "53e8c332d4c5fc0f",
            "033d5c5548f1938c8b12a9a6",
        ),
        (
            Variant::AppendixA,
            "7cae400dd96bd6b9c27685e038f72f767c6779a4a8f87f0d",
            "e8ea0c20",
            "6e9a5478bd",
            "",
            "2f9d2900e276cc13",
        ),
    ];
    for &be in PORTABLE_GF64 {
        for (v, key, iv, aad, pt, sealed) in kats {
            let want = hx(sealed);
            let opts = Options64::new()
                .variant(v)
                .backend(be)
                .tag_len(want.len() - pt.len() / 2)
                .unwrap();
            let g = TdeaGcm::with_options(&hx(key), opts).unwrap();
            let s = g.seal(&hx(iv), &hx(aad), &hx(pt)).unwrap();
            assert_eq!(hex::encode(&s), sealed, "{be} {v:?}");
            assert_eq!(g.open(&hx(iv), &hx(aad), &s).unwrap(), hx(pt));
            let mut bad = s.clone();
            bad[0] ^= 4;
            assert_eq!(
                g.open(&hx(iv), &hx(aad), &bad),
                Err(Error::AuthenticationFailed)
            );
        }
    }
}

#[test]
fn poly1305_aes_portable() {
    // Bernstein's appendix B, examples 1 to 4.
    let kats = [
        (
            "ec074c835580741701425b623235add6851fc40c3467ac0be05cc20404f3f700",
            "fb447350c4e868c52ac3275cf9d4327e",
            "f3f6",
            "f4c633c3044fc145f84f335cb81953de",
        ),
        (
            "75deaa25c09f208e1dc4ce6b5cad3fbfa0f3080000f46400d0c7e9076c834403",
            "61ee09218d29b0aaed7e154a2c5509cc",
            "",
            "dd3fab2251f11ac759f0887129cc2ee7",
        ),
        (
            "6acb5f61a7176dd320c5c1eb2edcdc7448443d0bb0d21109c89a100b5ce2c208",
            "ae212a55399729595dea458bc621ff0e",
            "663cea190ffb83d89593f3f476b6bc24d7e679107ea26adb8caf6652d0656136",
            "0ee1c16bb73f0f4fd19881753c01cdbe",
        ),
        (
            "e1a5668a4d5b66a5f68cc5424ed5982d12976a08c4426d0ce8a82407c4f48207",
            "9ae831e743978d3a23527c7128149e3a",
            "ab0812724a7f1e342742cbed374d94d136c6b8795d45b3819830f2c04491faf0990c62e48b8018b2c3e4a0fa3134cb67fa83e158c994d961c4cb21095c1bf9",
            "5154ad0d2cb26e01274fc51148491f1b",
        ),
    ];
    for (key, nonce, msg, tag) in kats {
        let (key, nonce, msg, tag) = (hx(key), hx(nonce), hx(msg), hx(tag));
        let m = Poly1305Aes::with_backend(&key, poly1305::Poly1305Backend::Portable).unwrap();
        assert_eq!(m.authenticate(&nonce, &msg).unwrap().to_vec(), tag);
        assert!(m.verify(&nonce, &msg, &tag).is_ok());
        let mut bad = tag.clone();
        bad[15] ^= 0x80;
        assert_eq!(
            m.verify(&nonce, &msg, &bad),
            Err(Error::AuthenticationFailed)
        );
        // Streaming in uneven pieces.
        let mut s = m.stream(&nonce).unwrap();
        let cut = msg.len() / 3;
        s.update(&msg[..cut]).update(&msg[cut..]);
        assert_eq!(s.finalize().to_vec(), tag);
    }
    // An unclamped r is refused, clamping fixes it.
    let mut key = [0xffu8; 32];
    assert!(matches!(
        Poly1305Aes::with_backend(&key, poly1305::Poly1305Backend::Portable),
        Err(Error::InvalidKey { .. })
    ));
    poly1305::clamp(&mut key);
    assert!(Poly1305Aes::with_backend(&key, poly1305::Poly1305Backend::Portable).is_ok());
}

const SKEY: [u8; 16] = [0x42; 16];
const SEG: usize = 16;

/// Byte range of chunk `k` (segment plus tag) in a stream.
fn chunk(s: &[u8], k: usize) -> std::ops::Range<usize> {
    let a = HEADER_LEN + k * (SEG + TAG_LEN);
    a..(a + SEG + TAG_LEN).min(s.len())
}

#[test]
fn stream_round_trips_and_attacks() {
    let pt = data(3 * SEG + 5, 7); // four segments, the last one short
    let s = stream::seal(&SKEY, SEG, &pt).unwrap();
    assert_eq!(s.len(), HEADER_LEN + pt.len() + 4 * TAG_LEN);
    assert_eq!(stream::open(&SKEY, &s).unwrap(), pt);
    // Over Read/Write, both directions (the opener runs a reader thread).
    let mut s2 = Vec::new();
    assert_eq!(
        seal_stream(&SKEY, SEG, &mut &pt[..], &mut s2).unwrap(),
        pt.len() as u64
    );
    let mut out = Vec::new();
    open_stream(&SKEY, &mut &s2[..], &mut out).unwrap();
    assert_eq!(out, pt);
    // An empty stream is one empty final segment.
    let e = stream::seal(&SKEY, SEG, b"").unwrap();
    assert_eq!(stream::open(&SKEY, &e).unwrap(), b"");

    let crypto = |bytes: &[u8]| -> Error {
        let a = stream::open(&SKEY, bytes).unwrap_err();
        let mut out = Vec::new();
        match open_stream(&SKEY, &mut &bytes[..], &mut out) {
            Err(StreamError::Crypto(b)) => assert_eq!(a, b),
            other => panic!("{other:?}"),
        }
        a
    };
    // Truncated after a whole segment, inside a tag, to the header.
    assert_eq!(crypto(&s[..chunk(&s, 1).end]), Error::StreamTruncated);
    assert_eq!(crypto(&s[..chunk(&s, 3).start + 9]), Error::StreamTruncated);
    assert_eq!(crypto(&s[..HEADER_LEN]), Error::StreamTruncated);
    // Reordered: chunks 0 and 1 swapped.
    let mut t = s.clone();
    t[chunk(&s, 0)].copy_from_slice(&s[chunk(&s, 1)]);
    t[chunk(&s, 1)].copy_from_slice(&s[chunk(&s, 0)]);
    assert_eq!(
        crypto(&t),
        Error::StreamOutOfOrder {
            expected: 0,
            found: 1
        }
    );
    // Duplicated: chunk 0 twice.
    let t = [
        &s[..chunk(&s, 1).start],
        &s[chunk(&s, 0)],
        &s[chunk(&s, 1).start..],
    ]
    .concat();
    assert_eq!(crypto(&t), Error::StreamDuplicate { segment: 0 });
    // Data appended after the final segment (of a stream of whole
    // segments, so that the junk is a chunk of its own).
    let w = stream::seal(&SKEY, SEG, &pt[..2 * SEG]).unwrap();
    let t = [&w[..], &[0u8; 3][..]].concat();
    assert_eq!(crypto(&t), Error::StreamTrailingData);
    // Wrong key, and a tampered header (its key check fails the same way).
    assert_eq!(
        stream::open(&[0x43; 16], &s).unwrap_err(),
        Error::StreamWrongKey
    );
    let mut t = s.clone();
    t[20] ^= 1;
    assert_eq!(crypto(&t), Error::StreamWrongKey);
    let mut t = s.clone();
    t[0] = b'X';
    assert!(matches!(crypto(&t), Error::StreamBadHeader { .. }));
}

#[test]
fn stream_tampered_segment() {
    // A flipped ciphertext bit matches no position: after the search for a
    // misplaced segment (2^17 trial tags) it is a plain authentication
    // failure, and nothing is released.
    let pt = data(2 * SEG, 8);
    let s = stream::seal(&SKEY, SEG, &pt).unwrap();
    let mut t = s.clone();
    t[chunk(&s, 1).start + 3] ^= 0x10;
    assert_eq!(stream::open(&SKEY, &t), Err(Error::AuthenticationFailed));
    let mut out = Vec::new();
    assert!(matches!(
        open_stream(&SKEY, &mut &t[..], &mut out),
        Err(StreamError::Crypto(Error::AuthenticationFailed))
    ));
    assert_eq!(out, &pt[..SEG], "only the verified first segment");
}

#[test]
fn packets_round_trip_replay_and_tampering() {
    let key = [0x11u8; 16];
    let salt = *b"salt";
    let hdr = b"HDR4";
    let mut s = PacketSealer::new(&key, salt, Role::Initiator, Start::NewKey).unwrap();
    let mut o = PacketOpener::with_config(&key, salt, Role::Responder, hdr.len(), 16, 4).unwrap();
    let sizes = [0usize, 1, 15, 16, 17, 44];
    let p: Vec<Vec<u8>> = sizes
        .iter()
        .map(|&n| s.seal(hdr, &data(n, n as u8)).unwrap())
        .collect();
    for (i, (pk, &n)) in p.iter().zip(&sizes).enumerate() {
        assert_eq!(pk.len(), hdr.len() + 8 + n + 16);
        if i == 1 {
            continue; // dropped, opened late below
        }
        let got = o.open(pk).unwrap();
        assert_eq!((got.seq, &got.header[..]), (i as u64 + 1, &hdr[..]));
        assert_eq!(got.payload, data(n, n as u8));
    }
    // Replay.
    assert_eq!(o.open(&p[4]), Err(Error::Replay { seq: 5 }));
    // Late, but below the 4-packet window (highest 6, lowest 3).
    assert_eq!(
        o.open(&p[1]),
        Err(Error::OutsideWindow { seq: 2, lowest: 3 })
    );
    // Tampered payload, tampered sequence number, truncated.
    let mut q = s.seal(hdr, b"seven").unwrap();
    let good = q.clone();
    q[hdr.len() + 8] ^= 1;
    assert_eq!(o.open(&q), Err(Error::AuthenticationFailed));
    let mut q = good.clone();
    q[hdr.len() + 7] ^= 0x40;
    assert_eq!(o.open(&q), Err(Error::AuthenticationFailed));
    assert_eq!(o.highest(), 6, "forgeries do not move the window");
    assert!(matches!(
        o.open(&good[..hdr.len() + 8 + 15]),
        Err(Error::CiphertextTooShort { .. })
    ));
    assert_eq!(o.open(&good).unwrap().payload, b"seven");
    // The sealer never wraps.
    s.resume_at(u64::MAX).unwrap();
    let last = s.seal(hdr, b"").unwrap();
    assert!(matches!(s.seal(hdr, b""), Err(Error::LimitReached { .. })));
    assert_eq!(o.open(&last).unwrap().seq, u64::MAX);
}
