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
///
/// A primitive representation (RFC 2195): each variant is laid out as a
/// `repr(C)` struct of the `u128` tag and the array, so the round keys sit
/// 16 bytes in, 16-byte aligned (after a one-byte tag, one 16-byte store
/// or load of a round key in four crossed a cache line), and
/// [`AesRoundKeys::init_aes256`] can write a schedule in place.
#[repr(u128)]
pub enum AesRoundKeys {
    /// AES-128: 10 rounds.
    Aes128([[u8; 16]; 11]) = 0,
    /// AES-192: 12 rounds.
    Aes192([[u8; 16]; 13]) = 1,
    /// AES-256: 14 rounds.
    Aes256([[u8; 16]; 15]) = 2,
}

/// The layout of [`AesRoundKeys::Aes256`] under the enum's representation.
#[repr(C)]
struct Aes256Layout {
    tag: u128,
    keys: [[u8; 16]; 15],
}

impl AesRoundKeys {
    /// Makes `slot` an AES-256 schedule whose 15 round keys `fill` writes
    /// through the pointer it is given (to the first), and returns it with
    /// what `fill` returned: the keys are not written twice (zeros first,
    /// then the schedule: 240 bytes of stores per XAES-256-GCM message).
    ///
    /// # Safety
    /// `fill` writes all 240 bytes from the pointer (and reads none of
    /// them before it wrote them).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    pub(crate) unsafe fn init_aes256<R>(
        slot: &mut core::mem::MaybeUninit<Self>,
        fill: impl FnOnce(*mut [u8; 16]) -> R,
    ) -> (&Self, R) {
        let p = slot.as_mut_ptr().cast::<Aes256Layout>();
        // SAFETY: the enum's primitive representation makes a value with
        // tag 2 (Aes256) and its array exactly an Aes256Layout; the tag is
        // written here and every byte of the array by `fill` (the
        // caller's promise), so the value is initialized when assumed.
        unsafe {
            core::ptr::addr_of_mut!((*p).tag).write(2);
            let r = fill(core::ptr::addr_of_mut!((*p).keys).cast());
            (slot.assume_init_ref(), r)
        }
    }

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
        // All 240 bytes after the tag, whatever the variant: moving a
        // shorter schedule (into its box, for one) copies the bytes past
        // its last round key from wherever the value was built, which can
        // hold an earlier schedule (tests/security.rs saw it on the heap).
        // One volatile store of a known length: a few vector stores.
        let p = (self as *mut Self).cast::<Aes256Layout>();
        // SAFETY: under the primitive representation every variant is the
        // u128 tag followed by its array within the enum's 256 bytes, so
        // `keys` of an Aes256Layout covers the variant's round keys and
        // the bytes after them; zeros keep the variant valid (any bytes
        // are a valid array, the ones after it are never read). A raw
        // write: those bytes need not be initialized.
        unsafe {
            core::ptr::write_volatile(core::ptr::addr_of_mut!((*p).keys), [[0u8; 16]; 15]);
        }
    }
}

impl Drop for AesRoundKeys {
    fn drop(&mut self) {
        self.zeroize();
        // And the tag, so the freed memory is all zeros: tag 0 is Aes128,
        // whose round keys are now zeros, a valid value for the drop glue
        // that follows (none: the arrays have none).
        let p = (self as *mut Self).cast::<Aes256Layout>();
        // SAFETY: the tag field of the primitive representation (see
        // `zeroize`); 0 is a valid tag.
        unsafe { core::ptr::write_volatile(core::ptr::addr_of_mut!((*p).tag), 0) };
    }
}

impl ZeroizeOnDrop for AesRoundKeys {}
