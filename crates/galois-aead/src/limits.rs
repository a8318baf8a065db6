//! Usage limits: the security bounds of paper 001 (Theorems 1 and 2,
//! Corollary 1), per-key counters that refuse to go past a chosen limit, a
//! random-nonce sealing API built on them, and key setup that refuses
//! H = 0 (paper 001 section 5).
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
//! [`Error::LimitReached`] instead of going past. Defaults:
//!
//! * random 96-bit IVs ([`UsageLimits::RANDOM_IV`], used by
//!   [`RandomNonceGcm`]): 2^32 messages (the collision probability of
//!   random IVs then stays below 2^-33) and 2^68 bytes (spec 000 section 2.1);
//! * sequence-number IVs ([`UsageLimits::PACKETS`], used by
//!   [`crate::packet::PacketSealer`]): 2^48 packets, the figure for which
//!   Corollary 1 gives an advantage of at most 2^-18, and 2^68 bytes.

use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::error::{Error, Result};
use crate::gcm::{AesGcm, Gcm, Options};

/// The parameters of Theorems 1 and 2 of paper 001.
///
/// ```
/// use galois_aead::limits::Bounds;
/// // Corollary 1's IPsec setting: 2^32 packets of 1500 bytes, 12-byte tags.
/// let b = Bounds::aes_gcm(2f64.powi(32), 1500.0, 12.0);
/// assert!(b.distinguishing() < 2f64.powi(-50));
/// assert!(b.forgery() >= b.distinguishing());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Block width w in bits (128 for AES, 64 for TDEA).
    pub block_bits: f64,
    /// Number of queries q (packets sealed plus forgery attempts).
    pub queries: f64,
    /// Longest len(C) + len(A) of one query, in bits (l).
    pub max_query_bits: f64,
    /// Total plaintext bits over all queries (l_P).
    pub total_plaintext_bits: f64,
    /// Longest IV, in bits (l_IV).
    pub iv_bits: f64,
    /// Tag length t, in bits.
    pub tag_bits: f64,
}

impl Bounds {
    /// AES-GCM with 96-bit IVs: q packets of `packet_bytes` (ciphertext plus
    /// AAD, all counted as plaintext for l_P) and `tag_bytes`-byte tags.
    ///
    /// ```
    /// let b = galois_aead::limits::Bounds::aes_gcm(1e6, 1500.0, 16.0);
    /// assert_eq!((b.block_bits, b.iv_bits, b.tag_bits), (128.0, 96.0, 128.0));
    /// ```
    pub fn aes_gcm(q: f64, packet_bytes: f64, tag_bytes: f64) -> Self {
        Bounds {
            block_bits: 128.0,
            queries: q,
            max_query_bits: packet_bytes * 8.0,
            total_plaintext_bits: q * packet_bytes * 8.0,
            iv_bits: 96.0,
            tag_bits: tag_bytes * 8.0,
        }
    }

    fn terms(&self, extra: f64) -> f64 {
        let w = self.block_bits;
        let q = self.queries;
        let blocks = self.total_plaintext_bits / w + 2.0 * q;
        let ctr = blocks * blocks * (-w - 1.0).exp2();
        let iv = (blocks + extra) * (self.iv_bits / w + 1.0).ceil() * (1.0 - w).exp2();
        let tag = (self.max_query_bits / w + 1.0).ceil() * (-self.tag_bits).exp2();
        ctr + q * (iv + tag)
    }

    /// Theorem 1: the distinguishing advantage beyond the cipher's own,
    /// capped at 1.
    ///
    /// ```
    /// use galois_aead::limits::Bounds;
    /// let mut b = Bounds::aes_gcm(1.0, 64.0, 16.0);
    /// b.queries = 2f64.powi(70); // far too many: the bound is capped at 1
    /// b.total_plaintext_bits = b.queries * 512.0;
    /// assert_eq!(b.distinguishing(), 1.0);
    /// ```
    pub fn distinguishing(&self) -> f64 {
        self.terms(0.0).min(1.0)
    }

    /// Theorem 2: the forgery advantage beyond the cipher's own, capped at 1.
    ///
    /// ```
    /// let b = galois_aead::limits::Bounds::aes_gcm(2f64.powi(20), 1500.0, 16.0);
    /// assert!(b.forgery() > b.distinguishing() && b.forgery() < 1e-20);
    /// ```
    pub fn forgery(&self) -> f64 {
        self.terms(1.0).min(1.0)
    }
}

/// Theorem 1 for AES-GCM with 96-bit IVs, q packets of `packet_bytes`
/// bytes (len(C) + len(A)) and `tag_bytes`-byte tags.
///
/// ```
/// use galois_aead::limits::distinguishing_bound;
/// assert!(distinguishing_bound(2f64.powi(40), 1500.0, 16.0) > distinguishing_bound(2f64.powi(30), 1500.0, 16.0));
/// ```
pub fn distinguishing_bound(q: f64, packet_bytes: f64, tag_bytes: f64) -> f64 {
    Bounds::aes_gcm(q, packet_bytes, tag_bytes).distinguishing()
}

/// Theorem 2 for AES-GCM with 96-bit IVs (see [`distinguishing_bound`]).
///
/// ```
/// use galois_aead::limits::forgery_bound;
/// // Shorter tags: easier forgery.
/// assert!(forgery_bound(1e9, 1500.0, 4.0) > forgery_bound(1e9, 1500.0, 16.0));
/// ```
pub fn forgery_bound(q: f64, packet_bytes: f64, tag_bytes: f64) -> f64 {
    Bounds::aes_gcm(q, packet_bytes, tag_bytes).forgery()
}

/// Corollary 1's closed form for IPsec parameters: q^2 2^-116 + q 2^-89.4.
///
/// ```
/// // 2^48 packets: about 2^-20, below the 2^-18 galois uses for packet keys.
/// let adv = galois_aead::limits::corollary1_distinguishing(2f64.powi(48));
/// assert!(adv < 2f64.powi(-18) && adv > 2f64.powi(-21));
/// ```
pub fn corollary1_distinguishing(q: f64) -> f64 {
    (q * q * (-116f64).exp2() + q * (-89.4f64).exp2()).min(1.0)
}

/// Corollary 1's forgery form: q^2 2^-116 + q 2^-89.4 + q 2^-128.
///
/// ```
/// use galois_aead::limits::{corollary1_distinguishing, corollary1_forgery};
/// let q = 2f64.powi(40);
/// assert!(corollary1_forgery(q) > corollary1_distinguishing(q));
/// ```
pub fn corollary1_forgery(q: f64) -> f64 {
    (q * q * (-116f64).exp2() + q * (-89.4f64).exp2() + q * (-128f64).exp2()).min(1.0)
}

/// The largest q (a power of two or in between, found by bisection) for
/// which both bounds stay at or below `target`.
///
/// ```
/// use galois_aead::limits::{forgery_bound, max_queries};
/// let q = max_queries(2f64.powi(-32), 1500.0, 16.0);
/// assert!(forgery_bound(q as f64, 1500.0, 16.0) <= 2f64.powi(-32));
/// assert!(forgery_bound((q + 1) as f64, 1500.0, 16.0) > 2f64.powi(-32));
/// ```
pub fn max_queries(target: f64, packet_bytes: f64, tag_bytes: f64) -> u64 {
    let ok = |q: f64| {
        let b = Bounds::aes_gcm(q, packet_bytes, tag_bytes);
        b.distinguishing() <= target && b.forgery() <= target
    };
    if !ok(1.0) {
        return 0;
    }
    let (mut lo, mut hi) = (1u64, u64::MAX);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid as f64) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The spec's cap on plaintext plus AAD under one key: 2^68 bytes.
pub const MAX_TOTAL_BYTES: u128 = 1 << 68;
/// The usual cap on messages with random 96-bit IVs: 2^32.
pub const MAX_RANDOM_IV_MESSAGES: u64 = 1 << 32;

/// How much one key may protect.
///
/// ```
/// use galois_aead::limits::{RandomNonceGcm, UsageLimits};
/// let mut gcm = RandomNonceGcm::with_limits(&[1u8; 16], UsageLimits::messages(1))?;
/// gcm.seal(b"", b"first")?;
/// assert!(matches!(gcm.seal(b"", b"second"), Err(galois_aead::Error::LimitReached { .. })));
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsageLimits {
    /// Most messages (invocations of the sealing operation).
    pub max_messages: u64,
    /// Most bytes of plaintext plus AAD, in total.
    pub max_total_bytes: u128,
}

impl UsageLimits {
    /// For random 96-bit IVs: 2^32 messages, 2^68 bytes.
    pub const RANDOM_IV: UsageLimits = UsageLimits {
        max_messages: MAX_RANDOM_IV_MESSAGES,
        max_total_bytes: MAX_TOTAL_BYTES,
    };
    /// For sequence-number IVs: 2^48 packets (Corollary 1: advantage at
    /// most 2^-18), 2^68 bytes.
    pub const PACKETS: UsageLimits = UsageLimits {
        max_messages: 1 << 48,
        max_total_bytes: MAX_TOTAL_BYTES,
    };

    /// At most `n` messages, the spec's 2^68 bytes.
    ///
    /// ```
    /// use galois_aead::limits::{UsageLimits, MAX_TOTAL_BYTES};
    /// assert_eq!(UsageLimits::messages(10), UsageLimits { max_messages: 10, max_total_bytes: MAX_TOTAL_BYTES });
    /// ```
    pub fn messages(n: u64) -> Self {
        UsageLimits {
            max_messages: n,
            max_total_bytes: MAX_TOTAL_BYTES,
        }
    }

    /// As many packets of up to `packet_bytes` as keep Theorems 1 and 2
    /// at or below `target` ([`max_queries`]).
    ///
    /// ```
    /// use galois_aead::limits::{max_queries, UsageLimits};
    /// let l = UsageLimits::from_bound(2f64.powi(-40), 1500.0, 16.0);
    /// assert_eq!(l.max_messages, max_queries(2f64.powi(-40), 1500.0, 16.0));
    /// ```
    pub fn from_bound(target: f64, packet_bytes: f64, tag_bytes: f64) -> Self {
        UsageLimits::messages(max_queries(target, packet_bytes, tag_bytes))
    }
}

/// A per-key usage counter against [`UsageLimits`].
///
/// ```
/// use galois_aead::limits::{Usage, UsageLimits};
/// let mut u = Usage::new(UsageLimits { max_messages: 10, max_total_bytes: 100 });
/// u.charge(60)?;
/// assert!(u.charge(41).is_err()); // 101 bytes would pass the limit
/// u.charge(40)?;
/// assert_eq!((u.messages(), u.bytes()), (2, 100));
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Usage {
    limits: UsageLimits,
    messages: u64,
    bytes: u128,
}

impl Usage {
    /// A fresh counter.
    ///
    /// ```
    /// use galois_aead::limits::{Usage, UsageLimits};
    /// let u = Usage::new(UsageLimits::PACKETS);
    /// assert_eq!((u.messages(), u.bytes()), (0, 0));
    /// ```
    pub fn new(limits: UsageLimits) -> Self {
        Usage {
            limits,
            messages: 0,
            bytes: 0,
        }
    }

    /// Counts one message of `bytes` bytes, or refuses with
    /// [`Error::LimitReached`] if that would pass a limit (nothing is
    /// counted then).
    ///
    /// ```
    /// use galois_aead::limits::{Usage, UsageLimits};
    /// let mut u = Usage::new(UsageLimits::messages(1));
    /// u.charge(5)?;
    /// assert!(matches!(u.charge(5), Err(galois_aead::Error::LimitReached { .. })));
    /// assert_eq!(u.messages(), 1); // the refused message is not counted
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn charge(&mut self, bytes: u64) -> Result<()> {
        if self.messages >= self.limits.max_messages {
            return Err(Error::LimitReached {
                what: "messages under this key (rekey)",
            });
        }
        let total = self.bytes + bytes as u128;
        if total > self.limits.max_total_bytes {
            return Err(Error::LimitReached {
                what: "bytes under this key (rekey)",
            });
        }
        self.messages += 1;
        self.bytes = total;
        Ok(())
    }

    /// Messages counted so far.
    ///
    /// ```
    /// use galois_aead::limits::{Usage, UsageLimits};
    /// let mut u = Usage::new(UsageLimits::RANDOM_IV);
    /// u.charge(0)?;
    /// assert_eq!(u.messages(), 1);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// Bytes counted so far.
    ///
    /// ```
    /// use galois_aead::limits::{Usage, UsageLimits};
    /// let mut u = Usage::new(UsageLimits::RANDOM_IV);
    /// u.charge(7)?;
    /// u.charge(8)?;
    /// assert_eq!(u.bytes(), 15);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn bytes(&self) -> u128 {
        self.bytes
    }

    /// The limits.
    ///
    /// ```
    /// use galois_aead::limits::{Usage, UsageLimits};
    /// assert_eq!(Usage::new(UsageLimits::PACKETS).limits().max_messages, 1 << 48);
    /// ```
    pub fn limits(&self) -> UsageLimits {
        self.limits
    }
}

/// GCM over `cipher`, refusing a key whose H = E(K, 0^128) is zero with
/// [`Error::InvalidKey`] (paper 001 section 5: with H = 0 GHASH ignores A
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
    let g = Gcm::from_cipher(cipher, opts)?;
    if g.h_is_zero() {
        return Err(Error::InvalidKey {
            reason: "H = E(K, 0^128) is zero",
        });
    }
    Ok(g)
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

/// AES-GCM with random 96-bit IVs drawn by the library, counted against
/// [`UsageLimits`] (default [`UsageLimits::RANDOM_IV`]). Sealed messages
/// are IV (12 bytes) || ciphertext || tag.
///
/// ```
/// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 32])?;
/// let sealed = gcm.seal(b"aad", b"no IV to manage")?;
/// assert_eq!(sealed.len(), 12 + 15 + 16);
/// assert_eq!(gcm.open(b"aad", &sealed)?, b"no IV to manage");
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct RandomNonceGcm {
    gcm: AesGcm,
    usage: Usage,
}

impl RandomNonceGcm {
    /// A key with the default limits (2^32 messages, 2^68 bytes); refuses
    /// H = 0.
    ///
    /// ```
    /// use galois_aead::limits::{RandomNonceGcm, UsageLimits};
    /// let gcm = RandomNonceGcm::new(&[1u8; 16])?;
    /// assert_eq!(gcm.usage().limits(), UsageLimits::RANDOM_IV);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8]) -> Result<Self> {
        Self::with_limits(key, UsageLimits::RANDOM_IV)
    }

    /// A key with chosen limits. The message limit may not exceed 2^32:
    /// beyond that random 96-bit IVs collide too likely.
    ///
    /// ```
    /// use galois_aead::limits::{RandomNonceGcm, UsageLimits};
    /// assert!(RandomNonceGcm::with_limits(&[1u8; 16], UsageLimits::messages(1000)).is_ok());
    /// // More than 2^32 random IVs per key is refused.
    /// assert!(RandomNonceGcm::with_limits(&[1u8; 16], UsageLimits::PACKETS).is_err());
    /// ```
    pub fn with_limits(key: &[u8], limits: UsageLimits) -> Result<Self> {
        if limits.max_messages > MAX_RANDOM_IV_MESSAGES || limits.max_total_bytes > MAX_TOTAL_BYTES
        {
            return Err(Error::LimitReached {
                what: "requested limit above 2^32 random IVs or 2^68 bytes",
            });
        }
        Ok(RandomNonceGcm {
            gcm: aes_gcm_refusing_zero_h(key, Options::new())?,
            usage: Usage::new(limits),
        })
    }

    /// Seals under a fresh random IV; refuses past the limits.
    ///
    /// ```
    /// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 16])?;
    /// let (a, b) = (gcm.seal(b"", b"same")?, gcm.seal(b"", b"same")?);
    /// assert_ne!(a[..12], b[..12]); // a fresh IV each time
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal(&mut self, aad: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
        AesGcm::check_lengths(aad, pt.len())?;
        self.usage.charge((aad.len() + pt.len()) as u64)?;
        let mut out = vec![0u8; 12];
        getrandom::fill(&mut out).map_err(|_| Error::RandomSourceFailed)?;
        let iv: [u8; 12] = out[..12].try_into().unwrap();
        out.extend_from_slice(pt);
        let tag = self.gcm.seal_in_place_detached(&iv, aad, &mut out[12..])?;
        out.extend_from_slice(tag.as_bytes());
        Ok(out)
    }

    /// Opens IV || ciphertext || tag.
    ///
    /// ```
    /// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 16])?;
    /// let mut sealed = gcm.seal(b"", b"msg")?;
    /// sealed[0] ^= 1; // the IV
    /// assert_eq!(gcm.open(b"", &sealed), Err(galois_aead::Error::AuthenticationFailed));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn open(&self, aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>> {
        if sealed.len() < 12 + 16 {
            return Err(Error::CiphertextTooShort {
                len: sealed.len(),
                min: 28,
            });
        }
        self.gcm.open(&sealed[..12], aad, &sealed[12..])
    }

    /// The usage so far.
    ///
    /// ```
    /// let mut gcm = galois_aead::limits::RandomNonceGcm::new(&[1u8; 16])?;
    /// gcm.seal(b"ab", b"cde")?;
    /// assert_eq!((gcm.usage().messages(), gcm.usage().bytes()), (1, 5));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn usage(&self) -> &Usage {
        &self.usage
    }
}
