//! Which backends this CPU can run, by the standard library's feature
//! detection and a table written here by hand (the features each backend's
//! code uses), independent of `galois_aead::detect` and the registries.
//! Shared by galois-aead's suites (`common::every`) and galois-cli's kat
//! tests (`#[path]`).

/// Whether this CPU can run backend `name` of `family` ("GHASH", "AES",
/// "Poly1305" or "GF(2^64)"); panics on a backend the table lacks.
pub fn expected(family: &str, name: &str) -> bool {
    // A closure: whether this CPU has every one of `features`, by the
    // standard library's detection macro `$detect` over the names listed
    // (any other name is another target's feature: false).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    macro_rules! detector {
        ($detect:ident: $($f:tt)*) => {
            |features: &[&str]| {
                features.iter().all(|f| match *f {
                    $($f => std::arch::$detect!($f),)*
                    _ => false,
                })
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    let all = detector!(is_x86_feature_detected: "aes" "pclmulqdq" "sse2" "ssse3" "sse4.1" "avx"
        "avx2" "vaes" "vpclmulqdq" "avx512f" "avx512bw" "avx512vl" "avx512ifma");
    #[cfg(target_arch = "aarch64")]
    let all = detector!(is_aarch64_feature_detected: "neon" "aes" "pmull" "sha3");
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let all = |features: &[&str]| features.is_empty();
    const XMM: &[&str] = &["aes", "sse2", "ssse3", "pclmulqdq", "sse4.1"];
    // What the ymm kernels add to the xmm ones, and the zmm ones to those.
    const YMM: &[&str] = &["avx", "avx2", "vaes", "vpclmulqdq"];
    const ZMM: &[&str] = &["avx512f", "avx512bw", "avx512vl"];
    match (family, name) {
        ("GHASH", "vaes_avx512") => all(XMM) && all(YMM) && all(ZMM),
        ("GHASH", "vaes_avx2") => all(XMM) && all(YMM),
        ("GHASH", "aesni_clmul") => all(XMM),
        ("GHASH", "clmul") | ("GF(2^64)", "gf64-clmul") => all(&["pclmulqdq", "ssse3"]),
        ("GHASH", "pmull_eor3") => all(&["neon", "pmull", "sha3"]),
        ("GHASH", "pmull") => all(&["neon", "pmull"]),
        ("AES", "aesni") => all(&["aes", "sse2", "ssse3"]),
        ("AES", "armv8") => all(&["neon", "aes"]),
        ("Poly1305", "ifma") => all(&["avx512f", "avx512vl", "avx512ifma"]),
        ("Poly1305", "avx2") => all(&["avx2"]),
        ("Poly1305", "neon") => all(&["neon"]),
        ("GHASH", "ctmul64" | "bitserial")
        | ("GHASH", "table8_vartime" | "table4_vartime" | "shoup8_vartime" | "shoup4_vartime")
        | ("AES" | "Poly1305", "portable")
        | ("GF(2^64)", "gf64-ctmul" | "gf64-bitserial") => true,
        _ => panic!("{family} backend {name} is not in the test's feature table: add it"),
    }
}
