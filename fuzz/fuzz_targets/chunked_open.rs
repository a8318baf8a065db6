//! Cobblestone (c2sp.org/chunked-encryption) opening on untrusted files:
//! the whole-buffer `open` / `open_into_on`, the streaming `Opener` (short
//! reads, random read sizes) and `RandomAccess` (random seeks and reads),
//! each against the independent reference in `galois_fuzz::cobblestone`
//! (aws-lc-rs HKDF-SHA-512 and AES-GCM). Never a panic, and:
//! - whole open: Ok with exactly the reference's plaintext, or the
//!   reference's refusal (bad header, wrong key, truncated, authentication),
//!   the output buffer wiped;
//! - `Opener`: releases exactly the chunks that verified before the first
//!   refusal, ends with the reference's outcome, and keeps failing after;
//! - `RandomAccess`: every byte read is the verified plaintext of the
//!   chunk at its place; a read of a chunk that does not verify, and the
//!   length / end / end-relative seeks while the final chunk does not
//!   verify, fail;
//! - built files: galois's sealing equals the reference's byte for byte.
//!
//! Input: mode byte (bits 0-1: 0 raw file, 1 genuine header and arbitrary
//! body, 2-3 a genuine file, mutated; bit 2: 32-byte key, else 16; bit 7
//! with mode 0: a record with the outcome `scripts/fuzz-seeds.py` computed
//! with the Python reference), key (16 or 32), context (length byte mod 33,
//! bytes), then
//! - raw: the file (the rest); a record: outcome byte (0 opens, 1 bad
//!   header, 2 wrong key, 3 truncated, 4 authentication), SHA-256 of the
//!   plaintext (32, zero on failure), the file, and SHA-256 of everything
//!   before it (32); a record whose digest does not match (a mutated one)
//!   is a raw file;
//! - genuine header: salt (24), body (the rest);
//! - genuine, mutated: salt (24), flags byte (bits 0-2 == 0: open under
//!   another context), length: full chunks byte (mod 8: 0-4 none, 5-6
//!   one, 7 two or three), tail kind byte and u16 (the final chunk's
//!   length: small, just under 16 KiB, any, or the pattern's), mutation
//!   count byte (mod 6), five mutations (kind byte, 3-byte position,
//!   2-byte argument), plaintext pattern (the rest, repeated; zeros if
//!   empty).
#![no_main]

use aws_lc_rs::digest::{digest, SHA256};
use galois_aead::chunked::{self, Opener, RandomAccess};
use galois_aead::stream::StreamError;
use galois_aead::Error;
use galois_fuzz::cobblestone::{self as reference, Refusal, CHUNK, HEADER, SALT, SEALED};
use galois_fuzz::{check, check_eq, mismatch, Reader, Rng};
use libfuzzer_sys::fuzz_target;
use std::io::{self, Cursor, Read, Seek, SeekFrom};

/// The refusal a galois error stands for.
fn refusal(e: &Error) -> Refusal {
    match e {
        Error::StreamBadHeader { .. } => Refusal::BadHeader,
        Error::StreamWrongKey => Refusal::WrongKey,
        Error::StreamTruncated => Refusal::Truncated,
        Error::AuthenticationFailed => Refusal::Auth,
        e => mismatch!("unexpected error {e:?}"),
    }
}

fn io_refusal(e: &io::Error) -> Refusal {
    match e.get_ref().and_then(|i| i.downcast_ref::<Error>()) {
        Some(g) if e.kind() == io::ErrorKind::InvalidData => refusal(g),
        _ => mismatch!("unexpected I/O error {e:?}"),
    }
}

fn stream_refusal(e: &StreamError) -> Refusal {
    match e {
        StreamError::Crypto(g) => refusal(g),
        StreamError::Io(e) => mismatch!("unexpected I/O error {e:?}"),
    }
}

/// A reader returning short pieces.
struct ShortReads<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Tiny pieces rarely: each read costs the opener a resize of its
        // chunk buffer.
        let cap = match self.rng.below(64) {
            0 => 1 + self.rng.below(64),
            1..=16 => 1 + self.rng.below(SEALED + 100),
            _ => usize::MAX,
        };
        let n = cap.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn mutate(s: &mut Vec<u8>, m: &[u8], count: usize) {
    for op in m.chunks_exact(6).take(count) {
        let kind = op[0];
        let pos = u32::from_be_bytes([0, op[1], op[2], op[3]]) as usize;
        let arg = u16::from_be_bytes([op[4], op[5]]) as usize;
        let len = s.len();
        let n = len.saturating_sub(HEADER).div_ceil(SEALED);
        let place = |s: &Vec<u8>, i: usize| {
            let a = (HEADER + i * SEALED).min(s.len());
            a..(a + SEALED).min(s.len())
        };
        match kind % 10 {
            0 | 8 if len == 0 => {}
            0 => s[pos % len] ^= 1 << (arg % 8),
            1 => s.truncate(pos % (len + 1)),
            // Cut at a chunk boundary, or just after one (in a tag).
            2 => s.truncate((HEADER + (pos % (n + 1)) * SEALED + arg % 18).min(len)),
            3 => s.extend(std::iter::repeat_n((arg >> 8) as u8, 1 + arg % 40)),
            // Copy (4) or move (5) chunk i to chunk j's place.
            4 | 5 if n > 0 => {
                let (i, j) = (pos % n, arg % (n + 1));
                let c = s[place(s, i)].to_vec();
                if kind % 10 == 5 {
                    s.drain(place(s, i));
                }
                let at = place(s, j).start;
                s.splice(at..at, c);
            }
            6 if n > 1 => {
                let (i, j) = (pos % n, arg % n);
                let (i, j) = (i.min(j), i.max(j));
                if i != j && place(s, j).len() == SEALED {
                    let (a, b) = (place(s, i), place(s, j));
                    let cj = s[b.clone()].to_vec();
                    let ci = s[a.clone()].to_vec();
                    s.splice(b, ci);
                    s.splice(a, cj);
                }
            }
            7 if n > 0 => {
                s.drain(place(s, pos % n));
            }
            8 => s[pos % HEADER.min(len)] ^= 1 << (arg % 8),
            9 => {
                let at = pos % (len + 1);
                s.drain(at..(at + arg % 64).min(len));
            }
            _ => {}
        }
    }
}

/// The whole-buffer openers.
fn check_whole(
    key: &[u8],
    ctx: &[u8],
    file: &[u8],
    want: &Result<Vec<u8>, Refusal>,
    rng: &mut Rng,
) {
    let threads = 1 + rng.below(2);
    let len = match want {
        Ok(p) => p.len(),
        Err(_) => chunked::opened_len(file.len()).unwrap_or(rng.below(64)),
    };
    let mut out = vec![0xa5u8; len];
    match (
        chunked::open_into_on(threads, key, ctx, file, &mut out),
        want,
    ) {
        (Ok(()), Ok(p)) => check_eq!(out.as_slice(), p.as_slice(), "open_into plaintext"),
        (Ok(()), Err(r)) => mismatch!("open_into released a file the reference refuses ({r:?})"),
        (Err(e), Ok(_)) => mismatch!("open_into refused a good file: {e:?}"),
        (Err(e), Err(r)) => {
            check_eq!(refusal(&e), *r, "open_into refusal");
            check!(
                out.iter().all(|&b| b == 0),
                "open_into left bytes in its output"
            );
        }
    }
    if let Ok(p) = want {
        // A wrong-sized buffer is refused before anything is opened.
        let mut out = vec![0xa5u8; p.len() + 1];
        let r = chunked::open_into_on(1, key, ctx, file, &mut out);
        check!(
            matches!(r, Err(Error::BufferLength { .. })),
            "open_into with a long buffer: {r:?}"
        );
        check!(
            out.iter().all(|&b| b == 0),
            "open_into (long buffer) left bytes"
        );
    }
    if rng.below(8) == 0 {
        match (chunked::open(key, ctx, file), want) {
            (Ok(p), Ok(q)) => check_eq!(p, *q, "open plaintext"),
            (Err(e), Err(r)) => check_eq!(refusal(&e), *r, "open refusal"),
            (a, b) => mismatch!("open {a:?}, reference {b:?}"),
        }
    }
}

/// The streaming opener through short reads and random read sizes.
fn check_opener(key: &[u8], ctx: &[u8], file: &[u8], f: &mut reference::File, rng: &mut Rng) {
    let (want, end) = f.open_in_order();
    let src = ShortReads {
        data: file,
        rng: Rng::new(rng.next()),
    };
    let mut o = match Opener::new(key, ctx, src) {
        Ok(o) => o,
        Err(e) => {
            check!(
                f.header().is_err(),
                "Opener::new refused a good header: {e}"
            );
            check_eq!(
                stream_refusal(&e),
                f.header().unwrap_err(),
                "Opener::new refusal"
            );
            return;
        }
    };
    if let Err(r) = f.header() {
        mismatch!("Opener::new accepted a header the reference refuses ({r:?})");
    }
    let mut got = Vec::new();
    let mut buf = vec![0u8; 2 * CHUNK];
    let res = loop {
        let n = match rng.below(4) {
            0 => 1 + rng.below(16),
            1 => 1 + rng.below(CHUNK + 64),
            2 => 2 * CHUNK,
            _ => 1 + rng.below(1024),
        };
        match o.read(&mut buf[..n]) {
            Ok(0) => break Ok(()),
            Ok(k) => {
                let at = got.len();
                got.extend_from_slice(&buf[..k]);
                check!(
                    got.len() <= want.len() && got[at..] == want[at..got.len()],
                    "Opener released bytes that did not verify"
                );
                check_eq!(o.position(), got.len() as u64, "Opener position");
            }
            Err(e) => break Err(io_refusal(&e)),
        }
    };
    check_eq!(res, end, "Opener outcome");
    check_eq!(got.len(), want.len(), "Opener released");
    // After a refusal too, `position()` is what was released (the input
    // fuzz/regressions/chunked_open/opener-position-after-failure once
    // showed it one chunk short).
    check_eq!(o.position(), got.len() as u64, "Opener position at the end");
    if let Err(r) = res {
        for _ in 0..2 {
            match o.read(&mut buf[..1 + rng.below(CHUNK)]) {
                Ok(k) => mismatch!("Opener read {k} bytes after failing"),
                Err(e) => check_eq!(io_refusal(&e), r, "Opener error after failing"),
            }
        }
    } else {
        check_eq!(
            o.read(&mut buf[..1]).ok(),
            Some(0),
            "Opener read after the end"
        );
    }
}

/// Random access: random seeks and reads against the chunks' verified
/// plaintexts.
fn check_random(key: &[u8], ctx: &[u8], file: &[u8], f: &mut reference::File, rng: &mut Rng) {
    let mut ra = match RandomAccess::new(key, ctx, Cursor::new(file)) {
        Ok(r) => r,
        Err(e) => {
            let want = f.header().and_then(|()| f.claimed_len().map(|_| ()));
            check!(want.is_err(), "RandomAccess::new refused a good file: {e}");
            check_eq!(
                stream_refusal(&e),
                want.unwrap_err(),
                "RandomAccess::new refusal"
            );
            return;
        }
    };
    let claimed = match f.header().and_then(|()| f.claimed_len()) {
        Ok(n) => n as u64,
        Err(r) => mismatch!("RandomAccess::new accepted a file the reference refuses ({r:?})"),
    };
    let last = claimed as usize / CHUNK;
    let length_ok = f.chunk(last).is_some();
    let mut pos = 0u64;
    let mut buf = vec![0u8; 2 * CHUNK];
    for _ in 0..1 + rng.below(8) {
        let near = |rng: &mut Rng| -> u64 {
            match rng.below(3) {
                0 => rng.below(claimed as usize + 40) as u64,
                1 => (CHUNK * rng.below(last + 2)) as u64,
                _ => (CHUNK * rng.below(last + 2) + rng.below(32)).saturating_sub(16) as u64,
            }
        };
        match rng.below(7) {
            0 => {
                let p = near(rng);
                check_eq!(ra.seek(SeekFrom::Start(p)).ok(), Some(p), "seek start");
                pos = p;
            }
            1 => {
                let d = near(rng) as i64 - pos as i64;
                check_eq!(
                    ra.seek(SeekFrom::Current(d)).ok(),
                    Some(pos.wrapping_add_signed(d)),
                    "seek current"
                );
                pos = pos.wrapping_add_signed(d);
            }
            2 => {
                let d = near(rng) as i64 - claimed as i64;
                match ra.seek(SeekFrom::End(d)) {
                    Ok(p) => {
                        check!(
                            length_ok,
                            "seek from the end without a verified final chunk"
                        );
                        check_eq!(p, claimed.wrapping_add_signed(d), "seek end");
                        pos = p;
                    }
                    Err(e) => {
                        check!(!length_ok, "seek from the end failed: {e}");
                        check_eq!(io_refusal(&e), Refusal::Auth, "seek end refusal");
                    }
                }
            }
            3 => match ra.len() {
                Ok(n) => {
                    check!(length_ok, "len() without a verified final chunk");
                    check_eq!(n, claimed, "len()");
                }
                Err(e) => {
                    check!(!length_ok, "len() failed: {e}");
                    check_eq!(io_refusal(&e), Refusal::Auth, "len() refusal");
                }
            },
            _ => {
                let n = match rng.below(3) {
                    0 => 1 + rng.below(16),
                    1 => 1 + rng.below(2 * CHUNK),
                    _ => 1 + rng.below(300),
                };
                let r = ra.read(&mut buf[..n]);
                if pos >= claimed {
                    match r {
                        Ok(k) => {
                            check_eq!(k, 0, "read past the end");
                            check!(length_ok, "end of file without a verified final chunk");
                        }
                        Err(e) => {
                            check!(!length_ok, "read at the end failed: {e}");
                            check_eq!(io_refusal(&e), Refusal::Auth, "read at the end refusal");
                        }
                    }
                    continue;
                }
                let c = (pos / CHUNK as u64) as usize;
                let at = (pos % CHUNK as u64) as usize;
                match (r, f.chunk(c)) {
                    (Ok(k), Some(p)) => {
                        let k_want = n.min(p.len() - at);
                        check_eq!(k, k_want, "read count");
                        check_eq!(&buf[..k], &p[at..at + k], "read bytes");
                        pos += k as u64;
                    }
                    (Ok(k), None) => mismatch!(
                        "RandomAccess returned {k} bytes of chunk {c}, which does not verify"
                    ),
                    (Err(e), Some(_)) => mismatch!("RandomAccess refused a good chunk {c}: {e}"),
                    (Err(e), None) => check_eq!(io_refusal(&e), Refusal::Auth, "read refusal"),
                }
            }
        }
    }
}

const OTHER_CONTEXT: &[u8] = b"not the context";

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let mode = r.byte();
    let key_all = r.fixed::<32>();
    let key = &key_all[..if mode & 4 != 0 { 32 } else { 16 }];
    let ctx = r.field_u8(32);
    let hash = data
        .iter()
        .fold(0u64, |h, &b| h.wrapping_mul(31).wrapping_add(b as u64));
    let mut rng = Rng::new(hash);

    // The file, and the plaintext or refusal known without the reference.
    let mut open_ctx = ctx;
    let (file, known) = match mode & 3 {
        0 => {
            let rest = r.rest();
            match record(data, rest) {
                Some((e, file)) => (file.to_vec(), e),
                None => (rest.to_vec(), Expect::Nothing),
            }
        }
        1 => {
            let salt = r.fixed::<SALT>();
            let mut file = salt.to_vec();
            file.extend(reference::Keys::derive(key, &salt, ctx).commitment());
            file.extend_from_slice(r.rest());
            (file, Expect::Nothing)
        }
        _ => {
            let salt = r.fixed::<SALT>();
            let flags = r.byte();
            let full = match r.byte() % 8 {
                0..=4 => 0,
                5 | 6 => 1,
                _ => 2 + (r.byte() as usize & 1),
            };
            let tail_kind = r.byte();
            let t = r.u16() as usize;
            let count = r.byte() as usize % 6;
            let muts = r.fixed::<30>();
            let pattern = r.rest();
            let tail = match tail_kind % 4 {
                0 => t % 48,
                1 => CHUNK - 1 - t % 48,
                2 => t % CHUNK,
                _ => pattern.len() % CHUNK,
            };
            let n = full * CHUNK + tail;
            let mut pt = pattern.repeat(n / pattern.len().max(1) + 1);
            pt.resize(n, 0);
            let ours = match chunked::seal_with_salt_for_tests(key, salt, ctx, &pt) {
                Ok(s) => s,
                Err(e) => mismatch!("seal refused: {e:?}"),
            };
            check!(
                ours == reference::seal(key, &salt, ctx, &pt),
                "seal differs from the reference"
            );
            let mut file = ours.clone();
            mutate(&mut file, &muts, count);
            if flags & 7 == 0 {
                open_ctx = if ctx == OTHER_CONTEXT {
                    b""
                } else {
                    OTHER_CONTEXT
                };
                let r = if file.len() < HEADER {
                    Refusal::BadHeader
                } else {
                    Refusal::WrongKey
                };
                (file, Expect::Refused(r))
            } else if file == ours {
                (file, Expect::Plaintext(pt))
            } else {
                (file, Expect::Nothing)
            }
        }
    };

    let mut f = reference::File::new(key, open_ctx, &file);
    let want = f.open_whole();
    match (&known, &want) {
        (Expect::Nothing, _) => {}
        (Expect::Plaintext(p), Ok(q)) => {
            check_eq!(p, q, "the reference opened a genuine file wrong")
        }
        (Expect::Digest(d), Ok(q)) => check!(
            digest(&SHA256, q).as_ref() == d,
            "plaintext differs from the Python reference's"
        ),
        (Expect::Refused(a), Err(b)) => check_eq!(a, b, "refusal differs from the expected one"),
        (_, w) => mismatch!("the reference's outcome {w:?} is not the expected one"),
    }
    check_whole(key, open_ctx, &file, &want, &mut rng);
    check_opener(key, open_ctx, &file, &mut f, &mut rng);
    check_random(key, open_ctx, &file, &mut f, &mut rng);
});

/// What is known of a file's outcome without the reference.
enum Expect {
    Nothing,
    Plaintext(Vec<u8>),
    /// A record from the Python reference: the plaintext's SHA-256.
    Digest([u8; 32]),
    Refused(Refusal),
}

/// A record's outcome and file, if its digest (over everything before
/// it) matches; `rest` follows the context.
fn record<'a>(data: &[u8], rest: &'a [u8]) -> Option<(Expect, &'a [u8])> {
    if data.first().is_none_or(|m| m & 0x80 == 0) || rest.len() < 1 + 32 + 32 {
        return None;
    }
    let (signed, d) = data.split_at(data.len() - 32);
    if digest(&SHA256, signed).as_ref() != d {
        return None;
    }
    let body = &rest[..rest.len() - 32];
    let e = match body[0] {
        0 => Expect::Digest(body[1..33].try_into().unwrap()),
        1 => Expect::Refused(Refusal::BadHeader),
        2 => Expect::Refused(Refusal::WrongKey),
        3 => Expect::Refused(Refusal::Truncated),
        4 => Expect::Refused(Refusal::Auth),
        o => mismatch!("record with outcome byte {o}"),
    };
    Some((e, &body[33..]))
}
