//! AES-128/192/256 for GCM and Poly1305-AES: our own AES-NI path (the
//! stitched GCM kernels need the round keys and `aesenc` in our hands) and
//! the portable constant-time path of the `aes` crate; on aarch64 our own
//! ARMv8 AES path (`armv8.rs`), for the same reason.

#[cfg(target_arch = "x86_64")]
#[path = "x86_64/aesni.rs"]
pub(crate) mod aesni;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
#[path = "aarch64/armv8.rs"]
pub(crate) mod armv8;

mod portable;

use crate::block::{Block, BlockCipher128};
use crate::error::{Error, Result};

/// The AES family's key: one variant per line of the table below, each
/// holding its module's `Key` (boxed: a schedule is up to 241 bytes, the `aes`
/// crate's about a kilobyte, which every move of an [`Aes`] and of the GCM
/// keys holding one would copy), with the dispatch every call goes through.
macro_rules! aes_keys {
    ($($list:tt)*) => {
        crate::registry::key_enum! {
            { $($list)* }
            enum Imp for AesBackend = [] Key [];
            /// `key` of a length AES takes; refuses a backend whose table
            /// probe says no.
            fn new(key: &[u8], b: AesBackend) -> Result<Self> = b => |m| m::key(key);
            fn key_len() -> usize = |k, m| k.key_len();
            fn name() -> &'static str = |k, m| m::NAMES[(k.key_len() - 16) / 8];
            #[inline]
            fn encrypt_block(block: &mut Block) = |k, m| k.encrypt_block(block);
            #[inline]
            fn encrypt_blocks(blocks: &mut [Block]) = |k, m| k.encrypt_blocks(blocks);
            #[inline]
            fn round_keys() -> Option<&crate::block::round_keys::AesRoundKeys> = |k, m| k.round_keys();
        }
    };
}

crate::registry::registry! {
    /// Which AES implementation a key uses: the AES family's table in the
    /// registry of `crate::registry`, fastest first.
    ///
    /// ```
    /// use galois_aead::{Aes, AesBackend};
    /// let b = AesBackend::auto();
    /// assert!(b.is_available());
    /// assert_eq!(Aes::new(&[0u8; 16])?.backend(), b);
    /// assert_eq!(AesBackend::from_name("portable")?, AesBackend::Portable);
    /// assert!(AesBackend::from_name("des").is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub enum AesBackend; path = "galois_aead::AesBackend", keys = aes_keys;
    portable = Portable;
    AesNi => aesni, "aesni", ct = true, detect = crate::detect::has_aesni, "Our AES-NI code (x86-64 with the `aes` feature).", #[cfg(target_arch = "x86_64")];
    Armv8 => armv8, "armv8", ct = true, detect = crate::detect::has_aes_armv8, "Our ARMv8 AES code (`AESE`/`AESMC`; aarch64 only).", #[cfg(all(target_arch = "aarch64", target_endian = "little"))];
    Portable => portable, "portable", ct = true, detect = crate::detect::always, "The `aes` crate: fixsliced constant-time software without AES instructions; where the CPU has them the crate detects and uses them.";
}

/// An expanded AES key (128, 192 or 256 bits), zeroized on drop.
///
/// ```
/// use galois_aead::{Aes, BlockCipher128};
/// let aes = Aes::new(&[0u8; 16])?;
/// let mut b = [0u8; 16];
/// aes.encrypt_block(&mut b); // the GCM hash key H of the all-zero key
/// assert_eq!(b[..4], [0x66, 0xe9, 0x4b, 0xd4]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Aes {
    imp: Imp,
}

impl Aes {
    /// Expands a 16-, 24- or 32-byte key with the fastest AES this CPU has.
    ///
    /// ```
    /// use galois_aead::{Aes, BlockCipher128};
    /// // FIPS-197 appendix C.1.
    /// let aes = Aes::new(&hex_literal(b"000102030405060708090a0b0c0d0e0f"))?;
    /// let mut b = hex_literal(b"00112233445566778899aabbccddeeff");
    /// aes.encrypt_block((&mut b[..]).try_into().unwrap());
    /// assert_eq!(b, hex_literal(b"69c4e0d86a7b0430d8cdb78070b4c55a"));
    /// # fn hex_literal(h: &[u8]) -> Vec<u8> { h.chunks(2).map(|c| u8::from_str_radix(std::str::from_utf8(c).unwrap(), 16).unwrap()).collect() }
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_backend(key, AesBackend::auto())
    }

    /// Expands a key with a pinned backend; fails if the CPU lacks it.
    ///
    /// ```
    /// use galois_aead::{Aes, AesBackend, BlockCipher128};
    /// let a = Aes::with_backend(&[9u8; 32], AesBackend::Portable)?;
    /// assert_eq!(a.backend(), AesBackend::Portable);
    /// let (mut x, mut y) = ([1u8; 16], [1u8; 16]);
    /// a.encrypt_block(&mut x);
    /// Aes::new(&[9u8; 32])?.encrypt_block(&mut y);
    /// assert_eq!(x, y);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_backend(key: &[u8], backend: AesBackend) -> Result<Self> {
        if !matches!(key.len(), 16 | 24 | 32) {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        Ok(Aes {
            imp: Imp::new(key, backend)?,
        })
    }

    /// The AES-NI key, if that is the backend.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(crate) fn as_aesni(&self) -> Option<&aesni::AesNi> {
        match &self.imp {
            Imp::AesNi(k) => Some(&**k),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The backend this key runs on.
    ///
    /// ```
    /// use galois_aead::{Aes, AesBackend};
    /// let aes = Aes::with_backend(&[0u8; 16], AesBackend::Portable)?;
    /// assert_eq!(aes.backend(), AesBackend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> AesBackend {
        self.imp.backend()
    }

    /// The key length in bytes (16, 24 or 32).
    ///
    /// ```
    /// assert_eq!(galois_aead::Aes::new(&[0u8; 24])?.key_len(), 24);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn key_len(&self) -> usize {
        self.imp.key_len()
    }
}

/// AES-NI keys wipe themselves (`block::round_keys::AesRoundKeys`); so do the `aes`
/// crate's (its `zeroize` feature, checked below).
impl zeroize::ZeroizeOnDrop for Aes {}

const _: () = {
    fn wipes<T: zeroize::ZeroizeOnDrop>() {}
    let _ = wipes::<::aes::Aes128>;
    let _ = wipes::<::aes::Aes192>;
    let _ = wipes::<::aes::Aes256>;
};

impl BlockCipher128 for Aes {
    #[inline]
    fn encrypt_block(&self, block: &mut Block) {
        self.imp.encrypt_block(block)
    }

    #[inline]
    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        self.imp.encrypt_blocks(blocks)
    }

    fn aesni_round_keys(
        &self,
        _: crate::block::sealed::Token,
    ) -> Option<&crate::block::round_keys::AesRoundKeys> {
        self.imp.round_keys()
    }

    fn name(&self) -> &'static str {
        self.imp.name()
    }
}

// The key length and backend, never the key.
crate::registry::debug_public!(Aes: key_len, backend);
