//! AES-128/192/256 for GCM and Poly1305-AES: our own AES-NI path (the
//! stitched GCM kernels need the round keys and `aesenc` in our hands) and
//! the portable constant-time path of the `aes` crate; on aarch64 our own
//! ARMv8 AES path (`armv8.rs`), for the same reason.

#[cfg(target_arch = "x86_64")]
pub(crate) mod aesni;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(crate) mod armv8;

mod portable;

use crate::block::{Block, BlockCipher128};
use crate::error::{Error, Result};

/// Which AES implementation a key uses.
///
/// ```
/// use galois_aead::{Aes, AesBackend};
/// let b = AesBackend::auto();
/// assert!(b.is_available());
/// assert_eq!(Aes::new(&[0u8; 16])?.backend(), b);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AesBackend {
    /// Our AES-NI code (x86-64 with the `aes` feature; the variant does not
    /// exist on other targets).
    #[cfg(target_arch = "x86_64")]
    AesNi,
    /// Our ARMv8 AES code (`AESE`/`AESMC`; aarch64 only).
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    Armv8,
    /// The `aes` crate: bitsliced (fixsliced) constant-time software on CPUs
    /// without AES instructions; where the CPU has them (AES-NI, ARMv8 AES)
    /// the crate detects and uses them.
    Portable,
}

impl AesBackend {
    /// Every AES backend, in order of preference.
    pub const ALL: &'static [AesBackend] = &[
        #[cfg(target_arch = "x86_64")]
        AesBackend::AesNi,
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        AesBackend::Armv8,
        AesBackend::Portable,
    ];

    /// The backend's name, as the CLI spells it.
    ///
    /// ```
    /// #[cfg(target_arch = "x86_64")]
    /// assert_eq!(galois_aead::AesBackend::AesNi.name(), "aesni");
    /// assert_eq!(galois_aead::AesBackend::Portable.name(), "portable");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            AesBackend::AesNi => "aesni",
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            AesBackend::Armv8 => "armv8",
            AesBackend::Portable => "portable",
        }
    }

    /// Parses a name given by [`AesBackend::name`].
    ///
    /// ```
    /// use galois_aead::AesBackend;
    /// assert_eq!(AesBackend::from_name("portable"), Some(AesBackend::Portable));
    /// assert_eq!(AesBackend::from_name("des"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// Whether this CPU can run the backend.
    ///
    /// ```
    /// use galois_aead::AesBackend;
    /// assert!(AesBackend::Portable.is_available());
    /// #[cfg(target_arch = "x86_64")]
    /// assert_eq!(AesBackend::AesNi.is_available(), galois_aead::detect::has_aesni());
    /// ```
    pub fn is_available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            AesBackend::AesNi => crate::detect::has_aesni(),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            AesBackend::Armv8 => crate::detect::has_aes_armv8(),
            AesBackend::Portable => true,
        }
    }

    /// The AES implementation a new key gets: the first of [`AesBackend::ALL`]
    /// this CPU can run.
    ///
    /// ```
    /// use galois_aead::{AesBackend, AesGcm};
    /// let b = AesBackend::auto();
    /// assert_eq!(AesGcm::new(&[0u8; 16])?.aes_backend(), b);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn auto() -> AesBackend {
        Self::ALL
            .iter()
            .copied()
            .find(|b| b.is_available())
            .unwrap_or(AesBackend::Portable)
    }
}

/// Every variant boxed: a schedule is up to 241 bytes (the `aes` crate's
/// key about a kilobyte), which every move of an [`Aes`] and of the GCM
/// keys holding one copied: six copies in building a GCM key, more than
/// the allocation costs.
enum Imp {
    #[cfg(target_arch = "x86_64")]
    Ni(Box<aesni::AesNi>),
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    Armv8(Box<armv8::Armv8>),
    /// Boxed inside, per key size: the `aes` crate's key (fixsliced and
    /// AES-NI schedules together) is about a kilobyte, which every move of
    /// an [`Aes`] (and of the GCM keys holding one) would copy.
    Portable(portable::Portable),
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
        let imp = match backend {
            #[cfg(target_arch = "x86_64")]
            AesBackend::AesNi => Imp::Ni(
                aesni::AesNi::new_boxed(key)
                    .ok_or(Error::BackendUnavailable { backend: "aesni" })?,
            ),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            AesBackend::Armv8 => Imp::Armv8(Box::new(
                armv8::Armv8::new(key).ok_or(Error::BackendUnavailable { backend: "armv8" })?,
            )),
            AesBackend::Portable => Imp::Portable(portable::Portable::new(key)),
        };
        Ok(Aes { imp })
    }

    /// The AES-NI key, if that is the backend.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(crate) fn as_aesni(&self) -> Option<&aesni::AesNi> {
        match &self.imp {
            Imp::Ni(k) => Some(&**k),
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
        match self.imp {
            #[cfg(target_arch = "x86_64")]
            Imp::Ni(_) => AesBackend::AesNi,
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Imp::Armv8(_) => AesBackend::Armv8,
            Imp::Portable(_) => AesBackend::Portable,
        }
    }

    /// The key length in bytes (16, 24 or 32).
    ///
    /// ```
    /// assert_eq!(galois_aead::Aes::new(&[0u8; 24])?.key_len(), 24);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn key_len(&self) -> usize {
        match &self.imp {
            #[cfg(target_arch = "x86_64")]
            Imp::Ni(k) => k.key_len(),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Imp::Armv8(k) => k.key_len(),
            Imp::Portable(k) => k.key_len(),
        }
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
        match &self.imp {
            #[cfg(target_arch = "x86_64")]
            Imp::Ni(k) => k.encrypt_block(block),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Imp::Armv8(k) => k.encrypt_block(block),
            Imp::Portable(k) => k.encrypt_block(block),
        }
    }

    #[inline]
    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        match &self.imp {
            #[cfg(target_arch = "x86_64")]
            Imp::Ni(k) => k.encrypt_blocks(blocks),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Imp::Armv8(k) => k.encrypt_blocks(blocks),
            Imp::Portable(k) => k.encrypt_blocks(blocks),
        }
    }

    fn aesni_round_keys(
        &self,
        _: crate::block::sealed::Token,
    ) -> Option<&crate::block::round_keys::AesRoundKeys> {
        match &self.imp {
            #[cfg(target_arch = "x86_64")]
            Imp::Ni(k) => Some(k.keys()),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Imp::Armv8(k) => Some(k.keys()),
            Imp::Portable(_) => None,
        }
    }

    fn name(&self) -> &'static str {
        match (self.key_len(), self.backend()) {
            #[cfg(target_arch = "x86_64")]
            (16, AesBackend::AesNi) => "aes-128/aesni",
            #[cfg(target_arch = "x86_64")]
            (24, AesBackend::AesNi) => "aes-192/aesni",
            #[cfg(target_arch = "x86_64")]
            (_, AesBackend::AesNi) => "aes-256/aesni",
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            (16, AesBackend::Armv8) => "aes-128/armv8",
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            (24, AesBackend::Armv8) => "aes-192/armv8",
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            (_, AesBackend::Armv8) => "aes-256/armv8",
            (16, AesBackend::Portable) => "aes-128/portable",
            (24, AesBackend::Portable) => "aes-192/portable",
            (_, AesBackend::Portable) => "aes-256/portable",
        }
    }
}

/// The key length and backend, never the key.
impl core::fmt::Debug for Aes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Aes")
            .field("key_len", &self.key_len())
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}
