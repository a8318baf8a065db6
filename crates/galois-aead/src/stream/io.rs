//! Streams over `std::io::Read` and `std::io::Write`, for the CLI's
//! `seal` and `open`: batches of segments go through all cores at once,
//! and each verified segment is written as soon as its batch is done.

use super::{par_each, Ctx, HEADER_LEN, MAX_SEGMENTS, TAG_LEN};
use crate::ct;
use crate::error::Error;
use std::io::{Read, Write};
use zeroize::Zeroizing;

/// A stream failed: an I/O error, or a cryptographic one.
///
/// ```
/// use galois_aead::stream::{open_stream, StreamError};
/// let mut out = Vec::new();
/// let r = open_stream(&[1u8; 32], &mut &b"not a stream"[..], &mut out);
/// assert!(matches!(r, Err(StreamError::Crypto(galois_aead::Error::StreamBadHeader { .. }))));
/// ```
#[derive(Debug)]
pub enum StreamError {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// The stream was refused (see [`Error`] for which check).
    Crypto(Error),
}

impl core::fmt::Display for StreamError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StreamError::Io(e) => write!(f, "I/O error: {e}"),
            StreamError::Crypto(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StreamError {}

impl From<std::io::Error> for StreamError {
    fn from(e: std::io::Error) -> Self {
        StreamError::Io(e)
    }
}

impl From<Error> for StreamError {
    fn from(e: Error) -> Self {
        StreamError::Crypto(e)
    }
}

/// A buffer that may hold plaintext: wiped when dropped, so a batch
/// abandoned on an error (a failed segment, a write error) leaves nothing.
type Secret = Zeroizing<Vec<u8>>;

/// Reads up to `n` bytes (fewer only at end of input); `None` at EOF.
fn read_chunk<R: Read>(r: &mut R, n: usize) -> std::io::Result<Option<Secret>> {
    let mut buf = Zeroizing::new(vec![0u8; n]);
    let mut got = 0;
    while got < n {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(got);
    Ok((got > 0).then_some(buf))
}

/// One segment being sealed: plaintext, last, output.
type SealJob = (Secret, bool, Vec<u8>);

/// Reads up to `bl` chunks of `n` bytes as jobs (`job(chunk, more)`; the
/// first chunk is `pending`, the one after the batch is left there); true
/// if the input ended.
fn read_batch<R: Read, T>(
    r: &mut R,
    n: usize,
    bl: usize,
    pending: &mut Secret,
    job: impl Fn(Secret, bool) -> T,
) -> std::io::Result<(Vec<T>, bool)> {
    let mut batch = Vec::with_capacity(bl);
    while batch.len() < bl {
        let cur = std::mem::take(pending);
        let next = read_chunk(r, n)?;
        batch.push(job(cur, next.is_some()));
        match next {
            Some(nx) => *pending = nx,
            None => return Ok((batch, true)),
        }
    }
    Ok((batch, false))
}

/// A sealing job: plaintext, last, output.
fn seal_job(p: Secret, more: bool) -> SealJob {
    let out = vec![0u8; p.len() + TAG_LEN];
    (p, !more, out)
}

/// An opening job: chunk, more follows, output, result.
fn open_job(c: Secret, more: bool) -> OpenJob {
    let out = Zeroizing::new(vec![0u8; c.len().saturating_sub(TAG_LEN)]);
    (c, more, out, Ok(()))
}

/// One segment being opened: chunk, more data follows, output, result.
type OpenJob = (Secret, bool, Secret, Result<(), Error>);

/// Segments per batch: at least a few per core and about 4 MiB, so
/// starting the batch's threads costs little next to its work.
fn batch_len(seg_size: usize) -> usize {
    (4 * super::cores())
        .max((4 << 20) / seg_size.max(1))
        .min(1024)
}

/// Seals everything `r` gives into `w` as a stream with fresh random salt
/// and prefix; returns the plaintext bytes read.
///
/// ```
/// use galois_aead::stream::{open_stream, seal_stream};
/// let data = vec![42u8; 100_000];
/// let mut sealed = Vec::new();
/// assert_eq!(seal_stream(&[1u8; 32], 4096, &mut &data[..], &mut sealed)?, 100_000);
/// let mut back = Vec::new();
/// open_stream(&[1u8; 32], &mut &sealed[..], &mut back)?;
/// assert_eq!(back, data);
/// # Ok::<(), galois_aead::stream::StreamError>(())
/// ```
pub fn seal_stream<R: Read, W: Write>(
    key: &[u8],
    segment_size: usize,
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    seal_stream_with_aad(key, &[], segment_size, r, w)
}

/// [`seal_stream`] with associated data: authenticated in every segment,
/// not stored; [`open_stream_with_aad`] needs the same bytes.
///
/// ```
/// use galois_aead::stream::{open_stream_with_aad, seal_stream_with_aad};
/// let mut sealed = Vec::new();
/// seal_stream_with_aad(&[1u8; 32], b"file name", 1024, &mut &b"contents"[..], &mut sealed)?;
/// let mut back = Vec::new();
/// open_stream_with_aad(&[1u8; 32], b"file name", &mut &sealed[..], &mut back)?;
/// assert_eq!(back, b"contents");
/// # Ok::<(), galois_aead::stream::StreamError>(())
/// ```
pub fn seal_stream_with_aad<R: Read, W: Write>(
    key: &[u8],
    aad: &[u8],
    segment_size: usize,
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    let ctx = Ctx::seal_random(key, segment_size)?.with_aad(aad);
    w.write_all(ctx.header())?;
    let s = ctx.seg_size();
    let bl = batch_len(s);
    let mut total = 0u64;
    let mut index = 0u64;
    let mut pending = read_chunk(r, s)?.unwrap_or_default();
    let mut next = Some(read_batch(r, s, bl, &mut pending, seal_job)?);
    while let Some((mut batch, done)) = next.take() {
        if index + batch.len() as u64 > MAX_SEGMENTS {
            return Err(Error::LimitReached {
                what: "segments in one stream (2^32 - 1)",
            }
            .into());
        }
        // Seal this batch on the cores while this thread reads the next.
        let errs = std::sync::Mutex::new(None);
        let following = std::thread::scope(|sc| {
            let work = super::spawn_worker(sc, || {
                par_each(&mut batch, |k, (p, last, o)| {
                    if let Err(e) = ctx.seal_segment(index + k as u64, *last, p, o) {
                        *errs.lock().unwrap() = Some(e);
                    }
                })
            });
            let following = (!done).then(|| read_batch(r, s, bl, &mut pending, seal_job));
            if let Err(p) = work.join() {
                std::panic::resume_unwind(p);
            }
            following
        });
        if let Some(e) = errs.into_inner().unwrap() {
            return Err(e.into());
        }
        for (p, _, o) in &mut batch {
            w.write_all(o)?;
            total += p.len() as u64;
            ct::wipe(p);
        }
        index += batch.len() as u64;
        next = following.transpose()?;
    }
    w.flush()?;
    Ok(total)
}

/// Opens a stream from `r` into `w`, writing each segment only after its
/// tag verifies; returns the plaintext bytes written. On error, what was
/// written is verified but incomplete: discard it.
///
/// ```
/// use galois_aead::stream::{open_stream, seal_stream, StreamError};
/// let mut sealed = Vec::new();
/// seal_stream(&[1u8; 32], 16, &mut &[0u8; 64][..], &mut sealed)?;
/// let last = sealed.len() - 1;
/// sealed[last] ^= 1;
/// let mut out = Vec::new();
/// let r = open_stream(&[1u8; 32], &mut &sealed[..], &mut out);
/// assert!(matches!(r, Err(StreamError::Crypto(galois_aead::Error::AuthenticationFailed))));
/// # Ok::<(), StreamError>(())
/// ```
pub fn open_stream<R: Read, W: Write>(
    key: &[u8],
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    open_stream_with_aad(key, &[], r, w)
}

/// [`open_stream`] for a stream sealed with associated data: a different
/// `aad` fails like a tampered segment.
///
/// ```
/// use galois_aead::stream::{open_stream_with_aad, seal_stream_with_aad};
/// let mut sealed = Vec::new();
/// seal_stream_with_aad(&[1u8; 32], b"v1", 1024, &mut &b"x"[..], &mut sealed)?;
/// let r = open_stream_with_aad(&[1u8; 32], b"v2", &mut &sealed[..], &mut Vec::new());
/// assert!(r.is_err());
/// # Ok::<(), galois_aead::stream::StreamError>(())
/// ```
pub fn open_stream_with_aad<R: Read, W: Write>(
    key: &[u8],
    aad: &[u8],
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    let header = read_chunk(r, HEADER_LEN)?.unwrap_or_default();
    let ctx = Ctx::open(key, &header)?.with_aad(aad);
    let cs = ctx.seg_size() + TAG_LEN;
    let bl = batch_len(ctx.seg_size());
    let mut pending = match read_chunk(r, cs)? {
        Some(c) => c,
        None => return Err(Error::StreamTruncated.into()),
    };
    let mut index = 0u64;
    let mut total = 0u64;
    let mut next = Some(read_batch(r, cs, bl, &mut pending, open_job)?);
    while let Some((mut batch, done)) = next.take() {
        // Open this batch on the cores while this thread reads the next.
        let following = std::thread::scope(|sc| {
            let work = super::spawn_worker(sc, || {
                par_each(&mut batch, |k, (c, more, o, res)| {
                    *res = ctx.open_segment(index + k as u64, *more, c, o);
                })
            });
            let following = (!done).then(|| read_batch(r, cs, bl, &mut pending, open_job));
            if let Err(p) = work.join() {
                std::panic::resume_unwind(p);
            }
            following
        });
        for (k, (c, more, o, res)) in batch.iter_mut().enumerate() {
            if let Err(e) = res {
                return Err(ctx.explain(*e, index + k as u64, *more, c).into());
            }
            w.write_all(o)?;
            total += o.len() as u64;
            ct::wipe(o);
        }
        index += batch.len() as u64;
        next = following.transpose()?;
    }
    w.flush()?;
    Ok(total)
}
