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

static R8: [u16; 256] = shoup_reduction_table::<256>(8);

#[derive(Zeroize)]
pub(crate) struct Key {
    m0: Box<[u128; 256]>,
    #[zeroize(skip)]
    r: &'static [u16; 256],
}

impl GhashImpl for Key {
    type Message<'t> = crate::gf128::message::OwnKey<'t, Self>;

    const KEY_BYTES: usize = 256 * 16;
    const SHARED_BYTES: usize = 256 * 2;

    fn new(h: u128) -> Option<Self> {
        let p = powers_of_x(h);
        let mut m0 = Box::new([0u128; 256]);
        fill_table(&mut m0[..], &p[..8], 8);
        Some(Key { m0, r: &R8 })
    }

    fn mul_h(&self, x: u128) -> u128 {
        let bytes = x.to_be_bytes();
        let mut z = self.m0[bytes[15] as usize];
        for &b in bytes[..15].iter().rev() {
            z = (z >> 8) ^ ((self.r[(z & 0xff) as usize] as u128) << 112) ^ self.m0[b as usize];
        }
        z
    }
}
