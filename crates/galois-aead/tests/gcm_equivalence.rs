//! Every GHASH backend, stitched kernel and AES backend inside GCM against
//! the bit-serial reference, over every plaintext length 0..=1024 (every
//! tail of every batch width, the widest being 32 blocks = 512 bytes, twice
//! over) and irregular shapes. Known answers up to 64 KiB: vectors/*_sizes_pyca.json.

mod common;
/// The backend families this suite must run every backend of (`common::report`).
const COVERS: &[common::Family] = &[common::Family::Ghash, common::Family::Aes];
use common::*;
use galois_aead::{AesBackend, AesGcm, GhashBackend, Options};
use proptest::prelude::*;

fn reference(key: &[u8]) -> AesGcm {
    AesGcm::with_options(
        key,
        Options::new()
            .backend(GhashBackend::Bitserial)
            .aes_backend(AesBackend::Portable),
    )
    .unwrap()
}

/// The generator of seed `seed`, and an AES-128 key and a 12-byte IV drawn
/// from it (in that order).
fn key_and_iv(seed: u64) -> (rand::rngs::StdRng, Vec<u8>, Vec<u8>) {
    let mut r = rng(seed);
    let key = bytes(&mut r, 16);
    let iv = bytes(&mut r, 12);
    (r, key, iv)
}

#[test]
fn every_length_0_to_1024_matches_reference() {
    let mut r = rng(10);
    for key_len in [16, 24, 32] {
        let key = bytes(&mut r, key_len);
        let iv = bytes(&mut r, 12);
        let pt = bytes(&mut r, 1024);
        let refg = reference(&key);
        // With AAD, and without (the tail then hashed from registers).
        for aad in [bytes(&mut r, 37), Vec::new()] {
            let want: Vec<Vec<u8>> = (0..=1024)
                .map(|n| refg.seal(&iv, &aad, &pt[..n]).unwrap())
                .collect();
            for opts in implementations() {
                let g = AesGcm::with_options(&key, opts).unwrap();
                for n in 0..=1024 {
                    let sealed = g.seal(&iv, &aad, &pt[..n]).unwrap();
                    let a = aad.len();
                    assert_eq!(sealed, want[n], "{opts:?} key {key_len} aad {a} length {n}");
                    assert_eq!(g.open(&iv, &aad, &sealed).unwrap(), &pt[..n]);
                }
            }
        }
    }
}

#[test]
fn iv_and_aad_lengths_match_reference() {
    let mut r = rng(11);
    let key = bytes(&mut r, 16);
    let refg = AesGcm::with_options(&key, Options::new().backend(GhashBackend::Bitserial)).unwrap();
    let pt = bytes(&mut r, 100);
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        for len in (1..=130).chain([255, 256, 257, 1000]) {
            let iv = bytes(&mut r, len);
            let aad = bytes(&mut r, len);
            assert_eq!(
                g.seal(&iv, &aad, &pt).unwrap(),
                refg.seal(&iv, &aad, &pt).unwrap(),
                "{opts:?} {len}"
            );
        }
    }
}

#[test]
fn aad_lengths_around_every_batch_boundary() {
    // Short messages hash AAD, ciphertext and lengths under one reduction
    // when they fit one batch; check both sides of that boundary.
    let (mut r, key, iv) = key_and_iv(14);
    let aad = bytes(&mut r, 1100);
    let pt = bytes(&mut r, 600);
    let refg = reference(&key);
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        for a in (0..=1100)
            .step_by(7)
            .chain([15, 16, 17, 496, 497, 511, 512, 513])
        {
            for n in [0, 1, 16, 100, 480, 496, 497, 511, 512, 513, 600] {
                let want = refg.seal(&iv, &aad[..a], &pt[..n]).unwrap();
                assert_eq!(
                    g.seal(&iv, &aad[..a], &pt[..n]).unwrap(),
                    want,
                    "{opts:?} aad {a} pt {n}"
                );
                assert_eq!(g.open(&iv, &aad[..a], &want).unwrap(), &pt[..n]);
            }
        }
    }
}

#[test]
fn all_call_shapes_agree() {
    let mut r = rng(12);
    let key = bytes(&mut r, 32);
    let g = AesGcm::new(&key).unwrap();
    for n in [0, 1, 15, 16, 17, 100, 513] {
        let (iv, aad, pt) = (bytes(&mut r, 12), bytes(&mut r, 9), bytes(&mut r, n));
        let appended = g.seal(&iv, &aad, &pt).unwrap();
        // Detached, in place.
        let mut buf = pt.clone();
        let tag = g.seal_in_place_detached(&iv, &aad, &mut buf).unwrap();
        assert_eq!([buf.as_slice(), tag.as_bytes()].concat(), appended);
        // Into a separate buffer, ciphertext then tag.
        let mut out = vec![0u8; n + 16];
        g.seal_into(&iv, &aad, &pt, &mut out).unwrap();
        assert_eq!(out, appended);
        // Opens.
        let mut back = vec![0u8; n];
        g.open_into(&iv, &aad, &appended, &mut back).unwrap();
        assert_eq!(back, pt);
        assert_eq!(g.open(&iv, &aad, &appended).unwrap(), pt);
        g.open_in_place_detached(&iv, &aad, &mut buf, tag.as_bytes())
            .unwrap();
        assert_eq!(buf, pt);
    }
}

#[test]
fn unaligned_buffers() {
    let (mut r, key, iv) = key_and_iv(13);
    let pt = bytes(&mut r, 300);
    let want = reference(&key).seal(&iv, b"a", &pt).unwrap();
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        for off in 1..16 {
            let mut big = vec![0u8; 300 + off];
            big[off..].copy_from_slice(&pt);
            let tag = g
                .seal_in_place_detached(&iv, b"a", &mut big[off..])
                .unwrap();
            assert_eq!(&big[off..], &want[..300]);
            assert_eq!(tag.as_bytes(), &want[300..]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_messages_match_reference(
        key in proptest::collection::vec(any::<u8>(), 16..=16),
        iv in proptest::collection::vec(any::<u8>(), 1..80),
        aad in proptest::collection::vec(any::<u8>(), 0..300),
        pt in proptest::collection::vec(any::<u8>(), 0..2100),
        tag_len in 4usize..=16,
    ) {
        let opts = Options::new().permissive_tag_len(tag_len).unwrap();
        let refg = AesGcm::with_options(&key, opts.backend(GhashBackend::Bitserial)).unwrap();
        let want = refg.seal(&iv, &aad, &pt).unwrap();
        for o in implementations() {
            let o = o.permissive_tag_len(tag_len).unwrap();
            let g = AesGcm::with_options(&key, o).unwrap();
            prop_assert_eq!(&g.seal(&iv, &aad, &pt).unwrap(), &want);
            prop_assert_eq!(&g.open(&iv, &aad, &want).unwrap(), &pt);
        }
    }
}

#[test]
fn batch_sealing_equals_one_packet_at_a_time() {
    let mut r = rng(15);
    for key_len in [16, 32] {
        let key = bytes(&mut r, key_len);
        let refg = reference(&key);
        for opts in implementations() {
            let g = AesGcm::with_options(&key, opts).unwrap();
            for count in [0usize, 1, 2, 7, 33] {
                let mut datas: Vec<Vec<u8>> = (0..count)
                    .map(|i| {
                        bytes(
                            &mut r,
                            [0, 1, 16, 44, 100, 552, 576, 1500, 40][i % 9] + i % 3,
                        )
                    })
                    .collect();
                let aads: Vec<Vec<u8>> = (0..count)
                    .map(|i| bytes(&mut r, [0, 8, 13, 600][i % 4]))
                    .collect();
                let nonces: Vec<[u8; 12]> = (0..count)
                    .map(|_| block(&mut r)[..12].try_into().unwrap())
                    .collect();
                let want: Vec<Vec<u8>> = (0..count)
                    .map(|i| refg.seal(&nonces[i], &aads[i], &datas[i]).unwrap())
                    .collect();
                let mut packets: Vec<galois_aead::BatchPacket> = datas
                    .iter_mut()
                    .zip(aads.iter())
                    .zip(nonces.iter())
                    .map(|((d, a), n)| galois_aead::BatchPacket::new(*n, a, d))
                    .collect();
                g.seal_batch(&mut packets).unwrap();
                for (i, p) in packets.iter().enumerate() {
                    let got = [p.data(), p.tag().unwrap().as_bytes()].concat();
                    assert_eq!(got, want[i], "{opts:?} packet {i} of {count}");
                }
            }
        }
    }
}

#[test]
fn short_messages_without_aad_match_reference() {
    // The kernels hash messages of fewer than one vector straight from
    // registers when there is no AAD.
    let mut r = rng(16);
    for key_len in [16, 24, 32] {
        let key = bytes(&mut r, key_len);
        let refg = reference(&key);
        for opts in implementations() {
            let g = AesGcm::with_options(&key, opts).unwrap();
            for n in 0..=100 {
                let (iv, pt) = (bytes(&mut r, 12), bytes(&mut r, n));
                let want = refg.seal(&iv, &[], &pt).unwrap();
                assert_eq!(g.seal(&iv, &[], &pt).unwrap(), want, "{opts:?} {n}");
                assert_eq!(g.open(&iv, &[], &want).unwrap(), pt);
                let mut bad = want.clone();
                bad[n / 2] ^= 4;
                assert!(g.open(&iv, &[], &bad).is_err());
            }
        }
    }
}

/// Buffers at every 16-byte offset from a 64-byte boundary, and at every
/// 8 mod 16: from eight batches on (2 KiB for ymm, 4 KiB for zmm) the
/// kernels take a short head chunk, sized so the remaining batches run on
/// 32-byte-aligned addresses (or, 8 bytes off, are stored shifted back to
/// them), and hash it stitched into the next.
#[test]
fn aligning_head_at_every_offset() {
    let mut r = rng(17);
    each_key(&mut r, |r, key, iv| {
        let refg = reference(key);
        let pt = bytes(r, 16384 + 64);
        let mut lens: Vec<usize> = (2040..=2056).chain(4080..=4112).collect();
        lens.extend([8192 - 1, 16384, 16384 + 5]);
        let mut store = vec![0u8; 16384 + 256];
        let base = (64 - store.as_ptr() as usize % 64) % 64 + 64;
        for aad_len in [0usize, 5, 600] {
            let aad = bytes(r, aad_len);
            for &n in &lens {
                let want = refg.seal(iv, &aad, &pt[..n]).unwrap();
                for opts in implementations() {
                    let g = AesGcm::with_options(key, opts).unwrap();
                    for off in [0usize, 16, 32, 48, 8, 24, 40, 56] {
                        let at = base + off;
                        // The bytes around the buffer stay as they were (a
                        // kernel storing shifted vectors must not reach them).
                        let fence = |s: &[u8], len: usize| {
                            (s[at - 8..at].to_vec(), s[at + len..at + len + 8].to_vec())
                        };
                        store[at - 8..at].fill(0xa5);
                        let around = fence(&store, n);
                        let buf = &mut store[at..at + n];
                        buf.copy_from_slice(&pt[..n]);
                        let tag = g.seal_in_place_detached(iv, &aad, buf).unwrap();
                        assert_eq!(&buf[..], &want[..n], "{opts:?} len {n} off {off}");
                        assert_eq!(tag.as_bytes(), &want[n..], "{opts:?} len {n} off {off}");
                        assert_eq!(fence(&store, n), around, "{opts:?} len {n} off {off}");
                        let buf = &mut store[at..at + n];
                        g.open_in_place_detached(iv, &aad, buf, tag.as_bytes())
                            .unwrap();
                        assert_eq!(&buf[..], &pt[..n], "{opts:?} len {n} off {off}");
                        // Out of place, input and output differently aligned.
                        // (seal_into / open_into: ciphertext then tag.)
                        let t = want.len() - n;
                        let mut src = vec![0u8; n + t + 64];
                        let s_at = (off * 7 + 3) % 64;
                        src[s_at..s_at + n].copy_from_slice(&pt[..n]);
                        let around = fence(&store, n + t);
                        let buf = &mut store[at..at + n + t];
                        g.seal_into(iv, &aad, &src[s_at..s_at + n], buf).unwrap();
                        assert_eq!(
                            fence(&store, n + t),
                            around,
                            "{opts:?} out of place len {n} off {off}"
                        );
                        let buf = &mut store[at..at + n + t];
                        assert_eq!(
                            &buf[..],
                            &want[..],
                            "{opts:?} out of place len {n} off {off}"
                        );
                        src[s_at..s_at + n + t].copy_from_slice(buf);
                        let buf = &mut store[at..at + n];
                        g.open_into(iv, &aad, &src[s_at..s_at + n + t], buf)
                            .unwrap();
                        assert_eq!(
                            &buf[..],
                            &pt[..n],
                            "{opts:?} out of place len {n} off {off}"
                        );
                    }
                }
            }
        }
    });
}

/// `seal_split_detached`: the plaintext's head read from elsewhere, its
/// rest in place, split at every kind of place (in the aligning head, in
/// each batch, at batch edges, in the tail, nothing or everything in
/// place), at buffer offsets that move the head, against the reference
/// sealing the joined plaintext.
#[test]
fn split_seals_match_reference_at_every_split() {
    let mut r = rng(19);
    let pt = bytes(&mut r, 16384 + 64);
    let mut store = vec![0u8; 16384 + 256];
    let base = (64 - store.as_ptr() as usize % 64) % 64 + 64;
    // AES-192 too where the assembly loop (one body per key size) runs; not
    // under qemu's slow portable AES.
    let key_lens: &[usize] = if cfg!(target_arch = "x86_64") {
        &[16, 24, 32]
    } else {
        &[16, 32]
    };
    for &key_len in key_lens {
        let key = bytes(&mut r, key_len);
        let iv = bytes(&mut r, 12);
        let refg = reference(&key);
        let mut cases: Vec<(usize, usize)> = Vec::new();
        for n in 0..=600usize {
            for k in [0, 1, n / 2, n.saturating_sub(1), n] {
                cases.push((n, k.min(n)));
            }
        }
        for n in [2053usize, 4100, 8191, 16384, 16385] {
            // In the head, at and around the edges of the first, a middle
            // and the last batches (512 bytes on 512-bit vectors), in the
            // tail, and at a stride that walks every phase of a batch.
            let mut ks: Vec<usize> = (0..n).step_by(997).collect();
            ks.extend([1, 15, 16, 17, 511, 512, 513, 1000, n / 2, n / 2 + 7]);
            ks.extend([n - 513, n - 512, n - 511, n - 17, n - 16, n - 1, n]);
            cases.extend(ks.into_iter().filter(|&k| k <= n).map(|k| (n, k)));
        }
        for aad_len in [0usize, 13] {
            let aad = bytes(&mut r, aad_len);
            for opts in implementations() {
                let g = AesGcm::with_options(&key, opts).unwrap();
                let mut last_n = usize::MAX;
                let mut want = Vec::new();
                for &(n, k) in &cases {
                    if n != last_n {
                        want = refg.seal(&iv, &aad, &pt[..n]).unwrap();
                        last_n = n;
                    }
                    let off = [0usize, 5, 8, 16, 48][(n + k) % 5];
                    let at = base + off;
                    store[at - 8..at].fill(0xa5);
                    store[at + n..at + n + 8].fill(0x5a);
                    store[at..at + n].fill(0);
                    store[at + k..at + n].copy_from_slice(&pt[k..n]);
                    let head = pt[..k].to_vec();
                    let tag = g
                        .seal_split_detached(&iv, &aad, &head, &mut store[at..at + n])
                        .unwrap();
                    let what = format!("{opts:?} key {key_len} aad {aad_len} len {n} split {k}");
                    assert_eq!(&store[at..at + n], &want[..n], "{what}");
                    assert_eq!(tag.as_bytes(), &want[n..], "{what}");
                    assert_eq!(head, pt[..k], "{what}: head changed");
                    assert_eq!(store[at - 8..at], [0xa5; 8], "{what}: before buf");
                    assert_eq!(store[at + n..at + n + 8], [0x5a; 8], "{what}: after buf");
                }
                // A head longer than the buffer is refused, and nothing written.
                let mut small = [7u8; 4];
                assert!(g
                    .seal_split_detached(&iv, &aad, &pt[..5], &mut small)
                    .is_err());
                assert_eq!(small, [7; 4]);
            }
        }
    }
}

/// The stitched kernels reduce once per 256 blocks (4 KiB), carrying the
/// unreduced sums across batches: every batch count up to three groups and
/// more, with tails and AAD, in each position of a group and with a short
/// last group.
#[test]
fn lengths_across_reduction_groups() {
    let mut r = rng(18);
    each_key(&mut r, |r, key, iv| {
        let long_iv = bytes(r, 20);
        let refg = reference(key);
        let pt = bytes(r, 26 * 512 + 300);
        let mut lens: Vec<usize> = Vec::new();
        for k in 0..=26 {
            lens.extend(
                [k * 512, k * 512 + 16, k * 512 + 300]
                    .into_iter()
                    .filter(|&n| n > 0),
            );
        }
        for (aad_len, iv) in [(0usize, iv), (37, iv), (0, &long_iv[..])] {
            let aad = bytes(r, aad_len);
            for &n in &lens {
                let want = refg.seal(iv, &aad, &pt[..n]).unwrap();
                for opts in implementations() {
                    let g = AesGcm::with_options(key, opts).unwrap();
                    let sealed = g.seal(iv, &aad, &pt[..n]).unwrap();
                    assert_eq!(
                        sealed,
                        want,
                        "{opts:?} key {} aad {aad_len} len {n}",
                        key.len()
                    );
                    assert_eq!(g.open(iv, &aad, &sealed).unwrap(), &pt[..n]);
                }
            }
        }
    });
}

/// A key computes its powers above H^32 on the first long message. Eight
/// threads share fresh keys and start with long and short messages at
/// once; every result must match the reference.
#[test]
fn high_powers_on_first_use_from_many_threads() {
    let (mut r, key, iv) = key_and_iv(19);
    let pt = bytes(&mut r, 9000);
    let refg = reference(&key);
    let lens = [9000usize, 16, 600, 4096, 1500, 8192];
    let want: Vec<Vec<u8>> = lens
        .iter()
        .map(|&n| refg.seal(&iv, b"", &pt[..n]).unwrap())
        .collect();
    for opts in implementations() {
        for _round in 0..4 {
            let g = std::sync::Arc::new(AesGcm::with_options(&key, opts).unwrap());
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
            let handles: Vec<_> = (0..8)
                .map(|t| {
                    let (g, barrier, pt, want) =
                        (g.clone(), barrier.clone(), pt.clone(), want.clone());
                    let iv = iv.clone();
                    std::thread::spawn(move || {
                        barrier.wait();
                        for k in 0..lens.len() {
                            let i = (t + k) % lens.len();
                            let sealed = g.seal(&iv, b"", &pt[..lens[i]]).unwrap();
                            assert_eq!(sealed, want[i], "{opts:?} thread {t} len {}", lens[i]);
                        }
                    })
                })
                .collect();
            for h in handles {
                h.join().unwrap();
            }
        }
    }
}

/// A wide key computes H^1..H^32 at setup and H^1..H^256 when the first
/// long message comes: short, long, short again on one key, and many
/// threads sealing long messages at once on a fresh key (one of them
/// builds the table, the others wait for it), all equal to the reference.
#[test]
fn powers_built_on_first_long_message_serve_every_later_one() {
    let (mut r, key, iv) = key_and_iv(0x70e5);
    let pt = bytes(&mut r, 20000);
    let refg = reference(&key);
    for opts in implementations() {
        let g = AesGcm::with_options(&key, opts).unwrap();
        for n in [100, 20000, 100, 4096, 511, 513, 16] {
            assert_eq!(
                g.seal(&iv, b"aad", &pt[..n]).unwrap(),
                refg.seal(&iv, b"aad", &pt[..n]).unwrap(),
                "{} {n}",
                g.backend()
            );
        }
        let g = AesGcm::with_options(&key, opts).unwrap();
        let want = refg.seal(&iv, b"", &pt).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| assert_eq!(g.seal(&iv, b"", &pt).unwrap(), want));
            }
        });
    }
}
