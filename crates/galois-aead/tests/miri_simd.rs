//! The stitched AES-GCM kernel on 128-bit vectors (the `aesni_clmul`
//! backend: AES-NI, PCLMULQDQ, SSE4.1), small enough for Miri.
//! `scripts/miri.sh` runs this file under `cargo miri test` with those
//! target features enabled, so Miri's CPU detection finds them and its
//! checks (Stacked Borrows, bounds, alignment, uninitialised reads) cover
//! the kernel's pointer arithmetic: the head chunk that aligns the main
//! loop, whole batches across two reduction groups, tails, in place. Natively
//! it runs with the other tests. The backend must be available here: on a CPU
//! (or a Miri run) without it the test fails, it does not skip.

use galois_aead::{AeadInit, AesBackend, AesGcm, GhashBackend, Options};

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed) ^ (i >> 4) as u8)
        .collect()
}

#[test]
fn stitched_xmm_kernel_matches_the_reference() {
    assert!(
        GhashBackend::AesniClmul.is_available(),
        "aesni_clmul must run here (under Miri: scripts/miri.sh enables its target features)"
    );
    // Under Miri (interpreted, with a bit-serial reference) one key size
    // and the shapes that matter for pointer provenance: tiny, a tail, a
    // head chunk before whole batches.
    let klens: &[usize] = if cfg!(miri) { &[16] } else { &[16, 32] };
    for &klen in klens {
        let key = data(klen, 1);
        let fast: AesGcm = on(&key, GhashBackend::AesniClmul, None);
        let slow: AesGcm = on(&key, GhashBackend::Bitserial, Some(AesBackend::Portable));
        // Tiny, one batch, a tail, a head chunk (>= 64 blocks, not a multiple
        // of 8), and two reduction groups (> 256 blocks).
        let lens: &[usize] = if cfg!(miri) {
            &[0, 5, 130, 1077]
        } else {
            &[0, 5, 16, 130, 1077, 4200, 9000]
        };
        let offs: &[usize] = if cfg!(miri) { &[3] } else { &[0, 3, 16] };
        for &len in lens {
            for &off in offs {
                let pt = data(len, len as u8);
                let aad = data(len % 37, 9);
                let mut store = vec![0u8; len + off];
                let buf = &mut store[off..];
                buf.copy_from_slice(&pt);
                let tag = fast.seal_in_place_detached(&[7; 12], &aad, buf).unwrap();
                let want = slow.seal(&[7; 12], &aad, &pt).unwrap();
                assert_eq!(buf, &want[..len], "ciphertext, len {len} offset {off}");
                assert_eq!(tag.as_bytes(), &want[len..], "tag, len {len} offset {off}");
                fast.open_in_place_detached(&[7; 12], &aad, buf, tag.as_bytes())
                    .unwrap();
                assert_eq!(buf, &pt[..], "round trip, len {len} offset {off}");
                // Out of place: the input at one offset, the output at another.
                let mut src_store = vec![0u8; len + 5];
                src_store[5..].copy_from_slice(&pt);
                let mut out = vec![0u8; want.len()];
                fast.seal_into(&[7; 12], &aad, &src_store[5..], &mut out)
                    .unwrap();
                assert_eq!(out, want, "out-of-place ciphertext and tag, len {len}");
                let mut back = vec![0u8; len];
                fast.open_into(&[7; 12], &aad, &out, &mut back).unwrap();
                assert_eq!(back, pt, "out-of-place round trip, len {len}");
                if len > 0 {
                    let mut bad = want.clone();
                    bad[len / 2] ^= 1;
                    let (c, t) = bad.split_at_mut(len);
                    assert!(fast.open_in_place_detached(&[7; 12], &aad, c, t).is_err());
                    assert!(c.iter().all(|&b| b == 0), "wiped after a failed open");
                }
            }
        }
    }
}

/// `A` under `key` on GHASH backend `g`, and on AES backend `aes` if given.
fn on<A: AeadInit>(key: &[u8], g: GhashBackend, aes: Option<AesBackend>) -> A {
    let opts = Options::new().backend(g);
    A::with_options(key, aes.map_or(opts, |a| opts.aes_backend(a))).unwrap()
}

/// Keys made for one message (XAES-256-GCM's subkeys, AES-GCM-SIV's POLYVAL
/// keys): a power table on the stack with only the powers the message
/// uses, run by the same xmm kernel, against the portable reference.
#[test]
fn per_message_keys_on_the_xmm_kernel_match_the_reference() {
    fn against<A: AeadInit>(key: &[u8], reference: GhashBackend, lens: &[usize]) {
        let fast: A = on(key, GhashBackend::AesniClmul, None);
        let slow: A = on(key, reference, Some(AesBackend::Portable));
        let nonce = vec![9; A::NONCE_LEN];
        for &len in lens {
            let pt = data(len, 7);
            let aad = data(len % 19, 2);
            let want = slow.seal(&nonce, &aad, &pt).unwrap();
            assert_eq!(
                fast.seal(&nonce, &aad, &pt).unwrap(),
                want,
                "{} {len}",
                A::NAME
            );
            assert_eq!(
                fast.open(&nonce, &aad, &want).unwrap(),
                pt,
                "{} {len}",
                A::NAME
            );
        }
    }
    let key = data(32, 3);
    let lens: &[usize] = if cfg!(miri) {
        &[5, 130]
    } else {
        &[0, 5, 130, 1077, 4200]
    };
    against::<galois_aead::XAes256Gcm>(&key, GhashBackend::Bitserial, lens);
    against::<galois_aead::AesGcmSiv>(&key, GhashBackend::Ctmul64, lens);
}
