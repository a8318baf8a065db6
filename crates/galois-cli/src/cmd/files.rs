//! Inputs and outputs: files or standard streams, a progress bar on a
//! terminal, and outputs that appear at their final path only when whole.
//!
//! An output file is first written where no other process can see it and
//! nothing can outlive an interrupted run: on Linux an unnamed file
//! (`O_TMPFILE`) in the destination's directory, linked into place only by
//! `commit` (`linkat` through `/proc/self/fd`). Where the filesystem has no
//! unnamed files, a named temporary file beside the destination, mode 0600,
//! removed on every error and, by a signal handler, on SIGINT, SIGTERM,
//! SIGHUP and SIGQUIT. Errors name the user's paths, never a temporary one.

use super::CliError;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set while a progress line is on stderr without its newline.
static PROGRESS_OPEN: AtomicBool = AtomicBool::new(false);

/// Ends an unfinished progress line, so that an error starts a line of its own.
pub fn end_progress_line() {
    if PROGRESS_OPEN.swap(false, Ordering::SeqCst) {
        eprintln!();
    }
}

/// Makes a write to a closed pipe end the process quietly, by SIGPIPE,
/// as it ends `cat` or `gzip -dc` (the shell reports 141): `galois open
/// F | head -c 5` then prints no error and exits neither 0 (the rest of
/// the input was never verified) nor with an I/O error. Rust starts
/// programs with SIGPIPE ignored, which turns the signal into an EPIPE
/// error on every print.
///
/// Nothing is left behind by it: the signal comes only from writes to a
/// pipe or socket (standard output or error, or a pipe given to `-o`,
/// which is written into directly), never to the files that `-o` creates.
pub fn die_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default touches no
    // memory of this process; no other thread exists yet.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// An input whose read errors name it.
struct Named<R> {
    inner: R,
    name: String,
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.name)))
    }
}

/// Opens the input (`None` or "-": standard input) and its size if known.
/// A directory is refused here, before anything is written.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read>, Option<u64>), CliError> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let f = File::open(p).map_err(|e| CliError::io(format!("{}: {e}", p.display())))?;
            let meta = f
                .metadata()
                .map_err(|e| CliError::io(format!("{}: {e}", p.display())))?;
            if meta.is_dir() {
                return Err(CliError::io(format!(
                    "{}: is a directory, not a file",
                    p.display()
                )));
            }
            let len = meta.is_file().then_some(meta.len());
            Ok((
                Box::new(Named {
                    inner: f,
                    name: p.display().to_string(),
                }),
                len,
            ))
        }
        _ => Ok((
            Box::new(Named {
                inner: io::stdin().lock(),
                name: "standard input".into(),
            }),
            None,
        )),
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn fill(r: &mut dyn Read, buf: &mut [u8]) -> Result<usize, CliError> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(CliError::io(e.to_string())),
        }
    }
    Ok(got)
}

/// Gives everything `r` yields to `f`, in order, in pieces of 1 MiB (the
/// last one shorter). With more than one core and more than one piece,
/// two buffers take turns: this thread reads the next piece while a
/// helper thread runs `f` on the last, so the reading's system time and
/// `f`'s work overlap. The first error (reading, or from `f`) is returned.
pub fn for_each_piece(
    r: &mut dyn Read,
    mut f: impl FnMut(&[u8]) -> Result<(), CliError> + Send,
) -> Result<(), CliError> {
    const PIECE: usize = 1 << 20;
    let mut buf = vec![0u8; PIECE];
    let mut n = fill(r, &mut buf)?;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if n < PIECE || cores < 2 {
        loop {
            f(&buf[..n])?;
            if n < PIECE {
                return Ok(());
            }
            n = fill(r, &mut buf)?;
        }
    }
    let (full_tx, full_rx) = std::sync::mpsc::sync_channel::<(Vec<u8>, usize)>(1);
    let (free_tx, free_rx) = std::sync::mpsc::channel::<Vec<u8>>();
    free_tx
        .send(vec![0u8; PIECE])
        .expect("the receiver is here");
    std::thread::scope(|s| {
        let helper = s.spawn(move || -> Result<(), CliError> {
            for (b, n) in full_rx {
                let r = f(&b[..n]);
                let _ = free_tx.send(b);
                r?;
            }
            Ok(())
        });
        let mut read = Ok(());
        // A failed send or receive means the helper stopped on an error,
        // which its join returns.
        while full_tx.send((buf, n)).is_ok() && n == PIECE {
            let Ok(b) = free_rx.recv() else { break };
            buf = b;
            match fill(r, &mut buf) {
                Ok(k) => n = k,
                Err(e) => {
                    read = Err(e);
                    break;
                }
            }
        }
        drop(full_tx);
        let done = helper
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        done.and(read)
    })
}

/// Shows progress on stderr for inputs over 8 MiB when stderr is a
/// terminal: percent, MiB done, the rate so far and the time left at that
/// rate (`  42% 430 MiB  812 MiB/s  0:01 left`), redrawn at most ten times a
/// second; the last line gives the whole size, rate and time taken.
pub struct Progress<R> {
    inner: R,
    total: u64,
    done: u64,
    start: Instant,
    last: Option<Instant>,
    on: bool,
}

/// `m:ss` (or `h:mm:ss`) for a number of seconds.
fn clock(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// One progress line for `done` of `total` bytes after `secs` seconds
/// (the rate and time left only from a tenth of a second on, when they
/// mean something).
fn progress_line(done: u64, total: u64, secs: f64) -> String {
    let mut line = format!("{:>3}% {} MiB", done * 100 / total.max(1), done >> 20);
    if done < total && secs < 0.1 {
        return line;
    }
    let rate = done as f64 / secs.max(1e-3);
    line += &format!("  {:.0} MiB/s", rate / f64::from(1 << 20));
    if done < total {
        let left = (total - done) as f64 / rate.max(1.0);
        line += &format!("  {} left", clock(left.ceil() as u64));
    } else {
        line += &format!("  {}", clock(secs.round() as u64));
    }
    line
}

impl<R: Read> Progress<R> {
    pub fn new(inner: R, total: Option<u64>) -> Self {
        let total = total.unwrap_or(0);
        let on = total > 8 << 20 && io::stderr().is_terminal();
        Progress {
            inner,
            total,
            done: 0,
            start: Instant::now(),
            last: None,
            on,
        }
    }

    pub fn finish(&self) {
        if self.on {
            let secs = self.start.elapsed().as_secs_f64();
            // Trailing spaces cover the end of a longer earlier line.
            eprint!("\r{}    \n", progress_line(self.total, self.total, secs));
            PROGRESS_OPEN.store(false, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn progress_lines() {
        let mib = 1u64 << 20;
        assert_eq!(super::progress_line(mib, 100 * mib, 0.01), "  1% 1 MiB");
        assert_eq!(
            super::progress_line(25 * mib, 100 * mib, 0.5),
            " 25% 25 MiB  50 MiB/s  0:02 left"
        );
        assert_eq!(
            super::progress_line(mib, 7300 * mib, 1.0),
            "  0% 1 MiB  1 MiB/s  2:01:39 left"
        );
        assert_eq!(
            super::progress_line(100 * mib, 100 * mib, 64.4),
            "100% 100 MiB  2 MiB/s  1:04"
        );
    }
}

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.done += n as u64;
        if self.on
            && self
                .last
                .is_none_or(|t| t.elapsed() > Duration::from_millis(100))
        {
            let now = Instant::now();
            self.last = Some(now);
            PROGRESS_OPEN.store(true, Ordering::SeqCst);
            let secs = now.duration_since(self.start).as_secs_f64();
            eprint!("\r{}    ", progress_line(self.done, self.total, secs));
        }
        Ok(n)
    }
}

/// What an output holds, for the terminal check.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// Always binary (a sealed stream): refused on a terminal.
    Binary,
    /// The user's data (opened plaintext): written to a terminal only while
    /// it has no control bytes other than tab, newline and carriage return.
    Data,
}

/// The device and inode of `p`, following symlinks, if it exists.
#[cfg(unix)]
fn file_id(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Path) -> Option<(u64, u64)> {
    None
}

/// The device and inode of `p` itself (a symlink is not followed).
#[cfg(unix)]
fn link_id(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(p)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn link_id(_: &Path) -> Option<(u64, u64)> {
    None
}

/// What an output file must never replace: the key files given on the
/// same command line, compared by device and inode (so another spelling,
/// a hard link or a symlink to the key is caught too).
pub struct Protect {
    keys: Vec<(PathBuf, (u64, u64))>,
}

impl Protect {
    pub fn keys(paths: &[&Path]) -> Self {
        Protect {
            keys: paths
                .iter()
                .filter_map(|p| file_id(p).map(|id| (p.to_path_buf(), id)))
                .collect(),
        }
    }

    fn check(&self, dest: &Path) -> Result<(), CliError> {
        let ids = [file_id(dest), link_id(dest)];
        for (key, id) in &self.keys {
            if ids.contains(&Some(*id)) {
                return Err(CliError::usage(format!(
                    "-o {}: that is the key file {}; refusing to replace it (even with --force)",
                    dest.display(),
                    key.display()
                )));
            }
        }
        Ok(())
    }
}

/// The checks on an output path made before any work: not a directory (nor
/// a path ending in `/`), not a key file of this command line, and not an
/// existing file unless `force`; its directory exists.
/// `force` is `None` for a command without `--force`.
pub fn check_output(
    dest: Option<&Path>,
    force: Option<bool>,
    protect: &Protect,
) -> Result<(), CliError> {
    let Some(dest) = dest.filter(|p| p.as_os_str() != "-") else {
        return Ok(());
    };
    let shown = dest.display();
    if dest.as_os_str().to_string_lossy().ends_with('/') || dest.is_dir() {
        return Err(CliError::usage(format!(
            "-o {shown}: names a directory; give a file name"
        )));
    }
    if dest.file_name().is_none() {
        return Err(CliError::usage(format!("-o {shown}: not a file name")));
    }
    protect.check(dest)?;
    if is_special(dest) {
        return Ok(());
    }
    if std::fs::symlink_metadata(dest).is_ok() && force != Some(true) {
        return Err(exists(dest, force.is_some()));
    }
    let dir = parent(dest);
    if !dir.is_dir() {
        return Err(CliError::io(format!(
            "-o {shown}: directory {} does not exist",
            dir.display()
        )));
    }
    Ok(())
}

/// Whether `dest` (symlinks followed) is a device, pipe or socket: `-o
/// /dev/null`, `-o /dev/stdout`, a named pipe. Such an output is written
/// into directly, never replaced by a new file (which `--force` would do
/// to an existing regular file), and needs no `--force`.
#[cfg(unix)]
fn is_special(dest: &Path) -> bool {
    std::fs::metadata(dest).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

#[cfg(not(unix))]
fn is_special(_: &Path) -> bool {
    false
}

fn exists(dest: &Path, hint: bool) -> CliError {
    CliError::io(format!(
        "{}: already exists; not replaced{}",
        dest.display(),
        if hint { " (--force replaces it)" } else { "" }
    ))
}

fn parent(dest: &Path) -> &Path {
    dest.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Named temporary files to remove if a signal ends the process.
#[cfg(unix)]
mod cleanup {
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, MutexGuard, Once};

    static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static INSTALL: Once = Once::new();

    fn temps() -> MutexGuard<'static, Vec<PathBuf>> {
        TEMPS.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `sig` was ignored when the process started (as `nohup`
    /// and shells' background jobs arrange): it stays ignored.
    fn ignored(sig: libc::c_int) -> bool {
        // SAFETY: sigaction with a null new action only reads the current
        // one into `old`, a plain struct.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    }

    /// Installs (once) a thread that, on SIGINT, SIGTERM, SIGHUP or SIGQUIT
    /// (those not ignored), removes every registered file and then dies of
    /// the signal as it would have without the handler.
    fn install() {
        INSTALL.call_once(|| {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
            let sigs: Vec<_> = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
                .into_iter()
                .filter(|&s| !ignored(s))
                .collect();
            let Ok(mut signals) = signal_hook::iterator::Signals::new(sigs) else {
                return;
            };
            std::thread::spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    // Held until the process is gone: no new file appears.
                    let t = temps();
                    for p in t.iter() {
                        let _ = std::fs::remove_file(p);
                    }
                    super::end_progress_line();
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            });
        });
    }

    /// Runs `make` (which creates `path`) with the registry locked, so a
    /// signal either comes before the file exists or finds it registered.
    pub fn create<T>(path: &Path, make: impl FnOnce() -> T) -> T {
        install();
        let mut t = temps();
        let r = make();
        t.push(path.to_path_buf());
        r
    }

    /// Runs `f` (which renames or removes `path`) and forgets `path`.
    pub fn release<T>(path: &Path, f: impl FnOnce() -> T) -> T {
        let mut t = temps();
        let r = f();
        t.retain(|p| p != path);
        r
    }
}

#[cfg(not(unix))]
mod cleanup {
    use std::path::Path;
    pub fn create<T>(_: &Path, make: impl FnOnce() -> T) -> T {
        make()
    }
    pub fn release<T>(_: &Path, f: impl FnOnce() -> T) -> T {
        f()
    }
}

/// `.NAME.galois-tmp-RANDOM` beside `dest`.
fn temp_name(dest: &Path) -> Result<PathBuf, CliError> {
    let mut rnd = [0u8; 6];
    getrandom::fill(&mut rnd).map_err(|e| CliError::io(format!("random source: {e}")))?;
    let name = dest.file_name().unwrap_or_default().to_string_lossy();
    Ok(parent(dest).join(format!(".{name}.galois-tmp-{}", hex::encode(rnd))))
}

/// Opens an unnamed file in `dir` (Linux `O_TMPFILE`), if the filesystem
/// has them and `/proc/self/fd` is there to link it later. The environment
/// variable `GALOIS_TEST_NO_TMPFILE` forces the named fallback (for tests).
#[cfg(target_os = "linux")]
fn unnamed_file(dir: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    if std::env::var_os("GALOIS_TEST_NO_TMPFILE").is_some() || !Path::new("/proc/self/fd").is_dir()
    {
        return None;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_TMPFILE)
        .open(dir)
        .ok()
}

#[cfg(not(target_os = "linux"))]
fn unnamed_file(_: &Path) -> Option<File> {
    None
}

#[cfg(unix)]
fn c_path(p: &Path) -> io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(p.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte"))
}

/// Gives the unnamed file `f` the name `dest`; fails if `dest` exists.
#[cfg(target_os = "linux")]
fn link_unnamed(f: &File, dest: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let from = c_path(Path::new(&format!("/proc/self/fd/{}", f.as_raw_fd())))?;
    let to = c_path(dest)?;
    // SAFETY: both are valid NUL-terminated strings that outlive the call;
    // linkat reads them and keeps no pointer.
    let r = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn link_unnamed(_: &File, _: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Renames `tmp` to `dest` only if `dest` does not exist.
fn rename_noreplace(tmp: &Path, dest: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let (from, to) = (c_path(tmp)?, c_path(dest)?);
        // SAFETY: both are valid NUL-terminated strings that outlive the
        // call; renameat2 reads them and keeps no pointer.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) {
            return Err(e);
        }
    }
    // No atomic rename without replacement here: a hard link fails if
    // `dest` exists.
    std::fs::hard_link(tmp, dest)?;
    std::fs::remove_file(tmp)
}

/// Standard output for large binary writes: a duplicate of descriptor 1,
/// so that each write is one system call (std's line-buffered `Stdout`
/// cuts a write in two at its last newline byte).
#[cfg(unix)]
type RawStdout = File;

#[cfg(unix)]
fn raw_stdout() -> io::Result<RawStdout> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdout().as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
type RawStdout = io::StdoutLock<'static>;

#[cfg(not(unix))]
fn raw_stdout() -> io::Result<RawStdout> {
    Ok(io::stdout().lock())
}

/// Where output goes: standard output, or a file that appears at `dest`
/// only through `commit`.
pub enum Output {
    /// Standard output, or (`-o`) a device, pipe or socket that is written
    /// straight into: nothing is created or replaced there.
    Stdout {
        out: RawStdout,
        /// "standard output", or the path, for error messages.
        name: String,
        /// Refuse control bytes (a terminal that was not asked for explicitly).
        text_only: bool,
        refused: bool,
    },
    File {
        file: io::BufWriter<File>,
        /// The named temporary file, or `None` for an unnamed one.
        tmp: Option<PathBuf>,
        dest: PathBuf,
        /// `None`: the command has no `--force`.
        force: Option<bool>,
        protect: Protect,
        done: bool,
    },
}

impl Output {
    /// Standard output for `None` and `-`, else a file for `dest` (which
    /// [`check_output`] has checked). Binary content is refused on a
    /// terminal unless `-o -` asked for standard output explicitly.
    pub fn create(
        dest: Option<&Path>,
        force: Option<bool>,
        content: Content,
        protect: Protect,
    ) -> Result<Self, CliError> {
        let Some(dest) = dest.filter(|p| p.as_os_str() != "-") else {
            let tty = dest.is_none() && io::stdout().is_terminal();
            if tty && content == Content::Binary {
                return Err(CliError::usage(
                    "refusing to write binary output to a terminal: use -o FILE, redirect \
                     standard output, or give -o - to insist",
                ));
            }
            return Ok(Output::Stdout {
                out: raw_stdout().map_err(|e| CliError::io(format!("standard output: {e}")))?,
                name: "standard output".into(),
                text_only: tty,
                refused: false,
            });
        };
        let shown = dest.display();
        if is_special(dest) {
            #[cfg(unix)]
            {
                let out = std::fs::OpenOptions::new()
                    .write(true)
                    .open(dest)
                    .map_err(|e| CliError::io(format!("-o {shown}: {e}")))?;
                return Ok(Output::Stdout {
                    out,
                    name: shown.to_string(),
                    text_only: false,
                    refused: false,
                });
            }
        }
        let dir = parent(dest);
        let (file, tmp) = match unnamed_file(dir) {
            Some(f) => (f, None),
            None => {
                let tmp = temp_name(dest)?;
                let mut o = std::fs::OpenOptions::new();
                o.write(true).create_new(true);
                #[cfg(unix)]
                {
                    use std::os::unix::fs::OpenOptionsExt;
                    o.mode(0o600);
                }
                let f = cleanup::create(&tmp, || o.open(&tmp))
                    .map_err(|e| CliError::io(format!("-o {shown}: cannot create: {e}")))?;
                (f, Some(tmp))
            }
        };
        Ok(Output::File {
            file: io::BufWriter::with_capacity(1 << 20, file),
            tmp,
            dest: dest.to_path_buf(),
            force,
            protect,
            done: false,
        })
    }

    /// Whether a write was refused because it held control bytes for a terminal.
    pub fn refused_terminal(&self) -> bool {
        matches!(self, Output::Stdout { refused: true, .. })
    }

    /// Makes the output final: flushed, synced, and given its name.
    pub fn commit(mut self) -> Result<(), CliError> {
        match &mut self {
            Output::Stdout { out, name, .. } => out
                .flush()
                .map_err(|e| CliError::io(format!("{name}: {e}"))),
            Output::File {
                file,
                tmp,
                dest,
                force,
                protect,
                done,
            } => {
                let shown = dest.display().to_string();
                let err = |e: io::Error| CliError::io(format!("{shown}: {e}"));
                file.flush().map_err(err)?;
                file.get_ref().sync_all().map_err(err)?;
                protect.check(dest)?;
                match tmp.take() {
                    None if *force != Some(true) => {
                        link_unnamed(file.get_ref(), dest).map_err(|e| {
                            if e.kind() == io::ErrorKind::AlreadyExists {
                                exists(dest, force.is_some())
                            } else {
                                err(e)
                            }
                        })?
                    }
                    None => {
                        // Replacing needs a name to rename from: the signal
                        // handler removes it if the process dies meanwhile.
                        let t = temp_name(dest)?;
                        let linked = cleanup::create(&t, || link_unnamed(file.get_ref(), &t));
                        cleanup::release(&t, || {
                            linked.and_then(|_| {
                                std::fs::rename(&t, &*dest).inspect_err(|_| {
                                    let _ = std::fs::remove_file(&t);
                                })
                            })
                        })
                        .map_err(err)?;
                    }
                    Some(t) => {
                        let r = cleanup::release(&t, || {
                            let r = if *force == Some(true) {
                                std::fs::rename(&t, &*dest)
                            } else {
                                rename_noreplace(&t, dest)
                            };
                            if r.is_err() {
                                let _ = std::fs::remove_file(&t);
                            }
                            r
                        });
                        r.map_err(|e| {
                            if e.kind() == io::ErrorKind::AlreadyExists {
                                exists(dest, force.is_some())
                            } else {
                                err(e)
                            }
                        })?;
                    }
                }
                *done = true;
                // Make the new name durable too (best effort: not every
                // filesystem can sync a directory).
                if let Ok(d) = File::open(parent(dest)) {
                    let _ = d.sync_all();
                }
                Ok(())
            }
        }
    }
}

/// Whether `b` has bytes that a terminal would act on (escape sequences and
/// other control characters), or that mark it as binary.
fn has_control_bytes(b: &[u8]) -> bool {
    b.iter()
        .any(|&c| (c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r')) || c == 0x7f)
}

impl Write for Output {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout {
                out,
                name,
                text_only,
                refused,
            } => {
                if *text_only && has_control_bytes(b) {
                    *refused = true;
                    return Err(io::Error::other(
                        "refusing to write binary data to a terminal",
                    ));
                }
                out.write(b)
                    .map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))
            }
            Output::File { file, dest, .. } => file
                .write(b)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dest.display()))),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout { out, .. } => out.flush(),
            Output::File { file, dest, .. } => file
                .flush()
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dest.display()))),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Output::File {
            tmp: Some(t),
            done: false,
            ..
        } = self
        {
            cleanup::release(t, || std::fs::remove_file(&*t)).ok();
        }
        // An unnamed file vanishes when it is closed.
    }
}
