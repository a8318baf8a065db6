//! What every AEAD case checks, written once: the fields, the key setup
//! (refusing an invalid case's parameters is a correct answer), and the
//! round trip (a valid case seals to its ct and tag and opens to its pt; an
//! invalid one is refused with nothing left in the output buffer).

use super::{Case, Outcome, AUTO};
use galois_aead::{AesBackend, AesGcm, AesGcmSiv, GhashBackend, XAes256Gcm};

/// The fields of an AEAD case: `iv` is the nonce, a missing `ct` is empty,
/// `pt` may be missing from an invalid case.
pub(crate) struct Fields {
    pub valid: bool,
    pub key: Vec<u8>,
    pub iv: Vec<u8>,
    pub aad: Vec<u8>,
    pub ct: Vec<u8>,
    pub tag: Vec<u8>,
    pub pt: Option<Vec<u8>>,
}

impl Fields {
    pub fn read(c: &Case) -> Result<Self, String> {
        Ok(Fields {
            valid: c.valid()?,
            key: c.hex("key")?,
            iv: c.hex("iv")?,
            aad: c.hex("aad")?,
            ct: c.hex_opt("ct")?.unwrap_or_default(),
            tag: c.hex("tag")?,
            pt: c.hex_opt("pt")?,
        })
    }

    /// The object the key setup built, or the case's outcome when it
    /// refused: a pass for an invalid case, a failure for a valid one.
    pub fn built<T, E: std::fmt::Display>(&self, r: Result<T, E>) -> Result<T, Outcome> {
        match r {
            Ok(x) => Ok(x),
            Err(_) if !self.valid => Err(Outcome::Pass),
            Err(e) => Err(Outcome::Fail(format!(
                "key setup refused a valid case: {e}"
            ))),
        }
    }

    /// The round trip of `aead` (see the module docs): `Pass` or the first
    /// failure.
    pub fn round_trip<A: Detached>(&self, aead: &A) -> Result<Outcome, String> {
        let (iv, aad, ct, tag) = (&self.iv, &self.aad, &self.ct, &self.tag);
        let mut buf = ct.clone();
        if !self.valid {
            return Ok(match aead.open(iv, aad, &mut buf, tag) {
                Ok(()) => Outcome::Fail("an invalid case was accepted".into()),
                Err(_) if buf.iter().any(|&b| b != 0) => {
                    Outcome::Fail("a failed open left data in the output buffer".into())
                }
                Err(_) => Outcome::Pass,
            });
        }
        let pt = self.pt.as_ref().ok_or("valid case without pt")?;
        let mut sealed = pt.clone();
        let t = match aead.seal(iv, aad, &mut sealed) {
            Ok(t) => t,
            Err(e) => return Ok(Outcome::Fail(format!("seal refused a valid case: {e}"))),
        };
        if let Some(fail) = differs("ct", &sealed, ct).or_else(|| differs("tag", &t, tag)) {
            return Ok(Outcome::Fail(fail));
        }
        if let Err(e) = aead.open(iv, aad, &mut buf, tag) {
            return Ok(Outcome::Fail(format!("open rejected a valid case: {e}")));
        }
        Ok(differs("pt", &buf, pt).map_or(Outcome::Pass, Outcome::Fail))
    }
}

/// `"{name} {got} != expected {want}"` (in hex) if they differ.
pub(crate) fn differs(name: &str, got: &[u8], want: &[u8]) -> Option<String> {
    (got != want).then(|| {
        format!(
            "{name} {} != expected {}",
            hex::encode(got),
            hex::encode(want)
        )
    })
}

/// Compares the optional hex fields `name` of the case's `intermediates`
/// with the values computed: the first difference.
pub(crate) fn check_intermediates(
    im: &Case,
    values: &[(&str, Vec<u8>)],
) -> Result<Option<String>, String> {
    for (name, value) in values {
        if let Some(want) = im.hex_opt(name)? {
            if let Some(fail) = differs(&format!("intermediate {name}:"), value, &want) {
                return Ok(Some(fail));
            }
        }
    }
    Ok(None)
}

/// A detached-tag AEAD as the runner drives it.
pub(crate) trait Detached {
    /// Encrypts `buf` in place; the tag.
    fn seal(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> galois_aead::Result<Vec<u8>>;
    /// Verifies `tag` and decrypts `buf` in place.
    fn open(&self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> galois_aead::Result<()>;
}

macro_rules! detached {
    ($($t:ty),*) => {$(
        impl Detached for $t {
            fn seal(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> galois_aead::Result<Vec<u8>> {
                Ok(self.seal_in_place_detached(iv, aad, buf)?.as_bytes().to_vec())
            }
            fn open(&self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> galois_aead::Result<()> {
                self.open_in_place_detached(iv, aad, buf, tag)
            }
        }
    )*};
}
detached!(AesGcm, AesGcmSiv, XAes256Gcm, galois_aead::gcm64::TdeaGcm);

/// The AEADs the runner pins to a GHASH backend and an AES implementation
/// (AES-GCM-SIV, XAES-256-GCM), through `AeadInit::with_options`.
pub(crate) trait Pinned: galois_aead::AeadInit + Detached {}
impl<T: galois_aead::AeadInit + Detached> Pinned for T {}

/// `A` under `key` on implementation `imp` (the GCM implementations' names).
pub(crate) fn build<A: Pinned>(key: &[u8], imp: &str) -> galois_aead::Result<A> {
    match imp {
        AUTO => A::new(key),
        super::gcm::PORTABLE => A::with_options(
            key,
            galois_aead::Options::new()
                .backend(GhashBackend::Ctmul64)
                .aes_backend(AesBackend::Portable),
        ),
        name => A::with_options(
            key,
            galois_aead::Options::new().backend(GhashBackend::from_name(name)?),
        ),
    }
}

/// The case run on the [`Pinned`] AEAD `A`: fields, key setup, round trip.
/// Returns the fields and the AEAD for further checks after a pass.
pub(crate) fn run_pinned<A: Pinned>(
    c: &Case,
    imp: &str,
) -> Result<Result<(Fields, A), Outcome>, String> {
    let f = Fields::read(c)?;
    let a = match f.built(build::<A>(&f.key, imp)) {
        Ok(a) => a,
        Err(o) => return Ok(Err(o)),
    };
    match f.round_trip(&a)? {
        Outcome::Pass if f.valid => Ok(Ok((f, a))),
        o => Ok(Err(o)),
    }
}
