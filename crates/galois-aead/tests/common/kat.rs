//! GCM known answers as hex strings, for the suites that list their own
//! (`gcm64.rs` through `common`, `miri.rs` by `#[path]`).
#![allow(dead_code)]

/// One message: key, IV, additional data, plaintext, ciphertext and tag.
pub struct GcmKat {
    pub key: &'static str,
    pub iv: &'static str,
    pub aad: &'static str,
    pub pt: &'static str,
    pub ct: &'static str,
    pub tag: &'static str,
}

/// The bytes of a hex string.
pub fn hx(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}
