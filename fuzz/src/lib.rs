//! Helpers shared by the fuzz targets: a reader that turns the fuzzer's
//! bytes into parameters (never failing: missing bytes read as zero), a
//! chunking generator for the split tests, and the `mismatch!` check.
//!
//! Input layouts are documented at the top of each target; `seed/` writes
//! seed files in exactly those layouts from the shared vectors.

pub mod aead16;
pub mod cobblestone;

use arbitrary::Unstructured;
use galois_aead::{AesBackend, GhashBackend};
use std::sync::OnceLock;

/// The GHASH backends this CPU can run (every one whose features it has:
/// the library's probes are checked against std's detection in its own
/// tests); the targets pick pairs among these.
pub fn ghash_backends() -> &'static [GhashBackend] {
    static B: OnceLock<Vec<GhashBackend>> = OnceLock::new();
    B.get_or_init(GhashBackend::available)
}

/// The AES backends this CPU can run.
pub fn aes_backends() -> &'static [AesBackend] {
    static B: OnceLock<Vec<AesBackend>> = OnceLock::new();
    B.get_or_init(|| {
        AesBackend::ALL
            .iter()
            .copied()
            .filter(|a| a.is_available())
            .collect()
    })
}

/// The (GHASH backend, AES backend) pair a selector byte picks, modulo
/// the number of pairs this CPU can run (all of them over a run).
pub fn backend_pair(sel: u8) -> (GhashBackend, AesBackend) {
    let (g, a) = (ghash_backends(), aes_backends());
    let pair = sel as usize % (g.len() * a.len());
    (g[pair / a.len()], a[pair % a.len()])
}

/// Panics with a message starting `MISMATCH:` (scripts/fuzz.sh counts
/// those apart from other crashes).
#[macro_export]
macro_rules! mismatch {
    ($($arg:tt)*) => {
        panic!("MISMATCH: {}", format!($($arg)*))
    };
}

/// `assert!` whose failure is reported as a mismatch.
#[macro_export]
macro_rules! check {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            $crate::mismatch!($($arg)*);
        }
    };
}

/// `assert_eq!` whose failure is reported as a mismatch.
#[macro_export]
macro_rules! check_eq {
    ($a:expr, $b:expr, $($arg:tt)*) => {
        match (&$a, &$b) {
            (a, b) => {
                if a != b {
                    $crate::mismatch!("{} (left {:02x?}, right {:02x?})", format!($($arg)*), a, b);
                }
            }
        }
    };
}

/// Reads parameters from the front of the fuzzer's input.
pub struct Reader<'a> {
    u: Unstructured<'a>,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            u: Unstructured::new(data),
        }
    }

    /// One byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary::<u8>().unwrap_or(0)
    }

    /// Two bytes, big-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }

    /// Four bytes, big-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_be_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// Eight bytes, big-endian.
    pub fn u64(&mut self) -> u64 {
        ((self.u32() as u64) << 32) | self.u32() as u64
    }

    /// Up to `n` bytes (fewer if the input runs out).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.u.len());
        self.u.bytes(n).unwrap_or(&[])
    }

    /// Exactly `n` bytes, zero-filled past the end of the input.
    pub fn fixed<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let b = self.bytes(N);
        out[..b.len()].copy_from_slice(b);
        out
    }

    /// A field with a two-byte big-endian length prefix, the length taken
    /// modulo `max + 1`.
    pub fn field(&mut self, max: usize) -> &'a [u8] {
        let n = self.u16() as usize % (max + 1);
        self.bytes(n)
    }

    /// A field with a one-byte length prefix, the length taken modulo
    /// `max + 1`.
    pub fn field_u8(&mut self, max: usize) -> &'a [u8] {
        let n = self.byte() as usize % (max + 1);
        self.bytes(n)
    }

    /// Whatever is left.
    pub fn rest(&mut self) -> &'a [u8] {
        let n = self.u.len();
        self.u.bytes(n).unwrap_or(&[])
    }

    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }
}

/// A small deterministic generator (xorshift64*) for chunkings: seeded from
/// the input, so a crash reproduces from its file.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform-ish in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Cuts `len` bytes into pieces: mostly short ones around the block and
    /// batch sizes (including empty pieces), sometimes long ones.
    pub fn chunks(&mut self, len: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut left = len;
        while left > 0 {
            let n = match self.below(8) {
                0 => 0,
                1 => 1 + self.below(15),
                2 => 16,
                3 => 1 + self.below(64),
                4 => 1 + self.below(300),
                5 => 128 * (1 + self.below(4)) + self.below(3),
                6 => 512 + self.below(1024),
                _ => 1 + self.below(left),
            }
            .min(left);
            out.push(n);
            left -= n;
        }
        if self.below(4) == 0 {
            out.push(0);
        }
        out
    }
}

/// Splits `data` as `sizes` says (sizes sum to data.len()).
pub fn pieces<'a>(data: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::with_capacity(sizes.len());
    let mut at = 0;
    for &n in sizes {
        out.push(&data[at..at + n]);
        at += n;
    }
    out
}

/// A GCM input with one bit flipped, chosen by `flags` and `pos`: in the
/// ciphertext (flags & 3 == 0), the AAD (2), the IV (3) or else the tag.
/// `sealed` is ciphertext || tag; returns (iv, aad, sealed), tampered.
pub fn tamper(
    iv: &[u8],
    aad: &[u8],
    sealed: &[u8],
    tag_len: usize,
    flags: u8,
    pos: usize,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let ct_len = sealed.len() - tag_len;
    let bit = 1u8 << (flags >> 5);
    let (mut t_iv, mut t_aad, mut t_sealed) = (iv.to_vec(), aad.to_vec(), sealed.to_vec());
    match flags & 3 {
        0 if ct_len > 0 => t_sealed[pos % ct_len] ^= bit,
        2 if !aad.is_empty() => t_aad[pos % aad.len()] ^= bit,
        3 => t_iv[pos % iv.len()] ^= bit,
        _ => t_sealed[ct_len + pos % tag_len] ^= bit,
    }
    (t_iv, t_aad, t_sealed)
}
