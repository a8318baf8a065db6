//! Where one AES-GCM call's time goes, galois against ring: the cost per
//! 16-block batch (the slope of time over 4..32 KiB messages) and per
//! message (its intercept), and whole 1500-byte and 16 KiB calls, each
//! call timed alone. "hot" calls follow each other; "cold" ones follow a
//! write of 64 KiB (the L1 data cache, and the key, the powers and the
//! stack with it, evicted) and, on x86-64, 64 KiB of unrelated code (the
//! instruction cache and op cache evicted), as a TLS record's seal follows
//! rustls's own work. The two implementations alternate call by call.

use crate::measure::{rdtsc, tsc_per_ns};
use clap::builder::TypedValueParser;
use ring::aead::{Aad, LessSafeKey, Nonce, Tag, UnboundKey, AES_128_GCM, AES_256_GCM};
use std::hint::black_box;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Fewer calls per cell.
    #[arg(long)]
    quick: bool,
    /// Only this AES key size in bits.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["128", "256"])
        .map(|s| s.parse::<usize>().unwrap()))]
    bits: Option<usize>,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
}

/// The sizes the slope is fitted over, then the two whole-call sizes.
const SLOPE: &[usize] = &[4096, 8192, 16384, 24576, 32768];
const WHOLE: &[usize] = &[1500, 16384];
const AAD: [u8; 13] = [0x17; 13];
const NONCE: [u8; 12] = [0x5a; 12];

/// A clock reading: TSC ticks on x86-64, nanoseconds since `start`
/// elsewhere.
fn ticks(start: Instant) -> u64 {
    if cfg!(target_arch = "x86_64") {
        rdtsc()
    } else {
        start.elapsed().as_nanos() as u64
    }
}

/// Evicts the caches a call would find warm: 64 KiB of stores, then (on
/// x86-64) 64 KiB of straight-line integer code.
fn pollute(junk: &mut [u8]) {
    for x in junk.iter_mut() {
        *x = x.wrapping_add(1);
    }
    black_box(&junk);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the code only adds and XORs two scratch registers, declared
    // clobbered; it touches no memory and no stack.
    unsafe {
        core::arch::asm!(
            "xor eax, eax",
            ".rept 9000",
            "add rax, 1",
            "xor rcx, rax",
            ".endr",
            out("rax") _,
            out("rcx") _,
            options(nostack, nomem),
        );
    }
}

/// One implementation's seal or open of `buf` in place.
trait Subject {
    fn seal(&self, buf: &mut [u8]) -> [u8; 16];
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]);
}

impl Subject for galois_aead::AesGcm {
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        let t = self.seal_in_place_detached(&NONCE, &AAD, buf).unwrap();
        t.as_bytes().try_into().unwrap()
    }
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        self.open_in_place_detached(&NONCE, &AAD, buf, tag).unwrap();
    }
}

impl Subject for LessSafeKey {
    fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
        let n = Nonce::assume_unique_for_key(NONCE);
        let t = self
            .seal_in_place_separate_tag(n, Aad::from(AAD), buf)
            .unwrap();
        t.as_ref().try_into().unwrap()
    }
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) {
        let n = Nonce::assume_unique_for_key(NONCE);
        self.open_in_place_separate_tag(n, Aad::from(AAD), Tag::from(*tag), buf, 0..)
            .unwrap();
    }
}

/// Mean ticks per call of each subject at each size, the subjects
/// alternating call by call; an opening's ciphertext is copied in before
/// its timed call.
fn measure(
    subs: &[&dyn Subject],
    sizes: &[usize],
    open: bool,
    cold: bool,
    calls: usize,
) -> Vec<Vec<f64>> {
    let mut junk = vec![1u8; 1 << 16];
    let mut buf = vec![0u8; *sizes.iter().max().unwrap()];
    // One sealed message per size (both implementations agree).
    let sealed: Vec<(Vec<u8>, [u8; 16])> = sizes
        .iter()
        .map(|&n| {
            let mut m = vec![0x33u8; n];
            let tag = subs[0].seal(&mut m);
            (m, tag)
        })
        .collect();
    let clock = Instant::now();
    let mut sum = vec![vec![0u64; sizes.len()]; subs.len()];
    for _ in 0..calls {
        for (si, &n) in sizes.iter().enumerate() {
            for (i, s) in subs.iter().enumerate() {
                let b = &mut buf[..n];
                if open {
                    b.copy_from_slice(&sealed[si].0);
                }
                if cold {
                    pollute(&mut junk);
                }
                let t0 = ticks(clock);
                if open {
                    s.open(b, &sealed[si].1);
                } else {
                    black_box(s.seal(b));
                }
                sum[i][si] += ticks(clock) - t0;
                black_box(&b);
            }
        }
    }
    sum.iter()
        .map(|v| v.iter().map(|&t| t as f64 / calls as f64).collect())
        .collect()
}

/// Least-squares slope and intercept of `ys` over `xs`.
fn fit(xs: &[f64], ys: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let (sx, sy) = (xs.iter().sum::<f64>(), ys.iter().sum::<f64>());
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| x * y).sum();
    let sxx: f64 = xs.iter().map(|x| x * x).sum();
    let slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    (slope, (sy - slope * sx) / n)
}

pub fn run(a: Args) {
    let calls = if a.quick { 3000 } else { 20000 };
    let tsc = tsc_per_ns();
    let unit = if tsc > 0.0 { "TSC cycles" } else { "ns" };
    let mut json = Vec::new();
    let xs: Vec<f64> = SLOPE.iter().map(|&n| n as f64 / 256.0).collect();
    if !a.json {
        println!("galois-bench cost: means of {calls} calls per cell, each timed alone, in {unit} ({tsc:.3} per ns); galois and ring alternate call by call");
        println!("per batch: the slope over 4..32 KiB per 256 bytes; per message: its intercept (AAD 13 bytes)");
        println!(
            "\n{:<5} {:<5} {:<4} {:<7} {:>10} {:>12} {:>9} {:>9}",
            "calls", "op", "aes", "impl", "per batch", "per message", "1500 B", "16384 B"
        );
    }
    for bits in [128usize, 256] {
        if a.bits.is_some_and(|b| b != bits) {
            continue;
        }
        let key = vec![0x42u8; bits / 8];
        let g = galois_aead::AesGcm::new(&key).unwrap();
        let alg = if bits == 128 {
            &AES_128_GCM
        } else {
            &AES_256_GCM
        };
        let r = LessSafeKey::new(UnboundKey::new(alg, &key).unwrap());
        let subs: [&dyn Subject; 2] = [&g, &r];
        let names = [format!("galois/{}", g.backend()), "ring".to_string()];
        for cold in [false, true] {
            for open in [false, true] {
                let slope = measure(&subs, SLOPE, open, cold, calls / 4);
                let whole = measure(&subs, WHOLE, open, cold, calls);
                let fits: Vec<(f64, f64)> = slope.iter().map(|ys| fit(&xs, ys)).collect();
                let (mode, op) = (
                    if cold { "cold" } else { "hot" },
                    if open { "open" } else { "seal" },
                );
                for (i, name) in names.iter().enumerate() {
                    let (per_batch, per_msg) = fits[i];
                    if a.json {
                        json.push(serde_json::json!({"calls": mode, "op": op, "aes": bits,
                            "impl": name, "per_batch": per_batch, "per_message": per_msg,
                            "call_1500": whole[i][0], "call_16384": whole[i][1], "unit": unit}));
                    } else {
                        let name = name.split('/').next().unwrap();
                        println!(
                            "{mode:<5} {op:<5} {bits:<4} {name:<7} {per_batch:>10.1} {per_msg:>12.0} {:>9.0} {:>9.0}",
                            whole[i][0], whole[i][1]
                        );
                    }
                }
                if !a.json {
                    let ratio = |j: usize| whole[1][j] / whole[0][j];
                    println!(
                        "{:<23} {:>10.3} {:>12} {:>9.3} {:>9.3}",
                        "  ring / galois",
                        fits[1].0 / fits[0].0,
                        "",
                        ratio(0),
                        ratio(1)
                    );
                }
            }
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap());
    }
}
