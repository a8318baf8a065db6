//! GCM over 64-bit block ciphers: `GCM64-TDEA` cases. Each case's
//! `variant` field (`w-bit`, the default, or `appendix-a`) picks the
//! formatting; the implementations are the GF(2^64) backends of this CPU.

use super::detached::{check_intermediates, Fields};
use super::{Case, Outcome, AUTO};
use galois_aead::gcm64::{Options64, TdeaGcm, Variant};
use galois_aead::gf64::Gf64Backend;
use serde_json::Value;

/// The GF(2^64) backends available on this CPU.
pub(crate) fn implementations() -> Vec<String> {
    Gf64Backend::available()
        .iter()
        .map(|b| b.name().to_string())
        .collect()
}

pub(crate) fn run_case(case: &Value, imp: &str) -> Result<Outcome, String> {
    let c = Case(case);
    c.valid()?; // a bad `result` is reported before a bad `variant`
    let variant = match c.str("variant") {
        None => Variant::WBit,
        Some(s) => match Variant::from_name(s) {
            Some(v) => v,
            None => return Err(format!("unknown variant {s:?}")),
        },
    };
    let f = Fields::read(&c)?;
    let mut opts = Options64::new().variant(variant);
    if imp != AUTO {
        opts = opts.backend(Gf64Backend::from_name(imp).map_err(|e| format!("{imp}: {e}"))?);
    }
    // The strict tag policy where it allows the length, else the
    // conformance-only permissive one (1..8 bytes).
    let built = opts
        .tag_len(f.tag.len())
        .or_else(|_| opts.permissive_tag_len(f.tag.len()))
        .and_then(|o| TdeaGcm::with_options(&f.key, o));
    let gcm = match f.built(built) {
        Ok(g) => g,
        Err(o) => return Ok(o),
    };
    let o = f.round_trip(&gcm)?;
    if o != Outcome::Pass || !f.valid {
        return Ok(o);
    }
    if let Some(im) = case.get("intermediates") {
        let (gh, gy0) = gcm.intermediates(&f.iv).map_err(|e| e.to_string())?;
        let values = [("H", gh.to_vec()), ("Y0", gy0.to_vec())];
        if let Some(fail) = check_intermediates(&Case(im), &values)? {
            return Ok(Outcome::Fail(fail));
        }
    }
    Ok(Outcome::Pass)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case() -> Value {
        json!({
            "id": "w-bit-1", "variant": "w-bit",
            "key": "cea4d5a4cbab64b549fbb3dc525b1589b35b20b02c451f43",
            "iv": "f91ad2f0", "aad": "2f3779e62c",
            "pt": "53e8c332d4c5fc0f", "ct": "033d5c5548f1938c", "tag": "8b12a9a6",
            "result": "valid",
            "intermediates": {"H": "86e799abe9643e71", "Y0": "f91ad2f000000001"}
        })
    }

    fn run_all(c: &Value) -> Vec<Outcome> {
        let mut v: Vec<Outcome> = implementations()
            .iter()
            .map(|i| run_case(c, i).unwrap())
            .collect();
        v.push(run_case(c, AUTO).unwrap());
        v
    }

    #[test]
    fn valid_case_passes_on_every_backend() {
        assert!(run_all(&case()).iter().all(|o| *o == Outcome::Pass));
    }

    #[test]
    fn wrong_answers_fail() {
        for (field, value) in [
            ("ct", "033d5c5548f1938d"),
            ("tag", "8b12a9a7"),
            ("variant", "appendix-a"),
        ] {
            let mut c = case();
            c[field] = json!(value);
            for o in run_all(&c) {
                assert!(matches!(o, Outcome::Fail(_)), "{field}: {o:?}");
            }
        }
        let mut c = case();
        c["intermediates"]["Y0"] = json!("f91ad2f000000002");
        assert!(matches!(run_case(&c, AUTO).unwrap(), Outcome::Fail(_)));
        let mut c = case();
        c["variant"] = json!("w-bits");
        assert!(run_case(&c, AUTO).is_err());
    }

    #[test]
    fn invalid_cases_must_be_refused() {
        let mut c = case();
        c["result"] = json!("invalid");
        // The genuine tag: accepting it is a failure of the runner's check.
        assert!(matches!(run_case(&c, AUTO).unwrap(), Outcome::Fail(_)));
        c["tag"] = json!("8b12a9a7");
        assert_eq!(run_case(&c, AUTO).unwrap(), Outcome::Pass);
        // Refused parameters are a correct answer for an invalid case.
        let mut c = case();
        c["result"] = json!("invalid");
        c["iv"] = json!("");
        assert_eq!(run_case(&c, AUTO).unwrap(), Outcome::Pass);
        c["iv"] = json!("f91ad2f0");
        c["key"] = json!("cea4d5a4cbab64b549fbb3dc525b1589");
        assert_eq!(run_case(&c, AUTO).unwrap(), Outcome::Pass);
    }
}
