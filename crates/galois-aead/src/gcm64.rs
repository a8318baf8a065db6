//! GCM over 64-bit block ciphers (the GCM specification (McGrew and Viega), Appendix A; "The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 2
//! with w = 64), generic over any [`BlockCipher64`], with TDEA (3-key
//! DES-EDE3 from the `des` crate) as the instance, [`TdeaGcm`].
//!
//! Blocks, H, Y0 and the tag are 64 bits; GHASH works in GF(2^64) with
//! 1 + a + a^3 + a^4 + a^64 in GCM's reflected bit order ([`crate::gf64`]).
//! incr() counts modulo 2^32 in the rightmost 32 bits;
//! T = MSB_t(GHASH xor E(K, Y0)).
//!
//! # Two readings, two variants
//!
//! The two papers disagree on how the IV and the lengths are formatted, so
//! both are built, named as in the project's vector files:
//!
//! * [`Variant::WBit`] (the default), the w-bit GCM of "The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 2:
//!   Y0 = IV || 0^31 1 for a 32-bit IV, else GHASH(H, {}, IV); the last GHASH
//!   block is len(A) || len(C), each a 32-bit count of bits. Because len()
//!   has 32 bits, A, C and the IV are each limited to 2^32 - 1 bits, that is
//!   [`WBIT_MAX_BYTES`] = 2^29 - 1 bytes.
//! * [`Variant::AppendixA`], the GCM specification (McGrew and Viega), Appendix A read literally:
//!   Y0 = 0^31 1 || IV for a 32-bit IV, else GHASH64(H, {}, IV); the lengths
//!   are 64-bit strings absorbed as two blocks,
//!   X = ((X xor len(A)) * H xor len(C)) * H. A and the IV may have up to
//!   2^61 - 1 bytes; the plaintext up to 2^32 - 2 blocks
//!   ([`APPENDIX_A_MAX_TEXT_BYTES`]), so the counter never returns to Y0.
//!
//! # The counter-overlap hazard of the literal Appendix A layout
//!
//! With a 32-bit IV, Appendix A puts the IV in the rightmost 32 bits, which
//! are exactly the bits incr() counts in. Message i under IV v uses counter
//! blocks 0^31 1 || v, then v+1, v+2, ... (mod 2^32) in the low half, so
//! an IV u with v < u <= v + n (mod 2^32), n the block count of v's
//! message, shares counter blocks with it: the keystream repeats (the XOR
//! of the two plaintexts leaks) and u's tag mask E(K, Y0) is a keystream
//! block of v's message. Sequential IVs, the usual way to make them unique,
//! hit this at once: IV 5 and IV 6 overlap as soon as the message under 5
//! has one block. Under Appendix A, 32-bit IVs must therefore be spaced
//! more than the longest message (in blocks) apart, which caps a key at
//! 2^32 / (that spacing) messages, or be avoided (longer IVs go through
//! GHASH). The w-bit layout (IV on the left, counter on the right) does not
//! have the problem, which is why it is the default.
//!
//! Beyond that, a 64-bit block cipher wears out fast: after about 2^32
//! blocks under one key counter-mode keystream becomes distinguishable
//! (birthday bound), and a 64-bit tag gives at best 2^-64 forgery
//! probability per try. Keep keys short-lived.

use crate::block::BlockCipher64;
use crate::ct;
use crate::error::{Error, Result};
use crate::gf64::{Gf64Backend, Gf64Key};
use zeroize::Zeroize;

/// The w-bit variant's limit on the plaintext, the AAD and the IV:
/// 2^32 - 1 bits, rounded down to whole bytes.
pub const WBIT_MAX_BYTES: u64 = (1 << 29) - 1;
/// The Appendix A variant's limit on the plaintext: 2^32 - 2 blocks.
pub const APPENDIX_A_MAX_TEXT_BYTES: u64 = ((1u64 << 32) - 2) * 8;
/// The Appendix A variant's limit on the AAD and the IV (64-bit bit count).
pub const APPENDIX_A_MAX_AAD_BYTES: u64 = (1 << 61) - 1;

/// Which formatting of the IV and lengths (see the module docs).
///
/// ```
/// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
/// use galois_aead::gcm64::{Options64, TdeaGcm, Variant};
/// let a = TdeaGcm::with_options(&key, Options64::new().variant(Variant::AppendixA))?;
/// let w = TdeaGcm::new(&key)?;
/// assert_ne!(a.seal(&[0; 4], b"", b"m")?, w.seal(&[0; 4], b"", b"m")?); // Y0 differs
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Paper 001 section 2 with w = 64: IV || 0^31 1, 32-bit lengths.
    #[default]
    WBit,
    /// Spec 000 Appendix A literally: 0^31 1 || IV, two 64-bit length blocks.
    AppendixA,
}

impl Variant {
    /// The name used in vector files: `w-bit` or `appendix-a`.
    ///
    /// ```
    /// assert_eq!(galois_aead::gcm64::Variant::AppendixA.name(), "appendix-a");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Variant::WBit => "w-bit",
            Variant::AppendixA => "appendix-a",
        }
    }

    /// Parses [`Variant::name`].
    ///
    /// ```
    /// use galois_aead::gcm64::Variant;
    /// assert_eq!(Variant::from_name("w-bit"), Some(Variant::WBit));
    /// assert_eq!(Variant::from_name("appendix-b"), None);
    /// ```
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "w-bit" => Some(Variant::WBit),
            "appendix-a" => Some(Variant::AppendixA),
            _ => None,
        }
    }

    /// Longest plaintext, in bytes.
    ///
    /// ```
    /// use galois_aead::gcm64::{Variant, WBIT_MAX_BYTES};
    /// assert_eq!(Variant::WBit.max_text_bytes(), WBIT_MAX_BYTES);
    /// assert_eq!(Variant::AppendixA.max_text_bytes(), ((1 << 32) - 2) * 8);
    /// ```
    pub fn max_text_bytes(self) -> u64 {
        match self {
            Variant::WBit => WBIT_MAX_BYTES,
            Variant::AppendixA => APPENDIX_A_MAX_TEXT_BYTES,
        }
    }

    /// Checks IV, AAD and plaintext lengths (in bytes) against this
    /// variant's limits: an empty IV is [`Error::InvalidIvLength`], a long
    /// IV or AAD [`Error::TooLong`], a long text [`Error::MessageTooLong`].
    ///
    /// ```
    /// use galois_aead::{gcm64::Variant, Error};
    /// assert_eq!(Variant::WBit.check_lengths(4, 0, 100), Ok(()));
    /// assert_eq!(Variant::WBit.check_lengths(0, 0, 0), Err(Error::InvalidIvLength { got: 0 }));
    /// assert!(Variant::WBit.check_lengths(4, 1 << 29, 0).is_err());
    /// assert!(Variant::AppendixA.check_lengths(4, 1 << 29, 0).is_ok());
    /// ```
    pub fn check_lengths(self, iv_len: u64, aad_len: u64, text_len: u64) -> Result<()> {
        if iv_len == 0 {
            return Err(Error::InvalidIvLength { got: 0 });
        }
        let max = self.max_aad_bytes();
        if iv_len > max {
            return Err(Error::TooLong {
                what: "GCM-64 IV",
                len: iv_len,
                max,
            });
        }
        if aad_len > max {
            return Err(Error::TooLong {
                what: "GCM-64 additional data",
                len: aad_len,
                max,
            });
        }
        if text_len > self.max_text_bytes() {
            return Err(Error::MessageTooLong {
                len: text_len,
                max: self.max_text_bytes(),
            });
        }
        Ok(())
    }

    /// Longest AAD (and IV), in bytes.
    ///
    /// ```
    /// use galois_aead::gcm64::Variant;
    /// assert_eq!(Variant::AppendixA.max_aad_bytes(), (1 << 61) - 1);
    /// ```
    pub fn max_aad_bytes(self) -> u64 {
        match self {
            Variant::WBit => WBIT_MAX_BYTES,
            Variant::AppendixA => APPENDIX_A_MAX_AAD_BYTES,
        }
    }
}

/// How a GCM-64 key is set up: variant, tag length, GF(2^64) backend.
///
/// ```
/// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
/// use galois_aead::gcm64::{Options64, TdeaGcm};
/// let opts = Options64::new().tag_len(4)?.refuse_zero_h();
/// let gcm = TdeaGcm::with_options(&key, opts)?;
/// assert_eq!(gcm.tag_len(), 4);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options64 {
    variant: Variant,
    tag_len: u8,
    backend: Option<Gf64Backend>,
    refuse_zero_h: bool,
}

impl Default for Options64 {
    fn default() -> Self {
        Options64 {
            variant: Variant::WBit,
            tag_len: 8,
            backend: None,
            refuse_zero_h: false,
        }
    }
}

impl Options64 {
    /// w-bit variant, 8-byte tags, automatic backend.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Options64, TdeaGcm, Variant};
    /// let gcm = TdeaGcm::with_options(&key, Options64::new())?;
    /// assert_eq!((gcm.variant(), gcm.tag_len()), (Variant::WBit, 8));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Picks the variant.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Options64, TdeaGcm, Variant};
    /// let opts = Options64::new().variant(Variant::AppendixA);
    /// let gcm = TdeaGcm::with_options(&key, opts)?;
    /// assert_eq!(gcm.variant(), Variant::AppendixA);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn variant(mut self, v: Variant) -> Self {
        self.variant = v;
        self
    }

    /// A tag of 4 to 8 bytes (t <= w = 64 bits; below 32 bits is refused).
    ///
    /// ```
    /// use galois_aead::gcm64::Options64;
    /// assert!(Options64::new().tag_len(6).is_ok());
    /// assert_eq!(Options64::new().tag_len(3), Err(galois_aead::Error::InvalidTagLength { got: 3 }));
    /// ```
    pub fn tag_len(mut self, n: usize) -> Result<Self> {
        if !(4..=8).contains(&n) {
            return Err(Error::InvalidTagLength { got: n });
        }
        self.tag_len = n as u8;
        Ok(self)
    }

    /// Any tag of 1 to 8 bytes, for conformance testing and
    /// interoperability only: a tag below 32 bits is forged with
    /// probability 2^-t per try.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Options64, TdeaGcm};
    /// let opts = Options64::new().permissive_tag_len(1)?; // conformance tests only
    /// let gcm = TdeaGcm::with_options(&key, opts)?;
    /// assert_eq!(gcm.seal(&[0; 4], b"", b"")?.len(), 1);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn permissive_tag_len(mut self, n: usize) -> Result<Self> {
        if !(1..=8).contains(&n) {
            return Err(Error::InvalidTagLength { got: n });
        }
        self.tag_len = n as u8;
        Ok(self)
    }

    /// Makes key setup fail with [`Error::InvalidKey`] when H = E(K, 0) is
    /// zero ("The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 5; probability 2^-64 for a random key).
    ///
    /// ```
    /// use galois_aead::gcm64::{Gcm64, Options64};
    /// use galois_aead::BlockCipher64;
    /// struct Zero; // a "cipher" that maps everything to zero
    /// impl BlockCipher64 for Zero {
    ///     fn encrypt_block(&self, b: &mut [u8; 8]) {
    ///         *b = [0; 8];
    ///     }
    /// }
    /// assert!(Gcm64::from_cipher(Zero, Options64::new())?.h_is_zero());
    /// let r = Gcm64::from_cipher(Zero, Options64::new().refuse_zero_h());
    /// assert!(matches!(r, Err(galois_aead::Error::InvalidKey { .. })));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn refuse_zero_h(mut self) -> Self {
        self.refuse_zero_h = true;
        self
    }

    /// Pins the GF(2^64) backend.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Options64, TdeaGcm};
    /// use galois_aead::gf64::Gf64Backend;
    /// let opts = Options64::new().backend(Gf64Backend::Bitserial);
    /// let gcm = TdeaGcm::with_options(&key, opts)?;
    /// assert_eq!(gcm.backend(), Gf64Backend::Bitserial);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(mut self, b: Gf64Backend) -> Self {
        self.backend = Some(b);
        self
    }
}

/// A GCM-64 tag (at most 8 bytes), compared in constant time.
///
/// ```
/// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
/// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
/// let mut buf = *b"abc";
/// let tag = gcm.seal_in_place_detached(&[1; 4], b"", &mut buf)?;
/// assert_eq!(tag.as_bytes().len(), 8);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Tag64 {
    bytes: [u8; 8],
    len: u8,
}

impl Tag64 {
    /// The tag bytes.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// let tag = gcm.seal_in_place_detached(&[1; 4], b"aad", &mut [])?;
    /// assert_eq!(tag.as_bytes(), gcm.seal(&[1; 4], b"aad", b"")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl PartialEq for Tag64 {
    fn eq(&self, o: &Tag64) -> bool {
        ct::eq(self.as_bytes(), o.as_bytes())
    }
}
impl Eq for Tag64 {}

impl core::fmt::Debug for Tag64 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Tag64(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

/// TDEA: 3-key DES-EDE3 (24-byte key) from the `des` crate.
///
/// ```
/// let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23"; // NIST SP 800-67
/// use galois_aead::{gcm64::Tdea, BlockCipher64};
/// let tdea = Tdea::new(&key)?;
/// let mut b = *b"The qufc"; // NIST SP 800-67's example
/// tdea.encrypt_block(&mut b);
/// assert_eq!(b, [0xa8, 0x26, 0xfd, 0x8c, 0xe5, 0x3b, 0x85, 0x5f]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Tdea(des::TdesEde3);

/// Sets each byte's low bit so that every byte has odd parity, as DES keys
/// must (FIPS 46-3): for keys derived from other material.
///
/// ```
/// let mut key = [0u8; 24];
/// key[8] = 0x10;
/// galois_aead::gcm64::set_odd_parity(&mut key);
/// assert_eq!(key[..2], [0x01, 0x01]);
/// assert_eq!(key[8], 0x10); // one bit set already: odd
/// assert!(galois_aead::gcm64::Tdea::new(&key).is_ok());
/// ```
pub fn set_odd_parity(key: &mut [u8]) {
    for b in key.iter_mut() {
        let p = (*b >> 1).count_ones() & 1;
        *b = (*b & 0xfe) | (p ^ 1) as u8;
    }
}

impl Tdea {
    /// Expands a 24-byte key K1 || K2 || K3. Every byte must have odd
    /// parity (the DES key format; fix derived keys with
    /// [`set_odd_parity`]). Keys with K1 = K2 or K2 = K3 are refused: EDE
    /// then collapses to single DES.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::{gcm64::Tdea, Error};
    /// assert!(Tdea::new(&key).is_ok());
    /// assert!(matches!(Tdea::new(&[0u8; 24]), Err(Error::InvalidKey { .. }))); // even parity
    /// assert!(matches!(Tdea::new(&[1u8; 24]), Err(Error::InvalidKey { .. }))); // K1 = K2
    /// assert_eq!(Tdea::new(&[1u8; 16]).err(), Some(Error::InvalidKeyLength { got: 16 }));
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        use des::cipher::KeyInit;
        if key.len() != 24 {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        // Parity, without branching on key bits: OR together each byte's
        // (popcount + 1) & 1, which is 1 exactly for an even-parity byte.
        let bad_parity = key
            .iter()
            .fold(0u32, |acc, b| acc | ((b.count_ones() + 1) & 1));
        // Public by design: a key with a bad parity byte is refused.
        if ct::declassify(bad_parity) != 0 {
            return Err(Error::InvalidKey {
                reason: "TDEA key bytes must have odd parity",
            });
        }
        let degenerate = ct::eq(&key[0..8], &key[8..16]) | ct::eq(&key[8..16], &key[16..24]);
        if degenerate {
            return Err(Error::InvalidKey {
                reason: "TDEA key with K1 = K2 or K2 = K3 is single DES",
            });
        }
        let c = des::TdesEde3::new_from_slice(key)
            .map_err(|_| Error::InvalidKeyLength { got: key.len() })?;
        Ok(Tdea(c))
    }
}

impl BlockCipher64 for Tdea {
    fn encrypt_block(&self, block: &mut [u8; 8]) {
        use des::cipher::BlockCipherEncrypt;
        self.0.encrypt_block(block.into());
    }
    fn name(&self) -> &'static str {
        "tdea"
    }
}

/// GCM over a 64-bit block cipher: H prepared for one GF(2^64) backend, a
/// variant and a tag length fixed for the life of the key. H is wiped on
/// drop.
///
/// ```
/// let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23"; // NIST SP 800-67
/// use galois_aead::gcm64::{Gcm64, Options64, Tdea};
/// let gcm = Gcm64::from_cipher(Tdea::new(&key)?, Options64::new())?;
/// let sealed = gcm.seal(&[0, 0, 0, 1], b"aad", b"64-bit blocks")?;
/// assert_eq!(gcm.open(&[0, 0, 0, 1], b"aad", &sealed)?, b"64-bit blocks");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Gcm64<C: BlockCipher64> {
    cipher: C,
    key: Gf64Key,
    variant: Variant,
    tag_len: u8,
    h_is_zero: bool,
}

/// GCM over TDEA.
pub type TdeaGcm = Gcm64<Tdea>;

/// Its GHASH-64 key is wiped by `Drop`, the TDEA key schedule by `des`'s
/// `zeroize` feature.
impl zeroize::ZeroizeOnDrop for TdeaGcm {}

const _: () = {
    fn wipes<T: zeroize::ZeroizeOnDrop>() {}
    let _ = wipes::<des::TdesEde3>;
};

impl<C: BlockCipher64> Drop for Gcm64<C> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl TdeaGcm {
    /// GCM-TDEA, w-bit variant, 8-byte tags.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// assert_eq!(gcm.tag_len(), 8);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_options(key, Options64::new())
    }

    /// GCM-TDEA set up as `opts` says.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Options64, TdeaGcm};
    /// let gcm = TdeaGcm::with_options(&key, Options64::new().tag_len(5)?)?;
    /// assert_eq!(gcm.seal(&[0; 4], b"", b"abc")?.len(), 3 + 5);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_options(key: &[u8], opts: Options64) -> Result<Self> {
        Gcm64::from_cipher(Tdea::new(key)?, opts)
    }
}

/// A GHASH64 accumulator over one padded string at a time.
struct Acc64<'a> {
    key: &'a Gf64Key,
    y: u64,
}

impl Drop for Acc64<'_> {
    fn drop(&mut self) {
        self.y.zeroize();
    }
}

impl Acc64<'_> {
    fn absorb_padded(&mut self, data: &[u8]) {
        let whole = data.len() & !7;
        self.y = self.key.update_blocks(self.y, &data[..whole]);
        if whole < data.len() {
            let mut b = [0u8; 8];
            b[..data.len() - whole].copy_from_slice(&data[whole..]);
            self.y = self.key.mul_h(self.y ^ u64::from_be_bytes(b));
            b.zeroize();
        }
    }

    /// The final length step of the variant; `a_bits`, `c_bits` checked.
    fn lengths(&mut self, v: Variant, a_bits: u64, c_bits: u64) {
        match v {
            Variant::WBit => self.y = self.key.mul_h(self.y ^ (a_bits << 32) ^ c_bits),
            Variant::AppendixA => {
                self.y = self.key.mul_h(self.y ^ a_bits);
                self.y = self.key.mul_h(self.y ^ c_bits);
            }
        }
    }
}

impl<C: BlockCipher64> Gcm64<C> {
    /// GCM-64 over `cipher`.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Gcm64, Options64, Tdea, TdeaGcm};
    /// let a = Gcm64::from_cipher(Tdea::new(&key)?, Options64::new())?;
    /// assert_eq!(a.seal(&[7; 4], b"", b"x")?, TdeaGcm::new(&key)?.seal(&[7; 4], b"", b"x")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn from_cipher(cipher: C, opts: Options64) -> Result<Self> {
        let mut h = [0u8; 8];
        cipher.encrypt_block(&mut h);
        let hv = u64::from_be_bytes(h);
        h.zeroize();
        // With refuse_zero_h, whether H is zero is public by design.
        if opts.refuse_zero_h && ct::declassify(hv == 0) {
            return Err(Error::InvalidKey {
                reason: "H = E(K, 0^64) is zero",
            });
        }
        let backend = opts.backend.unwrap_or_else(Gf64Backend::auto);
        let key = Gf64Key::new(hv, backend)?;
        Ok(Gcm64 {
            cipher,
            key,
            variant: opts.variant,
            tag_len: opts.tag_len,
            h_is_zero: hv == 0,
        })
    }

    /// The variant in use.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{TdeaGcm, Variant};
    /// assert_eq!(TdeaGcm::new(&key)?.variant(), Variant::WBit);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The tag length in bytes.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::gcm64::{Options64, TdeaGcm};
    /// let gcm = TdeaGcm::with_options(&key, Options64::new().tag_len(4)?)?;
    /// assert_eq!(gcm.tag_len(), 4);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// The GF(2^64) backend in use.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// use galois_aead::{gcm64::TdeaGcm, gf64::Gf64Backend};
    /// let gcm = TdeaGcm::new(&key)?;
    /// assert_eq!(gcm.backend(), Gf64Backend::auto());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> Gf64Backend {
        self.key.backend()
    }

    /// True if H = E(K, 0) is zero (GHASH then ignores the data).
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// assert!(!gcm.h_is_zero());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn h_is_zero(&self) -> bool {
        self.h_is_zero
    }

    fn check(&self, iv: &[u8], aad: &[u8], text_len: usize) -> Result<()> {
        self.variant
            .check_lengths(iv.len() as u64, aad.len() as u64, text_len as u64)
    }

    fn y0(&self, iv: &[u8]) -> u64 {
        if iv.len() == 4 {
            let v = u32::from_be_bytes(iv.try_into().unwrap()) as u64;
            return match self.variant {
                Variant::WBit => (v << 32) | 1,
                Variant::AppendixA => (1 << 32) | v,
            };
        }
        let mut acc = Acc64 {
            key: &self.key,
            y: 0,
        };
        acc.absorb_padded(iv);
        acc.lengths(self.variant, 0, iv.len() as u64 * 8);
        acc.y
    }

    fn ctr_xor(&self, y0: u64, data: &mut [u8]) {
        let hi = y0 & !0xffff_ffff;
        let mut ctr = y0 as u32;
        for chunk in data.chunks_mut(8) {
            ctr = ctr.wrapping_add(1);
            let mut ks = (hi | ctr as u64).to_be_bytes();
            self.cipher.encrypt_block(&mut ks);
            for (d, k) in chunk.iter_mut().zip(ks.iter()) {
                *d ^= k;
            }
            ks.zeroize();
        }
    }

    fn tag_for(&self, y0: u64, aad: &[u8], ct_: &[u8]) -> Tag64 {
        let mut acc = Acc64 {
            key: &self.key,
            y: 0,
        };
        acc.absorb_padded(aad);
        acc.absorb_padded(ct_);
        acc.lengths(self.variant, aad.len() as u64 * 8, ct_.len() as u64 * 8);
        let mut ek = y0.to_be_bytes();
        self.cipher.encrypt_block(&mut ek);
        let t = acc.y ^ u64::from_be_bytes(ek);
        ek.zeroize();
        Tag64 {
            bytes: t.to_be_bytes(),
            len: self.tag_len,
        }
    }

    /// Encrypts `buf` in place and returns the detached tag.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// let mut buf = *b"in place";
    /// let tag = gcm.seal_in_place_detached(&[0; 4], b"", &mut buf)?;
    /// gcm.open_in_place_detached(&[0; 4], b"", &mut buf, tag.as_bytes())?;
    /// assert_eq!(&buf, b"in place");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal_in_place_detached(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag64> {
        self.check(iv, aad, buf.len())?;
        let y0 = self.y0(iv);
        self.ctr_xor(y0, buf);
        Ok(self.tag_for(y0, aad, buf))
    }

    /// Decrypts `buf` in place if `tag` verifies; on any failure `buf` is
    /// wiped and nothing is released.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// let mut buf = *b"in place";
    /// let tag = gcm.seal_in_place_detached(&[0; 4], b"", &mut buf)?;
    /// let r = gcm.open_in_place_detached(&[1; 4], b"", &mut buf, tag.as_bytes());
    /// assert_eq!(r, Err(galois_aead::Error::AuthenticationFailed));
    /// assert_eq!(buf, [0; 8]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn open_in_place_detached(
        &self,
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<()> {
        if tag.len() != self.tag_len as usize {
            ct::wipe(buf);
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        if let Err(e) = self.check(iv, aad, buf.len()) {
            ct::wipe(buf);
            return Err(e);
        }
        let y0 = self.y0(iv);
        let expected = self.tag_for(y0, aad, buf);
        if !ct::eq(expected.as_bytes(), tag) {
            ct::wipe(buf);
            return Err(Error::AuthenticationFailed);
        }
        self.ctr_xor(y0, buf);
        Ok(())
    }

    /// Returns ciphertext followed by the tag.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// assert_eq!(gcm.seal(&[0; 4], b"", b"hello")?.len(), 5 + 8);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal(&self, iv: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
        // Checked before the copy: a refused seal leaves no plaintext behind.
        self.check(iv, aad, pt.len())?;
        let mut out = pt.to_vec();
        let tag = self.seal_in_place_detached(iv, aad, &mut out)?;
        out.extend_from_slice(tag.as_bytes());
        Ok(out)
    }

    /// Opens ciphertext-then-tag; returns the plaintext only if it verifies.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// let sealed = gcm.seal(&[0; 4], b"ad", b"hello")?;
    /// assert_eq!(gcm.open(&[0; 4], b"ad", &sealed)?, b"hello");
    /// assert!(gcm.open(&[0; 4], b"AD", &sealed).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn open(&self, iv: &[u8], aad: &[u8], input: &[u8]) -> Result<Vec<u8>> {
        let t = self.tag_len as usize;
        if input.len() < t {
            return Err(Error::CiphertextTooShort {
                len: input.len(),
                min: t,
            });
        }
        let (c, tag) = input.split_at(input.len() - t);
        let mut out = c.to_vec();
        self.open_in_place_detached(iv, aad, &mut out, tag)?;
        Ok(out)
    }

    /// H = E(K, 0^64) and Y0 for `iv`, for checks against vector files.
    /// H lets anyone forge tags: feature `hazmat` only.
    ///
    /// ```
    /// # let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let gcm = galois_aead::gcm64::TdeaGcm::new(&key)?;
    /// let (_h, y0) = gcm.intermediates(&[0xaa, 0xbb, 0xcc, 0xdd])?;
    /// assert_eq!(y0, [0xaa, 0xbb, 0xcc, 0xdd, 0, 0, 0, 1]); // w-bit: IV || 0^31 1
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    #[cfg(feature = "hazmat")]
    pub fn intermediates(&self, iv: &[u8]) -> Result<([u8; 8], [u8; 8])> {
        self.check(iv, &[], 0)?;
        let mut h = [0u8; 8];
        self.cipher.encrypt_block(&mut h);
        Ok((h, self.y0(iv).to_be_bytes()))
    }
}
