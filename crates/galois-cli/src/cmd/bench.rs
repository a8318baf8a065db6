use super::{CliError, CmdResult};
use galois_aead::{AesGcm, Ghash, GhashBackend, Options};
use galois_cli::timing::{calibrate, median, sample, tsc_per_ns};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// `--size`: at least one byte (a rate over nothing is no measurement).
fn size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1 byte".into()),
        Ok(n) if n <= 1 << 30 => Ok(n),
        Ok(_) => Err("must be at most 1 GiB".into()),
        Err(_) => Err(format!("{s:?} is not a number of bytes")),
    }
}

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois bench ghash --quick\n",
    "  galois bench gcm --size 1500 --plot gcm.svg\n\n",
    super::exit_codes!()
))]
pub struct Args {
    /// What to measure: `ghash` (the spec's Table 1 on this CPU) or `gcm`.
    #[arg(value_parser = ["ghash", "gcm"])]
    what: String,
    /// Message size in bytes for throughput (1 .. 1 GiB).
    #[arg(long, default_value_t = 16384, value_parser = size, value_name = "BYTES")]
    size: usize,
    /// Fewer, shorter samples.
    #[arg(long)]
    quick: bool,
    /// Also measure every backend at the papers' message sizes (16 .. 16384
    /// bytes) and write throughput against size as an SVG plot.
    #[arg(long)]
    plot: Option<std::path::PathBuf>,
}

/// The message sizes of the papers' tables.
const SIZES: &[usize] = &[
    16, 20, 40, 44, 64, 128, 256, 552, 576, 1024, 1500, 8192, 16384,
];

/// Median time per call of `f`, from `samples` samples of about `target` each.
fn median_ns<F: FnMut()>(mut f: F, samples: usize, target: Duration) -> f64 {
    let iters = calibrate(&mut f, target);
    let mut v: Vec<f64> = (0..samples).map(|_| sample(&mut f, iters)).collect();
    median(&mut v)
}

pub fn run(a: Args) -> CmdResult {
    let (samples, target) = if a.quick {
        (5, Duration::from_millis(10))
    } else {
        (11, Duration::from_millis(40))
    };
    // 0 where there is no time-stamp counter.
    let tsc = Some(tsc_per_ns()).filter(|&t| t > 0.0);
    let cpb = |ns: f64, bytes: usize| {
        tsc.map(|t| format!("{:.2}", ns * t / bytes as f64))
            .unwrap_or("-".into())
    };
    match a.what.as_str() {
        "ghash" => {
            println!(
                "GHASH on this CPU ({} bytes per call; median of {samples} samples)",
                a.size
            );
            println!(
                "cycles are TSC cycles ({:.3} GHz here; core cycles differ by the turbo ratio)",
                tsc.unwrap_or(0.0)
            );
            println!(
                "{:<16} {:>12} {:>14} {:>9} {:>12} {:>14} {:>4}",
                "backend", "bytes/key", "shared bytes", "GB/s", "cycles/byte", "key setup ns", "ct"
            );
            let data = vec![0x5au8; a.size];
            let h = [
                0x66u8, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b, 0x88, 0x4c, 0xfa, 0x59, 0xca,
                0x34, 0x2b, 0x2e,
            ];
            for b in GhashBackend::available() {
                let (key_bytes, shared) = b.storage();
                let setup = median_ns(
                    || drop(black_box(Ghash::with_backend(black_box(&h), b).unwrap())),
                    samples,
                    target / 4,
                );
                let mut g = Ghash::with_backend(&h, b).unwrap();
                let ns = median_ns(|| g.update(black_box(&data)), samples, target);
                black_box(g.state());
                println!(
                    "{:<16} {:>12} {:>14} {:>9.3} {:>12} {:>14.0} {:>4}",
                    b.name(),
                    key_bytes,
                    shared,
                    a.size as f64 / ns,
                    cpb(ns, a.size),
                    setup,
                    if b.is_constant_time() { "yes" } else { "no" }
                );
            }
        }
        "gcm" => {
            println!("AES-128-GCM seal, {} bytes per call, per GHASH backend (median of {samples} samples)", a.size);
            println!(
                "{:<16} {:>9} {:>12} {:>10}",
                "backend", "GB/s", "cycles/byte", "ns/call"
            );
            let mut buf = vec![0x5au8; a.size];
            for b in GhashBackend::available() {
                let gcm = AesGcm::with_options(&[7u8; 16], Options::new().backend(b)).unwrap();
                let iv = [1u8; 12];
                let ns = median_ns(
                    || {
                        black_box(gcm.seal_in_place_detached(&iv, &[], &mut buf).unwrap());
                    },
                    samples,
                    target,
                );
                println!(
                    "{:<16} {:>9.3} {:>12} {:>10.0}",
                    b.name(),
                    a.size as f64 / ns,
                    cpb(ns, a.size),
                    ns
                );
            }
        }
        other => {
            return Err(CliError::usage(format!(
                "unknown benchmark {other:?} (ghash, gcm)"
            )))
        }
    }
    if let Some(path) = &a.plot {
        let gcm = a.what == "gcm";
        println!("\nthroughput by size (GB/s) for the plot:");
        let mut series = Vec::new();
        for b in GhashBackend::available() {
            let mut points = Vec::new();
            for &size in SIZES {
                let mut buf = vec![0x5au8; size];
                let ns = if gcm {
                    let g = AesGcm::with_options(&[7u8; 16], Options::new().backend(b)).unwrap();
                    median_ns(
                        || {
                            black_box(g.seal_in_place_detached(&[1u8; 12], &[], &mut buf).unwrap());
                        },
                        samples,
                        target / 4,
                    )
                } else {
                    let h = [0x66u8; 16];
                    let mut g = Ghash::with_backend(&h, b).unwrap();
                    median_ns(|| g.update(black_box(&buf)), samples, target / 4)
                };
                points.push((size, size as f64 / ns));
            }
            let row: Vec<String> = points
                .iter()
                .map(|p| format!("{}:{:.3}", p.0, p.1))
                .collect();
            println!("{:<16} {}", b.name(), row.join(" "));
            series.push(galois_cli::plot::Series {
                label: b.name().to_string(),
                points,
            });
        }
        let title = if gcm {
            "galois AES-128-GCM seal by GHASH backend"
        } else {
            "galois GHASH by backend"
        };
        std::fs::write(path, galois_cli::plot::svg(title, &series))
            .map_err(|e| CliError::io(format!("{}: {e}", path.display())))?;
        println!("plot written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
