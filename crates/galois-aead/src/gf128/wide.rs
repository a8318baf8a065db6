//! The template behind the vector GHASH and stitched AES-GCM backends
//! (`aesni_clmul`, `vaes_avx2`, `vaes_avx512`): written once, generic over
//! the vector width through [`Lanes`], and instantiated by each backend
//! inside functions that enable its CPU features. Everything here is
//! `#[inline(always)]`, so each instantiation compiles to straight-line
//! code for its width; nothing here may run except through those entry
//! points, which exist only after CPU detection.
//!
//! Representation. A block is loaded byte-reversed, so a 128-bit lane holds
//! the integer `u128::from_be_bytes(block)`: bit 127 is x^0 (as in every
//! backend). The carry-less product of two such integers is the reflected
//! product shifted right by one (derived in the `gf128` module doc). Instead of
//! shifting every product back, the key powers are stored premultiplied by
//! x^-1 = x^127 + x^6 + x + 1: then A * (H^k x^-1), read as a 256-bit
//! reflected value with no shift, is exactly the unreduced A * H^k.
//!
//! Multiplication is carry-less Karatsuba (three PCLMULQDQ per block, the
//! XOR of each power's halves precomputed). Reduction of the 256-bit
//! [X3:X2:X1:X0] folds the top 128 bits of degree down in two 64-bit steps,
//! each a multiplication by C = x^-121 * (x^7+x^2+x+1) reflected, the
//! constant 0xC2 << 56: T = X0*C, X1 ^= T0, X2 ^= T1 ^ X0; then U = X1*C,
//! X2 ^= U0, X3 ^= U1 ^ X1; the result is [X3:X2]. (The shift-and-XOR
//! reduction of the paper's Algorithm 2 computes the same folds.)
//!
//! Aggregation: a group of n <= 256 blocks X_1..X_n is absorbed as
//! Y' = (Y^X_1) H^n ^ X_2 H^(n-1) ^ ... ^ X_n H: all n products are summed
//! unreduced, lane-wise, and reduced once. Powers H^256..H^1 are stored in
//! descending order, so lanes line up with consecutive blocks. The stitched
//! loops carry the unreduced sums across batches and reduce once per group
//! (4 KiB at every width).
//!
//! Stitching: AES-CTR on 8 vectors of counter blocks runs round by round,
//! and between rounds the GHASH of one vector of ciphertext is multiplied
//! in. Encryption hashes the previous batch's ciphertext (its own is not
//! ready yet); decryption hashes the batch it is decrypting. The two chains
//! are independent, so the out-of-order core overlaps AES and PCLMULQDQ.

use core::arch::x86_64::*;
use core::cell::UnsafeCell;
use core::mem::MaybeUninit;
use std::sync::OnceLock;
use zeroize::Zeroize;

/// A vector of 1, 2 or 4 blocks and the operations the kernels need.
pub(crate) trait Lanes: Copy {
    /// Blocks per vector.
    const L: usize;
    unsafe fn zero() -> Self;
    unsafe fn load(p: *const u8) -> Self;
    unsafe fn store(p: *mut u8, v: Self);
    unsafe fn xor(a: Self, b: Self) -> Self;
    unsafe fn clmul00(a: Self, b: Self) -> Self;
    unsafe fn clmul11(a: Self, b: Self) -> Self;
    unsafe fn aesenc(a: Self, k: Self) -> Self;
    unsafe fn aesenclast(a: Self, k: Self) -> Self;
    /// Reverses the bytes of each 128-bit lane.
    unsafe fn bswap(a: Self) -> Self;
    /// The PSHUFB mask that reverses 16 bytes.
    #[inline(always)]
    unsafe fn bswap_mask() -> __m128i {
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    }
    /// Swaps the 64-bit halves of each lane.
    unsafe fn swap64(a: Self) -> Self;
    /// Shifts each lane left (towards its high half) by 64 bits.
    unsafe fn shl64(a: Self) -> Self;
    /// Shifts each lane right by 64 bits.
    unsafe fn shr64(a: Self) -> Self;
    unsafe fn broadcast(x: __m128i) -> Self;
    /// `x` in lane 0, zeros elsewhere.
    unsafe fn low(x: __m128i) -> Self;
    unsafe fn add32(a: Self, b: Self) -> Self;
    /// XOR of all lanes.
    unsafe fn fold(a: Self) -> __m128i;
    /// Emits nothing, but makes the compiler treat the AES states and `x`
    /// as rewritten here: instructions using them cannot move across it.
    /// `batch` puts one after each round so that each vector's multiplies
    /// stay between the rounds they were written between (left alone, LLVM
    /// hoists all of a batch's multiplies together, and the core's window
    /// then sees long runs of one kind).
    unsafe fn fence(s: &mut [Self; 8], x: &mut Self);
    /// Computes the powers above H^LOW_POWERS: a function with the width's
    /// features enabled, for `Powers::ensure_high` to call from its
    /// initializer closure (a closure does not inherit target features,
    /// and the vector code in it would not be inlined).
    unsafe fn fill_high(pw: &Powers);
    /// Keeps the first n (< 16 L) bytes of v, zeros after.
    #[inline(always)]
    unsafe fn keep(v: Self, n: usize) -> Self {
        let mut t = [0u8; 64];
        Self::store(t.as_mut_ptr(), v);
        t[n..].fill(0);
        Self::load(t.as_ptr())
    }
    /// v with lane `l` replaced by x.
    #[inline(always)]
    unsafe fn with_lane(v: Self, l: usize, x: __m128i) -> Self {
        let mut t = [0u8; 64];
        Self::store(t.as_mut_ptr(), v);
        _mm_storeu_si128(t.as_mut_ptr().add(16 * l).cast(), x);
        Self::load(t.as_ptr())
    }
    /// Loads the first n (< 16 L) bytes at p, zeros after.
    #[inline(always)]
    unsafe fn load_partial(p: *const u8, n: usize) -> Self {
        let mut t = [0u8; 64];
        core::ptr::copy_nonoverlapping(p, t.as_mut_ptr(), n);
        Self::load(t.as_ptr())
    }
    /// Stores the first n (< 16 L) bytes of v at p.
    #[inline(always)]
    unsafe fn store_partial(p: *mut u8, n: usize, v: Self) {
        let mut t = [0u8; 64];
        Self::store(t.as_mut_ptr(), v);
        core::ptr::copy_nonoverlapping(t.as_ptr(), p, n);
    }
}

/// The empty `asm!` behind [`Lanes::fence`], for one register class.
/// Miri cannot run inline assembly; the fence only steers scheduling, so
/// under Miri it is left out.
macro_rules! fence_asm {
    ($reg:ident, $s:ident, $x:ident) => {
        // SAFETY: the template is empty; it only marks the operands as
        // read and rewritten (with their own values).
        #[cfg(not(miri))]
        core::arch::asm!(
            "/* {0} {1} {2} {3} {4} {5} {6} {7} {8} */",
            inout($reg) $s[0], inout($reg) $s[1], inout($reg) $s[2], inout($reg) $s[3],
            inout($reg) $s[4], inout($reg) $s[5], inout($reg) $s[6], inout($reg) $s[7],
            inout($reg) *$x,
            options(nomem, nostack, preserves_flags)
        )
    };
}

impl Lanes for __m128i {
    const L: usize = 1;
    #[inline(always)]
    unsafe fn zero() -> Self {
        _mm_setzero_si128()
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        _mm_loadu_si128(p.cast())
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        _mm_storeu_si128(p.cast(), v)
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        _mm_xor_si128(a, b)
    }
    #[inline(always)]
    unsafe fn clmul00(a: Self, b: Self) -> Self {
        _mm_clmulepi64_si128::<0x00>(a, b)
    }
    #[inline(always)]
    unsafe fn clmul11(a: Self, b: Self) -> Self {
        _mm_clmulepi64_si128::<0x11>(a, b)
    }
    #[inline(always)]
    unsafe fn aesenc(a: Self, k: Self) -> Self {
        _mm_aesenc_si128(a, k)
    }
    #[inline(always)]
    unsafe fn aesenclast(a: Self, k: Self) -> Self {
        _mm_aesenclast_si128(a, k)
    }
    #[inline(always)]
    unsafe fn bswap(a: Self) -> Self {
        _mm_shuffle_epi8(
            a,
            _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        )
    }
    #[inline(always)]
    unsafe fn swap64(a: Self) -> Self {
        _mm_shuffle_epi32::<0x4e>(a)
    }
    #[inline(always)]
    unsafe fn shl64(a: Self) -> Self {
        _mm_slli_si128::<8>(a)
    }
    #[inline(always)]
    unsafe fn shr64(a: Self) -> Self {
        _mm_srli_si128::<8>(a)
    }
    #[inline(always)]
    unsafe fn broadcast(x: __m128i) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn low(x: __m128i) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn add32(a: Self, b: Self) -> Self {
        _mm_add_epi32(a, b)
    }
    #[inline(always)]
    unsafe fn fold(a: Self) -> __m128i {
        a
    }
    #[inline(always)]
    unsafe fn fence(s: &mut [Self; 8], x: &mut Self) {
        fence_asm!(xmm_reg, s, x);
    }
    #[target_feature(enable = "pclmulqdq,sse2,ssse3,sse4.1")]
    unsafe fn fill_high(pw: &Powers) {
        pw.fill_high::<Self>();
    }
}

/// The `Lanes` impl of a 256- or 512-bit vector type: the same operations
/// under each width's intrinsic names.
macro_rules! wide_lanes {
    ($t:ty, $l:expr, $zero:ident, $load:ident, $store:ident, $xor:ident, $clmul:ident, $enc:ident,
     $encl:ident, $sh8:ident, $sh32:ident, $bcast:ident, $zext:ident, $add:ident, $bsl:ident, $bsr:ident, $reg:ident, $feat:literal, $hfeat:literal,
     |$f:ident| $fold:expr,
     { $($extra:item)* }) => {
        impl Lanes for $t {
            const L: usize = $l;
            #[inline(always)]
            unsafe fn zero() -> Self {
                $zero()
            }
            #[inline(always)]
            unsafe fn load(p: *const u8) -> Self {
                $load(p.cast())
            }
            #[inline(always)]
            unsafe fn store(p: *mut u8, v: Self) {
                $store(p.cast(), v)
            }
            #[inline(always)]
            unsafe fn xor(a: Self, b: Self) -> Self {
                $xor(a, b)
            }
            #[inline(always)]
            unsafe fn clmul00(a: Self, b: Self) -> Self {
                $clmul::<0x00>(a, b)
            }
            #[inline(always)]
            unsafe fn clmul11(a: Self, b: Self) -> Self {
                $clmul::<0x11>(a, b)
            }
            #[inline(always)]
            unsafe fn aesenc(a: Self, k: Self) -> Self {
                $enc(a, k)
            }
            #[inline(always)]
            unsafe fn aesenclast(a: Self, k: Self) -> Self {
                $encl(a, k)
            }
            #[inline(always)]
            unsafe fn bswap(a: Self) -> Self {
                $sh8(a, $bcast(<__m128i as Lanes>::bswap_mask()))
            }
            #[inline(always)]
            unsafe fn swap64(a: Self) -> Self {
                $sh32::<0x4e>(a)
            }
            #[inline(always)]
            unsafe fn shl64(a: Self) -> Self {
                $bsl::<8>(a)
            }
            #[inline(always)]
            unsafe fn shr64(a: Self) -> Self {
                $bsr::<8>(a)
            }
            #[inline(always)]
            unsafe fn broadcast(x: __m128i) -> Self {
                $bcast(x)
            }
            #[inline(always)]
            unsafe fn low(x: __m128i) -> Self {
                $zext(x)
            }
            #[inline(always)]
            unsafe fn add32(a: Self, b: Self) -> Self {
                $add(a, b)
            }
            #[inline(always)]
            unsafe fn fold($f: Self) -> __m128i {
                $fold
            }
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn fence(s: &mut [Self; 8], x: &mut Self) {
                fence_asm!($reg, s, x);
            }
            #[target_feature(enable = $hfeat)]
            unsafe fn fill_high(pw: &Powers) {
                pw.fill_high::<Self>();
            }
            $($extra)*
        }
    };
}

wide_lanes!(
    __m256i,
    2,
    _mm256_setzero_si256,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    _mm256_xor_si256,
    _mm256_clmulepi64_epi128,
    _mm256_aesenc_epi128,
    _mm256_aesenclast_epi128,
    _mm256_shuffle_epi8,
    _mm256_shuffle_epi32,
    _mm256_broadcastsi128_si256,
    _mm256_zextsi128_si256,
    _mm256_add_epi32,
    _mm256_bslli_epi128,
    _mm256_bsrli_epi128,
    ymm_reg,
    "avx",
    "avx2,vpclmulqdq,pclmulqdq,sse2,ssse3,sse4.1",
    |a| _mm_xor_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a)),
    {}
);

wide_lanes!(
    __m512i,
    4,
    _mm512_setzero_si512,
    _mm512_loadu_si512,
    _mm512_storeu_si512,
    _mm512_xor_si512,
    _mm512_clmulepi64_epi128,
    _mm512_aesenc_epi128,
    _mm512_aesenclast_epi128,
    _mm512_shuffle_epi8,
    _mm512_shuffle_epi32,
    _mm512_broadcast_i32x4,
    _mm512_zextsi128_si512,
    _mm512_add_epi32,
    _mm512_bslli_epi128,
    _mm512_bsrli_epi128,
    zmm_reg,
    "avx512f",
    "avx512f,avx512bw,avx512vl,avx2,vpclmulqdq,pclmulqdq,sse2,ssse3,sse4.1",
    |a| _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(a), _mm512_extracti32x4_epi32::<1>(a)),
        _mm_xor_si128(
            _mm512_extracti32x4_epi32::<2>(a),
            _mm512_extracti32x4_epi32::<3>(a)
        ),
    ),
    {
        #[inline(always)]
        unsafe fn load_partial(p: *const u8, n: usize) -> Self {
            _mm512_maskz_loadu_epi8((1u64 << n) - 1, p.cast())
        }
        #[inline(always)]
        unsafe fn store_partial(p: *mut u8, n: usize, v: Self) {
            _mm512_mask_storeu_epi8(p.cast(), (1u64 << n) - 1, v)
        }
        #[inline(always)]
        unsafe fn keep(v: Self, n: usize) -> Self {
            _mm512_maskz_mov_epi8((1u64 << n) - 1, v)
        }
        #[inline(always)]
        unsafe fn with_lane(v: Self, l: usize, x: __m128i) -> Self {
            _mm512_mask_broadcast_i32x4(v, 0xf << (4 * l), x)
        }
    }
);

/// Most blocks per aggregated reduction (and powers of H kept). The
/// stitched loops run 8 vectors of AES per batch and reduce once per
/// MAX_BATCH blocks (every eight batches for 512-bit vectors): the lane
/// fold and reduction are about 30 instructions, and on this CPU every
/// vector instruction beside the AES rounds and multiplies costs
/// throughput (docs/speed.md: 32 blocks per reduction ran AES-128-GCM at
/// 12.2 GB/s, 64 at 13.1, 128 at 13.15, 256 at 13.75). The price is the
/// key: 8.3 KiB of powers instead of 1.1; the powers above H^32 are
/// computed by the first message that needs them (see [`Powers`]).
pub(crate) const MAX_BATCH: usize = 256;

/// Most blocks (AAD, tail and length block together) hashed from the stack
/// copy that ends a message; short messages hash everything there at once.
const MERGE_MAX: usize = 32;

/// Powers every key has from setup on; the rest (up to H^MAX_BATCH) are
/// computed by the first message long enough to use them.
pub(crate) const LOW_POWERS: usize = 32;

/// H^MAX_BATCH..H^1, each times x^-1, and the XOR of each one's halves.
/// H^LOW_POWERS..H^1 are there from [`Powers::new`]; the higher ones from
/// the first [`Powers::ensure_high`], so a key that only ever seals short
/// messages keeps the short setup.
#[repr(C, align(64))]
pub(crate) struct Powers {
    /// hd[i] = H^(MAX_BATCH-i) * x^-1.
    /// Three zero entries follow, so a vector load may start at any
    /// i <= MAX_BATCH.
    hd: UnsafeCell<[u128; MAX_BATCH + 3]>,
    /// hk[i] = (low half ^ high half of hd[i]) in both halves.
    hk: UnsafeCell<[u128; MAX_BATCH + 3]>,
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
    /// Computes H^1..H^LOW_POWERS; only call from a function that enabled
    /// V's features.
    #[inline(always)]
    pub(crate) unsafe fn new<V: Lanes>(h: u128) -> Self {
        let p = Powers {
            hd: UnsafeCell::new([0; MAX_BATCH + 3]),
            hk: UnsafeCell::new([0; MAX_BATCH + 3]),
            high: OnceLock::new(),
        };
        // Powers times x^-1 multiply directly: mul(H^a x^-1, H^b x^-1) =
        // H^(a+b) x^-1. H^1..H^S (S = 2L) one after another, then vectors.
        let hd = p.hd.get().cast::<u128>();
        let hk = p.hk.get().cast::<u128>();
        let h1 = u128_to_xmm(mul_xinv(h));
        let mut v = h1;
        for j in 1..=2 * V::L {
            if j > 1 {
                v = mul(v, h1);
            }
            Self::store(hd, hk, j, v);
        }
        Self::extend::<V>(hd, hk, 2 * V::L + 1, LOW_POWERS);
        p
    }

    /// Computes H^from..H^to, L at a time: the vector S = 2L powers below
    /// times H^S, two independent chains of vector multiplies (one chain of
    /// single multiplies would be latency-bound). Needs H^1..H^(from-1).
    #[inline(always)]
    unsafe fn extend<V: Lanes>(hd: *mut u128, hk: *mut u128, from: usize, to: usize) {
        let step = 2 * V::L;
        let hs = V::broadcast(_mm_loadu_si128(hd.add(at(step)).cast()));
        let mut j = from;
        while j + V::L - 1 <= to {
            // The vector at index at(j + L - 1) holds H^(j+L-1), ..., H^j.
            let below = V::load(hd.add(at(j - step + V::L - 1)).cast());
            Self::store(hd, hk, j + V::L - 1, mul(below, hs));
            j += V::L;
        }
    }

    /// Stores the vector of powers whose first lane is H^j (lanes
    /// descending), and their Karatsuba middle operands.
    #[inline(always)]
    unsafe fn store<V: Lanes>(hd: *mut u128, hk: *mut u128, j: usize, v: V) {
        V::store(hd.add(at(j)).cast(), v);
        V::store(hk.add(at(j)).cast(), halves_xor(v));
    }

    /// Makes sure H^(LOW_POWERS+1)..H^MAX_BATCH are in; only call from a
    /// function that enabled V's features.
    #[inline(always)]
    pub(crate) unsafe fn ensure_high<V: Lanes>(&self) {
        // SAFETY: the caller enabled V's features, which fill_high needs.
        self.high.get_or_init(|| unsafe { V::fill_high(self) });
    }

    /// The body of [`Lanes::fill_high`]: only from `ensure_high`'s
    /// initializer (see `unsafe impl Sync`: the one write of the high
    /// powers, which nothing reads before it completes).
    #[inline(always)]
    unsafe fn fill_high<V: Lanes>(&self) {
        Self::extend::<V>(
            self.hd.get().cast(),
            self.hk.get().cast(),
            LOW_POWERS + 1,
            MAX_BATCH,
        )
    }

    /// Whether a message of `chunks` chunks of 8 vectors needs the high
    /// powers (a reduction group of more than LOW_POWERS blocks).
    #[inline(always)]
    fn needs_high<V: Lanes>(chunks: usize) -> bool {
        chunks.min(MAX_BATCH / (8 * V::L)) * 8 * V::L > LOW_POWERS
    }

    #[inline(always)]
    unsafe fn h<V: Lanes>(&self, i: usize) -> (V, V) {
        (
            V::load(self.hd.get().cast::<u128>().add(i).cast()),
            V::load(self.hk.get().cast::<u128>().add(i).cast()),
        )
    }
}

#[inline(always)]
pub(crate) unsafe fn u128_to_xmm(v: u128) -> __m128i {
    _mm_loadu_si128((&v as *const u128).cast())
}

#[inline(always)]
pub(crate) unsafe fn xmm_to_u128(v: __m128i) -> u128 {
    let mut o = 0u128;
    _mm_storeu_si128((&mut o as *mut u128).cast(), v);
    o
}

/// Unreduced Karatsuba sums.
#[derive(Clone, Copy)]
struct Sums<V> {
    lo: V,
    hi: V,
    mid: V,
}

impl<V: Lanes> Sums<V> {
    #[inline(always)]
    unsafe fn zero() -> Self {
        Sums {
            lo: V::zero(),
            hi: V::zero(),
            mid: V::zero(),
        }
    }

    /// Adds x * h (hk: the XOR of h's halves).
    #[inline(always)]
    unsafe fn mul_add(&mut self, x: V, h: V, hk: V) {
        self.lo = V::xor(self.lo, V::clmul00(x, h));
        self.hi = V::xor(self.hi, V::clmul11(x, h));
        self.mid = V::xor(self.mid, V::clmul00(halves_xor(x), hk));
    }

    #[inline(always)]
    unsafe fn fold(self) -> Sums<__m128i> {
        Sums {
            lo: V::fold(self.lo),
            hi: V::fold(self.hi),
            mid: V::fold(self.mid),
        }
    }
}

impl<V: Lanes> Sums<V> {
    /// Karatsuba recombination and the two-fold reduction, in every lane.
    #[inline(always)]
    unsafe fn reduce(self) -> V {
        let mid = V::xor(self.mid, V::xor(self.lo, self.hi));
        let hi = V::xor(self.hi, V::shr64(mid));
        let lo = V::xor(self.lo, V::shl64(mid));
        let c = V::broadcast(_mm_cvtsi64_si128(0xC200_0000_0000_0000u64 as i64));
        let t = V::clmul00(lo, c);
        let v = V::xor(V::swap64(lo), t);
        let u = V::clmul00(v, c);
        V::xor(hi, V::xor(V::swap64(v), u))
    }
}

impl Sums<__m128i> {
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        Sums {
            lo: _mm_xor_si128(self.lo, o.lo),
            hi: _mm_xor_si128(self.hi, o.hi),
            mid: _mm_xor_si128(self.mid, o.mid),
        }
    }
}

/// The XOR of each lane's halves, in both halves: the Karatsuba middle
/// operand of a power.
#[inline(always)]
unsafe fn halves_xor<V: Lanes>(v: V) -> V {
    V::xor(v, V::swap64(v))
}

/// x * y in every lane, for y given premultiplied by x^-1.
#[inline(always)]
unsafe fn mul<V: Lanes>(x: V, yx: V) -> V {
    let k = halves_xor(yx);
    let mut s = Sums::<V>::zero();
    s.mul_add(x, yx, k);
    s.reduce()
}

/// Absorbs n (1..=32) whole blocks at `p` into y with one reduction.
#[inline(always)]
pub(crate) unsafe fn absorb<V: Lanes>(pw: &Powers, y: __m128i, p: *const u8, n: usize) -> __m128i {
    debug_assert!((1..=LOW_POWERS).contains(&n));
    let base = MAX_BATCH - n;
    let mut s = Sums::<V>::zero();
    let full = n / V::L * V::L;
    let mut i = 0;
    while i < full {
        let mut x = V::bswap(V::load(p.add(16 * i)));
        if i == 0 {
            x = V::xor(x, V::low(y));
        }
        let (h, hk) = pw.h::<V>(base + i);
        s.mul_add(x, h, hk);
        i += V::L;
    }
    let mut t = s.fold();
    while i < n {
        let mut x = <__m128i as Lanes>::bswap(_mm_loadu_si128(p.add(16 * i).cast()));
        if i == 0 {
            x = _mm_xor_si128(x, y);
        }
        let (h, hk) = pw.h::<__m128i>(base + i);
        let mut one = Sums::<__m128i>::zero();
        one.mul_add(x, h, hk);
        t = t.add(one);
        i += 1;
    }
    t.reduce()
}

/// Absorbs the first `n` (1..=L) lanes of `v` (blocks already in integer
/// form, unused lanes zero) into y with one reduction.
#[inline(always)]
unsafe fn absorb_vector<V: Lanes>(pw: &Powers, y: __m128i, v: V, n: usize) -> __m128i {
    let (h, hk) = pw.h::<V>(MAX_BATCH - n);
    let mut s = Sums::<V>::zero();
    s.mul_add(V::xor(v, V::low(y)), h, hk);
    s.fold().reduce()
}

/// Absorbs any number of whole blocks, 8 vectors per reduction.
#[inline(always)]
pub(crate) unsafe fn ghash<V: Lanes>(pw: &Powers, mut y: __m128i, data: &[u8]) -> __m128i {
    debug_assert_eq!(data.len() % 16, 0);
    let batch = 8 * V::L;
    let mut chunks = data.chunks_exact(16 * batch);
    for c in &mut chunks {
        y = absorb::<V>(pw, y, c.as_ptr(), batch);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        y = absorb::<V>(pw, y, rest.as_ptr(), rest.len() / 16);
    }
    y
}

/// AES round keys, loaded (and broadcast to every lane) where used; in
/// the long loops the compiler keeps them in registers. Indexing is
/// checked; the length check in `new` lets the compiler drop the checks
/// for the constant round numbers of the unrolled loops.
pub(crate) struct RoundKeys<'a, V> {
    rk: &'a [[u8; 16]],
    _v: core::marker::PhantomData<V>,
}

impl<'a, V: Lanes> RoundKeys<'a, V> {
    /// The NR + 1 keys of an NR-round AES.
    #[inline(always)]
    pub(crate) fn new<const NR: usize>(rk: &'a [[u8; 16]]) -> Self {
        assert_eq!(rk.len(), NR + 1, "round keys for {NR} rounds");
        RoundKeys {
            rk,
            _v: core::marker::PhantomData,
        }
    }

    #[inline(always)]
    unsafe fn k1(&self, r: usize) -> __m128i {
        _mm_loadu_si128(self.rk[r].as_ptr().cast())
    }

    #[inline(always)]
    unsafe fn k(&self, r: usize) -> V {
        V::broadcast(self.k1(r))
    }
}

/// Lane l of these holds l (resp. the lane count) in its dword 0.
static LANE_OFFSETS: [u32; 16] = [0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
/// LANE_STEPS for blocks in byte order: the lane count added to byte 15.
static LANE_STEPS_BE: [[u32; 16]; 5] = {
    let mut t = [[0u32; 16]; 5];
    let mut l = 1;
    while l <= 4 {
        let mut i = 0;
        while i < l {
            t[l][4 * i + 3] = (l as u32) << 24;
            i += 1;
        }
        l += 1;
    }
    t
};
static LANE_STEPS: [[u32; 16]; 5] = {
    let mut t = [[0u32; 16]; 5];
    let mut l = 1;
    while l <= 4 {
        let mut i = 0;
        while i < l {
            t[l][4 * i] = l as u32;
            i += 1;
        }
        l += 1;
    }
    t
};

/// Counter state: each lane's dword 0 holds a block counter in integer
/// form (the block byte-reversed), so `add32` is GCM's incr(): modulo
/// 2^32, never carrying into the other 96 bits.
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

impl<V: Lanes> Ctr<V> {
    /// Counters Y0 + first, Y0 + first + 1, ... in the lanes; `public`:
    /// whether Y0 is public (see the field).
    #[inline(always)]
    pub(crate) unsafe fn new(y0: &[u8; 16], first: u32, public: bool) -> Self {
        let base = <__m128i as Lanes>::bswap(_mm_loadu_si128(y0.as_ptr().cast()));
        let base = _mm_add_epi32(base, _mm_cvtsi32_si128(first as i32));
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

    /// Fills `out` with N vectors of counter blocks. When the counter's
    /// low byte cannot overflow within them (true for 7 of 8 batches),
    /// the blocks are built in byte order with one byte swap in all
    /// (adding to the last byte, which sits in the top of dword 3) rather
    /// than one per vector. Only for public counters: the branch is on the
    /// counter; secret ones always take the per-vector path.
    #[inline(always)]
    unsafe fn take_n<const N: usize>(&mut self, out: &mut [V; 8]) {
        let n = (N * V::L) as u32;
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
        self.low = self.low.wrapping_add(n);
    }

    /// The next vector of counter blocks, ready for AES.
    #[inline(always)]
    unsafe fn take(&mut self) -> V {
        let c = V::bswap(self.next);
        self.next = V::add32(self.next, self.step);
        self.low = self.low.wrapping_add(V::L as u32);
        c
    }
}

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
/// of 8 vectors are hashed in order, and every `MAX_BATCH / (8 L)` of them
/// (fewer for the last group) share one reduction.
#[derive(Clone, Copy)]
struct HashStep {
    p: *const u8,
    /// Index in `Powers` of the power for the chunk's first block.
    base: usize,
    /// First of its group: starts the sums and takes in y.
    first: bool,
    /// Last of its group: reduces the sums into y.
    last: bool,
    /// Blocks in the chunk: 8 L, or fewer for a message's head chunk,
    /// whose powers are then shifted so it ends where a whole chunk would.
    blocks: usize,
}

impl HashStep {
    /// The step for chunk `c` (at p, `blocks` blocks) of `n` chunks hashed
    /// in order; only chunk 0 may be short.
    #[inline(always)]
    fn new<V: Lanes>(p: *const u8, c: usize, n: usize, blocks: usize) -> Self {
        let per = MAX_BATCH / (8 * V::L);
        let start = c - c % per;
        let size = per.min(n - start);
        let pos = c - start;
        HashStep {
            p,
            base: MAX_BATCH - 8 * V::L * (size - pos) + (8 * V::L - blocks),
            first: pos == 0,
            last: pos + 1 == size,
            blocks,
        }
    }
}

/// One batch: AES-CTR keystream for `nv` (0..=8) vectors, with the GHASH
/// of the 8 vectors at `hash` (if any) multiplied in between the rounds
/// into `sums` (reduced into y at the end of a group), and E(K, Y0) for
/// `ek` (if any: Y0 in, E(K, Y0) out) in the same rounds. Returns the
/// keystream.
#[inline(always)]
unsafe fn batch<V: Lanes, const NR: usize, const NV: usize>(
    rk: &RoundKeys<V>,
    ctr: &mut Ctr<V>,
    pw: &Powers,
    hash: Option<HashStep>,
    sums: &mut Sums<V>,
    y: &mut __m128i,
    ek: Option<&mut __m128i>,
    io: Option<(*const u8, *mut u8)>,
) -> [V; 8] {
    let nv = NV;
    let mut s = [V::zero(); 8];
    ctr.take_n::<NV>(&mut s);
    let k0 = rk.k(0);
    for v in s[..nv].iter_mut() {
        *v = V::xor(*v, k0);
    }
    let mut e = ek.as_ref().map(|b| _mm_xor_si128(**b, rk.k1(0)));
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
            *b = _mm_aesenc_si128(*b, rk.k1(r));
        }
        if let Some(st) = hash {
            // Vector g is hashed in round 1 + g (NR-1) / 8: spread evenly
            // over the rounds (rounds 1..=8 for AES-128).
            let g = ((r - 1) * 8).div_ceil(NR - 1);
            // Blocks of this chunk in vector g (L but in a head chunk).
            let nb = st.blocks.saturating_sub(V::L * g).min(V::L);
            if g < 8 && 1 + g * (NR - 1) / 8 == r && nb > 0 {
                let mut x = V::load(st.p.add(16 * V::L * g));
                if nb < V::L {
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
        *out = _mm_aesenclast_si128(b, rk.k1(NR));
    }
    if hash.is_some_and(|h| h.last) {
        *y = sums.fold().reduce();
    }
    s
}

/// The final batch: keystream for `nv` vectors (rounded up to 0, 1, 2, 4
/// or 8, so each count is straight-line code) and E(K, Y0).
#[inline(always)]
unsafe fn last_batch<V: Lanes, const NR: usize>(
    rk: &RoundKeys<V>,
    ctr: &mut Ctr<V>,
    pw: &Powers,
    hash: Option<HashStep>,
    sums: &mut Sums<V>,
    y: &mut __m128i,
    nv: usize,
    ek: &mut __m128i,
) -> [V; 8] {
    match nv {
        0 => batch::<V, NR, 0>(rk, ctr, pw, hash, sums, y, Some(ek), None),
        1 => batch::<V, NR, 1>(rk, ctr, pw, hash, sums, y, Some(ek), None),
        2 => batch::<V, NR, 2>(rk, ctr, pw, hash, sums, y, Some(ek), None),
        3 | 4 => batch::<V, NR, 4>(rk, ctr, pw, hash, sums, y, Some(ek), None),
        _ => batch::<V, NR, 8>(rk, ctr, pw, hash, sums, y, Some(ek), None),
    }
}

/// Absorbs `data` zero-padded to whole blocks.
#[inline(always)]
unsafe fn ghash_padded<V: Lanes>(pw: &Powers, y: __m128i, data: &[u8]) -> __m128i {
    let whole = data.len() & !15;
    let mut y = ghash::<V>(pw, y, &data[..whole]);
    if whole < data.len() {
        let mut last = [0u8; 16];
        last[..data.len() - whole].copy_from_slice(&data[whole..]);
        y = absorb::<__m128i>(pw, y, last.as_ptr(), 1);
    }
    y
}

/// XORs the keystream into `data` (under 8 vectors) in place and returns
/// the result as vectors, zero past its end, for callers that hash it from
/// registers (the others drop it, and the compiler with it).
#[inline(always)]
unsafe fn xor_keep<V: Lanes>(data: &mut [u8], ks: &[V; 8]) -> [V; 8] {
    let vb = 16 * V::L;
    let p = data.as_mut_ptr();
    let whole = data.len() / vb;
    let mut out = [V::zero(); 8];
    for (j, (k, o)) in ks.iter().zip(out.iter_mut()).enumerate().take(whole) {
        let q = p.add(vb * j);
        *o = V::xor(V::load(q), *k);
        V::store(q, *o);
    }
    let rest = data.len() - whole * vb;
    if rest > 0 {
        let q = p.add(vb * whole);
        out[whole] = V::keep(V::xor(V::load_partial(q, rest), ks[whole]), rest);
        V::store_partial(q, rest, out[whole]);
    }
    out
}

/// Bytes of the stack copy that ends a message: MERGE_MAX + 1 blocks, and
/// room for `seal_tail`'s last whole-vector store past them.
const FINAL_BYTES: usize = 16 * (MERGE_MAX + 1) + 64;

/// Copies `src` into `b` at `at`, zero-padded to whole blocks; returns the
/// end.
#[inline(always)]
fn put_padded(b: &mut [MaybeUninit<u8>; FINAL_BYTES], at: usize, src: &[u8]) -> usize {
    let end = at + src.len();
    for (d, s) in b[at..end].iter_mut().zip(src) {
        d.write(*s);
    }
    let padded = at + src.len().div_ceil(16) * 16;
    for d in b[end..padded].iter_mut() {
        d.write(0);
    }
    padded
}

/// The length block len(A) || len(C) in bytes.
#[inline(always)]
fn len_bytes(aad_len: usize, ct_len: usize) -> [u8; 16] {
    let mut lens = [0u8; 16];
    lens[..8].copy_from_slice(&((aad_len as u64) * 8).to_be_bytes());
    lens[8..].copy_from_slice(&((ct_len as u64) * 8).to_be_bytes());
    lens
}

/// Writes the last GHASH input into `b`: the AAD (when `with_aad`), the
/// ciphertext tail, each zero-padded, and len(A) || len(C). Returns the
/// number of bytes written (whole blocks).
#[inline(always)]
fn final_blocks(
    b: &mut [MaybeUninit<u8>; FINAL_BYTES],
    aad: &[u8],
    with_aad: bool,
    tail: &[u8],
    ct_len: usize,
) -> usize {
    let mut at = 0;
    if with_aad {
        at = put_padded(b, at, aad);
    }
    at = put_padded(b, at, tail);
    put_padded(b, at, &len_bytes(aad.len(), ct_len))
}

/// Encrypts `tail` with the keystream `ks` and absorbs the last GHASH input
/// (as [`absorb_final`]) into y. The ciphertext is hashed from a copy made
/// from the registers, not read back from `tail`: a load of bytes a masked
/// store has just written waits for that store to retire (a one-block
/// tail cost 17 ns here that way).
#[inline(always)]
unsafe fn seal_tail<V: Lanes>(
    pw: &Powers,
    y: __m128i,
    aad: &[u8],
    with_aad: bool,
    tail: &mut [u8],
    ks: &[V; 8],
    ct_len: usize,
) -> __m128i {
    let mut fb = [MaybeUninit::<u8>::uninit(); FINAL_BYTES];
    let mut at = if with_aad {
        put_padded(&mut fb, 0, aad)
    } else {
        0
    };
    let vb = 16 * V::L;
    let ct = xor_keep::<V>(tail, ks);
    // The tail (under 8 L blocks) starts at most MERGE_MAX - 1 blocks in,
    // and its last whole-vector store ends within FINAL_BYTES.
    let dst = fb.as_mut_ptr().cast::<u8>().add(at);
    for (j, c) in ct.iter().enumerate().take(tail.len().div_ceil(vb)) {
        V::store(dst.add(vb * j), *c);
    }
    at += tail.len().div_ceil(16) * 16;
    let n = put_padded(&mut fb, at, &len_bytes(aad.len(), ct_len));
    // SAFETY: bytes before n are initialized: the AAD and length block by
    // put_padded, the tail's blocks by the vector stores (zero past it).
    ghash::<V>(pw, y, unsafe {
        core::slice::from_raw_parts(fb.as_ptr().cast::<u8>(), n)
    })
}

/// Absorbs the last GHASH input (see [`final_blocks`]) into y.
#[inline(always)]
unsafe fn absorb_final<V: Lanes>(
    pw: &Powers,
    y: __m128i,
    aad: &[u8],
    with_aad: bool,
    tail: &[u8],
    ct_len: usize,
) -> __m128i {
    let mut fb = [MaybeUninit::<u8>::uninit(); FINAL_BYTES];
    let n = final_blocks(&mut fb, aad, with_aad, tail, ct_len);
    // SAFETY: final_blocks initialized the first n bytes.
    ghash::<V>(pw, y, unsafe {
        core::slice::from_raw_parts(fb.as_ptr().cast::<u8>(), n)
    })
}

/// GHASH xor E(K, Y0) as an element (E(K, Y0) given as the AES output block).
#[inline(always)]
unsafe fn full_tag(y: __m128i, ek: __m128i) -> u128 {
    xmm_to_u128(_mm_xor_si128(y, <__m128i as Lanes>::bswap(ek)))
}

/// How many whole blocks (0..8L) the message's head chunk takes, for
/// messages of at least eight chunks (below that, measured at 1500 bytes,
/// the extra first batch costs more than the stitching saves). The head goes through AES on its own
/// (the first batch, which has nothing to hash yet) and is hashed stitched
/// into the next one, so the partial chunk costs nothing extra there, while
/// at the end it would be hashed alone after the last keystream. It takes
/// the whole blocks beyond a multiple of 8L, and one block fewer (leaving
/// one at the end) where that is needed for the chunks to start on a
/// 32-byte boundary: on this CPU a 512-bit access is two 256-bit halves,
/// and a half crossing a cache line (chunks at 16 or 48 mod 64) costs about
/// 12% of the 16 KiB rate. The address is public.
fn head_blocks<V: Lanes>(p: *const u8, len: usize) -> usize {
    let per = 8 * V::L;
    let blocks = len / 16;
    if blocks < 8 * per {
        return 0;
    }
    let h = blocks % per;
    if V::L == 1 || p as usize % 16 != 0 || (p as usize + 16 * h) % 32 == 0 {
        h
    } else if h == 0 {
        per - 1
    } else {
        h - 1
    }
}

/// How a message splits: whole batches, the tail, and whether the AAD fits
/// in the final GHASH batch (short packets: one reduction for everything).
#[inline(always)]
fn plan<V: Lanes>(aad: &[u8], len: usize) -> (usize, usize, usize, bool) {
    let bb = 128 * V::L;
    let full = len / bb;
    let rest = len - full * bb;
    let nv = rest.div_ceil(16 * V::L);
    let merged = full == 0 && aad.len().div_ceil(16) + rest.div_ceil(16) < MERGE_MAX;
    (bb, full, nv, merged)
}

/// The length block len(A) || len(C) in integer form (A empty).
#[inline(always)]
unsafe fn len_block(aad_len: usize, ct_len: usize) -> __m128i {
    _mm_set_epi64x((aad_len as u64 * 8) as i64, (ct_len as u64 * 8) as i64)
}

/// Messages of at most L-1 blocks with no AAD: one vector of keystream
/// (and E(K, Y0) beside it), and the GHASH of the ciphertext lanes and the
/// length block in the next lane straight from registers, one reduction.
#[inline(always)]
unsafe fn seal_tiny<V: Lanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    buf: &mut [u8],
) -> u128 {
    let n = buf.len();
    let nb = n.div_ceil(16);
    let mut ctr = Ctr::<V>::new(y0, 1, y0_public);
    let mut ek = _mm_loadu_si128(y0.as_ptr().cast());
    let mut y = _mm_setzero_si128();
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

/// The decrypting twin of [`seal_tiny`].
#[inline(always)]
unsafe fn open_tiny<V: Lanes, const NR: usize>(
    pw: &Powers,
    rk: &RoundKeys<V>,
    y0: &[u8; 16],
    y0_public: bool,
    buf: &mut [u8],
) -> u128 {
    let n = buf.len();
    let nb = n.div_ceil(16);
    let c = V::load_partial(buf.as_ptr(), n);
    let g = V::with_lane(V::bswap(c), nb, len_block(0, n));
    let mut y = absorb_vector::<V>(pw, _mm_setzero_si128(), g, nb + 1);
    let mut ctr = Ctr::<V>::new(y0, 1, y0_public);
    let mut ek = _mm_loadu_si128(y0.as_ptr().cast());
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

/// Encrypts `src` (if given, of `buf`'s length; else `buf` in place) into
/// `buf` under counters Y0+1, Y0+2, ... and returns the full tag
/// GHASH(H, A, C) xor E(K, Y0) as an element. NR: AES rounds. Out of
/// place, the whole batches read `src` and write `buf` directly; the head
/// and tail (under a batch each) are copied first and done in place.
#[inline(always)]
pub(crate) unsafe fn seal<V: Lanes, const NR: usize>(
    pw: &Powers,
    rk: &[[u8; 16]],
    y0: &[u8; 16],
    y0_public: bool,
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    let rk = RoundKeys::<V>::new::<NR>(rk);
    if aad.is_empty() && buf.len() <= 16 * (V::L - 1) {
        if let Some(s) = src {
            buf.copy_from_slice(s);
        }
        return seal_tiny::<V, NR>(pw, &rk, y0, y0_public, buf);
    }
    let head = head_blocks::<V>(buf.as_ptr(), buf.len());
    let (bb, full, nv, merged) = plan::<V>(aad, buf.len() - 16 * head);
    let mut y = if merged {
        _mm_setzero_si128()
    } else {
        ghash_padded::<V>(pw, _mm_setzero_si128(), aad)
    };
    let ct_len = buf.len();
    let mut sums = Sums::zero();
    // Chunks are hashed in order: the head chunk (if any), then the full ones.
    let (first, chunks) = (usize::from(head > 0), usize::from(head > 0) + full);
    if Powers::needs_high::<V>(chunks) {
        pw.ensure_high::<V>();
    }
    // Every pointer below comes from this one, and `buf` is not touched
    // again: a reborrow of `buf` would invalidate the pointers the hash
    // steps still hold.
    let base = buf.as_mut_ptr();
    let input = src.map_or(base as *const u8, |s| s.as_ptr());
    let split = input != base as *const u8;
    let mut prev = None;
    if head > 0 {
        if split {
            // SAFETY: src and buf have ct_len >= 16 head bytes and do not
            // overlap (a shared and an exclusive borrow).
            core::ptr::copy_nonoverlapping(input, base, 16 * head);
        }
        let mut hctr = Ctr::<V>::new(y0, 1, y0_public);
        let ks = batch::<V, NR, 8>(&rk, &mut hctr, pw, None, &mut sums, &mut y, None, None);
        // Hashed from the buffer in the next batch. (Hashing the returned
        // copy instead measured slower here, unlike for the tail.)
        // SAFETY: the first 16 head bytes of the buffer, derived from `base`.
        xor_keep::<V>(core::slice::from_raw_parts_mut(base, 16 * head), &ks);
        prev = Some(HashStep::new::<V>(base, 0, chunks, head));
    }
    let mut ctr = Ctr::<V>::new(y0, 1 + head as u32, y0_public);
    let p = base.add(16 * head);
    let sp = input.add(16 * head);
    for i in 0..full {
        let chunk = p.add(i * bb);
        batch::<V, NR, 8>(
            &rk,
            &mut ctr,
            pw,
            prev,
            &mut sums,
            &mut y,
            None,
            Some((sp.add(i * bb), chunk)),
        );
        prev = Some(HashStep::new::<V>(chunk, first + i, chunks, 8 * V::L));
    }
    // The tail's keystream, E(K, Y0) and the last whole batch's GHASH together.
    let mut ek = _mm_loadu_si128(y0.as_ptr().cast());
    let ks = last_batch::<V, NR>(&rk, &mut ctr, pw, prev, &mut sums, &mut y, nv, &mut ek);
    let tail_len = ct_len - 16 * head - full * bb;
    if split {
        // SAFETY: the tail of src and of buf, which do not overlap.
        core::ptr::copy_nonoverlapping(sp.add(full * bb), p.add(full * bb), tail_len);
    }
    // SAFETY: the bytes after the head and the full chunks, derived from `base`.
    let tail = core::slice::from_raw_parts_mut(p.add(full * bb), tail_len);
    y = if tail.is_empty() {
        absorb_final::<V>(pw, y, aad, merged, tail, ct_len)
    } else {
        seal_tail::<V>(pw, y, aad, merged, tail, &ks, ct_len)
    };
    full_tag(y, ek)
}

/// Decrypts `src` (if given; else `buf` in place) into `buf`, hashing
/// each batch of ciphertext before it is overwritten, and returns the
/// expected full tag. The caller compares and wipes `buf` on mismatch.
/// Out of place as in [`seal`].
#[inline(always)]
pub(crate) unsafe fn open<V: Lanes, const NR: usize>(
    pw: &Powers,
    rk: &[[u8; 16]],
    y0: &[u8; 16],
    y0_public: bool,
    aad: &[u8],
    src: Option<&[u8]>,
    buf: &mut [u8],
) -> u128 {
    let rk = RoundKeys::<V>::new::<NR>(rk);
    if aad.is_empty() && buf.len() <= 16 * (V::L - 1) {
        if let Some(s) = src {
            buf.copy_from_slice(s);
        }
        return open_tiny::<V, NR>(pw, &rk, y0, y0_public, buf);
    }
    let head = head_blocks::<V>(buf.as_ptr(), buf.len());
    let (bb, full, nv, merged) = plan::<V>(aad, buf.len() - 16 * head);
    let mut y = if merged {
        _mm_setzero_si128()
    } else {
        ghash_padded::<V>(pw, _mm_setzero_si128(), aad)
    };
    let ct_len = buf.len();
    let mut sums = Sums::zero();
    let (first, chunks) = (usize::from(head > 0), usize::from(head > 0) + full);
    if Powers::needs_high::<V>(chunks) {
        pw.ensure_high::<V>();
    }
    // As in `seal`: every pointer from this one, `buf` not touched again.
    let base = buf.as_mut_ptr();
    let input = src.map_or(base as *const u8, |s| s.as_ptr());
    let split = input != base as *const u8;
    if head > 0 {
        if split {
            // SAFETY: as in `seal`.
            core::ptr::copy_nonoverlapping(input, base, 16 * head);
        }
        let step = HashStep::new::<V>(base, 0, chunks, head);
        let mut hctr = Ctr::<V>::new(y0, 1, y0_public);
        let ks = batch::<V, NR, 8>(
            &rk,
            &mut hctr,
            pw,
            Some(step),
            &mut sums,
            &mut y,
            None,
            None,
        );
        // SAFETY: the first 16 head bytes of the buffer, derived from `base`.
        xor_keep::<V>(core::slice::from_raw_parts_mut(base, 16 * head), &ks);
    }
    let mut ctr = Ctr::<V>::new(y0, 1 + head as u32, y0_public);
    let p = base.add(16 * head);
    let sp = input.add(16 * head);
    for i in 0..full {
        let chunk = p.add(i * bb);
        // The ciphertext is hashed where it is read from.
        let step = HashStep::new::<V>(sp.add(i * bb), first + i, chunks, 8 * V::L);
        batch::<V, NR, 8>(
            &rk,
            &mut ctr,
            pw,
            Some(step),
            &mut sums,
            &mut y,
            None,
            Some((sp.add(i * bb), chunk)),
        );
    }
    let tail_len = ct_len - 16 * head - full * bb;
    if split {
        // SAFETY: as in `seal`.
        core::ptr::copy_nonoverlapping(sp.add(full * bb), p.add(full * bb), tail_len);
    }
    // SAFETY: the bytes after the head and the full chunks, derived from `base`.
    let tail = core::slice::from_raw_parts_mut(p.add(full * bb), tail_len);
    y = absorb_final::<V>(pw, y, aad, merged, tail, ct_len);
    let mut ek = _mm_loadu_si128(y0.as_ptr().cast());
    let ks = last_batch::<V, NR>(&rk, &mut ctr, pw, None, &mut sums, &mut y, nv, &mut ek);
    xor_keep::<V>(tail, &ks);
    full_tag(y, ek)
}

/// Encrypts 8 vectors of blocks in place (any counters), interleaved.
#[inline(always)]
unsafe fn encrypt_staged<V: Lanes, const NR: usize>(
    rk: &RoundKeys<V>,
    blocks: &mut [[u8; 16]; 8 * 4],
) {
    let p = blocks.as_mut_ptr().cast::<u8>();
    let mut s = [V::zero(); 8];
    for (j, v) in s.iter_mut().enumerate() {
        *v = V::xor(V::load(p.add(16 * V::L * j)), rk.k(0));
    }
    for r in 1..NR {
        let k = rk.k(r);
        for v in s.iter_mut() {
            *v = V::aesenc(*v, k);
        }
    }
    let k = rk.k(NR);
    for (j, v) in s.iter().enumerate() {
        V::store(p.add(16 * V::L * j), V::aesenclast(*v, k));
    }
}

/// Encrypts the staged counter blocks and applies each to its packet (or
/// keeps it as the packet's E(K, Y0)).
#[inline(always)]
unsafe fn flush<V: Lanes, const NR: usize>(
    rk: &RoundKeys<V>,
    stage: &mut [[u8; 16]; 32],
    dest: &[(usize, usize); 32],
    n: usize,
    packets: &mut [crate::gcm::BatchPacket<'_>],
    ek: &mut [u128],
) {
    encrypt_staged::<V, NR>(rk, stage);
    for (b, &(pi, off)) in stage.iter().zip(dest.iter()).take(n) {
        if off == usize::MAX {
            ek[pi] = u128::from_be_bytes(*b);
        } else {
            let d = &mut packets[pi].data[off..];
            let k = _mm_loadu_si128(b.as_ptr().cast());
            if d.len() >= 16 {
                _mm_storeu_si128(
                    d.as_mut_ptr().cast(),
                    _mm_xor_si128(_mm_loadu_si128(d.as_ptr().cast()), k),
                );
            } else {
                let m = d.len();
                let x = _mm_xor_si128(<__m128i as Lanes>::load_partial(d.as_ptr(), m), k);
                <__m128i as Lanes>::store_partial(d.as_mut_ptr(), m, x);
            }
        }
    }
}

/// Seals many packets with 12-byte nonces at once. AES runs on full
/// batches of counter blocks gathered across packets (the multi-buffer
/// idea), so a 44-byte packet no longer waits on the latency of ten AES
/// rounds alone; each packet's GHASH (AAD, ciphertext and lengths) is then
/// one aggregated reduction, and the packets' independent GHASH chains
/// overlap in the out-of-order core. Returns each packet's full tag in
/// `tags`.
#[inline(always)]
pub(crate) unsafe fn seal_batch<V: Lanes, const NR: usize>(
    pw: &Powers,
    rk: &[[u8; 16]],
    packets: &mut [crate::gcm::BatchPacket<'_>],
    tags: &mut [u128],
) {
    let rk = RoundKeys::<V>::new::<NR>(rk);
    let cap = 8 * V::L;
    let mut stage = [[0u8; 16]; 8 * 4];
    // Where each staged block goes: (packet, byte offset) or usize::MAX
    // as offset for E(K, Y0).
    let mut dest = [(0usize, 0usize); 8 * 4];
    // E(K, Y0) of each packet is kept in `tags` until its GHASH is added.
    let ek = tags;
    let mut n = 0;
    for pi in 0..packets.len() {
        let blocks = packets[pi].data.len().div_ceil(16);
        for j in 0..=blocks {
            // Block 0 is Y0 (for the tag), block j >= 1 is Y0 + j.
            let mut c = [0u8; 16];
            c[..12].copy_from_slice(&packets[pi].nonce);
            c[12..].copy_from_slice(&(1 + j as u32).to_be_bytes());
            stage[n] = c;
            dest[n] = (pi, if j == 0 { usize::MAX } else { 16 * (j - 1) });
            n += 1;
            if n == cap {
                flush::<V, NR>(&rk, &mut stage, &dest, n, packets, ek);
                n = 0;
            }
        }
    }
    if n > 0 {
        flush::<V, NR>(&rk, &mut stage, &dest, n, packets, ek);
    }
    for (p, t) in packets.iter().zip(ek.iter_mut()) {
        let merged = p.aad.len().div_ceil(16) + p.data.len().div_ceil(16) < MERGE_MAX;
        let (mut y, tail) = if merged {
            (_mm_setzero_si128(), &p.data[..])
        } else {
            let whole = p.data.len() & !15;
            let y = ghash_padded::<V>(pw, _mm_setzero_si128(), p.aad);
            (ghash::<V>(pw, y, &p.data[..whole]), &p.data[whole..])
        };
        y = absorb_final::<V>(pw, y, p.aad, merged, tail, p.data.len());
        *t ^= xmm_to_u128(y);
    }
    stage.zeroize();
}

/// The body of a wide backend file: its key (the powers of H), its GHASH
/// and its stitched GCM, instantiated for vector type `$v` inside
/// functions that enable `$features`; `$detect` proves them at key setup.
macro_rules! wide_backend {
    ($v:ty, $features:literal, $detect:path) => {
        use super::wide::{self, Powers};
        use super::{GhashBackend, Stitched};
        use crate::aes::keys::AesRoundKeys;
        use core::arch::x86_64::*;
        use zeroize::Zeroize;

        #[derive(Zeroize)]
        pub(crate) struct Key {
            pw: Box<Powers>,
        }

        #[target_feature(enable = $features)]
        unsafe fn powers(h: u128) -> Powers {
            Powers::new::<$v>(h)
        }

        #[target_feature(enable = $features)]
        unsafe fn ghash(pw: &Powers, y: u128, data: &[u8]) -> u128 {
            wide::xmm_to_u128(wide::ghash::<$v>(pw, wide::u128_to_xmm(y), data))
        }

        #[target_feature(enable = $features)]
        unsafe fn seal(
            pw: &Powers,
            rk: &AesRoundKeys,
            y0: &[u8; 16],
            y0_public: bool,
            aad: &[u8],
            src: Option<&[u8]>,
            buf: &mut [u8],
        ) -> u128 {
            match rk {
                AesRoundKeys::Aes128(k) => {
                    wide::seal::<$v, 10>(pw, k, y0, y0_public, aad, src, buf)
                }
                AesRoundKeys::Aes192(k) => {
                    wide::seal::<$v, 12>(pw, k, y0, y0_public, aad, src, buf)
                }
                AesRoundKeys::Aes256(k) => {
                    wide::seal::<$v, 14>(pw, k, y0, y0_public, aad, src, buf)
                }
            }
        }

        #[target_feature(enable = $features)]
        unsafe fn open(
            pw: &Powers,
            rk: &AesRoundKeys,
            y0: &[u8; 16],
            y0_public: bool,
            aad: &[u8],
            src: Option<&[u8]>,
            buf: &mut [u8],
        ) -> u128 {
            match rk {
                AesRoundKeys::Aes128(k) => {
                    wide::open::<$v, 10>(pw, k, y0, y0_public, aad, src, buf)
                }
                AesRoundKeys::Aes192(k) => {
                    wide::open::<$v, 12>(pw, k, y0, y0_public, aad, src, buf)
                }
                AesRoundKeys::Aes256(k) => {
                    wide::open::<$v, 14>(pw, k, y0, y0_public, aad, src, buf)
                }
            }
        }

        #[target_feature(enable = $features)]
        unsafe fn seal_batch(
            pw: &Powers,
            rk: &AesRoundKeys,
            packets: &mut [crate::gcm::BatchPacket<'_>],
            tags: &mut [u128],
        ) {
            match rk {
                AesRoundKeys::Aes128(k) => wide::seal_batch::<$v, 10>(pw, k, packets, tags),
                AesRoundKeys::Aes192(k) => wide::seal_batch::<$v, 12>(pw, k, packets, tags),
                AesRoundKeys::Aes256(k) => wide::seal_batch::<$v, 14>(pw, k, packets, tags),
            }
        }

        impl GhashBackend for Key {
            const KEY_BYTES: usize = core::mem::size_of::<Powers>();

            fn new(h: u128) -> Option<Self> {
                if !$detect() {
                    return None;
                }
                // SAFETY: $detect proved the features `powers` enables.
                Some(Key {
                    pw: Box::new(unsafe { powers(h) }),
                })
            }

            fn mul_h(&self, x: u128) -> u128 {
                // SAFETY: a Key exists only where $detect succeeded (new).
                unsafe { ghash(&self.pw, 0, &x.to_be_bytes()) }
            }

            fn update_blocks(&self, y: u128, blocks: &[u8]) -> u128 {
                // SAFETY: as in mul_h.
                unsafe { ghash(&self.pw, y, blocks) }
            }

            fn stitched(&self) -> Option<&dyn Stitched> {
                Some(self)
            }
        }

        impl Stitched for Key {
            fn seal(
                &self,
                rk: &AesRoundKeys,
                y0: &[u8; 16],
                y0_public: bool,
                aad: &[u8],
                src: Option<&[u8]>,
                buf: &mut [u8],
            ) -> u128 {
                assert!(
                    src.is_none_or(|s| s.len() == buf.len()),
                    "src and buf differ in length"
                );
                // SAFETY: as in mul_h; an AesRoundKeys exists only where AES-NI was
                // detected (aes::aesni::AesNi::new); src has buf's length.
                unsafe { seal(&self.pw, rk, y0, y0_public, aad, src, buf) }
            }

            fn open(
                &self,
                rk: &AesRoundKeys,
                y0: &[u8; 16],
                y0_public: bool,
                aad: &[u8],
                src: Option<&[u8]>,
                buf: &mut [u8],
            ) -> u128 {
                assert!(
                    src.is_none_or(|s| s.len() == buf.len()),
                    "src and buf differ in length"
                );
                // SAFETY: as in seal.
                unsafe { open(&self.pw, rk, y0, y0_public, aad, src, buf) }
            }

            fn seal_batch(
                &self,
                rk: &AesRoundKeys,
                packets: &mut [crate::gcm::BatchPacket<'_>],
                tags: &mut [u128],
            ) {
                // SAFETY: as in seal.
                unsafe { seal_batch(&self.pw, rk, packets, tags) }
            }
        }

        #[allow(dead_code)]
        type Vector = $v;
    };
}
pub(crate) use wide_backend;
