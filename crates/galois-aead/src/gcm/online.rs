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

use super::kernels::KernelMsg;
use super::{Gcm, Tag, MAX_AAD_BYTES, MAX_PLAINTEXT_BYTES};
use crate::block::{Block, BlockCipher128};
use crate::ct;
use crate::error::{Error, Result};
use zeroize::Zeroize;

/// The GHASH accumulator (with its partial block) that on-line GCM,
/// precomputation and streams save and resume.
pub(crate) use crate::gf128::Acc as Hasher;

/// Counter-mode keystream over any split: a partial block is kept. A
/// clone continues independently; both wipe their keystream on drop.
#[derive(Default, Clone, zeroize::ZeroizeOnDrop)]
pub(crate) struct Ctr {
    /// Index of the next counter block to compute (1 = Y1).
    next: u32,
    ks: Block,
    /// Bytes of `ks` already used (16: none left).
    used: usize,
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

/// Absorbs `data` into `acc` keeping the last block (whole or partial) in
/// its buffer, unmultiplied: with a full buffer, the GHASH state is
/// `(acc.y ^ buf) * H`, so `acc.y ^ buf` is a block whose product by H is
/// the state. That is what a stitched kernel call can resume from (see
/// [`Core::kernel`]); [`Hasher::finish`] absorbs the kept block.
fn absorb_lagging(acc: &mut Hasher, key: &crate::gf128::GhashKey, mut data: &[u8]) {
    if data.is_empty() {
        return;
    }
    if acc.buf_len < 16 {
        let take = (16 - acc.buf_len).min(data.len());
        acc.buf[acc.buf_len..acc.buf_len + take].copy_from_slice(&data[..take]);
        acc.buf_len += take;
        data = &data[take..];
        if data.is_empty() {
            return;
        }
    }
    // The buffer is full and more follows: absorb it, and all but the
    // last block of `data`.
    acc.y = key.update_blocks(acc.y, &acc.buf);
    let keep = match data.len() % 16 {
        0 => 16,
        r => r,
    };
    let whole = data.len() - keep;
    if whole > 0 {
        acc.y = key.update_blocks(acc.y, &data[..whole]);
    }
    acc.buf[..keep].copy_from_slice(&data[whole..]);
    acc.buf_len = keep;
}

/// Whole-block runs of at least this many blocks go through the stitched
/// kernel (two of them outside it, see [`Core::kernel`]).
const KERNEL_MIN_BLOCKS: usize = 6;

/// The state shared by the three forms: IV setup, AAD, lengths. A clone
/// continues independently (counter, GHASH state, partial blocks,
/// lengths); every copy wipes itself on drop.
struct Core<'k, C: BlockCipher128> {
    gcm: &'k Gcm<C>,
    y0: Block,
    /// Whether Y0 is IV || 1 from a 96-bit IV (public), not GHASH(H, IV).
    y0_public: bool,
    /// AAD, then text, absorbed with [`absorb_lagging`].
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
            y0_public: iv.len() == 12,
            hash: Hasher::default(),
            ctr: Ctr::new(),
            aad_len: 0,
            text_len: 0,
            in_text: false,
        })
    }

    /// This state on `gcm`, which must hold the same key and tag length
    /// (checked: the same E(K, Y0) under both, compared in constant time).
    fn clone_for<'j>(&self, gcm: &'j Gcm<C>) -> Result<Core<'j, C>> {
        let (a, b) = (mask(self.gcm, &self.y0), mask(gcm, &self.y0));
        let same = ct::eq(&a.to_be_bytes(), &b.to_be_bytes());
        if !same || gcm.tag_len() != self.gcm.tag_len() {
            return Err(Error::InvalidKey {
                reason: "the on-line state belongs to another key or tag length",
            });
        }
        Ok(self.copy_on(gcm))
    }

    /// This state on `gcm`, unchecked: the same key object, or one
    /// `clone_for` checked.
    fn copy_on<'j>(&self, gcm: &'j Gcm<C>) -> Core<'j, C> {
        Core {
            gcm,
            y0: self.y0,
            y0_public: self.y0_public,
            hash: self.hash.clone(),
            ctr: self.ctr.clone(),
            aad_len: self.aad_len,
            text_len: self.text_len,
            in_text: self.in_text,
        }
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
        absorb_lagging(&mut self.hash, &self.gcm.ghash, data);
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
            // Pad the AAD's last block and keep it (see `absorb_lagging`).
            let h = &mut self.hash;
            if h.buf_len > 0 {
                h.buf[h.buf_len..].fill(0);
                h.buf_len = 16;
            }
            self.in_text = true;
        }
        self.text_len = total;
        Ok(())
    }

    /// Encrypts (`SEAL`) or decrypts `buf` in place and hashes its
    /// ciphertext, after `count_text`.
    fn text<const SEAL: bool>(&mut self, buf: &mut [u8]) {
        // Up to the next block boundary, whole blocks, the rest.
        let head = ((16 - self.ctr.used) % 16).min(buf.len());
        let (head, body) = buf.split_at_mut(head);
        let whole = body.len() & !15;
        let (body, rest) = body.split_at_mut(whole);
        for part in [head, body, rest] {
            if part.is_empty() {
                continue;
            }
            if part.len() >= 16 * KERNEL_MIN_BLOCKS && self.kernel::<SEAL>(part) {
                continue;
            }
            if !SEAL {
                absorb_lagging(&mut self.hash, &self.gcm.ghash, part);
            }
            self.ctr.xor(self.gcm, &self.y0, part);
            if SEAL {
                absorb_lagging(&mut self.hash, &self.gcm.ghash, part);
            }
        }
    }

    /// Runs whole blocks `data` (at least 3, starting on a block boundary
    /// of the text) through the stitched kernel, if the key has one.
    ///
    /// With the GHASH state `z * H` (`z`: see [`absorb_lagging`]) and
    /// blocks C1..Cn, the kernel encrypts and hashes C1..C(n-2) with `z`
    /// as a one-block AAD, under counters from this message's next one: it
    /// returns `(Y(n-2) ^ L) * H ^ E(K, Y0')`, where Y(n-2) is the state
    /// after C(n-2), L its length block and Y0' the counter before the first
    /// one. So `Y(n-2) * H` follows without a division by H, then
    /// `Y(n-1) = Y(n-2) * H ^ C(n-1) * H`, and `Cn` is kept unmultiplied.
    /// The last two blocks' keystream and E(K, Y0') are one AES call.
    fn kernel<const SEAL: bool>(&mut self, data: &mut [u8]) -> bool {
        let n = data.len() / 16;
        debug_assert!(n >= 3 && data.len().is_multiple_of(16) && self.ctr.used == 16);
        let gcm = self.gcm;
        let Some((k, rk)) = gcm.stitched(16 * (n - 2)) else {
            return false;
        };
        let h = &mut self.hash;
        let z = match h.buf_len {
            16 => h.y ^ u128::from_be_bytes(h.buf),
            // Nothing absorbed yet: the state is 0 = 0 * H.
            _ => 0,
        };
        let base = u32::from_be_bytes([self.y0[12], self.y0[13], self.y0[14], self.y0[15]]);
        let first = base.wrapping_add(self.ctr.next);
        let mut blocks = [self.y0; 3];
        // Y0' (the counter before the first block's), then the last two
        // blocks' counters.
        let counters = [
            first.wrapping_sub(1),
            first.wrapping_add(n as u32 - 2),
            first.wrapping_add(n as u32 - 1),
        ];
        for (b, c) in blocks.iter_mut().zip(counters) {
            b[12..].copy_from_slice(&c.to_be_bytes());
        }
        let mut z_bytes = z.to_be_bytes();
        let (front, last2) = data.split_at_mut(16 * (n - 2));
        let mut held = [0u8; 32];
        if !SEAL {
            held.copy_from_slice(last2);
        }
        let r = if SEAL {
            k.seal(
                rk,
                KernelMsg::new(&blocks[0], self.y0_public, &z_bytes, None, front),
            )
        } else {
            k.open(
                rk,
                KernelMsg::new(&blocks[0], self.y0_public, &z_bytes, None, front),
            )
        };
        gcm.cipher.encrypt_blocks(&mut blocks);
        for (d, k) in last2.iter_mut().zip(blocks[1..].iter().flatten()) {
            *d ^= k;
        }
        if SEAL {
            held.copy_from_slice(last2);
        }
        let lens = (128u128 << 64) | (128 * (n as u128 - 2));
        let c1 = u128::from_be_bytes(held[..16].try_into().expect("16 bytes"));
        let ek = u128::from_be_bytes(blocks[0]);
        h.y = r ^ ek ^ gcm.ghash.mul_h(lens ^ c1);
        h.buf.copy_from_slice(&held[16..]);
        h.buf_len = 16;
        self.ctr.next = self.ctr.next.wrapping_add(n as u32);
        blocks.zeroize();
        held.zeroize();
        z_bytes.zeroize();
        true
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
        self.core.text::<true>(buf);
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

/// A copy of the running state (counter, GHASH state, partial blocks,
/// lengths): the two continue independently, and each wipes itself on
/// drop. Finishing both with different text is fine (one IV, one
/// keystream: only ever give the copies the same text, or discard one,
/// since two different texts under one IV reveal their XOR and let the
/// hash key be recovered).
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let mut e = gcm.encryptor(&[0; 12])?;
/// let mut a = *b"common ";
/// e.encrypt(&mut a)?;
/// let mut f = e.clone();
/// let (mut b, mut c) = (*b"ending", *b"ending");
/// e.encrypt(&mut b)?;
/// f.encrypt(&mut c)?;
/// assert_eq!((b, e.finish()), (c, f.finish()));
/// # Ok::<(), galois_aead::Error>(())
/// ```
impl<C: BlockCipher128> Clone for Encryptor<'_, C> {
    fn clone(&self) -> Self {
        Encryptor {
            core: self.core.copy_on(self.core.gcm),
        }
    }
}

impl<'k, C: BlockCipher128> Encryptor<'k, C> {
    /// A copy of this state that continues on `gcm`, another key object
    /// with the same key and tag length (for example one made from the
    /// same key bytes), as [`Clone`] does on this one. Another key or tag
    /// length is refused with [`Error::InvalidKey`].
    ///
    /// ```
    /// let key = [1u8; 16];
    /// let (gcm, other) = (galois_aead::AesGcm::new(&key)?, galois_aead::AesGcm::new(&key)?);
    /// let mut e = gcm.encryptor(&[0; 12])?;
    /// let mut a = *b"one";
    /// e.encrypt(&mut a)?;
    /// let third = galois_aead::AesGcm::new(&[2u8; 16])?;
    /// assert!(e.clone_for(&third).is_err());
    /// let f = e.clone_for(&other)?;
    /// assert_eq!(f.finish(), e.finish());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn clone_for<'j>(&self, gcm: &'j Gcm<C>) -> Result<Encryptor<'j, C>> {
        Ok(Encryptor {
            core: self.core.clone_for(gcm)?,
        })
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
        absorb_lagging(&mut self.core.hash, &self.core.gcm.ghash, ct_);
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
        let (gcm, y0) = (self.core.gcm, &self.core.y0);
        match gcm.stitched(ct_.len()) {
            // The stitched kernel is also the fastest counter mode (its
            // hash of the verified ciphertext is not needed).
            Some((k, rk)) => {
                k.open(
                    rk,
                    KernelMsg::new(y0, self.core.y0_public, &[], None, &mut ct_),
                );
            }
            None => gcm.ctr_xor(y0, 1, &mut ct_),
        }
        Ok(ct_)
    }
}

/// A copy of the running state, the kept ciphertext included: the two
/// continue independently, and each wipes itself on drop.
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let sealed = gcm.seal(&[0; 12], b"", b"abcdef")?;
/// let mut d = gcm.decryptor(&[0; 12])?;
/// d.update(&sealed[..2])?;
/// let mut e = d.clone();
/// d.update(&sealed[2..6])?;
/// e.update(&sealed[2..6])?;
/// assert_eq!(d.finish(&sealed[6..])?, e.finish(&sealed[6..])?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
impl<C: BlockCipher128> Clone for Decryptor<'_, C> {
    fn clone(&self) -> Self {
        Decryptor {
            core: self.core.copy_on(self.core.gcm),
            ct: self.ct.clone(),
        }
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
        self.core.text::<false>(buf);
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

/// A copy of the running state (counter, GHASH state, partial blocks,
/// lengths): the two continue independently, and each wipes itself on
/// drop.
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[1u8; 16])?;
/// let sealed = gcm.seal(&[0; 12], b"", b"abcdef")?;
/// let mut d = gcm.unverified_decryptor(&[0; 12])?;
/// let mut a = [sealed[0]];
/// d.decrypt_unverified(&mut a)?;
/// let mut e = d.clone();
/// let (mut b, mut c) = ([0u8; 5], [0u8; 5]);
/// b.copy_from_slice(&sealed[1..6]);
/// c.copy_from_slice(&sealed[1..6]);
/// d.decrypt_unverified(&mut b)?;
/// e.decrypt_unverified(&mut c)?;
/// d.finish(&sealed[6..])?;
/// e.finish(&sealed[6..])?;
/// assert_eq!((&a, &b, &c), (b"a", b"bcdef", b"bcdef"));
/// # Ok::<(), galois_aead::Error>(())
/// ```
impl<C: BlockCipher128> Clone for UnverifiedDecryptor<'_, C> {
    fn clone(&self) -> Self {
        UnverifiedDecryptor {
            core: self.core.copy_on(self.core.gcm),
        }
    }
}

impl<'k, C: BlockCipher128> UnverifiedDecryptor<'k, C> {
    /// A copy of this state that continues on `gcm`, another key object
    /// with the same key and tag length, as [`Clone`] does on this one.
    /// Another key or tag length is refused with [`Error::InvalidKey`].
    ///
    /// ```
    /// let key = [1u8; 16];
    /// let (gcm, other) = (galois_aead::AesGcm::new(&key)?, galois_aead::AesGcm::new(&key)?);
    /// let mut sealed = gcm.seal(&[0; 12], b"", b"abc")?;
    /// let mut d = gcm.unverified_decryptor(&[0; 12])?;
    /// d.decrypt_unverified(&mut sealed[..1])?;
    /// let mut e = d.clone_for(&other)?;
    /// e.decrypt_unverified(&mut sealed[1..3])?;
    /// e.finish(&sealed[3..])?;
    /// assert_eq!(&sealed[..3], b"abc");
    /// let third = galois_aead::AesGcm::new(&[2u8; 16])?;
    /// assert!(d.clone_for(&third).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn clone_for<'j>(&self, gcm: &'j Gcm<C>) -> Result<UnverifiedDecryptor<'j, C>> {
        Ok(UnverifiedDecryptor {
            core: self.core.clone_for(gcm)?,
        })
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
