//! The known-answer runner: every shared vector file through the library
//! (per implementation) and through the real `galois` binary.

use galois_cli::kat::{VectorFile, AUTO};
use std::path::PathBuf;
use std::process::Command;

/// The repository's `vectors/`, plus every file of `$GALOIS_VECTORS_DIR`
/// (when set) whose name is not already there; a file of the same name
/// there must hold the same bytes as ours.
fn vector_files() -> Vec<PathBuf> {
    let ours = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let mut v = json_files(&ours);
    assert!(
        v.len() >= 6,
        "{}: expected the project's vector files",
        ours.display()
    );
    if let Some(extra) = std::env::var_os("GALOIS_VECTORS_DIR") {
        for p in json_files(std::path::Path::new(&extra)) {
            let same = ours.join(p.file_name().unwrap());
            if same.exists() {
                assert!(
                    std::fs::read(&same).unwrap() == std::fs::read(&p).unwrap(),
                    "{} differs from vectors/{}",
                    p.display(),
                    same.file_name().unwrap().to_string_lossy()
                );
            } else {
                v.push(p);
            }
        }
    }
    v
}

fn json_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

fn galois() -> Command {
    Command::new(env!("CARGO_BIN_EXE_galois"))
}

/// `galois kat FLAGS FILES`: its exit code, standard output and standard
/// error.
fn kat(flags: &[&str], files: &[PathBuf]) -> (Option<i32>, String, String) {
    let out = galois()
        .arg("kat")
        .args(flags)
        .args(files)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

#[test]
fn every_shared_file_passes_with_every_implementation() {
    for path in vector_files() {
        let f = VectorFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let imps = f.implementations();
        for imp in imps.iter().map(String::as_str).chain([AUTO]) {
            let s = f.run(imp);
            assert_eq!(s.failed, 0, "{} [{imp}]: {:?}", path.display(), s.failures);
            assert!(s.passed + s.unsupported == f.tests().len());
            if f.algorithm.starts_with("AES-") {
                assert_eq!(
                    s.unsupported,
                    0,
                    "{} [{imp}]: {:?}",
                    path.display(),
                    s.unsupported_reasons
                );
                assert_eq!(s.passed, f.tests().len());
            }
        }
    }
}

#[path = "../../galois-aead/tests/common/features.rs"]
mod features;

/// Each family's `--all-backends` list against what this CPU's features
/// allow (the standard library's detection and a table of the features each
/// backend uses: tests/common/features.rs of galois-aead), not against the
/// registry the list is built from.
#[test]
fn all_backends_lists_what_this_cpu_can_run() {
    use galois_aead::{gf64::Gf64Backend, poly1305};
    let list = |algorithm: &str| {
        let text =
            format!(r#"{{"schema": "vectors-v1", "algorithm": "{algorithm}", "tests": []}}"#);
        VectorFile::parse(&text).unwrap().implementations()
    };
    let want = |family: &str, all: Vec<&'static str>| -> Vec<String> {
        all.into_iter()
            .filter(|n| features::expected(family, n))
            .map(String::from)
            .collect()
    };
    let mut gcm = want(
        "GHASH",
        galois_aead::GhashBackend::ALL
            .iter()
            .map(|b| b.name())
            .collect(),
    );
    gcm.push("portable".into());
    for algorithm in ["AES-GCM", "AES-GMAC", "AES-GCM-SIV", "XAES-256-GCM"] {
        assert_eq!(list(algorithm), gcm, "{algorithm}");
    }
    let poly = want(
        "Poly1305",
        poly1305::Poly1305Backend::ALL
            .iter()
            .map(|b| b.name())
            .collect(),
    );
    assert_eq!(list("Poly1305-AES"), poly);
    assert_eq!(list("Poly1305"), poly);
    let gf64 = want(
        "GF(2^64)",
        Gf64Backend::ALL.iter().map(|b| b.name()).collect(),
    );
    assert_eq!(list("GCM64-TDEA"), gf64);
}

#[test]
fn binary_runs_all_backends_on_shared_files() {
    let (code, text, err) = kat(&["--all-backends"], &vector_files());
    assert_eq!(code, Some(0), "{text}\n{err}");
    assert!(
        text.contains("[clmul]: 18 passed, 0 failed, 0 unsupported"),
        "{text}"
    );
    assert!(
        text.contains("[bitserial]: 18 passed, 0 failed, 0 unsupported"),
        "{text}"
    );
    assert!(!text.contains("FAIL"), "{text}");
    // The last line names what this CPU cannot run, by the feature table.
    let last = text.lines().last().unwrap();
    let mut missing = Vec::new();
    for (family, names) in [
        (
            "GHASH",
            galois_aead::GhashBackend::ALL
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>(),
        ),
        (
            "AES",
            galois_aead::AesBackend::ALL
                .iter()
                .map(|b| b.name())
                .collect(),
        ),
        (
            "Poly1305",
            galois_aead::poly1305::Poly1305Backend::ALL
                .iter()
                .map(|b| b.name())
                .collect(),
        ),
        (
            "GF(2^64)",
            galois_aead::gf64::Gf64Backend::ALL
                .iter()
                .map(|b| b.name())
                .collect(),
        ),
    ] {
        for n in names {
            if !features::expected(family, n) {
                missing.push(format!("{n} ({family})"));
            }
        }
    }
    let want = if missing.is_empty() {
        "none".to_string()
    } else {
        missing.join(", ")
    };
    assert_eq!(last, format!("not run on this CPU: {want}"), "{text}");
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("galois-kat-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A case of a `gen-vectors` file against OpenSSL's AES-GCM (any IV
/// length; the tag truncated to the case's length): valid cases must give
/// its ct and tag, invalid ones must not verify.
fn check_with_openssl(case: &serde_json::Value) {
    let hx = |f: &str| hex::decode(case[f].as_str().unwrap_or("")).unwrap();
    let (key, iv, aad, ct, tag) = (hx("key"), hx("iv"), hx("aad"), hx("ct"), hx("tag"));
    let cipher = match key.len() {
        16 => openssl::symm::Cipher::aes_128_gcm(),
        24 => openssl::symm::Cipher::aes_192_gcm(),
        _ => openssl::symm::Cipher::aes_256_gcm(),
    };
    let id = &case["id"];
    if case["result"] == "valid" {
        let mut full = [0u8; 16];
        let got = openssl::symm::encrypt_aead(cipher, &key, Some(&iv), &aad, &hx("pt"), &mut full)
            .unwrap();
        assert_eq!(got, ct, "{id}: ct");
        assert_eq!(&full[..tag.len()], &tag[..], "{id}: tag");
    } else if !iv.is_empty() && tag.len() >= 4 {
        // (an empty IV or a tag shorter than 4 bytes is refused by galois
        // before any tag is computed; OpenSSL takes neither)
        let opened = openssl::symm::decrypt_aead(cipher, &key, Some(&iv), &aad, &ct, &tag);
        assert!(opened.is_err(), "{id}: an invalid case opens under OpenSSL");
    }
}

/// `galois gen-vectors` files: every case checked against OpenSSL
/// ([`check_with_openssl`]), then through `kat --all-backends`.
#[test]
fn generated_cases_match_openssl_and_pass_on_every_backend() {
    let dir = std::env::temp_dir().join(format!("galois-genvec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, args) in [
        vec!["--count", "300", "--seed", "7", "--invalid-fraction", "0.3"],
        vec![
            "--count",
            "100",
            "--seed",
            "8",
            "--iv-bytes",
            "0",
            "--key-bytes",
            "32",
        ],
        vec![
            "--count",
            "100",
            "--seed",
            "9",
            "--iv-bytes",
            "0",
            "--tag-bytes",
            "4",
            "--invalid-fraction",
            "0.5",
        ],
    ]
    .into_iter()
    .enumerate()
    {
        let p = dir.join(format!("r{i}.json"));
        let st = galois()
            .arg("gen-vectors")
            .args(&args)
            .arg("-o")
            .arg(&p)
            .status()
            .unwrap();
        assert!(st.success());
        let text = std::fs::read_to_string(&p).unwrap();
        let f = VectorFile::parse(&text).unwrap();
        if args.contains(&"--invalid-fraction") {
            assert!(text.contains("\"invalid\""), "some cases must be tampered");
        }
        for case in f.tests() {
            check_with_openssl(case);
        }
        let (code, text, _) = kat(&["--all-backends"], std::slice::from_ref(&p));
        assert_eq!(code, Some(0), "{text}");
        assert_eq!(f.run(AUTO).passed, f.tests().len());
    }
}

#[test]
fn a_wrong_answer_fails_the_run() {
    let mut doc: serde_json::Value =
        serde_json::from_str(include_str!("../../../vectors/mcgrew_viega_gcm_spec.json")).unwrap();
    // Corrupt one expected ciphertext, and mark a valid case invalid.
    let t = doc["tests"].as_array_mut().unwrap();
    let ct = t[2]["ct"].as_str().unwrap().to_string();
    t[2]["ct"] = serde_json::Value::String(format!(
        "{}{}",
        if &ct[..1] == "0" { "1" } else { "0" },
        &ct[1..]
    ));
    t[3]["result"] = "invalid".into();
    let p = write_temp("corrupt.json", &doc.to_string());
    let (code, text, _) = kat(&[], std::slice::from_ref(&p));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("16 passed, 2 failed, 0 unsupported"),
        "{text}"
    );
    assert!(text.contains("FAIL gcm-spec-test-case-3: ct"), "{text}");
    assert!(
        text.contains("FAIL gcm-spec-test-case-4: an invalid case was accepted"),
        "{text}"
    );
}

#[test]
fn malformed_files_are_reported_not_panicked() {
    let cases = [
        ("notjson.json", "{", 2),
        ("noschema.json", r#"{"algorithm":"AES-GCM","tests":[]}"#, 2),
        (
            "badhex.json",
            r#"{"schema":"vectors-v1","algorithm":"AES-GCM","tests":[{"id":"x","key":"zz","iv":"00","aad":"","pt":"","ct":"","tag":"00","result":"valid"}]}"#,
            1,
        ),
        (
            "missing.json",
            r#"{"schema":"vectors-v1","algorithm":"AES-GCM","tests":[{"id":"x","result":"valid"}]}"#,
            1,
        ),
        (
            "unknown.json",
            r#"{"schema":"vectors-v1","algorithm":"ChaCha20-Poly1305","tests":[{"id":"x","result":"valid"}]}"#,
            2, // every case unsupported: nothing checked is a usage error
        ),
    ];
    for (name, text, code) in cases {
        let p = write_temp(name, text);
        let (got, out, err) = kat(&[], std::slice::from_ref(&p));
        assert_eq!(got, Some(code), "{name}: {out}{err}");
    }
    // A missing file is an I/O error, like any missing input.
    let (code, _, _) = kat(&[], &[PathBuf::from("/nonexistent/file.json")]);
    assert_eq!(code, Some(3));
}

#[test]
fn invalid_cases_pass_when_refused_or_rejected() {
    // An empty IV, a bad key size, a 5-byte tag and a tampered tag: all
    // must be reported as passed (refused or rejected), never accepted.
    let text = r#"{"schema":"vectors-v1","algorithm":"AES-GCM","tests":[
      {"id":"empty-iv","key":"00000000000000000000000000000000","iv":"","aad":"","pt":null,"ct":"","tag":"00000000000000000000000000000000","result":"invalid"},
      {"id":"key-20","key":"0000000000000000000000000000000000000000","iv":"000000000000000000000000","aad":"","pt":null,"ct":"","tag":"00000000000000000000000000000000","result":"invalid"},
      {"id":"tag-3","key":"00000000000000000000000000000000","iv":"000000000000000000000000","aad":"","pt":null,"ct":"","tag":"000000","result":"invalid"},
      {"id":"flip","key":"00000000000000000000000000000000","iv":"000000000000000000000000","aad":"","pt":null,"ct":"","tag":"58e2fccefa7e3061367f1d57a4e7455b","result":"invalid"},
      {"id":"ok","key":"00000000000000000000000000000000","iv":"000000000000000000000000","aad":"","pt":"","ct":"","tag":"58e2fccefa7e3061367f1d57a4e7455a","result":"valid"}
    ]}"#;
    let f = VectorFile::parse(text).unwrap();
    for imp in f.implementations() {
        let s = f.run(&imp);
        assert_eq!((s.passed, s.failed), (5, 0), "{imp}: {:?}", s.failures);
    }
}

#[test]
fn selftest_passes_and_names_backends() {
    let out = galois().arg("selftest").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let want = format!(
        "AES-GCM: aes={} ghash={}",
        galois_aead::AesBackend::auto().name(),
        galois_aead::GhashBackend::auto().name()
    );
    assert!(text.contains(&want), "{text}");
    assert!(
        text.contains("mcgrew_viega_gcm_spec.json: 18 passed, 0 failed"),
        "{text}"
    );
}
