//! VAES + VPCLMULQDQ on 256-bit vectors (AVX2 CPUs without AVX-512): two
//! blocks per vector, sixteen blocks per batch, AES rounds stitched with the
//! GHASH of the previous batch, one reduction per 4 KiB (H^256..H^1).
//! The math and the loops are in `wide.rs`, instantiated here for `__m256i`.

super::wide::wide_backend!(
    __m256i,
    "avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    crate::detect::has_vaes_avx2
);
