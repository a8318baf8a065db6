//! The stitched AES-GCM loop: AES-CTR on BATCH_VECTORS vectors of counter
//! blocks runs round by round, and between rounds the GHASH of one vector
//! of ciphertext is multiplied in (Karatsuba against the powers of H of
//! `gf128::wide`, whose representation and reduction are described there
//! and derived in the `gf128` module doc). Encryption hashes the previous
//! batch's ciphertext (its own is not ready yet); decryption hashes the
//! batch it is decrypting. The two chains are independent, so the
//! out-of-order core overlaps AES and the carry-less multiplies. The
//! unreduced sums are carried across batches and reduced once per group
//! of as many blocks as the key has powers (`MAX_BATCH`, 4 KiB at every
//! width, with a full table).

use super::aes_lanes::{AesLanes, RoundKeys};
use super::counters::Ctr;
use super::tuning::{BATCH_ALIGN, BATCH_VECTORS, HEAD_MIN_BATCHES};
use crate::gcm::kernels::KernelMsg;
use crate::gf128::wide::{
    absorb_vector, block_to_u128, ghash, ghash_padded, u128_to_block, At, Lanes, Powers, Sums,
    MAX_BATCH,
};

/// Runs `$body` for `$r` = 1, 2, ... while below `$nr` (at most 13),
/// each copy with `$r` a constant.
macro_rules! unroll_rounds {
    ($r:ident, $nr:expr, $body:block) => {
        unroll_rounds!(@ $r, $nr, $body, 1 2 3 4 5 6 7 8 9 10 11 12 13)
    };
    (@ $r:ident, $nr:expr, $body:block, $($n:literal)*) => {
        $(
            if $n < $nr {
                let $r: usize = $n;
                $body
            }
        )*
    };
}

/// Where a batch's GHASH input sits in its reduction group: whole chunks
/// of BATCH_VECTORS vectors are hashed in order, and every
/// `filled / (BATCH_VECTORS L)` of them, as many as the key's powers allow
/// (at most `gf128::wide::MAX_BATCH` blocks; fewer for the last group), share one
/// reduction.
#[derive(Clone, Copy)]
pub(crate) struct HashStep {
    p: *const u8,
    /// Position in `Powers` of the power for the chunk's first block.
    base: At,
    /// First of its group: starts the sums and takes in y.
    first: bool,
    /// Last of its group: reduces the sums into y.
    last: bool,
    /// Blocks in the chunk: BATCH_VECTORS L, or fewer for a message's head
    /// chunk, whose powers are then shifted so it ends where a whole chunk
    /// would.
    blocks: usize,
    /// For a message's tail ([`HashStep::tail`]), its bytes: the last
    /// vector is loaded partially (zero past them), nothing read beyond.
    tail_bytes: Option<usize>,
}

impl HashStep {
    /// The step for chunk `c` (at p, `blocks` blocks) of `n` chunks hashed
    /// in order; only chunk 0 may be short.
    #[inline(always)]
    fn new<V: Lanes>(pw: &Powers, p: *const u8, c: usize, n: usize, blocks: usize) -> Self {
        let chunk = BATCH_VECTORS * V::L;
        // A full table's group size is a constant (a power of two: the
        // modulo below is a mask); only smaller tables divide.
        let per = if pw.is_full() {
            MAX_BATCH / chunk
        } else {
            pw.per(chunk)
        };
        let start = c - c % per;
        let size = per.min(n - start);
        let pos = c - start;
        HashStep {
            p,
            base: pw.at(chunk * (size - pos)) + (chunk - blocks),
            first: pos == 0,
            last: pos + 1 == size,
            blocks,
            tail_bytes: None,
        }
    }

    /// The step for an opening's tail of `len` bytes at p (as
    /// [`absorb_tail`] takes it, see [`tail_fits`]): a group of its own,
    /// taking in y, its powers from [`tail_base`]; the caller adds the
    /// length block as it reduces ([`finish_tail`]).
    #[inline(always)]
    fn tail(pw: &Powers, p: *const u8, len: usize) -> Self {
        let tb = len.div_ceil(16);
        HashStep {
            p,
            base: tail_base(pw, tb),
            first: true,
            last: false,
            blocks: tb,
            tail_bytes: Some(len),
        }
    }
}

/// One batch: AES-CTR keystream for `NV` (0..=BATCH_VECTORS) vectors, with
/// the GHASH of the vectors at `hash` (if any) multiplied in between the
/// rounds into `sums` (reduced into y at the end of a group), and E(K, Y0)
/// for `ek` (if any: Y0 in, E(K, Y0) out) in the same rounds. With `io`
/// (src, dst) the keystream is also XORed into src's NV vectors and stored
/// at dst. Returns the keystream (or output).
///
/// # Safety
/// V's features are enabled; `hash`'s pointer is valid for its blocks
/// (whole vectors: a head chunk's vectors may read past its blocks into
/// the next chunk; a tail step's for its `tail_bytes` only, which is all it
/// reads), `io`'s pointers for NV vectors each (`hash` uses only powers
/// the table has: see [`HashStep::new`] and [`tail_base`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn batch<V: AesLanes, const NR: usize, const NV: usize>(
    rk: &RoundKeys<V>,
    ctr: &mut Ctr<V>,
    pw: &Powers,
    hash: Option<HashStep>,
    sums: &mut Sums<V>,
    y: &mut V::Block,
    ek: Option<&mut V::Block>,
    io: Option<(*const u8, *mut u8)>,
) -> [V; BATCH_VECTORS] {
    let nv = NV;
    // SAFETY: per the caller's contract; the loads of `hash` and `io` stay
    // within the vectors it promises.
    unsafe {
        let mut s = [V::zero(); BATCH_VECTORS];
        ctr.take_n::<NV>(&mut s);
        let k0 = rk.k(0);
        for v in s[..nv].iter_mut() {
            *v = V::xor(*v, k0);
        }
        let mut e = ek.as_ref().map(|b| V::Block::xor(**b, rk.k1(0)));
        if hash.is_some_and(|h| h.first) {
            *sums = Sums::zero();
        }
        // Rounds 1..NR, unrolled (a `for` loop stays rolled around the fences).
        unroll_rounds!(r, NR, {
            let k = rk.k(r);
            for v in s[..nv].iter_mut() {
                *v = V::aesenc(*v, k);
            }
            if let Some(b) = e.as_mut() {
                *b = V::block_aesenc(*b, rk.k1(r));
            }
            if let Some(st) = hash {
                // Vector g is hashed in round 1 + g (NR-1) / BATCH_VECTORS:
                // spread evenly over the rounds (rounds 1..=8 for AES-128).
                let g = ((r - 1) * BATCH_VECTORS).div_ceil(NR - 1);
                // Blocks of this chunk in vector g (L but in a head chunk).
                let nb = st.blocks.saturating_sub(V::L * g).min(V::L);
                if g < BATCH_VECTORS && 1 + g * (NR - 1) / BATCH_VECTORS == r && nb > 0 {
                    let at = 16 * V::L * g;
                    let mut x = match st.tail_bytes {
                        Some(n) => load_vector::<V>(st.p, at, n - at),
                        None => V::load(st.p.add(at)),
                    };
                    if nb < V::L && st.tail_bytes.is_none() {
                        // The lanes after a head chunk's end hold the next
                        // chunk, not yet processed.
                        x = V::keep(x, 16 * nb);
                    }
                    V::fence(&mut s, &mut x);
                    let mut x = V::bswap(x);
                    if g == 0 && st.first {
                        x = V::xor(x, V::low(*y));
                    }
                    let (h, hk) = pw.h::<V>(st.base + V::L * g);
                    sums.mul_add(x, h, hk);
                }
            }
        });
        let k = rk.k(NR);
        if let Some((src, dst)) = io {
            // The input XORed into the last round key: AESENCLAST's own final
            // XOR then produces the output, which goes straight to memory (to
            // `dst`, which is `src` in place).
            for (j, v) in s[..nv].iter_mut().enumerate() {
                let at = 16 * V::L * j;
                *v = V::aesenclast(*v, V::xor(k, V::load(src.add(at))));
                V::store(dst.add(at), *v);
            }
        } else {
            for v in s[..nv].iter_mut() {
                *v = V::aesenclast(*v, k);
            }
        }
        if let (Some(out), Some(b)) = (ek, e) {
            *out = V::block_aesenclast(b, rk.k1(NR));
        }
        if hash.is_some_and(|h| h.last) {
            *y = sums.fold().reduce();
        }
        s
    }
}

/// The final batch: keystream for `nv` vectors (rounded up to 0, 1, 2, 4
/// or 8, so each count is straight-line code) and E(K, Y0).
///
/// # Safety
/// As [`batch`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn last_batch<V: AesLanes, const NR: usize>(
    rk: &RoundKeys<V>,
    ctr: &mut Ctr<V>,
    pw: &Powers,
    hash: Option<HashStep>,
    sums: &mut Sums<V>,
    y: &mut V::Block,
    nv: usize,
    ek: &mut V::Block,
) -> [V; BATCH_VECTORS] {
    const _: () = assert!(BATCH_VECTORS == 8, "last_batch's rounding assumes 8");
    // SAFETY: per the caller.
    unsafe {
        match nv {
            0 => batch::<V, NR, 0>(rk, ctr, pw, hash, sums, y, Some(ek), None),
            1 => batch::<V, NR, 1>(rk, ctr, pw, hash, sums, y, Some(ek), None),
            2 => batch::<V, NR, 2>(rk, ctr, pw, hash, sums, y, Some(ek), None),
            3 | 4 => batch::<V, NR, 4>(rk, ctr, pw, hash, sums, y, Some(ek), None),
            _ => batch::<V, NR, BATCH_VECTORS>(rk, ctr, pw, hash, sums, y, Some(ek), None),
        }
    }
}

/// XORs the keystream into the `len` bytes at `src` (under BATCH_VECTORS
/// vectors), stores them at `dst` (`src` in place; out of place nothing
/// is copied first, so no load waits on a copy's stores) and returns the
/// result as vectors, zero past its end, for callers that hash it from
/// registers (the others drop it, and the compiler with it).
///
/// # Safety
/// V's features are enabled; `src` is valid for reads and `dst` for
/// writes of `len` bytes, and they are the same or do not overlap.
#[inline(always)]
unsafe fn xor_keep<V: Lanes>(
    src: *const u8,
    dst: *mut u8,
    len: usize,
    ks: &[V; BATCH_VECTORS],
) -> [V; BATCH_VECTORS] {
    let vb = 16 * V::L;
    let whole = len / vb;
    // SAFETY: whole vectors and the partial one stay within the len bytes
    // of each; features per the caller.
    unsafe {
        let mut out = [V::zero(); BATCH_VECTORS];
        for (j, (k, o)) in ks.iter().zip(out.iter_mut()).enumerate().take(whole) {
            *o = xor_vector::<V>(src, dst, vb * j, vb, *k);
        }
        let rest = len - whole * vb;
        if rest > 0 {
            out[whole] = xor_vector::<V>(src, dst, vb * whole, rest, ks[whole]);
        }
        out
    }
}

/// The vector at `src + at`: a whole one if `rest` bytes reach that far,
/// else the `rest` bytes, zero past them.
///
/// # Safety
/// V's features are enabled; `src + at` is valid for reads of
/// min(rest, 16 L) bytes.
#[inline(always)]
unsafe fn load_vector<V: Lanes>(src: *const u8, at: usize, rest: usize) -> V {
    // SAFETY: per the caller.
    unsafe {
        if rest >= 16 * V::L {
            V::load(src.add(at))
        } else {
            V::load_partial(src.add(at), rest)
        }
    }
}

/// [`load_vector`] XORed with the keystream `k` and stored at `dst + at`
/// (as many bytes as were read); returns it, zero past its bytes.
///
/// # Safety
/// As [`load_vector`], and `dst + at` is valid for writes of as many bytes.
#[inline(always)]
unsafe fn xor_vector<V: Lanes>(src: *const u8, dst: *mut u8, at: usize, rest: usize, k: V) -> V {
    // SAFETY: per the caller.
    unsafe {
        let c = V::xor(load_vector::<V>(src, at, rest), k);
        if rest >= 16 * V::L {
            V::store(dst.add(at), c);
            c
        } else {
            let c = V::keep(c, rest);
            V::store_partial(dst.add(at), rest, c);
            c
        }
    }
}

/// Absorbs a message's last ciphertext (the `len` bytes at `src`, under
/// BATCH_VECTORS vectors) and the length block `lens` into y, from
/// registers, with one reduction: no copy of the tail to the stack and
/// back (through it a 1500-byte message's tail went three times, as
/// whole-vector stores that the loads then waited on). With `enc` (ks,
/// dst), the bytes at `src` are plaintext, encrypted here (XORed with the
/// keystream and stored at dst) before they are hashed. The caller checks
/// [`tail_fits`].
///
/// # Safety
/// V's features are enabled; `src` is valid for reads of `len` > 0 bytes
/// and dst for writes of as many (the same or not overlapping), and
/// [`tail_fits`].
#[inline(always)]
unsafe fn absorb_tail<V: Lanes>(
    pw: &Powers,
    y: V::Block,
    src: *const u8,
    len: usize,
    enc: Option<(&[V; BATCH_VECTORS], *mut u8)>,
    lens: V::Block,
) -> V::Block {
    let vb = 16 * V::L;
    // Block i of the tb + 1 (the tail's and the length block) takes
    // H^(tb + 1 - i): vector j's powers start at H^(tb + 1 - L j), and its
    // lanes past the tail meet H^1 (a zero lane: the length block is
    // multiplied on its own) and the zero padding after it; or, with no
    // power above H^tb, H^(tb - i), the length block apart (tail_base).
    let tb = len.div_ceil(16);
    // SAFETY: vector j (16 L j < len) lies within the len bytes at src
    // and at dst, whole or partial. tb <= filled (tail_fits), so every
    // vector of powers read starts at or after at(filled) and, as
    // tb - L j >= 1 for each vector holding tail blocks, ends within
    // the padding; features per the caller.
    unsafe {
        let base = tail_base(pw, tb);
        let mut s = Sums::<V>::zero();
        // A constant bound: each vector stays in a register.
        for j in 0..BATCH_VECTORS {
            if 16 * V::L * j >= len {
                break;
            }
            // Vector j, whole or partial (zero past the end).
            let (at, rest) = (vb * j, len - vb * j);
            let c = match enc {
                Some((ks, dst)) => xor_vector::<V>(src, dst, at, rest, ks[j]),
                None => load_vector::<V>(src, at, rest),
            };
            let mut x = V::bswap(c);
            if j == 0 {
                x = V::xor(x, V::low(y));
            }
            let (h, hk) = pw.h::<V>(base + V::L * j);
            s.mul_add(x, h, hk);
        }
        finish_tail(pw, tb, s, lens)
    }
}

/// Where a tail of `tb` blocks ([`tail_fits`]) starts in the powers: at
/// H^(tb + 1), leaving H^1 for the length block, or at H^tb where the table
/// ends there (a 32-block tail under a 32-power table), the length block
/// then absorbed after a reduction ([`finish_tail`]).
#[inline(always)]
fn tail_base(pw: &Powers, tb: usize) -> At {
    if tb < pw.filled() {
        pw.at(tb + 1)
    } else {
        pw.at(tb)
    }
}

/// The tail's sums (powers from [`tail_base`]) and the length block
/// `lens`, reduced into the final GHASH value: one reduction, or, where
/// the tail took H^1, two (the tail's, then (y ^ lens) H).
///
/// # Safety
/// V's features are enabled; 1 <= tb <= pw.filled().
#[inline(always)]
unsafe fn finish_tail<V: Lanes>(pw: &Powers, tb: usize, s: Sums<V>, lens: V::Block) -> V::Block {
    // SAFETY: H^1 is in every table; features per the caller.
    unsafe {
        let (h, hk) = pw.h::<V::Block>(pw.at(1));
        let mut one = Sums::<V::Block>::zero();
        if tb < pw.filled() {
            one.mul_add(lens, h, hk);
            s.fold().add(one).reduce()
        } else {
            let y = s.fold().reduce();
            one.mul_add(V::Block::xor(y, lens), h, hk);
            one.reduce()
        }
    }
}

/// Whether [`absorb_tail`] can take a tail of `len` bytes: some, under
/// BATCH_VECTORS vectors, and the table has a power for each of its
/// blocks (the length block's is H^1, or it comes after: [`tail_base`]).
/// (A message's AAD is always hashed first, on its own: hashing short
/// AAD with the tail from one stack copy cost 20-35 ns more than this.)
#[inline(always)]
fn tail_fits<V: Lanes>(pw: &Powers, len: usize) -> bool {
    (1..16 * BATCH_VECTORS * V::L).contains(&len) && len.div_ceil(16) <= pw.filled()
}

/// Encrypts the `len` bytes at `src` with the keystream `ks` into `dst`
/// and absorbs the last GHASH input (as [`absorb_final`]) into y, the
/// ciphertext hashed from the registers that produced it
/// ([`absorb_tail`]): a load of bytes a masked store has just written
/// waits for that store to retire (a one-block tail cost 17 ns that way).
///
/// # Safety
/// V's features are enabled; `len` is positive and under BATCH_VECTORS
/// vectors; `src` is valid for reads and `dst` for writes of `len` bytes,
/// and they are the same or do not overlap.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn seal_tail<V: Lanes>(
    pw: &Powers,
    y: V::Block,
    aad_len: usize,
    src: *const u8,
    dst: *mut u8,
    len: usize,
    ks: &[V; BATCH_VECTORS],
    ct_len: usize,
) -> V::Block {
    // SAFETY: per the caller; absorb_tail under tail_fits, else the
    // ciphertext read back from the len bytes just written at dst.
    unsafe {
        if tail_fits::<V>(pw, len) {
            let lens = len_block(aad_len, ct_len);
            return absorb_tail::<V>(pw, y, src, len, Some((ks, dst)), lens);
        }
        xor_keep::<V>(src, dst, len, ks);
        absorb_final::<V>(
            pw,
            y,
            aad_len,
            core::slice::from_raw_parts(dst, len),
            ct_len,
        )
    }
}

/// Absorbs the last GHASH input into y: the ciphertext's tail (after the
/// AAD and the whole batches were hashed) and the length block, from
/// registers. (A tail with more blocks than the table has powers, which no
/// table the library builds allows, is hashed in groups first.)
///
/// # Safety
/// V's features are enabled, and the tail is under BATCH_VECTORS vectors.
#[inline(always)]
pub(super) unsafe fn absorb_final<V: Lanes>(
    pw: &Powers,
    y: V::Block,
    aad_len: usize,
    tail: &[u8],
    ct_len: usize,
) -> V::Block {
    // SAFETY: absorb_tail under tail_fits (the tail is only read: no
    // keystream); ghash_padded reads the tail's bytes; H^1 is in every
    // table; features per the caller.
    unsafe {
        let lens = len_block(aad_len, ct_len);
        if tail_fits::<V>(pw, tail.len()) {
            return absorb_tail::<V>(pw, y, tail.as_ptr(), tail.len(), None, lens);
        }
        let y = ghash_padded::<V>(pw, y, tail);
        absorb_vector::<V::Block>(pw, y, lens, 1)
    }
}

/// Absorbs `data` (the last GHASH input before the length block: a MAC's
/// AAD, or a packet's ciphertext) and the length block into y: its whole
/// batches in groups, the rest with the length block ([`absorb_final`]).
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(super) unsafe fn absorb_last<V: Lanes>(
    pw: &Powers,
    y: V::Block,
    data: &[u8],
    aad_len: usize,
    ct_len: usize,
) -> V::Block {
    let whole = data.len() / (16 * BATCH_VECTORS * V::L) * (16 * BATCH_VECTORS * V::L);
    // SAFETY: features per the caller; the rest is under one batch.
    unsafe {
        let y = ghash::<V>(pw, y, &data[..whole]);
        absorb_final::<V>(pw, y, aad_len, &data[whole..], ct_len)
    }
}

/// GHASH xor E(K, Y0) as an element (E(K, Y0) given as the AES output block).
///
/// # Safety
/// B's features are enabled.
#[inline(always)]
unsafe fn full_tag<B: Lanes>(y: B, ek: B) -> u128 {
    // SAFETY: per the caller.
    unsafe { block_to_u128(B::xor(y, B::bswap(ek))) }
}

/// How many whole blocks (0..BATCH_VECTORS L) the message's head chunk
/// takes, for messages of at least HEAD_MIN_BATCHES chunks. The head goes
/// through AES on its own (the first batch, which has nothing to hash yet)
/// and is hashed stitched into the next one, so the partial chunk costs
/// nothing extra there, while at the end it would be hashed alone after the
/// last keystream. It takes the whole blocks beyond a multiple of a chunk,
/// and one block fewer (leaving one at the end) where that is needed for
/// the chunks to start on a BATCH_ALIGN boundary. The address is public.
fn head_blocks<V: Lanes>(p: *const u8, len: usize) -> usize {
    let per = BATCH_VECTORS * V::L;
    let blocks = len / 16;
    if blocks < HEAD_MIN_BATCHES * per {
        return 0;
    }
    let h = blocks % per;
    if V::L == 1
        || !(p as usize).is_multiple_of(16)
        || (p as usize + 16 * h).is_multiple_of(BATCH_ALIGN)
    {
        h
    } else if h == 0 {
        per - 1
    } else {
        h - 1
    }
}

/// How a message splits: bytes per batch, whole batches, vectors in the
/// tail.
#[inline(always)]
fn plan<V: Lanes>(len: usize) -> (usize, usize, usize) {
    let bb = 16 * BATCH_VECTORS * V::L;
    let full = len / bb;
    let nv = (len - full * bb).div_ceil(16 * V::L);
    (bb, full, nv)
}

/// Where a seal of `src || buf[src.len()..]` (no `src`: `buf` in place)
/// into `buf`, laid out as a head of `head` bytes, `full` batches of `bb`
/// and a tail, starts reading in place: buf's length if `src` is whole,
/// else the start of the part holding src's end, which takes the rest of
/// `src` here by a copy (the parts before it are read from `src`, with
/// nothing copied first).
#[inline(always)]
fn read_from_src(src: Option<&[u8]>, buf: &mut [u8], head: usize, bb: usize, full: usize) -> usize {
    let split = src.map_or(0, <[u8]>::len);
    let body = head + full * bb;
    let from = if split >= buf.len() {
        buf.len()
    } else if split < head {
        0
    } else if split >= body {
        body
    } else {
        head + (split - head) / bb * bb
    };
    if let Some(s) = src {
        buf[from.min(split)..split].copy_from_slice(&s[from.min(split)..]);
    }
    from
}

/// The length block len(A) || len(C) in integer form.
///
/// # Safety
/// B's features are enabled.
#[inline(always)]
unsafe fn len_block<B: Lanes>(aad_len: usize, ct_len: usize) -> B {
    let v = ((aad_len as u128 * 8) << 64) | (ct_len as u128 * 8);
    // SAFETY: per the caller.
    unsafe { u128_to_block(v) }
}

/// Messages of at most L-1 blocks with no AAD: one vector of keystream
/// (and E(K, Y0) beside it), and the GHASH of the ciphertext lanes and the
/// length block in the next lane straight from registers, one reduction.
///
/// # Safety
/// V's features are enabled; `buf` is under L blocks.
#[inline(always)]
unsafe fn seal_tiny<V: AesLanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    buf: &mut [u8],
) -> u128 {
    let n = buf.len();
    let nb = n.div_ceil(16);
    // SAFETY: the partial load and store cover buf's n bytes; lane nb < L;
    // features per the caller.
    unsafe {
        let mut ctr = Ctr::<V>::new(y0, 1, y0_public);
        let mut ek = V::Block::load(y0.as_ptr());
        let mut y = V::Block::zero();
        let ks = batch::<V, NR, 1>(
            rk,
            &mut ctr,
            pw,
            None,
            &mut Sums::zero(),
            &mut y,
            Some(&mut ek),
            None,
        );
        let c = V::keep(V::xor(V::load_partial(buf.as_ptr(), n), ks[0]), n);
        V::store_partial(buf.as_mut_ptr(), n, c);
        let g = V::with_lane(V::bswap(c), nb, len_block(0, n));
        let y = absorb_vector::<V>(pw, y, g, nb + 1);
        full_tag(y, ek)
    }
}

/// GMAC, a message with no text: the AAD hashed alone and E(K, Y0) on
/// one block, with no batch, counters or broadcast round keys set up.
///
/// # Safety
/// V's features (AES included) are enabled.
#[inline(always)]
unsafe fn mac_only<V: AesLanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    aad: &[u8],
) -> u128 {
    // SAFETY: features per the caller; the length block is one block.
    unsafe {
        let mut e = V::Block::xor(V::Block::load(y0.as_ptr()), rk.k1(0));
        for r in 1..NR {
            e = V::block_aesenc(e, rk.k1(r));
        }
        let e = V::block_aesenclast(e, rk.k1(NR));
        // The AAD past its whole batches as a message's tail is: from
        // registers with the length block, in one reduction.
        let y = absorb_last::<V>(pw, V::Block::zero(), aad, aad.len(), 0);
        full_tag(y, e)
    }
}

/// The decrypting twin of [`seal_tiny`].
///
/// # Safety
/// As [`seal_tiny`].
#[inline(always)]
unsafe fn open_tiny<V: AesLanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    buf: &mut [u8],
) -> u128 {
    let n = buf.len();
    let nb = n.div_ceil(16);
    // SAFETY: as in seal_tiny.
    unsafe {
        let c = V::load_partial(buf.as_ptr(), n);
        let g = V::with_lane(V::bswap(c), nb, len_block(0, n));
        let mut y = absorb_vector::<V>(pw, V::Block::zero(), g, nb + 1);
        let mut ctr = Ctr::<V>::new(y0, 1, y0_public);
        let mut ek = V::Block::load(y0.as_ptr());
        let ks = batch::<V, NR, 1>(
            rk,
            &mut ctr,
            pw,
            None,
            &mut Sums::zero(),
            &mut y,
            Some(&mut ek),
            None,
        );
        V::store_partial(buf.as_mut_ptr(), n, V::xor(c, ks[0]));
        full_tag(y, ek)
    }
}

/// Seals (`OPEN` false) or opens `buf` (see [`seal`] and [`open`]):
/// returns the full tag GHASH(H, A, C) xor E(K, Y0), or the expected one,
/// as an element. NR: AES rounds. The short paths come first, the same for
/// both: GMAC (no text), the width's own loop ([`own_batches`]: at least
/// two whole batches to seal, one to open), and messages of under L blocks
/// with no AAD (`src` copied into `buf` first).
///
/// # Safety
/// V's features (AES included) are enabled, and `src`, if given, is no
/// longer than `buf` (sealing) or has `buf`'s length (opening).
#[inline(always)]
pub(crate) unsafe fn crypt<V: AesLanes, const NR: usize, const OPEN: bool>(
    pw: &Powers,
    rk: &[[u8; 16]],
    msg: KernelMsg<'_>,
) -> u128 {
    let KernelMsg {
        y0,
        y0_public,
        aad,
        src,
        buf,
    } = msg;
    let rk = &RoundKeys::<V>::new::<NR>(rk);
    // SAFETY: features and src per the caller; each path's own condition
    // (no text; enough batches and powers; buf under L blocks) is checked
    // before it is taken.
    unsafe {
        if buf.is_empty() && !aad.is_empty() {
            return mac_only::<V, NR>(pw, rk, y0, aad);
        }
        if own_batches::<V>(pw, buf.len(), if OPEN { 1 } else { 2 }) {
            return match OPEN {
                true => own::<V, NR, false>(pw, rk, y0, y0_public, aad, src, buf),
                false => own::<V, NR, true>(pw, rk, y0, y0_public, aad, src, buf),
            };
        }
        if aad.is_empty() && buf.len() <= 16 * (V::L - 1) {
            if let Some(s) = src {
                buf[..s.len()].copy_from_slice(s);
            }
            return match OPEN {
                true => open_tiny::<V, NR>(pw, rk, y0, y0_public, buf),
                false => seal_tiny::<V, NR>(pw, rk, y0, y0_public, buf),
            };
        }
        match OPEN {
            true => open::<V, NR>(pw, rk, y0, y0_public, aad, src, buf),
            false => seal::<V, NR>(pw, rk, y0, y0_public, aad, src, buf),
        }
    }
}

/// Encrypts the plaintext `src || buf[src.len()..]` (no `src`: `buf` in
/// place) into `buf` under counters Y0+1, Y0+2, ... and returns the full
/// tag GHASH(H, A, C) xor E(K, Y0) as an element. NR: AES rounds. Out of
/// place, every part is read from `src` and written to `buf` (nothing
/// copied first: a load of bytes a copy just stored waits for them); where
/// `src` is shorter than `buf`, the part (head, batch or tail) holding its
/// end takes `src`'s share by a copy, and it and the parts after it are
/// sealed in place.
///
/// # Safety
/// As [`crypt`], past its short paths.
#[inline(always)]
unsafe fn seal<V: AesLanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    let head = head_blocks::<V>(buf.as_ptr(), buf.len());
    let (bb, full, nv) = plan::<V>(buf.len() - 16 * head);
    let ct_len = buf.len();
    // Parts from offset `from` on are read in place.
    let body = 16 * head + full * bb;
    let from = read_from_src(src, buf, 16 * head, bb, full);
    // Chunks are hashed in order: the head chunk (if any), then the full ones.
    let (first, chunks) = (usize::from(head > 0), usize::from(head > 0) + full);
    // Every pointer below comes from this one, and `buf` is not touched
    // again: a reborrow of `buf` would invalidate the pointers the hash
    // steps still hold.
    let base = buf.as_mut_ptr();
    let input = src.map_or(base as *const u8, |s| s.as_ptr());
    // The plaintext of the part starting at `off`.
    let part_src = |off: usize| {
        if off < from {
            input.wrapping_add(off)
        } else {
            base.wrapping_add(off) as *const u8
        }
    };
    // SAFETY: features per the caller. Pointers: buf has ct_len bytes and
    // src at most that many, and they do not overlap (a shared and an
    // exclusive borrow); the head (16 head bytes), the full batches (bb
    // bytes each) and the tail partition buf, and every access below stays
    // in its part; a part is read from src only if it ends by `from`, so
    // within src's bytes. The hash steps read batches already written, and
    // a group uses no more powers than the table has (HashStep).
    unsafe {
        let mut y = ghash_padded::<V>(pw, V::Block::zero(), aad);
        let mut sums = Sums::zero();
        let mut prev = None;
        if head > 0 {
            let mut hctr = Ctr::<V>::new(y0, 1, y0_public);
            let ks = batch::<V, NR, BATCH_VECTORS>(
                rk, &mut hctr, pw, None, &mut sums, &mut y, None, None,
            );
            // Hashed from the buffer in the next batch. (Hashing the returned
            // copy instead measured slower here, unlike for the tail.)
            xor_keep::<V>(part_src(0), base, 16 * head, &ks);
            prev = Some(HashStep::new::<V>(pw, base, 0, chunks, head));
        }
        let mut ctr = Ctr::<V>::new(y0, 1 + head as u32, y0_public);
        let p = base.add(16 * head);
        // Batch i hashes batch i - 1 (the head's chunk, or nothing, for
        // batch 0). From batch 1 on the step is built in the loop from
        // constants, so its head and tail cases fold away (carried over
        // from the previous iteration, they were ~30 branches per batch).
        let step = |i: usize| {
            let chunk = p.add(i * bb);
            HashStep::new::<V>(pw, chunk, first + i, chunks, BATCH_VECTORS * V::L)
        };
        if full > 0 {
            batch::<V, NR, BATCH_VECTORS>(
                rk,
                &mut ctr,
                pw,
                prev,
                &mut sums,
                &mut y,
                None,
                Some((part_src(16 * head), p)),
            );
            prev = Some(step(0));
        }
        for i in 1..full {
            batch::<V, NR, BATCH_VECTORS>(
                rk,
                &mut ctr,
                pw,
                Some(step(i - 1)),
                &mut sums,
                &mut y,
                None,
                Some((part_src(16 * head + i * bb), p.add(i * bb))),
            );
            prev = Some(step(i));
        }
        let tail = (part_src(body), p.add(full * bb), ct_len - body);
        let lens = (aad.len(), ct_len);
        seal_end::<V, NR>(rk, &mut ctr, pw, prev, sums, y, y0, tail, nv, lens)
    }
}

/// The end of a seal: the tail's keystream (nv vectors) and E(K, Y0) in
/// the rounds that hash the last whole batch (`prev`), then the tail (src,
/// dst, len) encrypted and hashed with the length block (lens: AAD and
/// text bytes); returns the full tag.
///
/// # Safety
/// As [`batch`] and [`seal_tail`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn seal_end<V: AesLanes, const NR: usize>(
    rk: &RoundKeys<V>,
    ctr: &mut Ctr<V>,
    pw: &Powers,
    prev: Option<HashStep>,
    mut sums: Sums<V>,
    mut y: V::Block,
    y0: &[u8; 16],
    (ts, td, tail_len): (*const u8, *mut u8, usize),
    nv: usize,
    (aad_len, ct_len): (usize, usize),
) -> u128 {
    // SAFETY: per the caller.
    unsafe {
        let mut ek = V::Block::load(y0.as_ptr());
        let ks = last_batch::<V, NR>(rk, ctr, pw, prev, &mut sums, &mut y, nv, &mut ek);
        y = if tail_len == 0 {
            absorb_final::<V>(pw, y, aad_len, &[], ct_len)
        } else {
            seal_tail::<V>(pw, y, aad_len, ts, td, tail_len, &ks, ct_len)
        };
        full_tag(y, ek)
    }
}

/// Whether a message of `len` bytes goes through the width's own loop
/// ([`AesLanes::batches`]): the width has one, the message has at least
/// `min` whole batches (16 L BATCH_VECTORS bytes each), and the table the
/// 16 L BATCH_VECTORS powers one batch uses.
#[inline(always)]
fn own_batches<V: AesLanes>(pw: &Powers, len: usize, min: usize) -> bool {
    let per = BATCH_VECTORS * V::L;
    V::OWN_BATCHES && len >= min * 16 * per && pw.filled() >= per
}

/// [`seal`] (SEAL) or [`open`] through the width's own loop
/// ([`own_batches`]: at least two whole batches to seal, one to open). No
/// head chunk. Sealing, batch 0 hashes nothing, the loop takes batches
/// 1.. with the GHASH of each one's predecessor, and the tail's batch
/// hashes the last; opening, each batch hashes the ciphertext it decrypts.
/// A sealing `src` shorter than `buf` is read as [`seal`] reads it
/// ([`read_from_src`]).
///
/// # Safety
/// As [`seal`] and [`open`].
#[inline(always)]
unsafe fn own<V: AesLanes, const NR: usize, const SEAL: bool>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    let (bb, full, nv) = plan::<V>(buf.len());
    let ct_len = buf.len();
    let body = full * bb;
    let from = read_from_src(src, buf, 0, bb, full);
    // As in `seal`: every pointer from this one, `buf` not touched again.
    let base = buf.as_mut_ptr();
    let input = src.map_or(base as *const u8, <[u8]>::as_ptr);
    let part = |off: usize| {
        if off < from {
            input.wrapping_add(off)
        } else {
            base.wrapping_add(off) as *const u8
        }
    };
    let tail = (part(body), base.wrapping_add(body), ct_len - body);
    let lens = (aad.len(), ct_len);
    // SAFETY: features per the caller; the whole batches and the tail
    // partition buf, and a part is read from src only if it ends by
    // `from` (within src); a sealing batch hashes ciphertext written
    // before (batch i - 1, by the batch before), an opening one its own
    // before writing (in place: the loop loads it first); `own_batches`
    // checked the powers and (sealing) full >= 2.
    unsafe {
        let mut y = ghash_padded::<V>(pw, V::Block::zero(), aad);
        let mut ctr = Ctr::<V>::new(y0, 1, y0_public);
        let mut sums = Sums::zero();
        if !SEAL {
            V::batches::<NR>(rk, &mut ctr, pw, &mut y, input, input, base, full);
            return open_end::<V, NR>(rk, &mut ctr, pw, sums, y, y0, tail, nv, lens);
        }
        let io = Some((part(0), base));
        batch::<V, NR, BATCH_VECTORS>(rk, &mut ctr, pw, None, &mut sums, &mut y, None, io);
        // Batches 1..inb from src, then inb.. in place, each hashing the
        // one before it.
        let inb = (from.min(body) / bb).max(1);
        for (start, end) in [(1, inb), (inb, full)] {
            if end > start {
                let (text, dst) = (part(start * bb), base.add(start * bb));
                let hash = base.add((start - 1) * bb);
                V::batches::<NR>(rk, &mut ctr, pw, &mut y, hash, text, dst, end - start);
            }
        }
        let last = base.add((full - 1) * bb);
        let prev = HashStep::new::<V>(pw, last, 0, 1, BATCH_VECTORS * V::L);
        seal_end::<V, NR>(rk, &mut ctr, pw, Some(prev), sums, y, y0, tail, nv, lens)
    }
}

/// Decrypts `src` (if given; else `buf` in place) into `buf`, hashing
/// each batch of ciphertext before it is overwritten (the tail too, in
/// the rounds of its own keystream, where [`tail_fits`]), and returns the
/// expected full tag. The caller compares and wipes `buf` on mismatch.
/// Out of place as in [`seal`].
///
/// # Safety
/// As [`crypt`], past its short paths.
#[inline(always)]
unsafe fn open<V: AesLanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    let head = head_blocks::<V>(buf.as_ptr(), buf.len());
    let (bb, full, nv) = plan::<V>(buf.len() - 16 * head);
    let ct_len = buf.len();
    let (first, chunks) = (usize::from(head > 0), usize::from(head > 0) + full);
    // As in `seal`: every pointer from this one, `buf` not touched again.
    let base = buf.as_mut_ptr();
    let input = src.map_or(base as *const u8, |s| s.as_ptr());
    // SAFETY: as in `seal`; here each batch's hash step reads the
    // ciphertext it decrypts, before the batch overwrites it (in place) or
    // from src (out of place).
    unsafe {
        let mut y = ghash_padded::<V>(pw, V::Block::zero(), aad);
        let mut sums = Sums::zero();
        if head > 0 {
            // Hashed where it is read from, as the whole batches are.
            let step = HashStep::new::<V>(pw, input, 0, chunks, head);
            let mut hctr = Ctr::<V>::new(y0, 1, y0_public);
            let ks = batch::<V, NR, BATCH_VECTORS>(
                rk,
                &mut hctr,
                pw,
                Some(step),
                &mut sums,
                &mut y,
                None,
                None,
            );
            xor_keep::<V>(input, base, 16 * head, &ks);
        }
        let mut ctr = Ctr::<V>::new(y0, 1 + head as u32, y0_public);
        let p = base.add(16 * head);
        let sp = input.add(16 * head);
        for i in 0..full {
            let chunk = p.add(i * bb);
            // The ciphertext is hashed where it is read from.
            let step =
                HashStep::new::<V>(pw, sp.add(i * bb), first + i, chunks, BATCH_VECTORS * V::L);
            batch::<V, NR, BATCH_VECTORS>(
                rk,
                &mut ctr,
                pw,
                Some(step),
                &mut sums,
                &mut y,
                None,
                Some((sp.add(i * bb), chunk)),
            );
        }
        // Hashed and decrypted where it is read from (no copy first).
        let tail = (
            sp.add(full * bb),
            p.add(full * bb),
            ct_len - 16 * head - full * bb,
        );
        open_end::<V, NR>(rk, &mut ctr, pw, sums, y, y0, tail, nv, (aad.len(), ct_len))
    }
}

/// The end of an opening: the tail (src, dst, len) hashed between the
/// rounds of its own keystream (nv vectors; E(K, Y0) beside it), as a
/// whole batch is, then the length block (lens: AAD and text bytes), one
/// reduction (an empty tail: the length block alone), and decrypted;
/// returns the expected full tag. The keystream batch writes no memory,
/// so the tail is still ciphertext when absorb_final reads it.
///
/// # Safety
/// As [`batch`]; `src` is valid for reads and `dst` for writes of `len`
/// bytes (the same or not overlapping).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn open_end<V: AesLanes, const NR: usize>(
    rk: &RoundKeys<V>,
    ctr: &mut Ctr<V>,
    pw: &Powers,
    mut sums: Sums<V>,
    mut y: V::Block,
    y0: &[u8; 16],
    (ts, td, tail_len): (*const u8, *mut u8, usize),
    nv: usize,
    (aad_len, ct_len): (usize, usize),
) -> u128 {
    // SAFETY: per the caller.
    unsafe {
        let mut ek = V::Block::load(y0.as_ptr());
        let step = tail_fits::<V>(pw, tail_len).then(|| HashStep::tail(pw, ts, tail_len));
        let ks = last_batch::<V, NR>(rk, ctr, pw, step, &mut sums, &mut y, nv, &mut ek);
        let lens = len_block(aad_len, ct_len);
        y = match step {
            Some(_) => finish_tail(pw, tail_len.div_ceil(16), sums, lens),
            None => absorb_final::<V>(
                pw,
                y,
                aad_len,
                core::slice::from_raw_parts(ts, tail_len),
                ct_len,
            ),
        };
        xor_keep::<V>(ts, td, tail_len, &ks);
        full_tag(y, ek)
    }
}
