//! Helpers shared by the integration tests.
#![allow(dead_code)]

use galois_aead::gf64::Gf64Backend;
use galois_aead::{poly1305, AesBackend, GhashBackend, Options};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::BTreeSet;
use std::io::Write;
use std::sync::Mutex;

pub mod features;
pub mod kat;

/// A family of backends the suites loop over. Each suite that has this
/// module names the families it must cover in a crate-level
/// `const COVERS: &[common::Family]`; at the end of an unfiltered run the
/// suite fails if a backend of one of them that this CPU can run (by the
/// hand-written feature table [`Family::expected`], not the library's
/// probes) was never handed to a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Ghash,
    Aes,
    Poly1305,
    Gf64,
}

impl Family {
    const EVERY: [Family; 4] = [Family::Ghash, Family::Aes, Family::Poly1305, Family::Gf64];

    fn label(self) -> &'static str {
        match self {
            Family::Ghash => "GHASH",
            Family::Aes => "AES",
            Family::Poly1305 => "Poly1305",
            Family::Gf64 => "GF(2^64)",
        }
    }

    /// The names of the family's backends compiled for this target, and
    /// whether the registry's probe says this CPU can run each.
    fn backends(self) -> Vec<(&'static str, bool)> {
        fn of<B: Copy>(
            all: &[B],
            name: fn(B) -> &'static str,
            ok: fn(B) -> bool,
        ) -> Vec<(&'static str, bool)> {
            all.iter().map(|&b| (name(b), ok(b))).collect()
        }
        match self {
            Family::Ghash => of(
                GhashBackend::ALL,
                GhashBackend::name,
                GhashBackend::is_available,
            ),
            Family::Aes => of(AesBackend::ALL, AesBackend::name, AesBackend::is_available),
            Family::Poly1305 => of(
                poly1305::Poly1305Backend::ALL,
                poly1305::Poly1305Backend::name,
                poly1305::Poly1305Backend::is_available,
            ),
            Family::Gf64 => of(
                Gf64Backend::ALL,
                Gf64Backend::name,
                Gf64Backend::is_available,
            ),
        }
    }

    /// Whether this CPU can run backend `name`: [`features::expected`].
    pub fn expected(self, name: &str) -> bool {
        features::expected(self.label(), name)
    }
}

/// The enums [`every`] takes.
pub trait Listed: Copy + PartialEq + std::fmt::Debug {
    const FAMILY: Family;
    fn name(self) -> &'static str;
}

impl Listed for GhashBackend {
    const FAMILY: Family = Family::Ghash;
    fn name(self) -> &'static str {
        GhashBackend::name(self)
    }
}
impl Listed for AesBackend {
    const FAMILY: Family = Family::Aes;
    fn name(self) -> &'static str {
        AesBackend::name(self)
    }
}
impl Listed for poly1305::Poly1305Backend {
    const FAMILY: Family = Family::Poly1305;
    fn name(self) -> &'static str {
        poly1305::Poly1305Backend::name(self)
    }
}
impl Listed for Gf64Backend {
    const FAMILY: Family = Family::Gf64;
    fn name(self) -> &'static str {
        Gf64Backend::name(self)
    }
}

/// (family, name) of every backend handed to a test by [`every`].
static HANDED_OUT: Mutex<BTreeSet<(&str, &str)>> = Mutex::new(BTreeSet::new());

/// Every backend of a family that this CPU can run (`all`, with
/// `available` its registry probe). The probe must agree with
/// [`Family::expected`] (the standard library's detection and a feature
/// table of its own) backend by backend, so a probe that hides a backend
/// from the suites fails here. The backends handed out are recorded for
/// the check at the end of the suite ([`report`]).
pub fn every<B: Listed>(all: &[B], available: impl Fn(B) -> bool) -> Vec<B> {
    let run: Vec<B> = all.iter().copied().filter(|&b| available(b)).collect();
    let want: Vec<B> = all
        .iter()
        .copied()
        .filter(|&b| B::FAMILY.expected(b.name()))
        .collect();
    assert_eq!(
        run,
        want,
        "{}: the backends the probes allow differ from those this CPU's features allow",
        B::FAMILY.label()
    );
    let mut h = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner());
    h.extend(run.iter().map(|b| (B::FAMILY.label(), b.name())));
    run
}

/// Whether the test binary was asked to run only some tests (a name
/// filter, `--skip`, `--list`, `--ignored`, `--exact`).
fn filtered() -> bool {
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--skip" | "--list" | "--ignored" | "--exact" | "--bench" => return true,
            "--test-threads" | "--format" | "--logfile" | "--color" | "-Z" | "--shuffle-seed" => {
                args.next();
            }
            s if !s.starts_with('-') => return true,
            _ => {}
        }
    }
    false
}

/// At the end of the test binary (after libtest's own summary, written to
/// stderr directly so that libtest's capture of passing tests does not
/// swallow it): one line `not run on this CPU: ...` (or `none`) over
/// every family's registry; then, in an unfiltered run, exit 1 if a
/// backend of a family in the suite's `COVERS` that this CPU can run was
/// never handed out.
pub extern "C" fn report() {
    let handed = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let mut not_run = Vec::new();
    let mut missed = Vec::new();
    for f in Family::EVERY {
        for (name, _) in f.backends() {
            if !f.expected(name) {
                not_run.push(format!("{name} ({})", f.label()));
            } else if crate::COVERS.contains(&f) && !handed.contains(&(f.label(), name)) {
                missed.push(format!("{name} ({})", f.label()));
            }
        }
    }
    let mut e = std::io::stderr().lock();
    let line = if not_run.is_empty() {
        "none".to_string()
    } else {
        not_run.join(", ")
    };
    let _ = writeln!(e, "not run on this CPU: {line}");
    if filtered() {
        return;
    }
    if !missed.is_empty() {
        let _ = writeln!(
            e,
            "FAILED: this CPU can run {}, which no test of this suite ran",
            missed.join(", ")
        );
        let _ = e.flush();
        // SAFETY: _exit ends the process at once; nothing runs after it.
        unsafe { libc::_exit(1) };
    }
}

/// Registers [`report`] before `main` (an ELF constructor), so a suite
/// whose loops were all removed still reports and fails.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static REGISTER_REPORT: extern "C" fn() = {
    extern "C" fn register() {
        // SAFETY: `report` is an `extern "C" fn()` that lives as long as the process.
        unsafe { libc::atexit(report) };
    }
    register
};

/// Every GHASH backend, by [`every`]'s rule.
pub fn ghash_backends() -> Vec<GhashBackend> {
    every(GhashBackend::ALL, |b| b.is_available())
}

/// Every AES backend, by [`every`]'s rule.
pub fn aes_backends() -> Vec<AesBackend> {
    every(AesBackend::ALL, |b| b.is_available())
}

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

pub fn bytes(rng: &mut StdRng, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill(&mut v[..]);
    v
}

/// For each AES key length (16 and 32 bytes): a key and a 96-bit IV drawn
/// from `r`, then `f`, which may draw more from `r`.
pub fn each_key(r: &mut StdRng, mut f: impl FnMut(&mut StdRng, &[u8], &[u8])) {
    for key_len in [16, 32] {
        let key = bytes(r, key_len);
        let iv = bytes(r, 12);
        f(r, &key, &iv);
    }
}

pub fn block(rng: &mut StdRng) -> [u8; 16] {
    let mut b = [0u8; 16];
    rng.fill(&mut b);
    b
}

/// Options covering every implementation a GCM test must run: each GHASH
/// backend and kernel (AES auto-selected), then each AES backend (GHASH
/// auto-selected).
pub fn implementations() -> Vec<Options> {
    let mut v: Vec<Options> = ghash_backends()
        .into_iter()
        .map(|b| Options::new().backend(b))
        .collect();
    v.extend(
        aes_backends()
            .into_iter()
            .map(|a| Options::new().aes_backend(a)),
    );
    v
}

/// AES-GCM-SIV and XAES-256-GCM: their constructor pinning a GHASH backend
/// and an AES implementation, called in this one place by the suites.
pub trait Pinned: galois_aead::AeadInit {
    fn pinned(key: &[u8], ghash: GhashBackend, aes: Option<AesBackend>) -> Self {
        let mut o = Options::new().backend(ghash);
        if let Some(a) = aes {
            o = o.aes_backend(a);
        }
        Self::with_options(key, o).unwrap()
    }
}

impl<T: galois_aead::AeadInit> Pinned for T {}

/// Every implementation of `A` a test must run: each GHASH backend (AES
/// auto-selected), each AES backend (over ctmul64), then the automatic
/// choice.
pub fn pinned_implementations<A: Pinned>(key: &[u8]) -> Vec<A> {
    let mut v: Vec<A> = ghash_backends()
        .into_iter()
        .map(|b| A::pinned(key, b, None))
        .collect();
    for a in aes_backends() {
        v.push(A::pinned(key, GhashBackend::Ctmul64, Some(a)));
    }
    v.push(A::new(key).unwrap());
    v
}

/// `r`, a constructor's result for an `n`-byte key, is the key-length error.
#[track_caller]
pub fn refuses_key_len<T>(n: usize, r: Result<T, galois_aead::Error>) {
    assert_eq!(
        r.err(),
        Some(galois_aead::Error::InvalidKeyLength { got: n })
    );
}
