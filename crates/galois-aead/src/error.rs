use core::fmt;

/// Every way a galois call can refuse its input.
///
/// Parameter errors are specific, so a caller can fix the call. A failed
/// authentication is one opaque variant, [`Error::AuthenticationFailed`]:
/// it says nothing about why, and no plaintext is ever released with it.
///
/// ```
/// use galois_aead::{AesGcm, Error};
/// assert_eq!(AesGcm::new(&[0u8; 10]).err(), Some(Error::InvalidKeyLength { got: 10 }));
/// let gcm = AesGcm::new(&[0u8; 16])?;
/// match gcm.open(&[0; 12], b"", &[0u8; 20]) {
///     Err(Error::AuthenticationFailed) => {} // forged or corrupted: drop it
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(Error::UnknownBackend.to_string(), "unknown backend name");
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The key has a length the primitive does not take.
    InvalidKeyLength {
        /// The length given, in bytes.
        got: usize,
    },
    /// An empty IV, or an IV longer than GCM allows.
    InvalidIvLength {
        /// The length given, in bytes.
        got: usize,
    },
    /// A tag length the key object does not allow, or a tag of the wrong length.
    InvalidTagLength {
        /// The length given, in bytes.
        got: usize,
    },
    /// A key with a tag shorter than 16 bytes takes only 12-byte IVs (spec 2.1).
    IvLengthNotAllowedWithShortTag {
        /// The IV length given, in bytes.
        iv_len: usize,
        /// The key's tag length, in bytes.
        tag_len: usize,
    },
    /// The plaintext is longer than GCM allows (2^36 - 32 bytes).
    MessageTooLong {
        /// The length given, in bytes.
        len: u64,
        /// The longest allowed, in bytes.
        max: u64,
    },
    /// The additional data is longer than GCM allows (2^61 - 1 bytes).
    AadTooLong,
    /// An output buffer has the wrong length.
    BufferLength {
        /// The length needed, in bytes.
        expected: usize,
        /// The length given, in bytes.
        got: usize,
    },
    /// The input is shorter than a tag.
    CiphertextTooShort {
        /// The length given, in bytes.
        len: usize,
        /// The shortest allowed (the tag length), in bytes.
        min: usize,
    },
    /// The named backend needs CPU features this machine lacks.
    BackendUnavailable {
        /// The backend's name.
        backend: &'static str,
    },
    /// A backend name that galois does not know.
    UnknownBackend,
    /// The nonce has a length the primitive does not take.
    InvalidNonceLength {
        /// The length given, in bytes.
        got: usize,
    },
    /// The key breaks a constraint of the primitive (for example an unclamped Poly1305 r).
    InvalidKey {
        /// Which constraint.
        reason: &'static str,
    },
    /// A counter (nonce, sequence number, usage count) would pass its limit.
    LimitReached {
        /// Which counter or limit.
        what: &'static str,
    },
    /// The operating system's random source failed.
    RandomSourceFailed,
    /// The tag did not verify. The output buffer has been wiped.
    AuthenticationFailed,
    /// An input is longer than the mode's length field or counter allows.
    TooLong {
        /// Which input.
        what: &'static str,
        /// Its length, in bytes.
        len: u64,
        /// The longest allowed, in bytes.
        max: u64,
    },
    /// A segmented stream ended before its final segment.
    StreamTruncated,
    /// A stream segment verified, but under another position than the one it sits at.
    StreamOutOfOrder {
        /// The position the segment sits at.
        expected: u64,
        /// The position it was sealed for.
        found: u64,
    },
    /// A stream segment already seen earlier appears again.
    StreamDuplicate {
        /// The position it was sealed for.
        segment: u64,
    },
    /// Data follows the final segment of a stream.
    StreamTrailingData,
    /// The stream header's key check failed: wrong key (or an altered header).
    StreamWrongKey,
    /// The stream header is malformed.
    StreamBadHeader {
        /// What is wrong.
        reason: &'static str,
    },
    /// A packet's sequence number was already accepted (anti-replay).
    Replay {
        /// The sequence number.
        seq: u64,
    },
    /// A packet's sequence number lies below the anti-replay window.
    OutsideWindow {
        /// The sequence number.
        seq: u64,
        /// The lowest number the window still accepts.
        lowest: u64,
    },
    /// An option of [`Options`](crate::Options) that this AEAD does not have
    /// (the GCM-only tag and IV options on AES-GCM-SIV or XAES-256-GCM).
    UnsupportedOption {
        /// The option's method name.
        option: &'static str,
    },
    /// An IV or nonce this object already used for a tag (reuse would leak the hash key).
    IvReused,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidKeyLength { got } => write!(f, "invalid key length: {got} bytes"),
            Error::InvalidIvLength { got } => {
                write!(
                    f,
                    "invalid IV length: {got} bytes (GCM takes 1 to 2^61-1 bytes)"
                )
            }
            Error::InvalidTagLength { got } => write!(f, "invalid tag length: {got} bytes"),
            Error::IvLengthNotAllowedWithShortTag { iv_len, tag_len } => write!(
                f,
                "a {tag_len}-byte tag requires a 12-byte IV (got {iv_len} bytes); \
                 use the permissive constructor only for interoperability"
            ),
            Error::MessageTooLong { len, max } => {
                write!(f, "message too long: {len} bytes (limit {max} bytes)")
            }
            Error::AadTooLong => write!(f, "additional data too long (limit 2^61-1 bytes)"),
            Error::BufferLength { expected, got } => {
                write!(f, "output buffer has {got} bytes, {expected} needed")
            }
            Error::CiphertextTooShort { len, min } => {
                write!(
                    f,
                    "ciphertext of {len} bytes is shorter than the {min}-byte tag"
                )
            }
            Error::BackendUnavailable { backend } => {
                write!(f, "backend {backend} needs CPU features this machine lacks")
            }
            Error::UnknownBackend => write!(f, "unknown backend name"),
            Error::UnsupportedOption { option } => {
                write!(f, "option {option} does not apply to this AEAD")
            }
            Error::InvalidNonceLength { got } => write!(f, "invalid nonce length: {got} bytes"),
            Error::InvalidKey { reason } => write!(f, "invalid key: {reason}"),
            Error::LimitReached { what } => write!(f, "limit reached: {what}"),
            Error::RandomSourceFailed => write!(f, "the operating system's random source failed"),
            Error::AuthenticationFailed => write!(f, "authentication failed"),
            Error::TooLong { what, len, max } => {
                write!(f, "{what} too long: {len} bytes (limit {max} bytes)")
            }
            Error::StreamTruncated => write!(f, "stream truncated: the final segment is missing"),
            Error::StreamOutOfOrder { expected, found } => write!(
                f,
                "stream segments reordered: segment {found} found where {expected} belongs"
            ),
            Error::StreamDuplicate { segment } => {
                write!(f, "stream segment {segment} duplicated")
            }
            Error::StreamTrailingData => write!(f, "data appended after the final stream segment"),
            Error::StreamWrongKey => {
                write!(f, "wrong key for this stream (or its header was altered)")
            }
            Error::StreamBadHeader { reason } => write!(f, "bad stream header: {reason}"),
            Error::IvReused => write!(
                f,
                "IV already used for a tag by this object (reuse would leak the hash key)"
            ),
            Error::Replay { seq } => write!(f, "replayed packet: sequence number {seq}"),
            Error::OutsideWindow { seq, lowest } => write!(
                f,
                "packet {seq} is older than the anti-replay window (lowest accepted {lowest})"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Result with [`Error`].
///
/// ```
/// fn tag_len(key: &[u8]) -> galois_aead::Result<usize> {
///     Ok(galois_aead::AesGcm::new(key)?.tag_len())
/// }
/// assert_eq!(tag_len(&[0; 32]), Ok(16));
/// assert!(tag_len(&[0; 31]).is_err());
/// ```
pub type Result<T> = core::result::Result<T, Error>;
