/*
 * galois.h: the C interface of galois (AES-GCM, AES-GMAC, Poly1305-AES).
 *
 * Install with PREFIX=DIR bash scripts/install-c.sh, then build with
 * cc app.c $(pkg-config --cflags --libs galois)   (or galois-static).
 *
 * STATE. Each primitive keeps its expanded key in caller memory, as libsodium
 * does: allocate galois_<prim>_statebytes() bytes (malloc, the stack, a
 * struct member: ANY alignment is fine), call galois_<prim>_init, use it, and
 * call galois_<prim>_wipe when done. The size may change between versions of
 * the library: always ask the function, never hard-code it.
 *   - A state records the address it was initialized at and an id in a table
 *     of live states. A state used at any other address (copied or moved
 *     with memcpy, realloc, struct assignment) is refused with
 *     GALOIS_ERR_STATE, and so is a wiped state, even if its old bytes are
 *     copied back. Nothing is ever freed twice or used after it was freed.
 *   - Wipe zeroes the state and releases its key object (wiping the tables
 *     some backends keep on the heap). It may be called again, on zeroed
 *     memory, and on a copied or moved state: that returns GALOIS_ERR_STATE,
 *     zeroes the copy AND releases the key it was copied from, so the
 *     original is refused from then on (a moved state's key is not leaked).
 *     The wipe functions release any kind of state; the wrong one returns
 *     GALOIS_ERR_STATE.
 *   - Init over a live state (at the same address) first wipes it. If the
 *     new init fails, the memory is left zeroed, holding no state.
 *   - Memory freed without a wipe leaks the key object; fresh memory never
 *     needs zeroing before init.
 *
 * THREADS. seal/open/authenticate/verify only read the state: many threads
 * may use one state at once. init and wipe need exclusive use of the state
 * and of every copy of it.
 *
 * POINTERS. A pointer may be NULL only when its length is 0. Outputs (out,
 * tag, out_len, key) must not overlap inputs or the state, except that seal
 * and open may work in place (out == in, the same pointer); any other
 * overlap gives GALOIS_ERR_OVERLAP.
 *
 * OUTPUTS. seal and open copy the input once into private memory, work
 * there, and write out once, at the end: seal's out never holds plaintext
 * (unless out == in), and open writes out only after the tag verified, with
 * the plaintext of exactly the ciphertext bytes the tag covered. So a thread
 * or process that can read out (shared memory) never sees unverified
 * plaintext. The private memory (the message's size; on the heap above 256
 * bytes) is wiped before return. Nobody may write in, out, ad or the state
 * during a call (a data race).
 *
 * ERRORS. Every function returns GALOIS_OK (0) or one negative code below.
 * On EVERY error of a function with an output (seal, open, authenticate,
 * onetimeauth, keygen), each output buffer is zeroed: out[0..out_cap) for
 * seal and open, out[0..in_len) and tag[0..tag_len) for the detached forms,
 * tag[0..tag_len), key[0..key_len). Exceptions: a NULL buffer, a length
 * above PTRDIFF_MAX, and a buffer that overlaps the state (never written).
 * In place, that zeroes the caller's input. Nothing unwinds or aborts,
 * except on running out of memory inside an init (a few hundred bytes to
 * ~8 KiB), where the Rust runtime aborts as in any Rust program.
 * galois_strerror(code) describes a code.
 *
 * NONCES. A (key, nonce) pair must never be used for two messages: GCM and
 * GMAC then leak the hash key and allow forgeries. Use 12-byte nonces from a
 * counter, or random ones for at most 2^32 messages per key.
 */
#ifndef GALOIS_H
#define GALOIS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Return codes ------------------------------------------------------ */
#define GALOIS_OK                     0
#define GALOIS_ERR_NULL_POINTER      (-1)  /* required pointer NULL (with a nonzero length)   */
#define GALOIS_ERR_KEY_LENGTH        (-2)  /* key length not 16/24/32 (GCM, GMAC) or 32 (Poly) */
#define GALOIS_ERR_NONCE_LENGTH      (-3)  /* empty nonce; not 12 bytes with a short tag;      */
                                           /* not 16 bytes for Poly1305-AES                    */
#define GALOIS_ERR_TAG_LENGTH        (-4)  /* tag length not allowed, or != the state's        */
#define GALOIS_ERR_BUFFER_TOO_SMALL  (-5)  /* out_cap too small: *out_len has the size needed  */
#define GALOIS_ERR_AUTH              (-6)  /* tag did not verify; output zeroed                */
#define GALOIS_ERR_TOO_LONG          (-7)  /* message > 2^36-32 bytes or AD > 2^61-1 bytes     */
#define GALOIS_ERR_STATE             (-8)  /* state not initialized (by this primitive's      */
                                           /* init), wiped, or moved or copied after init     */
#define GALOIS_ERR_INVALID_KEY       (-9)  /* Poly1305-AES: r not clamped                      */
#define GALOIS_ERR_OVERLAP           (-10) /* output overlaps an input (not in place) or the  */
                                           /* state                                           */
#define GALOIS_ERR_INPUT_TOO_SHORT   (-11) /* open: ciphertext shorter than the tag            */
#define GALOIS_ERR_FLAGS             (-12) /* unknown bits in flags                            */
#define GALOIS_ERR_RANDOM            (-13) /* the OS random source failed                      */
#define GALOIS_ERR_INTERNAL          (-14) /* a bug in galois (caught, not propagated)         */
#define GALOIS_ERR_NO_MEMORY         (-15) /* seal/open: no memory for the private copy       */

/* init_ex flag: any tag length 4..16 with nonces of any length. For
 * interoperability and conformance tests only: short tags with long nonces
 * are outside the spec's recommendations (GCM spec 2.1, SP 800-38D). */
#define GALOIS_FLAG_PERMISSIVE 1u

#define GALOIS_AESGCM_TAGBYTES        16 /* default tag length */
#define GALOIS_AESGCM_NONCEBYTES      12 /* recommended nonce length (1 byte or more accepted) */
#define GALOIS_POLY1305AES_KEYBYTES   32 /* k (AES-128 key) || r (clamped) */
#define GALOIS_POLY1305AES_NONCEBYTES 16
#define GALOIS_POLY1305AES_TAGBYTES   16
#define GALOIS_POLY1305_KEYBYTES      32 /* one-time Poly1305: r || s (RFC 8439) */
#define GALOIS_POLY1305_TAGBYTES      16

/* A static description of a return code. */
const char *galois_strerror(int code);
/* The library version, e.g. "0.1.0". */
const char *galois_version(void);

/* ---- AES-GCM (AES-128/192/256 by key length) ---------------------------- */

size_t galois_aesgcm_statebytes(void);

/* Writes a random AES key of key_len bytes (16, 24 or 32). */
int galois_aesgcm_keygen(uint8_t *key, size_t key_len);

/* Key setup with 16-byte tags. key_len: 16, 24 or 32. */
int galois_aesgcm_init(void *state, const uint8_t *key, size_t key_len);

/* Key setup with tag_len 16, 12..15, 8 or 4 (tags shorter than 16 bytes
 * then take 12-byte nonces only), flags 0; or flags GALOIS_FLAG_PERMISSIVE:
 * any tag_len 4..16 with any nonce length. */
int galois_aesgcm_init_ex(void *state, const uint8_t *key, size_t key_len,
                          size_t tag_len, unsigned int flags);

/* The state's tag length (> 0), or a negative error code. */
int galois_aesgcm_taglen(const void *state);

/* Encrypts in[0..in_len) to out as ciphertext || tag: in_len + taglen bytes
 * (out_cap must be at least that). *out_len (if out_len is not NULL) gets
 * the length written, or the length needed on GALOIS_ERR_BUFFER_TOO_SMALL.
 * out == in works in place (the buffer must then hold in_len + taglen). */
int galois_aesgcm_seal(const void *state,
                       uint8_t *out, size_t out_cap, size_t *out_len,
                       const uint8_t *in, size_t in_len,
                       const uint8_t *ad, size_t ad_len,
                       const uint8_t *nonce, size_t nonce_len);

/* Verifies and decrypts ciphertext || tag in[0..in_len) to out
 * (in_len - taglen bytes). GALOIS_ERR_AUTH if the tag does not verify. */
int galois_aesgcm_open(const void *state,
                       uint8_t *out, size_t out_cap, size_t *out_len,
                       const uint8_t *in, size_t in_len,
                       const uint8_t *ad, size_t ad_len,
                       const uint8_t *nonce, size_t nonce_len);

/* Encrypts in_len bytes to out (in_len bytes; out == in allowed) and writes
 * the tag to tag[0..tag_len), tag_len equal to the state's tag length. */
int galois_aesgcm_seal_detached(const void *state,
                                uint8_t *out, uint8_t *tag, size_t tag_len,
                                const uint8_t *in, size_t in_len,
                                const uint8_t *ad, size_t ad_len,
                                const uint8_t *nonce, size_t nonce_len);

/* Verifies tag and decrypts in_len bytes to out (out == in allowed). */
int galois_aesgcm_open_detached(const void *state,
                                uint8_t *out,
                                const uint8_t *in, size_t in_len,
                                const uint8_t *tag, size_t tag_len,
                                const uint8_t *ad, size_t ad_len,
                                const uint8_t *nonce, size_t nonce_len);

/* Wipes the state (see STATE above): GALOIS_OK, or GALOIS_ERR_STATE for a
 * copied or moved state or a state of another primitive (wiped all the same). */
int galois_aesgcm_wipe(void *state);

/* ---- AES-GMAC (GCM with an empty plaintext: the message is the AD) ------ */

size_t galois_gmac_statebytes(void);
int galois_gmac_init(void *state, const uint8_t *key, size_t key_len);
int galois_gmac_init_ex(void *state, const uint8_t *key, size_t key_len,
                        size_t tag_len, unsigned int flags);
/* tag_len must equal the state's tag length (16 unless set by init_ex). */
int galois_gmac_authenticate(const void *state, uint8_t *tag, size_t tag_len,
                             const uint8_t *nonce, size_t nonce_len,
                             const uint8_t *msg, size_t msg_len);
int galois_gmac_verify(const void *state, const uint8_t *tag, size_t tag_len,
                       const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *msg, size_t msg_len);
int galois_gmac_wipe(void *state);

/* ---- Poly1305-AES (Bernstein 2005) -------------------------------------- */

size_t galois_poly1305aes_statebytes(void);
/* Writes a random key k || r (r clamped); key_len must be 32. */
int galois_poly1305aes_keygen(uint8_t *key, size_t key_len);
/* key: 32 bytes k || r, r clamped (else GALOIS_ERR_INVALID_KEY). */
int galois_poly1305aes_init(void *state, const uint8_t *key, size_t key_len);
/* tag_len must be 16, nonce_len 16. */
int galois_poly1305aes_authenticate(const void *state, uint8_t *tag, size_t tag_len,
                                    const uint8_t *nonce, size_t nonce_len,
                                    const uint8_t *msg, size_t msg_len);
int galois_poly1305aes_verify(const void *state, const uint8_t *tag, size_t tag_len,
                              const uint8_t *nonce, size_t nonce_len,
                              const uint8_t *msg, size_t msg_len);
int galois_poly1305aes_wipe(void *state);

/* ---- One-time Poly1305 (RFC 8439: key r || s, r clamped by the MAC) ----- */
/* A key must authenticate ONE message only (derive it per message, as
 * ChaCha20-Poly1305 does). No state: one call. tag_len and key_len: 16, 32. */
int galois_poly1305_onetimeauth(uint8_t *tag, size_t tag_len,
                                const uint8_t *msg, size_t msg_len,
                                const uint8_t *key, size_t key_len);
int galois_poly1305_onetimeauth_verify(const uint8_t *tag, size_t tag_len,
                                       const uint8_t *msg, size_t msg_len,
                                       const uint8_t *key, size_t key_len);

/* ---- AES-GCM-SIV (RFC 8452) and XAES-256-GCM (c2sp.org/XAES-256-GCM) ---- */
/* No state: the key is given with each call (both derive a key per message).
 * seal: out gets ciphertext || 16-byte tag (in_len + 16 bytes); open: out
 * gets in_len - 16 bytes, written only after the tag verified
 * (GALOIS_ERR_AUTH otherwise). out_cap, out_len, in-place use, overlap and
 * wiping as for galois_aesgcm_seal/open.
 * AES-GCM-SIV: key 16, 24 (OpenSSL's AES-192 extension) or 32 bytes, nonce
 * 12 bytes; nonce-misuse resistant (a repeated nonce reveals only equality).
 * XAES-256-GCM: key 32 bytes, nonce 24 bytes, safe to draw at random for
 * about 2^80 messages per key. */
int galois_aesgcmsiv_seal(uint8_t *out, size_t out_cap, size_t *out_len,
                          const uint8_t *in, size_t in_len,
                          const uint8_t *ad, size_t ad_len,
                          const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *key, size_t key_len);
int galois_aesgcmsiv_open(uint8_t *out, size_t out_cap, size_t *out_len,
                          const uint8_t *in, size_t in_len,
                          const uint8_t *ad, size_t ad_len,
                          const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *key, size_t key_len);
int galois_xaes256gcm_seal(uint8_t *out, size_t out_cap, size_t *out_len,
                           const uint8_t *in, size_t in_len,
                           const uint8_t *ad, size_t ad_len,
                           const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *key, size_t key_len);
int galois_xaes256gcm_open(uint8_t *out, size_t out_cap, size_t *out_len,
                           const uint8_t *in, size_t in_len,
                           const uint8_t *ad, size_t ad_len,
                           const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *key, size_t key_len);
/* A fresh random key of key_len bytes (AES-GCM-SIV: 16, 24 or 32;
 * XAES-256-GCM: 32) from the operating system; on any error key[0..key_len)
 * is zeroed. */
int galois_aesgcmsiv_keygen(uint8_t *key, size_t key_len);
int galois_xaes256gcm_keygen(uint8_t *key, size_t key_len);

/* ---- Chunked encryption (C2SP chunked-encryption, "Cobblestone") ------- */
/* One message: a 56-byte header (salt, key commitment), then 16 KiB chunks
 * of AES-GCM and a short (possibly empty) final chunk. key: 16 bytes
 * (Cobblestone-128) or 32 (Cobblestone-256); ctx: the context (any length,
 * may be empty). Every way a message fails to open (wrong key or context,
 * an altered chunk, truncation, trailing data) is GALOIS_ERR_AUTH. No state:
 * the key is given to each call. out never overlaps in, ctx or key.
 * Each call runs on the calling thread only (no thread pool is started). */
#define GALOIS_CHUNKED_CHUNKBYTES  16384
#define GALOIS_CHUNKED_HEADERBYTES 56

/* The sealed length of a pt_len-byte message (0 if it overflows size_t). */
size_t galois_chunked_sealed_len(size_t pt_len);

/* Seals in[0..in_len) with a fresh random salt into out
 * (galois_chunked_sealed_len(in_len) bytes; *out_len gets that size, also
 * on GALOIS_ERR_BUFFER_TOO_SMALL). */
int galois_chunked_seal(uint8_t *out, size_t out_cap, size_t *out_len,
                        const uint8_t *in, size_t in_len,
                        const uint8_t *ctx, size_t ctx_len,
                        const uint8_t *key, size_t key_len);

/* Opens a whole sealed message into out, written once, only after every
 * chunk verified. */
int galois_chunked_open(uint8_t *out, size_t out_cap, size_t *out_len,
                        const uint8_t *in, size_t in_len,
                        const uint8_t *ctx, size_t ctx_len,
                        const uint8_t *key, size_t key_len);

/* Random access: up to out_cap plaintext bytes from plaintext offset
 * `offset`; *out_len gets the number read (fewer than out_cap only at the
 * end of the message, reported only after the final chunk verified; 0 at
 * or past the end). Only the chunks covering the range are verified and
 * decrypted; out is written once, after they all verified. */
int galois_chunked_read_at(uint8_t *out, size_t out_cap, size_t *out_len,
                           const uint8_t *in, size_t in_len, uint64_t offset,
                           const uint8_t *ctx, size_t ctx_len,
                           const uint8_t *key, size_t key_len);

/* ---- Chunked encryption, streaming -------------------------------------- */
/* A sealer and an opener for messages that arrive in pieces. Their states
 * are caller memory as above (statebytes, init, wipe; copies and moves
 * refused; ANY alignment), but update and final CHANGE the state: one
 * thread at a time per state. Each state keeps at most one chunk on the
 * heap (wiped by wipe).
 *
 * Sealer: init writes the 56-byte header (salt, commitment) to header
 * (header_len >= GALOIS_CHUNKED_HEADERBYTES); each update writes every
 * chunk its input completes (0 or more 16400-byte chunks: out_cap >=
 * in_len + in_len / 1024 + 16400 always suffices) and keeps the rest; final writes the
 * final chunk (buffered bytes + 16, at most 16399). Chunks are sealed in
 * private memory: out never holds plaintext.
 *
 * Opener: init takes the message's first 56 bytes (header_len must be
 * exactly GALOIS_CHUNKED_HEADERBYTES) and checks the key commitment (a
 * wrong key or context: GALOIS_ERR_AUTH, and the state holds nothing).
 * Each update takes sealed bytes that follow and writes the plaintext of
 * every full chunk they complete, each only after its tag verified
 * (out_cap >= in_len + 16384 always suffices); final verifies the final chunk and
 * writes its plaintext (at most 16383 bytes). A message cut at a chunk
 * boundary, or with bytes added, fails (GALOIS_ERR_AUTH) at the latest in
 * final. The chunks released before a failure verified, but the message
 * as a whole did not: discard everything on any error.
 *
 * Both: *out_len (if out_len is not NULL) gets the bytes written, or the
 * size needed on GALOIS_ERR_BUFFER_TOO_SMALL (the state is unchanged then,
 * and by NULL, overlap and length errors: call again). Any other error of
 * update or final (GALOIS_ERR_AUTH, GALOIS_ERR_TOO_LONG at 2^38 chunks)
 * fails the stream for good: every later update and final returns the
 * same code. On every error out[0..out_cap) is zeroed (also the verified
 * chunks of that call) and *out_len is 0 (but see BUFFER_TOO_SMALL). out
 * must not overlap in, the state or out_len. After a final that
 * succeeded, update and final return GALOIS_ERR_STATE; call wipe. */
size_t galois_chunked_sealer_statebytes(void);
int galois_chunked_sealer_init(void *state, uint8_t *header, size_t header_len,
                               const uint8_t *ctx, size_t ctx_len,
                               const uint8_t *key, size_t key_len);
int galois_chunked_sealer_update(void *state, uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *in, size_t in_len);
int galois_chunked_sealer_final(void *state, uint8_t *out, size_t out_cap, size_t *out_len);
int galois_chunked_sealer_wipe(void *state);

size_t galois_chunked_opener_statebytes(void);
int galois_chunked_opener_init(void *state, const uint8_t *header, size_t header_len,
                               const uint8_t *ctx, size_t ctx_len,
                               const uint8_t *key, size_t key_len);
int galois_chunked_opener_update(void *state, uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *in, size_t in_len);
int galois_chunked_opener_final(void *state, uint8_t *out, size_t out_cap, size_t *out_len);
int galois_chunked_opener_wipe(void *state);

#ifdef __cplusplus
}
#endif

#endif /* GALOIS_H */
