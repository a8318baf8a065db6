//! Key setup costs: what one AES-GCM key, one XAES-256-GCM message key and
//! one AES-GCM-SIV nonce's keys cost, against aws-lc-rs building a key,
//! round robin in one process. `--only NAME --secs S` runs one row in a
//! loop, for `perf record`.

use crate::measure::{calibrate, median, sample};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Fewer rounds and shorter samples.
    #[arg(long)]
    quick: bool,
    /// Run only the row with this label, for `--secs` seconds (profiling).
    #[arg(long)]
    only: Option<String>,
    /// Seconds to loop the `--only` row.
    #[arg(long, default_value_t = 5.0)]
    secs: f64,
}

type Subject = Box<dyn FnMut()>;

fn subjects() -> Vec<(&'static str, Subject)> {
    use aws_lc_rs::aead::{LessSafeKey, UnboundKey, AES_128_GCM, AES_256_GCM};
    let mut n = 0u64;
    let mut next = move || {
        n += 1;
        let mut k = [0x42u8; 32];
        k[..8].copy_from_slice(&n.to_le_bytes());
        k
    };
    let mut next2 = next;
    let mut next3 = next;
    let mut next4 = next;
    let mut next5 = next;
    let x = galois_aead::XAes256Gcm::new(&[0x42; 32]).unwrap();
    let s128 = galois_aead::AesGcmSiv::new(&[0x42; 16]).unwrap();
    let s256 = galois_aead::AesGcmSiv::new(&[0x42; 32]).unwrap();
    let mut nonce_ctr = 0u64;
    vec![
        (
            "galois aes-256 expansion",
            Box::new(move || {
                black_box(galois_aead::Aes::new(&next()).unwrap());
            }),
        ),
        (
            "galois aes-256-gcm key",
            Box::new(move || {
                black_box(galois_aead::AesGcm::new(&next2()).unwrap());
            }),
        ),
        (
            "galois aes-128-gcm key",
            Box::new(move || {
                black_box(galois_aead::AesGcm::new(&next3()[..16]).unwrap());
            }),
        ),
        (
            "aws-lc-rs aes-256-gcm key",
            Box::new(move || {
                black_box(LessSafeKey::new(
                    UnboundKey::new(&AES_256_GCM, &next4()).unwrap(),
                ));
            }),
        ),
        (
            "aws-lc-rs aes-128-gcm key",
            Box::new(move || {
                black_box(LessSafeKey::new(
                    UnboundKey::new(&AES_128_GCM, &next5()[..16]).unwrap(),
                ));
            }),
        ),
        (
            "galois xaes-256-gcm seal 16 B",
            Box::new(move || {
                nonce_ctr += 1;
                let mut nonce = [7u8; 24];
                nonce[..8].copy_from_slice(&nonce_ctr.to_le_bytes());
                let mut buf = [0x11u8; 16];
                black_box(x.seal_in_place_detached(&nonce, &[], &mut buf).unwrap());
            }),
        ),
        siv_seal_16("galois aes-128-gcm-siv seal 16 B", s128),
        siv_seal_16("galois aes-256-gcm-siv seal 16 B", s256),
    ]
}

/// A row that seals 16 bytes in place with `siv` under a fixed nonce.
fn siv_seal_16(name: &'static str, siv: galois_aead::AesGcmSiv) -> (&'static str, Subject) {
    (
        name,
        Box::new(move || {
            let mut buf = [0x11u8; 16];
            black_box(siv.seal_in_place_detached(&[7; 12], &[], &mut buf).unwrap());
        }),
    )
}

/// A row that opens `sealed` (ciphertext and tag) out of place on each
/// call with `open`, which must succeed.
fn open_row(
    name: &'static str,
    sealed: Vec<u8>,
    open: impl Fn(&[u8], &mut [u8]) -> galois_aead::Result<()> + 'static,
) -> (&'static str, Subject) {
    let mut out = vec![0u8; sealed.len() - 16];
    (
        name,
        Box::new(move || {
            open(&sealed, &mut out).unwrap();
            black_box(&mut out);
        }),
    )
}

/// Whole seals at 1500 B and 16 KiB: XAES-256-GCM against AES-256-GCM with
/// a fixed key, AES-GCM-SIV against aws-lc-rs (the ratios), as
/// lowest deciles of short samples; and the two GCMs' opens.
fn seal_subjects() -> Vec<(&'static str, Subject)> {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM_SIV, AES_256_GCM_SIV};
    let mut v: Vec<(&'static str, Subject)> = Vec::new();
    for (size, names) in [
        (
            1500usize,
            [
                "aes-256-gcm fixed key 1500 B",
                "xaes-256-gcm 1500 B",
                "aes-128-gcm-siv 1500 B",
                "aws-lc-rs aes-128-gcm-siv 1500 B",
                "aes-256-gcm-siv 1500 B",
                "aws-lc-rs aes-256-gcm-siv 1500 B",
                "aes-256-gcm fixed key open 1500 B",
                "xaes-256-gcm open 1500 B",
            ],
        ),
        (
            16384,
            [
                "aes-256-gcm fixed key 16384 B",
                "xaes-256-gcm 16384 B",
                "aes-128-gcm-siv 16384 B",
                "aws-lc-rs aes-128-gcm-siv 16384 B",
                "aes-256-gcm-siv 16384 B",
                "aws-lc-rs aes-256-gcm-siv 16384 B",
                "aes-256-gcm fixed key open 16384 B",
                "xaes-256-gcm open 16384 B",
            ],
        ),
    ] {
        let g = galois_aead::AesGcm::new(&[0x42; 32]).unwrap();
        let mut buf = vec![0x11u8; size];
        v.push((
            names[0],
            Box::new(move || {
                black_box(g.seal_in_place_detached(&[7; 12], &[], &mut buf).unwrap());
            }),
        ));
        let x = galois_aead::XAes256Gcm::new(&[0x42; 32]).unwrap();
        let mut buf = vec![0x11u8; size];
        let mut n = 0u64;
        v.push((
            names[1],
            Box::new(move || {
                n += 1;
                let mut nonce = [7u8; 24];
                nonce[..8].copy_from_slice(&n.to_le_bytes());
                black_box(x.seal_in_place_detached(&nonce, &[], &mut buf).unwrap());
            }),
        ));
        // Opening, out of place from one sealed message (so every call
        // verifies): XAES derives its key for each call all the same.
        let g = galois_aead::AesGcm::new(&[0x42; 32]).unwrap();
        let sealed = g.seal(&[7; 12], &[], &vec![0x11u8; size]).unwrap();
        v.push(open_row(names[6], sealed, move |c, out| {
            g.open_into(&[7; 12], &[], c, out)
        }));
        let x = galois_aead::XAes256Gcm::new(&[0x42; 32]).unwrap();
        let sealed = x.seal(&[7; 24], &[], &vec![0x11u8; size]).unwrap();
        v.push(open_row(names[7], sealed, move |c, out| {
            x.open_into(&[7; 24], &[], c, out)
        }));
        for (i, (klen, alg)) in [(16usize, &AES_128_GCM_SIV), (32, &AES_256_GCM_SIV)]
            .into_iter()
            .enumerate()
        {
            let s = galois_aead::AesGcmSiv::new(&vec![0x42; klen]).unwrap();
            let mut buf = vec![0x11u8; size];
            v.push((
                names[2 + 2 * i],
                Box::new(move || {
                    black_box(s.seal_in_place_detached(&[7; 12], &[], &mut buf).unwrap());
                }),
            ));
            let a = LessSafeKey::new(UnboundKey::new(alg, &vec![0x42; klen]).unwrap());
            let mut buf = vec![0x11u8; size];
            v.push((
                names[3 + 2 * i],
                Box::new(move || {
                    let n = Nonce::assume_unique_for_key([7u8; 12]);
                    let _ = black_box(a.seal_in_place_separate_tag(n, Aad::empty(), &mut buf));
                }),
            ));
        }
    }
    v
}

pub fn run(a: Args) {
    let mut subs = subjects();
    subs.extend(seal_subjects());
    if let Some(only) = &a.only {
        let (_, f) = subs
            .iter_mut()
            .find(|(l, _)| l == only)
            .unwrap_or_else(|| panic!("no row {only:?}"));
        let t = Instant::now();
        let mut calls = 0u64;
        while t.elapsed().as_secs_f64() < a.secs {
            for _ in 0..1000 {
                f();
            }
            calls += 1000;
        }
        println!(
            "{only}: {:.1} ns/call",
            t.elapsed().as_nanos() as f64 / calls as f64
        );
        return;
    }
    // Many short samples: on a shared machine the lowest decile of short
    // samples tracks the quiet-machine figure better than a median of long
    // ones.
    let (rounds, target) = if a.quick {
        (30, Duration::from_micros(200))
    } else {
        (200, Duration::from_micros(200))
    };
    let iters: Vec<u64> = subs.iter_mut().map(|(_, f)| calibrate(f, target)).collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); subs.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in subs.iter_mut().enumerate() {
            samples[i].push(sample(f, iters[i]));
        }
    }
    println!(
        "galois-bench keys: {rounds} round-robin samples of ~200 us; ns per call, median and lowest decile"
    );
    for (i, (label, _)) in subs.iter().enumerate() {
        let med = median(&mut samples[i]);
        let low = samples[i][rounds / 10];
        println!("{label:<36} {med:>9.1} {low:>9.1}");
    }
}
