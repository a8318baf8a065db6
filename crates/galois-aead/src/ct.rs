//! Constant-time helpers: comparison and wiping.

/// Compares two byte strings in time that depends only on their lengths.
///
/// ```
/// assert!(galois_aead::ct::eq(b"tag", b"tag"));
/// assert!(!galois_aead::ct::eq(b"tag", b"tah"));
/// assert!(!galois_aead::ct::eq(b"tag", b"tags"));
/// ```
pub fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // The XOR of every 8-byte word, ORed into one: no branch on the
    // contents, and the accumulator passes through `black_box` each word
    // so the compiler cannot stop at the first difference. (`subtle`'s
    // slice comparison makes each byte's verdict a volatile stack round
    // trip: about 20 ns for a 16-byte tag here, a tenth of a 1500-byte
    // open.)
    let (aw, ar) = a.as_chunks::<8>();
    let (bw, br) = b.as_chunks::<8>();
    let mut d = 0u64;
    for (x, y) in aw.iter().zip(bw) {
        d = core::hint::black_box(d | (u64::from_ne_bytes(*x) ^ u64::from_ne_bytes(*y)));
    }
    for (x, y) in ar.iter().zip(br) {
        d = core::hint::black_box(d | u64::from(x ^ y));
    }
    // The verdict is public by design: every caller branches on it.
    declassify(d == 0)
}

/// Marks a value computed from secrets as public where the library makes
/// it public by design (a tag verdict, a refused key), so that the
/// constant-time check (`crates/galois-ct`, built with
/// `RUSTFLAGS='--cfg galois_ctgrind'`) does not report the branch on it.
/// Under that cfg it is a valgrind memcheck "make mem defined" client
/// request (a no-op outside valgrind); otherwise the identity.
#[cfg(not(all(galois_ctgrind, target_arch = "x86_64")))]
#[inline(always)]
pub(crate) fn declassify<T: Copy>(v: T) -> T {
    v
}

/// The `galois_ctgrind` build of [`declassify`].
#[cfg(all(galois_ctgrind, target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn declassify<T: Copy>(v: T) -> T {
    let mut slot = v;
    let p: *mut T = &mut slot;
    // VG_USERREQ__MAKE_MEM_DEFINED of memcheck.h: tool base ('M','C') + 2.
    let args: [usize; 6] = [0x4d43_0002, p as usize, core::mem::size_of::<T>(), 0, 0, 0];
    // SAFETY: the magic preamble rotates rdi by 3+13+61+51 = 128 bits,
    // leaving it unchanged, and `xchg rbx, rbx` is a no-op, so natively this
    // only clobbers rdx and the flags; valgrind instead reads the six words
    // at rax (valid during the call) and writes its answer to rdx.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") 0usize => _,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    // SAFETY: p points to the live local `slot`; volatile so that the value
    // is reloaded after the request.
    unsafe { core::ptr::read_volatile(p) }
}

/// Overwrites a buffer with zeros in a way the compiler keeps: a plain
/// (vectorized) fill, then the buffer handed to `black_box` and a compiler
/// fence so the stores cannot be removed as dead.
///
/// ```
/// let mut secret = vec![7u8; 1000];
/// galois_aead::ct::wipe(&mut secret);
/// assert!(secret.iter().all(|&b| b == 0));
/// ```
pub fn wipe(buf: &mut [u8]) {
    wipe_now(buf);
}

/// [`wipe`], inlined where a small secret of known size is wiped on a hot
/// path (`zeroize`'s volatile writes go one byte at a time: 240 stores for
/// an AES-256 schedule).
#[inline(always)]
pub(crate) fn wipe_now(b: &mut [u8]) {
    b.fill(0);
    core::hint::black_box(&mut *b);
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// All-ones if `bit` is 1, zero if it is 0, without a branch.
#[inline(always)]
pub(crate) fn mask128(bit: u128) -> u128 {
    (bit & 1).wrapping_neg()
}

#[cfg(test)]
mod tests {
    /// Every length around the word size, a difference in every byte and
    /// bit (in the whole words and in the bytes after them), and length
    /// mismatches: `eq` is byte equality.
    #[test]
    fn eq_is_byte_equality() {
        for len in 0..41usize {
            let a: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            assert!(super::eq(&a, &a.clone()), "len {len}");
            for i in 0..len {
                for bit in 0..8 {
                    let mut b = a.clone();
                    b[i] ^= 1 << bit;
                    assert!(!super::eq(&a, &b), "len {len} byte {i} bit {bit}");
                    assert!(!super::eq(&b, &a), "len {len} byte {i} bit {bit}");
                }
            }
            let mut longer = a.clone();
            longer.push(0);
            assert!(
                !super::eq(&a, &longer) && !super::eq(&longer, &a),
                "len {len}"
            );
        }
    }
}
