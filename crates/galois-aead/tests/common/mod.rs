//! Helpers shared by the integration tests.
#![allow(dead_code)]

use galois_aead::{AesBackend, Backend, Options};
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Every GHASH backend. On a CPU without some feature the test fails unless
/// GALOIS_ALLOW_MISSING_CPU_FEATURES=1 says that is expected: a backend
/// that did not run is a failure, not a skip.
pub fn ghash_backends() -> Vec<Backend> {
    let allow = std::env::var("GALOIS_ALLOW_MISSING_CPU_FEATURES").as_deref() == Ok("1");
    Backend::ALL
        .iter()
        .copied()
        .filter(|b| {
            assert!(
                allow || b.is_available(),
                "backend {b} cannot run on this CPU"
            );
            b.is_available()
        })
        .collect()
}

/// Every AES backend, with the same rule.
pub fn aes_backends() -> Vec<AesBackend> {
    let allow = std::env::var("GALOIS_ALLOW_MISSING_CPU_FEATURES").as_deref() == Ok("1");
    AesBackend::ALL
        .iter()
        .copied()
        .filter(|b| {
            assert!(
                allow || b.is_available(),
                "AES backend {b:?} cannot run on this CPU"
            );
            b.is_available()
        })
        .collect()
}

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

pub fn bytes(rng: &mut StdRng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill(&mut v[..]);
    v
}

pub fn block(rng: &mut StdRng) -> [u8; 16] {
    let mut b = [0u8; 16];
    rng.fill(&mut b);
    b
}

/// Options covering every implementation a GCM test must run: each GHASH
/// backend and kernel (AES auto-selected), then each AES backend (GHASH
/// auto-selected).
pub fn implementations() -> Vec<Options> {
    let mut v: Vec<Options> = ghash_backends()
        .into_iter()
        .map(|b| Options::new().backend(b))
        .collect();
    v.extend(
        aes_backends()
            .into_iter()
            .map(|a| Options::new().aes_backend(a)),
    );
    v
}
