//! `galois seal` / `galois open`: the segmented stream format
//! (docs/stream-format.md) over files or standard streams.

use super::files::{check_output, open_input, Content, Output, Progress, Protect};
use super::keyfile::{Algorithm, KeyFile};
use super::{exit, CliError, CmdResult};
use galois_aead::stream::{
    open_stream_with_aad, seal_stream_with_aad, StreamError, MAX_SEGMENT_SIZE, MIN_SEGMENT_SIZE,
};
use galois_aead::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// `--segment-size`: a usage error outside what the stream format allows.
fn segment_size(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of bytes"))?;
    if (MIN_SEGMENT_SIZE..=MAX_SEGMENT_SIZE).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "must be between {MIN_SEGMENT_SIZE} and {MAX_SEGMENT_SIZE} bytes"
        ))
    }
}

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois seal --key my.key -o report.pdf.gal report.pdf\n",
    "  tar c dir | galois seal --key my.key > dir.tar.gal\n\n",
    "The output is created with mode 0600 and appears only when complete.\n\n",
    super::exit_codes!()
))]
pub struct SealArgs {
    /// Key file written by `galois keygen` (an AES-GCM key).
    #[arg(long, value_name = "KEYFILE")]
    key: PathBuf,
    /// Output file (default: standard output, refused on a terminal; `-o -`
    /// insists). Created with mode 0600; it appears only once the whole
    /// input is sealed. An existing file is not replaced without --force.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Replace an existing output file (never the key file).
    #[arg(long)]
    force: bool,
    /// Associated data: authenticated with every segment, not stored; open
    /// needs the same value.
    #[arg(long, default_value = "", value_name = "TEXT")]
    aad: String,
    /// Plaintext bytes per segment (16 .. 16777216).
    #[arg(long, value_name = "BYTES", value_parser = segment_size,
          default_value_t = galois_aead::stream::DEFAULT_SEGMENT_SIZE)]
    segment_size: usize,
    /// Input file (default or "-": standard input).
    #[arg(value_name = "IN")]
    input: Option<PathBuf>,
}

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois open --key my.key -o report.pdf report.pdf.gal\n",
    "  galois open --key my.key < dir.tar.gal | tar x\n\n",
    "With -o, the output is created with mode 0600 and appears only after every\n",
    "segment verified; nothing is left behind on failure or interruption. To\n",
    "standard output, only verified segments are written, but a failure midway\n",
    "leaves a prefix: use -o when that matters.\n\n",
    super::exit_codes!()
))]
pub struct OpenArgs {
    /// Key file written by `galois keygen` (the key the stream was sealed with).
    #[arg(long, value_name = "KEYFILE")]
    key: PathBuf,
    /// Output file (default: standard output). Created with mode 0600; it
    /// appears only once the whole input verified. An existing file is not
    /// replaced without --force.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Replace an existing output file (never the key file).
    #[arg(long)]
    force: bool,
    /// Associated data given when sealing (must be the same).
    #[arg(long, default_value = "", value_name = "TEXT")]
    aad: String,
    /// Input file (default or "-": standard input).
    #[arg(value_name = "IN")]
    input: Option<PathBuf>,
}

/// The message for a failed authentication: which of its causes it was
/// cannot be told apart, by design.
pub const AUTH_FAILED: &str =
    "authentication failed: wrong key, wrong additional data (--aad), or modified data";

/// The exit code and message for a failed stream.
fn stream_error(e: StreamError, out: &Output) -> CliError {
    if out.refused_terminal() {
        return CliError::usage(
            "refusing to write binary data to a terminal: use -o FILE, redirect standard \
             output, or give -o - to insist",
        );
    }
    match e {
        StreamError::Io(e) => CliError::io(e.to_string()),
        StreamError::Crypto(e) => {
            let (code, message) = match e {
                Error::AuthenticationFailed => (exit::AUTH, AUTH_FAILED.to_string()),
                Error::StreamWrongKey => (
                    exit::AUTH,
                    "authentication failed: wrong key for this stream, or a modified header"
                        .to_string(),
                ),
                Error::StreamTruncated
                | Error::StreamOutOfOrder { .. }
                | Error::StreamDuplicate { .. }
                | Error::StreamTrailingData
                | Error::StreamBadHeader { .. } => (exit::MALFORMED, e.to_string()),
                _ => (exit::USAGE, e.to_string()),
            };
            CliError { message, code }
        }
    }
}

fn aes_key(path: &std::path::Path) -> Result<KeyFile, CliError> {
    let k = KeyFile::read(path)?;
    if k.algorithm == Algorithm::Poly1305Aes {
        return Err(CliError {
            message: format!(
                "{}: a poly1305-aes key is for `galois mac`, not for encryption",
                path.display()
            ),
            code: exit::KEY,
        });
    }
    Ok(k)
}

pub fn seal(a: SealArgs) -> CmdResult {
    let protect = || Protect::keys(&[&a.key]);
    check_output(a.output.as_deref(), Some(a.force), &protect())?;
    let key = aes_key(&a.key)?;
    let (input, len) = open_input(a.input.as_deref())?;
    let mut input = Progress::new(input, len);
    let mut out = Output::create(
        a.output.as_deref(),
        Some(a.force),
        Content::Binary,
        protect(),
    )?;
    if let Err(e) = seal_stream_with_aad(
        &key.key,
        a.aad.as_bytes(),
        a.segment_size,
        &mut input,
        &mut out,
    ) {
        return Err(stream_error(e, &out));
    }
    input.finish();
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

pub fn open(a: OpenArgs) -> CmdResult {
    let protect = || Protect::keys(&[&a.key]);
    check_output(a.output.as_deref(), Some(a.force), &protect())?;
    let key = aes_key(&a.key)?;
    let (input, len) = open_input(a.input.as_deref())?;
    let mut input = Progress::new(input, len);
    let mut out = Output::create(a.output.as_deref(), Some(a.force), Content::Data, protect())?;
    if let Err(e) = open_stream_with_aad(&key.key, a.aad.as_bytes(), &mut input, &mut out) {
        return Err(stream_error(e, &out));
    }
    input.finish();
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}
