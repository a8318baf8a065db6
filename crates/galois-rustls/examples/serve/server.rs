//! The HTTPS file server behind `examples/serve`: one thread per
//! connection, rustls with the galois provider, HTTP/1.1 `GET` of any path
//! returns the file. Shared with the interop tests (`tests/interop.rs`),
//! which run this same code in-process.
#![allow(dead_code)]

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// Which protocol versions to offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Versions {
    Both,
    Tls12Only,
    Tls13Only,
}

/// What happened on one connection.
#[derive(Clone, Debug)]
pub struct ConnLog {
    pub peer: SocketAddr,
    /// Negotiated protocol and suite, once the handshake finished.
    pub protocol: Option<String>,
    pub suite: Option<String>,
    /// Whether the suite's records ran through galois.
    pub galois: bool,
    /// The request line read (None if none arrived intact).
    pub request: Option<String>,
    /// Body bytes sent.
    pub sent: usize,
    /// The error that ended the connection, if any.
    pub error: Option<String>,
}

impl std::fmt::Display for ConnLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} {}{}",
            self.peer,
            self.protocol.as_deref().unwrap_or("-"),
            self.suite.as_deref().unwrap_or("-"),
            if self.galois { " (galois)" } else { "" },
        )?;
        if let Some(r) = &self.request {
            write!(f, " \"{r}\" {} bytes", self.sent)?;
        }
        if let Some(e) = &self.error {
            write!(f, " error: {e}")?;
        }
        Ok(())
    }
}

/// A server config from PEM files, with the galois provider.
pub fn config(cert: &Path, key: &Path, versions: Versions) -> Result<ServerConfig, String> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .map_err(|e| format!("{}: {e}", cert.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!("{}: no certificate", cert.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("{}: {e}", key.display()))?;
    config_from(chain, key, versions)
}

pub fn config_from(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    versions: Versions,
) -> Result<ServerConfig, String> {
    let vs: &[&rustls::SupportedProtocolVersion] = match versions {
        Versions::Both => &[&rustls::version::TLS13, &rustls::version::TLS12],
        Versions::Tls12Only => &[&rustls::version::TLS12],
        Versions::Tls13Only => &[&rustls::version::TLS13],
    };
    let mut cfg = ServerConfig::builder_with_provider(Arc::new(galois_rustls::provider()))
        .with_protocol_versions(vs)
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| e.to_string())?;
    cfg.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(cfg)
}

/// Accepts connections forever, one thread each. Each finished
/// connection's log goes to `logs` (if given) and to stdout.
pub fn run(
    listener: TcpListener,
    cfg: Arc<ServerConfig>,
    body: Arc<Vec<u8>>,
    logs: Option<Sender<ConnLog>>,
) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let (cfg, body, logs) = (cfg.clone(), body.clone(), logs.clone());
        std::thread::spawn(move || {
            let log = serve_conn(stream, cfg, &body);
            println!("{log}");
            let _ = io::stdout().flush();
            if let Some(l) = logs {
                let _ = l.send(log);
            }
        });
    }
}

/// Serves one connection: handshake, one request, the file, close_notify.
pub fn serve_conn(stream: TcpStream, cfg: Arc<ServerConfig>, body: &[u8]) -> ConnLog {
    let peer = stream
        .peer_addr()
        .unwrap_or_else(|_| ([0, 0, 0, 0], 0).into());
    let mut log = ConnLog {
        peer,
        protocol: None,
        suite: None,
        galois: false,
        request: None,
        sent: 0,
        error: None,
    };
    if let Err(e) = serve_inner(stream, cfg, body, &mut log) {
        log.error = Some(e.to_string());
    }
    log
}

fn serve_inner(
    stream: TcpStream,
    cfg: Arc<ServerConfig>,
    body: &[u8],
    log: &mut ConnLog,
) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let conn = ServerConnection::new(cfg).map_err(io::Error::other)?;
    let mut tls = StreamOwned::new(conn, stream);
    while tls.conn.is_handshaking() {
        tls.conn.complete_io(&mut tls.sock)?;
    }
    log.protocol = tls.conn.protocol_version().map(|v| format!("{v:?}"));
    if let Some(s) = tls.conn.negotiated_cipher_suite() {
        log.suite = Some(format!("{:?}", s.suite()));
        log.galois = galois_rustls::is_galois_suite(&s);
    }
    // The request: a request line and headers up to an empty line.
    let mut reader = BufReader::new(&mut tls);
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "no request"));
    }
    let request = line.trim_end().to_string();
    let mut header_bytes = line.len();
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        header_bytes += n;
        if n == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if header_bytes > 64 * 1024 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "request headers too long",
            ));
        }
    }
    drop(reader);
    log.request = Some(request.clone());
    let response_head;
    let payload: &[u8] = if request.starts_with("GET ") {
        response_head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        body
    } else {
        response_head =
            "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                .to_string();
        &[]
    };
    tls.write_all(response_head.as_bytes())?;
    for chunk in payload.chunks(1 << 16) {
        tls.write_all(chunk)?;
        log.sent += chunk.len();
    }
    tls.conn.send_close_notify();
    tls.flush()?;
    while tls.conn.wants_write() {
        tls.conn.write_tls(&mut tls.sock)?;
    }
    // Drain until the peer closes (bounded by the read timeout).
    let mut sink = [0u8; 4096];
    let _ = tls.sock.set_read_timeout(Some(Duration::from_secs(2)));
    while matches!(tls.read(&mut sink), Ok(n) if n > 0) {}
    Ok(())
}
