//! Simple 8-bit tables: equation (6) of the GCM spec. NOT constant time.
//!
//! Write X = x_0 || x_1 || ... || x_15 in bytes. By linearity,
//! X * H = M_0[x_0] ^ M_1[x_1] ^ ... ^ M_15[x_15], where
//! M_i[b] = (b placed at byte i) * H = b * x^(8i) * H. The 16 tables of 256
//! 16-byte entries (65,536 bytes) are built at key setup from the 128
//! products H * x^k, one XOR per entry. A multiplication is then 16 loads
//! and 15 XORs, but the loads are indexed by secret bytes, so the access
//! pattern leaks through the cache: this backend is only chosen by name.

use super::{fill_table, powers_of_x, GhashImpl};
use zeroize::Zeroize;

#[derive(Zeroize)]
pub(crate) struct Key {
    m: Box<[[u128; 256]; 16]>,
}

impl GhashImpl for Key {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = 16 * 256 * 16;

    fn new(h: u128) -> Option<Self> {
        let p = powers_of_x(h);
        let mut m = Box::new([[0u128; 256]; 16]);
        for (i, t) in m.iter_mut().enumerate() {
            fill_table(t, &p[8 * i..8 * i + 8], 8);
        }
        Some(Key { m })
    }

    fn mul_h(&self, x: u128) -> u128 {
        let bytes = x.to_be_bytes();
        let mut z = 0;
        for (t, &b) in self.m.iter().zip(bytes.iter()) {
            z ^= t[b as usize];
        }
        z
    }
}
