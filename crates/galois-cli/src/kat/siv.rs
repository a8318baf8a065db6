//! AES-GCM-SIV cases (RFC 8452): the AES-GCM fields, `iv` being the
//! 12-byte nonce and `tag` the 16-byte tag. POLYVAL runs on the GHASH
//! backends, so the implementations are the GCM ones.

use super::detached::run_pinned;
use super::{Case, Outcome};
use galois_aead::AesGcmSiv;
use serde_json::Value;

pub(crate) fn run_case(case: &Value, imp: &str) -> Result<Outcome, String> {
    Ok(match run_pinned::<AesGcmSiv>(&Case(case), imp)? {
        Ok(_) => Outcome::Pass,
        Err(o) => o,
    })
}
