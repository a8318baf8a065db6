//! Streaming: [`Sealer`] (a `Write`), [`Opener`] (a `Read`), and
//! [`seal_stream`] / [`open_stream`] from a reader to a writer on all cores.

use super::pool::{self, Dir};
use super::{Keys, CHUNK_SIZE, SEALED_CHUNK_SIZE, TAG_LEN};
use crate::ct;
use crate::error::Error;
use crate::stream::StreamError;
use std::io::{self, Read, Write};

fn io_err(e: Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Seals everything `r` gives into `w` (header, then chunks) with a fresh
/// random salt, on all cores; returns the plaintext bytes read.
///
/// ```
/// use galois_aead::chunked::{open_stream, seal_stream};
/// let data = vec![42u8; 100_000];
/// let mut sealed = Vec::new();
/// assert_eq!(seal_stream(&[1u8; 16], b"ctx", &mut &data[..], &mut sealed)?, 100_000);
/// let mut back = Vec::new();
/// open_stream(&[1u8; 16], b"ctx", &mut &sealed[..], &mut back)?;
/// assert_eq!(back, data);
/// # Ok::<(), galois_aead::stream::StreamError>(())
/// ```
pub fn seal_stream<R: Read, W: Write>(
    key: &[u8],
    context: &[u8],
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    let (keys, header) = Keys::seal_random(key, context)?;
    w.write_all(&header)?;
    pool::run(&keys, Dir::Seal, r, w)
}

/// Opens a sealed stream from `r` into `w` on all cores, writing each
/// chunk only after it verified; returns the plaintext bytes written. The
/// commitment is checked before any chunk. On error, what was written
/// verified but is incomplete: discard it.
///
/// ```
/// use galois_aead::chunked::{open_stream, seal};
/// use galois_aead::{stream::StreamError, Error};
/// let sealed = seal(&[1u8; 16], b"", &[0u8; 40_000])?;
/// let cut = &sealed[..56 + 16400]; // the first chunk only
/// let mut out = Vec::new();
/// let r = open_stream(&[1u8; 16], b"", &mut &cut[..], &mut out);
/// assert!(matches!(r, Err(StreamError::Crypto(Error::StreamTruncated))));
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn open_stream<R: Read, W: Write>(
    key: &[u8],
    context: &[u8],
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    let (header, got) = pool::read_header(r)?;
    let keys = Keys::open(key, context, &header[..got])?;
    pool::run(&keys, Dir::Open, r, w)
}

/// Seals a message written to it, one chunk at a time, into `W`.
///
/// The header goes out in [`Sealer::new`], each full chunk as soon as its
/// 16 KiB are in, the final (short, possibly empty) chunk in
/// [`Sealer::finish`]. A sealer dropped without `finish` leaves a
/// message without its final chunk, which every opener refuses as
/// truncated.
///
/// ```
/// use galois_aead::chunked::{self, Sealer};
/// use std::io::Write;
/// let mut s = Sealer::new(&[3u8; 32], b"ctx", Vec::new())?;
/// s.write_all(b"hello ")?;
/// s.write_all(b"world")?;
/// let sealed = s.finish()?;
/// assert_eq!(chunked::open(&[3u8; 32], b"ctx", &sealed)?, b"hello world");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Sealer<W: Write> {
    keys: Keys,
    /// Taken by `finish`.
    w: Option<W>,
    buf: Vec<u8>,
    out: Vec<u8>,
    index: u64,
}

impl<W: Write> Sealer<W> {
    /// Starts a message with a fresh random salt and writes its header.
    ///
    /// ```
    /// let s = galois_aead::chunked::Sealer::new(&[0u8; 16], b"", Vec::new())?;
    /// assert_eq!(s.finish()?.len(), 56 + 16);
    /// # Ok::<(), galois_aead::stream::StreamError>(())
    /// ```
    pub fn new(key: &[u8], context: &[u8], mut w: W) -> Result<Self, StreamError> {
        let (keys, header) = Keys::seal_random(key, context)?;
        w.write_all(&header)?;
        Ok(Sealer {
            keys,
            w: Some(w),
            buf: Vec::with_capacity(CHUNK_SIZE),
            out: vec![0u8; SEALED_CHUNK_SIZE],
            index: 0,
        })
    }

    fn emit(&mut self, pt: Option<&[u8]>) -> io::Result<()> {
        let p = pt.unwrap_or(&self.buf);
        let o = &mut self.out[..p.len() + TAG_LEN];
        self.keys.seal_chunk(self.index, p, o).map_err(io_err)?;
        self.index += 1;
        self.w.as_mut().expect("present until finish").write_all(o)
    }

    /// Seals the final chunk (what is buffered, possibly nothing), flushes,
    /// and returns the writer.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut s = galois_aead::chunked::Sealer::new(&[0u8; 16], b"", Vec::new())?;
    /// s.write_all(&[1u8; 16384])?; // one full chunk: the final one is empty
    /// assert_eq!(s.finish()?.len(), 56 + 16384 + 2 * 16);
    /// # Ok::<(), galois_aead::stream::StreamError>(())
    /// ```
    pub fn finish(mut self) -> Result<W, StreamError> {
        self.emit(None)?;
        ct::wipe(&mut self.buf);
        self.flush()?;
        Ok(self.w.take().expect("present until finish"))
    }
}

impl<W: Write> Write for Sealer<W> {
    fn write(&mut self, mut data: &[u8]) -> io::Result<usize> {
        let n = data.len();
        // Top up the buffer; a full buffer is a non-final chunk (the final
        // one is always shorter), so it goes out at once.
        if !self.buf.is_empty() {
            let take = (CHUNK_SIZE - self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() == CHUNK_SIZE {
                self.emit(None)?;
                ct::wipe(&mut self.buf);
                self.buf.clear();
            }
        }
        // Whole chunks straight from the caller's slice.
        while data.len() >= CHUNK_SIZE {
            let (c, rest) = data.split_at(CHUNK_SIZE);
            self.emit(Some(c))?;
            data = rest;
        }
        self.buf.extend_from_slice(data);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.w {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

/// What stopped an [`Opener`]: every later read returns it again.
enum Poison {
    Crypto(Error),
    Io(io::ErrorKind, String),
}

/// Opens a sealed message from `R`, one chunk at a time: a `Read` that
/// returns a chunk's plaintext only after the chunk verified, and the end
/// of input only after the final chunk verified.
///
/// The commitment is checked in [`Opener::new`]. After an error (a chunk
/// that does not verify, a missing final chunk, an I/O error) every later
/// read returns the same error. Cryptographic errors come as
/// `io::ErrorKind::InvalidData` wrapping the [`Error`].
///
/// ```
/// use galois_aead::chunked::{self, Opener};
/// use std::io::Read;
/// let sealed = chunked::seal(&[3u8; 16], b"", &[7u8; 50_000])?;
/// let mut o = Opener::new(&[3u8; 16], b"", &sealed[..])?;
/// let mut back = Vec::new();
/// o.read_to_end(&mut back)?;
/// assert_eq!(back, [7u8; 50_000]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Opener<R: Read> {
    keys: Keys,
    r: R,
    /// Sealed bytes read and not yet opened (up to a chunk and one byte).
    ct: Vec<u8>,
    /// The current chunk's verified plaintext, and how much was returned.
    pt: Vec<u8>,
    pos: usize,
    /// Verified plaintext bytes returned by `read` so far.
    returned: u64,
    index: u64,
    done: bool,
    poison: Option<Poison>,
}

impl<R: Read> Opener<R> {
    /// Reads the header and checks the commitment (wrong key or context:
    /// [`Error::StreamWrongKey`]).
    ///
    /// ```
    /// use galois_aead::{chunked, stream::StreamError, Error};
    /// let sealed = chunked::seal(&[3u8; 16], b"a", b"x")?;
    /// let r = chunked::Opener::new(&[3u8; 16], b"b", &sealed[..]);
    /// assert!(matches!(r, Err(StreamError::Crypto(Error::StreamWrongKey))));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8], context: &[u8], mut r: R) -> Result<Self, StreamError> {
        let (header, got) = pool::read_header(&mut r)?;
        let keys = Keys::open(key, context, &header[..got])?;
        Ok(Opener {
            keys,
            r,
            ct: Vec::with_capacity(SEALED_CHUNK_SIZE + 1),
            pt: Vec::with_capacity(CHUNK_SIZE),
            pos: 0,
            returned: 0,
            index: 0,
            done: false,
            poison: None,
        })
    }

    fn fail(&mut self, p: Poison) -> io::Error {
        ct::wipe(&mut self.pt);
        self.pt.clear();
        self.pos = 0;
        let e = poison_err(&p);
        self.poison = Some(p);
        e
    }

    /// Reads and opens the next chunk into `pt`.
    fn next_chunk(&mut self) -> io::Result<()> {
        while self.ct.len() < SEALED_CHUNK_SIZE + 1 {
            let have = self.ct.len();
            self.ct.resize(SEALED_CHUNK_SIZE + 1, 0);
            let r = self.r.read(&mut self.ct[have..]);
            match r {
                Ok(0) => {
                    self.ct.truncate(have);
                    break;
                }
                Ok(k) => self.ct.truncate(have + k),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => self.ct.truncate(have),
                Err(e) => {
                    self.ct.truncate(have);
                    return Err(self.fail(Poison::Io(e.kind(), e.to_string())));
                }
            }
        }
        let len = self.ct.len();
        let last = len <= SEALED_CHUNK_SIZE;
        if last && !(TAG_LEN..SEALED_CHUNK_SIZE).contains(&len) {
            // No final chunk: the input ended on a chunk boundary, or in
            // the middle of a tag.
            return Err(self.fail(Poison::Crypto(Error::StreamTruncated)));
        }
        let c = if last { len } else { SEALED_CHUNK_SIZE };
        self.pt.resize(c - TAG_LEN, 0);
        if let Err(e) = self
            .keys
            .open_chunk(self.index, &self.ct[..c], &mut self.pt)
        {
            return Err(self.fail(Poison::Crypto(e)));
        }
        self.ct.drain(..c);
        self.index += 1;
        self.pos = 0;
        self.done = last;
        Ok(())
    }

    /// The plaintext bytes verified and returned so far (also after an
    /// error: what was returned before it).
    ///
    /// ```
    /// use std::io::Read;
    /// let sealed = galois_aead::chunked::seal(&[3u8; 16], b"", &[5u8; 20_000])?;
    /// let mut o = galois_aead::chunked::Opener::new(&[3u8; 16], b"", &sealed[..])?;
    /// o.read_to_end(&mut Vec::new())?;
    /// assert_eq!(o.position(), 20_000);
    /// // The second chunk tampered: the first chunk's 16 KiB were returned.
    /// let mut bad = sealed.clone();
    /// let n = bad.len();
    /// bad[n - 1] ^= 1;
    /// let mut o = galois_aead::chunked::Opener::new(&[3u8; 16], b"", &bad[..])?;
    /// let mut got = Vec::new();
    /// assert!(o.read_to_end(&mut got).is_err());
    /// assert_eq!((got.len(), o.position()), (16_384, 16_384));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.returned
    }
}

fn poison_err(p: &Poison) -> io::Error {
    match p {
        Poison::Crypto(e) => io_err(*e),
        Poison::Io(k, m) => io::Error::new(*k, m.clone()),
    }
}

impl<R: Read> Read for Opener<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if let Some(p) = &self.poison {
            return Err(poison_err(p));
        }
        if out.is_empty() {
            return Ok(0);
        }
        while self.pos == self.pt.len() {
            if self.done {
                return Ok(0);
            }
            self.next_chunk()?;
        }
        let n = out.len().min(self.pt.len() - self.pos);
        out[..n].copy_from_slice(&self.pt[self.pos..self.pos + n]);
        self.pos += n;
        self.returned += n as u64;
        Ok(n)
    }
}

impl<R: Read> Drop for Opener<R> {
    fn drop(&mut self) {
        ct::wipe(&mut self.pt);
    }
}

impl<W: Write> Drop for Sealer<W> {
    fn drop(&mut self) {
        ct::wipe(&mut self.buf);
    }
}
