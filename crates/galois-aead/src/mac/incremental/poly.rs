//! Incremental Poly1305-AES (Bernstein, "The Poly1305-AES message-authentication code"): the polynomial
//! S = c_1 r^q + ... + c_q r mod p, p = 2^130 - 5, kept up to date under
//! chunk replacements, appends and truncations; tag = (S + AES_k(n)) mod 2^128.
//!
//! Arithmetic mod p: an element is three limbs of 44, 44 and 42 bits
//! (a = a0 + a1 2^44 + a2 2^88). In a product the terms at 2^132 and 2^176
//! fold back with 2^130 = 5 (mod p), i.e. 2^132 = 20:
//! d0 = a0 b0 + 20 (a1 b2 + a2 b1), d1 = a0 b1 + a1 b0 + 20 a2 b2,
//! d2 = a0 b2 + a1 b1 + a2 b0, then one carry chain (the carry out of the
//! 42-bit top limb re-enters the bottom times 5). Subtraction adds 2p - b.
//! Everything is straight-line u64/u128 arithmetic: constant time.
//! This is our own mod-p code; the Poly1305 module's public API is the
//! reference the tests compare with.

use super::{blocks, edit_end, whole_block, IvGuard, IvPolicy, Windows};
use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::ct;
use crate::error::{Error, Result};
use zeroize::Zeroize;

type Fe = [u64; 3];

const M44: u64 = (1 << 44) - 1;
const M42: u64 = (1 << 42) - 1;
const ONE: Fe = [1, 0, 0];

fn carry(d0: u128, d1: u128, d2: u128) -> Fe {
    let c = d0 >> 44;
    let r0 = (d0 as u64) & M44;
    let d1 = d1 + c;
    let c = d1 >> 44;
    let r1 = (d1 as u64) & M44;
    let d2 = d2 + c;
    let c = d2 >> 42;
    let r2 = (d2 as u64) & M42;
    let d0 = r0 as u128 + c * 5;
    let c = (d0 >> 44) as u64;
    [(d0 as u64) & M44, r1 + c, r2]
}

fn mul(a: &Fe, b: &Fe) -> Fe {
    let (a0, a1, a2) = (a[0] as u128, a[1] as u128, a[2] as u128);
    let (b0, b1, b2) = (b[0] as u128, b[1] as u128, b[2] as u128);
    let d0 = a0 * b0 + 20 * (a1 * b2 + a2 * b1);
    let d1 = a0 * b1 + a1 * b0 + 20 * (a2 * b2);
    let d2 = a0 * b2 + a1 * b1 + a2 * b0;
    carry(d0, d1, d2)
}

fn add(a: &Fe, b: &Fe) -> Fe {
    carry(
        (a[0] + b[0]) as u128,
        (a[1] + b[1]) as u128,
        (a[2] + b[2]) as u128,
    )
}

/// a + 2p - b limb by limb, not carried (a and b carried): limbs below
/// 2^46, fine as a factor of [`mul`] (products below 2^92, sums below 2^99).
fn sub_lazy(a: &Fe, b: &Fe) -> Fe {
    let two_p = [(1u64 << 45) - 10, (1u64 << 45) - 2, (1u64 << 43) - 2];
    [
        a[0] + two_p[0] - b[0],
        a[1] + two_p[1] - b[1],
        a[2] + two_p[2] - b[2],
    ]
}

/// a - b mod p (b carried), carried.
fn sub(a: &Fe, b: &Fe) -> Fe {
    let d = sub_lazy(a, b);
    carry(d[0] as u128, d[1] as u128, d[2] as u128)
}

/// The canonical value in [0, p), as limbs.
fn freeze(h: &Fe) -> Fe {
    let mut h = carry(h[0] as u128, h[1] as u128, h[2] as u128);
    let c = h[1] >> 44;
    h[1] &= M44;
    h[2] += c;
    // Now h < 2p: subtract p if h + 5 reaches 2^130.
    let g0 = h[0] + 5;
    let g1 = h[1] + (g0 >> 44);
    let g2 = h[2] + (g1 >> 44);
    let g = [g0 & M44, g1 & M44, g2 & M42];
    let mask = ((g2 >> 42) & 1).wrapping_neg();
    [
        (g[0] & mask) | (h[0] & !mask),
        (g[1] & mask) | (h[1] & !mask),
        (g[2] & mask) | (h[2] & M42 & !mask),
    ]
}

fn from_u128(lo: u128, top: u64) -> Fe {
    [
        (lo as u64) & M44,
        ((lo >> 44) as u64) & M44,
        ((lo >> 88) as u64) | (top << 40),
    ]
}

/// Chunk `b` of `msg` as the paper's c_i: little-endian plus 2^(8 len).
fn chunk(msg: &[u8], b: usize) -> Fe {
    let end = ((b + 1) * 16).min(msg.len());
    let c = &msg[b * 16..end];
    let mut x = [0u8; 16];
    x[..c.len()].copy_from_slice(c);
    let lo = u128::from_le_bytes(x);
    if c.len() == 16 {
        from_u128(lo, 1)
    } else {
        from_u128(lo | (1u128 << (8 * c.len())), 0)
    }
}

/// x^(p - 2) = x^-1 for x != 0. p - 2 = 2^130 - 7: bits 0 and 3..129 set.
fn inverse(x: &Fe) -> Fe {
    let mut r = ONE;
    for i in (0..130).rev() {
        r = mul(&r, &r);
        if i == 0 || i >= 3 {
            r = mul(&r, x);
        }
    }
    r
}

/// Incremental Poly1305-AES: Bernstein's key k || r (32 bytes), 16-byte
/// nonces, each nonce used for at most one tag by this object.
///
/// ```
/// use galois_aead::{mac::incremental::IncrementalPoly1305Aes, poly1305::Poly1305Aes};
/// let key = [[1u8; 16], [4u8; 16]].concat(); // k || r, r clamped
/// let mut mac = IncrementalPoly1305Aes::new(&key, &[0; 64])?;
/// mac.replace(10, b"xyz")?;
/// let mut msg = [0u8; 64];
/// msg[10..13].copy_from_slice(b"xyz");
/// assert_eq!(mac.tag(&[3; 16])?, Poly1305Aes::new(&key)?.authenticate(&[3; 16], &msg)?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(zeroize::ZeroizeOnDrop)]
pub struct IncrementalPoly1305Aes {
    #[zeroize(skip)]
    aes: Aes,
    r: Fe,
    /// Powers of r and of r^-1.
    #[zeroize(skip)]
    pow: Windows<Fe>,
    #[zeroize(skip)]
    inv: Windows<Fe>,
    #[zeroize(skip)]
    msg: Vec<u8>,
    s: Fe,
    #[zeroize(skip)]
    guard: IvGuard,
}

impl IncrementalPoly1305Aes {
    /// Key k || r (r clamped as the paper requires; r = 0 is refused) and
    /// the initial message.
    ///
    /// ```
    /// use galois_aead::mac::incremental::IncrementalPoly1305Aes;
    /// assert!(IncrementalPoly1305Aes::new(&[[1u8; 16], [4u8; 16]].concat(), b"m").is_ok());
    /// assert!(IncrementalPoly1305Aes::new(&[0u8; 32], b"m").is_err()); // r = 0
    /// ```
    pub fn new(key: &[u8], msg: &[u8]) -> Result<Self> {
        if key.len() != 32 {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        let rb: [u8; 16] = key[16..].try_into().unwrap();
        if !crate::poly1305::is_clamped(&rb) {
            return Err(Error::InvalidKey {
                reason: "Poly1305 r is not clamped",
            });
        }
        let rv = u128::from_le_bytes(rb);
        // Public by design: r = 0 is refused.
        if crate::ct::declassify(rv == 0) {
            return Err(Error::InvalidKey {
                reason: "Poly1305 r = 0 (no incremental truncation possible)",
            });
        }
        let r = from_u128(rv, 0);
        let mut me = IncrementalPoly1305Aes {
            aes: Aes::new(&key[..16])?,
            r,
            pow: Windows::new(r),
            inv: Windows::new(inverse(&r)),
            msg: msg.to_vec(),
            s: [0; 3],
            guard: IvGuard::new(),
        };
        // The initial polynomial with the Poly1305 module's fastest
        // backend (its public API): (c_1 r^q + ... + c_q r) mod p.
        let mut pv = crate::poly1305::Poly1305Aes::new(key)?.poly_value_le(msg);
        let lo = u128::from_le_bytes(pv[..16].try_into().unwrap());
        me.s = from_u128(lo, pv[16] as u64);
        pv.zeroize();
        me.grow();
        Ok(me)
    }

    /// Chooses how nonce freshness is enforced ([`IvPolicy::AnyOnce`] by
    /// default); only before the first tag.
    ///
    /// ```
    /// use galois_aead::mac::incremental::{IncrementalPoly1305Aes, IvPolicy};
    /// let mut mac = IncrementalPoly1305Aes::new(&[[1u8; 16], [4u8; 16]].concat(), b"m")?;
    /// mac.set_iv_policy(IvPolicy::Increasing)?;
    /// mac.tag(&[5; 16])?;
    /// assert!(mac.tag(&[4; 16]).is_err()); // below the last nonce
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn set_iv_policy(&mut self, p: IvPolicy) -> Result<()> {
        self.guard.set_policy(p)
    }

    /// The current message.
    ///
    /// ```
    /// use galois_aead::mac::incremental::IncrementalPoly1305Aes;
    /// let mut mac = IncrementalPoly1305Aes::new(&[[1u8; 16], [4u8; 16]].concat(), b"abcdef")?;
    /// mac.truncate(3)?;
    /// assert_eq!(mac.message(), b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn message(&self) -> &[u8] {
        &self.msg
    }

    /// Makes the power tables cover the current message.
    fn grow(&mut self) {
        let n = blocks(&self.msg);
        self.pow.ensure(n, ONE, |a, b| mul(&a, &b));
        self.inv.ensure(n, ONE, |a, b| mul(&a, &b));
    }

    /// Continues the Horner evaluation h = (h + c) r over `chunks`.
    fn horner(&self, mut h: Fe, vals: impl Iterator<Item = Fe>) -> Fe {
        for c in vals {
            h = mul(&add(&h, &c), &self.r);
        }
        h
    }

    /// Overwrites `data.len()` bytes at `offset` (inside the message).
    ///
    /// ```
    /// use galois_aead::{mac::incremental::IncrementalPoly1305Aes, poly1305::Poly1305Aes};
    /// let key = [[1u8; 16], [4u8; 16]].concat();
    /// let mut mac = IncrementalPoly1305Aes::new(&key, b"hello world")?;
    /// mac.replace(0, b"J")?;
    /// assert_eq!(mac.tag(&[0; 16])?, Poly1305Aes::new(&key)?.authenticate(&[0; 16], b"Jello world")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn replace(&mut self, offset: usize, data: &[u8]) -> Result<()> {
        let end = edit_end(self.msg.len(), offset, data.len())?;
        if data.is_empty() {
            return Ok(());
        }
        // Fast path: one whole, aligned chunk (fixed-size copies only);
        // the 2^128 of both values cancels.
        if let Some((slot, new)) = whole_block(&mut self.msg, offset, data) {
            let old = from_u128(u128::from_le_bytes(*slot), 0);
            let d = sub_lazy(&from_u128(u128::from_le_bytes(new), 0), &old);
            *slot = new;
            let k = blocks(&self.msg) - (offset / 16) as u64;
            let d = mul(&d, &self.pow.pow(k, ONE, |a, b| mul(&a, &b)));
            self.s = add(&self.s, &d);
            return Ok(());
        }
        let (b0, b1) = (offset / 16, (end - 1) / 16);
        // Horner without its last multiplication: d = sum d_b r^(b1 - b);
        // chunk b1 sits at r^(q - b1) in S, so add d * r^(q - b1).
        let mut d: Fe = [0; 3];
        for b in b0..=b1 {
            let old = chunk(&self.msg, b);
            let (lo, hi) = ((b * 16).max(offset), ((b + 1) * 16).min(end));
            let cend = ((b + 1) * 16).min(self.msg.len());
            let mut bytes = [0u8; 16];
            bytes[..cend - b * 16].copy_from_slice(&self.msg[b * 16..cend]);
            bytes[lo - b * 16..hi - b * 16].copy_from_slice(&data[lo - offset..hi - offset]);
            let new = chunk(&bytes[..cend - b * 16], 0);
            if b > b0 {
                d = mul(&d, &self.r);
            }
            d = add(&d, &sub(&new, &old));
        }
        self.msg[offset..end].copy_from_slice(data);
        let k = blocks(&self.msg) - b1 as u64;
        d = mul(&d, &self.pow.pow(k, ONE, |a, b| mul(&a, &b)));
        self.s = add(&self.s, &d);
        d.zeroize();
        Ok(())
    }

    /// Appends bytes; cost proportional to them.
    ///
    /// ```
    /// use galois_aead::{mac::incremental::IncrementalPoly1305Aes, poly1305::Poly1305Aes};
    /// let key = [[1u8; 16], [4u8; 16]].concat();
    /// let mut mac = IncrementalPoly1305Aes::new(&key, b"")?;
    /// mac.append(&[1; 20]);
    /// mac.append(&[1; 20]);
    /// assert_eq!(mac.tag(&[0; 16])?, Poly1305Aes::new(&key)?.authenticate(&[0; 16], &[1; 40])?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn append(&mut self, mut data: &[u8]) {
        let rem = self.msg.len() % 16;
        if rem != 0 && !data.is_empty() {
            let last = self.msg.len() / 16;
            let take = (16 - rem).min(data.len());
            let old = chunk(&self.msg, last);
            self.msg.extend_from_slice(&data[..take]);
            let new = chunk(&self.msg, last);
            self.s = add(&self.s, &mul(&sub(&new, &old), &self.r));
            data = &data[take..];
        }
        if !data.is_empty() {
            let first = self.msg.len() / 16;
            self.msg.extend_from_slice(data);
            let n = self.msg.len().div_ceil(16);
            let vals: Vec<Fe> = (first..n).map(|b| chunk(&self.msg, b)).collect();
            self.s = self.horner(self.s, vals.into_iter());
        }
        self.grow();
    }

    /// Truncates to `len` bytes; cost proportional to the dropped chunks
    /// plus O(log) for the power.
    ///
    /// ```
    /// use galois_aead::{mac::incremental::IncrementalPoly1305Aes, poly1305::Poly1305Aes};
    /// let key = [[1u8; 16], [4u8; 16]].concat();
    /// let mut mac = IncrementalPoly1305Aes::new(&key, &[9; 50])?;
    /// mac.truncate(17)?;
    /// assert_eq!(mac.tag(&[0; 16])?, Poly1305Aes::new(&key)?.authenticate(&[0; 16], &[9; 17])?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn truncate(&mut self, len: usize) -> Result<()> {
        if len > self.msg.len() {
            return Err(Error::BufferLength {
                expected: self.msg.len(),
                got: len,
            });
        }
        let m = blocks(&self.msg);
        let m2 = len.div_ceil(16) as u64;
        if m2 < m {
            let vals: Vec<Fe> = (m2 as usize..m as usize)
                .map(|b| chunk(&self.msg, b))
                .collect();
            let t = self.horner([0; 3], vals.into_iter());
            self.s = mul(
                &sub(&self.s, &t),
                &self.inv.pow(m - m2, ONE, |a, b| mul(&a, &b)),
            );
        }
        if !len.is_multiple_of(16) {
            let last = len / 16;
            let old = chunk(&self.msg, last);
            let new = chunk(&self.msg[..len], last);
            self.s = add(&self.s, &mul(&sub(&new, &old), &self.r));
        }
        self.msg.truncate(len);
        Ok(())
    }

    fn compute(&self, nonce: &[u8]) -> Result<[u8; 16]> {
        let mut n: [u8; 16] = nonce
            .try_into()
            .map_err(|_| Error::InvalidNonceLength { got: nonce.len() })?;
        self.aes.encrypt_block(&mut n);
        let pad = u128::from_le_bytes(n);
        n.zeroize();
        let f = freeze(&self.s);
        let low = (f[0] as u128) | ((f[1] as u128) << 44) | ((f[2] as u128) << 88);
        Ok(low.wrapping_add(pad).to_le_bytes())
    }

    /// The tag of the current message under a 16-byte `nonce`; refuses a
    /// nonce this object already used ([`Error::IvReused`]).
    ///
    /// ```
    /// use galois_aead::mac::incremental::IncrementalPoly1305Aes;
    /// let mut mac = IncrementalPoly1305Aes::new(&[[1u8; 16], [4u8; 16]].concat(), b"m")?;
    /// mac.tag(&[7; 16])?;
    /// assert_eq!(mac.tag(&[7; 16]), Err(galois_aead::Error::IvReused));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn tag(&mut self, nonce: &[u8]) -> Result<[u8; 16]> {
        let t = self.compute(nonce)?;
        self.guard.claim(nonce)?;
        Ok(t)
    }

    /// Checks a tag for the current message (constant-time comparison).
    ///
    /// ```
    /// use galois_aead::mac::incremental::IncrementalPoly1305Aes;
    /// let mut mac = IncrementalPoly1305Aes::new(&[[1u8; 16], [4u8; 16]].concat(), b"m")?;
    /// let tag = mac.tag(&[7; 16])?;
    /// mac.verify(&[7; 16], &tag)?;
    /// assert_eq!(mac.verify(&[8; 16], &tag), Err(galois_aead::Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn verify(&self, nonce: &[u8], tag: &[u8]) -> Result<()> {
        let t = self.compute(nonce)?;
        if ct::eq(&t, tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(f: &Fe) -> u128 {
        let f = freeze(f);
        f[0] as u128 | (f[1] as u128) << 44 | (f[2] as u128) << 88
    }

    #[test]
    fn field_basics() {
        let a = from_u128(0x1234_5678_9abc_def0_0fed_cba9_8765_4321, 3);
        let b = from_u128(0xffff_ffff_ffff_ffff_ffff_ffff_ffff_fffb, 0);
        assert_eq!(freeze(&mul(&a, &inverse(&a))), ONE);
        assert_eq!(freeze(&add(&sub(&a, &b), &b)), freeze(&a));
        // p itself freezes to 0; p - 1 stays.
        let p = [M44 - 4, M44, M42];
        assert_eq!(freeze(&p), [0, 0, 0]);
        assert_eq!(val(&[M44 - 5, M44, M42]), u128::MAX - 5);
        // 2^130 = 5.
        assert_eq!(freeze(&[0, 0, 1 << 42]), [5, 0, 0]);
        assert_eq!(freeze(&sub(&ONE, &[2, 0, 0])), [M44 - 5, M44, M42]);
    }
}
