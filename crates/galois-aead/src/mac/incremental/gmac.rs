//! Incremental GMAC: GMAC (GCM with the message as AAD) of a long message,
//! kept up to date under block replacements, appends and truncations.

use super::gfmul::{Mul, ONE};
use super::{blocks, edit_end, whole_block, IvGuard, IvPolicy, Windows};
use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::ct;
use crate::error::{Error, Result};
use crate::gcm::{Gcm, Options, Tag, MAX_AAD_BYTES};
use zeroize::Zeroize;

/// Incremental GMAC over any 128-bit block cipher.
///
/// ```
/// use galois_aead::{mac::incremental::AesIncrementalGmac, AesGmac};
/// let mut doc = vec![b'a'; 1000];
/// let mut mac = AesIncrementalGmac::with_key(&[1u8; 16], &doc)?;
/// mac.replace(500, b"edit")?; // cheap: no rehash of the other blocks
/// doc[500..504].copy_from_slice(b"edit");
/// let tag = mac.tag(&[9; 12])?;
/// assert_eq!(tag, AesGmac::new(&[1u8; 16])?.authenticate(&[9; 12], &doc)?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct IncrementalGmac<C: BlockCipher128> {
    gcm: Gcm<C>,
    mul: Mul,
    msg: Vec<u8>,
    /// GHASH(H, M, {}) = (S xor L) H, where S = B_1 H^m + ... + B_m H over
    /// the zero-padded blocks and L = len(M) || 0^64: kept final, so a tag
    /// costs one block-cipher call and no multiplication.
    x: u128,
    /// H (also kept in `gcm`), for the general multiplier.
    h: u128,
    /// Powers of H.
    pow: Windows<u128>,
    /// Powers of H^-1.
    inv: Windows<u128>,
    /// The IVs used for tags.
    guard: IvGuard,
}

/// Incremental GMAC with AES.
pub type AesIncrementalGmac = IncrementalGmac<Aes>;

impl zeroize::ZeroizeOnDrop for AesIncrementalGmac {}

impl<C: BlockCipher128> Drop for IncrementalGmac<C> {
    fn drop(&mut self) {
        self.x.zeroize();
        self.h.zeroize();
    }
}

impl AesIncrementalGmac {
    /// AES key (16, 24 or 32 bytes), 16-byte tags, initial message `msg`.
    ///
    /// ```
    /// let mac = galois_aead::mac::incremental::AesIncrementalGmac::with_key(&[1u8; 32], b"start")?;
    /// assert_eq!(mac.message(), b"start");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_key(key: &[u8], msg: &[u8]) -> Result<Self> {
        Self::new(Gcm::<Aes>::new(key)?, msg)
    }
}

/// Block `b` of `msg`, zero-padded.
fn block(msg: &[u8], b: usize) -> u128 {
    let mut x = [0u8; 16];
    let end = ((b + 1) * 16).min(msg.len());
    x[..end - b * 16].copy_from_slice(&msg[b * 16..end]);
    u128::from_be_bytes(x)
}

/// `data` zero-padded to whole blocks.
fn padded(data: &[u8]) -> Vec<u8> {
    let mut v = data.to_vec();
    v.resize(data.len().div_ceil(16) * 16, 0);
    v
}

impl<C: BlockCipher128> IncrementalGmac<C> {
    /// Starts from `msg` under `gcm`'s key. Keys with H = 0 are refused
    /// (truncation divides by powers of H).
    ///
    /// ```
    /// use galois_aead::{mac::incremental::IncrementalGmac, AesGcm};
    /// let gcm = galois_aead::Options::new().tag_len(12).and_then(|o| AesGcm::with_options(&[1u8; 16], o))?;
    /// let mut mac = IncrementalGmac::new(gcm, b"msg")?;
    /// assert_eq!(mac.tag(&[0; 12])?.as_bytes().len(), 12);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(gcm: Gcm<C>, msg: &[u8]) -> Result<Self> {
        if gcm.h_is_zero() {
            return Err(crate::gcm::ZERO_H);
        }
        if msg.len() as u64 > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        let mul = Mul::new();
        let h = gcm.ghash.mul_h(ONE);
        let pow = Windows::new(h);
        let inv = Windows::new(mul.inverse(h));
        let s = gcm.ghash.update_blocks(0, &padded(msg));
        let mut me = IncrementalGmac {
            gcm,
            mul,
            msg: msg.to_vec(),
            x: 0,
            h,
            pow,
            inv,
            guard: IvGuard::new(),
        };
        me.grow();
        me.set_s(s);
        Ok(me)
    }

    /// Starts over any block cipher with default options.
    ///
    /// ```
    /// use galois_aead::{mac::incremental::IncrementalGmac, Aes, AesGmac};
    /// let mut mac = IncrementalGmac::from_cipher(Aes::new(&[2u8; 16])?, b"msg")?;
    /// assert_eq!(mac.tag(&[0; 12])?, AesGmac::new(&[2u8; 16])?.authenticate(&[0; 12], b"msg")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn from_cipher(cipher: C, msg: &[u8]) -> Result<Self> {
        Self::new(Gcm::from_cipher(cipher, Options::new())?, msg)
    }

    /// Chooses how IV freshness is enforced ([`IvPolicy::AnyOnce`] by
    /// default); only before the first tag.
    ///
    /// ```
    /// use galois_aead::mac::incremental::{AesIncrementalGmac, IvPolicy};
    /// let mut mac = AesIncrementalGmac::with_key(&[1u8; 16], b"m")?;
    /// mac.tag(&[1; 12])?;
    /// assert!(mac.set_iv_policy(IvPolicy::Increasing).is_err()); // only before the first tag
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn set_iv_policy(&mut self, p: IvPolicy) -> Result<()> {
        self.guard.set_policy(p)
    }

    /// The current message.
    ///
    /// ```
    /// let mut mac = galois_aead::mac::incremental::AesIncrementalGmac::with_key(&[1u8; 16], b"abc")?;
    /// mac.append(b"def")?;
    /// assert_eq!(mac.message(), b"abcdef");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn message(&self) -> &[u8] {
        &self.msg
    }

    /// L = len(M) || 0^64 for the current message.
    fn lens(&self) -> u128 {
        (self.msg.len() as u128 * 8) << 64
    }

    /// S from the kept GHASH value: x H^-1 xor L.
    fn get_s(&self) -> u128 {
        self.mul.mul(self.x, self.h_inv_pow(1)) ^ self.lens()
    }

    /// Keeps (S xor L) H for the current message length.
    fn set_s(&mut self, s: u128) {
        self.x = self.mul.mul(s ^ self.lens(), self.h);
    }

    /// Makes the power tables cover the current message (exponents up to
    /// blocks + 1).
    fn grow(&mut self) {
        let m = self.mul;
        let n = blocks(&self.msg) + 1;
        self.pow.ensure(n, ONE, |a, b| m.mul(a, b));
        self.inv.ensure(n, ONE, |a, b| m.mul(a, b));
    }

    fn h_pow(&self, n: u64) -> u128 {
        let m = self.mul;
        self.pow.pow(n, ONE, |a, b| m.mul(a, b))
    }

    fn h_inv_pow(&self, n: u64) -> u128 {
        let m = self.mul;
        self.inv.pow(n, ONE, |a, b| m.mul(a, b))
    }

    /// Overwrites `data.len()` bytes at `offset` (inside the message).
    /// Costs O(changed blocks + log(message blocks)).
    ///
    /// ```
    /// use galois_aead::{mac::incremental::AesIncrementalGmac, AesGmac};
    /// let mut mac = AesIncrementalGmac::with_key(&[1u8; 16], b"hello world")?;
    /// mac.replace(6, b"there")?;
    /// assert_eq!(mac.tag(&[0; 12])?, AesGmac::new(&[1u8; 16])?.authenticate(&[0; 12], b"hello there")?);
    /// assert!(mac.replace(10, b"past the end").is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn replace(&mut self, offset: usize, data: &[u8]) -> Result<()> {
        let end = edit_end(self.msg.len(), offset, data.len())?;
        if data.is_empty() {
            return Ok(());
        }
        // Fast path: one whole, aligned block (fixed-size copies only).
        if let Some((slot, new)) = whole_block(&mut self.msg, offset, data) {
            let d = u128::from_be_bytes(*slot) ^ u128::from_be_bytes(new);
            *slot = new;
            // S gains d H^k, so (S xor L) H gains d H^(k+1).
            let k = blocks(&self.msg) - (offset / 16) as u64;
            self.x ^= self.mul.mul(d, self.h_pow(k + 1));
            return Ok(());
        }
        let (b0, b1) = (offset / 16, (end - 1) / 16);
        // Horner without its last multiplication: d = sum d_b H^(b1 - b).
        // Block b1 sits at H^(m - b1) in S, so add d * H^(m - b1).
        let mut d = 0u128;
        for b in b0..=b1 {
            let old = block(&self.msg, b).to_be_bytes();
            let mut new = old;
            let (lo, hi) = ((b * 16).max(offset), ((b + 1) * 16).min(end));
            new[lo - b * 16..hi - b * 16].copy_from_slice(&data[lo - offset..hi - offset]);
            if b > b0 {
                d = self.gcm.ghash.mul_h(d);
            }
            d ^= u128::from_be_bytes(old) ^ u128::from_be_bytes(new);
        }
        self.msg[offset..end].copy_from_slice(data);
        let k = blocks(&self.msg) - b1 as u64;
        self.x ^= self.mul.mul(d, self.h_pow(k + 1));
        d.zeroize();
        Ok(())
    }

    /// Replaces whole block `i` (0-based; not the partial last block).
    ///
    /// ```
    /// let mut mac = galois_aead::mac::incremental::AesIncrementalGmac::with_key(&[1u8; 16], &[0; 48])?;
    /// mac.replace_block(1, &[7; 16])?;
    /// assert_eq!(mac.message()[16..32], [7; 16]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn replace_block(&mut self, i: usize, new: &[u8; 16]) -> Result<()> {
        self.replace(i.saturating_mul(16), new)
    }

    /// Appends bytes. Costs O(appended blocks).
    ///
    /// ```
    /// use galois_aead::{mac::incremental::AesIncrementalGmac, AesGmac};
    /// let mut mac = AesIncrementalGmac::with_key(&[1u8; 16], b"log: ")?;
    /// mac.append(b"line 1;")?;
    /// mac.append(b"line 2;")?;
    /// assert_eq!(mac.tag(&[0; 12])?, AesGmac::new(&[1u8; 16])?.authenticate(&[0; 12], b"log: line 1;line 2;")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn append(&mut self, mut data: &[u8]) -> Result<()> {
        if (self.msg.len() + data.len()) as u64 > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        if data.is_empty() {
            return Ok(());
        }
        let mut s = self.get_s();
        let r = self.msg.len() % 16;
        if r != 0 {
            let last = self.msg.len() / 16;
            let take = (16 - r).min(data.len());
            let old = block(&self.msg, last);
            self.msg.extend_from_slice(&data[..take]);
            let new = block(&self.msg, last);
            // The last block carries H^1.
            s ^= self.gcm.ghash.mul_h(old ^ new);
            data = &data[take..];
        }
        if !data.is_empty() {
            self.msg.extend_from_slice(data);
            s = self.gcm.ghash.update_blocks(s, &padded(data));
        }
        self.grow();
        self.set_s(s);
        s.zeroize();
        Ok(())
    }

    /// Truncates the message to `len` bytes. Costs O(dropped blocks +
    /// log(message blocks)).
    ///
    /// ```
    /// use galois_aead::{mac::incremental::AesIncrementalGmac, AesGmac};
    /// let mut mac = AesIncrementalGmac::with_key(&[1u8; 16], &[5; 100])?;
    /// mac.truncate(33)?;
    /// assert_eq!(mac.tag(&[0; 12])?, AesGmac::new(&[1u8; 16])?.authenticate(&[0; 12], &[5; 33])?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn truncate(&mut self, len: usize) -> Result<()> {
        if len > self.msg.len() {
            return Err(Error::BufferLength {
                expected: self.msg.len(),
                got: len,
            });
        }
        let mut s = self.get_s();
        let m = blocks(&self.msg);
        let m2 = len.div_ceil(16) as u64;
        if m2 < m {
            // Remove sum_{b >= m2} B_b H^(m - b), then divide by H^(m - m2).
            let t = self
                .gcm
                .ghash
                .update_blocks(0, &padded(&self.msg[m2 as usize * 16..]));
            s = self.mul.mul(s ^ t, self.h_inv_pow(m - m2));
        }
        if !len.is_multiple_of(16) {
            let last = len / 16;
            let old = block(&self.msg, last);
            let new = block(&self.msg[..len], last);
            s ^= self.gcm.ghash.mul_h(old ^ new);
        }
        self.msg.truncate(len);
        self.set_s(s);
        s.zeroize();
        Ok(())
    }

    fn compute(&self, iv: &[u8]) -> Result<Tag> {
        self.gcm.check_iv(iv)?;
        let y0 = self.gcm.y0(iv, None);
        let mut ek = y0;
        self.gcm.cipher.encrypt_block(&mut ek);
        let t = self.x ^ u128::from_be_bytes(ek);
        ek.zeroize();
        Ok(self.gcm.make_tag(t))
    }

    /// The GMAC tag of the current message under `iv`. Refuses an IV this
    /// object has already tagged under, or under [`IvPolicy::Increasing`]
    /// one not above the last ([`Error::IvReused`]).
    ///
    /// ```
    /// let mut mac = galois_aead::mac::incremental::AesIncrementalGmac::with_key(&[1u8; 16], b"m")?;
    /// mac.tag(&[1; 12])?;
    /// mac.append(b"ore")?;
    /// assert_eq!(mac.tag(&[1; 12]), Err(galois_aead::Error::IvReused)); // would leak H
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn tag(&mut self, iv: &[u8]) -> Result<Tag> {
        let t = self.compute(iv)?;
        self.guard.claim(iv)?;
        Ok(t)
    }

    /// Checks `tag` for the current message under `iv` (constant-time
    /// comparison; verifying under a used IV is harmless).
    ///
    /// ```
    /// let mut mac = galois_aead::mac::incremental::AesIncrementalGmac::with_key(&[1u8; 16], b"v1")?;
    /// let tag = mac.tag(&[1; 12])?;
    /// mac.verify(&[1; 12], tag.as_bytes())?;
    /// mac.replace(1, b"2")?;
    /// assert!(mac.verify(&[1; 12], tag.as_bytes()).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn verify(&self, iv: &[u8], tag: &[u8]) -> Result<()> {
        let t = self.compute(iv)?;
        if ct::eq(t.as_bytes(), tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}
