//! The keys of a wide backend: powers H^1..H^N, each premultiplied by
//! x^-1 = x^127 + x^6 + x + 1 (so a carry-less product with one needs no
//! shift: see the `gf128` module doc for why the raw product is shifted),
//! and the XOR of each one's 64-bit halves, the Karatsuba middle operand.
//! Stored in descending order so that the lanes of one vector load line up
//! with consecutive message blocks.
//!
//! A table holds as many powers as its users need, and is complete before
//! anything reads it: a GCM key computes H^1..H^LOW_POWERS at setup
//! ([`LowTable`], inline: no allocation) and H^1..H^MAX_BATCH
//! ([`FullTable`], boxed) when the first message long enough to use them
//! comes; a key made for one message ([`LeanTable`], on the caller's stack)
//! computes only what that message can use. The kernels read any of them
//! through [`Powers`], which carries the table's size and how many powers
//! it has, so a reduction group never needs more than are there.

use super::ghash::{halves_xor, mul, mul_k, sqr, GHASH_GROUP_VECTORS};
use super::lanes::{u128_to_block, Lanes};
use core::mem::MaybeUninit;
use zeroize::Zeroize;

/// Most blocks per aggregated reduction, and the most powers of H kept.
/// The stitched loops reduce once per MAX_BATCH blocks (every eight
/// batches on 512-bit vectors) with a full table. Chosen on Zen 4:
/// AES-128-GCM at 16 KiB ran 12.2, 13.1, 13.15 and 13.75 GB/s at 32, 64,
/// 128 and 256 blocks per reduction (docs/speed.md, "Tuning constants of
/// the wide kernels"). The price is 8.3 KiB of powers, computed only for
/// keys that seal long messages.
pub(crate) const MAX_BATCH: usize = 256;

/// Powers every key has from setup on ([`LowTable`]); the rest (up to
/// H^MAX_BATCH, [`FullTable`]) are computed by the first message long
/// enough to use them.
pub(crate) const LOW_POWERS: usize = 32;

/// Powers a per-message key computes at most ([`LeanTable`]): a reduction
/// every 64 blocks costs little more than every 256 (see MAX_BATCH), and
/// the 32 powers above H^32 cost far less than the 192 above H^64.
pub(crate) const LEAN_POWERS: usize = 64;

/// Bytes of AAD and text from which a per-message key computes
/// LEAN_POWERS powers rather than LOW_POWERS.
pub(crate) const LEAN_FROM: usize = 2048;

/// How many powers a per-message key computes for `len` bytes of AAD and
/// text, on vectors of `l` blocks, for a user whose reductions span at
/// most `most` blocks (0: hashing alone, whose groups are
/// GHASH_GROUP_VECTORS vectors). No reduction group of such a message is
/// longer than its blocks (AAD and text each padded, and the length
/// block: at most len / 16 + 3), so that many powers, rounded up to whole
/// vectors, are enough: one vector for a 16-byte message; at most
/// LOW_POWERS below LEAN_FROM bytes, where a stitched group (8 l blocks)
/// needs LOW_POWERS / (8 l) whole groups, and LEAN_POWERS from there on;
/// never more than the user's groups span.
pub(crate) fn lean_fill_for(len: usize, l: usize, most: usize) -> usize {
    let want = if len >= LEAN_FROM {
        LEAN_POWERS
    } else {
        (len / 16 + 3).next_multiple_of(l).min(LOW_POWERS)
    };
    want.min(most.max(GHASH_GROUP_VECTORS * l))
}

/// Zero entries after the last power, so that a vector load of up to four
/// lanes may start at any index <= N (three would do); four keep `hk` on
/// the 64-byte boundary `hd` starts on (N is a multiple of four), so that
/// no 512-bit load or store of either array crosses a cache line in a
/// per-message table (64-byte aligned). A 64-power per-message key took
/// 377 -> 356 TSC cycles with its wipe.
const PAD: usize = 4;

/// H^N..H^1 (N = M - PAD), each times x^-1, and the XOR of each one's
/// halves, of which H^filled..H^1 are computed; the PAD entries are zero
/// and the entries below H^filled never written nor read (a per-message
/// table is not zeroed whole: 2 KiB of stores per message). Wipes what it
/// computed on drop.
///
/// 16-byte aligned (the allocator's own alignment: a 64-byte aligned box
/// went through `posix_memalign`, whose split chunks cost a
/// `malloc_consolidate` per GCM key, ~20% of its setup; the kernels'
/// speed is the same either way, `scripts/bench-ab.sh`).
#[repr(C, align(16))]
pub(crate) struct PowerTable<const M: usize> {
    /// hd[i] = H^(N-i) * x^-1, then PAD zero entries.
    hd: [MaybeUninit<u128>; M],
    /// hk[i] = (low half ^ high half of hd[i]) in both halves.
    hk: [MaybeUninit<u128>; M],
    /// How many powers, from H^1 up, are computed.
    filled: usize,
}

/// H^1..H^LOW_POWERS: what every wide GCM key computes at setup.
pub(crate) type LowTable = PowerTable<{ LOW_POWERS + PAD }>;
/// H^1..H^MAX_BATCH, for keys that seal long messages.
pub(crate) type FullTable = PowerTable<{ MAX_BATCH + PAD }>;
/// H^1..H^LOW_POWERS or H^1..H^LEAN_POWERS, for a key used for one message.
pub(crate) type LeanTable = PowerTable<{ LEAN_POWERS + PAD }>;

impl<const M: usize> Drop for PowerTable<M> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<const M: usize> Zeroize for PowerTable<M> {
    fn zeroize(&mut self) {
        if self.filled == 0 {
            return;
        }
        // Only the computed powers were ever written.
        let from = Self::N - self.filled;
        wipe(&mut self.hd[from..]);
        wipe(&mut self.hk[from..]);
        self.filled = 0;
    }
}

/// Zeroes key material with plain (vector) stores the compiler may not
/// drop: the slice escapes to `black_box` before anything could read it
/// again (as `ct::wipe` does for long buffers; `zeroize`'s volatile writes
/// go one element at a time).
fn wipe(s: &mut [MaybeUninit<u128>]) {
    s.fill(MaybeUninit::new(0));
    core::hint::black_box(&mut *s);
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Most vectors of powers [`PowerTable::double_regs`] keeps in registers.
const REG_VECTORS: usize = 16;

/// x^-1 = x^127 + x^6 + x + 1 in our representation (bits 0, 121, 126, 127).
const XINV: u128 = (0xC2 << 120) | 1;

/// Multiplies an element by x^-1 (a left shift in GCM's bit order).
fn mul_xinv(v: u128) -> u128 {
    (v << 1) ^ (XINV & (v >> 127).wrapping_neg())
}

impl<const M: usize> PowerTable<M> {
    /// Powers held at most.
    const N: usize = M - PAD;

    /// Index of H^j (j >= 1).
    const fn at(j: usize) -> usize {
        Self::N - j
    }

    /// Makes `slot` an empty table in place (only `filled` and the PAD
    /// entries written) and returns it.
    #[inline(always)]
    pub(crate) fn init_empty(slot: &mut MaybeUninit<Self>) -> &mut Self {
        let p = slot.as_mut_ptr();
        // SAFETY: `p` is valid for writes of a whole table; the arrays hold
        // MaybeUninit entries, which need no initialization, and every
        // other field (`filled`) is written before the table is assumed
        // initialized.
        unsafe {
            core::ptr::addr_of_mut!((*p).filled).write(0);
            let hd = core::ptr::addr_of_mut!((*p).hd).cast::<MaybeUninit<u128>>();
            let hk = core::ptr::addr_of_mut!((*p).hk).cast::<MaybeUninit<u128>>();
            for i in Self::N..M {
                hd.add(i).write(MaybeUninit::new(0));
                hk.add(i).write(MaybeUninit::new(0));
            }
            slot.assume_init_mut()
        }
    }

    /// [`Zeroize::zeroize`] with whole vectors of V: stores the compiler
    /// emits inline in a function that enabled V's features (a slice of
    /// the table's run-time length was two `memset` calls, ~20 ns of a
    /// 16-byte XAES seal).
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn wipe_with<V: Lanes>(&mut self) {
        // From a multiple of L at or below the first power written (the
        // entries below it were never written: writing them is harmless).
        let from = (Self::N - self.filled) / V::L * V::L;
        let hd = self.hd.as_mut_ptr().cast::<u8>();
        let hk = self.hk.as_mut_ptr().cast::<u8>();
        // SAFETY: V's features per the caller; the vectors from `from` up
        // to N (a multiple of every L) lie within both arrays.
        unsafe {
            let z = V::zero();
            let mut i = from;
            while i < Self::N {
                V::store(hd.add(16 * i), z);
                V::store(hk.add(16 * i), z);
                i += V::L;
            }
        }
        core::hint::black_box(&mut self.hd);
        core::hint::black_box(&mut self.hk);
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        self.filled = 0;
    }

    /// A table with no powers yet, set up where it is allocated (not
    /// built on the stack and copied into the box).
    pub(crate) fn boxed_empty() -> Box<Self> {
        let mut b = Box::<Self>::new_uninit();
        Self::init_empty(&mut b);
        // SAFETY: `init_empty` initialized the table.
        unsafe { b.assume_init() }
    }

    /// Computes H^1..H^fill into a table with no powers yet.
    ///
    /// # Safety
    /// Only from a function that enabled V's features; 1 <= fill <= N, a
    /// multiple of L.
    #[inline(always)]
    pub(crate) unsafe fn fill<V: Lanes>(&mut self, h: u128, fill: usize) {
        assert!(fill >= V::L && fill <= Self::N && fill.is_multiple_of(V::L));
        assert_eq!(self.filled, 0, "a table is filled once");
        self.filled = fill;
        // Powers times x^-1 multiply directly: mul(H^a x^-1, H^b x^-1) =
        // H^(a+b) x^-1.
        let hd = self.hd.as_mut_ptr().cast::<u128>();
        let hk = self.hk.as_mut_ptr().cast::<u128>();
        // SAFETY: V's features per the caller; every index written is
        // at(j) for 1 <= j <= fill <= N, inside the tables we hold mutably.
        unsafe {
            // H^1..H^L (L <= 4) as single blocks, two products deep, into
            // one vector (lane 0 the highest power).
            let h1 = u128_to_block::<V::Block>(mul_xinv(h));
            let mut v = V::broadcast(h1);
            let mut top = h1;
            if V::L >= 2 {
                let h2 = sqr(h1);
                v = V::with_lane(v, V::L - 2, h2);
                top = h2;
                if V::L >= 4 {
                    let (h3, h4) = (mul(h2, h1), sqr(h2));
                    v = V::with_lane(V::with_lane(v, 1, h3), 0, h4);
                    top = h4;
                }
            }
            // The sizes messages and keys ask for most, with every vector
            // kept in registers; others through the table.
            match (fill / V::L <= REG_VECTORS, fill) {
                (true, 8) => Self::double_regs::<V, 8>(hd, hk, v, top),
                (true, 16) => Self::double_regs::<V, 16>(hd, hk, v, top),
                (true, LOW_POWERS) => Self::double_regs::<V, LOW_POWERS>(hd, hk, v, top),
                (true, LEAN_POWERS) => Self::double_regs::<V, LEAN_POWERS>(hd, hk, v, top),
                _ => {
                    Self::store(hd, hk, V::L, v);
                    Self::double::<V>(hd, hk, V::L, top, fill);
                }
            }
        }
    }

    /// [`PowerTable::double`] from the first vector (H^L..H^1, `first`;
    /// `top` = H^L) to F powers known at compile time: straight-line, each
    /// product's operands taken from registers rather than loaded back
    /// from the stores just made (store-to-load forwarding of a whole
    /// vector put ~8 cycles on every level of the chain).
    ///
    /// # Safety
    /// As [`PowerTable::double`]; F / L <= REG_VECTORS.
    #[inline(always)]
    unsafe fn double_regs<V: Lanes, const F: usize>(
        hd: *mut u128,
        hk: *mut u128,
        first: V,
        top: V::Block,
    ) {
        let n = F / V::L;
        debug_assert!(n <= REG_VECTORS && F <= Self::N);
        // SAFETY: features per the caller; stores at(j) for j <= F <= N.
        unsafe {
            // Vector i holds H^(L(i+1))..H^(Li+1); it is stored (with its
            // middle operands) only if i < n, and the compiler drops the
            // products of the vectors past n (n is a constant).
            let put = |i: usize, x: V| -> (V, V) {
                let xk = halves_xor(x);
                if i < n {
                    let j = V::L * (i + 1);
                    V::store(hd.add(Self::at(j)).cast(), x);
                    V::store(hk.add(Self::at(j)).cast(), xk);
                }
                (x, xk)
            };
            // H^(Lm) broadcast, with its middle operands.
            let power = |t: V::Block| {
                let t = V::broadcast(t);
                (t, halves_xor(t))
            };
            // Vector m + i = vector i times H^(Lm).
            let times = |i: usize, (x, xk): (V, V), (t, tk): (V, V)| put(i, mul_k(x, xk, t, tk));
            // The squares H^2L, H^4L, H^8L on their own chain, beside the
            // products of each level.
            let (sq2, p0) = (sqr(top), put(0, first));
            let p1 = times(1, p0, power(top));
            let (sq4, h2) = (sqr(sq2), power(sq2));
            let (p2, p3) = (times(2, p0, h2), times(3, p1, h2));
            let (h4, h8) = (power(sq4), power(sqr(sq4)));
            let (p4, p5) = (times(4, p0, h4), times(5, p1, h4));
            let (p6, p7) = (times(6, p2, h4), times(7, p3, h4));
            // (Calls, not a loop over an array: the array went to the stack.)
            times(8, p0, h8);
            times(9, p1, h8);
            times(10, p2, h8);
            times(11, p3, h8);
            times(12, p4, h8);
            times(13, p5, h8);
            times(14, p6, h8);
            times(15, p7, h8);
        }
    }

    /// Computes H^1..H^fill into a table with no powers yet (in place:
    /// a full table is 8 KiB), starting from the powers of `low`.
    ///
    /// # Safety
    /// Only from a function that enabled V's features; fill is a multiple
    /// of L and at most N, and `low` has at least L powers, a multiple of L.
    #[inline(always)]
    pub(crate) unsafe fn extend_from<V: Lanes, const K: usize>(
        &mut self,
        low: &PowerTable<K>,
        fill: usize,
    ) {
        assert!(fill.is_multiple_of(V::L) && fill <= Self::N);
        assert!(low.filled >= V::L && low.filled.is_multiple_of(V::L));
        assert_eq!(self.filled, 0, "a table is filled once");
        self.filled = fill;
        let have = low.filled.min(fill);
        let (n, k) = (Self::N, PowerTable::<K>::N);
        self.hd[n - have..n].copy_from_slice(&low.hd[k - have..k]);
        self.hk[n - have..n].copy_from_slice(&low.hk[k - have..k]);
        let hd = self.hd.as_mut_ptr().cast::<u128>();
        // SAFETY: V's features per the caller; H^1..H^have are in, and
        // double writes at(j) for have < j <= fill <= N, inside the table.
        unsafe {
            let top = V::Block::load(hd.add(Self::at(have)).cast());
            Self::double::<V>(hd, self.hk.as_mut_ptr().cast(), have, top, fill)
        };
    }

    /// Computes H^(m+1)..H^fill from H^1..H^m by doubling: the vectors of
    /// H^(m+1)..H^(2m) are those of H^1..H^m times H^m, all independent,
    /// while H^(2m) is squared beside them for the next round. The last
    /// power is log2(fill / m) products after H^m (a chain of vector
    /// products by one power would be fill / 2L deep).
    ///
    /// # Safety
    /// V's features are enabled; hd and hk are a table's arrays, held
    /// mutably, with H^1..H^m in; `top` is H^m; m and fill are multiples
    /// of L, and m <= fill <= N.
    #[inline(always)]
    unsafe fn double<V: Lanes>(
        hd: *mut u128,
        hk: *mut u128,
        mut m: usize,
        mut top: V::Block,
        fill: usize,
    ) {
        // SAFETY: the indices stay within the tables (fill <= N) and read
        // only powers already in; features per the caller.
        unsafe {
            while m < fill {
                let hm = V::broadcast(top);
                let hmk = halves_xor(hm);
                let next = (2 * m).min(fill);
                if next < fill {
                    top = sqr(top);
                }
                // j: the power in the first lane of the vector written.
                let mut j = m + V::L;
                while j <= next {
                    let below = V::load(hd.add(Self::at(j - m)).cast());
                    let bk = V::load(hk.add(Self::at(j - m)).cast());
                    Self::store(hd, hk, j, mul_k(below, bk, hm, hmk));
                    j += V::L;
                }
                m = next;
            }
        }
    }

    /// Stores the vector of powers whose first lane is H^j (lanes
    /// descending), and their Karatsuba middle operands.
    ///
    /// # Safety
    /// As [`PowerTable::double`], for the L entries from at(j).
    #[inline(always)]
    unsafe fn store<V: Lanes>(hd: *mut u128, hk: *mut u128, j: usize, v: V) {
        // SAFETY: per the caller.
        unsafe {
            V::store(hd.add(Self::at(j)).cast(), v);
            V::store(hk.add(Self::at(j)).cast(), halves_xor(v));
        }
    }

    /// What the kernels read.
    #[inline(always)]
    pub(crate) fn view(&self) -> Powers<'_> {
        Powers {
            // The entry after H^1, the first of the PAD entries, as a
            // pointer into the whole array (one made from the slice [N..]
            // could not reach the powers before it: Miri's Stacked Borrows
            // caught that).
            // SAFETY: N < M: within the array.
            hd: unsafe { self.hd.as_ptr().cast::<u128>().add(Self::N) },
            // SAFETY: as for hd.
            hk: unsafe { self.hk.as_ptr().cast::<u128>().add(Self::N) },
            filled: self.filled,
            _table: core::marker::PhantomData,
        }
    }
}

/// A position in a table: [`Powers::at`]`(j)` is H^j's, and adding k
/// moves to H^(j-k), the next block's power in a vector's lanes. An offset
/// from the table's end (the entry after H^1), so that a group of a
/// constant size addresses its powers at constant offsets from one
/// register whatever the table's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At(isize);

impl core::ops::Add<usize> for At {
    type Output = At;
    #[inline(always)]
    fn add(self, k: usize) -> At {
        At(self.0 + k as isize)
    }
}

/// A complete table as the kernels see it: H^j (1 <= j <= filled) `j`
/// entries before `hd`/`hk`, PAD zero entries from there on.
#[derive(Clone, Copy)]
pub(crate) struct Powers<'a> {
    hd: *const u128,
    hk: *const u128,
    filled: usize,
    _table: core::marker::PhantomData<&'a [u128]>,
}

impl Powers<'_> {
    /// Whether a message of `groups` groups of `per_group` blocks hashed in
    /// order, with a full table, would use more than LOW_POWERS powers.
    #[inline(always)]
    pub(crate) fn needs_high(groups: usize, per_group: usize) -> bool {
        groups.min(MAX_BATCH / per_group) * per_group > LOW_POWERS
    }

    /// How many powers, from H^1 up, the table has.
    #[inline(always)]
    pub(crate) fn filled(&self) -> usize {
        self.filled
    }

    /// Whether the table holds all MAX_BATCH powers.
    #[inline(always)]
    pub(crate) fn is_full(&self) -> bool {
        self.filled == MAX_BATCH
    }

    /// Groups of `per_group` blocks per reduction that the powers allow.
    #[inline(always)]
    pub(crate) fn per(&self, per_group: usize) -> usize {
        self.filled / per_group
    }

    /// Position of H^j (1 <= j <= filled).
    #[inline(always)]
    pub(crate) fn at(&self, j: usize) -> At {
        debug_assert!((1..=self.filled).contains(&j));
        At(-(j as isize))
    }

    /// Where the powers from position i and their middle operands start,
    /// for a loop that loads them itself (`gcm::kernels::ymm_asm`): entry
    /// k after position i is H^(j-k) (for i = at(j)), 16 bytes each, as
    /// far as H^1 and the PAD zero entries after it.
    #[cfg_attr(any(not(target_arch = "x86_64"), miri), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn raw(&self, i: At) -> (*const u8, *const u8) {
        debug_assert!(i.0 >= -(self.filled as isize) && i.0 <= 0);
        (
            self.hd.wrapping_offset(i.0).cast(),
            self.hk.wrapping_offset(i.0).cast(),
        )
    }

    /// The vector of powers from position i (its first lane's power
    /// first) and its Karatsuba middle operands.
    ///
    /// # Safety
    /// V's features are enabled; at(filled) <= i <= at(1) + 1.
    #[inline(always)]
    pub(crate) unsafe fn h<V: Lanes>(&self, i: At) -> (V, V) {
        debug_assert!(i.0 >= -(self.filled as isize) && i.0 <= 0);
        // SAFETY: the vector's L <= PAD + 1 entries from i end within the
        // PAD entries after H^1: within the table, which outlives the
        // view; all of it initialized.
        unsafe {
            (
                V::load(self.hd.offset(i.0).cast()),
                V::load(self.hk.offset(i.0).cast()),
            )
        }
    }
}
