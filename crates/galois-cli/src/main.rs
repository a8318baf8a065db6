use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;

/// galois: AES-GCM, GMAC and Poly1305-AES over Galois fields.
///
/// Encrypts and authenticates files in Cobblestone (C2SP chunked
/// encryption: AES-GCM over 16 KiB chunks, c2sp.org/chunked-encryption),
/// computes and checks GMAC and Poly1305-AES tags, and runs known-answer
/// tests and benchmarks of the library's backends.
#[derive(Parser)]
#[command(name = "galois", version, about, long_about,
    after_help = concat!(
        "Examples:\n",
        "  galois keygen -o my.key\n",
        "  galois seal --key my.key -o report.pdf.gal report.pdf\n",
        "  galois open --key my.key -o report.pdf report.pdf.gal\n",
        "  galois mac --key my.key report.pdf      # prints NONCE:TAG\n",
        "  galois selftest\n\n",
        "`galois help COMMAND` shows each command's options, examples and exit codes.\n",
        "Errors are one line on stderr.\n\n",
        cmd::exit_codes!()
    ))]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write a fresh key file (mode 0600).
    Keygen(cmd::keygen::Args),
    /// Encrypt a file or standard input (Cobblestone: C2SP chunked encryption).
    Seal(cmd::seal::SealArgs),
    /// Decrypt and verify (Cobblestone, or galois's earlier stream format).
    Open(cmd::seal::OpenArgs),
    /// GMAC or Poly1305-AES tag of a file, printed as NONCE:TAG.
    Mac(cmd::mac::MacArgs),
    /// Check a NONCE:TAG from `galois mac`.
    Verify(cmd::mac::VerifyArgs),
    /// Run known-answer files (schema vectors-v1) through the library.
    Kat(cmd::kat::Args),
    /// Measure galois's own backends (the spec's Table 1 redone here).
    Bench(cmd::bench::Args),
    /// Run the compiled-in shared vectors through the auto-selected backends.
    #[command(after_help = concat!(
        "Example:\n  galois selftest\n\n",
        "Prints the CPU features, the AES and GHASH backends chosen here, the GHASH\n",
        "backends available, and a result line per vector file.\n\n",
        cmd::exit_codes!()
    ))]
    Selftest,
    /// Write random AES-GCM cases (vectors-v1) computed by galois.
    GenVectors(cmd::genvec::Args),
}

fn main() -> ExitCode {
    cmd::files::die_on_broken_pipe();
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
            cmd::files::end_progress_line();
            eprintln!("galois: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
