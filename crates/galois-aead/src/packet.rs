//! Packets protected as the GCM specification (McGrew and Viega), section 5 (Figures 4 and 5) and IPsec ESP
//! do it.
//!
//! Wire format: `header || seq (8 bytes, big-endian) || ciphertext || ICV`.
//! The IV is `salt' (4 bytes) || seq (8 bytes)`: the salt is secret keying
//! material shared by both ends (like ESP's salt from the key exchange), the
//! sequence number makes each IV unique. The header and the sequence number
//! are authenticated as AAD (`header || seq`); the payload is encrypted.
//!
//! One key and salt serve both directions of a link, so the direction is
//! part of the IV: each end says its [`Role`] when it builds its sealer and
//! its opener. Packets sealed by the [`Role::Initiator`] use the salt as
//! given, packets sealed by the [`Role::Responder`] use it with its first
//! bit flipped (`salt'[0] = salt[0] ^ 0x80`). The two ends can never seal
//! under the same IV, and an opener only accepts the peer's packets (a
//! packet reflected back to its sender fails authentication). The salt is
//! never on the wire, so the wire format does not change.
//!
//! The [`PacketSealer`] numbers packets strictly increasing and never
//! wrapping: after 2^64 - 1, or past its [`UsageLimits`] (default
//! [`UsageLimits::PACKETS`]), it refuses with [`Error::LimitReached`]. Where
//! the numbering starts is part of building a sealer ([`Start`]): for a key
//! never used to seal in this direction, at a number the caller saved, or
//! from a [`NonceStore`] that keeps the count on disk across restarts and
//! crashes. There is no default: a restart that silently began at 1 again
//! would reuse every IV.
//!
//! The [`PacketOpener`] keeps a sliding anti-replay window (RFC 4303 style,
//! default 64 packets): a packet whose number is older than the window is
//! refused with [`Error::OutsideWindow`], one already accepted with
//! [`Error::Replay`]. The window moves only after the ICV verifies, so
//! forged packets cannot push it forward or mark numbers as used.

use crate::aead::Aead;
use crate::error::{Error, Result};
use crate::gcm::AesGcm;
use crate::gcm::Options;
use crate::limits::{aes_gcm_refusing_zero_h, Usage, UsageLimits};
use crate::poly1305::nonce::NonceStore;

/// Bytes of the sequence number on the wire.
pub const SEQ_BYTES: usize = 8;
/// The default anti-replay window, in packets.
pub const DEFAULT_WINDOW: u32 = 64;

/// Which end of a link this is. The two ends share one key and salt and
/// must take different roles (for example, the end that opened the
/// connection is the initiator). A sealer seals as its role; an opener
/// opens the packets of the other role.
///
/// ```
/// use galois_aead::packet::Role;
/// assert_eq!(Role::Initiator.peer(), Role::Responder);
/// assert_eq!(Role::Responder.peer(), Role::Initiator);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Seals with the salt as given.
    Initiator,
    /// Seals with the salt's first bit flipped.
    Responder,
}

impl Role {
    /// The role at the other end.
    ///
    /// ```
    /// use galois_aead::packet::Role;
    /// assert_eq!(Role::Initiator.peer(), Role::Responder);
    /// ```
    pub fn peer(self) -> Role {
        match self {
            Role::Initiator => Role::Responder,
            Role::Responder => Role::Initiator,
        }
    }
}

/// Where a [`PacketSealer`] starts numbering. Required: the sealer has no
/// default start.
///
/// ```
/// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
/// // Resuming a link whose highest sequence number used so far was 41:
/// let mut tx = PacketSealer::new(&[1; 16], [2; 4], Role::Initiator, Start::At(42))?;
/// let mut rx = PacketOpener::new(&[1; 16], [2; 4], Role::Responder, 3)?;
/// assert_eq!(rx.open(&tx.seal(b"hdr", b"payload")?)?.seq, 42);
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Debug)]
pub enum Start {
    /// This key has never sealed a packet in this role: start at 1. Say
    /// this only for a key made for this link (and this run, unless the
    /// sequence is saved).
    NewKey,
    /// Continue at this number (>= 1), saved by the caller above every
    /// number already used with this key in this role.
    At(u64),
    /// Take every number from a nonce store made for this key and role:
    /// the store reserves numbers on disk before they are used, so a restart
    /// or a crash continues above every number used (packet number = store
    /// value + 1). Only one live sealer can hold a store.
    Store(NonceStore),
}

/// The longest nonce of an [`Aead`] (XAES-256-GCM's 24 bytes).
const MAX_NONCE: usize = 32;

/// `salt' || seq`, zero-padded on the right to the AEAD's nonce length
/// (12 bytes for AES-GCM and AES-GCM-SIV; for XAES-256-GCM the 12 bytes
/// pick the per-message key and its GCM nonce is zero).
fn iv(salt: &[u8; 4], role: Role, seq: u64) -> [u8; MAX_NONCE] {
    let mut iv = [0u8; MAX_NONCE];
    iv[..4].copy_from_slice(salt);
    if role == Role::Responder {
        iv[0] ^= 0x80;
    }
    iv[4..12].copy_from_slice(&seq.to_be_bytes());
    iv
}

/// Refuses an AEAD whose nonce cannot hold `salt' || seq`.
fn check_nonce_len<A: Aead>() -> Result<()> {
    if !(12..=MAX_NONCE).contains(&A::NONCE_LEN) {
        return Err(Error::InvalidNonceLength { got: A::NONCE_LEN });
    }
    Ok(())
}

fn aad(header: &[u8], seq: u64) -> Vec<u8> {
    let mut a = Vec::with_capacity(header.len() + SEQ_BYTES);
    a.extend_from_slice(header);
    a.extend_from_slice(&seq.to_be_bytes());
    a
}

fn build(key: &[u8], icv_len: usize) -> Result<AesGcm> {
    let opts = if icv_len == 16 {
        Options::new()
    } else {
        Options::new().tag_len(icv_len)?
    };
    aes_gcm_refusing_zero_h(key, opts)
}

/// Where the next sequence number comes from.
enum Sequence {
    /// In memory: the next number, `None` once 2^64 - 1 was used.
    Counter(Option<u64>),
    /// Reserved on disk first.
    Store(NonceStore),
}

const EXHAUSTED: Error = Error::LimitReached {
    what: "packet sequence numbers (2^64 - 1; rekey)",
};

/// Seals packets with sequence-number IVs.
///
/// ```
/// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
/// let (key, salt) = ([7u8; 16], [1, 2, 3, 4]);
/// // Each end seals as its own role and opens the peer's packets.
/// let mut a_tx = PacketSealer::new(&key, salt, Role::Initiator, Start::NewKey)?;
/// let mut b_rx = PacketOpener::new(&key, salt, Role::Responder, 2)?;
/// let mut b_tx = PacketSealer::new(&key, salt, Role::Responder, Start::NewKey)?;
/// let mut a_rx = PacketOpener::new(&key, salt, Role::Initiator, 2)?;
/// let p = a_tx.seal(b"hd", b"payload")?;
/// assert_eq!(b_rx.open(&p)?.payload, b"payload");
/// assert_eq!(b_rx.open(&p), Err(galois_aead::Error::Replay { seq: 1 }));
/// assert_eq!(a_rx.open(&p), Err(galois_aead::Error::AuthenticationFailed)); // reflected
/// assert_eq!(a_rx.open(&b_tx.seal(b"hd", b"reply")?)?.payload, b"reply");
/// # Ok::<(), galois_aead::Error>(())
/// ```
///
/// There is no constructor without a start:
///
/// ```compile_fail
/// let tx = galois_aead::packet::PacketSealer::new(&[7u8; 16], [0; 4])?;
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct PacketSealer<A: Aead = AesGcm> {
    gcm: A,
    salt: [u8; 4],
    role: Role,
    seq: Sequence,
    usage: Usage,
}

impl PacketSealer {
    /// AES key (16, 24 or 32 bytes), 4-byte salt, this end's role, where
    /// numbering starts, 16-byte ICV, default limits. Refuses keys with
    /// H = 0 and `Start::At(0)`.
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// let tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
    /// assert_eq!(tx.next_sequence(), Some(1));
    /// let tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::At(5000))?;
    /// assert_eq!(tx.next_sequence(), Some(5000));
    /// assert!(PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::At(0)).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    ///
    /// With a store, numbers survive restarts (one store per key and role):
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// use galois_aead::poly1305::nonce::{KeyId, NonceStore};
    /// let path = std::env::temp_dir().join(format!("galois-doc-seq-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let (key, id) = ([7u8; 16], KeyId::from_bytes([1; 16])); // id made and kept with the key
    /// let store = NonceStore::create(&path, id, 1000)?;
    /// let mut tx = PacketSealer::new(&key, [0; 4], Role::Initiator, Start::Store(store))?;
    /// assert_eq!(tx.seal(b"", b"x")?[..8], 1u64.to_be_bytes());
    /// drop(tx); // a restart or a crash
    /// let store = NonceStore::open(&path, id, 1000)?;
    /// let mut tx = PacketSealer::new(&key, [0; 4], Role::Initiator, Start::Store(store))?;
    /// assert_eq!(tx.seal(b"", b"x")?[..8], 1001u64.to_be_bytes()); // above every number used
    /// # drop(tx);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(key: &[u8], salt: [u8; 4], role: Role, start: Start) -> Result<Self> {
        Self::with_config(key, salt, role, start, 16, UsageLimits::PACKETS)
    }

    /// With an ICV of 12 to 16 bytes and chosen limits.
    ///
    /// ```
    /// use galois_aead::{limits::UsageLimits, packet::{PacketSealer, Role, Start}};
    /// let mut tx = PacketSealer::with_config(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey, 12, UsageLimits::messages(1))?;
    /// assert_eq!(tx.seal(b"", b"abc")?.len(), 8 + 3 + 12);
    /// assert!(tx.seal(b"", b"abc").is_err()); // one packet allowed
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_config(
        key: &[u8],
        salt: [u8; 4],
        role: Role,
        start: Start,
        icv_len: usize,
        limits: UsageLimits,
    ) -> Result<Self> {
        Self::with_aead(build(key, icv_len)?, salt, role, start, limits)
    }
}

impl<A: Aead> PacketSealer<A> {
    /// A sealer over any AEAD of this crate (its key set up with
    /// [`AeadInit::for_formats`](crate::AeadInit::for_formats) or as the caller likes), 4-byte salt, role,
    /// start and limits. The IV is `salt' || seq`, zero-padded to the
    /// AEAD's nonce length.
    ///
    /// ```
    /// use galois_aead::{Aead, AeadInit};
    /// use galois_aead::limits::UsageLimits;
    /// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    /// use galois_aead::AesGcmSiv;
    /// let key = [7u8; 32];
    /// let mut tx = PacketSealer::with_aead(AesGcmSiv::for_formats(&key)?, [1; 4], Role::Initiator, Start::NewKey, UsageLimits::PACKETS)?;
    /// let mut rx = PacketOpener::with_aead(AesGcmSiv::for_formats(&key)?, [1; 4], Role::Responder, 2, 64)?;
    /// assert_eq!(rx.open(&tx.seal(b"hd", b"payload")?)?.payload, b"payload");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_aead(
        aead: A,
        salt: [u8; 4],
        role: Role,
        start: Start,
        limits: UsageLimits,
    ) -> Result<Self> {
        check_nonce_len::<A>()?;
        let seq = match start {
            Start::NewKey => Sequence::Counter(Some(1)),
            Start::At(0) => {
                return Err(Error::LimitReached {
                    what: "packet sequence numbers start at 1",
                });
            }
            Start::At(n) => Sequence::Counter(Some(n)),
            Start::Store(store) => Sequence::Store(store),
        };
        Ok(PacketSealer {
            gcm: aead,
            salt,
            role,
            seq,
            usage: Usage::new(limits),
        })
    }

    /// Moves numbering forward to `seq` (never backwards). Not for a
    /// store-backed sealer, whose numbers come from its store.
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
    /// tx.resume_at(1000)?;
    /// assert_eq!(tx.seal(b"", b"")?[..8], 1000u64.to_be_bytes());
    /// assert!(tx.resume_at(999).is_err()); // never backwards
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn resume_at(&mut self, seq: u64) -> Result<()> {
        match &mut self.seq {
            Sequence::Counter(Some(next)) if seq >= *next => {
                *next = seq;
                Ok(())
            }
            Sequence::Store(_) => Err(Error::LimitReached {
                what: "a store-backed sealer takes its numbers from its store",
            }),
            _ => Err(Error::LimitReached {
                what: "sequence numbers only move forward",
            }),
        }
    }

    /// The number the next packet will carry (None once exhausted).
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::At(u64::MAX))?;
    /// tx.seal(b"", b"last one")?;
    /// assert_eq!(tx.next_sequence(), None);
    /// assert!(tx.seal(b"", b"").is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn next_sequence(&self) -> Option<u64> {
        match &self.seq {
            Sequence::Counter(next) => *next,
            Sequence::Store(store) => u64::try_from(store.peek())
                .ok()
                .and_then(|v| v.checked_add(1)),
        }
    }

    /// This end's role.
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// let tx = PacketSealer::new(&[1; 16], [2; 4], Role::Responder, Start::NewKey)?;
    /// assert_eq!(tx.role(), Role::Responder);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn role(&self) -> Role {
        self.role
    }

    /// The usage counted so far.
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
    /// tx.seal(b"h", b"abc")?;
    /// assert_eq!(tx.usage().bytes(), 1 + 8 + 3); // header, seq and payload
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn usage(&self) -> &Usage {
        &self.usage
    }

    /// Takes the next number, which never comes back.
    fn take_seq(&mut self) -> Result<u64> {
        match &mut self.seq {
            Sequence::Counter(next) => {
                let seq = next.ok_or(EXHAUSTED)?;
                *next = seq.checked_add(1);
                Ok(seq)
            }
            Sequence::Store(store) => {
                if store.peek() >= u64::MAX as u128 {
                    return Err(EXHAUSTED);
                }
                let n = store.next_nonce().map_err(|_| Error::LimitReached {
                    what: "the sequence store could not reserve numbers on disk",
                })?;
                Ok(u128::from_le_bytes(n) as u64 + 1)
            }
        }
    }

    /// Seals one packet: header || seq || ciphertext || ICV.
    ///
    /// ```
    /// use galois_aead::packet::{PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
    /// let p = tx.seal(b"HDR", b"data")?;
    /// assert_eq!(&p[..3], b"HDR");
    /// assert_eq!(p[3..11], 1u64.to_be_bytes());
    /// assert_eq!(p.len(), 3 + 8 + 4 + 16);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn seal(&mut self, header: &[u8], payload: &[u8]) -> Result<Vec<u8>> {
        if self.next_sequence().is_none() {
            return Err(EXHAUSTED);
        }
        // The lengths do not depend on the number: check them first.
        let mut a = aad(header, 0);
        self.gcm.check_lengths(&a, payload.len())?;
        self.usage.charge((a.len() + payload.len()) as u64)?;
        // Consume the number before using it: it never comes back.
        let seq = self.take_seq()?;
        a[header.len()..].copy_from_slice(&seq.to_be_bytes());
        let mut out = Vec::with_capacity(a.len() + payload.len() + self.gcm.tag_len());
        out.extend_from_slice(&a);
        out.extend_from_slice(payload);
        let tag = self.gcm.seal_in_place_detached(
            &iv(&self.salt, self.role, seq)[..A::NONCE_LEN],
            &a,
            &mut out[a.len()..],
        )?;
        out.extend_from_slice(tag.as_bytes());
        Ok(out)
    }
}

/// A verified packet.
///
/// ```
/// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
/// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
/// let mut rx = PacketOpener::new(&[7u8; 16], [0; 4], Role::Responder, 1)?;
/// let o = rx.open(&tx.seal(b"H", b"body")?)?;
/// assert_eq!((o.seq, &o.header[..], &o.payload[..]), (1, &b"H"[..], &b"body"[..]));
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    /// Its sequence number.
    pub seq: u64,
    /// The authenticated header.
    pub header: Vec<u8>,
    /// The decrypted payload.
    pub payload: Vec<u8>,
}

/// Opens packets with a sliding anti-replay window.
///
/// ```
/// use galois_aead::{packet::{PacketOpener, PacketSealer, Role, Start}, Error};
/// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
/// let mut rx = PacketOpener::with_config(&[7u8; 16], [0; 4], Role::Responder, 0, 16, 2)?;
/// let (p1, p2, p3) = (tx.seal(b"", b"1")?, tx.seal(b"", b"2")?, tx.seal(b"", b"3")?);
/// rx.open(&p3)?; // reordering is fine...
/// rx.open(&p2)?;
/// assert_eq!(rx.open(&p1), Err(Error::OutsideWindow { seq: 1, lowest: 2 })); // ...within the window
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct PacketOpener<A: Aead = AesGcm> {
    gcm: A,
    salt: [u8; 4],
    /// The role of the end whose packets this opener takes (the peer's).
    from: Role,
    header_len: usize,
    window: u32,
    /// Highest sequence number accepted so far (0: none yet).
    highest: u64,
    /// Bit i set: packet `highest - i` was accepted (i < window).
    bits: Vec<u64>,
}

impl PacketOpener {
    /// Opener at the end whose role is `role`: it takes the packets the
    /// peer (the other role) sealed, with `header_len`-byte headers, 16-byte
    /// ICVs and a 64-packet window.
    ///
    /// ```
    /// use galois_aead::packet::{PacketOpener, Role};
    /// let rx = PacketOpener::new(&[7u8; 16], [0; 4], Role::Responder, 4)?;
    /// assert_eq!(rx.highest(), 0);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8], salt: [u8; 4], role: Role, header_len: usize) -> Result<Self> {
        Self::with_config(key, salt, role, header_len, 16, DEFAULT_WINDOW)
    }

    /// With an ICV of 12 to 16 bytes and a window of 1 to 2^20 packets.
    ///
    /// ```
    /// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    /// use galois_aead::limits::UsageLimits;
    /// let mut tx = PacketSealer::with_config(&[7u8; 16], [0; 4], Role::Responder, Start::NewKey, 12, UsageLimits::PACKETS)?;
    /// let mut rx = PacketOpener::with_config(&[7u8; 16], [0; 4], Role::Initiator, 0, 12, 1024)?;
    /// assert_eq!(rx.open(&tx.seal(b"", b"x")?)?.payload, b"x");
    /// assert!(PacketOpener::with_config(&[7u8; 16], [0; 4], Role::Initiator, 0, 12, 0).is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_config(
        key: &[u8],
        salt: [u8; 4],
        role: Role,
        header_len: usize,
        icv_len: usize,
        window: u32,
    ) -> Result<Self> {
        PacketOpener::with_aead(build(key, icv_len)?, salt, role, header_len, window)
    }
}

impl<A: Aead> PacketOpener<A> {
    /// An opener over any AEAD of this crate: the peer of a
    /// [`PacketSealer::with_aead`] under the same key and salt.
    ///
    /// ```
    /// use galois_aead::{Aead, AeadInit};
    /// use galois_aead::limits::UsageLimits;
    /// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    /// use galois_aead::XAes256Gcm;
    /// let key = [7u8; 32];
    /// let mut tx = PacketSealer::with_aead(XAes256Gcm::for_formats(&key)?, [1; 4], Role::Responder, Start::NewKey, UsageLimits::PACKETS)?;
    /// let mut rx = PacketOpener::with_aead(XAes256Gcm::for_formats(&key)?, [1; 4], Role::Initiator, 0, 64)?;
    /// let p = tx.seal(b"", b"x")?;
    /// assert_eq!(rx.open(&p)?.payload, b"x");
    /// assert_eq!(rx.open(&p), Err(galois_aead::Error::Replay { seq: 1 }));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_aead(
        aead: A,
        salt: [u8; 4],
        role: Role,
        header_len: usize,
        window: u32,
    ) -> Result<Self> {
        check_nonce_len::<A>()?;
        if window == 0 || window > 1 << 20 {
            return Err(Error::LimitReached {
                what: "anti-replay window must be 1 to 2^20 packets",
            });
        }
        Ok(PacketOpener {
            gcm: aead,
            salt,
            from: role.peer(),
            header_len,
            window,
            highest: 0,
            bits: vec![0; (window as usize).div_ceil(64)],
        })
    }

    /// The highest sequence number accepted so far (0 if none).
    ///
    /// ```
    /// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::At(42))?;
    /// let mut rx = PacketOpener::new(&[7u8; 16], [0; 4], Role::Responder, 0)?;
    /// rx.open(&tx.seal(b"", b"")?)?;
    /// assert_eq!(rx.highest(), 42);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn highest(&self) -> u64 {
        self.highest
    }

    fn bit(&self, i: u64) -> bool {
        (self.bits[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    /// Checks `seq` against the window without changing it.
    ///
    /// ```
    /// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
    /// let mut rx = PacketOpener::new(&[7u8; 16], [0; 4], Role::Responder, 0)?;
    /// rx.open(&tx.seal(b"", b"")?)?;
    /// assert_eq!(rx.check(1), Err(galois_aead::Error::Replay { seq: 1 }));
    /// assert_eq!(rx.check(2), Ok(()));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn check(&self, seq: u64) -> Result<()> {
        if seq == 0 {
            return Err(Error::OutsideWindow {
                seq,
                lowest: self.lowest(),
            });
        }
        if seq > self.highest {
            return Ok(());
        }
        let age = self.highest - seq;
        if age >= self.window as u64 {
            return Err(Error::OutsideWindow {
                seq,
                lowest: self.lowest(),
            });
        }
        if self.bit(age) {
            return Err(Error::Replay { seq });
        }
        Ok(())
    }

    /// The lowest sequence number the window still accepts.
    fn lowest(&self) -> u64 {
        // highest + 1 - window, without overflowing at highest = 2^64 - 1.
        self.highest.saturating_sub(self.window as u64 - 1).max(1)
    }

    /// Marks `seq` as accepted (already checked), sliding the window.
    fn accept(&mut self, seq: u64) {
        if seq > self.highest {
            let shift = seq - self.highest;
            self.shift(shift);
            self.highest = seq;
        }
        let age = self.highest - seq;
        self.bits[(age / 64) as usize] |= 1 << (age % 64);
    }

    /// Ages every bit by `n` positions; bits past the window fall off.
    fn shift(&mut self, n: u64) {
        let len = self.bits.len();
        if n >= self.window as u64 {
            self.bits.fill(0);
            return;
        }
        let words = (n / 64) as usize;
        let bits = (n % 64) as u32;
        for i in (0..len).rev() {
            let src = i.checked_sub(words);
            let hi = src.map(|s| self.bits[s]).unwrap_or(0);
            let lo = src
                .and_then(|s| s.checked_sub(1))
                .map(|s| self.bits[s])
                .unwrap_or(0);
            self.bits[i] = if bits == 0 {
                hi
            } else {
                (hi << bits) | (lo >> (64 - bits))
            };
        }
        // Clear the bits beyond the window in the last word.
        let extra = len as u64 * 64 - self.window as u64;
        if extra > 0 {
            self.bits[len - 1] &= u64::MAX >> extra;
        }
    }

    /// Verifies and decrypts one packet. Replays and packets older than the
    /// window are refused before any decryption; the window advances only
    /// after the ICV verifies.
    ///
    /// ```
    /// use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
    /// let mut tx = PacketSealer::new(&[7u8; 16], [0; 4], Role::Initiator, Start::NewKey)?;
    /// let mut rx = PacketOpener::new(&[7u8; 16], [0; 4], Role::Responder, 0)?;
    /// let mut p = tx.seal(b"", b"data")?;
    /// p[8] ^= 1; // a forged packet is refused and does not move the window
    /// assert_eq!(rx.open(&p), Err(galois_aead::Error::AuthenticationFailed));
    /// assert_eq!(rx.highest(), 0);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn open(&mut self, packet: &[u8]) -> Result<Opened> {
        let t = self.gcm.tag_len();
        let min = self.header_len + SEQ_BYTES + t;
        if packet.len() < min {
            return Err(Error::CiphertextTooShort {
                len: packet.len(),
                min,
            });
        }
        let a_len = self.header_len + SEQ_BYTES;
        let seq = u64::from_be_bytes(packet[self.header_len..a_len].try_into().unwrap());
        self.check(seq)?;
        let (a, rest) = packet.split_at(a_len);
        let mut payload = vec![0u8; rest.len() - t];
        self.gcm.open_into(
            &iv(&self.salt, self.from, seq)[..A::NONCE_LEN],
            a,
            rest,
            &mut payload,
        )?;
        self.accept(seq);
        Ok(Opened {
            seq,
            header: packet[..self.header_len].to_vec(),
            payload,
        })
    }
}
