//! The real `galois` binary against the findings of issues 12 (security),
//! 14 and 36 (a new user's rough edges): interrupted runs, replaced files,
//! checks that pass vacuously, usage errors, terminals, memory bounds; a
//! missing known-answer file (exit 3), a closed pipe (SIGPIPE, quietly),
//! `--raw-key` permissions, the progress line's rate and time left, help
//! texts that name Cobblestone, `-o` naming a pipe or device.

#![cfg(unix)]

mod common;

use common::*;
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_galois")
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Waits for `c` at most `limit`; kills it and fails if it is still running.
fn wait_within(c: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let t = Instant::now();
    loop {
        if let Some(s) = c.try_wait().unwrap() {
            return s;
        }
        if t.elapsed() > limit {
            let _ = c.kill();
            let _ = c.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The targets of the process's open file descriptors.
fn open_files(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| {
            d.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
                .map(|p| p.to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------- issue 12

/// Item 5: a signal during `open -o` / `seal -o` leaves no file at all, on
/// the unnamed-file path (O_TMPFILE) and on the named-temp fallback.
#[test]
fn interrupted_seal_and_open_leave_nothing_behind() {
    let (d, k) = dir_with_key("signal", "aes-256-gcm");
    let plain = pseudo_random(24 << 20, 5);
    let sealed_path = d.join("sealed");
    std::fs::write(d.join("plain"), &plain).unwrap();
    let o = run(&[
        OsStr::new("seal"),
        OsStr::new("--key"),
        k.as_os_str(),
        OsStr::new("-o"),
        sealed_path.as_os_str(),
        d.join("plain").as_os_str(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let sealed = std::fs::read(&sealed_path).unwrap();
    for named in [false, true] {
        for (cmd, input) in [("open", &sealed), ("seal", &plain)] {
            for sig in [libc::SIGINT, libc::SIGTERM] {
                let what = format!("{cmd}, signal {sig}, named fallback {named}");
                let out_dir = d.join(format!("out-{cmd}-{sig}-{named}"));
                std::fs::create_dir(&out_dir).unwrap();
                let mut c = galois();
                c.args([OsStr::new(cmd), OsStr::new("--key"), k.as_os_str()])
                    .arg("-o")
                    .arg(out_dir.join("result"))
                    .stdin(Stdio::piped())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped());
                if named {
                    c.env("GALOIS_TEST_NO_TMPFILE", "1");
                } else {
                    c.env_remove("GALOIS_TEST_NO_TMPFILE");
                }
                // The signal must not be inherited as ignored (a background
                // job of a non-interactive shell ignores SIGINT).
                // SAFETY: signal(2) is async-signal-safe; nothing else runs
                // between fork and exec.
                unsafe {
                    use std::os::unix::process::CommandExt;
                    c.pre_exec(move || {
                        libc::signal(sig, libc::SIG_DFL);
                        Ok(())
                    });
                }
                let mut child = c.spawn().unwrap();
                let mut sin = child.stdin.take().unwrap();
                // 12 MiB through the pipe: output is being written when the
                // signal comes; the rest of the input never arrives.
                sin.write_all(&input[..12 << 20]).unwrap();
                sin.flush().unwrap();
                std::thread::sleep(Duration::from_millis(400));
                let during = names(&out_dir);
                let fds = open_files(child.id());
                if named {
                    assert!(
                        during.len() == 1 && during[0].contains("galois-tmp"),
                        "{what}: the fallback's temp file should exist while running: {during:?}"
                    );
                } else {
                    assert!(
                        during.is_empty(),
                        "{what}: nothing may be visible: {during:?}"
                    );
                    let o = out_dir.to_string_lossy().into_owned();
                    assert!(
                        fds.iter()
                            .any(|f| f.starts_with(&format!("{o}/#")) && f.ends_with("(deleted)")),
                        "{what}: expected an unnamed (O_TMPFILE) output file: {fds:?}"
                    );
                }
                // SAFETY: kill(2) on our own child's pid with a valid signal.
                assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
                let st = wait_within(&mut child, Duration::from_secs(20), &what);
                drop(sin);
                assert_eq!(st.signal(), Some(sig), "{what}: dies of the signal");
                assert_eq!(
                    names(&out_dir),
                    Vec::<String>::new(),
                    "{what}: files left behind"
                );
            }
        }
    }
}

/// Item 6: `-o` never replaces a file without --force, and never the key
/// file of the same command line, under any spelling, even with --force.
#[test]
fn outputs_never_replace_files_silently_nor_ever_the_key() {
    let d = tmpdir("replace");
    let k = keygen(&d, "k.key", "aes-128-gcm");
    let key_text = std::fs::read(&k).unwrap();
    let plain = d.join("plain");
    std::fs::write(&plain, b"some plaintext").unwrap();
    let existing = d.join("existing");
    std::fs::write(&existing, b"precious").unwrap();
    std::fs::hard_link(&k, d.join("hardlink.key")).unwrap();
    std::os::unix::fs::symlink("k.key", d.join("symlink.key")).unwrap();
    let seal = |out: &Path, force: bool, named: bool| {
        let mut c = galois();
        c.arg("seal").arg("--key").arg(&k).arg("-o").arg(out);
        if force {
            c.arg("--force");
        }
        if named {
            c.env("GALOIS_TEST_NO_TMPFILE", "1");
        }
        c.arg(&plain).stdin(Stdio::null()).output().unwrap()
    };
    for named in [false, true] {
        // An existing file: refused (exit 3) and untouched without --force.
        let o = seal(&existing, false, named);
        assert_eq!(o.status.code(), Some(3), "{}", err(&o));
        assert!(err(&o).contains("existing: already exists"), "{}", err(&o));
        assert!(err(&o).contains("--force"), "{}", err(&o));
        assert_eq!(std::fs::read(&existing).unwrap(), b"precious");
        // With --force: replaced by the whole output, mode 0600.
        let o = seal(&existing, true, named);
        assert!(o.status.success(), "{}", err(&o));
        // The whole Cobblestone output: 56-byte header, 14 bytes, one tag.
        assert_eq!(
            std::fs::read(&existing).unwrap().len(),
            galois_aead::chunked::sealed_len(14)
        );
        assert_eq!(mode(&existing), 0o600);
        std::fs::write(&existing, b"precious").unwrap();
        // The key file: refused (exit 2) with and without --force.
        let spellings = [
            k.clone(),
            d.join(".").join("k.key"),
            d.join("hardlink.key"),
            d.join("symlink.key"),
        ];
        for out in &spellings {
            for force in [false, true] {
                let o = seal(out, force, named);
                assert_eq!(
                    o.status.code(),
                    Some(2),
                    "{out:?} force {force}: {}",
                    err(&o)
                );
                assert!(err(&o).contains("key file"), "{}", err(&o));
                assert_eq!(
                    std::fs::read(&k).unwrap(),
                    key_text,
                    "{out:?}: key destroyed"
                );
            }
        }
    }
    // `open` likewise.
    let sealed = d.join("sealed");
    assert!(seal(&sealed, false, false).status.success());
    let o = galois_run!(
        OsStr::new("open"),
        OsStr::new("--force"),
        OsStr::new("--key"),
        &k,
        "-o",
        d.join("symlink.key"),
        &sealed
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(std::fs::read(&k).unwrap(), key_text);
    assert!(!names(&d).iter().any(|n| n.contains("galois-tmp")));
}

/// Item 6: `keygen` on a full disk leaves no key file (so the next attempt
/// works). The full disk is simulated with RLIMIT_FSIZE = 0 (writes fail
/// with EFBIG after the file is created), and with /dev/full for stdout.
#[test]
fn keygen_on_a_full_disk_leaves_nothing() {
    let d = tmpdir("full");
    for named in [false, true] {
        let k = d.join(format!("k-{named}"));
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!(
                "ulimit -f 0; trap '' XFSZ; exec \"$0\" keygen -o '{}'",
                k.display()
            ))
            .arg(bin());
        if named {
            c.env("GALOIS_TEST_NO_TMPFILE", "1");
        } else {
            c.env_remove("GALOIS_TEST_NO_TMPFILE");
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(3), "{}", err(&o));
        assert!(err(&o).contains(&k.display().to_string()), "{}", err(&o));
        assert!(!err(&o).contains("galois-tmp"), "{}", err(&o));
        assert_eq!(names(&d), Vec::<String>::new(), "nothing left behind");
        let o = galois_run!("keygen", "-o", k);
        assert!(o.status.success(), "the next attempt works: {}", err(&o));
        std::fs::remove_file(&k).unwrap();
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = galois().arg("keygen").stdout(full).output().unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("No space left"), "{}", err(&o));
}

/// Item 12: an unknown backend, or a run that checks no case, is a usage
/// error, not "0 passed, 0 failed".
#[test]
fn kat_runs_that_check_nothing_fail() {
    let d = tmpdir("kat");
    let gcm =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/mcgrew_viega_gcm_spec.json");
    let o = galois_run!("kat", "--backend", "nope", gcm);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("--backend nope"), "{}", err(&o));
    // A GHASH backend pinned for a Poly1305 file does not apply: refused.
    let poly = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/poly1305aes_bernstein_appendix_b.json");
    let o = galois_run!("kat", "--backend", "bitserial", poly);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let o = galois_run!("kat", "--backend", "bitserial", gcm);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for (name, text) in [
        (
            "unknown-alg.json",
            r#"{"schema":"vectors-v1","algorithm":"ChaCha20-Poly1305","tests":[{"id":"x","result":"valid"}]}"#,
        ),
        (
            "empty.json",
            r#"{"schema":"vectors-v1","algorithm":"AES-GCM","tests":[]}"#,
        ),
    ] {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        let o = galois_run!("kat", p);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", err(&o));
        assert!(err(&o).contains("no case was checked"), "{}", err(&o));
    }
}

// ---------------------------------------------------------------- issue 14

/// Usage mistakes are usage errors (exit 2) naming the flag, found before
/// any input is read.
#[test]
fn usage_mistakes_are_usage_errors_before_any_work() {
    let (d, k) = dir_with_key("usage", "aes-256-gcm");
    let ks = k.to_str().unwrap();
    let dir = d.join("adir");
    std::fs::create_dir(&dir).unwrap();
    let dirs = dir.to_str().unwrap();
    let slash = format!("{}/new/", d.display());
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["seal", "--key", ks, "--segment-size", "0"],
            "--segment-size",
        ),
        (
            vec!["seal", "--key", ks, "--segment-size", "99999999999"],
            "--segment-size",
        ),
        (
            vec!["open", "--key", ks, "--segment-size", "4096"],
            "--segment-size",
        ),
        (
            vec!["seal", "--key", ks, "--segment-size", "4096"],
            "--segment-size",
        ),
        (vec!["seal", "--key", ks, "--raw-key", ks], "--raw-key"),
        (vec!["open", "-o", dirs], "--key"),
        (vec!["bench", "ghash", "--size", "0"], "--size"),
        (vec!["bench", "nothing"], "nothing"),
        (vec!["seal", "--key", ks, "-o", dirs], "adir"),
        (vec!["open", "--key", ks, "-o", dirs], "adir"),
        (vec!["seal", "--key", ks, "-o", &slash], "new/"),
    ];
    for (args, names_flag) in cases {
        // Standard input stays open and empty: a command that started
        // reading would hang, and be killed as a failure.
        let mut c = spawn_piped(&args, Stdio::piped());
        let _keep = c.stdin.take();
        let st = wait_within(&mut c, Duration::from_secs(10), &format!("{args:?}"));
        let o = c.wait_with_output().unwrap();
        assert_eq!(st.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains(names_flag), "{args:?}: {}", err(&o));
        assert!(o.stdout.is_empty(), "{args:?}: wrote to stdout");
    }
    assert_eq!(names(&d), ["adir", "k"]);
}

/// Messages name the user's paths, never the temporary file; a directory
/// as input is named and nothing reaches standard output.
#[test]
fn messages_name_the_users_paths() {
    let (d, k) = dir_with_key("paths", "aes-256-gcm");
    let p = d.join("plain");
    std::fs::write(&p, b"data").unwrap();
    for named in [false, true] {
        let out = d.join("nodir/x.gal");
        let mut c = galois();
        c.arg("seal")
            .arg("--key")
            .arg(&k)
            .arg("-o")
            .arg(&out)
            .arg(&p);
        if named {
            c.env("GALOIS_TEST_NO_TMPFILE", "1");
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(3), "{}", err(&o));
        assert!(err(&o).contains("nodir/x.gal"), "{}", err(&o));
        assert!(!err(&o).contains("galois-tmp"), "{}", err(&o));
    }
    for cmd in ["seal", "open", "mac"] {
        let o = galois_run!(cmd, "--key", &k, &d);
        assert_eq!(o.status.code(), Some(3), "{cmd}: {}", err(&o));
        assert!(
            err(&o).contains(&format!("{}: is a directory", d.display())),
            "{cmd}: {}",
            err(&o)
        );
        assert!(o.stdout.is_empty(), "{cmd}: wrote {} bytes", o.stdout.len());
    }
}

/// Runs `cmd` under a pseudo-terminal (util-linux `script`): standard
/// input, output and error are the terminal. Returns (exit code, what the
/// terminal showed).
fn on_terminal(cmd: &str) -> (Option<i32>, String) {
    let o = Command::new("script")
        .args(["-qec", cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` (package bsdutils) is needed for the terminal tests");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Binary output is not written to a terminal unless asked (`-o -`), and
/// a progress line is ended before an error is printed.
#[test]
fn terminals_get_no_binary_and_errors_on_their_own_line() {
    let (d, k) = dir_with_key("tty", "aes-256-gcm");
    let text = d.join("text");
    std::fs::write(&text, b"hello, terminal\n").unwrap();
    let bin_in = d.join("binary");
    std::fs::write(&bin_in, b"\x1b]0;owned\x07\x00\x01binary").unwrap();
    let g = bin();
    let (ks, ts, bs) = (k.display(), text.display(), bin_in.display());
    // The earlier stream format, whose magic shows whether bytes came out.
    let (code, shown) = on_terminal(&format!("{g} seal --format stream --key {ks} {ts}"));
    assert_eq!(code, Some(2), "{shown}");
    assert!(
        shown.contains("refusing to write binary output to a terminal"),
        "{shown}"
    );
    assert!(!shown.contains("GSTR"), "{shown}");
    let (code, shown) = on_terminal(&format!("{g} seal --format stream --key {ks} -o - {ts}"));
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains("GSTR"), "-o - insists: {shown}");
    // Opened plaintext: text is shown, control bytes are refused.
    for (input, ok) in [(&text, true), (&bin_in, false)] {
        let sealed = d.join("s.gal");
        let _ = std::fs::remove_file(&sealed);
        let o = key_io("seal", &k, &[], &sealed, input);
        assert!(o.status.success());
        let (code, shown) = on_terminal(&format!("{g} open --key {ks} {}", sealed.display()));
        if ok {
            assert_eq!(code, Some(0), "{shown}");
            assert!(shown.contains("hello, terminal"), "{shown}");
        } else {
            assert_eq!(code, Some(2), "{shown}");
            assert!(
                shown.contains("refusing to write binary data to a terminal"),
                "{shown}"
            );
            assert!(!shown.contains("owned"), "{shown}");
        }
    }
    let _ = bs;
    // A progress line (inputs over 8 MiB) ends before the error starts.
    let big = d.join("big");
    std::fs::write(&big, pseudo_random(12 << 20, 3)).unwrap();
    let sealed = d.join("big.gal");
    let o = key_io("seal", &k, &[], &sealed, &big);
    assert!(o.status.success());
    let mut bytes = std::fs::read(&sealed).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&sealed, &bytes).unwrap();
    let out = d.join("out");
    let (code, shown) = on_terminal(&format!(
        "{g} open --key {ks} -o {} {}",
        out.display(),
        sealed.display()
    ));
    assert_eq!(code, Some(1), "{shown:?}");
    assert!(shown.contains("% "), "a progress line was shown: {shown:?}");
    let at = shown.find("galois: authentication failed").expect(&shown);
    assert!(
        shown[..at].ends_with('\n'),
        "the error must start its own line: {shown:?}"
    );
    assert!(!out.exists());
}

/// Runs `cmd` (with `stdin_bytes` zero bytes written to its standard input
/// through a pipe, if any) and returns its exit status and the largest
/// VmHWM (peak resident set, KiB) seen in /proc while it ran. VmHWM
/// belongs to the address space made at exec, so it is galois's own.
fn peak_rss_kib(mut cmd: Command, stdin_bytes: usize) -> (std::process::ExitStatus, u64) {
    let mut child = cmd
        .stdin(if stdin_bytes > 0 {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let writer = child.stdin.take().map(|mut sin| {
        std::thread::spawn(move || {
            let zeros = vec![0u8; 1 << 20];
            let mut left = stdin_bytes;
            while left > 0 {
                let n = left.min(zeros.len());
                sin.write_all(&zeros[..n]).unwrap();
                left -= n;
            }
        })
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let mut samples = 0;
    let st = loop {
        if let Ok(t) = std::fs::read_to_string(&status_file) {
            if let Some(kb) = t
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kb);
                samples += 1;
            }
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    if let Some(w) = writer {
        w.join().unwrap();
    }
    assert!(samples > 0, "no sample of the running process");
    (st, peak)
}

/// `mac` and `verify` stream their input: 200 MB from a file and from a
/// pipe in a few MiB of memory.
#[test]
fn mac_and_verify_run_in_bounded_memory() {
    let d = tmpdir("rss");
    let big = d.join("big");
    const N: usize = 200_000_000;
    // A sparse 200 MB file: reads as zeros, costs no disk.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(N as u64)
        .unwrap();
    let limit = 32 << 10; // KiB; reading it all would take over 195,000
    for alg in ["aes-128-gcm", "poly1305-aes"] {
        let k = keygen(&d, alg, alg);
        let o = galois_run!("mac", "--key", &k, &big);
        assert!(o.status.success(), "{}", err(&o));
        let tag = String::from_utf8(o.stdout).unwrap().trim().to_string();
        let mut c = galois();
        c.arg("mac").arg("--key").arg(&k).arg(&big);
        let (st, rss) = peak_rss_kib(c, 0);
        assert!(st.success());
        assert!(rss < limit, "{alg} mac of 200 MB: peak RSS {rss} KiB");
        let mut c = galois();
        c.arg("verify")
            .arg("--key")
            .arg(&k)
            .arg("--tag")
            .arg(&tag)
            .arg(&big);
        let (st, rss) = peak_rss_kib(c, 0);
        assert!(st.success(), "{alg}: verify");
        assert!(rss < limit, "{alg} verify of 200 MB: peak RSS {rss} KiB");
        let mut c = galois();
        c.arg("verify").arg("--key").arg(&k).arg("--tag").arg(&tag);
        let (st, rss) = peak_rss_kib(c, N);
        assert!(st.success(), "{alg}: verify from a pipe");
        assert!(
            rss < limit,
            "{alg} verify of 200 MB from a pipe: peak RSS {rss} KiB"
        );
        eprintln!("{alg}: peak RSS of verify over 200 MB from a pipe: {rss} KiB");
    }
}

/// Key files: read with a size limit, a warning when others can read them,
/// `keygen > FILE` makes FILE private, AES-192 offered, and the
/// authentication failure says what it can mean.
#[test]
fn key_files_and_authentication_messages() {
    let d = tmpdir("keyfiles");
    let p = d.join("plain");
    std::fs::write(&p, b"attack at dawn").unwrap();
    // --key /dev/zero fails at once with a clear error.
    let mut c = galois()
        .args(["seal", "--key", "/dev/zero"])
        .arg(&p)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let st = wait_within(&mut c, Duration::from_secs(10), "--key /dev/zero");
    let o = c.wait_with_output().unwrap();
    assert_eq!(st.code(), Some(4), "{}", err(&o));
    assert!(
        err(&o).contains("/dev/zero: not a galois key file (over 4096 bytes)"),
        "{}",
        err(&o)
    );
    // keygen > FILE: FILE (created 0644 by the shell) becomes 0600.
    let k = d.join("my.key");
    let f = std::fs::File::create(&k).unwrap();
    f.set_permissions(std::fs::Permissions::from_mode(0o644))
        .unwrap();
    let o = galois().arg("keygen").stdout(f).output().unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(mode(&k), 0o600);
    // A key readable by others works, with a warning naming the fix.
    std::fs::set_permissions(&k, std::fs::Permissions::from_mode(0o644)).unwrap();
    let sealed = d.join("s.gal");
    let o = galois_run!("seal", "--key", &k, "-o", &sealed, &p);
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("warning: key file"), "{}", err(&o));
    assert!(
        err(&o).contains(&format!("chmod 600 {}", k.display())),
        "{}",
        err(&o)
    );
    std::fs::set_permissions(&k, std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = galois_run!("open", "--key", &k, &sealed);
    assert!(o.status.success());
    assert!(
        err(&o).is_empty(),
        "no warning for a private key: {}",
        err(&o)
    );
    // Wrong --aad (the alias of --context): the message names every cause
    // it cannot tell apart.
    let o = galois_run!("open", "--aad", "other", "--key", &k, &sealed);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains(
            "authentication failed: wrong key or context (--context/--aad) for this file, \
             a modified header, or not a galois file"
        ),
        "{}",
        err(&o)
    );
    // AES-192: keygen, seal/open, mac/verify.
    let k192 = keygen(&d, "k192", "aes-192-gcm");
    assert!(std::fs::read_to_string(&k192)
        .unwrap()
        .starts_with("galois-key-v1 aes-192-gcm "));
    let s192 = d.join("s192");
    // Cobblestone has no 192-bit instantiation: the earlier stream format.
    let o = galois_run!("seal", "--key", &k192, "-o", &s192, &p);
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(err(&o).contains("--format stream"), "{}", err(&o));
    assert!(!s192.exists());
    let o = galois_run!("seal", "--key", &k192, "--format", "stream", "-o", &s192, &p);
    assert!(o.status.success(), "{}", err(&o));
    let o = galois_run!("open", "--key", &k192, &s192);
    assert_eq!(o.stdout, b"attack at dawn");
    let o = galois_run!("mac", "--key", &k192, &p);
    let tag = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let o = galois_run!("verify", "--key", &k192, "--tag", &tag, &p);
    assert!(o.status.success(), "{}", err(&o));
    let o = galois_run!("verify", "--key", &k, "--tag", &tag, &p);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("authentication failed: wrong key"),
        "{}",
        err(&o)
    );
}

/// Every help text reads like a synopsis: what it does, an example, the
/// exit codes.
#[test]
fn help_texts_have_examples_and_exit_codes() {
    for args in [
        vec!["--help"],
        vec!["help", "keygen"],
        vec!["help", "seal"],
        vec!["help", "open"],
        vec!["help", "mac"],
        vec!["help", "verify"],
        vec!["help", "kat"],
        vec!["help", "bench"],
        vec!["help", "selftest"],
        vec!["help", "gen-vectors"],
    ] {
        let o = run(&args);
        assert!(o.status.success(), "{args:?}");
        let t = String::from_utf8_lossy(&o.stdout);
        assert!(t.contains("Example"), "{args:?}: no example\n{t}");
        assert!(t.contains("Exit status:"), "{args:?}: no exit codes\n{t}");
        assert!(t.contains("  2  usage error"), "{args:?}\n{t}");
    }
    let seal = String::from_utf8(run(&["help", "seal"]).stdout).unwrap();
    let open = String::from_utf8(run(&["help", "open"]).stdout).unwrap();
    assert!(seal.contains("--segment-size") && !open.contains("--segment-size"));
}

/// The GHASH backend table of docs/backends.md lists exactly the library's backends,
/// with the right constant-time column, and names what `galois selftest`
/// reports as available and chosen.
#[test]
fn backend_table_matches_the_code() {
    let readme = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/backends.md"),
    )
    .unwrap();
    let start = readme
        .find("| backend | strategy | constant time |")
        .expect("docs/backends.md backend table");
    let rows: Vec<(String, String)> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[3].to_string())
        })
        .collect();
    let mut listed: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let mut all: Vec<&str> = galois_aead::GhashBackend::ALL
        .iter()
        .map(|b| b.name())
        .collect();
    listed.sort();
    all.sort();
    assert_eq!(
        listed, all,
        "docs/backends.md table vs galois_aead::GhashBackend::ALL"
    );
    for b in galois_aead::GhashBackend::ALL {
        let ct = &rows.iter().find(|r| r.0 == b.name()).unwrap().1;
        assert_eq!(
            ct.starts_with("yes"),
            b.is_constant_time(),
            "{}: docs/backends.md says {ct:?}",
            b.name()
        );
    }
    let o = run(&["selftest"]);
    let t = String::from_utf8_lossy(&o.stdout);
    let avail = t
        .lines()
        .find_map(|l| l.strip_prefix("GHASH backends available: "))
        .expect("selftest lists the backends");
    for name in avail.split(", ") {
        assert!(
            listed.contains(&name),
            "selftest shows {name}, docs/backends.md lacks it"
        );
    }
    let chosen = t
        .lines()
        .find_map(|l| l.split("ghash=").nth(1))
        .expect("selftest names the chosen backend");
    assert!(listed.contains(&chosen.trim()), "{chosen}");
}

// Issue 36.

fn sealed_file(dir: &Path, k: &Path, len: usize) -> PathBuf {
    let p = dir.join("plain");
    std::fs::write(
        &p,
        (0..len)
            .map(|i| (i * 7 + i / 4093) as u8)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let s = dir.join("plain.gal");
    let o = key_io("seal", k, &[], &s, &p);
    assert!(o.status.success(), "{}", err(&o));
    s
}

#[test]
fn a_missing_known_answer_file_is_an_io_error() {
    let d = tmpdir("kat-missing");
    let missing = d.join("nosuch.json");
    let o = galois_run!("kat", missing);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("nosuch.json"), "{}", err(&o));
    // A file that is there but is not a vector file stays a usage error.
    let bad = d.join("bad.json");
    std::fs::write(&bad, b"not json").unwrap();
    let o = galois_run!("kat", bad);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    std::fs::write(&bad, b"\xff\xfe not text").unwrap();
    let o = galois_run!("kat", bad);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// `galois open F | head -c 5`: the reader goes away after 5 bytes; galois
/// ends by SIGPIPE without a word (neither a success nor an I/O error).
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let (d, k) = dir_with_key("pipe", "aes-256-gcm");
    let s = sealed_file(&d, &k, 8 << 20);
    for args in [
        vec![
            OsStr::new("open"),
            OsStr::new("--key"),
            k.as_os_str(),
            s.as_os_str(),
        ],
        vec![
            OsStr::new("seal"),
            OsStr::new("--key"),
            k.as_os_str(),
            s.as_os_str(),
        ],
    ] {
        let mut c = spawn_piped(&args, Stdio::null());
        let mut first = [0u8; 5];
        c.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The pipe's read end is closed here.
        let o = c.wait_with_output().unwrap();
        assert_eq!(
            o.status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {:?}",
            o.status
        );
        assert!(o.stderr.is_empty(), "{args:?}: {}", err(&o));
    }
}

#[test]
fn a_raw_key_readable_by_others_gets_the_key_file_warning() {
    let d = tmpdir("rawkey");
    let raw = d.join("raw.bin");
    std::fs::write(&raw, [5u8; 32]).unwrap();
    let input = d.join("in");
    std::fs::write(&input, b"hello").unwrap();
    for (mode, warned) in [(0o644, true), (0o640, true), (0o600, false)] {
        std::fs::set_permissions(&raw, std::fs::Permissions::from_mode(mode)).unwrap();
        let out = d.join(format!("out{mode:o}"));
        let o = galois_run!("seal", "--raw-key", raw, "-o", out, input);
        assert!(o.status.success(), "{}", err(&o));
        let e = err(&o);
        assert_eq!(
            e.contains(&format!("chmod 600 {}", raw.display())),
            warned,
            "mode {mode:o}: {e}"
        );
        if warned {
            assert!(e.contains("accessible by others"), "{e}");
        }
    }
}

#[test]
fn the_progress_line_gives_the_rate_and_the_time() {
    let (d, k) = dir_with_key("progress", "aes-256-gcm");
    let s = sealed_file(&d, &k, 12 << 20);
    let out = d.join("out");
    let (code, shown) = on_terminal(&format!(
        "{} open --key {} -o {} {}",
        env!("CARGO_BIN_EXE_galois"),
        k.display(),
        out.display(),
        s.display()
    ));
    assert_eq!(code, Some(0), "{shown}");
    // The last line: 100%, the size, the rate and the time taken (m:ss).
    let last = shown.rsplit('\r').find(|l| !l.trim().is_empty()).unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(&words[..3], ["100%", "12", "MiB"], "{last:?}");
    assert!(
        words[3].parse::<u64>().is_ok() && words[4] == "MiB/s",
        "{last:?}"
    );
    let (m, sec) = words[5].split_once(':').expect(last);
    assert!(m.parse::<u64>().is_ok() && sec.len() == 2, "{last:?}");
}

#[test]
fn help_names_cobblestone_as_the_format() {
    let main = String::from_utf8(run(&["--help"]).stdout).unwrap();
    assert!(main.contains("Cobblestone"), "{main}");
    assert!(!main.contains("segmented stream format"), "{main}");
    for cmd in ["seal", "open"] {
        let t = String::from_utf8(run(&["help", cmd]).stdout).unwrap();
        assert!(t.contains("Cobblestone"), "{cmd}: {t}");
        // The earlier format is named as such, never as the default.
        for line in t.lines().filter(|l| l.contains("segmented")) {
            assert!(line.contains("earlier"), "{cmd}: {line}");
        }
    }
    // Every command's exit codes say chunks, and what a closed pipe does.
    for cmd in [
        "keygen", "seal", "open", "mac", "verify", "kat", "bench", "selftest",
    ] {
        let t = String::from_utf8(run(&["help", cmd]).stdout).unwrap();
        assert!(t.contains("chunks or segments"), "{cmd}: {t}");
        assert!(t.contains("141"), "{cmd}: {t}");
    }
}

/// `-o` naming a named pipe or a device writes into it: the pipe stays a
/// pipe even with --force (a regular file used to replace it), and `-o
/// /dev/null` needs no --force.
#[test]
fn outputs_that_are_pipes_or_devices_are_written_into() {
    let (d, k) = dir_with_key("fifo", "aes-256-gcm");
    let plain = d.join("plain");
    std::fs::write(&plain, vec![9u8; 100_000]).unwrap();
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo keeps no pointer.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for force in [false, true] {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        let mut args = vec![OsStr::new("seal"), OsStr::new("--key"), k.as_os_str()];
        if force {
            args.push(OsStr::new("--force"));
        }
        args.extend([OsStr::new("-o"), fifo.as_os_str(), plain.as_os_str()]);
        let o = run(&args);
        assert!(o.status.success(), "force {force}: {}", err(&o));
        let sealed = reader.join().unwrap();
        assert_eq!(sealed.len(), 56 + 100_000 + 7 * 16);
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        let s = d.join(format!("s{force}"));
        std::fs::write(&s, &sealed).unwrap();
        let o = galois_run!("open", "--key", k, s);
        assert!(
            o.status.success() && o.stdout == vec![9u8; 100_000],
            "{}",
            err(&o)
        );
    }
    let o = galois_run!("seal", "--key", k, "-o", "/dev/null", plain);
    assert!(o.status.success(), "{}", err(&o));
}
