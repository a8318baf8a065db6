//! AES with the x86 AES-NI instructions.
//!
//! The key schedule follows FIPS-197 section 5.2 word by word. Words are
//! kept as little-endian `u32`s, so RotWord is a rotation right by 8 bits
//! and Rcon lands in the low byte. SubWord, the only non-linear step, runs on
//! the AES unit: `aeskeygenassist` with round constant 0 returns
//! SubWord(X1) in its lowest dword, so no S-box table (and no secret-indexed
//! memory access) is ever used. This one schedule serves all three key sizes.
//!
//! Encryption is the usual whitening XOR, Nr-1 `aesenc` and one
//! `aesenclast`. Several blocks are encrypted round by round together, so the
//! 4-cycle latency of `aesenc` overlaps across eight independent blocks.
//!
//! Construction checks the CPU: an [`AesNi`] exists only where `aes` and
//! `sse2` were detected at run time, which is what makes the `unsafe` calls
//! into `#[target_feature]` functions sound.

use super::keys::AesRoundKeys;
use crate::block::Block;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// An AES-NI key schedule; exists only on CPUs with AES-NI.
pub(crate) struct AesNi {
    keys: AesRoundKeys,
}

const RCON: [u32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// SubWord of FIPS-197 on the AES unit.
///
/// # Safety
///
/// The CPU must support AES-NI (`new` checks `detect::has_aesni()` first).
#[cfg(not(miri))]
#[target_feature(enable = "aes,sse2")]
unsafe fn sub_word(w: u32) -> u32 {
    let v = _mm_set_epi32(0, 0, w as i32, 0);
    _mm_cvtsi128_si32(_mm_aeskeygenassist_si128::<0>(v)) as u32
}

/// SubWord computed from the S-box's definition (inverse in GF(2^8), then
/// the affine map): Miri runs `aesenc` but not `aeskeygenassist`, so the
/// kernels can be checked under Miri with this key schedule.
///
/// # Safety
///
/// None beyond the AES-NI twin's: `unsafe` only to keep one signature.
#[cfg(miri)]
unsafe fn sub_word(w: u32) -> u32 {
    fn mul(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0;
        while b != 0 {
            p ^= a & (b & 1).wrapping_neg();
            a = (a << 1) ^ (0x1b & (a >> 7).wrapping_neg());
            b >>= 1;
        }
        p
    }
    let sbox = |x: u8| {
        // x^254 = x^-1 (and 0 -> 0).
        let mut inv = 1u8;
        for _ in 0..254 {
            inv = mul(inv, x);
        }
        let b = if x == 0 { 0 } else { inv };
        b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63
    };
    u32::from_le_bytes(w.to_le_bytes().map(sbox))
}

impl AesNi {
    /// Expands a 16-, 24- or 32-byte key; `None` if the CPU lacks AES-NI.
    pub(crate) fn new(key: &[u8]) -> Option<Self> {
        if !crate::detect::has_aesni() || !matches!(key.len(), 16 | 24 | 32) {
            return None;
        }
        let nk = key.len() / 4;
        let rounds = nk + 6;
        let mut w = [0u32; 60];
        for (i, c) in key.chunks_exact(4).enumerate() {
            w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        for i in nk..4 * (rounds + 1) {
            let mut t = w[i - 1];
            if i % nk == 0 {
                // SAFETY: has_aesni() above proved the aes and sse2 features.
                t = unsafe { sub_word(t.rotate_right(8)) } ^ RCON[i / nk - 1];
            } else if nk > 6 && i % nk == 4 {
                // SAFETY: as above.
                t = unsafe { sub_word(t) };
            }
            w[i] = w[i - nk] ^ t;
        }
        let mut keys = match nk {
            4 => AesRoundKeys::Aes128([[0; 16]; 11]),
            6 => AesRoundKeys::Aes192([[0; 16]; 13]),
            _ => AesRoundKeys::Aes256([[0; 16]; 15]),
        };
        let round_keys: &mut [[u8; 16]] = match &mut keys {
            AesRoundKeys::Aes128(k) => k,
            AesRoundKeys::Aes192(k) => k,
            AesRoundKeys::Aes256(k) => k,
        };
        for (r, rk) in round_keys.iter_mut().enumerate() {
            for j in 0..4 {
                rk[4 * j..4 * j + 4].copy_from_slice(&w[4 * r + j].to_le_bytes());
            }
        }
        w.zeroize();
        Some(AesNi { keys })
    }

    pub(crate) fn key_len(&self) -> usize {
        match self.keys {
            AesRoundKeys::Aes128(_) => 16,
            AesRoundKeys::Aes192(_) => 24,
            AesRoundKeys::Aes256(_) => 32,
        }
    }

    /// The round keys, for the stitched GCM kernels.
    pub(crate) fn keys(&self) -> &AesRoundKeys {
        &self.keys
    }

    pub(crate) fn encrypt_block(&self, block: &mut Block) {
        // SAFETY: an AesNi exists only where AES-NI was detected (see new).
        unsafe { self.encrypt_n::<1>(core::slice::from_mut(block)) }
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [Block]) {
        let mut chunks = blocks.chunks_exact_mut(8);
        for c in &mut chunks {
            // SAFETY: an AesNi exists only where AES-NI was detected.
            unsafe { self.encrypt_n::<8>(c) }
        }
        for b in chunks.into_remainder() {
            self.encrypt_block(b);
        }
    }

    /// Encrypts exactly N blocks, interleaved round by round.
    ///
    /// # Safety
    ///
    /// The CPU must support AES-NI (an `AesNi` value proves it).
    #[target_feature(enable = "aes,sse2")]
    unsafe fn encrypt_n<const N: usize>(&self, blocks: &mut [Block]) {
        debug_assert_eq!(blocks.len(), N);
        let keys = self.keys.as_slice();
        let rounds = keys.len() - 1;
        // SAFETY: `keys[i]` is a 16-byte round key; the unaligned load reads
        // exactly those 16 bytes.
        let rk = |i: usize| unsafe { _mm_loadu_si128(keys[i].as_ptr().cast()) };
        let mut s = [_mm_setzero_si128(); N];
        let k0 = rk(0);
        for (v, b) in s.iter_mut().zip(blocks.iter()) {
            // SAFETY: `b` is a 16-byte block; the load reads exactly it.
            *v = _mm_xor_si128(unsafe { _mm_loadu_si128(b.as_ptr().cast()) }, k0);
        }
        for r in 1..rounds {
            let k = rk(r);
            for v in s.iter_mut() {
                *v = _mm_aesenc_si128(*v, k);
            }
        }
        let k = rk(rounds);
        for (v, b) in s.iter().zip(blocks.iter_mut()) {
            // SAFETY: `b` is a 16-byte block we hold mutably; the store
            // writes exactly it.
            unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_aesenclast_si128(*v, k)) };
        }
    }
}
