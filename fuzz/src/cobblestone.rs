//! An independent Cobblestone (c2sp.org/chunked-encryption) for the
//! `chunked_open` target, written from the specification on aws-lc-rs's
//! HKDF-SHA-512 and AES-GCM: what each galois opener must return for a
//! given file.
//!
//! Layout: salt (24) || commitment (32) || chunks of 16 KiB + 16-byte tag,
//! the final chunk shorter than 16 KiB of plaintext (maybe empty). Key,
//! base nonce and commitment come from HKDF-Expand-SHA-512(input key,
//! "c2sp.org/chunked-encryption@v1+" || AEAD name || 0x00 || salt ||
//! context); chunk i's nonce is the base nonce XOR i (big-endian).

use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM, AES_256_GCM};
use aws_lc_rs::hkdf::{KeyType, Prk, HKDF_SHA512};

pub const CHUNK: usize = 16 * 1024;
pub const TAG: usize = 16;
pub const SEALED: usize = CHUNK + TAG;
pub const SALT: usize = 24;
pub const HEADER: usize = SALT + 32;

/// Why the reference refuses a file (the order of the checks is the
/// spec's: header, commitment, length, then the chunks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Shorter than salt and commitment.
    BadHeader,
    /// The commitment does not match key, salt and context.
    WrongKey,
    /// No final chunk (ends on a chunk boundary or inside a tag).
    Truncated,
    /// A chunk does not verify at its place.
    Auth,
}

struct OkmLen(usize);

impl KeyType for OkmLen {
    fn len(&self) -> usize {
        self.0
    }
}

/// The per-file keys.
pub struct Keys {
    gcm: LessSafeKey,
    base: [u8; 12],
    commitment: [u8; 32],
}

impl Keys {
    /// `key` has 16 or 32 bytes.
    pub fn derive(key: &[u8], salt: &[u8], context: &[u8]) -> Keys {
        let (name, alg): (&[u8], _) = match key.len() {
            16 => (b"AEAD_AES_128_GCM", &AES_128_GCM),
            32 => (b"AEAD_AES_256_GCM", &AES_256_GCM),
            n => panic!("reference: a {n}-byte input key"),
        };
        let mut info = b"c2sp.org/chunked-encryption@v1+".to_vec();
        info.extend_from_slice(name);
        info.push(0);
        info.extend_from_slice(salt);
        info.extend_from_slice(context);
        let mut okm = vec![0u8; key.len() + 12 + 32];
        Prk::new_less_safe(HKDF_SHA512, key)
            .expand(&[&info], OkmLen(okm.len()))
            .and_then(|o| o.fill(&mut okm))
            .expect("HKDF-Expand");
        let (k, rest) = okm.split_at(key.len());
        Keys {
            gcm: LessSafeKey::new(UnboundKey::new(alg, k).expect("AES key")),
            base: rest[..12].try_into().unwrap(),
            commitment: rest[12..].try_into().unwrap(),
        }
    }

    pub fn commitment(&self) -> [u8; 32] {
        self.commitment
    }

    fn nonce(&self, i: usize) -> Nonce {
        let mut n = self.base;
        for (a, b) in n[4..].iter_mut().zip((i as u64).to_be_bytes()) {
            *a ^= b;
        }
        Nonce::assume_unique_for_key(n)
    }

    /// Chunk `i` of a message: ciphertext || tag.
    pub fn seal_chunk(&self, i: usize, pt: &[u8]) -> Vec<u8> {
        let mut b = pt.to_vec();
        self.gcm
            .seal_in_place_append_tag(self.nonce(i), Aad::empty(), &mut b)
            .expect("seal");
        b
    }

    /// The plaintext of `c` as chunk `i`, if it verifies.
    pub fn open_chunk(&self, i: usize, c: &[u8]) -> Option<Vec<u8>> {
        let mut b = c.to_vec();
        let n = self
            .gcm
            .open_in_place(self.nonce(i), Aad::empty(), &mut b)
            .ok()?
            .len();
        b.truncate(n);
        Some(b)
    }
}

/// A whole message sealed under `salt`.
pub fn seal(key: &[u8], salt: &[u8; SALT], context: &[u8], pt: &[u8]) -> Vec<u8> {
    let keys = Keys::derive(key, salt, context);
    let mut out = salt.to_vec();
    out.extend_from_slice(&keys.commitment);
    let full = pt.len() / CHUNK;
    for i in 0..full {
        out.extend(keys.seal_chunk(i, &pt[i * CHUNK..(i + 1) * CHUNK]));
    }
    out.extend(keys.seal_chunk(full, &pt[full * CHUNK..]));
    out
}

/// A (possibly bad) sealed file, its chunks opened on demand, once each.
pub struct File<'a> {
    keys: Result<Keys, Refusal>,
    body: &'a [u8],
    opened: Vec<Option<Option<Vec<u8>>>>,
}

impl<'a> File<'a> {
    pub fn new(key: &[u8], context: &[u8], sealed: &'a [u8]) -> File<'a> {
        let keys = if sealed.len() < HEADER {
            Err(Refusal::BadHeader)
        } else {
            let k = Keys::derive(key, &sealed[..SALT], context);
            if k.commitment[..] == sealed[SALT..HEADER] {
                Ok(k)
            } else {
                Err(Refusal::WrongKey)
            }
        };
        let body = sealed.get(HEADER..).unwrap_or(&[]);
        File {
            keys,
            body,
            opened: vec![None; body.len().div_ceil(SEALED)],
        }
    }

    /// The header check: commitment and (first) length of the header.
    pub fn header(&self) -> Result<(), Refusal> {
        self.keys.as_ref().map(|_| ()).map_err(|e| *e)
    }

    /// Sealed bytes at chunk `i`'s place.
    fn bytes(&self, i: usize) -> &'a [u8] {
        let start = (i * SEALED).min(self.body.len());
        &self.body[start..(start + SEALED).min(self.body.len())]
    }

    /// The plaintext of chunk `i` (the bytes at its place, opened with its
    /// index), if it verifies. The header must be good.
    pub fn chunk(&mut self, i: usize) -> Option<&[u8]> {
        if i >= self.opened.len() {
            return None;
        }
        if self.opened[i].is_none() {
            let c = self.bytes(i);
            let keys = self.keys.as_ref().expect("header checked first");
            let p = if c.len() < TAG {
                None
            } else {
                keys.open_chunk(i, c)
            };
            self.opened[i] = Some(p);
        }
        self.opened[i].as_ref().unwrap().as_deref()
    }

    /// The plaintext length the file's length implies (header good).
    pub fn claimed_len(&self) -> Result<usize, Refusal> {
        let rem = self.body.len() % SEALED;
        if rem < TAG {
            return Err(Refusal::Truncated);
        }
        Ok(self.body.len() / SEALED * CHUNK + rem - TAG)
    }

    /// Opening the whole file: every check before any plaintext.
    pub fn open_whole(&mut self) -> Result<Vec<u8>, Refusal> {
        self.header()?;
        self.claimed_len()?;
        let mut out = Vec::new();
        for i in 0..self.opened.len() {
            out.extend_from_slice(self.chunk(i).ok_or(Refusal::Auth)?);
        }
        Ok(out)
    }

    /// Opening chunk after chunk, as a reader sees it: what verified
    /// before the first refusal, and the refusal. A chunk is the final
    /// one when the input ends within its sealed size; a final chunk of
    /// a full chunk's size or shorter than a tag means truncation.
    pub fn open_in_order(&mut self) -> (Vec<u8>, Result<(), Refusal>) {
        let mut out = Vec::new();
        if let Err(e) = self.header() {
            return (out, Err(e));
        }
        let mut i = 0;
        loop {
            let left = self.body.len() - (i * SEALED).min(self.body.len());
            let last = left <= SEALED;
            if last && !(TAG..SEALED).contains(&left) {
                return (out, Err(Refusal::Truncated));
            }
            match self.chunk(i) {
                Some(p) => out.extend_from_slice(p),
                None => return (out, Err(Refusal::Auth)),
            }
            if last {
                return (out, Ok(()));
            }
            i += 1;
        }
    }

    /// How many chunk places the file has.
    pub fn chunks(&self) -> usize {
        self.opened.len()
    }
}
