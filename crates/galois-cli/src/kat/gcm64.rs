//! GCM over 64-bit block ciphers (the modes issue fills this in).

use super::{Outcome, AUTO};
use serde_json::Value;

pub fn implementations() -> Vec<String> {
    vec![AUTO.to_string()]
}

pub fn run_case(_case: &Value, _imp: &str) -> Result<Outcome, String> {
    Ok(Outcome::Unsupported(
        "algorithm GCM64-TDEA is not built yet".into(),
    ))
}
