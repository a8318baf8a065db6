//! AES-GCM and AES-GMAC cases.

use super::detached::{check_intermediates, Fields};
use super::{Case, Outcome, AUTO};
use galois_aead::{AesBackend, AesGcm, AesGmac, GhashBackend, Options, ShortTag};
use serde_json::Value;

/// The name of the fully portable stack: the `aes` crate and `ctmul64`.
pub(crate) const PORTABLE: &str = "portable";

/// Every GHASH backend this CPU has (AES auto-selected), then the portable
/// stack.
pub(crate) fn implementations() -> Vec<String> {
    let mut v: Vec<String> = GhashBackend::available()
        .iter()
        .map(|b| b.name().to_string())
        .collect();
    v.push(PORTABLE.to_string());
    v
}

/// Options pinning implementation `imp`.
pub(crate) fn pin(imp: &str, opts: Options) -> Result<Options, String> {
    Ok(match imp {
        AUTO => opts,
        PORTABLE => opts
            .aes_backend(AesBackend::Portable)
            .backend(GhashBackend::Ctmul64),
        name => opts.backend(GhashBackend::from_name(name).map_err(|e| format!("{name}: {e}"))?),
    })
}

/// The strictest options that accept this tag and IV length: the default
/// policy where it allows them, else the permissive constructor (as the
/// NIST CAVP set needs for 1-byte IVs with 4-byte tags).
///
/// ```
/// use galois_cli::kat::gcm::policy;
/// let key = [0u8; 16];
/// let gcm = galois_aead::AesGcm::with_options(&key, policy(12, 12)?)?;
/// assert_eq!(gcm.tag_len(), 12);
/// // A 4-byte tag with a 1-byte IV needs the permissive constructor.
/// let gcm = galois_aead::AesGcm::with_options(&key, policy(4, 1)?)?;
/// assert!(gcm.seal(&[0], b"", b"").is_ok());
/// assert!(policy(3, 12).is_err());
/// # Ok::<(), galois_aead::Error>(())
/// ```
pub fn policy(tag_len: usize, iv_len: usize) -> galois_aead::Result<Options> {
    let strict = match tag_len {
        16 => Ok(Options::new()),
        12..=15 => Options::new().tag_len(tag_len),
        8 => Ok(Options::new().short_tag(ShortTag::Bytes8)),
        4 => Ok(Options::new().short_tag(ShortTag::Bytes4)),
        n => Err(galois_aead::Error::InvalidTagLength { got: n }),
    };
    match strict {
        Ok(o) if tag_len == 16 || iv_len == 12 => Ok(o),
        _ => Options::new().permissive_tag_len(tag_len),
    }
}

fn h(b: &[u8]) -> String {
    hex::encode(b)
}

pub(crate) fn run_case(case: &Value, imp: &str, gmac: bool) -> Result<Outcome, String> {
    let f = Fields::read(&Case(case))?;
    if gmac && (!f.ct.is_empty() || f.pt.as_ref().is_some_and(|p| !p.is_empty())) {
        return Err("AES-GMAC case with a non-empty pt/ct".into());
    }
    let built = policy(f.tag.len(), f.iv.len())
        .and_then(|o| pin(imp, o).map_err(|_| galois_aead::Error::UnknownBackend))
        .and_then(|o| AesGcm::with_options(&f.key, o).map(|g| (g, o)));
    let (gcm, opts) = match f.built(built) {
        Ok(g) => g,
        Err(o) => return Ok(o),
    };
    let o = f.round_trip(&gcm)?;
    if o != Outcome::Pass || !f.valid {
        return Ok(o);
    }
    let (iv, aad, tag) = (&f.iv, &f.aad, &f.tag);
    if gmac {
        let mac = AesGmac::with_options(&f.key, opts).map_err(|e| e.to_string())?;
        match mac.authenticate(iv, aad) {
            Ok(t) if t.as_bytes() == tag.as_slice() => {}
            Ok(t) => return Ok(Outcome::Fail(format!("GMAC tag {}", h(t.as_bytes())))),
            Err(e) => return Ok(Outcome::Fail(format!("GMAC refused: {e}"))),
        }
        if mac.verify(iv, aad, tag).is_err() {
            return Ok(Outcome::Fail("GMAC verify rejected a valid tag".into()));
        }
    }
    if let Some(im) = case.get("intermediates") {
        if let Some(fail) = check_gcm_intermediates(&gcm, iv, aad, &f.ct, im)? {
            return Ok(Outcome::Fail(fail));
        }
    }
    Ok(Outcome::Pass)
}

/// Compares the spec file's intermediate values, step by step.
fn check_gcm_intermediates(
    gcm: &AesGcm,
    iv: &[u8],
    aad: &[u8],
    ct: &[u8],
    im: &Value,
) -> Result<Option<String>, String> {
    let got = gcm.intermediates(iv, aad, ct).map_err(|e| e.to_string())?;
    let c = Case(im);
    let single = [
        ("H", got.h.to_vec()),
        ("Y0", got.y0.to_vec()),
        ("E(K,Y0)", got.e_k_y0.to_vec()),
        ("len(A)||len(C)", got.len_block.to_vec()),
        (
            "len({})||len(IV)",
            ((iv.len() as u128) * 8).to_be_bytes().to_vec(),
        ),
        ("GHASH(H,A,C)", got.x.last().unwrap().to_vec()),
    ];
    if let Some(fail) = check_intermediates(&c, &single)? {
        return Ok(Some(fail));
    }
    for (name, values) in [("X", &got.x), ("N", &got.iv_ghash)] {
        if let Some(list) = im.get(name).and_then(Value::as_array) {
            if list.len() != values.len() {
                return Ok(Some(format!(
                    "intermediate {name}: {} steps, expected {}",
                    values.len(),
                    list.len()
                )));
            }
            for (i, (w, g)) in list.iter().zip(values.iter()).enumerate() {
                let w = w.as_str().ok_or(format!("{name}[{i}] not a string"))?;
                let w = hex::decode(w).map_err(|e| format!("{name}[{i}]: {e}"))?;
                if w != g {
                    return Ok(Some(format!(
                        "intermediate {name}_{}: {} != expected {}",
                        i + 1,
                        h(g),
                        h(&w)
                    )));
                }
            }
        }
    }
    Ok(None)
}
