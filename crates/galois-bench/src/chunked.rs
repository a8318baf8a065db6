//! Cobblestone (C2SP chunked encryption) memory to memory, against
//! AES-128-GCM on one 16 KiB message, side by side in one process, round
//! robin: one core and all cores, sealing and opening.
//!
//! The targets: one core at >= 0.9x the AES-128-GCM 16 KiB
//! throughput, two cores at >= 1.8x one core.

use crate::measure::{calibrate, median, sample, tsc_per_ns};
use galois_aead::chunked;
use std::hint::black_box;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Fewer rounds and shorter samples.
    #[arg(long)]
    quick: bool,
    /// Message sizes in bytes (comma-separated; default 1 MiB and 16 MiB).
    #[arg(long, value_delimiter = ',')]
    sizes: Option<Vec<usize>>,
    /// Threads for the "all cores" rows (default: the cores available).
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
}

/// One subject: runs once over its own buffers.
type Subject = Box<dyn FnMut()>;

/// `chunked::seal_into_on` or `chunked::open_into_on`.
type ChunkedFn = fn(usize, &[u8], &[u8], &[u8], &mut [u8]) -> galois_aead::Result<()>;

pub fn run(a: Args) {
    let (rounds, target) = if a.quick {
        (3, Duration::from_millis(20))
    } else {
        (9, Duration::from_millis(100))
    };
    let cores = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let sizes = a.sizes.clone().unwrap_or_else(|| vec![1 << 20, 16 << 20]);
    let tsc = tsc_per_ns();
    let key = [0x42u8; 16];
    let mut json = Vec::new();
    if !a.json {
        println!("galois-bench chunked: medians of {rounds} round-robin samples; cycles are TSC cycles ({tsc:.3} per ns)");
        println!(
            "ratio: GB/s over AES-128-GCM 16 KiB (one core); 'x1' rows: over the one-core row"
        );
    }
    for &size in &sizes {
        let pt: Vec<u8> = (0..size).map(|i| i as u8).collect();
        let sealed = chunked::seal(&key, b"", &pt).unwrap();
        let mut subjects: Vec<(String, usize, Subject)> = Vec::new();
        // The reference: AES-128-GCM sealing one 16 KiB message in place.
        let gcm = galois_aead::AesGcm::new(&key).unwrap();
        let mut buf16 = vec![0x11u8; 16384];
        subjects.push((
            "aes-128-gcm 16 KiB seal".into(),
            16384,
            Box::new(move || {
                black_box(
                    gcm.seal_in_place_detached(&[7u8; 12], &[], &mut buf16)
                        .unwrap(),
                );
            }),
        ));
        let mut thread_counts = vec![1];
        if cores > 1 {
            thread_counts.push(cores);
        }
        // Opening one 16 KiB message in place (its tag is for the zero
        // plaintext, so it verifies every time: decrypting leaves it alone
        // only if reset, so each call opens a fresh copy of the sealed bytes).
        let gcm2 = galois_aead::AesGcm::new(&key).unwrap();
        let mut z = vec![0u8; 16384];
        let tag = gcm2
            .seal_in_place_detached(&[7u8; 12], &[], &mut z)
            .unwrap();
        let sealed16 = z.clone();
        let mut work = z;
        subjects.push((
            "aes-128-gcm 16 KiB copy+open".into(),
            16384,
            Box::new(move || {
                work.copy_from_slice(&sealed16);
                gcm2.open_in_place_detached(&[7u8; 12], &[], &mut work, tag.as_bytes())
                    .unwrap();
                black_box(&work);
            }),
        ));
        for threads in thread_counts {
            // Sealing the plaintext, then opening the sealed message.
            let runs: [(&str, ChunkedFn, &Vec<u8>, usize); 2] = [
                (
                    "seal",
                    chunked::seal_into_on,
                    &pt,
                    chunked::sealed_len(size),
                ),
                ("open", chunked::open_into_on, &sealed, size),
            ];
            for (what, run, input, out_len) in runs {
                let input = input.clone();
                let mut out = vec![0u8; out_len];
                subjects.push((
                    format!("cobblestone-128 {what}, {threads} thr"),
                    size,
                    Box::new(move || {
                        run(threads, &key, b"", &input, &mut out).unwrap();
                        black_box(&out);
                    }),
                ));
            }
        }
        // The same memory traffic without the format: AES-128-GCM sealing
        // the message's 16 KiB pieces out of place into Cobblestone's
        // layout (each piece and its tag where that chunk goes, 8 bytes off
        // a 16-byte boundary after the 56-byte header), one core. Against
        // the in-place reference it shows what out-of-place sealing over a
        // message larger than L1 (and L2) costs; against the Cobblestone row,
        // what the format itself costs.
        {
            let gcm = galois_aead::AesGcm::new(&key).unwrap();
            let p = pt.clone();
            let mut out = vec![0u8; chunked::sealed_len(size)];
            subjects.push((
                "gcm 16 KiB pieces, same layout".into(),
                size,
                Box::new(move || {
                    let body = &mut out[chunked::HEADER_LEN..];
                    for (i, piece) in p.chunks(chunked::CHUNK_SIZE).enumerate() {
                        let at = i * chunked::SEALED_CHUNK_SIZE;
                        let mut nonce = [0u8; 12];
                        nonce[4..].copy_from_slice(&(i as u64).to_be_bytes());
                        gcm.seal_into(&nonce, &[], piece, &mut body[at..at + piece.len() + 16])
                            .unwrap();
                    }
                    black_box(&out);
                }),
            ));
        }
        let iters: Vec<u64> = subjects
            .iter_mut()
            .map(|(_, _, f)| calibrate(f, target))
            .collect();
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); subjects.len()];
        for _ in 0..rounds {
            for (i, (_, _, f)) in subjects.iter_mut().enumerate() {
                samples[i].push(sample(f, iters[i]));
            }
        }
        let gbps: Vec<f64> = samples
            .iter_mut()
            .zip(&subjects)
            .map(|(v, (_, bytes, _))| *bytes as f64 / median(v))
            .collect();
        if !a.json {
            println!("\nmessage {size} bytes");
            println!(
                "{:<32} {:>9} {:>9} {:>8} {:>8}",
                "subject", "GB/s", "c/byte", "vs gcm", "x1"
            );
        }
        for (i, (label, _, _)) in subjects.iter().enumerate() {
            let vs_gcm = gbps[i] / gbps[0];
            // Rows 2, 3: one core; rows 4, 5: all cores (over rows 2, 3).
            let all_cores = i >= 4 && label.contains(" thr");
            let x1 = if all_cores {
                gbps[i] / gbps[i - 2]
            } else {
                1.0
            };
            if a.json {
                json.push(serde_json::json!({"size": size, "subject": label,
                    "gbps": gbps[i], "vs_gcm_16k": vs_gcm, "over_one_core": x1}));
            } else {
                println!(
                    "{:<32} {:>9.3} {:>9.3} {:>8.2} {:>8.2}",
                    label,
                    gbps[i],
                    tsc / gbps[i],
                    vs_gcm,
                    x1
                );
            }
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap());
    }
}
