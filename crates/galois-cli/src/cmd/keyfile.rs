//! Key files: one line, `galois-key-v1 ALGORITHM HEX`, mode 0600.

use super::{exit, CliError};
use std::io::Write;
use std::path::Path;

/// What a key is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    #[value(name = "aes-128-gcm")]
    Aes128Gcm,
    #[value(name = "aes-256-gcm")]
    Aes256Gcm,
    #[value(name = "poly1305-aes")]
    Poly1305Aes,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Aes128Gcm => "aes-128-gcm",
            Algorithm::Aes256Gcm => "aes-256-gcm",
            Algorithm::Poly1305Aes => "poly1305-aes",
        }
    }
    fn key_len(self) -> usize {
        match self {
            Algorithm::Aes128Gcm => 16,
            Algorithm::Aes256Gcm | Algorithm::Poly1305Aes => 32,
        }
    }
}

/// A key read from a key file; wiped on drop.
pub struct KeyFile {
    pub algorithm: Algorithm,
    pub key: zeroize::Zeroizing<Vec<u8>>,
}

fn key_error(path: &Path, why: &str) -> CliError {
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

    pub fn read(path: &Path) -> Result<Self, CliError> {
        let text = zeroize::Zeroizing::new(
            std::fs::read_to_string(path)
                .map_err(|e| key_error(path, &format!("cannot read key file: {e}")))?,
        );
        let mut parts = text.split_whitespace();
        if parts.next() != Some("galois-key-v1") {
            return Err(key_error(
                path,
                "not a galois key file (run `galois keygen`)",
            ));
        }
        let algorithm = match parts.next() {
            Some("aes-128-gcm") => Algorithm::Aes128Gcm,
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

    /// Writes the key to a new file with mode 0600 (never over an existing one).
    pub fn write_new(&self, path: &Path) -> Result<(), CliError> {
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let mut f = o
            .open(path)
            .map_err(|e| CliError::io(format!("{}: {e}", path.display())))?;
        f.write_all(self.line().as_bytes())
            .and_then(|_| f.sync_all())
            .map_err(|e| CliError::io(format!("{}: {e}", path.display())))
    }

    pub fn write_stdout(&self) -> Result<(), CliError> {
        std::io::stdout()
            .write_all(self.line().as_bytes())
            .map_err(|e| CliError::io(e.to_string()))
    }
}
