//! GHASH with PCLMULQDQ on 128-bit vectors (one block per vector): blocks
//! multiplied by powers of H with Karatsuba and summed unreduced, one
//! reduction per group (the representation and the reduction: `wide/` and
//! the module doc of `gf128`). Its key is the powers of H; the AEAD
//! layer's stitched AES-NI kernel (`gcm::kernels`, 8-block batches) uses
//! them through `GhashImpl::wide`.

super::wide::wide_backend! {
    vector: __m128i,
    features: "aes,pclmulqdq,sse2,ssse3,sse4.1",
    detect: crate::detect::has_aesni_clmul,
    backend: super::GhashBackend::AesniClmul,
}
