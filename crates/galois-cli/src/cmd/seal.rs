//! `galois seal` / `galois open`: the segmented stream format
//! (docs/stream-format.md) over files or standard streams.

use super::files::{open_input, Output, Progress};
use super::keyfile::{Algorithm, KeyFile};
use super::{exit, CliError, CmdResult};
use galois_aead::stream::{open_stream_with_aad, seal_stream_with_aad, StreamError};
use galois_aead::Error;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Key file written by `galois keygen` (AES-128-GCM or AES-256-GCM).
    #[arg(long)]
    key: PathBuf,
    /// Output file (default: standard output). It appears only once the
    /// whole input is processed (and, for open, verified).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Associated data: authenticated with every segment, not stored; open
    /// needs the same value.
    #[arg(long, default_value = "")]
    aad: String,
    /// Plaintext bytes per segment when sealing.
    #[arg(long, default_value_t = galois_aead::stream::DEFAULT_SEGMENT_SIZE)]
    segment_size: usize,
    /// Input file (default or "-": standard input).
    input: Option<PathBuf>,
}

/// The exit code and message for a failed stream.
fn stream_error(e: StreamError) -> CliError {
    match e {
        StreamError::Io(e) => CliError::io(format!("I/O error: {e}")),
        StreamError::Crypto(e) => {
            let code = match e {
                Error::AuthenticationFailed | Error::StreamWrongKey => exit::AUTH,
                Error::StreamTruncated
                | Error::StreamOutOfOrder { .. }
                | Error::StreamDuplicate { .. }
                | Error::StreamTrailingData
                | Error::StreamBadHeader { .. } => exit::MALFORMED,
                _ => exit::USAGE,
            };
            CliError {
                message: e.to_string(),
                code,
            }
        }
    }
}

fn aes_key(a: &Args) -> Result<KeyFile, CliError> {
    let k = KeyFile::read(&a.key)?;
    if k.algorithm == Algorithm::Poly1305Aes {
        return Err(CliError {
            message: format!(
                "{}: a poly1305-aes key is for `galois mac`, not for encryption",
                a.key.display()
            ),
            code: exit::KEY,
        });
    }
    Ok(k)
}

pub fn seal(a: Args) -> CmdResult {
    let key = aes_key(&a)?;
    let (input, len) = open_input(a.input.as_deref())?;
    let mut input = Progress::new(input, len);
    let mut out = Output::create(a.output.as_deref())?;
    seal_stream_with_aad(
        &key.key,
        a.aad.as_bytes(),
        a.segment_size,
        &mut input,
        &mut out,
    )
    .map_err(stream_error)?;
    input.finish();
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

pub fn open(a: Args) -> CmdResult {
    let key = aes_key(&a)?;
    let (input, len) = open_input(a.input.as_deref())?;
    let mut input = Progress::new(input, len);
    let mut out = Output::create(a.output.as_deref())?;
    open_stream_with_aad(&key.key, a.aad.as_bytes(), &mut input, &mut out).map_err(stream_error)?;
    input.finish();
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}
