//! The provider through OpenSSL's EVP interface, as a program sees it: the
//! module built by this crate is loaded into this process's libcrypto, and
//! ciphers are fetched with `provider=galois` (checked to come from galois)
//! and compared against the default provider's.
//!
//! - every AES-GCM and AES-GMAC vector file (`scripts/vector-files.sh`)
//!   through `EVP_CipherInit_ex`/`EVP_CipherUpdate` (what the Encrypt and
//!   Decrypt forms call), whole and split at
//!   random update points, in place and not;
//! - random messages against the default provider, byte for byte;
//! - tampered tags, ciphertexts and AAD fail `final` with an error on the stack;
//! - re-init with a new IV and the same key, `EVP_CIPHER_CTX_copy`, a used-up IV.

use rand::{Rng, SeedableRng};
use std::ffi::{c_char, c_int, c_ulong, c_void, CStr, CString};
use std::path::PathBuf;
use std::ptr::{null, null_mut};
use std::sync::OnceLock;

#[link(name = "crypto")]
extern "C" {
    fn OSSL_PROVIDER_set_default_search_path(libctx: *mut c_void, path: *const c_char) -> c_int;
    fn OSSL_PROVIDER_load(libctx: *mut c_void, name: *const c_char) -> *mut c_void;
    fn OSSL_PROVIDER_get0_name(p: *const c_void) -> *const c_char;
    fn EVP_CIPHER_fetch(
        libctx: *mut c_void,
        alg: *const c_char,
        props: *const c_char,
    ) -> *mut c_void;
    fn EVP_CIPHER_get0_provider(c: *const c_void) -> *const c_void;
    fn EVP_CIPHER_CTX_new() -> *mut c_void;
    fn EVP_CIPHER_CTX_free(c: *mut c_void);
    fn EVP_CIPHER_CTX_copy(out: *mut c_void, input: *const c_void) -> c_int;
    fn EVP_CIPHER_CTX_ctrl(c: *mut c_void, ty: c_int, arg: c_int, ptr: *mut c_void) -> c_int;
    fn EVP_CIPHER_CTX_set_key_length(c: *mut c_void, n: c_int) -> c_int;
    fn EVP_CipherUpdate(
        c: *mut c_void,
        out: *mut u8,
        outl: *mut c_int,
        input: *const u8,
        inl: c_int,
    ) -> c_int;
    fn EVP_EncryptFinal_ex(c: *mut c_void, out: *mut u8, outl: *mut c_int) -> c_int;
    fn EVP_DecryptFinal_ex(c: *mut c_void, out: *mut u8, outl: *mut c_int) -> c_int;
    fn ERR_get_error_all(
        file: *mut *const c_char,
        line: *mut c_int,
        func: *mut *const c_char,
        data: *mut *const c_char,
        flags: *mut c_int,
    ) -> c_ulong;
    fn ERR_error_string_n(e: c_ulong, buf: *mut c_char, len: usize);
}

/// `OSSL_PARAM`.
#[repr(C)]
struct Param {
    key: *const c_char,
    data_type: u32,
    data: *mut c_void,
    data_size: usize,
    return_size: usize,
}

#[link(name = "crypto")]
extern "C" {
    fn EVP_MAC_fetch(libctx: *mut c_void, alg: *const c_char, props: *const c_char) -> *mut c_void;
    fn EVP_MAC_get0_provider(m: *const c_void) -> *const c_void;
    fn EVP_MAC_CTX_new(m: *mut c_void) -> *mut c_void;
    fn EVP_MAC_CTX_free(c: *mut c_void);
    fn EVP_MAC_init(c: *mut c_void, key: *const u8, keylen: usize, p: *const Param) -> c_int;
    fn EVP_MAC_update(c: *mut c_void, data: *const u8, n: usize) -> c_int;
    fn EVP_MAC_final(c: *mut c_void, out: *mut u8, outl: *mut usize, outsize: usize) -> c_int;
    fn EVP_MAC_free(m: *mut c_void);
    fn EVP_Cipher(c: *mut c_void, out: *mut u8, input: *const u8, n: u32) -> c_int;
    fn EVP_CipherInit_ex(
        c: *mut c_void,
        ci: *const c_void,
        e: *mut c_void,
        key: *const u8,
        iv: *const u8,
        enc: c_int,
    ) -> c_int;
    fn OSSL_PARAM_construct_utf8_string(key: *const c_char, buf: *mut c_char, n: usize) -> Param;
    fn OSSL_PARAM_construct_octet_string(key: *const c_char, buf: *mut c_void, n: usize) -> Param;
    fn OSSL_PARAM_construct_end() -> Param;
}

const EVP_CTRL_AEAD_SET_IVLEN: c_int = 0x9;
const EVP_CTRL_AEAD_GET_TAG: c_int = 0x10;
const EVP_CTRL_AEAD_SET_TAG: c_int = 0x11;

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The module: `$GALOIS_OSSL_MODULE`, else the cdylib cargo built for this
/// test run (target/<profile>/deps/libgalois_ossl.so, beside the test).
fn module() -> PathBuf {
    if let Some(p) = std::env::var_os("GALOIS_OSSL_MODULE") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().join("libgalois_ossl.so")
}

/// Loads galois (as `galois.so` from a private directory, the name
/// OpenSSL looks for) and the default provider, once per process.
fn load() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("galois-ossl-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = module();
        std::fs::copy(&src, dir.join("galois.so"))
            .unwrap_or_else(|e| panic!("{}: {e}", src.display()));
        let d = CString::new(dir.to_str().unwrap()).unwrap();
        // SAFETY (test): valid NUL-terminated strings; the default library context.
        unsafe {
            assert_eq!(
                OSSL_PROVIDER_set_default_search_path(null_mut(), d.as_ptr()),
                1
            );
            assert!(
                !OSSL_PROVIDER_load(null_mut(), c"galois".as_ptr()).is_null(),
                "{}",
                errors()
            );
            assert!(!OSSL_PROVIDER_load(null_mut(), c"default".as_ptr()).is_null());
        }
    });
}

/// Drains the thread's OpenSSL error stack into one string (reason and
/// the provider's message of each entry).
fn errors() -> String {
    let mut all = Vec::new();
    loop {
        let (mut file, mut func, mut data) = (null(), null(), null());
        let (mut line, mut flags) = (0, 0);
        // SAFETY (test): plain libcrypto calls with local out-pointers.
        let e =
            unsafe { ERR_get_error_all(&mut file, &mut line, &mut func, &mut data, &mut flags) };
        if e == 0 {
            return all.join("; ");
        }
        let mut buf = [0 as c_char; 256];
        unsafe { ERR_error_string_n(e, buf.as_mut_ptr(), buf.len()) };
        let mut s = unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        if !data.is_null() {
            s = format!("{s}: {}", unsafe { CStr::from_ptr(data) }.to_string_lossy());
        }
        all.push(s);
    }
}

#[derive(Clone, Copy)]
struct Cipher(*mut c_void);
// SAFETY (test): a fetched EVP_CIPHER is immutable and reference-counted.
unsafe impl Send for Cipher {}
unsafe impl Sync for Cipher {}

/// AES-GCM for `keylen`-byte keys from the provider `prov`.
fn cipher(keylen: usize, prov: &str) -> Cipher {
    fetch(&format!("AES-{}-GCM", keylen * 8), prov)
}

/// The cipher `name` from the provider `prov` (checked).
fn fetch(name: &str, prov: &str) -> Cipher {
    load();
    let name = CString::new(name).unwrap();
    let props = CString::new(format!("provider={prov}")).unwrap();
    // SAFETY (test): valid strings; the result is checked.
    let c = unsafe { EVP_CIPHER_fetch(null_mut(), name.as_ptr(), props.as_ptr()) };
    assert!(!c.is_null(), "fetch {name:?} {props:?}: {}", errors());
    let got = unsafe { CStr::from_ptr(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c))) };
    assert_eq!(got.to_str().unwrap(), prov);
    Cipher(c)
}

struct Ctx(*mut c_void);
impl Ctx {
    fn new() -> Self {
        // SAFETY (test): checked below.
        let c = unsafe { EVP_CIPHER_CTX_new() };
        assert!(!c.is_null());
        Ctx(c)
    }
}
impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY (test): created by EVP_CIPHER_CTX_new, freed once.
        unsafe { EVP_CIPHER_CTX_free(self.0) }
    }
}

fn ok(r: c_int, what: &str) -> Result<(), String> {
    if r == 1 {
        Ok(())
    } else {
        Err(format!("{what}: {}", errors()))
    }
}

/// Random cut points of `n` bytes (empty pieces included).
fn pieces(rng: &mut impl Rng, n: usize, split: bool) -> Vec<std::ops::Range<usize>> {
    if !split {
        return std::iter::once(0..n).collect();
    }
    let mut cuts: Vec<usize> = (0..rng.random_range(0..6))
        .map(|_| rng.random_range(0..=n))
        .collect();
    cuts.push(0);
    cuts.push(n);
    cuts.sort();
    cuts.windows(2).map(|w| w[0]..w[1]).collect()
}

/// How a message goes through EVP.
#[derive(Clone, Copy)]
struct Way {
    split: bool,
    in_place: bool,
    /// Decryption: the tag is set before the ciphertext (else after).
    tag_first: bool,
}

/// Sets up a context: cipher and IV length, then key and IV.
fn start(ctx: &Ctx, c: Cipher, enc: bool, key: &[u8], iv: &[u8]) -> Result<(), String> {
    // SAFETY (test): a live context and cipher; key and IV of the lengths
    // the context was told.
    unsafe {
        let init = |ci, key, iv| EVP_CipherInit_ex(ctx.0, ci, null_mut(), key, iv, enc as c_int);
        ok(init(c.0, null(), null()), "init")?;
        ok(
            EVP_CIPHER_CTX_ctrl(
                ctx.0,
                EVP_CTRL_AEAD_SET_IVLEN,
                iv.len() as c_int,
                null_mut(),
            ),
            "set ivlen",
        )?;
        if key.len() * 8 != 128 && key.len() * 8 != 192 && key.len() * 8 != 256 {
            ok(
                EVP_CIPHER_CTX_set_key_length(ctx.0, key.len() as c_int),
                "set key length",
            )?;
        }
        ok(init(null(), key.as_ptr(), iv.as_ptr()), "init key and iv")
    }
}

/// AAD then text through `update` (the direction the context was started
/// in); returns the output.
fn run(
    ctx: &Ctx,
    aad: &[u8],
    text: &[u8],
    rng: &mut impl Rng,
    way: Way,
) -> Result<Vec<u8>, String> {
    for r in pieces(rng, aad.len(), way.split) {
        let mut outl = -1;
        // SAFETY (test): `aad[r]` is readable; NULL output means AAD.
        ok(
            unsafe {
                EVP_CipherUpdate(
                    ctx.0,
                    null_mut(),
                    &mut outl,
                    aad[r.clone()].as_ptr(),
                    r.len() as c_int,
                )
            },
            "aad",
        )?;
    }
    let mut out = if way.in_place {
        text.to_vec()
    } else {
        vec![0u8; text.len()]
    };
    for r in pieces(rng, text.len(), way.split) {
        let mut outl = -1;
        let dst = out[r.clone()].as_mut_ptr();
        let src = if way.in_place {
            dst as *const u8
        } else {
            text[r.clone()].as_ptr()
        };
        // SAFETY (test): `r` is in bounds of both buffers.
        ok(
            unsafe { EVP_CipherUpdate(ctx.0, dst, &mut outl, src, r.len() as c_int) },
            "update",
        )?;
        if outl as usize != r.len() {
            return Err(format!("update gave {outl} bytes for {}", r.len()));
        }
    }
    Ok(out)
}

/// A key, IV and AAD under one cipher.
#[derive(Clone, Copy)]
struct Msg<'a> {
    c: Cipher,
    key: &'a [u8],
    iv: &'a [u8],
    aad: &'a [u8],
}

fn encrypt(
    m: &Msg,
    pt: &[u8],
    taglen: usize,
    rng: &mut impl Rng,
    way: Way,
) -> Result<(Vec<u8>, Vec<u8>), String> {
    let ctx = Ctx::new();
    start(&ctx, m.c, true, m.key, m.iv)?;
    let ct = run(&ctx, m.aad, pt, rng, way)?;
    Ok((ct, final_tag(&ctx, taglen)?))
}

/// `final` of an encryption, then its `taglen`-byte tag.
fn final_tag(ctx: &Ctx, taglen: usize) -> Result<Vec<u8>, String> {
    let mut tag = vec![0u8; taglen];
    let mut outl = -1;
    // SAFETY (test): a live context; `tag` has `taglen` bytes.
    unsafe {
        ok(EVP_EncryptFinal_ex(ctx.0, null_mut(), &mut outl), "final")?;
        ok(
            EVP_CIPHER_CTX_ctrl(
                ctx.0,
                EVP_CTRL_AEAD_GET_TAG,
                taglen as c_int,
                tag.as_mut_ptr().cast(),
            ),
            "get tag",
        )?;
    }
    Ok(tag)
}

fn set_tag(ctx: &Ctx, tag: &[u8]) -> Result<(), String> {
    let mut t = tag.to_vec();
    // SAFETY (test): a live context; `t` has `tag.len()` bytes.
    ok(
        unsafe {
            EVP_CIPHER_CTX_ctrl(
                ctx.0,
                EVP_CTRL_AEAD_SET_TAG,
                t.len() as c_int,
                t.as_mut_ptr().cast(),
            )
        },
        "set tag",
    )
}

fn decrypt(
    m: &Msg,
    ct: &[u8],
    tag: &[u8],
    rng: &mut impl Rng,
    way: Way,
) -> Result<Vec<u8>, String> {
    let ctx = Ctx::new();
    start(&ctx, m.c, false, m.key, m.iv)?;
    if way.tag_first {
        set_tag(&ctx, tag)?;
    }
    let pt = run(&ctx, m.aad, ct, rng, way)?;
    if !way.tag_first {
        set_tag(&ctx, tag)?;
    }
    let mut outl = -1;
    // SAFETY (test): a live context.
    ok(
        unsafe { EVP_DecryptFinal_ex(ctx.0, null_mut(), &mut outl) },
        "final",
    )?;
    Ok(pt)
}

fn unhex(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap_or("")).unwrap()
}

fn vector_files() -> Vec<PathBuf> {
    let out = std::process::Command::new("bash")
        .arg(root().join("scripts/vector-files.sh"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(PathBuf::from)
        .collect()
}

/// One known-answer case (vectors/README.md).
struct Case {
    id: String,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    ct: Vec<u8>,
    tag: Vec<u8>,
    /// The plaintext of a valid case; `None` for an invalid one.
    pt: Option<Vec<u8>>,
}

impl Case {
    /// The key length of the cipher to run it on (a bad key size: 16, where
    /// setting the key fails).
    fn keylen(&self) -> usize {
        if [16, 24, 32].contains(&self.key.len()) {
            self.key.len()
        } else {
            16
        }
    }
}

/// Every case of the vector files of `algorithm`, and how many files.
fn cases(algorithm: &str) -> (usize, Vec<Case>) {
    let (mut files, mut all) = (0, Vec::new());
    for f in vector_files() {
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        if doc["algorithm"] != algorithm {
            continue;
        }
        files += 1;
        for t in doc["tests"].as_array().unwrap() {
            all.push(Case {
                id: format!("{} #{}", f.display(), t["id"]),
                key: unhex(&t["key"]),
                iv: unhex(&t["iv"]),
                aad: unhex(&t["aad"]),
                ct: unhex(&t["ct"]),
                tag: unhex(&t["tag"]),
                pt: (t["result"] == "valid").then(|| unhex(&t["pt"])),
            });
        }
    }
    (files, all)
}

#[test]
fn every_gcm_vector_file_whole_and_split() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(39);
    let (f1, mut all) = cases("AES-GCM");
    let (f2, gmac) = cases("AES-GMAC");
    all.extend(gmac);
    let files = f1 + f2;
    let (mut valid, mut refused) = (0, 0);
    for t in &all {
        let id = &t.id;
        let m = Msg {
            c: cipher(t.keylen(), "galois"),
            key: &t.key,
            iv: &t.iv,
            aad: &t.aad,
        };
        // Whole, in place; split at random points, separate buffers; split, in place.
        for (i, way) in [(false, true), (true, false), (true, true)]
            .into_iter()
            .enumerate()
        {
            let way = Way {
                split: way.0,
                in_place: way.1,
                tag_first: t.tag.len() < 16 || i == 1,
            };
            let opened = decrypt(&m, &t.ct, &t.tag, &mut rng, way);
            match &t.pt {
                Some(pt) => {
                    assert_eq!(opened.as_deref(), Ok(&pt[..]), "{id}: decrypt");
                    let sealed = encrypt(&m, pt, t.tag.len(), &mut rng, way);
                    assert_eq!(sealed, Ok((t.ct.clone(), t.tag.clone())), "{id}: encrypt");
                }
                None => {
                    let e = opened.expect_err(&format!("{id}: an invalid case opened"));
                    assert!(!e.is_empty(), "{id}: no error");
                }
            }
        }
        if t.pt.is_some() {
            valid += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        files >= 3 && valid > 100 && refused > 0,
        "{files} files, {valid} valid, {refused} invalid"
    );
    eprintln!("vectors: {files} files, {valid} valid cases sealed and opened, {refused} invalid cases refused");
}

#[test]
fn random_messages_match_the_default_provider() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x6a10);
    for i in 0..600 {
        let keylen = [16, 24, 32][i % 3];
        let key: Vec<u8> = (0..keylen).map(|_| rng.random()).collect();
        let ivlen = if i % 4 == 0 {
            rng.random_range(1..80)
        } else {
            12
        };
        let iv: Vec<u8> = (0..ivlen).map(|_| rng.random()).collect();
        let aad: Vec<u8> = (0..rng.random_range(0..70)).map(|_| rng.random()).collect();
        let n = if i % 50 == 0 {
            rng.random_range(0..300_000)
        } else {
            rng.random_range(0..2100)
        };
        let pt: Vec<u8> = (0..n).map(|_| rng.random()).collect();
        let way = Way {
            split: i % 2 == 0,
            in_place: i % 3 == 0,
            tag_first: i % 5 == 0,
        };
        let ours = Msg {
            c: cipher(keylen, "galois"),
            key: &key,
            iv: &iv,
            aad: &aad,
        };
        let theirs = Msg {
            c: cipher(keylen, "default"),
            ..ours
        };
        let sealed = encrypt(&ours, &pt, 16, &mut rng, way).unwrap();
        let what = format!(
            "case {i}: keylen {keylen} ivlen {ivlen} aad {} pt {n}",
            aad.len()
        );
        assert_eq!(
            sealed,
            encrypt(&theirs, &pt, 16, &mut rng, way).unwrap(),
            "{what}"
        );
        let (ct, tag) = sealed;
        for m in [&ours, &theirs] {
            assert_eq!(decrypt(m, &ct, &tag, &mut rng, way).unwrap(), pt, "{what}");
        }
    }
}

#[test]
fn tampering_fails_final_with_an_error_on_the_stack() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let (key, iv, aad, pt) = ([5u8; 32], [6u8; 12], b"header".to_vec(), vec![7u8; 100]);
    let m = Msg {
        c: cipher(32, "galois"),
        key: &key,
        iv: &iv,
        aad: &aad,
    };
    let late = Way {
        split: true,
        in_place: false,
        tag_first: false,
    };
    let (ct, tag) = encrypt(&m, &pt, 16, &mut rng, late).unwrap();
    // The tag set after the ciphertext (on-line decryption) or before it
    // (one call, then on-line when that fails), whole or split.
    for (which, split, tag_first) in (0..3).flat_map(|w| {
        [
            (w, false, false),
            (w, true, false),
            (w, false, true),
            (w, true, true),
        ]
    }) {
        let (mut a, mut c, mut t) = (aad.clone(), ct.clone(), tag.clone());
        match which {
            0 => t[15] ^= 1,
            1 => c[50] ^= 0x80,
            _ => a[0] ^= 1,
        }
        let way = Way {
            split,
            in_place: split,
            tag_first,
        };
        let e = decrypt(&Msg { aad: &a, ..m }, &c, &t, &mut rng, way).unwrap_err();
        assert!(e.starts_with("final:") && e.contains("galois"), "{e}");
    }
    // A message whose tag verified takes no more text, nor another tag.
    for more_text in [true, false] {
        let ctx = Ctx::new();
        start(&ctx, m.c, false, &key, &iv).unwrap();
        set_tag(&ctx, &tag).unwrap();
        let whole = Way {
            split: false,
            in_place: true,
            tag_first: true,
        };
        assert_eq!(run(&ctx, &aad, &ct, &mut rng, whole).unwrap(), pt);
        let e = if more_text {
            run(&ctx, b"", b"x", &mut rng, whole).map(drop)
        } else {
            set_tag(&ctx, &tag)
        };
        assert!(e.unwrap_err().contains("galois"));
        let mut outl = 0;
        // SAFETY (test): a live context.
        assert_eq!(
            unsafe { EVP_DecryptFinal_ex(ctx.0, null_mut(), &mut outl) },
            0,
            "final after a refused call"
        );
        errors();
    }
    // A truncated tag set after the ciphertext is refused, never skipped;
    // set before it, it verifies (and a flipped bit of it fails).
    let (ct12, tag12) = encrypt(&m, &pt, 12, &mut rng, late).unwrap();
    assert!(decrypt(&m, &ct12, &tag12, &mut rng, late).is_err());
    let early = Way {
        tag_first: true,
        ..late
    };
    assert_eq!(decrypt(&m, &ct12, &tag12, &mut rng, early).unwrap(), pt);
    let mut bad = tag12.clone();
    bad[11] ^= 4;
    assert!(decrypt(&m, &ct12, &bad, &mut rng, early)
        .unwrap_err()
        .starts_with("final:"));
}

#[test]
fn new_iv_same_key_copy_and_used_up_iv() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let (g, d) = (cipher(16, "galois"), cipher(16, "default"));
    let key = [9u8; 16];
    let way = Way {
        split: true,
        in_place: true,
        tag_first: false,
    };
    let ctx = Ctx::new();
    start(&ctx, g, true, &key, &[0; 12]).unwrap();
    let mut cur = key;
    for n in 0..20u8 {
        let iv = [n; 12];
        // Re-init with the IV only, with the same key again, or with another key.
        if n % 5 == 4 {
            cur = [n; 16];
        }
        let k = if n % 5 == 0 { null() } else { cur.as_ptr() };
        // SAFETY (test): a live context; a 16-byte key or none, a 12-byte IV.
        unsafe {
            ok(
                EVP_CipherInit_ex(ctx.0, null(), null_mut(), k, iv.as_ptr(), 1),
                "re-init",
            )
            .unwrap()
        };
        let pt = vec![n; 33 * n as usize];
        let ct = run(&ctx, b"aad", &pt, &mut rng, way).unwrap();
        let mut tag = [0u8; 16];
        let mut outl = 0;
        // SAFETY (test): a live context, a 16-byte tag buffer.
        unsafe {
            ok(EVP_EncryptFinal_ex(ctx.0, null_mut(), &mut outl), "final").unwrap();
            ok(
                EVP_CIPHER_CTX_ctrl(ctx.0, EVP_CTRL_AEAD_GET_TAG, 16, tag.as_mut_ptr().cast()),
                "tag",
            )
            .unwrap();
        }
        assert_eq!(
            (ct, tag.to_vec()),
            encrypt(
                &Msg {
                    c: d,
                    key: &cur,
                    iv: &iv,
                    aad: b"aad"
                },
                &pt,
                16,
                &mut rng,
                way
            )
            .unwrap()
        );
        // The IV is used up: more text without a new IV is refused.
        let mut b = [0u8; 4];
        let r = unsafe { EVP_CipherUpdate(ctx.0, b.as_mut_ptr(), &mut outl, b.as_ptr(), 4) };
        assert_eq!(r, 0, "an update after final without a new IV");
        errors();
    }
    // EVP_CIPHER_CTX_copy before any data, after AAD and after one piece
    // of text: the copy finishes the message as the original does.
    let whole = Way {
        split: false,
        in_place: false,
        tag_first: false,
    };
    let mut expect = None;
    for pieces in 0..2 {
        let a = Ctx::new();
        start(&a, g, true, &key, &[3; 12]).unwrap();
        let first = if pieces > 0 {
            run(&a, b"aad", b"first", &mut rng, whole).unwrap()
        } else {
            vec![]
        };
        let b = Ctx::new();
        // SAFETY (test): live contexts.
        unsafe { ok(EVP_CIPHER_CTX_copy(b.0, a.0), "copy").unwrap() };
        let tags: Vec<_> = [&a, &b]
            .into_iter()
            .map(|c| {
                let aad: &[u8] = if pieces == 0 { b"aad" } else { b"" };
                let text: &[u8] = if pieces == 0 {
                    b"firstsecond"
                } else {
                    b"second"
                };
                let mut ct = first.clone();
                ct.extend(run(c, aad, text, &mut rng, whole).unwrap());
                (ct, final_tag(c, 16).unwrap())
            })
            .collect();
        assert_eq!(tags[0], tags[1], "copy after {pieces} pieces");
        assert_eq!(*expect.get_or_insert(tags[0].clone()), tags[0]);
    }
    assert_eq!(
        expect.unwrap(),
        encrypt(
            &Msg {
                c: d,
                key: &key,
                iv: &[3; 12],
                aad: b"aad"
            },
            b"firstsecond",
            16,
            &mut rng,
            whole
        )
        .unwrap()
    );
}

/// `EVP_CIPHER_CTX_copy` in the middle of an on-line message (after two
/// pieces of text): the original and the copy both finish it, each as the
/// default provider does, encrypting and decrypting (16- and 12-byte tags;
/// a 16-byte one also set after the text); a copy given other text fails `final`
/// while the original passes.
#[test]
fn copy_in_the_middle_of_an_online_message() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(39);
    for keylen in [16, 32] {
        let (g, d) = (cipher(keylen, "galois"), cipher(keylen, "default"));
        let key: Vec<u8> = (0..keylen).map(|_| rng.random()).collect();
        let pt: Vec<u8> = (0..9000).map(|_| rng.random()).collect();
        // Pieces: 100 bytes with the AAD, 1000, then the rest after the copy.
        let cut = [0, 100, 1100, pt.len()];
        let way = Way {
            split: true,
            in_place: false,
            tag_first: false,
        };
        let m = Msg {
            c: d,
            key: &key,
            iv: &[5; 12],
            aad: b"header",
        };
        for taglen in [16, 12] {
            let (want_ct, want_tag) = encrypt(&m, &pt, taglen, &mut rng, way).unwrap();

            let a = Ctx::new();
            start(&a, g, true, &key, &[5; 12]).unwrap();
            let mut head = run(&a, b"header", &pt[..cut[1]], &mut rng, way).unwrap();
            head.extend(run(&a, b"", &pt[cut[1]..cut[2]], &mut rng, way).unwrap());
            let b = Ctx::new();
            // SAFETY (test): live contexts.
            unsafe { ok(EVP_CIPHER_CTX_copy(b.0, a.0), "copy").unwrap() };
            for c in [&b, &a] {
                let mut ct = head.clone();
                ct.extend(run(c, b"", &pt[cut[2]..], &mut rng, way).unwrap());
                let tag = final_tag(c, taglen).unwrap();
                assert_eq!((&ct, &tag), (&want_ct, &want_tag), "seal {keylen} {taglen}");
            }

            // A truncated tag is taken only before the text (README).
            let firsts: &[bool] = if taglen == 16 {
                &[true, false]
            } else {
                &[true]
            };
            for &tag_first in firsts {
                let a = Ctx::new();
                start(&a, g, false, &key, &[5; 12]).unwrap();
                if tag_first {
                    set_tag(&a, &want_tag).unwrap();
                }
                let mut head = run(&a, b"header", &want_ct[..cut[1]], &mut rng, way).unwrap();
                head.extend(run(&a, b"", &want_ct[cut[1]..cut[2]], &mut rng, way).unwrap());
                let b = Ctx::new();
                // SAFETY (test): live contexts.
                unsafe { ok(EVP_CIPHER_CTX_copy(b.0, a.0), "copy").unwrap() };
                let mut bad = want_ct[cut[2]..].to_vec();
                bad[4000] ^= 0x20;
                for (c, rest, good) in [(&b, &bad, false), (&a, &want_ct[cut[2]..].to_vec(), true)]
                {
                    let mut out = head.clone();
                    out.extend(run(c, b"", rest, &mut rng, way).unwrap());
                    if !tag_first {
                        set_tag(c, &want_tag).unwrap();
                    }
                    let mut outl = -1;
                    // SAFETY (test): a live context.
                    let r = unsafe { EVP_DecryptFinal_ex(c.0, null_mut(), &mut outl) };
                    let what = format!("open {keylen} {taglen} tag first {tag_first}");
                    if good {
                        ok(r, &what).unwrap();
                        assert_eq!(out, pt, "{what}");
                    } else {
                        assert_eq!(r, 0, "{what}: a copy given other ciphertext fails final");
                        errors();
                    }
                }
            }
        }
    }
}

/// GMAC of `msg` (in random pieces) under `key` and `iv` by the provider `prov`.
fn gmac(
    prov: &str,
    key: &[u8],
    iv: &[u8],
    msg: &[u8],
    rng: &mut impl Rng,
) -> Result<Vec<u8>, String> {
    load();
    let props = CString::new(format!("provider={prov}")).unwrap();
    let mut cipher = CString::new(format!("AES-{}-GCM", key.len() * 8))
        .unwrap()
        .into_bytes_with_nul();
    let mut iv = iv.to_vec();
    // SAFETY (test): valid strings and buffers that outlive the calls; every
    // object made is freed.
    unsafe {
        let mac = EVP_MAC_fetch(null_mut(), c"GMAC".as_ptr(), props.as_ptr());
        assert!(!mac.is_null(), "{}", errors());
        let got = CStr::from_ptr(OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(mac)));
        assert_eq!(got.to_str().unwrap(), prov);
        let ctx = EVP_MAC_CTX_new(mac);
        let params = [
            OSSL_PARAM_construct_utf8_string(c"cipher".as_ptr(), cipher.as_mut_ptr().cast(), 0),
            OSSL_PARAM_construct_octet_string(c"iv".as_ptr(), iv.as_mut_ptr().cast(), iv.len()),
            OSSL_PARAM_construct_end(),
        ];
        let mut r = ok(
            EVP_MAC_init(ctx, key.as_ptr(), key.len(), params.as_ptr()),
            "mac init",
        );
        for p in pieces(rng, msg.len(), true) {
            r = r.and_then(|()| {
                ok(
                    EVP_MAC_update(ctx, msg[p.clone()].as_ptr(), p.len()),
                    "mac update",
                )
            });
        }
        let mut tag = vec![0u8; 16];
        let mut n = 0;
        r = r.and_then(|()| {
            ok(
                EVP_MAC_final(ctx, tag.as_mut_ptr(), &mut n, tag.len()),
                "mac final",
            )
        });
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(mac);
        r.map(|()| tag[..n].to_vec())
    }
}

#[test]
fn gmac_matches_the_default_provider_and_the_vectors() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x6ac);
    for i in 0..200 {
        let key: Vec<u8> = (0..[16, 24, 32][i % 3]).map(|_| rng.random()).collect();
        let iv: Vec<u8> = (0..if i % 4 == 0 {
            rng.random_range(1..40)
        } else {
            12
        })
            .map(|_| rng.random())
            .collect();
        let n = if i % 20 == 0 {
            rng.random_range(0..200_000)
        } else {
            rng.random_range(0..3000)
        };
        let msg: Vec<u8> = (0..n).map(|_| rng.random()).collect();
        let ours = gmac("galois", &key, &iv, &msg, &mut rng).unwrap();
        assert_eq!(
            ours,
            gmac("default", &key, &iv, &msg, &mut rng).unwrap(),
            "case {i}"
        );
        assert_eq!(ours.len(), 16);
    }
    let mut n = 0;
    for t in cases("AES-GMAC").1 {
        if ![16, 24, 32].contains(&t.key.len()) || t.tag.len() != 16 {
            continue;
        }
        let ours = gmac("galois", &t.key, &t.iv, &t.aad, &mut rng);
        match t.pt {
            Some(_) => assert_eq!(ours, Ok(t.tag), "{}", t.id),
            None => assert!(ours.map_or(true, |o| o != t.tag), "{}", t.id),
        }
        n += 1;
    }
    assert!(n > 20, "{n} GMAC vector cases");
}

#[test]
fn gcm_siv_vector_files_one_update_and_refusals() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8452);
    let (mut valid, mut refused) = (0, 0);
    let whole = Way {
        split: false,
        in_place: true,
        tag_first: true,
    };
    for t in cases("AES-GCM-SIV").1 {
        let id = &t.id;
        let c = fetch(&format!("AES-{}-GCM-SIV", t.keylen() * 8), "galois");
        let m = Msg {
            c,
            key: &t.key,
            iv: &t.iv,
            aad: &t.aad,
        };
        for in_place in [true, false] {
            let way = Way { in_place, ..whole };
            let opened = decrypt(&m, &t.ct, &t.tag, &mut rng, way);
            match &t.pt {
                Some(pt) => {
                    assert_eq!(opened.as_deref(), Ok(&pt[..]), "{id}: decrypt");
                    let sealed = encrypt(&m, pt, 16, &mut rng, way);
                    assert_eq!(sealed, Ok((t.ct.clone(), t.tag.clone())), "{id}: encrypt");
                }
                None => assert!(opened.is_err(), "{id}: an invalid case opened"),
            }
        }
        if t.pt.is_some() {
            valid += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        valid > 100 && refused > 5,
        "{valid} valid, {refused} invalid"
    );
    // The text in two updates is refused; a forged tag fails the update,
    // wipes its output and fails final.
    let key = [3u8; 32];
    let m = Msg {
        c: fetch("AES-256-GCM-SIV", "galois"),
        key: &key,
        iv: &[4; 12],
        aad: b"aad",
    };
    let (ct, tag) = encrypt(&m, b"two pieces", 16, &mut rng, whole).unwrap();
    let split = Way {
        split: true,
        ..whole
    };
    let refused_split = (0..20).any(|_| encrypt(&m, b"two pieces", 16, &mut rng, split).is_err());
    assert!(refused_split, "the text in pieces was never refused");
    let mut bad = tag.clone();
    bad[0] ^= 1;
    let ctx = Ctx::new();
    start(&ctx, m.c, false, &key, m.iv).unwrap();
    set_tag(&ctx, &bad).unwrap();
    let mut buf = ct.clone();
    let mut outl = 0;
    // SAFETY (test): a live context; AAD then the text, in place.
    unsafe {
        ok(
            EVP_CipherUpdate(ctx.0, null_mut(), &mut outl, b"aad".as_ptr(), 3),
            "aad",
        )
        .unwrap();
        let r = EVP_CipherUpdate(
            ctx.0,
            buf.as_mut_ptr(),
            &mut outl,
            buf.as_ptr(),
            buf.len() as c_int,
        );
        assert_eq!(r, 0, "a forged tag passed the update");
        assert!(errors().contains("galois"));
        assert!(buf.iter().all(|&b| b == 0), "output not wiped: {buf:?}");
        assert_eq!(EVP_DecryptFinal_ex(ctx.0, null_mut(), &mut outl), 0);
        errors();
    }
}

const EVP_CTRL_AEAD_SET_IV_FIXED: c_int = 0x12;
const EVP_CTRL_AEAD_TLS1_AAD: c_int = 0x16;

/// A TLS 1.2 record context as libssl sets one up: key, then the 4-byte
/// fixed IV.
fn tls12(c: Cipher, enc: bool, key: &[u8], fixed: &[u8; 4]) -> Ctx {
    let ctx = Ctx::new();
    let mut f = *fixed;
    // SAFETY (test): a live context and cipher, a key of its length.
    unsafe {
        ok(
            EVP_CipherInit_ex(ctx.0, c.0, null_mut(), key.as_ptr(), null(), enc as c_int),
            "init",
        )
        .unwrap();
        ok(
            EVP_CIPHER_CTX_ctrl(ctx.0, EVP_CTRL_AEAD_SET_IV_FIXED, 4, f.as_mut_ptr().cast()),
            "fixed iv",
        )
        .unwrap();
    }
    ctx
}

/// One TLS 1.2 record through EVP_Cipher, in place: `rec` is explicit IV ||
/// payload || tag; the AAD carries the record's length as libssl sets it.
fn tls12_record(ctx: &Ctx, enc: bool, seq: u64, rec: &mut [u8]) -> Result<usize, String> {
    let mut aad = [0u8; 13];
    aad[..8].copy_from_slice(&seq.to_be_bytes());
    aad[8..11].copy_from_slice(&[23, 3, 3]);
    let len = if enc { rec.len() - 16 } else { rec.len() };
    aad[11..].copy_from_slice(&(len as u16).to_be_bytes());
    // SAFETY (test): a live context; `rec` is read and written in place.
    unsafe {
        let pad = EVP_CIPHER_CTX_ctrl(ctx.0, EVP_CTRL_AEAD_TLS1_AAD, 13, aad.as_mut_ptr().cast());
        if pad != 16 {
            return Err(format!("tls aad: {pad}: {}", errors()));
        }
        let n = EVP_Cipher(ctx.0, rec.as_mut_ptr(), rec.as_ptr(), rec.len() as u32);
        if n < 0 {
            Err(format!("record: {}", errors()))
        } else {
            Ok(n as usize)
        }
    }
}

#[test]
fn tls12_records_both_ways_with_the_default_provider_and_bad_parameters() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5288);
    for keylen in [16, 32] {
        let key: Vec<u8> = (0..keylen).map(|_| rng.random()).collect();
        let fixed: [u8; 4] = rng.random();
        let (g, d) = (cipher(keylen, "galois"), cipher(keylen, "default"));
        // Sealed by one provider, opened by the other, both ways.
        for (sealer, opener) in [(g, d), (d, g)] {
            let (s, o) = (
                tls12(sealer, true, &key, &fixed),
                tls12(opener, false, &key, &fixed),
            );
            for seq in 0..20u64 {
                let payload: Vec<u8> = (0..rng.random_range(0..3000))
                    .map(|_| rng.random())
                    .collect();
                let mut rec = vec![0u8; 8 + payload.len() + 16];
                rec[8..8 + payload.len()].copy_from_slice(&payload);
                assert_eq!(tls12_record(&s, true, seq, &mut rec), Ok(rec.len()));
                let mut tampered = rec.clone();
                if seq % 4 == 3 {
                    let i = rng.random_range(0..tampered.len());
                    tampered[i] ^= 1 << rng.random_range(0..8);
                    assert!(
                        tls12_record(&o, false, seq, &mut tampered).is_err(),
                        "a tampered record opened"
                    );
                    assert!(
                        tampered[8..8 + payload.len()].iter().all(|&b| b == 0) || opener.0 == d.0,
                        "galois left plaintext of a failed record"
                    );
                    continue;
                }
                // (EVP_Cipher reports the whole record, as OpenSSL's GCM does)
                assert_eq!(tls12_record(&o, false, seq, &mut tampered), Ok(rec.len()));
                assert_eq!(&tampered[8..8 + payload.len()], &payload[..]);
            }
        }
        // Explicit IVs differ record to record.
        let s = tls12(g, true, &key, &fixed);
        let (mut a, mut b) = (vec![0u8; 40], vec![0u8; 40]);
        tls12_record(&s, true, 1, &mut a).unwrap();
        tls12_record(&s, true, 2, &mut b).unwrap();
        assert_ne!(a[..8], b[..8]);
    }
    // Bad parameters fail with an error on the stack, never crash.
    let g = cipher(16, "galois");
    let ctx = Ctx::new();
    start(&ctx, g, true, &[1; 16], &[2; 12]).unwrap();
    let mut buf = [0u8; 64];
    // SAFETY (test): a live context and buffers of the sizes given.
    unsafe {
        let p: *mut c_void = buf.as_mut_ptr().cast();
        let c = ctx.0;
        let refused: [(&str, &dyn Fn() -> c_int); 6] = [
            ("tag before final", &|| {
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, p)
            }),
            ("a 17-byte tag", &|| {
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 17, p)
            }),
            ("a tag set when encrypting", &|| {
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, p)
            }),
            ("a 12-byte TLS AAD", &|| {
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 12, p)
            }),
            ("a 2-byte fixed IV", &|| {
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IV_FIXED, 2, p)
            }),
            ("a 20-byte key", &|| EVP_CIPHER_CTX_set_key_length(c, 20)),
        ];
        for (what, call) in refused {
            errors();
            assert!(call() <= 0, "{what} accepted");
            assert!(!errors().is_empty(), "{what}: no error on the stack");
        }
        // A record shorter than explicit IV and tag.
        let s = tls12(g, true, &[1; 16], &[3; 4]);
        assert!(tls12_record(&s, true, 0, &mut buf[..20]).is_err());
    }
}
