//! Benchmark (not a test): on a 1 MiB message, updating an incremental MAC
//! after a one-block change versus recomputing the MAC from scratch, for
//! incremental GMAC and incremental Poly1305-AES.
//!
//! Run: `cargo run --release -p galois-aead --example incremental_bench`
//!
//! Three figures per MAC: recomputing (the library's fastest one-shot MAC
//! over the whole message, tag included), the one-block update of the
//! incremental state alone, and the update followed by a new tag under a
//! fresh IV/nonce (a tag adds a fixed cost: one block-cipher call and one
//! multiplication, independent of the message length). Each figure is the
//! fastest of 15 runs, the one least disturbed by other processes.

use galois_aead::mac::incremental::{AesIncrementalGmac, IncrementalPoly1305Aes, IvPolicy};
use galois_aead::poly1305::{clamp, Poly1305Aes};
use galois_aead::AesGmac;
use std::hint::black_box;
use std::time::Instant;

const LEN: usize = 1 << 20;
const RUNS: usize = 15;

/// The fastest of `RUNS` timings, in nanoseconds per call (`per` calls
/// per run).
fn time(per: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut best = f64::INFINITY;
    let mut k = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        for _ in 0..per {
            f(k);
            k += 1;
        }
        best = best.min(t.elapsed().as_nanos() as f64 / per as f64);
    }
    best
}

fn iv12(k: u64) -> [u8; 12] {
    let mut iv = [0u8; 12];
    iv[4..].copy_from_slice(&k.to_be_bytes());
    iv
}

fn report(name: &str, recompute: f64, update: f64, update_tag: f64) {
    println!("{name}, 1 MiB message:");
    println!("  recompute from scratch      {:>10.1} us", recompute / 1e3);
    println!(
        "  one-block update            {:>10.1} ns   speedup {:>6.0}x",
        update,
        recompute / update
    );
    println!(
        "  one-block update + new tag  {:>10.1} ns   speedup {:>6.0}x",
        update_tag,
        recompute / update_tag
    );
}

/// What the benchmark drives of one MAC: the one-shot MAC over a whole
/// message, and the incremental state's one-block edit, tag and message.
/// `n`: a counter the nonce or IV is made from.
trait Subject: Sized {
    type Tag: PartialEq + std::fmt::Debug;
    /// Both forms under `key`, the incremental one over `msg` and taking
    /// only increasing nonces.
    fn new(key: &[u8], msg: &[u8]) -> Self;
    fn one_shot(&self, n: u128, msg: &[u8]) -> Self::Tag;
    fn replace_block(&mut self, i: usize, b: &[u8; 16]);
    fn tag(&mut self, n: u128) -> Self::Tag;
    fn message(&self) -> &[u8];
}

/// GMAC, with counter IVs (freshness checked in constant time).
struct Gmac(AesGmac, AesIncrementalGmac);

impl Subject for Gmac {
    type Tag = galois_aead::Tag;
    fn new(key: &[u8], msg: &[u8]) -> Self {
        let mut inc = AesIncrementalGmac::with_key(key, msg).unwrap();
        inc.set_iv_policy(IvPolicy::Increasing).unwrap();
        Gmac(AesGmac::new(key).unwrap(), inc)
    }
    fn one_shot(&self, n: u128, msg: &[u8]) -> Self::Tag {
        self.0.authenticate(&iv12(n as u64), msg).unwrap()
    }
    fn replace_block(&mut self, i: usize, b: &[u8; 16]) {
        self.1.replace_block(i, b).unwrap();
    }
    fn tag(&mut self, n: u128) -> Self::Tag {
        self.1.tag(&iv12(n as u64)).unwrap()
    }
    fn message(&self) -> &[u8] {
        self.1.message()
    }
}

/// Poly1305-AES, with counter nonces.
struct Poly(Poly1305Aes, IncrementalPoly1305Aes);

impl Subject for Poly {
    type Tag = [u8; 16];
    fn new(key: &[u8], msg: &[u8]) -> Self {
        let mut inc = IncrementalPoly1305Aes::new(key, msg).unwrap();
        inc.set_iv_policy(IvPolicy::Increasing).unwrap();
        Poly(Poly1305Aes::new(key).unwrap(), inc)
    }
    fn one_shot(&self, n: u128, msg: &[u8]) -> Self::Tag {
        self.0.authenticate(&n.to_be_bytes(), msg).unwrap()
    }
    fn replace_block(&mut self, i: usize, b: &[u8; 16]) {
        self.1.replace(16 * i, b).unwrap();
    }
    fn tag(&mut self, n: u128) -> Self::Tag {
        self.1.tag(&n.to_be_bytes()).unwrap()
    }
    fn message(&self) -> &[u8] {
        self.1.message()
    }
}

/// The three figures of one MAC over `msg`, under `key`.
fn bench<S: Subject>(name: &str, key: &[u8], msg: &[u8]) {
    let mut s = S::new(key, msg);
    let blocks = LEN / 16;
    // Block positions spread over the message (public, pseudo-random).
    let pos = |k: usize| (k.wrapping_mul(40503) ^ (k >> 3)) % blocks;
    let flip = |m: &[u8], i: usize| {
        let mut b: [u8; 16] = m[16 * i..16 * i + 16].try_into().unwrap();
        b[0] ^= 1;
        b
    };
    let mut plain = msg.to_vec();
    let recompute = time(4, |k| {
        plain[16 * pos(k)] ^= 1;
        black_box(s.one_shot(k as u128, &plain));
    });
    let update = time(4000, |k| {
        let i = pos(k);
        let b = flip(s.message(), i);
        s.replace_block(i, &b);
    });
    let mut n = 1u128 << 40;
    let update_tag = time(4000, |k| {
        let i = pos(k);
        let b = flip(s.message(), i);
        s.replace_block(i, &b);
        n += 1;
        black_box(s.tag(n));
    });
    // The state is still right after all those edits.
    let check = u64::MAX as u128;
    assert_eq!(s.tag(check), s.one_shot(check, s.message()));
    report(name, recompute, update, update_tag);
}

fn main() {
    let msg: Vec<u8> = (0..LEN as u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    bench::<Gmac>("GMAC (AES-128)", &[0x24; 16], &msg);
    let mut pkey = [0x6bu8; 32];
    clamp(&mut pkey);
    bench::<Poly>("Poly1305-AES", &pkey, &msg);
}
