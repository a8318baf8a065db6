//! `galois keygen`: a fresh key from the OS random source, mode 0600.

use super::keyfile::{Algorithm, KeyFile};
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// What the key is for.
    #[arg(long, value_enum, default_value = "aes-256-gcm")]
    algorithm: Algorithm,
    /// Key file to create (never overwritten); default: standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let k = KeyFile::generate(a.algorithm)?;
    match a.output {
        Some(p) => k.write_new(&p)?,
        None => k.write_stdout()?,
    }
    Ok(ExitCode::SUCCESS)
}
