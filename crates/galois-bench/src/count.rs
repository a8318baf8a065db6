//! Deterministic per-call counts: `calls` calls of one primitive of one
//! implementation on one buffer, and nothing else (no timing, no other
//! implementation), to be run under `valgrind --tool=cachegrind`. The
//! count per call is the difference between two runs with different
//! `--calls` divided by the difference in calls (set-up cancels out);
//! `scripts/counts.sh` does that for every row of docs/speed.md.

use crate::siv::Subject;
use std::hint::black_box;

#[derive(clap::Args)]
pub struct Args {
    /// aes-128-gcm, aes-256-gcm (seal), aes-128-gcm-siv, aes-256-gcm-siv
    /// (seal) or poly1305-aes.
    #[arg(long)]
    prim: String,
    /// galois (its automatic backend), aws-lc-rs, ring or openssl.
    #[arg(long = "impl")]
    imp: String,
    /// Message bytes per call.
    #[arg(long)]
    size: usize,
    /// Calls to make.
    #[arg(long)]
    calls: u64,
    /// After each call, read one byte per 64-byte line of a buffer this
    /// large (larger than the first-level data cache: the next call finds
    /// none of its data there). With `--prim none`, only this sweep.
    #[arg(long, default_value_t = 0)]
    evict_bytes: usize,
}

/// Makes `calls` calls of `s` (named `label`) on one buffer of `size`
/// bytes of 0x11.
pub fn calls(label: &str, s: Subject, calls: u64, size: usize) {
    calls_evicting(label, s, calls, size, 0)
}

fn calls_evicting(label: &str, mut s: Subject, calls: u64, size: usize, evict: usize) {
    let mut buf = vec![0x11u8; size];
    let sweep = vec![1u8; evict];
    for _ in 0..calls {
        s(black_box(&mut buf));
        let mut x = 0u8;
        for i in (0..evict).step_by(64) {
            // SAFETY: i < evict = sweep.len(); a volatile read so that
            // every line is loaded.
            x ^= unsafe { core::ptr::read_volatile(sweep.as_ptr().add(i)) };
        }
        black_box(x);
    }
    println!(
        "{label}: {calls} calls of {size} bytes: {:02x}",
        buf.first().unwrap_or(&0)
    );
}

pub fn run(a: Args) {
    let subject: Option<(String, Subject)> = match a.prim.as_str() {
        "aes-128-gcm" => crate::gcm::count_subject(16, &a.imp),
        "aes-256-gcm" => crate::gcm::count_subject(32, &a.imp),
        "aes-128-gcm-siv" | "aes-256-gcm-siv" => {
            let key_len = if a.prim.starts_with("aes-128") {
                16
            } else {
                32
            };
            crate::siv::siv_subjects(key_len, false)
                .into_iter()
                .find(|(l, _)| l.split('/').next() == Some(a.imp.as_str()))
        }
        "none" => Some(("none".to_string(), Box::new(|_: &mut [u8]| {}))),
        "poly1305-aes" => {
            crate::poly1305::count_subject(&a.imp, galois_aead::poly1305::Poly1305Backend::auto())
        }
        _ => None,
    };
    match subject {
        Some((label, s)) => calls_evicting(&label, s, a.calls, a.size, a.evict_bytes),
        None => {
            eprintln!("no implementation {} of {}", a.imp, a.prim);
            std::process::exit(2);
        }
    }
}
