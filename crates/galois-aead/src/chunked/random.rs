//! Random access: `Read + Seek` over a sealed message, opening only the
//! chunks a read touches.

use super::{Keys, CHUNK_SIZE, HEADER_LEN, MAX_CHUNKS, SEALED_CHUNK_SIZE, TAG_LEN};
use crate::ct;
use crate::error::Error;
use crate::stream::StreamError;
use std::io::{self, Read, Seek, SeekFrom};

fn io_err(e: Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// A sealed message opened for random access: `Read + Seek` over its
/// plaintext.
///
/// [`RandomAccess::new`] checks the commitment and that the sealed length
/// is one a message can have. A read opens (and verifies) the chunk it
/// falls in; nothing unverified is returned. The plaintext length comes
/// from the sealed length, which is authenticated only by the final
/// chunk: [`RandomAccess::len`], a seek relative to the end, and a read
/// at or past the end all open the final chunk first, and fail if it does
/// not verify. A failed chunk fails every read that touches it.
///
/// ```
/// use galois_aead::chunked::{self, RandomAccess};
/// use std::io::{Cursor, Read, Seek, SeekFrom};
/// let pt: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
/// let sealed = chunked::seal(&[5u8; 16], b"", &pt)?;
/// let mut f = RandomAccess::new(&[5u8; 16], b"", Cursor::new(sealed))?;
/// f.seek(SeekFrom::Start(70_000))?;
/// let mut buf = [0u8; 10];
/// f.read_exact(&mut buf)?;
/// assert_eq!(buf, pt[70_000..70_010]);
/// f.seek(SeekFrom::End(-3))?; // authenticates the length first
/// let mut tail = Vec::new();
/// f.read_to_end(&mut tail)?;
/// assert_eq!(tail, pt[99_997..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RandomAccess<R: Read + Seek> {
    keys: Keys,
    r: R,
    /// Plaintext length implied by the sealed length.
    pt_len: u64,
    /// Index of the final chunk.
    last: u64,
    /// Whether the final chunk verified (so `pt_len` is authenticated).
    length_ok: bool,
    pos: u64,
    /// The chunk in `pt`, if any (verified).
    cached: Option<u64>,
    ct: Vec<u8>,
    pt: Vec<u8>,
}

/// The plaintext length for a sealed length, in u64.
fn opened_len_u64(sealed: u64) -> Result<u64, Error> {
    let body = sealed
        .checked_sub(HEADER_LEN as u64)
        .ok_or(Error::StreamBadHeader {
            reason: "shorter than the 56-byte salt and commitment",
        })?;
    let full = body / SEALED_CHUNK_SIZE as u64;
    let rem = body % SEALED_CHUNK_SIZE as u64;
    if rem < TAG_LEN as u64 {
        return Err(Error::StreamTruncated);
    }
    if full + 1 > MAX_CHUNKS {
        return Err(Error::LimitReached {
            what: "chunks in one message (2^38)",
        });
    }
    Ok(full * CHUNK_SIZE as u64 + rem - TAG_LEN as u64)
}

impl<R: Read + Seek> RandomAccess<R> {
    /// Reads the header from the start of `r`, checks the commitment and
    /// the sealed length (from a seek to the end).
    ///
    /// ```
    /// use galois_aead::{chunked, stream::StreamError, Error};
    /// use std::io::Cursor;
    /// let sealed = chunked::seal(&[5u8; 16], b"", &[0u8; 16384])?;
    /// let cut = sealed[..sealed.len() - 16].to_vec(); // no final chunk
    /// let r = chunked::RandomAccess::new(&[5u8; 16], b"", Cursor::new(cut));
    /// assert!(matches!(r, Err(StreamError::Crypto(Error::StreamTruncated))));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8], context: &[u8], mut r: R) -> Result<Self, StreamError> {
        r.seek(SeekFrom::Start(0))?;
        let (header, got) = super::pool::read_header(&mut r)?;
        let keys = Keys::open(key, context, &header[..got])?;
        let sealed = r.seek(SeekFrom::End(0))?;
        let pt_len = opened_len_u64(sealed)?;
        Ok(RandomAccess {
            keys,
            r,
            pt_len,
            last: pt_len / CHUNK_SIZE as u64,
            length_ok: false,
            pos: 0,
            cached: None,
            ct: vec![0u8; SEALED_CHUNK_SIZE],
            pt: vec![0u8; CHUNK_SIZE],
        })
    }

    /// Opens chunk `k` into the cache.
    fn load(&mut self, k: u64) -> io::Result<()> {
        if self.cached == Some(k) {
            return Ok(());
        }
        self.cached = None;
        let plen = if k == self.last {
            (self.pt_len % CHUNK_SIZE as u64) as usize
        } else {
            CHUNK_SIZE
        };
        let off = HEADER_LEN as u64 + k * SEALED_CHUNK_SIZE as u64;
        self.r.seek(SeekFrom::Start(off))?;
        let c = &mut self.ct[..plen + TAG_LEN];
        self.r.read_exact(c)?;
        self.pt.resize(plen, 0);
        self.keys.open_chunk(k, c, &mut self.pt).map_err(io_err)?;
        if k == self.last {
            self.length_ok = true;
        }
        self.cached = Some(k);
        Ok(())
    }

    /// The plaintext length, authenticated: the final chunk is opened
    /// (once) and must verify.
    ///
    /// ```
    /// use std::io::Cursor;
    /// let sealed = galois_aead::chunked::seal(&[5u8; 16], b"", &[0u8; 40_000])?;
    /// let mut f = galois_aead::chunked::RandomAccess::new(&[5u8; 16], b"", Cursor::new(sealed))?;
    /// assert_eq!(f.len()?, 40_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&mut self) -> io::Result<u64> {
        if !self.length_ok {
            self.load(self.last)?;
        }
        Ok(self.pt_len)
    }
}

impl<R: Read + Seek> Read for RandomAccess<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if self.pos >= self.pt_len {
            // The end of the message: only once the length is authenticated.
            self.len()?;
            return Ok(0);
        }
        let k = self.pos / CHUNK_SIZE as u64;
        self.load(k)?;
        let at = (self.pos % CHUNK_SIZE as u64) as usize;
        let n = out.len().min(self.pt.len() - at);
        out[..n].copy_from_slice(&self.pt[at..at + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for RandomAccess<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let (base, off) = match to {
            SeekFrom::Start(p) => {
                self.pos = p;
                return Ok(p);
            }
            SeekFrom::Current(d) => (self.pos, d),
            SeekFrom::End(d) => (self.len()?, d),
        };
        match base.checked_add_signed(off) {
            Some(p) => {
                self.pos = p;
                Ok(p)
            }
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek to a negative or overflowing position",
            )),
        }
    }
}

impl<R: Read + Seek> Drop for RandomAccess<R> {
    fn drop(&mut self) {
        ct::wipe(&mut self.pt);
    }
}
