//! Incremental GMAC: GMAC (GCM with the message as AAD) of a long message,
//! kept up to date under block replacements, appends and truncations.

use super::gfmul::Mul;
use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::ct;
use crate::error::{Error, Result};
use crate::gcm::{Gcm, Options, Tag, MAX_AAD_BYTES};
use std::collections::HashSet;
use zeroize::Zeroize;

/// Incremental GMAC over any 128-bit block cipher.
pub struct IncrementalGmac<C: BlockCipher128> {
    gcm: Gcm<C>,
    mul: Mul,
    msg: Vec<u8>,
    /// S = B_1 H^m + ... + B_m H over the zero-padded blocks.
    s: u128,
    /// H^(2^j).
    pow: [u128; 64],
    /// H^-(2^j).
    inv: [u128; 64],
    used: HashSet<Vec<u8>>,
}

/// Incremental GMAC with AES.
pub type AesIncrementalGmac = IncrementalGmac<Aes>;

impl<C: BlockCipher128> Drop for IncrementalGmac<C> {
    fn drop(&mut self) {
        self.s.zeroize();
        self.pow.zeroize();
        self.inv.zeroize();
    }
}

impl AesIncrementalGmac {
    /// AES key (16, 24 or 32 bytes), 16-byte tags, initial message `msg`.
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
    pub fn new(gcm: Gcm<C>, msg: &[u8]) -> Result<Self> {
        if gcm.h_is_zero() {
            return Err(Error::InvalidKey {
                reason: "H = E(K, 0^128) is zero",
            });
        }
        if msg.len() as u64 > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        let mul = Mul::new();
        let h = gcm.ghash.mul_h(super::gfmul::ONE);
        let pow = mul.pow2_table(h);
        let inv = mul.pow2_table(mul.inverse(h));
        let s = gcm.ghash.update_blocks(0, &padded(msg));
        Ok(IncrementalGmac {
            gcm,
            mul,
            msg: msg.to_vec(),
            s,
            pow,
            inv,
            used: HashSet::new(),
        })
    }

    /// Starts over any block cipher with default options.
    pub fn from_cipher(cipher: C, msg: &[u8]) -> Result<Self> {
        Self::new(Gcm::from_cipher(cipher, Options::new())?, msg)
    }

    /// The current message.
    pub fn message(&self) -> &[u8] {
        &self.msg
    }

    fn blocks(&self) -> u64 {
        self.msg.len().div_ceil(16) as u64
    }

    /// Overwrites `data.len()` bytes at `offset` (inside the message).
    /// Costs O(changed blocks + log(message blocks)).
    pub fn replace(&mut self, offset: usize, data: &[u8]) -> Result<()> {
        let end = offset
            .checked_add(data.len())
            .filter(|&e| e <= self.msg.len())
            .ok_or(Error::BufferLength {
                expected: self.msg.len(),
                got: offset.saturating_add(data.len()),
            })?;
        if data.is_empty() {
            return Ok(());
        }
        let (b0, b1) = (offset / 16, (end - 1) / 16);
        let mut delta = Vec::with_capacity((b1 - b0 + 1) * 16);
        for b in b0..=b1 {
            delta.extend_from_slice(&block(&self.msg, b).to_be_bytes());
        }
        self.msg[offset..end].copy_from_slice(data);
        for (k, b) in (b0..=b1).enumerate() {
            let n = block(&self.msg, b).to_be_bytes();
            for (d, x) in delta[16 * k..16 * k + 16].iter_mut().zip(n) {
                *d ^= x;
            }
        }
        // Horner over the deltas gives sum d_b H^(b1 - b + 1); the block b1
        // sits at H^(m - b1), so multiply by H^(m - 1 - b1).
        let d = self.gcm.ghash.update_blocks(0, &delta);
        let k = self.blocks() - 1 - b1 as u64;
        self.s ^= self.mul.mul(d, self.mul.pow(&self.pow, k));
        delta.zeroize();
        Ok(())
    }

    /// Replaces whole block `i` (0-based; not the partial last block).
    pub fn replace_block(&mut self, i: usize, new: &[u8; 16]) -> Result<()> {
        self.replace(i.saturating_mul(16), new)
    }

    /// Appends bytes. Costs O(appended blocks).
    pub fn append(&mut self, mut data: &[u8]) -> Result<()> {
        if (self.msg.len() + data.len()) as u64 > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        let r = self.msg.len() % 16;
        if r != 0 && !data.is_empty() {
            let last = self.msg.len() / 16;
            let take = (16 - r).min(data.len());
            let old = block(&self.msg, last);
            self.msg.extend_from_slice(&data[..take]);
            let new = block(&self.msg, last);
            // The last block carries H^1.
            self.s ^= self.gcm.ghash.mul_h(old ^ new);
            data = &data[take..];
        }
        if !data.is_empty() {
            self.msg.extend_from_slice(data);
            self.s = self.gcm.ghash.update_blocks(self.s, &padded(data));
        }
        Ok(())
    }

    /// Truncates the message to `len` bytes. Costs O(dropped blocks +
    /// log(message blocks)).
    pub fn truncate(&mut self, len: usize) -> Result<()> {
        if len > self.msg.len() {
            return Err(Error::BufferLength {
                expected: self.msg.len(),
                got: len,
            });
        }
        let m = self.blocks();
        let m2 = len.div_ceil(16) as u64;
        if m2 < m {
            // Remove sum_{b >= m2} B_b H^(m - b), then divide by H^(m - m2).
            let t = self
                .gcm
                .ghash
                .update_blocks(0, &padded(&self.msg[m2 as usize * 16..]));
            self.s ^= t;
            self.s = self.mul.mul(self.s, self.mul.pow(&self.inv, m - m2));
        }
        if len % 16 != 0 {
            let last = len / 16;
            let old = block(&self.msg, last);
            let new = block(&self.msg[..len], last);
            self.s ^= self.gcm.ghash.mul_h(old ^ new);
        }
        self.msg.truncate(len);
        Ok(())
    }

    fn compute(&self, iv: &[u8]) -> Result<Tag> {
        self.gcm.check_iv(iv)?;
        let y0 = self.gcm.y0(iv, None);
        let lens = (self.msg.len() as u128 * 8) << 64;
        let g = self.gcm.ghash.mul_h(self.s ^ lens);
        let mut ek = y0;
        self.gcm.cipher.encrypt_block(&mut ek);
        let t = g ^ u128::from_be_bytes(ek);
        ek.zeroize();
        Ok(self.gcm.make_tag(t))
    }

    /// The GMAC tag of the current message under `iv`. Refuses an IV this
    /// object has already tagged under ([`Error::IvReused`]).
    pub fn tag(&mut self, iv: &[u8]) -> Result<Tag> {
        if self.used.contains(iv) {
            return Err(Error::IvReused);
        }
        let t = self.compute(iv)?;
        self.used.insert(iv.to_vec());
        Ok(t)
    }

    /// Checks `tag` for the current message under `iv` (constant-time
    /// comparison; verifying under a used IV is harmless).
    pub fn verify(&self, iv: &[u8], tag: &[u8]) -> Result<()> {
        let t = self.compute(iv)?;
        if ct::eq(t.as_bytes(), tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}
