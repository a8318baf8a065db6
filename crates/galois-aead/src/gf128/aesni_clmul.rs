//! AES-NI + PCLMULQDQ on 128-bit vectors: eight blocks per batch, the AES
//! rounds of a batch interleaved with the Karatsuba multiplications of the
//! previous batch's ciphertext, the products summed unreduced across batches
//! with powers up to H^256: one reduction per 4 KiB.
//! The math and the loop structure are in `wide.rs`; this file instantiates
//! them for `__m128i` (one block per vector).

super::wide::wide_backend!(
    __m128i,
    "aes,pclmulqdq,sse2,ssse3,sse4.1",
    crate::detect::has_aesni_clmul
);
