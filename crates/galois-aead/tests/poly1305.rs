//! Poly1305-AES and one-time Poly1305: every backend against a big-integer
//! reference, the shared vectors, OpenSSL, and bad input.
//!
//! Every backend whose CPU features this machine has runs (the probes are
//! checked against the standard library's detection in `detect`'s tests);
//! the others are named on stderr.

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Poly1305];

use galois_aead::poly1305::{
    chunk_values, clamp, clamp_r, is_clamped, Poly1305, Poly1305Aes, Poly1305Backend, Poly1305Mac,
};
use galois_aead::{Aes, BlockCipher128, Error};
use num_bigint::BigUint;
use rand::{Rng, RngCore, SeedableRng};
use serde_json::Value;

fn p() -> BigUint {
    (BigUint::from(1u8) << 130usize) - BigUint::from(5u8)
}

/// (c_1 r^q + ... + c_q r) mod p, straight from the paper's definition.
fn ref_poly(r: &[u8; 16], msg: &[u8]) -> BigUint {
    let r = BigUint::from_bytes_le(r);
    let mut h = BigUint::from(0u8);
    for c in msg.chunks(16) {
        let mut v = c.to_vec();
        v.push(1);
        h = ((h + BigUint::from_bytes_le(&v)) * &r) % p();
    }
    h
}

fn ref_tag(r: &[u8; 16], s: &[u8; 16], msg: &[u8]) -> [u8; 16] {
    let t = (ref_poly(r, msg) + BigUint::from_bytes_le(s)) % (BigUint::from(1u8) << 128usize);
    let mut out = [0u8; 16];
    let b = t.to_bytes_le();
    out[..b.len()].copy_from_slice(&b);
    out
}

/// AES-128 of one block by OpenSSL, independent of galois's AES.
#[cfg(not(galois_cross))]
fn openssl_aes(k: &[u8], n: &[u8; 16]) -> [u8; 16] {
    let mut c = openssl::symm::Crypter::new(
        openssl::symm::Cipher::aes_128_ecb(),
        openssl::symm::Mode::Encrypt,
        k,
        None,
    )
    .unwrap();
    c.pad(false);
    let mut out = vec![0u8; 32];
    let n1 = c.update(n, &mut out).unwrap();
    let n2 = c.finalize(&mut out[n1..]).unwrap();
    assert_eq!(n1 + n2, 16);
    out[..16].try_into().unwrap()
}

/// Cross-built (scripts/cross.sh: no target OpenSSL): AES-128 of one block
/// by the `aes` crate, still outside galois's own code.
#[cfg(galois_cross)]
fn openssl_aes(k: &[u8], n: &[u8; 16]) -> [u8; 16] {
    use aes::cipher::{BlockCipherEncrypt, KeyInit};
    let mut b = aes::Block::from(*n);
    aes::Aes128::new_from_slice(k)
        .unwrap()
        .encrypt_block(&mut b);
    b.into()
}

#[cfg(not(galois_cross))]
fn openssl_poly1305(key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
    let pkey =
        openssl::pkey::PKey::private_key_from_raw_bytes(key, openssl::pkey::Id::POLY1305).unwrap();
    let mut s = openssl::sign::Signer::new_without_digest(&pkey).unwrap();
    s.sign_oneshot_to_vec(msg).unwrap().try_into().unwrap()
}

/// Every backend this CPU can run (`common::every`).
fn backends() -> Vec<Poly1305Backend> {
    common::every(Poly1305Backend::ALL, |b| b.is_available())
}

fn rng(seed: u64) -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn random_key(g: &mut impl RngCore) -> [u8; 32] {
    let mut k = [0u8; 32];
    g.fill_bytes(&mut k);
    clamp(&mut k);
    k
}

#[test]
fn backend_names_roundtrip() {
    for b in Poly1305Backend::ALL {
        assert_eq!(Poly1305Backend::from_name(b.name()).unwrap(), *b);
    }
    assert_eq!(
        Poly1305Backend::from_name("nope"),
        Err(Error::UnknownBackend)
    );
    assert_eq!(Poly1305Backend::available(), backends());
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        Poly1305Backend::auto(),
        if galois_aead::detect::has_avx512ifma() {
            Poly1305Backend::Ifma
        } else if galois_aead::detect::has_avx2() {
            Poly1305Backend::Avx2
        } else {
            Poly1305Backend::Portable
        }
    );
}

#[test]
fn every_backend_matches_bigint_reference_all_lengths_0_to_1024() {
    let mut g = rng(1);
    let mut msg = vec![0u8; 1024];
    g.fill_bytes(&mut msg);
    for len in 0..=1024usize {
        let key = random_key(&mut g);
        let mut nonce = [0u8; 16];
        g.fill_bytes(&mut nonce);
        let r: [u8; 16] = key[16..].try_into().unwrap();
        let pad = openssl_aes(&key[..16], &nonce);
        let want = ref_tag(&r, &pad, &msg[..len]);
        for b in backends() {
            let mac = Poly1305Aes::with_backend(&key, b).unwrap();
            assert_eq!(mac.backend(), b);
            let got = mac.authenticate(&nonce, &msg[..len]).unwrap();
            assert_eq!(got, want, "backend {b} len {len}");
            mac.verify(&nonce, &msg[..len], &want).unwrap();
        }
    }
}

/// Lengths where the vector code changes (IFMA four lanes from 192 bytes,
/// four groups per step from 2 KiB, eight lanes from 10 KiB; AVX2 from
/// 1 KiB) with every tail after it: each length from 1024 to 2600 and from
/// 10100 to 10800 bytes.
#[test]
fn every_backend_matches_reference_long_lengths() {
    let mut g = rng(6);
    let mut msg = vec![0u8; 10800];
    g.fill_bytes(&mut msg);
    for len in (1024..=2600usize).chain(10100..=10800) {
        let key = random_key(&mut g);
        let mut r: [u8; 16] = key[16..].try_into().unwrap();
        if len % 5 == 0 {
            // The largest clamped r.
            r = [0xff; 16];
            clamp_r(&mut r);
        }
        let mut s = [0u8; 16];
        g.fill_bytes(&mut s);
        let ot: Vec<u8> = [&r[..], &s[..]].concat();
        let want = ref_tag(&r, &s, &msg[..len]);
        for b in backends() {
            assert_eq!(
                Poly1305::mac_with_backend(&ot, &msg[..len], b).unwrap(),
                want,
                "backend {b} len {len}"
            );
        }
    }
}

#[test]
fn every_backend_streaming_random_splits() {
    let mut g = rng(2);
    for round in 0..300 {
        let len = if round % 3 == 0 {
            g.random_range(0..24000)
        } else {
            g.random_range(0..1100)
        };
        let mut msg = vec![0u8; len];
        g.fill_bytes(&mut msg);
        let key = random_key(&mut g);
        let nonce: [u8; 16] = g.random();
        let r: [u8; 16] = key[16..].try_into().unwrap();
        let want = ref_tag(&r, &openssl_aes(&key[..16], &nonce), &msg);
        // Random cut points, some long pieces so the SIMD code runs mid-stream.
        let mut cuts = vec![0, len];
        for _ in 0..g.random_range(0..6) {
            cuts.push(g.random_range(0..=len));
        }
        cuts.sort();
        for b in backends() {
            let mac = Poly1305Aes::with_backend(&key, b).unwrap();
            let mut st = mac.stream(&nonce).unwrap();
            for w in cuts.windows(2) {
                st.update(&msg[w[0]..w[1]]);
            }
            assert_eq!(st.finalize(), want, "backend {b} len {len} cuts {cuts:?}");
            // One byte at a time.
            if round % 50 == 0 {
                let mut st = mac.stream(&nonce).unwrap();
                for byte in &msg {
                    st.update(core::slice::from_ref(byte));
                }
                st.verify(&want).unwrap();
            }
            // The one-time MAC in pieces, against the same reference.
            let ot_key: Vec<u8> = [&r[..], &want[..]].concat();
            let mut ot = Poly1305::with_backend(&ot_key, b).unwrap();
            for w in cuts.windows(2) {
                ot.update(&msg[w[0]..w[1]]);
            }
            assert_eq!(ot.finalize(), ref_tag(&r, &want, &msg));
        }
    }
}

/// r and h at the edges of 2^130 - 5.
#[test]
fn edges_of_p_against_reference_and_openssl() {
    let rmax = {
        let mut r = [0xffu8; 16];
        clamp_r(&mut r);
        r
    };
    let mut one = [0u8; 16];
    one[0] = 1;
    let rs: Vec<[u8; 16]> = vec![[0u8; 16], one, rmax, {
        let mut r = [0u8; 16];
        r[15] = 0x0f;
        r
    }];
    let mut msgs: Vec<Vec<u8>> = Vec::new();
    // With r = 1 two full blocks sum to c1 + c2 = m1 + m2 + 2^129; choose
    // m1 + m2 = 2^129 - 5 + d so that h = p + d, for d in -3..=3.
    for d in -3i32..=3 {
        let m1 = [0xffu8; 16];
        let m2 = (u128::MAX - 3).wrapping_add(d as i128 as u128);
        let mut m = m1.to_vec();
        m.extend_from_slice(&m2.to_le_bytes());
        msgs.push(m);
    }
    for n in [
        1usize, 2, 3, 15, 16, 17, 31, 32, 33, 64, 127, 128, 129, 191, 192, 193, 255, 256, 257,
        1024, 2048, 4096, 8192, 10240, 10241, 16384,
    ] {
        msgs.push(vec![0xff; n]);
        msgs.push(vec![0x00; n]);
        let mut m = vec![0xff; n];
        if n > 0 {
            m[n - 1] = 0xfe;
        }
        msgs.push(m);
    }
    let ss: [[u8; 16]; 3] = [[0; 16], [0xff; 16], {
        let mut s = [0u8; 16];
        s[0] = 5;
        s
    }];
    let mut checked = 0;
    for r in &rs {
        for m in &msgs {
            for s in &ss {
                let mut key = [0u8; 32];
                key[..16].copy_from_slice(r);
                key[16..].copy_from_slice(s);
                let want = ref_tag(r, s, m);
                #[cfg(not(galois_cross))]
                assert_eq!(openssl_poly1305(&key, m), want, "openssl vs reference");
                for b in backends() {
                    let mut p = Poly1305::with_backend(&key, b).unwrap();
                    p.update(m);
                    assert_eq!(p.finalize(), want, "backend {b} r {r:02x?} len {}", m.len());
                    // And the reduced value itself.
                    let mut p = Poly1305::with_backend(&key, b).unwrap();
                    p.update(m);
                    let v = p.poly_value();
                    assert_eq!(BigUint::from_bytes_le(&v), ref_poly(r, m));
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[cfg(not(galois_cross))]
#[test]
fn differential_against_openssl_one_time_random() {
    let mut g = rng(3);
    for i in 0..2000 {
        let mut key = [0u8; 32];
        g.fill_bytes(&mut key); // the one-time MAC clamps r itself
        let len = if i % 4 == 0 {
            g.random_range(0..20000)
        } else {
            g.random_range(0..600)
        };
        let mut msg = vec![0u8; len];
        if i % 7 == 0 {
            msg.fill(0xff);
        } else {
            g.fill_bytes(&mut msg);
        }
        let want = openssl_poly1305(&key, &msg);
        for b in backends() {
            let mut p = Poly1305::with_backend(&key, b).unwrap();
            p.update(&msg);
            assert_eq!(p.finalize(), want, "backend {b} len {len}");
        }
        assert_eq!(Poly1305::mac(&key, &msg).unwrap(), want);
    }
}

fn vectors(name: &str) -> Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors");
    let path = format!("{dir}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn hx(v: &Value, f: &str) -> Vec<u8> {
    hex::decode(v[f].as_str().unwrap_or_else(|| panic!("field {f}"))).unwrap()
}

fn big_hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}

#[test]
fn paper_appendix_b_examples_with_intermediates_every_backend() {
    let doc = vectors("poly1305aes_bernstein_appendix_b.json");
    let tests = doc["tests"].as_array().unwrap();
    let (mut valid, mut invalid, mut with_im) = (0, 0, 0);
    for t in tests {
        let key = hx(t, "key");
        let nonce = hx(t, "nonce");
        let msg = hx(t, "msg");
        let tag = hx(t, "tag");
        assert_eq!(&key[..16], &hx(t, "k")[..]);
        assert_eq!(&key[16..], &hx(t, "r")[..]);
        if let Some(a) = t.get("aes_k_nonce") {
            let a = hex::decode(a.as_str().unwrap()).unwrap();
            let mut n: [u8; 16] = nonce.clone().try_into().unwrap();
            Aes::new(&key[..16]).unwrap().encrypt_block(&mut n);
            assert_eq!(&n[..], &a[..]);
        }
        for b in backends() {
            let mac = Poly1305Aes::with_backend(&key, b).unwrap();
            match t["result"].as_str().unwrap() {
                "valid" => {
                    assert_eq!(&mac.authenticate(&nonce, &msg).unwrap()[..], &tag[..]);
                    mac.verify(&nonce, &msg, &tag).unwrap();
                    if let Some(im) = t.get("intermediates") {
                        let chunks = im["chunks_c_i"].as_array().unwrap();
                        let got = chunk_values(&msg);
                        assert_eq!(chunks.len(), got.len());
                        for (w, g) in chunks.iter().zip(&got) {
                            assert_eq!(big_hex(w.as_str().unwrap()), BigUint::from_bytes_le(g));
                        }
                        let pv = big_hex(im["poly_r_mod_p"].as_str().unwrap());
                        assert_eq!(BigUint::from_bytes_le(&mac.poly_value(&msg)), pv);
                        let r: [u8; 16] = key[16..].try_into().unwrap();
                        assert_eq!(ref_poly(&r, &msg), pv);
                        with_im += 1;
                    }
                    valid += 1;
                }
                "invalid" => {
                    assert_eq!(
                        mac.verify(&nonce, &msg, &tag),
                        Err(Error::AuthenticationFailed)
                    );
                    invalid += 1;
                }
                other => panic!("result {other}"),
            }
        }
    }
    let nb = backends().len();
    assert_eq!((valid, invalid, with_im), (4 * nb, 8 * nb, 4 * nb));
}

#[test]
fn rfc8439_one_time_vectors_every_backend() {
    let doc = vectors("poly1305_onetime_rfc8439.json");
    let mut n = 0;
    for t in doc["tests"].as_array().unwrap() {
        let key = hx(t, "key");
        let msg = hx(t, "msg");
        let tag = hx(t, "tag");
        assert_eq!(t["result"], "valid");
        for b in backends() {
            let mut p = Poly1305::with_backend(&key, b).unwrap();
            p.update(&msg);
            assert_eq!(&p.finalize()[..], &tag[..], "{} {b}", t["id"]);
            let mut p = Poly1305::with_backend(&key, b).unwrap();
            p.update(&msg);
            p.verify(&tag).unwrap();
            n += 1;
        }
    }
    assert_eq!(n, 12 * backends().len());
}

#[test]
fn bad_input_is_refused() {
    let mut g = rng(4);
    let key = random_key(&mut g);
    let mac = Poly1305Aes::new(&key).unwrap();
    for n in [0usize, 15, 17, 31, 33] {
        common::refuses_key_len(n, Poly1305Aes::new(&vec![0u8; n]));
        common::refuses_key_len(n, Poly1305::new(&vec![0u8; n]));
    }
    for n in [0usize, 12, 15, 17, 32] {
        assert_eq!(
            mac.authenticate(&vec![0u8; n], b"m").err(),
            Some(Error::InvalidNonceLength { got: n })
        );
        assert!(mac.stream(&vec![0u8; n]).is_err());
    }
    let nonce = [9u8; 16];
    let tag = mac.authenticate(&nonce, b"hello").unwrap();
    for n in [0usize, 8, 15, 17, 32] {
        assert_eq!(
            mac.verify(&nonce, b"hello", &vec![0u8; n]),
            Err(Error::InvalidTagLength { got: n })
        );
    }
    // Unclamped r: each constraint on its own.
    for (byte, val) in [
        (3, 0x10),
        (7, 0x80),
        (11, 0xf0),
        (15, 0x10),
        (4, 1),
        (8, 2),
        (12, 3),
    ] {
        let mut k = key;
        k[16 + byte] |= val;
        assert!(!is_clamped(k[16..].try_into().unwrap()));
        match Poly1305Aes::new(&k) {
            Err(Error::InvalidKey { reason }) => assert!(reason.contains("clamp")),
            other => panic!("byte {byte}: {:?}", other.map(|_| ())),
        }
        clamp(&mut k);
        assert!(Poly1305Aes::new(&k).is_ok());
    }
    // Tampered message, tag, nonce.
    mac.verify(&nonce, b"hello", &tag).unwrap();
    assert_eq!(
        mac.verify(&nonce, b"hellp", &tag),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(
        mac.verify(&nonce, b"hello\0", &tag),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(
        mac.verify(&[8u8; 16], b"hello", &tag),
        Err(Error::AuthenticationFailed)
    );
    for i in 0..128 {
        let mut t = tag;
        t[i / 8] ^= 1 << (i % 8);
        assert_eq!(
            mac.verify(&nonce, b"hello", &t),
            Err(Error::AuthenticationFailed)
        );
    }
    let long = vec![0x42u8; 5000];
    let lt = mac.authenticate(&nonce, &long).unwrap();
    for pos in [0usize, 1000, 4095, 4999] {
        let mut m = long.clone();
        m[pos] ^= 0x20;
        for b in backends() {
            let mac = Poly1305Aes::with_backend(&key, b).unwrap();
            assert_eq!(
                mac.verify(&nonce, &m, &lt),
                Err(Error::AuthenticationFailed)
            );
        }
    }
    // The one-time MAC rejects a wrong tag too.
    let ok = Poly1305::mac(&key, b"x").unwrap();
    let mut bad = ok;
    bad[15] ^= 0x80;
    assert_eq!(
        Poly1305::new(&key).unwrap().update(b"x").clone_verify(&bad),
        Err(Error::AuthenticationFailed)
    );
}

trait CloneVerify {
    fn clone_verify(&mut self, tag: &[u8]) -> galois_aead::Result<()>;
}
impl CloneVerify for Poly1305 {
    fn clone_verify(&mut self, tag: &[u8]) -> galois_aead::Result<()> {
        let me = std::mem::replace(self, Poly1305::new(&[0u8; 32]).unwrap());
        me.verify(tag)
    }
}

#[test]
fn generated_keys_are_clamped_and_distinct() {
    let a = Poly1305Aes::generate_key().unwrap();
    let b = Poly1305Aes::generate_key().unwrap();
    assert_ne!(&a[..], &b[..]);
    for k in [&a, &b] {
        assert!(is_clamped(k[16..].try_into().unwrap()));
        let mac = Poly1305Aes::new(&k[..]).unwrap();
        let t = mac.authenticate(&[0u8; 16], b"abc").unwrap();
        let r: [u8; 16] = k[16..].try_into().unwrap();
        assert_eq!(t, ref_tag(&r, &openssl_aes(&k[..16], &[0u8; 16]), b"abc"));
    }
}

/// Poly1305 with another block cipher (Poly1305-AnotherFunction): AES-256
/// through the generic interface, checked against the reference.
#[test]
fn generic_over_block_cipher() {
    struct Counted(Aes);
    impl BlockCipher128 for Counted {
        fn encrypt_block(&self, b: &mut [u8; 16]) {
            self.0.encrypt_block(b)
        }
    }
    let mut g = rng(5);
    let k256: [u8; 32] = g.random();
    let mut r: [u8; 16] = g.random();
    clamp_r(&mut r);
    let mac = Poly1305Mac::with_cipher(Counted(Aes::new(&k256).unwrap()), &r).unwrap();
    let nonce: [u8; 16] = g.random();
    let mut pad = nonce;
    Aes::new(&k256).unwrap().encrypt_block(&mut pad);
    let msg = b"Poly1305-AnotherFunction";
    assert_eq!(
        mac.authenticate(&nonce, msg).unwrap(),
        ref_tag(&r, &pad, msg)
    );
    let mut bad = r;
    bad[3] = 0xff;
    assert!(matches!(
        Poly1305Mac::with_cipher(Counted(Aes::new(&k256).unwrap()), &bad),
        Err(Error::InvalidKey { .. })
    ));
}
