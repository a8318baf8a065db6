//! VAES + VPCLMULQDQ on 256-bit vectors (AVX2 CPUs without AVX-512): two
//! blocks per vector, sixteen blocks per batch with H^16..H^1, AES rounds
//! stitched with the GHASH of the previous batch, one reduction per batch.
//! The math and the loops are in `wide.rs`, instantiated here for `__m256i`.

super::wide::wide_backend!(
    __m256i,
    "avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    crate::detect::has_vaes_avx2
);
