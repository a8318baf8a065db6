//! AES-GCM-SIV against aws-lc-rs, and XAES-256-GCM against AES-256-GCM
//! with a fixed key, side by side in one process, round robin.

use crate::measure::{calibrate, median, sample, short_samples, tsc_per_ns};
use std::hint::black_box;

#[derive(clap::Args)]
pub struct Args {
    /// Fewer rounds and shorter samples.
    #[arg(long)]
    quick: bool,
    /// Only these sizes (comma-separated).
    #[arg(long, value_delimiter = ',')]
    sizes: Option<Vec<usize>>,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    /// Time AES-GCM-SIV opens instead of seals (each call copies the
    /// sealed message into the buffer, then opens it in place).
    #[arg(long)]
    open: bool,
    /// Add a control to each AES-GCM-SIV group: a second galois key
    /// timed the same way (its ratio against the first galois row is the
    /// harness's own spread).
    #[arg(long)]
    control: bool,
    /// Rounds (each times every implementation once per size).
    #[arg(long)]
    rounds: Option<usize>,
}

const SIZES: &[usize] = &[16, 64, 256, 1500, 8192, 16384];

/// One implementation: `run` seals `buf` in place.
pub(crate) type Subject = Box<dyn FnMut(&mut [u8])>;

pub(crate) fn siv_subjects(key_len: usize, open: bool) -> Vec<(String, Subject)> {
    siv_subjects_with(key_len, open, false)
}

/// [`siv_subjects`], and with `control` a second galois subject last.
fn siv_subjects_with(key_len: usize, open: bool, control: bool) -> Vec<(String, Subject)> {
    let mut v = siv_subjects_inner(key_len, open);
    if control {
        let (label, s) = siv_subjects_inner(key_len, open).swap_remove(0);
        v.push((format!("{label} (control)"), s));
    }
    v
}

fn siv_subjects_inner(key_len: usize, open: bool) -> Vec<(String, Subject)> {
    use aws_lc_rs::aead::{Aad, Nonce};
    let key = vec![0x42u8; key_len];
    let g = galois_aead::AesGcmSiv::new(&key).unwrap();
    let alg = if key_len == 16 {
        &aws_lc_rs::aead::AES_128_GCM_SIV
    } else {
        &aws_lc_rs::aead::AES_256_GCM_SIV
    };
    let a = aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(alg, &key).unwrap());
    let nonce = || Nonce::assume_unique_for_key([7u8; 12]);
    let label = format!("galois/auto={}", g.backend());
    if !open {
        return vec![
            (
                label,
                Box::new(move |buf: &mut [u8]| {
                    black_box(g.seal_in_place_detached(&[7u8; 12], &[], buf).unwrap());
                }),
            ),
            (
                "aws-lc-rs".to_string(),
                Box::new(move |buf: &mut [u8]| {
                    let _ = black_box(
                        a.seal_in_place_separate_tag(nonce(), Aad::empty(), buf)
                            .unwrap(),
                    );
                }),
            ),
        ];
    }
    // Opens: the buffer's contents sealed once per size (by either side:
    // the ciphertexts are the same), then copied in and opened per call.
    let mut sealed_g: Option<(Vec<u8>, [u8; 16])> = None;
    let mut sealed_a: Option<(Vec<u8>, [u8; 16])> = None;
    let seal_once = move |cache: &mut Option<(Vec<u8>, [u8; 16])>, buf: &[u8]| {
        if cache.as_ref().is_none_or(|(c, _)| c.len() != buf.len()) {
            let mut c = buf.to_vec();
            let t = galois_aead::AesGcmSiv::new(&[0x42u8; 32][..key_len])
                .unwrap()
                .seal_in_place_detached(&[7u8; 12], &[], &mut c)
                .unwrap();
            *cache = Some((c, t.as_bytes().try_into().unwrap()));
        }
    };
    vec![
        (
            label,
            Box::new(move |buf: &mut [u8]| {
                seal_once(&mut sealed_g, buf);
                let (c, t) = sealed_g.as_ref().unwrap();
                buf.copy_from_slice(c);
                g.open_in_place_detached(&[7u8; 12], &[], buf, t).unwrap();
                black_box(&*buf);
            }),
        ),
        (
            "aws-lc-rs".to_string(),
            Box::new(move |buf: &mut [u8]| {
                seal_once(&mut sealed_a, buf);
                let (c, t) = sealed_a.as_ref().unwrap();
                buf.copy_from_slice(c);
                black_box(
                    a.open_in_place_separate_tag(nonce(), Aad::empty(), t, buf)
                        .unwrap(),
                );
            }),
        ),
    ]
}

fn xaes_subjects() -> Vec<(String, Subject)> {
    let key = [0x42u8; 32];
    let x = galois_aead::XAes256Gcm::new(&key).unwrap();
    let g = galois_aead::AesGcm::new(&key).unwrap();
    let mut n = 0u64;
    vec![
        (
            "galois/aes-256-gcm fixed key".to_string(),
            Box::new(move |buf: &mut [u8]| {
                black_box(g.seal_in_place_detached(&[7u8; 12], &[], buf).unwrap());
            }),
        ),
        (
            "galois/xaes-256-gcm".to_string(),
            Box::new(move |buf: &mut [u8]| {
                // A new nonce (so a new subkey) every message.
                n += 1;
                let mut nonce = [7u8; 24];
                nonce[..8].copy_from_slice(&n.to_le_bytes());
                black_box(x.seal_in_place_detached(&nonce, &[], buf).unwrap());
            }),
        ),
    ]
}

pub fn run(a: Args) {
    let (rounds, target) = short_samples(a.quick);
    let rounds = a.rounds.unwrap_or(rounds);
    let sizes: Vec<usize> = a.sizes.clone().unwrap_or_else(|| SIZES.to_vec());
    let tsc = tsc_per_ns();
    let mut groups: Vec<(&str, Vec<(String, Subject)>)> = vec![
        ("aes-128-gcm-siv", siv_subjects_with(16, a.open, a.control)),
        ("aes-256-gcm-siv", siv_subjects_with(32, a.open, a.control)),
    ];
    if !a.open {
        groups.push(("xaes-256-gcm", xaes_subjects()));
    }
    let mut json = Vec::new();
    if !a.json {
        println!("galois-bench siv: medians of {rounds} round-robin samples per cell; cycles are TSC cycles ({tsc:.3} per ns)");
        let what = if a.open { "open" } else { "seal" };
        println!("AES-GCM-SIV {what}; ratio (median of the rounds' own ratios): aws-lc-rs time / the row's time; XAES time / AES-256-GCM (fixed key) time");
    }
    for (name, mut subs) in groups {
        if !a.json {
            println!("\n{name}");
            println!(
                "{:>6} {:<30} {:>9} {:>10} {:>9} {:>7}",
                "size", "implementation", "GB/s", "ns/call", "c/byte", "ratio"
            );
        }
        for &size in &sizes {
            let mut buf = vec![0x11u8; size];
            let iters: Vec<u64> = subs
                .iter_mut()
                .map(|(_, s)| calibrate(&mut || s(&mut buf), target))
                .collect();
            let mut samples: Vec<Vec<f64>> = vec![Vec::new(); subs.len()];
            for _ in 0..rounds {
                for (i, (_, s)) in subs.iter_mut().enumerate() {
                    samples[i].push(sample(&mut || s(&mut buf), iters[i]));
                }
            }
            // The ratio of each row: the median over rounds of the
            // round's own ratio (the samples of one round run back to
            // back, so a burst of load hits both): SIV rows aws-lc-rs time
            // over the row's time, XAES rows the row's time over the
            // fixed-key AES-256-GCM time.
            let ratios: Vec<f64> = (0..subs.len())
                .map(|i| {
                    let mut r: Vec<f64> = (0..rounds)
                        .map(|k| {
                            if name == "xaes-256-gcm" {
                                samples[i][k] / samples[0][k]
                            } else {
                                samples[1][k] / samples[i][k]
                            }
                        })
                        .collect();
                    median(&mut r)
                })
                .collect();
            let ns: Vec<f64> = samples.iter_mut().map(|v| median(v)).collect();
            for (i, (label, _)) in subs.iter().enumerate() {
                let ratio = ratios[i];
                if a.json {
                    json.push(serde_json::json!({"primitive": name, "impl": label,
                        "size": size, "ns_per_call": ns[i], "gbps": size as f64 / ns[i], "ratio": ratio}));
                } else {
                    println!(
                        "{:>6} {:<30} {:>9.3} {:>10.1} {:>9.3} {:>7.2}",
                        size,
                        label,
                        size as f64 / ns[i],
                        ns[i],
                        ns[i] * tsc / size as f64,
                        ratio
                    );
                }
            }
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap());
    }
}
