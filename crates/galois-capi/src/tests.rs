//! Unit tests of the C ABI from Rust.

use super::*;

/// Every `#define GALOIS_*` number in include/galois.h equals the Rust
/// constant of the same name, and every Rust code is in the header.
#[test]
fn header_constants_match() {
    let h = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../include/galois.h"
    ))
    .expect("include/galois.h");
    macro_rules! named {
        ($($c:ident),* $(,)?) => { [$((stringify!($c), $c as i64)),*] };
    }
    let rust = named!(
        GALOIS_OK,
        GALOIS_ERR_NULL_POINTER,
        GALOIS_ERR_KEY_LENGTH,
        GALOIS_ERR_NONCE_LENGTH,
        GALOIS_ERR_TAG_LENGTH,
        GALOIS_ERR_BUFFER_TOO_SMALL,
        GALOIS_ERR_AUTH,
        GALOIS_ERR_TOO_LONG,
        GALOIS_ERR_STATE,
        GALOIS_ERR_INVALID_KEY,
        GALOIS_ERR_OVERLAP,
        GALOIS_ERR_INPUT_TOO_SHORT,
        GALOIS_ERR_FLAGS,
        GALOIS_ERR_RANDOM,
        GALOIS_ERR_INTERNAL,
        GALOIS_ERR_NO_MEMORY,
        GALOIS_FLAG_PERMISSIVE,
        GALOIS_POLY1305AES_KEYBYTES,
        GALOIS_POLY1305AES_NONCEBYTES,
        GALOIS_POLY1305AES_TAGBYTES,
        GALOIS_CHUNKED_CHUNKBYTES,
        GALOIS_CHUNKED_HEADERBYTES,
    );
    let mut defined = std::collections::HashMap::new();
    for line in h.lines() {
        let mut w = line.split_whitespace();
        if w.next() != Some("#define") {
            continue;
        }
        let (Some(name), Some(val)) = (w.next(), w.next()) else {
            continue;
        };
        let v = val
            .trim_matches(|c| c == '(' || c == ')')
            .trim_end_matches('u');
        if let Ok(n) = v.parse::<i64>() {
            defined.insert(name.to_string(), n);
        }
    }
    for (name, v) in rust {
        assert_eq!(defined.get(name), Some(&v), "{name} in include/galois.h");
    }
    let errs = defined
        .keys()
        .filter(|k| k.starts_with("GALOIS_ERR_"))
        .count();
    assert_eq!(
        errs, 15,
        "every error code of the header is a Rust constant"
    );
}

#[test]
fn every_error_has_a_description() {
    for c in GALOIS_ERR_NO_MEMORY..=GALOIS_OK {
        let s = unsafe { core::ffi::CStr::from_ptr(galois_strerror(c)) };
        assert_ne!(s.to_str().unwrap(), "unknown galois return code", "{c}");
    }
}

/// Slot numbers map onto the chunks without gaps or overlaps.
#[test]
fn live_table_slots() {
    let mut t = live::lock();
    let mut got = Vec::new();
    for i in 0..300usize {
        got.push(t.add(0x1000 + 64 * i).unwrap());
    }
    for (i, &(slot, id)) in got.iter().enumerate() {
        assert_eq!(live::id_of(slot), id, "slot {slot}");
        t.remove(0x1000 + 64 * i, slot);
        assert_eq!(live::id_of(slot), 0);
    }
    assert_eq!(live::id_of(u64::MAX), 0);
    assert_eq!(live::id_of(1 << 60), 0);
}

/// Each primitive's errors come back with the header's codes.
#[test]
fn library_errors_map_to_documented_codes() {
    let cases = [
        (Error::InvalidKeyLength { got: 1 }, GALOIS_ERR_KEY_LENGTH),
        (Error::InvalidIvLength { got: 0 }, GALOIS_ERR_NONCE_LENGTH),
        (
            Error::IvLengthNotAllowedWithShortTag {
                iv_len: 8,
                tag_len: 8,
            },
            GALOIS_ERR_NONCE_LENGTH,
        ),
        (
            Error::InvalidNonceLength { got: 1 },
            GALOIS_ERR_NONCE_LENGTH,
        ),
        (Error::InvalidTagLength { got: 3 }, GALOIS_ERR_TAG_LENGTH),
        (Error::AadTooLong, GALOIS_ERR_TOO_LONG),
        (
            Error::MessageTooLong { len: 1, max: 0 },
            GALOIS_ERR_TOO_LONG,
        ),
        (Error::InvalidKey { reason: "r" }, GALOIS_ERR_INVALID_KEY),
        (Error::RandomSourceFailed, GALOIS_ERR_RANDOM),
        (Error::AuthenticationFailed, GALOIS_ERR_AUTH),
        (
            Error::CiphertextTooShort { len: 1, min: 16 },
            GALOIS_ERR_INPUT_TOO_SHORT,
        ),
    ];
    for (e, c) in cases {
        assert_eq!(code(e), c, "{e:?}");
    }
}

/// The state's life through the ABI, in Rust (so Miri can check the
/// unsafe code): copies refused, the copy's wipe releases the key once,
/// re-init over a live state, outputs inside the state refused.
#[test]
fn state_copies_and_reinit_through_the_abi() {
    let sb = galois_aesgcm_statebytes();
    let mut a = vec![0u8; sb + 8];
    let mut b = vec![0u8; sb + 8];
    let key = [7u8; 16];
    let (iv, pt) = ([1u8; 12], [2u8; 20]);
    let mut out = [0u8; 36];
    unsafe {
        let sa = a.as_mut_ptr().add(3) as *mut c_void;
        let sbp = b.as_mut_ptr().add(5) as *mut c_void;
        assert_eq!(galois_aesgcm_init(sa, key.as_ptr(), 16), GALOIS_OK);
        assert_eq!(galois_aesgcm_init(sa, key.as_ptr(), 16), GALOIS_OK);
        // A one-shot call through a state, without AAD, under `iv`.
        type Call = unsafe extern "C" fn(
            *const c_void,
            *mut u8,
            usize,
            *mut usize,
            *const u8,
            usize,
            *const u8,
            usize,
            *const u8,
            usize,
        ) -> c_int;
        let call = |f: Call, st: *const c_void, out: *mut u8, n_out: usize, inp: &[u8]| {
            f(
                st,
                out,
                n_out,
                ptr::null_mut(),
                inp.as_ptr(),
                inp.len(),
                ptr::null(),
                0,
                iv.as_ptr(),
                12,
            )
        };
        let seal = |st: *const c_void, out: &mut [u8; 36]| {
            call(galois_aesgcm_seal, st, out.as_mut_ptr(), 36, &pt)
        };
        assert_eq!(seal(sa, &mut out), GALOIS_OK);
        let mut back = [0u8; 20];
        let r = call(galois_aesgcm_open, sa, back.as_mut_ptr(), 20, &out);
        assert_eq!((r, back), (GALOIS_OK, pt));
        let inside = (sa as *mut u8).add(40);
        let r = call(galois_aesgcm_seal, sa, inside, 36, &pt);
        assert_eq!(r, GALOIS_ERR_OVERLAP);
        ptr::copy_nonoverlapping(sa as *const u8, sbp as *mut u8, sb);
        assert_eq!(seal(sbp, &mut out), GALOIS_ERR_STATE);
        assert_eq!(galois_aesgcm_wipe(sbp), GALOIS_ERR_STATE);
        assert_eq!(seal(sa, &mut out), GALOIS_ERR_STATE);
        assert_eq!(out, [0u8; 36]);
        assert_eq!(galois_aesgcm_wipe(sa), GALOIS_OK);
        assert!(a.iter().all(|&x| x == 0) && b.iter().all(|&x| x == 0));
    }
}

#[test]
fn sizes_and_alignment() {
    for (n, s, a) in [
        ("aesgcm", size_of::<AesGcm>(), align_of::<AesGcm>()),
        ("gmac", size_of::<AesGmac>(), align_of::<AesGmac>()),
        ("poly", size_of::<Poly1305Aes>(), align_of::<Poly1305Aes>()),
    ] {
        println!("{n}: size {s} align {a}");
        assert!(a.is_power_of_two());
    }
}
