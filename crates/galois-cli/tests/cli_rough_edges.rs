//! The real `galois` binary against issue 36's CLI findings: a missing
//! known-answer file is an I/O error (exit 3), a closed pipe ends a run
//! quietly (SIGPIPE, 141 in a shell), a `--raw-key` file that others can
//! read gets the key file's warning, the progress line gives a rate and
//! the time left, and the help texts name Cobblestone as the format.

#![cfg(unix)]

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn galois() -> Command {
    Command::new(env!("CARGO_BIN_EXE_galois"))
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("galois-rough-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    galois().args(args).stdin(Stdio::null()).output().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn keygen(dir: &Path) -> PathBuf {
    let k = dir.join("k.key");
    let o = run(&[OsStr::new("keygen"), OsStr::new("-o"), k.as_os_str()]);
    assert!(o.status.success(), "{}", err(&o));
    k
}

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
    let o = run(&[
        OsStr::new("seal"),
        OsStr::new("--key"),
        k.as_os_str(),
        OsStr::new("-o"),
        s.as_os_str(),
        p.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
    s
}

#[test]
fn a_missing_known_answer_file_is_an_io_error() {
    let d = tmpdir("kat");
    let missing = d.join("nosuch.json");
    let o = run(&[OsStr::new("kat"), missing.as_os_str()]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).contains("nosuch.json"), "{}", err(&o));
    // A file that is there but is not a vector file stays a usage error.
    let bad = d.join("bad.json");
    std::fs::write(&bad, b"not json").unwrap();
    let o = run(&[OsStr::new("kat"), bad.as_os_str()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    std::fs::write(&bad, b"\xff\xfe not text").unwrap();
    let o = run(&[OsStr::new("kat"), bad.as_os_str()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// `galois open F | head -c 5`: the reader goes away after 5 bytes; galois
/// ends by SIGPIPE without a word (neither a success nor an I/O error).
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let d = tmpdir("pipe");
    let k = keygen(&d);
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
        let mut c = galois()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
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
        let o = run(&[
            OsStr::new("seal"),
            OsStr::new("--raw-key"),
            raw.as_os_str(),
            OsStr::new("-o"),
            out.as_os_str(),
            input.as_os_str(),
        ]);
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

/// Runs `cmd` under a pseudo-terminal (util-linux `script`); returns what
/// the terminal showed.
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

#[test]
fn the_progress_line_gives_the_rate_and_the_time() {
    let d = tmpdir("progress");
    let k = keygen(&d);
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
    let d = tmpdir("fifo");
    let k = keygen(&d);
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
        let o = run(&[
            OsStr::new("open"),
            OsStr::new("--key"),
            k.as_os_str(),
            s.as_os_str(),
        ]);
        assert!(
            o.status.success() && o.stdout == vec![9u8; 100_000],
            "{}",
            err(&o)
        );
    }
    let o = run(&[
        OsStr::new("seal"),
        OsStr::new("--key"),
        k.as_os_str(),
        OsStr::new("-o"),
        OsStr::new("/dev/null"),
        plain.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
}
