//! Simple 4-bit tables: equation (6) of the GCM spec with X cut into 32
//! nibbles. NOT constant time.
//!
//! As in `table8_vartime`, X * H = XOR over j of M_j[n_j], where n_j is the
//! j-th nibble of X (nibble 0 is the high half of byte 0, the coefficients
//! of x^0..x^3) and M_j[n] = n * x^(4j) * H. 32 tables of 16 entries take
//! 8,192 bytes per key; a multiplication is 32 loads indexed by secret
//! nibbles. Chosen only by name.

/// This file's line in the registry table: `table8_vartime`'s code with
/// 4-bit pieces.
pub(crate) type Key = super::table8_vartime::Tables<4, 16, 32>;
