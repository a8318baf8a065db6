//! The vector files of the constructions built on GCM's parts (AES-GCM-SIV
//! per RFC 8452, XAES-256-GCM per C2SP) through the runner and through the
//! `galois` binary with --all-backends.

use galois_cli::kat::{VectorFile, AUTO};
use std::path::PathBuf;
use std::process::Command;

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors")
        .join(name)
}

/// Every case passes on every implementation, none is unsupported, and
/// the counts in the file match its cases.
fn passes_everywhere(name: &str, algorithm: &str, valid: usize) {
    let text = std::fs::read_to_string(file(name)).unwrap();
    let f = VectorFile::parse(&text).unwrap();
    assert_eq!(f.algorithm, algorithm);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let n = f.tests().len();
    assert_eq!(doc["counts"]["total"], n);
    let v = f.tests().iter().filter(|c| c["result"] == "valid").count();
    assert_eq!(
        (doc["counts"]["valid"].as_u64().unwrap() as usize, v),
        (valid, valid)
    );
    let imps = f.implementations();
    for b in galois_aead::GhashBackend::available() {
        assert!(imps.iter().any(|i| i == b.name()), "{b} not run");
    }
    for imp in imps.iter().map(String::as_str).chain([AUTO]) {
        let s = f.run(imp);
        assert_eq!(s.failed, 0, "{name} [{imp}]: {:?}", s.failures);
        assert_eq!(s.passed, n, "{name} [{imp}]: {:?}", s.unsupported_reasons);
    }
}

#[test]
fn aes_gcm_siv_rfc8452_appendix_c_every_implementation() {
    passes_everywhere("aes_gcm_siv_rfc8452.json", "AES-GCM-SIV", 50);
}

#[test]
fn xaes_256_gcm_c2sp_every_implementation() {
    passes_everywhere("xaes_256_gcm_c2sp.json", "XAES-256-GCM", 2);
}

/// A changed answer fails: one tag digit changed in a copy.
#[test]
fn a_wrong_siv_answer_fails() {
    let text = std::fs::read_to_string(file("aes_gcm_siv_rfc8452.json")).unwrap();
    let bad = text.replacen(
        "578782fff6013b815b287c22493a364c",
        "578782fff6013b815b287c22493a364d",
        1,
    );
    assert_ne!(bad, text);
    let s = VectorFile::parse(&bad).unwrap().run(AUTO);
    assert_eq!(s.failed, 1, "{:?}", s.failures);
}

#[test]
fn binary_runs_them_on_all_backends() {
    let files: Vec<PathBuf> = ["aes_gcm_siv_rfc8452.json", "xaes_256_gcm_c2sp.json"]
        .iter()
        .map(|n| file(n))
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_galois"))
        .arg("kat")
        .arg("--all-backends")
        .args(&files)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    #[cfg(target_arch = "x86_64")]
    assert!(
        text.contains("[vaes_avx512]") || !galois_aead::GhashBackend::VaesAvx512.is_available()
    );
    assert!(text.contains(" 0 failed, 0 unsupported"), "{text}");
}
