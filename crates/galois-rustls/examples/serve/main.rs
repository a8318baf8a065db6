//! An HTTPS file server on rustls with the galois provider.
//!
//! ```text
//! cargo run --release -p galois-rustls --example serve -- \
//!     --listen 127.0.0.1:8443 --cert CERT.pem --key KEY.pem --file FILE \
//!     [--tls12-only | --tls13-only]
//! ```
//!
//! Every HTTP/1.1 `GET` (any path) returns FILE. One line per connection on
//! stdout: peer, protocol, cipher suite, "(galois)" when the suite's records
//! ran through galois, the request, and any error.

mod server;

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

const USAGE: &str = "usage: serve --listen ADDR --cert CERT.pem --key KEY.pem --file FILE [--tls12-only | --tls13-only]";

fn main() {
    if let Err(e) = real_main() {
        eprintln!("serve: {e}");
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
}

fn real_main() -> Result<(), String> {
    let mut listen = None;
    let mut cert = None;
    let mut key = None;
    let mut file = None;
    let mut versions = server::Versions::Both;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--listen" => listen = Some(value("--listen")?),
            "--cert" => cert = Some(PathBuf::from(value("--cert")?)),
            "--key" => key = Some(PathBuf::from(value("--key")?)),
            "--file" => file = Some(PathBuf::from(value("--file")?)),
            "--tls12-only" if versions == server::Versions::Both => {
                versions = server::Versions::Tls12Only
            }
            "--tls13-only" if versions == server::Versions::Both => {
                versions = server::Versions::Tls13Only
            }
            "--tls12-only" | "--tls13-only" => {
                return Err("--tls12-only and --tls13-only exclude each other".into())
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let listen = listen.ok_or("--listen is required")?;
    let cert = cert.ok_or("--cert is required")?;
    let key = key.ok_or("--key is required")?;
    let file = file.ok_or("--file is required")?;
    let body = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let cfg = server::config(&cert, &key, versions)?;
    let listener = TcpListener::bind(&listen).map_err(|e| format!("{listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "serving {} ({} bytes) on https://{addr}/ ({versions:?}; AES-GCM by galois, backend {})",
        file.display(),
        body.len(),
        galois_aead::AesGcm::new(&[0u8; 16])
            .map(|g| format!("{:?}/{:?}", g.aes_backend(), g.backend()))
            .unwrap_or_default()
    );
    let _ = std::io::stdout().flush();
    server::run(listener, Arc::new(cfg), Arc::new(body), None);
    Ok(())
}
