//! The subcommands.

/// The exit codes, for the help texts (kept in step with [`exit`]).
macro_rules! exit_codes {
    () => {
        "Exit status:\n\
         \x20 0  success\n\
         \x20 1  authentication failed (wrong key, wrong --context or --tag, modified data),\n\
         \x20    or a known-answer case failed\n\
         \x20 2  usage error (a bad flag or value, -o naming a directory or the key\n\
         \x20    file, binary output to a terminal, no known-answer case checked)\n\
         \x20 3  input/output error (missing input, an existing output without --force,\n\
         \x20    a full disk)\n\
         \x20 4  missing, malformed, oversized or wrong-kind key file\n\
         \x20 5  not a whole sealed file (truncated, reordered, duplicated or\n\
         \x20    appended chunks or segments, a bad header)\n\
         \x20 141  (killed by SIGPIPE) standard output was closed early, as by\n\
         \x20    `| head`: quietly, like other Unix tools; what was not written\n\
         \x20    was not verified either"
    };
}
pub(crate) use exit_codes;

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
    /// Bad usage, or a malformed vector file (an unreadable one is [`IO`]).
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
