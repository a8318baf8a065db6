//! Simple 4-bit tables: equation (6) of the GCM spec with X cut into 32
//! nibbles. NOT constant time.
//!
//! As in `table8_vartime`, X * H = XOR over j of M_j[n_j], where n_j is the
//! j-th nibble of X (nibble 0 is the high half of byte 0, the coefficients
//! of x^0..x^3) and M_j[n] = n * x^(4j) * H. 32 tables of 16 entries take
//! 8,192 bytes per key; a multiplication is 32 loads indexed by secret
//! nibbles. Chosen only by name.

use super::{fill_table, powers_of_x, GhashImpl};
use zeroize::Zeroize;

#[derive(Zeroize)]
pub(crate) struct Key {
    m: Box<[[u128; 16]; 32]>,
}

impl GhashImpl for Key {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = 32 * 16 * 16;

    fn new(h: u128) -> Option<Self> {
        let p = powers_of_x(h);
        let mut m = Box::new([[0u128; 16]; 32]);
        for (j, t) in m.iter_mut().enumerate() {
            fill_table(t, &p[4 * j..4 * j + 4], 4);
        }
        Some(Key { m })
    }

    fn mul_h(&self, x: u128) -> u128 {
        let mut z = 0;
        for (j, t) in self.m.iter().enumerate() {
            z ^= t[((x >> (124 - 4 * j)) & 15) as usize];
        }
        z
    }
}
