//! `galois seal` / `open` with Cobblestone (the default format): the files
//! are the library's Cobblestone byte for byte in length and open with it,
//! `--raw-key` takes exactly 16 or 32 bytes, `--context` and its alias
//! `--aad` bind the file, and files in the earlier stream format still open.

mod common;

use common::*;
use galois_aead::chunked::{self, CHUNK_SIZE, HEADER_LEN, SEALED_CHUNK_SIZE};
use std::path::{Path, PathBuf};
use std::process::Output;

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(seed).wrapping_add((i >> 9) as u8))
        .collect()
}

/// A key file from `galois keygen`, and its key bytes.
fn keygen(dir: &Path, alg: &str) -> (PathBuf, Vec<u8>) {
    let k = dir.join(format!("{alg}.key"));
    let o = galois_run!("keygen", "--algorithm", alg, "-o", &k);
    assert!(o.status.success(), "{}", err(&o));
    let text = std::fs::read_to_string(&k).unwrap();
    let hex_key = text.split_whitespace().nth(2).unwrap();
    (k, hex::decode(hex_key).unwrap())
}

/// `galois CMD KEYFLAG KEY EXTRA... -o OUT --force IN`.
fn galois_file(cmd: &str, key: (&str, &Path), extra: &[&str], input: &Path, out: &Path) -> Output {
    galois()
        .arg(cmd)
        .arg(key.0)
        .arg(key.1)
        .args(extra)
        .arg("-o")
        .arg(out)
        .arg("--force")
        .arg(input)
        .output()
        .unwrap()
}

fn seal(key: (&str, &Path), extra: &[&str], input: &Path, out: &Path) -> Output {
    galois_file("seal", key, extra, input, out)
}

fn open(key: (&str, &Path), extra: &[&str], input: &Path, out: &Path) -> Output {
    galois_file("open", key, extra, input, out)
}

#[test]
fn key_files_seal_cobblestone_that_the_library_opens() {
    let d = tmpdir("keyfile");
    for alg in ["aes-128-gcm", "aes-256-gcm"] {
        let (k, key) = keygen(&d, alg);
        for n in [
            0,
            1,
            CHUNK_SIZE - 1,
            CHUNK_SIZE,
            CHUNK_SIZE + 1,
            2 * CHUNK_SIZE,
            70 * CHUNK_SIZE + 5,
        ] {
            let p = d.join("p");
            let pt = data(n, 7);
            std::fs::write(&p, &pt).unwrap();
            let s = d.join("s");
            let o = seal(("--key", &k), &["--context", "name=p"], &p, &s);
            assert!(o.status.success(), "{}", err(&o));
            let sealed = std::fs::read(&s).unwrap();
            assert_eq!(sealed.len(), chunked::sealed_len(n), "{alg} {n}");
            // The library opens it with the key file's bytes and the context.
            assert!(chunked::open(&key, b"name=p", &sealed).unwrap() == pt);
            // And galois opens what the library sealed.
            let lib = d.join("lib");
            std::fs::write(&lib, chunked::seal(&key, b"name=p", &pt).unwrap()).unwrap();
            let b = d.join("b");
            let o = open(("--key", &k), &["--aad", "name=p"], &lib, &b);
            assert!(o.status.success(), "{}", err(&o));
            assert!(std::fs::read(&b).unwrap() == pt);
            // Wrong context, and none: refused, no output.
            std::fs::remove_file(&b).unwrap();
            for ctx in [&["--context", "name=q"][..], &[]] {
                let o = open(("--key", &k), ctx, &s, &b);
                assert_eq!(o.status.code(), Some(1), "{}", err(&o));
                assert!(err(&o).contains("wrong key or context"), "{}", err(&o));
                assert!(!b.exists());
            }
        }
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn raw_keys_of_16_and_32_bytes_only() {
    let d = tmpdir("raw");
    let p = d.join("p");
    let pt = data(50_000, 3);
    std::fs::write(&p, &pt).unwrap();
    let (s, b) = (d.join("s"), d.join("b"));
    for n in [16usize, 32] {
        let raw = d.join(format!("raw{n}"));
        let key = data(n, 11);
        std::fs::write(&raw, &key).unwrap();
        let o = seal(("--raw-key", &raw), &[], &p, &s);
        assert!(o.status.success(), "{}", err(&o));
        assert!(chunked::open(&key, b"", &std::fs::read(&s).unwrap()).unwrap() == pt);
        let o = open(("--raw-key", &raw), &[], &s, &b);
        assert!(o.status.success(), "{}", err(&o));
        assert!(std::fs::read(&b).unwrap() == pt);
    }
    // A galois key file with the same bytes opens a --raw-key file.
    let (k, key) = keygen(&d, "aes-256-gcm");
    let raw = d.join("same");
    std::fs::write(&raw, &key).unwrap();
    let o = seal(("--raw-key", &raw), &["--context", "c"], &p, &s);
    assert!(o.status.success(), "{}", err(&o));
    let o = open(("--key", &k), &["--context", "c"], &s, &b);
    assert!(o.status.success(), "{}", err(&o));
    // Other sizes (a key file's text is not a raw key either): exit 4,
    // nothing written.
    std::fs::remove_file(&b).unwrap();
    for n in [0usize, 1, 15, 17, 24, 31, 33, 64, 4096] {
        let bad = d.join(format!("bad{n}"));
        std::fs::write(&bad, data(n, 5)).unwrap();
        let o = seal(("--raw-key", &bad), &[], &p, &b);
        assert_eq!(o.status.code(), Some(4), "{n}: {}", err(&o));
        assert!(err(&o).contains("16 or 32 bytes"), "{}", err(&o));
        assert!(!b.exists());
        let o = open(("--raw-key", &bad), &[], &s, &b);
        assert_eq!(o.status.code(), Some(4), "{n}: {}", err(&o));
    }
    let o = seal(("--raw-key", &k), &[], &p, &b);
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    let o = seal(("--raw-key", &d.join("missing")), &[], &p, &b);
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(!b.exists());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn truncated_tampered_and_appended_files_refused() {
    let d = tmpdir("bad");
    let (k, _) = keygen(&d, "aes-128-gcm");
    let p = d.join("p");
    std::fs::write(&p, data(3 * CHUNK_SIZE + 99, 13)).unwrap();
    let s = d.join("s");
    assert!(seal(("--key", &k), &[], &p, &s).status.success());
    let good = std::fs::read(&s).unwrap();
    let chunk = |i: usize| HEADER_LEN + i * SEALED_CHUNK_SIZE;
    let mut cases: Vec<(&str, Vec<u8>, i32)> = vec![(
        "final chunk dropped (cut at a chunk boundary)",
        good[..chunk(3)].to_vec(),
        5,
    )];
    cases.push((
        "cut inside the final tag",
        good[..good.len() - 3].to_vec(),
        1,
    ));
    cases.push(("header only", good[..HEADER_LEN].to_vec(), 5));
    cases.push(("shorter than the header", good[..30].to_vec(), 5));
    cases.push(("empty", Vec::new(), 5));
    let mut t = good.clone();
    t[chunk(1) + 7] ^= 4;
    cases.push(("bit flipped in chunk 1", t, 1));
    let mut t = good.clone();
    t[3] ^= 1;
    cases.push(("salt altered", t, 1));
    let mut t = good[..chunk(0)].to_vec();
    t.extend_from_slice(&good[chunk(1)..chunk(2)]);
    t.extend_from_slice(&good[chunk(0)..chunk(1)]);
    t.extend_from_slice(&good[chunk(2)..]);
    cases.push(("chunks swapped", t, 1));
    let mut t = good.clone();
    t.extend_from_slice(&[0u8; 20]);
    cases.push(("bytes appended", t, 1));
    let b = d.join("b");
    for (what, bytes, code) in cases {
        let input = d.join("in");
        std::fs::write(&input, &bytes).unwrap();
        let o = open(("--key", &k), &[], &input, &b);
        assert_eq!(o.status.code(), Some(code), "{what}: {}", err(&o));
        assert_eq!(err(&o).lines().count(), 1, "{what}: one line on stderr");
        assert!(!b.exists(), "{what}: output left behind");
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn earlier_stream_format_files_still_open() {
    let d = tmpdir("old");
    let (k, key) = keygen(&d, "aes-256-gcm");
    let pt = data(100_000, 17);
    let (s, b) = (d.join("s"), d.join("b"));
    // Written by the library's stream format (as galois seal did before),
    // with and without associated data.
    for (aad, flag) in [
        (&b""[..], None),
        (&b"v1"[..], Some("--aad")),
        (&b"v2"[..], Some("--context")),
    ] {
        let sealed = if aad.is_empty() {
            galois_aead::stream::seal(&key, 4096, &pt).unwrap()
        } else {
            let mut out = Vec::new();
            galois_aead::stream::seal_stream_with_aad(&key, aad, 4096, &mut &pt[..], &mut out)
                .unwrap();
            out
        };
        assert_eq!(&sealed[..4], b"GSTR");
        std::fs::write(&s, &sealed).unwrap();
        let a = std::str::from_utf8(aad).unwrap();
        let extra: Vec<&str> = flag.map(|f| vec![f, a]).unwrap_or_default();
        let o = open(("--key", &k), &extra, &s, &b);
        assert!(o.status.success(), "{}", err(&o));
        assert!(std::fs::read(&b).unwrap() == pt);
        // Its own errors still come through: a segment dropped.
        let mut cut = sealed[..50].to_vec();
        cut.extend_from_slice(&sealed[50 + 4112..]);
        std::fs::write(&s, &cut).unwrap();
        std::fs::remove_file(&b).unwrap();
        let o = open(("--key", &k), &extra, &s, &b);
        assert_eq!(o.status.code(), Some(5), "{}", err(&o));
        assert!(!b.exists());
    }
    // galois seal --format stream writes it; aes-192 keys too.
    let p = d.join("p");
    std::fs::write(&p, &pt).unwrap();
    let (k192, _) = keygen(&d, "aes-192-gcm");
    for kk in [&k, &k192] {
        let o = seal(
            ("--key", kk),
            &["--format", "stream", "--segment-size", "1000"],
            &p,
            &s,
        );
        assert!(o.status.success(), "{}", err(&o));
        assert_eq!(&std::fs::read(&s).unwrap()[..4], b"GSTR");
        let o = open(("--key", kk), &[], &s, &b);
        assert!(o.status.success(), "{}", err(&o));
        assert!(std::fs::read(&b).unwrap() == pt);
    }
    // A wrong key for an earlier-format file is still a wrong key.
    let (k2, _) = keygen(&d, "aes-128-gcm");
    std::fs::remove_file(&b).unwrap();
    let o = open(("--key", &k2), &[], &s, &b);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(!b.exists());
    std::fs::remove_dir_all(&d).ok();
}
