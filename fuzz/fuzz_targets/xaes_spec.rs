//! XAES-256-GCM (c2sp.org/XAES-256-GCM) on one (GHASH backend, AES
//! backend) pair per execution, out of every pair this CPU can run,
//! against the spec's steps composed here: L = AES-256(K, 0^128) and
//! K1 = dbl(L) with the `aes` crate, the per-message key
//! AES-256(K, M1 ^ K1) || AES-256(K, M2 ^ K1) with M1 = 00 01 'X' 00 ||
//! N[:12] and M2 = 00 02 'X' 00 || N[:12], then AES-256-GCM under it with
//! nonce N[12:] on galois's bit-serial GHASH and portable AES. Every seal
//! and open entry point in turn (`galois_fuzz::aead16`): the same sealed
//! bytes, genuine messages open, a one-bit tamper refused with the output
//! wiped, bad nonce lengths and inputs shorter than a tag refused;
//! arbitrary inputs opened by both give the same outcome.
//!
//! Input: pair byte, flags byte, tamper position (2 bytes), key (32),
//! nonce (24), AAD (2-byte length mod 1025), plaintext (the rest; with
//! flags bit 2 also opened as a sealed message).
#![no_main]

use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use galois_aead::{AesBackend, AesGcm, GhashBackend, Options, XAes256Gcm};
use galois_fuzz::aead16::exercise;
use galois_fuzz::{backend_pair, check_eq, mismatch, Reader};
use libfuzzer_sys::fuzz_target;

/// AES-256-GCM under the key the spec derives for `nonce`, on the
/// bit-serial GHASH and portable AES.
fn reference(key: &[u8; 32], nonce: &[u8; 24]) -> AesGcm {
    let c = aes::Aes256::new(&Array::from(*key));
    let mut l = Array::from([0u8; 16]);
    c.encrypt_block(&mut l);
    let mut k1: [u8; 16] = l.into();
    let carry = k1[0] >> 7;
    for i in 0..16 {
        k1[i] = (k1[i] << 1) | k1.get(i + 1).map_or(0, |b| b >> 7);
    }
    k1[15] ^= 0x87 * carry;
    let mut kx = [0u8; 32];
    for (i, half) in kx.chunks_exact_mut(16).enumerate() {
        let mut m = [0u8; 16];
        m[1] = 1 + i as u8;
        m[2] = b'X';
        m[4..].copy_from_slice(&nonce[..12]);
        for (a, b) in m.iter_mut().zip(k1) {
            *a ^= b;
        }
        let mut blk = Array::from(m);
        c.encrypt_block(&mut blk);
        half.copy_from_slice(&blk);
    }
    let opts = Options::new()
        .backend(GhashBackend::Bitserial)
        .aes_backend(AesBackend::Portable);
    match AesGcm::with_options(&kx, opts) {
        Ok(g) => g,
        Err(e) => mismatch!("reference AES-256-GCM setup: {e:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let (b, a) = backend_pair(r.byte());
    let flags = r.byte();
    let pos = r.u16() as usize;
    let key = r.fixed::<32>();
    let nonce = r.fixed::<24>();
    let aad = r.field(1024);
    let pt = r.rest();

    let g = match XAes256Gcm::with_options(&key, galois_aead::Options::new().backend(b).aes_backend(a)) {
        Ok(g) => g,
        Err(e) => mismatch!("setup {b}/{}: {e:?}", a.name()),
    };
    let name = format!("{b}/{}", a.name());
    let spec = reference(&key, &nonce);
    let want = match spec.seal(&nonce[12..], aad, pt) {
        Ok(s) => s,
        Err(e) => mismatch!("reference seal refused: {e:?}"),
    };
    exercise(&name, &g, &nonce, aad, pt, &want, flags, pos);

    if flags & 4 != 0 {
        let ours = g.open(&nonce, aad, pt).ok();
        let theirs = spec.open(&nonce[12..], aad, pt).ok();
        check_eq!(ours, theirs, "{name}: opening arbitrary bytes");
    }
});
