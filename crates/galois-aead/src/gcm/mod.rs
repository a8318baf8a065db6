//! GCM and its parameters, exactly as the GCM specification (McGrew and Viega), section 2 defines them.
//!
//! Encryption (equation (1)): H = E(K, 0^128); Y0 = IV || 0^31 1 for a
//! 96-bit IV, else GHASH(H, {}, IV); Y_i = incr(Y_{i-1}), where incr counts
//! modulo 2^32 in the rightmost 32 bits only; C_i = P_i xor E(K, Y_i);
//! T = MSB_t(GHASH(H, A, C) xor E(K, Y0)). GHASH (equation (2)) absorbs A
//! and C, each zero-padded to whole blocks, then len(A) || len(C) in bits.
//!
//! Decryption hashes the ciphertext first and releases nothing unless the
//! tag verifies (compared in constant time); on failure the output buffer is
//! wiped and one opaque error returned.

use crate::aead::sealed::Core;
use crate::aes::{Aes, AesBackend};
use crate::block::{Block, BlockCipher128};
use crate::ct;
use crate::error::{Error, Result};
use crate::gf128::{Acc, GhashBackend, GhashKey};
use kernels::KernelMsg;
use zeroize::Zeroize;

pub use crate::aead::{Options, ShortTag, Tag};

pub(crate) mod kernels;
pub mod online;
pub mod precompute;

/// Longest plaintext GCM allows: 2^39 - 256 bits, that is 2^32 - 2 blocks,
/// so the 32-bit counter never comes back to Y0.
pub const MAX_PLAINTEXT_BYTES: u64 = (1 << 36) - 32;
/// Longest additional data: len(A) must fit the 64-bit length field.
pub const MAX_AAD_BYTES: u64 = (1 << 61) - 1;
/// Longest IV: len(IV) must fit the 64-bit length field.
pub const MAX_IV_BYTES: u64 = (1 << 61) - 1;

/// GCM over any 128-bit block cipher: a key object with H prepared for one
/// GHASH backend and a fixed tag length. H and the cipher key are wiped on
/// drop.
///
/// ```
/// use galois_aead::{Aes, AesBackend, Gcm, Options};
/// let aes = Aes::with_backend(&[3u8; 32], AesBackend::Portable)?;
/// let gcm = Gcm::from_cipher(aes, Options::new())?;
/// let sealed = gcm.seal(&[1; 12], b"", b"msg")?;
/// assert_eq!(gcm.open(&[1; 12], b"", &sealed)?, b"msg");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Gcm<C: BlockCipher128> {
    pub(crate) cipher: C,
    pub(crate) ghash: GhashKey,
    /// Tells which key a precomputed state belongs to: unique per key
    /// object in this process, and independent of the key's value.
    pub(crate) key_id: u64,
    h_is_zero: bool,
    tag_len: u8,
    permissive: bool,
}

/// AES-GCM with AES-128, -192 or -256 by key length.
pub type AesGcm = Gcm<Aes>;

impl<C: BlockCipher128> Drop for Gcm<C> {
    fn drop(&mut self) {
        self.ghash.zeroize();
    }
}

/// The cipher wipes itself (every cipher of this crate does; a caller's own
/// cipher is its own business) and `Drop` wipes the GHASH key.
impl zeroize::ZeroizeOnDrop for AesGcm {}

/// The one refusal of a key whose hash key is zero ("The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 5):
/// key setup with [`Options::refuse_zero_h`] and the MACs that divide by H.
pub(crate) const ZERO_H: Error = Error::InvalidKey {
    reason: "the hash key H = E(K, 0) is zero",
};

/// A fresh key identifier: a process-wide random start plus a counter, so
/// identifiers never repeat within a process and carry nothing of any key.
fn new_key_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static START: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let start = *START.get_or_init(|| {
        let mut b = [0u8; 8];
        // A failed draw leaves 0: identifiers stay unique, only guessable.
        let _ = getrandom::fill(&mut b);
        u64::from_le_bytes(b)
    });
    start.wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Packets shorter than this share AES batches in [`Gcm::seal_batch`].
const BATCH_SHORT: usize = 256;

/// One packet of a batch for [`Gcm::seal_batch`]: a 12-byte nonce (used
/// once), additional data, and the data encrypted in place.
///
/// ```
/// use galois_aead::{AesGcm, BatchPacket};
/// let gcm = AesGcm::new(&[1u8; 16])?;
/// let mut data = *b"payload";
/// let mut batch = [BatchPacket::new([9; 12], b"", &mut data)];
/// gcm.seal_batch(&mut batch)?;
/// let sealed = [batch[0].data(), batch[0].tag().unwrap().as_bytes()].concat();
/// assert_eq!(sealed, gcm.seal(&[9; 12], b"", b"payload")?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct BatchPacket<'a> {
    pub(crate) nonce: [u8; 12],
    pub(crate) aad: &'a [u8],
    pub(crate) data: &'a mut [u8],
    tag: Option<Tag>,
}

impl<'a> BatchPacket<'a> {
    /// A packet to seal in place.
    ///
    /// ```
    /// let mut data = [0u8; 3];
    /// let p = galois_aead::BatchPacket::new([0; 12], b"aad", &mut data);
    /// assert!(p.tag().is_none());
    /// ```
    pub fn new(nonce: [u8; 12], aad: &'a [u8], data: &'a mut [u8]) -> Self {
        BatchPacket {
            nonce,
            aad,
            data,
            tag: None,
        }
    }

    /// The tag, once the batch is sealed.
    ///
    /// ```
    /// use galois_aead::{AesGcm, BatchPacket};
    /// let gcm = AesGcm::new(&[1u8; 16])?;
    /// let mut batch = [BatchPacket::new([2; 12], b"", &mut [])];
    /// gcm.seal_batch(&mut batch)?;
    /// assert_eq!(batch[0].tag(), Some(gcm.seal_in_place_detached(&[2; 12], b"", &mut [])?));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn tag(&self) -> Option<Tag> {
        self.tag
    }

    /// The (encrypted, once sealed) data.
    ///
    /// ```
    /// use galois_aead::{AesGcm, BatchPacket};
    /// let mut data = *b"plain";
    /// let mut batch = [BatchPacket::new([2; 12], b"", &mut data)];
    /// AesGcm::new(&[1u8; 16])?.seal_batch(&mut batch)?;
    /// assert_ne!(batch[0].data(), b"plain");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn data(&self) -> &[u8] {
        self.data
    }
}

/// Values of equation (1) and (2) for one message, for step-by-step checks
/// against the spec's test cases.
///
/// ```
/// let gcm = galois_aead::AesGcm::new(&[0u8; 16])?;
/// let i = gcm.intermediates(&[0; 12], b"", b"")?;
/// // Test case 1 of the GCM specification: H and Y0.
/// assert_eq!(i.h[..4], [0x66, 0xe9, 0x4b, 0xd4]);
/// assert_eq!(i.y0, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Zeroize, zeroize::ZeroizeOnDrop)]
pub struct Intermediates {
    /// H = E(K, 0^128).
    pub h: Block,
    /// N_1..N_k: the accumulator after each block of the IV's GHASH
    /// (non-96-bit IVs only; Y0 follows from the length block).
    pub iv_ghash: Vec<Block>,
    /// Y0.
    pub y0: Block,
    /// E(K, Y0).
    pub e_k_y0: Block,
    /// X_1 .. X_{m+n+1} of equation (2); the last is GHASH(H, A, C).
    pub x: Vec<Block>,
    /// len(A) || len(C).
    pub len_block: Block,
}

impl AesGcm {
    crate::aead::aead_init_methods!("galois_aead::AesGcm", "[7u8; 16]");

    /// The AES backend in use.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[0u8; 16])?;
    /// assert_eq!(gcm.aes_backend(), galois_aead::AesBackend::auto());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aes_backend(&self) -> AesBackend {
        self.cipher.backend()
    }
}

/// Blocks of keystream computed per call to the block cipher.
const CTR_BATCH: usize = 8;

/// Y0 of a 96-bit IV: IV || 0^31 1, built in a register. (Written byte by
/// byte, as an array, the kernels' first whole-block load of it waited for
/// the stores to retire, since store forwarding fails across several
/// stores: ~6 ns per message.)
#[inline(always)]
pub(crate) fn y0_96(iv: &[u8; 12]) -> Block {
    let [a, b, c, d, e, f, g, h, i, j, k, l] = *iv;
    let lo = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
    let hi = u64::from_le_bytes([i, j, k, l, 0, 0, 0, 1]);
    ((u128::from(hi) << 64) | u128::from(lo)).to_le_bytes()
}
impl<C: BlockCipher128> crate::Aead for Gcm<C> {
    const NAME: &'static str = "aes-gcm";
    const NONCE_LEN: usize = 12;
}

impl crate::AeadInit for AesGcm {
    const KEY_LENS: &'static [usize] = &[16, 24, 32];

    fn with_options(key: &[u8], opts: Options) -> Result<Self> {
        Gcm::from_cipher(opts.aes_key(key)?, opts)
    }

    fn for_formats(key: &[u8]) -> Result<Self> {
        Self::with_options(key, Options::new().refuse_zero_h())
    }
}

crate::aead::aead_core! {
    impl[C: BlockCipher128] for Gcm<C>;
    check_lens = Self::check_lengths;
    // Seals `src || buf[src.len()..]` (`src` no longer than `buf`) into
    // `buf`, or `buf` in place.
    fn seal_core(self, iv, aad, src, buf) {
        let y0 = self.y0(iv, None);
        if let Some((k, rk)) = self.stitched(buf.len()) {
            let t = k.seal(rk, KernelMsg::new(&y0, iv.len() == 12, aad, src, buf));
            return Ok(self.make_tag(t));
        }
        if let Some(s) = src {
            buf[..s.len()].copy_from_slice(s);
        }
        self.ctr_xor(&y0, 1, buf);
        Ok(self.make_tag(self.tag_for(&y0, aad, buf)))
    }
    fn open_core(self, iv, aad, src, buf, tag) {
        let y0 = self.y0(iv, None);
        if let Some((k, rk)) = self.stitched(buf.len()) {
            // One pass: decrypt while hashing; the caller releases `buf`
            // only if the tag verifies.
            let t = k.open(rk, KernelMsg::new(&y0, iv.len() == 12, aad, src, buf));
            return Ok(ct::eq(self.make_tag(t).as_bytes(), tag));
        }
        let expected = self.make_tag(self.tag_for(&y0, aad, src.unwrap_or(buf)));
        if !ct::eq(expected.as_bytes(), tag) {
            return Ok(false);
        }
        if let Some(s) = src {
            buf.copy_from_slice(s);
        }
        self.ctr_xor(&y0, 1, buf);
        Ok(true)
    }
    fn tag_bytes(&self) -> usize {
        self.tag_len as usize
    }
    fn check_nonce(&self, iv: &[u8]) -> Result<()> {
        self.check_iv(iv)
    }
}

impl<C: BlockCipher128> Gcm<C> {
    crate::aead::aead_methods!("galois_aead::AesGcm", "[7u8; 16]", "[1u8; 12]");

    /// GCM over `cipher`, set up as `opts` says (its AES choice is ignored).
    ///
    /// ```
    /// use galois_aead::{Aes, AesGcm, Gcm, Options};
    /// let gcm = Gcm::from_cipher(Aes::new(&[4u8; 24])?, Options::new().tag_len(12)?)?;
    /// let other = galois_aead::Options::new().tag_len(12).and_then(|o| AesGcm::with_options(&[4u8; 24], o))?;
    /// assert_eq!(gcm.seal(&[0; 12], b"", b"m")?, other.seal(&[0; 12], b"", b"m")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn from_cipher(cipher: C, opts: Options) -> Result<Self> {
        let mut h = [0u8; 16];
        cipher.encrypt_block(&mut h);
        let mut hv = u128::from_be_bytes(h);
        h.zeroize();
        // With refuse_zero_h, whether H is zero is public by design.
        if opts.refuse_zero_h && ct::declassify(hv == 0) {
            return Err(ZERO_H);
        }
        let backend = opts
            .backend
            .unwrap_or_else(crate::gf128::GhashBackend::auto);
        let ghash = GhashKey::new(hv, backend);
        let h_is_zero = hv == 0;
        hv.zeroize();
        Ok(Gcm {
            cipher,
            ghash: ghash?,
            key_id: new_key_id(),
            h_is_zero,
            tag_len: opts.tag_len,
            permissive: opts.permissive,
        })
    }

    /// The GHASH backend in use.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[0u8; 16])?;
    /// assert!(gcm.backend().is_constant_time());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> GhashBackend {
        self.ghash.backend()
    }

    /// True if H = E(K, 0) is zero: GHASH then ignores the data and every
    /// tag is E(K, Y0). It happens with probability 2^-128 for a real
    /// cipher ("The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 5); callers may refuse such keys.
    ///
    /// ```
    /// assert!(!galois_aead::AesGcm::new(&[0u8; 16])?.h_is_zero());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn h_is_zero(&self) -> bool {
        // Public by design: callers refuse such keys.
        ct::declassify(self.h_is_zero)
    }

    /// The underlying block cipher.
    ///
    /// ```
    /// use galois_aead::BlockCipher128;
    /// let gcm = galois_aead::AesGcm::new(&[0u8; 16])?;
    /// assert_eq!(gcm.cipher().key_len(), 16);
    /// assert!(gcm.cipher().name().starts_with("aes-128"));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    pub(crate) fn check_iv(&self, iv: &[u8]) -> Result<()> {
        if iv.is_empty() || iv.len() as u64 > MAX_IV_BYTES {
            return Err(Error::InvalidIvLength { got: iv.len() });
        }
        if self.tag_len < 16 && !self.permissive && iv.len() != 12 {
            return Err(Error::IvLengthNotAllowedWithShortTag {
                iv_len: iv.len(),
                tag_len: self.tag_len as usize,
            });
        }
        Ok(())
    }

    pub(crate) fn check_lengths(aad: &[u8], text_len: usize) -> Result<()> {
        if text_len as u64 > MAX_PLAINTEXT_BYTES {
            return Err(Error::MessageTooLong {
                len: text_len as u64,
                max: MAX_PLAINTEXT_BYTES,
            });
        }
        if aad.len() as u64 > MAX_AAD_BYTES {
            return Err(Error::AadTooLong);
        }
        Ok(())
    }

    /// Y0 from the IV (checked), recording the IV's GHASH steps if asked.
    pub(crate) fn y0(&self, iv: &[u8], mut steps: Option<&mut Vec<Block>>) -> Block {
        if let Ok(n) = <&[u8; 12]>::try_from(iv) {
            return y0_96(n);
        }
        let mut acc = Acc::default();
        for chunk in iv.chunks(16) {
            acc.update_padded(&self.ghash, chunk);
            if let Some(s) = steps.as_deref_mut() {
                s.push(acc.y().to_be_bytes());
            }
        }
        acc.absorb_block(&self.ghash, (iv.len() as u128) * 8);
        acc.y().to_be_bytes()
    }

    /// XORs the keystream E(K, Y_first), E(K, Y_first + 1), ... into data.
    /// `ctr` is Y0 with its low 32 bits counting modulo 2^32.
    pub(crate) fn ctr_xor(&self, y0: &Block, first: u32, data: &mut [u8]) {
        let base = u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]);
        let mut ctr = base.wrapping_add(first);
        let mut ks = [[0u8; 16]; CTR_BATCH];
        for chunk in data.chunks_mut(16 * CTR_BATCH) {
            let n = chunk.len().div_ceil(16);
            for b in ks[..n].iter_mut() {
                b[..12].copy_from_slice(&y0[..12]);
                b[12..].copy_from_slice(&ctr.to_be_bytes());
                ctr = ctr.wrapping_add(1);
            }
            self.cipher.encrypt_blocks(&mut ks[..n]);
            for (d, k) in chunk.iter_mut().zip(ks.iter().flatten()) {
                *d ^= k;
            }
        }
        ks.zeroize();
    }

    /// GHASH(H, A, C) xor E(K, Y0), full 16 bytes.
    pub(crate) fn tag_for(&self, y0: &Block, aad: &[u8], ct_: &[u8]) -> u128 {
        let mut acc = Acc::default();
        acc.update_padded(&self.ghash, aad);
        acc.update_padded(&self.ghash, ct_);
        let lens = ((aad.len() as u128 * 8) << 64) | (ct_.len() as u128 * 8);
        acc.absorb_block(&self.ghash, lens);
        let mut ek = *y0;
        self.cipher.encrypt_block(&mut ek);
        let t = acc.y() ^ u128::from_be_bytes(ek);
        ek.zeroize();
        acc.zeroize();
        t
    }

    /// The stitched kernel for a message of `len` bytes and the AES-NI
    /// round keys, where both exist.
    #[inline(always)]
    fn stitched(
        &self,
        len: usize,
    ) -> Option<(kernels::Kernel<'_>, &crate::block::round_keys::AesRoundKeys)> {
        let keys = self
            .cipher
            .aesni_round_keys(crate::block::sealed::Token(()))?;
        Some((kernels::Kernel::for_ghash(&self.ghash, len)?, keys))
    }

    pub(crate) fn make_tag(&self, t: u128) -> Tag {
        Tag::new(t.to_be_bytes(), self.tag_len)
    }

    /// Every check a seal or open makes of its arguments, before any work.
    fn check_message(&self, iv: &[u8], aad: &[u8], len: usize) -> Result<()> {
        self.check_iv(iv)?;
        Self::check_lengths(aad, len)
    }

    /// Seals the plaintext `head || buf[head.len()..]` into `buf` and
    /// returns the detached tag: the first `head.len()` bytes are read from
    /// `head` (out of place, as [`Gcm::seal_into`] reads its input), the
    /// rest in place. For a record layer whose plaintext is the caller's
    /// data followed by a few bytes of its own (TLS 1.3's content type):
    /// the record buffer is only sized, never filled with a copy of the
    /// data. A refused seal writes nothing.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[7u8; 16])?;
    /// let data = b"application data";
    /// let mut record = [0u8; 17];
    /// record[16] = 23; // the content type, after the data
    /// let tag = gcm.seal_split_detached(&[1; 12], b"hdr", data, &mut record)?;
    /// let mut whole = *b"application data\x17";
    /// assert_eq!(gcm.seal_in_place_detached(&[1; 12], b"hdr", &mut whole)?, tag);
    /// assert_eq!(record, whole);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal_split_detached(
        &self,
        iv: &[u8],
        aad: &[u8],
        head: &[u8],
        buf: &mut [u8],
    ) -> Result<Tag> {
        if head.len() > buf.len() {
            return Err(Error::BufferLength {
                expected: head.len(),
                got: buf.len(),
            });
        }
        self.check_message(iv, aad, buf.len())?;
        self.seal_core(iv, aad, Some(head), buf)
    }

    /// Seals many independent packets in one call (12-byte nonces, each
    /// used once). With a stitched kernel the AES work of all packets is
    /// interleaved, so short packets run near the long-message rate.
    /// Checks every packet before encrypting any: a bad length, or two
    /// packets with the same nonce ([`Error::IvReused`]), refuses the whole
    /// batch with every packet untouched. Nonces used in earlier calls are
    /// the caller's to keep unique.
    ///
    /// ```
    /// use galois_aead::{AesGcm, BatchPacket};
    /// let gcm = AesGcm::new(&[7u8; 16])?;
    /// let (mut a, mut b) = (*b"first packet", *b"second");
    /// let mut batch = [BatchPacket::new([1; 12], b"h1", &mut a), BatchPacket::new([2; 12], b"h2", &mut b)];
    /// gcm.seal_batch(&mut batch)?;
    /// let tag = batch[0].tag().unwrap();
    /// let sealed = [batch[0].data(), tag.as_bytes()].concat();
    /// assert_eq!(gcm.open(&[1; 12], b"h1", &sealed)?, b"first packet");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    ///
    /// ```
    /// use galois_aead::{AesGcm, BatchPacket, Error};
    /// let (mut a, mut b) = (*b"one", *b"two");
    /// let mut batch = [BatchPacket::new([1; 12], b"", &mut a), BatchPacket::new([1; 12], b"", &mut b)];
    /// assert_eq!(AesGcm::new(&[7u8; 16])?.seal_batch(&mut batch), Err(Error::IvReused));
    /// assert_eq!((batch[0].data(), batch[1].tag()), (&b"one"[..], None)); // nothing sealed
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal_batch(&self, packets: &mut [BatchPacket<'_>]) -> Result<()> {
        for p in packets.iter() {
            self.check_iv(&p.nonce)?;
            Self::check_lengths(p.aad, p.data.len())?;
        }
        // Two packets under one nonce would give away their keystream XOR
        // and the hash key: refuse the batch before anything is sealed.
        if packets.len() > 1 {
            let mut nonces: Vec<[u8; 12]> = packets.iter().map(|p| p.nonce).collect();
            nonces.sort_unstable();
            if nonces.windows(2).any(|w| w[0] == w[1]) {
                return Err(Error::IvReused);
            }
        }
        // The kernel with the powers the longest packet can use.
        let longest = packets.iter().map(|p| p.data.len()).max().unwrap_or(0);
        if let Some((k, rk)) = self.stitched(longest) {
            // Short packets gain from sharing AES batches; from a few hundred
            // bytes on, each packet fills the stitched kernel by itself.
            let short = packets
                .iter()
                .filter(|p| p.data.len() < BATCH_SHORT)
                .count();
            if short == packets.len() {
                let mut tags = vec![0u128; packets.len()];
                k.seal_batch(rk, packets, &mut tags);
                for (p, t) in packets.iter_mut().zip(tags) {
                    p.tag = Some(self.make_tag(t));
                }
                return Ok(());
            }
            if short > 1 {
                let (mut small, long): (Vec<_>, Vec<_>) =
                    packets.iter_mut().partition(|p| p.data.len() < BATCH_SHORT);
                let mut group: Vec<BatchPacket<'_>> = small
                    .iter_mut()
                    .map(|p| BatchPacket {
                        nonce: p.nonce,
                        aad: p.aad,
                        data: &mut *p.data,
                        tag: None,
                    })
                    .collect();
                let mut tags = vec![0u128; group.len()];
                k.seal_batch(rk, &mut group, &mut tags);
                drop(group);
                for (p, t) in small.iter_mut().zip(tags) {
                    p.tag = Some(self.make_tag(t));
                }
                for p in long {
                    let y0 = self.y0(&p.nonce, None);
                    p.tag = Some(
                        self.make_tag(k.seal(rk, KernelMsg::new(&y0, true, p.aad, None, p.data))),
                    );
                }
                return Ok(());
            }
        }
        for p in packets.iter_mut() {
            let nonce = p.nonce;
            p.tag = Some(self.seal_in_place_detached(&nonce, p.aad, p.data)?);
        }
        Ok(())
    }

    /// The values of equations (1) and (2) for (IV, A, C), for checking an
    /// implementation step by step against the spec. H and E(K, Y0) let
    /// anyone forge tags: feature `hazmat` only, which no binding enables.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[0u8; 16])?;
    /// let i = gcm.intermediates(&[0; 12], b"", &[0; 16])?;
    /// // Test case 2 of the GCM specification: one X per block, then the length block.
    /// assert_eq!(i.x.len(), 2);
    /// assert_eq!(i.len_block, 128u128.to_be_bytes());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    #[cfg(feature = "hazmat")]
    pub fn intermediates(&self, iv: &[u8], aad: &[u8], ct_: &[u8]) -> Result<Intermediates> {
        self.check_iv(iv)?;
        Self::check_lengths(aad, ct_.len())?;
        let mut h = [0u8; 16];
        self.cipher.encrypt_block(&mut h);
        let mut iv_ghash = Vec::new();
        let y0 = self.y0(iv, (iv.len() != 12).then_some(&mut iv_ghash));
        let mut e_k_y0 = y0;
        self.cipher.encrypt_block(&mut e_k_y0);
        let mut x = Vec::new();
        let mut acc = Acc::default();
        for part in [aad, ct_] {
            for chunk in part.chunks(16) {
                acc.update_padded(&self.ghash, chunk);
                x.push(acc.y().to_be_bytes());
            }
        }
        let lens = ((aad.len() as u128 * 8) << 64) | (ct_.len() as u128 * 8);
        acc.absorb_block(&self.ghash, lens);
        x.push(acc.y().to_be_bytes());
        Ok(Intermediates {
            h,
            iv_ghash,
            y0,
            e_k_y0,
            x,
            len_block: lens.to_be_bytes(),
        })
    }
}

/// The cipher's own `Debug`, the tag length and the GHASH backend, never
/// the key or H.
impl<C: BlockCipher128 + core::fmt::Debug> core::fmt::Debug for Gcm<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gcm")
            .field("cipher", &self.cipher)
            .field("tag_len", &self.tag_len)
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stitched kernels count in the low 32 bits modulo 2^32 like the
    /// generic path: start Y0 just below the wrap and compare.
    #[test]
    fn kernels_wrap_the_counter_like_the_generic_path() {
        for backend in GhashBackend::available() {
            let g = AesGcm::with_options(&[0x24; 16], Options::new().backend(backend)).unwrap();
            let Some(k) = kernels::Kernel::for_ghash(&g.ghash, usize::MAX) else {
                continue;
            };
            let rk = g
                .cipher
                .aesni_round_keys(crate::block::sealed::Token(()))
                .expect("AES-NI");
            for low in [0xffff_ffffu32, 0xffff_fff0, 0xffff_ff00, 0x7fff_ffff] {
                let mut y0 = [0x5au8; 16];
                y0[12..].copy_from_slice(&low.to_be_bytes());
                for (len, public) in [1, 16, 100, 511, 512, 2000, 4100]
                    .into_iter()
                    .flat_map(|l| [(l, true), (l, false)])
                {
                    let pt: Vec<u8> = (0..len).map(|i| i as u8).collect();
                    let mut a = pt.clone();
                    let ta = k.seal(rk, KernelMsg::new(&y0, public, b"aad", None, &mut a));
                    let mut b = pt.clone();
                    g.ctr_xor(&y0, 1, &mut b);
                    let tb = g.tag_for(&y0, b"aad", &b);
                    assert_eq!(a, b, "{backend} {low:x} {len} {public}");
                    assert_eq!(ta, tb, "{backend} {low:x} {len} {public}");
                    let tc = k.open(rk, KernelMsg::new(&y0, public, b"aad", None, &mut a));
                    assert_eq!(a, pt);
                    assert_eq!(tc, tb);
                }
            }
        }
    }

    #[test]
    fn over_long_inputs_are_refused_before_any_work() {
        crate::aead::assert_text_limit(AesGcm::check_lengths, MAX_PLAINTEXT_BYTES);
    }
}
