//! Karatsuba products, their reduction, and the GHASH-only loop.
//!
//! A block times a power is carry-less Karatsuba (three 64x64 products per
//! lane, the XOR of each power's halves precomputed in `Powers`). The
//! 256-bit [X3:X2:X1:X0] is reduced by folding its low 128 bits (degree
//! x^128 and up, in the reflected order the `gf128` module doc derives) in
//! two 64-bit steps, each a multiplication by C = 0xC2 << 56, the reflected
//! x^7 + x^2 + x + 1 shifted for the powers' x^-1: T = X0*C, X1 ^= T0,
//! X2 ^= T1 ^ X0; then U = X1*C, X2 ^= U0, X3 ^= U1 ^ X1; the result is
//! [X3:X2] (the same folds as the shift-and-XOR reduction, `ctmul64::reduce`).
//!
//! Aggregation: n blocks X_1..X_n are absorbed as
//! Y' = (Y^X_1) H^n ^ X_2 H^(n-1) ^ ... ^ X_n H: all n products are summed
//! unreduced, lane-wise ([`Sums`]), folded across lanes and reduced once.

use super::lanes::{u128_to_block, Lanes};
use super::powers::{Powers, LOW_POWERS};

/// Vectors per reduction in the GHASH-only loop ([`ghash`]): 8 vectors is
/// 32 blocks on 512-bit vectors, within [`LOW_POWERS`], so hashing alone
/// never needs the high powers.
pub(crate) const GHASH_GROUP_VECTORS: usize = 8;

/// Unreduced Karatsuba sums.
#[derive(Clone, Copy)]
pub(crate) struct Sums<V> {
    lo: V,
    hi: V,
    mid: V,
}

impl<V: Lanes> Sums<V> {
    /// Empty sums.
    ///
    /// # Safety
    /// V's features are enabled (the `Lanes` contract).
    #[inline(always)]
    pub(crate) unsafe fn zero() -> Self {
        // SAFETY: per the caller.
        unsafe {
            Sums {
                lo: V::zero(),
                hi: V::zero(),
                mid: V::zero(),
            }
        }
    }

    /// Adds x * h (hk: the XOR of h's halves).
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn mul_add(&mut self, x: V, h: V, hk: V) {
        // SAFETY: per the caller.
        unsafe {
            self.lo = V::xor(self.lo, V::clmul00(x, h));
            self.hi = V::xor(self.hi, V::clmul11(x, h));
            self.mid = V::xor(self.mid, V::clmul00(halves_xor(x), hk));
        }
    }

    /// The sums of all lanes, in one block.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn fold(self) -> Sums<V::Block> {
        // SAFETY: per the caller.
        unsafe {
            Sums {
                lo: V::fold(self.lo),
                hi: V::fold(self.hi),
                mid: V::fold(self.mid),
            }
        }
    }

    /// Karatsuba recombination and the two-fold reduction, in every lane.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn reduce(self) -> V {
        // SAFETY: per the caller.
        unsafe {
            // Karatsuba's middle product less the outer ones: X2:X1's part.
            let mid = V::xor(self.mid, V::xor(self.lo, self.hi));
            fold(self.lo, mid, self.hi)
        }
    }

    /// The lane-wise sum of two sums.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn add(self, o: Self) -> Self {
        // SAFETY: per the caller.
        unsafe {
            Sums {
                lo: V::xor(self.lo, o.lo),
                hi: V::xor(self.hi, o.hi),
                mid: V::xor(self.mid, o.mid),
            }
        }
    }
}

/// The XOR of each lane's halves, in both halves: the Karatsuba middle
/// operand of a power.
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(super) unsafe fn halves_xor<V: Lanes>(v: V) -> V {
    // SAFETY: per the caller.
    unsafe { V::xor(v, V::swap64(v)) }
}

/// The two 64-bit folds of hi x^128 + mid x^64 + lo (256 bits, `mid`
/// straddling the halves) into 128 bits. The middle is never split into
/// its halves: the first fold's X1 ^= T0, X2 ^= T1 ^ X0 is added to it
/// whole (X0:X1, the low half swapped, and T), so it then holds X2:X1 but
/// for hi's X2, and the second fold multiplies its low half (X1).
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
unsafe fn fold<V: Lanes>(lo: V, mid: V, hi: V) -> V {
    // SAFETY: per the caller.
    unsafe {
        let c = V::broadcast(u128_to_block(0xC200_0000_0000_0000));
        let t = V::clmul00(lo, c);
        let m = V::xor(mid, V::xor(V::swap64(lo), t));
        let u = V::clmul00(m, c);
        V::xor(hi, V::xor(V::swap64(m), u))
    }
}

/// x * x in every lane, for x premultiplied by x^-1 (as is the result): a
/// square's two middle products cancel, so it is the squares of the
/// halves, folded (two products fewer than [`mul`] on the chain).
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(super) unsafe fn sqr<V: Lanes>(x: V) -> V {
    // SAFETY: per the caller.
    unsafe { fold(V::clmul00(x, x), V::zero(), V::clmul11(x, x)) }
}

/// x * y in every lane, for y given premultiplied by x^-1.
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(super) unsafe fn mul<V: Lanes>(x: V, yx: V) -> V {
    // SAFETY: per the caller.
    unsafe { mul_k(x, halves_xor(x), yx, halves_xor(yx)) }
}

/// [`mul`] with both Karatsuba middle operands given ([`halves_xor`] of
/// x and of yx: a table has them).
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(super) unsafe fn mul_k<V: Lanes>(x: V, xk: V, yx: V, yk: V) -> V {
    // SAFETY: per the caller.
    unsafe {
        Sums {
            lo: V::clmul00(x, yx),
            hi: V::clmul11(x, yx),
            mid: V::clmul00(xk, yk),
        }
        .reduce()
    }
}

/// Absorbs n (1..=LOW_POWERS) whole blocks at `p` into y with one
/// reduction, each byte-reversed as it is loaded (GHASH's order) or taken
/// as it is (`BSWAP` false: POLYVAL's blocks, GHASH's byte-reversed; see
/// `gcm_siv`).
///
/// # Safety
/// V's features are enabled and `p` is valid for 16 n bytes.
#[inline(always)]
unsafe fn absorb_order<V: Lanes, const BSWAP: bool>(
    pw: &Powers,
    y: V::Block,
    p: *const u8,
    n: usize,
) -> V::Block {
    debug_assert!((1..=LOW_POWERS).contains(&n) && n <= pw.filled());
    let base = pw.at(n);
    // SAFETY: loads stay within the 16 n bytes at p (whole vectors while
    // L blocks remain, single blocks after); the powers used are H^n..H^1,
    // which every table has: a GCM key's LOW_POWERS or more, a message
    // key's as many as its AAD or text has blocks, up to LOW_POWERS
    // (`lean_fill_for`); features per the caller.
    unsafe {
        let mut s = Sums::<V>::zero();
        let full = n / V::L * V::L;
        let mut i = 0;
        while i < full {
            let mut x = V::load(p.add(16 * i));
            if BSWAP {
                x = V::bswap(x);
            }
            if i == 0 {
                x = V::xor(x, V::low(y));
            }
            let (h, hk) = pw.h::<V>(base + i);
            s.mul_add(x, h, hk);
            i += V::L;
        }
        let mut t = s.fold();
        while i < n {
            let mut x = V::Block::load(p.add(16 * i));
            if BSWAP {
                x = V::Block::bswap(x);
            }
            if i == 0 {
                x = V::Block::xor(x, y);
            }
            let (h, hk) = pw.h::<V::Block>(base + i);
            let mut one = Sums::<V::Block>::zero();
            one.mul_add(x, h, hk);
            t = t.add(one);
            i += 1;
        }
        t.reduce()
    }
}

/// Absorbs the first `n` (1..=L) lanes of `v` (blocks already in integer
/// form, unused lanes zero) into y with one reduction.
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(crate) unsafe fn absorb_vector<V: Lanes>(pw: &Powers, y: V::Block, v: V, n: usize) -> V::Block {
    // SAFETY: H^n..H^1 (n <= L <= LOW_POWERS) are in every table, and a
    // vector read from at(n) ends within the table's padding.
    unsafe {
        let (h, hk) = pw.h::<V>(pw.at(n));
        let mut s = Sums::<V>::zero();
        s.mul_add(V::xor(v, V::low(y)), h, hk);
        s.fold().reduce()
    }
}

/// Absorbs any number of whole blocks, GHASH_GROUP_VECTORS vectors per
/// reduction.
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(crate) unsafe fn ghash<V: Lanes>(pw: &Powers, y: V::Block, data: &[u8]) -> V::Block {
    // SAFETY: per the caller.
    unsafe { ghash_order::<V, true>(pw, y, data) }
}

/// [`ghash`] of blocks in POLYVAL's byte order (each GHASH's block
/// byte-reversed): no reversed copy of the message needed.
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(crate) unsafe fn polyval_blocks<V: Lanes>(pw: &Powers, y: V::Block, data: &[u8]) -> V::Block {
    // SAFETY: per the caller.
    unsafe { ghash_order::<V, false>(pw, y, data) }
}

/// [`ghash`] with the byte order of [`absorb_order`].
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
unsafe fn ghash_order<V: Lanes, const BSWAP: bool>(
    pw: &Powers,
    mut y: V::Block,
    data: &[u8],
) -> V::Block {
    debug_assert_eq!(data.len() % 16, 0);
    let group = GHASH_GROUP_VECTORS * V::L;
    let mut chunks = data.chunks_exact(16 * group);
    // SAFETY: each call reads the whole blocks of one slice; features per
    // the caller.
    unsafe {
        for c in &mut chunks {
            y = absorb_order::<V, BSWAP>(pw, y, c.as_ptr(), group);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            y = absorb_order::<V, BSWAP>(pw, y, rest.as_ptr(), rest.len() / 16);
        }
    }
    y
}

/// Absorbs `data` zero-padded to whole blocks.
///
/// # Safety
/// V's features are enabled.
#[inline(always)]
pub(crate) unsafe fn ghash_padded<V: Lanes>(pw: &Powers, y: V::Block, data: &[u8]) -> V::Block {
    let whole = data.len() & !15;
    // SAFETY: the partial load reads the data's last bytes (under one
    // block); features per the caller.
    unsafe {
        let mut y = ghash::<V>(pw, y, &data[..whole]);
        if whole < data.len() {
            // In lane 0, zero-padded (a masked load where the vector has
            // one: no store to forward from, as a copy to the stack has).
            let last = V::load_partial(data.as_ptr().add(whole), data.len() - whole);
            y = absorb_vector::<V>(pw, y, V::bswap(last), 1);
        }
        y
    }
}

/// Blocks per reduction of [`polyval_short`], and the most powers of H it
/// computes.
pub(crate) const SHORT_GROUP: usize = 4;

/// POLYVAL from zero (GHASH of the blocks each byte-reversed, as
/// [`polyval_blocks`]) of `aad` and `text`, each zero-padded to whole
/// blocks, then the block `last`, for a key given only as H x^-1 (`hx`), on
/// single blocks: for messages too short to pay for a table of powers.
/// Only the powers the message's blocks use are computed (H^2..H^4, in
/// registers: none for a message of one block and the lengths block but
/// H^2), and up to [`SHORT_GROUP`] blocks share a reduction.
///
/// # Safety
/// B's features are enabled.
#[inline(always)]
pub(crate) unsafe fn polyval_short<B: Lanes<Block = B>>(
    hx: B,
    aad: &[u8],
    text: &[u8],
    last: B,
) -> B {
    let blocks = aad.len().div_ceil(16) + text.len().div_ceil(16) + 1;
    // SAFETY: features per the caller; every load reads within `aad` or
    // `text` (whole blocks, then the partial one through `load_partial`).
    unsafe {
        // h[i] = H^(i+1) x^-1 and its middle operand, as far as needed
        // (the products whose results go unused are dropped).
        let h1 = hx;
        let h2 = if blocks >= 2 { sqr(h1) } else { B::zero() };
        let h3 = if blocks >= 3 { mul(h2, h1) } else { B::zero() };
        let h4 = if blocks >= 4 { sqr(h2) } else { B::zero() };
        let h = [h1, h2, h3, h4];
        let hk = [
            halves_xor(h1),
            halves_xor(h2),
            halves_xor(h3),
            halves_xor(h4),
        ];
        let mut y = B::zero();
        let mut group = [B::zero(); SHORT_GROUP];
        let mut n = 0;
        for data in [aad, text] {
            let mut c = data.chunks_exact(16);
            for b in &mut c {
                push_short(&mut y, &mut group, &mut n, B::load(b.as_ptr()), &h, &hk);
            }
            let r = c.remainder();
            if !r.is_empty() {
                let x = B::load_partial(r.as_ptr(), r.len());
                push_short(&mut y, &mut group, &mut n, x, &h, &hk);
            }
        }
        push_short(&mut y, &mut group, &mut n, last, &h, &hk);
        if n > 0 {
            y = absorb_short(y, &group, n, &h, &hk);
        }
        y
    }
}

/// Adds the block `x` to [`polyval_short`]'s group of `n`, absorbing the
/// group into `y` once it is full. (A function, not a closure: the
/// closure did not inherit the caller's target features, and its
/// intrinsics were called out of line.)
///
/// # Safety
/// B's features are enabled.
#[inline(always)]
unsafe fn push_short<B: Lanes<Block = B>>(
    y: &mut B,
    group: &mut [B; SHORT_GROUP],
    n: &mut usize,
    x: B,
    h: &[B; SHORT_GROUP],
    hk: &[B; SHORT_GROUP],
) {
    group[*n] = x;
    *n += 1;
    if *n == SHORT_GROUP {
        // SAFETY: per the caller.
        *y = unsafe { absorb_short(*y, group, SHORT_GROUP, h, hk) };
        *n = 0;
    }
}

/// (y xor X_1) H^n ^ X_2 H^(n-1) ^ ... ^ X_n H for the first n blocks of
/// `group`, with one reduction (h[i] = H^(i+1) x^-1, hk its middle
/// operands).
///
/// # Safety
/// B's features are enabled; 1 <= n <= SHORT_GROUP.
#[inline(always)]
unsafe fn absorb_short<B: Lanes<Block = B>>(
    y: B,
    group: &[B; SHORT_GROUP],
    n: usize,
    h: &[B; SHORT_GROUP],
    hk: &[B; SHORT_GROUP],
) -> B {
    // SAFETY: per the caller.
    unsafe {
        let mut s = Sums::<B>::zero();
        for (i, x) in group.iter().enumerate().take(n) {
            let x = if i == 0 { B::xor(*x, y) } else { *x };
            s.mul_add(x, h[n - 1 - i], hk[n - 1 - i]);
        }
        s.reduce()
    }
}
