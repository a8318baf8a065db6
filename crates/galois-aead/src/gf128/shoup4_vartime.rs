//! Shoup's method with 4-bit tables. NOT constant time.
//!
//! The 4-bit form of `shoup8_vartime`: M_0[n] = n * H for the 16 nibble
//! values (256 bytes per key), Horner's rule over the 32 nibbles of X from
//! the last to the first, Z <- Z * x^4 ^ M_0[n_j], and a key-independent
//! table R of 16 entries for the nibble that falls off the end (32 bytes
//! as 16-bit words; the spec's 64 bytes are 32-bit words).

/// This file's line in the registry table: `shoup8_vartime`'s code with
/// 4-bit steps.
pub(crate) type Key = super::shoup8_vartime::Shoup<4, 16>;
