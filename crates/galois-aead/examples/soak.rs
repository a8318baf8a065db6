//! Soak test: many packets through the packet sealer and opener, and a long
//! stream through the segmented stream format, checking every byte and
//! sampling resident memory as it goes. Run by `scripts/soak.sh`.
//!
//! ```text
//! cargo run --release -p galois-aead --example soak -- [--packets N] [--stream-bytes N[K|M|G]]
//!     [--segment N] [--rss-slack-mib N] [--gcm-limit]
//! ```
//!
//! Packets: sizes from an Internet-like mix (44, 552, 576 and 1500 bytes,
//! plus small ones of 0 to 40 bytes), sealed in batches of 32 and opened in
//! a shuffled order inside the anti-replay window; in every batch one packet
//! is replayed (must be refused as a replay) and in every 64th batch one is
//! tampered with (must fail authentication without moving the window).
//!
//! Stream: a pseudo-random source is sealed by one thread into an OS pipe
//! and opened from the pipe by another; both sides keep a checksum of the
//! plaintext and a byte count, which must agree at the end.
//!
//! GCM limit (`--gcm-limit`): 2^36 - 32 bytes (64 GiB) through the on-line
//! encryptor; the last allowed byte is accepted, one more is refused with
//! `MessageTooLong` before any work.
//!
//! Resident memory (VmRSS of /proc/self/status) is sampled throughout; each
//! phase reports its first sample (after warm-up), maximum and last. The
//! run fails if any check fails or if the resident memory of a phase grows
//! by more than `--rss-slack-mib` (default 64) over its first sample.

use galois_aead::packet::{PacketOpener, PacketSealer, Role, Start};
use galois_aead::stream::{open_stream, seal_stream};
use galois_aead::Error;
use std::io::{Read, Write};
use std::time::Instant;

const KEY: [u8; 32] = [0x5a; 32];
const SALT: [u8; 4] = *b"soak";
const HDR: &[u8; 8] = b"SPI-0001";
const BATCH: usize = 32;

/// Resident memory in bytes (0 where /proc is missing).
fn rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .unwrap_or(0)
}

/// First (after warm-up), largest and last resident memory of a phase.
#[derive(Default)]
struct Rss {
    first: u64,
    max: u64,
    last: u64,
    samples: u64,
}

impl Rss {
    fn sample(&mut self) {
        let r = rss();
        if self.samples == 0 {
            self.first = r;
        }
        self.max = self.max.max(r);
        self.last = r;
        self.samples += 1;
    }

    fn growth(&self) -> u64 {
        self.max.saturating_sub(self.first)
    }

    fn report(&self, what: &str) {
        println!(
            "{what} rss: start {:.1} MiB, max {:.1} MiB, end {:.1} MiB ({} samples, growth {:.1} MiB)",
            mib(self.first),
            mib(self.max),
            mib(self.last),
            self.samples,
            mib(self.growth())
        );
    }
}

fn mib(b: u64) -> f64 {
    b as f64 / (1u64 << 20) as f64
}

/// splitmix64: the pseudo-random source of sizes, orders and bytes.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The payload length of packet `seq`: 7/16 are 44 bytes, 3/16 552, 1/16
/// 576, 2/16 1500 and 3/16 between 0 and 40 bytes.
fn packet_len(seq: u64) -> usize {
    let r = mix(seq);
    match r % 16 {
        0..=6 => 44,
        7..=9 => 552,
        10 => 576,
        11 | 12 => 1500,
        _ => ((r >> 8) % 41) as usize,
    }
}

#[derive(Default)]
struct PacketStats {
    packets: u64,
    payload_bytes: u64,
    wire_bytes: u64,
    replays_refused: u64,
    forgeries_refused: u64,
}

fn soak_packets(n: u64, slack: u64) -> Result<(), String> {
    let src: Vec<u8> = (0..8192u64).map(|i| mix(i ^ 0xabcd) as u8).collect();
    let mut sealer =
        PacketSealer::new(&KEY, SALT, Role::Initiator, Start::NewKey).map_err(|e| e.to_string())?;
    let mut opener =
        PacketOpener::new(&KEY, SALT, Role::Responder, HDR.len()).map_err(|e| e.to_string())?;
    let mut st = PacketStats::default();
    println!("packets: rss before {:.1} MiB", mib(rss()));
    let mut mem = Rss::default();
    let sample_every = (n / 200).max(BATCH as u64 * 64);
    let warmup = (n / 100).min(1 << 20);
    let start = Instant::now();
    let mut batch: Vec<Vec<u8>> = Vec::with_capacity(BATCH);
    let mut order = [0usize; BATCH];
    let mut b = 0u64;
    let mut next_sample = warmup;
    while st.packets < n {
        let k = ((n - st.packets) as usize).min(BATCH);
        batch.clear();
        for _ in 0..k {
            let seq = sealer.next_sequence().ok_or("sequence numbers exhausted")?;
            let len = packet_len(seq);
            let off = (seq % 4096) as usize;
            let p = sealer
                .seal(HDR, &src[off..off + len])
                .map_err(|e| format!("seal {seq}: {e}"))?;
            st.payload_bytes += len as u64;
            st.wire_bytes += p.len() as u64;
            batch.push(p);
        }
        // Open in a shuffled order (all inside the 64-packet window).
        for (i, o) in order.iter_mut().enumerate().take(k) {
            *o = i;
        }
        for i in (1..k).rev() {
            let j = (mix(b ^ ((i as u64) << 40)) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for &i in &order[..k] {
            let p = &batch[i];
            let got = opener
                .open(p)
                .map_err(|e| format!("open of packet {i} in batch {b}: {e}"))?;
            let seq = u64::from_be_bytes(p[8..16].try_into().unwrap());
            let (len, off) = (packet_len(seq), (seq % 4096) as usize);
            if got.seq != seq || got.header != HDR || got.payload != src[off..off + len] {
                return Err(format!("packet {seq}: round trip differs"));
            }
        }
        st.packets += k as u64;
        // One replay per batch.
        let r = &batch[(mix(b) % k as u64) as usize];
        let seq = u64::from_be_bytes(r[8..16].try_into().unwrap());
        match opener.open(r) {
            Err(Error::Replay { seq: s }) if s == seq => st.replays_refused += 1,
            other => return Err(format!("replay of {seq}: {other:?}")),
        }
        // One forgery every 64 batches: the next number, a flipped bit.
        if b.is_multiple_of(64) {
            let mut f = batch[k - 1].clone();
            let next = opener.highest() + 1;
            f[8..16].copy_from_slice(&next.to_be_bytes());
            let x = f.len() - 1;
            f[x] ^= 1;
            let before = opener.highest();
            match opener.open(&f) {
                Err(Error::AuthenticationFailed) if opener.highest() == before => {
                    st.forgeries_refused += 1
                }
                other => return Err(format!("forgery: {other:?}")),
            }
        }
        b += 1;
        if st.packets >= next_sample {
            mem.sample();
            next_sample += sample_every;
            if mem.samples % 20 == 0 {
                let t = start.elapsed().as_secs_f64();
                eprintln!(
                    "  packets {:>11} ({:5.1}%), {:.2} M packets/s, rss {:.1} MiB",
                    st.packets,
                    100.0 * st.packets as f64 / n as f64,
                    st.packets as f64 / t / 1e6,
                    mib(mem.last)
                );
            }
        }
    }
    mem.sample();
    let t = start.elapsed().as_secs_f64();
    println!(
        "packets: {} sealed and opened ({} payload bytes, {} on the wire), {} replays and {} forgeries refused",
        st.packets, st.payload_bytes, st.wire_bytes, st.replays_refused, st.forgeries_refused
    );
    println!(
        "packets: {:.1} s, {:.3} M packets/s (seal + open), {:.3} GB/s of payload",
        t,
        st.packets as f64 / t / 1e6,
        st.payload_bytes as f64 / t / 1e9
    );
    mem.report("packets");
    if mem.growth() > slack {
        return Err(format!(
            "packets: resident memory grew by {:.1} MiB",
            mib(mem.growth())
        ));
    }
    Ok(())
}

/// A checksum of a byte string fed in pieces of any size (the same for
/// every split): GHASH under a fixed key, and the length.
struct Sum {
    g: galois_aead::Ghash,
    len: u64,
}

impl Default for Sum {
    fn default() -> Self {
        Sum {
            g: galois_aead::Ghash::new(&[0x9e; 16]),
            len: 0,
        }
    }
}

impl Sum {
    fn update(&mut self, d: &[u8]) {
        self.len += d.len() as u64;
        self.g.update(d);
    }

    fn finish(self) -> (u128, u64) {
        (u128::from_be_bytes(self.g.finalize()), self.len)
    }
}

/// `total` pseudo-random bytes, summed as they are handed out; samples the
/// resident memory every `every` bytes.
struct Source {
    left: u64,
    pos: u64,
    sum: Sum,
    mem: Rss,
    every: u64,
    next_sample: u64,
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // Whole 8-byte words of a generator keyed by position (a short
        // word only at the very end); the checksum covers what is handed
        // out, whatever it is.
        let n = (buf.len() as u64).min(self.left) as usize;
        let n = if n >= 8 { n & !7 } else { n };
        for (i, c) in buf[..n].chunks_mut(8).enumerate() {
            let w = mix((self.pos >> 3) + i as u64).to_le_bytes();
            c.copy_from_slice(&w[..c.len()]);
        }
        self.sum.update(&buf[..n]);
        self.pos += n as u64;
        self.left -= n as u64;
        if self.pos >= self.next_sample {
            self.mem.sample();
            self.next_sample += self.every;
        }
        Ok(n)
    }
}

/// Sums what the opener writes.
struct Sink {
    sum: Sum,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.sum.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn soak_stream(total: u64, seg: usize, slack: u64) -> Result<(), String> {
    println!("stream: rss before {:.1} MiB", mib(rss()));
    let (mut rd, wr) = std::io::pipe().map_err(|e| e.to_string())?;
    let every = (total / 200).max(1 << 24);
    let start = Instant::now();
    let sealer = std::thread::spawn(move || {
        let mut src = Source {
            left: total,
            pos: 0,
            sum: Sum::default(),
            mem: Rss::default(),
            every,
            // After the warm-up: the first batches in flight on both sides.
            next_sample: (64u64 << 20).min(total / 4 + 1),
        };
        let mut w = std::io::BufWriter::with_capacity(1 << 16, wr);
        let r = seal_stream(&KEY, seg, &mut src, &mut w);
        drop(w); // closes the pipe: the opener sees the end
        (r, src)
    });
    let mut sink = Sink {
        sum: Sum::default(),
    };
    let opened = open_stream(&KEY, &mut rd, &mut sink);
    let (sealed, src) = sealer.join().map_err(|_| "the sealing thread panicked")?;
    let t = start.elapsed().as_secs_f64();
    let sealed = sealed.map_err(|e| format!("seal_stream: {e}"))?;
    let opened = opened.map_err(|e| format!("open_stream: {e}"))?;
    let mut mem = src.mem;
    mem.sample();
    let (a, b) = (src.sum.finish(), sink.sum.finish());
    let segments = total.div_ceil(seg as u64).max(1);
    println!(
        "stream: {sealed} bytes sealed, {opened} opened, {segments} segments of {seg} bytes, checksum {:032x} / {:032x}",
        a.0, b.0
    );
    println!(
        "stream: {:.1} s, {:.3} GB/s (seal and open concurrently, through a pipe)",
        t,
        total as f64 / t / 1e9
    );
    mem.report("stream");
    if sealed != total || opened != total || a != b {
        return Err("stream: the opened bytes differ from the sealed ones".into());
    }
    if mem.growth() > slack {
        return Err(format!(
            "stream: resident memory grew by {:.1} MiB",
            mib(mem.growth())
        ));
    }
    Ok(())
}

fn parse_size(s: &str) -> Result<u64, String> {
    let (num, mul) = match s.as_bytes().last() {
        Some(b'K') | Some(b'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some(b'M') | Some(b'm') => (&s[..s.len() - 1], 1 << 20),
        Some(b'G') | Some(b'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    let n: f64 = num.parse().map_err(|_| format!("bad number {s}"))?;
    Ok((n * mul as f64) as u64)
}

/// GCM's plaintext limit reached for real through the on-line encryptor.
fn gcm_limit() -> Result<(), String> {
    let max = galois_aead::gcm::MAX_PLAINTEXT_BYTES;
    let t = Instant::now();
    let g = galois_aead::AesGcm::new(&[0x41u8; 16]).map_err(|e| e.to_string())?;
    let mut e = g.encryptor(&[1; 12]).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 1 << 22];
    let mut done = 0u64;
    while done < max {
        let n = (max - done).min(buf.len() as u64) as usize;
        e.encrypt(&mut buf[..n])
            .map_err(|err| format!("refused at {done} of {max} bytes: {err}"))?;
        done += n as u64;
    }
    let over = e.encrypt(&mut [0u8; 1]);
    if over != Err(Error::MessageTooLong { len: max + 1, max }) {
        return Err(format!("byte {} past the limit gave {over:?}", max + 1));
    }
    println!(
        "gcm limit: {max} bytes accepted, one more refused, {:.1} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() {
    let mut limit = false;
    let mut packets = 1_000_000u64;
    let mut stream_bytes = 256u64 << 20;
    let mut seg = galois_aead::stream::DEFAULT_SEGMENT_SIZE;
    let mut slack = 64u64 << 20;
    let mut args = std::env::args().skip(1);
    let r = (|| -> Result<(), String> {
        while let Some(a) = args.next() {
            let mut v = || args.next().ok_or(format!("{a} needs a value"));
            match a.as_str() {
                "--packets" => packets = parse_size(&v()?)?,
                "--stream-bytes" => stream_bytes = parse_size(&v()?)?,
                "--segment" => seg = parse_size(&v()?)? as usize,
                "--rss-slack-mib" => slack = parse_size(&v()?)? << 20,
                "--gcm-limit" => limit = true,
                _ => return Err(format!("unknown argument {a}")),
            }
        }
        println!(
            "soak: {packets} packets, {stream_bytes} stream bytes, rss at start {:.1} MiB, {} cores",
            mib(rss()),
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
        let t = Instant::now();
        if packets > 0 {
            soak_packets(packets, slack)?;
        }
        if stream_bytes > 0 {
            soak_stream(stream_bytes, seg, slack)?;
        }
        if limit {
            gcm_limit()?;
        }
        println!(
            "soak: passed in {:.1} s, rss at end {:.1} MiB",
            t.elapsed().as_secs_f64(),
            mib(rss())
        );
        Ok(())
    })();
    if let Err(e) = r {
        eprintln!("soak: FAILED: {e}");
        std::process::exit(1);
    }
}
