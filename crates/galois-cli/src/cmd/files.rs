//! Inputs and outputs: files or standard streams, a progress bar on a
//! terminal, and outputs that appear at their final path only when whole.

use super::CliError;
use std::fs::File;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Opens the input (`None` or "-": standard input) and its size if known.
pub fn open_input(path: Option<&Path>) -> Result<(Box<dyn Read>, Option<u64>), CliError> {
    match path {
        None => Ok((Box::new(std::io::stdin().lock()), None)),
        Some(p) if p.as_os_str() == "-" => Ok((Box::new(std::io::stdin().lock()), None)),
        Some(p) => {
            let f = File::open(p).map_err(|e| CliError::io(format!("{}: {e}", p.display())))?;
            let len = f.metadata().ok().map(|m| m.len());
            Ok((Box::new(f), len))
        }
    }
}

/// Shows progress on stderr for inputs over 8 MiB when stderr is a terminal.
pub struct Progress<R> {
    inner: R,
    total: u64,
    done: u64,
    last: Instant,
    on: bool,
}

impl<R: Read> Progress<R> {
    pub fn new(inner: R, total: Option<u64>) -> Self {
        let total = total.unwrap_or(0);
        let on = total > 8 << 20 && std::io::stderr().is_terminal();
        Progress {
            inner,
            total,
            done: 0,
            last: Instant::now(),
            on,
        }
    }

    pub fn finish(&self) {
        if self.on {
            eprint!("\r{:>3}% {} MiB\n", 100, self.total >> 20);
        }
    }
}

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.done += n as u64;
        if self.on && self.last.elapsed() > Duration::from_millis(100) {
            self.last = Instant::now();
            eprint!(
                "\r{:>3}% {} MiB",
                self.done * 100 / self.total.max(1),
                self.done >> 20
            );
        }
        Ok(n)
    }
}

/// Where output goes: standard output, or a temporary file beside the
/// final path that is renamed into place by `commit` and removed on drop
/// otherwise, so a failed run leaves nothing behind.
pub enum Output {
    Stdout(std::io::StdoutLock<'static>),
    Temp {
        file: std::io::BufWriter<File>,
        tmp: PathBuf,
        dest: PathBuf,
        done: bool,
    },
}

impl Output {
    pub fn create(dest: Option<&Path>) -> Result<Self, CliError> {
        let Some(dest) = dest.filter(|p| p.as_os_str() != "-") else {
            return Ok(Output::Stdout(std::io::stdout().lock()));
        };
        let dir = dest
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = dest
            .file_name()
            .ok_or_else(|| CliError::usage(format!("{}: not a file name", dest.display())))?;
        let mut rnd = [0u8; 6];
        getrandom::fill(&mut rnd).map_err(|e| CliError::io(format!("random source: {e}")))?;
        let tmp = dir.join(format!(
            ".{}.galois-tmp-{}",
            name.to_string_lossy(),
            hex::encode(rnd)
        ));
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let f = o
            .open(&tmp)
            .map_err(|e| CliError::io(format!("{}: {e}", tmp.display())))?;
        Ok(Output::Temp {
            file: std::io::BufWriter::with_capacity(1 << 20, f),
            tmp,
            dest: dest.to_path_buf(),
            done: false,
        })
    }

    /// Makes the output final (renames the temporary file into place).
    pub fn commit(mut self) -> Result<(), CliError> {
        match &mut self {
            Output::Stdout(s) => s.flush().map_err(|e| CliError::io(e.to_string())),
            Output::Temp {
                file,
                tmp,
                dest,
                done,
            } => {
                file.flush()
                    .map_err(|e| CliError::io(format!("{}: {e}", tmp.display())))?;
                file.get_ref()
                    .sync_all()
                    .map_err(|e| CliError::io(format!("{}: {e}", tmp.display())))?;
                std::fs::rename(&*tmp, &*dest)
                    .map_err(|e| CliError::io(format!("{}: {e}", dest.display())))?;
                *done = true;
                Ok(())
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(s) => s.write(b),
            Output::Temp { file, .. } => file.write(b),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(s) => s.flush(),
            Output::Temp { file, .. } => file.flush(),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Output::Temp {
            tmp, done: false, ..
        } = self
        {
            let _ = std::fs::remove_file(&*tmp);
        }
    }
}
