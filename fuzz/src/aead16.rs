//! The checks `gcm_siv_awslc` and `xaes_spec` share: AES-GCM-SIV and
//! XAES-256-GCM have the same inherent API (16-byte tags), so one routine
//! drives every seal and open entry point of either against an expected
//! sealed message, and checks tampered and malformed inputs.

use crate::{check, check_eq, mismatch, tamper};
use galois_aead::{AesGcmSiv, Error, Result, Tag, XAes256Gcm};

/// The inherent entry points both types have.
pub trait Aead16 {
    fn seal(&self, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>>;
    fn open(&self, nonce: &[u8], aad: &[u8], input: &[u8]) -> Result<Vec<u8>>;
    fn seal_into(&self, nonce: &[u8], aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<()>;
    fn open_into(&self, nonce: &[u8], aad: &[u8], input: &[u8], out: &mut [u8]) -> Result<()>;
    fn seal_in_place_detached(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag>;
    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<()>;
    fn seal_detached_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        pt: &[u8],
        out: &mut [u8],
    ) -> Result<Tag>;
    fn open_detached_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ct: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<()>;
    fn seal_in_place_append_tag(&self, nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> Result<()>;
    fn open_in_place(&self, nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> Result<()>;
}

macro_rules! forward {
    ($t:ty) => {
        impl Aead16 for $t {
            fn seal(&self, n: &[u8], a: &[u8], p: &[u8]) -> Result<Vec<u8>> {
                <$t>::seal(self, n, a, p)
            }
            fn open(&self, n: &[u8], a: &[u8], i: &[u8]) -> Result<Vec<u8>> {
                <$t>::open(self, n, a, i)
            }
            fn seal_into(&self, n: &[u8], a: &[u8], p: &[u8], o: &mut [u8]) -> Result<()> {
                <$t>::seal_into(self, n, a, p, o)
            }
            fn open_into(&self, n: &[u8], a: &[u8], i: &[u8], o: &mut [u8]) -> Result<()> {
                <$t>::open_into(self, n, a, i, o)
            }
            fn seal_in_place_detached(&self, n: &[u8], a: &[u8], b: &mut [u8]) -> Result<Tag> {
                <$t>::seal_in_place_detached(self, n, a, b)
            }
            fn open_in_place_detached(
                &self,
                n: &[u8],
                a: &[u8],
                b: &mut [u8],
                t: &[u8],
            ) -> Result<()> {
                <$t>::open_in_place_detached(self, n, a, b, t)
            }
            fn seal_detached_into(
                &self,
                n: &[u8],
                a: &[u8],
                p: &[u8],
                o: &mut [u8],
            ) -> Result<Tag> {
                <$t>::seal_detached_into(self, n, a, p, o)
            }
            fn open_detached_into(
                &self,
                n: &[u8],
                a: &[u8],
                c: &[u8],
                t: &[u8],
                o: &mut [u8],
            ) -> Result<()> {
                <$t>::open_detached_into(self, n, a, c, t, o)
            }
            fn seal_in_place_append_tag(&self, n: &[u8], a: &[u8], b: &mut Vec<u8>) -> Result<()> {
                <$t>::seal_in_place_append_tag(self, n, a, b)
            }
            fn open_in_place(&self, n: &[u8], a: &[u8], b: &mut Vec<u8>) -> Result<()> {
                <$t>::open_in_place(self, n, a, b)
            }
        }
    };
}
forward!(AesGcmSiv);
forward!(XAes256Gcm);

const TAG: usize = 16;

/// Seals through entry point `way` (mod 5); ciphertext || tag.
pub fn seal_by<A: Aead16>(g: &A, way: u8, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>> {
    let n = pt.len();
    match way % 5 {
        0 => g.seal(nonce, aad, pt),
        1 => {
            let mut out = vec![0x5au8; n + TAG];
            g.seal_into(nonce, aad, pt, &mut out).map(|()| out)
        }
        2 => {
            let mut buf = pt.to_vec();
            let t = g.seal_in_place_detached(nonce, aad, &mut buf)?;
            buf.extend_from_slice(t.as_bytes());
            Ok(buf)
        }
        3 => {
            let mut out = vec![0x5au8; n];
            let t = g.seal_detached_into(nonce, aad, pt, &mut out)?;
            out.extend_from_slice(t.as_bytes());
            Ok(out)
        }
        _ => {
            let mut buf = pt.to_vec();
            g.seal_in_place_append_tag(nonce, aad, &mut buf)
                .map(|()| buf)
        }
    }
}

/// Opens ciphertext || tag through entry point `way` (mod 5); on failure,
/// checks that the caller's buffer holds no plaintext.
pub fn open_by<A: Aead16>(
    g: &A,
    way: u8,
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>> {
    let n = sealed.len().saturating_sub(TAG);
    let (ct, tag) = sealed.split_at(n.min(sealed.len()));
    let wiped = |b: &[u8], what: &str| {
        check!(
            b.iter().all(|&x| x == 0),
            "{what} left bytes after a failed open"
        )
    };
    match way % 5 {
        0 => g.open(nonce, aad, sealed),
        1 => {
            let mut out = vec![0xa5u8; n];
            match g.open_into(nonce, aad, sealed, &mut out) {
                Ok(()) => Ok(out),
                Err(e) => {
                    wiped(&out, "open_into");
                    Err(e)
                }
            }
        }
        2 => {
            let mut buf = ct.to_vec();
            match g.open_in_place_detached(nonce, aad, &mut buf, tag) {
                Ok(()) => Ok(buf),
                Err(e) => {
                    wiped(&buf, "open_in_place_detached");
                    Err(e)
                }
            }
        }
        3 => {
            let mut out = vec![0xa5u8; ct.len()];
            match g.open_detached_into(nonce, aad, ct, tag, &mut out) {
                Ok(()) => Ok(out),
                Err(e) => {
                    wiped(&out, "open_detached_into");
                    Err(e)
                }
            }
        }
        _ => {
            let mut buf = sealed.to_vec();
            match g.open_in_place(nonce, aad, &mut buf) {
                Ok(()) => Ok(buf),
                Err(e) => {
                    wiped(&buf, "open_in_place");
                    Err(e)
                }
            }
        }
    }
}

/// Checks `g` (named `name`) on one message whose correct sealing under
/// `nonce` (of the right length) is `want`: every way of sealing gives
/// it, it opens to `pt`, a one-bit tamper (chosen by `flags` and `pos`)
/// is refused with nothing released, and a nonce of another length or an
/// input shorter than a tag is refused.
#[allow(clippy::too_many_arguments)]
pub fn exercise<A: Aead16>(
    name: &str,
    g: &A,
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    want: &[u8],
    flags: u8,
    pos: usize,
) {
    let way = flags.wrapping_add(pos as u8);
    match seal_by(g, way, nonce, aad, pt) {
        Ok(s) => check_eq!(s.as_slice(), want, "{name}: seal (way {})", way % 5),
        Err(e) => mismatch!("{name}: seal (way {}) refused: {e:?}", way % 5),
    }
    let way2 = way / 5;
    match open_by(g, way2, nonce, aad, want) {
        Ok(p) => check_eq!(p.as_slice(), pt, "{name}: open (way {})", way2 % 5),
        Err(e) => mismatch!(
            "{name}: open (way {}) refused a genuine message: {e:?}",
            way2 % 5
        ),
    }
    let (t_nonce, t_aad, t_sealed) = tamper(nonce, aad, want, TAG, flags, pos);
    let way3 = (way2 / 5).wrapping_add(flags);
    let r = open_by(g, way3, &t_nonce, &t_aad, &t_sealed);
    check_eq!(
        r.err(),
        Some(Error::AuthenticationFailed),
        "{name}: tampered open (way {})",
        way3 % 5
    );
    // Malformed: a nonce one byte short or long, an input shorter than a tag.
    let mut long = nonce.to_vec();
    long.push(flags);
    let bad = if pos & 1 == 0 {
        &nonce[..nonce.len() - 1]
    } else {
        &long[..]
    };
    check_eq!(
        seal_by(g, way, bad, aad, pt).err(),
        Some(Error::InvalidNonceLength { got: bad.len() }),
        "{name}: seal with a {}-byte nonce",
        bad.len()
    );
    check!(
        open_by(g, way2, bad, aad, want).is_err(),
        "{name}: open with a {}-byte nonce",
        bad.len()
    );
    let short = &want[..pos % TAG];
    check!(
        open_by(g, way3, nonce, aad, short).is_err(),
        "{name}: open of {} bytes",
        short.len()
    );
}
