//! The subcommands.

pub mod bench;
pub mod files;
pub mod genvec;
pub mod kat;
pub mod keyfile;
pub mod keygen;
pub mod mac;
pub mod seal;
pub mod selftest;

/// An error for the user: one line on stderr and a distinct exit code.
pub struct CliError {
    pub message: String,
    pub code: u8,
}

/// Exit codes, documented in the README.
pub mod exit {
    /// A known-answer case failed.
    pub const KAT_FAILED: u8 = 1;
    /// Authentication failed: tampered data, a wrong tag or a wrong key.
    pub const AUTH: u8 = 1;
    /// Bad usage, or an unreadable or malformed vector file.
    pub const USAGE: u8 = 2;
    /// Input/output error.
    pub const IO: u8 = 3;
    /// The key file is missing, malformed or for another algorithm.
    pub const KEY: u8 = 4;
    /// The input is not a whole galois stream: truncated, reordered,
    /// duplicated or appended segments, or a bad header.
    pub const MALFORMED: u8 = 5;
}

impl CliError {
    pub fn usage(m: impl Into<String>) -> Self {
        CliError {
            message: m.into(),
            code: exit::USAGE,
        }
    }
    pub fn io(m: impl Into<String>) -> Self {
        CliError {
            message: m.into(),
            code: exit::IO,
        }
    }
}

pub type CmdResult = Result<std::process::ExitCode, CliError>;
