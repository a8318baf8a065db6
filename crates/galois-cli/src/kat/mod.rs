//! The known-answer runner: any file in the `vectors-v1` schema
//! (`vectors/README.md`), through the library's public API.
//!
//! Each algorithm family has a module that lists the implementations it can
//! pin on this CPU and runs one case against one of them. A case passes,
//! fails (with a reason) or is unsupported (with a reason, for algorithms
//! or parameters the library does not have yet).

mod detached;
pub mod gcm;
mod gcm64;
mod poly1305;
mod siv;
mod wycheproof;
mod xaes;

use serde_json::Value;
use std::collections::BTreeMap;

/// What running one case gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    Pass,
    Fail(String),
    Unsupported(String),
}

/// Counts for one file under one implementation.
///
/// ```
/// use galois_cli::kat::{VectorFile, AUTO};
/// let file = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "Poly1305", "tests": [
///   {"id": "wrong-tag", "result": "valid", "key": "0000000000000000000000000000000000000000000000000000000000000000",
///    "msg": "", "tag": "01000000000000000000000000000000"}]}"#).unwrap();
/// let s = file.run(AUTO);
/// assert_eq!((s.passed, s.failed), (0, 1)); // r = s = 0 gives the zero tag
/// assert!(s.failures[0].starts_with("wrong-tag: "));
/// ```
#[derive(Debug, Default, Clone)]
pub struct Summary {
    /// Cases whose outcome matched their `result`.
    pub passed: usize,
    /// Cases that did not, or could not be run.
    pub failed: usize,
    /// Cases for algorithms or parameters the library does not have.
    pub unsupported: usize,
    /// "id: reason" for each failure.
    pub failures: Vec<String>,
    /// Reason -> number of cases.
    pub unsupported_reasons: BTreeMap<String, usize>,
}

impl Summary {
    fn add(&mut self, id: &str, o: Outcome) {
        match o {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail(r) => {
                self.failed += 1;
                self.failures.push(format!("{id}: {r}"));
            }
            Outcome::Unsupported(r) => {
                self.unsupported += 1;
                *self.unsupported_reasons.entry(r).or_default() += 1;
            }
        }
    }

    /// `N passed, M failed, K unsupported`.
    ///
    /// ```
    /// let s = galois_cli::kat::Summary { passed: 3, ..Default::default() };
    /// assert_eq!(s.counts(), "3 passed, 0 failed, 0 unsupported");
    /// ```
    pub fn counts(&self) -> String {
        format!(
            "{} passed, {} failed, {} unsupported",
            self.passed, self.failed, self.unsupported
        )
    }
}

/// Implementation name meaning "whatever the library picks on this CPU".
///
/// ```
/// use galois_cli::kat::{VectorFile, AUTO};
/// let f = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "AES-GCM", "tests": []}"#).unwrap();
/// assert_eq!(f.run(AUTO).counts(), "0 passed, 0 failed, 0 unsupported");
/// ```
pub const AUTO: &str = "auto";

/// A parsed vector file.
///
/// ```
/// use galois_cli::kat::VectorFile;
/// let f = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "AES-GCM", "tests": []}"#).unwrap();
/// assert_eq!(f.algorithm, "AES-GCM");
/// assert!(f.tests().is_empty());
/// ```
pub struct VectorFile {
    /// The `algorithm` field, such as `AES-GCM` or `Poly1305-AES`.
    pub algorithm: String,
    pub(crate) doc: Value,
}

impl VectorFile {
    /// Parses and checks the schema header.
    ///
    /// ```
    /// use galois_cli::kat::VectorFile;
    /// assert!(VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "X", "tests": []}"#).is_ok());
    /// let e = VectorFile::parse(r#"{"schema": "v2", "algorithm": "X", "tests": []}"#).err().unwrap();
    /// assert!(e.contains("unknown schema"));
    /// assert!(VectorFile::parse("[]").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match doc.get("schema").and_then(Value::as_str) {
            Some("vectors-v1") => {}
            // Wycheproof's own files (testvectors_v1), as published.
            Some(s) if wycheproof::SCHEMAS.contains(&s) => {
                let (algorithm, doc) = wycheproof::convert(s, &doc)?;
                return Ok(VectorFile { algorithm, doc });
            }
            Some(s) => {
                return Err(format!(
                    "unknown schema {s:?} (expected vectors-v1 or one of Wycheproof's {})",
                    wycheproof::SCHEMAS.join(", ")
                ))
            }
            None => return Err("no \"schema\" field (expected vectors-v1)".into()),
        }
        let algorithm = doc
            .get("algorithm")
            .and_then(Value::as_str)
            .ok_or("no \"algorithm\" field")?
            .to_string();
        if !doc.get("tests").map(Value::is_array).unwrap_or(false) {
            return Err("no \"tests\" array".into());
        }
        Ok(VectorFile { algorithm, doc })
    }

    /// The `tests` array: one JSON object per case.
    ///
    /// ```
    /// use galois_cli::kat::VectorFile;
    /// let f = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "X", "tests": [{"id": 1}]}"#).unwrap();
    /// assert_eq!(f.tests()[0]["id"], 1);
    /// ```
    pub fn tests(&self) -> &[Value] {
        self.doc["tests"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The implementations of this file's algorithm available on this CPU.
    ///
    /// ```
    /// use galois_cli::kat::VectorFile;
    /// let f = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "AES-GCM", "tests": []}"#).unwrap();
    /// let imps = f.implementations();
    /// assert!(imps.iter().any(|i| i == "bitserial") && imps.iter().any(|i| i == "portable"));
    /// ```
    pub fn implementations(&self) -> Vec<String> {
        match self.algorithm.as_str() {
            "AES-GCM" | "AES-GMAC" => gcm::implementations(),
            "AES-GCM-SIV" | "XAES-256-GCM" => gcm::implementations(),
            "Poly1305-AES" | "Poly1305" => poly1305::implementations(),
            "GCM64-TDEA" => gcm64::implementations(),
            _ => vec![AUTO.to_string()],
        }
    }

    /// The backends of this file's family that the registry says this CPU
    /// can run (read from the registry, not from
    /// [`VectorFile::implementations`]): `--all-backends` fails if one of
    /// them did not run.
    ///
    /// ```
    /// use galois_cli::kat::VectorFile;
    /// let f = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "AES-GCM", "tests": []}"#).unwrap();
    /// for b in f.required() {
    ///     assert!(f.implementations().contains(&b));
    /// }
    /// ```
    pub fn required(&self) -> Vec<String> {
        use galois_aead::{gf64::Gf64Backend, poly1305, GhashBackend};
        fn names<B: Copy + core::fmt::Display>(v: Vec<B>) -> Vec<String> {
            v.iter().map(|b| b.to_string()).collect()
        }
        match self.algorithm.as_str() {
            "AES-GCM" | "AES-GMAC" | "AES-GCM-SIV" | "XAES-256-GCM" => {
                names(GhashBackend::available())
            }
            "Poly1305-AES" | "Poly1305" => names(poly1305::Poly1305Backend::available()),
            "GCM64-TDEA" => names(Gf64Backend::available()),
            _ => Vec::new(),
        }
    }

    /// Runs every case with implementation `imp` (a name from
    /// [`VectorFile::implementations`] or [`AUTO`]).
    ///
    /// ```
    /// use galois_cli::kat::VectorFile;
    /// // Test case 1 of the GCM specification, on every GHASH backend of this CPU.
    /// let f = VectorFile::parse(r#"{"schema": "vectors-v1", "algorithm": "AES-GCM", "tests": [
    ///   {"id": "tc1", "result": "valid", "key": "00000000000000000000000000000000",
    ///    "iv": "000000000000000000000000", "aad": "", "pt": "", "ct": "",
    ///    "tag": "58e2fccefa7e3061367f1d57a4e7455a"}]}"#).unwrap();
    /// for imp in f.implementations() {
    ///     assert_eq!(f.run(&imp).passed, 1, "{imp}");
    /// }
    /// assert_eq!(f.run("no-such-backend").unsupported, 1);
    /// ```
    pub fn run(&self, imp: &str) -> Summary {
        let mut s = Summary::default();
        let known = self.implementations();
        for (i, case) in self.tests().iter().enumerate() {
            let id = case
                .get("id")
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string())
                })
                .unwrap_or_else(|| format!("#{i}"));
            let o = if imp != AUTO && !known.iter().any(|k| k == imp) {
                Outcome::Unsupported(format!(
                    "implementation {imp} does not apply to {} on this CPU",
                    self.algorithm
                ))
            } else {
                let r = std::panic::catch_unwind(|| self.run_case(case, imp));
                r.unwrap_or_else(|_| Outcome::Fail("panicked".into()))
            };
            s.add(&id, o);
        }
        s
    }

    fn run_case(&self, case: &Value, imp: &str) -> Outcome {
        let r = match self.algorithm.as_str() {
            "AES-GCM" => gcm::run_case(case, imp, false),
            "AES-GMAC" => gcm::run_case(case, imp, true),
            "Poly1305-AES" => poly1305::run_case(&self.doc, case, imp, true),
            "Poly1305" => poly1305::run_case(&self.doc, case, imp, false),
            "GCM64-TDEA" => gcm64::run_case(case, imp),
            "AES-GCM-SIV" => siv::run_case(case, imp),
            "XAES-256-GCM" => xaes::run_case(case, imp),
            "Cobblestone-128" | "Cobblestone-256" => wycheproof::run_chunked(case),
            other => return Outcome::Unsupported(format!("algorithm {other} is not known")),
        };
        r.unwrap_or_else(Outcome::Fail)
    }
}

/// The backends of every family (GHASH, AES, Poly1305, GF(2^64)) compiled
/// for this target that this CPU cannot run, by the registry's probes: what
/// `--all-backends` does not run here.
///
/// ```
/// let missing = galois_cli::kat::not_run();
/// assert!(!missing.iter().any(|n| n.starts_with("portable")));
/// ```
pub fn not_run() -> Vec<String> {
    use galois_aead::{gf64::Gf64Backend, poly1305, AesBackend, GhashBackend};
    let mut v: Vec<String> = Vec::new();
    let mut add = |name: &str, available: bool, family: &str| {
        if !available {
            v.push(format!("{name} ({family})"));
        }
    };
    for b in GhashBackend::ALL {
        add(b.name(), b.is_available(), "GHASH");
    }
    for b in AesBackend::ALL {
        add(b.name(), b.is_available(), "AES");
    }
    for b in poly1305::Poly1305Backend::ALL {
        add(b.name(), b.is_available(), "Poly1305");
    }
    for b in Gf64Backend::ALL {
        add(b.name(), b.is_available(), "GF(2^64)");
    }
    v
}

/// Case fields, with errors that name the field.
pub(crate) struct Case<'a>(pub &'a Value);

impl Case<'_> {
    /// A hex field that must be present and not null.
    pub fn hex(&self, name: &str) -> Result<Vec<u8>, String> {
        match self.0.get(name) {
            Some(Value::String(s)) => {
                hex::decode(s).map_err(|e| format!("field {name}: bad hex: {e}"))
            }
            Some(other) => Err(format!("field {name}: expected a hex string, got {other}")),
            None => Err(format!("missing field {name}")),
        }
    }

    /// A hex field that may be absent or null.
    pub fn hex_opt(&self, name: &str) -> Result<Option<Vec<u8>>, String> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.hex(name).map(Some),
        }
    }

    /// `result`: true for "valid", false for "invalid". "acceptable" cases
    /// (Wycheproof) are treated as valid.
    pub fn valid(&self) -> Result<bool, String> {
        match self.0.get("result").and_then(Value::as_str) {
            Some("valid") | Some("acceptable") => Ok(true),
            Some("invalid") => Ok(false),
            Some(other) => Err(format!("unknown result {other:?}")),
            None => Err("missing field result".into()),
        }
    }

    /// A string field, if present.
    pub fn str(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(Value::as_str)
    }
}
