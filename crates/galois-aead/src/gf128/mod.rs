//! GF(2^128) in GCM's bit order, and the GHASH backends that multiply in it.
//!
//! The field is GF(2)\[x\] / (x^128 + x^7 + x^2 + x + 1). GCM writes an
//! element as a 128-bit string whose *leftmost* bit is the coefficient of
//! x^0 (the GCM specification (McGrew and Viega), sections 2.5 and 3). Every backend here holds an element as
//! `u128::from_be_bytes(block)`, so the most significant bit of the integer
//! is the coefficient of x^0 and the least significant bit that of x^127.
//! In that representation multiplying by x is a right shift by one, and the
//! bit shifted out (x^128) comes back as x^7 + x^2 + x + 1, the constant
//! `R` = 0xE1 || 0^120.
//!
//! # The bit-reflected reduction
//!
//! Every backend that multiplies with a carry-less multiplier (PCLMULQDQ,
//! the integer trick of `ctmul64`, the vector kernels of `wide/`) rests
//! on this derivation; the others point here.
//!
//! Read as a polynomial in z (bit i = coefficient of z^i), the integer of an
//! element holds the coefficient of x^k at bit 127 - k: it is the element
//! bit-reflected. Multiply two such integers carry-lessly: the terms x^k of
//! a and x^l of b meet at bit (127 - k) + (127 - l) = 254 - (k + l), so
//! over 256 bits, where x^k of the reflected product sits at bit 255 - k,
//! the raw product is the reflected field product shifted right by one
//! (Gueron-Kounavis identity (27)). Shifting the 256 bits left by one puts
//! x^0..x^127 in the high half `hi` and x^128..x^255 in the low half `lo`
//! (bit 127 of `lo` is x^128). Then x^(128+j) = x^j (1 + x + x^2 + x^7),
//! and multiplying by x is a right shift, so XOR `lo`, `lo >> 1`, `lo >> 2`
//! and `lo >> 7` into `hi`. The shifts drop the terms that pass x^127, the
//! fold of x^(128+j) for j near 127: they are x^128..x^134 again, that is
//! `lo << 127`, `lo << 126` and `lo << 121` as a new low half, and their own
//! fold lands at x^0..x^13 and drops nothing. So with
//! d = lo ^ (lo << 127) ^ (lo << 126) ^ (lo << 121) the product is
//! hi ^ d ^ (d >> 1) ^ (d >> 2) ^ (d >> 7): the shift-and-XOR reduction of
//! Gueron-Kounavis Algorithm 2, written once as `ctmul64::reduce`.
//!
//! Each backend lives in its own file, opens with the math it uses, and
//! implements the crate-internal `GhashImpl` trait; one line of the
//! registry table below names it, with its CPU-feature probe
//! (docs/architecture.md, "Adding a backend"). Automatic selection
//! ([`GhashBackend::auto`]) only ever picks constant-time ones.

use crate::error::Result;
use zeroize::Zeroize;

// The SIMD kernels are `unsafe fn`s made of intrinsics; their bodies keep
// the edition-2021 rule (no inner `unsafe` blocks).
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/aesni_clmul.rs"]
mod aesni_clmul;
mod bitserial;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/clmul.rs"]
mod clmul;
mod ctmul64;
mod message;
use message::MessageImpl;
pub(crate) use message::MessageTable;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
#[path = "aarch64/pmull.rs"]
pub(crate) mod pmull;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
use pmull::pmull_eor3;
mod shoup4_vartime;
mod shoup8_vartime;
mod table4_vartime;
mod table8_vartime;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/vaes_avx2.rs"]
mod vaes_avx2;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/vaes_avx512.rs"]
mod vaes_avx512;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64/wide/mod.rs"]
pub(crate) mod wide;

pub(crate) use bitserial::mul as mul_reference;

/// a * b for any two elements, in constant time: the `clmul` line's
/// multiplier where the table's probe for it says yes (std caches the CPUID
/// probe), else the `ctmul64` line's. To multiply many values by one fixed
/// H, a GHASH backend is faster.
#[inline]
pub(crate) fn mul(a: u128, b: u128) -> u128 {
    #[cfg(target_arch = "x86_64")]
    if GhashBackend::Clmul.is_available() {
        // SAFETY: the `clmul` line's probe (PCLMULQDQ; SSE2 is part of
        // x86-64) said yes just above: the target features of `clmul::mul`.
        return unsafe { clmul::mul(a, b) };
    }
    ctmul64::mul(a, b)
}

/// x^7 + x^2 + x + 1 in GCM's bit order: the value x^128 folds back to.
pub(crate) const R: u128 = 0xE1 << 120;

/// Multiplies an element by x (a right shift in GCM's bit order), in
/// constant time.
#[inline(always)]
pub(crate) fn mul_x(v: u128) -> u128 {
    (v >> 1) ^ (R & crate::ct::mask128(v))
}

/// A GHASH multiplication strategy keyed with H.
pub(crate) trait GhashImpl: Zeroize + Sized {
    /// Key-dependent storage in bytes (the spec's Table 1 "bytes/key").
    const KEY_BYTES: usize;
    /// Key-independent storage in bytes (for example Shoup's table R).
    const SHARED_BYTES: usize = 0;

    /// The key this backend makes for one message (`MessageKey`): a lean
    /// one on the stack for the wide backends, else `message::OwnKey`.
    type Message<'t>: message::MessageImpl<'t>;

    /// Prepares the multiplier for H; `None` if the CPU lacks the backend's
    /// features.
    fn new(h: u128) -> Option<Self>;

    /// Returns x * H.
    fn mul_h(&self, x: u128) -> u128;

    /// The powers of H of a wide (vector) backend for a message of `len`
    /// bytes, which the AEAD layer's stitched AES-GCM kernels take; `None`
    /// for the others.
    #[cfg(target_arch = "x86_64")]
    fn wide(&self, len: usize) -> Option<wide::WideKey<'_>> {
        let _ = len;
        None
    }

    /// Absorbs whole 16-byte blocks: y <- (y xor B_i) * H for each block.
    /// `blocks.len()` is a multiple of 16.
    fn update_blocks(&self, mut y: u128, blocks: &[u8]) -> u128 {
        for b in blocks.chunks_exact(16) {
            y = self.mul_h(y ^ u128::from_be_bytes(b.try_into().unwrap()));
        }
        y
    }
}

/// `blocks`, checked (in debug builds) to be whole 16-byte blocks.
#[inline(always)]
fn whole(blocks: &[u8]) -> &[u8] {
    debug_assert_eq!(blocks.len() % 16, 0);
    blocks
}

/// The key side of the registry (`crate::registry`): `storage` and the
/// key enum that dispatches to each backend's file.
macro_rules! gf128_keys {
    ($( $(#[$cfg:meta])* $variant:ident => $module:ident; )*) => {
        impl GhashBackend {
            /// Key-dependent and key-independent storage in bytes.
            ///
            /// ```
            /// use galois_aead::GhashBackend;
            /// assert_eq!(GhashBackend::Table8Vartime.storage(), (65536, 0));
            /// assert_eq!(GhashBackend::Bitserial.storage(), (16, 0));
            /// ```
            pub fn storage(self) -> (usize, usize) {
                match self {
                    $( $(#[$cfg])* GhashBackend::$variant =>
                        (<$module::Key as GhashImpl>::KEY_BYTES,
                         <$module::Key as GhashImpl>::SHARED_BYTES), )*
                }
            }
        }

        crate::registry::key_enum! {
            { $( $(#[$cfg])* $variant => $module; )* }
            /// H prepared for one message on one backend (see `message`):
            /// each backend's `GhashImpl::Message`, wiped on drop.
            pub(crate) enum MessageKey<'t> for GhashBackend = [<] Key [as GhashImpl>::Message<'t>];
            /// The key for H on `backend`, for a message of `len` bytes
            /// (AAD and text; it only decides how many powers are worth
            /// computing), its powers in `table` (one per key). `most`: the
            /// most blocks a reduction of its user spans (a stitched
            /// kernel's groups), 0 if it is only hashed with.
            #[inline]
            fn new(table: &'t mut MessageTable, h: u128, backend: GhashBackend, len: usize, most: usize) -> Result<Self>
                = backend => |m| <<m::Key as GhashImpl>::Message<'t> as MessageImpl<'t>>::new(table, h, len, most);
            /// x * H.
            #[inline]
            fn mul_h(x: u128) -> u128 = |k, m| k.mul_h(x);
            /// Absorbs whole blocks: y <- (y xor B_i) * H for each.
            #[inline]
            fn update_blocks(y: u128, blocks: &[u8]) -> u128 = |k, m| k.update_blocks(y, whole(blocks));
            /// [`MessageKey::update_blocks`] of blocks each byte-reversed
            /// (POLYVAL's order), on the backends that load them as they
            /// are; `None` on the others (the caller reverses a copy).
            #[inline]
            fn update_polyval_blocks(y: u128, blocks: &[u8]) -> Option<u128> = |k, m| k.update_polyval_blocks(y, whole(blocks));
            /// The powers of a wide backend's key, for the stitched AES-GCM
            /// kernels (the other backends: `None`).
            #[cfg(target_arch = "x86_64")]
            #[inline]
            fn wide() -> Option<wide::WideKey<'t>> = |k, m| k.wide();
        }

        crate::registry::mul_key_enum! {
            { $( $(#[$cfg])* $variant => $module; )* } GhashKey for GhashBackend, u128, 16;
            #[inline(always)]
            #[cfg(target_arch = "x86_64")]
            fn wide(len: usize) -> Option<wide::WideKey<'_>> = |k, m| k.wide(len);
        }
    };
}

crate::registry::registry! {
    /// A GHASH strategy: every one the GCM papers give, in the registry of
    /// `crate::registry` (fastest first; the reference and the
    /// secret-indexed tables last). Pin one with the builders of
    /// [`crate::Gcm`] and [`crate::Ghash`]; automatic selection
    /// ([`GhashBackend::auto`]) picks the first constant-time one this CPU has.
    ///
    /// ```
    /// use galois_aead::{AesGcm, GhashBackend, Options};
    /// for b in GhashBackend::available() {
    ///     let gcm = AesGcm::with_options(&[1u8; 16], Options::new().backend(b))?;
    ///     assert_eq!(gcm.seal(&[0; 12], b"", b"same")?, AesGcm::new(&[1u8; 16])?.seal(&[0; 12], b"", b"same")?);
    /// }
    /// assert_eq!(GhashBackend::from_name("shoup8_vartime")?, GhashBackend::Shoup8Vartime);
    /// assert!(!GhashBackend::Shoup8Vartime.is_constant_time());
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub enum GhashBackend; path = "galois_aead::GhashBackend", keys = gf128_keys;
    portable = Ctmul64;
    VaesAvx512 => vaes_avx512, "vaes_avx512", ct = true, detect = crate::detect::has_vaes_avx512, "VAES + VPCLMULQDQ on zmm: 32-block batches, AES stitched with GHASH.", #[cfg(target_arch = "x86_64")];
    VaesAvx2 => vaes_avx2, "vaes_avx2", ct = true, detect = crate::detect::has_vaes_avx2, "VAES + VPCLMULQDQ on ymm: 16-block batches, AES stitched with GHASH.", #[cfg(target_arch = "x86_64")];
    AesniClmul => aesni_clmul, "aesni_clmul", ct = true, detect = crate::detect::has_aesni_clmul, "AES-NI + PCLMULQDQ (xmm): 8-block batches, AES stitched with GHASH.", #[cfg(target_arch = "x86_64")];
    Clmul => clmul, "clmul", ct = true, detect = crate::detect::has_pclmul, "PCLMULQDQ with Karatsuba, the fast reduction and 8-block aggregated reduction.", #[cfg(target_arch = "x86_64")];
    PmullEor3 => pmull_eor3, "pmull_eor3", ct = true, detect = crate::detect::has_pmull_sha3, "As `pmull`, with the three-way XOR EOR3 of FEAT_SHA3.", #[cfg(all(target_arch = "aarch64", target_endian = "little"))];
    Pmull => pmull, "pmull", ct = true, detect = crate::detect::has_pmull, "ARMv8 PMULL/PMULL2 with Karatsuba and 8-block aggregated Montgomery reduction.", #[cfg(all(target_arch = "aarch64", target_endian = "little"))];
    Ctmul64 => ctmul64, "ctmul64", ct = true, detect = crate::detect::always, "Portable constant time: carry-less products from 64-bit integer multiplies.";
    // The reference and the spec's table methods: never picked automatically
    // (the bit-serial reference is slow, the tables are secret-indexed).
    Bitserial => bitserial, "bitserial", ct = true, detect = crate::detect::always, "Algorithm 1 of the spec, one bit at a time: the reference.";
    Table8Vartime => table8_vartime, "table8_vartime", ct = false, detect = crate::detect::always, "Equation (6): 16 tables of 256 entries, 65,536 bytes per key. Secret-indexed.";
    Table4Vartime => table4_vartime, "table4_vartime", ct = false, detect = crate::detect::always, "The 4-bit variant of equation (6): 32 tables of 16 entries, 8,192 bytes per key. Secret-indexed.";
    Shoup8Vartime => shoup8_vartime, "shoup8_vartime", ct = false, detect = crate::detect::always, "Shoup's method (Algorithms 2 and 3) with 8-bit tables. Secret-indexed.";
    Shoup4Vartime => shoup4_vartime, "shoup4_vartime", ct = false, detect = crate::detect::always, "Shoup's method with 4-bit tables. Secret-indexed.";
}

/// The 128 products H * x^i, i = 0..127, from which the table backends
/// build their entries.
pub(crate) fn powers_of_x(h: u128) -> [u128; 128] {
    let mut p = [0u128; 128];
    let mut v = h;
    for e in p.iter_mut() {
        *e = v;
        v = mul_x(v);
    }
    p
}

/// Fills `table[n]` = XOR of `basis[k]` over the bits k of the `bits`-bit
/// index n, the most significant index bit selecting `basis[0]`.
/// Each entry costs one XOR (the spec's Algorithm 3, generalized).
pub(crate) fn fill_table(table: &mut [u128], basis: &[u128], bits: u32) {
    table[0] = 0;
    for n in 1..table.len() {
        let low = n & n.wrapping_neg();
        let k = (bits - 1 - low.trailing_zeros()) as usize;
        table[n] = table[n ^ low] ^ basis[k];
    }
}

/// The key-independent reduction table of Shoup's method for `bits`-bit
/// steps: entry n is what the low `bits` bits n of Z become, above bit 112,
/// when Z is multiplied by x^bits.
pub(crate) const fn shoup_reduction_table<const N: usize>(bits: u32) -> [u16; N] {
    let mut t = [0u16; N];
    let mut n = 0;
    while n < N {
        let mut p = 0;
        while p < bits {
            // Bit p of the low bits is x^(127-p); times x^bits it is
            // x^128 * x^(bits-1-p), i.e. R shifted right by bits-1-p.
            if (n >> p) & 1 == 1 {
                t[n] ^= 0xE100 >> (bits - 1 - p);
            }
            p += 1;
        }
        n += 1;
    }
    t
}

/// A running GHASH accumulator: Y and a partial block. It borrows the key
/// on each call, so GCM can keep one key and many accumulators; a clone is
/// a saved state that can be resumed. Wiped on drop.
#[derive(Zeroize, Default, Clone)]
pub(crate) struct Acc {
    pub(crate) y: u128,
    pub(crate) buf: [u8; 16],
    pub(crate) buf_len: usize,
}

impl Drop for Acc {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl Acc {
    pub(crate) fn update(&mut self, key: &GhashKey, data: &[u8]) {
        let y = &mut self.y;
        crate::block::feed_blocks(&mut self.buf, &mut self.buf_len, data, |b| {
            *y = key.update_blocks(*y, b);
        });
    }

    pub(crate) fn pad(&mut self, key: &GhashKey) {
        if self.buf_len > 0 {
            self.buf[self.buf_len..].fill(0);
            self.y = key.update_blocks(self.y, &self.buf);
            self.buf_len = 0;
        }
    }

    pub(crate) fn update_padded(&mut self, key: &GhashKey, data: &[u8]) {
        self.update(key, data);
        self.pad(key);
    }

    /// Absorbs one whole block given as an element.
    pub(crate) fn absorb_block(&mut self, key: &GhashKey, block: u128) {
        debug_assert_eq!(self.buf_len, 0);
        self.y = key.mul_h(self.y ^ block);
    }

    /// The accumulator after the whole blocks absorbed so far.
    pub(crate) fn y(&self) -> u128 {
        self.y
    }

    /// Pads, absorbs len(A) || len(C) (given in bytes) and returns GHASH.
    pub(crate) fn finish(&mut self, key: &GhashKey, aad_len: u64, ct_len: u64) -> u128 {
        self.pad(key);
        let lens = ((aad_len as u128 * 8) << 64) | (ct_len as u128 * 8);
        self.y = key.mul_h(self.y ^ lens);
        self.y
    }
}

/// GHASH as a keyed universal hash: H and an accumulator, so input can be
/// split anywhere.
///
/// ```
/// use galois_aead::{GhashBackend, Ghash};
/// let h = [0x42u8; 16];
/// let mut a = Ghash::new(&h);
/// a.update(b"split ");
/// a.update(b"anywhere");
/// let mut b = Ghash::with_backend(&h, GhashBackend::Bitserial)?;
/// b.update(b"split anywhere");
/// assert_eq!(a.finalize(), b.finalize());
/// # Ok::<(), galois_aead::Error>(())
/// ```
///
/// `update` treats all input as one byte string, zero-padded at the end;
/// `update_padded` pads each call to a block boundary, as GCM does between
/// A and C. Key and state are wiped on drop.
pub struct Ghash {
    key: GhashKey,
    acc: Acc,
}

impl zeroize::ZeroizeOnDrop for Ghash {}

impl Drop for Ghash {
    fn drop(&mut self) {
        self.key.zeroize();
        self.acc.zeroize();
    }
}

impl Ghash {
    /// Keys GHASH with H (spec bit order) on the fastest constant-time
    /// backend this CPU has.
    ///
    /// ```
    /// use galois_aead::{gf128_mul, Ghash};
    /// let (h, c) = ([0x42u8; 16], [7u8; 16]);
    /// let mut g = Ghash::new(&h);
    /// g.update(&c);
    /// assert_eq!(g.finalize(), gf128_mul(&c, &h)); // one block: X_1 = C_1 * H
    /// ```
    pub fn new(h: &[u8; 16]) -> Self {
        Self::with_backend(h, GhashBackend::auto()).expect("auto backend is available")
    }

    /// Keys GHASH with a pinned backend; fails if the CPU lacks it.
    ///
    /// ```
    /// use galois_aead::{GhashBackend, Ghash};
    /// let g = Ghash::with_backend(&[3; 16], GhashBackend::Shoup4Vartime)?;
    /// assert_eq!(g.backend(), GhashBackend::Shoup4Vartime);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn with_backend(h: &[u8; 16], backend: GhashBackend) -> Result<Self> {
        let key = GhashKey::new(u128::from_be_bytes(*h), backend)?;
        Ok(Ghash {
            key,
            acc: Acc::default(),
        })
    }

    /// The backend in use.
    ///
    /// ```
    /// let g = galois_aead::Ghash::new(&[3; 16]);
    /// assert_eq!(g.backend(), galois_aead::GhashBackend::auto());
    /// ```
    pub fn backend(&self) -> GhashBackend {
        self.key.backend()
    }

    /// Absorbs bytes; calls may split the input anywhere.
    ///
    /// ```
    /// let mut a = galois_aead::Ghash::new(&[9; 16]);
    /// a.update(b"0123456789");
    /// a.update(b"abcdef"); // completes the first block
    /// let mut b = galois_aead::Ghash::new(&[9; 16]);
    /// b.update(b"0123456789abcdef");
    /// assert_eq!(a.state(), b.state());
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        self.acc.update(&self.key, data);
    }

    /// Zero-pads any partial block, closing the current string.
    ///
    /// ```
    /// let mut a = galois_aead::Ghash::new(&[9; 16]);
    /// a.update(b"abc");
    /// a.pad();
    /// let mut b = galois_aead::Ghash::new(&[9; 16]);
    /// b.update(b"abc\0\0\0\0\0\0\0\0\0\0\0\0\0");
    /// assert_eq!(a.state(), b.state());
    /// ```
    pub fn pad(&mut self) {
        self.acc.pad(&self.key);
    }

    /// Absorbs `data` and zero-pads it to a block boundary.
    ///
    /// ```
    /// let mut a = galois_aead::Ghash::new(&[9; 16]);
    /// a.update_padded(b"A");
    /// a.update_padded(b"C");
    /// let mut b = galois_aead::Ghash::new(&[9; 16]);
    /// b.update(b"AC");
    /// assert_ne!(a.finalize(), b.finalize()); // two padded blocks, not one
    /// ```
    pub fn update_padded(&mut self, data: &[u8]) {
        self.acc.update_padded(&self.key, data);
    }

    /// The accumulator X_i after the whole blocks absorbed so far (spec
    /// equation (2)), for step-by-step checks.
    ///
    /// ```
    /// use galois_aead::{gf128_mul, Ghash};
    /// let h = [5u8; 16];
    /// let mut g = Ghash::new(&h);
    /// g.update(&[1; 20]); // one whole block, four bytes pending
    /// assert_eq!(g.state(), gf128_mul(&[1; 16], &h));
    /// ```
    pub fn state(&self) -> [u8; 16] {
        self.acc.y().to_be_bytes()
    }

    /// Pads and returns the hash. GCM's length block is the caller's to add.
    ///
    /// ```
    /// let mut g = galois_aead::Ghash::new(&[5u8; 16]);
    /// g.update(&[0; 48]);
    /// assert_eq!(g.finalize(), [0; 16]); // (0 * H + 0) * H ... = 0
    /// ```
    pub fn finalize(mut self) -> [u8; 16] {
        self.pad();
        self.acc.y().to_be_bytes()
    }
}

/// Multiplies two field elements given in GCM's byte order with the
/// bit-serial reference (Algorithm 1). For tests and tools.
///
/// ```
/// use galois_aead::gf128_mul;
/// let one = [0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]; // x^0 is the leftmost bit
/// let x = [0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// let mut x127 = [0u8; 16];
/// x127[15] = 1;
/// assert_eq!(gf128_mul(&[0x5a; 16], &one), [0x5a; 16]);
/// let mut r = [0u8; 16];
/// r[0] = 0xe1; // x^128 = x^7 + x^2 + x + 1
/// assert_eq!(gf128_mul(&x, &x127), r);
/// ```
pub fn gf128_mul(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    mul_reference(u128::from_be_bytes(*a), u128::from_be_bytes(*b)).to_be_bytes()
}

// The backend, never H or the running hash.
crate::registry::debug_public!(Ghash: backend);

#[cfg(test)]
mod tests {
    use super::*;

    /// `mul` (the crate's general multiply) and both its paths equal the
    /// bit-serial reference on random inputs and on the edge values.
    #[test]
    fn general_mul_matches_reference() {
        let mut s = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834u128;
        let mut next = || crate::registry::xorshift(&mut s);
        let mut cases = vec![(0, 0), (1 << 127, 1 << 127), (1, 1), (u128::MAX, u128::MAX)];
        cases.extend((0..2000).map(|_| (next(), next())));
        for (a, b) in cases {
            let want = mul_reference(a, b);
            assert_eq!(mul(a, b), want, "{a:032x} * {b:032x}");
            assert_eq!(ctmul64::mul(a, b), want);
            #[cfg(target_arch = "x86_64")]
            if crate::detect::has_pclmul() {
                // SAFETY: PCLMULQDQ was detected just above.
                assert_eq!(unsafe { clmul::mul(a, b) }, want);
            }
        }
    }
}

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
impl GhashKey {
    /// The PMULL powers of H, and whether FEAT_SHA3 (EOR3) was proven, for
    /// the aarch64 stitched AES-GCM kernels (`gcm::kernels::pmull_aes`);
    /// `None` for the other backends. The key's existence proves PMULL.
    pub(crate) fn pmull(&self) -> Option<(&pmull::Powers, bool)> {
        match self {
            GhashKey::Pmull(k) => Some((&k.0, false)),
            GhashKey::PmullEor3(k) => Some((&k.0, true)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    /// Without the CPU features no SIMD backend is available or keyable,
    /// and automatic selection is the portable constant-time one.
    #[test]
    fn unprobed_backends_are_unavailable() {
        let _hide = crate::detect::hidden::all();
        assert_eq!(GhashBackend::auto(), GhashBackend::Ctmul64);
        for &b in GhashBackend::ALL {
            let portable = matches!(
                b,
                GhashBackend::Bitserial
                    | GhashBackend::Table8Vartime
                    | GhashBackend::Table4Vartime
                    | GhashBackend::Shoup8Vartime
                    | GhashBackend::Shoup4Vartime
                    | GhashBackend::Ctmul64
            );
            assert_eq!(b.is_available(), portable, "{b}");
            assert_eq!(GhashKey::new(3, b).is_ok(), portable, "{b}");
        }
    }
}
