use core::fmt;

/// Every way a galois call can refuse its input.
///
/// Parameter errors are specific, so a caller can fix the call. A failed
/// authentication is one opaque variant, [`Error::AuthenticationFailed`]:
/// it says nothing about why, and no plaintext is ever released with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The key has a length the primitive does not take.
    InvalidKeyLength { got: usize },
    /// An empty IV, or an IV longer than GCM allows.
    InvalidIvLength { got: usize },
    /// A tag length the key object does not allow, or a tag of the wrong length.
    InvalidTagLength { got: usize },
    /// A key with a tag shorter than 16 bytes takes only 12-byte IVs (spec 2.1).
    IvLengthNotAllowedWithShortTag { iv_len: usize, tag_len: usize },
    /// The plaintext is longer than GCM allows (2^36 - 32 bytes).
    MessageTooLong { len: u64, max: u64 },
    /// The additional data is longer than GCM allows (2^61 - 1 bytes).
    AadTooLong,
    /// An output buffer has the wrong length.
    BufferLength { expected: usize, got: usize },
    /// The input is shorter than a tag.
    CiphertextTooShort { len: usize, min: usize },
    /// The named backend needs CPU features this machine lacks.
    BackendUnavailable { backend: &'static str },
    /// A backend name that galois does not know.
    UnknownBackend,
    /// The nonce has a length the primitive does not take.
    InvalidNonceLength { got: usize },
    /// The key breaks a constraint of the primitive (for example an unclamped Poly1305 r).
    InvalidKey { reason: &'static str },
    /// A counter (nonce, sequence number, usage count) would pass its limit.
    LimitReached { what: &'static str },
    /// The operating system's random source failed.
    RandomSourceFailed,
    /// The tag did not verify. The output buffer has been wiped.
    AuthenticationFailed,
    /// An input is longer than the mode's length field or counter allows.
    TooLong {
        what: &'static str,
        len: u64,
        max: u64,
    },
    /// A segmented stream ended before its final segment.
    StreamTruncated,
    /// A stream segment verified, but under another position than the one it sits at.
    StreamOutOfOrder { expected: u64, found: u64 },
    /// A stream segment already seen earlier appears again.
    StreamDuplicate { segment: u64 },
    /// Data follows the final segment of a stream.
    StreamTrailingData,
    /// The stream header's key check failed: wrong key (or an altered header).
    StreamWrongKey,
    /// The stream header is malformed.
    StreamBadHeader { reason: &'static str },
    /// A packet's sequence number was already accepted (anti-replay).
    Replay { seq: u64 },
    /// A packet's sequence number lies below the anti-replay window.
    OutsideWindow { seq: u64, lowest: u64 },
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
pub type Result<T> = core::result::Result<T, Error>;
