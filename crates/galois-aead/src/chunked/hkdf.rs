//! HKDF-Expand (RFC 5869) with HMAC-SHA-512 (RFC 2104), the key
//! derivation of Cobblestone, on `sha2`'s compression function.
//!
//! HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)), where K0 is the key
//! padded with zeros to SHA-512's 128-byte block (a longer key is hashed
//! first). Both padded blocks are compressed once per key ([`HmacSha512`]
//! keeps the two chaining states); a message then costs its own blocks and
//! one outer block. HKDF-Expand's T(i) = HMAC(PRK, T(i-1) || info || i).
//!
//! Written here rather than taken from the `hmac` and `hkdf` crates so that
//! every buffer that holds the key or anything computed from it is ours to
//! wipe: those crates leave the padded key (K0 ^ ipad, K0 ^ opad) and the
//! output blocks T(i), which hold the derived AES key, on the stack.

use sha2::block_api::compress512;
use zeroize::Zeroize;

const BLOCK: usize = 128;
/// SHA-512's output length.
const OUT: usize = 64;

/// SHA-512's initial chaining value (FIPS 180-4, 5.3.5).
const IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// A SHA-512 computation under way: chaining state, the partial block and
/// the bytes absorbed so far. Wiped on drop.
struct Sha512 {
    h: [u64; 8],
    buf: [u8; BLOCK],
    used: usize,
    len: u128,
}

impl Drop for Sha512 {
    fn drop(&mut self) {
        self.h.zeroize();
        self.buf.zeroize();
    }
}

impl Sha512 {
    /// Resumes from a chaining state after `blocks` whole blocks.
    fn resume(h: [u64; 8], blocks: u128) -> Self {
        Sha512 {
            h,
            buf: [0; BLOCK],
            used: 0,
            len: blocks * BLOCK as u128,
        }
    }

    fn update(&mut self, mut m: &[u8]) {
        self.len += m.len() as u128;
        while !m.is_empty() {
            let take = (BLOCK - self.used).min(m.len());
            self.buf[self.used..self.used + take].copy_from_slice(&m[..take]);
            self.used += take;
            m = &m[take..];
            if self.used == BLOCK {
                compress512(&mut self.h, core::slice::from_ref(&self.buf));
                self.used = 0;
            }
        }
    }

    /// Pads (0x80, zeros, the length in bits as 128 bits big-endian) and
    /// writes the digest into `out`.
    fn finish(mut self, out: &mut [u8; OUT]) {
        let bits = self.len.wrapping_mul(8);
        self.buf[self.used] = 0x80;
        self.buf[self.used + 1..].fill(0);
        if self.used + 1 > BLOCK - 16 {
            compress512(&mut self.h, core::slice::from_ref(&self.buf));
            self.buf.fill(0);
        }
        self.buf[BLOCK - 16..].copy_from_slice(&bits.to_be_bytes());
        compress512(&mut self.h, core::slice::from_ref(&self.buf));
        for (o, w) in out.chunks_exact_mut(8).zip(self.h) {
            o.copy_from_slice(&w.to_be_bytes());
        }
    }
}

/// HMAC-SHA-512 under one key: the chaining states after K0 ^ ipad and
/// K0 ^ opad. Wiped on drop.
pub(crate) struct HmacSha512 {
    inner: [u64; 8],
    outer: [u64; 8],
}

impl Drop for HmacSha512 {
    fn drop(&mut self) {
        self.inner.zeroize();
        self.outer.zeroize();
    }
}

impl HmacSha512 {
    /// The key's two padded blocks, compressed.
    pub(crate) fn new(key: &[u8]) -> Self {
        let mut k0 = [0u8; BLOCK];
        if key.len() > BLOCK {
            let mut d = [0u8; OUT];
            let mut s = Sha512::resume(IV, 0);
            s.update(key);
            s.finish(&mut d);
            k0[..OUT].copy_from_slice(&d);
            d.zeroize();
        } else {
            k0[..key.len()].copy_from_slice(key);
        }
        let pad = |x: u8| {
            let mut b = k0;
            b.iter_mut().for_each(|v| *v ^= x);
            let mut h = IV;
            compress512(&mut h, core::slice::from_ref(&b));
            b.zeroize();
            h
        };
        let (inner, outer) = (pad(0x36), pad(0x5c));
        k0.zeroize();
        HmacSha512 { inner, outer }
    }

    /// HMAC of the concatenation of `parts`, into `out`.
    pub(crate) fn mac<'a>(&self, parts: impl IntoIterator<Item = &'a [u8]>, out: &mut [u8; OUT]) {
        let mut s = Sha512::resume(self.inner, 1);
        for p in parts {
            s.update(p);
        }
        let mut ih = [0u8; OUT];
        s.finish(&mut ih);
        let mut o = Sha512::resume(self.outer, 1);
        o.update(&ih);
        o.finish(out);
        ih.zeroize();
    }

    /// HKDF-Expand with this key as PRK: `okm` (at most 255 blocks) from
    /// the concatenation of `info`.
    pub(crate) fn expand(&self, info: &[&[u8]], okm: &mut [u8]) {
        assert!(
            okm.len() <= 255 * OUT,
            "HKDF-Expand gives at most 255 blocks"
        );
        let mut t = [0u8; OUT];
        for (i, block) in okm.chunks_mut(OUT).enumerate() {
            let counter = [i as u8 + 1];
            let prev: &[u8] = if i == 0 { &[] } else { &t };
            let parts = core::iter::once(prev)
                .chain(info.iter().copied())
                .chain(core::iter::once(&counter[..]));
            let mut next = [0u8; OUT];
            self.mac(parts, &mut next);
            block.copy_from_slice(&next[..block.len()]);
            t = next;
            next.zeroize();
        }
        t.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231 test cases 1, 2 and 6 (a key longer than the block).
    #[test]
    fn hmac_rfc4231() {
        let cases: [(Vec<u8>, Vec<u8>, &str); 3] = [
            (
                vec![0x0b; 20],
                b"Hi There".to_vec(),
                "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
            ),
            (
                b"Jefe".to_vec(),
                b"what do ya want for nothing?".to_vec(),
                "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
            ),
            (
                vec![0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First".to_vec(),
                "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
            ),
        ];
        for (key, msg, want) in cases {
            let mut out = [0u8; OUT];
            HmacSha512::new(&key).mac([&msg[..]], &mut out);
            assert_eq!(out.to_vec(), hex::decode(want).unwrap());
        }
    }

    /// Against the `hkdf` crate on every key length 0..=260 (with the
    /// padding boundary of the last block), info split at every point, and
    /// outputs of one to three blocks and a bit.
    #[test]
    fn expand_matches_hkdf_crate() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x1234_5678_9abc_def0);
        for klen in 0..=260usize {
            let mut key = vec![0u8; klen];
            rng.fill(&mut key[..]);
            let ilen = (klen * 7) % 300;
            let mut info = vec![0u8; ilen];
            rng.fill(&mut info[..]);
            let olen = 1 + (klen * 13) % 200;
            let mut want = vec![0u8; olen];
            // The crate's PRK is the key itself (from_prk wants at least
            // 64 bytes; HMAC pads shorter keys with zeros, so a zero-padded
            // copy is the same key).
            let mut prk = key.clone();
            if prk.len() < 64 {
                prk.resize(64, 0);
            }
            hkdf::Hkdf::<sha2::Sha512>::from_prk(&prk)
                .unwrap()
                .expand(&info, &mut want)
                .unwrap();
            let split = ilen / 3;
            let mut got = vec![0u8; olen];
            HmacSha512::new(&key).expand(&[&info[..split], &info[split..]], &mut got);
            assert_eq!(got, want, "key {klen} info {ilen} okm {olen}");
        }
    }

    /// Message lengths across the padding's one- and two-block cases.
    #[test]
    fn mac_every_length_matches_hmac_crate() {
        use hmac::{KeyInit, Mac};
        let key = [0x42u8; 32];
        let msg: Vec<u8> = (0..400u32).map(|i| (i * 31 + 7) as u8).collect();
        for n in 0..=msg.len() {
            let mut m = <hmac::Hmac<sha2::Sha512> as KeyInit>::new_from_slice(&key).unwrap();
            m.update(&msg[..n]);
            let want = m.finalize().into_bytes();
            let mut out = [0u8; OUT];
            HmacSha512::new(&key).mac([&msg[..n]], &mut out);
            assert_eq!(&out[..], &want[..], "length {n}");
        }
    }
}
