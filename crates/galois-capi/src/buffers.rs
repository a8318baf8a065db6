//! Caller buffers: input and output slices from C pointers, overlap
//! checks, zeroing an output after an error, and private scratch memory.

use super::*;

///
/// # Safety
/// Unless `len` is 0 or `p` NULL, `p` points to `len` bytes that nobody
/// writes for `'a`.
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize) -> Result<&'a [u8], c_int> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize {
        return Err(GALOIS_ERR_TOO_LONG);
    }
    // SAFETY: the caller promises `len` readable bytes at `p` (header contract).
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// An output slice: NULL is allowed only with length 0.
///
/// # Safety
/// Unless `len` is 0 or `p` NULL, `p` points to `len` writable bytes that
/// nobody else accesses for `'a`.
pub(crate) unsafe fn output<'a>(p: *mut u8, len: usize) -> Result<&'a mut [u8], c_int> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(GALOIS_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize {
        return Err(GALOIS_ERR_TOO_LONG);
    }
    // SAFETY: the caller promises `len` writable bytes at `p` (header contract).
    Ok(unsafe { core::slice::from_raw_parts_mut(p, len) })
}

/// Zeroes an output buffer after an error: `len` bytes at `p`, unless `p`
/// is NULL, `len` exceeds `isize::MAX` (refused before anything was
/// touched) or the buffer overlaps `state` (the state is never written
/// through an output).
///
/// # Safety
/// Unless one of those exceptions holds, `p` has `len` writable bytes.
pub(crate) unsafe fn wipe_output(p: *mut u8, len: usize, state: Option<Range>) {
    if p.is_null() || len == 0 || len > isize::MAX as usize {
        return;
    }
    if let Some((s, sl)) = state {
        if overlaps(p, len, s, sl) {
            return;
        }
    }
    // SAFETY: the caller's `len` writable bytes at `p`; zeroize's writes are
    // not optimized away.
    unsafe { core::slice::from_raw_parts_mut(p, len) }.zeroize();
}

/// Returns `r`; if it is an error, first zeroes every output of `outs`
/// (except one overlapping `state`, see [`wipe_output`]). The one place
/// that makes "a failed call leaves no data in its outputs" true.
///
/// # Safety
/// Each of `outs` is NULL or has its length in writable bytes.
pub(crate) unsafe fn zero_if_failed(
    r: c_int,
    outs: &[(*mut u8, usize)],
    state: Option<Range>,
) -> c_int {
    if r != GALOIS_OK {
        for &(p, len) in outs {
            // SAFETY: the caller's writable bytes (contract above).
            unsafe { wipe_output(p, len, state) };
        }
    }
    r
}

/// A byte range given by the caller: pointer and length.
pub(crate) type Range = (*const u8, usize);

/// Whether the byte ranges [a, a+alen) and [b, b+blen) share a byte.
pub(crate) fn overlaps(a: *const u8, alen: usize, b: *const u8, blen: usize) -> bool {
    if alen == 0 || blen == 0 {
        return false;
    }
    let (a, b) = (a as usize, b as usize);
    a < b.saturating_add(blen) && b < a.saturating_add(alen)
}

/// Refuses an output that overlaps any of `others` (pointer, length).
pub(crate) fn no_overlap(out: *const u8, out_len: usize, others: &[Range]) -> Result<(), c_int> {
    if others.iter().any(|&(p, l)| overlaps(out, out_len, p, l)) {
        Err(GALOIS_ERR_OVERLAP)
    } else {
        Ok(())
    }
}

/// The output of a call must hold `need` bytes: reports `need` in
/// `*out_len` ([`set_out_len`]), then refuses an `out_cap` below it with
/// [`GALOIS_ERR_BUFFER_TOO_SMALL`] (the caller learns the size it needs).
///
/// # Safety
/// As [`set_out_len`].
pub(crate) unsafe fn need_out(
    out_len: *mut usize,
    out_cap: usize,
    need: usize,
    others: &[Range],
) -> Result<(), c_int> {
    // SAFETY: forwarded contract.
    unsafe { set_out_len(out_len, need, others)? };
    if out_cap < need {
        return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
    }
    Ok(())
}

/// Writes `*out_len = n` (if `out_len` is not NULL), refusing an `out_len`
/// that overlaps any of `others` (the state, the buffers of the call).
///
/// # Safety
/// `out_len` is NULL or points to a writable `size_t`.
pub(crate) unsafe fn set_out_len(
    out_len: *mut usize,
    n: usize,
    others: &[Range],
) -> Result<(), c_int> {
    if out_len.is_null() {
        return Ok(());
    }
    no_overlap(out_len as *const u8, size_of::<usize>(), others)?;
    // SAFETY: a writable size_t (header contract); unaligned for safety.
    unsafe { ptr::write_unaligned(out_len, n) };
    Ok(())
}

/// GCM's plaintext limit, checked before any private memory is reserved.
pub(crate) fn check_message(len: usize) -> Result<(), c_int> {
    if len as u64 > MAX_PLAINTEXT_BYTES {
        Err(GALOIS_ERR_TOO_LONG)
    } else {
        Ok(())
    }
}

/// Bytes of private memory on the stack; longer messages go to the heap.
pub(crate) const STACK_SCRATCH: usize = 256;

/// Private memory for one seal or open: a copy of the input, worked on in
/// place, then copied out. Wiped when dropped.
#[allow(clippy::large_enum_variant)] // the stack variant is the point: no allocation
pub(crate) enum Scratch {
    Stack([u8; STACK_SCRATCH], usize),
    Heap(Vec<u8>),
}

impl Scratch {
    pub(crate) fn copy_of(src: &[u8]) -> Result<Self, c_int> {
        if src.len() <= STACK_SCRATCH {
            let mut b = [0u8; STACK_SCRATCH];
            b[..src.len()].copy_from_slice(src);
            return Ok(Scratch::Stack(b, src.len()));
        }
        let mut v = Vec::new();
        v.try_reserve_exact(src.len())
            .map_err(|_| GALOIS_ERR_NO_MEMORY)?;
        v.extend_from_slice(src);
        Ok(Scratch::Heap(v))
    }

    pub(crate) fn bytes(&mut self) -> &mut [u8] {
        match self {
            Scratch::Stack(b, n) => &mut b[..*n],
            Scratch::Heap(v) => v,
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.bytes().zeroize();
    }
}
