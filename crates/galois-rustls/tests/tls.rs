//! rustls with the galois provider against itself and against rustls with
//! aws-lc-rs and ring: every galois suite, TLS 1.2 and 1.3, every record
//! size up to 16 KiB, key updates, a 64 MiB transfer with its hash, secret
//! extraction, and tampered records.

mod common;

use common::*;
use rustls::{AlertDescription, CipherSuite, Error};
use std::io::Write;

const PAIRINGS: [(Impl, Impl); 5] = [
    (Impl::Galois, Impl::Galois),
    (Impl::Galois, Impl::AwsLc),
    (Impl::AwsLc, Impl::Galois),
    (Impl::Galois, Impl::Ring),
    (Impl::Ring, Impl::Galois),
];

fn is_tls13(suite: CipherSuite) -> bool {
    version_of(suite) == &rustls::version::TLS13
}

/// The galois side really runs galois suites (pointer identity with this
/// crate's statics), and the peer does not.
fn check_galois_side(p: &Pair, client: Impl, server: Impl) {
    let c = p.client.negotiated_cipher_suite().unwrap();
    let s = p.server.negotiated_cipher_suite().unwrap();
    assert_eq!(galois_rustls::is_galois_suite(&c), client == Impl::Galois);
    assert_eq!(galois_rustls::is_galois_suite(&s), server == Impl::Galois);
}

#[test]
fn every_suite_every_pairing() {
    for suite in galois_suites() {
        for (client, server) in PAIRINGS {
            let mut p = Pair::new(client, server, suite);
            check_galois_side(&p, client, server);
            let ov = overhead(suite);
            // A spread of sizes both ways, with key updates between (TLS 1.3).
            for (i, len) in [
                1usize, 2, 15, 16, 17, 31, 32, 33, 255, 256, 1024, 1500, 4095, 8191, 16383, 16384,
            ]
            .into_iter()
            .enumerate()
            {
                send_record(&mut p, true, &pattern(len, i as u64), ov);
                send_record(&mut p, false, &pattern(len, 1000 + i as u64), ov);
                if is_tls13(suite) && i % 5 == 4 {
                    let (from, _) = p.sides(i % 2 == 0);
                    from.refresh_traffic_keys().unwrap();
                    p.flush();
                }
            }
            // Clean close.
            p.client.send_close_notify();
            p.flush();
            assert!(read_all(&mut p.server).is_empty());
        }
    }
}

/// Every record size from 1 to 16384 bytes, both directions, galois on one
/// side and aws-lc-rs on the other, for every suite.
#[test]
fn every_record_size_to_16k() {
    for suite in galois_suites() {
        let ov = overhead(suite);
        let mut p = Pair::new(Impl::Galois, Impl::AwsLc, suite);
        let data = pattern(16384, 7);
        for c2s in [true, false] {
            // Batches of records per pump keep the test quick; each record's
            // length is checked on the wire and all bytes on arrival.
            let mut len = 1usize;
            while len <= 16384 {
                let (from, to) = p.sides(c2s);
                let start = len;
                let mut expect = Vec::new();
                while len <= 16384 && expect.len() < (1 << 20) {
                    from.writer().write_all(&data[..len]).unwrap();
                    expect.extend_from_slice(&data[..len]);
                    len += 1;
                }
                let wire = take_tls(from);
                let recs = records(&wire);
                assert_eq!(recs.len(), len - start);
                for (k, r) in recs.iter().enumerate() {
                    assert_eq!(*r, (23, start + k + ov), "{suite:?}");
                }
                assert_eq!(
                    feed(to, &wire).unwrap(),
                    expect,
                    "{suite:?} sizes {start}..{len}"
                );
            }
        }
    }
}

/// Many TLS 1.3 key updates, requested by either side, with records
/// between, against aws-lc-rs and galois.
#[test]
fn key_updates() {
    for suite in [
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        CipherSuite::TLS13_AES_256_GCM_SHA384,
    ] {
        for (client, server) in [
            (Impl::Galois, Impl::AwsLc),
            (Impl::AwsLc, Impl::Galois),
            (Impl::Galois, Impl::Galois),
        ] {
            let mut p = Pair::new(client, server, suite);
            for i in 0..64u64 {
                let c2s = i % 3 != 0;
                p.sides(c2s).0.refresh_traffic_keys().unwrap();
                // The KeyUpdate goes out before (in the same flight as) the data.
                let data = pattern(100 + i as usize * 37, i);
                let (from, to) = p.sides(c2s);
                from.writer().write_all(&data).unwrap();
                let wire = take_tls(from);
                assert_eq!(records(&wire).len(), 2, "key update + data");
                assert_eq!(feed(to, &wire).unwrap(), data);
                p.flush();
                send_record(&mut p, !c2s, &pattern(64, 99 + i), overhead(suite));
            }
        }
    }
}

/// 64 MiB each way through rustls with galois on one side; the receiver's
/// SHA-256 must match the sender's.
#[test]
fn transfer_64mib_with_hash() {
    const TOTAL: usize = 64 << 20;
    for (suite, client, server) in [
        (
            CipherSuite::TLS13_AES_128_GCM_SHA256,
            Impl::Galois,
            Impl::AwsLc,
        ),
        (
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
            Impl::AwsLc,
            Impl::Galois,
        ),
    ] {
        let mut p = Pair::new(client, server, suite);
        for c2s in [true, false] {
            let chunk = pattern(1 << 20, c2s as u64 + 17);
            let mut sent = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
            let mut got = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
            let mut received = 0usize;
            for i in 0..TOTAL / chunk.len() {
                // Vary the data so a repeated keystream would show.
                let mut c = chunk.clone();
                c[..8].copy_from_slice(&(i as u64).to_be_bytes());
                sent.update(&c);
                let (from, to) = p.sides(c2s);
                from.writer().write_all(&c).unwrap();
                let wire = take_tls(from);
                let r = feed(to, &wire).unwrap();
                received += r.len();
                got.update(&r);
            }
            assert_eq!(received, TOTAL);
            assert_eq!(sent.finish().as_ref(), got.finish().as_ref(), "{suite:?}");
        }
    }
    // The hash helper itself tells data apart.
    assert_ne!(sha256(b"a"), sha256(b"b"));
}

/// `dangerous_extract_secrets` (kTLS offload) hands out keys that open the
/// records galois sealed, and the two ends agree on them.
#[test]
fn extracted_secrets_open_galois_records() {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM, AES_256_GCM};
    use rustls::ConnectionTrafficSecrets as S;
    for suite in galois_suites() {
        let mut p = Pair::new(Impl::Galois, Impl::AwsLc, suite);
        let msg = b"records for the kernel to carry";
        p.client.writer().write_all(msg).unwrap();
        let wire = take_tls(&mut p.client);
        assert_eq!(feed(&mut p.server, &wire).unwrap(), msg);

        let (client, server) = (p.client, p.server);
        let cs = client.dangerous_extract_secrets().unwrap();
        let ss = server.dangerous_extract_secrets().unwrap();
        // TLS 1.3: the data record was the first under the traffic keys;
        // TLS 1.2: the Finished message came first (sequence 0).
        let seq: u64 = if is_tls13(suite) { 0 } else { 1 };
        assert_eq!((cs.tx.0, ss.rx.0), (seq + 1, seq + 1), "{suite:?}");
        let (key, iv, alg) = match &cs.tx.1 {
            S::Aes128Gcm { key, iv } => (key.as_ref().to_vec(), iv.as_ref().to_vec(), &AES_128_GCM),
            S::Aes256Gcm { key, iv } => (key.as_ref().to_vec(), iv.as_ref().to_vec(), &AES_256_GCM),
            _ => panic!("not AES-GCM"),
        };
        match &ss.rx.1 {
            S::Aes128Gcm { key: k, iv: v } | S::Aes256Gcm { key: k, iv: v } => {
                assert_eq!((k.as_ref(), v.as_ref()), (&key[..], &iv[..]), "{suite:?}");
            }
            _ => panic!("peer disagrees on the AEAD"),
        }
        assert_eq!(
            key.len(),
            if format!("{suite:?}").contains("AES_256") {
                32
            } else {
                16
            }
        );

        // Open the captured record with aws-lc-rs and the extracted key.
        let rec = &wire[5..];
        let k = LessSafeKey::new(UnboundKey::new(alg, &key).unwrap());
        if is_tls13(suite) {
            let nonce: [u8; 12] = iv.clone().try_into().unwrap(); // seq 0
            let mut body = rec.to_vec();
            let pt = k
                .open_in_place(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(&wire[..5]),
                    &mut body,
                )
                .unwrap();
            assert_eq!(&pt[..msg.len()], msg);
            assert_eq!(pt[msg.len()], 23, "inner content type");
        } else {
            // Salt || explicit nonce from the wire; the explicit part is the
            // extracted IV's tail xor the sequence number.
            let tail = u64::from_be_bytes(iv[4..].try_into().unwrap()) ^ seq;
            assert_eq!(&rec[..8], &tail.to_be_bytes());
            let mut nonce = [0u8; 12];
            nonce[..4].copy_from_slice(&iv[..4]);
            nonce[4..].copy_from_slice(&rec[..8]);
            let mut aad = seq.to_be_bytes().to_vec();
            aad.extend_from_slice(&[23, 3, 3]);
            aad.extend_from_slice(&(msg.len() as u16).to_be_bytes());
            let mut body = rec[8..].to_vec();
            let pt = k
                .open_in_place(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(&aad[..]),
                    &mut body,
                )
                .unwrap();
            assert_eq!(pt, msg);
        }
    }
}

/// A record with one flipped bit is refused with bad_record_mac, the peer
/// is told so, and none of its plaintext is readable.
#[test]
fn tampered_record_is_refused() {
    for suite in galois_suites() {
        for (client, server) in [(Impl::AwsLc, Impl::Galois), (Impl::Galois, Impl::Galois)] {
            for pos in [5usize, 12, 40] {
                let mut p = Pair::new(client, server, suite);
                let msg = pattern(48, pos as u64);
                p.client.writer().write_all(&msg).unwrap();
                let mut wire = take_tls(&mut p.client);
                wire[pos] ^= 0x01;
                let err = feed(&mut p.server, &wire).unwrap_err();
                assert_eq!(err, Error::DecryptError, "{suite:?} byte {pos}");
                assert!(read_all(&mut p.server).is_empty(), "plaintext leaked");
                // The server's alert reaches the client as bad_record_mac.
                let alert = take_tls(&mut p.server);
                assert!(!alert.is_empty());
                let got = feed(&mut p.client, &alert).unwrap_err();
                assert_eq!(got, Error::AlertReceived(AlertDescription::BadRecordMac));
            }
        }
    }
}

/// Records of the wrong shape: shorter than a tag (TLS 1.3) or than nonce
/// plus tag (TLS 1.2) are refused, not read out of bounds.
#[test]
fn short_records_are_refused() {
    for suite in galois_suites() {
        for len in [0usize, 1, 15, 16, 23] {
            let mut p = Pair::new(Impl::AwsLc, Impl::Galois, suite);
            let mut rec = vec![23u8, 3, 3];
            rec.extend_from_slice(&(len as u16).to_be_bytes());
            rec.extend(std::iter::repeat_n(0xa5, len));
            let r = feed(&mut p.server, &rec);
            assert!(r.is_err(), "{suite:?} len {len}");
            assert!(read_all(&mut p.server).is_empty());
        }
    }
}

/// A client that offers only ChaCha20-Poly1305 still connects: those suites
/// are kept from aws-lc-rs.
#[test]
fn chacha_suites_still_connect() {
    for suite in [
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
        CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ] {
        let mut p = Pair::new(Impl::AwsLc, Impl::Galois, suite);
        assert!(!galois_rustls::is_galois_suite(
            &p.server.negotiated_cipher_suite().unwrap()
        ));
        send_record(&mut p, true, b"chacha", overhead(suite));
    }
}

/// With the full provider on both ends, the preferred suite is galois
/// AES-256-GCM over TLS 1.3.
#[test]
fn default_negotiation_prefers_galois_aes() {
    use std::sync::Arc;
    let id = &pki().ecdsa;
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(id.key_der.clone().into());
    let sc = rustls::ServerConfig::builder_with_provider(Arc::new(galois_rustls::provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(id.chain.clone(), key)
        .unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(pki().ca_der.clone()).unwrap();
    let cc = rustls::ClientConfig::builder_with_provider(Arc::new(galois_rustls::provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let p = Pair::with_configs(cc, sc, CipherSuite::TLS13_AES_256_GCM_SHA384);
    check_galois_side(&p, Impl::Galois, Impl::Galois);
}
