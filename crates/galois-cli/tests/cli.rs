//! The real `galois` binary: keys, seal/open round trips, and every kind
//! of bad input failing with its documented exit code and no output file.

mod common;

use common::*;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

fn os<P: AsRef<std::ffi::OsStr> + ?Sized>(p: &P) -> &std::ffi::OsStr {
    p.as_ref()
}

/// `galois verify --key K --tag TAG MSG`.
fn verify(k: &Path, tag: &str, msg: &Path) -> Output {
    galois_run!("verify", "--key", k, "--tag", tag, msg)
}

#[test]
fn key_files_are_private_and_never_overwritten() {
    let d = tmpdir("keys");
    for alg in ["aes-128-gcm", "aes-256-gcm", "poly1305-aes"] {
        let k = keygen(&d, alg, alg);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&k).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let o = galois_run!("keygen", "--algorithm", alg, "-o", &k);
        assert_eq!(o.status.code(), Some(3), "overwrite must be refused");
    }
    let a = std::fs::read_to_string(d.join("aes-256-gcm")).unwrap();
    assert!(a.starts_with("galois-key-v1 aes-256-gcm "));
}

#[test]
fn round_trips_empty_small_and_100_mb() {
    let (d, k) = dir_with_key("rt", "aes-256-gcm");
    for (i, n) in [0usize, 1, 15, 16, 17, 65535, 65536, 65537, 100 << 20]
        .into_iter()
        .enumerate()
    {
        let data = pseudo_random(n, i as u64 + 1);
        let (pin, sealed, back) = (
            d.join(format!("p{i}")),
            d.join(format!("s{i}")),
            d.join(format!("b{i}")),
        );
        std::fs::write(&pin, &data).unwrap();
        let o = key_io("seal", &k, &[], &sealed, &pin);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(std::fs::metadata(&sealed).unwrap().len() > n as u64);
        let o = key_io("open", &k, &[], &back, &sealed);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(std::fs::read(&back).unwrap() == data, "size {n}");
        for p in [&pin, &sealed, &back] {
            std::fs::remove_file(p).unwrap();
        }
    }
}

#[test]
fn stdin_to_stdout_round_trip() {
    let (_d, k) = dir_with_key("stdio", "aes-128-gcm");
    let data = pseudo_random(300_000, 9);
    let pipe = |args: &[&std::ffi::OsStr], input: &[u8]| {
        let mut c = spawn_piped(args, Stdio::piped());
        let mut sin = c.stdin.take().unwrap();
        let input = input.to_vec();
        let w = std::thread::spawn(move || sin.write_all(&input));
        let o = c.wait_with_output().unwrap();
        w.join().unwrap().unwrap();
        o
    };
    let s = pipe(&[os("seal"), os("--key"), os(&k)], &data);
    assert!(s.status.success());
    let o = pipe(&[os("open"), os("--key"), os(&k), os("-")], &s.stdout);
    assert!(o.status.success());
    assert!(o.stdout == data);
}

#[test]
fn tampered_truncated_reordered_and_wrong_key_inputs_fail_and_leave_nothing() {
    let (d, k) = dir_with_key("bad", "aes-256-gcm");
    let k2 = keygen(&d, "k2", "aes-256-gcm");
    let kp = keygen(&d, "kp", "poly1305-aes");
    let data = pseudo_random(5 * 4096 + 100, 3);
    let pin = d.join("plain");
    std::fs::write(&pin, &data).unwrap();
    let sealed = d.join("sealed");
    let o = key_io(
        "seal",
        &k,
        &["--format", "stream", "--segment-size", "4096"],
        &sealed,
        &pin,
    );
    assert!(o.status.success());
    let good = std::fs::read(&sealed).unwrap();
    let header = 50;
    let seg = 4096 + 16;
    let mut cases: Vec<(&str, Vec<u8>, i32)> = Vec::new();
    let mut t = good.clone();
    t[header + 10] ^= 1;
    cases.push(("flipped ciphertext bit", t, 1));
    let mut t = good.clone();
    let last = t.len() - 1;
    t[last] ^= 0x80;
    cases.push(("flipped tag bit", t, 1));
    let mut t = good.clone();
    t[20] ^= 1;
    cases.push(("altered header salt", t, 1));
    cases.push((
        "truncated mid-segment",
        good[..header + seg + 100].to_vec(),
        1,
    ));
    cases.push((
        "truncated at a segment boundary",
        good[..header + 2 * seg].to_vec(),
        5,
    ));
    let mut t = good[..header].to_vec();
    t.extend_from_slice(&good[header + seg..header + 2 * seg]);
    t.extend_from_slice(&good[header..header + seg]);
    t.extend_from_slice(&good[header + 2 * seg..]);
    cases.push(("swapped segments", t, 5));
    let mut t = good[..header + seg].to_vec();
    t.extend_from_slice(&good[header..]);
    cases.push(("duplicated segment", t, 5));
    let mut t = good.clone();
    t.extend_from_slice(&good[header..header + seg]);
    cases.push(("appended segment", t, 5));
    cases.push(("header only", good[..header].to_vec(), 5));
    cases.push(("empty input", Vec::new(), 5));
    // Without the stream magic the input is read as Cobblestone, whose
    // header is random: its commitment does not match (exit 1).
    cases.push((
        "not a stream",
        b"hello, world, this is not a galois stream at all..........".to_vec(),
        1,
    ));
    for (what, bytes, code) in cases {
        let input = d.join("input");
        std::fs::write(&input, &bytes).unwrap();
        let out = d.join("out");
        let o = key_io("open", &k, &[], &out, &input);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).lines().count(),
            1,
            "{what}: one line on stderr"
        );
        assert!(!out.exists(), "{what}: output file left behind");
        assert!(
            !names(&d).iter().any(|f| f.contains("galois-tmp")),
            "{what}: temp file left behind"
        );
    }
    let out = d.join("out");
    let o = key_io("open", &k2, &[], &out, &sealed);
    assert_eq!(o.status.code(), Some(1), "wrong key");
    assert!(!out.exists());
    let o = key_io("open", &kp, &[], &out, &sealed);
    assert_eq!(
        o.status.code(),
        Some(4),
        "a MAC key is not an encryption key"
    );
    let o = key_io("open", &pin, &[], &out, &sealed);
    assert_eq!(o.status.code(), Some(4), "not a key file");
    let o = key_io("open", &k, &[], &out, &d.join("missing"));
    assert_eq!(o.status.code(), Some(3), "missing input");
    assert!(!out.exists());
}

#[test]
fn mac_and_verify_for_both_macs() {
    let d = tmpdir("mac");
    let msg = d.join("msg");
    std::fs::write(&msg, pseudo_random(10_000, 5)).unwrap();
    for alg in ["aes-128-gcm", "aes-256-gcm", "poly1305-aes"] {
        let k = keygen(&d, alg, alg);
        let o = galois_run!("mac", "--key", &k, &msg);
        assert!(o.status.success());
        let tag = String::from_utf8(o.stdout).unwrap().trim().to_string();
        let o = verify(&k, &tag, &msg);
        assert!(o.status.success(), "{alg}");
        let mut other = std::fs::read(&msg).unwrap();
        other[0] ^= 1;
        let m2 = d.join("msg2");
        std::fs::write(&m2, &other).unwrap();
        let o = verify(&k, &tag, &m2);
        assert_eq!(o.status.code(), Some(1), "{alg}: tampered message");
        let o = verify(&k, "zz:00", &msg);
        assert_eq!(o.status.code(), Some(2), "{alg}: malformed tag");
    }
}

#[test]
fn associated_data_must_match() {
    let (d, k) = dir_with_key("aad", "aes-256-gcm");
    let pin = d.join("plain");
    std::fs::write(&pin, pseudo_random(3 * 4096 + 7, 11)).unwrap();
    let sealed = d.join("sealed");
    let o = key_io(
        "seal",
        &k,
        &[
            "--aad",
            "file=report.pdf",
            "--format",
            "stream",
            "--segment-size",
            "4096",
        ],
        &sealed,
        &pin,
    );
    assert!(o.status.success());
    let out = d.join("out");
    for (aad, code) in [
        (None, 1),
        (Some("file=other.pdf"), 1),
        (Some("file=report.pdf"), 0),
    ] {
        let mut args = vec![os("open"), os("--key"), os(&k), os("-o"), os(&out)];
        if let Some(a) = aad {
            args.extend([os("--aad"), os(a)]);
        }
        args.push(os(&sealed));
        let o = run(&args);
        assert_eq!(
            o.status.code(),
            Some(code),
            "aad {aad:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(out.exists(), code == 0);
    }
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&pin).unwrap());
    // With AAD, a stream cut at a segment boundary is still named as truncated.
    let bytes = std::fs::read(&sealed).unwrap();
    let cut = d.join("cut");
    std::fs::write(&cut, &bytes[..50 + 2 * (4096 + 16)]).unwrap();
    std::fs::remove_file(&out).unwrap();
    let o = key_io("open", &k, &["--aad", "file=report.pdf"], &out, &cut);
    assert_eq!(
        o.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists());
}

#[test]
fn bench_writes_a_plot_with_a_line_per_backend() {
    let d = tmpdir("plot");
    let svg = d.join("ghash.svg");
    let o = galois_run!("bench", "ghash", "--quick", "--plot", &svg);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert_eq!(
        text.matches("<polyline").count(),
        galois_aead::GhashBackend::available().len()
    );
    for b in galois_aead::GhashBackend::available() {
        assert!(text.contains(b.name()), "{b} missing from the plot");
    }
}
