//! Constant-time helpers: comparison and wiping.

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// Compares two byte strings in time that depends only on their lengths.
///
/// ```
/// assert!(galois::ct::eq(b"tag", b"tag"));
/// assert!(!galois::ct::eq(b"tag", b"tah"));
/// assert!(!galois::ct::eq(b"tag", b"tags"));
/// ```
pub fn eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// Overwrites a buffer with zeros in a way the compiler keeps: a plain
/// (vectorized) fill, then the buffer handed to `black_box` and a compiler
/// fence so the stores cannot be removed as dead. Short buffers use the
/// volatile writes of `zeroize`.
///
/// ```
/// let mut secret = vec![7u8; 1000];
/// galois::ct::wipe(&mut secret);
/// assert!(secret.iter().all(|&b| b == 0));
/// ```
pub fn wipe(buf: &mut [u8]) {
    if buf.len() < 256 {
        buf.zeroize();
        return;
    }
    buf.fill(0);
    core::hint::black_box(&mut *buf);
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// All-ones if `bit` is 1, zero if it is 0, without a branch.
#[inline(always)]
pub(crate) fn mask128(bit: u128) -> u128 {
    (bit & 1).wrapping_neg()
}
