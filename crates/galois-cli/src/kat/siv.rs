//! AES-GCM-SIV cases (RFC 8452): the AES-GCM fields, `iv` being the
//! 12-byte nonce and `tag` the 16-byte tag. POLYVAL runs on the GHASH
//! backends, so the implementations are the GCM ones.

use super::gcm::PORTABLE;
use super::{Case, Outcome, AUTO};
use galois_aead::{AesBackend, AesGcmSiv, GhashBackend};
use serde_json::Value;

/// The AES-GCM-SIV key for implementation `imp`.
fn build(key: &[u8], imp: &str) -> galois_aead::Result<AesGcmSiv> {
    match imp {
        AUTO => AesGcmSiv::new(key),
        PORTABLE => AesGcmSiv::with_options(
            key,
            galois_aead::Options::new()
                .backend(GhashBackend::Ctmul64)
                .aes_backend(AesBackend::Portable),
        ),
        name => AesGcmSiv::with_options(
            key,
            galois_aead::Options::new().backend(GhashBackend::from_name(name)?),
        ),
    }
}

pub(crate) fn run_case(case: &Value, imp: &str) -> Result<Outcome, String> {
    let c = Case(case);
    let valid = c.valid()?;
    let key = c.hex("key")?;
    let nonce = c.hex("iv")?;
    let aad = c.hex("aad")?;
    let ct = c.hex_opt("ct")?.unwrap_or_default();
    let tag = c.hex("tag")?;
    let pt = c.hex_opt("pt")?;
    let siv = match build(&key, imp) {
        Ok(s) => s,
        // Refusing the parameters with a clear error is a correct answer.
        Err(_) if !valid => return Ok(Outcome::Pass),
        Err(e) => {
            return Ok(Outcome::Fail(format!(
                "key setup refused a valid case: {e}"
            )))
        }
    };
    if valid {
        let pt = pt.ok_or("valid case without pt")?;
        let mut buf = pt.clone();
        let t = match siv.seal_in_place_detached(&nonce, &aad, &mut buf) {
            Ok(t) => t,
            Err(e) => return Ok(Outcome::Fail(format!("seal refused a valid case: {e}"))),
        };
        if buf != ct {
            return Ok(Outcome::Fail(format!(
                "ct {} != expected {}",
                hex::encode(&buf),
                hex::encode(&ct)
            )));
        }
        if t.as_bytes() != tag.as_slice() {
            return Ok(Outcome::Fail(format!(
                "tag {} != expected {}",
                hex::encode(t.as_bytes()),
                hex::encode(&tag)
            )));
        }
        let mut buf = ct.clone();
        if let Err(e) = siv.open_in_place_detached(&nonce, &aad, &mut buf, &tag) {
            return Ok(Outcome::Fail(format!("open rejected a valid case: {e}")));
        }
        if buf != pt {
            return Ok(Outcome::Fail(format!(
                "pt {} != expected {}",
                hex::encode(&buf),
                hex::encode(&pt)
            )));
        }
        Ok(Outcome::Pass)
    } else {
        let mut buf = ct.clone();
        match siv.open_in_place_detached(&nonce, &aad, &mut buf, &tag) {
            Ok(()) => Ok(Outcome::Fail("an invalid case was accepted".into())),
            Err(_) if buf.iter().any(|&b| b != 0) => Ok(Outcome::Fail(
                "a failed open left data in the output buffer".into(),
            )),
            Err(_) => Ok(Outcome::Pass),
        }
    }
}
