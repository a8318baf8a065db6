//! Writes seed inputs for every fuzz target into `<corpus>/<target>/`,
//! in each target's input layout (documented at the top of each file in
//! `fuzz/fuzz_targets/`), from the shared known-answer vectors.
//!
//! Usage: `cargo run --release -p galois-cli --example fuzz_seed -- VECTORS_DIR
//! CORPUS_DIR` (`scripts/fuzz.sh` runs it).

use galois_aead::packet::{PacketSealer, Role, Start};
use galois_aead::stream;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// One GCM case from a vector file.
struct Gcm {
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    pt: Vec<u8>,
    tag_len: usize,
}

fn hexf(case: &Value, name: &str) -> Option<Vec<u8>> {
    hex::decode(case.get(name)?.as_str()?).ok()
}

fn u16be(n: usize) -> [u8; 2] {
    (n as u16).to_be_bytes()
}

/// `n` bytes of `b`, zero-padded.
fn padded(b: &[u8], n: usize) -> Vec<u8> {
    let mut v = b[..b.len().min(n)].to_vec();
    v.resize(n, 0);
    v
}

fn key_sel(len: usize) -> u8 {
    match len {
        16 => 0,
        24 => 1,
        _ => 2,
    }
}

struct Out {
    dir: PathBuf,
    count: usize,
}

impl Out {
    fn new(corpus: &Path, target: &str) -> Out {
        let dir = corpus.join(target);
        fs::create_dir_all(&dir).unwrap();
        Out { dir, count: 0 }
    }

    fn put(&mut self, name: &str, data: &[u8]) {
        fs::write(self.dir.join(format!("seed-{name}")), data).unwrap();
        self.count += 1;
    }
}

fn load(dir: &Path) -> Vec<(String, Value)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let text = fs::read_to_string(&p).ok()?;
            let doc = serde_json::from_str(&text).ok()?;
            Some((p.file_name()?.to_string_lossy().into_owned(), doc))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: {} VECTORS_DIR CORPUS_DIR", args[0]);
        std::process::exit(2);
    }
    let (vectors, corpus) = (Path::new(&args[1]), Path::new(&args[2]));
    let files = load(vectors);

    // Vector files themselves, for the parser.
    let mut vp = Out::new(corpus, "vector_parser");
    for (name, _) in &files {
        vp.put(name, &fs::read(vectors.join(name)).unwrap());
    }

    let mut gcm = Vec::new();
    let mut poly_aes = Vec::new();
    let mut poly_one = Vec::new();
    for (_, doc) in &files {
        let alg = doc.get("algorithm").and_then(Value::as_str).unwrap_or("");
        for case in doc
            .get("tests")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match alg {
                "AES-GCM" | "AES-GMAC" => {
                    let (Some(key), Some(iv), Some(aad), Some(tag)) = (
                        hexf(case, "key"),
                        hexf(case, "iv"),
                        hexf(case, "aad"),
                        hexf(case, "tag"),
                    ) else {
                        continue;
                    };
                    let pt = hexf(case, "pt").unwrap_or_default();
                    if [16, 24, 32].contains(&key.len()) && (4..=16).contains(&tag.len()) {
                        gcm.push(Gcm {
                            key,
                            iv,
                            aad,
                            pt,
                            tag_len: tag.len(),
                        });
                    }
                }
                "Poly1305-AES" => {
                    let (Some(key), Some(nonce), Some(msg)) =
                        (hexf(case, "key"), hexf(case, "nonce"), hexf(case, "msg"))
                    else {
                        continue;
                    };
                    poly_aes.push((key, nonce, msg));
                }
                "Poly1305" => {
                    let (Some(key), Some(msg)) = (hexf(case, "key"), hexf(case, "msg")) else {
                        continue;
                    };
                    poly_one.push((key, msg));
                }
                _ => {}
            }
        }
    }

    let mut gb = Out::new(corpus, "gcm_backends");
    let mut go = Out::new(corpus, "gcm_openssl");
    let mut gm = Out::new(corpus, "gmac");
    let mut os = Out::new(corpus, "online_splits");
    for (k, c) in gcm.iter().enumerate() {
        let ks = key_sel(c.key.len());
        let key = padded(&c.key, 32);
        // gcm_backends: pair, key size, tag, flags, position, key, IV, AAD, pt.
        let mut v = vec![(k % 20) as u8, ks, (c.tag_len - 4) as u8, (k * 37) as u8];
        v.extend_from_slice(&u16be(k * 7));
        v.extend_from_slice(&key);
        v.extend_from_slice(&u16be(c.iv.len()));
        v.extend_from_slice(&c.iv);
        v.extend_from_slice(&u16be(c.aad.len()));
        v.extend_from_slice(&c.aad);
        v.extend_from_slice(&c.pt);
        gb.put(&format!("gcm-{k}"), &v);
        // gcm_openssl: IVs of 1..=128 bytes only.
        if (1..=128).contains(&c.iv.len()) {
            let mut v = vec![ks, (c.tag_len - 4) as u8, (k * 37) as u8];
            v.extend_from_slice(&u16be(k * 7));
            v.extend_from_slice(&key);
            v.extend_from_slice(&u16be(c.iv.len() - 1));
            v.extend_from_slice(&padded(&c.iv, 128));
            v.extend_from_slice(&u16be(c.aad.len()));
            v.extend_from_slice(&c.aad);
            v.extend_from_slice(&c.pt);
            go.put(&format!("gcm-{k}"), &v);
        }
        // gmac: the AAD (and plaintext) as the message.
        let mut v = vec![(k % 20) as u8, ks, (c.tag_len - 4) as u8, (k * 4) as u8];
        v.extend_from_slice(&(k as u64 * 0x9e37_79b9).to_be_bytes());
        v.extend_from_slice(&key);
        v.extend_from_slice(&u16be(c.iv.len()));
        v.extend_from_slice(&c.iv);
        v.extend_from_slice(&c.aad);
        v.extend_from_slice(&c.pt);
        gm.put(&format!("gcm-{k}"), &v);
        // online_splits: pair, key size, segment size, seed, key, salt,
        // prefix, IV, AAD, pt.
        let mut v = vec![(k % 20) as u8, ks];
        v.extend_from_slice(&u16be(k * 13));
        v.extend_from_slice(&(k as u64).to_be_bytes());
        v.extend_from_slice(&key);
        v.extend_from_slice(&[k as u8; 22]);
        v.extend_from_slice(&u16be(c.iv.len().min(64)));
        v.extend_from_slice(&c.iv[..c.iv.len().min(64)]);
        v.extend_from_slice(&u16be(c.aad.len()));
        v.extend_from_slice(&c.aad);
        v.extend_from_slice(&c.pt);
        os.put(&format!("gcm-{k}"), &v);
    }

    // poly1305_aes: flags, repeat length, seed, key, nonce, message.
    let mut pa = Out::new(corpus, "poly1305_aes");
    for (k, (key, nonce, msg)) in poly_aes.iter().enumerate() {
        let mut v = vec![2u8, 0, k as u8];
        v.extend_from_slice(&(k as u64).to_be_bytes());
        v.extend_from_slice(&padded(key, 32));
        v.extend_from_slice(&padded(nonce, 16));
        v.extend_from_slice(msg);
        pa.put(&format!("aes-{k}"), &v);
    }
    for (k, (key, msg)) in poly_one.iter().enumerate() {
        let mut v = vec![1u8, 0, k as u8];
        v.extend_from_slice(&(k as u64).to_be_bytes());
        v.extend_from_slice(&padded(key, 32));
        v.extend_from_slice(&[0u8; 16]);
        v.extend_from_slice(msg);
        pa.put(&format!("onetime-{k}"), &v);
    }

    // stream_open_arbitrary: genuine streams (mode 0) and build-and-mutate
    // inputs (mode 1) from the GCM plaintexts.
    const KEY: [u8; 32] = *b"galois fuzz stream key, 32 bytes";
    let mut so = Out::new(corpus, "stream_open_arbitrary");
    for (k, c) in gcm.iter().enumerate().take(12) {
        let ks = k % 3;
        let key = &KEY[..[16, 24, 32][ks]];
        let seg = 16 + (k * 29) % 241;
        let salt = [k as u8; 15];
        let prefix = [(k + 1) as u8; 7];
        let s = stream::seal_with_salt_for_tests(key, seg, salt, prefix, &c.pt).unwrap();
        let mut v = vec![(ks as u8) << 1];
        v.extend_from_slice(&s);
        so.put(&format!("stream-{k}"), &v);
        let mut v = vec![1 | (ks as u8) << 1, (seg - 16) as u8];
        v.extend_from_slice(&salt);
        v.extend_from_slice(&prefix);
        let mut muts = [0u8; 36];
        muts[0] = (k % 3) as u8; // up to two mutations
        for (j, m) in muts[1..].chunks_mut(5).enumerate() {
            m.copy_from_slice(&[(k + j) as u8, 0, (50 + 7 * j) as u8, 0, j as u8]);
        }
        v.extend_from_slice(&muts);
        v.extend_from_slice(&c.pt);
        so.put(&format!("build-{k}"), &v);
    }

    // packet_open_arbitrary: seal a few packets, deliver, replay, reorder.
    let mut po = Out::new(corpus, "packet_open_arbitrary");
    for k in 0..8usize {
        let hlen = (k * 3) % 17;
        let mut v = vec![(k % 3) as u8, (k % 5) as u8, hlen as u8];
        v.extend_from_slice(&u16be(k * 31 + 63));
        v.extend_from_slice(&[k as u8; 4]);
        v.extend_from_slice(&[(k * 11) as u8; 32]);
        for j in 0..4usize {
            // Seal (op 0; op 0x10 skips ahead first).
            v.push(if j == 2 { 0x10 } else { 0 });
            v.push(0);
            if j == 2 {
                v.extend_from_slice(&u16be(70 + k));
            }
            v.extend_from_slice(&vec![j as u8; hlen]);
            let payload = &gcm[(k + j) % gcm.len()].pt;
            v.extend_from_slice(&u16be(payload.len().min(300)));
            v.extend_from_slice(&payload[..payload.len().min(300)]);
        }
        // Deliver 3, 0, 0 again (replay), 1, 2; a flipped bit; a truncation.
        for (op, pick) in [(2u8, 3u8), (2, 0), (3, 0), (2, 1), (2, 2)] {
            v.extend_from_slice(&[op, pick]);
        }
        v.extend_from_slice(&[4, 1, 0, 9, 3, 5, 2, 4]);
        po.put(&format!("packets-{k}"), &v);
    }
    // A genuine packet as arbitrary bytes.
    let mut sealer = PacketSealer::new(&[0u8; 16], [0; 4], Role::Initiator, Start::NewKey).unwrap();
    let p = sealer.seal(b"", b"hello").unwrap();
    let mut v = vec![0u8, 4, 0, 0, 63, 0, 0, 0, 0];
    v.extend_from_slice(&[0u8; 32]);
    v.extend_from_slice(&[7, 0]);
    v.extend_from_slice(&u16be(p.len()));
    v.extend_from_slice(&p);
    po.put("raw", &v);

    for o in [&vp, &gb, &go, &gm, &os, &pa, &so, &po] {
        println!("{}: {} seeds", o.dir.display(), o.count);
    }
}
