//! Sealing and opening a stream on all cores: one worker thread per core
//! for the whole stream (not per batch), fed slabs of chunks through a
//! channel; the calling thread reads and writes, in order.

use super::{Keys, CHUNK_SIZE, HEADER_LEN, SEALED_CHUNK_SIZE, TAG_LEN};
use crate::ct;
use crate::error::Error;
use crate::stream::StreamError;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::sync::{mpsc, Mutex};

/// The number of cores to use.
pub(crate) fn cores() -> usize {
    crate::stream::cores()
}

/// Chunks per slab: 1 MiB of plaintext, so each hand-over (a channel send
/// and receive, a few microseconds) is small next to its work.
const SLAB: usize = 64;

/// Reads until `buf` is full or the input ends, then (if full) looks one
/// byte ahead. Returns the bytes read and whether more input follows.
struct Source<'a, R: Read> {
    r: &'a mut R,
    peeked: Option<u8>,
}

impl<'a, R: Read> Source<'a, R> {
    fn new(r: &'a mut R) -> Self {
        Source { r, peeked: None }
    }

    fn read_some(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.r.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                r => return r,
            }
        }
    }

    fn fill(&mut self, buf: &mut [u8]) -> std::io::Result<(usize, bool)> {
        let mut got = 0;
        if let Some(b) = self.peeked.take() {
            if buf.is_empty() {
                self.peeked = Some(b);
                return Ok((0, true));
            }
            buf[0] = b;
            got = 1;
        }
        while got < buf.len() {
            let k = self.read_some(&mut buf[got..])?;
            if k == 0 {
                return Ok((got, false));
            }
            got += k;
        }
        let mut one = [0u8; 1];
        if self.read_some(&mut one)? == 0 {
            return Ok((got, false));
        }
        self.peeked = Some(one[0]);
        Ok((got, true))
    }
}

/// Reads up to the 56-byte header (fewer only at the end of input), and
/// nothing after it.
pub(crate) fn read_header<R: Read>(r: &mut R) -> std::io::Result<([u8; HEADER_LEN], usize)> {
    let mut h = [0u8; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        match r.read(&mut h[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((h, got))
}

/// A slab of consecutive chunks.
struct Job {
    seq: u64,
    first: u64,
    input: Vec<u8>,
    /// Bytes of `input` in use.
    len: usize,
    /// Sealing: the final chunk is in this slab.
    last: bool,
    output: Vec<u8>,
    result: Result<(), Error>,
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Dir {
    Seal,
    Open,
}

fn work(keys: &Keys, dir: Dir, j: &mut Job) {
    let input = &j.input[..j.len];
    match dir {
        Dir::Seal => {
            let n = super::run_chunks(j.len, j.last);
            j.output.resize(j.len + n * TAG_LEN, 0);
            j.result = keys.seal_run(j.first, input, j.last, &mut j.output);
        }
        Dir::Open => {
            let n = j.len.div_ceil(SEALED_CHUNK_SIZE);
            j.output.resize(j.len - n * TAG_LEN, 0);
            j.result = keys
                .open_run(j.first, input, &mut j.output)
                .map_err(|(_, e)| e);
            // Slab inputs are whole chunks plus, at the end, a final one of
            // at least a tag (checked before), so `len - n * TAG_LEN` fits.
        }
    }
}

/// Seals (or opens) everything `r` gives into `w` with `keys` on all
/// cores; returns the bytes of plaintext read (or written).
pub(crate) fn run<R: Read, W: Write>(
    keys: &Keys,
    dir: Dir,
    r: &mut R,
    w: &mut W,
) -> Result<u64, StreamError> {
    let workers = cores().max(1);
    let in_size = match dir {
        Dir::Seal => SLAB * CHUNK_SIZE,
        Dir::Open => SLAB * SEALED_CHUNK_SIZE,
    };
    let max_in_flight = 2 * workers + 1;
    let mut src = Source::new(r);
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<Job>();
    std::thread::scope(|s| -> Result<u64, StreamError> {
        for _ in 0..workers {
            let job_rx = &job_rx;
            let done_tx = done_tx.clone();
            crate::stream::spawn_worker(s, move || loop {
                let next = job_rx.lock().map(|rx| rx.recv());
                let Ok(Ok(mut j)) = next else { break };
                work(keys, dir, &mut j);
                if done_tx.send(j).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut spare: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut pending: BTreeMap<u64, Job> = BTreeMap::new();
        let mut in_flight = 0usize;
        let mut seq = 0u64;
        let mut next_write = 0u64;
        let mut chunk = 0u64;
        let mut input_done = false;
        // Set when the input ends without a valid final chunk (opening):
        // the slabs before it are written, then this is returned.
        let mut end_err: Option<Error> = None;
        let mut read_err: Option<std::io::Error> = None;
        let mut total = 0u64;
        let result = loop {
            while !input_done && in_flight < max_in_flight {
                let (mut input, output) = spare
                    .pop()
                    .unwrap_or_else(|| (vec![0u8; in_size], Vec::new()));
                let (got, more) = match src.fill(&mut input) {
                    Ok(x) => x,
                    Err(e) => {
                        // Stop reading; report after the slabs in flight.
                        read_err = Some(e);
                        input_done = true;
                        spare.push((input, output));
                        break;
                    }
                };
                let mut len = got;
                let mut last = !more;
                let nchunks;
                match dir {
                    Dir::Seal => nchunks = super::run_chunks(got, last) as u64,
                    Dir::Open => {
                        if !more {
                            input_done = true;
                            let rem = got % SEALED_CHUNK_SIZE;
                            if rem < TAG_LEN {
                                // No final chunk (or one too short for its tag).
                                end_err = Some(Error::StreamTruncated);
                                len = got - rem;
                                last = false;
                            }
                        }
                        nchunks = len.div_ceil(SEALED_CHUNK_SIZE) as u64;
                    }
                }
                if dir == Dir::Seal && last {
                    input_done = true;
                }
                if len == 0 && !(dir == Dir::Seal && last) {
                    spare.push((input, output));
                    break;
                }
                let j = Job {
                    seq,
                    first: chunk,
                    input,
                    len,
                    last,
                    output,
                    result: Ok(()),
                };
                seq += 1;
                chunk += nchunks;
                in_flight += 1;
                if job_tx.send(j).is_err() {
                    break;
                }
            }
            if in_flight == 0 {
                break match (read_err.take(), end_err) {
                    (Some(e), _) => Err(e.into()),
                    (None, Some(e)) => Err(e.into()),
                    (None, None) => Ok(total),
                };
            }
            let Ok(j) = done_rx.recv() else {
                break Err(Error::LimitReached {
                    what: "worker threads (one stopped)",
                }
                .into());
            };
            in_flight -= 1;
            pending.insert(j.seq, j);
            let mut failed = None;
            while let Some(mut j) = pending.remove(&next_write) {
                next_write += 1;
                if let Err(e) = j.result {
                    ct::wipe(&mut j.output);
                    failed = Some(StreamError::from(e));
                    break;
                }
                if let Err(e) = w.write_all(&j.output) {
                    failed = Some(e.into());
                    break;
                }
                total += match dir {
                    Dir::Seal => j.len as u64,
                    Dir::Open => j.output.len() as u64,
                };
                // Plaintext does not stay behind in the spare buffers.
                match dir {
                    Dir::Seal => ct::wipe(&mut j.input[..j.len]),
                    Dir::Open => ct::wipe(&mut j.output),
                }
                spare.push((j.input, j.output));
            }
            if let Some(e) = failed {
                break Err(e);
            }
        };
        drop(job_tx);
        // Wipe what the workers still hand back (after an error).
        for mut j in done_rx.iter().chain(pending.into_values()) {
            ct::wipe(&mut j.input);
            ct::wipe(&mut j.output);
        }
        for (mut i, mut o) in spare {
            ct::wipe(&mut i);
            ct::wipe(&mut o);
        }
        let total = result?;
        w.flush()?;
        Ok(total)
    })
}
