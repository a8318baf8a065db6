//! The valgrind checks: one (target, operation) pair per run.
//!
//! Each operation makes its secret inputs undefined for memcheck (key
//! bytes before key setup, so round keys, H, its powers and r follow;
//! plaintext; received tags), runs the library, and declares the outputs
//! defined before the harness looks at them. Any conditional branch, move
//! or memory address that depends on a secret in between is a memcheck
//! error. Natively the requests do nothing and the operations simply run.

use crate::vg;
use galois_aead::gcm64::{Gcm64, Options64, TdeaGcm};
use galois_aead::gf64::Gf64Backend;
use galois_aead::poly1305::{self, Poly1305, Poly1305Aes};
use galois_aead::{AesBackend, AesGcm, AesGmac, BatchPacket, BlockCipher64, GhashBackend, Options};
use std::hint::black_box;

/// One check: a target (what runs) and an operation (what it does).
pub struct Check {
    pub target: String,
    pub op: &'static str,
    /// Expected to be reported: the `*_vartime` tables, TDEA (the `des`
    /// crate's S-box tables) and the deliberately leaky control.
    pub expect_leak: bool,
}

const GCM_OPS: &[&str] = &[
    "seal",
    "open-ok",
    "open-fail",
    "gmac",
    "seal-batch",
    "online",
];
const POLY_AES_OPS: &[&str] = &["tag", "verify-ok", "verify-fail", "stream"];
const POLY_OT_OPS: &[&str] = &["mac", "verify-ok", "verify-fail"];
const GCM64_OPS: &[&str] = &["seal", "open-ok", "open-fail"];
const INCR_OPS: &[&str] = &["edit-tag", "verify-ok", "verify-fail"];

/// Every check this CPU (or valgrind's view of it) can run, and the
/// targets it cannot, with the reason.
pub fn list() -> (Vec<Check>, Vec<(String, String)>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let mut add = |target: String, ops: &[&'static str], expect_leak: bool| {
        for op in ops {
            out.push(Check {
                target: target.clone(),
                op,
                expect_leak,
            });
        }
    };
    add("ct/eq".into(), &["eq"], false);
    add("control/early-exit-eq".into(), &["eq"], true);
    for &b in GhashBackend::ALL {
        let leak = !b.is_constant_time();
        if !b.is_available() {
            skipped.push((
                format!("ghash/{b}, gcm/{b}/*"),
                "the CPU features are not reported (detect.rs refuses the backend)".into(),
            ));
            continue;
        }
        add(format!("ghash/{b}"), &["hash"], leak);
        for &a in AesBackend::ALL {
            if a.is_available() {
                add(format!("gcm/{b}/{}", a.name()), GCM_OPS, leak);
            }
        }
    }
    add("gcm/bitserial/aesni".into(), &["refuse-zero-h"], false);
    for &b in poly1305::Poly1305Backend::ALL {
        if !b.is_available() {
            skipped.push((
                format!("poly1305-aes/{b}, poly1305/{b}"),
                "the CPU features are not reported (detect.rs refuses the backend)".into(),
            ));
            continue;
        }
        add(format!("poly1305-aes/{b}"), POLY_AES_OPS, false);
        add(format!("poly1305/{b}"), POLY_OT_OPS, false);
    }
    for &b in Gf64Backend::ALL {
        if !b.is_available() {
            skipped.push((format!("gcm64/{b}/*"), "CPU features not reported".into()));
            continue;
        }
        add(format!("gcm64/{b}/toy64"), GCM64_OPS, false);
    }
    add("gcm64/gf64-ctmul/tdea".into(), &["seal"], true);
    add("incremental/gmac".into(), INCR_OPS, false);
    add("packet/aes-gcm".into(), GCM64_OPS, false);
    add("stream/aes-gcm".into(), GCM64_OPS, false);
    add("incremental/poly1305-aes".into(), INCR_OPS, false);
    (out, skipped)
}

/// A deterministic byte source (xorshift64*), seeded through `black_box`
/// so the compiler cannot fold the "secrets" into constants.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(black_box(seed) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    pub fn fill(&mut self, b: &mut [u8]) {
        for x in b {
            *x = self.next() as u8;
        }
    }
}

/// (AAD bytes, text bytes, IV bytes): every batch size and tail of the
/// stitched kernels (8, 16, 32 blocks), long IVs through GHASH.
const GCM_CASES: &[(usize, usize, usize)] = &[
    (0, 0, 12),
    (0, 1, 12),
    (13, 16, 12),
    (16, 31, 16),
    (5, 100, 12),
    (40, 255, 12),
    (0, 256, 60),
    (300, 513, 12),
    (17, 1500, 12),
    (64, 4099, 12),
];

/// Poly1305 message lengths: the portable code, AVX2 (from 1024 bytes),
/// IFMA on four lanes (from 192) and on eight (from 10 KiB).
const POLY_LENS: &[usize] = &[0, 1, 15, 16, 17, 63, 200, 1000, 1100, 2100, 10300];

/// Public results, folded so that the work cannot be optimized away.
static mut SINK: u64 = 0;

/// Runs `f` on a copy of `input` marked secret: its result, revealed
/// (it must depend on the secret), must equal `want`.
fn on_secret<T: AsMut<[u8]> + PartialEq + std::fmt::Debug>(
    input: &[u8],
    want: &T,
    f: impl FnOnce(&[u8]) -> Result<T, String>,
) -> Result<(), String> {
    let mut x = input.to_vec();
    vg::secret(&mut x);
    let mut got = f(&x)?;
    vg::reveal(got.as_mut());
    assert_eq!(&got, want);
    sink(got.as_mut());
    Ok(())
}

fn sink(b: &[u8]) {
    let mut h = 0u64;
    for &x in b {
        h = h.rotate_left(5) ^ x as u64;
    }
    // SAFETY: the harness is single-threaded.
    unsafe { SINK = SINK.wrapping_mul(31) ^ h };
}

pub fn checksum() -> u64 {
    // SAFETY: the harness is single-threaded.
    unsafe { SINK }
}

fn secret_vec(rng: &mut Rng, n: usize) -> Vec<u8> {
    let mut v = rng.bytes(n);
    vg::secret(&mut v);
    v
}

/// Runs one check. Panics if the library returns something wrong, so a
/// check that silently did nothing cannot pass.
pub fn run(target: &str, op: &str) -> Result<(), String> {
    let parts: Vec<&str> = target.split('/').collect();
    match parts.as_slice() {
        ["ct", "eq"] => ct_eq(false),
        ["control", "early-exit-eq"] => ct_eq(true),
        ["ghash", b] => ghash(GhashBackend::from_name(b).map_err(|e| e.to_string())?),
        ["gcm", b, a] => {
            let b = GhashBackend::from_name(b).map_err(|e| e.to_string())?;
            let a = AesBackend::from_name(a).map_err(|e| e.to_string())?;
            gcm(b, a, op)?
        }
        ["poly1305-aes", b] => poly_aes(
            poly1305::Poly1305Backend::from_name(b).map_err(|e| e.to_string())?,
            op,
        )?,
        ["poly1305", b] => poly_ot(
            poly1305::Poly1305Backend::from_name(b).map_err(|e| e.to_string())?,
            op,
        )?,
        ["incremental", m] => incremental(m, op)?,
        ["packet", "aes-gcm"] => packet(op)?,
        ["stream", "aes-gcm"] => stream(op)?,
        ["gcm64", b, c] => gcm64(Gf64Backend::from_name(b).map_err(|e| e.to_string())?, c, op)?,
        _ => return Err(format!("unknown target {target}")),
    }
    Ok(())
}

/// The tag comparison, or a byte loop that stops at the first difference.
fn ct_eq(early_exit: bool) {
    let mut rng = Rng::new(1);
    for i in 0..64 {
        let a0 = rng.bytes(16);
        let mut b0 = a0.clone();
        if i % 2 == 1 {
            b0[i % 16] ^= 1 << (i % 8);
        }
        let (mut a, mut b) = (a0.clone(), b0.clone());
        vg::secret(&mut a);
        vg::secret(&mut b);
        let r = if early_exit {
            // Deliberately not constant time: the positive control.
            let mut same = true;
            for k in 0..16 {
                if black_box(a[k]) != b[k] {
                    same = false;
                    break;
                }
            }
            vg::public_val(same)
        } else {
            galois_aead::ct::eq(&a, &b)
        };
        assert_eq!(r, a0 == b0);
        sink(&[r as u8]);
    }
}

fn ghash(b: GhashBackend) {
    let mut rng = Rng::new(2);
    for len in [0usize, 1, 16, 47, 128, 129, 300, 1024, 2000] {
        let mut h = [0u8; 16];
        rng.fill(&mut h);
        let data = rng.bytes(len);
        let want = galois_aead::Ghash::with_backend(&h, GhashBackend::Bitserial)
            .map(|mut g| {
                g.update(&data);
                g.finalize()
            })
            .unwrap();
        let (mut hs, mut ds) = (h, data.clone());
        vg::secret(&mut hs);
        vg::secret(&mut ds);
        let mut g = galois_aead::Ghash::with_backend(&hs, b).unwrap();
        let (x, y) = ds.split_at(ds.len() / 3);
        g.update(x);
        g.update(y);
        let mut out = g.finalize();
        if len == 0 {
            vg::public(&mut out); // GHASH of nothing is 0 for every H
        } else {
            vg::reveal(&mut out);
        }
        assert_eq!(out, want, "ghash {b} {len}");
        sink(&out);
    }
}

fn gcm_key(rng: &mut Rng, i: usize) -> Vec<u8> {
    rng.bytes([16, 24, 32][i % 3])
}

fn gcm(b: GhashBackend, a: AesBackend, op: &str) -> Result<(), String> {
    let mut rng = Rng::new(3);
    let opts = Options::new().backend(b).aes_backend(a);
    match op {
        "seal" | "open-ok" | "open-fail" | "gmac" | "online" => {}
        "seal-batch" => {
            gcm_batch(b, a, &mut rng);
            return Ok(());
        }
        "refuse-zero-h" => {
            // Key setup with the H = 0 refusal: whether H is zero is public
            // by design there (declassified in the library), nothing else.
            for i in 0..6 {
                let key0 = gcm_key(&mut rng, i);
                let mut key = key0.clone();
                vg::secret(&mut key);
                let g = AesGcm::with_options(&key, opts.refuse_zero_h()).unwrap();
                let mut pt = secret_vec(&mut rng, 40);
                let mut t = *g
                    .seal_in_place_detached(&[7; 12], b"", &mut pt)
                    .unwrap()
                    .as_bytes()
                    .first()
                    .unwrap();
                t = vg::public_val(t);
                sink(&[t]);
            }
            return Ok(());
        }
        _ => return Err(format!("unknown op {op}")),
    }
    for (i, &(al, pl, ivl)) in GCM_CASES.iter().enumerate() {
        let key0 = gcm_key(&mut rng, i);
        let iv = rng.bytes(ivl);
        let aad = rng.bytes(al);
        let pt0 = rng.bytes(pl);
        // The reference, all public.
        let g0 =
            AesGcm::with_options(&key0, Options::new().backend(GhashBackend::Bitserial)).unwrap();
        let mut ct0 = pt0.clone();
        let tag0 = g0.seal_in_place_detached(&iv, &aad, &mut ct0).unwrap();
        let mut key = key0.clone();
        vg::secret(&mut key);
        let g = AesGcm::with_options(&key, opts).map_err(|e| e.to_string())?;
        match op {
            "seal" => {
                // The ciphertext and tag, revealed only once computed.
                let check = |mut buf: Vec<u8>, tag: galois_aead::Tag| {
                    let mut t = *tag.as_bytes().first_chunk::<16>().unwrap();
                    vg::reveal(&mut buf);
                    vg::reveal(&mut t);
                    assert_eq!(buf, ct0);
                    assert_eq!(&t[..], tag0.as_bytes());
                    sink(&buf);
                    sink(&t);
                };
                let mut buf = pt0.clone();
                vg::secret(&mut buf);
                let tag = g.seal_in_place_detached(&iv, &aad, &mut buf).unwrap();
                check(buf, tag);
                // The record-layer seal: a secret head read out of place,
                // the secret rest in place.
                let mut head = pt0[..pl / 2].to_vec();
                let mut buf = pt0.clone();
                vg::secret(&mut head);
                vg::secret(&mut buf);
                let tag = g.seal_split_detached(&iv, &aad, &head, &mut buf).unwrap();
                check(buf, tag);
            }
            "open-ok" | "open-fail" => {
                let mut buf = ct0.clone();
                let mut tag = tag0.as_bytes().to_vec();
                if op == "open-fail" {
                    let k = i % 16;
                    tag[k] ^= 1 << (i % 8);
                }
                vg::secret(&mut tag);
                let r = g.open_in_place_detached(&iv, &aad, &mut buf, &tag);
                if op == "open-ok" {
                    vg::reveal(&mut buf);
                } else {
                    vg::public(&mut buf);
                }
                if op == "open-ok" {
                    assert!(r.is_ok());
                    assert_eq!(buf, pt0);
                } else {
                    assert_eq!(r, Err(galois_aead::Error::AuthenticationFailed));
                    assert!(buf.iter().all(|&x| x == 0));
                }
                sink(&buf);
            }
            "gmac" => {
                let m = AesGmac::with_options(&key, opts).unwrap();
                let msg = [&aad[..], &pt0[..]].concat();
                let tag = m.authenticate(&iv, &msg).unwrap();
                let mut t = *tag.as_bytes().first_chunk::<16>().unwrap();
                vg::reveal(&mut t);
                let mut good = t;
                vg::secret(&mut good);
                assert!(m.verify(&iv, &msg, &good).is_ok());
                let mut bad = t;
                bad[i % 16] ^= 0x80;
                vg::secret(&mut bad);
                assert!(m.verify(&iv, &msg, &bad).is_err());
                sink(&t);
            }
            "online" => {
                // The on-line encryptor and the buffering decryptor, input
                // split at arbitrary points.
                let mut e = g.encryptor(&iv).unwrap();
                let (a1, a2) = aad.split_at(al / 2);
                e.aad(a1).unwrap();
                e.aad(a2).unwrap();
                let mut buf = pt0.clone();
                vg::secret(&mut buf);
                let (x, y) = buf.split_at_mut(pl / 3);
                e.encrypt(x).unwrap();
                e.encrypt(y).unwrap();
                let mut t = *e.finish().as_bytes().first_chunk::<16>().unwrap();
                vg::reveal(&mut buf);
                vg::reveal(&mut t);
                assert_eq!(buf, ct0);
                assert_eq!(&t[..], tag0.as_bytes());
                let mut d = g.decryptor(&iv).unwrap();
                d.aad(&aad).unwrap();
                let (x, y) = ct0.split_at(pl / 2);
                d.update(x).unwrap();
                d.update(y).unwrap();
                let mut tag = tag0.as_bytes().to_vec();
                vg::secret(&mut tag);
                let mut out = d.finish(&tag).unwrap();
                vg::reveal(&mut out);
                assert_eq!(out, pt0);
                sink(&out);
            }
            _ => unreachable!(),
        }
    }
    Ok(())
}

/// Batches of short packets (the stitched kernels share AES batches) and
/// mixed short and long ones.
fn gcm_batch(b: GhashBackend, a: AesBackend, rng: &mut Rng) {
    for sizes in [
        &[0usize, 1, 15, 16, 17, 100, 255][..],
        &[3, 300, 40, 1000, 200][..],
    ] {
        let key0 = rng.bytes(16);
        let g0 =
            AesGcm::with_options(&key0, Options::new().backend(GhashBackend::Bitserial)).unwrap();
        let mut key = key0.clone();
        vg::secret(&mut key);
        let g = AesGcm::with_options(&key, Options::new().backend(b).aes_backend(a)).unwrap();
        let pts: Vec<Vec<u8>> = sizes.iter().map(|&n| rng.bytes(n)).collect();
        let mut bufs: Vec<Vec<u8>> = pts
            .iter()
            .map(|p| {
                let mut v = p.clone();
                vg::secret(&mut v);
                v
            })
            .collect();
        let aads: Vec<Vec<u8>> = sizes.iter().map(|&n| rng.bytes(n % 23)).collect();
        let mut batch: Vec<BatchPacket<'_>> = bufs
            .iter_mut()
            .zip(&aads)
            .enumerate()
            .map(|(i, (d, a))| BatchPacket::new([i as u8 + 1; 12], a, d))
            .collect();
        g.seal_batch(&mut batch).unwrap();
        let tags: Vec<[u8; 16]> = batch
            .iter()
            .map(|p| {
                let mut t = *p.tag().unwrap().as_bytes().first_chunk::<16>().unwrap();
                vg::reveal(&mut t);
                t
            })
            .collect();
        drop(batch);
        for (i, (buf, pt)) in bufs.iter_mut().zip(&pts).enumerate() {
            vg::reveal(buf);
            let mut want = pt.clone();
            let t = g0
                .seal_in_place_detached(&[i as u8 + 1; 12], &aads[i], &mut want)
                .unwrap();
            assert_eq!(*buf, want);
            assert_eq!(&tags[i][..], t.as_bytes());
            sink(buf);
        }
    }
}

fn poly_key(rng: &mut Rng) -> [u8; 32] {
    let mut k = [0u8; 32];
    rng.fill(&mut k);
    poly1305::clamp(&mut k);
    k
}

fn poly_aes(b: poly1305::Poly1305Backend, op: &str) -> Result<(), String> {
    let mut rng = Rng::new(4);
    for (i, &len) in POLY_LENS.iter().enumerate() {
        let key0 = poly_key(&mut rng);
        let nonce = rng.bytes(16);
        let msg0 = rng.bytes(len);
        let want = Poly1305Aes::with_backend(&key0, poly1305::Poly1305Backend::Portable)
            .unwrap()
            .authenticate(&nonce, &msg0)
            .unwrap();
        let mut key = key0;
        vg::secret(&mut key);
        let mac = Poly1305Aes::with_backend(&key, b).map_err(|e| e.to_string())?;
        match op {
            "tag" => {
                on_secret(&msg0, &want, |msg| {
                    Ok(mac.authenticate(&nonce, msg).unwrap())
                })?;
            }
            "verify-ok" | "verify-fail" => {
                let mut tag = want;
                if op == "verify-fail" {
                    tag[i % 16] ^= 4;
                }
                vg::secret(&mut tag);
                let r = mac.verify(&nonce, &msg0, &tag);
                assert_eq!(r.is_ok(), op == "verify-ok");
            }
            "stream" => {
                let mut msg = msg0.clone();
                vg::secret(&mut msg);
                let mut s = mac.stream(&nonce).unwrap();
                let (x, y) = msg.split_at(len / 3);
                s.update(x).update(y);
                let mut tag = want;
                vg::secret(&mut tag);
                assert!(s.verify(&tag).is_ok());
            }
            _ => return Err(format!("unknown op {op}")),
        }
    }
    Ok(())
}

fn poly_ot(b: poly1305::Poly1305Backend, op: &str) -> Result<(), String> {
    let mut rng = Rng::new(5);
    for (i, &len) in POLY_LENS.iter().enumerate() {
        // r unclamped on purpose: the one-time MAC clamps it itself.
        let key0 = rng.bytes(32);
        let msg0 = rng.bytes(len);
        let want =
            Poly1305::mac_with_backend(&key0, &msg0, poly1305::Poly1305Backend::Portable).unwrap();
        let mut key = key0.clone();
        vg::secret(&mut key);
        match op {
            "mac" => {
                on_secret(&msg0, &want, |msg| {
                    Poly1305::mac_with_backend(&key, msg, b).map_err(|e| e.to_string())
                })?;
            }
            "verify-ok" | "verify-fail" => {
                let mut tag = want;
                if op == "verify-fail" {
                    tag[15 - i % 16] ^= 1;
                }
                vg::secret(&mut tag);
                let mut p = Poly1305::with_backend(&key, b).map_err(|e| e.to_string())?;
                let (x, y) = msg0.split_at(len / 2);
                p.update(x).update(y);
                assert_eq!(p.verify(&tag).is_ok(), op == "verify-ok");
            }
            _ => return Err(format!("unknown op {op}")),
        }
    }
    Ok(())
}

/// A stand-in 64-bit block cipher made only of additions, rotations and
/// XORs (no tables, no branches), so that GCM-64 and the GF(2^64)
/// backends can be checked apart from the `des` crate. NOT a cipher.
struct Toy64([u32; 4]);

impl BlockCipher64 for Toy64 {
    fn encrypt_block(&self, block: &mut [u8; 8]) {
        let mut x = u32::from_be_bytes(block[..4].try_into().unwrap());
        let mut y = u32::from_be_bytes(block[4..].try_into().unwrap());
        for r in 0..24u32 {
            x = x.rotate_right(7).wrapping_add(y) ^ self.0[(r % 4) as usize] ^ r;
            y = y.rotate_left(3) ^ x;
        }
        block[..4].copy_from_slice(&x.to_be_bytes());
        block[4..].copy_from_slice(&y.to_be_bytes());
    }
}

/// A TDEA key with odd parity bytes and distinct halves.
fn tdea_key(rng: &mut Rng) -> Vec<u8> {
    let mut k = rng.bytes(24);
    galois_aead::gcm64::set_odd_parity(&mut k);
    k
}

fn gcm64(b: Gf64Backend, cipher: &str, op: &str) -> Result<(), String> {
    let mut rng = Rng::new(6);
    let cases: &[(usize, usize, usize)] =
        &[(0, 0, 4), (3, 7, 4), (8, 8, 8), (20, 100, 4), (5, 1000, 13)];
    for (i, &(al, pl, ivl)) in cases.iter().enumerate() {
        let iv = rng.bytes(ivl);
        let aad = rng.bytes(al);
        let pt0 = rng.bytes(pl);
        let opts = Options64::new().backend(b);
        let (ct0, tag0, out, res) = match cipher {
            "toy64" => {
                let k0: [u32; 4] = core::array::from_fn(|_| rng.next() as u32);
                let g0 =
                    Gcm64::from_cipher(Toy64(k0), Options64::new().backend(Gf64Backend::Bitserial))
                        .unwrap();
                let mut ct0 = pt0.clone();
                let tag0 = g0.seal_in_place_detached(&iv, &aad, &mut ct0).unwrap();
                let mut k = k0;
                // SAFETY: the four words as their 16 bytes, for the request.
                vg::secret(unsafe {
                    core::slice::from_raw_parts_mut(k.as_mut_ptr().cast::<u8>(), 16)
                });
                let g = Gcm64::from_cipher(Toy64(k), opts).unwrap();
                let (out, res) = gcm64_op(&g, op, i, &iv, &aad, &pt0, &ct0, tag0.as_bytes(), true);
                (ct0, tag0.as_bytes().to_vec(), out, res)
            }
            "tdea" => {
                let k0 = tdea_key(&mut rng);
                let g0 =
                    TdeaGcm::with_options(&k0, Options64::new().backend(Gf64Backend::Bitserial))
                        .unwrap();
                let mut ct0 = pt0.clone();
                let tag0 = g0.seal_in_place_detached(&iv, &aad, &mut ct0).unwrap();
                let mut k = k0.clone();
                vg::secret(&mut k);
                let g = TdeaGcm::with_options(&k, opts).unwrap();
                let (out, res) = gcm64_op(&g, op, i, &iv, &aad, &pt0, &ct0, tag0.as_bytes(), false);
                (ct0, tag0.as_bytes().to_vec(), out, res)
            }
            _ => return Err(format!("unknown cipher {cipher}")),
        };
        match op {
            "seal" => assert_eq!(out, [&ct0[..], &tag0[..]].concat()),
            "open-ok" => assert!(res && out == pt0),
            "open-fail" => assert!(!res && out.iter().all(|&x| x == 0)),
            _ => return Err(format!("unknown op {op}")),
        }
        sink(&out);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn gcm64_op<C: BlockCipher64>(
    g: &Gcm64<C>,
    op: &str,
    i: usize,
    iv: &[u8],
    aad: &[u8],
    pt0: &[u8],
    ct0: &[u8],
    tag0: &[u8],
    taint_survives: bool,
) -> (Vec<u8>, bool) {
    match op {
        "seal" => {
            let mut buf = pt0.to_vec();
            vg::secret(&mut buf);
            let t = g.seal_in_place_detached(iv, aad, &mut buf).unwrap();
            buf.extend_from_slice(t.as_bytes());
            if !taint_survives {
                // memcheck gives a value loaded from a constant table through
                // a secret index defined bits: the des crate's S-boxes launder
                // the taint (after reporting each lookup).
                vg::public(&mut buf);
            } else {
                vg::reveal(&mut buf);
            }
            (buf, true)
        }
        _ => {
            let mut buf = ct0.to_vec();
            let mut tag = tag0.to_vec();
            if op == "open-fail" {
                let k = i % tag.len();
                tag[k] ^= 2;
            }
            vg::secret(&mut tag);
            let r = g.open_in_place_detached(iv, aad, &mut buf, &tag).is_ok();
            if r && taint_survives {
                vg::reveal(&mut buf);
            } else {
                vg::public(&mut buf);
            }
            (buf, r)
        }
    }
}

/// The incremental MACs (mac/incremental): key and message secret, the
/// message edited by replacements, appends and truncation, then tagged or
/// verified; the reference is the one-shot MAC of the final message.
fn incremental(mac: &str, op: &str) -> Result<(), String> {
    use galois_aead::mac::incremental::{AesIncrementalGmac, IncrementalPoly1305Aes};
    if !INCR_OPS.contains(&op) {
        return Err(format!("unknown op {op}"));
    }
    let mut rng = Rng::new(7);
    for (i, &len) in [0usize, 5, 16, 40, 200, 1000].iter().enumerate() {
        let key0 = match mac {
            "gmac" => rng.bytes(16),
            "poly1305-aes" => poly_key(&mut rng).to_vec(),
            _ => return Err(format!("unknown incremental MAC {mac}")),
        };
        let msg0 = rng.bytes(len);
        let (patch, tail) = (rng.bytes(7), rng.bytes(33));
        // The final message, public, for the reference.
        let mut fin = msg0.clone();
        if len >= 7 {
            fin[len / 2..len / 2 + 7.min(len - len / 2)]
                .copy_from_slice(&patch[..7.min(len - len / 2)]);
        }
        fin.extend_from_slice(&tail);
        fin.truncate(fin.len() - 3);
        let iv = rng.bytes(if mac == "gmac" { 12 } else { 16 });
        let want: Vec<u8> = match mac {
            "gmac" => AesGmac::new(&key0)
                .unwrap()
                .authenticate(&iv, &fin)
                .unwrap()
                .as_bytes()
                .to_vec(),
            _ => Poly1305Aes::new(&key0)
                .unwrap()
                .authenticate(&iv, &fin)
                .unwrap()
                .to_vec(),
        };
        let mut key = key0.clone();
        vg::secret(&mut key);
        let mut msg = msg0.clone();
        vg::secret(&mut msg);
        let mut p = patch[..7.min(len - len / 2)].to_vec();
        vg::secret(&mut p);
        let mut t = tail.clone();
        vg::secret(&mut t);
        let mut tag = want.clone();
        if op == "verify-fail" {
            tag[i % 16] ^= 0x10;
        }
        vg::secret(&mut tag);
        let (out, ok) = match mac {
            "gmac" => {
                let mut m = AesIncrementalGmac::with_key(&key, &msg).map_err(|e| e.to_string())?;
                if len >= 7 {
                    m.replace(len / 2, &p).unwrap();
                }
                m.append(&t).unwrap();
                m.truncate(fin.len()).unwrap();
                if op == "edit-tag" {
                    (m.tag(&iv).unwrap().as_bytes().to_vec(), true)
                } else {
                    (Vec::new(), m.verify(&iv, &tag).is_ok())
                }
            }
            _ => {
                let mut m = IncrementalPoly1305Aes::new(&key, &msg).map_err(|e| e.to_string())?;
                if len >= 7 {
                    m.replace(len / 2, &p).unwrap();
                }
                m.append(&t);
                m.truncate(fin.len()).unwrap();
                if op == "edit-tag" {
                    (m.tag(&iv).unwrap().to_vec(), true)
                } else {
                    (Vec::new(), m.verify(&iv, &tag).is_ok())
                }
            }
        };
        match op {
            "edit-tag" => {
                let mut out = out;
                vg::reveal(&mut out);
                assert_eq!(out, want, "incremental {mac} {len}");
                sink(&out);
            }
            _ => assert_eq!(ok, op == "verify-ok", "incremental {mac} {len} {op}"),
        }
    }
    Ok(())
}

/// The packet sealer and opener (`galois_aead::packet`): key and payload
/// secret when sealing, key secret when opening (the packet is public).
fn packet(op: &str) -> Result<(), String> {
    use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    let mut rng = Rng::new(8);
    let key0 = rng.bytes(16);
    let salt = [1, 2, 3, 4];
    let mut key = key0.clone();
    vg::secret(&mut key);
    let mut tx0 = PacketSealer::new(&key0, salt, Role::Initiator, Start::NewKey).unwrap();
    let mut tx = PacketSealer::new(&key, salt, Role::Initiator, Start::NewKey).unwrap();
    let mut rx = PacketOpener::new(&key, salt, Role::Responder, 3).unwrap();
    for (i, len) in [0usize, 1, 16, 100, 700].into_iter().enumerate() {
        let header = rng.bytes(3);
        let pt = rng.bytes(len);
        let mut want = tx0.seal(&header, &pt).unwrap();
        match op {
            "seal" => {
                on_secret(&pt, &want, |p| Ok(tx.seal(&header, p).unwrap()))?;
            }
            "open-ok" => {
                let mut o = rx.open(&want).unwrap();
                if len > 0 {
                    vg::reveal(&mut o.payload);
                }
                assert_eq!(o.payload, pt);
                sink(&o.payload);
            }
            "open-fail" => {
                let n = want.len();
                want[n - 1 - i] ^= 1;
                assert_eq!(
                    rx.open(&want),
                    Err(galois_aead::Error::AuthenticationFailed)
                );
            }
            _ => return Err(format!("unknown op {op}")),
        }
    }
    Ok(())
}

/// The segmented stream format (`galois_aead::stream`), 64-byte segments: key
/// and plaintext secret when sealing, key secret when opening.
fn stream(op: &str) -> Result<(), String> {
    use galois_aead::stream;
    let mut rng = Rng::new(9);
    for (i, len) in [0usize, 1, 64, 200].into_iter().enumerate() {
        let key0 = rng.bytes(32);
        let pt = rng.bytes(len);
        let (salt, prefix) = ([i as u8; 15], [7; 7]);
        let mut want = stream::seal_with_salt_for_tests(&key0, 64, salt, prefix, &pt).unwrap();
        let mut key = key0.clone();
        vg::secret(&mut key);
        match op {
            "seal" => {
                on_secret(&pt, &want, |p| {
                    Ok(stream::seal_with_salt_for_tests(&key, 64, salt, prefix, p).unwrap())
                })?;
            }
            "open-ok" => {
                let mut got = stream::open(&key, &want).unwrap();
                if len > 0 {
                    vg::reveal(&mut got);
                }
                assert_eq!(got, pt);
                sink(&got);
            }
            "open-fail" => {
                let n = want.len();
                want[n - 1 - i] ^= 1;
                assert!(stream::open(&key, &want).is_err());
            }
            _ => return Err(format!("unknown op {op}")),
        }
    }
    Ok(())
}
