//! Helpers shared by the tests that run the real `galois` binary.
#![allow(dead_code)] // each test file uses its own subset

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn galois() -> Command {
    Command::new(env!("CARGO_BIN_EXE_galois"))
}

/// A fresh, empty directory for one test (named after the test file, the
/// process and `name`).
pub fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "galois-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `galois ARGS` with no standard input.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    galois().args(args).stdin(Stdio::null()).output().unwrap()
}

/// `galois ARGS` with no standard input; each argument is anything that
/// is an `OsStr` (strings, paths).
macro_rules! galois_run {
    ($($a:expr),* $(,)?) => {
        $crate::common::run(&[$(AsRef::<std::ffi::OsStr>::as_ref(&$a)),*])
    };
}
pub(crate) use galois_run;

/// `galois ARGS` started with `stdin`, its output and errors piped.
pub fn spawn_piped<S: AsRef<OsStr>>(args: &[S], stdin: Stdio) -> std::process::Child {
    galois()
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `galois keygen --algorithm ALG -o DIR/NAME`; the key file's path.
pub fn keygen(dir: &Path, name: &str, alg: &str) -> PathBuf {
    let k = dir.join(name);
    let o = run(&[
        OsStr::new("keygen"),
        OsStr::new("--algorithm"),
        OsStr::new(alg),
        OsStr::new("-o"),
        k.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", err(&o));
    k
}

/// `galois CMD --key K EXTRA... -o OUT IN`.
pub fn key_io(cmd: &str, k: &Path, extra: &[&str], out: &Path, input: &Path) -> Output {
    let mut args = vec![OsStr::new(cmd), OsStr::new("--key"), k.as_os_str()];
    args.extend(extra.iter().map(OsStr::new));
    args.extend([OsStr::new("-o"), out.as_os_str(), input.as_os_str()]);
    run(&args)
}

/// A fresh directory for test `name` holding a key file `k` of `alg`.
pub fn dir_with_key(name: &str, alg: &str) -> (PathBuf, PathBuf) {
    let d = tmpdir(name);
    let k = keygen(&d, "k", alg);
    (d, k)
}

/// `n` bytes of a xorshift stream from `seed`.
pub fn pseudo_random(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// The names of the entries of `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
