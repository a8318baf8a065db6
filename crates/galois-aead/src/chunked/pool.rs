//! Sealing and opening a stream on all cores. The calling thread reads
//! slabs of chunks into a few reused buffers, queues them, writes the
//! results in order, and seals (or opens) queued slabs itself whenever it
//! would otherwise wait; one helper thread per other core, started only
//! once a second slab exists, takes slabs from the same queue.
//!
//! What keeps the system's share small: each slab is one large read (no
//! look-ahead byte: a full slab is never the final one) and one large
//! write; the buffers are allocated once per stream and reused, so the
//! page faults stop after the first few slabs; and a thread sleeps only
//! when there is nothing at all for it to do, so a busy stream passes its
//! slabs on without a wake-up (a futex call, and on a VM an interrupt
//! between processors) per slab.

use super::{Keys, CHUNK_SIZE, HEADER_LEN, SEALED_CHUNK_SIZE, TAG_LEN};
use crate::ct;
use crate::error::Error;
use crate::stream::StreamError;
use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The number of cores to use.
pub(crate) fn cores() -> usize {
    crate::stream::cores()
}

/// Chunks per slab: 1 MiB of plaintext, so each hand-over (a lock, and at
/// times a wake-up) is small next to its work.
const SLAB: usize = 64;

/// Reads until `buf` is full or the input ends: the bytes read, and
/// whether the input ended (known only when `buf` is not full).
fn fill<R: Read>(r: &mut R, buf: &mut [u8]) -> std::io::Result<(usize, bool)> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => return Ok((got, true)),
            Ok(k) => got += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((got, false))
}

/// Reads up to the 56-byte header (fewer only at the end of input), and
/// nothing after it.
pub(crate) fn read_header<R: Read>(r: &mut R) -> std::io::Result<([u8; HEADER_LEN], usize)> {
    let mut h = [0u8; HEADER_LEN];
    let (got, _) = fill(r, &mut h)?;
    Ok((h, got))
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Dir {
    Seal,
    Open,
}

/// A slab of consecutive chunks and its two buffers, allocated once at
/// their largest size and reused for later slabs.
struct Slab {
    seq: u64,
    /// The first chunk's index.
    first: u64,
    input: Vec<u8>,
    /// Bytes of `input` in use.
    len: usize,
    /// Sealing: the message's final chunk ends this slab.
    last: bool,
    output: Vec<u8>,
    /// Bytes of `output` in use.
    out_len: usize,
    /// The most of each buffer any slab used: what the final wipe covers.
    in_high: usize,
    out_high: usize,
    result: Result<(), Error>,
}

impl Slab {
    fn new(dir: Dir) -> Self {
        let (i, o) = match dir {
            Dir::Seal => (SLAB * CHUNK_SIZE, SLAB * SEALED_CHUNK_SIZE),
            Dir::Open => (SLAB * SEALED_CHUNK_SIZE, SLAB * CHUNK_SIZE),
        };
        Slab {
            seq: 0,
            first: 0,
            input: vec![0u8; i],
            len: 0,
            last: false,
            output: vec![0u8; o],
            out_len: 0,
            in_high: 0,
            out_high: 0,
            result: Ok(()),
        }
    }

    fn work(&mut self, keys: &Keys, dir: Dir) {
        let input = &self.input[..self.len];
        match dir {
            Dir::Seal => {
                // A slab that does not end the message is whole chunks
                // (its buffer was filled); the last one is shorter.
                let n = super::run_chunks(self.len, self.last);
                self.out_len = self.len + n * TAG_LEN;
                let out = &mut self.output[..self.out_len];
                self.result = keys.seal_run(self.first, input, self.last, out);
            }
            Dir::Open => {
                // Whole sealed chunks and, at the end, a final one of at
                // least a tag (checked when it was read).
                let n = self.len.div_ceil(SEALED_CHUNK_SIZE);
                self.out_len = self.len - n * TAG_LEN;
                let out = &mut self.output[..self.out_len];
                self.result = keys.open_run(self.first, input, out).map_err(|(_, e)| e);
            }
        }
    }

    fn wipe(&mut self) {
        ct::wipe(&mut self.input[..self.in_high.max(self.len)]);
        ct::wipe(&mut self.output[..self.out_high.max(self.out_len)]);
    }
}

/// What the calling thread and the helpers share, under one lock.
#[derive(Default)]
struct State {
    /// Slabs read and not yet claimed, oldest first.
    queue: VecDeque<Slab>,
    /// Slabs done and not yet written (a handful at most).
    done: Vec<Slab>,
    /// Helpers waiting for a slab, and whether the caller waits for one
    /// to finish: nobody is woken who is not asleep.
    idle: usize,
    caller_waits: bool,
    /// Set when the stream ends (or fails): helpers return.
    stop: bool,
    /// Set when a helper panicked: the caller stops waiting for it.
    broken: bool,
}

struct Shared {
    state: Mutex<State>,
    /// A slab was queued, or `stop`.
    queued: Condvar,
    /// A slab is done, or a helper broke.
    finished: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change under the lock is a whole push or pop, so the state
        // stays consistent even if a holder panicked.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn helper(&self, keys: &Keys, dir: Dir) {
        // Marks the stream broken if the work below panics, so that the
        // caller does not wait for a slab that never comes.
        struct Alarm<'a>(&'a Shared);
        impl Drop for Alarm<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.lock().broken = true;
                    self.0.finished.notify_one();
                }
            }
        }
        let _alarm = Alarm(self);
        let mut st = self.lock();
        loop {
            if st.stop {
                return;
            }
            let Some(mut slab) = st.queue.pop_front() else {
                st.idle += 1;
                st = self.queued.wait(st).unwrap_or_else(PoisonError::into_inner);
                st.idle -= 1;
                continue;
            };
            drop(st);
            slab.work(keys, dir);
            st = self.lock();
            st.done.push(slab);
            if st.caller_waits {
                self.finished.notify_one();
            }
        }
    }
}

/// Seals (or opens) everything `r` gives into `w` with `keys` on all
/// cores; returns the bytes of plaintext read (or written).
///
/// A slab is written only when it and every slab before it succeeded. A
/// read error or a message that ends without its final chunk (opening)
/// stops the reading; the slabs before it are still written, then the
/// error is returned. Every buffer is wiped when the stream ends, however
/// it ends (a spare buffer is overwritten by the next slab meanwhile).
pub(crate) fn run<R: Read, W: Write>(
    keys: &Keys,
    dir: Dir,
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    let helpers = cores().saturating_sub(1);
    // One slab being read, one being written, and enough queued that no
    // thread runs dry; a single thread needs just the one.
    let max_slabs = if helpers == 0 { 1 } else { 2 * (helpers + 1) };
    let shared = Shared {
        state: Mutex::new(State::default()),
        queued: Condvar::new(),
        finished: Condvar::new(),
    };
    let mut spare: Vec<Slab> = Vec::new();
    let result = std::thread::scope(|s| {
        let mut started = false;
        let mut in_flight = 0usize;
        let mut seq = 0u64;
        let mut next_write = 0u64;
        let mut chunk = 0u64;
        let mut input_done = false;
        // Why the reading stopped early: returned after the slabs before it.
        let mut end_err: Option<StreamError> = None;
        let mut total = 0u64;
        let result = 'run: loop {
            // Read ahead while there is room.
            while !input_done && in_flight < max_slabs {
                let mut slab = spare.pop().unwrap_or_else(|| Slab::new(dir));
                let (got, ended) = match fill(r, &mut slab.input) {
                    Ok(x) => x,
                    Err(e) => {
                        // It may have filled any part of the buffer.
                        slab.in_high = slab.input.len();
                        end_err = Some(e.into());
                        input_done = true;
                        spare.push(slab);
                        break;
                    }
                };
                slab.in_high = slab.in_high.max(got);
                let mut len = got;
                let mut last = ended;
                input_done = ended;
                let nchunks = match dir {
                    Dir::Seal => super::run_chunks(got, last),
                    Dir::Open => {
                        let rem = got % SEALED_CHUNK_SIZE;
                        if ended && rem < TAG_LEN {
                            // No final chunk (the input ended on a chunk
                            // boundary), or one too short for its tag.
                            end_err = Some(Error::StreamTruncated.into());
                            len = got - rem;
                            last = false;
                        }
                        len.div_ceil(SEALED_CHUNK_SIZE)
                    }
                };
                if nchunks == 0 {
                    spare.push(slab);
                    break;
                }
                slab.seq = seq;
                slab.first = chunk;
                slab.len = len;
                slab.last = last;
                seq += 1;
                chunk += nchunks as u64;
                in_flight += 1;
                if seq == 2 && helpers > 0 && !started {
                    started = true;
                    for _ in 0..helpers {
                        let shared = &shared;
                        crate::stream::spawn_worker(s, move || shared.helper(keys, dir));
                    }
                }
                let mut st = shared.lock();
                st.queue.push_back(slab);
                if st.idle > 0 {
                    shared.queued.notify_one();
                }
            }
            // Write, in order, what is done.
            loop {
                let mut st = shared.lock();
                let Some(at) = st.done.iter().position(|j| j.seq == next_write) else {
                    break;
                };
                let mut slab = st.done.swap_remove(at);
                drop(st);
                in_flight -= 1;
                next_write += 1;
                let written = slab.result.map_err(StreamError::from).and_then(|()| {
                    w.write_all(&slab.output[..slab.out_len])
                        .map_err(StreamError::from)
                });
                total += match dir {
                    Dir::Seal => slab.len as u64,
                    Dir::Open => slab.out_len as u64,
                };
                slab.out_high = slab.out_high.max(slab.out_len);
                spare.push(slab);
                if let Err(e) = written {
                    break 'run Err(e);
                }
            }
            if in_flight == 0 && input_done {
                break match end_err.take() {
                    Some(e) => Err(e),
                    None => Ok(total),
                };
            }
            if input_done || in_flight >= max_slabs {
                // Nothing to read: work on a queued slab, or wait for one.
                let mut st = shared.lock();
                if let Some(mut slab) = st.queue.pop_front() {
                    drop(st);
                    slab.work(keys, dir);
                    shared.lock().done.push(slab);
                } else if !st.done.iter().any(|j| j.seq == next_write) {
                    if st.broken {
                        break Err(Error::LimitReached {
                            what: "worker threads (one stopped)",
                        }
                        .into());
                    }
                    st.caller_waits = true;
                    st = shared
                        .finished
                        .wait(st)
                        .unwrap_or_else(PoisonError::into_inner);
                    st.caller_waits = false;
                }
            }
        };
        let mut st = shared.lock();
        st.stop = true;
        shared.queued.notify_all();
        drop(st);
        result
    });
    // The helpers are gone (the scope joined them): wipe every buffer.
    {
        let mut st = shared.lock();
        let st = &mut *st;
        for slab in spare.iter_mut().chain(&mut st.queue).chain(&mut st.done) {
            slab.wipe();
        }
    }
    let total = result?;
    w.flush()?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::super::{open, seal, sealed_len, HEADER_LEN};
    use super::*;
    use crate::chunked::{open_stream, seal_stream};

    const KEY: [u8; 16] = [7; 16];

    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 13 + i / 509) as u8).collect()
    }

    /// Messages that end exactly on slab boundaries (the final chunk is
    /// then an empty slab of its own) and just around them, through
    /// several slabs in flight.
    #[test]
    fn slab_boundaries_round_trip() {
        let slab = SLAB * CHUNK_SIZE;
        for len in [
            slab - 1,
            slab,
            slab + 1,
            2 * slab,
            3 * slab + CHUNK_SIZE,
            9 * slab,
        ] {
            let pt = data(len);
            let mut s = Vec::new();
            assert_eq!(
                seal_stream(&KEY, b"", &mut &pt[..], &mut s).unwrap(),
                len as u64
            );
            assert_eq!(s.len(), sealed_len(len), "len {len}");
            assert!(open(&KEY, b"", &s).unwrap() == pt, "len {len}");
            let mut back = Vec::new();
            assert_eq!(
                open_stream(&KEY, b"", &mut &s[..], &mut back).unwrap(),
                len as u64
            );
            assert!(back == pt, "len {len}");
        }
    }

    /// A message cut where a slab ends (no final chunk after a full slab)
    /// is truncated; the slabs before the cut are written, nothing after.
    #[test]
    fn cut_at_a_slab_boundary_is_truncated() {
        let pt = data(2 * SLAB * CHUNK_SIZE + 5);
        let s = seal(&KEY, b"", &pt).unwrap();
        for slabs in [1, 2] {
            let cut = &s[..HEADER_LEN + slabs * SLAB * SEALED_CHUNK_SIZE];
            let mut back = Vec::new();
            let r = open_stream(&KEY, b"", &mut &cut[..], &mut back);
            assert!(matches!(
                r,
                Err(StreamError::Crypto(Error::StreamTruncated))
            ));
            assert!(back == pt[..slabs * SLAB * CHUNK_SIZE]);
        }
    }

    /// A read error stops the stream with that error; a writer's error
    /// stops it at once.
    #[test]
    fn read_and_write_errors_stop_the_stream() {
        struct Failing<'a>(&'a [u8]);
        impl Read for Failing<'_> {
            fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() {
                    return Err(std::io::Error::other("disk gone"));
                }
                let n = b.len().min(self.0.len());
                b[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let pt = data(5 * SLAB * CHUNK_SIZE + 3);
        let r = seal_stream(&KEY, b"", &mut Failing(&pt), &mut Vec::new());
        assert!(matches!(r, Err(StreamError::Io(e)) if e.to_string() == "disk gone"));
        struct Full(usize);
        impl Write for Full {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                if self.0 < b.len() {
                    return Err(std::io::Error::other("disk full"));
                }
                self.0 -= b.len();
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let r = seal_stream(&KEY, b"", &mut &pt[..], &mut Full(3 << 20));
        assert!(matches!(r, Err(StreamError::Io(e)) if e.to_string() == "disk full"));
    }
}
