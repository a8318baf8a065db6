//! GHASH with VPCLMULQDQ on 256-bit vectors (AVX2 CPUs without AVX-512):
//! two blocks per vector, the loop of `wide/` instantiated for `__m256i`.
//! The AEAD layer's stitched VAES kernel (`gcm::kernels`, 16-block batches)
//! uses its powers of H through `GhashImpl::wide`.

super::wide::wide_backend! {
    vector: __m256i,
    features: "avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    detect: crate::detect::has_vaes_avx2,
    backend: super::GhashBackend::VaesAvx2,
}
