//! `galois mac` / `galois verify`: GMAC (AES keys) or Poly1305-AES over a
//! file, under a fresh random nonce printed with the tag as NONCE:TAG.

use super::files::{for_each_piece, open_input};
use super::keyfile::{Algorithm, KeyFile};
use super::{exit, CliError, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  galois mac --key my.key report.pdf          # prints NONCE:TAG\n",
    "  galois verify --key my.key --tag NONCE:TAG report.pdf\n\n",
    "GMAC for an AES key (12-byte random nonce), Poly1305-AES for a poly1305-aes key\n",
    "(16-byte random nonce). The input is streamed: any size, bounded memory.\n\n",
    super::exit_codes!()
))]
pub struct MacArgs {
    /// Key file written by `galois keygen`.
    #[arg(long)]
    key: PathBuf,
    /// Input file (default or "-": standard input).
    input: Option<PathBuf>,
}

#[derive(clap::Args)]
#[command(after_help = concat!(
    "Example:\n",
    "  galois verify --key my.key --tag NONCE:TAG report.pdf\n\n",
    "Exits 0 if the tag verifies, 1 if not (wrong key, wrong tag, or modified data).\n\n",
    super::exit_codes!()
))]
pub struct VerifyArgs {
    /// Key file written by `galois keygen`.
    #[arg(long)]
    key: PathBuf,
    /// NONCE:TAG as printed by `galois mac`.
    #[arg(long)]
    tag: String,
    /// Input file (default or "-": standard input).
    input: Option<PathBuf>,
}

/// Feeds the input to `f` in pieces of up to 1 MiB: memory stays bounded
/// whatever the input's size, and on more than one core the next piece is
/// read while `f` works on the last one.
fn for_each_chunk(
    input: Option<&std::path::Path>,
    f: impl FnMut(&[u8]) -> Result<(), CliError> + Send,
) -> Result<(), CliError> {
    let (mut r, _) = open_input(input)?;
    for_each_piece(&mut r, f)
}

fn nonce_len(a: Algorithm) -> usize {
    if a == Algorithm::Poly1305Aes {
        16
    } else {
        12
    }
}

/// The message for a tag that does not verify: which cause it was cannot
/// be told apart, by design.
pub const VERIFY_FAILED: &str =
    "authentication failed: wrong key, wrong tag or nonce, or modified data";

fn crypto(e: galois_aead::Error) -> CliError {
    if e == galois_aead::Error::AuthenticationFailed {
        return CliError {
            message: VERIFY_FAILED.into(),
            code: exit::AUTH,
        };
    }
    CliError {
        message: e.to_string(),
        code: exit::USAGE,
    }
}

/// The tag of the input under `nonce`, or (with `expect`) whether it is
/// `expect`, streaming the input.
fn tag_of(
    k: &KeyFile,
    nonce: &[u8],
    input: Option<&std::path::Path>,
    expect: Option<&[u8]>,
) -> Result<Vec<u8>, CliError> {
    let ok = |r: galois_aead::Result<()>| r.map_err(crypto);
    match k.algorithm {
        Algorithm::Poly1305Aes => {
            let mac = galois_aead::poly1305::Poly1305Aes::new(&k.key).map_err(crypto)?;
            let mut st = mac.stream(nonce).map_err(crypto)?;
            for_each_chunk(input, |c| {
                st.update(c);
                Ok(())
            })?;
            match expect {
                Some(t) => ok(st.verify(t)).map(|_| Vec::new()),
                None => Ok(st.finalize().to_vec()),
            }
        }
        _ => {
            // GMAC is GCM with the message as additional data and no text.
            let gcm = galois_aead::AesGcm::new(&k.key).map_err(crypto)?;
            match expect {
                Some(t) => {
                    // No text, so nothing unverified is ever released: this
                    // only absorbs the data and compares tags in constant time.
                    let mut d = gcm.unverified_decryptor(nonce).map_err(crypto)?;
                    for_each_chunk(input, |c| ok(d.aad(c)))?;
                    ok(d.finish(t)).map(|_| Vec::new())
                }
                None => {
                    let mut e = gcm.encryptor(nonce).map_err(crypto)?;
                    for_each_chunk(input, |c| ok(e.aad(c)))?;
                    Ok(e.finish().as_bytes().to_vec())
                }
            }
        }
    }
}

pub fn mac(a: MacArgs) -> CmdResult {
    let k = KeyFile::read(&a.key)?;
    let mut nonce = vec![0u8; nonce_len(k.algorithm)];
    getrandom::fill(&mut nonce).map_err(|e| CliError::io(format!("random source: {e}")))?;
    let tag = tag_of(&k, &nonce, a.input.as_deref(), None)?;
    println!("{}:{}", hex::encode(&nonce), hex::encode(tag));
    Ok(ExitCode::SUCCESS)
}

pub fn verify(a: VerifyArgs) -> CmdResult {
    let k = KeyFile::read(&a.key)?;
    let (n, t) = a
        .tag
        .trim()
        .split_once(':')
        .ok_or_else(|| CliError::usage("--tag must be NONCE:TAG in hex"))?;
    let nonce = hex::decode(n).map_err(|_| CliError::usage("--tag: the nonce is not hex"))?;
    let tag = hex::decode(t).map_err(|_| CliError::usage("--tag: the tag is not hex"))?;
    if nonce.len() != nonce_len(k.algorithm) || tag.len() != 16 {
        return Err(CliError::usage(format!(
            "--tag: {} takes a {}-byte nonce and a 16-byte tag",
            k.algorithm.name(),
            nonce_len(k.algorithm)
        )));
    }
    tag_of(&k, &nonce, a.input.as_deref(), Some(&tag))?;
    Ok(ExitCode::SUCCESS)
}
