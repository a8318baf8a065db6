//! AES-GCM-SIV's per-message AES on AES-NI: the message-encryption key's
//! schedule, the tag block, and counter mode with the RFC 8452 counter
//! (the first 32 bits, little-endian, modulo 2^32).
//!
//! The counter sits in the lowest dword of a block loaded into a vector,
//! so `_mm_add_epi32` / `_mm512_add_epi32` count exactly as the RFC says,
//! wrapping modulo 2^32 without touching the other 96 bits.
//!
//! The key schedule is the library's own AES-NI schedule
//! (`aes::aesni::expand128` / `expand256`).
//!
//! A short message ([`seal_short`], [`open_short`]) is sealed or opened in
//! one function from the key-generating key's schedule: the derived keys
//! stay in registers, POLYVAL runs on single blocks with only the powers
//! of H the message uses (`gf128::wide::polyval_short`, no table), and
//! the encryption key's schedule is expanded with the tag (sealing) or the
//! first counter block (opening) encrypted beside it, round by round.
//!
//! Every function here is `unsafe` with `#[target_feature]`; callers check
//! the features with `crate::detect` first (see [`RoundKeys::with_new`]).

use crate::aes::aesni::{expand128, expand128_from, expand256, expand256_from, AesNi};
use crate::gcm::kernels::Width;
use crate::gf128::wide::{polyval_short, Lanes};
use core::arch::x86_64::*;

/// Bytes of AAD and text up to which [`seal_short`] and [`open_short`]
/// take a message.
pub(super) const SHORT_MAX: usize = 512;

/// An expanded AES-128 or AES-256 key (11 or 15 round keys), wiped on drop.
pub(super) struct RoundKeys {
    rk: [[u8; 16]; 15],
    rounds: usize,
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        crate::ct::wipe_now(self.rk.as_flattened_mut());
    }
}

impl RoundKeys {
    /// Expands a 16- or 32-byte key; `None` without AES-NI or for another
    /// length.
    #[cfg(test)]
    pub(super) fn new(key: &[u8]) -> Option<Self> {
        let mut k = RoundKeys {
            rk: [[0u8; 16]; 15],
            rounds: 0,
        };
        k.expand(key)?;
        Some(k)
    }

    /// Runs `f` with the schedule of a 16- or 32-byte key, built in this
    /// frame and wiped when `f` returns (returned by value, the 248-byte
    /// schedule was copied with every move); `None` without AES-NI or for
    /// another length.
    #[inline(always)]
    pub(super) fn with_new<R>(key: &[u8], f: impl FnOnce(&RoundKeys) -> R) -> Option<R> {
        let mut k = RoundKeys {
            rk: [[0u8; 16]; 15],
            rounds: 0,
        };
        k.expand(key)?;
        Some(f(&k))
    }

    /// Expands `key` into a schedule that has none yet.
    #[inline(always)]
    fn expand(&mut self, key: &[u8]) -> Option<()> {
        if !crate::detect::has_aesni() {
            return None;
        }
        match key.len() {
            16 => {
                let r11 = (&mut self.rk[..11]).try_into().unwrap();
                // SAFETY: has_aesni() proved aes, sse2 and ssse3, the target features.
                // (The encryption of zero it returns is not needed here.)
                unsafe { expand128(key.try_into().unwrap(), r11) };
            }
            32 => {
                // SAFETY: as above.
                unsafe { expand256(key.try_into().unwrap(), &mut self.rk) };
            }
            _ => return None,
        }
        self.rounds = key.len() / 4 + 6;
        Some(())
    }

    /// Encrypts one block.
    pub(super) fn encrypt_block(&self, b: &mut [u8; 16]) {
        // SAFETY: a RoundKeys exists only where AES-NI was detected (new).
        unsafe { self.encrypt_block_ni(b) }
    }

    /// # Safety
    /// The CPU has AES-NI.
    #[target_feature(enable = "aes,sse2")]
    unsafe fn encrypt_block_ni(&self, b: &mut [u8; 16]) {
        // SAFETY: AES-NI per the caller (# Safety); the loads and stores are of the block and
        // the round keys, 16 bytes each.
        unsafe {
            let mut s = _mm_xor_si128(_mm_loadu_si128(b.as_ptr().cast()), self.k(0));
            for r in 1..self.rounds {
                s = _mm_aesenc_si128(s, self.k(r));
            }
            s = _mm_aesenclast_si128(s, self.k(self.rounds));
            _mm_storeu_si128(b.as_mut_ptr().cast(), s);
        }
    }

    /// Round key r.
    ///
    /// # Safety
    /// Only from functions that enabled `sse2`.
    #[inline(always)]
    unsafe fn k(&self, r: usize) -> __m128i {
        // SAFETY: sse2 per the caller; a round key is 16 bytes.
        unsafe { _mm_loadu_si128(self.rk[r].as_ptr().cast()) }
    }

    /// Round key r in both lanes.
    ///
    /// # Safety
    /// Only from functions that enabled `avx2`.
    #[inline(always)]
    unsafe fn ky(&self, r: usize) -> __m256i {
        // SAFETY: avx2 per the caller; a round key is 16 bytes.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(self.rk[r].as_ptr().cast())) }
    }

    /// Round key r in all four lanes.
    ///
    /// # Safety
    /// Only from functions that enabled `avx512f`.
    #[inline(always)]
    unsafe fn kz(&self, r: usize) -> __m512i {
        // SAFETY: avx512f per the caller; a round key is 16 bytes.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(self.rk[r].as_ptr().cast())) }
    }

    /// [`RoundKeys::ctr_xor`] of at most four blocks (`data` at most 64
    /// bytes), from the counter block in a register, the blocks through
    /// the rounds together and the partial one loaded and stored in
    /// pieces: no call, no stack copy.
    ///
    /// # Safety
    /// AES-NI and SSE4.1 are enabled; `data.len() <= 64`.
    #[inline(always)]
    unsafe fn ctr_xor_upto4(&self, c0: __m128i, data: &mut [u8]) {
        debug_assert!(data.len() <= 64);
        // SAFETY: features and length per the caller.
        unsafe {
            // A constant block count per copy: the loops over the blocks
            // unroll (with the count known only at run time they stayed
            // loops, about a fifth of a 64-byte AES-256 seal's
            // instructions).
            match data.len().div_ceil(16) {
                0 | 1 => self.ctr_xor_blocks::<1>(c0, data),
                2 => self.ctr_xor_blocks::<2>(c0, data),
                3 => self.ctr_xor_blocks::<3>(c0, data),
                _ => self.ctr_xor_blocks::<4>(c0, data),
            }
        }
    }

    /// [`RoundKeys::ctr_xor_upto4`] of `NB` blocks, the last one partial
    /// or empty if `data` is shorter than `16 NB` bytes.
    ///
    /// # Safety
    /// AES-NI and SSE4.1 are enabled; `data.len() <= 16 NB`.
    #[inline(always)]
    unsafe fn ctr_xor_blocks<const NB: usize>(&self, c0: __m128i, data: &mut [u8]) {
        // SAFETY: features per the caller; block i's load and store cover
        // bytes 16 i .. min(16 (i + 1), len) of `data` (none past its end).
        unsafe {
            let one = _mm_set_epi32(0, 0, 0, 1);
            let k0 = self.k(0);
            let mut s = [_mm_setzero_si128(); NB];
            let mut c = c0;
            for v in s.iter_mut() {
                *v = _mm_xor_si128(c, k0);
                c = _mm_add_epi32(c, one);
            }
            for r in 1..self.rounds {
                let k = self.k(r);
                for v in s.iter_mut() {
                    *v = _mm_aesenc_si128(*v, k);
                }
            }
            let k = self.k(self.rounds);
            let p = data.as_mut_ptr();
            for (i, v) in s.iter().enumerate() {
                let n = data.len().saturating_sub(16 * i).min(16);
                let d = <__m128i as Lanes>::load_partial(p.add(16 * i), n);
                let o = _mm_xor_si128(d, _mm_aesenclast_si128(*v, k));
                <__m128i as Lanes>::store_partial(p.add(16 * i), n, o);
            }
        }
    }

    /// XORs the keystream from counter block `ctr0` into `data`, the first
    /// 32 bits of the block counting little-endian modulo 2^32.
    /// `width`: the vector width of the stitched kernel of the message's
    /// POLYVAL backend (128 bits without one).
    pub(super) fn ctr_xor(&self, width: Option<Width>, ctr0: &[u8; 16], data: &mut [u8]) {
        let bits = width.map_or(128, Width::bits);
        if bits == 512 {
            // SAFETY: a 512-bit Width proves VAES and AVX-512 F, BW and VL
            // (and with them AVX2), the features of ctr_xor_zmm.
            unsafe { self.ctr_xor_zmm(ctr0, data) }
        } else if bits == 256 {
            // SAFETY: a 256-bit Width proves VAES and AVX2.
            unsafe { self.ctr_xor_ymm(ctr0, data) }
        } else {
            // SAFETY: a RoundKeys exists only where AES-NI was detected.
            unsafe { self.ctr_xor_xmm(ctr0, data) }
        }
    }

    /// Eight blocks per step on 128-bit vectors.
    ///
    /// # Safety
    /// The CPU has AES-NI.
    #[target_feature(enable = "aes,sse2")]
    unsafe fn ctr_xor_xmm(&self, ctr0: &[u8; 16], data: &mut [u8]) {
        // SAFETY: AES-NI per the caller; every load and store below covers
        // whole blocks within `data` (ctr_xor_rest takes the rest).
        unsafe {
            const W: usize = 8;
            let one = _mm_set_epi32(0, 0, 0, 1);
            let mut ctr = _mm_loadu_si128(ctr0.as_ptr().cast());
            let mut chunks = data.chunks_exact_mut(16 * W);
            for c in &mut chunks {
                let mut s = [_mm_setzero_si128(); W];
                let k0 = self.k(0);
                for v in s.iter_mut() {
                    *v = _mm_xor_si128(ctr, k0);
                    ctr = _mm_add_epi32(ctr, one);
                }
                for r in 1..self.rounds {
                    let k = self.k(r);
                    for v in s.iter_mut() {
                        *v = _mm_aesenc_si128(*v, k);
                    }
                }
                let k = self.k(self.rounds);
                let p = c.as_mut_ptr();
                for (i, v) in s.iter().enumerate() {
                    let d = _mm_loadu_si128(p.add(16 * i).cast());
                    let o = _mm_xor_si128(d, _mm_aesenclast_si128(*v, k));
                    _mm_storeu_si128(p.add(16 * i).cast(), o);
                }
            }
            self.ctr_xor_rest(ctr, chunks.into_remainder());
        }
    }

    /// [`RoundKeys::ctr_xor_xmm`]'s last (up to seven) blocks from counter
    /// block `ctr`, one at a time: whole blocks in registers, the partial
    /// one through a stack copy (wiped). Out of line: inlined, it changed
    /// the code of the eight-block loop (16 KiB: 130 more instructions).
    ///
    /// # Safety
    /// The CPU has AES-NI.
    #[target_feature(enable = "aes,sse2")]
    #[inline(never)]
    unsafe fn ctr_xor_rest(&self, mut ctr: __m128i, rest: &mut [u8]) {
        // SAFETY: AES-NI per the caller; the loads and stores cover whole
        // blocks of `rest` or the stack copy of its partial block.
        unsafe {
            let one = _mm_set_epi32(0, 0, 0, 1);
            let mut blocks = rest.chunks_exact_mut(16);
            // Whole blocks in registers (no stack copy to wipe).
            for c in &mut blocks {
                let mut s = _mm_xor_si128(ctr, self.k(0));
                for r in 1..self.rounds {
                    s = _mm_aesenc_si128(s, self.k(r));
                }
                s = _mm_aesenclast_si128(s, self.k(self.rounds));
                let p = c.as_mut_ptr().cast();
                _mm_storeu_si128(p, _mm_xor_si128(_mm_loadu_si128(p), s));
                ctr = _mm_add_epi32(ctr, one);
            }
            let c = blocks.into_remainder();
            if !c.is_empty() {
                let mut b = [0u8; 16];
                _mm_storeu_si128(b.as_mut_ptr().cast(), ctr);
                self.encrypt_block_ni(&mut b);
                for (d, k) in c.iter_mut().zip(b.iter()) {
                    *d ^= k;
                }
                crate::ct::wipe_now(&mut b);
            }
        }
    }

    /// The keystream of the first `nv` (<= V) vectors of counter blocks
    /// from `ctr`, which moves on by `four` per vector (the rest zero).
    ///
    /// # Safety
    /// Only from functions that enabled VAES and `avx512f`.
    #[inline(always)]
    unsafe fn keystream_zmm<const V: usize>(
        &self,
        ctr: &mut __m512i,
        four: __m512i,
        nv: usize,
    ) -> [__m512i; V] {
        // SAFETY: the features per the caller; round keys through `kz`.
        unsafe {
            let k0 = self.kz(0);
            let mut s = [_mm512_setzero_si512(); V];
            for v in s.iter_mut().take(nv) {
                *v = _mm512_xor_si512(*ctr, k0);
                *ctr = _mm512_add_epi32(*ctr, four);
            }
            for r in 1..self.rounds {
                let k = self.kz(r);
                for v in s.iter_mut().take(nv) {
                    *v = _mm512_aesenc_epi128(*v, k);
                }
            }
            let k = self.kz(self.rounds);
            for v in s.iter_mut().take(nv) {
                *v = _mm512_aesenclast_epi128(*v, k);
            }
            s
        }
    }

    /// The keystream of the first `nv` (<= V) vectors of counter blocks
    /// from `ctr`, which moves on by `two` per vector (the rest zero).
    ///
    /// # Safety
    /// Only from functions that enabled VAES and `avx2`.
    #[inline(always)]
    unsafe fn keystream_ymm<const V: usize>(
        &self,
        ctr: &mut __m256i,
        two: __m256i,
        nv: usize,
    ) -> [__m256i; V] {
        // SAFETY: the features per the caller; round keys through `ky`.
        unsafe {
            let k0 = self.ky(0);
            let mut s = [_mm256_setzero_si256(); V];
            for v in s.iter_mut().take(nv) {
                *v = _mm256_xor_si256(*ctr, k0);
                *ctr = _mm256_add_epi32(*ctr, two);
            }
            for r in 1..self.rounds {
                let k = self.ky(r);
                for v in s.iter_mut().take(nv) {
                    *v = _mm256_aesenc_epi128(*v, k);
                }
            }
            let k = self.ky(self.rounds);
            for v in s.iter_mut().take(nv) {
                *v = _mm256_aesenclast_epi128(*v, k);
            }
            s
        }
    }

    /// Sixteen blocks per step: eight 256-bit vectors of two blocks (VAES
    /// without AVX-512: twice the blocks per instruction of AES-NI).
    ///
    /// # Safety
    /// The CPU has VAES and AVX2 (`detect::has_vaes_avx2`).
    #[target_feature(enable = "vaes,aes,sse2,avx2,avx")]
    unsafe fn ctr_xor_ymm(&self, ctr0: &[u8; 16], data: &mut [u8]) {
        // SAFETY: VAES and AVX2 per the caller; every load and store below
        // covers whole vectors within `data`, or the stack copy of its last
        // partial vector.
        unsafe {
            const V: usize = 8;
            let c0 = _mm256_broadcastsi128_si256(_mm_loadu_si128(ctr0.as_ptr().cast()));
            // Lane i counts from i; each vector is two blocks on.
            let mut ctr = _mm256_add_epi32(c0, _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
            let two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
            let mut chunks = data.chunks_exact_mut(32 * V);
            for c in &mut chunks {
                let ks = self.keystream_ymm::<V>(&mut ctr, two, V);
                let p = c.as_mut_ptr();
                for (i, k) in ks.iter().enumerate() {
                    let d = _mm256_loadu_si256(p.add(32 * i).cast());
                    _mm256_storeu_si256(p.add(32 * i).cast(), _mm256_xor_si256(d, *k));
                }
            }
            let rest = chunks.into_remainder();
            if !rest.is_empty() {
                // One more step over as many vectors as the remainder
                // touches; the last one, if partial, through a stack copy.
                let nv = rest.len().div_ceil(32);
                let ks = self.keystream_ymm::<V>(&mut ctr, two, nv);
                let p = rest.as_mut_ptr();
                let whole = rest.len() / 32;
                for (i, k) in ks.iter().enumerate().take(whole) {
                    let d = _mm256_loadu_si256(p.add(32 * i).cast());
                    _mm256_storeu_si256(p.add(32 * i).cast(), _mm256_xor_si256(d, *k));
                }
                let tail = &mut rest[32 * whole..];
                if !tail.is_empty() {
                    let mut b = [0u8; 32];
                    b[..tail.len()].copy_from_slice(tail);
                    let d = _mm256_loadu_si256(b.as_ptr().cast());
                    _mm256_storeu_si256(b.as_mut_ptr().cast(), _mm256_xor_si256(d, ks[whole]));
                    tail.copy_from_slice(&b[..tail.len()]);
                    crate::ct::wipe_now(&mut b);
                }
            }
        }
    }

    /// Sixteen blocks per step: four 512-bit vectors of four blocks.
    ///
    /// # Safety
    /// The CPU has VAES and AVX-512 (`detect::has_vaes_avx512`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,aes,sse2,avx2,avx")]
    unsafe fn ctr_xor_zmm(&self, ctr0: &[u8; 16], data: &mut [u8]) {
        // SAFETY: VAES and AVX-512 per the caller; every load and store below covers whole
        // vectors within `data`, or (masked) the bytes of its last vectors.
        unsafe {
            const V: usize = 4;
            let c0 = _mm512_broadcast_i32x4(_mm_loadu_si128(ctr0.as_ptr().cast()));
            // Lane i counts from i; each vector is four blocks on.
            let mut ctr = _mm512_add_epi32(
                c0,
                _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
            );
            let four = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
            let mut chunks = data.chunks_exact_mut(64 * V);
            for c in &mut chunks {
                let ks = self.keystream_zmm::<V>(&mut ctr, four, V);
                let p = c.as_mut_ptr();
                for (i, k) in ks.iter().enumerate() {
                    let d = _mm512_loadu_si512(p.add(64 * i).cast());
                    _mm512_storeu_si512(p.add(64 * i).cast(), _mm512_xor_si512(d, *k));
                }
            }
            let rest = chunks.into_remainder();
            if !rest.is_empty() {
                // One more step over as many vectors as the remainder
                // touches, with masked loads and stores (no stack copy, no
                // block-at-a-time tail: 52 ns of a 1500-byte message).
                let nv = rest.len().div_ceil(64);
                let ks = self.keystream_zmm::<V>(&mut ctr, four, nv);
                let p = rest.as_mut_ptr();
                for (i, k) in ks.iter().enumerate().take(nv) {
                    let n = (rest.len() - 64 * i).min(64);
                    let m: u64 = if n == 64 { !0 } else { (1 << n) - 1 };
                    let d = _mm512_maskz_loadu_epi8(m, p.add(64 * i).cast());
                    _mm512_mask_storeu_epi8(p.add(64 * i).cast(), m, _mm512_xor_si512(d, *k));
                }
            }
        }
    }
}

/// Seals a short message (AAD and text at most [`SHORT_MAX`] bytes) in
/// place under the key-generating key `kgk` (AES-128 or AES-256) and
/// returns the tag; `None` (nothing done) without PCLMULQDQ, for AES-192,
/// or for a longer message.
pub(super) fn seal_short(
    kgk: &AesNi,
    width: Width,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
) -> Option<[u8; 16]> {
    if !short_fits(kgk, aad, buf) {
        return None;
    }
    // SAFETY: short_fits checked AES-NI, PCLMULQDQ, SSSE3 and SSE4.1.
    Some(unsafe { seal_short_ni(kgk.keys().as_slice(), width, nonce, aad, buf) })
}

/// Opens a short message in place ([`seal_short`]'s counterpart): whether
/// `tag` verified (the caller wipes `buf` if not); `None` (nothing done)
/// where [`seal_short`] would refuse.
pub(super) fn open_short(
    kgk: &AesNi,
    width: Width,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8; 16],
) -> Option<bool> {
    if !short_fits(kgk, aad, buf) {
        return None;
    }
    // SAFETY: as in seal_short.
    Some(unsafe { open_short_ni(kgk.keys().as_slice(), width, nonce, aad, buf, tag) })
}

/// Whether the short path takes this key and message on this CPU.
#[inline(always)]
fn short_fits(kgk: &AesNi, aad: &[u8], buf: &[u8]) -> bool {
    aad.len().saturating_add(buf.len()) <= SHORT_MAX
        && kgk.key_len() != 24
        && crate::detect::has_aesni_clmul()
}

/// The per-nonce keys from the key-generating key's round keys `kgk`
/// (11 or 15): the POLYVAL key as H x^-1 (the key bytes as they are: see
/// the `gcm_siv` module doc and `gf128::wide`), and the encryption key's
/// halves (the second zero for AES-128). The 4 or 6 blocks go through
/// the rounds together.
///
/// # Safety
/// AES-NI and SSE2 are enabled.
#[inline(always)]
unsafe fn derive(kgk: &[[u8; 16]], nonce: &[u8; 12]) -> (__m128i, __m128i, __m128i) {
    // SAFETY: as derive_n's (features per the caller).
    unsafe {
        // A constant block count per key size, so that the loops over the
        // blocks unroll.
        if kgk.len() == 11 {
            derive_n::<4>(kgk, nonce)
        } else {
            derive_n::<6>(kgk, nonce)
        }
    }
}

/// [`derive`] with `N` (4 or 6) derived blocks.
///
/// # Safety
/// AES-NI and SSE2 are enabled.
#[inline(always)]
unsafe fn derive_n<const N: usize>(
    kgk: &[[u8; 16]],
    nonce: &[u8; 12],
) -> (__m128i, __m128i, __m128i) {
    // SAFETY: the loads read 8 and 4 bytes of the nonce and 16 of each
    // round key; features per the caller.
    unsafe {
        let tail = _mm_slli_si128::<4>(nonce_vec(nonce));
        let rk = |i: usize| _mm_loadu_si128(kgk[i].as_ptr().cast());
        let last = kgk.len() - 1;
        let mut b = [_mm_setzero_si128(); 6];
        let k0 = rk(0);
        for (i, v) in b.iter_mut().enumerate().take(N) {
            *v = _mm_xor_si128(_mm_insert_epi32::<0>(tail, i as i32), k0);
        }
        for r in 1..last {
            let k = rk(r);
            for v in b.iter_mut().take(N) {
                *v = _mm_aesenc_si128(*v, k);
            }
        }
        let k = rk(last);
        for v in b.iter_mut().take(N) {
            *v = _mm_aesenclast_si128(*v, k);
        }
        // The first eight bytes of each block, two blocks a key.
        (
            _mm_unpacklo_epi64(b[0], b[1]),
            _mm_unpacklo_epi64(b[2], b[3]),
            _mm_unpacklo_epi64(b[4], b[5]),
        )
    }
}

/// The nonce in the low 12 bytes, zeros above.
///
/// # Safety
/// SSE2 is enabled.
#[inline(always)]
unsafe fn nonce_vec(nonce: &[u8; 12]) -> __m128i {
    // SAFETY: reads the nonce's first 8 bytes, and the last 4 by value.
    unsafe {
        let lo = _mm_loadl_epi64(nonce.as_ptr().cast());
        let hi = _mm_cvtsi32_si128(i32::from_le_bytes([
            nonce[8], nonce[9], nonce[10], nonce[11],
        ]));
        _mm_unpacklo_epi64(lo, hi)
    }
}

/// The block to encrypt into the tag: POLYVAL(auth, A, P, lengths) xor
/// the nonce, bit 127 cleared.
///
/// # Safety
/// AES-NI, PCLMULQDQ, SSSE3 and SSE4.1 are enabled.
#[inline(always)]
unsafe fn tag_input(auth: __m128i, nonce: &[u8; 12], aad: &[u8], text: &[u8]) -> __m128i {
    // SAFETY: features per the caller.
    unsafe {
        // le64(8|A|) || le64(8|P|), loaded as it is.
        let lens = _mm_set_epi64x(
            (text.len() as u64 * 8) as i64,
            (aad.len() as u64 * 8) as i64,
        );
        let s = polyval_short::<__m128i>(auth, aad, text, lens);
        _mm_and_si128(
            _mm_xor_si128(s, nonce_vec(nonce)),
            _mm_set_epi32(0x7fff_ffff, -1, -1, -1),
        )
    }
}

/// Expands the encryption key (halves `ea`, `eb`; 11 round keys if `kgk`
/// has 11, else 15) into `k`, returning the encryption of `x` under it,
/// computed beside the schedule.
///
/// # Safety
/// AES-NI and SSSE3 are enabled.
#[inline(always)]
unsafe fn expand_with(
    k: &mut RoundKeys,
    kgk: &[[u8; 16]],
    ea: __m128i,
    eb: __m128i,
    x: __m128i,
) -> __m128i {
    // SAFETY: `k.rk` has room for 15 round keys; features per the caller.
    unsafe {
        if kgk.len() == 11 {
            k.rounds = 10;
            expand128_from(ea, x, k.rk.as_mut_ptr())
        } else {
            k.rounds = 14;
            expand256_from(ea, eb, x, k.rk.as_mut_ptr())
        }
    }
}

/// The counter block from a tag: its top bit set.
///
/// # Safety
/// SSE2 is enabled.
#[inline(always)]
unsafe fn counter0(tag: __m128i) -> __m128i {
    // SAFETY: SSE2 per the caller.
    unsafe { _mm_or_si128(tag, _mm_set_epi32(i32::MIN, 0, 0, 0)) }
}

/// [`seal_short`] on the CPU's instructions.
///
/// # Safety
/// AES-NI, PCLMULQDQ, SSSE3 and SSE4.1 are present; `kgk` has 11 or 15
/// round keys.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
unsafe fn seal_short_ni(
    kgk: &[[u8; 16]],
    width: Width,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    // SAFETY: features per the caller; the stores write the 16-byte arrays.
    unsafe {
        let (auth, ea, eb) = derive(kgk, nonce);
        let s = tag_input(auth, nonce, aad, buf);
        let mut k = RoundKeys {
            rk: [[0u8; 16]; 15],
            rounds: 0,
        };
        let t = expand_with(&mut k, kgk, ea, eb, s);
        let mut tag = [0u8; 16];
        _mm_storeu_si128(tag.as_mut_ptr().cast(), t);
        if buf.len() <= 64 {
            k.ctr_xor_upto4(counter0(t), buf);
        } else {
            let mut ctr0 = [0u8; 16];
            _mm_storeu_si128(ctr0.as_mut_ptr().cast(), counter0(t));
            k.ctr_xor(Some(width), &ctr0, buf);
        }
        tag
    }
}

/// [`open_short`] on the CPU's instructions.
///
/// # Safety
/// As [`seal_short_ni`].
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
unsafe fn open_short_ni(
    kgk: &[[u8; 16]],
    width: Width,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8; 16],
) -> bool {
    // SAFETY: features per the caller; the first block's load and store
    // cover the buffer's first min(16, len) bytes; the others the 16-byte
    // arrays.
    unsafe {
        let (auth, ea, eb) = derive(kgk, nonce);
        let mut k = RoundKeys {
            rk: [[0u8; 16]; 15],
            rounds: 0,
        };
        let c0 = counter0(_mm_loadu_si128(tag.as_ptr().cast()));
        // The first block's keystream comes with the schedule; up to four
        // more blocks in registers; a longer text from the first counter
        // block on through the widest counter kernel.
        let ks = expand_with(&mut k, kgk, ea, eb, c0);
        if buf.len() <= 16 + 64 {
            let first = buf.len().min(16);
            let p = buf.as_mut_ptr();
            let d = <__m128i as Lanes>::load_partial(p, first);
            <__m128i as Lanes>::store_partial(p, first, _mm_xor_si128(d, ks));
            if buf.len() > 16 {
                let c1 = _mm_add_epi32(c0, _mm_set_epi32(0, 0, 0, 1));
                k.ctr_xor_upto4(c1, &mut buf[16..]);
            }
        } else {
            let mut ctr0 = [0u8; 16];
            _mm_storeu_si128(ctr0.as_mut_ptr().cast(), c0);
            k.ctr_xor(Some(width), &ctr0, buf);
        }
        let mut want = [0u8; 16];
        _mm_storeu_si128(want.as_mut_ptr().cast(), tag_input(auth, nonce, aad, buf));
        k.encrypt_block_ni(&mut want);
        let ok = crate::ct::eq(&want, tag);
        crate::ct::wipe_now(&mut want);
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Aes, AesBackend, BlockCipher128};

    /// The schedule against the library's AES (FIPS-197 tested), and both
    /// counter kernels against counter blocks built one at a time, across
    /// the 2^32 wrap and every tail length.
    #[test]
    fn schedule_and_counter_kernels_match_the_reference() {
        if !crate::detect::test_can_run(crate::detect::has_aesni(), "AES-NI") {
            return;
        }
        for key_len in [16usize, 32] {
            for seed in 0..20u8 {
                let key: Vec<u8> = (0..key_len as u8)
                    .map(|i| i.wrapping_mul(37) ^ seed)
                    .collect();
                let rk = RoundKeys::new(&key).unwrap();
                let aes = Aes::with_backend(&key, AesBackend::Portable).unwrap();
                let mut a = [seed; 16];
                let mut b = a;
                rk.encrypt_block(&mut a);
                aes.encrypt_block(&mut b);
                assert_eq!(a, b, "{key_len} {seed}");
            }
            let key = vec![0x5cu8; key_len];
            let rk = RoundKeys::new(&key).unwrap();
            let aes = Aes::with_backend(&key, AesBackend::Portable).unwrap();
            for low in [0xffff_ffffu32, 0xffff_fff3, 0xffff_ff00, 0] {
                let mut ctr0 = [0xa7u8; 16];
                ctr0[..4].copy_from_slice(&low.to_le_bytes());
                for len in [
                    0usize, 1, 15, 16, 17, 31, 32, 33, 48, 127, 128, 129, 224, 240, 255, 256, 257,
                    272, 287, 1000, 4111,
                ] {
                    let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
                    let mut want = data.clone();
                    for (i, c) in want.chunks_mut(16).enumerate() {
                        let mut b = ctr0;
                        b[..4].copy_from_slice(&low.wrapping_add(i as u32).to_le_bytes());
                        aes.encrypt_block(&mut b);
                        for (d, k) in c.iter_mut().zip(b) {
                            *d ^= k;
                        }
                    }
                    let mut x = data.clone();
                    // SAFETY: AES-NI was detected above.
                    unsafe { rk.ctr_xor_xmm(&ctr0, &mut x) };
                    assert_eq!(x, want, "xmm {key_len} {low:x} {len}");
                    if crate::detect::has_vaes_avx512() {
                        let mut z = data.clone();
                        // SAFETY: the features were just detected.
                        unsafe { rk.ctr_xor_zmm(&ctr0, &mut z) };
                        assert_eq!(z, want, "zmm {key_len} {low:x} {len}");
                    }
                    if crate::detect::has_vaes_avx2() {
                        let mut z = data.clone();
                        // SAFETY: the features were just detected.
                        unsafe { rk.ctr_xor_ymm(&ctr0, &mut z) };
                        assert_eq!(z, want, "ymm {key_len} {low:x} {len}");
                    }
                    // Through the dispatch, at each width a backend here has.
                    let widths = crate::GhashBackend::available().into_iter().map(Width::of);
                    for w in widths.chain([None]) {
                        let mut y = data.clone();
                        rk.ctr_xor(w, &ctr0, &mut y);
                        assert_eq!(y, want, "{:?} {key_len} {low:x} {len}", w.map(Width::bits));
                    }
                }
            }
        }
    }
}
