//! Constant-time helpers: comparison and wiping.

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// Compares two byte strings in time that depends only on their lengths.
pub fn eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// Overwrites a buffer with zeros in a way the compiler keeps.
pub fn wipe(buf: &mut [u8]) {
    buf.zeroize();
}

/// All-ones if `bit` is 1, zero if it is 0, without a branch.
#[inline(always)]
pub(crate) fn mask128(bit: u128) -> u128 {
    (bit & 1).wrapping_neg()
}
