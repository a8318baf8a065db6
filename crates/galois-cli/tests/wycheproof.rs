//! `galois kat` on files in Wycheproof's own format (testvectors_v1):
//! detection by `schema`, AES-GCM / AES-GMAC / AES-GCM-SIV /
//! chunked-encryption cases, unknown schemas refused, and wrong answers
//! failing the run. The published files are not in the
//! repository: these are small files of the same shape, with a few cases
//! taken from the published ones (github.com/C2SP/wycheproof,
//! testvectors_v1, Apache-2.0) and the rest made here.

use galois_aead::chunked::{self, CHUNK_SIZE, HEADER_LEN, SEALED_CHUNK_SIZE};
use serde_json::{json, Value};
use sha2::{Digest, Sha512};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};

fn galois() -> Command {
    Command::new(env!("CARGO_BIN_EXE_galois"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("galois-wycheproof-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kat(dir: &std::path::Path, name: &str, doc: &Value) -> Output {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    galois().arg("kat").arg(&p).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn aead_file(algorithm: &str, tests: Value) -> Value {
    json!({
        "algorithm": algorithm, "schema": "aead_test_schema_v1.json",
        "numberOfTests": tests.as_array().unwrap().len(), "header": [], "notes": {},
        "testGroups": [{"ivSize": 96, "keySize": 128, "tagSize": 128, "type": "AeadTest",
                        "source": {"name": "test"}, "tests": tests}]
    })
}

/// `galois kat` on an AEAD file of algorithm `alg` with `tests`.
fn kat_aead(dir: &std::path::Path, name: &str, alg: &str, tests: Value) -> Output {
    kat(dir, name, &aead_file(alg, tests))
}

/// The run succeeded and its summary says `summary`.
#[track_caller]
fn assert_passes(o: &Output, summary: &str) {
    assert!(o.status.success(), "{}", stdout(o));
    assert!(stdout(o).contains(summary), "{}", stdout(o));
}

/// Case `c` releases `msg` (its length and SHA-512) before failing.
fn releases(c: &mut Value, msg: &[u8]) {
    c["msgLength"] = json!(msg.len());
    c["msgSha512"] = json!(sha(msg));
}

#[test]
fn aes_gcm_and_gmac_files() {
    let dir = scratch("gcm");
    // Case 1 of Wycheproof's aes_gcm_test.json, then the same with the tag
    // changed (invalid), and a zero-length IV (invalid).
    let good = json!({"tcId": 1, "comment": "", "flags": ["Ktv"],
        "key": "5b9604fe14eadba931b0ccf34843dab9", "iv": "028318abc1824029138141a2", "aad": "",
        "msg": "001d0c231287c1182784554ca3a21908", "ct": "26073cc1d851beff176384dc9896d5ff",
        "tag": "0a3ea7a5487cb5f7d70fb6c58d038554", "result": "valid"});
    let mut bad_tag = good.clone();
    bad_tag["tcId"] = json!(2);
    bad_tag["tag"] = json!("0a3ea7a5487cb5f7d70fb6c58d038555");
    bad_tag["result"] = json!("invalid");
    let mut no_iv = bad_tag.clone();
    no_iv["tcId"] = json!(3);
    no_iv["iv"] = json!("");
    let o = kat_aead(&dir, "gcm.json", "AES-GCM", json!([good, bad_tag, no_iv]));
    assert_passes(&o, "3 passed, 0 failed, 0 unsupported");
    // A wrong answer fails the run: the bad tag marked valid.
    let mut wrong = good.clone();
    wrong["tag"] = json!("0a3ea7a5487cb5f7d70fb6c58d038555");
    let o = kat_aead(&dir, "gcm-wrong.json", "AES-GCM", json!([wrong]));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("FAIL tcId 1"), "{}", stdout(&o));

    // GMAC: case 1 of aes_gmac_test.json, and its tag changed.
    let mac = json!({"tcId": 1, "comment": "empty message", "flags": ["Pseudorandom"],
        "key": "98b08a72ffde0ded4bec9d2a8db57235", "iv": "1595248735310eb710519c2b", "msg": "",
        "tag": "5118cc71501c8273a43662b981191750", "result": "valid"});
    let mut mac_bad = mac.clone();
    mac_bad["tcId"] = json!(2);
    mac_bad["tag"] = json!("5118cc71501c8273a43662b981191751");
    mac_bad["result"] = json!("invalid");
    let gmac = |tests: Value| {
        json!({"algorithm": "AES-GMAC", "schema": "mac_with_iv_test_schema_v1.json",
            "numberOfTests": tests.as_array().unwrap().len(), "header": [], "notes": {},
            "testGroups": [{"type": "MacWithIvTest", "keySize": 128, "ivSize": 96, "tagSize": 128,
                            "source": {"name": "test"}, "tests": tests}]})
    };
    let o = kat(&dir, "gmac.json", &gmac(json!([mac.clone(), mac_bad])));
    assert_passes(&o, "2 passed, 0 failed");
    let mut mac_wrong = mac;
    mac_wrong["msg"] = json!("00");
    let o = kat(&dir, "gmac-wrong.json", &gmac(json!([mac_wrong])));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));

    // AES-GCM-SIV: case 1 of aes_gcm_siv_test.json (RFC 8452), and its
    // tag changed; then the bad tag marked valid fails the run.
    let siv = json!({"tcId": 1, "comment": "RFC 8452", "flags": ["Ktv"],
        "key": "01000000000000000000000000000000", "iv": "030000000000000000000000", "aad": "",
        "msg": "", "ct": "", "tag": "dc20e2d83f25705bb49e439eca56de25", "result": "valid"});
    let mut siv_bad = siv.clone();
    siv_bad["tcId"] = json!(2);
    siv_bad["tag"] = json!("dc20e2d83f25705bb49e439eca56de24");
    siv_bad["result"] = json!("invalid");
    let o = kat_aead(
        &dir,
        "siv.json",
        "AES-GCM-SIV",
        json!([siv, siv_bad.clone()]),
    );
    assert_passes(&o, "2 passed, 0 failed, 0 unsupported");
    siv_bad["result"] = json!("valid");
    let o = kat_aead(&dir, "siv-wrong.json", "AES-GCM-SIV", json!([siv_bad]));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_schemas_and_mismatched_counts_are_errors() {
    let dir = scratch("schema");
    let mut doc = aead_file("AES-GCM", json!([]));
    doc["schema"] = json!("xdh_comp_schema_v1.json");
    let o = kat(&dir, "x.json", &doc);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stdout(&o).contains("unknown schema"), "{}", stdout(&o));
    // A known schema with an algorithm it does not carry.
    let doc = aead_file("CHACHA20-POLY1305", json!([]));
    let o = kat(&dir, "y.json", &doc);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    // numberOfTests that does not match the groups.
    let mut doc = aead_file("AES-GCM", json!([]));
    doc["numberOfTests"] = json!(5);
    let o = kat(&dir, "z.json", &doc);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

fn zhex(b: &[u8]) -> String {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(b).unwrap();
    hex::encode(z.finish().unwrap())
}

fn sha(b: &[u8]) -> String {
    hex::encode(Sha512::digest(b))
}

fn chunked_file(algorithm: &str, aead: &str, tests: Vec<Value>) -> Value {
    json!({"algorithm": algorithm, "schema": "c2sp_chunked_encryption_schema.json",
        "numberOfTests": tests.len(), "header": [], "notes": {},
        "testGroups": [{"type": "ChunkedEncryption", "aead": aead, "sha": "SHA-512",
                        "source": {"name": "test"}, "tests": tests}]})
}

#[test]
fn chunked_encryption_files() {
    let dir = scratch("chunked");
    let key = [0x11u8; 16];
    let ctx = b"ctx";
    let msg: Vec<u8> = (0..2 * CHUNK_SIZE + 300).map(|i| (i % 253) as u8).collect();
    let ct = chunked::seal_with_salt_for_tests(&key, [7; 24], ctx, &msg).unwrap();
    let t = ct.len();
    let case = |id: u64, ct: &[u8], result: &str, flags: Value| {
        json!({"tcId": id, "comment": "", "key": hex::encode(key), "ctx": hex::encode(ctx),
               "ct": zhex(ct), "result": result, "flags": flags})
    };
    let mut tests = Vec::new();
    // Case 1 of the published Cobblestone-128 file (empty message), as is.
    tests.push(json!({"tcId": 100, "comment": "empty message",
        "key": "59454c4c4f57205355424d4152494e45", "ctx": "",
        "ct": "78da004800b7ff187cab8e8e163c24b527dc7cb554eca847e5d7dc592714ea7d7b5967607c6a68302fb25b26e0b032a6d39a239914ea2dc86aa17ec6d0beb1fdb011c7ad45ed1089aeffe3465fdf59010000ffff0c6f2574",
        "aeadKey": "27c0195e3ac974de5c97f6fa08cbdc41", "baseNonce": "eb673ca5da204afa6361cd11",
        "msgLength": 0,
        "msgSha512": "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
        "result": "valid", "flags": []}));
    // A valid message of three chunks.
    let mut v = case(1, &ct, "valid", json!([]));
    v["msgLength"] = json!(msg.len());
    v["msgSha512"] = json!(sha(&msg));
    tests.push(v.clone());
    // The final chunk corrupted: a streaming opener may release two chunks.
    let mut bad = ct.clone();
    bad[t - 1] ^= 1;
    let mut p = case(
        2,
        &bad,
        "invalid",
        json!(["ModifiedCiphertext", "PartialPlaintext"]),
    );
    releases(&mut p, &msg[..2 * CHUNK_SIZE]);
    tests.push(p.clone());
    // Cut after two full chunks.
    let cut = &ct[..HEADER_LEN + 2 * SEALED_CHUNK_SIZE];
    let mut c = case(3, cut, "invalid", json!(["Truncation", "PartialPlaintext"]));
    releases(&mut c, &msg[..2 * CHUNK_SIZE]);
    tests.push(c);
    // Chunks 0 and 1 swapped (the final chunk is valid).
    let mut sw = ct.clone();
    let (a, b) = (HEADER_LEN, HEADER_LEN + SEALED_CHUNK_SIZE);
    sw[a..b].copy_from_slice(&ct[b..b + SEALED_CHUNK_SIZE]);
    sw[b..b + SEALED_CHUNK_SIZE].copy_from_slice(&ct[a..b]);
    tests.push(case(
        4,
        &sw,
        "invalid",
        json!(["ChunkReordering", "ValidFinalChunk"]),
    ));
    // Header problems: wrong context, too short, invalid key size.
    let mut wc = case(5, &ct, "invalid", json!(["WrongContext", "HeaderFailure"]));
    wc["ctx"] = json!("");
    tests.push(wc);
    tests.push(case(
        6,
        &ct[..40],
        "invalid",
        json!(["Truncation", "HeaderFailure"]),
    ));
    let mut ks = case(
        7,
        &ct,
        "invalid",
        json!(["InvalidKeySize", "HeaderFailure"]),
    );
    ks["key"] = json!(hex::encode([0x11u8; 15]));
    tests.push(ks);
    // Trailing data.
    let mut tr = ct.clone();
    tr.extend_from_slice(&[0u8; 20]);
    let mut td = case(
        8,
        &tr,
        "invalid",
        json!(["TrailingData", "PartialPlaintext"]),
    );
    releases(&mut td, &msg[..2 * CHUNK_SIZE]);
    tests.push(td);
    let n = tests.len();
    let o = kat(
        &dir,
        "c.json",
        &chunked_file("Cobblestone-128", "AEAD_AES_128_GCM", tests),
    );
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(&format!("{n} passed, 0 failed, 0 unsupported")),
        "{}",
        stdout(&o)
    );

    // Wrong answers fail the run:
    // a valid case with another hash,
    let mut w1 = v.clone();
    w1["msgSha512"] = json!(sha(b"other"));
    // an invalid case marked valid,
    let mut w2 = p.clone();
    w2["result"] = json!("valid");
    // a partial-plaintext case whose valid prefix is shorter than what the
    // streaming openers release (they release two verified chunks),
    let mut w3 = p.clone();
    releases(&mut w3, &msg[..CHUNK_SIZE]);
    // and ct that is not zlib.
    let mut w4 = v.clone();
    w4["ct"] = json!(hex::encode(&ct[..100]));
    for (i, w) in [w1, w2, w3, w4].into_iter().enumerate() {
        let o = kat(
            &dir,
            &format!("w{i}.json"),
            &chunked_file("Cobblestone-128", "AEAD_AES_128_GCM", vec![w]),
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "wrong answer {i} passed: {}",
            stdout(&o)
        );
    }
    let o = kat(
        &dir,
        "w3.json",
        &chunked_file(
            "Cobblestone-128",
            "AEAD_AES_128_GCM",
            vec![{
                let mut w3 = p.clone();
                w3["msgLength"] = json!(CHUNK_SIZE);
                w3
            }],
        ),
    );
    assert!(
        stdout(&o).contains("more than the valid prefix"),
        "{}",
        stdout(&o)
    );

    // Cobblestone-256.
    let k256 = [0x22u8; 32];
    let ct = chunked::seal_with_salt_for_tests(&k256, [8; 24], b"", &msg[..100]).unwrap();
    let v = json!({"tcId": 1, "comment": "", "key": hex::encode(k256), "ctx": "", "ct": zhex(&ct),
        "msgLength": 100, "msgSha512": sha(&msg[..100]), "result": "valid", "flags": []});
    let o = kat(
        &dir,
        "c256.json",
        &chunked_file("Cobblestone-256", "AEAD_AES_256_GCM", vec![v]),
    );
    assert!(o.status.success(), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}
