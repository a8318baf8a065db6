//! Poly1305-AES (Bernstein, FSE 2005) and the one-time Poly1305 of RFC 8439.
//!
//! Poly1305-AES authenticates a message m of any length under a 32-byte
//! secret key k || r (k a 16-byte AES key, r a 16-byte clamped number) and a
//! 16-byte nonce n:
//!
//! ```text
//! tag = (((c_1 r^q + ... + c_q r) mod 2^130 - 5) + AES_k(n)) mod 2^128
//! ```
//!
//! where c_i is the i-th 16-byte chunk of m read little-endian plus
//! 2^(8 len). The nonce must never repeat under one key:
//! [`nonce::NonceSequence`] and [`nonce::NonceStore`] hand out nonces that
//! cannot repeat, even across a crash.
//!
//! ```
//! use galois_aead::poly1305::{Poly1305Aes, clamp};
//! let mut key = [0x5au8; 32];
//! clamp(&mut key); // derived keys must be clamped; random ones: Poly1305Aes::generate_key()
//! let mac = Poly1305Aes::new(&key)?;
//! let nonce = [1u8; 16];
//! let tag = mac.authenticate(&nonce, b"message")?;
//! mac.verify(&nonce, b"message", &tag)?;
//! # Ok::<(), galois_aead::Error>(())
//! ```
//!
//! # Implementations
//!
//! The polynomial is evaluated by one of three backends, picked once when a
//! key is set up by [`Poly1305Backend::auto`] (the first line of the registry table
//! below this CPU can run) or pinned by name:
//! - [`Poly1305Backend::Portable`] (`portable.rs`): radix 2^64, 64 x 64 -> 128-bit
//!   products; used alone, and by every backend for short messages and the
//!   tail of long ones.
//! - [`Poly1305Backend::Avx2`] (`avx2.rs`): radix 2^26, four blocks in parallel
//!   with the powers r^1..r^4 (and r^8, r^12, r^16 for four groups per
//!   step).
//! - [`Poly1305Backend::Ifma`] (`ifma.rs`): radix 2^44 with AVX-512 IFMA
//!   (`vpmadd52luq/huq`), eight blocks in parallel with r^1..r^8 (and r^16,
//!   r^24, r^32 for several groups per step); medium inputs run the same
//!   arithmetic on four lanes (r^1..r^4 only).
//! - `Poly1305Backend::Neon` (`neon.rs`, aarch64 only): the AVX2 arithmetic
//!   (radix 2^26) on two NEON lanes with `UMULL/UMLAL`, r^1..r^4, from 256
//!   bytes on; pinned only (llvm-mca's estimates point both ways, see
//!   `neon.rs`).
//!
//! Key agility (paper, section 1): setting up a key computes nothing but r
//! in two words and 5 r1 / 4, and short messages use r alone. Powers of r
//! are computed per message, and only when that message is long enough for
//! the vector code (`MIN_LEN` in each SIMD file: 192 bytes for IFMA on four
//! lanes, 10 KiB on eight, 512 for AVX2, from measured break-even points).
//! AVX2 and IFMA compute them per long piece, four products deep, in the
//! vector unit; NEON computes r^2..r^4 once per message or stream and
//! keeps them for later pieces. Pieces shorter than `MIN_LEN` run the
//! portable code.

use crate::block::BlockCipher128;
use crate::error::{Error, Result};
use crate::Aes;
use zeroize::{Zeroize, Zeroizing};

#[cfg(target_arch = "x86_64")]
#[path = "x86_64/avx2.rs"]
mod avx2;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/ifma.rs"]
mod ifma;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
#[path = "aarch64/neon.rs"]
mod neon;
pub mod nonce;
mod portable;
mod radix44;

use portable::{Acc, Key64};
use radix44::Limbs;

/// What each backend file provides: a token that exists only once the CPU
/// features were detected, and the vector code for long inputs.
pub(crate) trait Poly1305Imp: Copy {
    /// The token, or `None` if the CPU lacks the features.
    fn new() -> Option<Self>;
    /// The shortest input [`Poly1305Imp::bulk`] takes anything from
    /// (`usize::MAX`: none).
    const MIN_LEN: usize;
    /// Absorbs the longest prefix of `data` the vector code takes into `h`
    /// (powers of r from `pw` as needed); returns its length in bytes.
    fn bulk<P: PowersSlot>(self, h: &mut Acc, k: &Key64, pw: &mut P, data: &[u8]) -> usize;
}

/// A SIMD backend's token and its [`Poly1305Imp`]: `$Name` is the proof
/// that this CPU passed `$probe` (only `$Name::new` makes one, after the
/// probe), `Imp` the file's line in the registry table, `min_len` the
/// shortest input its `bulk` takes; `bulk` is written as a closure of the
/// token and the arguments.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_macros)
)]
macro_rules! simd_backend {
    (
        $(#[$meta:meta])*
        $Name:ident = $probe:path, min_len = $min:expr,
        bulk = |$s:ident, $h:ident, $k:ident, $pw:pat_param, $data:ident| $body:expr
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy)]
        pub(crate) struct $Name {
            _private: (),
        }

        impl $Name {
            /// The token, after run-time detection.
            pub(crate) fn new() -> Option<Self> {
                $probe().then_some($Name { _private: () })
            }
        }

        /// This file's line in the registry table of `poly1305/mod.rs`.
        pub(crate) type Imp = $Name;

        impl super::Poly1305Imp for $Name {
            fn new() -> Option<Self> {
                $Name::new()
            }
            const MIN_LEN: usize = $min;
            #[inline(always)]
            fn bulk<P: super::PowersSlot>(
                self,
                $h: &mut [u64; 3],
                $k: &super::portable::Key64,
                $pw: &mut P,
                $data: &[u8],
            ) -> usize {
                let $s = self;
                $body
            }
        }
    };
}

#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unused_imports)
)]
pub(crate) use simd_backend;

/// [`Poly1305Imp::bulk`] of a backend that takes whole `CHUNK`-byte runs
/// from `MIN_LEN` bytes on with r^1..r^`POWERS`: runs `blocks` on the
/// longest such prefix and returns its length (0 below `MIN_LEN`).
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
#[inline(always)]
fn bulk_chunks<const MIN_LEN: usize, const CHUNK: usize, const POWERS: usize>(
    h: &mut Acc,
    k: &Key64,
    pw: &mut impl PowersSlot,
    data: &[u8],
    blocks: impl FnOnce(&mut Acc, &Powers, &[u8]),
) -> usize {
    if data.len() < MIN_LEN {
        return 0;
    }
    let n = data.len() / CHUNK * CHUNK;
    let pw = pw.get();
    pw.ensure(k, POWERS);
    blocks(h, pw, &data[..n]);
    n
}

/// The code a key runs, one variant per table line holding that file's
/// token (`Imp`).
macro_rules! poly1305_imps {
    ($($list:tt)*) => {
        crate::registry::key_enum! {
            { $($list)* }
            #[derive(Clone, Copy)]
            enum Imp for Poly1305Backend = [] Imp [];
            /// The token of `b`; refused unless its table line's probe says
            /// this CPU can run it.
            fn new(b: Poly1305Backend) -> Result<Self> = b => |m| <m::Imp as Poly1305Imp>::new();
            #[inline(always)]
            fn min_len() -> usize = |_, m| <m::Imp as Poly1305Imp>::MIN_LEN;
            #[inline(always)]
            fn bulk<P: PowersSlot>(h: &mut Acc, k: &Key64, pw: &mut P, data: &[u8]) -> usize = |t, m| t.bulk(h, k, pw, data);
        }
    };
}

crate::registry::registry! {
    /// A Poly1305 implementation: the registry of `crate::registry`, fastest
    /// first, each line with the CPU-feature probe that makes it available.
    /// A new key gets [`Poly1305Backend::auto`]; each can be pinned by name.
    ///
    /// ```
    /// use galois_aead::poly1305::{Poly1305Backend, Poly1305, Poly1305Aes};
    /// let key = [0u8; 32];
    /// let want = Poly1305Aes::with_backend(&key, Poly1305Backend::Portable)?.authenticate(&[1; 16], &[7; 3000])?;
    /// for b in Poly1305Backend::available() {
    ///     assert_eq!(Poly1305Aes::with_backend(&key, b)?.authenticate(&[1; 16], &[7; 3000])?, want);
    /// }
    /// assert_eq!(Poly1305Backend::available()[0], Poly1305Backend::auto());
    /// assert_eq!(Poly1305Backend::Portable.name(), "portable");
    /// #[cfg(not(target_arch = "aarch64"))]
    /// assert!(Poly1305Backend::from_name("neon").is_err());
    /// #[cfg(target_arch = "x86_64")]
    /// assert_eq!(Poly1305::with_backend(&[0; 32], Poly1305Backend::Ifma).is_ok(), Poly1305Backend::Ifma.is_available());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub enum Poly1305Backend; path = "galois_aead::poly1305::Poly1305Backend", keys = poly1305_imps;
    portable = Portable;
    Ifma => ifma, "ifma", ct = true, detect = crate::detect::has_avx512ifma, "AVX-512 IFMA (vpmadd52luq/huq), 8-way (x86-64 only).", #[cfg(target_arch = "x86_64")];
    Avx2 => avx2, "avx2", ct = true, detect = crate::detect::has_avx2, "AVX2, 4-way with powers r^1..r^4 (x86-64 only: the variant does not exist on other targets).", #[cfg(target_arch = "x86_64")];
    Portable => portable, "portable", ct = true, detect = crate::detect::always, "Portable constant time, 64-bit limbs.";
    // After portable, so never picked automatically: llvm-mca's estimates put
    // it behind portable on Neoverse V1 and ahead on N1 (docs/speed.md; an
    // estimate only, no ARM machine to measure); pinned by name it runs.
    Neon => neon, "neon", ct = true, detect = crate::detect::has_neon, "NEON (aarch64), radix 2^26, 2-way with powers r^1..r^4 (aarch64 only).", #[cfg(all(target_arch = "aarch64", target_endian = "little"))];
}

/// r^1 .. r^n (n <= 4), computed on demand for long messages by the
/// backends that take their powers from the caller (NEON; AVX2 and IFMA
/// compute theirs in the vector unit).
pub(crate) struct Powers {
    pub(crate) p: [Limbs; 4],
    pub(crate) n: usize,
}

impl Powers {
    const fn empty() -> Self {
        Powers {
            p: [[0; 3]; 4],
            n: 0,
        }
    }

    /// Makes sure r^1..r^n are present (n <= 4; radix 2^44, each carried).
    #[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
    fn ensure(&mut self, k: &Key64, n: usize) {
        debug_assert!(n <= 4);
        if self.n >= n {
            return;
        }
        // r^2, then r^3 and r^4 (independent of each other).
        let r = radix44::r_from_bytes(&k.r_bytes());
        let m = |a: &Limbs, b: &Limbs| {
            let mut x = radix44::mul(a, b);
            radix44::carry(&mut x);
            x
        };
        self.p[0] = r;
        self.p[1] = m(&r, &r);
        self.p[2] = m(&self.p[1], &r);
        self.p[3] = m(&self.p[1], &self.p[1]);
        self.n = 4;
    }

    fn wipe(&mut self) {
        if self.n > 0 {
            self.p.zeroize();
            self.n = 0;
        }
    }
}

/// Where the AVX2 code finds its powers: on the stack for one-shot calls,
/// in a box a stream allocates the first time it needs them (so a stream
/// stays small when it never does).
pub(crate) trait PowersSlot {
    fn get(&mut self) -> &mut Powers;
}

impl PowersSlot for Powers {
    fn get(&mut self) -> &mut Powers {
        self
    }
}

impl PowersSlot for Option<Box<Powers>> {
    fn get(&mut self) -> &mut Powers {
        self.get_or_insert_with(|| Box::new(Powers::empty()))
    }
}

/// Runs the vector code over the longest prefix of `data` it takes (if the
/// backend has vector code and `data` is long enough); returns the rest.
#[inline(always)]
fn bulk<'a, P: PowersSlot>(
    imp: Imp,
    h: &mut Acc,
    k: &Key64,
    pw: &mut P,
    data: &'a [u8],
) -> &'a [u8] {
    let n = imp.bulk(h, k, pw, data);
    &data[n..]
}

/// The whole polynomial of a message in one call: h, not yet reduced.
/// Powers of r are computed (on the stack, wiped after) only when the
/// message reaches the vector code.
#[inline(always)]
fn poly_oneshot(imp: Imp, k: &Key64, msg: &[u8]) -> Acc {
    let mut h: Acc = [0; 3];
    let mut data = msg;
    if data.len() >= imp.min_len() {
        let mut pw = Powers::empty();
        data = bulk(imp, &mut h, k, &mut pw, data);
        pw.wipe();
    }
    let n = data.len() & !15;
    portable::blocks(&mut h, k, &data[..n]);
    if n < data.len() {
        portable::last_block(&mut h, k, &data[n..]);
    }
    h
}

/// A streaming evaluation: h, the key, a partial block, cached powers.
struct State {
    h: Acc,
    k: Key64,
    buf: [u8; 16],
    buf_len: usize,
    imp: Imp,
    pw: Option<Box<Powers>>,
}

impl State {
    fn new(k: Key64, imp: Imp) -> Self {
        State {
            h: [0; 3],
            k,
            buf: [0; 16],
            buf_len: 0,
            imp,
            pw: None,
        }
    }

    fn update(&mut self, data: &[u8]) {
        let (h, k, pw, imp) = (&mut self.h, &self.k, &mut self.pw, self.imp);
        crate::block::feed_blocks(&mut self.buf, &mut self.buf_len, data, |b| {
            let rest = bulk(imp, h, k, pw, b);
            portable::blocks(h, k, rest);
        });
    }

    /// Processes a final partial block; returns h (not reduced).
    fn finish(&mut self) -> Acc {
        if self.buf_len > 0 {
            portable::last_block(&mut self.h, &self.k, &self.buf[..self.buf_len]);
            self.buf_len = 0;
        }
        self.h
    }
}

impl Drop for State {
    fn drop(&mut self) {
        self.h.zeroize();
        self.k.wipe();
        // SAFETY: a volatile write through a valid &mut.
        unsafe { core::ptr::write_volatile(&mut self.buf, [0u8; 16]) };
        if let Some(pw) = &mut self.pw {
            pw.wipe();
        }
    }
}

/// The clamping mask of r: `r[3]`, `r[7]`, `r[11]`, `r[15]` keep their low 4 bits,
/// `r[4]`, `r[8]`, `r[12]` lose their low 2 bits.
const CLAMP: u128 = 0x0fff_fffc_0fff_fffc_0fff_fffc_0fff_ffff;

/// Clamps r in place (the paper's constraints), for r derived from other
/// material. Random keys from [`Poly1305Aes::generate_key`] are clamped
/// already.
///
/// ```
/// use galois_aead::poly1305::{clamp_r, is_clamped};
/// let mut r = [0xff; 16];
/// clamp_r(&mut r);
/// assert!(is_clamped(&r));
/// assert_eq!(r[3..5], [0x0f, 0xfc]);
/// ```
pub fn clamp_r(r: &mut [u8; 16]) {
    *r = (u128::from_le_bytes(*r) & CLAMP).to_le_bytes();
}

/// Clamps the r half (bytes 16..32) of a Poly1305-AES key k || r.
///
/// ```
/// use galois_aead::poly1305::{clamp, Poly1305Aes};
/// let mut key = [0xff; 32];
/// assert!(Poly1305Aes::new(&key).is_err());
/// clamp(&mut key);
/// assert_eq!(key[..16], [0xff; 16]); // k is untouched
/// assert!(Poly1305Aes::new(&key).is_ok());
/// ```
pub fn clamp(key: &mut [u8; 32]) {
    let r: &mut [u8; 16] = (&mut key[16..]).try_into().unwrap();
    clamp_r(r);
}

/// Whether r meets the constraints of section 2: `r[3]`, `r[7]`, `r[11]`, `r[15]`
/// below 16 and `r[4]`, `r[8]`, `r[12]` divisible by 4. Evaluated without
/// branches on the key bytes.
///
/// ```
/// use galois_aead::poly1305::is_clamped;
/// let r = hex::decode("851fc40c3467ac0be05cc20404f3f700").unwrap(); // the paper's example 1
/// assert!(is_clamped(r.as_slice().try_into().unwrap()));
/// assert!(!is_clamped(&[0x10; 16]));
/// ```
pub fn is_clamped(r: &[u8; 16]) -> bool {
    let v = u128::from_le_bytes(*r);
    // Public by design: an unclamped key is refused.
    crate::ct::declassify(bool::from(subtle::ConstantTimeEq::ct_eq(
        &(v & !CLAMP),
        &0u128,
    )))
}

const UNCLAMPED: &str = "Poly1305 r is not clamped: r[3], r[7], r[11], r[15] must be below 16 \
     and r[4], r[8], r[12] divisible by 4 (clamp derived keys with poly1305::clamp)";

/// The 16-byte chunks of a message as the paper's c_i: the chunk read
/// little-endian plus 2^(8 len), as 17 little-endian bytes. For checking
/// known-answer intermediates; the MAC itself never builds this list.
///
/// ```
/// let c = galois_aead::poly1305::chunk_values(&[0xf3, 0xf6]);
/// // The paper's example 1: c_1 = 0x1f6f3.
/// assert_eq!(c, [[0xf3, 0xf6, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]);
/// assert_eq!(galois_aead::poly1305::chunk_values(&[0; 33]).len(), 3);
/// ```
pub fn chunk_values(msg: &[u8]) -> Vec<[u8; 17]> {
    msg.chunks(16)
        .map(|c| {
            let mut v = [0u8; 17];
            v[..c.len()].copy_from_slice(c);
            v[c.len()] = 1;
            v
        })
        .collect()
}

fn check_len(got: usize, want: usize, e: fn(usize) -> Error) -> Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(e(got))
    }
}

/// Poly1305 keyed by r with the nonce pad from a 128-bit block cipher
/// (Poly1305-AnotherFunction, paper section 1): tag = (poly_r(m) +
/// E_k(n)) mod 2^128. [`Poly1305Aes`] is the paper's choice, E = AES-128.
///
/// r is kept in limbs and wiped on drop; AES keys wipe themselves, another
/// cipher `C` is responsible for its own key.
///
/// ```
/// use galois_aead::poly1305::Poly1305Aes;
/// // Example 1 of the paper's Appendix B.
/// let key = hex::decode("ec074c835580741701425b623235add6851fc40c3467ac0be05cc20404f3f700").unwrap();
/// let nonce = hex::decode("fb447350c4e868c52ac3275cf9d4327e").unwrap();
/// let tag = Poly1305Aes::new(&key)?.authenticate(&nonce, &[0xf3, 0xf6])?;
/// assert_eq!(hex::encode(tag), "f4c633c3044fc145f84f335cb81953de");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Poly1305Mac<C: BlockCipher128 = Aes> {
    cipher: C,
    k: Key64,
    imp: Imp,
}

/// Poly1305-AES: the paper's MAC with AES-128.
pub type Poly1305Aes = Poly1305Mac<Aes>;

impl Poly1305Mac<Aes> {
    /// A Poly1305-AES key k || r (32 bytes: 16-byte AES-128 key, then r).
    /// An unclamped r is refused with [`Error::InvalidKey`].
    ///
    /// ```
    /// use galois_aead::{poly1305::Poly1305Aes, Error};
    /// assert!(Poly1305Aes::new(&[0u8; 32]).is_ok());
    /// assert!(matches!(Poly1305Aes::new(&[0xffu8; 32]), Err(Error::InvalidKey { .. }))); // r not clamped
    /// assert_eq!(Poly1305Aes::new(&[0u8; 16]).err(), Some(Error::InvalidKeyLength { got: 16 }));
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_backend(key, Poly1305Backend::auto())
    }

    /// As [`Poly1305Mac::new`] with a pinned backend.
    ///
    /// ```
    /// use galois_aead::poly1305::{Poly1305Backend, Poly1305Aes};
    /// let mac = Poly1305Aes::with_backend(&[0u8; 32], Poly1305Backend::Portable)?;
    /// assert_eq!(mac.backend(), Poly1305Backend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_backend(key: &[u8], backend: Poly1305Backend) -> Result<Self> {
        check_len(key.len(), 32, |got| Error::InvalidKeyLength { got })?;
        let r: &[u8; 16] = key[16..].try_into().unwrap();
        if !is_clamped(r) {
            return Err(Error::InvalidKey { reason: UNCLAMPED });
        }
        let aes = Aes::new(&key[..16])?;
        Self::with_cipher_and_backend(aes, r, backend)
    }

    /// A fresh random key k || r from the operating system, r clamped.
    ///
    /// ```
    /// use galois_aead::poly1305::{is_clamped, Poly1305Aes};
    /// let key = Poly1305Aes::generate_key()?;
    /// assert!(is_clamped(key[16..].try_into().unwrap()));
    /// let mac = Poly1305Aes::new(&key[..])?;
    /// # let _ = mac;
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn generate_key() -> Result<Zeroizing<[u8; 32]>> {
        let mut key = Zeroizing::new([0u8; 32]);
        getrandom::fill(&mut key[..]).map_err(|_| Error::RandomSourceFailed)?;
        clamp(&mut key);
        Ok(key)
    }
}

impl<C: BlockCipher128> Poly1305Mac<C> {
    /// Poly1305 with any 128-bit block cipher for the nonce pad, and r (16
    /// bytes, which must be clamped).
    ///
    /// ```
    /// use galois_aead::{poly1305::{Poly1305Aes, Poly1305Mac}, Aes};
    /// // Poly1305 with AES-256 for the nonce pad.
    /// let mac = Poly1305Mac::with_cipher(Aes::new(&[1u8; 32])?, &[0u8; 16])?;
    /// let tag = mac.authenticate(&[0; 16], b"msg")?;
    /// mac.verify(&[0; 16], b"msg", &tag)?;
    /// // With AES-128 it is Poly1305-AES.
    /// let a = Poly1305Mac::with_cipher(Aes::new(&[1u8; 16])?, &[0u8; 16])?;
    /// assert_eq!(a.authenticate(&[0; 16], b"m")?, Poly1305Aes::new(&[[1u8; 16], [0u8; 16]].concat())?.authenticate(&[0; 16], b"m")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_cipher(cipher: C, r: &[u8]) -> Result<Self> {
        Self::with_cipher_and_backend(cipher, r, Poly1305Backend::auto())
    }

    /// As [`Poly1305Mac::with_cipher`] with a pinned backend.
    ///
    /// ```
    /// use galois_aead::{poly1305::{Poly1305Backend, Poly1305Mac}, Aes};
    /// let mac = Poly1305Mac::with_cipher_and_backend(Aes::new(&[1u8; 16])?, &[0u8; 16], Poly1305Backend::Portable)?;
    /// assert_eq!(mac.backend(), Poly1305Backend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_cipher_and_backend(cipher: C, r: &[u8], backend: Poly1305Backend) -> Result<Self> {
        check_len(r.len(), 16, |got| Error::InvalidKeyLength { got })?;
        let r: &[u8; 16] = r.try_into().unwrap();
        if !is_clamped(r) {
            return Err(Error::InvalidKey { reason: UNCLAMPED });
        }
        let imp = Imp::new(backend)?;
        Ok(Poly1305Mac {
            cipher,
            k: Key64::new(r),
            imp,
        })
    }

    /// The backend this key runs.
    ///
    /// ```
    /// let mac = galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?;
    /// assert_eq!(mac.backend(), galois_aead::poly1305::Poly1305Backend::auto());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> Poly1305Backend {
        self.imp.backend()
    }

    fn pad(&self, nonce: &[u8]) -> Result<Pad> {
        check_len(nonce.len(), 16, |got| Error::InvalidNonceLength { got })?;
        let mut n = Pad([0u8; 16]);
        n.0.copy_from_slice(nonce);
        self.cipher.encrypt_block(&mut n.0);
        Ok(n)
    }

    /// The 16-byte authenticator of `msg` under the 16-byte `nonce`. Never
    /// authenticate two different messages with the same nonce.
    ///
    /// ```
    /// use galois_aead::{poly1305::Poly1305Aes, Error};
    /// let mac = Poly1305Aes::new(&[0u8; 32])?;
    /// let (a, b) = (mac.authenticate(&[1; 16], b"m")?, mac.authenticate(&[2; 16], b"m")?);
    /// assert_ne!(a, b);
    /// assert_eq!(mac.authenticate(&[1; 12], b"m"), Err(Error::InvalidNonceLength { got: 12 }));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn authenticate(&self, nonce: &[u8], msg: &[u8]) -> Result<[u8; 16]> {
        check_len(nonce.len(), 16, |got| Error::InvalidNonceLength { got })?;
        let h = poly_oneshot(self.imp, &self.k, msg);
        // AES_k(n) after the polynomial: it does not depend on h, so the
        // out-of-order core runs it alongside the end of the polynomial's
        // dependency chain. Measured on Zen 4 (TSC ticks per message): 64
        // bytes 94 -> 72, 256 bytes 212 -> 166, the AES latency hidden.
        let pad = self.pad(nonce)?;
        Ok(portable::finalize(&h, &pad.0))
    }

    /// Checks a tag in constant time; [`Error::AuthenticationFailed`] if it
    /// does not match.
    ///
    /// ```
    /// use galois_aead::{poly1305::Poly1305Aes, Error};
    /// let mac = Poly1305Aes::new(&[0u8; 32])?;
    /// let mut tag = mac.authenticate(&[1; 16], b"m")?;
    /// mac.verify(&[1; 16], b"m", &tag)?;
    /// tag[15] ^= 0x80;
    /// assert_eq!(mac.verify(&[1; 16], b"m", &tag), Err(Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn verify(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<()> {
        check_len(tag.len(), 16, |got| Error::InvalidTagLength { got })?;
        let t = Zeroizing::new(self.authenticate(nonce, msg)?);
        if crate::ct::eq(&t[..], tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// Starts a streaming computation: feed the message in pieces split
    /// anywhere with [`Poly1305MacStream::update`].
    ///
    /// ```
    /// let mac = galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?;
    /// let mut s = mac.stream(&[1; 16])?;
    /// s.update(b"split ").update(b"anywhere");
    /// assert_eq!(s.finalize(), mac.authenticate(&[1; 16], b"split anywhere")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn stream(&self, nonce: &[u8]) -> Result<Poly1305MacStream<'_, C>> {
        let pad = self.pad(nonce)?;
        Ok(Poly1305MacStream {
            _mac: self,
            pad,
            st: State::new(self.k, self.imp),
        })
    }

    /// (c_1 r^q + ... + c_q r) mod 2^130 - 5 as 17 little-endian bytes: the
    /// paper's intermediate value, for known-answer checks. With it and a
    /// tag, anyone learns s: feature `hazmat` only.
    ///
    /// ```
    /// use galois_aead::poly1305::Poly1305Aes;
    /// let key = hex::decode("ec074c835580741701425b623235add6851fc40c3467ac0be05cc20404f3f700").unwrap();
    /// let mut v = Poly1305Aes::new(&key)?.poly_value(&[0xf3, 0xf6]);
    /// v.reverse(); // the paper's example 1, as a big-endian number
    /// assert_eq!(hex::encode(v), "0321e58e25a69d7f8f27060770b3f8bb9c");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    #[cfg(feature = "hazmat")]
    pub fn poly_value(&self, msg: &[u8]) -> [u8; 17] {
        self.poly_value_le(msg)
    }

    /// [`Poly1305Aes::poly_value`], for this crate's own use.
    pub(crate) fn poly_value_le(&self, msg: &[u8]) -> [u8; 17] {
        portable::to_bytes17(&poly_oneshot(self.imp, &self.k, msg))
    }
}

impl zeroize::ZeroizeOnDrop for Poly1305Aes {}
impl zeroize::ZeroizeOnDrop for Poly1305 {}

impl<C: BlockCipher128> Drop for Poly1305Mac<C> {
    fn drop(&mut self) {
        self.k.wipe();
    }
}

/// AES_k(n) (or s), wiped on drop with one volatile store.
struct Pad([u8; 16]);

impl Drop for Pad {
    fn drop(&mut self) {
        // SAFETY: a volatile write through a valid &mut.
        unsafe { core::ptr::write_volatile(&mut self.0, [0u8; 16]) };
    }
}

/// A Poly1305-AES (or Poly1305-E) computation in progress.
///
/// ```
/// let mac = galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?;
/// let mut s = mac.stream(&[1; 16])?;
/// for piece in [&b"a"[..], b"bc", b"def"] {
///     s.update(piece);
/// }
/// s.verify(&mac.authenticate(&[1; 16], b"abcdef")?)?;
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Poly1305MacStream<'a, C: BlockCipher128> {
    _mac: &'a Poly1305Mac<C>,
    pad: Pad,
    st: State,
}

impl<C: BlockCipher128> Poly1305MacStream<'_, C> {
    /// Appends message bytes.
    ///
    /// ```
    /// let mac = galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?;
    /// let mut s = mac.stream(&[1; 16])?;
    /// s.update(&[9; 100]).update(&[9; 1900]);
    /// assert_eq!(s.finalize(), mac.authenticate(&[1; 16], &[9; 2000])?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.st.update(data);
        self
    }

    /// The tag of everything fed so far.
    ///
    /// ```
    /// let mac = galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?;
    /// assert_eq!(mac.stream(&[1; 16])?.finalize(), mac.authenticate(&[1; 16], b"")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finalize(mut self) -> [u8; 16] {
        let h = self.st.finish();
        portable::finalize(&h, &self.pad.0)
    }

    /// Checks a tag in constant time.
    ///
    /// ```
    /// let mac = galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?;
    /// let mut s = mac.stream(&[1; 16])?;
    /// s.update(b"abc");
    /// assert_eq!(s.verify(&[0; 16]), Err(galois_aead::Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn verify(self, tag: &[u8]) -> Result<()> {
        check_len(tag.len(), 16, |got| Error::InvalidTagLength { got })?;
        let t = Zeroizing::new(self.finalize());
        if crate::ct::eq(&t[..], tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

/// The one-time Poly1305 of RFC 8439: key r || s (32 bytes), r clamped by
/// the MAC itself, tag = (poly_r(m) + s) mod 2^128. A key must authenticate
/// one message only. Same core as [`Poly1305Aes`].
///
/// ```
/// use galois_aead::poly1305::Poly1305;
/// // RFC 8439 section 2.5.2.
/// let key = hex::decode("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b").unwrap();
/// let tag = Poly1305::mac(&key, b"Cryptographic Forum Research Group")?;
/// assert_eq!(hex::encode(tag), "a8061dc1305136c6c22b8baf0c0127a9");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct Poly1305 {
    st: State,
    s: Pad,
}

impl Poly1305 {
    /// Starts a one-time MAC with key r || s.
    ///
    /// ```
    /// let mut p = galois_aead::poly1305::Poly1305::new(&[1u8; 32])?;
    /// p.update(b"one message per key");
    /// assert_eq!(p.finalize(), galois_aead::poly1305::Poly1305::mac(&[1u8; 32], b"one message per key")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_backend(key, Poly1305Backend::auto())
    }

    /// As [`Poly1305::new`] with a pinned backend.
    ///
    /// ```
    /// use galois_aead::poly1305::{Poly1305Backend, Poly1305};
    /// let p = Poly1305::with_backend(&[1u8; 32], Poly1305Backend::Portable)?;
    /// assert_eq!(p.backend(), Poly1305Backend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_backend(key: &[u8], backend: Poly1305Backend) -> Result<Self> {
        let (k, s) = Self::split(key)?;
        let imp = Imp::new(backend)?;
        Ok(Poly1305 {
            st: State::new(k, imp),
            s,
        })
    }

    fn split(key: &[u8]) -> Result<(Key64, Pad)> {
        check_len(key.len(), 32, |got| Error::InvalidKeyLength { got })?;
        let mut r = Pad([0u8; 16]);
        r.0.copy_from_slice(&key[..16]);
        clamp_r(&mut r.0);
        let mut s = Pad([0u8; 16]);
        s.0.copy_from_slice(&key[16..]);
        Ok((Key64::new(&r.0), s))
    }

    /// The tag of `msg` under the one-time key r || s, in one call.
    ///
    /// ```
    /// use galois_aead::poly1305::Poly1305;
    /// // r = 0: the tag is s.
    /// let key = [[0u8; 16], [0xab; 16]].concat();
    /// assert_eq!(Poly1305::mac(&key, b"anything")?, [0xab; 16]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn mac(key: &[u8], msg: &[u8]) -> Result<[u8; 16]> {
        Self::mac_with_backend(key, msg, Poly1305Backend::auto())
    }

    /// As [`Poly1305::mac`] with a pinned backend.
    ///
    /// ```
    /// use galois_aead::poly1305::{Poly1305Backend, Poly1305};
    /// let a = Poly1305::mac_with_backend(&[3u8; 32], &[1; 5000], Poly1305Backend::Portable)?;
    /// assert_eq!(a, Poly1305::mac(&[3u8; 32], &[1; 5000])?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn mac_with_backend(key: &[u8], msg: &[u8], backend: Poly1305Backend) -> Result<[u8; 16]> {
        let (mut k, s) = Self::split(key)?;
        let imp = Imp::new(backend)?;
        let h = poly_oneshot(imp, &k, msg);
        k.wipe();
        Ok(portable::finalize(&h, &s.0))
    }

    /// The backend in use.
    ///
    /// ```
    /// let p = galois_aead::poly1305::Poly1305::new(&[3u8; 32])?;
    /// assert!(p.backend().is_available());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> Poly1305Backend {
        self.st.imp.backend()
    }

    /// Appends message bytes.
    ///
    /// ```
    /// let mut p = galois_aead::poly1305::Poly1305::new(&[3u8; 32])?;
    /// p.update(b"Cryptographic ").update(b"Forum");
    /// assert_eq!(p.finalize(), galois_aead::poly1305::Poly1305::mac(&[3u8; 32], b"Cryptographic Forum")?);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.st.update(data);
        self
    }

    /// The tag.
    ///
    /// ```
    /// let key = [[0u8; 16], [7; 16]].concat();
    /// let mut p = galois_aead::poly1305::Poly1305::new(&key)?;
    /// p.update(b"r = 0 ignores the message");
    /// assert_eq!(p.finalize(), [7; 16]);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finalize(mut self) -> [u8; 16] {
        let h = self.st.finish();
        portable::finalize(&h, &self.s.0)
    }

    /// poly_r(m) mod 2^130 - 5 as 17 little-endian bytes (no s added):
    /// feature `hazmat` only.
    ///
    /// ```
    /// let key = [[0u8; 16], [7; 16]].concat();
    /// let mut p = galois_aead::poly1305::Poly1305::new(&key)?;
    /// p.update(b"r = 0");
    /// assert_eq!(p.poly_value(), [0; 17]); // s not added
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    #[cfg(feature = "hazmat")]
    pub fn poly_value(mut self) -> [u8; 17] {
        portable::to_bytes17(&self.st.finish())
    }

    /// Checks a tag in constant time.
    ///
    /// ```
    /// use galois_aead::poly1305::Poly1305;
    /// let tag = Poly1305::mac(&[3u8; 32], b"m")?;
    /// let mut p = Poly1305::new(&[3u8; 32])?;
    /// p.update(b"m");
    /// p.verify(&tag)?;
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn verify(self, tag: &[u8]) -> Result<()> {
        check_len(tag.len(), 16, |got| Error::InvalidTagLength { got })?;
        let t = Zeroizing::new(self.finalize());
        if crate::ct::eq(&t[..], tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

/// The cipher's own `Debug` and the backend, never k, r or s.
impl<C: BlockCipher128 + core::fmt::Debug> core::fmt::Debug for Poly1305Mac<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poly1305Mac")
            .field("cipher", &self.cipher)
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

// The backend, never r, s or the running sum.
crate::registry::debug_public!(Poly1305: backend);

#[cfg(test)]
mod registry_tests {
    use super::*;

    /// Without the CPU features only the portable line is available, the
    /// SIMD tokens are refused and automatic selection is portable.
    #[test]
    fn unprobed_backends_are_unavailable() {
        let _hide = crate::detect::hidden::all();
        assert_eq!(Poly1305Backend::available(), [Poly1305Backend::Portable]);
        assert_eq!(Poly1305Backend::auto(), Poly1305Backend::Portable);
        for &b in Poly1305Backend::ALL {
            assert_eq!(Imp::new(b).is_ok(), b == Poly1305Backend::Portable, "{b}");
        }
        assert!(Poly1305::new(&[1; 32]).is_ok());
    }

    #[test]
    fn order_is_fastest_first_and_names_round_trip() {
        // Portable is the last line automatic selection may reach; only
        // aarch64's neon follows it (pinned by name only).
        let p = Poly1305Backend::ALL
            .iter()
            .position(|&b| b == Poly1305Backend::Portable)
            .unwrap();
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        let pinned_only: &[Poly1305Backend] = &[Poly1305Backend::Neon];
        #[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
        let pinned_only: &[Poly1305Backend] = &[];
        assert_eq!(&Poly1305Backend::ALL[p + 1..], pinned_only);
        assert_eq!(Poly1305Backend::auto(), Poly1305Backend::available()[0]);
        for &b in Poly1305Backend::ALL {
            assert!(b.is_constant_time());
            assert_eq!(Poly1305Backend::from_name(b.name()), Ok(b));
        }
    }
}
