//! Stitched AES-GCM for aarch64: AES-CTR with `AESE`/`AESMC` on eight
//! blocks, round by round, with the PMULL products of eight blocks of
//! ciphertext placed between the rounds, for the `pmull` and `pmull_eor3`
//! GHASH keys with the `armv8` AES key schedule.
//!
//! It lives beside the x86 kernels but does not use their `Lanes`/
//! `AesLanes` template: that template is written for the `gf128::wide`
//! field code (powers premultiplied by x^-1, reduction per 4 KiB group),
//! while this kernel reuses the PMULL field code of `gf128::pmull`
//! (twisted powers, Montgomery reduction per batch, its macros exported for
//! this file). The structure is that of the x86 stitched kernels: sealing hashes the
//! previous batch's ciphertext while it encrypts the next batch's counters
//! (its own ciphertext is not ready yet); opening hashes the batch it
//! decrypts, read before it is overwritten. The GHASH arithmetic is the
//! 8-block aggregated Karatsuba of `gf128/pmull.rs` (one reduction per
//! batch); after round 2k+1 (k = 0..3) one pair of blocks is multiplied in,
//! the reduction follows the last round. The AES chain (eight independent
//! blocks, `AESE`+`AESMC` fused on most cores) and the GHASH chain share
//! no data, so the core overlaps the AES and PMULL pipes.
//!
//! Counters are Y0 with the low 32 bits counting modulo 2^32 (GCM's inc32);
//! no branch depends on them or on any secret. Lengths below one batch,
//! and the tail, go through a zero-padded 128-byte stack block (wiped).
//! AES-128/192/256 are three instantiations (NR = 10, 12, 14); the GCM
//! layer computes Y0 for every IV length and passes it in.
//!
//! Soundness: the functions enable `neon,aes` (and `sha3` for EOR3).
//! [`super::Kernel`] calls them only for a `pmull` (`pmull_eor3`) GHASH key,
//! which exists only where PMULL (and SHA3) were detected, and with an
//! [`AesRoundKeys`], which on aarch64 only `aes::armv8::Armv8::new` builds,
//! after it detected FEAT_AES.

use crate::block::round_keys::AesRoundKeys;
use crate::gf128::pmull::{
    absorb8, absorb_eor3, absorb_neon, block_products, pair, reduce, xor3, Powers, K, N, REV,
};
use core::arch::aarch64::*;
use zeroize::Zeroize;

/// Bytes per batch.
const BATCH: usize = 16 * N;

/// One full AES round (`AESE` with round key `r`, then `AESMC`) on the
/// eight states.
macro_rules! round8 {
    ($s:ident, $k:ident, $r:expr) => {{
        let k = $k[$r];
        $s[0] = vaesmcq_u8(vaeseq_u8($s[0], k));
        $s[1] = vaesmcq_u8(vaeseq_u8($s[1], k));
        $s[2] = vaesmcq_u8(vaeseq_u8($s[2], k));
        $s[3] = vaesmcq_u8(vaeseq_u8($s[3], k));
        $s[4] = vaesmcq_u8(vaeseq_u8($s[4], k));
        $s[5] = vaesmcq_u8(vaeseq_u8($s[5], k));
        $s[6] = vaesmcq_u8(vaeseq_u8($s[6], k));
        $s[7] = vaesmcq_u8(vaeseq_u8($s[7], k));
    }};
}

/// The first pair of a batch (blocks `$i`, `$i + 1`): its products start
/// the sums (no XOR with zero, which `EOR3` would not fold away).
macro_rules! pair_init {
    ($pw:expr, $yv:expr, $blocks:expr, $rev:expr, $i:expr, $lo:ident, $hi:ident, $mid:ident) => {{
        let (l0, h0, m0) = block_products!($pw, $yv, $blocks, N, $rev, $i);
        let (l1, h1, m1) = block_products!($pw, $yv, $blocks, N, $rev, $i + 1);
        $lo = veorq_u8(l0, l1);
        $hi = veorq_u8(h0, h1);
        $mid = veorq_u8(m0, m1);
    }};
}

/// The keystream of eight counter blocks `$s` under NR rounds; if
/// `$hash` is `Some(p)`, the eight blocks at `p` are absorbed into `$yv`
/// between the rounds (one reduction). Evaluates to the keystream.
macro_rules! stitched8 {
    ($pw:expr, $k:ident, $nr:expr, $s:ident, $yv:ident, $hash:expr, $rev:expr, $xor3:path) => {{
        let nr: usize = $nr;
        let hash: Option<*const u8> = $hash;
        let zero = vdupq_n_u8(0);
        let (mut lo, mut hi, mut mid) = (zero, zero, zero);
        let hp = hash.unwrap_or(core::ptr::null());
        // Rounds 0..nr-2 are full; the pairs go after rounds 1, 3, 5, 7
        // (every AES variant has at least nine full rounds).
        round8!($s, $k, 0);
        round8!($s, $k, 1);
        if hash.is_some() {
            pair_init!($pw, $yv, hp, $rev, 2, lo, hi, mid);
        }
        round8!($s, $k, 2);
        round8!($s, $k, 3);
        if hash.is_some() {
            pair!($pw, $yv, hp, N, $rev, 4, $xor3, lo, hi, mid);
        }
        round8!($s, $k, 4);
        round8!($s, $k, 5);
        if hash.is_some() {
            pair!($pw, $yv, hp, N, $rev, 6, $xor3, lo, hi, mid);
        }
        round8!($s, $k, 6);
        round8!($s, $k, 7);
        if hash.is_some() {
            // The pair holding the accumulator last, as in absorb8.
            pair!($pw, $yv, hp, N, $rev, 0, $xor3, lo, hi, mid);
        }
        round8!($s, $k, 8);
        if nr > 10 {
            round8!($s, $k, 9);
            round8!($s, $k, 10);
        }
        if nr > 12 {
            round8!($s, $k, 11);
            round8!($s, $k, 12);
        }
        if hash.is_some() {
            $yv = reduce!(lo, hi, mid, $xor3);
        }
        let (kp, kl) = ($k[nr - 1], $k[nr]);
        [
            veorq_u8(vaeseq_u8($s[0], kp), kl),
            veorq_u8(vaeseq_u8($s[1], kp), kl),
            veorq_u8(vaeseq_u8($s[2], kp), kl),
            veorq_u8(vaeseq_u8($s[3], kp), kl),
            veorq_u8(vaeseq_u8($s[4], kp), kl),
            veorq_u8(vaeseq_u8($s[5], kp), kl),
            veorq_u8(vaeseq_u8($s[6], kp), kl),
            veorq_u8(vaeseq_u8($s[7], kp), kl),
        ]
    }};
}

/// Y0 in a 16-byte aligned local, read once per counter block.
#[repr(C, align(16))]
struct Y0Block([u8; 16]);

/// Counter blocks `first .. first + 8` (inc32 of Y0). Each block is Y0
/// loaded afresh from `$y0` (a [`Y0Block`]) with its counter word
/// inserted. The volatile load keeps LLVM from hoisting Y0 into a register
/// and copying it per block: the copy is a vector-pipe µop, the load a
/// load-pipe one, and the loop is bound by the vector pipes (docs/speed.md,
/// aarch64). Building the words with vector adds instead measured worse
/// (register pressure: LLVM added moves).
macro_rules! counters {
    ($y0:expr, $base:expr, $first:expr) => {{
        let y0: &Y0Block = $y0;
        let c = |i: u32| {
            let v = ($base as u32)
                .wrapping_add($first)
                .wrapping_add(i)
                .swap_bytes();
            // (In the callers' `unsafe`: `y0` is a live, 16-byte aligned
            // 16-byte local.)
            let t: uint32x4_t = core::ptr::read_volatile((y0 as *const Y0Block).cast());
            vreinterpretq_u8_u32(vsetq_lane_u32::<3>(v, t))
        };
        [c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7)]
    }};
}

/// `dst[j] = src[j] ^ ks[j]` for the eight blocks of a batch; every load
/// before the first store (in place, src == dst).
macro_rules! xor_batch {
    ($src:expr, $dst:expr, $ks:expr) => {{
        let (sp, dp): (*const u8, *mut u8) = ($src, $dst);
        let ks = $ks;
        let m = [
            vld1q_u8(sp),
            vld1q_u8(sp.add(16)),
            vld1q_u8(sp.add(32)),
            vld1q_u8(sp.add(48)),
            vld1q_u8(sp.add(64)),
            vld1q_u8(sp.add(80)),
            vld1q_u8(sp.add(96)),
            vld1q_u8(sp.add(112)),
        ];
        for j in 0..8 {
            vst1q_u8(dp.add(16 * j), veorq_u8(m[j], ks[j]));
        }
    }};
}

macro_rules! gcm_fns {
    ($(#[$attr:meta])* $m:ident, $absorb:ident, $xor3:path) => {
    mod $m {
        use super::*;

        /// `y` with the zero-padded `data` absorbed.
        ///
        /// # Safety
        ///
        /// The CPU must have the enabled features.
        $(#[$attr])*
        unsafe fn ghash_padded(pw: &Powers, y: u128, data: &[u8]) -> u128 {
            let whole = data.len() & !15;
            // SAFETY: the features (# Safety); whole blocks of `data` and
            // a 16-byte local.
            unsafe {
                let mut y = if whole > 0 { $absorb(pw, y, &data[..whole]) } else { y };
                if whole < data.len() {
                    let mut b = [0u8; 16];
                    b[..data.len() - whole].copy_from_slice(&data[whole..]);
                    y = $absorb(pw, y, &b);
                    b.zeroize();
                }
                y
            }
        }

        /// The length block absorbed into `y`, then xor E(K, Y0).
        ///
        /// # Safety
        ///
        /// The CPU must have the enabled features; `k` holds nr + 1 keys.
        $(#[$attr])*
        unsafe fn tag_of(
            pw: &Powers,
            y: u128,
            y0: &[u8; 16],
            k: &[uint8x16_t; 15],
            nr: usize,
            aad_len: usize,
            ct_len: usize,
        ) -> u128 {
            let lens = ((aad_len as u128 * 8) << 64) | (ct_len as u128 * 8);
            // SAFETY: the features (# Safety); `y0`, `ek` and the length
            // block are 16-byte locals.
            unsafe {
                let y = $absorb(pw, y, &lens.to_be_bytes());
                let mut s = vld1q_u8(y0.as_ptr());
                for kr in &k[..nr - 1] {
                    s = vaesmcq_u8(vaeseq_u8(s, *kr));
                }
                s = veorq_u8(vaeseq_u8(s, k[nr - 1]), k[nr]);
                let mut ek = [0u8; 16];
                vst1q_u8(ek.as_mut_ptr(), s);
                let t = y ^ u128::from_be_bytes(ek);
                ek.zeroize();
                t
            }
        }
        /// GHASH(H, A, C) xor E(K, Y0) for `len` bytes of plaintext at
        /// `src` encrypted to `dst` (the same pointer in place).
        ///
        /// # Safety
        ///
        /// The CPU must have the enabled features (a key of this module
        /// and an `AesRoundKeys` prove them); `rk` has NR + 1 keys; `src`
        /// is readable and `dst` writable for `len` bytes, and they are
        /// equal or do not overlap.
        $(#[$attr])*
        #[allow(unused_assignments)] // the accumulator of hash-free batches
        pub(super) unsafe fn seal<const NR: usize>(
            pw: &Powers,
            rk: &[[u8; 16]],
            y0: &[u8; 16],
            aad: &[u8],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) -> u128 {
            // SAFETY: the caller's contract (# Safety): features, key
            // count, and the extent of src/dst; every access below stays
            // within `len` bytes of them or in locals.
            unsafe {
                assert_eq!(rk.len(), NR + 1);
                let rev = vld1q_u8(REV.as_ptr());
                let mut k = [vdupq_n_u8(0); 15];
                for i in 0..=NR {
                    k[i] = vld1q_u8(rk[i].as_ptr());
                }
                let mut y = ghash_padded(pw, 0, aad);
                let ctr0 = Y0Block(*y0);
                let base = u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]);
                let full = len / BATCH;
                let mut yv = vld1q_u8((&y as *const u128).cast());
                if full > 0 {
                    let mut s = counters!(&ctr0, base, 1u32);
                    let ks = stitched8!(pw, k, NR, s, yv, None, rev, $xor3);
                    xor_batch!(src, dst, ks);
                    for b in 1..full {
                        let mut s = counters!(&ctr0, base, 1 + 8 * b as u32);
                        let prev = dst.add(BATCH * (b - 1)) as *const u8;
                        let ks = stitched8!(pw, k, NR, s, yv, Some(prev), rev, $xor3);
                        xor_batch!(src.add(BATCH * b), dst.add(BATCH * b), ks);
                    }
                    yv = absorb8!(pw, yv, dst.add(BATCH * (full - 1)) as *const u8, rev, $xor3);
                }
                vst1q_u8((&mut y as *mut u128).cast(), yv);
                let rest = len - BATCH * full;
                if rest > 0 {
                    let mut t = [0u8; BATCH];
                    core::ptr::copy_nonoverlapping(src.add(BATCH * full), t.as_mut_ptr(), rest);
                    let mut s = counters!(&ctr0, base, 1 + 8 * full as u32);
                    let ks = stitched8!(pw, k, NR, s, yv, None, rev, $xor3);
                    xor_batch!(t.as_ptr(), t.as_mut_ptr(), ks);
                    // GHASH pads the last block with zeros.
                    t[rest..].fill(0);
                    core::ptr::copy_nonoverlapping(t.as_ptr(), dst.add(BATCH * full), rest);
                    y = $absorb(pw, y, &t[..rest.div_ceil(16) * 16]);
                    t.zeroize();
                }
                let tag = tag_of(pw, y, y0, &k, NR, aad.len(), len);
                // The round keys may have been spilled to this frame.
                core::ptr::write_volatile(&mut k, [vdupq_n_u8(0); 15]);
                tag
            }
        }

        /// The expected tag GHASH(H, A, C) xor E(K, Y0) for `len` bytes of
        /// ciphertext at `src`, decrypted to `dst` (the same pointer in
        /// place); each batch is hashed before it is overwritten.
        ///
        /// # Safety
        ///
        /// As for the seal twin.
        $(#[$attr])*
        #[allow(unused_assignments)] // the accumulator of hash-free batches
        pub(super) unsafe fn open<const NR: usize>(
            pw: &Powers,
            rk: &[[u8; 16]],
            y0: &[u8; 16],
            aad: &[u8],
            src: *const u8,
            dst: *mut u8,
            len: usize,
        ) -> u128 {
            // SAFETY: as in the seal twin.
            unsafe {
                assert_eq!(rk.len(), NR + 1);
                let rev = vld1q_u8(REV.as_ptr());
                let mut k = [vdupq_n_u8(0); 15];
                for i in 0..=NR {
                    k[i] = vld1q_u8(rk[i].as_ptr());
                }
                let mut y = ghash_padded(pw, 0, aad);
                let ctr0 = Y0Block(*y0);
                let base = u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]);
                let full = len / BATCH;
                let mut yv = vld1q_u8((&y as *const u128).cast());
                for b in 0..full {
                    let mut s = counters!(&ctr0, base, 1 + 8 * b as u32);
                    let cur = src.add(BATCH * b);
                    let ks = stitched8!(pw, k, NR, s, yv, Some(cur), rev, $xor3);
                    xor_batch!(cur, dst.add(BATCH * b), ks);
                }
                vst1q_u8((&mut y as *mut u128).cast(), yv);
                let rest = len - BATCH * full;
                if rest > 0 {
                    let mut t = [0u8; BATCH];
                    core::ptr::copy_nonoverlapping(src.add(BATCH * full), t.as_mut_ptr(), rest);
                    y = $absorb(pw, y, &t[..rest.div_ceil(16) * 16]);
                    let mut s = counters!(&ctr0, base, 1 + 8 * full as u32);
                    let ks = stitched8!(pw, k, NR, s, yv, None, rev, $xor3);
                    xor_batch!(t.as_ptr(), t.as_mut_ptr(), ks);
                    core::ptr::copy_nonoverlapping(t.as_ptr(), dst.add(BATCH * full), rest);
                    t.zeroize();
                }
                let tag = tag_of(pw, y, y0, &k, NR, aad.len(), len);
                // The round keys may have been spilled to this frame.
                core::ptr::write_volatile(&mut k, [vdupq_n_u8(0); 15]);
                tag
            }
        }
    }
    };
}

gcm_fns!(
    #[target_feature(enable = "neon,aes")]
    neon,
    absorb_neon,
    xor3
);
gcm_fns!(
    #[target_feature(enable = "neon,aes,sha3")]
    eor3,
    absorb_eor3,
    veor3q_u8
);

/// Checks the lengths, takes the pointers, and runs `f` for the key size.
macro_rules! dispatch {
    ($m:ident, $f:ident, $pw:expr, $rk:expr, $y0:expr, $aad:expr, $src:expr, $buf:expr) => {{
        let (src, buf): (Option<&[u8]>, &mut [u8]) = ($src, $buf);
        assert!(
            src.is_none_or(|s| s.len() == buf.len()),
            "src and buf differ in length"
        );
        let len = buf.len();
        // Both pointers from one: `buf` is not touched again.
        let dst = buf.as_mut_ptr();
        let sp = src.map_or(dst as *const u8, |s| s.as_ptr());
        // SAFETY: the caller proved PMULL (and SHA3 for the EOR3
        // functions); an AesRoundKeys exists only where FEAT_AES was
        // detected (aes::armv8); src and buf have `len` bytes and are the
        // same buffer or do not overlap (a shared and an exclusive borrow).
        unsafe {
            match $rk {
                AesRoundKeys::Aes128(k) => $m::$f::<10>($pw, k, $y0, $aad, sp, dst, len),
                AesRoundKeys::Aes192(k) => $m::$f::<12>($pw, k, $y0, $aad, sp, dst, len),
                AesRoundKeys::Aes256(k) => $m::$f::<14>($pw, k, $y0, $aad, sp, dst, len),
            }
        }
    }};
}

/// Seals with the plain NEON + PMULL kernel (`eor3` false) or the EOR3
/// one; the full tag. `src` (of `buf`'s length) into `buf`, or `buf` in
/// place.
///
/// # Safety
///
/// The CPU must have PMULL (and FEAT_SHA3 if `eor3`): a `pmull` (or
/// `pmull_eor3`) GHASH key proves it. FEAT_AES is proven by the
/// `AesRoundKeys` (only `aes::armv8` builds one on aarch64).
pub(crate) unsafe fn seal(
    pw: &Powers,
    eor3: bool,
    rk: &AesRoundKeys,
    y0: &[u8; 16],
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    if eor3 {
        dispatch!(eor3, seal, pw, rk, y0, aad, src, buf)
    } else {
        dispatch!(neon, seal, pw, rk, y0, aad, src, buf)
    }
}

/// Decrypts `src` into `buf` (or `buf` in place), hashing the ciphertext;
/// the expected full tag. The caller compares it and wipes `buf` on
/// mismatch.
///
/// # Safety
///
/// As for [`seal`].
pub(crate) unsafe fn open(
    pw: &Powers,
    eor3: bool,
    rk: &AesRoundKeys,
    y0: &[u8; 16],
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    if eor3 {
        dispatch!(eor3, open, pw, rk, y0, aad, src, buf)
    } else {
        dispatch!(neon, open, pw, rk, y0, aad, src, buf)
    }
}

/// Many packets (12-byte nonces) sealed in place one after another (no
/// cross-packet batching here), each full tag into `tags`.
///
/// # Safety
///
/// As for [`seal`].
pub(crate) unsafe fn seal_batch(
    pw: &Powers,
    eor3: bool,
    rk: &AesRoundKeys,
    packets: &mut [crate::gcm::BatchPacket<'_>],
    tags: &mut [u128],
) {
    for (p, t) in packets.iter_mut().zip(tags.iter_mut()) {
        let y0 = crate::gcm::y0_96(&p.nonce);
        // SAFETY: the caller's contract.
        *t = unsafe { seal(pw, eor3, rk, &y0, p.aad, None, p.data) };
    }
}
