//! The block-cipher interface GCM and Poly1305-AES are generic over.

/// A 128-bit block.
pub type Block = [u8; 16];

/// A block cipher with 128-bit blocks, used in the forward direction only
/// (GCM and Poly1305-AES never decrypt with the cipher).
///
/// Implementations must be constant time: GCM feeds them secret counters
/// and Poly1305-AES secret nonces under secret keys.
pub trait BlockCipher128 {
    /// Encrypts one block in place.
    fn encrypt_block(&self, block: &mut Block);

    /// Encrypts several independent blocks in place. Implementations that
    /// can pipeline (AES-NI, bitsliced AES) override this.
    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        for b in blocks {
            self.encrypt_block(b);
        }
    }

    /// A short name for reports, such as "aes-128/aesni".
    fn name(&self) -> &'static str {
        "block-cipher"
    }

    /// The AES-NI round keys (11, 13 or 15), if this is AES running on
    /// AES-NI: the stitched GCM kernels then run the cipher themselves.
    #[doc(hidden)]
    fn aesni_round_keys(&self) -> Option<&[[u8; 16]]> {
        None
    }
}

/// A block cipher with 64-bit blocks (GCM-64, for TDEA and friends).
pub trait BlockCipher64 {
    /// Encrypts one block in place.
    fn encrypt_block(&self, block: &mut [u8; 8]);

    /// A short name for reports.
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
    fn aesni_round_keys(&self) -> Option<&[[u8; 16]]> {
        (**self).aesni_round_keys()
    }
}
