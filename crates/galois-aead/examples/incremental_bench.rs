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

fn main() {
    let msg: Vec<u8> = (0..LEN as u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let blocks = LEN / 16;
    // Block positions spread over the message (public, pseudo-random).
    let pos = |k: usize| (k.wrapping_mul(40503) ^ (k >> 3)) % blocks;
    let flip = |m: &[u8], i: usize| {
        let mut b: [u8; 16] = m[16 * i..16 * i + 16].try_into().unwrap();
        b[0] ^= 1;
        b
    };

    // GMAC, with counter IVs (freshness checked in constant time).
    let key = [0x24u8; 16];
    let one = AesGmac::new(&key).unwrap();
    let mut inc = AesIncrementalGmac::with_key(&key, &msg).unwrap();
    inc.set_iv_policy(IvPolicy::Increasing).unwrap();
    let mut plain = msg.clone();
    let recompute = time(4, |k| {
        plain[16 * pos(k)] ^= 1;
        black_box(one.authenticate(&iv12(k as u64), &plain).unwrap());
    });
    let update = time(4000, |k| {
        let i = pos(k);
        let b = flip(inc.message(), i);
        inc.replace_block(i, &b).unwrap();
    });
    let mut n = 1u64 << 40;
    let update_tag = time(4000, |k| {
        let i = pos(k);
        let b = flip(inc.message(), i);
        inc.replace_block(i, &b).unwrap();
        n += 1;
        black_box(inc.tag(&iv12(n)).unwrap());
    });
    // The state is still right after all those edits.
    let check = iv12(u64::MAX);
    assert_eq!(
        inc.tag(&check).unwrap(),
        one.authenticate(&check, inc.message()).unwrap()
    );
    report("GMAC (AES-128)", recompute, update, update_tag);

    // Poly1305-AES.
    let mut pkey = [0x6bu8; 32];
    clamp(&mut pkey);
    let pone = Poly1305Aes::new(&pkey).unwrap();
    let mut pinc = IncrementalPoly1305Aes::new(&pkey, &msg).unwrap();
    pinc.set_iv_policy(IvPolicy::Increasing).unwrap();
    let mut plain = msg.clone();
    let nonce = |k: u128| k.to_be_bytes();
    let recompute = time(4, |k| {
        plain[16 * pos(k)] ^= 1;
        black_box(pone.authenticate(&nonce(k as u128), &plain).unwrap());
    });
    let update = time(4000, |k| {
        let i = pos(k);
        let b = flip(pinc.message(), i);
        pinc.replace(16 * i, &b).unwrap();
    });
    let mut n = 1u128 << 100;
    let update_tag = time(4000, |k| {
        let i = pos(k);
        let b = flip(pinc.message(), i);
        pinc.replace(16 * i, &b).unwrap();
        n += 1;
        black_box(pinc.tag(&nonce(n)).unwrap());
    });
    let check = nonce(u128::MAX);
    assert_eq!(
        pinc.tag(&check).unwrap(),
        pone.authenticate(&check, pinc.message()).unwrap()
    );
    report("Poly1305-AES", recompute, update, update_tag);
}
