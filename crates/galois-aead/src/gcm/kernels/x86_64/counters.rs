//! GCM's counter blocks, a vector at a time. A lane's dword 0 holds the
//! block counter in integer form (the block byte-reversed, as the field
//! layer holds elements: see `gf128::wide`), so a 32-bit lane addition is
//! GCM's incr(): modulo 2^32, never carrying into the other 96 bits.

use super::aes_lanes::AesLanes;
use super::tuning::BATCH_VECTORS;
use crate::gf128::wide::{u128_to_block, Lanes};

/// Lane l of these holds l (resp. the lane count) in its dword 0.
static LANE_OFFSETS: [u32; 16] = [0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
/// LANE_STEPS for blocks in byte order: the lane count added to byte 15.
static LANE_STEPS_BE: [[u32; 16]; 5] = lane_steps(3, 24);
static LANE_STEPS: [[u32; 16]; 5] = lane_steps(0, 0);

/// Row l: the lane count l, shifted left by `shift`, in dword `word` of
/// each of the first l lanes.
const fn lane_steps(word: usize, shift: u32) -> [[u32; 16]; 5] {
    let mut t = [[0u32; 16]; 5];
    let mut l = 1;
    while l <= 4 {
        let mut i = 0;
        while i < l {
            t[l][4 * i + word] = (l as u32) << shift;
            i += 1;
        }
        l += 1;
    }
    t
}

/// Counter state of one message.
#[derive(Clone, Copy)]
pub(crate) struct Ctr<V> {
    next: V,
    step: V,
    /// The counter of lane 0 of `next`, as a plain number (0 if secret).
    low: u32,
    /// Whether the counters are public (Y0 = IV || 1 from a 96-bit IV),
    /// so that `take_n` may branch on `low`; a longer IV's Y0 = GHASH(H, IV)
    /// is secret.
    public: bool,
}

impl<V: AesLanes> Ctr<V> {
    /// Counters Y0 + first, Y0 + first + 1, ... in the lanes; `public`:
    /// whether Y0 is public (see the field).
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn new(y0: &[u8; 16], first: u32, public: bool) -> Self {
        // SAFETY: y0 is one block; the lane tables hold 64 >= 16 L bytes
        // from each start; features per the caller.
        unsafe {
            let base = V::Block::bswap(V::Block::load(y0.as_ptr()));
            let base = V::block_add32(base, u128_to_block(first as u128));
            Ctr {
                next: V::add32(V::broadcast(base), V::load(LANE_OFFSETS.as_ptr().cast())),
                step: V::load(LANE_STEPS[V::L].as_ptr().cast()),
                // A secret counter is never copied out of the vectors.
                low: if public {
                    u32::from_be_bytes([y0[12], y0[13], y0[14], y0[15]]).wrapping_add(first)
                } else {
                    0
                },
                public,
            }
        }
    }

    /// Fills `out` with N vectors of counter blocks. When the counter's
    /// low byte cannot overflow within them (true for 7 of 8 batches),
    /// the blocks are built in byte order with one byte swap in all
    /// (adding to the last byte, which sits in the top of dword 3) rather
    /// than one per vector. Only for public counters: the branch is on the
    /// counter; secret ones always take the per-vector path.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn take_n<const N: usize>(&mut self, out: &mut [V; BATCH_VECTORS]) {
        let n = (N * V::L) as u32;
        // SAFETY: the step table holds 64 >= 16 L bytes; features per the
        // caller.
        unsafe {
            if self.public && (self.low & 0xff) + n <= 256 {
                let mut c = V::bswap(self.next);
                let be_step = V::load(LANE_STEPS_BE[V::L].as_ptr().cast());
                for o in out.iter_mut().take(N) {
                    *o = c;
                    c = V::add32(c, be_step);
                }
                for _ in 0..N {
                    self.next = V::add32(self.next, self.step);
                }
            } else {
                for o in out.iter_mut().take(N) {
                    *o = self.take();
                }
                self.low = self.low.wrapping_sub(n);
            }
        }
        self.low = self.low.wrapping_add(n);
    }

    /// The next counters in integer form, for a loop that builds its
    /// counter blocks itself (`ymm_asm`); it reports back with
    /// [`Ctr::advance`].
    #[cfg_attr(any(not(target_arch = "x86_64"), miri), allow(dead_code))]
    pub(super) fn next(&self) -> V {
        self.next
    }

    /// After such a loop took `blocks` counter blocks, `next` being the
    /// counters after them.
    #[cfg_attr(any(not(target_arch = "x86_64"), miri), allow(dead_code))]
    pub(super) fn advance(&mut self, next: V, blocks: usize) {
        self.next = next;
        self.low = self.low.wrapping_add(blocks as u32);
    }

    /// The next vector of counter blocks, ready for AES.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    unsafe fn take(&mut self) -> V {
        // SAFETY: per the caller.
        let c = unsafe { V::bswap(self.next) };
        // SAFETY: per the caller.
        self.next = unsafe { V::add32(self.next, self.step) };
        self.low = self.low.wrapping_add(V::L as u32);
        c
    }
}
