//! Chunked encryption (C2SP Cobblestone): whole messages and streaming.

use super::*;

// ---------------------------------------------------------------------------
// Chunked encryption (C2SP chunked-encryption, "Cobblestone"): one-shot
// ---------------------------------------------------------------------------

/// The return code of a chunked-encryption error: every way a message can
/// fail to open (tag, commitment, truncation, trailing data, header) is
/// [`GALOIS_ERR_AUTH`].
pub(crate) fn chunked_code(e: Error) -> c_int {
    match e {
        Error::StreamTruncated
        | Error::StreamTrailingData
        | Error::StreamWrongKey
        | Error::StreamBadHeader { .. }
        | Error::CiphertextTooShort { .. } => GALOIS_ERR_AUTH,
        Error::LimitReached { .. } => GALOIS_ERR_TOO_LONG,
        e => code(e),
    }
}

pub(crate) fn chunked_key(key: &[u8]) -> Result<(), c_int> {
    if matches!(key.len(), 16 | 32) {
        Ok(())
    } else {
        Err(GALOIS_ERR_KEY_LENGTH)
    }
}

/// The sealed length of a `pt_len`-byte message, or 0 if that overflows.
#[no_mangle]
pub extern "C" fn galois_chunked_sealed_len(pt_len: usize) -> usize {
    let chunks = pt_len / galois_aead::chunked::CHUNK_SIZE + 1;
    chunks
        .checked_mul(galois_aead::chunked::TAG_LEN)
        .and_then(|t| t.checked_add(pt_len))
        .and_then(|t| t.checked_add(galois_aead::chunked::HEADER_LEN))
        .unwrap_or(0)
}

/// `n` zeroed bytes of private memory (wiped when dropped), or
/// [`GALOIS_ERR_NO_MEMORY`].
fn private_buffer(n: usize) -> Result<zeroize::Zeroizing<Vec<u8>>, c_int> {
    let mut v = zeroize::Zeroizing::new(Vec::new());
    v.try_reserve_exact(n).map_err(|_| GALOIS_ERR_NO_MEMORY)?;
    v.resize(n, 0);
    Ok(v)
}

/// The buffers of a whole-message chunked call, as the C caller gave them:
/// output (capacity, and where its length is reported), input, context,
/// key.
#[derive(Clone, Copy)]
struct ChunkedIo {
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    in_: *const u8,
    in_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
}

/// An `extern "C"` whole-message chunked function: the output, the input,
/// then the parameters `$mid`, then context and key (gathered into the
/// [`ChunkedIo`] named `$io`); `$body` uses them.
macro_rules! chunked_fn {
    ($(#[$m:meta])* $f:ident($($mid:ident: $mt:ty),*) $io:ident $body:block) => {
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "C" fn $f(
            out: *mut u8,
            out_cap: usize,
            out_len: *mut usize,
            in_: *const u8,
            in_len: usize,
            $($mid: $mt,)*
            ctx: *const u8,
            ctx_len: usize,
            key: *const u8,
            key_len: usize,
        ) -> c_int {
            let $io = ChunkedIo { out, out_cap, out_len, in_, in_len, ctx, ctx_len, key, key_len };
            $body
        }
    };
}

/// The shared body of [`galois_chunked_seal`] and [`galois_chunked_open`]:
/// `need()` gives the output length, which is reported in `*out_len`; then
/// the capacity and overlaps are checked, and `f(key, ctx, in, result)`
/// runs into private memory, copied to `out` only if it succeeded. On any
/// error `out[0..out_cap)` is zeroed.
///
/// # Safety
/// Pointers and lengths as the header documents them for those functions.
unsafe fn whole_message(
    io: ChunkedIo,
    need: impl FnOnce() -> Result<usize, c_int>,
    f: impl FnOnce(&[u8], &[u8], &[u8], &mut [u8]) -> Result<(), Error>,
) -> c_int {
    let r = guard(|| {
        // SAFETY (all blocks below): pointers and lengths as the header
        // documents them; out is written only after the overlap checks.
        let need = need()?;
        let call = [
            (io.out as *const u8, io.out_cap),
            (io.in_, io.in_len),
            (io.key, io.key_len),
            (io.ctx, io.ctx_len),
        ];
        unsafe { need_out(io.out_len, io.out_cap, need, &call)? };
        no_overlap(io.out, need, &call[1..])?;
        let k = unsafe { input(io.key, io.key_len)? };
        chunked_key(k)?;
        let c = unsafe { input(io.ctx, io.ctx_len)? };
        let data = unsafe { input(io.in_, io.in_len)? };
        let mut v = private_buffer(need)?;
        f(k, c, data, &mut v).map_err(chunked_code)?;
        unsafe { output(io.out, need)? }.copy_from_slice(&v);
        Ok(())
    });
    // SAFETY: out has out_cap bytes (contract).
    unsafe { zero_if_failed(r, &[(io.out, io.out_cap)], None) }
}

chunked_fn! {
    /// Seals `in` as one chunked message into `out`; `*out_len` gets the
    /// sealed length (also on [`GALOIS_ERR_BUFFER_TOO_SMALL`]). On any error
    /// `out[0..out_cap)` is zeroed.
    galois_chunked_seal() io {
        let need = || match galois_chunked_sealed_len(io.in_len) {
            0 => Err(GALOIS_ERR_TOO_LONG),
            n => Ok(n),
        };
        let f = |k: &[u8], c: &[u8], p: &[u8], o: &mut [u8]| {
            galois_aead::chunked::seal_into_on(1, k, c, p, o)
        };
        // SAFETY: the caller's contract, passed on.
        unsafe { whole_message(io, need, f) }
    }
}

chunked_fn! {
    /// Opens a whole chunked message: `out` gets the plaintext only if every
    /// chunk, the final chunk and the commitment verified ([`GALOIS_ERR_AUTH`]
    /// otherwise, `out[0..out_cap)` zeroed, as on any error).
    galois_chunked_open() io {
        let (key, key_len, in_len) = (io.key, io.key_len, io.in_len);
        let need = || {
            // SAFETY: key_len readable bytes (contract). The key is checked
            // before the length, as the header documents.
            chunked_key(unsafe { input(key, key_len)? })?;
            galois_aead::chunked::opened_len(in_len).map_err(chunked_code)
        };
        let f = |k: &[u8], c: &[u8], sealed: &[u8], o: &mut [u8]| {
            galois_aead::chunked::open_into_on(1, k, c, sealed, o)
        };
        // SAFETY: the caller's contract, passed on.
        unsafe { whole_message(io, need, f) }
    }
}

chunked_fn! {
    /// Random access: reads up to `out_cap` plaintext bytes at plaintext
    /// `offset` of the sealed message `in` into `out` (`*out_len`: the bytes
    /// read; fewer than `out_cap` only at the end, which is reported only after
    /// the final chunk verified). Only the chunks covering the range are
    /// verified and decrypted; `out` is written once, after all of them
    /// verified, and zeroed on any error.
    galois_chunked_read_at(offset: u64) io {
        // SAFETY: the caller's contract, passed on.
        unsafe { read_at(io, offset) }
    }
}

/// The body of [`galois_chunked_read_at`].
///
/// # Safety
/// Pointers and lengths as the header documents them for that function.
unsafe fn read_at(io: ChunkedIo, offset: u64) -> c_int {
    use std::io::{Read, Seek, SeekFrom};
    let r = guard(|| {
        // SAFETY (all blocks below): as in galois_chunked_seal.
        let k = unsafe { input(io.key, io.key_len)? };
        chunked_key(k)?;
        let call = [
            (io.out as *const u8, io.out_cap),
            (io.in_, io.in_len),
            (io.key, io.key_len),
            (io.ctx, io.ctx_len),
        ];
        no_overlap(io.out, io.out_cap, &call[1..])?;
        if !io.out_len.is_null() {
            no_overlap(io.out_len as *const u8, size_of::<usize>(), &call)?;
        }
        let c = unsafe { input(io.ctx, io.ctx_len)? };
        let sealed = unsafe { input(io.in_, io.in_len)? };
        let io_code = |e: std::io::Error| match e.get_ref().and_then(|r| r.downcast_ref::<Error>())
        {
            Some(ge) => chunked_code(*ge),
            None => GALOIS_ERR_AUTH,
        };
        let mut ra = galois_aead::chunked::RandomAccess::new(k, c, std::io::Cursor::new(sealed))
            .map_err(|e| match e {
                galois_aead::stream::StreamError::Crypto(e) => chunked_code(e),
                galois_aead::stream::StreamError::Io(e) => io_code(e),
            })?;
        ra.seek(SeekFrom::Start(offset)).map_err(io_code)?;
        let mut v = private_buffer(io.out_cap.min(io.in_len))?;
        let mut got = 0;
        let r = loop {
            if got == v.len() {
                break Ok(());
            }
            match ra.read(&mut v[got..]) {
                Ok(0) => break Ok(()),
                Ok(n) => got += n,
                Err(e) => break Err(io_code(e)),
            }
        };
        if r.is_ok() {
            unsafe { output(io.out, got)? }.copy_from_slice(&v[..got]);
            unsafe { set_out_len(io.out_len, got, &call)? };
        }
        r
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract).
        unsafe { wipe_output(io.out, io.out_cap, None) };
        if !io.out_len.is_null() {
            // SAFETY: a writable size_t (contract); never overlaps out
            // (checked above, or the call failed before any write).
            let _ = unsafe { set_out_len(io.out_len, 0, &[(io.out as *const u8, io.out_cap)]) };
        }
    }
    r
}

// ---------------------------------------------------------------------------
// Chunked encryption: streaming (a sealer and an opener in caller memory)
// ---------------------------------------------------------------------------

/// A streaming chunked state's object: live, failed (every later update
/// or final returns the code again), or finished by a final that
/// succeeded (later calls: [`GALOIS_ERR_STATE`]).
pub(crate) enum ChunkStream<T> {
    Live(T),
    Failed(c_int),
    Done,
}

/// The library's push sealer and opener, seen alike by the C functions.
pub(crate) trait Push: Sized {
    const KIND: Kind;
    fn update_len(&self, n: usize) -> Option<usize>;
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    fn finish_len(&self) -> Result<usize, Error>;
    fn finish(self, out: &mut [u8]) -> Result<usize, Error>;
}

/// [`Push`] for the library's `$t`, whose `finish_len` is `$finish_len`.
macro_rules! push {
    ($t:ident, $kind:expr, |$s:ident| $finish_len:expr) => {
        impl Push for $t {
            const KIND: Kind = $kind;
            fn update_len(&self, n: usize) -> Option<usize> {
                $t::update_len(self, n)
            }
            fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
                $t::update(self, input, out)
            }
            fn finish_len(&self) -> Result<usize, Error> {
                let $s = self;
                $finish_len
            }
            fn finish(self, out: &mut [u8]) -> Result<usize, Error> {
                $t::finish(self, out)
            }
        }
    };
}

push!(PushSealer, Kind::ChunkSeal, |s| Ok(s.finish_len()));
push!(PushOpener, Kind::ChunkOpen, |s| s.finish_len());

/// The shared body of the update and final functions. `input` is `None`
/// for final. Argument errors (NULL, overlap, a buffer too small, a state
/// that is not live) leave the stream as it was; any error of the stream
/// itself fails it for good. On any error `out[0..out_cap)` is zeroed
/// (unless it overlaps the state) and `*out_len` is 0, except on
/// [`GALOIS_ERR_BUFFER_TOO_SMALL`], where it has the size needed.
///
/// # Safety
/// As the header documents for these functions.
pub(crate) unsafe fn stream_call<T: Push>(
    state: *mut c_void,
    out: *mut u8,
    out_cap: usize,
    out_len: *mut usize,
    input_: Option<(*const u8, usize)>,
) -> c_int {
    let st = state_range(state, T::KIND);
    let (in_, in_len) = input_.unwrap_or((ptr::null(), 0));
    let call = [(out as *const u8, out_cap), (in_, in_len), st];
    let r = guard(|| {
        // SAFETY (all blocks below): pointers and lengths as the header
        // documents them; exclusive use of the state (contract); out is
        // written only after the overlap checks.
        let obj = unsafe { state_get_mut::<ChunkStream<T>>(state, T::KIND)? };
        let s = match obj {
            ChunkStream::Live(s) => s,
            ChunkStream::Failed(c) => return Err(*c),
            ChunkStream::Done => return Err(GALOIS_ERR_STATE),
        };
        let data = unsafe { input(in_, in_len)? };
        let need = match input_ {
            Some(_) => s.update_len(in_len).ok_or(GALOIS_ERR_TOO_LONG)?,
            None => match s.finish_len() {
                Ok(n) => n,
                Err(e) => {
                    let c = chunked_code(e);
                    *obj = ChunkStream::Failed(c);
                    return Err(c);
                }
            },
        };
        unsafe { need_out(out_len, out_cap, need, &call)? };
        no_overlap(out, need, &call[1..])?;
        let o = unsafe { output(out, need)? };
        let res = match input_ {
            Some(_) => s.update(data, o),
            None => match core::mem::replace(obj, ChunkStream::Done) {
                ChunkStream::Live(s) => s.finish(o),
                _ => return Err(GALOIS_ERR_INTERNAL),
            },
        };
        match res {
            Ok(n) if n == need => Ok(()),
            Ok(_) => Err(GALOIS_ERR_INTERNAL),
            Err(e) => {
                let c = chunked_code(e);
                *obj = ChunkStream::Failed(c);
                Err(c)
            }
        }
    });
    if r != GALOIS_OK {
        // SAFETY: out has out_cap bytes (contract); never the state's.
        unsafe { wipe_output(out, out_cap, Some(st)) };
        if r != GALOIS_ERR_BUFFER_TOO_SMALL {
            // SAFETY: a writable size_t (contract), refused if it overlaps
            // out, the input or the state.
            let _ = unsafe { set_out_len(out_len, 0, &call) };
        }
    }
    r
}

/// The update and final functions of a streaming chunked state of type
/// `$t`, through [`stream_call`].
macro_rules! stream_fns {
    ($t:ty; $(#[$um:meta])* $update:ident; $(#[$fm:meta])* $final:ident;) => {
        $(#[$um])*
        #[no_mangle]
        pub unsafe extern "C" fn $update(
            state: *mut c_void,
            out: *mut u8,
            out_cap: usize,
            out_len: *mut usize,
            in_: *const u8,
            in_len: usize,
        ) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { stream_call::<$t>(state, out, out_cap, out_len, Some((in_, in_len))) }
        }

        $(#[$fm])*
        #[no_mangle]
        pub unsafe extern "C" fn $final(
            state: *mut c_void,
            out: *mut u8,
            out_cap: usize,
            out_len: *mut usize,
        ) -> c_int {
            // SAFETY: forwarded contract.
            unsafe { stream_call::<$t>(state, out, out_cap, out_len, None) }
        }
    };
}

/// Bytes of caller memory a streaming chunked sealer needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_chunked_sealer_statebytes() -> usize {
    statebytes_of::<ChunkStream<PushSealer>>()
}

/// Bytes of caller memory a streaming chunked opener needs (any alignment).
#[no_mangle]
pub extern "C" fn galois_chunked_opener_statebytes() -> usize {
    statebytes_of::<ChunkStream<PushOpener>>()
}

/// Starts sealing a message with a fresh random salt: `header` (at least
/// [`GALOIS_CHUNKED_HEADERBYTES`] bytes) gets its 56-byte header. On any
/// error `header[0..header_len)` is zeroed and the state holds nothing.
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_sealer_init(
    state: *mut c_void,
    header: *mut u8,
    header_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    let st = state_range(state, Kind::ChunkSeal);
    let mut h = zeroize::Zeroizing::new([0u8; GALOIS_CHUNKED_HEADERBYTES]);
    // SAFETY (all blocks below): pointers and lengths as the header
    // documents them; header is written only after the overlap checks.
    let mut r = unsafe {
        init_state(state, Kind::ChunkSeal, || {
            if header.is_null() {
                return Err(GALOIS_ERR_NULL_POINTER);
            }
            if header_len < GALOIS_CHUNKED_HEADERBYTES {
                return Err(GALOIS_ERR_BUFFER_TOO_SMALL);
            }
            no_overlap(
                header,
                GALOIS_CHUNKED_HEADERBYTES,
                &[st, (ctx, ctx_len), (key, key_len)],
            )?;
            let k = input(key, key_len)?;
            chunked_key(k)?;
            let c = input(ctx, ctx_len)?;
            let (s, hd) = PushSealer::new(k, c).map_err(chunked_code)?;
            *h = hd;
            Ok(ChunkStream::Live(s))
        })
    };
    if r == GALOIS_OK {
        r = guard(|| {
            unsafe { output(header, GALOIS_CHUNKED_HEADERBYTES)? }.copy_from_slice(&*h);
            Ok(())
        });
    }
    // SAFETY: header has header_len bytes (contract).
    unsafe { zero_if_failed(r, &[(header, header_len)], Some(st)) }
}

stream_fns! {
    PushSealer;
    /// Seals `in[0..in_len)`: `out` gets every chunk it completes (a multiple
    /// of 16400 bytes, at most ceil(in_len / 16384) chunks), `*out_len` the
    /// bytes written.
    galois_chunked_sealer_update;
    /// Seals the final chunk (at most 16399 bytes) into `out`; the sealer is
    /// finished (later update and final: [`GALOIS_ERR_STATE`]).
    galois_chunked_sealer_final;
}

/// Wipes a streaming sealer (any state, as the other wipe functions).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_sealer_wipe(state: *mut c_void) -> c_int {
    // SAFETY: the caller's state memory (contract).
    unsafe { state_wipe(state, Kind::ChunkSeal) }
}

/// Starts opening a message: `header` is its first 56 bytes exactly; the
/// key commitment is checked here ([`GALOIS_ERR_AUTH`] for a wrong key or
/// context, or a header of another length).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_opener_init(
    state: *mut c_void,
    header: *const u8,
    header_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    key: *const u8,
    key_len: usize,
) -> c_int {
    // SAFETY: pointers and lengths as the header documents them.
    unsafe {
        init_state(state, Kind::ChunkOpen, || {
            let k = input(key, key_len)?;
            chunked_key(k)?;
            let c = input(ctx, ctx_len)?;
            let h = input(header, header_len)?;
            let o = PushOpener::new(k, c, h).map_err(chunked_code)?;
            Ok(ChunkStream::Live(o))
        })
    }
}

stream_fns! {
    PushOpener;
    /// Opens sealed bytes `in[0..in_len)`: `out` gets the plaintext of every
    /// chunk they complete, each after it verified (less than in_len + 16384
    /// bytes), `*out_len` the bytes written.
    galois_chunked_opener_update;
    /// Verifies and opens the final chunk (at most 16383 bytes of plaintext)
    /// into `out`; a message without one fails here ([`GALOIS_ERR_AUTH`]).
    galois_chunked_opener_final;
}

/// Wipes a streaming opener (any state, as the other wipe functions).
#[no_mangle]
pub unsafe extern "C" fn galois_chunked_opener_wipe(state: *mut c_void) -> c_int {
    // SAFETY: the caller's state memory (contract).
    unsafe { state_wipe(state, Kind::ChunkOpen) }
}
