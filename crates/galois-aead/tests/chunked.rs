//! Cobblestone (C2SP chunked encryption): known answers, round trips at
//! every length around the chunk boundaries through every interface,
//! truncation / reordering / tampering / trailing data refused by every
//! opener, the poisoned streaming opener, and random access equal to the
//! streaming output.

use galois_aead::chunked::{
    self, open_stream, seal_stream, Opener, RandomAccess, Sealer, CHUNK_SIZE, HEADER_LEN,
    SEALED_CHUNK_SIZE, TAG_LEN,
};
use galois_aead::stream::StreamError;
use galois_aead::Error;
use sha2::{Digest, Sha512};
use std::io::{Cursor, Read, Seek, SeekFrom, Write};

const K128: [u8; 16] = [0x42; 16];
const K256: [u8; 32] = [0x24; 32];

fn data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + i / 251) as u8).collect()
}

const LENGTHS: &[usize] = &[
    0,
    1,
    15,
    16,
    CHUNK_SIZE - 1,
    CHUNK_SIZE,
    CHUNK_SIZE + 1,
    2 * CHUNK_SIZE - 1,
    2 * CHUNK_SIZE,
    2 * CHUNK_SIZE + 1,
    5 * CHUNK_SIZE + 7,
    64 * CHUNK_SIZE,
    64 * CHUNK_SIZE + 1,
    130 * CHUNK_SIZE + 100,
];

/// Known answers: Wycheproof's c2sp_chunked_encryption_aes_{128,256}_gcm
/// test files (github.com/C2SP/wycheproof, testvectors_v1, Apache-2.0),
/// cases 1, 2 and 10 of each, with `ct` decompressed: key, context,
/// sealed message, message length, SHA-512 of the message.
const VECTORS: &[(&str, &str, &str, usize, &str)] = &[
    ("59454c4c4f57205355424d4152494e45", "", "187cab8e8e163c24b527dc7cb554eca847e5d7dc592714ea7d7b5967607c6a68302fb25b26e0b032a6d39a239914ea2dc86aa17ec6d0beb1fdb011c7ad45ed1089aeffe3465fdf59", 0, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
    ("59454c4c4f57205355424d4152494e45", "", "99ef5b6b98795b7b37a41d6321d8dd472347c76185f40027e921542dd7e4305bb67a175e5088a8a4db92ef4d3419bda917dd5099085be2f35cf32165613d4fe58db45dd4619b454586232f2661a2bf", 7, "e85f32a85f1d4f7c9b2d36d20eca8435d81253e7075e9dea069eb1b6da48daf92ef1797367b520d8a46c4f72cecb85b1daff8887fcb41721d39943d1952fc180"),
    ("59454c4c4f57205355424d4152494e45", "7465737400636f6e74657874", "bfcff9bb0c0e2f36cb63abb0f787bb62b5345f47be4a8397be381baeec749ee0a2e053584f63e29e41fc5caacc1303c4e058168625b8c5a437656312c43a99fc4dfa0470c9cbdb757a21c2929a2e99", 7, "e85f32a85f1d4f7c9b2d36d20eca8435d81253e7075e9dea069eb1b6da48daf92ef1797367b520d8a46c4f72cecb85b1daff8887fcb41721d39943d1952fc180"),
    ("59454c4c4f57205355424d4152494e452059454c4c4f57205355424d4152494e", "", "43a2e39431cbae0389d3fc86adf46f7c3a24de88d9311617e53f3164cc1d5dc738a66b97f0bf786565c31799c2f463d50a7e10046011dc6fc3c939e3a5db7affb6191551669554fb", 0, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
    ("59454c4c4f57205355424d4152494e452059454c4c4f57205355424d4152494e", "", "a1a1b56f6db58cd1ede0c5c9db62aef20d3f96a6c594bb9252bb38122de91236502b42a1d7fcab820ffa292940d2f86add212cfa42c38df19d3cc9139ee61a5990d3db57433514229beea49a8a72bd", 7, "e85f32a85f1d4f7c9b2d36d20eca8435d81253e7075e9dea069eb1b6da48daf92ef1797367b520d8a46c4f72cecb85b1daff8887fcb41721d39943d1952fc180"),
    ("59454c4c4f57205355424d4152494e452059454c4c4f57205355424d4152494e", "7465737400636f6e74657874", "12ede102c3ef730da4f3d4dbfaf11003683238315befe73b21ebb2246ac19f3a7d50abd2a5a365f7652bda670814dbc883ce618256d2d513bd238c2c0dded7614d52bef77bc04273656df97a294323", 7, "e85f32a85f1d4f7c9b2d36d20eca8435d81253e7075e9dea069eb1b6da48daf92ef1797367b520d8a46c4f72cecb85b1daff8887fcb41721d39943d1952fc180"),
];

#[test]
fn known_answers_open_and_reseal_byte_for_byte() {
    for (key, ctx, ct, len, sha) in VECTORS {
        let key = hex::decode(key).unwrap();
        let ctx = hex::decode(ctx).unwrap();
        let ct = hex::decode(ct).unwrap();
        let pt = chunked::open(&key, &ctx, &ct).unwrap();
        assert_eq!(pt.len(), *len);
        assert_eq!(hex::encode(Sha512::digest(&pt)), *sha);
        // The same salt gives the same bytes (deterministic sealing).
        let salt: [u8; 24] = ct[..24].try_into().unwrap();
        assert_eq!(
            chunked::seal_with_salt_for_tests(&key, salt, &ctx, &pt).unwrap(),
            ct
        );
        // A wrong context or key fails at the commitment.
        assert_eq!(
            chunked::open(&key, b"other", &ct),
            Err(Error::StreamWrongKey)
        );
        let mut k2 = key.clone();
        k2[0] ^= 1;
        assert_eq!(chunked::open(&k2, &ctx, &ct), Err(Error::StreamWrongKey));
    }
}

/// Opens `sealed` through every opener; all must agree.
fn open_all(key: &[u8], ctx: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
    let whole = chunked::open(key, ctx, sealed);
    // Streaming on all cores.
    let mut out = Vec::new();
    let st = open_stream(key, ctx, &mut &sealed[..], &mut out).map(|_| out);
    // One chunk at a time, odd read sizes.
    let op: Result<Vec<u8>, Error> = (|| {
        let mut o = Opener::new(key, ctx, sealed).map_err(crypto)?;
        let mut out = Vec::new();
        let mut buf = [0u8; 7001];
        loop {
            match o.read(&mut buf) {
                Ok(0) => return Ok(out),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return Err(io_crypto(&e)),
            }
        }
    })();
    // Random access, read whole.
    let ra: Result<Vec<u8>, Error> = (|| {
        let mut f = RandomAccess::new(key, ctx, Cursor::new(sealed)).map_err(crypto)?;
        let mut out = Vec::new();
        f.read_to_end(&mut out).map_err(|e| io_crypto(&e))?;
        Ok(out)
    })();
    let st = st.map_err(crypto);
    match &whole {
        Ok(p) => {
            for (name, r) in [("open_stream", &st), ("Opener", &op), ("RandomAccess", &ra)] {
                match r {
                    Ok(q) => assert!(q == p, "{name}: other plaintext ({} bytes)", q.len()),
                    Err(e) => panic!("{name} refused what open accepted: {e}"),
                }
            }
        }
        Err(e) => {
            assert!(st.is_err(), "open_stream accepted what open refused ({e})");
            assert!(op.is_err(), "Opener accepted what open refused ({e})");
            assert!(ra.is_err(), "RandomAccess accepted what open refused ({e})");
        }
    }
    whole
}

fn crypto(e: StreamError) -> Error {
    match e {
        StreamError::Crypto(e) => e,
        StreamError::Io(e) => io_crypto(&e),
    }
}

fn io_crypto(e: &std::io::Error) -> Error {
    e.get_ref()
        .and_then(|x| x.downcast_ref::<Error>())
        .copied()
        .unwrap_or_else(|| panic!("not a galois error: {e}"))
}

#[test]
fn round_trips_every_length_every_interface() {
    for key in [&K128[..], &K256[..]] {
        for &len in LENGTHS {
            let pt = data(len);
            let ctx = format!("len {len}");
            let ctx = ctx.as_bytes();
            // Buffer sealing.
            let a = chunked::seal(key, ctx, &pt).unwrap();
            assert_eq!(a.len(), chunked::sealed_len(len));
            assert_eq!(a.len(), HEADER_LEN + len + (len / CHUNK_SIZE + 1) * TAG_LEN);
            assert_eq!(chunked::opened_len(a.len()), Ok(len));
            assert!(open_all(key, ctx, &a).unwrap() == pt, "seal, len {len}");
            // Streaming on all cores.
            let mut b = Vec::new();
            assert_eq!(
                seal_stream(key, ctx, &mut &pt[..], &mut b).unwrap(),
                len as u64
            );
            assert_eq!(b.len(), a.len());
            assert!(
                open_all(key, ctx, &b).unwrap() == pt,
                "seal_stream, len {len}"
            );
            // One chunk at a time, in writes of several sizes.
            for step in [1000usize, CHUNK_SIZE, 3 * CHUNK_SIZE + 5] {
                let mut s = Sealer::new(key, ctx, Vec::new()).unwrap();
                for part in pt.chunks(step) {
                    s.write_all(part).unwrap();
                }
                let c = s.finish().unwrap();
                assert_eq!(c.len(), a.len());
                assert!(open_all(key, ctx, &c).unwrap() == pt, "Sealer, len {len}");
            }
        }
    }
}

#[test]
fn chunks_are_aes_gcm_under_the_derived_key_and_xored_nonce() {
    // Wycheproof case 1 (Cobblestone-128) gives the derived AEAD key and
    // base nonce for its key, empty context and salt: seal long messages
    // with that salt and check every chunk against AES-GCM directly, with
    // the nonce base XOR i (i past 0xff) and empty AAD.
    let key = hex::decode("59454c4c4f57205355424d4152494e45").unwrap();
    let salt: [u8; 24] = hex::decode("187cab8e8e163c24b527dc7cb554eca847e5d7dc592714ea")
        .unwrap()
        .try_into()
        .unwrap();
    let aead_key = hex::decode("27c0195e3ac974de5c97f6fa08cbdc41").unwrap();
    let base = hex::decode("eb673ca5da204afa6361cd11").unwrap();
    let gcm = galois_aead::AesGcm::new(&aead_key).unwrap();
    for len in [0, 5, CHUNK_SIZE, 257 * CHUNK_SIZE + 9, 300 * CHUNK_SIZE] {
        let pt = data(len);
        let s = chunked::seal_with_salt_for_tests(&key, salt, b"", &pt).unwrap();
        let mut stream = Vec::new();
        seal_stream(&key, b"", &mut &pt[..], &mut stream).unwrap();
        let n = len / CHUNK_SIZE + 1;
        for i in 0..n {
            let mut nonce = base.clone();
            for (k, b) in (i as u64).to_be_bytes()[3..].iter().enumerate() {
                nonce[7 + k] ^= b;
            }
            let p = &pt[i * CHUNK_SIZE..((i + 1) * CHUNK_SIZE).min(len)];
            let want = gcm.seal(&nonce, b"", p).unwrap();
            assert!(s[chunk(i, s.len())] == want[..], "len {len} chunk {i}");
        }
        assert_eq!(chunk(n - 1, s.len()).end, s.len());
        assert_eq!(s[..24], salt);
    }
}

/// Every opener refuses `sealed` with the same first error.
fn refused(key: &[u8], sealed: &[u8], want: Error) {
    assert_eq!(open_all(key, b"", sealed), Err(want));
}

fn sealed(len: usize) -> Vec<u8> {
    chunked::seal(&K128, b"", &data(len)).unwrap()
}

fn chunk(k: usize, total: usize) -> std::ops::Range<usize> {
    let a = HEADER_LEN + k * SEALED_CHUNK_SIZE;
    a..(a + SEALED_CHUNK_SIZE).min(total)
}

#[test]
fn truncation_refused_at_every_boundary() {
    for len in [
        0,
        1,
        CHUNK_SIZE,
        CHUNK_SIZE + 1,
        3 * CHUNK_SIZE,
        3 * CHUNK_SIZE + 9,
    ] {
        let s = sealed(len);
        // Dropping the final chunk: the message ends on a chunk boundary.
        let n = len / CHUNK_SIZE + 1;
        let cut = chunk(n - 1, s.len()).start;
        refused(&K128, &s[..cut], Error::StreamTruncated);
        // Cutting into the final chunk's tag.
        for back in [1, TAG_LEN / 2] {
            let c = &s[..s.len() - back];
            assert!(open_all(&K128, b"", c).is_err(), "len {len} minus {back}");
        }
        // Cutting inside a full chunk leaves a short "final" chunk that is
        // really a piece of a full one: it does not verify.
        if n > 1 {
            let c = &s[..chunk(0, s.len()).start + 1000];
            refused(&K128, c, Error::AuthenticationFailed);
        }
    }
    // Too short for a header, or a header alone.
    let s = sealed(5);
    for l in [0, 10, 24, 40, 55] {
        assert!(matches!(
            chunked::open(&K128, b"", &s[..l]),
            Err(Error::StreamBadHeader { .. })
        ));
        assert!(open_all(&K128, b"", &s[..l]).is_err());
    }
    refused(&K128, &s[..HEADER_LEN], Error::StreamTruncated);
}

#[test]
fn reordering_duplication_and_trailing_data_refused() {
    let len = 3 * CHUNK_SIZE + 100;
    let s = sealed(len);
    let t = s.len();
    // Swap chunks 0 and 1.
    let mut sw = s.clone();
    let (c0, c1) = (chunk(0, t), chunk(1, t));
    sw[c0.clone()].copy_from_slice(&s[c1.clone()]);
    sw[c1.clone()].copy_from_slice(&s[c0.clone()]);
    refused(&K128, &sw, Error::AuthenticationFailed);
    // Chunk 0 again in place of chunk 1.
    let mut dup = s.clone();
    dup[c1].copy_from_slice(&s[c0.clone()]);
    refused(&K128, &dup, Error::AuthenticationFailed);
    // A chunk dropped from the middle (the length stays valid).
    let mut drop1 = s[..chunk(1, t).start].to_vec();
    drop1.extend_from_slice(&s[chunk(2, t).start..]);
    refused(&K128, &drop1, Error::AuthenticationFailed);
    // Bytes after the final chunk.
    for extra in [1usize, 12, 20, SEALED_CHUNK_SIZE] {
        let mut tr = s.clone();
        tr.extend(std::iter::repeat_n(0u8, extra));
        assert!(open_all(&K128, b"", &tr).is_err(), "{extra} trailing bytes");
    }
    // A whole valid message appended after another.
    let mut two = sealed(10);
    two.extend_from_slice(&sealed(10)[HEADER_LEN..]);
    assert!(open_all(&K128, b"", &two).is_err());
    // A chunk from another message (same key, other salt) at its own index.
    let other = sealed(len);
    let mut mix = s.clone();
    mix[chunk(1, t)].copy_from_slice(&other[chunk(1, t)]);
    refused(&K128, &mix, Error::AuthenticationFailed);
}

#[test]
fn every_tampered_byte_refused() {
    // Every byte of a two-chunk message with a short final chunk, one bit
    // each, in the header, the chunks' bodies and tags (sampled in the
    // full chunk's body).
    let s = sealed(CHUNK_SIZE + 33);
    let positions: Vec<usize> = (0..s.len())
        .filter(|&i| i < HEADER_LEN + 64 || i % 97 == 0 || i + 64 >= s.len())
        .collect();
    for i in positions {
        let mut b = s.clone();
        b[i] ^= 0x10;
        let want = if i < HEADER_LEN {
            Error::StreamWrongKey
        } else {
            Error::AuthenticationFailed
        };
        assert_eq!(chunked::open(&K128, b"", &b), Err(want), "byte {i}");
    }
    // The full check (all openers) on a few.
    for i in [0, 30, HEADER_LEN, HEADER_LEN + CHUNK_SIZE, s.len() - 1] {
        let mut b = s.clone();
        b[i] ^= 1;
        assert!(open_all(&K128, b"", &b).is_err());
    }
}

#[test]
fn no_plaintext_left_in_the_output_on_failure() {
    let s = sealed(4 * CHUNK_SIZE + 5);
    let mut bad = s.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let mut out = vec![0xAAu8; chunked::opened_len(bad.len()).unwrap()];
    assert_eq!(
        chunked::open_into(&K128, b"", &bad, &mut out),
        Err(Error::AuthenticationFailed)
    );
    assert!(out.iter().all(|&b| b == 0), "output not wiped");
}

#[test]
fn streaming_opener_releases_only_verified_chunks_and_stays_poisoned() {
    let pt = data(3 * CHUNK_SIZE + 500);
    let s = chunked::seal(&K128, b"", &pt).unwrap();
    let t = s.len();
    // Corrupt chunk 2: chunks 0 and 1 may come out, nothing of chunk 2.
    let mut bad = s.clone();
    bad[chunk(2, t).start + 5] ^= 1;
    let mut o = Opener::new(&K128, b"", &bad[..]).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let err = loop {
        match o.read(&mut buf) {
            Ok(0) => panic!("clean end on a corrupted message"),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => break e,
        }
    };
    assert_eq!(io_crypto(&err), Error::AuthenticationFailed);
    assert!(got.len() <= 2 * CHUNK_SIZE);
    assert!(got == pt[..got.len()]);
    for _ in 0..3 {
        let e = o.read(&mut buf).unwrap_err();
        assert_eq!(io_crypto(&e), Error::AuthenticationFailed, "not poisoned");
    }
    // Truncated after a full chunk: the error, again and again, never Ok(0).
    let cut = &s[..chunk(1, t).start];
    let mut o = Opener::new(&K128, b"", cut).unwrap();
    let mut sink = Vec::new();
    let e = o.read_to_end(&mut sink).unwrap_err();
    assert_eq!(io_crypto(&e), Error::StreamTruncated);
    assert!(sink.len() <= CHUNK_SIZE);
    for _ in 0..3 {
        assert_eq!(
            io_crypto(&o.read(&mut buf).unwrap_err()),
            Error::StreamTruncated
        );
    }
    // An I/O error is repeated as well.
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            let n = b.len().min(self.0);
            b[..n].fill(0);
            self.0 -= n;
            Ok(n)
        }
    }
    let hdr = s[..HEADER_LEN].to_vec();
    let mut o = Opener::new(&K128, b"", Cursor::new(hdr).chain(Failing(100))).unwrap();
    for _ in 0..3 {
        let e = o.read(&mut buf).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::Other);
    }
}

#[test]
fn random_access_equals_the_streaming_output() {
    let len = 5 * CHUNK_SIZE + 1234;
    let pt = data(len);
    let s = chunked::seal(&K256, b"ra", &pt).unwrap();
    let mut streamed = Vec::new();
    Opener::new(&K256, b"ra", &s[..])
        .unwrap()
        .read_to_end(&mut streamed)
        .unwrap();
    assert!(streamed == pt);
    let mut f = RandomAccess::new(&K256, b"ra", Cursor::new(&s)).unwrap();
    let offsets = [
        0,
        1,
        CHUNK_SIZE - 3,
        CHUNK_SIZE,
        2 * CHUNK_SIZE + 77,
        len - 1,
        len - 5000,
    ];
    for &off in &offsets {
        for n in [1usize, 10, CHUNK_SIZE + 10, 3 * CHUNK_SIZE] {
            f.seek(SeekFrom::Start(off as u64)).unwrap();
            let mut buf = vec![0u8; n];
            let mut got = 0;
            while got < n {
                let k = f.read(&mut buf[got..]).unwrap();
                if k == 0 {
                    break;
                }
                got += k;
            }
            let want = &streamed[off..(off + n).min(len)];
            assert!(&buf[..got] == want, "offset {off} length {n}");
        }
    }
    // Relative to the end and to the current position.
    assert_eq!(f.seek(SeekFrom::End(-10)).unwrap(), len as u64 - 10);
    let mut tail = Vec::new();
    f.read_to_end(&mut tail).unwrap();
    assert!(tail == streamed[len - 10..]);
    f.seek(SeekFrom::Start(100)).unwrap();
    assert_eq!(f.seek(SeekFrom::Current(50)).unwrap(), 150);
    assert!(f.seek(SeekFrom::Current(-1000)).is_err());
    assert_eq!(f.len().unwrap(), len as u64);
    // Past the end: nothing, once the length is authenticated.
    f.seek(SeekFrom::Start(len as u64 + 99)).unwrap();
    assert_eq!(f.read(&mut [0u8; 4]).unwrap(), 0);
}

#[test]
fn random_access_authenticates_the_final_chunk_before_end_relative_reads() {
    let len = 3 * CHUNK_SIZE + 10;
    let s = sealed(len);
    let t = s.len();
    let mut bad = s.clone();
    bad[t - 1] ^= 1; // the final chunk's tag
    let mut f = RandomAccess::new(&K128, b"", Cursor::new(&bad)).unwrap();
    // The earlier chunks still read (each verified on its own).
    let mut buf = vec![0u8; 100];
    f.read_exact(&mut buf).unwrap();
    assert_eq!(buf, data(len)[..100]);
    // Anything that relies on the length fails.
    assert_eq!(
        io_crypto(&f.len().unwrap_err()),
        Error::AuthenticationFailed
    );
    assert!(f.seek(SeekFrom::End(-1)).is_err());
    f.seek(SeekFrom::Start(len as u64 + 5)).unwrap();
    assert!(
        f.read(&mut buf).is_err(),
        "EOF claimed without the final chunk"
    );
    // A message extended by one chunk taken from elsewhere (so the length
    // is valid and larger): the fake final chunk does not verify.
    let mut ext = s.clone();
    let c0 = s[chunk(0, t)].to_vec();
    ext.truncate(chunk(3, t).start);
    ext.extend_from_slice(&c0);
    ext.extend_from_slice(&s[chunk(3, t)]);
    let mut f = RandomAccess::new(&K128, b"", Cursor::new(&ext)).unwrap();
    assert!(f.seek(SeekFrom::End(0)).is_err());
    // A cut at a chunk boundary is refused when opened.
    let cut = s[..chunk(3, t).start].to_vec();
    assert!(matches!(
        RandomAccess::new(&K128, b"", Cursor::new(cut)),
        Err(StreamError::Crypto(Error::StreamTruncated))
    ));
}

#[test]
fn keys_of_other_lengths_refused() {
    for n in [0usize, 15, 17, 24, 31, 33, 64] {
        let k = vec![1u8; n];
        assert_eq!(
            chunked::seal(&k, b"", b"x"),
            Err(Error::InvalidKeyLength { got: n })
        );
        let s = sealed(3);
        assert_eq!(
            chunked::open(&k, b"", &s),
            Err(Error::InvalidKeyLength { got: n })
        );
    }
    // A Cobblestone-128 message does not open as Cobblestone-256 with a
    // key that starts with the same bytes.
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&K128);
    assert_eq!(
        chunked::open(&k, b"", &sealed(3)),
        Err(Error::StreamWrongKey)
    );
}

#[test]
fn counter_past_one_byte_and_many_slabs() {
    // 300 chunks: the counter passes 0xff and the pool hands out several
    // slabs; streaming and buffer sealing agree on every chunk's position.
    let pt = data(300 * CHUNK_SIZE + 3);
    let a = chunked::seal(&K128, b"", &pt).unwrap();
    assert!(open_all(&K128, b"", &a).unwrap() == pt);
    let mut b = Vec::new();
    seal_stream(&K128, b"", &mut &pt[..], &mut b).unwrap();
    assert!(open_all(&K128, b"", &b).unwrap() == pt);
    // Chunk 256 moved to 255's place is refused.
    let t = a.len();
    let mut sw = a.clone();
    sw[chunk(255, t)].copy_from_slice(&a[chunk(256, t)]);
    refused(&K128, &sw, Error::AuthenticationFailed);
}

#[test]
fn reader_that_returns_little_at_a_time() {
    // A reader that hands out 1..7 bytes per call: chunk and header
    // boundaries fall everywhere.
    struct Dribble<'a>(&'a [u8], usize);
    impl Read for Dribble<'_> {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1 % 7 + 1;
            let n = b.len().min(self.1).min(self.0.len());
            b[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    for len in [0, CHUNK_SIZE, CHUNK_SIZE + 1, 2 * CHUNK_SIZE + 9] {
        let pt = data(len);
        let mut s = Vec::new();
        seal_stream(&K128, b"", &mut Dribble(&pt, 0), &mut s).unwrap();
        let mut out = Vec::new();
        open_stream(&K128, b"", &mut Dribble(&s, 0), &mut out).unwrap();
        assert!(out == pt);
        let mut out = Vec::new();
        Opener::new(&K128, b"", Dribble(&s, 0))
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        assert!(out == pt);
        let cut = &s[..s.len() - 1];
        let r = open_stream(&K128, b"", &mut Dribble(cut, 0), &mut Vec::new());
        assert!(r.is_err());
    }
}

#[test]
fn any_thread_count_seals_and_opens_the_same_message() {
    for len in [0, CHUNK_SIZE, 5 * CHUNK_SIZE + 3, 97 * CHUNK_SIZE + 1] {
        let pt = data(len);
        for seal_threads in [0usize, 1, 2, 3, 8] {
            let mut s = vec![0u8; chunked::sealed_len(len)];
            chunked::seal_into_on(seal_threads, &K128, b"t", &pt, &mut s).unwrap();
            for open_threads in [1usize, 2, 5] {
                let mut back = vec![0u8; len];
                chunked::open_into_on(open_threads, &K128, b"t", &s, &mut back).unwrap();
                assert!(back == pt, "len {len}: {seal_threads} -> {open_threads}");
            }
            // A tampered last or middle chunk fails on any thread count
            // (the middle one lies in a run of its own when the message is
            // cut into several runs per thread), output wiped.
            let middle = (len > 2 * CHUNK_SIZE).then_some(s.len() / 2);
            for at in std::iter::once(s.len() - 1).chain(middle) {
                let mut bad = s.clone();
                bad[at] ^= 1;
                let mut back = vec![1u8; len];
                assert_eq!(
                    chunked::open_into_on(seal_threads, &K128, b"t", &bad, &mut back),
                    Err(Error::AuthenticationFailed),
                    "len {len}, {seal_threads} threads, byte {at}"
                );
                assert!(back.iter().all(|&b| b == 0));
            }
        }
    }
}

/// Several threads sealing and opening at once: one call owns the helper
/// threads, the others run alone, and every result is right (the helpers
/// never mix two calls' runs).
#[test]
fn concurrent_calls_share_the_helpers_correctly() {
    let msgs: Vec<Vec<u8>> = (0..6).map(|i| data(9 * CHUNK_SIZE + 17 * i)).collect();
    std::thread::scope(|sc| {
        for (i, pt) in msgs.iter().enumerate() {
            sc.spawn(move || {
                for round in 0..20 {
                    let ctx = [i as u8, round as u8];
                    let mut s = vec![0u8; chunked::sealed_len(pt.len())];
                    chunked::seal_into_on(2 + i % 3, &K128, &ctx, pt, &mut s).unwrap();
                    let mut back = vec![0u8; pt.len()];
                    chunked::open_into_on(2, &K128, &ctx, &s, &mut back).unwrap();
                    assert!(&back == pt, "thread {i}, round {round}");
                }
            });
        }
    });
}

mod random_damage {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any message, damaged anywhere (a flipped bit, a cut, bytes
        /// appended or removed from the middle): every opener refuses it
        /// without panicking, and the streaming openers release only a
        /// prefix of the true plaintext.
        #[test]
        fn damaged_messages_are_refused_by_every_opener(
            len in 0usize..(3 * CHUNK_SIZE + 40),
            kind in 0u8..4,
            at in any::<prop::sample::Index>(),
            bit in 0u8..8,
            extra in 1usize..40,
        ) {
            let pt = data(len);
            let s = chunked::seal(&K128, b"p", &pt).unwrap();
            let mut bad = s.clone();
            match kind {
                0 => { let i = at.index(bad.len()); bad[i] ^= 1 << bit; }
                1 => bad.truncate(at.index(bad.len())),
                2 => bad.extend(std::iter::repeat_n(bit, extra)),
                _ => { let i = at.index(bad.len()); let j = (i + extra).min(bad.len()); bad.drain(i..j); }
            }
            prop_assert!(open_all(&K128, b"p", &bad).is_err());
            let mut o = match Opener::new(&K128, b"p", &bad[..]) {
                Ok(o) => o,
                Err(_) => return Ok(()),
            };
            let mut got = Vec::new();
            let r = o.read_to_end(&mut got);
            prop_assert!(r.is_err());
            prop_assert!(got.len() <= pt.len() && got == pt[..got.len()]);
        }
    }
}
