//! Bit-serial GF(2^64) multiplication: the GCM spec's Algorithm 1 with
//! 64-bit blocks, the reference the other backends are tested against.
//!
//! Z = 0, V = H; for each bit X_i of X from a^0 (the leftmost, our most
//! significant) to a^63: Z ^= V if X_i = 1, then V = V * a (right shift,
//! folding a carried-out a^64 back as R = 1 + a + a^3 + a^4). Both
//! conditionals are all-ones/all-zeros masks, not branches, so the 64
//! steps take the same time for every X and H.

use super::mul_a;

/// x * y in GF(2^64), GCM bit order, constant time.
pub(crate) fn mul(x: u64, y: u64) -> u64 {
    let mut z = 0u64;
    let mut v = y;
    for i in (0..64).rev() {
        z ^= v & ((x >> i) & 1).wrapping_neg();
        v = mul_a(v);
    }
    z
}

crate::registry::plain_key!(u64, super::Gf64Mul);
