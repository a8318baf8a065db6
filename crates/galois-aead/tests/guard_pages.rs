//! Guard pages around every buffer of every kernel.
//!
//! Each buffer a kernel is given (plaintext, ciphertext, AAD, IV or nonce,
//! tag, destination; each packet's data and AAD in a batch) sits in its own
//! `mmap`ed region between two `PROT_NONE` pages ([`Guarded`]), once
//! *ending* exactly where the trailing guard page starts ([`Side::End`]) and
//! once *starting* exactly where the leading guard page ends
//! ([`Side::Start`]). A read or write of even one byte outside the slice
//! then faults (SIGSEGV kills the test binary) instead of passing. The
//! unguarded side of each slice carries a 64-byte canary, checked after
//! every operation, so a stray store there is named with its operation too.
//!
//! Every GHASH backend this CPU has, with every AES backend it has, runs
//! AES-128/192/256-GCM (in place, out of place, truncated tags, non-96-bit
//! IVs, tampered tags), GMAC, XAES-256-GCM, AES-GCM-SIV, the multi-packet
//! `seal_batch`, the packet layer, the on-line and precomputed GCM APIs and
//! the public GHASH; every Poly1305 backend runs Poly1305-AES (both AES
//! backends) and the one-time Poly1305; every GF(2^64) backend runs
//! TDEA-GCM. Each result is compared with the same operation on ordinary
//! `Vec`s, and that with a portable reference key (ctmul64 GHASH, portable
//! AES), so the test cannot pass by doing nothing.
//!
//! Lengths: every text length 0..=600 and 1000..=1100, then 1500,
//! 2047..=2049, 4095..=4097, 16383..=16385 and 65537, with AAD of 0 and 13
//! bytes; every AAD length of [`AAD_LENS`] with the texts of
//! [`AAD_SWEEP_TEXTS`]. The slower or narrower suites (AES-192, IV lengths,
//! TDEA) run [`thin_lengths`]: every length 0..=130, then a sparser grid.
//!
//! A fault kills the whole test binary without naming the case. To find
//! it, run with `GUARD_PAGES_TRACE=1` and `-- --test-threads 1 --nocapture`
//! (and the failing test's name): each operation is printed before it
//! runs, so the last line names the one that faulted.

#![cfg(unix)]

use galois_aead::gcm::precompute::{self, AadPrefix, IvInput, Keystream};
use galois_aead::gcm64::{Options64, TdeaGcm, Variant};
use galois_aead::gf64::Gf64Backend;
use galois_aead::limits::UsageLimits;
use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::poly1305::{self, Poly1305, Poly1305Aes, Poly1305Mac};
use galois_aead::Aead;
use galois_aead::{
    Aes, AesBackend, AesGcm, AesGcmSiv, AesGmac, BatchPacket, Error, Ghash, GhashBackend, Options,
    ShortTag, Tag, XAes256Gcm,
};

use guard::{Guarded, Side, SIDES};

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[
    common::Family::Ghash,
    common::Family::Aes,
    common::Family::Poly1305,
    common::Family::Gf64,
];

/// The guard-page allocator: the only `unsafe` code of this file.
mod guard {
    use std::ops::Range;
    use std::ptr::NonNull;

    /// Which guard page a slice is placed against.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Side {
        /// The slice ends exactly where the trailing guard page starts
        /// (over-reads and over-writes past its end fault).
        End,
        /// The slice starts exactly where the leading guard page ends
        /// (accesses before its start fault).
        Start,
    }

    pub const SIDES: [Side; 2] = [Side::End, Side::Start];

    /// Bytes of canary on the unguarded side of a slice.
    const CANARY_LEN: usize = 64;
    const CANARY: u8 = 0xC3;

    /// An anonymous private mapping: a `PROT_NONE` page, `cap` read-write
    /// bytes (whole pages), a `PROT_NONE` page. Hands out one slice at a
    /// time, placed against either guard; unmapped on drop.
    pub struct Guarded {
        /// Start of the mapping (the leading guard page).
        map: NonNull<u8>,
        page: usize,
        /// Read-write bytes between the guards, a multiple of `page`.
        cap: usize,
        /// The slice last handed out: offset in the read-write pages,
        /// length, side.
        at: usize,
        len: usize,
        side: Side,
    }

    fn page_size() -> usize {
        // SAFETY: sysconf has no preconditions and _SC_PAGESIZE is
        // supported on every unix.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        assert!(p > 0, "sysconf(_SC_PAGESIZE) failed");
        p as usize
    }

    impl Guarded {
        /// Room for slices of up to `capacity` bytes (rounded up to whole
        /// pages, so a buffer of at most one page gets exactly three).
        pub fn new(capacity: usize) -> Self {
            let page = page_size();
            let cap = capacity.max(1).div_ceil(page) * page;
            let total = cap + 2 * page;
            // SAFETY: a fresh anonymous private mapping (no file, no fixed
            // address) aliases nothing; the result is checked against
            // MAP_FAILED before any use.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    total,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            assert!(
                p != libc::MAP_FAILED,
                "mmap of {total} bytes: {}",
                std::io::Error::last_os_error()
            );
            let g = Guarded {
                map: NonNull::new(p.cast::<u8>()).expect("mmap returned null"),
                page,
                cap,
                at: 0,
                len: 0,
                side: Side::Start,
            };
            // SAFETY: `p` is page-aligned (mmap's result) and `cap` a
            // multiple of the page size, so both ranges are whole pages of
            // the mapping just made, and nothing refers to them yet. (`g`
            // unmaps everything if an assertion below fails.)
            let (lead, trail) = unsafe {
                (
                    libc::mprotect(p, page, libc::PROT_NONE),
                    libc::mprotect(p.cast::<u8>().add(page + cap).cast(), page, libc::PROT_NONE),
                )
            };
            assert!(
                lead == 0 && trail == 0,
                "mprotect: {}",
                std::io::Error::last_os_error()
            );
            g
        }

        /// The read-write pages between the guards.
        fn data(&mut self) -> &mut [u8] {
            // SAFETY: the `cap` bytes after the leading guard page are
            // mapped read-write for as long as `self` lives (unmapped only
            // by `drop`), are initialized (anonymous pages read as zeros),
            // and are reachable only through `self`: `&mut self` makes this
            // the only reference to them.
            unsafe { std::slice::from_raw_parts_mut(self.map.as_ptr().add(self.page), self.cap) }
        }

        /// The same, shared.
        fn data_ref(&self) -> &[u8] {
            // SAFETY: as in `data`; `&self` rules out a live `&mut` slice
            // of these bytes (every one borrows `self` mutably).
            unsafe { std::slice::from_raw_parts(self.map.as_ptr().add(self.page), self.cap) }
        }

        /// Where the canary of the slice last handed out lies.
        fn canary(&self) -> Range<usize> {
            match self.side {
                Side::End => self.at.saturating_sub(CANARY_LEN)..self.at,
                Side::Start => self.len..(self.len + CANARY_LEN).min(self.cap),
            }
        }

        /// A slice of `len` bytes against the guard page of `side`, with a
        /// fresh canary on its other side. Its contents are left as they
        /// were: callers fill it.
        pub fn place(&mut self, side: Side, len: usize) -> &mut [u8] {
            assert!(len <= self.cap, "{len} bytes in a {}-byte region", self.cap);
            self.at = match side {
                Side::End => self.cap - len,
                Side::Start => 0,
            };
            self.len = len;
            self.side = side;
            let (at, canary) = (self.at, self.canary());
            let d = self.data();
            d[canary].fill(CANARY);
            &mut d[at..at + len]
        }

        /// A slice holding a copy of `bytes`, against the guard of `side`.
        pub fn put(&mut self, side: Side, bytes: &[u8]) -> &mut [u8] {
            let s = self.place(side, bytes.len());
            s.copy_from_slice(bytes);
            s
        }

        /// A slice of `len` copies of `byte`, against the guard of `side`.
        pub fn filled(&mut self, side: Side, len: usize, byte: u8) -> &mut [u8] {
            let s = self.place(side, len);
            s.fill(byte);
            s
        }

        /// Panics, naming `what`, if a byte on the unguarded side of the
        /// slice last handed out was written.
        pub fn check(&self, what: impl FnOnce() -> String) {
            let r = self.canary();
            if let Some(i) = self.data_ref()[r.clone()].iter().position(|&b| b != CANARY) {
                let where_ = match self.side {
                    Side::End => format!("{} bytes before", r.len() - i),
                    Side::Start => format!("{} bytes after", i + 1),
                };
                panic!(
                    "{}: a store landed {where_} the {}-byte buffer",
                    what(),
                    self.len
                );
            }
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the mapping made in `new`; every slice
            // handed out borrowed `self`, so none outlives it.
            let r = unsafe { libc::munmap(self.map.as_ptr().cast(), self.cap + 2 * self.page) };
            debug_assert_eq!(r, 0, "munmap");
        }
    }
}

/// Prints `what` before an operation runs if GUARD_PAGES_TRACE is set
/// (see the module documentation).
fn trace(what: impl FnOnce() -> String) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("GUARD_PAGES_TRACE").is_some()) {
        eprintln!("{}", what());
    }
}

/// The text lengths of the full grid.
fn text_lengths() -> Vec<usize> {
    (0..=600)
        .chain(1000..=1100)
        .chain([1500, 2047, 2048, 2049])
        .chain(4095..=4097)
        .chain(16383..=16385)
        .chain([65537])
        .collect()
}

/// The thinned grid: every length 0..=130, then every 7th to 600, a few
/// around each power of two and the kernels' batch sizes, and the long ones.
fn thin_lengths() -> Vec<usize> {
    (0..=130)
        .chain((137..=600).step_by(7))
        .chain([255, 256, 257, 511, 512, 513, 1023, 1024, 1025])
        .chain([1500, 2047, 2048, 2049, 4095, 4096, 4097, 16385, 65537])
        .collect()
}

/// AAD lengths of the AAD sweep.
const AAD_LENS: [usize; 9] = [0, 1, 5, 13, 16, 17, 63, 64, 65];
/// Text lengths the AAD sweep runs with.
const AAD_SWEEP_TEXTS: [usize; 12] = [0, 1, 15, 16, 17, 64, 100, 255, 256, 513, 1500, 4097];
/// Longest buffer of any test here (text plus a tag).
const MAX_BUF: usize = 65537 + 16;

/// Deterministic bytes (splitmix64).
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed;
    let mut v = Vec::with_capacity(n + 8);
    while v.len() < n {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        v.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    v.truncate(n);
    v
}

fn plaintext() -> Vec<u8> {
    bytes(1, MAX_BUF)
}

fn aad_bytes() -> Vec<u8> {
    bytes(2, MAX_BUF)
}

/// Every (GHASH, AES) backend pair, with its name (a backend this CPU
/// lacks is named on stderr: `common::every`); see [`own_code`].
fn pairs() -> Vec<(String, GhashBackend, AesBackend)> {
    let aes = common::aes_backends();
    common::ghash_backends()
        .into_iter()
        .flat_map(|g| {
            aes.iter()
                .filter(move |&&a| own_code(g, a))
                .map(move |&a| (format!("{g}/{}", a.name()), g, a))
        })
        .collect()
}

/// Under qemu-aarch64 (scripts/cross.sh, `--cfg galois_cross`), only the
/// pairs that run this architecture's own code: the PMULL backends with
/// each AES backend (the fused AES-GCM loop among them) and the armv8 AES
/// beside a portable GHASH. The other pairs are portable code, which the
/// native run checks, and emulated they cost minutes.
#[cfg(all(galois_cross, target_arch = "aarch64"))]
fn own_code(g: GhashBackend, a: AesBackend) -> bool {
    matches!(g, GhashBackend::Pmull | GhashBackend::PmullEor3)
        || (g == GhashBackend::Ctmul64 && a == AesBackend::Armv8)
}

/// Natively every pair runs.
#[cfg(not(all(galois_cross, target_arch = "aarch64")))]
fn own_code(_: GhashBackend, _: AesBackend) -> bool {
    true
}

/// The portable reference: ctmul64 GHASH, portable AES.
fn reference_opts() -> Options {
    Options::new()
        .backend(GhashBackend::Ctmul64)
        .aes_backend(AesBackend::Portable)
}

/// The guarded regions one suite uses, one per role so several slices can
/// be held at once.
struct Arenas {
    iv: Guarded,
    aad: Guarded,
    tag: Guarded,
    a: Guarded,
    b: Guarded,
    c: Guarded,
}

impl Arenas {
    fn new() -> Self {
        Arenas {
            iv: Guarded::new(64),
            aad: Guarded::new(MAX_BUF),
            tag: Guarded::new(16),
            a: Guarded::new(MAX_BUF),
            b: Guarded::new(MAX_BUF),
            c: Guarded::new(MAX_BUF),
        }
    }
}

/// A refused call: `AuthenticationFailed`.
#[track_caller]
fn refused<T>(r: Result<T, Error>, what: String) {
    assert_eq!(r.err(), Some(Error::AuthenticationFailed), "{what}");
}

/// The value of a call that must succeed; otherwise a failure naming it.
trait OrFail<T> {
    fn or_fail(self, what: impl FnOnce() -> String) -> T;
}

impl<T> OrFail<T> for Result<T, Error> {
    #[track_caller]
    fn or_fail(self, what: impl FnOnce() -> String) -> T {
        self.unwrap_or_else(|e| panic!("{}: {e:?}", what()))
    }
}

/// Starts step `op` (traced with `ctx`); returns it.
fn step<'a>(op: &'a str, ctx: &impl Fn(&str) -> String) -> &'a str {
    trace(|| ctx(op));
    op
}

/// Every guard of `gs` intact after step `op`.
fn checked(ctx: &impl Fn(&str) -> String, op: &str, gs: &[&guard::Guarded]) {
    for g in gs {
        g.check(|| ctx(op));
    }
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a == b
}

fn zeroed(a: &[u8]) -> bool {
    a.iter().all(|&b| b == 0)
}

/// The tag bit a tampered open flips, varied with the lengths.
fn flip(tag: &mut [u8], n: usize, aad_len: usize) {
    let bit = (n * 7 + aad_len * 3 + 1) % (8 * tag.len());
    tag[bit / 8] ^= 1 << (bit % 8);
}

/// The detached out-of-place calls, for the AEADs that have them in their
/// public API (AES-GCM's seal is `seal_split_detached` with the whole
/// plaintext as its head; its detached open into a buffer is
/// crate-private).
trait DetachedInto: Aead {
    fn seal_detached(&self, n: &[u8], a: &[u8], pt: &[u8], out: &mut [u8]) -> Result<Tag, Error>;
    fn open_detached(
        &self,
        _: &[u8],
        _: &[u8],
        _: &[u8],
        _: &[u8],
        _: &mut [u8],
    ) -> Option<Result<(), Error>> {
        None
    }
}

impl DetachedInto for AesGcm {
    fn seal_detached(&self, n: &[u8], a: &[u8], pt: &[u8], out: &mut [u8]) -> Result<Tag, Error> {
        if out.len() != pt.len() {
            return Err(Error::BufferLength {
                expected: pt.len(),
                got: out.len(),
            });
        }
        self.seal_split_detached(n, a, pt, out)
    }
}

/// AEADs whose public API has `seal_detached_into` / `open_detached_into`.
macro_rules! detached_into {
    ($($t:ty),*) => {$(
        impl DetachedInto for $t {
            fn seal_detached(&self, n: &[u8], a: &[u8], pt: &[u8], out: &mut [u8]) -> Result<Tag, Error> {
                self.seal_detached_into(n, a, pt, out)
            }
            fn open_detached(
                &self, n: &[u8], a: &[u8], ct: &[u8], tag: &[u8], out: &mut [u8],
            ) -> Option<Result<(), Error>> {
                Some(self.open_detached_into(n, a, ct, tag, out))
            }
        }
    )*};
}
detached_into!(AesGcmSiv, XAes256Gcm);

/// Every public one-shot operation of an AEAD on guarded buffers placed
/// against the guard of `side`: seal and open in place (detached tag), seal
/// and open out of place, the detached out-of-place pair where public, and
/// a tampered open of each kind, which must fail and leave the output
/// wiped (the documented behaviour of every AEAD here). `sealed` is the
/// same seal on `Vec`s.
#[allow(clippy::too_many_arguments)]
fn check_aead<A: DetachedInto>(
    k: &A,
    ar: &mut Arenas,
    label: &str,
    side: Side,
    iv: &[u8],
    aad: &[u8],
    pt: &[u8],
    sealed: &[u8],
) {
    let n = pt.len();
    let t = k.tag_len();
    assert_eq!(sealed.len(), n + t, "{label}: sealed length");
    let (want_ct, want_tag) = sealed.split_at(n);
    let ctx = |op: &str| {
        format!(
            "{label} {side:?}: {op}, text {n}, AAD {}, IV {}",
            aad.len(),
            iv.len()
        )
    };
    let Arenas {
        iv: g_iv,
        aad: g_aad,
        tag: g_tag,
        a,
        b,
        c: _,
    } = ar;
    let iv_g = g_iv.put(side, iv);
    let aad_g = g_aad.put(side, aad);

    // Seal in place, detached tag.
    let op = step("seal_in_place_detached", &ctx);
    let buf = a.put(side, pt);
    let tag = k
        .seal_in_place_detached(iv_g, aad_g, buf)
        .or_fail(|| ctx(op));
    assert!(
        same(buf, want_ct),
        "{}: ciphertext differs from a Vec's",
        ctx(op)
    );
    assert!(
        same(tag.as_bytes(), want_tag),
        "{}: tag differs from a Vec's",
        ctx(op)
    );

    // Open in place, the tag guarded too.
    let op = step("seal_in_place_detached, then open_in_place_detached", &ctx);
    let tag_g = g_tag.put(side, want_tag);
    k.open_in_place_detached(iv_g, aad_g, buf, tag_g)
        .or_fail(|| ctx(op));
    assert!(same(buf, pt), "{}: plaintext differs", ctx(op));
    checked(&ctx, op, &[&*a, &*g_tag]);

    // A tampered tag: refused, the buffer wiped.
    let op = step("tampered open_in_place_detached", &ctx);
    let buf = a.put(side, want_ct);
    let tag_g = g_tag.put(side, want_tag);
    flip(tag_g, n, aad.len());
    refused(k.open_in_place_detached(iv_g, aad_g, buf, tag_g), ctx(op));
    assert!(zeroed(buf), "{}: buffer not wiped", ctx(op));
    checked(&ctx, op, &[&*a, &*g_tag]);

    // Seal out of place: plaintext in `a`, ciphertext || tag in `b`.
    let op = step("seal_into", &ctx);
    let src = a.put(side, pt);
    let out = b.filled(side, n + t, 0xee);
    k.seal_into(iv_g, aad_g, src, out).or_fail(|| ctx(op));
    assert!(same(out, sealed), "{}: differs from a Vec's", ctx(op));
    assert!(same(src, pt), "{}: source changed", ctx(op));
    checked(&ctx, op, &[&*a, &*b]);

    // Open out of place: ciphertext || tag in `a`, plaintext in `b`.
    let op = step("open_into", &ctx);
    let src = a.put(side, sealed);
    let out = b.filled(side, n, 0xee);
    k.open_into(iv_g, aad_g, src, out).or_fail(|| ctx(op));
    assert!(same(out, pt), "{}: plaintext differs", ctx(op));
    checked(&ctx, op, &[&*a, &*b]);

    let op = step("tampered open_into", &ctx);
    let src = a.put(side, sealed);
    flip(&mut src[n..], n, aad.len());
    let out = b.filled(side, n, 0xee);
    refused(k.open_into(iv_g, aad_g, src, out), ctx(op));
    assert!(zeroed(out), "{}: output not wiped", ctx(op));
    checked(&ctx, op, &[&*a, &*b]);

    // The detached out-of-place pair, every buffer against its own guard.
    let op = step("seal_detached_into", &ctx);
    let src = a.put(side, pt);
    let out = b.filled(side, n, 0xee);
    let tag = k.seal_detached(iv_g, aad_g, src, out).or_fail(|| ctx(op));
    assert!(same(out, want_ct), "{}: ciphertext differs", ctx(op));
    assert!(same(tag.as_bytes(), want_tag), "{}: tag differs", ctx(op));
    checked(&ctx, op, &[&*a, &*b]);

    let op = step("open_detached_into", &ctx);
    let src = a.put(side, want_ct);
    let tag_g = g_tag.put(side, want_tag);
    let out = b.filled(side, n, 0xee);
    if let Some(r) = k.open_detached(iv_g, aad_g, src, tag_g, out) {
        r.or_fail(|| ctx(op));
        assert!(same(out, pt), "{}: plaintext differs", ctx(op));
        checked(&ctx, op, &[&*a, &*b, &*g_tag]);

        let op = step("tampered open_detached_into", &ctx);
        let src = a.put(side, want_ct);
        let tag_g = g_tag.put(side, want_tag);
        flip(tag_g, n, aad.len());
        let out = b.filled(side, n, 0xee);
        refused(
            k.open_detached(iv_g, aad_g, src, tag_g, out).unwrap(),
            ctx(op),
        );
        assert!(zeroed(out), "{}: output not wiped", ctx(op));
        checked(&ctx, op, &[&*a, &*b]);
    }
    g_iv.check(|| ctx("the IV"));
    g_aad.check(|| ctx("the AAD"));
}

/// One message (IV, AAD, text) on every key of `keys`, both sides: the
/// `Vec` seal of each key must equal the reference's (a truncated GCM tag
/// is a prefix of the full one), then [`check_aead`].
fn run_case<A: DetachedInto>(
    keys: &[(String, A)],
    reference: &A,
    ar: &mut Arenas,
    iv: &[u8],
    aad: &[u8],
    pt: &[u8],
) {
    let want = reference.seal(iv, aad, pt).unwrap();
    for (label, k) in keys {
        let sealed = k.seal(iv, aad, pt).unwrap();
        assert!(
            sealed.len() == pt.len() + k.tag_len() && same(&sealed, &want[..sealed.len()]),
            "{label}: Vec seal differs from the portable reference (text {}, AAD {}, IV {})",
            pt.len(),
            aad.len(),
            iv.len()
        );
        for side in SIDES {
            check_aead(k, ar, label, side, iv, aad, pt, &sealed);
        }
    }
}

/// The full grid: every text length with AAD 0 and 13, every AAD length
/// with a handful of texts.
fn full_grid<A: DetachedInto>(keys: &[(String, A)], reference: &A, iv: &[u8]) {
    let (pt, aad) = (plaintext(), aad_bytes());
    let mut ar = Arenas::new();
    for n in text_lengths() {
        for alen in [0, 13] {
            run_case(keys, reference, &mut ar, iv, &aad[..alen], &pt[..n]);
        }
    }
    for n in AAD_SWEEP_TEXTS {
        for alen in AAD_LENS {
            run_case(keys, reference, &mut ar, iv, &aad[..alen], &pt[..n]);
        }
    }
}

fn gcm_keys(key: &[u8], opts: impl Fn(Options) -> Options) -> Vec<(String, AesGcm)> {
    pairs()
        .into_iter()
        .map(|(label, g, a)| {
            let o = opts(Options::new().backend(g).aes_backend(a));
            (label, AesGcm::with_options(key, o).unwrap())
        })
        .collect()
}

#[test]
fn aes_128_gcm() {
    let key = bytes(10, 16);
    let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
    full_grid(&gcm_keys(&key, |o| o), &reference, &[0x5a; 12]);
}

#[test]
fn aes_256_gcm() {
    let key = bytes(11, 32);
    let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
    full_grid(&gcm_keys(&key, |o| o), &reference, &[0xa5; 12]);
}

/// A 4-byte tag leaves 4 bytes, not 16, between the end of the ciphertext
/// and the trailing guard in `seal_into` and `open_into`, whose ciphertext
/// is followed by the tag: stray accesses just past the ciphertext of the
/// out-of-place kernels then fault too.
#[test]
fn aes_gcm_short_tags() {
    let (pt, aad) = (plaintext(), aad_bytes());
    let mut ar = Arenas::new();
    for (klen, seed) in [(16, 12), (32, 13)] {
        let key = bytes(seed, klen);
        let keys = gcm_keys(&key, |o| o.short_tag(ShortTag::Bytes4));
        let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
        for n in text_lengths() {
            run_case(&keys, &reference, &mut ar, &[3; 12], &aad[..13], &pt[..n]);
        }
    }
}

/// AES-192 (12 rounds) on the thinned grid.
/// `seal_split_detached`: the head and the record each against a guard
/// page, split nowhere, in the middle and at the end (with no head it is a
/// seal in place; with all of it, a detached seal out of place, whose
/// output ends at the guard, unlike `seal_into`'s).
#[test]
fn aes_gcm_split_seal() {
    let pt = plaintext();
    let aad = aad_bytes();
    let mut ar = Arenas::new();
    for (klen, seed) in [(16, 50), (32, 51)] {
        let key = bytes(seed, klen);
        let keys = gcm_keys(&key, |o| o);
        let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
        let iv = bytes(seed + 100, 12);
        for aad_len in [0usize, 13] {
            let a = &aad[..aad_len];
            for n in text_lengths() {
                let want = reference.seal(&iv, a, &pt[..n]).unwrap();
                for (label, g) in &keys {
                    for k in [0, n / 2, n] {
                        for side in SIDES {
                            let ctx = || {
                                format!("{label} {side:?}: split seal, text {n}, head {k}, AAD {aad_len}")
                            };
                            trace(ctx);
                            let head = ar.a.put(side, &pt[..k]);
                            let buf = ar.b.put(side, &pt[..n]);
                            buf[..k].fill(0);
                            let tag = g.seal_split_detached(&iv, a, head, buf).unwrap();
                            assert_eq!(&buf[..], &want[..n], "{}", ctx());
                            assert_eq!(tag.as_bytes(), &want[n..], "{}", ctx());
                            ar.a.check(|| ctx() + " (head)");
                            ar.b.check(|| ctx() + " (record)");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn aes_192_gcm() {
    let (pt, aad) = (plaintext(), aad_bytes());
    let key = bytes(14, 24);
    let keys = gcm_keys(&key, |o| o);
    let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
    let mut ar = Arenas::new();
    for n in thin_lengths() {
        for alen in [0, 13] {
            run_case(&keys, &reference, &mut ar, &[7; 12], &aad[..alen], &pt[..n]);
        }
    }
}

/// IVs other than 96 bits: Y0 = GHASH(H, {}, IV), the IV itself guarded,
/// and the kernels' secret-counter path.
#[test]
fn aes_gcm_iv_lengths() {
    let (pt, aad) = (plaintext(), aad_bytes());
    let ivs = bytes(15, 64);
    let mut ar = Arenas::new();
    for (klen, seed) in [(16, 16), (32, 17)] {
        let key = bytes(seed, klen);
        let keys = gcm_keys(&key, |o| o);
        let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
        for iv_len in [1, 8, 15, 16, 17, 60, 64] {
            for n in thin_lengths() {
                run_case(
                    &keys,
                    &reference,
                    &mut ar,
                    &ivs[..iv_len],
                    &aad[..13],
                    &pt[..n],
                );
            }
        }
    }
}

#[test]
fn xaes_256_gcm() {
    pinned_grid::<XAes256Gcm>(&bytes(20, 32), &bytes(21, 24));
}

/// [`full_grid`] for AES-GCM-SIV or XAES-256-GCM on every pair of
/// backends, against the portable pair.
fn pinned_grid<A: common::Pinned + DetachedInto>(key: &[u8], iv: &[u8]) {
    let keys: Vec<(String, A)> = pairs()
        .into_iter()
        .map(|(l, g, a)| (l, A::pinned(key, g, Some(a))))
        .collect();
    let reference = A::pinned(key, GhashBackend::Ctmul64, Some(AesBackend::Portable));
    full_grid(&keys, &reference, iv);
}

fn siv(klen: usize, seed: u64) {
    pinned_grid::<AesGcmSiv>(&bytes(seed, klen), &bytes(seed + 1, 12));
}

#[test]
fn aes_128_gcm_siv() {
    siv(16, 30);
}

#[test]
fn aes_256_gcm_siv() {
    siv(32, 32);
}

/// GMAC: the message is all AAD; every text length of the grid as its
/// length, then the AAD lengths.
#[test]
fn gmac() {
    let msg = aad_bytes();
    let mut ar = Arenas::new();
    let lens: Vec<usize> = text_lengths().into_iter().chain(AAD_LENS).collect();
    for (klen, seed) in [(16, 40), (32, 41)] {
        let key = bytes(seed, klen);
        let macs: Vec<(String, AesGmac)> = pairs()
            .into_iter()
            .map(|(l, g, a)| {
                let o = Options::new().backend(g).aes_backend(a);
                (l, AesGmac::with_options(&key, o).unwrap())
            })
            .collect();
        let reference = AesGmac::with_options(&key, reference_opts()).unwrap();
        let iv = bytes(seed + 100, 12);
        for &n in &lens {
            let m = &msg[..n];
            let want = reference.authenticate(&iv, m).unwrap();
            for (label, mac) in &macs {
                assert_eq!(mac.authenticate(&iv, m).unwrap(), want, "{label}: GMAC {n}");
                for side in SIDES {
                    let ctx = |op: &str| format!("{label} {side:?}: GMAC {op}, message {n}");
                    trace(|| ctx("authenticate and verify"));
                    let iv_g = ar.iv.put(side, &iv);
                    let m_g = ar.aad.put(side, m);
                    let tag = mac.authenticate(iv_g, m_g).unwrap();
                    assert_eq!(tag, want, "{}", ctx("authenticate"));
                    let tag_g = ar.tag.put(side, want.as_bytes());
                    mac.verify(iv_g, m_g, tag_g).or_fail(|| ctx("verify"));
                    flip(tag_g, n, 0);
                    refused(mac.verify(iv_g, m_g, tag_g), ctx("tampered verify"));
                    ar.iv.check(|| ctx("the IV"));
                    ar.aad.check(|| ctx("the message"));
                    ar.tag.check(|| ctx("the tag"));
                }
            }
        }
    }
}

/// The lengths of the Poly1305 suites: the grid, and each side of the
/// eight-lane IFMA threshold (10 KiB).
fn poly_lengths() -> Vec<usize> {
    text_lengths()
        .into_iter()
        .chain([10239, 10240, 10241, 10240 + 128 + 15])
        .collect()
}

/// `m` in three pieces ([`thirds`]), each against the `side` guard of
/// its own region of `gs`.
fn put_thirds<'g>(side: Side, m: &[u8], gs: [&'g mut guard::Guarded; 3]) -> [&'g mut [u8]; 3] {
    let [a, b, c] = gs;
    let [r1, r2, r3] = thirds(m.len());
    [
        a.put(side, &m[r1]),
        b.put(side, &m[r2]),
        c.put(side, &m[r3]),
    ]
}

/// Three pieces, each in its own guarded region, for the streaming APIs.
fn thirds(n: usize) -> [std::ops::Range<usize>; 3] {
    let (s1, s2) = (n / 3, n / 3 + (n - n / 3) / 2);
    [0..s1, s1..s2, s2..n]
}

#[test]
fn poly1305_aes() {
    let msg = plaintext();
    let mut key = [0u8; 32];
    key.copy_from_slice(&bytes(50, 32));
    poly1305::clamp(&mut key);
    let nonce = bytes(51, 16);
    let mut macs: Vec<(String, Poly1305Aes)> = Vec::new();
    for b in common::every(poly1305::Poly1305Backend::ALL, |b| b.is_available()) {
        for a in common::aes_backends() {
            let aes = Aes::with_backend(&key[..16], a).unwrap();
            let mac = Poly1305Mac::with_cipher_and_backend(aes, &key[16..], b).unwrap();
            macs.push((format!("{b}/{}", a.name()), mac));
        }
    }
    let reference = Poly1305Mac::with_cipher_and_backend(
        Aes::with_backend(&key[..16], AesBackend::Portable).unwrap(),
        &key[16..],
        poly1305::Poly1305Backend::Portable,
    )
    .unwrap();
    let mut ar = Arenas::new();
    for n in poly_lengths() {
        let m = &msg[..n];
        let want = reference.authenticate(&nonce, m).unwrap();
        let want_poly = reference.poly_value(m);
        for (label, mac) in &macs {
            assert_eq!(mac.authenticate(&nonce, m).unwrap(), want, "{label}: {n}");
            for side in SIDES {
                let ctx = |op: &str| format!("{label} {side:?}: Poly1305-AES {op}, message {n}");
                trace(|| ctx("every call"));
                let Arenas {
                    iv,
                    aad: _,
                    tag,
                    a,
                    b,
                    c,
                } = &mut ar;
                let nonce_g = iv.put(side, &nonce);
                let m_g = a.put(side, m);
                assert_eq!(
                    mac.authenticate(nonce_g, m_g).unwrap(),
                    want,
                    "{}",
                    ctx("authenticate")
                );
                assert_eq!(mac.poly_value(m_g), want_poly, "{}", ctx("poly_value"));
                let tag_g = tag.put(side, &want);
                mac.verify(nonce_g, m_g, tag_g).or_fail(|| ctx("verify"));
                flip(tag_g, n, 0);
                refused(mac.verify(nonce_g, m_g, tag_g), ctx("tampered verify"));
                a.check(|| ctx("authenticate"));
                tag.check(|| ctx("verify"));
                // The stream API, three guarded pieces.
                let [p1, p2, p3] = put_thirds(side, m, [&mut *a, &mut *b, &mut *c]);
                let mut s = mac.stream(nonce_g).unwrap();
                s.update(p1).update(p2).update(p3);
                assert_eq!(s.finalize(), want, "{}", ctx("stream"));
                for g in [&*a, &*b, &*c, &*iv] {
                    g.check(|| ctx("stream"));
                }
            }
        }
    }
}

#[test]
fn poly1305_one_time() {
    let msg = plaintext();
    let key = bytes(52, 32);
    let mut ar = Arenas::new();
    for n in poly_lengths() {
        let m = &msg[..n];
        let want =
            Poly1305::mac_with_backend(&key, m, poly1305::Poly1305Backend::Portable).unwrap();
        let mut r = Poly1305::with_backend(&key, poly1305::Poly1305Backend::Portable).unwrap();
        r.update(m);
        let want_poly = r.poly_value();
        for b in common::every(poly1305::Poly1305Backend::ALL, |b| b.is_available()) {
            assert_eq!(
                Poly1305::mac_with_backend(&key, m, b).unwrap(),
                want,
                "{b}: {n}"
            );
            for side in SIDES {
                let ctx = |op: &str| format!("{b} {side:?}: Poly1305 {op}, message {n}");
                trace(|| ctx("every call"));
                let Arenas {
                    iv: _,
                    aad: g_key,
                    tag,
                    a,
                    b: gb,
                    c,
                } = &mut ar;
                let key_g = g_key.put(side, &key);
                let m_g = a.put(side, m);
                assert_eq!(
                    Poly1305::mac_with_backend(key_g, m_g, b).unwrap(),
                    want,
                    "{}",
                    ctx("mac")
                );
                let mut p = Poly1305::with_backend(key_g, b).unwrap();
                p.update(m_g);
                let tag_g = tag.put(side, &want);
                p.verify(tag_g).or_fail(|| ctx("verify"));
                flip(tag_g, n, 0);
                let mut p = Poly1305::with_backend(key_g, b).unwrap();
                p.update(m_g);
                refused(p.verify(tag_g), ctx("tampered verify"));
                let mut p = Poly1305::with_backend(key_g, b).unwrap();
                p.update(m_g);
                assert_eq!(p.poly_value(), want_poly, "{}", ctx("poly_value"));
                a.check(|| ctx("mac, verify and poly_value"));
                let [p1, p2, p3] = put_thirds(side, m, [&mut *a, &mut *gb, &mut *c]);
                let mut p = Poly1305::with_backend(key_g, b).unwrap();
                p.update(p1).update(p2).update(p3);
                assert_eq!(p.finalize(), want, "{}", ctx("update in pieces"));
                for g in [&*g_key, &*tag, &*a, &*gb, &*c] {
                    g.check(|| ctx("mac"));
                }
            }
        }
    }
}

/// The public GHASH: `update` whole and in pieces, `update_padded`.
#[test]
fn ghash_update() {
    let msg = plaintext();
    let h: [u8; 16] = bytes(60, 16).try_into().unwrap();
    let mut ar = Arenas::new();
    for n in text_lengths() {
        let m = &msg[..n];
        let mut r = Ghash::with_backend(&h, GhashBackend::Ctmul64).unwrap();
        r.update(m);
        let want = r.finalize();
        let mut r = Ghash::with_backend(&h, GhashBackend::Ctmul64).unwrap();
        r.update_padded(&m[..n / 2]);
        r.update_padded(&m[n / 2..]);
        let want_padded = r.state();
        for b in common::ghash_backends() {
            let mut g = Ghash::with_backend(&h, b).unwrap();
            g.update(m);
            assert_eq!(g.finalize(), want, "{b}: {n}");
            for side in SIDES {
                let ctx = |op: &str| format!("{b} {side:?}: GHASH {op}, message {n}");
                trace(|| ctx("every call"));
                let m_g = ar.a.put(side, m);
                let mut g = Ghash::with_backend(&h, b).unwrap();
                g.update(m_g);
                assert_eq!(g.finalize(), want, "{}", ctx("update"));
                ar.a.check(|| ctx("update"));
                let [r1, r2, r3] = thirds(n);
                let p1 = ar.a.put(side, &m[r1]);
                let p2 = ar.b.put(side, &m[r2]);
                let p3 = ar.c.put(side, &m[r3]);
                let mut g = Ghash::with_backend(&h, b).unwrap();
                g.update(p1);
                g.update(p2);
                g.update(p3);
                assert_eq!(g.finalize(), want, "{}", ctx("update in pieces"));
                let h1 = ar.a.put(side, &m[..n / 2]);
                let h2 = ar.b.put(side, &m[n / 2..]);
                let mut g = Ghash::with_backend(&h, b).unwrap();
                g.update_padded(h1);
                g.update_padded(h2);
                assert_eq!(g.state(), want_padded, "{}", ctx("update_padded"));
                for a in [&ar.a, &ar.b, &ar.c] {
                    a.check(|| ctx("update in pieces"));
                }
            }
        }
    }
}

/// Shapes of batches for `seal_batch`: one packet of each length; all
/// packets short (the multi-buffer kernel, AES batches spanning packets);
/// short and long mixed; long only; many packets.
fn batch_shapes() -> Vec<Vec<usize>> {
    let mut v: Vec<Vec<usize>> = (0..=300).map(|l| vec![l]).collect();
    for l in 0..=255 {
        v.push(vec![
            l,
            255 - l,
            (l * 7) % 256,
            l / 3 + 1,
            (l * 13 + 5) % 256,
        ]);
    }
    for l in (0..=255).step_by(3) {
        v.push(vec![l, 1500, (l + 100) % 256, 600, l / 2]);
    }
    for l in (256..=600).step_by(2) {
        v.push(vec![l, l + 1]);
    }
    v.push(vec![4097, 16385, 2049]);
    v.push(vec![65537, 17]);
    v.push((0..12).map(|i| i * 21 + 3).collect());
    v
}

fn batch(klen: usize, seed: u64) {
    let (pt, aad) = (plaintext(), aad_bytes());
    let key = bytes(seed, klen);
    let keys = gcm_keys(&key, |o| o);
    let reference = AesGcm::with_options(&key, reference_opts()).unwrap();
    let most = 12;
    let mut datas: Vec<Guarded> = (0..most).map(|_| Guarded::new(MAX_BUF)).collect();
    let mut aads: Vec<Guarded> = (0..most).map(|_| Guarded::new(128)).collect();
    for (si, shape) in batch_shapes().iter().enumerate() {
        assert!(shape.len() <= most);
        // Distinct nonces, AAD lengths and texts per packet.
        let packets: Vec<([u8; 12], &[u8], &[u8])> = shape
            .iter()
            .enumerate()
            .map(|(i, &l)| {
                let mut nonce = [0u8; 12];
                nonce[..4].copy_from_slice(&(si as u32).to_be_bytes());
                nonce[4] = i as u8;
                let alen = AAD_LENS[(i + l) % AAD_LENS.len()];
                (nonce, &aad[i..i + alen], &pt[i * 7..i * 7 + l])
            })
            .collect();
        let want: Vec<Vec<u8>> = packets
            .iter()
            .map(|(nonce, a, p)| reference.seal(nonce, a, p).unwrap())
            .collect();
        for (label, k) in &keys {
            for side in SIDES {
                let ctx = || format!("{label} {side:?}: seal_batch of {shape:?}");
                trace(ctx);
                let mut batch: Vec<BatchPacket<'_>> = packets
                    .iter()
                    .zip(datas.iter_mut().zip(aads.iter_mut()))
                    .map(|(&(nonce, a, p), (gd, ga))| {
                        BatchPacket::new(nonce, ga.put(side, a), gd.put(side, p))
                    })
                    .collect();
                k.seal_batch(&mut batch).or_fail(ctx);
                for (i, (p, w)) in batch.iter().zip(&want).enumerate() {
                    let l = p.data().len();
                    assert!(
                        same(p.data(), &w[..l]) && same(p.tag().unwrap().as_bytes(), &w[l..]),
                        "{}: packet {i} differs from a one-at-a-time seal",
                        ctx()
                    );
                }
                drop(batch);
                for (gd, ga) in datas.iter().zip(&aads).take(shape.len()) {
                    gd.check(ctx);
                    ga.check(ctx);
                }
            }
        }
    }
}

#[test]
fn seal_batch_128() {
    batch(16, 70);
}

#[test]
fn seal_batch_256() {
    batch(32, 71);
}

/// The packet layer: header and payload guarded when sealing, the whole
/// packet (header || seq as AAD, then ciphertext || ICV) when opening.
#[test]
fn packets() {
    let (pt, hdr) = (plaintext(), aad_bytes());
    let key = bytes(80, 16);
    let salt = [1, 2, 3, 4];
    let lens: Vec<usize> = (0..=130)
        .chain([255, 256, 257, 1500, 4097, 16385])
        .collect();
    let mut ar = Arenas::new();
    for (label, g, a) in pairs() {
        let aead = || AesGcm::with_options(&key, Options::new().backend(g).aes_backend(a)).unwrap();
        for hlen in [0, 3, 13] {
            let limits = UsageLimits::PACKETS;
            let mut tx =
                PacketSealer::with_aead(aead(), salt, Role::Initiator, Start::NewKey, limits)
                    .unwrap();
            let mut tx_vec =
                PacketSealer::with_aead(aead(), salt, Role::Initiator, Start::NewKey, limits)
                    .unwrap();
            let mut rx =
                PacketOpener::with_aead(aead(), salt, Role::Responder, hlen, 1 << 20).unwrap();
            for &n in &lens {
                for side in SIDES {
                    let ctx = |op: &str| {
                        format!("{label} {side:?}: packet {op}, header {hlen}, payload {n}")
                    };
                    trace(|| ctx("seal and open"));
                    let h_g = ar.aad.put(side, &hdr[..hlen]);
                    let p_g = ar.a.put(side, &pt[..n]);
                    let sealed = tx.seal(h_g, p_g).unwrap();
                    assert_eq!(
                        sealed,
                        tx_vec.seal(&hdr[..hlen], &pt[..n]).unwrap(),
                        "{}",
                        ctx("seal")
                    );
                    ar.aad.check(|| ctx("seal"));
                    ar.a.check(|| ctx("seal"));
                    let bad = ar.b.put(side, &sealed);
                    let len = bad.len();
                    flip(&mut bad[len - 16..], n, hlen);
                    refused(rx.open(bad), ctx("tampered open"));
                    let p = ar.b.put(side, &sealed);
                    let o = rx.open(p).or_fail(|| ctx("open"));
                    assert!(
                        same(&o.payload, &pt[..n]) && same(&o.header, &hdr[..hlen]),
                        "{}",
                        ctx("open")
                    );
                    ar.b.check(|| ctx("open"));
                }
            }
        }
    }
}

/// The on-line API (AAD and text in guarded pieces) and the precomputed
/// one (keystream, AAD prefix).
#[test]
fn online_and_precomputed() {
    let (pt, aad) = (plaintext(), aad_bytes());
    let key = bytes(90, 16);
    let keys = gcm_keys(&key, |o| o);
    let iv = bytes(91, 12);
    let mut ar = Arenas::new();
    for n in thin_lengths() {
        let (m, ad) = (&pt[..n], &aad[..21]);
        let sealed = AesGcm::with_options(&key, reference_opts())
            .unwrap()
            .seal(&iv, ad, m)
            .unwrap();
        let (want_ct, want_tag) = sealed.split_at(n);
        let want_steps = AesGcm::with_options(&key, reference_opts())
            .unwrap()
            .intermediates(&iv, ad, want_ct)
            .unwrap();
        for (label, k) in &keys {
            for side in SIDES {
                let ctx = |op: &str| format!("{label} {side:?}: {op}, text {n}");
                trace(|| ctx("on-line and precomputed"));
                let Arenas {
                    iv: giv,
                    aad: gad,
                    tag: gtag,
                    a,
                    b,
                    c,
                } = &mut ar;
                let [r1, r2, r3] = thirds(n);
                let iv_g = giv.put(side, &iv);
                let tag_g = gtag.put(side, want_tag);

                // Encryptor: AAD in two pieces, text in three, in place.
                let mut e = k.encryptor(iv_g).unwrap();
                e.aad(gad.put(side, &ad[..8])).unwrap();
                e.aad(a.put(side, &ad[8..])).unwrap();
                let (p1, p2, p3) = (
                    a.put(side, &m[r1.clone()]),
                    b.put(side, &m[r2.clone()]),
                    c.put(side, &m[r3.clone()]),
                );
                e.encrypt(p1).unwrap();
                e.encrypt(p2).unwrap();
                e.encrypt(p3).unwrap();
                let got = [&p1[..], &p2[..], &p3[..]].concat();
                assert!(same(&got, want_ct), "{}", ctx("encryptor"));
                assert_eq!(e.finish().as_bytes(), want_tag, "{}", ctx("encryptor tag"));
                for g in [&*a, &*b, &*c] {
                    g.check(|| ctx("encryptor"));
                }

                // Decryptor: ciphertext in three guarded pieces.
                let mut d = k.decryptor(iv_g).unwrap();
                d.aad(gad.put(side, ad)).unwrap();
                d.update(a.put(side, &want_ct[r1.clone()])).unwrap();
                d.update(b.put(side, &want_ct[r2.clone()])).unwrap();
                d.update(c.put(side, &want_ct[r3.clone()])).unwrap();
                let got = d.finish(tag_g).or_fail(|| ctx("decryptor"));
                assert!(same(&got, m), "{}", ctx("decryptor"));

                // Unverified decryptor, in place.
                let mut u = k.unverified_decryptor(iv_g).unwrap();
                u.aad(gad.put(side, ad)).unwrap();
                let (p1, p2, p3) = (
                    a.put(side, &want_ct[r1]),
                    b.put(side, &want_ct[r2]),
                    c.put(side, &want_ct[r3]),
                );
                u.decrypt_unverified(p1).unwrap();
                u.decrypt_unverified(p2).unwrap();
                u.decrypt_unverified(p3).unwrap();
                assert!(
                    same(&[&p1[..], &p2[..], &p3[..]].concat(), m),
                    "{}",
                    ctx("unverified decryptor")
                );
                u.finish(tag_g).or_fail(|| ctx("unverified finish"));
                for g in [&*a, &*b, &*c] {
                    g.check(|| ctx("unverified decryptor"));
                }

                // The hazmat step-by-step values over guarded IV, AAD and
                // ciphertext.
                let ct_g = a.put(side, want_ct);
                let ad_g = gad.put(side, ad);
                assert_eq!(
                    k.intermediates(iv_g, ad_g, ct_g).unwrap(),
                    want_steps,
                    "{}",
                    ctx("intermediates")
                );

                // Keystream precomputed for the IV.
                let ad_g = gad.put(side, ad);
                let buf = a.put(side, m);
                let t = Keystream::new(k, iv_g, n)
                    .unwrap()
                    .seal_in_place(ad_g, buf)
                    .unwrap();
                assert!(
                    same(buf, want_ct) && t.as_bytes() == want_tag,
                    "{}",
                    ctx("keystream seal")
                );
                Keystream::new(k, iv_g, n)
                    .unwrap()
                    .open_in_place(ad_g, buf, tag_g)
                    .unwrap();
                assert!(same(buf, m), "{}", ctx("keystream open"));
                a.check(|| ctx("keystream"));

                // AAD prefix (13 bytes, so the rest completes a block).
                let prefix = AadPrefix::new(k, b.put(side, &ad[..13])).unwrap();
                let rest = c.put(side, &ad[13..]);
                let buf = a.put(side, m);
                let t = precompute::seal_in_place(k, IvInput::Full(iv_g), Some(&prefix), rest, buf)
                    .unwrap();
                assert!(
                    same(buf, want_ct) && t.as_bytes() == want_tag,
                    "{}",
                    ctx("prefix seal")
                );
                precompute::open_in_place(k, IvInput::Full(iv_g), Some(&prefix), rest, buf, tag_g)
                    .unwrap();
                assert!(same(buf, m), "{}", ctx("prefix open"));
                flip(tag_g, n, 0);
                let buf = a.put(side, want_ct);
                refused(
                    precompute::open_in_place(
                        k,
                        IvInput::Full(iv_g),
                        Some(&prefix),
                        rest,
                        buf,
                        tag_g,
                    ),
                    ctx("tampered prefix open"),
                );
                assert!(zeroed(buf), "{}: not wiped", ctx("tampered prefix open"));
                for g in [&*giv, &*gad, &*gtag, &*a, &*b, &*c] {
                    g.check(|| ctx("on-line and precomputed"));
                }
            }
        }
    }
}

/// TDEA-GCM (GF(2^64)) on every GF(2^64) backend, both variants, a 32-bit
/// IV and a 64-bit one (hashed).
#[test]
fn tdea_gcm() {
    let (pt, aad) = (plaintext(), aad_bytes());
    let key = *b"\x01\x23\x45\x67\x89\xab\xcd\xef\x23\x45\x67\x89\xab\xcd\xef\x01\x45\x67\x89\xab\xcd\xef\x01\x23";
    let mut ar = Arenas::new();
    let lens: Vec<usize> = (0..=130)
        .chain((137..=600).step_by(7))
        .chain([1023, 1024, 1025, 4097])
        .collect();
    for variant in [Variant::WBit, Variant::AppendixA] {
        let reference = TdeaGcm::with_options(
            &key,
            Options64::new()
                .variant(variant)
                .backend(Gf64Backend::Bitserial),
        )
        .unwrap();
        let keys: Vec<(Gf64Backend, TdeaGcm)> =
            common::every(Gf64Backend::ALL, |b| b.is_available())
                .into_iter()
                .map(|b| {
                    (
                        b,
                        TdeaGcm::with_options(&key, Options64::new().variant(variant).backend(b))
                            .unwrap(),
                    )
                })
                .collect();
        for iv in [&[9u8, 8, 7, 6][..], &[1u8, 2, 3, 4, 5, 6, 7, 8][..]] {
            for &n in &lens {
                let (m, ad) = (&pt[..n], &aad[..13]);
                let sealed = reference.seal(iv, ad, m).unwrap();
                let (want_ct, want_tag) = sealed.split_at(n);
                for (b, k) in &keys {
                    assert_eq!(k.seal(iv, ad, m).unwrap(), sealed, "{b} {variant:?}: {n}");
                    for side in SIDES {
                        let ctx = |op: &str| {
                            format!(
                                "{b} {variant:?} {side:?}: TDEA-GCM {op}, text {n}, IV {}",
                                iv.len()
                            )
                        };
                        trace(|| ctx("seal and open"));
                        let iv_g = ar.iv.put(side, iv);
                        let ad_g = ar.aad.put(side, ad);
                        let buf = ar.a.put(side, m);
                        let t = k.seal_in_place_detached(iv_g, ad_g, buf).unwrap();
                        assert!(
                            same(buf, want_ct) && t.as_bytes() == want_tag,
                            "{}",
                            ctx("seal")
                        );
                        let tag_g = ar.tag.put(side, want_tag);
                        k.open_in_place_detached(iv_g, ad_g, buf, tag_g).unwrap();
                        assert!(same(buf, m), "{}", ctx("open"));
                        flip(tag_g, n, 13);
                        let buf = ar.a.put(side, want_ct);
                        refused(
                            k.open_in_place_detached(iv_g, ad_g, buf, tag_g),
                            ctx("tampered open"),
                        );
                        assert!(zeroed(buf), "{}: not wiped", ctx("tampered open"));
                        for g in [&ar.iv, &ar.aad, &ar.a, &ar.tag] {
                            g.check(|| ctx("seal and open"));
                        }
                    }
                }
            }
        }
    }
}
