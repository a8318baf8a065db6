//! Shoup's method with 8-bit tables: Algorithms 2 and 3 of the GCM spec.
//! NOT constant time.
//!
//! Only M_0[b] = b * H is kept (4,096 bytes per key), built by Algorithm 3:
//! the entries at powers of two are H * x^k (eight "multiply by x" steps),
//! every other entry the XOR of two already computed. A product is then
//! evaluated by Horner's rule over the bytes of X from x_15 down to x_0:
//! Z <- Z * x^8 ^ M_0[x_i]. Multiplying Z by x^8 moves every byte one place
//! right (a shift by 8 in our representation); the byte that falls off the
//! end held x^120..x^127 and comes back, times x^8, as a value with only its
//! 16 leftmost bits set: the key-independent table R gives it (256 16-bit
//! entries, 512 bytes; the spec stores them as 32-bit words, 1,024 bytes).

use super::{fill_table, powers_of_x, shoup_reduction_table, GhashImpl};
use zeroize::Zeroize;

/// Shoup's method with `BITS`-bit steps (`N` = 2^BITS table entries);
/// this file's backend is `Shoup<8, 256>`, `shoup4_vartime`'s `Shoup<4, 16>`.
/// Boxed, as every key larger than a pointer or two: `GhashKey` is as
/// large as its largest variant, and every move of a GCM key copies it.
#[derive(Zeroize)]
pub(crate) struct Shoup<const BITS: u32, const N: usize> {
    m0: Box<[u128; N]>,
}

/// This file's line in the registry table.
pub(crate) type Key = Shoup<8, 256>;

impl<const BITS: u32, const N: usize> Shoup<BITS, N> {
    /// The key-independent reduction table R, one per width.
    const R: &'static [u16; N] = &shoup_reduction_table::<N>(BITS);
}

impl<const BITS: u32, const N: usize> GhashImpl for Shoup<BITS, N> {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = N * 16;
    const SHARED_BYTES: usize = N * 2;

    fn new(h: u128) -> Option<Self> {
        let p = powers_of_x(h);
        let mut m0 = Box::new([0u128; N]);
        fill_table(&mut m0[..], &p[..BITS as usize], BITS);
        Some(Shoup { m0 })
    }

    fn mul_h(&self, x: u128) -> u128 {
        let mask = N as u128 - 1;
        let mut z = self.m0[(x & mask) as usize];
        for j in 1..128 / BITS {
            let n = (x >> (BITS * j)) & mask;
            z = (z >> BITS) ^ ((Self::R[(z & mask) as usize] as u128) << 112) ^ self.m0[n as usize];
        }
        z
    }
}
