//! A statistical timing test in the manner of dudect (Reparaz, Balasch and
//! Verbauwhede, "Dude, is my code constant time?", 2017), written here
//! from the paper's description.
//!
//! For each target, every measurement draws one of two input classes at
//! random (so drifts in machine load hit both classes alike), times one
//! call with the time-stamp counter, and the two timing distributions are
//! compared with Welch's t-test. As in the paper, the test is also run on
//! the measurements below each of a series of percentiles of the first
//! (warm-up, discarded) batch, because the upper tail is mostly noise from
//! interrupts and other processes; the largest |t| over the crops is the
//! statistic. |t| > 10 is taken as a leak, 4.5 < |t| <= 10 as a weak sign.

use crate::checks::Rng;
use galois_aead::poly1305::{self, Poly1305, Poly1305Aes};
use galois_aead::{AesGcm, AesGmac, GhashBackend, Options};
use std::hint::black_box;
use std::process::ExitCode;

/// |t| above which a target is reported as leaking.
pub const LEAK: f64 = 10.0;
/// |t| above which a target is reported as suspicious.
pub const WEAK: f64 = 4.5;

/// Crop levels: measurements below the p-th percentile of the warm-up
/// batch, p = 1 - 0.5^(10 (k + 1) / CROPS) (denser near the top).
const CROPS: usize = 100;
/// Measurements per batch.
const BATCH: usize = 5000;

/// Welch's t-test, accumulated on line (Welford's mean and variance).
#[derive(Clone, Copy, Default)]
struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let d = x - self.mean[class];
        self.mean[class] += d / self.n[class];
        self.m2[class] += d * (x - self.mean[class]);
    }

    fn t(&self) -> f64 {
        if self.n[0] < 2.0 || self.n[1] < 2.0 {
            return 0.0;
        }
        let v0 = self.m2[0] / (self.n[0] - 1.0);
        let v1 = self.m2[1] / (self.n[1] - 1.0);
        let se = (v0 / self.n[0] + v1 / self.n[1]).sqrt();
        if se == 0.0 {
            return 0.0;
        }
        (self.mean[0] - self.mean[1]) / se
    }
}

/// A timed operation and its two input classes.
trait Target {
    /// Bytes of input per measurement.
    fn input_len(&self) -> usize;
    /// Writes one input of `class` (0 or 1); by default all zero (class 0)
    /// or random (class 1).
    fn fill(&self, class: usize, rng: &mut Rng, out: &mut [u8]) {
        zero_or_random(class, rng, out)
    }
    /// The operation being timed.
    fn run(&mut self, input: &[u8]) -> u64;
}

/// All zero for class 0, random for class 1.
fn zero_or_random(class: usize, rng: &mut Rng, out: &mut [u8]) {
    if class == 0 {
        out.fill(0);
    } else {
        rng.fill(out);
    }
}

struct Test {
    name: String,
    /// What the two classes are.
    classes: &'static str,
    /// Expected to leak (a positive control).
    leaky: bool,
    /// Evict the caches (read a buffer larger than L2) before each call.
    evict: bool,
    target: Box<dyn Target>,
}

/// The outcome of one test.
pub struct Outcome {
    pub name: String,
    pub classes: &'static str,
    pub leaky: bool,
    pub n: usize,
    /// Median time of each class over all measurements.
    pub median: [u64; 2],
    pub t_all: f64,
    pub t_max: f64,
    pub crop: usize,
}

impl Outcome {
    pub fn verdict(&self) -> &'static str {
        let t = self.t_max.abs();
        match (t > LEAK, t > WEAK, self.leaky) {
            (true, _, true) => "flagged (control, expected)",
            (true, _, false) => "LEAK",
            (false, true, true) => "weak sign only (control)",
            (false, true, false) => "weak sign",
            (false, false, true) => "NOT flagged (control)",
            (false, false, false) => "no evidence of leak",
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn now() -> u64 {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: lfence and rdtsc exist on every x86-64 CPU.
    unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn now() -> u64 {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

/// A buffer read before each measurement of an `evict` test: 4 MiB, four
/// times the L2 of this machine, so that tables a call uses are not in L1
/// or L2 when it starts.
struct Evictor(Vec<u64>);

impl Evictor {
    fn new() -> Self {
        Evictor((0..(4 << 20) / 8).map(|i| i as u64).collect())
    }
    #[inline(never)]
    fn run(&self) -> u64 {
        let mut s = 0u64;
        for x in self.0.iter().step_by(8) {
            s = s.wrapping_add(*x);
        }
        black_box(s)
    }
}

fn measure(test: &mut Test, samples: usize, rng: &mut Rng, ev: &Evictor) -> Outcome {
    let len = test.target.input_len();
    let mut inputs = vec![0u8; BATCH * len];
    let mut classes = vec![0usize; BATCH];
    let mut times = vec![0u64; BATCH];
    let mut tests = vec![Welch::default(); 1 + CROPS];
    let mut cuts = vec![u64::MAX; CROPS];
    let batches = samples.div_ceil(BATCH) + 1;
    let mut n = 0;
    let mut by_class: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    for b in 0..batches {
        for (i, c) in classes.iter_mut().enumerate() {
            *c = (rng.next() >> 63) as usize;
            test.target
                .fill(*c, rng, &mut inputs[i * len..(i + 1) * len]);
        }
        for i in 0..BATCH {
            if test.evict {
                ev.run();
            }
            let input = &inputs[i * len..(i + 1) * len];
            let t0 = now();
            let r = test.target.run(input);
            let t1 = now();
            black_box(r);
            times[i] = t1.wrapping_sub(t0);
        }
        if b == 0 {
            // Warm-up batch: only sets the crop levels.
            let mut sorted = times.clone();
            sorted.sort_unstable();
            for (k, cut) in cuts.iter_mut().enumerate() {
                let p = 1.0 - 0.5f64.powf(10.0 * (k + 1) as f64 / CROPS as f64);
                *cut = sorted[((p * BATCH as f64) as usize).min(BATCH - 1)];
            }
            continue;
        }
        for i in 0..BATCH {
            let (c, x) = (classes[i], times[i]);
            by_class[c].push(x);
            tests[0].push(c, x as f64);
            for (k, cut) in cuts.iter().enumerate() {
                if x < *cut {
                    tests[1 + k].push(c, x as f64);
                }
            }
        }
        n += BATCH;
    }
    let (crop, t_max) = tests
        .iter()
        .enumerate()
        // A crop that kept too few measurements says nothing.
        .filter(|(_, w)| w.n[0] + w.n[1] >= (n / 10) as f64)
        .map(|(k, w)| (k, w.t()))
        .fold(
            (0, 0.0f64),
            |a, b| if b.1.abs() > a.1.abs() { b } else { a },
        );
    let median = by_class.map(|mut v| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    });
    Outcome {
        name: test.name.clone(),
        classes: test.classes,
        leaky: test.leaky,
        n,
        median,
        t_all: tests[0].t(),
        t_max,
        crop,
    }
}

// ---- targets ----------------------------------------------------------

/// A received 16-byte tag, wrong in the first byte (class 0) or in the
/// last byte (class 1), compared with the expected one.
fn fill_wrong_tag(expected: &[u8; 16], class: usize, rng: &mut Rng, out: &mut [u8]) {
    out.copy_from_slice(expected);
    let flip = (rng.next() as u8) | 1;
    out[if class == 0 { 0 } else { 15 }] ^= flip;
}

/// `galois_aead::ct::eq` (or the early-exit control) on 16-byte tags.
struct Eq {
    expected: [u8; 16],
    early_exit: bool,
}

#[inline(never)]
fn early_exit_eq(a: &[u8], b: &[u8]) -> bool {
    // Deliberately leaky: the positive control.
    for i in 0..a.len() {
        if black_box(a[i]) != b[i] {
            return false;
        }
    }
    true
}

impl Target for Eq {
    fn input_len(&self) -> usize {
        16
    }
    fn fill(&self, class: usize, rng: &mut Rng, out: &mut [u8]) {
        fill_wrong_tag(&self.expected, class, rng, out)
    }
    fn run(&mut self, input: &[u8]) -> u64 {
        let e = black_box(&self.expected[..]);
        if self.early_exit {
            early_exit_eq(e, input) as u64
        } else {
            galois_aead::ct::eq(e, input) as u64
        }
    }
}

/// AES-GCM open of a fixed message with a wrong tag.
struct Open {
    gcm: AesGcm,
    ct: Vec<u8>,
    buf: Vec<u8>,
    tag: [u8; 16],
    /// Class 1 is a uniformly random tag instead of last-byte-wrong.
    random: bool,
}

impl Target for Open {
    fn input_len(&self) -> usize {
        16
    }
    fn fill(&self, class: usize, rng: &mut Rng, out: &mut [u8]) {
        if self.random {
            if class == 0 {
                out.copy_from_slice(&self.tag);
                out[7] ^= 0x5a;
            } else {
                rng.fill(out);
            }
        } else {
            fill_wrong_tag(&self.tag, class, rng, out);
        }
    }
    fn run(&mut self, input: &[u8]) -> u64 {
        self.buf.copy_from_slice(&self.ct);
        let r = self
            .gcm
            .open_in_place_detached(&[9; 12], b"hdr", &mut self.buf, input);
        r.is_ok() as u64
    }
}

/// AES-GMAC under a fixed key of an all-zero message (class 0; then every
/// GHASH step multiplies 0 and the table backends read entry 0 only) or a
/// random one (class 1).
struct GmacMsg {
    mac: AesGmac,
    len: usize,
}

impl Target for GmacMsg {
    fn input_len(&self) -> usize {
        self.len
    }
    fn run(&mut self, input: &[u8]) -> u64 {
        let t = self.mac.authenticate(&[3; 12], input).unwrap();
        t.as_bytes()[0] as u64
    }
}

/// Poly1305-AES: key setup and tag with r and the message all zero (class
/// 0) or random (class 1); the AES key k is fixed.
struct PolyAes {
    backend: poly1305::Poly1305Backend,
    k: [u8; 16],
    len: usize,
}

impl Target for PolyAes {
    fn input_len(&self) -> usize {
        16 + self.len
    }
    fn fill(&self, class: usize, rng: &mut Rng, out: &mut [u8]) {
        zero_or_random(class, rng, out);
        if class != 0 {
            poly1305::clamp_r((&mut out[..16]).try_into().unwrap());
        }
    }
    fn run(&mut self, input: &[u8]) -> u64 {
        let mut key = [0u8; 32];
        key[..16].copy_from_slice(&self.k);
        key[16..].copy_from_slice(&input[..16]);
        let mac = Poly1305Aes::with_backend(&key, self.backend).unwrap();
        mac.authenticate(&[1; 16], &input[16..]).unwrap()[0] as u64
    }
}

/// Poly1305-AES verification of a wrong tag (first vs last byte).
struct PolyVerify {
    mac: Poly1305Aes,
    msg: Vec<u8>,
    tag: [u8; 16],
}

impl Target for PolyVerify {
    fn input_len(&self) -> usize {
        16
    }
    fn fill(&self, class: usize, rng: &mut Rng, out: &mut [u8]) {
        fill_wrong_tag(&self.tag, class, rng, out)
    }
    fn run(&mut self, input: &[u8]) -> u64 {
        self.mac.verify(&[1; 16], &self.msg, input).is_ok() as u64
    }
}

/// One-time Poly1305: key r || s and message all zero or random.
struct PolyOneTime {
    backend: poly1305::Poly1305Backend,
    len: usize,
}

impl Target for PolyOneTime {
    fn input_len(&self) -> usize {
        32 + self.len
    }
    fn run(&mut self, input: &[u8]) -> u64 {
        Poly1305::mac_with_backend(&input[..32], &input[32..], self.backend).unwrap()[0] as u64
    }
}

fn tests(rng: &mut Rng) -> Vec<Test> {
    let mut v = Vec::new();
    let mut key = [0u8; 16];
    rng.fill(&mut key);
    let mut expected = [0u8; 16];
    rng.fill(&mut expected);
    let first_last = "wrong tag: first byte vs last byte";
    v.push(Test {
        name: "ct::eq".into(),
        classes: first_last,
        leaky: false,
        evict: false,
        target: Box::new(Eq {
            expected,
            early_exit: false,
        }),
    });
    v.push(Test {
        name: "control: early-exit eq".into(),
        classes: first_last,
        leaky: true,
        evict: false,
        target: Box::new(Eq {
            expected,
            early_exit: true,
        }),
    });
    let mut open_backends = vec![galois_aead::GhashBackend::auto()];
    #[cfg(target_arch = "x86_64")]
    if GhashBackend::AesniClmul.is_available() && open_backends[0] != GhashBackend::AesniClmul {
        open_backends.push(GhashBackend::AesniClmul);
    }
    for b in open_backends {
        for random in [false, true] {
            let gcm = AesGcm::with_options(&key, Options::new().backend(b)).unwrap();
            let pt = rng.bytes(64);
            let mut ct = pt.clone();
            let tag = gcm
                .seal_in_place_detached(&[9; 12], b"hdr", &mut ct)
                .unwrap();
            v.push(Test {
                name: format!("gcm open/{b}{}", if random { " random tag" } else { "" }),
                classes: if random {
                    "wrong tag: fixed vs random"
                } else {
                    first_last
                },
                leaky: false,
                evict: false,
                target: Box::new(Open {
                    gcm,
                    buf: ct.clone(),
                    ct,
                    tag: *tag.as_bytes().first_chunk::<16>().unwrap(),
                    random,
                }),
            });
        }
    }
    for &b in GhashBackend::ALL {
        if !b.is_available() {
            continue;
        }
        for evict in [false, true] {
            v.push(Test {
                name: format!("gmac/{b}{}", if evict { " +evict" } else { "" }),
                classes: "message (256 B): zero vs random",
                leaky: !b.is_constant_time(),
                evict,
                target: Box::new(GmacMsg {
                    mac: AesGmac::with_options(&key, Options::new().backend(b)).unwrap(),
                    len: 256,
                }),
            });
        }
    }
    for &b in poly1305::Poly1305Backend::ALL {
        if !b.is_available() {
            continue;
        }
        let lens: &[usize] = match b {
            #[cfg(target_arch = "x86_64")]
            poly1305::Poly1305Backend::Avx2 => &[2048],
            #[cfg(target_arch = "x86_64")]
            poly1305::Poly1305Backend::Ifma => &[512, 12288],
            _ => &[256],
        };
        for &len in lens {
            v.push(Test {
                name: format!("poly1305-aes/{b} {len} B"),
                classes: "r and message: zero vs random",
                leaky: false,
                evict: false,
                target: Box::new(PolyAes {
                    backend: b,
                    k: key,
                    len,
                }),
            });
            v.push(Test {
                name: format!("poly1305/{b} {len} B"),
                classes: "key r, s and message: zero vs random",
                leaky: false,
                evict: false,
                target: Box::new(PolyOneTime { backend: b, len }),
            });
        }
    }
    let mut pk = [0u8; 32];
    rng.fill(&mut pk);
    poly1305::clamp(&mut pk);
    let mac = Poly1305Aes::new(&pk).unwrap();
    let msg = rng.bytes(64);
    let tag = mac.authenticate(&[1; 16], &msg).unwrap();
    v.push(Test {
        name: format!("poly1305-aes verify/{}", mac.backend()),
        classes: first_last,
        leaky: false,
        evict: false,
        target: Box::new(PolyVerify { mac, msg, tag }),
    });
    v
}

/// `galois-ct dudect [-n N] [--list] [--seed S] [FILTER...]`: runs the
/// tests whose names contain any FILTER (all without one).
pub fn main(args: &[String]) -> ExitCode {
    let mut samples = 100_000usize;
    let mut filters = Vec::new();
    let mut list = false;
    let mut seed = now();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-n" => match it.next().and_then(|s| s.parse().ok()) {
                Some(n) => samples = n,
                None => return bad_args(),
            },
            "--seed" => match it.next().and_then(|s| s.parse().ok()) {
                Some(s) => seed = s,
                None => return bad_args(),
            },
            "--list" => list = true,
            f => filters.push(f.to_string()),
        }
    }
    let mut rng = Rng::new(seed);
    let mut all = tests(&mut rng);
    all.retain(|t| filters.is_empty() || filters.iter().any(|f| t.name.contains(f.as_str())));
    if list {
        for t in &all {
            println!("{}", t.name);
        }
        return ExitCode::SUCCESS;
    }
    println!(
        "dudect: {samples} measurements per test (+{BATCH} warm-up), seed {seed}; \
         |t| > {LEAK} leak, > {WEAK} weak sign"
    );
    println!(
        "| test | classes | n | median ticks class 0 / 1 | t (all) | max abs t (crop) | verdict |"
    );
    println!("|---|---|---|---|---|---|---|");
    let ev = Evictor::new();
    let mut bad = 0;
    for t in all.iter_mut() {
        let o = measure(t, samples, &mut rng, &ev);
        println!(
            "| {} | {} | {} | {} / {} | {:.2} | {:.2} ({}) | {} |",
            o.name,
            o.classes,
            o.n,
            o.median[0],
            o.median[1],
            o.t_all,
            o.t_max.abs(),
            o.crop,
            o.verdict()
        );
        let leak = o.t_max.abs() > LEAK;
        // Only the deterministic control is required to be flagged; the
        // vartime table backends are reported as measured.
        if (leak && !o.leaky) || (o.name.starts_with("control") && !leak) {
            bad += 1;
        }
    }
    if bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn bad_args() -> ExitCode {
    eprintln!("usage: galois-ct dudect [-n N] [--seed S] [--list] [FILTER...]");
    ExitCode::from(2)
}
