//! `galois mac` / `galois verify`: GMAC (AES keys) or Poly1305-AES over a
//! file, under a fresh random nonce printed with the tag as NONCE:TAG.

use super::files::open_input;
use super::keyfile::{Algorithm, KeyFile};
use super::{exit, CliError, CmdResult};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct MacArgs {
    /// Key file written by `galois keygen`.
    #[arg(long)]
    key: PathBuf,
    /// Input file (default or "-": standard input).
    input: Option<PathBuf>,
}

#[derive(clap::Args)]
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

fn read_all(input: Option<&std::path::Path>) -> Result<Vec<u8>, CliError> {
    let (mut r, _) = open_input(input)?;
    let mut v = Vec::new();
    r.read_to_end(&mut v)
        .map_err(|e| CliError::io(e.to_string()))?;
    Ok(v)
}

fn nonce_len(a: Algorithm) -> usize {
    if a == Algorithm::Poly1305Aes {
        16
    } else {
        12
    }
}

fn crypto(e: galois_aead::Error) -> CliError {
    let code = if e == galois_aead::Error::AuthenticationFailed {
        exit::AUTH
    } else {
        exit::USAGE
    };
    CliError {
        message: e.to_string(),
        code,
    }
}

fn tag_of(k: &KeyFile, nonce: &[u8], msg: &[u8]) -> Result<Vec<u8>, CliError> {
    Ok(match k.algorithm {
        Algorithm::Poly1305Aes => galois_aead::poly1305::Poly1305Aes::new(&k.key)
            .map_err(crypto)?
            .authenticate(nonce, msg)
            .map_err(crypto)?
            .to_vec(),
        _ => galois_aead::AesGmac::new(&k.key)
            .map_err(crypto)?
            .authenticate(nonce, msg)
            .map_err(crypto)?
            .as_bytes()
            .to_vec(),
    })
}

pub fn mac(a: MacArgs) -> CmdResult {
    let k = KeyFile::read(&a.key)?;
    let msg = read_all(a.input.as_deref())?;
    let mut nonce = vec![0u8; nonce_len(k.algorithm)];
    getrandom::fill(&mut nonce).map_err(|e| CliError::io(format!("random source: {e}")))?;
    let tag = tag_of(&k, &nonce, &msg)?;
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
    let msg = read_all(a.input.as_deref())?;
    let ok = match k.algorithm {
        Algorithm::Poly1305Aes => galois_aead::poly1305::Poly1305Aes::new(&k.key)
            .map_err(crypto)?
            .verify(&nonce, &msg, &tag),
        _ => galois_aead::AesGmac::new(&k.key)
            .map_err(crypto)?
            .verify(&nonce, &msg, &tag),
    };
    ok.map_err(crypto)?;
    Ok(ExitCode::SUCCESS)
}
