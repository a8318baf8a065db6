//! `galois keygen`: a fresh key from the OS random source, mode 0600.

use super::keyfile::{Algorithm, KeyFile};
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois keygen -o my.key\n",
    "  galois keygen --algorithm poly1305-aes -o mac.key\n\n",
    "A key file is one line, `galois-key-v1 ALGORITHM HEX`. With -o it is created\n",
    "atomically with mode 0600 (whole or not at all) and never replaces a file;\n",
    "to standard output, a regular file there is made mode 0600 first.\n\n",
    super::exit_codes!()
))]
pub struct Args {
    /// What the key is for.
    #[arg(long, value_enum, default_value = "aes-256-gcm")]
    algorithm: Algorithm,
    /// Key file to create (never overwritten); default: standard output.
    #[arg(short, long, value_name = "KEYFILE")]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let k = KeyFile::generate(a.algorithm)?;
    match a.output {
        Some(p) if p.as_os_str() != "-" => k.write_new(&p)?,
        _ => k.write_stdout()?,
    }
    Ok(ExitCode::SUCCESS)
}
