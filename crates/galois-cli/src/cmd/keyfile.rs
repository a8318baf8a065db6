//! Key files: one line, `galois-key-v1 ALGORITHM HEX`, mode 0600.

use super::files::{check_output, Content, Output, Protect};
use super::{exit, CliError};
use std::io::{Read, Write};
use std::path::Path;

/// What a key is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    #[value(name = "aes-128-gcm")]
    Aes128Gcm,
    #[value(name = "aes-192-gcm")]
    Aes192Gcm,
    #[value(name = "aes-256-gcm")]
    Aes256Gcm,
    #[value(name = "poly1305-aes")]
    Poly1305Aes,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Aes128Gcm => "aes-128-gcm",
            Algorithm::Aes192Gcm => "aes-192-gcm",
            Algorithm::Aes256Gcm => "aes-256-gcm",
            Algorithm::Poly1305Aes => "poly1305-aes",
        }
    }
    fn key_len(self) -> usize {
        match self {
            Algorithm::Aes128Gcm => 16,
            Algorithm::Aes192Gcm => 24,
            Algorithm::Aes256Gcm | Algorithm::Poly1305Aes => 32,
        }
    }
}

/// A key read from a key file; wiped on drop.
pub struct KeyFile {
    pub algorithm: Algorithm,
    pub key: zeroize::Zeroizing<Vec<u8>>,
}

/// A key error (exit 4) naming the key's path.
pub fn key_error(path: &Path, why: &str) -> CliError {
    CliError {
        message: format!("{}: {why}", path.display()),
        code: exit::KEY,
    }
}

impl KeyFile {
    /// A fresh key from the operating system's random source.
    pub fn generate(algorithm: Algorithm) -> Result<Self, CliError> {
        let mut key = zeroize::Zeroizing::new(vec![0u8; algorithm.key_len()]);
        if algorithm == Algorithm::Poly1305Aes {
            let k = galois_aead::poly1305::Poly1305Aes::generate_key().map_err(|e| CliError {
                message: e.to_string(),
                code: exit::IO,
            })?;
            key.copy_from_slice(&k[..]);
        } else {
            getrandom::fill(&mut key).map_err(|e| CliError {
                message: format!("random source: {e}"),
                code: exit::IO,
            })?;
        }
        Ok(KeyFile { algorithm, key })
    }

    /// Reads a key file: at most [`MAX_KEY_FILE`] bytes (so `--key
    /// /dev/zero` fails at once), with [`open_secret`]'s warning when a
    /// regular file is readable or writable by group or others.
    pub fn read(path: &Path) -> Result<Self, CliError> {
        let f = open_secret(path, "key file")?;
        let mut bytes = zeroize::Zeroizing::new(Vec::with_capacity(MAX_KEY_FILE + 1));
        f.take(MAX_KEY_FILE as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| key_error(path, &format!("cannot read key file: {e}")))?;
        if bytes.len() > MAX_KEY_FILE {
            return Err(key_error(
                path,
                &format!("not a galois key file (over {MAX_KEY_FILE} bytes)"),
            ));
        }
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| key_error(path, "not a galois key file (run `galois keygen`)"))?;
        let mut parts = text.split_whitespace();
        if parts.next() != Some("galois-key-v1") {
            return Err(key_error(
                path,
                "not a galois key file (run `galois keygen`)",
            ));
        }
        let algorithm = match parts.next() {
            Some("aes-128-gcm") => Algorithm::Aes128Gcm,
            Some("aes-192-gcm") => Algorithm::Aes192Gcm,
            Some("aes-256-gcm") => Algorithm::Aes256Gcm,
            Some("poly1305-aes") => Algorithm::Poly1305Aes,
            Some(other) => return Err(key_error(path, &format!("unknown algorithm {other:?}"))),
            None => return Err(key_error(path, "no algorithm")),
        };
        let key = zeroize::Zeroizing::new(
            hex::decode(parts.next().unwrap_or(""))
                .map_err(|_| key_error(path, "key is not hex"))?,
        );
        if key.len() != algorithm.key_len() || parts.next().is_some() {
            return Err(key_error(
                path,
                &format!(
                    "{} needs a {}-byte key",
                    algorithm.name(),
                    algorithm.key_len()
                ),
            ));
        }
        Ok(KeyFile { algorithm, key })
    }

    fn line(&self) -> zeroize::Zeroizing<String> {
        zeroize::Zeroizing::new(format!(
            "galois-key-v1 {} {}\n",
            self.algorithm.name(),
            hex::encode(&*self.key)
        ))
    }

    /// Writes the key to a new file with mode 0600, atomically: the file
    /// appears whole, synced, or not at all (never over an existing one).
    pub fn write_new(&self, path: &Path) -> Result<(), CliError> {
        let none = || Protect::keys(&[]);
        check_output(Some(path), None, &none())?;
        let mut out = Output::create(Some(path), None, Content::Data, none())?;
        out.write_all(self.line().as_bytes())
            .map_err(|e| CliError::io(e.to_string()))?;
        out.commit()
    }

    /// Writes the key to standard output; a regular file there (`keygen >
    /// my.key`) is first made private (mode 0600).
    pub fn write_stdout(&self) -> Result<(), CliError> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            let fd = std::io::stdout().as_raw_fd();
            // SAFETY: fstat and fchmod on the process's own standard output
            // descriptor; `st` is a plain struct the kernel fills in.
            let regular = unsafe {
                let mut st: libc::stat = std::mem::zeroed();
                libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFREG
            };
            // SAFETY: as above; fchmod reads only its two integer arguments.
            if regular && unsafe { libc::fchmod(fd, 0o600) } != 0 {
                eprintln!(
                    "galois: warning: cannot make standard output private ({}); \
                     prefer keygen -o FILE",
                    std::io::Error::last_os_error()
                );
            }
        }
        let mut out = std::io::stdout().lock();
        out.write_all(self.line().as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| CliError::io(format!("standard output: {e}")))
    }
}

/// Opens a file that holds a key (`what`: "key file" for `--key`, "raw
/// key" for `--raw-key`): a directory is refused, and a regular file that
/// group or others can read or write gets a warning on stderr. The one
/// check for every kind of key file.
pub fn open_secret(path: &Path, what: &str) -> Result<std::fs::File, CliError> {
    let f = std::fs::File::open(path)
        .map_err(|e| key_error(path, &format!("cannot read {what}: {e}")))?;
    if let Ok(m) = f.metadata() {
        if m.is_dir() {
            return Err(key_error(path, &format!("is a directory, not a {what}")));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = m.permissions().mode() & 0o777;
            if m.is_file() && mode & 0o077 != 0 {
                eprintln!(
                    "galois: warning: {what} {} is accessible by others (mode {mode:04o}); \
                     run: chmod 600 {}",
                    path.display(),
                    path.display()
                );
            }
        }
    }
    Ok(f)
}

/// The largest key file read (a key line is under 100 bytes).
pub const MAX_KEY_FILE: usize = 4096;
