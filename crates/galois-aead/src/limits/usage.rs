//! How much one key may protect, and the counters that refuse to go past it.

use super::max_queries;
use crate::error::{Error, Result};

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
