//! Nonce responsibility (paper section 3): the in-memory sequence, the
//! file-backed store, and the crash test: a process handing out nonces is
//! killed with SIGKILL at random moments 100 times and restarted each time;
//! no nonce may ever be issued twice.
//!
//! The child is this same test binary, re-executed with `--ignored --exact
//! crash_child` and an environment variable naming the store. It prints each
//! nonce (flushed, one `write` per line) before it would use it, so every
//! nonce that could have reached the wire is in the parent's log.

use galois_aead::poly1305::nonce::{KeyId, NonceSequence, NonceStore};
use galois_aead::Error;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ENV_STORE: &str = "GALOIS_NONCE_CHILD_STORE";
const ENV_MODE: &str = "GALOIS_NONCE_CHILD_MODE";
/// The key identifier of every store in these tests but the wrong-key one.
const ID: KeyId = KeyId::from_bytes(*b"key id for tests");

fn scratch(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("nonce-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn sequence_is_strictly_increasing_and_refuses_to_wrap() {
    let mut s = NonceSequence::new();
    let mut prev = None;
    for _ in 0..1000 {
        let n = u128::from_le_bytes(s.next_nonce().unwrap());
        if let Some(p) = prev {
            assert_eq!(n, p + 1);
        }
        prev = Some(n);
    }
    let mut s = NonceSequence::starting_at(u128::MAX - 2);
    assert_eq!(s.next_nonce().unwrap(), (u128::MAX - 2).to_le_bytes());
    assert_eq!(s.next_nonce().unwrap(), (u128::MAX - 1).to_le_bytes());
    assert_eq!(s.next_nonce().unwrap(), u128::MAX.to_le_bytes());
    for _ in 0..3 {
        assert!(matches!(s.next_nonce(), Err(Error::LimitReached { .. })));
    }
    assert_eq!(s.peek(), None);
}

#[test]
fn store_reopens_above_every_issued_nonce() {
    let d = scratch("reopen");
    let path = d.join("store");
    let mut issued = Vec::new();
    {
        let mut st = NonceStore::create(&path, ID, 10).unwrap();
        for _ in 0..25 {
            issued.push(u128::from_le_bytes(st.next_nonce().unwrap()));
        }
    }
    assert!(
        NonceStore::create(&path, ID, 10).is_err(),
        "create over an existing store"
    );
    // Dropped without any shutdown step, as after a crash: the reopened
    // store starts at the reserved end (30), above all 25 issued nonces.
    let mut st = NonceStore::open(&path, ID, 10).unwrap();
    let n = u128::from_le_bytes(st.next_nonce().unwrap());
    assert_eq!(n, 30);
    assert!(issued.iter().all(|&i| i < n));
    assert_eq!(issued, (0..25).collect::<Vec<u128>>());
    drop(st);
    // A block size of 1 persists before every nonce.
    let mut st = NonceStore::open(&path, ID, 1).unwrap();
    let a = u128::from_le_bytes(st.next_nonce().unwrap());
    assert_eq!(a, 40);
    drop(st);
    let mut st = NonceStore::open(&path, ID, 1).unwrap();
    assert_eq!(u128::from_le_bytes(st.next_nonce().unwrap()), 41);
    drop(st);
    let e = NonceStore::open(&path, ID, 0).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
}

/// A dropped store reopens even while another thread spawns processes: each
/// child holds a copy of the lock's descriptor between fork and exec, which
/// once made the reopen fail with WouldBlock (seen in CI).
#[test]
fn store_reopens_while_another_thread_spawns_children() {
    let d = scratch("spawn");
    let path = d.join("store");
    drop(NonceStore::create(&path, ID, 1).unwrap());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spawner = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = Command::new("true").status();
            }
        })
    };
    let mut last = None;
    for _ in 0..300 {
        let mut st = NonceStore::open(&path, ID, 1).unwrap();
        let n = u128::from_le_bytes(st.next_nonce().unwrap());
        assert!(last.is_none_or(|l| n > l));
        last = Some(n);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spawner.join().unwrap();
}

#[test]
fn store_refuses_a_second_live_handle() {
    let d = scratch("lock");
    let path = d.join("store");
    let mut a = NonceStore::create(&path, ID, 8).unwrap();
    let first = u128::from_le_bytes(a.next_nonce().unwrap());
    let e = NonceStore::open(&path, ID, 8).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock, "{e}");
    assert!(NonceStore::open_or_create(&path, ID, 8).is_err());
    drop(a);
    let mut b = NonceStore::open(&path, ID, 8).unwrap();
    assert!(u128::from_le_bytes(b.next_nonce().unwrap()) > first);
}

/// A store file as the format describes it: a header line with the key
/// id, then two slots `slot <generation> <safe> <FNV-1a 64 of the rest>` at
/// bytes 512 and 1024. Written independently of the library, so a format
/// change shows up here.
fn store_file(id: &KeyId, slots: [(u64, u128); 2]) -> Vec<u8> {
    let hex: String = id.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let mut f = format!("galois-nonce-store-v2 key-id {hex}\n").into_bytes();
    for (at, (generation, safe)) in [512, 1024].into_iter().zip(slots) {
        f.resize(at, b'\n');
        let body = format!("slot {generation:016x} {safe:032x} ");
        let sum = body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        });
        f.extend_from_slice(format!("{body}{sum:016x}\n").as_bytes());
    }
    f
}

#[test]
fn store_refuses_a_damaged_file_and_exhaustion() {
    let d = scratch("damaged");
    let path = d.join("store");
    std::fs::write(&path, "garbage\n").unwrap();
    assert!(NonceStore::open(&path, ID, 4).is_err());
    // The old format records no key: refused, never guessed.
    std::fs::write(
        &path,
        format!("galois-poly1305-nonce-store-v1 {:032x}\n", 12),
    )
    .unwrap();
    let e = NonceStore::open(&path, ID, 4).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    assert!(e.to_string().contains("version-1"), "{e}");
    assert!(NonceStore::open(d.join("missing"), ID, 4).is_err());
    // A file cut short or grown is refused.
    let good = store_file(&ID, [(4, 100), (5, 200)]);
    for bad in [&good[..good.len() - 1], &[&good[..], b"x"].concat()[..]] {
        std::fs::write(&path, bad).unwrap();
        assert!(NonceStore::open(&path, ID, 4).is_err());
    }
    // Near the top of the nonce space the store stops instead of wrapping.
    std::fs::write(&path, store_file(&ID, [(2, u128::MAX - 2), (1, 5)])).unwrap();
    let mut st = NonceStore::open(&path, ID, 8).unwrap();
    assert_eq!(st.next_nonce().unwrap(), (u128::MAX - 2).to_le_bytes());
    assert_eq!(st.next_nonce().unwrap(), (u128::MAX - 1).to_le_bytes());
    assert!(st.next_nonce().is_err());
    assert!(st.next_nonce().is_err());
}

/// The slot with the higher generation wins; a slot torn by a crash (bad
/// checksum, bad digits) is skipped, and the other one, which holds the
/// last durable value, is used. Both damaged: refused.
#[test]
fn a_torn_slot_falls_back_to_the_other() {
    let d = scratch("torn");
    let path = d.join("store");
    let good = store_file(&ID, [(6, 600), (7, 700)]);
    std::fs::write(&path, &good).unwrap();
    let first =
        |p: &Path| u128::from_le_bytes(NonceStore::open(p, ID, 1).unwrap().next_nonce().unwrap());
    assert_eq!(first(&path), 700);
    // Generation 8 went to slot 0 and was torn: one digit of the value or
    // of the checksum changed, or the write stopped half way.
    for (at, byte) in [(512 + 30, b'f'), (512 + 60, b'0'), (512 + 5, b'z')] {
        let mut f = store_file(&ID, [(8, 800), (7, 700)]);
        f[at] = if f[at] == byte { b'1' } else { byte };
        std::fs::write(&path, &f).unwrap();
        assert_eq!(first(&path), 700, "byte {at}");
    }
    let mut half = store_file(&ID, [(8, 800), (7, 700)]);
    half[512 + 36..512 + 72].copy_from_slice(&good[512 + 36..512 + 72]);
    std::fs::write(&path, &half).unwrap();
    assert_eq!(first(&path), 700);
    // That open wrote its reservation (generation 8, 701) over the torn
    // slot: the next open counts on from there.
    assert_eq!(first(&path), 701);
    assert_eq!(
        &std::fs::read(&path).unwrap()[512..],
        &store_file(&ID, [(8, 701), (9, 702)])[512..]
    );
    let mut both = store_file(&ID, [(8, 800), (7, 700)]);
    both[512 + 30] ^= 1;
    both[1024 + 30] ^= 1;
    std::fs::write(&path, &both).unwrap();
    let e = NonceStore::open(&path, ID, 1).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData, "{e}");
}

/// A store records its key's identifier and refuses to count for another
/// key (issue 12, item 10).
#[test]
fn a_store_refuses_another_key() {
    let d = scratch("keyid");
    let path = d.join("store");
    let other = KeyId::from_bytes(*b"some other key!!");
    let mut st = NonceStore::create(&path, ID, 4).unwrap();
    assert_eq!(st.key_id(), ID);
    st.next_nonce().unwrap();
    drop(st);
    let e = NonceStore::open(&path, other, 4).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    assert!(e.to_string().contains("another key"), "{e}");
    assert!(NonceStore::open_or_create(&path, other, 4).is_err());
    // The file is untouched by the refusals: the right key continues.
    let mut st = NonceStore::open(&path, ID, 4).unwrap();
    assert_eq!(u128::from_le_bytes(st.next_nonce().unwrap()), 4);
    // The file matches the documented format byte for byte.
    drop(st);
    let text = std::fs::read(&path).unwrap();
    assert!(
        text == store_file(&ID, [(2, 8), (1, 4)]),
        "{}",
        String::from_utf8_lossy(&text)
    );
}

/// The child: hands out nonces until killed. Not a test on its own.
#[test]
#[ignore = "child process of the crash tests; run by them"]
fn crash_child() {
    let Ok(path) = std::env::var(ENV_STORE) else {
        return;
    };
    let mode = std::env::var(ENV_MODE).unwrap_or_default();
    let out = std::io::stdout();
    let mut out = out.lock();
    out.write_all(b"\n").unwrap();
    let mut emit = |n: u128| {
        // One write per line, flushed before the nonce is "used".
        out.write_all(format!("NONCE {n:032x}\n").as_bytes())
            .unwrap();
        out.flush().unwrap();
    };
    match mode.as_str() {
        "store" => {
            let mut st = NonceStore::open_or_create(&path, ID, 4).unwrap();
            for _ in 0..1_000_000 {
                let n = u128::from_le_bytes(st.next_nonce().unwrap());
                emit(n);
            }
        }
        // The mistake the paper warns about: using a nonce first and
        // saving the counter afterwards.
        "write-behind" => {
            let mut next: u128 = std::fs::read_to_string(&path)
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            for _ in 0..1_000_000 {
                emit(next);
                next += 1;
                let tmp = format!("{path}.tmp");
                std::fs::write(&tmp, format!("{next}\n")).unwrap();
                std::fs::File::open(&tmp).unwrap().sync_all().unwrap();
                std::fs::rename(&tmp, &path).unwrap();
            }
        }
        other => panic!("unknown mode {other:?}"),
    }
}

struct CrashReport {
    runs_with_output: usize,
    total: usize,
    duplicates: usize,
    out_of_order_runs: usize,
}

/// Runs the child `runs` times, killing it after a random delay each time.
fn crash_runs(mode: &str, runs: usize, seed: u64) -> CrashReport {
    let d = scratch(mode);
    let store = d.join("store");
    let exe = std::env::current_exe().unwrap();
    let mut seen = HashSet::new();
    let mut rng = seed;
    let mut rnd = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut report = CrashReport {
        runs_with_output: 0,
        total: 0,
        duplicates: 0,
        out_of_order_runs: 0,
    };
    let mut highest_before: Option<u128> = None;
    for i in 0..runs {
        let mut child = Command::new(&exe)
            .args([
                "--ignored",
                "--exact",
                "crash_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(ENV_STORE, &store)
            .env(ENV_MODE, mode)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (started, first_nonce) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            // Reads raw bytes (a line cut by the kill must not fail the
            // read) and says when the first nonce line has arrived.
            let mut text = Vec::new();
            let mut buf = [0u8; 4096];
            let mut r = BufReader::new(stdout);
            let mut told = false;
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => text.extend_from_slice(&buf[..n]),
                }
                if !told && text.windows(6).any(|w| w == b"NONCE ") {
                    let _ = started.send(());
                    told = true;
                }
            }
            String::from_utf8_lossy(&text).into_owned()
        });
        // Random moments. Even runs: 2 to 40 ms after the start, so some
        // kills land during start-up, before any nonce. Odd runs: 0 to 20 ms
        // after the first nonce, so on a slow machine too most kills land
        // while nonces are being handed out and blocks reserved.
        if i % 2 == 0 {
            std::thread::sleep(Duration::from_micros(2_000 + rnd() % 38_000));
        } else {
            let _ = first_nonce.recv_timeout(Duration::from_secs(10));
            std::thread::sleep(Duration::from_micros(rnd() % 20_000));
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let text = reader.join().unwrap();
        let mut run = Vec::new();
        for line in text.as_bytes().lines() {
            let line = line.unwrap();
            // libtest writes "test crash_child ... " without a newline
            // before the child's first line: look for the marker anywhere.
            if let Some(h) = line.find("NONCE ").map(|i| &line[i + 6..]) {
                // A line cut by the kill was never "used"; count it anyway
                // if it parses (it cannot, with one write per line).
                if let Ok(v) = u128::from_str_radix(h, 16) {
                    run.push(v);
                }
            }
        }
        if std::env::var("NONCE_DEBUG").is_ok() {
            eprintln!(
                "{mode}: run {:?} .. {:?} ({})",
                run.first(),
                run.last(),
                run.len()
            );
        }
        if !run.is_empty() {
            report.runs_with_output += 1;
        }
        let increasing = run.windows(2).all(|w| w[0] < w[1])
            && match (highest_before, run.first()) {
                (Some(h), Some(&f)) => f > h,
                _ => true,
            };
        if !increasing {
            report.out_of_order_runs += 1;
        }
        for &v in &run {
            report.total += 1;
            if !seen.insert(v) {
                report.duplicates += 1;
            }
            highest_before = Some(highest_before.map_or(v, |h| h.max(v)));
        }
    }
    let _ = std::fs::remove_dir_all(&d);
    report
}

#[test]
fn nonce_store_survives_100_sigkills_without_reuse() {
    let t = Instant::now();
    let r = crash_runs("store", 100, 0x2545_f491_4f6c_dd1d);
    eprintln!(
        "store: {} nonces over 100 killed runs ({} issued some), {} duplicates, {:.1} s",
        r.total,
        r.runs_with_output,
        r.duplicates,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(r.duplicates, 0, "a nonce was issued twice");
    assert_eq!(
        r.out_of_order_runs, 0,
        "nonces went backwards across a restart"
    );
    // The test only means something if the kills hit running children.
    assert!(
        r.runs_with_output >= 50,
        "only {} runs issued nonces",
        r.runs_with_output
    );
    assert!(r.total >= 1000, "only {} nonces issued", r.total);
}

/// The detector works: the same harness catches a store that saves its
/// counter after using a nonce.
#[test]
fn crash_harness_catches_a_write_behind_counter() {
    let r = crash_runs("write-behind", 100, 0x9e37_79b9_7f4a_7c15);
    eprintln!(
        "write-behind: {} nonces, {} duplicates",
        r.total, r.duplicates
    );
    assert!(r.runs_with_output >= 50);
    assert!(
        r.duplicates > 0,
        "the write-behind counter was never caught reusing a nonce"
    );
}

/// A symlink and a hard link to a store name the same store: while one
/// handle is open, opening it through either link is refused.
#[test]
fn links_to_a_store_contend_for_one_lock() {
    let d = scratch("links");
    let path = d.join("store");
    let (sym, hard) = (d.join("sym"), d.join("hard"));
    let a = NonceStore::create(&path, ID, 4).unwrap();
    std::os::unix::fs::symlink(&path, &sym).unwrap();
    std::fs::hard_link(&path, &hard).unwrap();
    let all_locked = |paths: &[&std::path::PathBuf]| {
        for p in paths {
            let e = NonceStore::open(p, ID, 4).unwrap_err();
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::WouldBlock,
                "{}: {e}",
                p.display()
            );
        }
    };
    all_locked(&[&path, &sym, &hard]);
    drop(a);
    let b = NonceStore::open(&sym, ID, 4).unwrap();
    all_locked(&[&path, &hard]);
    drop(b);
}

/// A hard link made before the store hands out nonces stays the same
/// store: reopened through it, the store continues above every nonce
/// issued through the other name (a store rewritten by rename leaves the
/// link holding the old value).
#[test]
fn a_hard_link_never_goes_stale() {
    let d = scratch("hardlink");
    let path = d.join("store");
    let hard = d.join("hard");
    drop(NonceStore::create(&path, ID, 2).unwrap());
    std::fs::hard_link(&path, &hard).unwrap();
    let mut issued = Vec::new();
    let mut st = NonceStore::open(&path, ID, 2).unwrap();
    for _ in 0..7 {
        issued.push(u128::from_le_bytes(st.next_nonce().unwrap()));
    }
    drop(st);
    let mut st = NonceStore::open(&hard, ID, 2).unwrap();
    let n = u128::from_le_bytes(st.next_nonce().unwrap());
    assert!(
        issued.iter().all(|&i| i < n),
        "{n} reissued from {issued:?}"
    );
}

/// Links planted where a store writes (the old fixed temp name, and
/// anything next to the store) are never followed: the victim file is
/// untouched while the store is created and reserves blocks.
#[test]
fn the_store_never_writes_through_a_planted_link() {
    let d = scratch("planted");
    let path = d.join("store");
    let victim = d.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    for name in ["store.tmp", "store.lock", ".store.tmp"] {
        std::os::unix::fs::symlink(&victim, d.join(name)).unwrap();
    }
    match NonceStore::create(&path, ID, 1) {
        Ok(mut st) => {
            for _ in 0..5 {
                st.next_nonce().unwrap();
            }
        }
        Err(e) => panic!("create refused: {e}"),
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    // The store itself was not created as or through a link.
    assert!(!std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_symlink());
}
