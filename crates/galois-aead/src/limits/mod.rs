//! Usage limits: the security bounds of "The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004; Theorems 1 and 2,
//! Corollary 1), per-key counters that refuse to go past a chosen limit, a
//! random-nonce sealing API built on them, and key setup that refuses
//! H = 0 ("The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 5).
//!
//! # Bounds
//!
//! With q queries (packets), at most `l` bits of len(C) + len(A) per
//! query, l_P plaintext bits in total, IVs of at most l_IV bits, w-bit
//! blocks and t-bit tags, an adversary's advantage against GCM exceeds its
//! advantage A_E against the block cipher by at most
//!
//! * distinguishing (Theorem 1):
//!   (l_P/w + 2q)^2 2^(-w-1) + q ((l_P/w + 2q) ceil(l_IV/w + 1) 2^(1-w) + ceil(l/w + 1) 2^-t)
//! * forgery (Theorem 2): the same with (l_P/w + 2q + 1) in the middle term.
//!
//! Corollary 1 evaluates these for IPsec (w = 128, l_IV = 96, t = 96,
//! 1500-byte packets): q^2 2^-116 + q 2^-89.4 (the seed text lost the plus
//! signs). [`Bounds`] computes the general form, [`corollary1_distinguishing`]
//! and [`corollary1_forgery`] the paper's closed form.
//!
//! # Counters and defaults
//!
//! [`UsageLimits`] caps the messages and the total bytes (plaintext plus
//! AAD) one key may protect; [`Usage`] counts against it and returns
//! [`Error::LimitReached`](crate::Error::LimitReached) instead of going past. Defaults:
//!
//! * random 96-bit IVs ([`UsageLimits::RANDOM_IV`], used by
//!   [`RandomNonceGcm`]): 2^32 messages (the collision probability of
//!   random IVs then stays below 2^-33) and 2^68 bytes (the GCM specification (McGrew and Viega), section 2.1);
//! * sequence-number IVs ([`UsageLimits::PACKETS`], used by
//!   [`crate::packet::PacketSealer`]): 2^48 packets, the figure for which
//!   Corollary 1 gives an advantage of at most 2^-18, and 2^68 bytes.

//!
//! # Layout
//!
//! One file per concern: `bounds.rs` (the paper's formulas), `usage.rs`
//! (limits and counters), `random_nonce.rs` ([`RandomNonceGcm`]). Refusing
//! H = 0 lives with key setup ([`Options::refuse_zero_h`]); the two
//! functions below only name that option.

mod bounds;
mod random_nonce;
mod usage;

pub use bounds::{
    corollary1_distinguishing, corollary1_forgery, distinguishing_bound, forgery_bound,
    max_queries, Bounds,
};
pub use random_nonce::RandomNonceGcm;
pub use usage::{Usage, UsageLimits, MAX_RANDOM_IV_MESSAGES, MAX_TOTAL_BYTES};

use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::error::Result;
use crate::gcm::{AesGcm, Gcm, Options};

/// GCM over `cipher`, refusing a key whose H = E(K, 0^128) is zero with
/// [`Error::InvalidKey`](crate::Error::InvalidKey) ("The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section 5: with H = 0 GHASH ignores A
/// and C, so every IV of other than 96 bits gives the same Y0).
///
/// ```
/// use galois_aead::{limits::gcm_refusing_zero_h, Aes, Block, BlockCipher128, Options};
/// struct Zero; // a broken "cipher" whose H is zero
/// impl BlockCipher128 for Zero {
///     fn encrypt_block(&self, b: &mut Block) {
///         *b = [0; 16];
///     }
/// }
/// assert!(matches!(gcm_refusing_zero_h(Zero, Options::new()), Err(galois_aead::Error::InvalidKey { .. })));
/// assert!(gcm_refusing_zero_h(Aes::new(&[1; 16])?, Options::new()).is_ok());
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn gcm_refusing_zero_h<C: BlockCipher128>(cipher: C, opts: Options) -> Result<Gcm<C>> {
    Gcm::from_cipher(cipher, opts.refuse_zero_h())
}

/// AES-GCM refusing H = 0 (see [`gcm_refusing_zero_h`]).
///
/// ```
/// let gcm = galois_aead::limits::aes_gcm_refusing_zero_h(&[1u8; 16], galois_aead::Options::new())?;
/// assert!(!gcm.h_is_zero());
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn aes_gcm_refusing_zero_h(key: &[u8], opts: Options) -> Result<AesGcm> {
    gcm_refusing_zero_h(Aes::new(key)?, opts)
}
