//! Cobblestone: C2SP chunked encryption (<https://c2sp.org/chunked-encryption>),
//! galois's file format.
//!
//! A message of any length up to 4 PiB - 1 byte is sealed under a 16- or
//! 32-byte *input key* and an optional *context* (bytes bound to the
//! message, not stored in it):
//!
//! ```text
//! key || base nonce || commitment = HKDF-Expand-SHA-512(input key,
//!     "c2sp.org/chunked-encryption@v1+" || aead name || 0x00 || salt || context)
//! sealed = salt (24 random bytes) || commitment (32) || chunk 0 || chunk 1 || ...
//! ```
//!
//! Every chunk is AES-GCM of 16 KiB of plaintext with empty AAD, under the
//! derived key and the nonce `base nonce XOR chunk number` (big-endian, in
//! the low 38 bits). The final chunk is always shorter than 16 KiB (empty
//! if the message length is a multiple of 16 KiB): that is how the end is
//! authenticated, so a message cut at a chunk boundary is refused.
//! A 16-byte input key gives Cobblestone-128 (`AEAD_AES_128_GCM`), a 32-byte
//! one Cobblestone-256 (`AEAD_AES_256_GCM`).
//!
//! The commitment is checked before any chunk is opened; a wrong key or
//! context fails there with [`Error::StreamWrongKey`]. A chunk that does not
//! verify (tampered, moved, from another message) is
//! [`Error::AuthenticationFailed`]; a message whose final chunk is missing
//! or too short for a tag is [`Error::StreamTruncated`].
//!
//! The interfaces:
//!
//! * [`seal`], [`open`], [`seal_into`], [`open_into`]: whole buffers, on all
//!   cores;
//! * [`seal_stream`], [`open_stream`]: from a reader to a writer, on all
//!   cores (one worker per core for the whole stream);
//! * [`Sealer`] (a `Write`) and [`Opener`] (a `Read`): one chunk at a time;
//!   the opener releases a chunk only after it verified and, once it failed,
//!   fails again on every later read;
//! * [`PushSealer`] and [`PushOpener`]: pieces in, whole chunks out into
//!   the caller's buffers (the shape of the C and Python streaming APIs),
//!   each chunk released only after it verified;
//! * [`RandomAccess`]: `Read + Seek` over a sealed file, opening only the
//!   chunks a read touches (the final chunk is authenticated before any
//!   seek relative to the end).
//!
//! ```
//! use galois_aead::chunked;
//! let key = [7u8; 16];
//! let sealed = chunked::seal(&key, b"file.txt", b"hello")?;
//! assert_eq!(sealed.len(), 56 + 5 + 16);
//! assert_eq!(chunked::open(&key, b"file.txt", &sealed)?, b"hello");
//! assert_eq!(chunked::open(&key, b"other.txt", &sealed), Err(galois_aead::Error::StreamWrongKey));
//! # Ok::<(), galois_aead::Error>(())
//! ```

mod hkdf;
mod pool;
mod push;
mod random;
mod stream;

pub use push::{PushOpener, PushSealer};
pub use random::RandomAccess;
pub use stream::{open_stream, seal_stream, Opener, Sealer};

use crate::ct;
use crate::error::{Error, Result};
use crate::gcm::AesGcm;
use zeroize::Zeroize;

/// Plaintext bytes per chunk (all chunks but the final one).
pub const CHUNK_SIZE: usize = 16 * 1024;
/// Tag bytes per chunk.
pub const TAG_LEN: usize = 16;
/// Sealed bytes per full chunk.
pub const SEALED_CHUNK_SIZE: usize = CHUNK_SIZE + TAG_LEN;
/// Salt bytes at the start of a sealed message.
pub const SALT_LEN: usize = 24;
/// Commitment bytes after the salt.
pub const COMMITMENT_LEN: usize = 32;
/// Header bytes: salt then commitment.
pub const HEADER_LEN: usize = SALT_LEN + COMMITMENT_LEN;
/// The most chunks a message may have: 2^38 (the final one included).
pub const MAX_CHUNKS: u64 = 1 << 38;

const LABEL: &[u8] = b"c2sp.org/chunked-encryption@v1+";
const NONCE_LEN: usize = 12;
const TOO_MANY: Error = Error::LimitReached {
    what: "chunks in one message (2^38)",
};

/// The two instantiations, chosen by the input key's length.
///
/// ```
/// use galois_aead::chunked::Suite;
/// assert_eq!(Suite::for_key(&[0u8; 16]), Ok(Suite::Cobblestone128));
/// assert_eq!(Suite::for_key(&[0u8; 32]), Ok(Suite::Cobblestone256));
/// assert!(Suite::for_key(&[0u8; 24]).is_err());
/// assert_eq!(Suite::Cobblestone128.aead_name(), "AEAD_AES_128_GCM");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// SHA-512 and AES-128-GCM, 16-byte input keys (the recommended one).
    Cobblestone128,
    /// SHA-512 and AES-256-GCM, 32-byte input keys.
    Cobblestone256,
}

impl Suite {
    /// The suite for an input key of this length: 16 or 32 bytes.
    ///
    /// ```
    /// use galois_aead::{chunked::Suite, Error};
    /// assert_eq!(Suite::for_key(&[1; 10]), Err(Error::InvalidKeyLength { got: 10 }));
    /// ```
    pub fn for_key(key: &[u8]) -> Result<Suite> {
        match key.len() {
            16 => Ok(Suite::Cobblestone128),
            32 => Ok(Suite::Cobblestone256),
            n => Err(Error::InvalidKeyLength { got: n }),
        }
    }

    /// The AEAD's name in the IANA registry, as the key derivation uses it.
    ///
    /// ```
    /// assert_eq!(galois_aead::chunked::Suite::Cobblestone256.aead_name(), "AEAD_AES_256_GCM");
    /// ```
    pub fn aead_name(self) -> &'static str {
        match self {
            Suite::Cobblestone128 => "AEAD_AES_128_GCM",
            Suite::Cobblestone256 => "AEAD_AES_256_GCM",
        }
    }

    /// The suite's name in the specification.
    ///
    /// ```
    /// assert_eq!(galois_aead::chunked::Suite::Cobblestone128.name(), "Cobblestone-128");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Suite::Cobblestone128 => "Cobblestone-128",
            Suite::Cobblestone256 => "Cobblestone-256",
        }
    }

    fn key_len(self) -> usize {
        match self {
            Suite::Cobblestone128 => 16,
            Suite::Cobblestone256 => 32,
        }
    }
}

/// One message's derived AEAD key and base nonce.
pub(crate) struct Keys {
    gcm: AesGcm,
    base: [u8; NONCE_LEN],
}

impl Drop for Keys {
    fn drop(&mut self) {
        self.base.zeroize();
    }
}

impl Keys {
    /// Derives the key, base nonce and commitment from the input key,
    /// salt and context.
    fn derive(key: &[u8], salt: &[u8; SALT_LEN], context: &[u8]) -> Result<(Keys, [u8; 32])> {
        let suite = Suite::for_key(key)?;
        let kl = suite.key_len();
        let mut okm = [0u8; 32 + NONCE_LEN + COMMITMENT_LEN];
        let okm = &mut okm[..kl + NONCE_LEN + COMMITMENT_LEN];
        // The spec's PRK is the 16- or 32-byte input key itself.
        hkdf::HmacSha512::new(key).expand(
            &[LABEL, suite.aead_name().as_bytes(), &[0], salt, context],
            okm,
        );
        let gcm = AesGcm::new(&okm[..kl]);
        let mut base = [0u8; NONCE_LEN];
        base.copy_from_slice(&okm[kl..kl + NONCE_LEN]);
        let mut commitment = [0u8; COMMITMENT_LEN];
        commitment.copy_from_slice(&okm[kl + NONCE_LEN..]);
        okm.zeroize();
        Ok((Keys { gcm: gcm?, base }, commitment))
    }

    /// A new message with a fresh random salt: the keys and the header.
    pub(crate) fn seal_random(key: &[u8], context: &[u8]) -> Result<(Keys, [u8; HEADER_LEN])> {
        Suite::for_key(key)?;
        let mut salt = [0u8; SALT_LEN];
        getrandom::fill(&mut salt).map_err(|_| Error::RandomSourceFailed)?;
        Self::seal_with_salt(key, salt, context)
    }

    pub(crate) fn seal_with_salt(
        key: &[u8],
        salt: [u8; SALT_LEN],
        context: &[u8],
    ) -> Result<(Keys, [u8; HEADER_LEN])> {
        let (keys, commitment) = Self::derive(key, &salt, context)?;
        let mut header = [0u8; HEADER_LEN];
        header[..SALT_LEN].copy_from_slice(&salt);
        header[SALT_LEN..].copy_from_slice(&commitment);
        Ok((keys, header))
    }

    /// Checks a header's commitment (before any chunk is touched).
    pub(crate) fn open(key: &[u8], context: &[u8], header: &[u8]) -> Result<Keys> {
        Suite::for_key(key)?;
        if header.len() < HEADER_LEN {
            return Err(Error::StreamBadHeader {
                reason: "shorter than the 56-byte salt and commitment",
            });
        }
        let salt: [u8; SALT_LEN] = header[..SALT_LEN].try_into().unwrap();
        let (keys, commitment) = Self::derive(key, &salt, context)?;
        if !ct::eq(&commitment, &header[SALT_LEN..HEADER_LEN]) {
            return Err(Error::StreamWrongKey);
        }
        Ok(keys)
    }

    fn nonce(&self, i: u64) -> Result<[u8; NONCE_LEN]> {
        if i >= MAX_CHUNKS {
            return Err(TOO_MANY);
        }
        let mut n = self.base;
        let c = i.to_be_bytes();
        for k in 0..5 {
            n[NONCE_LEN - 5 + k] ^= c[3 + k];
        }
        Ok(n)
    }

    /// Seals chunk `i` into `out` (`pt.len() + 16` bytes).
    pub(crate) fn seal_chunk(&self, i: u64, pt: &[u8], out: &mut [u8]) -> Result<()> {
        self.gcm.seal_into(&self.nonce(i)?, &[], pt, out)
    }

    /// Opens chunk `i` (`input`: ciphertext then tag) into `out`
    /// (`input.len() - 16` bytes); `out` is wiped on failure.
    pub(crate) fn open_chunk(&self, i: u64, input: &[u8], out: &mut [u8]) -> Result<()> {
        match self.nonce(i) {
            Ok(n) => self.gcm.open_into(&n, &[], input, out),
            Err(e) => {
                ct::wipe(out);
                Err(e)
            }
        }
    }

    /// Seals `pt` as chunks `first..` into `out`; `last` says whether the
    /// final piece (possibly empty) is the message's final chunk. Without
    /// `last`, `pt` holds whole chunks only.
    pub(crate) fn seal_run(&self, first: u64, pt: &[u8], last: bool, out: &mut [u8]) -> Result<()> {
        let n = run_chunks(pt.len(), last);
        debug_assert_eq!(out.len(), pt.len() + n * TAG_LEN);
        let mut o = out;
        for k in 0..n {
            let p = &pt[(k * CHUNK_SIZE).min(pt.len())..((k + 1) * CHUNK_SIZE).min(pt.len())];
            let (dst, rest) = o.split_at_mut(p.len() + TAG_LEN);
            self.seal_chunk(first + k as u64, p, dst)?;
            o = rest;
        }
        Ok(())
    }

    /// Opens sealed chunks `first..` (`input`: whole sealed chunks, then
    /// the final one if `last`) into `out`. On failure `out` is wiped
    /// from the failing chunk on; the chunks before it verified.
    pub(crate) fn open_run(
        &self,
        first: u64,
        input: &[u8],
        out: &mut [u8],
    ) -> core::result::Result<(), (usize, Error)> {
        let mut o = out;
        for (k, c) in input.chunks(SEALED_CHUNK_SIZE).enumerate() {
            let (dst, rest) = o.split_at_mut(c.len().saturating_sub(TAG_LEN));
            if let Err(e) = self.open_chunk(first + k as u64, c, dst) {
                ct::wipe(rest);
                return Err((k, e));
            }
            o = rest;
        }
        Ok(())
    }
}

/// Chunks holding `len` plaintext bytes: whole chunks, plus the final
/// short one if `last`.
fn run_chunks(len: usize, last: bool) -> usize {
    if last {
        len / CHUNK_SIZE + 1
    } else {
        len / CHUNK_SIZE
    }
}

/// The sealed length of a message of `pt_len` bytes.
///
/// ```
/// use galois_aead::chunked::sealed_len;
/// assert_eq!(sealed_len(0), 56 + 16); // one empty chunk
/// assert_eq!(sealed_len(16384), 56 + 16384 + 2 * 16); // a full chunk and an empty one
/// ```
pub fn sealed_len(pt_len: usize) -> usize {
    HEADER_LEN + pt_len + (pt_len / CHUNK_SIZE + 1) * TAG_LEN
}

/// The plaintext length of a sealed message of `sealed_len` bytes, or the
/// error opening it will give for its length alone.
///
/// ```
/// use galois_aead::{chunked::opened_len, Error};
/// assert_eq!(opened_len(56 + 16), Ok(0));
/// assert_eq!(opened_len(56 + 16400), Err(Error::StreamTruncated)); // a full final chunk
/// assert!(opened_len(10).is_err());
/// ```
pub fn opened_len(sealed_len: usize) -> Result<usize> {
    let body = sealed_len
        .checked_sub(HEADER_LEN)
        .ok_or(Error::StreamBadHeader {
            reason: "shorter than the 56-byte salt and commitment",
        })?;
    let full = body / SEALED_CHUNK_SIZE;
    let rem = body % SEALED_CHUNK_SIZE;
    if rem < TAG_LEN {
        return Err(Error::StreamTruncated);
    }
    if full as u64 + 1 > MAX_CHUNKS {
        return Err(TOO_MANY);
    }
    Ok(full * CHUNK_SIZE + rem - TAG_LEN)
}

/// A run of chunks to seal: first chunk, plaintext, holds the final
/// chunk, output, result.
type SealJob<'a> = (u64, &'a [u8], bool, &'a mut [u8], Result<()>);
/// A run of chunks to open: first chunk, sealed input, output, result.
type OpenJob<'a> = (u64, &'a [u8], &'a mut [u8], Result<()>);

/// Runs `f` over `parts` (consecutive runs of chunks, several per thread)
/// on at most `threads` threads: the calling thread and `threads - 1` jobs
/// on a persistent pool (created once per process: no thread is started per
/// call) each claim the next unclaimed run until none is left. The caller
/// starts at once, so a pool thread that wakes late (a wake-up costs tens of
/// microseconds on a VM, next to ~25 us of work per core for 1 MiB) takes
/// fewer runs instead of holding everyone up. The pool's threads have the
/// stack the kernels need in an unoptimized build (`stream::WORKER_STACK`).
fn par_runs<T: Send>(threads: usize, parts: &mut [T], f: impl Fn(&mut T) + Sync) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    let helpers = threads.min(parts.len()).saturating_sub(1);
    let pool = if helpers == 0 {
        None
    } else {
        // One thread per core besides the caller's: an idle pool thread
        // spinning for work would take a core from the two that work.
        POOL.get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(pool::cores().saturating_sub(1).max(1))
                .stack_size(crate::stream::WORKER_STACK)
                .build()
                .ok()
        })
        .as_ref()
    };
    // One thread, or no threads to be had: the work gets done here.
    let Some(pool) = pool else {
        parts.iter_mut().for_each(f);
        return;
    };
    // Each run is claimed exactly once (the counter), so its lock is never
    // contended; it only lets the claiming thread have `&mut`.
    let slots: Vec<Mutex<&mut T>> = parts.iter_mut().map(Mutex::new).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let work = || {
        while let Some(slot) = slots.get(next.fetch_add(1, Ordering::Relaxed)) {
            f(&mut slot.lock().unwrap_or_else(PoisonError::into_inner));
            done.fetch_add(1, Ordering::Release);
        }
    };
    let work = &work;
    pool.in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(move |_| work());
        }
        work();
        // A run still in progress elsewhere takes a few microseconds: wait
        // for it awake, as sleeping and being woken costs more on a VM. The
        // spin is bounded (about 20-60 us); past it, or if a pool thread never
        // started, the scope's own blocking wait takes over.
        for _ in 0..1 << 14 {
            if done.load(Ordering::Acquire) == slots.len() {
                break;
            }
            std::hint::spin_loop();
        }
    });
}

/// How many runs of chunks the buffer functions cut a message into: one
/// for one thread, else runs of about `RUN_CHUNKS` chunks (contiguous, so
/// each thread streams through its own memory), at least one per thread.
fn runs_for(chunks: usize, threads: usize) -> usize {
    const RUN_CHUNKS: usize = 8;
    if threads <= 1 || chunks < 4 {
        1
    } else {
        (chunks / RUN_CHUNKS).max(threads).min(chunks)
    }
}

/// Seals `pt` into `out`, which must hold [`sealed_len`]`(pt.len())`
/// bytes, with a fresh random salt, on all cores.
///
/// ```
/// use galois_aead::chunked;
/// let pt = vec![3u8; 40_000];
/// let mut out = vec![0u8; chunked::sealed_len(pt.len())];
/// chunked::seal_into(&[1; 32], b"", &pt, &mut out)?;
/// assert_eq!(chunked::open(&[1; 32], b"", &out)?, pt);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn seal_into(key: &[u8], context: &[u8], pt: &[u8], out: &mut [u8]) -> Result<()> {
    seal_into_on(pool::cores(), key, context, pt, out)
}

/// [`seal_into`] on at most `threads` threads (1: the calling thread
/// only; 0 counts as 1).
///
/// ```
/// use galois_aead::chunked;
/// let pt = vec![3u8; 100_000];
/// let mut out = vec![0u8; chunked::sealed_len(pt.len())];
/// chunked::seal_into_on(1, &[1; 16], b"", &pt, &mut out)?;
/// assert_eq!(chunked::open(&[1; 16], b"", &out)?, pt);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn seal_into_on(
    threads: usize,
    key: &[u8],
    context: &[u8],
    pt: &[u8],
    out: &mut [u8],
) -> Result<()> {
    let (keys, header) = Keys::seal_random(key, context)?;
    seal_keys_into(threads, &keys, &header, pt, out)
}

fn seal_keys_into(
    threads: usize,
    keys: &Keys,
    header: &[u8; HEADER_LEN],
    pt: &[u8],
    out: &mut [u8],
) -> Result<()> {
    let need = sealed_len(pt.len());
    if out.len() != need {
        return Err(Error::BufferLength {
            expected: need,
            got: out.len(),
        });
    }
    let chunks = pt.len() / CHUNK_SIZE + 1;
    if chunks as u64 > MAX_CHUNKS {
        return Err(TOO_MANY);
    }
    let (h, mut body) = out.split_at_mut(HEADER_LEN);
    h.copy_from_slice(header);
    // Split into one contiguous run of whole chunks per core; the last run
    // also takes the final chunk.
    let runs = runs_for(chunks, threads);
    let per = (chunks - 1).div_ceil(runs).max(1);
    let mut jobs: Vec<SealJob<'_>> = Vec::new();
    let mut first = 0usize;
    let mut rest_pt = pt;
    loop {
        let whole = (chunks - 1 - first).min(per);
        let last = first + whole == chunks - 1;
        let take = if last {
            rest_pt.len()
        } else {
            whole * CHUNK_SIZE
        };
        let (p, rp) = rest_pt.split_at(take);
        let n = run_chunks(p.len(), last);
        let (o, rb) = body.split_at_mut(p.len() + n * TAG_LEN);
        jobs.push((first as u64, p, last, o, Ok(())));
        rest_pt = rp;
        body = rb;
        first += whole;
        if last {
            break;
        }
    }
    par_runs(threads, &mut jobs, |(first, p, last, o, r)| {
        *r = keys.seal_run(*first, p, *last, o);
    });
    jobs.into_iter().try_for_each(|j| j.4)
}

/// Seals `pt` with a fresh random salt, on all cores.
///
/// ```
/// let sealed = galois_aead::chunked::seal(&[9u8; 16], b"", &[0u8; 20_000])?;
/// assert_eq!(sealed.len(), 56 + 20_000 + 2 * 16);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn seal(key: &[u8], context: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
    let mut out = vec![0u8; sealed_len(pt.len())];
    seal_into(key, context, pt, &mut out)?;
    Ok(out)
}

/// Seals with a given salt (feature `hazmat`, which no binding enables).
/// **For test vectors and interoperability tests only**: a salt must never
/// repeat under one key.
///
/// ```
/// use galois_aead::chunked;
/// let a = chunked::seal_with_salt_for_tests(&[1; 16], [2; 24], b"", b"x")?;
/// let b = chunked::seal_with_salt_for_tests(&[1; 16], [2; 24], b"", b"x")?;
/// assert_eq!(a, b); // deterministic: never do this with real data
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[cfg(feature = "hazmat")]
pub fn seal_with_salt_for_tests(
    key: &[u8],
    salt: [u8; SALT_LEN],
    context: &[u8],
    pt: &[u8],
) -> Result<Vec<u8>> {
    let (keys, header) = Keys::seal_with_salt(key, salt, context)?;
    let mut out = vec![0u8; sealed_len(pt.len())];
    seal_keys_into(pool::cores(), &keys, &header, pt, &mut out)?;
    Ok(out)
}

/// Opens a whole sealed message into `out`, which must hold
/// [`opened_len`]`(sealed.len())` bytes, on all cores. On any error `out`
/// is wiped: nothing is released unless every chunk verified.
///
/// ```
/// use galois_aead::chunked;
/// let sealed = chunked::seal(&[1; 16], b"ctx", &[5u8; 100])?;
/// let mut out = vec![0u8; chunked::opened_len(sealed.len())?];
/// chunked::open_into(&[1; 16], b"ctx", &sealed, &mut out)?;
/// assert_eq!(out, [5u8; 100]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn open_into(key: &[u8], context: &[u8], sealed: &[u8], out: &mut [u8]) -> Result<()> {
    open_into_on(pool::cores(), key, context, sealed, out)
}

/// [`open_into`] on at most `threads` threads (1: the calling thread
/// only; 0 counts as 1).
///
/// ```
/// use galois_aead::chunked;
/// let sealed = chunked::seal(&[1; 16], b"", &[5u8; 100_000])?;
/// let mut out = vec![0u8; chunked::opened_len(sealed.len())?];
/// chunked::open_into_on(1, &[1; 16], b"", &sealed, &mut out)?;
/// assert_eq!(out, vec![5u8; 100_000]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn open_into_on(
    threads: usize,
    key: &[u8],
    context: &[u8],
    sealed: &[u8],
    out: &mut [u8],
) -> Result<()> {
    let r = open_into_inner(threads, key, context, sealed, out);
    if r.is_err() {
        ct::wipe(out);
    }
    r
}

fn open_into_inner(
    threads: usize,
    key: &[u8],
    context: &[u8],
    sealed: &[u8],
    out: &mut [u8],
) -> Result<()> {
    // The length first (cheap, and what the spec's implementation notes
    // call invalid lengths), then the commitment, then the chunks.
    let pt_len = match opened_len(sealed.len()) {
        Err(Error::StreamBadHeader { .. }) => {
            // Too short for a header: say so even before the key check.
            return Err(Error::StreamBadHeader {
                reason: "shorter than the 56-byte salt and commitment",
            });
        }
        r => r,
    };
    let keys = Keys::open(key, context, sealed)?;
    let pt_len = pt_len?;
    if out.len() != pt_len {
        return Err(Error::BufferLength {
            expected: pt_len,
            got: out.len(),
        });
    }
    let body = &sealed[HEADER_LEN..];
    let chunks = pt_len / CHUNK_SIZE + 1;
    // Runs of whole chunks split as sealing splits them, the final chunk
    // (often empty) joining the last run: cut into runs of ceil(chunks /
    // runs), 1 MiB (65 chunks) made seven runs of 9 and one of 2, which two
    // threads share 36:29, not 33:32 (1.69x one thread, not 1.8x).
    let runs = runs_for(chunks, threads);
    let per = (chunks - 1).div_ceil(runs).max(1);
    let mut jobs: Vec<OpenJob<'_>> = Vec::new();
    let mut rest_in = body;
    let mut rest_out = out;
    let mut first = 0usize;
    while first < chunks {
        let left = chunks - first;
        let n = if left <= per + 1 { left } else { per };
        let take = if first + n == chunks {
            rest_in.len()
        } else {
            n * SEALED_CHUNK_SIZE
        };
        let (i, ri) = rest_in.split_at(take);
        let (o, ro) = rest_out.split_at_mut(take - n * TAG_LEN);
        jobs.push((first as u64, i, o, Ok(())));
        rest_in = ri;
        rest_out = ro;
        first += n;
    }
    par_runs(threads, &mut jobs, |(first, i, o, r)| {
        *r = keys.open_run(*first, i, o).map_err(|(_, e)| e);
    });
    jobs.into_iter().try_for_each(|j| j.3)
}

/// Opens a whole sealed message on all cores; the plaintext only if every
/// chunk verified and the message is complete.
///
/// ```
/// use galois_aead::{chunked, Error};
/// let sealed = chunked::seal(&[1; 16], b"", &[5u8; 100])?;
/// assert_eq!(chunked::open(&[1; 16], b"", &sealed)?, [5u8; 100]);
/// let mut bad = sealed.clone();
/// bad[60] ^= 1;
/// assert_eq!(chunked::open(&[1; 16], b"", &bad), Err(Error::AuthenticationFailed));
/// assert_eq!(chunked::open(&[1; 16], b"", &sealed[..70]), Err(Error::StreamTruncated));
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn open(key: &[u8], context: &[u8], sealed: &[u8]) -> Result<Vec<u8>> {
    let mut out = vec![0u8; opened_len(sealed.len()).unwrap_or(0)];
    open_into(key, context, sealed, &mut out)?;
    Ok(out)
}
