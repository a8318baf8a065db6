//! Benchmark (not a test): the on-line AES-128-GCM API (`Encryptor`,
//! `UnverifiedDecryptor`) against the one-shot seal, one message per call.
//!
//! Timing, alternated rounds and medians, pinned:
//! `taskset -c 1 target/release/examples/online_bench time 16384`
//! prints ns per message for each form and its ratio to the one-shot seal;
//! `seal again` is the control (the same call as `seal`, timed apart).
//!
//! Counting: `online_bench FORM SIZE N` runs FORM N times, for
//! per-call instruction counts under cachegrind (the difference of two N).
//! Forms: `seal`, `open` (one-shot, for the decryptions), `enc1` (one `encrypt` of SIZE), `enc2` (two halves),
//! `enc3` (1000 bytes, then the rest: the whole-block run starts off a
//! block boundary), `dec2` (`decrypt_unverified` in two halves, then the
//! tag), `dec_buf2` (`Decryptor`, two halves).

use galois_aead::AesGcm;
use std::hint::black_box;
use std::time::Instant;

const FORMS: [&str; 7] = ["seal", "enc1", "enc2", "enc3", "open", "dec2", "dec_buf2"];

/// One message of form `what` over `buf` (`sealed`: `buf` sealed, then its tag).
fn run(g: &AesGcm, what: &str, buf: &mut [u8], sealed: &[u8]) {
    let iv = [7u8; 12];
    let n = buf.len();
    match what {
        "seal" | "seal again" => {
            black_box(g.seal_in_place_detached(&iv, b"", buf).unwrap());
        }
        "enc1" | "enc2" | "enc3" => {
            let mut e = g.encryptor(&iv).unwrap();
            let cut = match what {
                "enc1" => n,
                "enc2" => n / 2,
                _ => 1000.min(n),
            };
            let (a, b) = buf.split_at_mut(cut);
            e.encrypt(a).unwrap();
            e.encrypt(b).unwrap();
            black_box(e.finish());
        }
        "open" => {
            buf.copy_from_slice(&sealed[..n]);
            g.open_in_place_detached(&iv, b"", buf, &sealed[n..])
                .unwrap();
        }
        "dec2" => {
            buf.copy_from_slice(&sealed[..n]);
            let mut d = g.unverified_decryptor(&iv).unwrap();
            let (a, b) = buf.split_at_mut(n / 2);
            d.decrypt_unverified(a).unwrap();
            d.decrypt_unverified(b).unwrap();
            d.finish(&sealed[n..]).unwrap();
        }
        "dec_buf2" => {
            let mut d = g.decryptor(&iv).unwrap();
            d.update(&sealed[..n / 2]).unwrap();
            d.update(&sealed[n / 2..n]).unwrap();
            black_box(d.finish(&sealed[n..]).unwrap());
        }
        _ => panic!("unknown form {what}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: online_bench time SIZE | online_bench FORM SIZE N";
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).expect(usage);
    let g = AesGcm::new(&[0x42; 16]).unwrap();
    let mut buf = vec![0x5au8; size];
    let sealed = g.seal(&[7; 12], b"", &buf).unwrap();
    if args[0] != "time" {
        let n: usize = args.get(2).and_then(|s| s.parse().ok()).expect(usage);
        for _ in 0..n {
            run(&g, &args[0], &mut buf, &sealed);
        }
        return;
    }
    let forms: Vec<&str> = FORMS.iter().copied().chain(["seal again"]).collect();
    // Calls per timed batch: about 100 us of work each.
    let per = (100_000 / (size / 8 + 50)).max(20);
    let rounds = 41;
    let mut ns = vec![Vec::new(); forms.len()];
    for _ in 0..3 * per {
        run(&g, "enc2", &mut buf, &sealed);
    }
    for _ in 0..rounds {
        for (i, f) in forms.iter().enumerate() {
            let t = Instant::now();
            for _ in 0..per {
                run(&g, f, &mut buf, &sealed);
            }
            ns[i].push(t.elapsed().as_nanos() as f64 / per as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let m: Vec<f64> = ns.iter_mut().map(median).collect();
    println!("AES-128-GCM, {size} B, {rounds} alternated rounds of {per} calls, medians");
    for (f, t) in forms.iter().zip(&m) {
        println!(
            "{f:>10}: {t:9.1} ns  {:6.2} GB/s  {:.2}x seal",
            size as f64 / t,
            t / m[0]
        );
    }
}
