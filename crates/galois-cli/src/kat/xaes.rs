//! XAES-256-GCM cases (c2sp.org/XAES-256-GCM): the AES-GCM fields with a
//! 32-byte key and a 24-byte `iv`. The per-message keys are AES-256-GCM
//! keys, so the implementations are the GCM ones. Optional
//! `intermediates` `Kx` and `Nx` are checked by sealing with AES-256-GCM
//! directly.

use super::detached::run_pinned;
use super::{Case, Outcome};
use galois_aead::{AesGcm, XAes256Gcm};
use serde_json::Value;

pub(crate) fn run_case(case: &Value, imp: &str) -> Result<Outcome, String> {
    let (f, _) = match run_pinned::<XAes256Gcm>(&Case(case), imp)? {
        Ok(passed) => passed,
        Err(o) => return Ok(o),
    };
    if let Some(im) = case.get("intermediates") {
        let im = Case(im);
        if let (Some(kx), Some(nx)) = (im.hex_opt("Kx")?, im.hex_opt("Nx")?) {
            let gcm = AesGcm::new(&kx).map_err(|e| format!("Kx: {e}"))?;
            let pt = f.pt.as_deref().unwrap_or_default();
            let direct = gcm.seal(&nx, &f.aad, pt).map_err(|e| format!("Nx: {e}"))?;
            if direct != [&f.ct[..], &f.tag[..]].concat() {
                return Ok(Outcome::Fail(
                    "AES-256-GCM under the intermediate Kx, Nx gives another ciphertext".into(),
                ));
            }
        }
    }
    Ok(Outcome::Pass)
}
