//! The AES side of a vector of blocks: the [`Lanes`] of the field layer
//! (lanes of elements in integer form; see `gf128::wide`) extended with
//! the AES round instructions, the 32-bit counter addition and the
//! scheduling fence the stitched loop needs, and the round keys as the
//! kernels load them. No instruction set here; `x86.rs` implements it.

use super::counters::Ctr;
use super::tuning::BATCH_VECTORS;
use crate::gf128::wide::{Lanes, Powers};

/// AES rounds and counters on a vector of blocks.
///
/// # Safety
///
/// As [`Lanes`]: every method runs only in a function that enabled the
/// implementing type's features, AES included (the stitched kernels are
/// reached only through a `WideKey`, whose backend's detection proved
/// them, and AES-NI round keys, which exist only where AES-NI was found).
pub(crate) trait AesLanes: Lanes {
    /// One AES round on each lane, round key k.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn aesenc(a: Self, k: Self) -> Self;
    /// The last AES round on each lane, round key k.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn aesenclast(a: Self, k: Self) -> Self;
    /// Adds the 32-bit words of b to those of a, modulo 2^32 each.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn add32(a: Self, b: Self) -> Self;
    /// One AES round on a single block (E(K, Y0) beside the batch).
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn block_aesenc(a: Self::Block, k: Self::Block) -> Self::Block;
    /// The last AES round on a single block.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn block_aesenclast(a: Self::Block, k: Self::Block) -> Self::Block;
    /// [`AesLanes::add32`] on a single block.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn block_add32(a: Self::Block, b: Self::Block) -> Self::Block;
    /// Emits nothing, but makes the compiler treat the AES states and `x`
    /// as rewritten here: instructions using them cannot move across it.
    /// `batch` puts one after each round so that each vector's multiplies
    /// stay between the rounds they were written between (left alone, LLVM
    /// hoists all of a batch's multiplies together, and the core's window
    /// then sees long runs of one kind).
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn fence(s: &mut [Self; BATCH_VECTORS], x: &mut Self);

    /// Whether [`AesLanes::batches`] is a loop of this width's own (in
    /// assembly: `ymm_asm.rs`), which the stitched seal and open then use
    /// for their whole batches instead of the generic loop.
    const OWN_BATCHES: bool = false;

    /// `count` (> 0) whole batches: encrypts (or decrypts) the 16 L
    /// BATCH_VECTORS bytes at `src` into `dst` under the next counters
    /// while hashing as many at `hash` into y against the powers of H (one
    /// reduction per batch or per pair of batches), all three advancing a
    /// batch each time.
    /// Only where [`AesLanes::OWN_BATCHES`].
    ///
    /// # Safety
    /// The trait's contract; `src` and `hash` are valid for reads and `dst`
    /// for writes of `count` batches, `dst` equals or does not overlap
    /// `src`, batch i does not write `hash`'s batch i, and `pw` has at
    /// least 16 L BATCH_VECTORS powers.
    #[allow(clippy::too_many_arguments)]
    unsafe fn batches<const NR: usize>(
        _rk: &RoundKeys<Self>,
        _ctr: &mut Ctr<Self>,
        _pw: &Powers,
        _y: &mut Self::Block,
        _hash: *const u8,
        _src: *const u8,
        _dst: *mut u8,
        _count: usize,
    ) {
        unreachable!("only called where OWN_BATCHES");
    }
}

/// AES round keys, loaded (and broadcast to every lane) where used; in
/// the long loops the compiler keeps them in registers. Indexing is
/// checked; the length check in `new` lets the compiler drop the checks
/// for the constant round numbers of the unrolled loops.
pub(crate) struct RoundKeys<'a, V> {
    rk: &'a [[u8; 16]],
    _v: core::marker::PhantomData<V>,
}

impl<'a, V: AesLanes> RoundKeys<'a, V> {
    /// The NR + 1 keys of an NR-round AES.
    #[inline(always)]
    pub(crate) fn new<const NR: usize>(rk: &'a [[u8; 16]]) -> Self {
        assert_eq!(rk.len(), NR + 1, "round keys for {NR} rounds");
        RoundKeys {
            rk,
            _v: core::marker::PhantomData,
        }
    }

    /// The NR + 1 round keys, in order.
    #[cfg_attr(any(not(target_arch = "x86_64"), miri), allow(dead_code))]
    pub(crate) fn all(&self) -> &'a [[u8; 16]] {
        self.rk
    }

    /// Round key r as one block.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn k1(&self, r: usize) -> V::Block {
        // SAFETY: a round key is 16 bytes, one block; features per the caller.
        unsafe { V::Block::load(self.rk[r].as_ptr()) }
    }

    /// Round key r in every lane.
    ///
    /// # Safety
    /// V's features are enabled.
    #[inline(always)]
    pub(crate) unsafe fn k(&self, r: usize) -> V {
        // SAFETY: per the caller.
        unsafe { V::broadcast(self.k1(r)) }
    }
}
