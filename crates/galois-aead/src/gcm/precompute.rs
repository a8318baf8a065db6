//! Precomputation (the GCM specification (McGrew and Viega), section 6, Table 2: "keystream can be
//! precomputed", "fixed parts of IV or A can be processed in advance").
//!
//! * [`AadPrefix`]: GHASH state after a fixed AAD prefix, hashed once and
//!   reused for every message whose AAD starts with it. Any prefix length
//!   works: GHASH pads A only at its very end, so a partial last block of
//!   the prefix is saved as pending bytes and completed by the rest of the
//!   AAD, exactly as if the whole AAD had been hashed at once.
//! * [`IvPrefix`]: the same for the fixed part of a long IV (IVs other than
//!   96 bits go through GHASH(H, {}, IV)). If prefix and rest together make
//!   96 bits the ordinary IV || 0^31 1 layout is used, as GCM requires.
//! * [`Keystream`]: E(K, Y0) and E(K, Y1..Yn) computed for a known IV before
//!   the data arrives; sealing is then one XOR and GHASH. It is consumed by
//!   use, so one IV gives one message.
//!
//! Each saved state is tied to the key that made it; using it with another
//! key is refused with [`Error::InvalidKey`].

use super::online::{mask, Hasher};
use super::{Gcm, Tag, MAX_AAD_BYTES, MAX_IV_BYTES};
use crate::block::{Block, BlockCipher128};
use crate::ct;
use crate::error::{Error, Result};
use zeroize::Zeroize;

/// Refuses a saved state made by another key. States carry the key's
/// random identifier ([`Gcm::key_id`]), which says nothing about the key.
fn same_key<C: BlockCipher128>(gcm: &Gcm<C>, id: u64) -> Result<()> {
    if gcm.key_id == id {
        Ok(())
    } else {
        Err(Error::InvalidKey {
            reason: "precomputed state belongs to another key",
        })
    }
}

/// GHASH state after a fixed AAD prefix.
///
/// ```
/// # use galois_aead::gcm::precompute::*;
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let prefix = AadPrefix::new(&gcm, b"fixed header|")?;
/// let mut buf = *b"body";
/// let iv = galois_aead::gcm::precompute::IvInput::Full(&[0; 12]);
/// let tag = seal_in_place(&gcm, iv, Some(&prefix), b"seq 1", &mut buf)?;
/// let whole = gcm.seal(&[0; 12], b"fixed header|seq 1", b"body")?;
/// assert_eq!([&buf[..], tag.as_bytes()].concat(), whole);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, zeroize::ZeroizeOnDrop)]
pub struct AadPrefix {
    hash: Hasher,
    len: u64,
    check: u64,
}

impl AadPrefix {
    /// The prefix length in bytes.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// assert_eq!(AadPrefix::new(&gcm, b"seven b")?.len(), 7);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the prefix is empty.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// assert!(AadPrefix::new(&gcm, b"")?.is_empty());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// GHASH state after the fixed part of an IV.
///
/// ```
/// # use galois_aead::gcm::precompute::*;
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let fixed = IvPrefix::new(&gcm, &[7; 20])?; // the fixed part of a 24-byte IV
/// let mut buf = *b"msg";
/// let tag = seal_in_place(&gcm, IvInput::Prefixed(&fixed, &[1, 2, 3, 4]), None, b"", &mut buf)?;
/// let iv = [&[7u8; 20][..], &[1, 2, 3, 4]].concat();
/// assert_eq!([&buf[..], tag.as_bytes()].concat(), gcm.seal(&iv, b"", b"msg")?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, zeroize::ZeroizeOnDrop)]
pub struct IvPrefix {
    hash: Hasher,
    len: u64,
    /// The prefix itself when it is short enough to be part of a 96-bit IV.
    raw: Vec<u8>,
    check: u64,
}

/// An IV given whole or as a precomputed prefix plus the rest.
///
/// ```
/// # use galois_aead::gcm::precompute::*;
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let salt = IvPrefix::new(&gcm, &[9; 4])?; // 4 + 8 bytes still make a 96-bit IV
/// let (mut a, mut b) = (*b"m", *b"m");
/// let ta = seal_in_place(&gcm, IvInput::Prefixed(&salt, &[0; 8]), None, b"", &mut a)?;
/// let mut iv = [0u8; 12];
/// iv[..4].copy_from_slice(&[9; 4]);
/// let tb = seal_in_place(&gcm, IvInput::Full(&iv), None, b"", &mut b)?;
/// assert_eq!((a, ta), (b, tb));
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy)]
pub enum IvInput<'a> {
    /// The whole IV.
    Full(&'a [u8]),
    /// A precomputed prefix and the remaining bytes.
    Prefixed(&'a IvPrefix, &'a [u8]),
}

/// Keystream for one known IV, computed ahead of the data.
///
/// ```
/// # use galois_aead::gcm::precompute::*;
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let ks = Keystream::new(&gcm, &[5; 12], 64)?; // before the data arrives
/// let mut buf = *b"late data";
/// let tag = ks.seal_in_place(b"", &mut buf)?;
/// assert_eq!([&buf[..], tag.as_bytes()].concat(), gcm.seal(&[5; 12], b"", b"late data")?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Keystream<'k, C: BlockCipher128> {
    gcm: &'k Gcm<C>,
    ks: Vec<u8>,
    mask: u128,
}

impl<C: BlockCipher128> Drop for Keystream<'_, C> {
    fn drop(&mut self) {
        self.ks.zeroize();
        self.mask.zeroize();
    }
}

impl AadPrefix {
    /// Hashes a fixed AAD prefix once, for reuse with
    /// [`seal_in_place`].
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let p = AadPrefix::new(&gcm, b"0123456789abcdefXY")?; // any length
    /// let mut buf = *b"x";
    /// let tag = seal_in_place(&gcm, IvInput::Full(&[0; 12]), Some(&p), b"Z", &mut buf)?;
    /// gcm.open_in_place_detached(&[0; 12], b"0123456789abcdefXYZ", &mut buf, tag.as_bytes())?;
    /// assert_eq!(&buf, b"x");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new<C: BlockCipher128>(gcm: &Gcm<C>, prefix: &[u8]) -> Result<Self> {
        gcm.precompute_aad(prefix)
    }
}

impl IvPrefix {
    /// Hashes the fixed part of an IV once.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let p = IvPrefix::new(&gcm, &[3; 32])?;
    /// let mut buf = *b"x";
    /// let tag = seal_in_place(&gcm, IvInput::Prefixed(&p, &[4]), None, b"", &mut buf)?;
    /// let iv = [&[3u8; 32][..], &[4]].concat();
    /// gcm.open_in_place_detached(&iv, b"", &mut buf, tag.as_bytes())?;
    /// assert_eq!(&buf, b"x");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new<C: BlockCipher128>(gcm: &Gcm<C>, prefix: &[u8]) -> Result<Self> {
        gcm.precompute_iv(prefix)
    }
}

/// Seals `buf` in place with AAD = prefix (precomputed, optional) ||
/// `aad_rest` and an IV given whole or by prefix. Same result as
/// [`Gcm::seal_in_place_detached`] on the concatenations.
///
/// ```
/// # use galois_aead::gcm::precompute::*;
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let mut buf = *b"abc";
/// let tag = seal_in_place(&gcm, IvInput::Full(&[0; 12]), None, b"ad", &mut buf)?;
/// assert_eq!([&buf[..], tag.as_bytes()].concat(), gcm.seal(&[0; 12], b"ad", b"abc")?);
/// // A prefix made under another key is refused.
/// let other = AadPrefix::new(&galois_aead::AesGcm::new(&[2u8; 16])?, b"")?;
/// assert!(seal_in_place(&gcm, IvInput::Full(&[0; 12]), Some(&other), b"", &mut buf).is_err());
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn seal_in_place<C: BlockCipher128>(
    gcm: &Gcm<C>,
    iv: IvInput<'_>,
    aad_prefix: Option<&AadPrefix>,
    aad_rest: &[u8],
    buf: &mut [u8],
) -> Result<Tag> {
    gcm.seal_in_place_precomputed(iv, aad_prefix, aad_rest, buf)
}

/// Opens in place with precomputed prefixes; on failure `buf` is wiped.
///
/// ```
/// # use galois_aead::gcm::precompute::*;
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let p = AadPrefix::new(&gcm, b"hdr")?;
/// let sealed = gcm.seal(&[0; 12], b"hdr:1", b"abc")?;
/// let (mut buf, tag) = (sealed[..3].to_vec(), &sealed[3..]);
/// open_in_place(&gcm, IvInput::Full(&[0; 12]), Some(&p), b":1", &mut buf, tag)?;
/// assert_eq!(buf, b"abc");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn open_in_place<C: BlockCipher128>(
    gcm: &Gcm<C>,
    iv: IvInput<'_>,
    aad_prefix: Option<&AadPrefix>,
    aad_rest: &[u8],
    buf: &mut [u8],
    tag: &[u8],
) -> Result<()> {
    gcm.open_in_place_precomputed(iv, aad_prefix, aad_rest, buf, tag)
}

impl<C: BlockCipher128> Gcm<C> {
    // The workers behind the public functions above (kept off `Gcm`'s
    // own API: see docs/architecture.md).
    fn precompute_aad(&self, prefix: &[u8]) -> Result<AadPrefix> {
        if prefix.len() as u64 > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        let mut hash = Hasher::default();
        hash.update(&self.ghash, prefix);
        Ok(AadPrefix {
            hash,
            len: prefix.len() as u64,
            check: self.key_id,
        })
    }

    fn precompute_iv(&self, prefix: &[u8]) -> Result<IvPrefix> {
        if prefix.len() as u64 > MAX_IV_BYTES {
            return Err(Error::InvalidIvLength { got: prefix.len() });
        }
        let mut hash = Hasher::default();
        hash.update(&self.ghash, prefix);
        Ok(IvPrefix {
            hash,
            len: prefix.len() as u64,
            raw: if prefix.len() <= 12 {
                prefix.to_vec()
            } else {
                Vec::new()
            },
            check: self.key_id,
        })
    }

    /// Y0 for an IV given whole or by prefix, with the usual IV checks.
    fn y0_input(&self, iv: IvInput<'_>) -> Result<Block> {
        match iv {
            IvInput::Full(v) => {
                self.check_iv(v)?;
                Ok(self.y0(v, None))
            }
            IvInput::Prefixed(p, rest) => {
                same_key(self, p.check)?;
                let total = p.len + rest.len() as u64;
                if total == 0 || total > MAX_IV_BYTES {
                    return Err(Error::InvalidIvLength {
                        got: total as usize,
                    });
                }
                // The IV policy depends only on whether the IV has 12 bytes.
                self.check_iv(if total == 12 { &[0u8; 12] } else { &[0u8; 13] })?;
                if total == 12 {
                    let mut y0 = [0u8; 16];
                    y0[..p.raw.len()].copy_from_slice(&p.raw);
                    y0[p.raw.len()..12].copy_from_slice(rest);
                    y0[15] = 1;
                    return Ok(y0);
                }
                let mut h = p.hash.clone();
                h.update(&self.ghash, rest);
                Ok(h.finish(&self.ghash, 0, total).to_be_bytes())
            }
        }
    }

    fn tag_precomputed(
        &self,
        y0: &Block,
        aad_prefix: Option<&AadPrefix>,
        aad_rest: &[u8],
        ct_: &[u8],
    ) -> Result<Tag> {
        let (mut h, plen) = match aad_prefix {
            Some(p) => {
                same_key(self, p.check)?;
                (p.hash.clone(), p.len)
            }
            None => (Hasher::default(), 0),
        };
        let aad_len = plen + aad_rest.len() as u64;
        if aad_len > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        h.update(&self.ghash, aad_rest);
        h.pad(&self.ghash);
        h.update(&self.ghash, ct_);
        let g = h.finish(&self.ghash, aad_len, ct_.len() as u64);
        Ok(self.make_tag(g ^ mask(self, y0)))
    }

    fn seal_in_place_precomputed(
        &self,
        iv: IvInput<'_>,
        aad_prefix: Option<&AadPrefix>,
        aad_rest: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag> {
        Self::check_lengths(&[], buf.len())?;
        let y0 = self.y0_input(iv)?;
        // Check the AAD and key before encrypting anything.
        if let Some(p) = aad_prefix {
            same_key(self, p.check)?;
        }
        self.ctr_xor(&y0, 1, buf);
        self.tag_precomputed(&y0, aad_prefix, aad_rest, buf)
    }

    fn open_in_place_precomputed(
        &self,
        iv: IvInput<'_>,
        aad_prefix: Option<&AadPrefix>,
        aad_rest: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<()> {
        let r = (|| {
            if tag.len() != self.tag_len() {
                return Err(Error::InvalidTagLength { got: tag.len() });
            }
            Self::check_lengths(&[], buf.len())?;
            let y0 = self.y0_input(iv)?;
            let want = self.tag_precomputed(&y0, aad_prefix, aad_rest, buf)?;
            if !ct::eq(want.as_bytes(), tag) {
                return Err(Error::AuthenticationFailed);
            }
            self.ctr_xor(&y0, 1, buf);
            Ok(())
        })();
        if r.is_err() {
            ct::wipe(buf);
        }
        r
    }

    fn keystream(&self, iv: &[u8], max_len: usize) -> Result<Keystream<'_, C>> {
        self.check_iv(iv)?;
        Self::check_lengths(&[], max_len)?;
        let y0 = self.y0(iv, None);
        let mut ks = vec![0u8; max_len];
        self.ctr_xor(&y0, 1, &mut ks);
        Ok(Keystream {
            gcm: self,
            ks,
            mask: mask(self, &y0),
        })
    }
}

impl<'k, C: BlockCipher128> Keystream<'k, C> {
    /// Computes E(K, Y0) and `max_len` bytes of keystream for `iv` now,
    /// before the data arrives.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let sealed = gcm.seal(&[5; 12], b"", b"abc")?;
    /// let ks = Keystream::new(&gcm, &[5; 12], 16)?;
    /// let mut buf = sealed[..3].to_vec();
    /// ks.open_in_place(b"", &mut buf, &sealed[3..])?;
    /// assert_eq!(buf, b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(gcm: &'k Gcm<C>, iv: &[u8], max_len: usize) -> Result<Self> {
        gcm.keystream(iv, max_len)
    }

    /// Bytes of keystream available.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// assert_eq!(Keystream::new(&gcm, &[5; 12], 100)?.len(), 100);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.ks.len()
    }

    /// Whether no keystream was computed.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// assert!(Keystream::new(&gcm, &[5; 12], 0)?.is_empty());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ks.is_empty()
    }

    fn tag(&self, aad: &[u8], ct_: &[u8]) -> Result<Tag> {
        super::Gcm::<C>::check_lengths(aad, ct_.len())?;
        let mut h = Hasher::default();
        h.update(&self.gcm.ghash, aad);
        h.pad(&self.gcm.ghash);
        h.update(&self.gcm.ghash, ct_);
        let g = h.finish(&self.gcm.ghash, aad.len() as u64, ct_.len() as u64);
        Ok(self.gcm.make_tag(g ^ self.mask))
    }

    fn fits(&self, n: usize) -> Result<()> {
        if n > self.ks.len() {
            return Err(Error::BufferLength {
                expected: self.ks.len(),
                got: n,
            });
        }
        Ok(())
    }

    /// Seals `buf` (at most [`Keystream::len`] bytes) in place; the
    /// keystream is used up.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut long = [0u8; 17];
    /// let r = Keystream::new(&gcm, &[5; 12], 16)?.seal_in_place(b"", &mut long);
    /// assert!(matches!(r, Err(galois_aead::Error::BufferLength { .. }))); // more than computed
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal_in_place(self, aad: &[u8], buf: &mut [u8]) -> Result<Tag> {
        self.fits(buf.len())?;
        for (d, k) in buf.iter_mut().zip(self.ks.iter()) {
            *d ^= k;
        }
        self.tag(aad, buf)
    }

    /// Opens `buf` in place if `tag` verifies; wiped on failure.
    ///
    /// ```
    /// # use galois_aead::gcm::precompute::*;
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let sealed = gcm.seal(&[5; 12], b"", b"abc")?;
    /// let mut buf = sealed[..3].to_vec();
    /// let r = Keystream::new(&gcm, &[5; 12], 3)?.open_in_place(b"x", &mut buf, &sealed[3..]);
    /// assert_eq!(r, Err(galois_aead::Error::AuthenticationFailed));
    /// assert_eq!(buf, [0; 3]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn open_in_place(self, aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<()> {
        let r = (|| {
            self.fits(buf.len())?;
            if tag.len() != self.gcm.tag_len() {
                return Err(Error::InvalidTagLength { got: tag.len() });
            }
            if !ct::eq(self.tag(aad, buf)?.as_bytes(), tag) {
                return Err(Error::AuthenticationFailed);
            }
            for (d, k) in buf.iter_mut().zip(self.ks.iter()) {
                *d ^= k;
            }
            Ok(())
        })();
        if r.is_err() {
            ct::wipe(buf);
        }
        r
    }
}
