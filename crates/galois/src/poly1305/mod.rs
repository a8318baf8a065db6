//! Poly1305-AES (Bernstein, FSE 2005) and the one-time Poly1305 of RFC 8439.

/// A Poly1305 implementation. Automatic selection (`detect.rs`) picks the
/// fastest one the CPU has; each can be pinned by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Portable constant time, 64-bit limbs.
    Portable,
    /// AVX2, 4-way with powers r^1..r^4.
    Avx2,
    /// AVX-512 IFMA (vpmadd52luq/huq), 8-way.
    Ifma,
}
