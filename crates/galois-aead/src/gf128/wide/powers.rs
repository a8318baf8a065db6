//! The key of a wide backend: H^MAX_BATCH..H^1, each premultiplied by
//! x^-1 = x^127 + x^6 + x + 1 (so a carry-less product with one needs no
//! shift: see the `gf128` module doc for why the raw product is shifted),
//! and the XOR of each one's 64-bit halves, the Karatsuba middle operand.
//! Stored in descending order so that the lanes of one vector load line up
//! with consecutive message blocks.

use super::ghash::{halves_xor, mul};
use super::lanes::{u128_to_block, Lanes};
use core::cell::UnsafeCell;
use std::sync::OnceLock;
use zeroize::Zeroize;

/// Most blocks per aggregated reduction, and the powers of H kept. The
/// stitched loops reduce once per MAX_BATCH blocks (every eight batches on
/// 512-bit vectors). Chosen on Zen 4: AES-128-GCM at 16 KiB ran 12.2, 13.1,
/// 13.15 and 13.75 GB/s at 32, 64, 128 and 256 blocks per reduction
/// (docs/speed.md, "Tuning constants of the wide kernels"). The price is
/// the key: 8.3 KiB of powers instead of 1.1.
pub(crate) const MAX_BATCH: usize = 256;

/// Powers every key has from setup on; the rest (up to H^MAX_BATCH) are
/// computed by the first message long enough to use them. Chosen so key
/// setup stays short: all 256 at setup made `Gcm::new` plus drop 1.6 us
/// instead of 0.49 (docs/speed.md).
pub(crate) const LOW_POWERS: usize = 32;

/// Zero entries after the last power, so that a vector load of up to four
/// lanes may start at any index <= MAX_BATCH.
const PAD: usize = 3;

/// H^MAX_BATCH..H^1, each times x^-1, and the XOR of each one's halves.
/// H^LOW_POWERS..H^1 are there from [`Powers::new`]; the higher ones from
/// the first [`Powers::ensure_high`], so a key that only ever seals short
/// messages keeps the short setup.
#[repr(C, align(64))]
pub(crate) struct Powers {
    /// hd[i] = H^(MAX_BATCH-i) * x^-1, then PAD zero entries.
    hd: UnsafeCell<[u128; MAX_BATCH + PAD]>,
    /// hk[i] = (low half ^ high half of hd[i]) in both halves.
    hk: UnsafeCell<[u128; MAX_BATCH + PAD]>,
    /// Set once the powers above H^LOW_POWERS are in.
    high: OnceLock<()>,
}

// SAFETY: `new` writes the low powers before the value is shared; after
// that the only writes are to the high powers (indices below
// MAX_BATCH - LOW_POWERS), once, inside `high`'s initialization, and they
// are read only after `ensure_high` has returned (which orders the writes
// before the reads). Readers of the low powers touch other memory.
unsafe impl Sync for Powers {}

impl Zeroize for Powers {
    fn zeroize(&mut self) {
        self.hd.get_mut().zeroize();
        self.hk.get_mut().zeroize();
        self.high = OnceLock::new();
    }
}

/// x^-1 = x^127 + x^6 + x + 1 in our representation (bits 0, 121, 126, 127).
const XINV: u128 = (0xC2 << 120) | 1;

/// Multiplies an element by x^-1 (a left shift in GCM's bit order).
fn mul_xinv(v: u128) -> u128 {
    (v << 1) ^ (XINV & (v >> 127).wrapping_neg())
}

/// Index of H^j (j >= 1) in the power tables.
const fn at(j: usize) -> usize {
    MAX_BATCH - j
}

impl Powers {
    /// Computes H^1..H^LOW_POWERS.
    ///
    /// # Safety
    /// Only from a function that enabled V's features.
    #[inline(always)]
    pub(crate) unsafe fn new<V: Lanes>(h: u128) -> Self {
        let p = Powers {
            hd: UnsafeCell::new([0; MAX_BATCH + PAD]),
            hk: UnsafeCell::new([0; MAX_BATCH + PAD]),
            high: OnceLock::new(),
        };
        // Powers times x^-1 multiply directly: mul(H^a x^-1, H^b x^-1) =
        // H^(a+b) x^-1. H^1..H^S (S = 2L) one after another, then vectors.
        let hd = p.hd.get().cast::<u128>();
        let hk = p.hk.get().cast::<u128>();
        // SAFETY: V's features per the caller; every index written is at(j)
        // for 1 <= j <= LOW_POWERS, inside the tables, which `p` owns.
        unsafe {
            let h1 = u128_to_block::<V::Block>(mul_xinv(h));
            let mut v = h1;
            for j in 1..=2 * V::L {
                if j > 1 {
                    v = mul(v, h1);
                }
                Self::store(hd, hk, j, v);
            }
            Self::extend::<V>(hd, hk, 2 * V::L + 1, LOW_POWERS);
        }
        p
    }

    /// Computes H^from..H^to, L at a time: the vector S = 2L powers below
    /// times H^S, two independent chains of vector multiplies (one chain of
    /// single multiplies would be latency-bound). Needs H^1..H^(from-1).
    ///
    /// # Safety
    /// V's features are enabled; hd and hk are a `Powers`' tables, not
    /// accessed by anyone else for indices at(to)..=at(from).
    #[inline(always)]
    unsafe fn extend<V: Lanes>(hd: *mut u128, hk: *mut u128, from: usize, to: usize) {
        let step = 2 * V::L;
        // SAFETY: the indices stay within the tables (to <= MAX_BATCH, and
        // a vector read at at(j) ends within the PAD entries); features per
        // the caller.
        unsafe {
            let hs = V::broadcast(V::Block::load(hd.add(at(step)).cast()));
            let mut j = from;
            while j + V::L - 1 <= to {
                // The vector at index at(j + L - 1) holds H^(j+L-1), ..., H^j.
                let below = V::load(hd.add(at(j - step + V::L - 1)).cast());
                Self::store(hd, hk, j + V::L - 1, mul(below, hs));
                j += V::L;
            }
        }
    }

    /// Stores the vector of powers whose first lane is H^j (lanes
    /// descending), and their Karatsuba middle operands.
    ///
    /// # Safety
    /// As [`Powers::extend`], for the L entries from at(j).
    #[inline(always)]
    unsafe fn store<V: Lanes>(hd: *mut u128, hk: *mut u128, j: usize, v: V) {
        // SAFETY: per the caller.
        unsafe {
            V::store(hd.add(at(j)).cast(), v);
            V::store(hk.add(at(j)).cast(), halves_xor(v));
        }
    }

    /// Makes sure H^(LOW_POWERS+1)..H^MAX_BATCH are in.
    ///
    /// # Safety
    /// Only from a function that enabled V's features.
    #[inline(always)]
    pub(crate) unsafe fn ensure_high<V: Lanes>(&self) {
        // SAFETY: the caller enabled V's features, which fill_high needs.
        self.high.get_or_init(|| unsafe { V::fill_high(self) });
    }

    /// The body of [`Lanes::fill_high`].
    ///
    /// # Safety
    /// V's features are enabled, and this runs only from `ensure_high`'s
    /// initializer (see `unsafe impl Sync`: the one write of the high
    /// powers, which nothing reads before it completes).
    #[inline(always)]
    pub(super) unsafe fn fill_high<V: Lanes>(&self) {
        // SAFETY: per the caller; the high powers' entries are written by
        // no one else and read by no one before this returns.
        unsafe {
            Self::extend::<V>(
                self.hd.get().cast(),
                self.hk.get().cast(),
                LOW_POWERS + 1,
                MAX_BATCH,
            )
        }
    }

    /// Whether a message of `groups` groups of `per_group` blocks hashed in
    /// order needs the high powers (a reduction group of more than
    /// LOW_POWERS blocks).
    #[inline(always)]
    pub(crate) fn needs_high(groups: usize, per_group: usize) -> bool {
        groups.min(MAX_BATCH / per_group) * per_group > LOW_POWERS
    }

    /// The vector of powers from index i (H^(MAX_BATCH-i) first) and its
    /// Karatsuba middle operands.
    ///
    /// # Safety
    /// V's features are enabled; i <= MAX_BATCH, and the powers at
    /// i..i+L are computed (below at(LOW_POWERS) only after `ensure_high`).
    #[inline(always)]
    pub(crate) unsafe fn h<V: Lanes>(&self, i: usize) -> (V, V) {
        // SAFETY: i + L <= MAX_BATCH + PAD + 1 entries: within the tables.
        unsafe {
            (
                V::load(self.hd.get().cast::<u128>().add(i).cast()),
                V::load(self.hk.get().cast::<u128>().add(i).cast()),
            )
        }
    }
}
