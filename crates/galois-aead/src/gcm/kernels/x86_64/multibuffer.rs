//! Multi-buffer sealing of many short packets with 12-byte nonces: AES
//! runs on full batches of counter blocks gathered across packets, so a
//! 44-byte packet no longer waits on the latency of ten AES rounds alone;
//! each packet's GHASH (AAD, ciphertext and lengths) is then one aggregated
//! reduction with the field layer's powers (`gf128::wide`; the reduction
//! is derived in the `gf128` module doc), and the packets' independent
//! GHASH chains overlap in the out-of-order core.

use super::aes_lanes::{AesLanes, RoundKeys};
use super::stitched::absorb_last;
use super::tuning::BATCH_VECTORS;
use crate::gcm::BatchPacket;
use crate::gf128::wide::{block_to_u128, ghash_padded, Lanes, Powers};
use zeroize::Zeroize;

/// Counter blocks staged for one AES batch at the widest vector (L = 4).
const STAGE: usize = BATCH_VECTORS * 4;

/// Encrypts BATCH_VECTORS vectors of blocks in place (any counters),
/// interleaved.
///
/// # Safety
/// V's features are enabled (L <= 4, so the vectors fit the stage).
#[inline(always)]
unsafe fn encrypt_staged<V: AesLanes, const NR: usize>(
    rk: &RoundKeys<V>,
    blocks: &mut [[u8; 16]; STAGE],
) {
    let p = blocks.as_mut_ptr().cast::<u8>();
    // SAFETY: BATCH_VECTORS vectors of 16 L bytes fit the 16 STAGE bytes;
    // features per the caller.
    unsafe {
        let mut s = [V::zero(); BATCH_VECTORS];
        for (j, v) in s.iter_mut().enumerate() {
            *v = V::xor(V::load(p.add(16 * V::L * j)), rk.k(0));
        }
        for r in 1..NR {
            let k = rk.k(r);
            for v in s.iter_mut() {
                *v = V::aesenc(*v, k);
            }
        }
        let k = rk.k(NR);
        for (j, v) in s.iter().enumerate() {
            V::store(p.add(16 * V::L * j), V::aesenclast(*v, k));
        }
    }
}

/// Encrypts the staged counter blocks and applies each to its packet (or
/// keeps it as the packet's E(K, Y0)).
///
/// # Safety
/// V's features are enabled; `dest`'s first n entries name packets and
/// block offsets within their data (or usize::MAX for E(K, Y0)).
#[inline(always)]
unsafe fn flush<V: AesLanes, const NR: usize>(
    rk: &RoundKeys<V>,
    stage: &mut [[u8; 16]; STAGE],
    dest: &[(usize, usize); STAGE],
    n: usize,
    packets: &mut [BatchPacket<'_>],
    ek: &mut [u128],
) {
    // SAFETY: features per the caller; each access below is within one
    // packet's data: a whole block where 16 bytes remain, else exactly the
    // remaining bytes.
    unsafe {
        encrypt_staged::<V, NR>(rk, stage);
        for (b, &(pi, off)) in stage.iter().zip(dest.iter()).take(n) {
            if off == usize::MAX {
                ek[pi] = u128::from_be_bytes(*b);
            } else {
                let d = &mut packets[pi].data[off..];
                let k = V::Block::load(b.as_ptr());
                if d.len() >= 16 {
                    let x = V::Block::xor(V::Block::load(d.as_ptr()), k);
                    V::Block::store(d.as_mut_ptr(), x);
                } else {
                    let m = d.len();
                    let x = V::Block::xor(V::Block::load_partial(d.as_ptr(), m), k);
                    V::Block::store_partial(d.as_mut_ptr(), m, x);
                }
            }
        }
    }
}

/// Seals `packets` in place and returns each packet's full tag in `tags`
/// (same length).
///
/// # Safety
/// V's features (AES included) are enabled; `tags` is as long as `packets`.
#[inline(always)]
pub(crate) unsafe fn seal_batch<V: AesLanes, const NR: usize>(
    pw: &Powers,
    rk: &[[u8; 16]],
    packets: &mut [BatchPacket<'_>],
    tags: &mut [u128],
) {
    let rk = RoundKeys::<V>::new::<NR>(rk);
    let cap = BATCH_VECTORS * V::L;
    let mut stage = [[0u8; 16]; STAGE];
    // Where each staged block goes: (packet, byte offset) or usize::MAX
    // as offset for E(K, Y0).
    let mut dest = [(0usize, 0usize); STAGE];
    // E(K, Y0) of each packet is kept in `tags` until its GHASH is added.
    let ek = tags;
    let mut n = 0;
    // SAFETY: features per the caller; `dest` names only blocks inside the
    // packets (block j >= 1 at offset 16 (j-1) < data length).
    unsafe {
        for pi in 0..packets.len() {
            let blocks = packets[pi].data.len().div_ceil(16);
            for j in 0..=blocks {
                // Block 0 is Y0 (for the tag), block j >= 1 is Y0 + j.
                let mut c = [0u8; 16];
                c[..12].copy_from_slice(&packets[pi].nonce);
                c[12..].copy_from_slice(&(1 + j as u32).to_be_bytes());
                stage[n] = c;
                dest[n] = (pi, if j == 0 { usize::MAX } else { 16 * (j - 1) });
                n += 1;
                if n == cap {
                    flush::<V, NR>(&rk, &mut stage, &dest, n, packets, ek);
                    n = 0;
                }
            }
        }
        if n > 0 {
            flush::<V, NR>(&rk, &mut stage, &dest, n, packets, ek);
        }
        for (p, t) in packets.iter().zip(ek.iter_mut()) {
            let y = ghash_padded::<V>(pw, V::Block::zero(), p.aad);
            let y = absorb_last::<V>(pw, y, p.data, p.aad.len(), p.data.len());
            *t ^= block_to_u128(y);
        }
    }
    stage.zeroize();
}
