//! Bit-serial multiplication: Algorithm 1 of the GCM spec, the reference
//! every other backend is tested against.
//!
//! Z starts at 0 and V at H. For each bit X_i of X, from x^0 (the leftmost
//! bit, our most significant) to x^127: if X_i is 1, Z ^= V; then V = V * x,
//! a right shift that folds a carried-out x^128 back as R = x^7+x^2+x+1.
//! Both conditionals are done with all-ones/all-zeros masks rather than
//! branches, so the 128 iterations run in time independent of X and H.
//! It is slow (128 steps per block) and needs no storage beyond H.

use super::mul_x;
use crate::ct::mask128;

/// Returns x * y in GF(2^128), GCM bit order, in constant time.
pub(crate) fn mul(x: u128, y: u128) -> u128 {
    let mut z = 0u128;
    let mut v = y;
    for i in (0..128).rev() {
        z ^= v & mask128(x >> i);
        v = mul_x(v);
    }
    z
}

crate::registry::plain_key! {
    u128, super::GhashImpl;
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;
    const KEY_BYTES: usize = 16;
}
