//! Valgrind client requests, issued directly with inline assembly.
//!
//! A client request is a block of instructions that does nothing on a real
//! CPU but that valgrind's amd64 front end recognises: four rotations of
//! rdi that add up to 128 bits (so rdi is unchanged), then `xchg rbx, rbx`.
//! On seeing it, valgrind reads six machine words at the address in rax
//! (the request code and five arguments) and puts its answer in rdx; run
//! natively, rdx keeps the default value we load into it.
//!
//! The request codes come from valgrind.h and memcheck.h (3.19): core
//! requests are small numbers, tool requests start at the tool's two
//! letters in the top two bytes (`'M' << 24 | 'C' << 16` for memcheck).

/// valgrind.h: RUNNING_ON_VALGRIND.
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// valgrind.h: VALGRIND_COUNT_ERRORS.
const COUNT_ERRORS: usize = 0x1201;
/// memcheck.h: the first memcheck request (MAKE_MEM_NOACCESS).
const MC_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
/// memcheck.h: VALGRIND_MAKE_MEM_UNDEFINED.
const MAKE_MEM_UNDEFINED: usize = MC_BASE + 1;
/// memcheck.h: VALGRIND_MAKE_MEM_DEFINED.
const MAKE_MEM_DEFINED: usize = MC_BASE + 2;
/// memcheck.h: VALGRIND_GET_VBITS (copies the definedness bits out).
const GET_VBITS: usize = MC_BASE + 8;

#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn request(default: usize, code: usize, a1: usize, a2: usize) -> usize {
    request3(default, code, a1, a2, 0)
}

#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn request3(default: usize, code: usize, a1: usize, a2: usize, a3: usize) -> usize {
    let args: [usize; 6] = [code, a1, a2, a3, 0, 0];
    let mut out = default;
    // SAFETY: natively the rotations leave rdi as it was (3+13+61+51 = 128)
    // and `xchg rbx, rbx` changes nothing, so the block only clobbers the
    // flags; under valgrind it reads the six words at rax, which point to
    // `args`, alive for the whole call, and writes its answer to rdx.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") out,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
fn request(default: usize, _code: usize, _a1: usize, _a2: usize) -> usize {
    default
}

#[cfg(not(target_arch = "x86_64"))]
fn request3(default: usize, _code: usize, _a1: usize, _a2: usize, _a3: usize) -> usize {
    default
}

/// Whether the process runs under valgrind (0 natively).
pub fn running() -> bool {
    request(0, RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// Errors the tool has reported so far (0 natively).
pub fn errors() -> usize {
    request(0, COUNT_ERRORS, 0, 0)
}

/// Declares the bytes secret: memcheck then reports every conditional
/// branch, conditional move and memory address computed from them. Takes
/// `&mut` so the compiler cannot keep a copy of the bytes across the call.
pub fn secret(b: &mut [u8]) {
    request(0, MAKE_MEM_UNDEFINED, b.as_mut_ptr() as usize, b.len());
}

/// Declares the bytes public again (a result that is public by design).
pub fn public(b: &mut [u8]) {
    request(0, MAKE_MEM_DEFINED, b.as_mut_ptr() as usize, b.len());
}

/// Whether any bit of `b` is undefined for memcheck (derived from a
/// secret); `None` natively.
pub fn tainted(b: &[u8]) -> Option<bool> {
    let mut v = vec![0u8; b.len()];
    let r = request3(
        0,
        GET_VBITS,
        b.as_ptr() as usize,
        v.as_mut_ptr() as usize,
        b.len(),
    );
    (r == 1).then(|| v.iter().any(|&x| x != 0))
}

/// Declassifies an output that must depend on the secrets (ciphertext,
/// tag, plaintext): under valgrind it first checks that it does, so a
/// check whose secrets never reached the library cannot pass silently.
pub fn reveal(b: &mut [u8]) {
    if !b.is_empty() && tainted(b) == Some(false) {
        panic!("an output that depends on the secrets is fully defined: the marking did not take");
    }
    public(b);
}

/// Declassifies a plain value and returns it, reloaded after the request.
pub fn public_val<T: Copy>(v: T) -> T {
    let mut slot = v;
    let p: *mut T = &mut slot;
    request(0, MAKE_MEM_DEFINED, p as usize, core::mem::size_of::<T>());
    // SAFETY: p points to the live local `slot`; volatile so that the
    // compiler reloads it after the request.
    unsafe { core::ptr::read_volatile(p) }
}
