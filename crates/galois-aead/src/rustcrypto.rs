//! RustCrypto trait implementations (feature `rustcrypto`): galois types
//! usable wherever code is written against the `aead` 0.6 and
//! `universal-hash` 0.6 traits.
//!
//! * [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`]: AES-GCM with 12-byte
//!   nonces and 16-byte tags, implementing `KeySizeUser`, `KeyInit`,
//!   `AeadCore` and `AeadInOut` (the 0.6 successor of `AeadInPlace`; the
//!   blanket `Aead` impl follows with `aead`'s `alloc` feature). They give
//!   the same bytes as the `aes-gcm` crate's types of the same names.
//! * [`GHash`]: GHASH keyed with H, implementing `UniversalHash` (16-byte
//!   blocks; `update_padded` zero-pads, as GCM does).
//! * [`Poly1305`]: the one-time Poly1305 of RFC 8439 (key r || s),
//!   implementing `UniversalHash` over whole 16-byte blocks; its
//!   [`Poly1305::compute_unpadded`] hashes a message of any length.
//!
//! The trait crates are re-exported as [`aead`] and [`universal_hash`], so
//! the versions always match.
//!
//! ```
//! use galois_aead::rustcrypto::aead::{AeadInOut, KeyInit};
//! use galois_aead::rustcrypto::Aes256Gcm;
//!
//! let cipher = Aes256Gcm::new_from_slice(&[0x11; 32]).unwrap();
//! let nonce = [0x22u8; 12].into();
//! let mut buf = *b"hello, world";
//! let tag = cipher
//!     .encrypt_inout_detached(&nonce, b"header", buf.as_mut_slice().into())
//!     .unwrap();
//! cipher
//!     .decrypt_inout_detached(&nonce, b"header", buf.as_mut_slice().into(), &tag)
//!     .unwrap();
//! assert_eq!(&buf, b"hello, world");
//! ```

pub use aead;
pub use universal_hash;

use aead::array::Array;
use aead::consts::{U1, U12, U16, U24, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, TagPosition};
use universal_hash::common::{BlockSizeUser, ParBlocksSizeUser};
use universal_hash::{UhfBackend, UhfClosure, UniversalHash};

use crate::gcm::AesGcm;

macro_rules! aes_gcm_type {
    ($name:ident, $keysize:ty, $bits:literal, $keylen:literal) => {
        #[doc = concat!("AES-", $bits, "-GCM with 12-byte nonces and 16-byte tags, for the RustCrypto `aead` traits.")]
        ///
        /// A wrapper of [`AesGcm`] on the automatically selected backends.
        ///
        /// ```
        /// use galois_aead::rustcrypto::aead::{AeadInOut, KeyInit};
        #[doc = concat!("use galois_aead::rustcrypto::", stringify!($name), ";")]
        ///
        #[doc = concat!("let cipher = ", stringify!($name), "::new(&[7u8; ", $keylen, "].into());")]
        /// let nonce = [9u8; 12].into();
        /// let mut buf = *b"data";
        /// let tag = cipher
        ///     .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
        ///     .unwrap();
        /// assert!(cipher
        ///     .decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &tag)
        ///     .is_ok());
        /// assert_eq!(&buf, b"data");
        /// ```
        pub struct $name(AesGcm);

        impl $name {
            /// The galois key object underneath (for the galois API: other
            /// nonce lengths, `seal`/`open`, the backends in use).
            ///
            /// ```
            /// use galois_aead::rustcrypto::aead::KeyInit;
            #[doc = concat!("let c = galois_aead::rustcrypto::", stringify!($name), "::new(&[1u8; ", $keylen, "].into());")]
            /// assert_eq!(c.inner().tag_len(), 16);
            /// ```
            pub fn inner(&self) -> &AesGcm {
                &self.0
            }
        }

        impl KeySizeUser for $name {
            type KeySize = $keysize;
        }

        impl KeyInit for $name {
            /// # Panics
            ///
            /// Never: the key has a length AES takes and the automatic
            /// backends always exist.
            fn new(key: &Key<Self>) -> Self {
                $name(AesGcm::new(key.as_slice()).expect("AES key of a valid length"))
            }
        }

        impl AeadCore for $name {
            type NonceSize = U12;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<aead::Tag<Self>> {
                let buf = buffer.into_out_with_copied_in();
                let tag = self
                    .0
                    .seal_in_place_detached(nonce.as_slice(), associated_data, buf)
                    .map_err(|_| aead::Error)?;
                let mut t = [0u8; 16];
                t.copy_from_slice(tag.as_bytes());
                Ok(Array::from(t))
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &aead::Tag<Self>,
            ) -> aead::Result<()> {
                let buf = buffer.into_out_with_copied_in();
                self.0
                    .open_in_place_detached(nonce.as_slice(), associated_data, buf, tag.as_slice())
                    .map_err(|_| aead::Error)
            }
        }
    };
}

aes_gcm_type!(Aes128Gcm, U16, "128", "16");
aes_gcm_type!(Aes192Gcm, U24, "192", "24");
aes_gcm_type!(Aes256Gcm, U32, "256", "32");

/// The `universal-hash` traits of a wrapper `$t(inner)` whose inner hash
/// has `update(&[u8])` and `finalize() -> [u8; 16]`: one 16-byte block at
/// a time, absorbed whole.
macro_rules! universal_hash_over {
    ($t:ident) => {
        impl BlockSizeUser for $t {
            type BlockSize = U16;
        }

        impl ParBlocksSizeUser for $t {
            type ParBlocksSize = U1;
        }

        impl UhfBackend for $t {
            fn proc_block(&mut self, block: &universal_hash::Block<Self>) {
                self.0.update(block.as_slice());
            }
        }

        impl UniversalHash for $t {
            fn update_with_backend(&mut self, f: impl UhfClosure<BlockSize = Self::BlockSize>) {
                f.call(self);
            }

            fn finalize(self) -> universal_hash::Block<Self> {
                Array::from(self.0.finalize())
            }
        }
    };
}

/// GHASH keyed with H (16 bytes, spec bit order), as a RustCrypto
/// `UniversalHash`: blocks are absorbed as spec equation (2) does, and
/// `finalize` returns the accumulator.
///
/// ```
/// use galois_aead::rustcrypto::universal_hash::{KeyInit, UniversalHash};
/// use galois_aead::rustcrypto::GHash;
///
/// let h = [0x66u8; 16];
/// let mut a = GHash::new(&h.into());
/// a.update_padded(b"any length");
/// let mut b = galois_aead::Ghash::new(&h);
/// b.update_padded(b"any length");
/// assert_eq!(a.finalize().as_slice(), &b.finalize());
/// ```
pub struct GHash(crate::Ghash);

impl KeySizeUser for GHash {
    type KeySize = U16;
}

impl KeyInit for GHash {
    fn new(h: &Key<Self>) -> Self {
        let mut k = [0u8; 16];
        k.copy_from_slice(h.as_slice());
        let g = crate::Ghash::new(&k);
        zeroize::Zeroize::zeroize(&mut k);
        GHash(g)
    }
}

universal_hash_over!(GHash);

/// The one-time Poly1305 of RFC 8439 (32-byte key r || s, r clamped by the
/// MAC) as a RustCrypto `UniversalHash`. Each block fed through the trait is
/// a whole 16-byte chunk; `update_padded` zero-pads the last one (the AEAD
/// convention of RFC 8439 section 2.8). For the MAC of a message of any
/// length use [`Poly1305::compute_unpadded`].
///
/// ```
/// use galois_aead::rustcrypto::universal_hash::{KeyInit, UniversalHash};
/// use galois_aead::rustcrypto::Poly1305;
///
/// let key = [3u8; 32];
/// let msg = [5u8; 48]; // whole blocks: the trait path and the plain MAC agree
/// let mut p = Poly1305::new(&key.into());
/// p.update_padded(&msg);
/// let t = p.finalize();
/// assert_eq!(t.as_slice(), &galois_aead::poly1305::Poly1305::mac(&key, &msg)?);
/// assert_eq!(Poly1305::new(&key.into()).compute_unpadded(&msg[..47]).as_slice(),
///            &galois_aead::poly1305::Poly1305::mac(&key, &msg[..47])?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Poly1305(crate::poly1305::Poly1305);

impl Poly1305 {
    /// The tag of a message of any length (the last chunk not padded).
    ///
    /// ```
    /// use galois_aead::rustcrypto::Poly1305;
    /// use galois_aead::rustcrypto::universal_hash::KeyInit;
    /// let key = [3u8; 32];
    /// let t = Poly1305::new(&key.into()).compute_unpadded(b"odd length");
    /// assert_eq!(t.as_slice(), &galois_aead::poly1305::Poly1305::mac(&key, b"odd length")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn compute_unpadded(mut self, data: &[u8]) -> universal_hash::Block<Self> {
        self.0.update(data);
        Array::from(self.0.finalize())
    }
}

impl KeySizeUser for Poly1305 {
    type KeySize = U32;
}

impl KeyInit for Poly1305 {
    /// # Panics
    ///
    /// Never: every 32-byte string is a one-time Poly1305 key.
    fn new(key: &Key<Self>) -> Self {
        Poly1305(crate::poly1305::Poly1305::new(key.as_slice()).expect("32-byte Poly1305 key"))
    }
}

universal_hash_over!(Poly1305);
