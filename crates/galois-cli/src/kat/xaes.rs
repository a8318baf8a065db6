//! XAES-256-GCM cases (c2sp.org/XAES-256-GCM): the AES-GCM fields with a
//! 32-byte key and a 24-byte `iv`. The per-message keys are AES-256-GCM
//! keys, so the implementations are the GCM ones. Optional
//! `intermediates` `Kx` and `Nx` are checked by sealing with AES-256-GCM
//! directly.

use super::gcm::PORTABLE;
use super::{Case, Outcome, AUTO};
use galois_aead::{AesBackend, AesGcm, GhashBackend, XAes256Gcm};
use serde_json::Value;

fn build(key: &[u8], imp: &str) -> galois_aead::Result<XAes256Gcm> {
    match imp {
        AUTO => XAes256Gcm::new(key),
        PORTABLE => XAes256Gcm::with_options(
            key,
            galois_aead::Options::new()
                .backend(GhashBackend::Ctmul64)
                .aes_backend(AesBackend::Portable),
        ),
        name => XAes256Gcm::with_options(
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
    let x = match build(&key, imp) {
        Ok(x) => x,
        // Refusing the parameters with a clear error is a correct answer.
        Err(_) if !valid => return Ok(Outcome::Pass),
        Err(e) => {
            return Ok(Outcome::Fail(format!(
                "key setup refused a valid case: {e}"
            )))
        }
    };
    if !valid {
        let mut buf = ct.clone();
        return Ok(
            match x.open_in_place_detached(&nonce, &aad, &mut buf, &tag) {
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
    let t = match x.seal_in_place_detached(&nonce, &aad, &mut buf) {
        Ok(t) => t,
        Err(e) => return Ok(Outcome::Fail(format!("seal refused a valid case: {e}"))),
    };
    if buf != ct || t.as_bytes() != tag.as_slice() {
        return Ok(Outcome::Fail(format!(
            "ct||tag {}{} != expected {}{}",
            hex::encode(&buf),
            hex::encode(t.as_bytes()),
            hex::encode(&ct),
            hex::encode(&tag)
        )));
    }
    let mut buf = ct.clone();
    if let Err(e) = x.open_in_place_detached(&nonce, &aad, &mut buf, &tag) {
        return Ok(Outcome::Fail(format!("open rejected a valid case: {e}")));
    }
    if buf != pt {
        return Ok(Outcome::Fail(format!(
            "pt {} != expected",
            hex::encode(&buf)
        )));
    }
    if let Some(im) = case.get("intermediates") {
        let im = Case(im);
        if let (Some(kx), Some(nx)) = (im.hex_opt("Kx")?, im.hex_opt("Nx")?) {
            let gcm = AesGcm::new(&kx).map_err(|e| format!("Kx: {e}"))?;
            let direct = gcm.seal(&nx, &aad, &pt).map_err(|e| format!("Nx: {e}"))?;
            if direct != [&ct[..], &tag[..]].concat() {
                return Ok(Outcome::Fail(
                    "AES-256-GCM under the intermediate Kx, Nx gives another ciphertext".into(),
                ));
            }
        }
    }
    Ok(Outcome::Pass)
}
