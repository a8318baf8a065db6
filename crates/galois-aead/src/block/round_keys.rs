//! The round-key type the stitched GCM kernels take.

use zeroize::{Zeroize, ZeroizeOnDrop};

/// The Nr + 1 round keys of a hardware AES key schedule, by key size: the
/// round count is the variant, never inferred from a length. Only the
/// hardware AES code builds one (`aes::aesni::AesNi`, after it proved
/// AES-NI at run time; `aes::armv8::Armv8::new` after it proved FEAT_AES),
/// and this module is private, so no other crate can name or
/// build the type: what the stitched GCM kernels receive is always a whole
/// schedule, on a CPU that has the instructions.
///
/// ```compile_fail,E0603
/// let _: Option<galois_aead::block::round_keys::AesRoundKeys> = None;
/// ```
pub enum AesRoundKeys {
    /// AES-128: 10 rounds.
    Aes128([[u8; 16]; 11]),
    /// AES-192: 12 rounds.
    Aes192([[u8; 16]; 13]),
    /// AES-256: 14 rounds.
    Aes256([[u8; 16]; 15]),
}

impl AesRoundKeys {
    /// All round keys, first to last.
    pub(crate) fn as_slice(&self) -> &[[u8; 16]] {
        match self {
            AesRoundKeys::Aes128(k) => k,
            AesRoundKeys::Aes192(k) => k,
            AesRoundKeys::Aes256(k) => k,
        }
    }
}

impl Zeroize for AesRoundKeys {
    fn zeroize(&mut self) {
        // Each size on its own: a length known here is a few vector stores
        // (a slice of either length was a call to `memset`). (Volatile
        // writes, one byte each, took longer than the schedule.)
        match self {
            AesRoundKeys::Aes128(k) => crate::ct::wipe_now(k.as_flattened_mut()),
            AesRoundKeys::Aes192(k) => crate::ct::wipe_now(k.as_flattened_mut()),
            AesRoundKeys::Aes256(k) => crate::ct::wipe_now(k.as_flattened_mut()),
        }
    }
}

impl Drop for AesRoundKeys {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for AesRoundKeys {}
