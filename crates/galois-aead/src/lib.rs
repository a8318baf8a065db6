//! galois: authenticated encryption over Galois fields.
//!
//! AES-GCM and GMAC exactly as the GCM specification (McGrew and Viega)
//! defines them, with every GHASH strategy the papers give, chosen once per
//! key by CPU detection or pinned by name.
//!
//! ```
//! use galois_aead::AesGcm;
//! let key = [0x42u8; 16];
//! let gcm = AesGcm::new(&key)?;
//! let iv = [7u8; 12]; // never reuse an IV with the same key
//! let sealed = gcm.seal(&iv, b"header", b"secret")?;
//! assert_eq!(gcm.open(&iv, b"header", &sealed)?, b"secret");
//! # Ok::<(), galois_aead::Error>(())
//! ```

mod aead;
mod aes;
pub mod block;
pub mod chunked;
/// Constant-time comparison and wiping (public with the `hazmat` feature,
/// for this project's tools; not part of the API).
#[cfg(feature = "hazmat")]
pub mod ct;
#[cfg(not(feature = "hazmat"))]
#[allow(dead_code)]
pub(crate) mod ct;
/// CPU feature detection (public with the `hazmat` feature, for this
/// project's tools; not part of the API).
#[cfg(feature = "hazmat")]
pub mod detect;
#[cfg(not(feature = "hazmat"))]
#[allow(dead_code)]
pub(crate) mod detect;
mod error;
pub mod gcm;
pub mod gcm64;
pub mod gcm_siv;
mod gf128;
pub mod gf64;
pub mod limits;
pub mod mac;
pub mod packet;
pub mod poly1305;
mod registry;
#[cfg(feature = "rustcrypto")]
pub mod rustcrypto;
pub mod stream;
pub mod xaes;

pub use aead::Tag;
pub use aead::{Aead, AeadInit, Options, ShortTag};
pub use aes::{Aes, AesBackend};
pub use block::{Block, BlockCipher128, BlockCipher64};
pub use error::{Error, Result};
pub use gcm::{AesGcm, BatchPacket, Gcm};
pub use gcm_siv::AesGcmSiv;
pub use gf128::{gf128_mul, Ghash, GhashBackend};
pub use mac::gmac::{AesGmac, Gmac};
pub use xaes::XAes256Gcm;
