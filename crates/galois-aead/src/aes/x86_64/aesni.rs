//! AES with the x86 AES-NI instructions.
//!
//! The key schedule follows FIPS-197 section 5.2. SubWord, the only
//! non-linear step, runs on the AES unit, never through an S-box table (no
//! secret-indexed memory access): broadcast the word to all four columns of
//! a vector and `aesenclast` it with the round constant as round key. With
//! four equal columns ShiftRows moves nothing, so each column comes out as
//! SubWord(word) xor Rcon; rotating each column by 8 bits first gives
//! SubWord(RotWord(word)) xor Rcon. AES-128 and AES-256 expand one round key
//! per step in vector registers (the new word, XORed into the prefix-XOR of
//! the previous round key's words, gives all four new words at once); AES-192,
//! whose round keys straddle its 6-word steps, goes word by word. The
//! schedule uses only `aesenclast`, shuffles, shifts and XORs, which Miri
//! also runs.
//!
//! Encryption is the usual whitening XOR, Nr-1 `aesenc` and one
//! `aesenclast`. Several blocks are encrypted round by round together, so the
//! 4-cycle latency of `aesenc` overlaps across eight independent blocks.
//!
//! Construction checks the CPU: an [`AesNi`] exists only where `aes` and
//! `sse2` were detected at run time, which is what makes the `unsafe` calls
//! into `#[target_feature]` functions sound.

use crate::block::round_keys::AesRoundKeys;
use crate::block::Block;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// An AES-NI key schedule; exists only on CPUs with AES-NI.
pub(crate) struct AesNi {
    keys: AesRoundKeys,
}

const RCON: [u32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// w0, w0^w1, w0^w1^w2, w0^w1^w2^w3 of a round key's words w0..w3: XORed
/// with the new word in every lane, the next round key's four words. Two
/// shift-XOR steps (by one word, then two), where AES-128's chain has it.
#[inline]
#[target_feature(enable = "sse2")]
fn spread(k: __m128i) -> __m128i {
    let k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
    _mm_xor_si128(k, _mm_slli_si128::<8>(k))
}

/// SubWord(RotWord(w3)) xor rcon in every lane, w3 the last word of `k`.
/// With every column the same, AESENCLAST's ShiftRows moves nothing, so
/// it is SubWord of each lane xor rcon.
#[inline]
#[target_feature(enable = "aes,sse2,ssse3")]
fn sub_rot_last(k: __m128i, rcon: u32) -> __m128i {
    _mm_aesenclast_si128(rot_last(k), _mm_set1_epi32(rcon as i32))
}

/// RotWord(w3) in every lane, w3 the last word of `k`: its bytes 12..16,
/// rotated (a1 a2 a3 a0), in one shuffle (a word broadcast and two shifts
/// were three steps on the schedule's chain).
#[inline]
#[target_feature(enable = "sse2,ssse3")]
fn rot_last(k: __m128i) -> __m128i {
    let rot = _mm_setr_epi8(
        13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12,
    );
    _mm_shuffle_epi8(k, rot)
}

/// SubWord of one word (FIPS-197 words as little-endian `u32`s).
#[inline]
#[target_feature(enable = "aes,sse2")]
fn sub_word(w: u32) -> u32 {
    _mm_cvtsi128_si32(_mm_aesenclast_si128(
        _mm_set1_epi32(w as i32),
        _mm_setzero_si128(),
    )) as u32
}

/// Loads 16 bytes.
#[inline]
#[target_feature(enable = "sse2")]
fn load(b: &[u8; 16]) -> __m128i {
    // SAFETY: `b` is a readable 16-byte array; the load is unaligned.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// The AES-128 schedule; returns the encryption of the zero block (GCM's
/// H), computed round by round as the keys come (a few AES instructions
/// beside the schedule, where encrypting after it would wait ten rounds
/// more). A safe function where the caller has AES-NI enabled; others call
/// it in `unsafe` after detecting AES-NI. Each round key goes to `out` as
/// it is made and only the last one or two stay in registers (an array of
/// all of them was spilled to the stack, and its copies there had to be
/// wiped).
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) fn expand128(key: &[u8; 16], out: &mut [[u8; 16]; 11]) -> __m128i {
    // SAFETY: `out` is 11 writable round keys.
    unsafe { expand128_from(load(key), _mm_setzero_si128(), out.as_mut_ptr()) }
}

/// [`expand128`] of the key in `r`, into the 11 round keys from `out`
/// (which may be uninitialized), encrypting the block `x` beside it (the
/// zero block for [`expand128`]); returns x's encryption.
///
/// # Safety
/// `out` is valid for writes of 11 round keys; AES-NI and SSSE3 are
/// enabled.
#[inline]
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) unsafe fn expand128_from(mut r: __m128i, x: __m128i, out: *mut [u8; 16]) -> __m128i {
    // SAFETY: i <= 10: within the round keys the caller gave.
    let store = |i: usize, v| unsafe { _mm_storeu_si128(out.add(i).cast(), v) };
    store(0, r);
    let mut z = _mm_xor_si128(x, r);
    for (i, rcon) in RCON.iter().enumerate() {
        r = _mm_xor_si128(spread(r), sub_rot_last(r, *rcon));
        store(i + 1, r);
        z = if i < 9 {
            _mm_aesenc_si128(z, r)
        } else {
            _mm_aesenclast_si128(z, r)
        };
    }
    z
}

/// The AES-256 schedule: even round keys take SubWord(RotWord) xor Rcon of
/// the last word before them, odd ones (from the third on) SubWord.
/// Returns the encryption of the zero block; safe and stored as
/// [`expand128`].
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) fn expand256(key: &[u8; 32], out: &mut [[u8; 16]; 15]) -> __m128i {
    let (k0, k1) = key.split_at(16);
    // SAFETY: `out` is 15 writable round keys.
    unsafe {
        expand256_from(
            load(k0.try_into().unwrap()),
            load(k1.try_into().unwrap()),
            _mm_setzero_si128(),
            out.as_mut_ptr(),
        )
    }
}

/// [`expand256`] of the key whose halves are `a` and `b`, in registers,
/// into the 15 round keys from `out` (which may be uninitialized),
/// encrypting the block `x` beside it (the zero block for [`expand256`]);
/// returns x's encryption.
///
/// # Safety
/// `out` is valid for writes of 15 round keys; AES-NI and SSSE3 are
/// enabled.
#[inline]
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) unsafe fn expand256_from(
    mut a: __m128i,
    mut b: __m128i,
    x: __m128i,
    out: *mut [u8; 16],
) -> __m128i {
    // SAFETY: i < 15: within the round keys the caller gave.
    let store = |i: usize, v| unsafe { _mm_storeu_si128(out.add(i).cast(), v) };
    store(0, a);
    store(1, b);
    let mut z = _mm_aesenc_si128(_mm_xor_si128(x, a), b);
    // Each new key is AESENCLAST of the newest key's last word (copied to
    // every lane, so ShiftRows moves nothing) with the older key's spread
    // (xor Rcon) as its round key: the XOR is the instruction's own, and
    // the spread of the older key is ready before the newest key is, so a
    // step is a shuffle and one AESENCLAST on the chain.
    for i in 1..7 {
        let rcon = _mm_set1_epi32(RCON[i - 1] as i32);
        a = _mm_aesenclast_si128(rot_last(b), _mm_xor_si128(spread(a), rcon));
        store(2 * i, a);
        b = _mm_aesenclast_si128(_mm_shuffle_epi32::<0xff>(a), spread(b));
        store(2 * i + 1, b);
        z = _mm_aesenc_si128(_mm_aesenc_si128(z, a), b);
    }
    let rcon = _mm_set1_epi32(RCON[6] as i32);
    a = _mm_aesenclast_si128(rot_last(b), _mm_xor_si128(spread(a), rcon));
    store(14, a);
    _mm_aesenclast_si128(z, a)
}

/// The AES-192 schedule, word by word (FIPS-197 section 5.2). Safe as
/// [`expand128`].
#[target_feature(enable = "aes,sse2")]
fn expand192(key: &[u8; 24], out: &mut [[u8; 16]; 13]) {
    let mut w = [0u32; 52];
    for (i, c) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    for i in 6..52 {
        let mut t = w[i - 1];
        if i % 6 == 0 {
            t = sub_word(t.rotate_right(8)) ^ RCON[i / 6 - 1];
        }
        w[i] = w[i - 6] ^ t;
    }
    for (r, rk) in out.iter_mut().enumerate() {
        for j in 0..4 {
            rk[4 * j..4 * j + 4].copy_from_slice(&w[4 * r + j].to_le_bytes());
        }
    }
    w.zeroize();
}

/// This backend's key, as the AES table holds it.
pub(crate) type Key = Box<AesNi>;
/// The names of its AES-128, -192 and -256 keys.
pub(crate) const NAMES: [&str; 3] = ["aes-128/aesni", "aes-192/aesni", "aes-256/aesni"];

/// Expands a key (the table's builder); `None` if the CPU lacks AES-NI.
pub(crate) fn key(key: &[u8]) -> Option<Key> {
    AesNi::new_boxed(key)
}

impl AesNi {
    /// Expands a 16-, 24- or 32-byte key in a box (the schedule expanded
    /// where it stays); `None` if the CPU lacks AES-NI.
    pub(crate) fn new_boxed(key: &[u8]) -> Option<Box<Self>> {
        if !crate::detect::has_aesni() {
            return None;
        }
        let keys = match key.len() {
            16 => AesRoundKeys::Aes128([[0; 16]; 11]),
            24 => AesRoundKeys::Aes192([[0; 16]; 13]),
            32 => AesRoundKeys::Aes256([[0; 16]; 15]),
            _ => return None,
        };
        // Written into the allocation (`Box::new` built the value on the
        // stack and copied it in).
        let mut b = Box::<AesNi>::new_uninit();
        b.write(AesNi { keys });
        // SAFETY: written just above.
        let mut b = unsafe { b.assume_init() };
        // SAFETY (every arm): has_aesni() proved aes, sse2 and ssse3; each key has
        // its schedule's length (the variant was chosen by it). The
        // encryption of zero they return is not needed here.
        match &mut b.keys {
            AesRoundKeys::Aes128(rk) => unsafe {
                expand128(key.try_into().unwrap(), rk);
            },
            AesRoundKeys::Aes192(rk) => unsafe { expand192(key.try_into().unwrap(), rk) },
            AesRoundKeys::Aes256(rk) => unsafe {
                expand256(key.try_into().unwrap(), rk);
            },
        }
        Some(b)
    }

    /// A derived AES-256 key's schedule, built in `slot` (its round keys
    /// written once), and the encryption of the zero block under it (GCM's
    /// H, computed beside the schedule, as an integer in GHASH's big-endian
    /// order): the key is E_K(b_0 xor (0^32 || t)) || E_K(b_1 xor (0^32 ||
    /// t)) under this key (XAES-256-GCM's subkey: fixed blocks `b` and a
    /// 12-byte nonce `t`), and never leaves registers. The caller drops
    /// the slot's schedule (which wipes it).
    #[inline(always)]
    pub(crate) fn derive256_in<'s>(
        &self,
        b: &[[u8; 16]; 2],
        t: &[u8; 12],
        slot: &'s mut core::mem::MaybeUninit<AesNi>,
    ) -> (&'s AesNi, u128) {
        let p = slot.as_mut_ptr();
        // SAFETY: `keys` is the struct's only field, so the struct is
        // initialized once it is; derive256 writes all 15 round keys (and
        // reads none of them), on a CPU with AES-NI and SSSE3 (an AesNi
        // exists only where they were detected: new_boxed).
        unsafe {
            let keys = &mut *core::ptr::addr_of_mut!((*p).keys)
                .cast::<core::mem::MaybeUninit<AesRoundKeys>>();
            let (_, h) = AesRoundKeys::init_aes256(keys, |rk| self.derive256(b, t, rk));
            (slot.assume_init_ref(), h)
        }
    }

    /// [`AesNi::derive256_in`]'s key, expanded into `out`; returns its H.
    /// (The two blocks built in memory byte by byte made each whole-block
    /// load wait for its stores to retire; the key stored and loaded back
    /// put a store-to-load forward on the chain.)
    ///
    /// # Safety
    ///
    /// The CPU must support AES-NI and SSSE3 (an `AesNi` value proves it);
    /// `out` is valid for writes of 15 round keys.
    #[target_feature(enable = "aes,sse2,ssse3")]
    unsafe fn derive256(&self, b: &[[u8; 16]; 2], t: &[u8; 12], out: *mut [u8; 16]) -> u128 {
        // SAFETY: each load reads exactly the bytes it names: 8 and 4 bytes
        // of `t`, 16 of each `b[i]` and of each round key; `out` per the
        // caller.
        unsafe {
            let lo = _mm_loadl_epi64(t.as_ptr().cast());
            let hi = _mm_cvtsi32_si128(i32::from_le_bytes([t[8], t[9], t[10], t[11]]));
            let tail = _mm_slli_si128::<4>(_mm_unpacklo_epi64(lo, hi));
            let keys = self.keys.as_slice();
            let rk = |i: usize| _mm_loadu_si128(keys[i].as_ptr().cast());
            let k0 = rk(0);
            let mut x = _mm_xor_si128(_mm_xor_si128(load(&b[0]), tail), k0);
            let mut y = _mm_xor_si128(_mm_xor_si128(load(&b[1]), tail), k0);
            let last = keys.len() - 1;
            for i in 1..last {
                let k = rk(i);
                x = _mm_aesenc_si128(x, k);
                y = _mm_aesenc_si128(y, k);
            }
            let k = rk(last);
            let h = expand256_from(
                _mm_aesenclast_si128(x, k),
                _mm_aesenclast_si128(y, k),
                _mm_setzero_si128(),
                out,
            );
            // GHASH reads blocks as big-endian integers.
            let h = _mm_shuffle_epi8(
                h,
                _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
            );
            let (lo, hi) = (
                _mm_cvtsi128_si64(h),
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(h, h)),
            );
            (lo as u64 as u128) | ((hi as u64 as u128) << 64)
        }
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
        // SAFETY: an AesNi exists only where AES-NI was detected (new_boxed, derive256_in).
        unsafe { self.encrypt_n::<1>(core::slice::from_mut(block)) }
    }

    pub(crate) fn encrypt_blocks(&self, blocks: &mut [Block]) {
        let mut chunks = blocks.chunks_exact_mut(8);
        for c in &mut chunks {
            // SAFETY: an AesNi exists only where AES-NI was detected.
            unsafe { self.encrypt_n::<8>(c) }
        }
        let rest = chunks.into_remainder();
        // SAFETY (all arms): as above; each arm's count is rest's length.
        // The remainder's blocks go through the rounds together too.
        unsafe {
            match rest.len() {
                0 => {}
                1 => self.encrypt_n::<1>(rest),
                2 => self.encrypt_n::<2>(rest),
                3 => self.encrypt_n::<3>(rest),
                4 => self.encrypt_n::<4>(rest),
                5 => self.encrypt_n::<5>(rest),
                6 => self.encrypt_n::<6>(rest),
                _ => self.encrypt_n::<7>(rest),
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Aes, AesBackend, BlockCipher128};

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// FIPS-197 appendix A: the last round key of each example expansion,
    /// and encryption under 300 keys of each size against the portable AES.
    #[test]
    fn schedule_matches_fips197_and_the_portable_aes() {
        if !crate::detect::test_can_run(crate::detect::has_aesni(), "AES-NI") {
            return;
        }
        for (key, last) in [
            (
                "2b7e151628aed2a6abf7158809cf4f3c",
                "d014f9a8c9ee2589e13f0cc8b6630ca6",
            ),
            (
                "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
                "e98ba06f448c773c8ecc720401002202",
            ),
            (
                "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
                "fe4890d1e6188d0b046df344706c631e",
            ),
        ] {
            let k = AesNi::new_boxed(&hex(key)).unwrap();
            assert_eq!(
                k.keys().as_slice().last().unwrap().to_vec(),
                hex(last),
                "{key}"
            );
        }
        let mut s = 0x1234_5678_9abc_def0u64;
        let mut next = || crate::registry::xorshift(&mut s) as u8;
        for len in [16, 24, 32] {
            for _ in 0..300 {
                let key: Vec<u8> = (0..len).map(|_| next()).collect();
                let ni = AesNi::new_boxed(&key).unwrap();
                let sw = Aes::with_backend(&key, AesBackend::Portable).unwrap();
                let mut a = [0u8; 16];
                a.iter_mut().for_each(|b| *b = next());
                let mut b = a;
                ni.encrypt_block(&mut a);
                sw.encrypt_block(&mut b);
                assert_eq!(a, b, "{key:02x?}");
            }
        }
    }
}
