//! GHASH with VPCLMULQDQ on 512-bit vectors (AVX-512 F, BW, VL): four
//! blocks per vector, the loop of `wide/` instantiated for `__m512i`, with
//! H^1..H^32 at key setup and up to H^256 on first use. The AEAD layer's
//! stitched VAES kernel (`gcm::kernels`, 32-block batches, one reduction
//! per 4 KiB) uses these powers through `GhashImpl::wide`.

super::wide::wide_backend! {
    vector: __m512i,
    features: "avx512f,avx512bw,avx512vl,avx,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3,sse4.1",
    detect: crate::detect::has_vaes_avx512,
    backend: super::GhashBackend::VaesAvx512,
}
