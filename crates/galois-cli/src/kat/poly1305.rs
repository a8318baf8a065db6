//! Poly1305-AES and one-time Poly1305 cases.
//!
//! `Poly1305-AES` (Bernstein's interface): key = k || r, nonce, msg, tag;
//! optional `aes_k_nonce` and `intermediates` (`chunks_c_i`,
//! `poly_r_mod_p`, big-endian hex integers). `Poly1305` (RFC 8439): key =
//! r || s, r clamped by the MAC, no nonce.

use super::{Case, Outcome, AUTO};
use galois_aead::poly1305::{chunk_values, Poly1305, Poly1305Aes, Poly1305Backend};
use galois_aead::{Aes, BlockCipher128, Error};
use serde_json::Value;

/// The Poly1305 backends this CPU has, fastest first.
pub(crate) fn implementations() -> Vec<String> {
    Poly1305Backend::available()
        .iter()
        .map(|b| b.name().to_string())
        .collect()
}

fn backend(imp: &str) -> Result<Poly1305Backend, String> {
    match imp {
        AUTO => Ok(galois_aead::poly1305::Poly1305Backend::auto()),
        name => Poly1305Backend::from_name(name).map_err(|e| format!("{name}: {e}")),
    }
}

fn h(b: &[u8]) -> String {
    hex::encode(b)
}

/// A little-endian number as big-endian hex without leading zeros ("0" for 0).
fn le_to_be_hex(le: &[u8]) -> String {
    let s: String = le.iter().rev().map(|b| format!("{b:02x}")).collect();
    let t = s.trim_start_matches('0');
    if t.is_empty() {
        "0".into()
    } else {
        t.into()
    }
}

/// A hex integer from a vector file, normalized the same way.
fn norm_hex(s: &str) -> Result<String, String> {
    let s = s.trim().trim_start_matches("0x").to_ascii_lowercase();
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("not a hex integer: {s:?}"));
    }
    let t = s.trim_start_matches('0');
    Ok(if t.is_empty() { "0".into() } else { t.into() })
}

pub(crate) fn run_case(
    _file: &Value,
    case: &Value,
    imp: &str,
    aes: bool,
) -> Result<Outcome, String> {
    let b = backend(imp)?;
    if aes {
        run_aes(case, b)
    } else {
        run_onetime(case, b)
    }
}

/// Whether a case is valid, and its key or nonce, message and tag.
type Fields = (bool, Vec<u8>, Vec<u8>, Vec<u8>);

/// Whether the case is valid, then its hex fields `first`, `msg` and `tag`.
fn fields(c: &Case, first: &str) -> Result<Fields, String> {
    Ok((c.valid()?, c.hex(first)?, c.hex("msg")?, c.hex("tag")?))
}

fn run_aes(case: &Value, b: Poly1305Backend) -> Result<Outcome, String> {
    let c = Case(case);
    let (valid, nonce, msg, tag) = fields(&c, "nonce")?;
    // `key` = k || r; the split fields, when given, must agree with it (or
    // stand in for it when it is absent).
    let split = (c.hex_opt("k")?, c.hex_opt("r")?);
    let key = match (c.hex_opt("key")?, &split) {
        (Some(key), (Some(k), Some(r))) => {
            if [&k[..], &r[..]].concat() != key {
                return Err("fields k || r disagree with key".into());
            }
            key
        }
        (Some(key), _) => key,
        (None, (Some(k), Some(r))) => [&k[..], &r[..]].concat(),
        (None, _) => return Err("missing field key (and no k and r)".into()),
    };
    let mac = match Poly1305Aes::with_backend(&key, b) {
        Ok(m) => m,
        Err(e @ Error::BackendUnavailable { .. }) => return Err(e.to_string()),
        Err(e) if !valid => {
            // A refusal (bad key size, unclamped r) is a correct answer.
            let _ = e.to_string();
            return Ok(Outcome::Pass);
        }
        Err(e @ Error::InvalidKey { .. }) => {
            return Ok(Outcome::Fail(format!(
                "the case is marked valid but its key breaks the paper's constraints, \
                 which Poly1305-AES refuses: {e}"
            )))
        }
        Err(e) => {
            return Ok(Outcome::Fail(format!(
                "key setup refused a valid case: {e}"
            )))
        }
    };
    if !valid {
        return Ok(match mac.verify(&nonce, &msg, &tag) {
            Ok(()) => Outcome::Fail("an invalid case was accepted".into()),
            Err(_) => Outcome::Pass,
        });
    }
    if let Some(want) = c.hex_opt("aes_k_nonce")? {
        let mut n: [u8; 16] = nonce
            .as_slice()
            .try_into()
            .map_err(|_| format!("nonce of {} bytes", nonce.len()))?;
        Aes::new(&key[..16])
            .map_err(|e| e.to_string())?
            .encrypt_block(&mut n);
        if n[..] != want[..] {
            return Ok(Outcome::Fail(format!(
                "AES_k(n) {} != expected {}",
                h(&n),
                h(&want)
            )));
        }
    }
    let got = match mac.authenticate(&nonce, &msg) {
        Ok(t) => t,
        Err(e) => {
            return Ok(Outcome::Fail(format!(
                "authenticate refused a valid case: {e}"
            )))
        }
    };
    if got[..] != tag[..] {
        return Ok(Outcome::Fail(format!(
            "tag {} != expected {}",
            h(&got),
            h(&tag)
        )));
    }
    if let Err(e) = mac.verify(&nonce, &msg, &tag) {
        return Ok(Outcome::Fail(format!("verify rejected a valid tag: {e}")));
    }
    // Streaming, split in two uneven pieces.
    let mut st = mac.stream(&nonce).map_err(|e| e.to_string())?;
    let cut = msg.len() / 3;
    st.update(&msg[..cut]).update(&msg[cut..]);
    if let Err(e) = st.verify(&tag) {
        return Ok(Outcome::Fail(format!("streaming verify rejected: {e}")));
    }
    if let Some(im) = case.get("intermediates") {
        let ic = Case(im);
        if let Some(list) = im.get("chunks_c_i") {
            let list = list.as_array().ok_or("chunks_c_i is not an array")?;
            let got = chunk_values(&msg);
            if list.len() != got.len() {
                return Ok(Outcome::Fail(format!(
                    "intermediate chunks_c_i: {} chunks, expected {}",
                    got.len(),
                    list.len()
                )));
            }
            for (i, (w, g)) in list.iter().zip(&got).enumerate() {
                let w = norm_hex(w.as_str().ok_or(format!("chunks_c_i[{i}] not a string"))?)?;
                let g = le_to_be_hex(g);
                if w != g {
                    return Ok(Outcome::Fail(format!(
                        "intermediate c_{}: {g} != expected {w}",
                        i + 1
                    )));
                }
            }
        }
        if let Some(w) = ic.str("poly_r_mod_p") {
            let w = norm_hex(w)?;
            let g = le_to_be_hex(&mac.poly_value(&msg));
            if w != g {
                return Ok(Outcome::Fail(format!(
                    "intermediate poly_r_mod_p: {g} != expected {w}"
                )));
            }
        }
    }
    Ok(Outcome::Pass)
}

fn run_onetime(case: &Value, b: Poly1305Backend) -> Result<Outcome, String> {
    let c = Case(case);
    let (valid, key, msg, tag) = fields(&c, "key")?;
    let new = || Poly1305::with_backend(&key, b);
    let mut p = match new() {
        Ok(p) => p,
        Err(e @ Error::BackendUnavailable { .. }) => return Err(e.to_string()),
        Err(_) if !valid => return Ok(Outcome::Pass),
        Err(e) => {
            return Ok(Outcome::Fail(format!(
                "key setup refused a valid case: {e}"
            )))
        }
    };
    if !valid {
        p.update(&msg);
        return Ok(match p.verify(&tag) {
            Ok(()) => Outcome::Fail("an invalid case was accepted".into()),
            Err(_) => Outcome::Pass,
        });
    }
    p.update(&msg);
    let got = p.finalize();
    if got[..] != tag[..] {
        return Ok(Outcome::Fail(format!(
            "tag {} != expected {}",
            h(&got),
            h(&tag)
        )));
    }
    let mut p = new().map_err(|e| e.to_string())?;
    let cut = msg.len() / 3;
    p.update(&msg[..cut]).update(&msg[cut..]);
    if let Err(e) = p.verify(&tag) {
        return Ok(Outcome::Fail(format!("verify rejected a valid tag: {e}")));
    }
    Ok(Outcome::Pass)
}

#[cfg(test)]
mod tests {
    //! The runner must be able to fail: cases altered from the paper's
    //! example 1 (Appendix B) must give the outcome the schema demands.
    use super::super::{Outcome, VectorFile};
    use serde_json::{json, Value};

    fn example1() -> Value {
        json!({
            "id": "ex1",
            "key": "ec074c835580741701425b623235add6851fc40c3467ac0be05cc20404f3f700",
            "k": "ec074c835580741701425b623235add6",
            "r": "851fc40c3467ac0be05cc20404f3f700",
            "nonce": "fb447350c4e868c52ac3275cf9d4327e",
            "msg": "f3f6",
            "tag": "f4c633c3044fc145f84f335cb81953de",
            "result": "valid",
            "aes_k_nonce": "580b3b0f9447bb1e69d095b5928b6dbc",
            "intermediates": {
                "chunks_c_i": ["1f6f3"],
                "poly_r_mod_p": "321e58e25a69d7f8f27060770b3f8bb9c"
            }
        })
    }

    fn run(case: Value) -> Vec<Outcome> {
        let doc = json!({"schema": "vectors-v1", "algorithm": "Poly1305-AES", "tests": [case]});
        let f = VectorFile::parse(&doc.to_string()).unwrap();
        let imps = f.implementations();
        assert_eq!(
            imps.len(),
            galois_aead::poly1305::Poly1305Backend::available().len()
        );
        imps.iter()
            .map(|imp| f.run_case(&f.tests()[0], imp))
            .collect()
    }

    fn all_pass(v: &[Outcome]) -> bool {
        v.iter().all(|o| *o == Outcome::Pass)
    }

    fn all_fail_with(v: &[Outcome], needle: &str) -> bool {
        v.iter()
            .all(|o| matches!(o, Outcome::Fail(r) if r.contains(needle)))
    }

    #[test]
    fn example_passes_on_every_backend() {
        assert!(all_pass(&run(example1())));
    }

    /// Example 1 with `edit` applied.
    fn changed(edit: impl FnOnce(&mut Value)) -> Value {
        let mut c = example1();
        edit(&mut c);
        c
    }

    #[test]
    fn wrong_answers_fail() {
        assert!(all_fail_with(
            &run(changed(
                |c| c["tag"] = json!("f4c633c3044fc145f84f335cb81953df")
            )),
            "tag"
        ));
        assert!(all_fail_with(
            &run(changed(
                |c| c["intermediates"]["poly_r_mod_p"] = json!("321e58e25a69d7f8f27060770b3f8bb9d")
            )),
            "poly_r_mod_p"
        ));
        assert!(all_fail_with(
            &run(changed(
                |c| c["intermediates"]["chunks_c_i"] = json!(["2f6f3"])
            )),
            "c_1"
        ));
        assert!(all_fail_with(
            &run(changed(
                |c| c["aes_k_nonce"] = json!("580b3b0f9447bb1e69d095b5928b6dbd")
            )),
            "AES_k(n)"
        ));
    }

    #[test]
    fn key_from_k_and_r() {
        let mut c = example1();
        c.as_object_mut().unwrap().remove("key");
        assert!(all_pass(&run(c)));
        let mut c = example1();
        c["k"] = json!("fc074c835580741701425b623235add6");
        assert!(run(c)
            .iter()
            .all(|o| matches!(o, Outcome::Fail(r) if r.contains("disagree"))));
    }

    #[test]
    fn invalid_cases_must_be_rejected() {
        assert!(all_fail_with(
            &run(changed(|c| c["result"] = json!("invalid"))),
            "accepted"
        ));
        let mut c = example1();
        c["result"] = json!("invalid");
        c["tag"] = json!("00c633c3044fc145f84f335cb81953de");
        assert!(all_pass(&run(c)));
    }

    #[test]
    fn unclamped_r_is_a_refusal() {
        // r[3] = 0x1c breaks r[3] < 16.
        let key = "ec074c835580741701425b623235add6851fc41c3467ac0be05cc20404f3f700";
        let mut c = example1();
        c["key"] = json!(key);
        c["r"] = json!(&key[32..]);
        c["result"] = json!("invalid");
        assert!(all_pass(&run(c.clone())));
        c["result"] = json!("valid");
        assert!(all_fail_with(&run(c), "constraints"));
    }

    #[test]
    fn one_time_interface() {
        let case = json!({
            "id": "rfc8439-2.5.2",
            "key": "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
            "msg": "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
            "tag": "a8061dc1305136c6c22b8baf0c0127a9",
            "result": "valid"
        });
        let doc = json!({"schema": "vectors-v1", "algorithm": "Poly1305", "tests": [case]});
        let f = VectorFile::parse(&doc.to_string()).unwrap();
        for imp in f.implementations() {
            assert_eq!(f.run_case(&f.tests()[0], &imp), Outcome::Pass);
        }
        let mut bad = f.doc.clone();
        bad["tests"][0]["tag"] = json!("a8061dc1305136c6c22b8baf0c0127a8");
        let f = VectorFile::parse(&bad.to_string()).unwrap();
        for imp in f.implementations() {
            assert!(matches!(f.run_case(&f.tests()[0], &imp), Outcome::Fail(_)));
        }
    }
}
