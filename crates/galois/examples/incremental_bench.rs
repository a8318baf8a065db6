//! Benchmark (not a test): on a 1 MiB message, updating the tag after a
//! one-block change versus recomputing it from scratch, for incremental
//! GMAC and incremental Poly1305-AES.
//!
//! Run: `cargo run --release -p galois --example incremental_bench`

use galois::mac::incremental::{AesIncrementalGmac, IncrementalPoly1305Aes, IvPolicy};
use galois::poly1305::{clamp, Poly1305Aes};
use galois::AesGmac;
use std::hint::black_box;
use std::time::Instant;

const LEN: usize = 1 << 20;

/// The fastest of `runs` timings of `f`, in nanoseconds per call (`per`
/// calls per run): the least disturbed by other processes on the machine.
fn time(runs: usize, per: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut v = Vec::with_capacity(runs);
    let mut k = 0;
    for _ in 0..runs {
        let t = Instant::now();
        for _ in 0..per {
            f(k);
            k += 1;
        }
        v.push(t.elapsed().as_nanos() as f64 / per as f64);
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[0]
}

fn iv12(k: usize) -> [u8; 12] {
    let mut iv = [0u8; 12];
    iv[4..].copy_from_slice(&(k as u64).to_be_bytes());
    iv
}

fn main() {
    let msg: Vec<u8> = (0..LEN as u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let blocks = LEN / 16;
    // Block positions spread over the message (public, pseudo-random).
    let pos = |k: usize| (k.wrapping_mul(40503) ^ (k >> 3)) % blocks;

    // GMAC.
    let key = [0x24u8; 16];
    let one = AesGmac::new(&key).unwrap();
    let mut inc = AesIncrementalGmac::with_key(&key, &msg).unwrap();
    // Counter IVs: freshness checked in constant time and memory.
    inc.set_iv_policy(IvPolicy::Increasing).unwrap();
    let mut plain = msg.clone();
    let recompute = time(15, 4, |k| {
        plain[16 * pos(k)] ^= 1;
        black_box(one.authenticate(&iv12(k), &plain).unwrap());
    });
    let mut n = 0usize;
    let update = time(15, 2000, |k| {
        let i = pos(k);
        let mut b = [0u8; 16];
        b.copy_from_slice(&inc.message()[16 * i..16 * i + 16]);
        b[0] ^= 1;
        inc.replace_block(i, &b).unwrap();
        n += 1;
        black_box(inc.tag(&iv12((1 << 40) | n)).unwrap());
    });
    let replace_only = time(15, 2000, |k| {
        let i = pos(k);
        let mut b = [0u8; 16];
        b.copy_from_slice(&inc.message()[16 * i..16 * i + 16]);
        b[0] ^= 1;
        inc.replace_block(i, &b).unwrap();
    });
    let tag_only = time(15, 2000, |_| {
        n += 1;
        black_box(inc.tag(&iv12((2 << 40) | n)).unwrap());
    });
    println!("  (GMAC replace_block alone {replace_only:.1} ns, tag alone {tag_only:.1} ns)");
    // Check the result once, so the numbers are for correct work.
    let check = iv12(7 << 50);
    assert_eq!(
        inc.tag(&check).unwrap(),
        one.authenticate(&check, inc.message()).unwrap()
    );
    println!(
        "GMAC, 1 MiB: recompute {:.1} us, one-block update + tag {:.3} us, speedup {:.0}x",
        recompute / 1e3,
        update / 1e3,
        recompute / update
    );

    // Poly1305-AES.
    let mut pkey = [0x6bu8; 32];
    clamp(&mut pkey);
    let pone = Poly1305Aes::new(&pkey).unwrap();
    let mut pinc = IncrementalPoly1305Aes::new(&pkey, &msg).unwrap();
    pinc.set_iv_policy(IvPolicy::Increasing).unwrap();
    let mut plain = msg.clone();
    let nonce = |k: u128| k.to_be_bytes();
    let recompute = time(15, 4, |k| {
        plain[16 * pos(k)] ^= 1;
        black_box(pone.authenticate(&nonce(k as u128), &plain).unwrap());
    });
    let mut n = 0usize;
    let update = time(15, 2000, |k| {
        let i = pos(k);
        let mut b = [0u8; 16];
        b.copy_from_slice(&pinc.message()[16 * i..16 * i + 16]);
        b[0] ^= 1;
        pinc.replace(16 * i, &b).unwrap();
        n += 1;
        black_box(pinc.tag(&nonce(1u128 << 100 | n as u128)).unwrap());
    });
    let check = nonce(5u128 << 110);
    assert_eq!(
        pinc.tag(&check).unwrap(),
        pone.authenticate(&check, pinc.message()).unwrap()
    );
    println!(
        "Poly1305-AES, 1 MiB: recompute {:.1} us, one-block update + tag {:.3} us, speedup {:.0}x",
        recompute / 1e3,
        update / 1e3,
        recompute / update
    );
}
