//! Holes from the security review (issue 12) in the library itself, each
//! with the test that failed before its fix. docs/testing.md lists them.

use galois_aead::{AesGcm, Error, ShortTag};

const PT: &[u8] = b"plaintext that must never be left in a refused output buffer";

/// Item 4: a refused seal leaves no plaintext in `out`, whatever the reason
/// (empty IV, a non-96-bit IV under a short tag, wrong output size).
#[test]
fn refused_seals_leave_no_plaintext_in_out() {
    let full = AesGcm::new(&[3; 16]).unwrap();
    let short = AesGcm::with_options(
        &[3; 16],
        galois_aead::Options::new().short_tag(ShortTag::Bytes8),
    )
    .unwrap();
    let cases: [(&AesGcm, &[u8], usize, Error); 3] = [
        (&full, &[], PT.len(), Error::InvalidIvLength { got: 0 }),
        (&short, &[1; 16], PT.len(), full_err(&short, &[1; 16])),
        (
            &full,
            &[1; 12],
            PT.len() + 1,
            full_err_len(PT.len(), PT.len() + 1),
        ),
    ];
    for (g, iv, out_len, want) in cases {
        // seal_into (the only out-of-place seal; its detached worker is
        // crate-private): ciphertext and tag space both wiped.
        let mut out = vec![0xa5u8; out_len + g.tag_len()];
        let want = match want {
            Error::BufferLength { expected, got } => Error::BufferLength {
                expected: expected + g.tag_len(),
                got: got + g.tag_len(),
            },
            e => e,
        };
        assert_eq!(g.seal_into(iv, b"ad", PT, &mut out).unwrap_err(), want);
        assert!(
            out.iter().all(|&b| b == 0),
            "seal_into out wiped after {want:?}"
        );
    }
}

fn full_err(g: &AesGcm, iv: &[u8]) -> Error {
    g.seal(iv, b"", b"").unwrap_err()
}

fn full_err_len(expected: usize, got: usize) -> Error {
    Error::BufferLength { expected, got }
}

/// The test allocator: while a thread is "watching", every block it frees
/// is scanned, and a block with a non-zero byte is counted as dirty. This
/// sees the heap side of a key (AES schedules, GHASH tables and powers,
/// Poly1305 powers), not what lived on the stack.
mod watch {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Scanning;

    thread_local! {
        static WATCHING: Cell<bool> = const { Cell::new(false) };
        static FREED: Cell<usize> = const { Cell::new(0) };
        static DIRTY: Cell<usize> = const { Cell::new(0) };
        /// (size, first and last non-zero byte) of the last dirty block.
        pub static LAST_DIRTY: Cell<(usize, usize, usize)> = const { Cell::new((0, 0, 0)) };
    }

    // SAFETY: every call is passed on to the system allocator unchanged;
    // dealloc only reads the block it is handed before freeing it.
    unsafe impl GlobalAlloc for Scanning {
        /// Zeroed, so that a non-zero byte at free time was written by
        /// the program, not left over from an earlier block.
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, passed on.
            unsafe { System.alloc_zeroed(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if WATCHING.with(Cell::get) {
                // SAFETY: `ptr` is a live block of `layout.size()` bytes
                // (the caller's contract), read before it is freed.
                let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
                FREED.with(|c| c.set(c.get() + 1));
                if block.iter().any(|&b| b != 0) {
                    DIRTY.with(|c| c.set(c.get() + 1));
                    let first = block.iter().position(|&b| b != 0).unwrap();
                    let last = block.iter().rposition(|&b| b != 0).unwrap();
                    LAST_DIRTY.with(|c| c.set((layout.size(), first, last)));
                }
            }
            // SAFETY: the caller's contract, passed on.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    /// Drops `value` while watching: (blocks freed, blocks freed dirty).
    pub fn drop_watched<T>(value: T) -> (usize, usize) {
        FREED.with(|c| c.set(0));
        DIRTY.with(|c| c.set(0));
        WATCHING.with(|w| w.set(true));
        drop(value);
        WATCHING.with(|w| w.set(false));
        (FREED.with(Cell::get), DIRTY.with(Cell::get))
    }
}

#[global_allocator]
static ALLOC: watch::Scanning = watch::Scanning;

/// Item 7: every public type that holds key material, H or its powers,
/// round keys, Poly1305 r or s, or a value derived from them wipes its heap
/// memory when dropped: every block freed by the drop is all zeros, on
/// every backend of this CPU (observed through the test allocator above;
/// deleting a type's `Drop`, such as `Gcm`'s wipe of its GHASH key, makes
/// this fail, where a `ZeroizeOnDrop` marker check did not).
#[test]
fn secret_holding_types_wipe_their_heap_on_drop() {
    use galois_aead::gcm64::{Options64, TdeaGcm};
    use galois_aead::gf64::Gf64Backend;
    use galois_aead::poly1305::{self, Poly1305, Poly1305Aes};
    use galois_aead::{
        Aead, AeadInit, Aes, AesBackend, AesGcmSiv, AesGmac, Ghash, GhashBackend, Options,
        XAes256Gcm,
    };
    // (A value with nothing on the heap, such as a ctmul64 GHASH key, frees
    // nothing and is checked by nothing here; every key holding an AES
    // schedule has one on the heap, which the GCM case asserts.)
    fn check<T>(what: String, value: T) -> usize {
        let (freed, dirty) = watch::drop_watched(value);
        let (size, first, last) = watch::LAST_DIRTY.with(|c| c.get());
        assert_eq!(
            dirty, 0,
            "{what}: {dirty} of {freed} freed blocks not wiped (last: {size} bytes, non-zero from {first} to {last})"
        );
        freed
    }
    /// An AEAD's key, used once.
    fn check_aead<A: AeadInit>(key: &[u8], opts: Options) -> usize {
        let a = A::with_options(key, opts).unwrap();
        Aead::seal(
            &a,
            &vec![1; A::NONCE_LEN],
            b"ad",
            b"some text to use the key",
        )
        .unwrap();
        check(format!("{} {opts:?}", A::NAME), a)
    }
    let aes_available = || AesBackend::ALL.iter().copied().filter(|a| a.is_available());
    let key = [0x5a; 32];
    for b in GhashBackend::available() {
        for a in aes_available() {
            let opts = Options::new().backend(b).aes_backend(a);
            assert!(
                check_aead::<AesGcm>(&key[..16], opts) > 0,
                "the AES schedule is boxed"
            );
            let _ = check(
                format!("AesGmac {b} {a:?}"),
                AesGmac::with_options(&key[..16], opts).unwrap(),
            );
            let _ = check_aead::<AesGcmSiv>(&key, opts);
            let _ = check_aead::<XAes256Gcm>(&key, opts);
        }
        let _ = check(
            format!("Ghash {b}"),
            Ghash::with_backend(&[7; 16], b).unwrap(),
        );
    }
    for a in aes_available() {
        let _ = check(format!("Aes {a:?}"), Aes::with_backend(&key, a).unwrap());
    }
    for b in poly1305::Poly1305Backend::available() {
        let _ = check(
            format!("Poly1305 {b}"),
            Poly1305::with_backend(&key, b).unwrap(),
        );
        // k || r, r clamped (bytes of 4 are below 16 and divisible by 4)
        let kr: Vec<u8> = [[0x5a; 16], [4; 16]].concat();
        let _ = check(
            format!("Poly1305Aes {b}"),
            Poly1305Aes::with_backend(&kr, b).unwrap(),
        );
    }
    for b in Gf64Backend::available() {
        let mut tdea: Vec<u8> = (1..=24).collect();
        galois_aead::gcm64::set_odd_parity(&mut tdea);
        let opts = Options64::new().backend(b);
        let _ = check(
            format!("TdeaGcm {b}"),
            TdeaGcm::with_options(&tdea, opts).unwrap(),
        );
    }
}

/// The check itself: a block freed with data in it is seen.
#[test]
fn the_drop_check_sees_an_unwiped_block() {
    assert_eq!(watch::drop_watched(vec![0u8; 64]), (1, 0));
    assert_eq!(watch::drop_watched(vec![1u8; 64]), (1, 1));
}

/// Item 7: a precomputed state is tied to its key by a random identifier,
/// not by a key-dependent value: two keys' states are told apart, and a
/// state reveals nothing of H (before the fix it held c * H for a public
/// constant c, from which H follows by one field division).
#[test]
fn precomputed_states_are_tied_to_their_key_object() {
    let a = AesGcm::new(&[1; 16]).unwrap();
    let b = AesGcm::new(&[2; 16]).unwrap();
    use galois_aead::gcm::precompute::{seal_in_place, AadPrefix, IvInput};
    let p = AadPrefix::new(&a, b"prefix").unwrap();
    let iv = IvInput::Full(&[0; 12]);
    let mut buf = *b"x";
    assert!(seal_in_place(&a, iv, Some(&p), b"", &mut buf).is_ok());
    let iv = IvInput::Full(&[0; 12]);
    assert!(matches!(
        seal_in_place(&b, iv, Some(&p), b"", &mut buf),
        Err(Error::InvalidKey { .. })
    ));
}

/// Every key type has `Debug`, and it shows no key material: not the key
/// bytes (as hex or as decimal bytes), not H.
#[test]
fn debug_of_key_types_shows_no_secret() {
    use galois_aead::poly1305::{Poly1305, Poly1305Aes};
    use galois_aead::{Aes, AesGcm, AesGcmSiv, AesGmac, Ghash, XAes256Gcm};
    let key = [0xc3u8; 32];
    let h = [0x5eu8; 16];
    // Poly1305 keys with r clamped: AES key (or s) 0xc3..., r 0x0c...
    let mut poly_key = [0xc3u8; 32];
    poly_key[16..].fill(0x0c);
    let mut onetime = [0xc3u8; 32];
    onetime[..16].fill(0x0c);
    let shown = [
        format!("{:?}", Aes::new(&key).unwrap()),
        format!("{:?}", AesGcm::new(&key).unwrap()),
        format!("{:?}", AesGcmSiv::new(&key).unwrap()),
        format!("{:?}", XAes256Gcm::new(&key).unwrap()),
        format!("{:?}", AesGmac::new(&key).unwrap()),
        format!("{:?}", Ghash::new(&h)),
        format!("{:?}", Poly1305Aes::new(&poly_key).unwrap()),
        format!("{:?}", Poly1305::new(&onetime).unwrap()),
    ];
    for s in &shown {
        assert!(s.contains("backend"), "{s}");
        for secret in ["c3", "C3", "195", "5e", "5E", "94", "0c"] {
            assert!(!s.contains(secret), "{s} shows {secret}");
        }
    }
}
