//! AES-GCM and GMAC: galois (auto and each kernel) against OpenSSL,
//! aws-lc-rs, ring and RustCrypto, side by side in one process, round robin.

use crate::measure::{calibrate, median, sample, short_samples, tsc_per_ns};
use std::hint::black_box;

#[derive(clap::Args)]
pub struct Args {
    /// Fewer rounds and shorter samples (a full run in well under a minute).
    #[arg(long)]
    quick: bool,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    /// Write an SVG plot of throughput against packet size (AES-128-GCM).
    #[arg(long)]
    plot: Option<std::path::PathBuf>,
    /// Only these sizes (comma-separated).
    #[arg(long, value_delimiter = ',')]
    sizes: Option<Vec<usize>>,
}

const SIZES: &[usize] = &[
    16, 20, 40, 44, 64, 128, 256, 552, 576, 1024, 1500, 8192, 16384,
];
/// The Internet Performance Index (paper 001 section 3): fraction of bytes by size.
const IPI: &[(usize, f64)] = &[(1500, 0.6), (576, 0.2), (552, 0.15), (44, 0.05)];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Prim {
    Aes128,
    Aes256,
    Gmac128,
    /// AES-128-GCM opening: each call copies the sealed message into the
    /// buffer and opens it in place (the tag verifies every time).
    Aes128Open,
}

/// Every primitive, in the order they run and print.
const PRIMS: [Prim; 4] = [Prim::Aes128, Prim::Aes256, Prim::Gmac128, Prim::Aes128Open];

impl Prim {
    fn name(self) -> &'static str {
        match self {
            Prim::Aes128 => "aes-128-gcm",
            Prim::Aes256 => "aes-256-gcm",
            Prim::Gmac128 => "gmac-128",
            Prim::Aes128Open => "aes-128-gcm-open",
        }
    }
    fn key_len(self) -> usize {
        if self == Prim::Aes256 {
            32
        } else {
            16
        }
    }
}

/// One implementation of one primitive: `run` seals (or MACs) `buf` in place.
trait Subject {
    fn run(&mut self, buf: &mut [u8]);
    /// Packets handled per `run` (time is reported per packet).
    fn packets(&self) -> usize {
        1
    }
}

/// galois's batch sealer: `BATCH` packets of the cell's size per call.
struct GaloisBatch {
    gcm: galois_aead::AesGcm,
    bufs: Vec<Vec<u8>>,
}
const BATCH: usize = 16;
impl Subject for GaloisBatch {
    fn run(&mut self, buf: &mut [u8]) {
        let n = buf.len();
        let mut packets: Vec<galois_aead::BatchPacket> = self
            .bufs
            .iter_mut()
            .enumerate()
            .map(|(i, b)| {
                b.resize(n, 0x11);
                let mut nonce = [7u8; 12];
                nonce[0] = i as u8;
                galois_aead::BatchPacket::new(nonce, &[], &mut b[..])
            })
            .collect();
        self.gcm.seal_batch(&mut packets).unwrap();
        black_box(packets[0].tag());
    }
    fn packets(&self) -> usize {
        BATCH
    }
}

struct Galois {
    gcm: galois_aead::AesGcm,
    gmac: bool,
}
impl Subject for Galois {
    fn run(&mut self, buf: &mut [u8]) {
        let iv = [7u8; 12];
        let t = if self.gmac {
            self.gcm.seal_in_place_detached(&iv, buf, &mut []).unwrap()
        } else {
            self.gcm.seal_in_place_detached(&iv, &[], buf).unwrap()
        };
        black_box(t);
    }
}

struct OpenSsl {
    ctx: openssl::cipher_ctx::CipherCtx,
    gmac: bool,
    out: Vec<u8>,
}
impl Subject for OpenSsl {
    fn run(&mut self, buf: &mut [u8]) {
        let iv = [7u8; 12];
        self.ctx.encrypt_init(None, None, Some(&iv)).unwrap();
        let mut tag = [0u8; 16];
        if self.gmac {
            self.ctx.cipher_update(buf, None).unwrap();
        } else {
            self.out.resize(buf.len() + 16, 0);
            let n = self.ctx.cipher_update(buf, Some(&mut self.out)).unwrap();
            buf.copy_from_slice(&self.out[..n]);
        }
        self.ctx.cipher_final(&mut []).unwrap();
        self.ctx.tag(&mut tag).unwrap();
        black_box(tag);
    }
}

/// aws-lc-rs and ring share the `LessSafeKey` API.
macro_rules! less_safe_key_subject {
    ($name:ident, $krate:ident) => {
        struct $name {
            key: $krate::aead::LessSafeKey,
            gmac: bool,
        }
        impl $name {
            /// AES-128-GCM for a 16-byte key, else AES-256-GCM.
            fn new(key: &[u8], gmac: bool) -> Self {
                use $krate::aead::{LessSafeKey, UnboundKey, AES_128_GCM, AES_256_GCM};
                let alg = if key.len() == 16 {
                    &AES_128_GCM
                } else {
                    &AES_256_GCM
                };
                let key = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
                $name { key, gmac }
            }
        }
        impl Subject for $name {
            fn run(&mut self, buf: &mut [u8]) {
                use $krate::aead::{Aad, Nonce};
                let n = Nonce::assume_unique_for_key([7u8; 12]);
                let t = if self.gmac {
                    self.key
                        .seal_in_place_separate_tag(n, Aad::from(&*buf), &mut [])
                        .unwrap()
                } else {
                    self.key
                        .seal_in_place_separate_tag(n, Aad::empty(), buf)
                        .unwrap()
                };
                let _ = black_box(t);
            }
        }
    };
}
less_safe_key_subject!(AwsLc, aws_lc_rs);
less_safe_key_subject!(Ring, ring);

enum RustCryptoKey {
    A128(aes_gcm::Aes128Gcm),
    A256(aes_gcm::Aes256Gcm),
}
struct RustCrypto {
    key: RustCryptoKey,
    gmac: bool,
}
impl Subject for RustCrypto {
    fn run(&mut self, buf: &mut [u8]) {
        #[allow(deprecated)]
        use aes_gcm::aead::AeadInPlace;
        let n = aes_gcm::Nonce::from([7u8; 12]);
        let (aad, data): (&[u8], &mut [u8]) = if self.gmac {
            (&*buf, &mut [])
        } else {
            (&[], buf)
        };
        // The GMAC case needs the AAD and an empty buffer at once.
        let aad_copy;
        let aad = if self.gmac {
            aad_copy = aad.to_vec();
            &aad_copy[..]
        } else {
            aad
        };
        #[allow(deprecated)]
        let t = match &self.key {
            RustCryptoKey::A128(k) => k.encrypt_in_place_detached(&n, aad, data).unwrap(),
            RustCryptoKey::A256(k) => k.encrypt_in_place_detached(&n, aad, data).unwrap(),
        };
        black_box(t);
    }
}

/// The sealed message (ciphertext, then the 16-byte tag) an opening
/// subject copies in before each open, made by galois's reference backend
/// for `n` bytes of 0x11 (every implementation opens the same bytes).
fn sealed_for(key: &[u8], n: usize) -> Vec<u8> {
    let opts = galois_aead::Options::new().backend(galois_aead::GhashBackend::Bitserial);
    let gcm = galois_aead::AesGcm::with_options(key, opts).unwrap();
    gcm.seal(&[7u8; 12], &[], &vec![0x11u8; n]).unwrap()
}

/// Opens a buffer holding a sealed message (ciphertext, then the tag) in
/// place.
type OpenFn = Box<dyn FnMut(&mut [u8])>;

/// An implementation of `Prim::Aes128Open`. The sealed copy and the buffer
/// opened sit in one allocation, both 64-byte aligned and 2 KiB apart
/// modulo 4 KiB, so that no implementation's row depends on where the
/// allocator put two buffers (the copy's loads and stores 4 KiB-aliased
/// in some layouts: rows moved by 30% between builds).
struct Opener {
    key: Vec<u8>,
    mem: Vec<u8>,
    /// Sealed message length (text and tag) the buffers are laid out for.
    len: usize,
    sealed_at: usize,
    scratch_at: usize,
    open: OpenFn,
}
impl Subject for Opener {
    fn run(&mut self, buf: &mut [u8]) {
        let len = buf.len() + 16;
        if self.len != len {
            let span = len.next_multiple_of(4096) + 2048;
            self.mem = vec![0u8; span + len + 64];
            self.sealed_at = self.mem.as_ptr().align_offset(64);
            self.scratch_at = self.sealed_at + span;
            let sealed = sealed_for(&self.key, buf.len());
            self.mem[self.sealed_at..self.sealed_at + len].copy_from_slice(&sealed);
            self.len = len;
        }
        let (a, b) = self.mem.split_at_mut(self.scratch_at);
        let scratch = &mut b[..len];
        scratch.copy_from_slice(&a[self.sealed_at..self.sealed_at + len]);
        (self.open)(scratch);
        black_box(scratch);
    }
}

/// (impl, kernel, subject) for the openers: galois's automatic choice,
/// aws-lc-rs and ring.
fn openers(key: &[u8]) -> Vec<(&'static str, String, Box<dyn Subject>)> {
    let opener = |open: OpenFn| -> Box<dyn Subject> {
        Box::new(Opener {
            key: key.to_vec(),
            mem: Vec::new(),
            len: 0,
            sealed_at: 0,
            scratch_at: 0,
            open,
        })
    };
    let g = galois_aead::AesGcm::new(key).unwrap();
    let kernel = format!("auto={}", g.backend());
    let galois = opener(Box::new(move |b: &mut [u8]| {
        let (c, t) = b.split_at_mut(b.len() - 16);
        g.open_in_place_detached(&[7u8; 12], &[], c, t).unwrap();
    }));
    let a = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::AES_128_GCM, key).unwrap(),
    );
    let aws = opener(Box::new(move |b: &mut [u8]| {
        let n = aws_lc_rs::aead::Nonce::assume_unique_for_key([7u8; 12]);
        a.open_in_place(n, aws_lc_rs::aead::Aad::empty(), b)
            .unwrap();
    }));
    let r = ring::aead::LessSafeKey::new(
        ring::aead::UnboundKey::new(&ring::aead::AES_128_GCM, key).unwrap(),
    );
    let ring = opener(Box::new(move |b: &mut [u8]| {
        let n = ring::aead::Nonce::assume_unique_for_key([7u8; 12]);
        r.open_in_place(n, ring::aead::Aad::empty(), b).unwrap();
    }));
    vec![
        ("galois", kernel, galois),
        ("aws-lc-rs", "LessSafeKey".into(), aws),
        ("ring", "LessSafeKey".into(), ring),
    ]
}

/// (impl, kernel, subject) for every implementation of `p`.
fn subjects(p: Prim) -> Vec<(&'static str, String, Box<dyn Subject>)> {
    let key = vec![0x42u8; p.key_len()];
    if p == Prim::Aes128Open {
        return openers(&key);
    }
    let gmac = p == Prim::Gmac128;
    let mut v: Vec<(&'static str, String, Box<dyn Subject>)> = Vec::new();
    let auto = galois_aead::AesGcm::new(&key).unwrap();
    v.push((
        "galois",
        format!("auto={}", auto.backend()),
        Box::new(Galois { gcm: auto, gmac }),
    ));
    // Every constant-time backend this CPU has (the GHASH table's), but
    // the bit-serial reference.
    for b in galois_aead::GhashBackend::available() {
        if b.is_constant_time() && b != galois_aead::GhashBackend::Bitserial {
            let gcm =
                galois_aead::AesGcm::with_options(&key, galois_aead::Options::new().backend(b))
                    .unwrap();
            v.push((
                "galois",
                b.name().to_string(),
                Box::new(Galois { gcm, gmac }),
            ));
        }
    }
    if !gmac {
        let gcm = galois_aead::AesGcm::new(&key).unwrap();
        v.push((
            "galois",
            format!("batch{BATCH}"),
            Box::new(GaloisBatch {
                gcm,
                bufs: vec![Vec::new(); BATCH],
            }),
        ));
    }
    let cipher = match p.key_len() {
        16 => openssl::cipher::Cipher::aes_128_gcm(),
        _ => openssl::cipher::Cipher::aes_256_gcm(),
    };
    let mut ctx = openssl::cipher_ctx::CipherCtx::new().unwrap();
    ctx.encrypt_init(Some(cipher), Some(&key), Some(&[7u8; 12]))
        .unwrap();
    v.push((
        "openssl",
        "EVP".into(),
        Box::new(OpenSsl {
            ctx,
            gmac,
            out: Vec::new(),
        }),
    ));
    v.push((
        "aws-lc-rs",
        "LessSafeKey".into(),
        Box::new(AwsLc::new(&key, gmac)),
    ));
    v.push((
        "ring",
        "LessSafeKey".into(),
        Box::new(Ring::new(&key, gmac)),
    ));
    use aes_gcm::KeyInit;
    let k = if p.key_len() == 16 {
        RustCryptoKey::A128(aes_gcm::Aes128Gcm::new_from_slice(&key).unwrap())
    } else {
        RustCryptoKey::A256(aes_gcm::Aes256Gcm::new_from_slice(&key).unwrap())
    };
    v.push((
        "rustcrypto",
        "aes-gcm".into(),
        Box::new(RustCrypto { key: k, gmac }),
    ));
    v
}

/// `count`'s AES-GCM seal subject: `imp` (galois's automatic backend,
/// openssl, aws-lc-rs or ring) for AES-128-GCM (`key_len` 16) or
/// AES-256-GCM (32), with its label; `None` for any other name.
pub(crate) fn count_subject(key_len: usize, imp: &str) -> Option<(String, crate::siv::Subject)> {
    let p = if key_len == 16 {
        Prim::Aes128
    } else {
        Prim::Aes256
    };
    let (i, k, mut s) = subjects(p)
        .into_iter()
        .find(|(i, k, _)| *i == imp && (imp != "galois" || k.starts_with("auto=")))?;
    Some((format!("{i}/{k}"), Box::new(move |b: &mut [u8]| s.run(b))))
}

struct Row {
    imp: &'static str,
    kernel: String,
    prim: Prim,
    size: usize,
    ns: f64,
}

impl Row {
    fn gbps(&self) -> f64 {
        self.size as f64 / self.ns
    }
}

pub fn run(a: Args) {
    let (rounds, target) = short_samples(a.quick);
    let sizes: Vec<usize> = a.sizes.clone().unwrap_or_else(|| SIZES.to_vec());
    let tsc = tsc_per_ns();
    let mut rows: Vec<Row> = Vec::new();
    for prim in PRIMS {
        let mut subs = subjects(prim);
        for &size in &sizes {
            let mut buf = vec![0x11u8; size];
            let iters: Vec<u64> = subs
                .iter_mut()
                .map(|(_, _, s)| calibrate(&mut || s.run(&mut buf), target))
                .collect();
            let mut samples: Vec<Vec<f64>> = vec![Vec::new(); subs.len()];
            for _ in 0..rounds {
                for (i, (_, _, s)) in subs.iter_mut().enumerate() {
                    samples[i].push(sample(&mut || s.run(&mut buf), iters[i]));
                }
            }
            for (i, (imp, kernel, s)) in subs.iter().enumerate() {
                let ns = median(&mut samples[i]) / s.packets() as f64;
                rows.push(Row {
                    imp,
                    kernel: kernel.clone(),
                    prim,
                    size,
                    ns,
                });
            }
        }
    }
    let ipi = ipi_table(&rows);
    if a.json {
        print_json(&rows, &ipi);
    } else {
        print_table(&rows, &ipi, tsc, rounds);
    }
    if let Some(p) = a.plot {
        std::fs::write(&p, svg(&rows)).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    }
}

fn label(r: &Row) -> String {
    if r.imp == "galois" {
        format!("galois/{}", r.kernel)
    } else {
        r.imp.to_string()
    }
}

/// IPI per implementation label, for AES-128-GCM, where all four sizes ran.
fn ipi_table(rows: &[Row]) -> Vec<(String, &'static str, f64)> {
    let mut out = Vec::new();
    let mut labels: Vec<(String, &'static str)> = Vec::new();
    for r in rows.iter().filter(|r| r.prim == Prim::Aes128) {
        if !labels.iter().any(|(l, _)| *l == label(r)) {
            labels.push((label(r), r.imp));
        }
    }
    for (l, imp) in labels {
        let mut inv = 0.0;
        let mut ok = true;
        for &(s, f) in IPI {
            match rows
                .iter()
                .find(|r| r.prim == Prim::Aes128 && r.size == s && label(r) == l)
            {
                Some(r) => inv += f / r.gbps(),
                None => ok = false,
            }
        }
        if ok {
            out.push((l, imp, 1.0 / inv));
        }
    }
    out
}

fn best_peer(rows: &[Row], prim: Prim, size: usize) -> Option<(&Row, f64)> {
    rows.iter()
        .filter(|r| r.prim == prim && r.size == size && r.imp != "galois")
        .map(|r| (r, r.gbps()))
        .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap())
}

fn print_table(rows: &[Row], ipi: &[(String, &'static str, f64)], tsc: f64, rounds: usize) {
    println!("galois-bench gcm: medians of {rounds} round-robin samples per cell; cycles are TSC cycles ({tsc:.3} per ns)");
    println!("ratio = GB/s / best peer's GB/s at that size (peers: openssl, aws-lc-rs, ring, rustcrypto)");
    println!("aes-128-gcm-open: each call copies the sealed message in and opens it in place");
    for prim in PRIMS {
        let mut sizes: Vec<usize> = rows
            .iter()
            .filter(|r| r.prim == prim)
            .map(|r| r.size)
            .collect();
        sizes.dedup();
        println!("\n{}", prim.name());
        println!(
            "{:>6} {:<26} {:>9} {:>10} {:>9} {:>7}",
            "size", "implementation", "GB/s", "ns/call", "c/byte", "ratio"
        );
        for s in sizes {
            let best = best_peer(rows, prim, s).map(|b| b.1).unwrap_or(f64::NAN);
            for r in rows.iter().filter(|r| r.prim == prim && r.size == s) {
                println!(
                    "{:>6} {:<26} {:>9.3} {:>10.1} {:>9.3} {:>7.2}",
                    s,
                    label(r),
                    r.gbps(),
                    r.ns,
                    r.ns * tsc / s as f64,
                    r.gbps() / best
                );
            }
        }
    }
    if !ipi.is_empty() {
        let best = ipi
            .iter()
            .filter(|(_, imp, _)| *imp != "galois")
            .map(|x| x.2)
            .fold(f64::NAN, f64::max);
        println!("\nIPI (AES-128-GCM; f(1500)=0.6, f(576)=0.2, f(552)=0.15, f(44)=0.05)");
        for (l, _, g) in ipi {
            println!("{:<26} {:>9.3} GB/s  ratio {:.2}", l, g, g / best);
        }
    }
}

fn print_json(rows: &[Row], ipi: &[(String, &'static str, f64)]) {
    let results: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({"impl": r.imp, "kernel": r.kernel, "primitive": r.prim.name(),
                "size": r.size, "gbps": r.gbps(), "ns_per_call": r.ns})
        })
        .collect();
    let mut ipi_obj = serde_json::Map::new();
    for (l, imp, g) in ipi {
        // `ipi` maps impl name to GB/s: galois's auto-selected build under
        // "galois", each kernel under "galois/<kernel>".
        let key = if *imp == "galois" && l.starts_with("galois/auto") {
            "galois".to_string()
        } else {
            l.clone()
        };
        ipi_obj.insert(key, serde_json::json!(g));
    }
    println!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({"results": results, "ipi": ipi_obj}))
            .unwrap()
    );
}

/// Throughput against packet size (log scale), one line per implementation.
fn svg(rows: &[Row]) -> String {
    let mut series: Vec<galois_cli::plot::Series> = Vec::new();
    for r in rows.iter().filter(|r| r.prim == Prim::Aes128) {
        let l = label(r);
        match series.iter_mut().find(|s| s.label == l) {
            Some(s) => s.points.push((r.size, r.gbps())),
            None => series.push(galois_cli::plot::Series {
                label: l,
                points: vec![(r.size, r.gbps())],
            }),
        }
    }
    galois_cli::plot::svg("AES-128-GCM seal throughput by packet size", &series)
}
