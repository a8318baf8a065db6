//! AES-GCM-SIV (RFC 8452): AEAD_AES_128_GCM_SIV and AEAD_AES_256_GCM_SIV,
//! nonce-misuse resistant.
//!
//! Per nonce (RFC 8452 section 4), the key-generating key encrypts
//! `le32(i) || nonce` for i = 0..3 (AES-128) or 0..5 (AES-256); the first
//! eight bytes of each result, concatenated, give the message-authentication
//! key (blocks 0, 1) and the message-encryption key (the rest).
//!
//! POLYVAL is not a second copy of the field code: it runs on the GHASH
//! backends through the reflection identity of RFC 8452 Appendix A,
//!
//! POLYVAL(H, X_1..X_n) =
//!     ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)), ByteReverse(X_1), ..., ByteReverse(X_n))).
//!
//! Our GHASH backends hold a block as `u128::from_be_bytes`, so a
//! byte-reversed block is simply `u128::from_le_bytes` of the original:
//! H' = x * from_le(H) (one `gf128::mul_x`), each input block is
//! byte-reversed into a stack buffer and absorbed by the backend's own
//! `update_blocks` (CLMUL, VPCLMULQDQ, portable constant time, ...), and
//! the result is read back little-endian.
//!
//! The tag is AES(enc key, S xor (nonce || 0^32) with bit 127 cleared),
//! where S = POLYVAL(auth key, A, P, le64(8|A|) || le64(8|P|)). The
//! plaintext is encrypted in counter mode from the tag with its top bit
//! set, the counter being the first 32 bits, little-endian, modulo 2^32.
//!
//! Opening decrypts into the caller's buffer, recomputes the tag over the
//! decrypted plaintext, compares in constant time and wipes the buffer on
//! failure: nothing unverified is released.

use crate::aes::{Aes, AesBackend};
use crate::block::{Block, BlockCipher128};
use crate::ct;
use crate::error::{Error, Result};
use crate::gcm::Tag;
use crate::gf128::{GhashBackend, MessageKey, MessageTable};
use zeroize::Zeroize;

#[cfg(target_arch = "x86_64")]
#[path = "x86_64/aesni.rs"]
mod aesni;

/// Longest plaintext RFC 8452 allows (P_MAX = 2^36 bytes).
pub const MAX_PLAINTEXT_BYTES: u64 = 1 << 36;
/// Longest additional data RFC 8452 allows (A_MAX = 2^36 bytes).
pub const MAX_AAD_BYTES: u64 = 1 << 36;
/// The nonce length (N_MIN = N_MAX = 12 bytes).
pub const NONCE_BYTES: usize = 12;
/// The tag length (16 bytes).
pub const TAG_BYTES: usize = 16;

/// Blocks byte-reversed per call into the GHASH backend (the wide
/// backends reduce once per 32 blocks; 64 keeps the copy in L1).
const REV_BLOCKS: usize = 64;
/// Keystream blocks computed per call to the cipher.
const CTR_BLOCKS: usize = 32;

/// AES-GCM-SIV with a 16-byte (AEAD_AES_128_GCM_SIV) or 32-byte
/// (AEAD_AES_256_GCM_SIV) key: 12-byte nonces, 16-byte tags. A 24-byte key
/// gives AES-192-GCM-SIV as OpenSSL and Python's `cryptography` extend the
/// RFC (the encryption key is the next three derived half-blocks). A repeated
/// nonce reveals only whether two messages (with their AAD) were equal.
/// The key-generating key is wiped on drop, and so is every per-message key.
///
/// ```
/// use galois_aead::AesGcmSiv;
/// let siv = AesGcmSiv::new(&[0x42u8; 32])?;
/// let nonce = [7u8; 12];
/// let sealed = siv.seal(&nonce, b"header", b"secret")?;
/// assert_eq!(sealed.len(), 6 + 16);
/// assert_eq!(siv.open(&nonce, b"header", &sealed)?, b"secret");
/// assert!(siv.open(&nonce, b"other header", &sealed).is_err());
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub struct AesGcmSiv {
    kgk: Aes,
    backend: Option<GhashBackend>,
}

/// The per-nonce keys, lent by [`AesGcmSiv::with_keys`], which builds
/// them in its own frame and wipes them: the encryption key's schedule and
/// the POLYVAL key prepared for the GHASH backend.
struct MessageKeys<'a, 't> {
    enc: Enc<'a>,
    hash: &'a MessageKey<'t>,
}

/// The message-encryption key: our AES-NI schedule and counter-mode
/// kernels where the key-generating key runs on AES-NI, else [`Aes`].
enum Enc<'a> {
    #[cfg(target_arch = "x86_64")]
    Ni(&'a aesni::RoundKeys),
    Aes(&'a Aes),
}

impl Enc<'_> {
    fn encrypt_block(&self, b: &mut Block) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Enc::Ni(k) => k.encrypt_block(b),
            Enc::Aes(k) => k.encrypt_block(b),
        }
    }

    /// XORs the keystream from counter block `tag | 0x80 << 120` into `data`;
    /// on AES-NI at the vector width of `hash`'s line in the stitched
    /// kernels' table.
    fn ctr_xor(&self, hash: &MessageKey<'_>, tag: &Block, data: &mut [u8]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Enc::Ni(k) => {
                let mut ctr0 = *tag;
                ctr0[15] |= 0x80;
                k.ctr_xor(
                    hash.wide()
                        .and_then(crate::gcm::kernels::Kernel::for_wide)
                        .map(|k| k.width()),
                    &ctr0,
                    data,
                );
            }
            Enc::Aes(k) => {
                let _ = hash;
                ctr_xor(k, tag, data)
            }
        }
    }
}

impl crate::Aead for AesGcmSiv {
    const NAME: &'static str = "aes-gcm-siv";
    const NONCE_LEN: usize = NONCE_BYTES;
}

impl crate::AeadInit for AesGcmSiv {
    const KEY_LENS: &'static [usize] = &[16, 24, 32];

    /// Key lengths 16 or 32 (24: the AES-192 extension of OpenSSL and
    /// `cryptography`).
    fn with_options(key: &[u8], opts: crate::Options) -> Result<Self> {
        let backend = opts.backends_only()?;
        if !matches!(key.len(), 16 | 24 | 32) {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        let kgk = opts.aes_key(key)?;
        Ok(AesGcmSiv { kgk, backend })
    }
}

crate::aead::aead_core! {
    impl for AesGcmSiv;
    check_lens = Self::check_lengths;
    fn seal_core(self, nonce, aad, src, buf) {
        if let Some(s) = src {
            buf.copy_from_slice(s);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(tag) = self
            .short_ni()
            .and_then(|(kgk, w)| aesni::seal_short(kgk, w, nonce.try_into().ok()?, aad, buf))
        {
            return Ok(Tag::full(tag));
        }
        self.seal_keyed(nonce, aad, buf)
    }
    fn open_core(self, nonce, aad, src, buf, tag) {
        if let Some(s) = src {
            buf.copy_from_slice(s);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(ok) = self.short_ni().and_then(|(kgk, w)| {
            aesni::open_short(kgk, w, nonce.try_into().ok()?, aad, buf, tag.try_into().ok()?)
        }) {
            return Ok(ok);
        }
        self.open_keyed(nonce, aad, buf, tag)
    }
}

impl AesGcmSiv {
    crate::aead::aead_methods!("galois_aead::AesGcmSiv", "[7u8; 16]", "[1u8; 12]");

    crate::aead::aead_init_methods!("galois_aead::AesGcmSiv", "[7u8; 16]");

    /// The key length in bytes (16, 24 or 32).
    ///
    /// ```
    /// assert_eq!(galois_aead::AesGcmSiv::new(&[0u8; 32])?.key_len(), 32);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn key_len(&self) -> usize {
        self.kgk.key_len()
    }

    /// The GHASH backend POLYVAL runs on: the pinned one, else the
    /// detected one. (A per-message key of a wide backend computes only the
    /// powers the message uses, on the stack: measured faster than CLMUL's
    /// eight powers even at 16 bytes, 343 against 372 ns a seal.)
    fn backend_for(&self, len: usize) -> GhashBackend {
        let _ = len;
        self.backend
            .unwrap_or_else(crate::gf128::GhashBackend::auto)
    }

    /// The GHASH backend POLYVAL runs on (the pinned one, or the one
    /// selected for this CPU).
    ///
    /// ```
    /// use galois_aead::{AesGcmSiv, GhashBackend};
    /// let siv = AesGcmSiv::with_options(&[0u8; 16], galois_aead::Options::new().backend(GhashBackend::Ctmul64))?;
    /// assert_eq!(siv.backend(), GhashBackend::Ctmul64);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn backend(&self) -> GhashBackend {
        self.backend_for(usize::MAX)
    }

    /// The AES backend in use.
    ///
    /// ```
    /// use galois_aead::{AesBackend, AesGcmSiv};
    /// let siv = AesGcmSiv::with_options(&[0u8; 16], galois_aead::Options::new().backend(galois_aead::GhashBackend::Ctmul64).aes_backend(AesBackend::Portable))?;
    /// assert_eq!(siv.aes_backend(), AesBackend::Portable);
    /// # Ok::<(), galois_aead::Error>(())
    /// ```
    pub fn aes_backend(&self) -> AesBackend {
        self.kgk.backend()
    }

    fn check_lengths(aad: &[u8], text_len: usize) -> Result<()> {
        if text_len as u64 > MAX_PLAINTEXT_BYTES {
            return Err(Error::MessageTooLong {
                len: text_len as u64,
                max: MAX_PLAINTEXT_BYTES,
            });
        }
        if aad.len() as u64 > MAX_AAD_BYTES {
            return Err(Error::TooLong {
                what: "additional data",
                len: aad.len() as u64,
                max: MAX_AAD_BYTES,
            });
        }
        Ok(())
    }

    /// RFC 8452 section 4: runs `f` with the message keys for this nonce
    /// (2 + key length / 8 blocks: 4 for AES-128, 5 for AES-192, 6 for
    /// AES-256) and a message of `len` bytes of AAD and text. The keys live
    /// in this frame and are wiped when `f` returns.
    fn with_keys<R>(
        &self,
        nonce: &[u8],
        len: usize,
        f: impl FnOnce(&MessageKeys<'_, '_>) -> R,
    ) -> Result<R> {
        let n = 2 + self.kgk.key_len() / 8;
        // Eight blocks, not four or six: AES-NI interleaves eight at once,
        // where fewer would run one after another.
        let mut blocks = [[0u8; 16]; 8];
        for (i, b) in blocks[..n].iter_mut().enumerate() {
            b[..4].copy_from_slice(&(i as u32).to_le_bytes());
            b[4..].copy_from_slice(nonce);
        }
        self.kgk.encrypt_blocks(&mut blocks);
        let mut auth = [0u8; 16];
        auth[..8].copy_from_slice(&blocks[0][..8]);
        auth[8..].copy_from_slice(&blocks[1][..8]);
        let mut enc = [0u8; 32];
        for (i, b) in blocks[2..n].iter().enumerate() {
            enc[8 * i..8 * i + 8].copy_from_slice(&b[..8]);
        }
        ct::wipe_now(blocks.as_flattened_mut());
        let enc_len = 8 * (n - 2);
        // mulX_GHASH(ByteReverse(H)) in the backends' representation.
        let mut h = crate::gf128::mul_x(u128::from_le_bytes(auth));
        ct::wipe_now(&mut auth);
        let mut table = MessageTable::new();
        let hash = MessageKey::new(&mut table, h, self.backend_for(len), len, 0);
        h.zeroize();
        let r = hash.and_then(|hash| match self.kgk.backend() {
            #[cfg(target_arch = "x86_64")]
            AesBackend::AesNi if enc_len != 24 => {
                aesni::RoundKeys::with_new(&enc[..enc_len], |k| {
                    f(&MessageKeys {
                        enc: Enc::Ni(k),
                        hash: &hash,
                    })
                })
                .ok_or(Error::BackendUnavailable { backend: "aesni" })
            }
            b => Aes::with_backend(&enc[..enc_len], b).map(|k| {
                f(&MessageKeys {
                    enc: Enc::Aes(&k),
                    hash: &hash,
                })
            }),
        });
        ct::wipe_now(&mut enc);
        r
    }

    /// The key-generating key's AES-NI schedule where short messages may
    /// take `aesni::seal_short` / `open_short`: POLYVAL runs on one of
    /// the PCLMULQDQ backends (whose results those paths' single-block
    /// POLYVAL gives), not on a pinned other one.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn short_ni(&self) -> Option<(&crate::aes::aesni::AesNi, crate::gcm::kernels::Width)> {
        // The PCLMULQDQ backends are those with a stitched kernel.
        let width = crate::gcm::kernels::Width::of(self.backend_for(0))?;
        Some((self.kgk.as_aesni()?, width))
    }

    /// Seals through [`AesGcmSiv::with_keys`] (any length, any backend;
    /// the inputs checked).
    fn seal_keyed(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag> {
        self.with_keys(nonce, aad.len().saturating_add(buf.len()), |keys| {
            let tag = Self::tag(keys, nonce, aad, buf);
            keys.enc.ctr_xor(keys.hash, &tag, buf);
            Tag::full(tag)
        })
    }

    /// Opens through [`AesGcmSiv::with_keys`]: whether `tag` (16 bytes)
    /// verified; the caller wipes `buf` if not.
    fn open_keyed(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<bool> {
        self.with_keys(nonce, aad.len().saturating_add(buf.len()), |keys| {
            let mut t = [0u8; 16];
            t.copy_from_slice(tag);
            keys.enc.ctr_xor(keys.hash, &t, buf);
            let mut expected = Self::tag(keys, nonce, aad, buf);
            let ok = ct::eq(&expected, tag);
            ct::wipe_now(&mut expected);
            ok
        })
    }

    /// The tag: AES(enc key, (POLYVAL(A, P, lengths) xor nonce) with bit 127 cleared).
    fn tag(keys: &MessageKeys, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Block {
        let mut y = 0u128;
        y = polyval_padded(keys.hash, y, aad);
        // ByteReverse(le64(8|A|) || le64(8|P|)) read big-endian.
        let lens = ((pt.len() as u128 * 8) << 64) | (aad.len() as u128 * 8);
        // The text's partial block and the lengths under one reduction on
        // the wide backends.
        y = match polyval_wide(keys.hash, y, pt, Some(lens)) {
            Some(y) => y,
            None => keys.hash.mul_h(polyval_padded(keys.hash, y, pt) ^ lens),
        };
        let mut s = y.to_le_bytes();
        y.zeroize();
        for (a, b) in s.iter_mut().zip(nonce) {
            *a ^= b;
        }
        s[15] &= 0x7f;
        keys.enc.encrypt_block(&mut s);
        s
    }
}

/// Absorbs `data`, zero-padded to whole blocks, into the POLYVAL
/// accumulator `y` (held in the GHASH backend's byte-reversed form).
fn polyval_padded(key: &MessageKey, y: u128, data: &[u8]) -> u128 {
    if data.is_empty() {
        return y;
    }
    polyval_wide(key, y, data, None).unwrap_or_else(|| polyval_padded_copy(key, y, data))
}

/// On a wide backend (which reads POLYVAL's blocks as they are), `data`
/// zero-padded to whole blocks and then the block `last`, if given, with
/// the partial block and `last` under one reduction; `None` on the others.
fn polyval_wide(key: &MessageKey, y: u128, data: &[u8], last: Option<u128>) -> Option<u128> {
    let whole = data.len() & !15;
    let y = key.update_polyval_blocks(y, &data[..whole])?;
    let rest = &data[whole..];
    let mut fin = [0u8; 32];
    let mut n = 0;
    if !rest.is_empty() {
        fin[..rest.len()].copy_from_slice(rest);
        n = 16;
    }
    if let Some(b) = last {
        fin[n..n + 16].copy_from_slice(&b.to_le_bytes());
        n += 16;
    }
    let y = key.update_polyval_blocks(y, &fin[..n]);
    // The copy is plaintext.
    ct::wipe(&mut fin);
    y
}

/// [`polyval_padded`] through a byte-reversed copy, for backends that
/// load GHASH's order only.
fn polyval_padded_copy(key: &MessageKey, mut y: u128, data: &[u8]) -> u128 {
    let mut rev = [0u8; 16 * REV_BLOCKS];
    let mut used = 0;
    let mut chunks = data.chunks(16 * REV_BLOCKS);
    for chunk in &mut chunks {
        let whole = chunk.len() / 16;
        for (d, s) in rev.chunks_exact_mut(16).zip(chunk.chunks_exact(16)) {
            d.copy_from_slice(&u128::from_le_bytes(s.try_into().unwrap()).to_be_bytes());
        }
        let rest = &chunk[16 * whole..];
        let mut n = 16 * whole;
        if !rest.is_empty() {
            let mut last = [0u8; 16];
            last[..rest.len()].copy_from_slice(rest);
            rev[n..n + 16].copy_from_slice(&u128::from_le_bytes(last).to_be_bytes());
            last.zeroize();
            n += 16;
        }
        y = key.update_blocks(y, &rev[..n]);
        used = used.max(n);
    }
    // The copy is plaintext: wipe what was used.
    ct::wipe(&mut rev[..used]);
    y
}

/// XORs the AES-GCM-SIV keystream from counter block `tag | 0x80 << 120`
/// into `data`: the first 32 bits count, little-endian, modulo 2^32.
fn ctr_xor(aes: &Aes, tag: &Block, data: &mut [u8]) {
    let mut ctr0 = *tag;
    ctr0[15] |= 0x80;
    let mut ctr = u32::from_le_bytes([ctr0[0], ctr0[1], ctr0[2], ctr0[3]]);
    let mut ks = [[0u8; 16]; CTR_BLOCKS];
    for chunk in data.chunks_mut(16 * CTR_BLOCKS) {
        let n = chunk.len().div_ceil(16);
        for b in ks[..n].iter_mut() {
            *b = ctr0;
            b[..4].copy_from_slice(&ctr.to_le_bytes());
            ctr = ctr.wrapping_add(1);
        }
        aes.encrypt_blocks(&mut ks[..n]);
        for (d, k) in chunk.chunks_mut(16).zip(ks.iter()) {
            if d.len() == 16 {
                let x = u128::from_ne_bytes((&*d).try_into().unwrap()) ^ u128::from_ne_bytes(*k);
                d.copy_from_slice(&x.to_ne_bytes());
            } else {
                for (a, b) in d.iter_mut().zip(k) {
                    *a ^= b;
                }
            }
        }
    }
    ct::wipe(ks.as_flattened_mut());
}

/// The key length and backends, never the key.
impl core::fmt::Debug for AesGcmSiv {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AesGcmSiv")
            .field("key_len", &self.key_len())
            .field("backend", &self.backend())
            .field("aes_backend", &self.aes_backend())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reflection identity against POLYVAL computed directly from its
    /// definition (RFC 8452 section 3: dot(a, b) = a * b * x^-128 in
    /// GF(2^128) mod x^128 + x^127 + x^126 + x^121 + 1, little-endian bit
    /// order), with the RFC's own POLYVAL example (section 3, Appendix A).
    #[test]
    fn polyval_matches_the_rfc_example_on_every_backend() {
        let h: [u8; 16] = hex("25629347589242761d31f826ba4b757b");
        let x1: [u8; 16] = hex("4f4f95668c83dfb6401762bb2d01a262");
        let x2: [u8; 16] = hex("d1a24ddd2721d006bbe45f20d3c9f362");
        let want: [u8; 16] = hex("f7a3b47b846119fae5b7866cf5e5b77e");
        let mut data = x1.to_vec();
        data.extend_from_slice(&x2);
        for b in GhashBackend::available() {
            // The per-message key: the short table, and the long one.
            for len in [32, 1 << 20] {
                let hv = crate::gf128::mul_x(u128::from_le_bytes(h));
                let mut table = MessageTable::new();
                let key = MessageKey::new(&mut table, hv, b, len, 0).unwrap();
                let y = polyval_padded(&key, 0, &data);
                assert_eq!(y.to_le_bytes(), want, "{b}");
                assert_eq!(y.to_le_bytes(), polyval_direct(&h, &data), "{b}");
            }
        }
    }

    /// Long inputs cross the byte-reversal buffer: every length up to three
    /// buffers, on every backend, against the direct definition.
    #[test]
    fn polyval_long_inputs_match_the_definition() {
        let h: [u8; 16] = hex("0102030405060708090a0b0c0d0e0f10");
        let data: Vec<u8> = (0..16 * (3 * REV_BLOCKS + 5))
            .map(|i| (i * 7 + 3) as u8)
            .collect();
        let want_for = |n: usize| polyval_direct(&h, &data[..n]);
        let hv = crate::gf128::mul_x(u128::from_le_bytes(h));
        for b in GhashBackend::available() {
            for blocks in [
                1,
                31,
                32,
                33,
                REV_BLOCKS,
                REV_BLOCKS + 1,
                2 * REV_BLOCKS + 7,
            ] {
                let n = 16 * blocks;
                // A key for exactly this message (only the powers it uses).
                let mut table = MessageTable::new();
                let key = MessageKey::new(&mut table, hv, b, n, 0).unwrap();
                assert_eq!(
                    polyval_padded(&key, 0, &data[..n]).to_le_bytes(),
                    want_for(n),
                    "{b} {blocks}"
                );
            }
        }
    }

    /// POLYVAL from its definition, bit by bit: the element whose
    /// little-endian bit i is the coefficient of x^i; dot(a, b) = a b x^-128.
    fn polyval_direct(h: &[u8; 16], data: &[u8]) -> [u8; 16] {
        // mod P(x) = x^128 + x^127 + x^126 + x^121 + 1, elements as u128
        // with bit i = coefficient of x^i (little-endian bytes).
        fn mul(a: u128, b: u128) -> u128 {
            // Schoolbook a*b mod P.
            let mut r = 0u128;
            let mut a = a;
            for i in 0..128 {
                if (b >> i) & 1 == 1 {
                    r ^= a;
                }
                let carry = a >> 127;
                a <<= 1;
                if carry == 1 {
                    a ^= (1 << 127) | (1 << 126) | (1 << 121) | 1;
                }
            }
            r
        }
        // x^-128 = x^-1 applied 128 times; x^-1 = (x^127 + x^126 + x^121 + 1)/x... use
        // inverse of x: since P(0) = 1, x * (x^127 + x^126 + x^121 + 1)/x... compute
        // x^-128 as the inverse of x^128 by exponentiation: a^(2^128 - 2).
        fn pow(mut a: u128, mut e: u128) -> u128 {
            let mut r = 1u128;
            while e > 0 {
                if e & 1 == 1 {
                    r = mul(r, a);
                }
                a = mul(a, a);
                e >>= 1;
            }
            r
        }
        let x128 = mul(1 << 127, 2); // x^127 * x
        let xinv128 = pow(x128, u128::MAX - 1); // (x^128)^(2^128 - 2) = x^-128
        let dot = |a: u128, b: u128| mul(mul(a, b), xinv128);
        let hv = u128::from_le_bytes(*h);
        let mut s = 0u128;
        for c in data.chunks(16) {
            let mut blk = [0u8; 16];
            blk[..c.len()].copy_from_slice(c);
            s = dot(s ^ u128::from_le_bytes(blk), hv);
        }
        s.to_le_bytes()
    }

    fn hex<const N: usize>(s: &str) -> [u8; N] {
        let v: Vec<u8> = (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect();
        v.try_into().unwrap()
    }

    /// The counter is the first 32 bits, little-endian, modulo 2^32: a tag
    /// just below the wrap, every length up to several batches, against
    /// counter blocks built one at a time.
    #[test]
    fn counter_wraps_in_its_first_32_bits() {
        for key in [&[0x11u8; 16][..], &[0x22u8; 32][..]] {
            for &aes_b in AesBackend::ALL {
                let Ok(aes) = Aes::with_backend(key, aes_b) else {
                    continue;
                };
                for low in [0xffff_ffffu32, 0xffff_fff0, 0xffff_ff00, 7] {
                    let mut tag = [0x5au8; 16];
                    tag[..4].copy_from_slice(&low.to_le_bytes());
                    tag[15] = 0x12;
                    for len in [1usize, 16, 17, 100, 511, 512, 513, 2000, 4100] {
                        let mut got = vec![0u8; len];
                        ctr_xor(&aes, &tag, &mut got);
                        let mut want = vec![0u8; len];
                        for (i, c) in want.chunks_mut(16).enumerate() {
                            let mut b = tag;
                            b[15] |= 0x80;
                            b[..4].copy_from_slice(&low.wrapping_add(i as u32).to_le_bytes());
                            aes.encrypt_block(&mut b);
                            c.copy_from_slice(&b[..c.len()]);
                        }
                        assert_eq!(got, want, "{low:x} {len} {aes_b:?}");
                    }
                }
            }
        }
    }

    /// The short path (`aesni::seal_short` / `open_short`) against the
    /// keyed path on the same backends: every text length 0..=300 and
    /// around SHORT_MAX, with AAD lengths that put the blocks in every
    /// position of a reduction group, AES-128 and AES-256, on every
    /// PCLMULQDQ backend; a flipped tag bit fails and wipes.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn short_path_matches_the_keyed_path() {
        use aesni::SHORT_MAX;
        if !crate::detect::test_can_run(crate::detect::has_aesni_clmul(), "PCLMULQDQ") {
            return;
        }
        let mut lens: Vec<usize> = (0..=300).collect();
        lens.extend(SHORT_MAX - 40..=SHORT_MAX + 20);
        let backends = [
            GhashBackend::AesniClmul,
            GhashBackend::VaesAvx2,
            GhashBackend::VaesAvx512,
        ];
        for key_len in [16usize, 32] {
            let key: Vec<u8> = (0..key_len as u8)
                .map(|i| i.wrapping_mul(29) ^ 0x5a)
                .collect();
            for b in backends.into_iter().filter(|b| b.is_available()) {
                let siv = AesGcmSiv::with_options(&key, crate::Options::new().backend(b)).unwrap();
                assert!(siv.short_ni().is_some(), "{b}");
                for &len in &lens {
                    for aad_len in [0usize, 1, 16, 17, 33, 48, 63] {
                        let nonce: [u8; 12] = core::array::from_fn(|i| (i * 7 + len) as u8);
                        let aad: Vec<u8> = (0..aad_len).map(|i| (i * 3 + 1) as u8).collect();
                        let pt: Vec<u8> = (0..len).map(|i| (i * 11 + aad_len) as u8).collect();
                        let mut short = pt.clone();
                        let t_short = siv
                            .seal_in_place_detached(&nonce, &aad, &mut short)
                            .unwrap();
                        let mut keyed = pt.clone();
                        let t_keyed = siv.seal_keyed(&nonce, &aad, &mut keyed).unwrap();
                        let what = format!("{b} aes{} len {len} aad {aad_len}", 8 * key_len);
                        assert_eq!(short, keyed, "{what}");
                        assert_eq!(t_short.as_bytes(), t_keyed.as_bytes(), "{what}");
                        let mut back = short.clone();
                        siv.open_in_place_detached(&nonce, &aad, &mut back, t_short.as_bytes())
                            .unwrap();
                        assert_eq!(back, pt, "{what}");
                        let mut back = short.clone();
                        assert!(siv
                            .open_keyed(&nonce, &aad, &mut back, t_short.as_bytes())
                            .unwrap());
                        assert_eq!(back, pt, "{what}");
                        let mut bad = t_short.as_bytes().to_vec();
                        bad[len % 16] ^= 1 << (len % 8);
                        let mut back = short.clone();
                        assert_eq!(
                            siv.open_in_place_detached(&nonce, &aad, &mut back, &bad),
                            Err(Error::AuthenticationFailed),
                            "{what}"
                        );
                        assert!(back.iter().all(|&x| x == 0), "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn over_long_inputs_are_refused_before_any_work() {
        crate::aead::assert_text_limit(AesGcmSiv::check_lengths, MAX_PLAINTEXT_BYTES);
    }
}
