//! A vector of L = 1, 2 or 4 blocks, each 128-bit lane one field element
//! in integer form (`u128::from_be_bytes(block)`, bit 127 = x^0; the
//! carry-less product of two lanes is their reflected product shifted by
//! one, derived in the `gf128` module doc). `Block` is the single-lane
//! type of the same instruction set (`__m128i` on x86-64; a NEON backend
//! would use `uint8x16_t`), which carries the running GHASH value and
//! single keys. This file names no instruction set; `x86.rs` implements it.

/// The vector operations the GHASH loop and the stitched kernels need.
///
/// # Safety
///
/// Every method is `unsafe` for the same two reasons: it may only run in
/// a function that enabled the CPU features of the implementing type (see
/// its impl; the backends prove them by CPU detection at key setup), and
/// a pointer argument must be valid for the bytes the method names
/// (16 L unless it says otherwise).
pub(crate) trait Lanes: Copy {
    /// One lane of this instruction set (a vector with L = 1).
    type Block: Lanes<Block = Self::Block>;
    /// Blocks per vector.
    const L: usize;
    /// All lanes zero.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn zero() -> Self;
    /// Loads 16 L bytes at `p` (unaligned).
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn load(p: *const u8) -> Self;
    /// Stores 16 L bytes at `p` (unaligned).
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn store(p: *mut u8, v: Self);
    /// a ^ b.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn xor(a: Self, b: Self) -> Self;
    /// Per lane: the carry-less product of the low 64-bit halves.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn clmul00(a: Self, b: Self) -> Self;
    /// Per lane: the carry-less product of the high 64-bit halves.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn clmul11(a: Self, b: Self) -> Self;
    /// Reverses the bytes of each 128-bit lane.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn bswap(a: Self) -> Self;
    /// Swaps the 64-bit halves of each lane.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn swap64(a: Self) -> Self;
    /// `x` in every lane.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn broadcast(x: Self::Block) -> Self;
    /// `x` in lane 0, zeros elsewhere.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn low(x: Self::Block) -> Self;
    /// XOR of all lanes.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn fold(a: Self) -> Self::Block;
    /// Keeps the first n (< 16 L) bytes of v, zeros after.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn keep(v: Self, n: usize) -> Self;
    /// v with lane `l` (< L) replaced by x.
    ///
    /// # Safety
    /// The trait's contract.
    unsafe fn with_lane(v: Self, l: usize, x: Self::Block) -> Self;
    /// Loads the first n (< 16 L) bytes at p, zeros after.
    ///
    /// # Safety
    /// The trait's contract, with `p` valid for n bytes.
    unsafe fn load_partial(p: *const u8, n: usize) -> Self;
    /// Stores the first n (< 16 L) bytes of v at p.
    ///
    /// # Safety
    /// The trait's contract, with `p` valid for n bytes.
    unsafe fn store_partial(p: *mut u8, n: usize, v: Self);
}

/// The first `m` (<= 16) bytes at `p` as the two little-endian halves of
/// a 16-byte value (whatever the target's byte order), zero past them: at
/// most two (overlapping) loads per half, each inside the m bytes. For a
/// vector's partial load from general registers (a byte copy to the stack
/// and a vector load of it stalls on store forwarding).
///
/// # Safety
/// `p` is valid for reads of m bytes.
#[inline(always)]
pub(crate) unsafe fn read_upto16(p: *const u8, m: usize) -> (u64, u64) {
    use core::ptr::read_unaligned as rd;
    // SAFETY: every read below lies in [p, p + m) (the caller).
    unsafe {
        if m >= 8 {
            let lo = u64::from_le(rd(p.cast::<u64>()));
            // Bytes m-8..m, shifted down so byte 8 comes first.
            let hi = if m > 8 {
                u64::from_le(rd(p.add(m - 8).cast::<u64>())) >> (8 * (16 - m))
            } else {
                0
            };
            (lo, hi)
        } else if m >= 4 {
            let a = u64::from(u32::from_le(rd(p.cast::<u32>())));
            let b = u64::from(u32::from_le(rd(p.add(m - 4).cast::<u32>())));
            (a | b << (8 * (m - 4)), 0)
        } else if m > 0 {
            let (a, b, c) = (*p, *p.add(m / 2), *p.add(m - 1));
            let v = u64::from(a) | u64::from(b) << (8 * (m / 2)) | u64::from(c) << (8 * (m - 1));
            (v, 0)
        } else {
            (0, 0)
        }
    }
}

/// Stores the first `m` (<= 16) bytes of the 16-byte value with
/// little-endian halves `lo`, `hi` at `p` (the inverse of
/// [`read_upto16`]): overlapping stores of equal bytes, none past p + m.
///
/// # Safety
/// `p` is valid for writes of m bytes.
#[inline(always)]
pub(crate) unsafe fn write_upto16(p: *mut u8, m: usize, lo: u64, hi: u64) {
    use core::ptr::write_unaligned as wr;
    // SAFETY: every write below lies in [p, p + m) (the caller).
    unsafe {
        if m >= 8 {
            wr(p.cast::<u64>(), lo.to_le());
            if m > 8 {
                let v = (u128::from(hi) << 64 | u128::from(lo)) >> (8 * (m - 8));
                wr(p.add(m - 8).cast::<u64>(), (v as u64).to_le());
            }
        } else if m >= 4 {
            wr(p.cast::<u32>(), (lo as u32).to_le());
            wr(
                p.add(m - 4).cast::<u32>(),
                ((lo >> (8 * (m - 4))) as u32).to_le(),
            );
        } else if m > 0 {
            *p = lo as u8;
            *p.add(m / 2) = (lo >> (8 * (m / 2))) as u8;
            *p.add(m - 1) = (lo >> (8 * (m - 1))) as u8;
        }
    }
}

/// The element `v` as a block (the integer in the lane, as loaded from its
/// native-endian bytes: both targets here are little-endian).
///
/// # Safety
/// B's features are enabled (the `Lanes` contract).
#[inline(always)]
pub(crate) unsafe fn u128_to_block<B: Lanes>(v: u128) -> B {
    debug_assert_eq!(B::L, 1);
    // SAFETY: v is 16 readable bytes, a block's size; features per the caller.
    unsafe { B::load((&v as *const u128).cast()) }
}

/// The block `v` as an element (the inverse of [`u128_to_block`]).
///
/// # Safety
/// B's features are enabled (the `Lanes` contract).
#[inline(always)]
pub(crate) unsafe fn block_to_u128<B: Lanes>(v: B) -> u128 {
    debug_assert_eq!(B::L, 1);
    let mut o = 0u128;
    // SAFETY: o is 16 writable bytes, a block's size; features per the caller.
    unsafe { B::store((&mut o as *mut u128).cast(), v) };
    o
}

#[cfg(test)]
mod tests {
    use super::{read_upto16, write_upto16};

    /// Every length 0..=16 at every offset in a 32-byte window: the read
    /// gives exactly the m bytes (zero after), the write changes exactly
    /// them, and the two are inverse.
    #[test]
    fn partial_reads_and_writes_touch_exactly_m_bytes() {
        let src: Vec<u8> = (1..=48).collect();
        for m in 0..=16 {
            for off in 0..16 {
                let p = src[off..].as_ptr();
                // SAFETY: src has 48 bytes, off + m <= 32.
                let (lo, hi) = unsafe { read_upto16(p, m) };
                let mut want = [0u8; 16];
                want[..m].copy_from_slice(&src[off..off + m]);
                let got = (u128::from(hi) << 64 | u128::from(lo)).to_le_bytes();
                assert_eq!(got, want, "read m {m} off {off}");
                let mut dst = [0xeeu8; 48];
                // SAFETY: dst has 48 bytes, off + m <= 32.
                unsafe { write_upto16(dst[off..].as_mut_ptr(), m, lo, hi) };
                assert!(dst[..off].iter().all(|&b| b == 0xee), "before, m {m}");
                assert_eq!(&dst[off..off + m], &src[off..off + m], "m {m} off {off}");
                assert!(dst[off + m..].iter().all(|&b| b == 0xee), "after, m {m}");
            }
        }
    }
}
