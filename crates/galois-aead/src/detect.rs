//! CPU feature probes: wrappers around `is_x86_feature_detected!` and
//! `is_aarch64_feature_detected!`, each answer cached after the first call.
//!
//! This module imports nothing from the crate. Which backend a key gets is
//! the business of each family's registry (`gf128`, `gf64`, `poly1305`,
//! `aes`): every table line there names one of these probes as the proof
//! that the CPU can run it.

use core::sync::atomic::{AtomicU32, Ordering};

/// One bit of the cache per name, from bit 0 up.
macro_rules! bits {
    ($n:expr;) => {};
    ($n:expr; $name:ident $(, $rest:ident)*) => {
        const $name: u32 = 1 << $n;
        bits!($n + 1; $($rest),*);
    };
}

bits!(0; AESNI, PCLMUL, AESNI_CLMUL, AVX2, VAES_AVX2, VAES_AVX512, AVX512IFMA, PMULL, SHA3, AES_ARMV8, NEON);

/// Set once the probes have run (so a CPU with none of the features still
/// caches its answer).
const PROBED: u32 = 1 << 31;

static CACHE: AtomicU32 = AtomicU32::new(0);

/// Runs every probe once. The compound answers (for example `VAES_AVX512`)
/// are computed here from the raw feature bits, so each `has_*` below is one
/// load and one mask.
#[allow(unused_mut)]
#[cold]
#[inline(never)]
fn probe() -> u32 {
    let mut bits = PROBED;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as f;
        let set = |bits: &mut u32, bit: u32, yes: bool| {
            if yes {
                *bits |= bit;
            }
        };
        // SSSE3 for the key schedule's byte shuffle: every CPU with AES-NI
        // has it (Westmere on), but the schedule may rely only on what
        // was proved.
        let aesni = f!("aes") && f!("sse2") && f!("ssse3");
        let pclmul = f!("pclmulqdq") && f!("ssse3");
        let aesni_clmul = aesni && pclmul && f!("sse4.1");
        let vaes_avx2 = aesni_clmul && f!("avx") && f!("avx2") && f!("vaes") && f!("vpclmulqdq");
        let vaes_avx512 = vaes_avx2 && f!("avx512f") && f!("avx512bw") && f!("avx512vl");
        set(&mut bits, AESNI, aesni);
        set(&mut bits, PCLMUL, pclmul);
        set(&mut bits, AESNI_CLMUL, aesni_clmul);
        set(&mut bits, AVX2, f!("avx2"));
        set(&mut bits, VAES_AVX2, vaes_avx2);
        set(&mut bits, VAES_AVX512, vaes_avx512);
        set(
            &mut bits,
            AVX512IFMA,
            f!("avx512f") && f!("avx512vl") && f!("avx512ifma"),
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        use std::arch::is_aarch64_feature_detected as f;
        if f!("neon") && f!("pmull") {
            bits |= PMULL;
        }
        if f!("sha3") {
            bits |= SHA3;
        }
        if f!("neon") && f!("aes") {
            bits |= AES_ARMV8;
        }
        if f!("neon") {
            bits |= NEON;
        }
    }
    bits
}

/// Whether every feature of `mask` is present (probing once per process):
/// a load and a mask in line, the probes out of line.
#[inline(always)]
fn has(mask: u32) -> bool {
    let mut bits = CACHE.load(Ordering::Relaxed);
    if bits == 0 {
        // Racing threads compute the same value; the last store wins.
        bits = probe();
        CACHE.store(bits, Ordering::Relaxed);
    }
    #[cfg(test)]
    {
        bits &= !hidden::get();
    }
    bits & mask == mask
}

/// AES-NI (and SSE2 and SSSE3) are present.
///
/// ```
/// use galois_aead::AesBackend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_aesni(), AesBackend::AesNi.is_available());
/// ```
#[inline]
pub fn has_aesni() -> bool {
    has(AESNI)
}

/// For a unit test of one backend: whether this CPU can run it (its
/// probe, checked against the standard library's detection in this
/// module's tests); if not, the test says so on stderr and checks nothing
/// more.
#[cfg(test)]
pub(crate) fn test_can_run(available: bool, what: &str) -> bool {
    if !available {
        eprintln!("not run: this CPU lacks {what}");
    }
    available
}

/// PCLMULQDQ (and SSSE3 for byte swaps) are present.
///
/// ```
/// use galois_aead::GhashBackend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_pclmul(), GhashBackend::Clmul.is_available());
/// ```
pub fn has_pclmul() -> bool {
    has(PCLMUL)
}

/// AES-NI, PCLMULQDQ, SSSE3 and SSE4.1: the xmm stitched kernel.
///
/// ```
/// use galois_aead::detect::{has_aesni, has_aesni_clmul, has_pclmul};
/// assert!(!has_aesni_clmul() || (has_aesni() && has_pclmul()));
/// ```
pub fn has_aesni_clmul() -> bool {
    has(AESNI_CLMUL)
}

/// ARMv8 NEON and PMULL (FEAT_PMULL) are present (aarch64).
///
/// ```
/// #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
/// assert_eq!(galois_aead::detect::has_pmull(), galois_aead::GhashBackend::Pmull.is_available());
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_pmull());
/// ```
pub fn has_pmull() -> bool {
    has(PMULL)
}

/// FEAT_AES (`AESE`/`AESMC`, with NEON) is present (aarch64).
///
/// ```
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_aes_armv8());
/// ```
pub fn has_aes_armv8() -> bool {
    has(AES_ARMV8)
}

/// Advanced SIMD (NEON) is present (aarch64).
///
/// ```
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_neon());
/// ```
pub fn has_neon() -> bool {
    has(NEON)
}

/// FEAT_SHA3 (for its three-way XOR, EOR3) is present (aarch64).
///
/// ```
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_sha3());
/// ```
pub fn has_sha3() -> bool {
    has(SHA3)
}

/// PMULL and SHA3 together: the `pmull_eor3` GHASH backend (aarch64).
///
/// ```
/// use galois_aead::detect::{has_pmull, has_pmull_sha3, has_sha3};
/// assert_eq!(has_pmull_sha3(), has_pmull() && has_sha3());
/// ```
pub fn has_pmull_sha3() -> bool {
    has(PMULL | SHA3)
}

/// AVX2 is present.
///
/// ```
/// use galois_aead::poly1305::Poly1305Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_avx2(), Poly1305Backend::Avx2.is_available());
/// ```
pub fn has_avx2() -> bool {
    has(AVX2)
}

/// VAES and VPCLMULQDQ on 256-bit vectors (with AVX2) are present.
///
/// ```
/// use galois_aead::GhashBackend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_vaes_avx2(), GhashBackend::VaesAvx2.is_available());
/// ```
pub fn has_vaes_avx2() -> bool {
    has(VAES_AVX2)
}

/// VAES and VPCLMULQDQ on 512-bit vectors (AVX-512 F, BW, VL) are present.
///
/// ```
/// use galois_aead::GhashBackend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_vaes_avx512(), GhashBackend::VaesAvx512.is_available());
/// ```
pub fn has_vaes_avx512() -> bool {
    has(VAES_AVX512)
}

/// AVX-512 IFMA (52-bit multiply-add, with F and VL) is present.
///
/// ```
/// use galois_aead::poly1305::Poly1305Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_avx512ifma(), Poly1305Backend::Ifma.is_available());
/// ```
pub fn has_avx512ifma() -> bool {
    has(AVX512IFMA)
}

/// The probe of backends that need nothing beyond the target's baseline.
///
/// ```
/// assert!(galois_aead::detect::always());
/// ```
pub fn always() -> bool {
    true
}

/// `(name, f!(name))` for each feature name, `f` the standard library's
/// detection macro of the target.
#[allow(unused_macros)]
macro_rules! detected {
    ($f:ident: $($name:tt),+) => {
        vec![$(($name, $f!($name))),+]
    };
}

/// The CPU features galois looks for, and whether this CPU has each.
///
/// ```
/// let features = galois_aead::detect::cpu_features();
/// if cfg!(target_arch = "x86_64") {
///     let aes = features.iter().find(|(name, _)| *name == "aes").unwrap().1;
///     assert!(aes || !galois_aead::detect::has_aesni());
/// }
/// ```
pub fn cpu_features() -> Vec<(&'static str, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as f;
        detected!(f: "aes", "pclmulqdq", "ssse3", "avx2", "vaes", "vpclmulqdq",
            "avx512f", "avx512bw", "avx512vl", "avx512ifma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        use std::arch::is_aarch64_feature_detected as f;
        detected!(f: "neon", "aes", "pmull", "sha3")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Vec::new()
    }
}

/// Unit tests can hide features from the probes, per thread, to see what a
/// smaller CPU gets (a key built while a feature is hidden cannot use it).
#[cfg(test)]
pub(crate) mod hidden {
    use std::cell::Cell;

    thread_local! {
        static HIDDEN: Cell<u32> = const { Cell::new(0) };
    }

    pub(super) fn get() -> u32 {
        HIDDEN.with(Cell::get)
    }

    /// Hides every probed feature on this thread until the guard drops.
    pub(crate) fn all() -> Guard {
        HIDDEN.with(|h| h.set(!super::PROBED));
        Guard
    }

    pub(crate) struct Guard;

    impl Drop for Guard {
        fn drop(&mut self) {
            HIDDEN.with(|h| h.set(0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_answers_match_the_raw_probes() {
        let bits = probe();
        assert_eq!(has_aesni(), bits & AESNI != 0);
        assert_eq!(has_pclmul(), bits & PCLMUL != 0);
        assert_eq!(has_vaes_avx512(), bits & VAES_AVX512 != 0);
        assert!(!has_vaes_avx512() || has_vaes_avx2());
        assert!(!has_vaes_avx2() || has_aesni_clmul());
        assert!(!has_aesni_clmul() || (has_aesni() && has_pclmul()));
    }

    /// Each probe against the standard library's detection, feature by
    /// feature: the test suites run every backend whose probe says yes and
    /// only those, so a probe that said no on a CPU with the features
    /// would hide a backend from them.
    #[test]
    fn probes_match_the_standard_detection() {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as f;
            let known = detected!(f: "aes", "sse2", "ssse3", "sse4.1", "pclmulqdq", "avx",
                "avx2", "vaes", "vpclmulqdq", "avx512f", "avx512bw", "avx512vl", "avx512ifma");
            let all = |names: &[&str]| {
                names
                    .iter()
                    .all(|n| known.iter().find(|(k, _)| k == n).expect(n).1)
            };
            let aesni = ["aes", "sse2", "ssse3"];
            let clmul = ["pclmulqdq", "ssse3"];
            let xmm = [&aesni[..], &clmul, &["sse4.1"]].concat();
            let ymm = [&xmm[..], &["avx", "avx2", "vaes", "vpclmulqdq"]].concat();
            let zmm = [&ymm[..], &["avx512f", "avx512bw", "avx512vl"]].concat();
            assert_eq!(has_aesni(), all(&aesni));
            assert_eq!(has_pclmul(), all(&clmul));
            assert_eq!(has_aesni_clmul(), all(&xmm));
            assert_eq!(has_avx2(), all(&["avx2"]));
            assert_eq!(has_vaes_avx2(), all(&ymm));
            assert_eq!(has_vaes_avx512(), all(&zmm));
            assert_eq!(
                has_avx512ifma(),
                all(&["avx512f", "avx512vl", "avx512ifma"])
            );
            assert!(!has_pmull() && !has_sha3() && !has_aes_armv8() && !has_neon());
        }
        #[cfg(target_arch = "aarch64")]
        {
            use std::arch::is_aarch64_feature_detected as f;
            assert_eq!(has_pmull(), f!("neon") && f!("pmull"));
            assert_eq!(has_sha3(), f!("sha3"));
            assert_eq!(has_pmull_sha3(), f!("neon") && f!("pmull") && f!("sha3"));
            assert_eq!(has_aes_armv8(), f!("neon") && f!("aes"));
            assert_eq!(has_neon(), f!("neon"));
            assert!(!has_aesni() && !has_pclmul() && !has_avx2());
        }
        // Printed with --nocapture: what this CPU runs.
        eprintln!("{:?}", cpu_features());
    }

    #[test]
    fn hidden_features_read_as_absent() {
        let _g = hidden::all();
        assert!(!has_aesni() && !has_pclmul() && !has_avx2() && !has_pmull());
        assert!(always());
    }
}
