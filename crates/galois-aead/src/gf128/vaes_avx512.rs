//! VAES + VPCLMULQDQ on 512-bit vectors: four blocks per vector, 32 blocks
//! per batch (eight vectors in flight through AES) with H^256..H^1
//! precomputed at key setup, Karatsuba products summed unreduced across
//! eight batches and one reduction per 4 KiB. Encryption hashes the previous
//! batch between the AES rounds of the current one; decryption hashes the
//! batch it decrypts, ahead of its keystream. The math and the loops are in
//! `wide.rs`, instantiated here for `__m512i`.

super::wide::wide_backend!(
    __m512i,
    "avx512f,avx512bw,avx512vl,avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    crate::detect::has_vaes_avx512
);
