//! Segmented streams of any size: the STREAM construction of Hoang,
//! Reyhanitabar, Rogaway and Vizar (online AE, 2015) over AES-GCM, as
//! Tink's streaming AEAD and age use it. The byte format is specified in
//! `docs/stream-format.md`.
//!
//! The plaintext is cut into segments of a fixed size (the last one may be
//! shorter). Segment i is sealed with AES-GCM under a per-stream key,
//! derived from the caller's key and a random salt, with the nonce
//!
//! ```text
//! nonce prefix (7 random bytes) || i (4 bytes, big-endian) || last (1 byte: 0 or 1)
//! ```
//!
//! and the header (without its key check) as AAD. Because the position and
//! the "last" flag are in the nonce, a segment verifies only at its own
//! place, and only the true final segment verifies as final. When a segment
//! fails, the opener looks for where it would verify, to say what happened:
//!
//! | attack | error |
//! |---|---|
//! | stream cut after a non-final segment | [`Error::StreamTruncated`] |
//! | a later segment moved earlier | [`Error::StreamOutOfOrder`] |
//! | an earlier segment repeated | [`Error::StreamDuplicate`] |
//! | bytes after the final segment | [`Error::StreamTrailingData`] |
//! | a different key | [`Error::StreamWrongKey`] |
//! | anything else (bit flips, ...) | [`Error::AuthenticationFailed`] |
//!
//! A segment's plaintext is released only after its tag verifies. The
//! streaming opener writes each verified segment as it goes, so a stream
//! cut short leaves a verified but incomplete output behind: the output is
//! complete only when [`open_stream`] returns `Ok`.
//!
//! Segments are sealed and opened on all cores (`std::thread::scope`).

mod io;

pub use io::{open_stream, open_stream_with_aad, seal_stream, seal_stream_with_aad, StreamError};

use crate::aes::Aes;
use crate::block::BlockCipher128;
use crate::ct;
use crate::error::{Error, Result};
use crate::gcm::online::{mask, Hasher};
use crate::gcm::{AesGcm, Options};
use crate::limits::aes_gcm_refusing_zero_h;
use zeroize::Zeroize;

/// The four bytes every stream starts with.
pub const MAGIC: [u8; 4] = *b"GSTR";
/// The format version this code writes and reads.
pub const VERSION: u8 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 50;
/// Header bytes covered by the AAD (all but the key check).
pub const HEADER_AAD_LEN: usize = 34;
/// Tag bytes per segment.
pub const TAG_LEN: usize = 16;
/// The default plaintext bytes per segment: 64 KiB.
pub const DEFAULT_SEGMENT_SIZE: usize = 1 << 16;
/// The smallest segment size allowed.
pub const MIN_SEGMENT_SIZE: usize = 16;
/// The largest segment size allowed: 16 MiB.
pub const MAX_SEGMENT_SIZE: usize = 1 << 24;
/// The most segments a stream may have (index 2^32 - 1 is reserved).
pub const MAX_SEGMENTS: u64 = (1 << 32) - 1;
/// How far before and after its place the opener looks for a misplaced
/// segment when naming the error. Under Miri, which interprets the 2^18
/// trial tags of a full search for many minutes, and in fuzzing builds
/// (`cfg(fuzzing)`, set by cargo-fuzz), where the search would take most of
/// each execution, the window is 16 segments; the code run is the same.
const SEARCH: u64 = if cfg!(any(miri, fuzzing)) {
    1 << 4
} else {
    1 << 16
};

/// A stream's keys and header, shared by the sealer and the opener.
pub(crate) struct Ctx {
    gcm: AesGcm,
    header: [u8; HEADER_LEN],
    seg_size: usize,
    /// Each segment's AAD: the header AAD, then the caller's AAD (if any).
    aad: Vec<u8>,
}

fn check_seg_size(n: usize) -> Result<()> {
    if !(MIN_SEGMENT_SIZE..=MAX_SEGMENT_SIZE).contains(&n) {
        return Err(Error::StreamBadHeader {
            reason: "segment size outside 16 bytes .. 16 MiB",
        });
    }
    Ok(())
}

/// The per-stream key: AES_K(salt || 0x00) || AES_K(salt || 0x01),
/// truncated to the length of K.
fn derive(key: &[u8], salt: &[u8; 15]) -> Result<AesGcm> {
    let aes = Aes::new(key)?;
    let mut sub = [0u8; 32];
    for j in 0..2u8 {
        let mut b = [0u8; 16];
        b[..15].copy_from_slice(salt);
        b[15] = j;
        aes.encrypt_block(&mut b);
        sub[16 * j as usize..16 * (j as usize + 1)].copy_from_slice(&b);
        b.zeroize();
    }
    let r = aes_gcm_refusing_zero_h(&sub[..key.len()], Options::new());
    sub.zeroize();
    r
}

fn nonce(header: &[u8; HEADER_LEN], i: u64, last: u8) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..7].copy_from_slice(&header[27..34]);
    n[7..11].copy_from_slice(&(i as u32).to_be_bytes());
    n[11] = last;
    n
}

impl Ctx {
    /// A new stream with the given salt and nonce prefix.
    pub(crate) fn seal_new(
        key: &[u8],
        seg_size: usize,
        salt: [u8; 15],
        prefix: [u8; 7],
    ) -> Result<Ctx> {
        check_seg_size(seg_size)?;
        let gcm = derive(key, &salt)?;
        let mut header = [0u8; HEADER_LEN];
        header[..4].copy_from_slice(&MAGIC);
        header[4] = VERSION;
        header[8..12].copy_from_slice(&(seg_size as u32).to_be_bytes());
        header[12..27].copy_from_slice(&salt);
        header[27..34].copy_from_slice(&prefix);
        let check = gcm.seal_in_place_detached(
            &nonce(&header, MAX_SEGMENTS, 2),
            &header[..HEADER_AAD_LEN],
            &mut [],
        )?;
        header[HEADER_AAD_LEN..].copy_from_slice(check.as_bytes());
        Ok(Ctx {
            gcm,
            header,
            seg_size,
            aad: header[..HEADER_AAD_LEN].to_vec(),
        })
    }

    /// A new stream with fresh random salt and prefix.
    pub(crate) fn seal_random(key: &[u8], seg_size: usize) -> Result<Ctx> {
        let mut r = [0u8; 22];
        getrandom::fill(&mut r).map_err(|_| Error::RandomSourceFailed)?;
        Self::seal_new(
            key,
            seg_size,
            r[..15].try_into().unwrap(),
            r[15..].try_into().unwrap(),
        )
    }

    /// Parses and checks a header (its key check included).
    pub(crate) fn open(key: &[u8], header: &[u8]) -> Result<Ctx> {
        if header.len() < HEADER_LEN {
            return Err(Error::StreamBadHeader {
                reason: "shorter than the 50-byte header",
            });
        }
        let h: [u8; HEADER_LEN] = header[..HEADER_LEN].try_into().unwrap();
        if h[..4] != MAGIC {
            return Err(Error::StreamBadHeader {
                reason: "not a galois stream (bad magic)",
            });
        }
        if h[4] != VERSION {
            return Err(Error::StreamBadHeader {
                reason: "unsupported version",
            });
        }
        if h[5..8] != [0, 0, 0] {
            return Err(Error::StreamBadHeader {
                reason: "reserved bytes not zero",
            });
        }
        let seg_size = u32::from_be_bytes(h[8..12].try_into().unwrap()) as usize;
        check_seg_size(seg_size)?;
        let gcm = derive(key, h[12..27].try_into().unwrap())?;
        let ok = gcm.open_in_place_detached(
            &nonce(&h, MAX_SEGMENTS, 2),
            &h[..HEADER_AAD_LEN],
            &mut [],
            &h[HEADER_AAD_LEN..],
        );
        if ok.is_err() {
            return Err(Error::StreamWrongKey);
        }
        Ok(Ctx {
            gcm,
            header: h,
            seg_size,
            aad: h[..HEADER_AAD_LEN].to_vec(),
        })
    }

    pub(crate) fn header(&self) -> &[u8; HEADER_LEN] {
        &self.header
    }

    pub(crate) fn seg_size(&self) -> usize {
        self.seg_size
    }

    fn aad(&self) -> &[u8] {
        &self.aad
    }

    /// Binds the caller's associated data to every segment: it is
    /// appended to each segment's AAD (and not stored in the stream).
    pub(crate) fn with_aad(mut self, user_aad: &[u8]) -> Self {
        self.aad.truncate(HEADER_AAD_LEN);
        self.aad.extend_from_slice(user_aad);
        self
    }

    /// Seals segment `i` into `out` (`pt.len() + 16` bytes).
    pub(crate) fn seal_segment(&self, i: u64, last: bool, pt: &[u8], out: &mut [u8]) -> Result<()> {
        if i >= MAX_SEGMENTS {
            return Err(Error::LimitReached {
                what: "segments in one stream (2^32 - 1)",
            });
        }
        self.gcm
            .seal_into(&nonce(&self.header, i, last as u8), self.aad(), pt, out)
    }

    /// Opens the chunk at position `i` into `out` (`chunk.len() - 16`
    /// bytes). `more` says whether data follows the chunk. A failed tag is
    /// [`Error::AuthenticationFailed`]; [`Ctx::explain`] names it.
    pub(crate) fn open_segment(
        &self,
        i: u64,
        more: bool,
        chunk: &[u8],
        out: &mut [u8],
    ) -> Result<()> {
        if chunk.len() < TAG_LEN {
            ct::wipe(out);
            // A final piece too short for a tag: the stream was cut.
            return Err(Error::StreamTruncated);
        }
        if i >= MAX_SEGMENTS {
            return Err(Error::LimitReached {
                what: "segments in one stream (2^32 - 1)",
            });
        }
        self.gcm
            .open_into(&nonce(&self.header, i, !more as u8), self.aad(), chunk, out)
    }

    /// Replaces [`Error::AuthenticationFailed`] for the chunk at position
    /// `i` by what happened to it. Called for the first failing chunk only:
    /// the search costs about 2^18 block-cipher calls and a pass over the
    /// chunk, which must not be multiplied by an attacker's chunk count.
    pub(crate) fn explain(&self, e: Error, i: u64, more: bool, chunk: &[u8]) -> Error {
        if e == Error::AuthenticationFailed && chunk.len() >= TAG_LEN {
            self.diagnose(i, more, chunk)
        } else {
            e
        }
    }

    /// Names the failure of the chunk at position `i`.
    fn diagnose(&self, i: u64, more: bool, chunk: &[u8]) -> Error {
        let (ct_, tag) = chunk.split_at(chunk.len() - TAG_LEN);
        // GHASH does not depend on the nonce: hash once, then try masks.
        let key = &self.gcm.ghash;
        let mut h = Hasher::default();
        h.update(key, self.aad());
        h.pad(key);
        h.update(key, ct_);
        let g = h.finish(key, self.aad().len() as u64, ct_.len() as u64);
        let lo = i.saturating_sub(SEARCH);
        let hi = (i + SEARCH).min(MAX_SEGMENTS - 1);
        let mut found = None;
        for j in lo..=hi {
            for last in [0u8, 1] {
                let y0 = crate::gcm::y0_96(&nonce(&self.header, j, last));
                let t = (g ^ mask(&self.gcm, &y0)).to_be_bytes();
                if ct::eq(&t, tag) {
                    found = Some((j, last == 1));
                }
            }
            if found.is_some() {
                break;
            }
        }
        match found {
            Some((j, last)) if j == i => {
                // The first try used last = !more, so this is the other flag.
                debug_assert_eq!(last, more);
                if last {
                    // The final segment, but data follows it.
                    Error::StreamTrailingData
                } else {
                    // A non-final segment at the end: the rest was cut.
                    Error::StreamTruncated
                }
            }
            Some((j, _)) if j < i => Error::StreamDuplicate { segment: j },
            Some((j, _)) => Error::StreamOutOfOrder {
                expected: i,
                found: j,
            },
            None => {
                // Junk appended to a short final segment shares its chunk:
                // look for a final segment i ending inside the chunk.
                if self.final_segment_inside(i, chunk) {
                    Error::StreamTrailingData
                } else {
                    Error::AuthenticationFailed
                }
            }
        }
    }

    /// Whether some prefix of `chunk` is a valid final segment `i`
    /// (ciphertext then tag). One pass: GHASH over growing prefixes.
    fn final_segment_inside(&self, i: u64, chunk: &[u8]) -> bool {
        let key = &self.gcm.ghash;
        let y0 = crate::gcm::y0_96(&nonce(&self.header, i, 1));
        let m = mask(&self.gcm, &y0);
        let mut h = Hasher::default();
        h.update(key, self.aad());
        h.pad(key);
        let mut y = h.y;
        let aad_len = self.aad().len() as u64;
        let mut found = false;
        for l in 0..=chunk.len() - TAG_LEN {
            if l > 0 && l % 16 == 0 {
                y = key.mul_h(y ^ u128::from_be_bytes(chunk[l - 16..l].try_into().unwrap()));
            }
            let mut z = y;
            if l % 16 != 0 {
                let mut b = [0u8; 16];
                b[..l % 16].copy_from_slice(&chunk[l - l % 16..l]);
                z = key.mul_h(z ^ u128::from_be_bytes(b));
            }
            let lens = ((aad_len as u128 * 8) << 64) | (l as u128 * 8);
            z = key.mul_h(z ^ lens);
            let t = (z ^ m).to_be_bytes();
            if ct::eq(&t, &chunk[l..l + TAG_LEN]) {
                found = true;
            }
        }
        found
    }
}

/// Runs `f(index, item)` over `items` on all cores.
/// The number of cores to use, asked once (the standard library reads
/// cgroup files on every call).
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// Stack for worker threads that run the vector kernels. An optimized
/// build needs little; an unoptimized one keeps every inlined kernel's
/// locals in one frame and overflowed the default 2 MiB (a debug `galois
/// seal` of a 3 MB file aborted). The size only reserves address space.
pub(crate) const WORKER_STACK: usize = 32 << 20;

/// Spawns a scoped worker thread with [`WORKER_STACK`]; panics like
/// `Scope::spawn` if the thread cannot be created.
pub(crate) fn spawn_worker<'scope, 'env, T: Send + 'scope>(
    s: &'scope std::thread::Scope<'scope, 'env>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::thread::ScopedJoinHandle<'scope, T> {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn_scoped(s, f)
        .expect("failed to spawn a worker thread")
}

pub(crate) fn par_each<T: Send, F: Fn(usize, &mut T) + Sync>(items: &mut [T], f: F) {
    let n = cores().min(items.len().max(1));
    if n <= 1 {
        for (k, it) in items.iter_mut().enumerate() {
            f(k, it);
        }
        return;
    }
    let per = items.len().div_ceil(n);
    std::thread::scope(|s| {
        for (c, part) in items.chunks_mut(per).enumerate() {
            let f = &f;
            spawn_worker(s, move || {
                for (k, it) in part.iter_mut().enumerate() {
                    f(c * per + k, it);
                }
            });
        }
    });
}

/// Seals `pt` as a stream with fresh random salt and nonce prefix.
///
/// ```
/// use galois_aead::stream::{self, HEADER_LEN, TAG_LEN};
/// let sealed = stream::seal(&[1u8; 32], 16, &[7u8; 40])?; // three segments
/// assert_eq!(sealed.len(), HEADER_LEN + 40 + 3 * TAG_LEN);
/// assert_eq!(stream::open(&[1u8; 32], &sealed)?, [7u8; 40]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn seal(key: &[u8], segment_size: usize, pt: &[u8]) -> Result<Vec<u8>> {
    seal_ctx(&Ctx::seal_random(key, segment_size)?, pt)
}

/// Seals with a given salt and nonce prefix. **For test vectors only**
/// (feature `hazmat`): reusing a salt and prefix under one key breaks
/// confidentiality and authenticity.
///
/// ```
/// use galois_aead::stream;
/// let a = stream::seal_with_salt_for_tests(&[1u8; 32], 64, [2; 15], [3; 7], b"vector")?;
/// let b = stream::seal_with_salt_for_tests(&[1u8; 32], 64, [2; 15], [3; 7], b"vector")?;
/// assert_eq!(a, b); // deterministic: never do this with real data
/// # Ok::<(), galois_aead::Error>(())
/// ```
#[cfg(feature = "hazmat")]
pub fn seal_with_salt_for_tests(
    key: &[u8],
    segment_size: usize,
    salt: [u8; 15],
    prefix: [u8; 7],
    pt: &[u8],
) -> Result<Vec<u8>> {
    seal_ctx(&Ctx::seal_new(key, segment_size, salt, prefix)?, pt)
}

fn seal_ctx(ctx: &Ctx, pt: &[u8]) -> Result<Vec<u8>> {
    let s = ctx.seg_size;
    let n = pt.len().div_ceil(s).max(1);
    if n as u64 > MAX_SEGMENTS {
        return Err(Error::LimitReached {
            what: "segments in one stream (2^32 - 1)",
        });
    }
    let mut out = vec![0u8; HEADER_LEN + pt.len() + n * TAG_LEN];
    out[..HEADER_LEN].copy_from_slice(&ctx.header);
    let mut jobs: Vec<(&[u8], &mut [u8])> = Vec::with_capacity(n);
    let mut rest = &mut out[HEADER_LEN..];
    for k in 0..n {
        let p = &pt[(k * s).min(pt.len())..((k + 1) * s).min(pt.len())];
        let (o, r) = rest.split_at_mut(p.len() + TAG_LEN);
        jobs.push((p, o));
        rest = r;
    }
    let errs = std::sync::Mutex::new(None);
    par_each(&mut jobs, |k, (p, o)| {
        if let Err(e) = ctx.seal_segment(k as u64, k == n - 1, p, o) {
            *errs.lock().unwrap() = Some(e);
        }
    });
    if let Some(e) = errs.into_inner().unwrap() {
        return Err(e);
    }
    Ok(out)
}

/// Opens a whole stream; returns the plaintext only if every segment
/// verifies and the stream is complete, else the specific error.
///
/// ```
/// use galois_aead::{stream, Error};
/// let sealed = stream::seal(&[1u8; 32], 16, &[7u8; 40])?;
/// let cut = &sealed[..sealed.len() - 8 - 16]; // drop the final segment
/// assert_eq!(stream::open(&[1u8; 32], cut), Err(Error::StreamTruncated));
/// assert_eq!(stream::open(&[2u8; 32], &sealed), Err(Error::StreamWrongKey));
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn open(key: &[u8], data: &[u8]) -> Result<Vec<u8>> {
    let ctx = Ctx::open(key, data)?;
    let body = &data[HEADER_LEN..];
    if body.is_empty() {
        return Err(Error::StreamTruncated);
    }
    let cs = ctx.seg_size + TAG_LEN;
    let chunks: Vec<&[u8]> = body.chunks(cs).collect();
    let n = chunks.len();
    let out_len: usize = chunks.iter().map(|c| c.len().saturating_sub(TAG_LEN)).sum();
    let mut out = vec![0u8; out_len];
    let mut jobs: Vec<(&[u8], &mut [u8], Result<()>)> = Vec::with_capacity(n);
    let mut rest = &mut out[..];
    for c in &chunks {
        let (o, r) = rest.split_at_mut(c.len().saturating_sub(TAG_LEN));
        jobs.push((c, o, Ok(())));
        rest = r;
    }
    par_each(&mut jobs, |k, (c, o, r)| {
        *r = ctx.open_segment(k as u64, k + 1 < n, c, o);
    });
    let first_err = jobs
        .iter()
        .enumerate()
        .find_map(|(k, (c, _, r))| r.err().map(|e| ctx.explain(e, k as u64, k + 1 < n, c)));
    drop(jobs);
    if let Some(e) = first_err {
        ct::wipe(&mut out);
        return Err(e);
    }
    Ok(out)
}
