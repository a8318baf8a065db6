//! Poly1305-AES: galois against OpenSSL, side by side in one process.
//!
//! OpenSSL's side is the fairest equivalent of Poly1305-AES it offers:
//! AES-128-ECB of the nonce (an `EVP_CIPHER_CTX` keyed once per key, as our
//! AES key is expanded once per key) followed by `EVP_MAC` Poly1305 with the
//! one-time key r || AES_k(n) set per message (`EVP_MAC_init` with the key,
//! update, final; one `EVP_MAC_CTX` reused). The two implementations run
//! round robin: each round times every size with both, and the table quotes
//! the median of the rounds. Time is wall-clock (GB/s) and TSC ticks per
//! byte (`rdtsc`; the TSC runs at a fixed rate, not the core clock).
//!
//! Pin the process for stable figures: `taskset -c 0 galois-bench poly1305`.

use crate::measure::rdtsc;
use galois_aead::poly1305::{clamp, Poly1305Aes, Poly1305Backend};
use openssl::symm::{Cipher, Crypter, Mode};
use std::ffi::{c_char, c_int, c_void};
use std::hint::black_box;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Fewer, shorter samples (under a minute).
    #[arg(long)]
    quick: bool,
    /// Pin a galois backend (portable, avx2, ifma); default: automatic.
    #[arg(long)]
    backend: Option<String>,
    /// Rounds (the table shows medians over rounds).
    #[arg(long)]
    rounds: Option<usize>,
    /// Only these sizes (comma-separated, at most 16384; default 16, 64,
    /// 256, 1024, 1500, 8192, 16384).
    #[arg(long, value_delimiter = ',')]
    sizes: Option<Vec<usize>>,
    /// Instead of the table: make this many galois Poly1305-AES calls of
    /// `--count-size` bytes and nothing else (no OpenSSL, no timing), for
    /// instruction counts under valgrind. The count per call is the
    /// difference between two runs with different `--count-calls`
    /// divided by the difference in calls.
    #[arg(long)]
    count_calls: Option<u64>,
    /// Message bytes for `--count-calls`.
    #[arg(long, default_value_t = 1024)]
    count_size: usize,
}

// EVP_MAC from libcrypto (linked through the `openssl` crate). The `openssl`
// crate has no safe EVP_MAC wrapper, so these are declared here.
extern "C" {
    fn EVP_MAC_fetch(
        libctx: *mut c_void,
        algorithm: *const c_char,
        props: *const c_char,
    ) -> *mut c_void;
    fn EVP_MAC_CTX_new(mac: *mut c_void) -> *mut c_void;
    fn EVP_MAC_init(
        ctx: *mut c_void,
        key: *const u8,
        keylen: usize,
        params: *const c_void,
    ) -> c_int;
    fn EVP_MAC_update(ctx: *mut c_void, data: *const u8, len: usize) -> c_int;
    fn EVP_MAC_final(ctx: *mut c_void, out: *mut u8, outl: *mut usize, outsize: usize) -> c_int;
}

/// OpenSSL's Poly1305 through EVP_MAC, one context reused.
struct OsslPoly {
    ctx: *mut c_void,
}

impl OsslPoly {
    fn new() -> Self {
        openssl::init();
        let name = c"POLY1305";
        // SAFETY: valid NUL-terminated name, default library context; the
        // results are checked for NULL.
        let ctx = unsafe {
            let mac = EVP_MAC_fetch(core::ptr::null_mut(), name.as_ptr(), core::ptr::null());
            assert!(!mac.is_null(), "EVP_MAC_fetch(POLY1305) failed");
            let ctx = EVP_MAC_CTX_new(mac);
            assert!(!ctx.is_null(), "EVP_MAC_CTX_new failed");
            ctx
        };
        OsslPoly { ctx }
    }

    #[inline]
    fn mac(&mut self, key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
        let mut out = [0u8; 16];
        let mut outl = 0usize;
        // SAFETY: ctx is a live EVP_MAC_CTX; the pointers and lengths come
        // from Rust slices and arrays of those lengths.
        unsafe {
            let ok = EVP_MAC_init(self.ctx, key.as_ptr(), 32, core::ptr::null()) == 1
                && EVP_MAC_update(self.ctx, msg.as_ptr(), msg.len()) == 1
                && EVP_MAC_final(self.ctx, out.as_mut_ptr(), &mut outl, 16) == 1;
            assert!(ok && outl == 16, "EVP_MAC Poly1305 failed");
        }
        out
    }
}

/// OpenSSL Poly1305-AES: AES-128-ECB keyed once, r, and the EVP_MAC.
struct OsslPolyAes {
    aes: Crypter,
    r: [u8; 16],
}

impl OsslPolyAes {
    fn new(key: &[u8; 32]) -> Self {
        let mut aes = Crypter::new(Cipher::aes_128_ecb(), Mode::Encrypt, &key[..16], None).unwrap();
        aes.pad(false);
        OsslPolyAes {
            aes,
            r: key[16..].try_into().unwrap(),
        }
    }

    #[inline]
    fn tag(&mut self, mac: &mut OsslPoly, nonce: &[u8; 16], msg: &[u8]) -> [u8; 16] {
        let mut k = [0u8; 48];
        k[..16].copy_from_slice(&self.r);
        let n = self.aes.update(nonce, &mut k[16..]).unwrap();
        debug_assert_eq!(n, 16);
        let k: &[u8; 32] = k[..32].try_into().unwrap();
        mac.mac(k, msg)
    }
}

/// One timed batch: (ns per call, TSC ticks per call).
fn batch<F: FnMut(u64)>(iters: u64, f: &mut F) -> (f64, f64) {
    let t = Instant::now();
    let c = rdtsc();
    for i in 0..iters {
        f(i);
    }
    let c = rdtsc() - c;
    let e = t.elapsed().as_nanos() as f64;
    (e / iters as f64, c as f64 / iters as f64)
}

/// Iterations for a batch of about `ms` milliseconds.
fn calibrate<F: FnMut(u64)>(ms: f64, f: &mut F) -> u64 {
    let mut iters = 16u64;
    loop {
        let (ns, _) = batch(iters, f);
        let total = ns * iters as f64;
        if total > ms * 1e6 / 8.0 {
            return ((ms * 1e6 / ns).ceil() as u64).max(1);
        }
        iters *= 4;
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

struct Row {
    label: String,
    bytes: usize,
    ours: (Vec<f64>, Vec<f64>),
    ossl: (Vec<f64>, Vec<f64>),
}

fn rng_fill(seed: &mut u64, buf: &mut [u8]) {
    for b in buf {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *b = *seed as u8;
    }
}

/// `count`'s Poly1305-AES subject: galois with `backend` or OpenSSL
/// (AES-128-ECB + EVP_MAC), one key, a new nonce per call; `None` for any
/// other name; with its label.
pub(crate) fn count_subject(
    imp: &str,
    backend: Poly1305Backend,
) -> Option<(String, crate::siv::Subject)> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut key = [0u8; 32];
    rng_fill(&mut seed, &mut key);
    clamp(&mut key);
    let mut i = 0u64;
    match imp {
        "galois" => {
            let mac = Poly1305Aes::with_backend(&key, backend).unwrap();
            let s: crate::siv::Subject = Box::new(move |m: &mut [u8]| {
                i += 1;
                black_box(
                    mac.authenticate(&(i as u128).to_le_bytes(), black_box(m))
                        .unwrap(),
                );
            });
            Some((format!("galois/{}", backend.name()), s))
        }
        "openssl" => {
            let mut mac = OsslPoly::new();
            let mut aes = OsslPolyAes::new(&key);
            let s: crate::siv::Subject = Box::new(move |m: &mut [u8]| {
                i += 1;
                black_box(aes.tag(&mut mac, &(i as u128).to_le_bytes(), black_box(m)));
            });
            Some((format!("openssl {}", openssl::version::version()), s))
        }
        _ => None,
    }
}

pub fn run(a: Args) {
    let backend = match &a.backend {
        None => galois_aead::poly1305::Poly1305Backend::auto(),
        Some(n) => match Poly1305Backend::from_name(n) {
            Ok(b) if b.is_available() => b,
            _ => {
                eprintln!("unknown or unavailable backend {n}");
                std::process::exit(2);
            }
        },
    };
    if let Some(calls) = a.count_calls {
        let (label, s) = count_subject("galois", backend).unwrap();
        crate::count::calls(&label, s, calls, a.count_size);
        return;
    }
    let rounds = a.rounds.unwrap_or(if a.quick { 21 } else { 61 });
    let ms = if a.quick { 1.5 } else { 5.0 };
    let sizes = a
        .sizes
        .clone()
        .unwrap_or_else(|| vec![16, 64, 256, 1024, 1500, 8192, 16384]);
    if sizes.iter().any(|&n| n > 16384) {
        eprintln!("sizes are at most 16384 bytes");
        std::process::exit(2);
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;

    // One key for the size sweep.
    let mut key = [0u8; 32];
    rng_fill(&mut seed, &mut key);
    clamp(&mut key);
    let ours = Poly1305Aes::with_backend(&key, backend).unwrap();
    let mut ossl_mac = OsslPoly::new();
    let mut ossl = OsslPolyAes::new(&key);
    let mut msg = vec![0u8; 16384];
    rng_fill(&mut seed, &mut msg);

    // 1000 keys for the key-agility rows.
    const NKEYS: usize = 1000;
    let mut keys = Vec::with_capacity(NKEYS);
    for _ in 0..NKEYS {
        let mut k = [0u8; 32];
        rng_fill(&mut seed, &mut k);
        clamp(&mut k);
        keys.push(k);
    }
    let ours_many: Vec<Poly1305Aes> = keys
        .iter()
        .map(|k| Poly1305Aes::with_backend(k, backend).unwrap())
        .collect();
    let mut ossl_many: Vec<OsslPolyAes> = keys.iter().map(OsslPolyAes::new).collect();

    let nonce_of = |i: u64| -> [u8; 16] { (i as u128 | (7u128 << 100)).to_le_bytes() };

    // Both sides must agree before anything is timed.
    for &n in &sizes {
        for i in 0..3u64 {
            let nn = nonce_of(i);
            let t1 = ours.authenticate(&nn, &msg[..n]).unwrap();
            let t2 = ossl.tag(&mut ossl_mac, &nn, &msg[..n]);
            assert_eq!(t1, t2, "galois and OpenSSL disagree at {n} bytes");
        }
    }
    for (j, k) in keys.iter().enumerate().take(50) {
        let _ = k;
        let nn = nonce_of(j as u64);
        assert_eq!(
            ours_many[j].authenticate(&nn, &msg[..1024]).unwrap(),
            ossl_many[j].tag(&mut ossl_mac, &nn, &msg[..1024])
        );
    }

    let mut rows: Vec<Row> = sizes
        .iter()
        .map(|&n| Row {
            label: format!("{n}"),
            bytes: n,
            ours: (vec![], vec![]),
            ossl: (vec![], vec![]),
        })
        .collect();
    for n in [64usize, 1024] {
        rows.push(Row {
            label: format!("{n} x{NKEYS} keys"),
            bytes: n,
            ours: (vec![], vec![]),
            ossl: (vec![], vec![]),
        });
    }

    // Iteration counts, calibrated once.
    let mut iters = Vec::new();
    for (ri, row) in rows.iter().enumerate() {
        let n = row.bytes;
        let many = ri >= sizes.len();
        let mut f = |i: u64| {
            let nn = nonce_of(i);
            let t = if many {
                ours_many[(i as usize) % NKEYS].authenticate(&nn, &msg[..n])
            } else {
                ours.authenticate(&nn, &msg[..n])
            };
            black_box(t.unwrap());
        };
        iters.push(calibrate(ms, &mut f));
    }

    let t0 = Instant::now();
    for round in 0..rounds {
        for (ri, row) in rows.iter_mut().enumerate() {
            let n = row.bytes;
            let many = ri >= sizes.len();
            let it = iters[ri];
            // Alternate which side goes first.
            for side in 0..2 {
                let ours_turn = (side + round) % 2 == 0;
                let (ns, tsc) = if ours_turn {
                    batch(it, &mut |i: u64| {
                        let nn = nonce_of(i);
                        let m = black_box(&msg[..n]);
                        let t = if many {
                            ours_many[(i as usize) % NKEYS].authenticate(&nn, m)
                        } else {
                            ours.authenticate(&nn, m)
                        };
                        black_box(t.unwrap());
                    })
                } else {
                    batch(it, &mut |i: u64| {
                        let nn = nonce_of(i);
                        let m = black_box(&msg[..n]);
                        let t = if many {
                            ossl_many[(i as usize) % NKEYS].tag(&mut ossl_mac, &nn, m)
                        } else {
                            ossl.tag(&mut ossl_mac, &nn, m)
                        };
                        black_box(t);
                    })
                };
                let dst = if ours_turn {
                    &mut row.ours
                } else {
                    &mut row.ossl
                };
                dst.0.push(ns);
                dst.1.push(tsc);
            }
        }
    }

    println!(
        "Poly1305-AES, galois ({}) vs OpenSSL {} (AES-128-ECB + EVP_MAC Poly1305, key set per message)",
        backend.name(),
        openssl::version::version()
    );
    println!(
        "{rounds} rounds round robin, medians; {:.1} s measuring; TSC = time-stamp counter ticks",
        t0.elapsed().as_secs_f64()
    );
    println!(
        "{:>16} | {:>9} {:>9} {:>8} | {:>9} {:>9} {:>8} | {:>6} | {:>6}",
        "bytes", "galois", "GB/s", "TSC c/B", "openssl", "GB/s", "TSC c/B", "ratio", "best"
    );
    for row in &mut rows {
        let b = row.bytes as f64;
        // The ratio is the median of the per-round ratios: each round times
        // both sides back to back, so a burst of load hits both.
        let mut paired: Vec<f64> = row
            .ossl
            .0
            .iter()
            .zip(&row.ours.0)
            .map(|(s, o)| s / o)
            .collect();
        let ratio = median(&mut paired);
        let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let best = fastest(&row.ossl.0) / fastest(&row.ours.0);
        let ons = median(&mut row.ours.0);
        let otsc = median(&mut row.ours.1);
        let sns = median(&mut row.ossl.0);
        let stsc = median(&mut row.ossl.1);
        println!(
            "{:>16} | {:>7.1}ns {:>9.3} {:>8.3} | {:>7.1}ns {:>9.3} {:>8.3} | {:>5.2}x | {:>5.2}x",
            row.label,
            ons,
            b / ons,
            otsc / b,
            sns,
            b / sns,
            stsc / b,
            ratio,
            best
        );
    }
    println!(
        "ratio = median over rounds of OpenSSL time / galois time, measured back to back \
         (above 1: galois faster); best = OpenSSL's fastest round / galois's fastest round \
         (steadier than the median when other jobs share the CPU)"
    );
}
