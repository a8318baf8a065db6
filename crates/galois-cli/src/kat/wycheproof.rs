//! Wycheproof's own test files (testvectors_v1), read as they are
//! published: recognised by their `schema` field, their test groups
//! flattened into cases of the runner's schema.
//!
//! | schema | algorithm | run as |
//! |---|---|---|
//! | `aead_test_schema_v1.json` | `AES-GCM` | AES-GCM cases (`msg` is the plaintext) |
//! | `aead_test_schema_v1.json` | `AES-GCM-SIV` | AES-GCM-SIV cases (`msg` is the plaintext) |
//! | `mac_with_iv_test_schema_v1.json` | `AES-GMAC` | GMAC cases (`msg` is the authenticated data) |
//! | `c2sp_chunked_encryption_schema.json` | `Cobblestone-128/256` | [`galois_aead::chunked`], every opener |
//!
//! Any other schema is an error, not a pass.

use super::{Case, Outcome};
use galois_aead::chunked::{self, Opener, RandomAccess};
use galois_aead::stream::StreamError;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha512};
use std::io::{Cursor, Read, Seek, SeekFrom};

/// The Wycheproof schemas `galois kat` reads.
pub(crate) const SCHEMAS: &[&str] = &[
    "aead_test_schema_v1.json",
    "mac_with_iv_test_schema_v1.json",
    "c2sp_chunked_encryption_schema.json",
];

/// Turns a Wycheproof file into the runner's document: `schema`
/// vectors-v1, the file's `algorithm`, and one flat case per test with
/// the fields the algorithm's runner reads.
pub(crate) fn convert(schema: &str, doc: &Value) -> Result<(String, Value), String> {
    let algorithm = doc
        .get("algorithm")
        .and_then(Value::as_str)
        .ok_or("no \"algorithm\" field")?
        .to_string();
    let known = match schema {
        "aead_test_schema_v1.json" => ["AES-GCM", "AES-GCM-SIV"].contains(&algorithm.as_str()),
        "mac_with_iv_test_schema_v1.json" => algorithm == "AES-GMAC",
        "c2sp_chunked_encryption_schema.json" => {
            ["Cobblestone-128", "Cobblestone-256"].contains(&algorithm.as_str())
        }
        _ => false,
    };
    if !known {
        return Err(format!(
            "Wycheproof schema {schema:?} with algorithm {algorithm:?} is not one galois reads"
        ));
    }
    let groups = doc
        .get("testGroups")
        .and_then(Value::as_array)
        .ok_or("no \"testGroups\" array")?;
    let mut tests = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        let cases = g
            .get("tests")
            .and_then(Value::as_array)
            .ok_or(format!("test group {gi}: no \"tests\" array"))?;
        for t in cases {
            let obj = t
                .as_object()
                .ok_or(format!("test group {gi}: a test is not an object"))?;
            let mut c: Map<String, Value> = obj.clone();
            let id = match obj.get("tcId") {
                Some(v) => format!("tcId {v}"),
                None => format!("group {gi} test {}", tests.len()),
            };
            c.insert("id".into(), Value::String(id));
            match schema {
                "aead_test_schema_v1.json" => {
                    // The plaintext is `msg`.
                    let msg = obj.get("msg").cloned().unwrap_or(Value::Null);
                    c.insert("pt".into(), msg);
                    if let Some(ts) = g.get("tagSize").and_then(Value::as_u64) {
                        c.insert("tagSize".into(), json!(ts));
                    }
                }
                "mac_with_iv_test_schema_v1.json" => {
                    // GMAC: the message is authenticated data, nothing encrypted.
                    let msg = obj.get("msg").cloned().unwrap_or(Value::Null);
                    c.insert("aad".into(), msg);
                    c.insert("pt".into(), json!(""));
                    c.insert("ct".into(), json!(""));
                }
                _ => {
                    for k in ["aead", "sha"] {
                        if let Some(v) = g.get(k) {
                            c.insert(k.into(), v.clone());
                        }
                    }
                }
            }
            tests.push(Value::Object(c));
        }
    }
    let declared = doc.get("numberOfTests").and_then(Value::as_u64);
    if let Some(n) = declared {
        if n as usize != tests.len() {
            return Err(format!(
                "numberOfTests says {n}, the groups hold {}",
                tests.len()
            ));
        }
    }
    let flat = json!({"schema": "vectors-v1", "algorithm": algorithm, "tests": tests});
    Ok((algorithm, flat))
}

/// The most bytes a compressed `ct` may inflate to (the published files'
/// largest is about 4 MiB).
const MAX_CT: u64 = 1 << 30;

fn inflate(z: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(z)
        .take(MAX_CT + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("field ct: not a zlib stream: {e}"))?;
    if out.len() as u64 > MAX_CT {
        return Err("field ct: inflates to more than 1 GiB".into());
    }
    Ok(out)
}

fn flags(case: &Value) -> Vec<&str> {
    case.get("flags")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn err_text(e: &StreamError) -> String {
    e.to_string()
}

/// Reads an [`Opener`] to its end or first error, in odd-sized reads;
/// returns what it released and the error, after checking that every
/// later read repeats the error.
fn stream_open(key: &[u8], ctx: &[u8], ct: &[u8]) -> Result<(Vec<u8>, Option<String>), String> {
    let mut o = match Opener::new(key, ctx, ct) {
        Ok(o) => o,
        Err(e) => return Ok((Vec::new(), Some(err_text(&e)))),
    };
    let mut out = Vec::new();
    let mut buf = vec![0u8; 10_007];
    loop {
        match o.read(&mut buf) {
            Ok(0) => return Ok((out, None)),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => {
                for _ in 0..2 {
                    match o.read(&mut buf) {
                        Err(_) => {}
                        Ok(n) => {
                            return Err(format!(
                                "the streaming opener returned Ok({n}) after failing with {e}"
                            ))
                        }
                    }
                }
                return Ok((out, Some(e.to_string())));
            }
        }
    }
}

/// Opens through [`RandomAccess`]: the whole message, and the length
/// (which authenticates the final chunk).
fn random_open(
    key: &[u8],
    ctx: &[u8],
    ct: &[u8],
) -> (Result<Vec<u8>, String>, Result<u64, String>) {
    let mut f = match RandomAccess::new(key, ctx, Cursor::new(ct)) {
        Ok(f) => f,
        Err(e) => return (Err(err_text(&e)), Err(err_text(&e))),
    };
    let len = f.len().map_err(|e| e.to_string());
    let mut out = Vec::new();
    let whole = f
        .seek(SeekFrom::Start(0))
        .and_then(|_| f.read_to_end(&mut out))
        .map(|_| out)
        .map_err(|e| e.to_string());
    (whole, len)
}

/// One c2sp_chunked_encryption case through every opener of
/// [`galois_aead::chunked`].
pub(crate) fn run_chunked(case: &Value) -> Result<Outcome, String> {
    let c = Case(case);
    let valid = c.valid()?;
    let key = c.hex("key")?;
    let ctx = c.hex("ctx")?;
    let ct = inflate(&c.hex("ct")?)?;
    let fl = flags(case);
    let want_len = case.get("msgLength").and_then(Value::as_u64);
    let want_sha = c.hex_opt("msgSha512")?;
    let check_msg = |what: &str, m: &[u8]| -> Option<String> {
        if Some(m.len() as u64) != want_len {
            return Some(format!(
                "{what}: {} bytes, expected {:?}",
                m.len(),
                want_len
            ));
        }
        if want_sha.as_deref() != Some(&Sha512::digest(m)[..]) {
            return Some(format!("{what}: SHA-512 differs from msgSha512"));
        }
        None
    };

    let whole = chunked::open(&key, &ctx, &ct);
    let mut piped = Vec::new();
    let piped_r = chunked::open_stream(&key, &ctx, &mut &ct[..], &mut piped);
    let (streamed, stream_err) = stream_open(&key, &ctx, &ct)?;
    let (random, random_len) = random_open(&key, &ctx, &ct);

    if valid {
        let m = match whole {
            Ok(m) => m,
            Err(e) => return Ok(Outcome::Fail(format!("open refused a valid case: {e}"))),
        };
        if let Some(f) = check_msg("open", &m) {
            return Ok(Outcome::Fail(f));
        }
        if let Err(e) = piped_r {
            return Ok(Outcome::Fail(format!(
                "open_stream refused a valid case: {e}"
            )));
        }
        if piped != m {
            return Ok(Outcome::Fail("open_stream gave another message".into()));
        }
        if let Some(e) = stream_err {
            return Ok(Outcome::Fail(format!("Opener refused a valid case: {e}")));
        }
        if streamed != m {
            return Ok(Outcome::Fail("Opener gave another message".into()));
        }
        match random {
            Ok(r) if r == m => {}
            Ok(_) => return Ok(Outcome::Fail("RandomAccess gave another message".into())),
            Err(e) => {
                return Ok(Outcome::Fail(format!(
                    "RandomAccess refused a valid case: {e}"
                )))
            }
        }
        if random_len != Ok(m.len() as u64) {
            return Ok(Outcome::Fail(format!(
                "RandomAccess length: {random_len:?}"
            )));
        }
        // Sealing with the case's salt gives the case's bytes.
        if ct.len() >= chunked::SALT_LEN {
            let salt: [u8; chunked::SALT_LEN] = ct[..chunked::SALT_LEN].try_into().unwrap();
            match chunked::seal_with_salt_for_tests(&key, salt, &ctx, &m) {
                Ok(again) if again == ct => {}
                Ok(_) => {
                    return Ok(Outcome::Fail(
                        "resealing with the salt gave other bytes".into(),
                    ))
                }
                Err(e) => return Ok(Outcome::Fail(format!("resealing refused: {e}"))),
            }
        }
        return Ok(Outcome::Pass);
    }

    // Invalid: every opener must fail.
    if whole.is_ok() {
        return Ok(Outcome::Fail("open accepted an invalid case".into()));
    }
    if piped_r.is_ok() {
        return Ok(Outcome::Fail("open_stream accepted an invalid case".into()));
    }
    if stream_err.is_none() {
        return Ok(Outcome::Fail("Opener accepted an invalid case".into()));
    }
    if random.is_ok() {
        return Ok(Outcome::Fail(
            "RandomAccess accepted an invalid case".into(),
        ));
    }
    // The length may authenticate only when the final chunk is valid.
    if random_len.is_ok() && !fl.contains(&"ValidFinalChunk") {
        return Ok(Outcome::Fail(
            "RandomAccess authenticated the length of an invalid case".into(),
        ));
    }
    // Streaming openers release at most the valid prefix.
    let prefix = want_len.unwrap_or(0);
    for (what, got) in [("Opener", &streamed), ("open_stream", &piped)] {
        if got.len() as u64 > prefix {
            return Ok(Outcome::Fail(format!(
                "{what} released {} bytes, more than the valid prefix of {prefix}",
                got.len()
            )));
        }
        if got.len() as u64 == prefix && prefix > 0 {
            if let Some(f) = check_msg(what, got) {
                return Ok(Outcome::Fail(f));
            }
        }
    }
    Ok(Outcome::Pass)
}
