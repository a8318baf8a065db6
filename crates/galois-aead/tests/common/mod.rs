//! Helpers shared by the integration tests.
#![allow(dead_code)]

use galois_aead::{AesBackend, Backend, Options};
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Every backend of a family that this CPU can run (`all`, with
/// `available` its registry probe). A backend is missing only where the
/// CPU lacks its features: the probes are checked against the standard
/// library's own feature detection, feature by feature, in
/// `detect::tests::probes_match_the_standard_detection` (so a broken probe
/// fails there, not silently here). The ones left out are named on stderr.
pub fn every<B: Copy + std::fmt::Debug>(all: &[B], available: impl Fn(B) -> bool) -> Vec<B> {
    let (run, missing): (Vec<B>, Vec<B>) = all.iter().copied().partition(|&b| available(b));
    if !missing.is_empty() {
        eprintln!("not run: this CPU lacks the features of {missing:?}");
    }
    assert!(!run.is_empty(), "no backend of {all:?} can run");
    run
}

/// Every GHASH backend, by [`every`]'s rule.
pub fn ghash_backends() -> Vec<Backend> {
    every(Backend::ALL, |b| b.is_available())
}

/// Every AES backend, by [`every`]'s rule.
pub fn aes_backends() -> Vec<AesBackend> {
    every(AesBackend::ALL, |b| b.is_available())
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
