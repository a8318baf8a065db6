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

/// Equation (6) with X cut into `T` pieces of `BITS` bits (`N` = 2^BITS
/// entries per table): this file's backend is `Tables<8, 256, 16>`,
/// `table4_vartime`'s `Tables<4, 16, 32>`.
#[derive(Zeroize)]
pub(crate) struct Tables<const BITS: u32, const N: usize, const T: usize> {
    m: Box<[[u128; N]; T]>,
}

/// This file's line in the registry table.
pub(crate) type Key = Tables<8, 256, 16>;

impl<const BITS: u32, const N: usize, const T: usize> GhashImpl for Tables<BITS, N, T> {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = T * N * 16;

    fn new(h: u128) -> Option<Self> {
        let p = powers_of_x(h);
        let b = BITS as usize;
        let mut m = Box::new([[0u128; N]; T]);
        for (j, t) in m.iter_mut().enumerate() {
            fill_table(t, &p[b * j..b * j + b], BITS);
        }
        Some(Tables { m })
    }

    fn mul_h(&self, x: u128) -> u128 {
        let mut z = 0;
        for (j, t) in self.m.iter().enumerate() {
            // Piece j: the BITS bits from the top, j pieces in.
            z ^= t[((x >> (128 - BITS as usize * (j + 1))) & (N as u128 - 1)) as usize];
        }
        z
    }
}
