//! The subcommands.

pub mod bench;
pub mod genvec;
pub mod kat;
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
    /// Bad usage or unreadable input file.
    pub const USAGE: u8 = 2;
    /// Input/output error.
    pub const IO: u8 = 3;
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
