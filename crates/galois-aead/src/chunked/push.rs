//! Push-style streaming: [`PushSealer`] and [`PushOpener`] take bytes in
//! whatever pieces the caller has them and write whole chunks into the
//! caller's buffers (the `update` / `finalize` shape of C and Python
//! streaming APIs).
//!
//! Each chunk is sealed or opened in private memory owned by the object
//! and copied out only when done: an output buffer never holds plaintext
//! while sealing, and never holds a chunk's plaintext before the chunk
//! verified. The sizes every call writes are known in advance
//! (`update_len`, `finish_len`).

use super::{Keys, CHUNK_SIZE, HEADER_LEN, MAX_CHUNKS, SEALED_CHUNK_SIZE, TAG_LEN, TOO_MANY};
use crate::ct;
use crate::error::{Error, Result};

fn too_small(need: usize, got: usize) -> Error {
    Error::BufferLength {
        expected: need,
        got,
    }
}

/// One `update` of either direction: a poisoned stream fails with its
/// error again, `need` (the output the input makes; `None`: past the chunk
/// limit) must fit `out`, then `step` runs with `out` and `need`; on any
/// error `out` is wiped.
fn guarded_update(
    poison: Option<Error>,
    need: Option<usize>,
    out: &mut [u8],
    step: impl FnOnce(&mut [u8], usize) -> Result<usize>,
) -> Result<usize> {
    let checked = match (poison, need) {
        (Some(e), _) => Err(e),
        (None, None) => Err(TOO_MANY),
        (None, Some(need)) if out.len() < need => Err(too_small(need, out.len())),
        (None, Some(need)) => Ok(need),
    };
    let r = checked.and_then(|need| step(&mut *out, need));
    if r.is_err() {
        ct::wipe(out);
    }
    r
}

/// Seals one chunk `i` of plaintext `p` in `scratch`, then copies it to
/// `dst` (`p.len() + 16` bytes).
fn seal_one(keys: &Keys, i: u64, p: &[u8], scratch: &mut [u8], dst: &mut [u8]) -> Result<()> {
    let s = &mut scratch[..p.len() + TAG_LEN];
    keys.seal_chunk(i, p, s)?;
    dst.copy_from_slice(s);
    Ok(())
}

/// Moves the front of `data` into `buf` until `buf` holds `cap` bytes;
/// whether it does.
fn fill(buf: &mut Vec<u8>, cap: usize, data: &mut &[u8]) -> bool {
    let take = (cap - buf.len()).min(data.len());
    buf.extend_from_slice(&data[..take]);
    *data = &data[take..];
    buf.len() == cap
}

/// Seals a message given in pieces: [`PushSealer::update`] writes each
/// chunk as soon as its 16 KiB are in, [`PushSealer::finish`] the final
/// (short, possibly empty) chunk. The 56-byte header comes from
/// [`PushSealer::new`].
///
/// An error that leaves the sealer unchanged (an output buffer too small,
/// the chunk limit) can be retried; any other error poisons it: every
/// later call returns that error.
///
/// ```
/// use galois_aead::chunked::{self, PushSealer};
/// let (mut s, header) = PushSealer::new(&[1u8; 16], b"ctx")?;
/// let mut sealed = header.to_vec();
/// for piece in [&b"hello "[..], &[7u8; 20_000][..], b"world"] {
///     let mut out = vec![0u8; s.update_len(piece.len()).unwrap()];
///     let n = s.update(piece, &mut out)?;
///     sealed.extend_from_slice(&out[..n]);
/// }
/// let mut last = vec![0u8; s.finish_len()];
/// let n = s.finish(&mut last)?;
/// sealed.extend_from_slice(&last[..n]);
/// assert_eq!(chunked::open(&[1u8; 16], b"ctx", &sealed)?.len(), 20_011);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct PushSealer {
    keys: Keys,
    /// The current chunk's plaintext: fewer than 16 KiB between calls;
    /// its capacity is one chunk and is never exceeded (no reallocation
    /// leaves an unwiped copy behind).
    buf: Vec<u8>,
    /// One sealed chunk, sealed here and then copied out.
    scratch: Vec<u8>,
    index: u64,
    poison: Option<Error>,
}

impl PushSealer {
    /// Starts a message under a 16- or 32-byte key with a fresh random
    /// salt; returns the sealer and the message's header.
    ///
    /// ```
    /// let (_s, header) = galois_aead::chunked::PushSealer::new(&[1u8; 32], b"ctx")?;
    /// assert_eq!(header.len(), 56);
    /// assert!(galois_aead::chunked::PushSealer::new(&[1u8; 24], b"").is_err());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8], context: &[u8]) -> Result<(Self, [u8; HEADER_LEN])> {
        let (keys, header) = Keys::seal_random(key, context)?;
        Ok((
            PushSealer {
                keys,
                buf: Vec::with_capacity(CHUNK_SIZE),
                scratch: vec![0u8; SEALED_CHUNK_SIZE],
                index: 0,
                poison: None,
            },
            header,
        ))
    }

    /// The bytes [`update`](Self::update) writes for `in_len` more bytes
    /// of plaintext: whole sealed chunks (`None` if that overflows).
    ///
    /// ```
    /// let (s, _) = galois_aead::chunked::PushSealer::new(&[1u8; 16], b"")?;
    /// assert_eq!(s.update_len(16383), Some(0));
    /// assert_eq!(s.update_len(16384), Some(16384 + 16));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update_len(&self, in_len: usize) -> Option<usize> {
        let total = self.buf.len().checked_add(in_len)?;
        (total / CHUNK_SIZE).checked_mul(SEALED_CHUNK_SIZE)
    }

    /// The bytes [`finish`](Self::finish) writes: the final chunk.
    ///
    /// ```
    /// let (mut s, _) = galois_aead::chunked::PushSealer::new(&[1u8; 16], b"")?;
    /// assert_eq!(s.finish_len(), 16);
    /// s.update(b"abc", &mut [])?;
    /// assert_eq!(s.finish_len(), 3 + 16);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish_len(&self) -> usize {
        self.buf.len() + TAG_LEN
    }

    /// Takes `pt` and writes every chunk it completes to `out` (at least
    /// [`update_len`](Self::update_len)`(pt.len())` bytes); returns the
    /// bytes written. On any error `out` is wiped.
    ///
    /// ```
    /// let (mut s, _) = galois_aead::chunked::PushSealer::new(&[1u8; 16], b"")?;
    /// let mut out = vec![0u8; 16400];
    /// assert_eq!(s.update(&[5u8; 10_000], &mut out)?, 0); // buffered
    /// assert_eq!(s.update(&[5u8; 10_000], &mut out)?, 16400); // one chunk out
    /// assert!(s.update(&[5u8; 20_000], &mut [0u8; 10]).is_err()); // too small: retry
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update(&mut self, pt: &[u8], out: &mut [u8]) -> Result<usize> {
        let need = self.update_len(pt.len());
        guarded_update(self.poison, need, out, |out, need| {
            self.update_inner(pt, out, need)
        })
    }

    fn update_inner(&mut self, mut data: &[u8], out: &mut [u8], need: usize) -> Result<usize> {
        // The chunks this call completes, and the final one after them.
        let chunks = (need / SEALED_CHUNK_SIZE) as u64;
        if self.index.saturating_add(chunks) >= MAX_CHUNKS {
            return Err(TOO_MANY);
        }
        let mut o = 0;
        while !data.is_empty() {
            if self.buf.is_empty() && data.len() >= CHUNK_SIZE {
                // A whole chunk straight from the caller's slice.
                let (c, rest) = data.split_at(CHUNK_SIZE);
                let r = seal_one(
                    &self.keys,
                    self.index,
                    c,
                    &mut self.scratch,
                    &mut out[o..o + SEALED_CHUNK_SIZE],
                );
                self.step(r)?;
                o += SEALED_CHUNK_SIZE;
                data = rest;
                continue;
            }
            if fill(&mut self.buf, CHUNK_SIZE, &mut data) {
                // A full chunk is never the final one: it goes out now.
                let r = seal_one(
                    &self.keys,
                    self.index,
                    &self.buf,
                    &mut self.scratch,
                    &mut out[o..o + SEALED_CHUNK_SIZE],
                );
                ct::wipe(&mut self.buf);
                self.buf.clear();
                self.step(r)?;
                o += SEALED_CHUNK_SIZE;
            }
        }
        Ok(o)
    }

    /// Counts a sealed chunk, or poisons the sealer with its error.
    fn step(&mut self, r: Result<()>) -> Result<()> {
        match r {
            Ok(()) => {
                self.index += 1;
                Ok(())
            }
            Err(e) => {
                self.poison = Some(e);
                Err(e)
            }
        }
    }

    /// Seals the final chunk (the buffered plaintext, possibly none) into
    /// `out` (at least [`finish_len`](Self::finish_len) bytes; check first:
    /// the sealer is used up either way); returns the bytes written. On
    /// any error `out` is wiped.
    ///
    /// ```
    /// let (mut s, header) = galois_aead::chunked::PushSealer::new(&[1u8; 16], b"")?;
    /// s.update(b"hi", &mut [])?;
    /// let mut last = [0u8; 18];
    /// assert_eq!(s.finish(&mut last)?, 18);
    /// let sealed = [&header[..], &last[..]].concat();
    /// assert_eq!(galois_aead::chunked::open(&[1u8; 16], b"", &sealed)?, b"hi");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish(mut self, out: &mut [u8]) -> Result<usize> {
        let need = self.finish_len();
        let r = match self.poison {
            Some(e) => Err(e),
            None if out.len() < need => Err(too_small(need, out.len())),
            None => seal_one(
                &self.keys,
                self.index,
                &self.buf,
                &mut self.scratch,
                &mut out[..need],
            ),
        };
        match r {
            Ok(()) => Ok(need),
            Err(e) => {
                ct::wipe(out);
                self.poison = Some(e);
                Err(e)
            }
        }
    }
}

impl Drop for PushSealer {
    fn drop(&mut self) {
        ct::wipe(&mut self.buf);
        ct::wipe(&mut self.scratch);
    }
}

/// Opens a message given in pieces (after its 56-byte header, given to
/// [`PushOpener::new`], which checks the key commitment):
/// [`PushOpener::update`] writes each full chunk's plaintext once the
/// chunk verified, [`PushOpener::finish`] the final chunk's, after it
/// verified. A message without its final chunk fails in `finish` with
/// [`Error::StreamTruncated`]: the chunks released before it verified,
/// but the message is incomplete.
///
/// After any error other than an output buffer too small, every later
/// call returns the same error. On any error the output buffer is wiped.
///
/// ```
/// use galois_aead::chunked::{self, PushOpener};
/// let sealed = chunked::seal(&[2u8; 32], b"", &[9u8; 40_000])?;
/// let mut o = PushOpener::new(&[2u8; 32], b"", &sealed[..56])?;
/// let mut pt = Vec::new();
/// for piece in sealed[56..].chunks(1000) {
///     let mut out = vec![0u8; o.update_len(piece.len()).unwrap()];
///     let n = o.update(piece, &mut out)?;
///     pt.extend_from_slice(&out[..n]);
/// }
/// let mut last = vec![0u8; o.finish_len()?];
/// let n = o.finish(&mut last)?;
/// pt.extend_from_slice(&last[..n]);
/// assert_eq!(pt, vec![9u8; 40_000]);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct PushOpener {
    keys: Keys,
    /// Sealed bytes of the current chunk: fewer than a sealed chunk
    /// between calls (capacity one sealed chunk, never exceeded).
    ct: Vec<u8>,
    /// One chunk's plaintext, opened here and copied out once verified.
    scratch: Vec<u8>,
    index: u64,
    poison: Option<Error>,
}

impl PushOpener {
    /// Checks `header` (exactly the message's first 56 bytes) against the
    /// key and context: [`Error::StreamWrongKey`] if the commitment does
    /// not match.
    ///
    /// ```
    /// use galois_aead::{chunked, Error};
    /// let sealed = chunked::seal(&[2u8; 16], b"a", b"x")?;
    /// let r = chunked::PushOpener::new(&[2u8; 16], b"b", &sealed[..56]);
    /// assert_eq!(r.err(), Some(Error::StreamWrongKey));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn new(key: &[u8], context: &[u8], header: &[u8]) -> Result<Self> {
        if header.len() != HEADER_LEN {
            super::Suite::for_key(key)?;
            return Err(Error::StreamBadHeader {
                reason: "not the 56-byte salt and commitment",
            });
        }
        let keys = Keys::open(key, context, header)?;
        Ok(PushOpener {
            keys,
            ct: Vec::with_capacity(SEALED_CHUNK_SIZE),
            scratch: vec![0u8; CHUNK_SIZE],
            index: 0,
            poison: None,
        })
    }

    /// The bytes [`update`](Self::update) writes for `in_len` more sealed
    /// bytes: the plaintext of the full chunks they complete (less than
    /// `in_len + 16384`; `None` if the count overflows).
    ///
    /// ```
    /// let sealed = galois_aead::chunked::seal(&[1u8; 16], b"", &[0u8; 20_000])?;
    /// let o = galois_aead::chunked::PushOpener::new(&[1u8; 16], b"", &sealed[..56])?;
    /// assert_eq!(o.update_len(16399), Some(0));
    /// assert_eq!(o.update_len(16400), Some(16384));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update_len(&self, in_len: usize) -> Option<usize> {
        let total = self.ct.len().checked_add(in_len)?;
        Some(total / SEALED_CHUNK_SIZE * CHUNK_SIZE)
    }

    /// The bytes [`finish`](Self::finish) writes: the final chunk's
    /// plaintext; an error if what is buffered cannot be a final chunk
    /// (shorter than a tag: [`Error::StreamTruncated`]) or the opener
    /// failed before.
    ///
    /// ```
    /// use galois_aead::{chunked, Error};
    /// let sealed = chunked::seal(&[1u8; 16], b"", b"abc")?;
    /// let mut o = chunked::PushOpener::new(&[1u8; 16], b"", &sealed[..56])?;
    /// assert_eq!(o.finish_len(), Err(Error::StreamTruncated)); // nothing yet
    /// o.update(&sealed[56..], &mut [])?;
    /// assert_eq!(o.finish_len(), Ok(3));
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish_len(&self) -> Result<usize> {
        if let Some(e) = self.poison {
            return Err(e);
        }
        self.ct
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::StreamTruncated)
    }

    /// Takes sealed bytes and writes the plaintext of every full chunk
    /// they complete to `out` (at least
    /// [`update_len`](Self::update_len)`(input.len())` bytes), each only
    /// after it verified; returns the bytes written. On any error `out`
    /// is wiped (also the chunks of this call that verified).
    ///
    /// ```
    /// use galois_aead::{chunked, Error};
    /// let mut sealed = chunked::seal(&[1u8; 16], b"", &[7u8; 20_000])?;
    /// sealed[100] ^= 1; // inside the first chunk
    /// let mut o = chunked::PushOpener::new(&[1u8; 16], b"", &sealed[..56])?;
    /// let mut out = vec![0x55u8; 16384];
    /// assert_eq!(o.update(&sealed[56..], &mut out), Err(Error::AuthenticationFailed));
    /// assert!(out.iter().all(|&b| b == 0));
    /// assert_eq!(o.update(&[], &mut out), Err(Error::AuthenticationFailed)); // sticky
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize> {
        let need = self.update_len(input.len());
        guarded_update(self.poison, need, out, |out, _| {
            self.update_inner(input, out)
        })
    }

    fn update_inner(&mut self, mut data: &[u8], out: &mut [u8]) -> Result<usize> {
        let mut o = 0;
        while !data.is_empty() {
            if self.ct.is_empty() && data.len() >= SEALED_CHUNK_SIZE {
                let (c, rest) = data.split_at(SEALED_CHUNK_SIZE);
                let r = self.keys.open_chunk(self.index, c, &mut self.scratch);
                self.release(r, &mut out[o..o + CHUNK_SIZE])?;
                o += CHUNK_SIZE;
                data = rest;
                continue;
            }
            if fill(&mut self.ct, SEALED_CHUNK_SIZE, &mut data) {
                // A full sealed chunk is never the final one.
                let r = self
                    .keys
                    .open_chunk(self.index, &self.ct, &mut self.scratch);
                self.ct.clear();
                self.release(r, &mut out[o..o + CHUNK_SIZE])?;
                o += CHUNK_SIZE;
            }
        }
        Ok(o)
    }

    /// Copies a verified chunk out of `scratch`, or poisons the opener.
    fn release(&mut self, r: Result<()>, dst: &mut [u8]) -> Result<()> {
        match r {
            Ok(()) => {
                dst.copy_from_slice(&self.scratch[..dst.len()]);
                self.index += 1;
                Ok(())
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    fn fail(&mut self, e: Error) -> Error {
        ct::wipe(&mut self.scratch);
        self.ct.clear();
        self.poison = Some(e);
        e
    }

    /// Opens the final chunk (the buffered sealed bytes) into `out` (at
    /// least [`finish_len`](Self::finish_len) bytes; check first: the
    /// opener is used up either way), only after it verified; returns the
    /// bytes written. On any error `out` is wiped.
    ///
    /// ```
    /// use galois_aead::chunked;
    /// let sealed = chunked::seal(&[1u8; 16], b"", b"abc")?;
    /// let mut o = chunked::PushOpener::new(&[1u8; 16], b"", &sealed[..56])?;
    /// o.update(&sealed[56..], &mut [])?;
    /// let mut pt = [0u8; 3];
    /// assert_eq!(o.finish(&mut pt)?, 3);
    /// assert_eq!(&pt, b"abc");
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn finish(mut self, out: &mut [u8]) -> Result<usize> {
        let r = self.finish_inner(out);
        if r.is_err() {
            ct::wipe(out);
        }
        r
    }

    fn finish_inner(&mut self, out: &mut [u8]) -> Result<usize> {
        let need = match self.finish_len() {
            Ok(n) => n,
            Err(e) => return Err(self.fail(e)),
        };
        if out.len() < need {
            return Err(too_small(need, out.len()));
        }
        let r = self
            .keys
            .open_chunk(self.index, &self.ct, &mut self.scratch[..need]);
        self.release(r, &mut out[..need])?;
        Ok(need)
    }
}

impl Drop for PushOpener {
    fn drop(&mut self) {
        ct::wipe(&mut self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunked;

    fn seal_pieces(key: &[u8], ctx: &[u8], pt: &[u8], cuts: &[usize]) -> Vec<u8> {
        let (mut s, header) = PushSealer::new(key, ctx).unwrap();
        let mut sealed = header.to_vec();
        let mut at = 0;
        for &c in cuts.iter().chain([&pt.len()]) {
            let piece = &pt[at..c];
            let mut out = vec![0xAAu8; s.update_len(piece.len()).unwrap()];
            let n = s.update(piece, &mut out).unwrap();
            assert_eq!(n, out.len());
            sealed.extend_from_slice(&out);
            at = c;
        }
        let mut last = vec![0u8; s.finish_len()];
        let n = s.finish(&mut last).unwrap();
        sealed.extend_from_slice(&last[..n]);
        sealed
    }

    fn open_pieces(key: &[u8], ctx: &[u8], sealed: &[u8], cuts: &[usize]) -> Result<Vec<u8>> {
        let mut o = PushOpener::new(key, ctx, &sealed[..HEADER_LEN])?;
        let body = &sealed[HEADER_LEN..];
        let mut pt = Vec::new();
        let mut at = 0;
        for &c in cuts.iter().chain([&body.len()]) {
            let piece = &body[at..c];
            let mut out = vec![0u8; o.update_len(piece.len()).unwrap()];
            assert!(out.len() <= piece.len() + CHUNK_SIZE);
            let n = o.update(piece, &mut out)?;
            pt.extend_from_slice(&out[..n]);
            at = c;
        }
        let mut last = vec![0u8; o.finish_len()?];
        let n = o.finish(&mut last)?;
        pt.extend_from_slice(&last[..n]);
        Ok(pt)
    }

    /// Pieces of every size around the chunk edges, both ways, against the
    /// one-shot functions.
    #[test]
    fn push_round_trips_against_one_shot() {
        for len in [
            0,
            1,
            CHUNK_SIZE - 1,
            CHUNK_SIZE,
            CHUNK_SIZE + 1,
            3 * CHUNK_SIZE + 77,
        ] {
            let pt: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            for key in [&[5u8; 16][..], &[6u8; 32][..]] {
                for cuts in [
                    vec![],
                    vec![len / 2],
                    vec![1.min(len), len.saturating_sub(1).max(1.min(len))],
                ] {
                    let sealed = seal_pieces(key, b"c", &pt, &cuts);
                    assert_eq!(sealed.len(), chunked::sealed_len(len));
                    assert_eq!(chunked::open(key, b"c", &sealed).unwrap(), pt);
                    let one = chunked::seal(key, b"c", &pt).unwrap();
                    let body = one.len() - HEADER_LEN;
                    let ocuts = [body / 3, body / 3 + SEALED_CHUNK_SIZE.min(body - body / 3)];
                    assert_eq!(open_pieces(key, b"c", &one, &ocuts).unwrap(), pt);
                }
            }
        }
    }

    #[test]
    fn push_opener_refuses_and_stays_failed() {
        let key = [3u8; 16];
        let pt = vec![1u8; 2 * CHUNK_SIZE + 5];
        let sealed = chunked::seal(&key, b"", &pt).unwrap();
        // A flipped byte in the second chunk: the first is released, the
        // call that reaches the second fails with out wiped, and so does
        // every later call.
        let mut bad = sealed.clone();
        bad[HEADER_LEN + SEALED_CHUNK_SIZE + 9] ^= 1;
        let mut o = PushOpener::new(&key, b"", &bad[..HEADER_LEN]).unwrap();
        let mut out = vec![0u8; CHUNK_SIZE];
        assert_eq!(
            o.update(&bad[HEADER_LEN..HEADER_LEN + SEALED_CHUNK_SIZE], &mut out),
            Ok(CHUNK_SIZE)
        );
        assert_eq!(out, pt[..CHUNK_SIZE]);
        let rest = &bad[HEADER_LEN + SEALED_CHUNK_SIZE..];
        let mut out = vec![0x55u8; rest.len()];
        assert_eq!(o.update(rest, &mut out), Err(Error::AuthenticationFailed));
        assert!(out.iter().all(|&b| b == 0));
        out.fill(0x55);
        assert_eq!(o.update(&[], &mut out), Err(Error::AuthenticationFailed));
        assert!(out.iter().all(|&b| b == 0));
        assert_eq!(o.finish_len(), Err(Error::AuthenticationFailed));
        assert_eq!(o.finish(&mut out), Err(Error::AuthenticationFailed));
        // Cut at a chunk boundary: StreamTruncated at the end.
        let cut = &sealed[..HEADER_LEN + 2 * SEALED_CHUNK_SIZE];
        assert_eq!(
            open_pieces(&key, b"", cut, &[]),
            Err(Error::StreamTruncated)
        );
        // Cut inside the final chunk, or a byte added: the tag fails.
        assert_eq!(
            open_pieces(&key, b"", &sealed[..sealed.len() - 1], &[]),
            Err(Error::AuthenticationFailed)
        );
        let mut long = sealed.clone();
        long.push(0);
        assert_eq!(
            open_pieces(&key, b"", &long, &[]),
            Err(Error::AuthenticationFailed)
        );
        // Chunks swapped.
        let mut swapped = sealed.clone();
        let (a, b) =
            swapped[HEADER_LEN..HEADER_LEN + 2 * SEALED_CHUNK_SIZE].split_at_mut(SEALED_CHUNK_SIZE);
        a.swap_with_slice(b);
        assert_eq!(
            open_pieces(&key, b"", &swapped, &[]),
            Err(Error::AuthenticationFailed)
        );
        // Wrong key, wrong context, a header of the wrong length.
        assert_eq!(
            PushOpener::new(&[4u8; 16], b"", &sealed[..HEADER_LEN]).err(),
            Some(Error::StreamWrongKey)
        );
        assert!(PushOpener::new(&key, b"", &sealed[..HEADER_LEN - 1]).is_err());
        assert_eq!(
            PushOpener::new(&[0u8; 24], b"", &sealed[..HEADER_LEN]).err(),
            Some(Error::InvalidKeyLength { got: 24 })
        );
    }

    #[test]
    fn push_small_buffers_are_refused_without_harm() {
        let key = [3u8; 32];
        let (mut s, header) = PushSealer::new(&key, b"").unwrap();
        let mut small = vec![0x55u8; SEALED_CHUNK_SIZE - 1];
        let pt = vec![9u8; CHUNK_SIZE + 1];
        assert_eq!(
            s.update(&pt, &mut small),
            Err(Error::BufferLength {
                expected: SEALED_CHUNK_SIZE,
                got: SEALED_CHUNK_SIZE - 1
            })
        );
        assert!(small.iter().all(|&b| b == 0));
        let mut sealed = header.to_vec();
        let mut out = vec![0u8; SEALED_CHUNK_SIZE];
        assert_eq!(s.update(&pt, &mut out), Ok(SEALED_CHUNK_SIZE));
        sealed.extend_from_slice(&out);
        let mut last = vec![0u8; s.finish_len()];
        assert_eq!(last.len(), 17);
        s.finish(&mut last).unwrap();
        sealed.extend_from_slice(&last);
        assert_eq!(chunked::open(&key, b"", &sealed).unwrap(), pt);
    }
}
