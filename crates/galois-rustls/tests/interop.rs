//! Against peers nobody here wrote, over loopback: Debian's `curl` and
//! `openssl s_client` against the example server's code (run in-process),
//! a galois client against `openssl s_server`, for every galois suite; and
//! tampered records through a byte-flipping TCP proxy, in both directions.
//! Needs `curl` and `openssl` on PATH (scripts/setup.sh installs them).

mod common;
#[path = "../examples/serve/server.rs"]
mod server;

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use common::{pattern, pki, sha256, KeyKind};
use rustls::{AlertDescription, CipherSuite, ClientConfig, ClientConnection, Error, RootCertStore};

/// Files shared by the tests: the CA, both server identities, the body.
struct Files {
    dir: PathBuf,
    body: Arc<Vec<u8>>,
}

fn files() -> &'static Files {
    static F: OnceLock<Files> = OnceLock::new();
    F.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("galois-rustls-interop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = pki();
        std::fs::write(dir.join("ca.pem"), &p.ca_pem).unwrap();
        for (name, id) in [("ecdsa", &p.ecdsa), ("rsa", &p.rsa)] {
            std::fs::write(dir.join(format!("{name}-cert.pem")), &id.cert_pem).unwrap();
            std::fs::write(dir.join(format!("{name}-key.pem")), &id.key_pem).unwrap();
        }
        // Not a multiple of the record size, so the last record is short.
        let body = pattern(300_000 + 123, 42);
        std::fs::write(dir.join("file.bin"), &body).unwrap();
        Files {
            dir,
            body: Arc::new(body),
        }
    })
}

fn is_tls13(s: CipherSuite) -> bool {
    format!("{s:?}").starts_with("TLS13_")
}

/// OpenSSL's name for a suite.
fn openssl_name(s: CipherSuite) -> &'static str {
    match s {
        CipherSuite::TLS13_AES_128_GCM_SHA256 => "TLS_AES_128_GCM_SHA256",
        CipherSuite::TLS13_AES_256_GCM_SHA384 => "TLS_AES_256_GCM_SHA384",
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 => "ECDHE-ECDSA-AES128-GCM-SHA256",
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 => "ECDHE-ECDSA-AES256-GCM-SHA384",
        CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 => "ECDHE-RSA-AES128-GCM-SHA256",
        CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 => "ECDHE-RSA-AES256-GCM-SHA384",
        other => panic!("no OpenSSL name for {other:?}"),
    }
}

fn kind_name(k: KeyKind) -> &'static str {
    match k {
        KeyKind::Ecdsa => "ecdsa",
        KeyKind::Rsa => "rsa",
    }
}

/// The example server's code on 127.0.0.1:(any), with `kind`'s certificate.
fn start_server(
    kind: KeyKind,
    versions: server::Versions,
) -> (SocketAddr, Receiver<server::ConnLog>) {
    let f = files();
    let name = kind_name(kind);
    let cfg = server::config(
        &f.dir.join(format!("{name}-cert.pem")),
        &f.dir.join(format!("{name}-key.pem")),
        versions,
    )
    .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = channel();
    let body = f.body.clone();
    std::thread::spawn(move || server::run(listener, Arc::new(cfg), body, Some(tx)));
    (addr, rx)
}

fn next_log(rx: &Receiver<server::ConnLog>) -> server::ConnLog {
    rx.recv_timeout(Duration::from_secs(60))
        .expect("server logged no connection")
}

/// Runs a command with a time limit; kills it (by its own pid) when over.
fn run(cmd: &mut Command, stdin: &[u8], limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e} (install it: scripts/setup.sh)"));
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
        // Keep stdin open a moment so s_client does not quit before the reply.
        std::thread::sleep(Duration::from_millis(200));
    });
    let start = Instant::now();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let o = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let e = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{cmd:?} took over {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    Output {
        status,
        stdout: o.join().unwrap(),
        stderr: e.join().unwrap(),
    }
}

fn curl(addr: SocketAddr, suite: CipherSuite, out: &std::path::Path) -> Output {
    let f = files();
    let mut c = Command::new("curl");
    c.args(["-sS", "--max-time", "30", "--http1.1", "--cacert"])
        .arg(f.dir.join("ca.pem"))
        .arg("--resolve")
        .arg(format!("localhost:{}:127.0.0.1", addr.port()))
        .arg("-o")
        .arg(out);
    if is_tls13(suite) {
        c.args(["--tlsv1.3", "--tls13-ciphers", openssl_name(suite)]);
    } else {
        c.args([
            "--tlsv1.2",
            "--tls-max",
            "1.2",
            "--ciphers",
            openssl_name(suite),
        ]);
    }
    c.arg(format!("https://localhost:{}/any/path", addr.port()));
    run(&mut c, b"", Duration::from_secs(40))
}

fn check_log(log: &server::ConnLog, suite: CipherSuite) {
    assert_eq!(
        log.suite.as_deref(),
        Some(format!("{suite:?}").as_str()),
        "{log}"
    );
    assert!(log.galois, "{log}");
    assert_eq!(
        log.protocol.as_deref(),
        Some(if is_tls13(suite) {
            "TLSv1_3"
        } else {
            "TLSv1_2"
        })
    );
    assert!(log.error.is_none(), "{log}");
    assert_eq!(log.sent, files().body.len());
}

/// curl fetches the file over each galois suite, TLS 1.3 and 1.2, and the
/// body's hash matches; the server saw the suite it was asked for.
#[test]
fn curl_every_suite() {
    static N: AtomicUsize = AtomicUsize::new(0);
    for versions in [
        server::Versions::Both,
        server::Versions::Tls12Only,
        server::Versions::Tls13Only,
    ] {
        let mut servers = [None, None];
        for suite in common::galois_suites() {
            let tls13 = is_tls13(suite);
            if (tls13 && versions == server::Versions::Tls12Only)
                || (!tls13 && versions == server::Versions::Tls13Only)
            {
                continue;
            }
            let kind = common::key_kind_for(suite);
            let (addr, rx) =
                servers[kind as usize].get_or_insert_with(|| start_server(kind, versions));
            let out = files()
                .dir
                .join(format!("curl-{}.bin", N.fetch_add(1, Ordering::Relaxed)));
            let o = curl(*addr, suite, &out);
            assert!(
                o.status.success(),
                "{suite:?}: curl: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            check_log(&next_log(rx), suite);
            let got = std::fs::read(&out).unwrap();
            assert_eq!(sha256(&got), sha256(&files().body), "{suite:?}");
        }
    }
    // A server restricted to one version refuses a client that insists on the other.
    let (addr, rx) = start_server(KeyKind::Ecdsa, server::Versions::Tls13Only);
    let o = curl(
        addr,
        CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        &files().dir.join("curl-refused.bin"),
    );
    assert!(!o.status.success());
    assert!(next_log(&rx).error.is_some());
}

/// `openssl s_client` connects with each suite, verifies the chain, and
/// receives the whole file.
#[test]
fn openssl_s_client_every_suite() {
    let f = files();
    for suite in common::galois_suites() {
        let kind = common::key_kind_for(suite);
        let (addr, rx) = start_server(kind, server::Versions::Both);
        let mut c = Command::new("openssl");
        c.args(["s_client", "-connect"])
            .arg(addr.to_string())
            .args([
                "-servername",
                "localhost",
                "-verify_return_error",
                "-ign_eof",
                "-CAfile",
            ])
            .arg(f.dir.join("ca.pem"));
        if is_tls13(suite) {
            c.args(["-tls1_3", "-ciphersuites", openssl_name(suite)]);
        } else {
            c.args(["-tls1_2", "-cipher", openssl_name(suite)]);
        }
        let o = run(
            &mut c,
            b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
            Duration::from_secs(40),
        );
        let text = String::from_utf8_lossy(&o.stdout);
        let want = format!(
            "{}, Cipher is {}",
            if is_tls13(suite) {
                "TLSv1.3"
            } else {
                "TLSv1.2"
            },
            openssl_name(suite)
        );
        assert!(
            text.contains(&want),
            "{suite:?}: no '{want}' in s_client output; stderr {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains("Verify return code: 0 (ok)"));
        assert!(text.contains("HTTP/1.1 200 OK"));
        let body = &f.body[..];
        assert!(
            o.stdout.windows(body.len()).any(|w| w == body),
            "{suite:?}: file not received whole"
        );
        check_log(&next_log(&rx), suite);
    }
}

/// A rustls client config (galois only, or another provider) for one suite.
fn client(imp: common::Impl, suite: CipherSuite) -> ClientConfig {
    let mut p = match imp {
        common::Impl::Galois => galois_rustls::provider_galois_only(),
        other => other.provider(),
    };
    p.cipher_suites.retain(|s| s.suite() == suite);
    let mut roots = RootCertStore::empty();
    roots.add(pki().ca_der.clone()).unwrap();
    ClientConfig::builder_with_provider(Arc::new(p))
        .with_protocol_versions(&[common::version_of(suite)])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A galois rustls client fetches the file from `openssl s_server -WWW`
/// over each suite: galois opens what OpenSSL sealed.
#[test]
fn galois_client_against_openssl_s_server() {
    let f = files();
    for suite in common::galois_suites() {
        let name = kind_name(common::key_kind_for(suite));
        let port = free_port();
        let mut cmd = Command::new("openssl");
        cmd.current_dir(&f.dir)
            .args(["s_server", "-naccept", "1", "-WWW", "-accept"])
            .arg(format!("127.0.0.1:{port}"))
            .arg("-cert")
            .arg(format!("{name}-cert.pem"))
            .arg("-key")
            .arg(format!("{name}-key.pem"));
        if is_tls13(suite) {
            cmd.args(["-tls1_3", "-ciphersuites", openssl_name(suite)]);
        } else {
            cmd.args(["-tls1_2", "-cipher", openssl_name(suite)]);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("openssl");
        let start = Instant::now();
        let sock = loop {
            match TcpStream::connect(("127.0.0.1", port)) {
                Ok(s) => break s,
                Err(_) if start.elapsed() < Duration::from_secs(15) => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => {
                    let _ = child.kill();
                    panic!("s_server did not come up: {e}");
                }
            }
        };
        let mut tls = client_stream(sock, common::Impl::Galois, suite);
        tls.write_all(b"GET /file.bin HTTP/1.0\r\n\r\n").unwrap();
        let mut got = Vec::new();
        let r = tls.read_to_end(&mut got);
        let s = tls.conn.negotiated_cipher_suite().unwrap();
        assert!(galois_rustls::is_galois_suite(&s) && s.suite() == suite);
        // s_server may close without close_notify; the body must be whole.
        if let Err(e) = r {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::UnexpectedEof,
                "{suite:?}: {e}"
            );
        }
        // Done with the server (it may linger after its one connection).
        let _ = child.kill();
        let _ = child.wait();
        let head = b"HTTP/1.0 200 ok\r\nContent-type: text/plain\r\n\r\n";
        assert!(
            got.starts_with(head),
            "{suite:?}: {:?}",
            String::from_utf8_lossy(&got[..got.len().min(200)])
        );
        assert_eq!(sha256(&got[head.len()..]), sha256(&f.body), "{suite:?}");
    }
}

/// Which record a proxy direction corrupts: the `nth` (0-based) record of
/// content type 23 whose body is at least `min_len` bytes; `at` picks the
/// byte inside the body (from the start if >= 0, else from the end).
#[derive(Clone, Copy)]
struct Flip {
    nth: usize,
    min_len: usize,
    at: isize,
}

/// A TCP proxy for one connection that forwards whole TLS records and flips
/// one byte of one record in one direction. Returns its address.
fn proxy(upstream: SocketAddr, c2s: Option<Flip>, s2c: Option<Flip>) -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        let (down, _) = l.accept().unwrap();
        let up = TcpStream::connect(upstream).unwrap();
        let pump = |mut from: TcpStream, mut to: TcpStream, flip: Option<Flip>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 65536];
                let mut seen = 0usize;
                loop {
                    let n = match from.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    buf.extend_from_slice(&chunk[..n]);
                    while buf.len() >= 5 {
                        let len = u16::from_be_bytes([buf[3], buf[4]]) as usize;
                        if buf.len() < 5 + len {
                            break;
                        }
                        let mut rec: Vec<u8> = buf.drain(..5 + len).collect();
                        if let Some(f) = flip {
                            if rec[0] == 23 && len >= f.min_len {
                                if seen == f.nth {
                                    let i = if f.at >= 0 {
                                        f.at as usize
                                    } else {
                                        len - (-f.at) as usize
                                    };
                                    rec[5 + i] ^= 0x20;
                                }
                                seen += 1;
                            }
                        }
                        if to.write_all(&rec).is_err() {
                            return;
                        }
                    }
                }
                let _ = to.write_all(&buf);
                let _ = to.shutdown(Shutdown::Write);
            })
        };
        let a = pump(down.try_clone().unwrap(), up.try_clone().unwrap(), c2s);
        let b = pump(up, down, s2c);
        let _ = (a.join(), b.join());
    });
    addr
}

/// The first application-data record a client sends: in TLS 1.3 its
/// Finished is the first type-23 record, in TLS 1.2 the Finished is type 22.
fn request_record(suite: CipherSuite, at: isize) -> Flip {
    Flip {
        nth: if is_tls13(suite) { 1 } else { 0 },
        min_len: 0,
        at,
    }
}

/// A flipped byte in the request curl sends: the galois server refuses the
/// record (bad_record_mac, which curl reports), and never sees the request.
#[test]
fn tampered_request_from_curl_is_refused() {
    for suite in common::galois_suites() {
        for at in [3isize, -1] {
            let (addr, rx) = start_server(common::key_kind_for(suite), server::Versions::Both);
            let p = proxy(addr, Some(request_record(suite, at)), None);
            let out = files().dir.join("curl-tampered.bin");
            let o = curl(p, suite, &out);
            assert!(
                !o.status.success(),
                "{suite:?}: curl succeeded through a tampered record"
            );
            let err = String::from_utf8_lossy(&o.stderr).to_lowercase();
            assert!(err.contains("bad record mac"), "{suite:?}: curl said {err}");
            let log = next_log(&rx);
            assert!(
                log.request.is_none(),
                "{suite:?}: the server read {:?}",
                log.request
            );
            assert!(
                log.error.as_deref().unwrap_or("").contains("decrypt"),
                "{log}"
            );
            assert_eq!(log.sent, 0);
        }
    }
}

/// A TLS client of implementation `imp` offering only `suite`, over
/// `sock` (reads time out after 30 s), for "localhost".
fn client_stream(
    sock: TcpStream,
    imp: common::Impl,
    suite: CipherSuite,
) -> rustls::StreamOwned<ClientConnection, TcpStream> {
    sock.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let conn = ClientConnection::new(
        Arc::new(client(imp, suite)),
        "localhost".try_into().unwrap(),
    )
    .unwrap();
    rustls::StreamOwned::new(conn, sock)
}

/// The same with a rustls (aws-lc-rs) client: it receives bad_record_mac.
#[test]
fn tampered_request_from_rustls_is_refused() {
    for suite in common::galois_suites() {
        let (addr, rx) = start_server(common::key_kind_for(suite), server::Versions::Both);
        let p = proxy(addr, Some(request_record(suite, 9)), None);
        let sock = TcpStream::connect(p).unwrap();
        let mut tls = client_stream(sock, common::Impl::AwsLc, suite);
        tls.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .unwrap();
        let mut got = Vec::new();
        let e = tls.read_to_end(&mut got).unwrap_err();
        let inner = e.get_ref().and_then(|i| i.downcast_ref::<Error>()).cloned();
        assert_eq!(
            inner,
            Some(Error::AlertReceived(AlertDescription::BadRecordMac)),
            "{suite:?}: {e}"
        );
        assert!(got.is_empty());
        let log = next_log(&rx);
        assert!(log.request.is_none() && log.error.is_some(), "{log}");
    }
}

/// A flipped byte in the second full-size record of the response: the
/// galois client stops with bad_record_mac (DecryptError), and what the
/// application read is a correct prefix of the response that stops before
/// the tampered record (at least 16 KiB short), never a corrupted byte.
#[test]
fn tampered_response_to_galois_client_is_refused() {
    let f = files();
    for suite in common::galois_suites() {
        for at in [100isize, -3] {
            let (addr, rx) = start_server(common::key_kind_for(suite), server::Versions::Both);
            let p = proxy(
                addr,
                None,
                Some(Flip {
                    nth: 1,
                    min_len: 16384,
                    at,
                }),
            );
            let sock = TcpStream::connect(p).unwrap();
            let mut tls = client_stream(sock, common::Impl::Galois, suite);
            tls.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .unwrap();
            // read_to_end keeps what arrived before the error in `got`.
            let mut got = Vec::new();
            let err = match tls.read_to_end(&mut got) {
                Ok(_) => panic!("{suite:?}: clean end through a tampered record"),
                Err(e) => e,
            };
            let inner = err
                .get_ref()
                .and_then(|i| i.downcast_ref::<Error>())
                .cloned();
            assert_eq!(inner, Some(Error::DecryptError), "{suite:?}: {err}");
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                f.body.len()
            );
            let mut expect = head.into_bytes();
            expect.extend_from_slice(&f.body);
            assert!(
                got.len() + 16384 <= expect.len(),
                "{suite:?}: read {} of {}",
                got.len(),
                expect.len()
            );
            assert!(
                got.len() >= 16384,
                "{suite:?}: the first full record should have arrived"
            );
            assert_eq!(
                got[..],
                expect[..got.len()],
                "{suite:?}: corrupted bytes reached the application"
            );
            let _ = next_log(&rx);
        }
    }
}
