//! `galois seal` / `galois open`: Cobblestone, C2SP chunked encryption
//! (c2sp.org/chunked-encryption, `galois_aead::chunked`), by default; the
//! earlier segmented stream format (docs/stream-format.md) with `--format
//! stream`. `open` tells the two apart by the stream format's header.

use super::files::{check_output, open_input, Content, Output, Progress, Protect};
use super::keyfile::{key_error, open_secret, Algorithm, KeyFile};
use super::{exit, CliError, CmdResult};
use galois_aead::chunked;
use galois_aead::stream::{
    open_stream_with_aad, seal_stream_with_aad, StreamError, MAX_SEGMENT_SIZE, MIN_SEGMENT_SIZE,
};
use galois_aead::Error;
use std::io::Read;
use std::path::{Path, PathBuf};
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

/// The file format `seal` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Cobblestone (C2SP chunked encryption): Cobblestone-128 with a 16-byte
    /// key, Cobblestone-256 with a 32-byte key.
    Cobblestone,
    /// galois's earlier segmented stream format (docs/stream-format.md).
    Stream,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("keysrc").required(true).args(["key", "raw_key"])))]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois seal --key my.key -o report.pdf.gal report.pdf\n",
    "  tar c dir | galois seal --key my.key > dir.tar.gal\n",
    "  galois seal --raw-key key.bin --context v1 -o file.cob file\n\n",
    "Writes Cobblestone (c2sp.org/chunked-encryption): Cobblestone-128 with a 16-byte\n",
    "key, Cobblestone-256 with a 32-byte key. The output is created with mode 0600\n",
    "and appears only when complete.\n\n",
    super::exit_codes!()
))]
pub struct SealArgs {
    /// Key file written by `galois keygen` (aes-128-gcm or aes-256-gcm; an
    /// aes-192-gcm key only with --format stream).
    #[arg(long, value_name = "KEYFILE")]
    key: Option<PathBuf>,
    /// A file holding exactly the 16 or 32 key bytes (binary), for other
    /// Cobblestone implementations.
    #[arg(long, value_name = "FILE")]
    raw_key: Option<PathBuf>,
    /// Output file (default: standard output, refused on a terminal; `-o -`
    /// insists). Created with mode 0600; it appears only once the whole
    /// input is sealed. An existing file is not replaced without --force;
    /// a device or named pipe (`-o /dev/null`) is written into, never replaced.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Replace an existing output file (never the key file).
    #[arg(long)]
    force: bool,
    /// Context: bound to the file (in the key derivation), not stored;
    /// open needs the same value. `--aad` is the same flag.
    #[arg(long, alias = "aad", default_value = "", value_name = "TEXT")]
    context: String,
    /// The format to write.
    #[arg(long, value_enum, default_value_t = Format::Cobblestone)]
    format: Format,
    /// Plaintext bytes per segment (16 .. 16777216), --format stream only
    /// (default 65536); Cobblestone chunks are always 16 KiB.
    #[arg(long, value_name = "BYTES", value_parser = segment_size)]
    segment_size: Option<usize>,
    /// Input file (default or "-": standard input).
    #[arg(value_name = "IN")]
    input: Option<PathBuf>,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("keysrc").required(true).args(["key", "raw_key"])))]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois open --key my.key -o report.pdf report.pdf.gal\n",
    "  galois open --key my.key < dir.tar.gal | tar x\n",
    "  galois open --raw-key key.bin --context v1 -o file file.cob\n\n",
    "Reads Cobblestone (c2sp.org/chunked-encryption) and galois's earlier stream\n",
    "format (recognised by its header). With -o, the output is created with mode\n",
    "0600 and appears only after every chunk verified; nothing is left behind on\n",
    "failure or interruption. To standard output, only verified chunks are\n",
    "written, but a failure midway leaves a prefix: use -o when that matters.\n\n",
    super::exit_codes!()
))]
pub struct OpenArgs {
    /// Key file written by `galois keygen` (the key the file was sealed with).
    #[arg(long, value_name = "KEYFILE")]
    key: Option<PathBuf>,
    /// A file holding exactly the 16 or 32 key bytes (binary).
    #[arg(long, value_name = "FILE")]
    raw_key: Option<PathBuf>,
    /// Output file (default: standard output). Created with mode 0600; it
    /// appears only once the whole input verified. An existing file is not
    /// replaced without --force; a device or named pipe is written into,
    /// never replaced.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Replace an existing output file (never the key file).
    #[arg(long)]
    force: bool,
    /// Context (or, for the earlier stream format, associated data) given
    /// when sealing: must be the same. `--aad` is the same flag.
    #[arg(long, alias = "aad", default_value = "", value_name = "TEXT")]
    context: String,
    /// Input file (default or "-": standard input).
    #[arg(value_name = "IN")]
    input: Option<PathBuf>,
}

/// The message for a failed authentication: which of its causes it was
/// cannot be told apart, by design.
pub const AUTH_FAILED: &str =
    "authentication failed: wrong key, wrong context (--context/--aad), or modified data";

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
                    "authentication failed: wrong key or context (--context/--aad) for this \
                     file, a modified header, or not a galois file"
                        .to_string(),
                ),
                Error::InvalidKeyLength { got } => (
                    exit::KEY,
                    format!("a {got}-byte key cannot seal or open Cobblestone (16 or 32 bytes)"),
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

fn aes_key(path: &Path) -> Result<KeyFile, CliError> {
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

/// The most bytes read from a `--raw-key` file: one more than a key, to
/// tell a longer file.
const RAW_KEY_MAX: u64 = 33;

/// Reads a `--raw-key` file: exactly 16 or 32 bytes (with the same
/// directory refusal and permission warning as a key file).
fn raw_key(path: &Path) -> Result<zeroize::Zeroizing<Vec<u8>>, CliError> {
    let err = |why: String| key_error(path, &why);
    let f = open_secret(path, "raw key")?;
    let mut key = zeroize::Zeroizing::new(Vec::with_capacity(RAW_KEY_MAX as usize));
    f.take(RAW_KEY_MAX)
        .read_to_end(&mut key)
        .map_err(|e| err(format!("cannot read raw key: {e}")))?;
    match key.len() {
        16 | 32 => Ok(key),
        n if n as u64 >= RAW_KEY_MAX => Err(err(
            "a raw key file holds exactly 16 or 32 bytes; this one is longer".into(),
        )),
        n => Err(err(format!(
            "a raw key file holds exactly 16 or 32 bytes; this one has {n}"
        ))),
    }
}

/// The key from `--key` or `--raw-key` (clap makes exactly one present).
fn load_key(
    key: Option<&Path>,
    raw: Option<&Path>,
) -> Result<zeroize::Zeroizing<Vec<u8>>, CliError> {
    match (key, raw) {
        (Some(k), _) => Ok(aes_key(k)?.key),
        (None, Some(r)) => raw_key(r),
        (None, None) => Err(CliError::usage("give --key KEYFILE or --raw-key FILE")),
    }
}

fn key_paths<'a>(key: &'a Option<PathBuf>, raw: &'a Option<PathBuf>) -> Vec<&'a Path> {
    key.iter().chain(raw.iter()).map(PathBuf::as_path).collect()
}

pub fn seal(a: SealArgs) -> CmdResult {
    let protect = || Protect::keys(&key_paths(&a.key, &a.raw_key));
    if a.segment_size.is_some() && a.format != Format::Stream {
        return Err(CliError::usage(
            "--segment-size applies to --format stream only (Cobblestone chunks are 16 KiB)",
        ));
    }
    check_output(a.output.as_deref(), Some(a.force), &protect())?;
    let key = load_key(a.key.as_deref(), a.raw_key.as_deref())?;
    if a.format == Format::Cobblestone && key.len() == 24 {
        return Err(CliError {
            message: "an aes-192-gcm key cannot seal Cobblestone (16- or 32-byte keys): \
                      use an aes-128-gcm or aes-256-gcm key, or --format stream"
                .into(),
            code: exit::KEY,
        });
    }
    let (input, len) = open_input(a.input.as_deref())?;
    let mut input = Progress::new(input, len);
    let mut out = Output::create(
        a.output.as_deref(),
        Some(a.force),
        Content::Binary,
        protect(),
    )?;
    let ctx = a.context.as_bytes();
    let r = match a.format {
        Format::Cobblestone => chunked::seal_stream(&key, ctx, &mut input, &mut out),
        Format::Stream => seal_stream_with_aad(
            &key,
            ctx,
            a.segment_size
                .unwrap_or(galois_aead::stream::DEFAULT_SEGMENT_SIZE),
            &mut input,
            &mut out,
        ),
    };
    if let Err(e) = r {
        return Err(stream_error(e, &out));
    }
    input.finish();
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// Reads up to `n` bytes (fewer only at the end of input).
fn read_up_to<R: Read>(r: &mut R, n: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(n);
    r.take(n as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

pub fn open(a: OpenArgs) -> CmdResult {
    let protect = || Protect::keys(&key_paths(&a.key, &a.raw_key));
    check_output(a.output.as_deref(), Some(a.force), &protect())?;
    let key = load_key(a.key.as_deref(), a.raw_key.as_deref())?;
    let (input, len) = open_input(a.input.as_deref())?;
    let mut input = Progress::new(input, len);
    let mut out = Output::create(a.output.as_deref(), Some(a.force), Content::Data, protect())?;
    let ctx = a.context.as_bytes();
    // The earlier stream format starts with its magic and version; a
    // Cobblestone file starts with a random salt. Read the larger header
    // (56 bytes) and hand it back in front of the rest.
    let head = match read_up_to(&mut input, chunked::HEADER_LEN) {
        Ok(h) => h,
        Err(e) => return Err(CliError::io(e.to_string())),
    };
    let old = head.len() >= galois_aead::stream::HEADER_LEN
        && head[..4] == galois_aead::stream::MAGIC
        && head[4] == galois_aead::stream::VERSION;
    let mut r = match old {
        true => open_stream_with_aad(&key, ctx, &mut (&head[..]).chain(&mut input), &mut out),
        false => Err(StreamError::Crypto(Error::StreamWrongKey)),
    };
    // Not the earlier format, or its header's key check failed before
    // anything was written (a Cobblestone salt may start with the magic,
    // one time in 2^40): Cobblestone.
    if !old || matches!(r, Err(StreamError::Crypto(Error::StreamWrongKey))) {
        r = chunked::open_stream(&key, ctx, &mut (&head[..]).chain(&mut input), &mut out);
    }
    if let Err(e) = r {
        return Err(stream_error(e, &out));
    }
    input.finish();
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}
