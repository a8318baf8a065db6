//! GCM over 64-bit block ciphers: `GCM64-TDEA` cases. Each case's
//! `variant` field (`w-bit`, the default, or `appendix-a`) picks the
//! formatting; the implementations are the GF(2^64) backends of this CPU.

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

fn h(b: &[u8]) -> String {
    hex::encode(b)
}

pub(crate) fn run_case(case: &Value, imp: &str) -> Result<Outcome, String> {
    let c = Case(case);
    let valid = c.valid()?;
    let variant = match c.str("variant") {
        None => Variant::WBit,
        Some(s) => match Variant::from_name(s) {
            Some(v) => v,
            None => return Err(format!("unknown variant {s:?}")),
        },
    };
    let key = c.hex("key")?;
    let iv = c.hex("iv")?;
    let aad = c.hex("aad")?;
    let ct = c.hex_opt("ct")?.unwrap_or_default();
    let tag = c.hex("tag")?;
    let pt = c.hex_opt("pt")?;

    let mut opts = Options64::new().variant(variant);
    if imp != AUTO {
        opts = opts.backend(Gf64Backend::from_name(imp).map_err(|e| format!("{imp}: {e}"))?);
    }
    // The strict tag policy where it allows the length, else the
    // conformance-only permissive one (1..8 bytes).
    let built = opts
        .tag_len(tag.len())
        .or_else(|_| opts.permissive_tag_len(tag.len()))
        .and_then(|o| TdeaGcm::with_options(&key, o));
    let gcm = match built {
        Ok(g) => g,
        Err(e) if !valid => {
            let _ = e.to_string();
            return Ok(Outcome::Pass);
        }
        Err(e) => {
            return Ok(Outcome::Fail(format!(
                "key setup refused a valid case: {e}"
            )))
        }
    };

    if !valid {
        let mut buf = ct.clone();
        return Ok(
            match gcm.open_in_place_detached(&iv, &aad, &mut buf, &tag) {
                Ok(()) => Outcome::Fail("an invalid case was accepted".into()),
                Err(_) if buf.iter().any(|&b| b != 0) => {
                    Outcome::Fail("a failed open left data in the output buffer".into())
                }
                Err(_) => Outcome::Pass,
            },
        );
    }

    let pt = pt.ok_or("valid case without pt")?;
    let mut buf = pt.clone();
    let t = match gcm.seal_in_place_detached(&iv, &aad, &mut buf) {
        Ok(t) => t,
        Err(e) => return Ok(Outcome::Fail(format!("seal refused a valid case: {e}"))),
    };
    if buf != ct {
        return Ok(Outcome::Fail(format!(
            "ct {} != expected {}",
            h(&buf),
            h(&ct)
        )));
    }
    if t.as_bytes() != tag.as_slice() {
        return Ok(Outcome::Fail(format!(
            "tag {} != expected {}",
            h(t.as_bytes()),
            h(&tag)
        )));
    }
    let mut buf = ct.clone();
    if let Err(e) = gcm.open_in_place_detached(&iv, &aad, &mut buf, &tag) {
        return Ok(Outcome::Fail(format!("open rejected a valid case: {e}")));
    }
    if buf != pt {
        return Ok(Outcome::Fail(format!(
            "pt {} != expected {}",
            h(&buf),
            h(&pt)
        )));
    }
    if let Some(im) = case.get("intermediates") {
        let (gh, gy0) = gcm.intermediates(&iv).map_err(|e| e.to_string())?;
        let ic = Case(im);
        for (name, got) in [("H", gh), ("Y0", gy0)] {
            if let Some(want) = ic.hex_opt(name)? {
                if want != got {
                    return Ok(Outcome::Fail(format!(
                        "intermediate {name}: {} != expected {}",
                        h(&got),
                        h(&want)
                    )));
                }
            }
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
