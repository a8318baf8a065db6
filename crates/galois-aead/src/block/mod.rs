//! The block-cipher interface GCM and Poly1305-AES are generic over, and
//! the hardware AES round-key type its sealed hook hands the stitched GCM
//! kernels (`round_keys`, here so that `aes` imports `block` and never the
//! other way round).

pub(crate) mod round_keys;

/// A 128-bit block.
pub type Block = [u8; 16];

/// A block cipher with 128-bit blocks, used in the forward direction only
/// (GCM and Poly1305-AES never decrypt with the cipher).
///
/// Implementations must be constant time: GCM feeds them secret counters
/// and Poly1305-AES secret nonces under secret keys.
///
/// ```
/// use galois_aead::{Aes, AesGcm, Block, BlockCipher128, Gcm, Options};
/// // A cipher of your own: here AES that counts its calls.
/// struct Counting(Aes, std::cell::Cell<usize>);
/// impl BlockCipher128 for Counting {
///     fn encrypt_block(&self, b: &mut Block) {
///         self.1.set(self.1.get() + 1);
///         self.0.encrypt_block(b)
///     }
/// }
/// let gcm = Gcm::from_cipher(Counting(Aes::new(&[1; 16])?, Default::default()), Options::new())?;
/// let sealed = gcm.seal(&[0; 12], b"", &[0; 32])?;
/// assert_eq!(sealed, AesGcm::new(&[1; 16])?.seal(&[0; 12], b"", &[0; 32])?);
/// assert_eq!(gcm.cipher().1.get(), 4); // H, E(K, Y0) and two keystream blocks
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub trait BlockCipher128 {
    /// Encrypts one block in place.
    ///
    /// ```
    /// use galois_aead::{Aes, BlockCipher128};
    /// let aes = Aes::new(&[0u8; 16])?;
    /// let mut b = [0u8; 16];
    /// aes.encrypt_block(&mut b);
    /// assert_eq!(b[..4], [0x66, 0xe9, 0x4b, 0xd4]); // AES-128(0^128, 0^128)
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn encrypt_block(&self, block: &mut Block);

    /// Encrypts several independent blocks in place. Implementations that
    /// can pipeline (AES-NI, bitsliced AES) override this.
    ///
    /// ```
    /// use galois_aead::{Aes, BlockCipher128};
    /// let aes = Aes::new(&[5u8; 32])?;
    /// let mut one = [[3u8; 16]; 4];
    /// let mut four = one;
    /// for b in &mut one {
    ///     aes.encrypt_block(b);
    /// }
    /// aes.encrypt_blocks(&mut four);
    /// assert_eq!(one, four);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        for b in blocks {
            self.encrypt_block(b);
        }
    }

    /// A short name for reports, such as "aes-128/aesni".
    ///
    /// ```
    /// use galois_aead::{Aes, AesBackend, BlockCipher128};
    /// let aes = Aes::with_backend(&[0u8; 32], AesBackend::Portable)?;
    /// assert_eq!(aes.name(), "aes-256/portable");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn name(&self) -> &'static str {
        "block-cipher"
    }

    /// The AES-NI key schedule, if this is the library's own AES on AES-NI:
    /// the stitched GCM kernels then run the cipher themselves. Sealed: its
    /// argument and result types live in private modules, so no other crate
    /// can override, call or answer it (the kernels read these keys without
    /// bounds checks of their own).
    ///
    /// ```compile_fail,E0603
    /// struct Forged;
    /// impl galois_aead::BlockCipher128 for Forged {
    ///     fn encrypt_block(&self, _: &mut galois_aead::Block) {}
    ///     fn aesni_round_keys(
    ///         &self,
    ///         _: galois_aead::block::sealed::Token,
    ///     ) -> Option<&galois_aead::block::round_keys::AesRoundKeys> {
    ///         None
    ///     }
    /// }
    /// ```
    ///
    /// The override that read out of bounds before the type was sealed
    /// (an empty schedule handed to the kernels) no longer compiles:
    ///
    /// ```compile_fail,E0050
    /// struct Forged;
    /// impl galois_aead::BlockCipher128 for Forged {
    ///     fn encrypt_block(&self, _: &mut galois_aead::Block) {}
    ///     fn aesni_round_keys(&self) -> Option<&[[u8; 16]]> {
    ///         Some(&[])
    ///     }
    /// }
    /// ```
    #[doc(hidden)]
    fn aesni_round_keys(&self, _: sealed::Token) -> Option<&round_keys::AesRoundKeys> {
        None
    }
}

/// What seals [`BlockCipher128::aesni_round_keys`]: a type other crates
/// cannot name or build.
pub(crate) mod sealed {
    /// Proof that the caller is this crate: no other crate can name it.
    ///
    /// ```compile_fail,E0603
    /// let _ = galois_aead::block::sealed::Token;
    /// ```
    pub struct Token(pub(crate) ());
}

/// A block cipher with 64-bit blocks (GCM-64, for TDEA and friends).
///
/// ```
/// use galois_aead::gcm64::{Gcm64, Options64};
/// use galois_aead::BlockCipher64;
/// // A toy 64-bit "cipher" (NOT secure) to show the interface.
/// struct Xor(u64);
/// impl BlockCipher64 for Xor {
///     fn encrypt_block(&self, b: &mut [u8; 8]) {
///         *b = (u64::from_be_bytes(*b) ^ self.0).to_be_bytes();
///     }
/// }
/// let gcm = Gcm64::from_cipher(Xor(0x0123_4567_89ab_cdef), Options64::new())?;
/// let sealed = gcm.seal(&[1; 4], b"", b"data")?;
/// assert_eq!(gcm.open(&[1; 4], b"", &sealed)?, b"data");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub trait BlockCipher64 {
    /// Encrypts one block in place.
    ///
    /// ```
    /// use galois_aead::gcm64::Tdea;
    /// use galois_aead::BlockCipher64;
    /// // The TDEA example of NIST SP 800-67.
    /// let key = b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    /// let mut b = *b"The qufc";
    /// Tdea::new(key)?.encrypt_block(&mut b);
    /// assert_eq!(b, [0xa8, 0x26, 0xfd, 0x8c, 0xe5, 0x3b, 0x85, 0x5f]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn encrypt_block(&self, block: &mut [u8; 8]);

    /// A short name for reports.
    ///
    /// ```
    /// use galois_aead::gcm64::Tdea;
    /// use galois_aead::BlockCipher64;
    /// let mut key = [1u8; 24];
    /// key[8] = 2;
    /// galois_aead::gcm64::set_odd_parity(&mut key);
    /// assert_eq!(Tdea::new(&key)?.name(), "tdea");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn name(&self) -> &'static str {
        "block-cipher-64"
    }
}

impl<C: BlockCipher128 + ?Sized> BlockCipher128 for &C {
    fn encrypt_block(&self, block: &mut Block) {
        (**self).encrypt_block(block)
    }
    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        (**self).encrypt_blocks(blocks)
    }
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn aesni_round_keys(&self, t: sealed::Token) -> Option<&round_keys::AesRoundKeys> {
        (**self).aesni_round_keys(t)
    }
}

/// Feeds `data` to a hash that takes whole `N`-byte blocks, through the
/// partial block `buf` (its first `*len` bytes pending): `blocks` gets the
/// pending block once `data` fills it, then the whole blocks of `data`
/// (one call); the rest waits in `buf`.
#[inline(always)]
pub(crate) fn feed_blocks<const N: usize>(
    buf: &mut [u8; N],
    len: &mut usize,
    mut data: &[u8],
    mut blocks: impl FnMut(&[u8]),
) {
    if *len > 0 {
        let take = (N - *len).min(data.len());
        buf[*len..*len + take].copy_from_slice(&data[..take]);
        *len += take;
        data = &data[take..];
        if *len < N {
            return;
        }
        blocks(buf);
        *len = 0;
    }
    let whole = data.len() / N * N;
    if whole > 0 {
        blocks(&data[..whole]);
    }
    let rest = &data[whole..];
    buf[..rest.len()].copy_from_slice(rest);
    *len = rest.len();
}
