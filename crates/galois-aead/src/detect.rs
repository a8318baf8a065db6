//! CPU detection: the one place that picks implementations.
//!
//! Every choice is made once, when a key is set up, from what the CPU
//! reports at run time. Constructors of SIMD backends call the `has_*`
//! functions themselves, so a backend cannot exist on a CPU without its
//! features. Automatic selection never picks a `*_vartime` backend.

use crate::aes::AesBackend;
use crate::gf128::Backend;

/// AES-NI (and SSE2) are present.
///
/// ```
/// use galois_aead::AesBackend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_aesni(), AesBackend::AesNi.is_available());
/// ```
pub fn has_aesni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("aes") && std::arch::is_x86_feature_detected!("sse2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// PCLMULQDQ (and SSSE3 for byte swaps) are present.
///
/// ```
/// use galois_aead::Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_pclmul(), Backend::Clmul.is_available());
/// ```
pub fn has_pclmul() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("pclmulqdq")
            && std::arch::is_x86_feature_detected!("ssse3")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AES-NI, PCLMULQDQ, SSSE3 and SSE4.1: the xmm stitched kernel.
///
/// ```
/// use galois_aead::detect::{has_aesni, has_aesni_clmul, has_pclmul};
/// assert!(!has_aesni_clmul() || (has_aesni() && has_pclmul()));
/// ```
pub fn has_aesni_clmul() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_aesni() && has_pclmul() && std::arch::is_x86_feature_detected!("sse4.1")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// ARMv8 NEON and PMULL (FEAT_PMULL) are present (aarch64).
///
/// ```
/// #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
/// assert_eq!(galois_aead::detect::has_pmull(), galois_aead::Backend::Pmull.is_available());
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_pmull());
/// ```
pub fn has_pmull() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("neon")
            && std::arch::is_aarch64_feature_detected!("pmull")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// FEAT_AES (`AESE`/`AESMC`, with NEON) is present (aarch64).
///
/// ```
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_aes_armv8());
/// ```
pub fn has_aes_armv8() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("neon")
            && std::arch::is_aarch64_feature_detected!("aes")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// FEAT_SHA3 (for its three-way XOR, EOR3) is present (aarch64).
///
/// ```
/// #[cfg(not(target_arch = "aarch64"))]
/// assert!(!galois_aead::detect::has_sha3());
/// ```
pub fn has_sha3() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("sha3")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// AVX2 is present.
///
/// ```
/// use galois_aead::poly1305::Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_avx2(), Backend::Avx2.is_available());
/// ```
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// VAES and VPCLMULQDQ on 256-bit vectors (with AVX2) are present.
///
/// ```
/// use galois_aead::Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_vaes_avx2(), Backend::VaesAvx2.is_available());
/// ```
pub fn has_vaes_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as f;
        f!("avx") && f!("avx2") && f!("vaes") && f!("vpclmulqdq") && has_aesni_clmul()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// VAES and VPCLMULQDQ on 512-bit vectors (AVX-512 F, BW, VL) are present.
///
/// ```
/// use galois_aead::Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_vaes_avx512(), Backend::VaesAvx512.is_available());
/// ```
pub fn has_vaes_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as f;
        has_vaes_avx2() && f!("avx512f") && f!("avx512bw") && f!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AVX-512 IFMA (52-bit multiply-add, with F and VL) is present.
///
/// ```
/// use galois_aead::poly1305::Backend;
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(galois_aead::detect::has_avx512ifma(), Backend::Ifma.is_available());
/// ```
pub fn has_avx512ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as f;
        f!("avx512f") && f!("avx512vl") && f!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The Poly1305 implementation a new key gets.
///
/// ```
/// let b = galois_aead::detect::poly1305_backend();
/// assert!(b.is_available());
/// assert_eq!(galois_aead::poly1305::Poly1305Aes::new(&[0u8; 32])?.backend(), b);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn poly1305_backend() -> crate::poly1305::Backend {
    use crate::poly1305::Backend;
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512ifma() {
            return Backend::Ifma;
        }
        if has_avx2() {
            return Backend::Avx2;
        }
    }
    // aarch64: `Backend::Neon` is not picked: llvm-mca's estimates put it
    // behind portable on Neoverse V1 and ahead on N1 (docs/speed.md, an
    // estimate only; no ARM machine to measure).
    Backend::Portable
}

/// Whether this CPU can run a Poly1305 backend.
///
/// ```
/// use galois_aead::{detect, poly1305::Backend};
/// assert!(detect::poly1305_backend_available(Backend::Portable));
/// assert!(detect::poly1305_backend_available(detect::poly1305_backend()));
/// ```
pub fn poly1305_backend_available(b: crate::poly1305::Backend) -> bool {
    use crate::poly1305::Backend;
    match b {
        Backend::Portable => true,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => has_avx2(),
        #[cfg(target_arch = "x86_64")]
        Backend::Ifma => has_avx512ifma(),
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Backend::Neon => std::arch::is_aarch64_feature_detected!("neon"),
    }
}

/// The AES implementation a new key gets.
///
/// ```
/// let b = galois_aead::detect::aes_backend();
/// assert_eq!(galois_aead::AesGcm::new(&[0u8; 16])?.aes_backend(), b);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn aes_backend() -> AesBackend {
    #[cfg(target_arch = "x86_64")]
    if has_aesni() {
        return AesBackend::AesNi;
    }
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    if has_aes_armv8() {
        return AesBackend::Armv8;
    }
    AesBackend::Portable
}

/// The GHASH backend a new key gets: the fastest constant-time one. The
/// vector backends also run AES-GCM stitched when the cipher is AES-NI.
///
/// ```
/// let b = galois_aead::detect::ghash_backend();
/// assert!(b.is_constant_time() && b.is_available());
/// assert_eq!(galois_aead::AesGcm::new(&[0u8; 16])?.backend(), b);
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn ghash_backend() -> Backend {
    #[cfg(target_arch = "x86_64")]
    {
        if has_vaes_avx512() {
            return Backend::VaesAvx512;
        }
        if has_vaes_avx2() {
            return Backend::VaesAvx2;
        }
        if has_aesni_clmul() {
            return Backend::AesniClmul;
        }
        if has_pclmul() {
            return Backend::Clmul;
        }
    }
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    {
        if has_pmull() && has_sha3() {
            return Backend::PmullEor3;
        }
        if has_pmull() {
            return Backend::Pmull;
        }
    }
    Backend::Ctmul64
}

pub(crate) fn ghash_backend_available(b: Backend) -> bool {
    match b {
        #[cfg(target_arch = "x86_64")]
        Backend::Clmul => has_pclmul(),
        #[cfg(target_arch = "x86_64")]
        Backend::AesniClmul => has_aesni_clmul(),
        #[cfg(target_arch = "x86_64")]
        Backend::VaesAvx2 => has_vaes_avx2(),
        #[cfg(target_arch = "x86_64")]
        Backend::VaesAvx512 => has_vaes_avx512(),
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Backend::Pmull => has_pmull(),
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        Backend::PmullEor3 => has_pmull() && has_sha3(),
        _ => true,
    }
}

/// The CPU features galois looks for, and whether this CPU has each.
///
/// ```
/// let features = galois_aead::detect::cpu_features();
/// if cfg!(target_arch = "x86_64") {
///     let aes = features.iter().find(|(name, _)| *name == "aes").unwrap().1;
///     assert_eq!(aes, galois_aead::detect::has_aesni());
/// }
/// ```
pub fn cpu_features() -> Vec<(&'static str, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as f;
        vec![
            ("aes", f!("aes")),
            ("pclmulqdq", f!("pclmulqdq")),
            ("ssse3", f!("ssse3")),
            ("avx2", f!("avx2")),
            ("vaes", f!("vaes")),
            ("vpclmulqdq", f!("vpclmulqdq")),
            ("avx512f", f!("avx512f")),
            ("avx512bw", f!("avx512bw")),
            ("avx512vl", f!("avx512vl")),
            ("avx512ifma", f!("avx512ifma")),
        ]
    }
    #[cfg(target_arch = "aarch64")]
    {
        use std::arch::is_aarch64_feature_detected as f;
        vec![
            ("neon", f!("neon")),
            ("aes", f!("aes")),
            ("pmull", f!("pmull")),
            ("sha3", f!("sha3")),
        ]
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Vec::new()
    }
}
