use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;

/// galois: AES-GCM, GMAC and Poly1305-AES over Galois fields.
#[derive(Parser)]
#[command(name = "galois", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write a fresh key file (mode 0600).
    Keygen(cmd::keygen::Args),
    /// Encrypt a file or standard input (segmented AES-GCM stream).
    Seal(cmd::seal::Args),
    /// Decrypt and verify; the output appears only if everything verified.
    Open(cmd::seal::Args),
    /// GMAC or Poly1305-AES tag of a file, printed as NONCE:TAG.
    Mac(cmd::mac::MacArgs),
    /// Check a NONCE:TAG from `galois mac`.
    Verify(cmd::mac::VerifyArgs),
    /// Run known-answer files (schema vectors-v1) through the library.
    Kat(cmd::kat::Args),
    /// Measure galois's own backends (the spec's Table 1 redone here).
    Bench(cmd::bench::Args),
    /// Run the compiled-in shared vectors through the auto-selected backends.
    Selftest,
    /// Write random AES-GCM cases (vectors-v1) computed by galois.
    GenVectors(cmd::genvec::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Keygen(a) => cmd::keygen::run(a),
        Cmd::Seal(a) => cmd::seal::seal(a),
        Cmd::Open(a) => cmd::seal::open(a),
        Cmd::Mac(a) => cmd::mac::mac(a),
        Cmd::Verify(a) => cmd::mac::verify(a),
        Cmd::Kat(a) => cmd::kat::run(a),
        Cmd::Bench(a) => cmd::bench::run(a),
        Cmd::Selftest => cmd::selftest::run(),
        Cmd::GenVectors(a) => cmd::genvec::run(a),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("galois: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
