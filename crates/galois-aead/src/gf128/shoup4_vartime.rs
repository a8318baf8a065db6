//! Shoup's method with 4-bit tables. NOT constant time.
//!
//! The 4-bit form of `shoup8_vartime`: M_0[n] = n * H for the 16 nibble
//! values (256 bytes per key), Horner's rule over the 32 nibbles of X from
//! the last to the first, Z <- Z * x^4 ^ M_0[n_j], and a key-independent
//! table R of 16 entries for the nibble that falls off the end (32 bytes
//! as 16-bit words; the spec's 64 bytes are 32-bit words).

use super::{fill_table, powers_of_x, shoup_reduction_table, GhashImpl};
use zeroize::Zeroize;

static R4: [u16; 16] = shoup_reduction_table::<16>(4);

/// Boxed, as every key larger than a pointer or two: `GhashKey` is as
/// large as its largest variant, and every move of a GCM key copies it.
#[derive(Zeroize)]
pub(crate) struct Key {
    m0: Box<[u128; 16]>,
}

impl GhashImpl for Key {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = 16 * 16;
    const SHARED_BYTES: usize = 16 * 2;

    fn new(h: u128) -> Option<Self> {
        let p = powers_of_x(h);
        let mut m0 = Box::new([0u128; 16]);
        fill_table(&mut *m0, &p[..4], 4);
        Some(Key { m0 })
    }

    fn mul_h(&self, x: u128) -> u128 {
        let mut z = self.m0[(x & 15) as usize];
        for j in 1..32 {
            let n = (x >> (4 * j)) & 15;
            z = (z >> 4) ^ ((R4[(z & 15) as usize] as u128) << 112) ^ self.m0[n as usize];
        }
        z
    }
}
