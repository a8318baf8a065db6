//! Incremental MACs (spec 000 sections 1 and 6; Poly1305-AES paper 004
//! section 1; Bellare-Goldreich-Goldwasser's incremental cryptography).
//!
//! GHASH and Poly1305 are polynomials in the key whose coefficients are the
//! message blocks, so a change to the message changes the hash linearly:
//! with the accumulator S = B_1 H^m + ... + B_m H (GHASH, in GF(2^128)) or
//! S = c_1 r^q + ... + c_q r (Poly1305, modulo 2^130 - 5),
//!
//! * replacing block i adds (old xor new) * H^(m-i+1), or (new - old) * r^(q-i+1);
//! * appending continues the Horner evaluation from S (after fixing a
//!   partial last block, whose padding changes);
//! * truncating subtracts the dropped blocks' terms and divides by
//!   H^(blocks dropped) (multiplies by the inverse power; H and r are
//!   nonzero, which the objects check at setup).
//!
//! Powers come from square-and-multiply over a table of H^(2^j) (and of
//! the inverses), so a one-block change costs O(log m) multiplications, not
//! O(m). The objects keep the message (to know the old blocks) and the
//! secret accumulator, wiped on drop.
//!
//! Tags use the one-time pad of a fresh IV (GMAC: E(K, Y0)) or nonce
//! (Poly1305-AES: AES_k(n)). Two tags of different messages under one IV
//! give away H (or r), so each object refuses to tag twice under the same
//! IV/nonce ([`crate::Error::IvReused`]); the caller must still keep IVs
//! unique across objects sharing a key.

mod gfmul;
mod gmac;
mod poly;

pub use gmac::{AesIncrementalGmac, IncrementalGmac};
pub use poly::IncrementalPoly1305Aes;
