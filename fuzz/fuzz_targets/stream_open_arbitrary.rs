//! The stream-format opener (in memory and through Read/Write) fed
//! arbitrary bytes and mutated genuine streams. It must never panic, and
//! never release plaintext that did not verify:
//! - `open` returning Ok(p): sealing p again with the header's own salt,
//!   nonce prefix and segment size gives exactly the bytes opened;
//! - `open_stream` returning Ok: it wrote what `open` returned;
//! - `open_stream` failing: it wrote whole non-final segments only, each
//!   the genuine plaintext of the chunk at its place (checked the same way);
//! - both openers report the same error.
//! `open_stream` starts a thread per batch (milliseconds on a loaded core,
//! against microseconds for the rest), so it runs for one input in 256
//! (by a hash of the input).
//!
//! Input: mode byte (bit 0: build a genuine stream and mutate it, else
//! the rest is the stream; bits 1-2: key 16/24/32 bytes, fixed), and in
//! the build mode: segment-size byte (16 + mod 241), salt (15), nonce
//! prefix (7), mutation count byte (mod 8), mutations (5 bytes each: kind,
//! 2-byte position, 2-byte argument), plaintext (the rest).
#![no_main]

use galois_aead::stream::{self, StreamError, HEADER_LEN, TAG_LEN};
use galois_fuzz::{check, check_eq, mismatch, Reader, Rng};
use libfuzzer_sys::fuzz_target;
use std::io::Read;

struct ShortReads<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for ShortReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (1 + self.rng.below(200))
            .min(buf.len())
            .min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

const KEY: [u8; 32] = *b"galois fuzz stream key, 32 bytes";

/// The header's salt, nonce prefix and segment size (the input is at least
/// a header long once an opener accepted it).
fn header_fields(s: &[u8]) -> ([u8; 15], [u8; 7], usize) {
    let seg = u32::from_be_bytes(s[8..12].try_into().unwrap()) as usize;
    (
        s[12..27].try_into().unwrap(),
        s[27..34].try_into().unwrap(),
        seg,
    )
}

fn mutate(s: &mut Vec<u8>, r: &mut Reader, seg: usize) {
    let chunk = seg + TAG_LEN;
    for _ in 0..r.byte() % 8 {
        let kind = r.byte();
        let pos = r.u16() as usize;
        let arg = r.u16() as usize;
        let len = s.len();
        match kind % 8 {
            0 | 6 if len == 0 => {}
            0 => s[pos % len] ^= 1 << (arg % 8),
            1 => s.truncate(pos % (len + 1)),
            2 => s.extend_from_slice(&arg.to_be_bytes()[..1 + arg % 2]),
            3 | 4 => {
                // Copy (3) or move (4) chunk i to chunk j's place.
                let n = (len.saturating_sub(HEADER_LEN)).div_ceil(chunk);
                if n == 0 {
                    continue;
                }
                let (i, j) = (pos % n, arg % (n + 1));
                let start = HEADER_LEN + i * chunk;
                let c = s[start..(start + chunk).min(len)].to_vec();
                if kind % 8 == 4 {
                    s.drain(start..(start + chunk).min(len));
                }
                let at = (HEADER_LEN + j * chunk).min(s.len());
                s.splice(at..at, c);
            }
            5 => {
                let at = pos % (len + 1);
                let end = (at + arg % 64).min(len);
                s.drain(at..end);
            }
            6 => s[pos % HEADER_LEN.min(len)] ^= 1 << (arg % 8),
            _ => {
                let at = pos % (len + 1);
                s.splice(at..at, std::iter::repeat_n((arg >> 8) as u8, arg % 40));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let mode = r.byte();
    let key = &KEY[..[16, 24, 32][((mode >> 1) & 3) as usize % 3]];
    let mut genuine = None;
    let s: Vec<u8> = if mode & 1 == 1 {
        let seg = 16 + r.byte() as usize % 241;
        let salt = r.fixed::<15>();
        let prefix = r.fixed::<7>();
        let muts = r.bytes(1 + 5 * 7).to_vec();
        let pt = r.rest();
        let mut s = stream::seal_with_salt_for_tests(key, seg, salt, prefix, pt).unwrap();
        let orig = s.clone();
        mutate(&mut s, &mut Reader::new(&muts), seg);
        if s == orig {
            genuine = Some(pt);
        }
        s
    } else {
        r.rest().to_vec()
    };

    let res = stream::open(key, &s);
    if let Some(pt) = genuine {
        match &res {
            Ok(p) => check_eq!(p.as_slice(), pt, "genuine stream"),
            Err(e) => mismatch!("genuine stream refused: {e:?}"),
        }
    }
    if let Ok(p) = &res {
        let (salt, prefix, seg) = header_fields(&s);
        let again = stream::seal_with_salt_for_tests(key, seg, salt, prefix, p).unwrap();
        check!(
            again == s,
            "open released plaintext of a stream that is not genuine"
        );
    }

    let hash = data
        .iter()
        .fold(0u32, |h, &b| h.wrapping_mul(31).wrapping_add(b as u32));
    if hash % 256 != 0 {
        return;
    }
    let mut out = Vec::new();
    let mut src = ShortReads {
        data: &s,
        rng: Rng::new(s.len() as u64 ^ mode as u64),
    };
    match (stream::open_stream(key, &mut src, &mut out), &res) {
        (Ok(n), Ok(p)) => {
            check_eq!(n as usize, p.len(), "open_stream count");
            check_eq!(out.as_slice(), p.as_slice(), "open_stream output");
        }
        (Err(StreamError::Crypto(e)), Err(e2)) => {
            check_eq!(e, *e2, "open and open_stream disagree");
            if !out.is_empty() {
                let (salt, prefix, seg) = header_fields(&s);
                check!(
                    out.len() % seg == 0,
                    "open_stream released a partial segment"
                );
                let k = out.len() / seg;
                // Seal one byte more so every released segment is non-final.
                out.push(0);
                let again = stream::seal_with_salt_for_tests(key, seg, salt, prefix, &out).unwrap();
                let n = HEADER_LEN + k * (seg + TAG_LEN);
                check!(
                    s.len() >= n && again[..n] == s[..n],
                    "open_stream released unverified plaintext"
                );
            }
        }
        (a, b) => mismatch!(
            "open_stream {:?} but open {:?}",
            a.map_err(|e| e.to_string()),
            b
        ),
    }
});
