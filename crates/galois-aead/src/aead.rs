//! The one AEAD contract: every AEAD of this crate ([`AesGcm`] and any
//! [`Gcm`], [`AesGcmSiv`], [`XAes256Gcm`]) implements only its core (check
//! the arguments; seal and open, in place or from a source of the same
//! length); every other way to call it (detached or tag appended, in place,
//! into a caller's buffer, allocating) is written once, here, as a provided
//! method of [`Aead`], with the rule every binding relies on: **every check
//! comes before any plaintext is written, and an output that a failed call
//! wrote to is wiped.** The inherent methods of the same names on each
//! type forward here (one macro, `aead_methods!`), so no `use` is needed to call
//! them; generic code (the formats, the C and Python bindings) takes
//! `A: Aead` or `A: AeadInit`.
//!
//! Adding an AEAD: its module, one `aead_core!` (its `sealed::Core`: the
//! length check and the two cores), one `impl Aead` (name and nonce
//! length), one `impl AeadInit`
//! (key lengths and `new`), `aead_methods!` in its inherent impl, and a line
//! in each binding's table (see docs/architecture.md).
//!
//! ```
//! use galois_aead::{Aead, AeadInit, AesGcm, AesGcmSiv, XAes256Gcm};
//! fn round_trip<A: AeadInit>(key: &[u8]) -> galois_aead::Result<()> {
//!     let a = A::new(key)?;
//!     let nonce = vec![7u8; A::NONCE_LEN];
//!     let sealed = Aead::seal(&a, &nonce, b"aad", b"msg")?;
//!     assert_eq!(sealed.len(), 3 + a.tag_len());
//!     assert_eq!(Aead::open(&a, &nonce, b"aad", &sealed)?, b"msg");
//!     Ok(())
//! }
//! round_trip::<AesGcm>(&[1; 16])?;
//! round_trip::<AesGcmSiv>(&[1; 32])?;
//! round_trip::<XAes256Gcm>(&[1; 32])?;
//! # Ok::<(), galois_aead::Error>(())
//! ```
//!
//! [`Gcm`]: crate::Gcm
//! [`AesGcm`]: crate::AesGcm
//! [`AesGcmSiv`]: crate::AesGcmSiv
//! [`XAes256Gcm`]: crate::XAes256Gcm

use crate::aes::{Aes, AesBackend};
use crate::ct;
use crate::error::{Error, Result};
use crate::gf128::GhashBackend;

/// The short GCM tag lengths, set with [`Options::short_tag`].
///
/// ```
/// use galois_aead::{AesGcm, Options, ShortTag};
/// let gcm = AesGcm::with_options(&[0u8; 16], Options::new().short_tag(ShortTag::Bytes4))?;
/// assert_eq!(gcm.seal(&[0; 12], b"", b"x")?.len(), 1 + 4);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShortTag {
    /// A 64-bit tag.
    Bytes8,
    /// A 32-bit tag.
    Bytes4,
}

/// How a key of any AEAD is set up ([`AeadInit::with_options`]): the
/// implementations (GHASH and AES backends) for all of them; for AES-GCM
/// also the tag length, IV policy and the zero-H check, fixed for the life
/// of the key. AES-GCM-SIV and XAES-256-GCM refuse the GCM-only options
/// ([`Error::UnsupportedOption`]).
///
/// ```
/// use galois_aead::{AesGcm, GhashBackend, Options};
/// let opts = Options::new().tag_len(12)?.backend(GhashBackend::Ctmul64);
/// let gcm = AesGcm::with_options(&[0u8; 16], opts)?;
/// assert_eq!((gcm.tag_len(), gcm.backend()), (12, GhashBackend::Ctmul64));
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub(crate) tag_len: u8,
    pub(crate) permissive: bool,
    pub(crate) refuse_zero_h: bool,
    pub(crate) backend: Option<GhashBackend>,
    pub(crate) aes: Option<AesBackend>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tag_len: 16,
            permissive: false,
            refuse_zero_h: false,
            backend: None,
            aes: None,
        }
    }
}

impl Options {
    /// 16-byte tags, automatic backends.
    ///
    /// ```
    /// assert_eq!(galois_aead::Options::new().get_tag_len(), 16);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A truncated tag of 12 to 16 bytes. With fewer than 16 bytes the key
    /// accepts only 12-byte IVs (spec 2.1).
    ///
    /// ```
    /// use galois_aead::{Error, Options};
    /// assert_eq!(Options::new().tag_len(13)?.get_tag_len(), 13);
    /// assert_eq!(Options::new().tag_len(8), Err(Error::InvalidTagLength { got: 8 }));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn tag_len(mut self, n: usize) -> Result<Self> {
        if !(12..=16).contains(&n) {
            return Err(Error::InvalidTagLength { got: n });
        }
        self.tag_len = n as u8;
        Ok(self)
    }

    /// A 64- or 32-bit tag, for the protocols that need one. Read the
    /// spec's Appendix C limits first: forgeries get likely far sooner.
    ///
    /// ```
    /// use galois_aead::{Options, ShortTag};
    /// assert_eq!(Options::new().short_tag(ShortTag::Bytes8).get_tag_len(), 8);
    /// ```
    pub fn short_tag(mut self, t: ShortTag) -> Self {
        self.tag_len = match t {
            ShortTag::Bytes8 => 8,
            ShortTag::Bytes4 => 4,
        };
        self
    }

    /// Any tag length from 4 to 16 bytes with IVs of any length: for
    /// interoperability and conformance testing only (the NIST CAVP set
    /// pairs 1-byte IVs with 4-byte tags).
    ///
    /// ```
    /// use galois_aead::{AesGcm, Options};
    /// let gcm = AesGcm::with_options(&[0u8; 16], Options::new().permissive_tag_len(4)?)?;
    /// assert!(gcm.seal(&[1], b"", b"a 1-byte IV").is_ok());
    /// assert!(Options::new().permissive_tag_len(3).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn permissive_tag_len(mut self, n: usize) -> Result<Self> {
        if !(4..=16).contains(&n) {
            return Err(Error::InvalidTagLength { got: n });
        }
        self.tag_len = n as u8;
        self.permissive = true;
        Ok(self)
    }

    /// Refuses a key whose hash key H = E(K, 0) is zero ("The Security and Performance of GCM" (McGrew and Viega, INDOCRYPT 2004), section
    /// 5), with [`Error::InvalidKey`].
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::with_options(&[1u8; 16], galois_aead::Options::new().refuse_zero_h())?;
    /// assert!(!gcm.h_is_zero());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn refuse_zero_h(mut self) -> Self {
        self.refuse_zero_h = true;
        self
    }

    /// Pins the GHASH backend.
    ///
    /// ```
    /// use galois_aead::{AesGcm, GhashBackend, Options};
    /// let gcm = AesGcm::with_options(&[0u8; 16], Options::new().backend(GhashBackend::Table4Vartime))?;
    /// assert_eq!(gcm.backend(), GhashBackend::Table4Vartime);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(mut self, b: GhashBackend) -> Self {
        self.backend = Some(b);
        self
    }

    /// Pins the AES backend.
    ///
    /// ```
    /// use galois_aead::{AesBackend, AesGcm, Options};
    /// let gcm = AesGcm::with_options(&[0u8; 16], Options::new().aes_backend(AesBackend::Portable))?;
    /// assert_eq!(gcm.aes_backend(), AesBackend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aes_backend(mut self, b: AesBackend) -> Self {
        self.aes = Some(b);
        self
    }

    /// The tag length in bytes.
    ///
    /// ```
    /// assert_eq!(galois_aead::Options::new().tag_len(14)?.get_tag_len(), 14);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn get_tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// The AES key schedule of `key` on the pinned AES backend, else on
    /// the automatic one.
    pub(crate) fn aes_key(&self, key: &[u8]) -> Result<Aes> {
        match self.aes {
            Some(b) => Aes::with_backend(key, b),
            None => Aes::new(key),
        }
    }

    /// For the AEADs with a fixed 16-byte tag and their own IV rules: the
    /// pinned GHASH backend (checked against the CPU), after refusing
    /// every GCM-only option.
    pub(crate) fn backends_only(&self) -> Result<Option<GhashBackend>> {
        if self.tag_len != 16 {
            return Err(Error::InvalidTagLength {
                got: self.tag_len as usize,
            });
        }
        if self.permissive {
            return Err(Error::UnsupportedOption {
                option: "permissive_tag_len",
            });
        }
        if self.refuse_zero_h {
            return Err(Error::UnsupportedOption {
                option: "refuse_zero_h",
            });
        }
        if let Some(b) = self.backend.filter(|b| !b.is_available()) {
            return Err(Error::BackendUnavailable { backend: b.name() });
        }
        Ok(self.backend)
    }
}

pub(crate) mod sealed {
    use super::Tag;
    use crate::error::Result;

    /// What each AEAD implements; only this crate can (the trait is not
    /// nameable outside it):
    ///
    /// ```compile_fail
    /// struct Mine;
    /// impl galois_aead::Aead for Mine {
    ///     const NAME: &'static str = "mine";
    ///     const NONCE_LEN: usize = 12;
    /// }
    /// ```
    pub trait Core {
        /// The tag length in bytes (16 unless the key truncates its tags).
        fn tag_bytes(&self) -> usize {
            16
        }
        /// Refuses a nonce this key does not take (unless the AEAD says
        /// otherwise: any but one of exactly `NONCE_LEN` bytes).
        fn check_nonce(&self, nonce: &[u8]) -> Result<()>
        where
            Self: crate::Aead,
        {
            super::exact_nonce(nonce, Self::NONCE_LEN)
        }
        /// Refuses additional data or a text too long for one message.
        fn check_lens(&self, aad: &[u8], text_len: usize) -> Result<()>;
        /// Seals `src` (the same length as `buf`) into `buf`, or `buf` in
        /// place; called only after both checks passed.
        fn seal_core(
            &self,
            nonce: &[u8],
            aad: &[u8],
            src: Option<&[u8]>,
            buf: &mut [u8],
        ) -> Result<Tag>;
        /// Opens `src` into `buf`, or `buf` in place; `Ok(true)` if `tag`
        /// (of `tag_bytes()` bytes) verified. Called only after both
        /// checks passed; on anything but `Ok(true)` the caller wipes `buf`.
        fn open_core(
            &self,
            nonce: &[u8],
            aad: &[u8],
            src: Option<&[u8]>,
            buf: &mut [u8],
            tag: &[u8],
        ) -> Result<bool>;
    }
}

/// `impl sealed::Core` for an AEAD, with the cores' signatures written
/// once, here: the invocation names the length check (a `check_lengths`),
/// the cores' arguments (`self` first) and gives their bodies, then any
/// override of `tag_bytes` or `check_nonce`.
macro_rules! aead_core {
    (
        impl$([$($g:tt)*])? for $t:ty;
        check_lens = $check:path;
        fn seal_core($s:ident, $n:ident, $a:ident, $src:ident, $buf:ident) $seal:block
        fn open_core($s2:ident, $n2:ident, $a2:ident, $src2:ident, $buf2:ident, $tag:ident) $open:block
        $($item:item)*
    ) => {
        impl$(<$($g)*>)? $crate::aead::sealed::Core for $t {
            fn check_lens(&self, aad: &[u8], text_len: usize) -> $crate::Result<()> {
                $check(aad, text_len)
            }
            fn seal_core(&$s, $n: &[u8], $a: &[u8], $src: Option<&[u8]>, $buf: &mut [u8]) -> $crate::Result<$crate::aead::Tag> $seal
            fn open_core(&$s2, $n2: &[u8], $a2: &[u8], $src2: Option<&[u8]>, $buf2: &mut [u8], $tag: &[u8]) -> $crate::Result<bool> $open
            $($item)*
        }
    };
}
pub(crate) use aead_core;

/// Wipes `out` and returns `e` (out of line: the failure path).
#[cold]
#[inline(never)]
fn wiped<T>(out: &mut [u8], e: Error) -> Result<T> {
    ct::wipe(out);
    Err(e)
}

/// The check of an AEAD whose nonces have exactly `len` bytes.
pub(crate) fn exact_nonce(nonce: &[u8], len: usize) -> Result<()> {
    if nonce.len() == len {
        Ok(())
    } else {
        Err(Error::InvalidNonceLength { got: nonce.len() })
    }
}

/// For the AEADs' unit tests: `check` (a `check_lengths`) takes a text of
/// `max` bytes and refuses one more, before any work.
#[cfg(test)]
pub(crate) fn assert_text_limit(check: fn(&[u8], usize) -> Result<()>, max: u64) {
    assert_eq!(check(&[], max as usize), Ok(()));
    let len = max + 1;
    assert_eq!(
        check(&[], len as usize),
        Err(Error::MessageTooLong { len, max })
    );
}

/// The exact-length check of a caller's output buffer.
fn need(expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::BufferLength { expected, got })
    }
}

/// An AEAD of this crate: every way to seal and open, over each AEAD's
/// core (sealed: see the module documentation).
///
/// ```
/// use galois_aead::{Aead, XAes256Gcm};
/// assert_eq!(<XAes256Gcm as Aead>::NONCE_LEN, 24);
/// assert_eq!(<galois_aead::AesGcmSiv as Aead>::NAME, "aes-gcm-siv");
/// ```
pub trait Aead: sealed::Core + Sized {
    /// A short lower-case name ("aes-gcm", "aes-gcm-siv", "xaes-256-gcm").
    /// ```
    /// use galois_aead::{Aead, AesGcm, XAes256Gcm};
    /// assert_eq!(<AesGcm as Aead>::NAME, "aes-gcm");
    /// assert_eq!(<XAes256Gcm as Aead>::NAME, "xaes-256-gcm");
    /// ```
    const NAME: &'static str;
    /// The nonce length in bytes (AES-GCM also takes other IV lengths).
    /// ```
    /// use galois_aead::{Aead, AesGcm, AesGcmSiv};
    /// assert_eq!((<AesGcm as Aead>::NONCE_LEN, <AesGcmSiv as Aead>::NONCE_LEN), (12, 12));
    /// ```
    const NONCE_LEN: usize;

    /// The tag length in bytes.
    /// ```
    /// use galois_aead::{Aead, AesGcmSiv};
    /// assert_eq!(Aead::tag_len(&AesGcmSiv::new(&[1; 16])?), 16);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn tag_len(&self) -> usize {
        self.tag_bytes()
    }

    /// Refuses additional data or a text too long for one message, before
    /// any work (a format checks this before it spends a nonce).
    /// ```
    /// use galois_aead::{Aead, AesGcmSiv};
    /// let siv = AesGcmSiv::new(&[1; 16])?;
    /// assert!(Aead::check_lengths(&siv, b"", 100).is_ok());
    /// assert!(Aead::check_lengths(&siv, b"", (1 << 36) + 1).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn check_lengths(&self, aad: &[u8], text_len: usize) -> Result<()> {
        sealed::Core::check_lens(self, aad, text_len)
    }

    /// Encrypts `buf` in place and returns the detached tag. A refused
    /// seal leaves `buf` as it was.
    /// ```
    /// use galois_aead::{Aead, AesGcm};
    /// let g = AesGcm::new(&[1; 16])?;
    /// let mut buf = *b"abc";
    /// let tag = Aead::seal_in_place_detached(&g, &[0; 12], b"", &mut buf)?;
    /// assert_eq!([&buf[..], tag.as_bytes()].concat(), g.seal(&[0; 12], b"", b"abc")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal_in_place_detached(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag> {
        self.check_nonce(nonce)?;
        sealed::Core::check_lens(self, aad, buf.len())?;
        self.seal_core(nonce, aad, None, buf)
    }

    /// Decrypts `buf` in place if `tag` verifies; on any failure `buf` is
    /// wiped (and [`Error::AuthenticationFailed`] is the only error a
    /// well-formed forgery gets).
    /// ```
    /// use galois_aead::{Aead, AesGcmSiv, Error};
    /// let g = AesGcmSiv::new(&[1; 16])?;
    /// let mut buf = *b"abc";
    /// let tag = Aead::seal_in_place_detached(&g, &[0; 12], b"", &mut buf)?;
    /// let mut forged = buf;
    /// forged[0] ^= 1;
    /// let r = Aead::open_in_place_detached(&g, &[0; 12], b"", &mut forged, tag.as_bytes());
    /// assert_eq!((r, forged), (Err(Error::AuthenticationFailed), [0; 3]));
    /// Aead::open_in_place_detached(&g, &[0; 12], b"", &mut buf, tag.as_bytes())?;
    /// assert_eq!(&buf, b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<()> {
        open_checked(self, nonce, aad, None, buf, tag)
    }

    /// Encrypts `pt` into `out` (the same length) and returns the detached
    /// tag. Every check comes before `pt` is read: a refused seal leaves
    /// `out` wiped, never holding plaintext.
    /// ```
    /// use galois_aead::{Aead, AesGcmSiv};
    /// let siv = AesGcmSiv::new(&[1; 16])?;
    /// let mut out = [0xa5u8; 5];
    /// assert!(siv.seal_detached_into(&[0; 13], b"", b"hello", &mut out).is_err());
    /// assert_eq!(out, [0; 5]);
    /// let tag = siv.seal_detached_into(&[0; 12], b"", b"hello", &mut out)?;
    /// let mut pt = [0u8; 5];
    /// siv.open_detached_into(&[0; 12], b"", &out, tag.as_bytes(), &mut pt)?;
    /// assert_eq!(&pt, b"hello");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal_detached_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        pt: &[u8],
        out: &mut [u8],
    ) -> Result<Tag> {
        if let Err(e) = self.check_nonce(nonce) {
            return wiped(out, e);
        }
        seal_nonce_checked(self, nonce, aad, pt, out)
    }

    /// Decrypts `ct` into `out` (the same length) if `tag` verifies; on
    /// any failure `out` is wiped.
    /// ```
    /// use galois_aead::{Aead, AesGcm, Error};
    /// let g = AesGcm::new(&[1; 16])?;
    /// let mut ct = [0u8; 5];
    /// let tag = g.seal_detached_into(&[0; 12], b"", b"hello", &mut ct)?;
    /// let mut pt = [0xa5u8; 5];
    /// let r = g.open_detached_into(&[0; 12], b"aad?", &ct, tag.as_bytes(), &mut pt);
    /// assert_eq!((r, pt), (Err(Error::AuthenticationFailed), [0; 5]));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open_detached_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ct: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<()> {
        if let Err(e) = need(ct.len(), out.len()) {
            return wiped(out, e);
        }
        open_checked(self, nonce, aad, Some(ct), out, tag)
    }

    /// Seals `pt` into `out`, which must hold `pt.len() + tag_len()` bytes:
    /// ciphertext then tag. A refused seal leaves `out` wiped.
    /// ```
    /// use galois_aead::{Aead, XAes256Gcm};
    /// let x = XAes256Gcm::new(&[1; 32])?;
    /// let mut out = [0u8; 3 + 16];
    /// x.seal_into(&[0; 24], b"", b"abc", &mut out)?;
    /// assert_eq!(out.to_vec(), x.seal(&[0; 24], b"", b"abc")?);
    /// let mut short = [0xa5u8; 3];
    /// assert!(x.seal_into(&[0; 24], b"", b"abc", &mut short).is_err());
    /// assert_eq!(short, [0; 3]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal_into(&self, nonce: &[u8], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<()> {
        let t = self.tag_bytes();
        let checked = self
            .check_nonce(nonce)
            .and_then(|_| need(pt.len().saturating_add(t), out.len()));
        if let Err(e) = checked {
            return wiped(out, e);
        }
        let (c, rest) = out.split_at_mut(pt.len());
        match seal_nonce_checked(self, nonce, aad, pt, c) {
            Ok(tag) => {
                rest.copy_from_slice(tag.as_bytes());
                Ok(())
            }
            Err(e) => wiped(rest, e),
        }
    }

    /// Opens ciphertext-then-tag `input` into `out`, which must hold
    /// `input.len() - tag_len()` bytes; on any failure `out` is wiped.
    /// ```
    /// use galois_aead::{Aead, XAes256Gcm};
    /// let x = XAes256Gcm::new(&[1; 32])?;
    /// let sealed = x.seal(&[0; 24], b"", b"abc")?;
    /// let mut out = [0u8; 3];
    /// x.open_into(&[0; 24], b"", &sealed, &mut out)?;
    /// assert_eq!(&out, b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open_into(&self, nonce: &[u8], aad: &[u8], input: &[u8], out: &mut [u8]) -> Result<()> {
        let t = self.tag_bytes();
        if input.len() < t {
            // A wrong nonce is named first, as on every other path.
            let e = self
                .check_nonce(nonce)
                .err()
                .unwrap_or(Error::CiphertextTooShort {
                    len: input.len(),
                    min: t,
                });
            return wiped(out, e);
        }
        let (c, tag) = input.split_at(input.len() - t);
        // (open_checked checks the nonce: once per call.)
        self.open_detached_into(nonce, aad, c, tag, out)
    }

    /// Ciphertext then tag, in a new vector.
    /// ```
    /// use galois_aead::{Aead, AesGcm};
    /// let g = AesGcm::new(&[1; 16])?;
    /// assert_eq!(g.seal(&[0; 12], b"a", b"m")?.len(), 1 + 16);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal(&self, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
        self.check_nonce(nonce)?;
        let mut out = vec![0u8; pt.len() + self.tag_bytes()];
        self.seal_into(nonce, aad, pt, &mut out)?;
        Ok(out)
    }

    /// The plaintext of ciphertext-then-tag `input`, only if it verifies.
    /// ```
    /// use galois_aead::{Aead, AesGcmSiv};
    /// let g = AesGcmSiv::new(&[1; 16])?;
    /// let sealed = g.seal(&[0; 12], b"a", b"m")?;
    /// assert_eq!(g.open(&[0; 12], b"a", &sealed)?, b"m");
    /// assert!(g.open(&[0; 12], b"b", &sealed).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open(&self, nonce: &[u8], aad: &[u8], input: &[u8]) -> Result<Vec<u8>> {
        self.check_nonce(nonce)?;
        let t = self.tag_bytes();
        if input.len() < t {
            return Err(Error::CiphertextTooShort {
                len: input.len(),
                min: t,
            });
        }
        let mut out = vec![0u8; input.len() - t];
        self.open_into(nonce, aad, input, &mut out)?;
        Ok(out)
    }

    /// Encrypts the vector's contents in place and appends the tag.
    /// ```
    /// use galois_aead::{Aead, AesGcm};
    /// let g = AesGcm::new(&[1; 16])?;
    /// let mut buf = b"abc".to_vec();
    /// g.seal_in_place_append_tag(&[0; 12], b"", &mut buf)?;
    /// assert_eq!(buf, g.seal(&[0; 12], b"", b"abc")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn seal_in_place_append_tag(&self, nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> Result<()> {
        let tag = self.seal_in_place_detached(nonce, aad, buf)?;
        buf.extend_from_slice(tag.as_bytes());
        Ok(())
    }

    /// Verifies and strips the appended tag, decrypting in place. On any
    /// failure the vector is wiped and emptied.
    /// ```
    /// use galois_aead::{Aead, AesGcm};
    /// let g = AesGcm::new(&[1; 16])?;
    /// let mut buf = g.seal(&[0; 12], b"", b"abc")?;
    /// g.open_in_place(&[0; 12], b"", &mut buf)?;
    /// assert_eq!(buf, b"abc");
    /// let mut bad = g.seal(&[0; 12], b"", b"abc")?;
    /// bad[0] ^= 0x80;
    /// assert!(g.open_in_place(&[0; 12], b"", &mut bad).is_err());
    /// assert!(bad.is_empty());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn open_in_place(&self, nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> Result<()> {
        let t = self.tag_bytes();
        let r = if buf.len() < t {
            Err(Error::CiphertextTooShort {
                len: buf.len(),
                min: t,
            })
        } else {
            let split = buf.len() - t;
            let (data, tag) = buf.split_at_mut(split);
            let r = self.open_in_place_detached(nonce, aad, data, tag);
            if r.is_ok() {
                ct::wipe(tag);
            }
            r
        };
        match r {
            Ok(()) => {
                buf.truncate(buf.len() - t);
                Ok(())
            }
            Err(e) => {
                ct::wipe(buf);
                buf.clear();
                Err(e)
            }
        }
    }
}

/// Seals `pt` into `out` once the nonce passed: the output's length and
/// the message's lengths, then the core; on any failure `out` is wiped.
#[inline(always)]
fn seal_nonce_checked<A: Aead>(
    a: &A,
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    out: &mut [u8],
) -> Result<Tag> {
    let checked =
        need(pt.len(), out.len()).and_then(|_| sealed::Core::check_lens(a, aad, pt.len()));
    if let Err(e) = checked {
        return wiped(out, e);
    }
    a.seal_core(nonce, aad, Some(pt), out)
        .or_else(|e| wiped(out, e))
}

/// The one opening path: every check, then the core; on any failure `buf`
/// is wiped.
#[inline(always)]
fn open_checked<A: Aead>(
    a: &A,
    nonce: &[u8],
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
    tag: &[u8],
) -> Result<()> {
    let checked = a.check_nonce(nonce).and_then(|_| {
        if tag.len() != a.tag_bytes() {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        sealed::Core::check_lens(a, aad, buf.len())
    });
    if let Err(e) = checked {
        return wiped(buf, e);
    }
    match a.open_core(nonce, aad, src, buf, tag) {
        Ok(true) => Ok(()),
        Ok(false) => wiped(buf, Error::AuthenticationFailed),
        Err(e) => wiped(buf, e),
    }
}

/// An AEAD made from a key alone: what the bindings' one-shot functions
/// and the formats build.
///
/// ```
/// use galois_aead::{Aead, AeadInit, XAes256Gcm};
/// let x = <XAes256Gcm as AeadInit>::new(&[1; 32])?;
/// assert_eq!(Aead::seal(&x, &[0; 24], b"", b"m")?, x.seal(&[0; 24], b"", b"m")?);
/// assert_eq!(<XAes256Gcm as AeadInit>::KEY_LENS, &[32]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub trait AeadInit: Aead + Send + Sync {
    /// The key lengths `new` takes, in bytes.
    /// ```
    /// use galois_aead::{AeadInit, AesGcm, AesGcmSiv};
    /// assert_eq!(<AesGcm as AeadInit>::KEY_LENS, &[16, 24, 32]);
    /// assert_eq!(<AesGcmSiv as AeadInit>::KEY_LENS, &[16, 24, 32]);
    /// ```
    const KEY_LENS: &'static [usize];

    /// The key set up as `opts` says.
    /// ```
    /// use galois_aead::{AeadInit, AesGcmSiv, GhashBackend, Error, Options};
    /// let siv = <AesGcmSiv as AeadInit>::with_options(&[1; 16], Options::new().backend(GhashBackend::Ctmul64))?;
    /// assert_eq!(siv.backend(), GhashBackend::Ctmul64);
    /// let gcm_only = Options::new().tag_len(12)?;
    /// assert_eq!(AesGcmSiv::with_options(&[1; 16], gcm_only).err(), Some(Error::InvalidTagLength { got: 12 }));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn with_options(key: &[u8], opts: Options) -> Result<Self>;

    /// The key on the fastest constant-time backends, with 16-byte tags.
    /// ```
    /// use galois_aead::{AeadInit, AesGcmSiv};
    /// assert!(<AesGcmSiv as AeadInit>::new(&[1; 20]).is_err());
    /// ```
    fn new(key: &[u8]) -> Result<Self> {
        Self::with_options(key, Options::new())
    }

    /// The key as the formats set it up: as `new`, and for AES-GCM a key
    /// with H = 0 refused ([`Options::refuse_zero_h`](crate::Options::refuse_zero_h)).
    /// ```
    /// use galois_aead::{Aead, AeadInit, AesGcm};
    /// assert_eq!(AesGcm::for_formats(&[1; 16])?.tag_len(), 16);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    fn for_formats(key: &[u8]) -> Result<Self> {
        Self::new(key)
    }
}

/// The inherent constructors of an AEAD type, forwarding to [`AeadInit`]
/// (so callers need no `use`). `$ty`: the type's path in examples; `$key`:
/// a key for it.
macro_rules! aead_init_methods {
    ($ty:literal, $key:literal) => {
        /// The key on the fastest constant-time backends with 16-byte tags
        /// ([`AeadInit::new`](crate::AeadInit::new)).
        ///
        #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nassert_eq!(a.tag_len(), 16);\nassert!(", $ty, "::new(&[0u8; 7]).is_err());\n# Ok::<(), galois_aead::Error>(())\n```")]
        pub fn new(key: &[u8]) -> $crate::Result<Self> {
            <Self as $crate::AeadInit>::new(key)
        }

        /// The key set up as `opts` says
        /// ([`AeadInit::with_options`](crate::AeadInit::with_options)).
        ///
        #[doc = concat!("```\nuse galois_aead::{GhashBackend, Options};\nlet a = ", $ty, "::with_options(&", $key, ", Options::new().backend(GhashBackend::Bitserial))?;\nassert_eq!(a.backend(), GhashBackend::Bitserial);\n# Ok::<(), galois_aead::Error>(())\n```")]
        pub fn with_options(key: &[u8], opts: $crate::Options) -> $crate::Result<Self> {
            <Self as $crate::AeadInit>::with_options(key, opts)
        }
    };
}
pub(crate) use aead_init_methods;

/// Inherent methods that forward to the [`Aead`] methods of the same
/// names, one line each: `name(params) -> T;` makes
/// `pub fn name(&self, params) -> Result<T>`, with the attributes before it.
macro_rules! aead_forward {
    ($($(#[$m:meta])* $name:ident($($a:ident: $t:ty),*) -> $r:ty;)*) => {
        $(
            $(#[$m])*
            #[inline]
            pub fn $name(&self, $($a: $t),*) -> $crate::Result<$r> {
                $crate::Aead::$name(self, $($a),*)
            }
        )*
    };
}
pub(crate) use aead_forward;

/// The inherent methods of an AEAD type, each forwarding to the [`Aead`]
/// method of the same name (so callers need no `use`). `$ty`: the type's
/// path in examples; `$key`, `$nonce`: a key and a nonce for them.
macro_rules! aead_methods {
    ($ty:literal, $key:literal, $nonce:literal) => {
        /// The tag length of this key, in bytes ([`Aead::tag_len`](crate::Aead::tag_len)).
        ///
        #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nassert_eq!(a.tag_len(), 16);\n# Ok::<(), galois_aead::Error>(())\n```")]
        #[inline]
        pub fn tag_len(&self) -> usize {
            $crate::Aead::tag_len(self)
        }

        $crate::aead::aead_forward! {
            /// Encrypts `buf` in place and returns the detached tag
            /// ([`Aead::seal_in_place_detached`](crate::Aead::seal_in_place_detached)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut buf = *b\"abc\";\nlet tag = a.seal_in_place_detached(&", $nonce, ", b\"hdr\", &mut buf)?;\na.open_in_place_detached(&", $nonce, ", b\"hdr\", &mut buf, tag.as_bytes())?;\nassert_eq!(&buf, b\"abc\");\n# Ok::<(), galois_aead::Error>(())\n```")]
            seal_in_place_detached(nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> $crate::Tag;
            /// Decrypts `buf` in place if `tag` verifies; on any failure `buf`
            /// is wiped ([`Aead::open_in_place_detached`](crate::Aead::open_in_place_detached)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut buf = *b\"abc\";\nlet tag = a.seal_in_place_detached(&", $nonce, ", b\"\", &mut buf)?;\nbuf[0] ^= 1;\nassert!(a.open_in_place_detached(&", $nonce, ", b\"\", &mut buf, tag.as_bytes()).is_err());\nassert_eq!(buf, [0; 3]);\n# Ok::<(), galois_aead::Error>(())\n```")]
            open_in_place_detached(nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> ();
            /// Encrypts `pt` into `out` (the same length) and returns the tag; a
            /// refused seal leaves `out` wiped
            /// ([`Aead::seal_detached_into`](crate::Aead::seal_detached_into)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut ct = [0u8; 5];\nlet tag = a.seal_detached_into(&", $nonce, ", b\"\", b\"hello\", &mut ct)?;\nlet mut pt = [0u8; 5];\na.open_detached_into(&", $nonce, ", b\"\", &ct, tag.as_bytes(), &mut pt)?;\nassert_eq!(&pt, b\"hello\");\n# Ok::<(), galois_aead::Error>(())\n```")]
            seal_detached_into(nonce: &[u8], aad: &[u8], pt: &[u8], out: &mut [u8]) -> $crate::Tag;
            /// Decrypts `ct` into `out` (the same length) if `tag` verifies; on
            /// any failure `out` is wiped
            /// ([`Aead::open_detached_into`](crate::Aead::open_detached_into)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut ct = [0u8; 5];\nlet tag = a.seal_detached_into(&", $nonce, ", b\"\", b\"hello\", &mut ct)?;\nlet mut pt = [0xa5u8; 5];\nassert!(a.open_detached_into(&", $nonce, ", b\"x\", &ct, tag.as_bytes(), &mut pt).is_err());\nassert_eq!(pt, [0; 5]);\n# Ok::<(), galois_aead::Error>(())\n```")]
            open_detached_into(nonce: &[u8], aad: &[u8], ct: &[u8], tag: &[u8], out: &mut [u8]) -> ();
            /// Seals `pt` into `out` (`pt.len()` + the tag length: ciphertext
            /// then tag); a refused seal leaves `out` wiped
            /// ([`Aead::seal_into`](crate::Aead::seal_into)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut out = [0u8; 3 + 16];\na.seal_into(&", $nonce, ", b\"\", b\"abc\", &mut out)?;\nassert_eq!(out.to_vec(), a.seal(&", $nonce, ", b\"\", b\"abc\")?);\n# Ok::<(), galois_aead::Error>(())\n```")]
            seal_into(nonce: &[u8], aad: &[u8], pt: &[u8], out: &mut [u8]) -> ();
            /// Opens ciphertext-then-tag `input` into `out` (`input.len()` -
            /// the tag length); on any failure `out` is wiped
            /// ([`Aead::open_into`](crate::Aead::open_into)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet sealed = a.seal(&", $nonce, ", b\"\", b\"abc\")?;\nlet mut out = [0u8; 3];\na.open_into(&", $nonce, ", b\"\", &sealed, &mut out)?;\nassert_eq!(&out, b\"abc\");\n# Ok::<(), galois_aead::Error>(())\n```")]
            open_into(nonce: &[u8], aad: &[u8], input: &[u8], out: &mut [u8]) -> ();
            /// Ciphertext then tag, in a new vector
            /// ([`Aead::seal`](crate::Aead::seal)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet sealed = a.seal(&", $nonce, ", b\"aad\", b\"secret\")?;\nassert_eq!(sealed.len(), 6 + 16);\n# Ok::<(), galois_aead::Error>(())\n```")]
            seal(nonce: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8>;
            /// The plaintext of ciphertext-then-tag `input`, only if it
            /// verifies ([`Aead::open`](crate::Aead::open)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet sealed = a.seal(&", $nonce, ", b\"aad\", b\"secret\")?;\nassert_eq!(a.open(&", $nonce, ", b\"aad\", &sealed)?, b\"secret\");\nassert!(a.open(&", $nonce, ", b\"other\", &sealed).is_err());\n# Ok::<(), galois_aead::Error>(())\n```")]
            open(nonce: &[u8], aad: &[u8], input: &[u8]) -> Vec<u8>;
            /// Encrypts the vector's contents in place and appends the tag
            /// ([`Aead::seal_in_place_append_tag`](crate::Aead::seal_in_place_append_tag)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut buf = b\"abc\".to_vec();\na.seal_in_place_append_tag(&", $nonce, ", b\"\", &mut buf)?;\nassert_eq!(buf, a.seal(&", $nonce, ", b\"\", b\"abc\")?);\n# Ok::<(), galois_aead::Error>(())\n```")]
            seal_in_place_append_tag(nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> ();
            /// Verifies and strips the appended tag, decrypting in place; on
            /// any failure the vector is wiped and emptied
            /// ([`Aead::open_in_place`](crate::Aead::open_in_place)).
            ///
            #[doc = concat!("```\nlet a = ", $ty, "::new(&", $key, ")?;\nlet mut buf = a.seal(&", $nonce, ", b\"\", b\"abc\")?;\na.open_in_place(&", $nonce, ", b\"\", &mut buf)?;\nassert_eq!(buf, b\"abc\");\n# Ok::<(), galois_aead::Error>(())\n```")]
            open_in_place(nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> ();
        }
    };
}
pub(crate) use aead_methods;

/// An authentication tag, truncated to the key's tag length. `==` compares
/// in constant time.
///
/// ```
/// let gcm = galois_aead::Options::new().tag_len(12).and_then(|o| galois_aead::AesGcm::with_options(&[1u8; 16], o))?;
/// let t = gcm.seal_in_place_detached(&[0; 12], b"", &mut [])?;
/// assert_eq!(t.as_bytes().len(), 12);
/// assert_eq!(t, gcm.seal_in_place_detached(&[0; 12], b"", &mut [])?);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Tag {
    bytes: [u8; 16],
    len: u8,
}

impl Tag {
    /// The tag bytes.
    ///
    /// ```
    /// let gcm = galois_aead::AesGcm::new(&[0u8; 16])?;
    /// let tag = gcm.seal_in_place_detached(&[0; 12], b"", &mut [])?;
    /// // Test case 1 of the GCM specification.
    /// assert_eq!(tag.as_bytes()[..4], [0x58, 0xe2, 0xfc, 0xce]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for Tag {
    /// Constant-time comparison.
    fn eq(&self, other: &Tag) -> bool {
        ct::eq(self.as_bytes(), other.as_bytes())
    }
}

impl Eq for Tag {}

impl Tag {
    /// The first `len` (1..=16) of `bytes`.
    pub(crate) fn new(bytes: [u8; 16], len: u8) -> Self {
        debug_assert!((1..=16).contains(&len));
        Tag { bytes, len }
    }

    /// A full 16-byte tag.
    pub(crate) fn full(bytes: [u8; 16]) -> Self {
        Tag { bytes, len: 16 }
    }
}

impl core::fmt::Debug for Tag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Tag(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}
