//! AES with the ARMv8 Cryptographic Extension (aarch64: `AESE`, `AESMC`).
//!
//! The key schedule is FIPS-197 section 5.2 word by word, as in `aesni.rs`
//! (words little-endian, RotWord a rotation right by 8 bits). SubWord runs
//! on the AES unit: `AESE` with a zero round key is SubBytes(ShiftRows(x)),
//! and with the word in all four columns ShiftRows only moves equal bytes,
//! so every column of the result is SubWord(w). No S-box table, no
//! secret-indexed memory access.
//!
//! Encryption: `AESE` (AddRoundKey, ShiftRows, SubBytes) and `AESMC`
//! (MixColumns) for rounds 1..Nr-1, then `AESE` with the round key Nr-1
//! and an XOR with the last one. The round keys are the bytes FIPS-197
//! lists, the same layout as the AES-NI schedule, so the stitched GCM
//! kernels take the same [`AesRoundKeys`].
//!
//! An [`Armv8`] exists only where the `aes` feature was detected at run
//! time, which makes the calls into `#[target_feature]` functions sound.

use crate::block::round_keys::AesRoundKeys;
use crate::block::Block;
use core::arch::aarch64::*;
use zeroize::Zeroize;

/// An ARMv8 AES key schedule; exists only on CPUs with FEAT_AES.
pub(crate) struct Armv8 {
    keys: AesRoundKeys,
}

const RCON: [u32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// SubWord of FIPS-197 on the AES unit.
///
/// # Safety
///
/// The CPU must support FEAT_AES (`new` checks `detect::has_aes_armv8()`).
#[target_feature(enable = "neon,aes")]
unsafe fn sub_word(w: u32) -> u32 {
    let v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))))
}

/// This backend's key, as the AES table holds it.
pub(crate) type Key = Box<Armv8>;
/// The names of its AES-128, -192 and -256 keys.
pub(crate) const NAMES: [&str; 3] = ["aes-128/armv8", "aes-192/armv8", "aes-256/armv8"];

/// Expands a key (the table's builder); `None` if the CPU lacks AES.
pub(crate) fn key(key: &[u8]) -> Option<Key> {
    Armv8::new(key).map(Box::new)
}

impl Armv8 {
    /// Expands a 16-, 24- or 32-byte key; `None` if the CPU lacks AES.
    pub(crate) fn new(key: &[u8]) -> Option<Self> {
        if !crate::detect::has_aes_armv8() || !matches!(key.len(), 16 | 24 | 32) {
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
                // SAFETY: has_aes_armv8() above proved the aes feature.
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
        Some(Armv8 { keys })
    }

    pub(crate) fn key_len(&self) -> usize {
        match self.keys {
            AesRoundKeys::Aes128(_) => 16,
            AesRoundKeys::Aes192(_) => 24,
            AesRoundKeys::Aes256(_) => 32,
        }
    }

    /// The round keys, for the stitched GCM kernels.
    pub(crate) fn round_keys(&self) -> Option<&AesRoundKeys> {
        Some(self.keys())
    }

    pub(crate) fn keys(&self) -> &AesRoundKeys {
        &self.keys
    }

    pub(crate) fn encrypt_block(&self, block: &mut Block) {
        // SAFETY: an Armv8 exists only where AES was detected (see new).
        unsafe { self.encrypt_n::<1>(core::slice::from_mut(block)) }
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [Block]) {
        let mut chunks = blocks.chunks_exact_mut(8);
        for c in &mut chunks {
            // SAFETY: an Armv8 exists only where AES was detected.
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
    /// The CPU must support FEAT_AES (an `Armv8` value proves it).
    #[target_feature(enable = "neon,aes")]
    unsafe fn encrypt_n<const N: usize>(&self, blocks: &mut [Block]) {
        debug_assert_eq!(blocks.len(), N);
        let keys = self.keys.as_slice();
        let rounds = keys.len() - 1;
        // SAFETY: `keys[i]` is a 16-byte round key; the load reads exactly it.
        let rk = |i: usize| unsafe { vld1q_u8(keys[i].as_ptr()) };
        let mut s = [vdupq_n_u8(0); N];
        for (v, b) in s.iter_mut().zip(blocks.iter()) {
            // SAFETY: `b` is a 16-byte block; the load reads exactly it.
            *v = unsafe { vld1q_u8(b.as_ptr()) };
        }
        for r in 0..rounds - 1 {
            let k = rk(r);
            for v in s.iter_mut() {
                *v = vaesmcq_u8(vaeseq_u8(*v, k));
            }
        }
        let (k, kl) = (rk(rounds - 1), rk(rounds));
        for (v, b) in s.iter().zip(blocks.iter_mut()) {
            // SAFETY: `b` is a 16-byte block we hold mutably; the store
            // writes exactly it.
            unsafe { vst1q_u8(b.as_mut_ptr(), veorq_u8(vaeseq_u8(*v, k), kl)) };
        }
    }
}
