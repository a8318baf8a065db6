//! `galois-bench`: galois side by side with its peers, in one process.

use clap::{Parser, Subcommand};

mod chunked;
mod cost;
mod count;
mod gcm;
mod keys;
mod measure;
mod poly1305;
mod siv;

#[derive(Parser)]
#[command(
    name = "galois-bench",
    about = "galois against its peers, side by side in one run"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// AES-GCM and GMAC against OpenSSL, aws-lc-rs, ring and RustCrypto.
    Gcm(gcm::Args),
    /// Cobblestone (chunked encryption) memory to memory, one core and all
    /// cores, against AES-128-GCM at 16 KiB.
    Chunked(chunked::Args),
    /// Poly1305-AES against OpenSSL.
    Poly1305(poly1305::Args),
    /// AES-GCM-SIV against aws-lc-rs; XAES-256-GCM against AES-256-GCM.
    Siv(siv::Args),
    /// Key setup: a GCM key, an XAES message key, a GCM-SIV nonce's keys.
    Keys(keys::Args),
    /// One AES-GCM call's cost per batch and per message against ring,
    /// with warm caches and with cold ones.
    Cost(cost::Args),
    /// Calls of one primitive of one implementation and nothing else, for
    /// per-call counts under valgrind (scripts/counts.sh).
    Count(count::Args),
}

fn main() {
    match Cli::parse().cmd {
        Cmd::Gcm(a) => gcm::run(a),
        Cmd::Chunked(a) => chunked::run(a),
        Cmd::Poly1305(a) => poly1305::run(a),
        Cmd::Siv(a) => siv::run(a),
        Cmd::Keys(a) => keys::run(a),
        Cmd::Cost(a) => cost::run(a),
        Cmd::Count(a) => count::run(a),
    }
}
