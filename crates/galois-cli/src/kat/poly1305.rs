//! Poly1305-AES and one-time Poly1305 cases (the Poly1305 issue fills this in).

use super::{Outcome, AUTO};
use serde_json::Value;

pub fn implementations() -> Vec<String> {
    vec![AUTO.to_string()]
}

pub fn run_case(_file: &Value, _case: &Value, _imp: &str, aes: bool) -> Result<Outcome, String> {
    let name = if aes { "Poly1305-AES" } else { "Poly1305" };
    Ok(Outcome::Unsupported(format!(
        "algorithm {name} is not built yet"
    )))
}
