//! Incremental MACs (the GCM specification (McGrew and Viega), sections 1 and 6; Bernstein's paper "The Poly1305-AES message-authentication code",
//! section 1; Bellare-Goldreich-Goldwasser's incremental cryptography).
//!
//! GHASH and Poly1305 are polynomials in the key whose coefficients are the
//! message blocks, so a change to the message changes the hash linearly:
//! with the accumulator S = B_1 H^m + ... + B_m H (GHASH, in GF(2^128)) or
//! S = c_1 r^q + ... + c_q r (Poly1305, modulo 2^130 - 5),
//!
//! * replacing block i adds (old xor new) * H^(m-i+1), or (new - old) * r^(q-i+1);
//! * appending continues the Horner evaluation from S (after fixing a
//!   partial last block, whose padding changes);
//! * truncating subtracts the dropped blocks' terms and divides by
//!   H^(blocks dropped) (multiplies by the inverse power; H and r are
//!   nonzero, which the objects check at setup).
//!
//! Powers come from square-and-multiply in radix 256 with the windows
//! precomputed (`Windows`: x^(d 256^i) for every digit d, a 4 KiB table per
//! level, levels added as the message grows), so a one-block change costs a
//! few multiplications (one per nonzero base-256 digit of the distance to
//! the end), not O(m). The inverses H^-1 and r^-1 come from plain
//! square-and-multiply (Fermat). The objects keep the message (to know the old blocks) and the
//! secret accumulator, wiped on drop.
//!
//! Tags use the one-time pad of a fresh IV (GMAC: E(K, Y0)) or nonce
//! (Poly1305-AES: AES_k(n)). Two tags of different messages under one IV
//! give away H (or r), so each object refuses to tag twice under the same
//! IV/nonce ([`crate::Error::IvReused`]); the caller must still keep IVs
//! unique across objects sharing a key.

use zeroize::Zeroize;

mod gfmul;
mod gmac;
mod poly;

pub use gmac::{AesIncrementalGmac, IncrementalGmac};

use crate::error::{Error, Result};
use std::collections::HashSet;

/// How an incremental MAC object makes sure it never tags twice under one
/// IV (GMAC) or nonce (Poly1305-AES).
///
/// ```
/// use galois_aead::mac::incremental::{AesIncrementalGmac, IvPolicy};
/// let mut mac = AesIncrementalGmac::with_key(&[1u8; 16], b"message")?;
/// mac.set_iv_policy(IvPolicy::Increasing)?;
/// mac.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])?;
/// assert!(mac.tag(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]).is_err()); // not above the last
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IvPolicy {
    /// Any IVs, each at most once: the object remembers every IV it has
    /// tagged under (memory grows with the number of tags).
    #[default]
    AnyOnce,
    /// Strictly increasing IVs of one length, compared as big-endian
    /// numbers (what a counter gives): constant memory and time.
    Increasing,
}

/// Refuses an IV the object has already tagged under.
pub(crate) struct IvGuard {
    policy: IvPolicy,
    used: HashSet<Vec<u8>, SeededBuild>,
    last: Option<Vec<u8>>,
}

impl IvGuard {
    pub(crate) fn new() -> Self {
        IvGuard {
            policy: IvPolicy::AnyOnce,
            used: HashSet::with_hasher(SeededBuild::new()),
            last: None,
        }
    }

    pub(crate) fn set_policy(&mut self, p: IvPolicy) -> Result<()> {
        if !self.used.is_empty() || self.last.is_some() {
            return Err(Error::LimitReached {
                what: "the IV policy can change only before the first tag",
            });
        }
        self.policy = p;
        Ok(())
    }

    /// Records `iv` as used, or refuses it.
    pub(crate) fn claim(&mut self, iv: &[u8]) -> Result<()> {
        match self.policy {
            IvPolicy::AnyOnce => {
                if self.used.contains(iv) {
                    return Err(Error::IvReused);
                }
                self.used.insert(iv.to_vec());
            }
            IvPolicy::Increasing => match &mut self.last {
                Some(l) => {
                    if l.len() != iv.len() {
                        return Err(Error::InvalidIvLength { got: iv.len() });
                    }
                    if iv <= l.as_slice() {
                        return Err(Error::IvReused);
                    }
                    l.copy_from_slice(iv);
                }
                None => self.last = Some(iv.to_vec()),
            },
        }
        Ok(())
    }
}
pub use poly::IncrementalPoly1305Aes;

/// The end of an edit of `len` bytes at `offset` of a message of
/// `msg_len` bytes; refused past the message's end.
pub(crate) fn edit_end(msg_len: usize, offset: usize, len: usize) -> Result<usize> {
    offset
        .checked_add(len)
        .filter(|&e| e <= msg_len)
        .ok_or(Error::BufferLength {
            expected: msg_len,
            got: offset.saturating_add(len),
        })
}

/// A replacement's fast path: when `data` is one whole block at an aligned
/// `offset` (checked to be in `msg`), its slot in `msg` and its bytes.
pub(crate) fn whole_block<'m>(
    msg: &'m mut [u8],
    offset: usize,
    data: &[u8],
) -> Option<(&'m mut [u8; 16], [u8; 16])> {
    let new: [u8; 16] = data.try_into().ok().filter(|_| offset.is_multiple_of(16))?;
    Some(((&mut msg[offset..offset + 16]).try_into().ok()?, new))
}

/// The 16-byte blocks of a message, the last one possibly partial.
pub(crate) fn blocks(msg: &[u8]) -> u64 {
    msg.len().div_ceil(16) as u64
}

/// Fixed-window (radix 256) exponentiation with the windows precomputed:
/// level i holds x^(d * 256^i) for d = 0..255. x^n is the product of one
/// entry per nonzero base-256 digit of n. Exponents are public (block
/// positions); the entries are secret and wiped on drop.
pub(crate) struct Windows<T: Copy + Zeroize> {
    x: T,
    levels: Vec<Vec<T>>,
}

impl<T: Copy + Zeroize> Windows<T> {
    pub(crate) fn new(x: T) -> Self {
        Windows {
            x,
            levels: Vec::new(),
        }
    }

    /// Adds levels until x^n can be computed.
    pub(crate) fn ensure(&mut self, n: u64, one: T, mul: impl Fn(T, T) -> T) {
        let digits = (64 - n.leading_zeros()).div_ceil(8).max(1) as usize;
        while self.levels.len() < digits {
            let base = match self.levels.last() {
                None => self.x,
                Some(l) => mul(l[255], l[1]),
            };
            let mut l = Vec::with_capacity(256);
            l.push(one);
            for d in 1..256 {
                l.push(if d == 1 { base } else { mul(l[d - 1], base) });
            }
            self.levels.push(l);
        }
    }

    /// x^n (after [`Windows::ensure`] for n).
    pub(crate) fn pow(&self, n: u64, one: T, mul: impl Fn(T, T) -> T) -> T {
        let mut r: Option<T> = None;
        for (i, l) in self.levels.iter().enumerate() {
            let d = ((n >> (8 * i)) & 255) as usize;
            if d != 0 {
                r = Some(match r {
                    None => l[d],
                    Some(v) => mul(v, l[d]),
                });
            }
        }
        debug_assert!(n >> (8 * self.levels.len()).min(63) == 0 || self.levels.len() >= 8);
        r.unwrap_or(one)
    }
}

impl<T: Copy + Zeroize> Drop for Windows<T> {
    fn drop(&mut self) {
        self.x.zeroize();
        for l in &mut self.levels {
            for e in l.iter_mut() {
                e.zeroize();
            }
        }
    }
}

/// A fast keyed hasher for the sets of used IVs/nonces (public values):
/// multiply-xor over 8-byte words with a per-process random seed.
#[derive(Clone, Copy)]
pub(crate) struct SeededBuild(u64);

impl SeededBuild {
    pub(crate) fn new() -> Self {
        use std::hash::BuildHasher;
        SeededBuild(std::collections::hash_map::RandomState::new().hash_one(0x5eedu64) | 1)
    }
}

pub(crate) struct SeededHasher(u64);

impl std::hash::Hasher for SeededHasher {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.0 = (self.0 ^ u64::from_le_bytes(w))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        }
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

impl std::hash::BuildHasher for SeededBuild {
    type Hasher = SeededHasher;
    fn build_hasher(&self) -> SeededHasher {
        SeededHasher(self.0)
    }
}
