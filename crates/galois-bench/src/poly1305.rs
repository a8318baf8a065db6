//! Poly1305-AES against OpenSSL (filled in by the Poly1305 work).

#[derive(clap::Args)]
pub struct Args {
    /// Fewer, shorter samples.
    #[arg(long)]
    quick: bool,
}

pub fn run(_a: Args) {
    eprintln!("galois-bench poly1305: not built yet");
    std::process::exit(2);
}
