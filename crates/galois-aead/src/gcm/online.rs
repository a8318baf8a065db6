//! On-line GCM (the GCM specification (McGrew and Viega) Table 2: "message lengths need not be known in
//! advance"): AAD and then text in pieces of any size, the tag at the end.
//!
//! * [`Encryptor`]: `aad` pieces, then `encrypt` pieces (in place), then
//!   `finish` gives the tag.
//! * [`Decryptor`], the safe form: `update` takes ciphertext pieces and
//!   keeps them; `finish(tag)` verifies and only then decrypts and returns
//!   the whole plaintext. Nothing is released before the tag verifies; the
//!   price is memory for the whole message.
//! * [`UnverifiedDecryptor`], for one message too large to hold: it hands
//!   out plaintext as ciphertext arrives and says only at `finish` whether
//!   any of it was authentic. **Everything it released before `finish`
//!   returned `Ok` is attacker-controlled until proven otherwise**: counter
//!   mode is malleable, so a flipped ciphertext bit flips the same
//!   plaintext bit. Write the output somewhere nobody acts on, and discard
//!   it if `finish` fails. Prefer [`crate::stream`], which authenticates
//!   every segment before releasing it.
//!
//! All three give the same bytes as the one-shot API for every split of
//! the input.

use super::{Gcm, Tag, MAX_AAD_BYTES, MAX_PLAINTEXT_BYTES};
use crate::block::{Block, BlockCipher128};
use crate::ct;
use crate::error::{Error, Result};
use zeroize::Zeroize;

/// The GHASH accumulator (with its partial block) that on-line GCM,
/// precomputation and streams save and resume.
pub(crate) use crate::gf128::Acc as Hasher;

/// Counter-mode keystream over any split: a partial block is kept.
#[derive(Default)]
pub(crate) struct Ctr {
    /// Index of the next counter block to compute (1 = Y1).
    next: u32,
    ks: Block,
    /// Bytes of `ks` already used (16: none left).
    used: usize,
}

impl Drop for Ctr {
    fn drop(&mut self) {
        self.ks.zeroize();
    }
}

impl Ctr {
    pub(crate) fn new() -> Self {
        Ctr {
            next: 1,
            ks: [0; 16],
            used: 16,
        }
    }

    pub(crate) fn xor<C: BlockCipher128>(&mut self, gcm: &Gcm<C>, y0: &Block, mut data: &mut [u8]) {
        while self.used < 16 && !data.is_empty() {
            data[0] ^= self.ks[self.used];
            self.used += 1;
            data = &mut data[1..];
        }
        let whole = data.len() & !15;
        if whole > 0 {
            gcm.ctr_xor(y0, self.next, &mut data[..whole]);
            self.next = self.next.wrapping_add((whole / 16) as u32);
        }
        let rest = &mut data[whole..];
        if !rest.is_empty() {
            self.ks = [0; 16];
            gcm.ctr_xor(y0, self.next, &mut self.ks);
            self.next = self.next.wrapping_add(1);
            for (d, k) in rest.iter_mut().zip(self.ks.iter()) {
                *d ^= k;
            }
            self.used = rest.len();
        }
    }
}

/// E(K, Y0) as an integer.
pub(crate) fn mask<C: BlockCipher128>(gcm: &Gcm<C>, y0: &Block) -> u128 {
    let mut ek = *y0;
    gcm.cipher.encrypt_block(&mut ek);
    let m = u128::from_be_bytes(ek);
    ek.zeroize();
    m
}

/// The state shared by the three forms: IV setup, AAD, lengths.
struct Core<'k, C: BlockCipher128> {
    gcm: &'k Gcm<C>,
    y0: Block,
    hash: Hasher,
    ctr: Ctr,
    aad_len: u64,
    text_len: u64,
    in_text: bool,
}

impl<C: BlockCipher128> Drop for Core<'_, C> {
    fn drop(&mut self) {
        self.y0.zeroize();
    }
}

impl<'k, C: BlockCipher128> Core<'k, C> {
    fn new(gcm: &'k Gcm<C>, iv: &[u8]) -> Result<Self> {
        gcm.check_iv(iv)?;
        Ok(Core {
            gcm,
            y0: gcm.y0(iv, None),
            hash: Hasher::default(),
            ctr: Ctr::new(),
            aad_len: 0,
            text_len: 0,
            in_text: false,
        })
    }

    fn aad(&mut self, data: &[u8]) -> Result<()> {
        if self.in_text {
            return Err(Error::LimitReached {
                what: "additional data must come before the text",
            });
        }
        let n = self.aad_len + data.len() as u64;
        if n > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        self.aad_len = n;
        self.hash.update(&self.gcm.ghash, data);
        Ok(())
    }

    fn count_text(&mut self, n: usize) -> Result<()> {
        let total = self.text_len + n as u64;
        if total > MAX_PLAINTEXT_BYTES {
            return Err(Error::MessageTooLong {
                len: total,
                max: MAX_PLAINTEXT_BYTES,
            });
        }
        if !self.in_text {
            self.hash.pad(&self.gcm.ghash);
            self.in_text = true;
        }
        self.text_len = total;
        Ok(())
    }

    fn tag(&mut self) -> Tag {
        let g = self
            .hash
            .finish(&self.gcm.ghash, self.aad_len, self.text_len);
        self.gcm.make_tag(g ^ mask(self.gcm, &self.y0))
    }
}

/// On-line encryption: AAD pieces, then text pieces, then the tag.
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let mut e = gcm.encryptor(&[0; 12])?;
/// e.aad(b"head")?;
/// let (mut a, mut b) = (*b"split ", *b"anywhere");
/// e.encrypt(&mut a)?;
/// e.encrypt(&mut b)?;
/// let sealed = [&a[..], &b, e.finish().as_bytes()].concat();
/// assert_eq!(sealed, gcm.seal(&[0; 12], b"head", b"split anywhere")?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Encryptor<'k, C: BlockCipher128> {
    core: Core<'k, C>,
}

impl<'k, C: BlockCipher128> Encryptor<'k, C> {
    /// Absorbs a piece of additional data (only before any text).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut e = gcm.encryptor(&[0; 12])?;
    /// e.aad(b"he")?;
    /// e.aad(b"ad")?;
    /// let tag = e.finish();
    /// assert_eq!(tag.as_bytes(), gcm.seal(&[0; 12], b"head", b"")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aad(&mut self, data: &[u8]) -> Result<()> {
        self.core.aad(data)
    }

    /// Encrypts a piece of plaintext in place (any length).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut e = gcm.encryptor(&[0; 12])?;
    /// let mut buf = *b"text";
    /// e.encrypt(&mut buf)?;
    /// assert!(e.aad(b"too late").is_err()); // AAD comes first
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn encrypt(&mut self, buf: &mut [u8]) -> Result<()> {
        self.core.count_text(buf.len())?;
        let c = &mut self.core;
        c.ctr.xor(c.gcm, &c.y0, buf);
        c.hash.update(&c.gcm.ghash, buf);
        Ok(())
    }

    /// The tag over everything given.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let tag = gcm.encryptor(&[0; 12])?.finish();
    /// assert_eq!(tag, gcm.seal_in_place_detached(&[0; 12], b"", &mut [])?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish(mut self) -> Tag {
        self.core.tag()
    }
}

/// On-line decryption that releases nothing before the tag verifies: it
/// keeps the ciphertext and decrypts it in [`Decryptor::finish`].
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let sealed = gcm.seal(&[0; 12], b"", b"in pieces")?;
/// let (ct, tag) = sealed.split_at(9);
/// let mut d = gcm.decryptor(&[0; 12])?;
/// d.update(&ct[..4])?;
/// d.update(&ct[4..])?;
/// assert_eq!(d.finish(tag)?, b"in pieces");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Decryptor<'k, C: BlockCipher128> {
    core: Core<'k, C>,
    ct: Vec<u8>,
}

impl<'k, C: BlockCipher128> Decryptor<'k, C> {
    /// Absorbs a piece of additional data (only before any ciphertext).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let sealed = gcm.seal(&[0; 12], b"header", b"")?;
    /// let mut d = gcm.decryptor(&[0; 12])?;
    /// d.aad(b"head")?;
    /// d.aad(b"er")?;
    /// assert_eq!(d.finish(&sealed)?, b"");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aad(&mut self, data: &[u8]) -> Result<()> {
        self.core.aad(data)
    }

    /// Takes a piece of ciphertext (kept until the tag is checked).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let sealed = gcm.seal(&[0; 12], b"", b"xyz")?;
    /// let mut d = gcm.decryptor(&[0; 12])?;
    /// for byte in &sealed[..3] {
    ///     d.update(std::slice::from_ref(byte))?;
    /// }
    /// assert_eq!(d.finish(&sealed[3..])?, b"xyz");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update(&mut self, ct_: &[u8]) -> Result<()> {
        self.core.count_text(ct_.len())?;
        self.core.hash.update(&self.core.gcm.ghash, ct_);
        self.ct.extend_from_slice(ct_);
        Ok(())
    }

    /// Verifies `tag` in constant time; returns the plaintext only if it
    /// verifies (the kept ciphertext is wiped either way).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut sealed = gcm.seal(&[0; 12], b"", b"xyz")?;
    /// sealed[0] ^= 1;
    /// let mut d = gcm.decryptor(&[0; 12])?;
    /// d.update(&sealed[..3])?;
    /// assert_eq!(d.finish(&sealed[3..]), Err(galois_aead::Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish(mut self, tag: &[u8]) -> Result<Vec<u8>> {
        let mut ct_ = core::mem::take(&mut self.ct);
        if tag.len() != self.core.gcm.tag_len() {
            ct::wipe(&mut ct_);
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let want = self.core.tag();
        if !ct::eq(want.as_bytes(), tag) {
            ct::wipe(&mut ct_);
            return Err(Error::AuthenticationFailed);
        }
        self.core.gcm.ctr_xor(&self.core.y0, 1, &mut ct_);
        Ok(ct_)
    }
}

impl<C: BlockCipher128> Drop for Decryptor<'_, C> {
    fn drop(&mut self) {
        ct::wipe(&mut self.ct);
    }
}

/// On-line decryption that releases plaintext **before** it is verified.
/// See the module docs: treat all output as untrusted until
/// [`UnverifiedDecryptor::finish`] returns `Ok`, and discard it otherwise.
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let mut sealed = gcm.seal(&[0; 12], b"", b"untrusted")?;
/// let (ct, tag) = sealed.split_at_mut(9);
/// let mut d = gcm.unverified_decryptor(&[0; 12])?;
/// d.decrypt_unverified(ct)?; // plaintext out, not yet authentic
/// d.finish(tag)?; // now it is
/// assert_eq!(ct, b"untrusted");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct UnverifiedDecryptor<'k, C: BlockCipher128> {
    core: Core<'k, C>,
}

impl<'k, C: BlockCipher128> UnverifiedDecryptor<'k, C> {
    /// Absorbs a piece of additional data (only before any ciphertext).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let sealed = gcm.seal(&[0; 12], b"aad", b"")?;
    /// let mut d = gcm.unverified_decryptor(&[0; 12])?;
    /// d.aad(b"aad")?;
    /// d.finish(&sealed)?;
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aad(&mut self, data: &[u8]) -> Result<()> {
        self.core.aad(data)
    }

    /// Decrypts a piece of ciphertext in place, UNVERIFIED.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut sealed = gcm.seal(&[0; 12], b"", b"abcdef")?;
    /// let mut d = gcm.unverified_decryptor(&[0; 12])?;
    /// d.decrypt_unverified(&mut sealed[..2])?;
    /// d.decrypt_unverified(&mut sealed[2..6])?;
    /// assert_eq!(&sealed[..6], b"abcdef");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn decrypt_unverified(&mut self, buf: &mut [u8]) -> Result<()> {
        self.core.count_text(buf.len())?;
        let c = &mut self.core;
        c.hash.update(&c.gcm.ghash, buf);
        c.ctr.xor(c.gcm, &c.y0, buf);
        Ok(())
    }

    /// Whether everything released was authentic: `Ok` only if `tag`
    /// verifies (constant-time comparison).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut sealed = gcm.seal(&[0; 12], b"", b"abc")?;
    /// sealed[4] ^= 1; // a tag byte
    /// let mut d = gcm.unverified_decryptor(&[0; 12])?;
    /// d.decrypt_unverified(&mut sealed[..3])?;
    /// assert_eq!(d.finish(&sealed[3..]), Err(galois_aead::Error::AuthenticationFailed)); // discard the output
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish(mut self, tag: &[u8]) -> Result<()> {
        if tag.len() != self.core.gcm.tag_len() {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let want = self.core.tag();
        if ct::eq(want.as_bytes(), tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

impl<C: BlockCipher128> Gcm<C> {
    /// Starts an on-line encryption under `iv` (checked as for `seal`).
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut buf = *b"data";
    /// let mut e = gcm.encryptor(&[0; 12])?;
    /// e.encrypt(&mut buf)?;
    /// let tag = e.finish();
    /// gcm.open_in_place_detached(&[0; 12], b"", &mut buf, tag.as_bytes())?;
    /// assert_eq!(&buf, b"data");
    /// assert!(gcm.encryptor(&[]).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn encryptor(&self, iv: &[u8]) -> Result<Encryptor<'_, C>> {
        Ok(Encryptor {
            core: Core::new(self, iv)?,
        })
    }

    /// Starts an on-line decryption that buffers the ciphertext and
    /// releases plaintext only after the tag verifies.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let sealed = gcm.seal(&[0; 12], b"", b"data")?;
    /// let mut d = gcm.decryptor(&[0; 12])?;
    /// d.update(&sealed[..4])?;
    /// assert_eq!(d.finish(&sealed[4..])?, b"data");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn decryptor(&self, iv: &[u8]) -> Result<Decryptor<'_, C>> {
        Ok(Decryptor {
            core: Core::new(self, iv)?,
            ct: Vec::new(),
        })
    }

    /// Starts an on-line decryption that releases plaintext before it is
    /// verified. Read the module docs before using it.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
    /// let mut sealed = gcm.seal(&[0; 12], b"", b"data")?;
    /// let mut d = gcm.unverified_decryptor(&[0; 12])?;
    /// d.decrypt_unverified(&mut sealed[..4])?;
    /// d.finish(&sealed[4..])?;
    /// assert_eq!(&sealed[..4], b"data");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn unverified_decryptor(&self, iv: &[u8]) -> Result<UnverifiedDecryptor<'_, C>> {
        Ok(UnverifiedDecryptor {
            core: Core::new(self, iv)?,
        })
    }
}
