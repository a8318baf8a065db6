/*
 * galois.h: the C interface of galois (AES-GCM, AES-GMAC, Poly1305-AES).
 *
 * Link with -lgalois (target/release/libgalois.so or libgalois.a; the static
 * library also needs -lpthread -ldl -lm on Linux).
 *
 * STATE. Each primitive keeps its expanded key in caller memory, as libsodium
 * does: allocate galois_<prim>_statebytes() bytes (malloc, the stack, a
 * struct member: ANY alignment is fine), call galois_<prim>_init, use it, and
 * call galois_<prim>_wipe when done. Wipe frees what the key object holds
 * internally and zeroes the state; it is safe to call twice. Do not copy or
 * move an initialized state (a moved state is refused with GALOIS_ERR_STATE;
 * a copied one must not be used or wiped). Init does not look at the memory
 * it is given: wipe a state before initializing it again, or memory leaks.
 * The size may change between versions of the library: always ask the
 * function, never hard-code it.
 *
 * THREADS. seal/open/authenticate/verify only read the state: many threads
 * may use one state at once. init and wipe need exclusive use.
 *
 * POINTERS. A pointer may be NULL only when its length is 0. Outputs must
 * not overlap inputs, except that seal and open may work in place (out ==
 * in, the same pointer); a partial overlap gives GALOIS_ERR_OVERLAP.
 *
 * ERRORS. Every function returns GALOIS_OK (0) or one negative code below
 * and never aborts the process. On any failure of an open or verify, no
 * plaintext is released: the output buffer (if one was given and large
 * enough) is zeroed. galois_strerror(code) describes a code.
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
                                           /* init), wiped, or moved after init               */
#define GALOIS_ERR_INVALID_KEY       (-9)  /* Poly1305-AES: r not clamped                      */
#define GALOIS_ERR_OVERLAP           (-10) /* output partially overlaps an input               */
#define GALOIS_ERR_INPUT_TOO_SHORT   (-11) /* open: ciphertext shorter than the tag            */
#define GALOIS_ERR_FLAGS             (-12) /* unknown bits in flags                            */
#define GALOIS_ERR_RANDOM            (-13) /* the OS random source failed                      */
#define GALOIS_ERR_INTERNAL          (-14) /* a bug in galois (caught, not propagated)         */

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

#ifdef __cplusplus
}
#endif

#endif /* GALOIS_H */
