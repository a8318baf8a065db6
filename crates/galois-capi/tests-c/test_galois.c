/*
 * Tests of the galois C ABI through include/galois.h:
 *   vectors   every AES-GCM, AES-GMAC and Poly1305-AES case of the shared vector
 *             files (generated into vectors.h at build time), through every entry
 *             point (attached, detached, in place, separate buffers)
 *   errors    every return code: NULL pointers, lengths, states, overlap, flags
 *   openssl   (when built with OpenSSL) random AES-GCM cases against EVP
 *   roundtrip random lengths, unaligned states, tampering
 *   threads   one state used by four threads at once
 *   state     copies and moves refused exactly, wipe of a copy or a moved state,
 *             re-init and failed init over a live state, outputs inside the state
 *   wipe      every error of every function with an output leaves it zeroed
 *   shared    a process watching open's output (shared memory) never sees
 *             unverified plaintext
 *   cstream   streaming chunked sealer and opener: round trips against the one-shot
 *             functions, every two-piece split, truncation, tampering, reordered
 *             chunks, sticky errors, use after final, NULL and other bad arguments
 *   nomem     a message too big for memory: GALOIS_ERR_NO_MEMORY (not in "all")
 * usage: test_galois [vectors|errors|roundtrip|threads|state|wipe|shared|siv|chunked|cstream|nomem|openssl|all]
 * Prints "N passed, M failed" and exits 1 if anything failed.
 */
#define _DEFAULT_SOURCE
#include "galois.h"
#include "vectors.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GALOIS_TEST_OPENSSL
#include <openssl/evp.h>
#endif

static unsigned long passed, failed;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (cond) {                                        \
            passed++;                                      \
        } else {                                           \
            failed++;                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                  \
            fprintf(stderr, "\n");                         \
        }                                                  \
    } while (0)

#define CHECK_RC(rc, want, what) \
    CHECK((rc) == (want), "%s: got %d (%s), want %d (%s)", what, (rc), \
          galois_strerror(rc), (want), galois_strerror(want))

static int all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* A xorshift generator: reproducible inputs for the random tests. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static void rnd_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
}

/* Mirror of the tag-length policy: strict where the spec allows, else permissive. */
static unsigned gcm_flags(size_t tag_len, size_t iv_len) {
    if (tag_len == 16) return 0;
    if (iv_len == 12 && (tag_len >= 12 || tag_len == 8 || tag_len == 4)) return 0;
    return GALOIS_FLAG_PERMISSIVE;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- vectors ------------------------------------------------------------ */

static void vector_gcm(const struct vec *v) {
    void *st = xmalloc(galois_aesgcm_statebytes());
    const uint8_t *key = (const uint8_t *)v->key, *iv = (const uint8_t *)v->iv;
    const uint8_t *aad = (const uint8_t *)v->aad, *pt = (const uint8_t *)v->pt;
    const uint8_t *ct = (const uint8_t *)v->ct, *tag = (const uint8_t *)v->tag;
    int rc = galois_aesgcm_init_ex(st, key, v->key_len, v->tag_len, gcm_flags(v->tag_len, v->iv_len));
    if (!v->valid) {
        /* Refused parameters or a failed tag: either way no plaintext. */
        if (rc == GALOIS_OK) {
            size_t n = v->ct_len + v->tag_len, out_len = 0;
            uint8_t *in = xmalloc(n), *out = xmalloc(n);
            memcpy(in, ct, v->ct_len);
            memcpy(in + v->ct_len, tag, v->tag_len);
            memset(out, 0xa5, n);
            rc = galois_aesgcm_open(st, out, n, &out_len, in, n, aad, v->aad_len, iv, v->iv_len);
            CHECK(rc < 0, "%s %s: invalid case opened", v->file, v->id);
            CHECK(rc == GALOIS_ERR_AUTH ? all_zero(out, v->ct_len) : 1,
                  "%s %s: output not wiped", v->file, v->id);
            rc = galois_aesgcm_open_detached(st, out, ct, v->ct_len, tag, v->tag_len, aad,
                                             v->aad_len, iv, v->iv_len);
            CHECK(rc < 0, "%s %s: invalid case opened (detached)", v->file, v->id);
            free(in);
            free(out);
        } else {
            CHECK(rc < 0 && rc != GALOIS_ERR_INTERNAL, "%s %s: refused with %d", v->file, v->id, rc);
        }
        galois_aesgcm_wipe(st);
        free(st);
        return;
    }
    CHECK_RC(rc, GALOIS_OK, v->id);
    if (rc != GALOIS_OK) {
        free(st);
        return;
    }
    CHECK(galois_aesgcm_taglen(st) == (int)v->tag_len, "%s taglen", v->id);
    size_t n = v->pt_len + v->tag_len, out_len = 0;
    uint8_t *sealed = xmalloc(n), *opened = xmalloc(n), *buf = xmalloc(n);
    uint8_t t[16];

    /* attached, separate buffers */
    rc = galois_aesgcm_seal(st, sealed, n, &out_len, pt, v->pt_len, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_OK, v->id);
    CHECK(out_len == n, "%s seal out_len %zu", v->id, out_len);
    CHECK(memcmp(sealed, ct, v->ct_len) == 0, "%s %s: ciphertext differs", v->file, v->id);
    CHECK(memcmp(sealed + v->ct_len, tag, v->tag_len) == 0, "%s %s: tag differs", v->file, v->id);
    rc = galois_aesgcm_open(st, opened, n, &out_len, sealed, n, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_OK, v->id);
    CHECK(out_len == v->pt_len && memcmp(opened, pt, v->pt_len) == 0, "%s open", v->id);

    /* attached, in place */
    memcpy(buf, pt, v->pt_len);
    rc = galois_aesgcm_seal(st, buf, n, NULL, buf, v->pt_len, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_OK, v->id);
    CHECK(memcmp(buf, sealed, n) == 0, "%s seal in place differs", v->id);
    rc = galois_aesgcm_open(st, buf, n, NULL, buf, n, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_OK, v->id);
    CHECK(memcmp(buf, pt, v->pt_len) == 0, "%s open in place differs", v->id);

    /* detached */
    rc = galois_aesgcm_seal_detached(st, buf, t, v->tag_len, pt, v->pt_len, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_OK, v->id);
    CHECK(memcmp(buf, ct, v->ct_len) == 0 && memcmp(t, tag, v->tag_len) == 0, "%s detached", v->id);
    rc = galois_aesgcm_open_detached(st, opened, ct, v->ct_len, tag, v->tag_len, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_OK, v->id);
    CHECK(memcmp(opened, pt, v->pt_len) == 0, "%s open detached", v->id);

    /* a flipped tag bit must fail and wipe */
    memcpy(t, tag, v->tag_len);
    t[v->tag_len - 1] ^= 0x80;
    memset(opened, 0xa5, n);
    rc = galois_aesgcm_open_detached(st, opened, ct, v->ct_len, t, v->tag_len, aad, v->aad_len, iv, v->iv_len);
    CHECK_RC(rc, GALOIS_ERR_AUTH, v->id);
    CHECK(all_zero(opened, v->pt_len), "%s: output not wiped after a bad tag", v->id);
    if (v->ct_len > 0) {
        memcpy(buf, sealed, n);
        buf[0] ^= 1;
        rc = galois_aesgcm_open(st, opened, n, NULL, buf, n, aad, v->aad_len, iv, v->iv_len);
        CHECK_RC(rc, GALOIS_ERR_AUTH, v->id);
    }
    CHECK_RC(galois_aesgcm_wipe(st), GALOIS_OK, "wipe");
    free(sealed);
    free(opened);
    free(buf);
    free(st);
}

/* A keyed MAC with a state (GMAC, Poly1305-AES), for the vector runner. */
struct mac_api {
    const char *name;
    int (*authenticate)(const void *, uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t);
    int (*verify)(const void *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t);
    int (*wipe)(void *);
};
static const struct mac_api GMAC = {"GMAC", galois_gmac_authenticate, galois_gmac_verify, galois_gmac_wipe};
static const struct mac_api POLY1305AES = {"Poly1305-AES", galois_poly1305aes_authenticate,
                                           galois_poly1305aes_verify, galois_poly1305aes_wipe};

/* One MAC case on state st, whose init returned rc: an invalid case is
 * refused (at init or verify); a valid one gives its tag, which verifies,
 * and a changed tag does not. Wipes and frees st. */
static void vector_mac(const struct vec *v, const struct mac_api *m, void *st, int rc) {
    const uint8_t *nonce = (const uint8_t *)v->iv, *msg = (const uint8_t *)v->aad;
    const uint8_t *tag = (const uint8_t *)v->tag;
    if (!v->valid) {
        if (rc == GALOIS_OK) {
            rc = m->verify(st, tag, v->tag_len, nonce, v->iv_len, msg, v->aad_len);
            CHECK(rc < 0, "%s %s: invalid %s verified", v->file, v->id, m->name);
        } else {
            CHECK(rc < 0 && rc != GALOIS_ERR_INTERNAL, "%s %s", v->file, v->id);
        }
    } else if (v->tag_len > 16) {
        CHECK(0, "%s %s: a valid %s tag longer than 16 bytes", v->file, v->id, m->name);
    } else {
        CHECK_RC(rc, GALOIS_OK, v->id);
        uint8_t t[16];
        rc = m->authenticate(st, t, v->tag_len, nonce, v->iv_len, msg, v->aad_len);
        CHECK_RC(rc, GALOIS_OK, v->id);
        CHECK(memcmp(t, tag, v->tag_len) == 0, "%s %s: %s tag differs", v->file, v->id, m->name);
        CHECK_RC(m->verify(st, tag, v->tag_len, nonce, v->iv_len, msg, v->aad_len), GALOIS_OK, v->id);
        t[0] ^= 1;
        CHECK_RC(m->verify(st, t, v->tag_len, nonce, v->iv_len, msg, v->aad_len), GALOIS_ERR_AUTH, v->id);
    }
    m->wipe(st);
    free(st);
}

static void vector_gmac(const struct vec *v) {
    void *st = xmalloc(galois_gmac_statebytes());
    int rc = galois_gmac_init_ex(st, (const uint8_t *)v->key, v->key_len, v->tag_len,
                                 gcm_flags(v->tag_len, v->iv_len));
    if (v->valid)
        CHECK(v->pt_len == 0 && v->ct_len == 0, "%s: GMAC case with text", v->id);
    vector_mac(v, &GMAC, st, rc);
}

static void vector_poly(const struct vec *v) {
    void *st = xmalloc(galois_poly1305aes_statebytes());
    int rc = galois_poly1305aes_init(st, (const uint8_t *)v->key, v->key_len);
    if (v->valid)
        CHECK(v->tag_len == 16, "%s %s: Poly1305-AES tag of %zu bytes", v->file, v->id, v->tag_len);
    vector_mac(v, &POLY1305AES, st, rc);
}

static void vector_onetime(const struct vec *v) {
    const uint8_t *key = (const uint8_t *)v->key, *msg = (const uint8_t *)v->aad;
    const uint8_t *tag = (const uint8_t *)v->tag;
    if (!v->valid) {
        int rc = galois_poly1305_onetimeauth_verify(tag, v->tag_len, msg, v->aad_len, key, v->key_len);
        CHECK(rc < 0 && rc != GALOIS_ERR_INTERNAL, "%s %s: invalid one-time Poly1305 verified", v->file, v->id);
        return;
    }
    uint8_t t[16];
    CHECK_RC(galois_poly1305_onetimeauth(t, 16, msg, v->aad_len, key, v->key_len), GALOIS_OK, v->id);
    CHECK(v->tag_len == 16 && memcmp(t, tag, 16) == 0, "%s %s: one-time Poly1305 tag differs", v->file, v->id);
    CHECK_RC(galois_poly1305_onetimeauth_verify(tag, 16, msg, v->aad_len, key, v->key_len), GALOIS_OK, v->id);
    t[15] ^= 0x80;
    CHECK_RC(galois_poly1305_onetimeauth_verify(t, 16, msg, v->aad_len, key, v->key_len), GALOIS_ERR_AUTH, v->id);
}

static void test_vectors(void) {
    unsigned long before = passed, counts[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < N_VECTORS; i++) {
        const struct vec *v = &VECTORS[i];
        counts[v->alg]++;
        switch (v->alg) {
        case ALG_GCM: vector_gcm(v); break;
        case ALG_GMAC: vector_gmac(v); break;
        case ALG_POLY: vector_poly(v); break;
        case ALG_ONETIME: vector_onetime(v); break;
        }
    }
    printf("vectors: %lu AES-GCM, %lu AES-GMAC, %lu Poly1305-AES, %lu one-time Poly1305 cases "
           "(%lu checks passed)\n",
           counts[ALG_GCM], counts[ALG_GMAC], counts[ALG_POLY], counts[ALG_ONETIME], passed - before);
    CHECK(N_VECTORS > 0, "no vectors");
}

/* ---- errors ------------------------------------------------------------- */

/* A keyed MAC's answers on a state `st` holding a key (nonces good at
 * nonce_len bytes): a tag length refused by authenticate (bad_tag) and by
 * verify (bad_vtag), a nonce length refused (bad_nonce), a NULL tag; the
 * tag of msg (left in `tag`) verifies, and fails for another message and
 * once changed. */
static void mac_errors(const struct mac_api *m, const void *st, const uint8_t *nonce,
                       size_t nonce_len, size_t bad_nonce, size_t bad_tag, size_t bad_vtag,
                       const uint8_t *msg, size_t msg_len, uint8_t tag[16]) {
    const uint8_t other[1] = {0};
    int rc;
#define MAC_RC(call, want, what) \
    CHECK((rc = (call)) == (want), "%s %s: got %s", m->name, what, galois_strerror(rc))
    MAC_RC(m->authenticate(st, tag, bad_tag, nonce, nonce_len, msg, msg_len), GALOIS_ERR_TAG_LENGTH,
           "tag length");
    MAC_RC(m->authenticate(st, tag, 16, nonce, bad_nonce, msg, msg_len), GALOIS_ERR_NONCE_LENGTH,
           "nonce length");
    MAC_RC(m->authenticate(st, NULL, 16, nonce, nonce_len, msg, msg_len), GALOIS_ERR_NULL_POINTER,
           "NULL tag");
    MAC_RC(m->authenticate(st, tag, 16, nonce, nonce_len, msg, msg_len), GALOIS_OK, "authenticate");
    MAC_RC(m->verify(st, tag, 16, nonce, nonce_len, msg, msg_len), GALOIS_OK, "verify");
    MAC_RC(m->verify(st, tag, 16, nonce, nonce_len, other, 1), GALOIS_ERR_AUTH, "other message");
    MAC_RC(m->verify(st, tag, bad_vtag, nonce, nonce_len, msg, msg_len), GALOIS_ERR_TAG_LENGTH,
           "verify tag length");
    tag[5] ^= 4;
    MAC_RC(m->verify(st, tag, 16, nonce, nonce_len, msg, msg_len), GALOIS_ERR_AUTH, "changed tag");
#undef MAC_RC
}

static void test_errors(void) {
    uint8_t key[32] = {1}, iv[12] = {2}, pt[64] = {3}, out[128], tag[16];
    size_t out_len = 0;
    size_t sb = galois_aesgcm_statebytes();
    uint8_t *mem = xmalloc(sb + 64);
    void *st = mem;

    /* strerror: every code described, distinct, unknown codes handled */
    int codes[] = {GALOIS_OK, GALOIS_ERR_NULL_POINTER, GALOIS_ERR_KEY_LENGTH, GALOIS_ERR_NONCE_LENGTH,
                   GALOIS_ERR_TAG_LENGTH, GALOIS_ERR_BUFFER_TOO_SMALL, GALOIS_ERR_AUTH,
                   GALOIS_ERR_TOO_LONG, GALOIS_ERR_STATE, GALOIS_ERR_INVALID_KEY, GALOIS_ERR_OVERLAP,
                   GALOIS_ERR_INPUT_TOO_SHORT, GALOIS_ERR_FLAGS, GALOIS_ERR_RANDOM, GALOIS_ERR_INTERNAL,
                   GALOIS_ERR_NO_MEMORY};
    size_t nc = sizeof codes / sizeof codes[0];
    const char *unknown = galois_strerror(12345);
    for (size_t i = 0; i < nc; i++) {
        CHECK(galois_strerror(codes[i]) != NULL && strcmp(galois_strerror(codes[i]), unknown) != 0,
              "strerror(%d)", codes[i]);
        for (size_t j = 0; j < i; j++)
            CHECK(codes[i] != codes[j] && strcmp(galois_strerror(codes[i]), galois_strerror(codes[j])) != 0,
                  "codes %d and %d not distinct", codes[i], codes[j]);
    }
    CHECK(strlen(galois_version()) > 0, "version");

    /* an all-zero state is not initialized */
    memset(st, 0, sb);
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_STATE, "zero state");
    CHECK_RC(galois_aesgcm_taglen(NULL), GALOIS_ERR_NULL_POINTER, "taglen NULL");
    CHECK_RC(galois_aesgcm_seal(NULL, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, "NULL state");

    /* init */
    CHECK_RC(galois_aesgcm_init(NULL, key, 16), GALOIS_ERR_NULL_POINTER, "init NULL state");
    CHECK_RC(galois_aesgcm_init(st, NULL, 16), GALOIS_ERR_NULL_POINTER, "init NULL key");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_STATE, "failed init leaves no state");
    size_t bad_keys[] = {0, 1, 15, 17, 20, 31, 33, 64};
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        uint8_t big[64] = {0};
        CHECK_RC(galois_aesgcm_init(st, big, bad_keys[i]), GALOIS_ERR_KEY_LENGTH, "bad key length");
        CHECK_RC(galois_gmac_init(st, big, bad_keys[i]), GALOIS_ERR_KEY_LENGTH, "gmac bad key length");
    }
    CHECK_RC(galois_aesgcm_init_ex(st, key, 16, 11, 0), GALOIS_ERR_TAG_LENGTH, "tag 11 strict");
    CHECK_RC(galois_aesgcm_init_ex(st, key, 16, 17, 0), GALOIS_ERR_TAG_LENGTH, "tag 17");
    CHECK_RC(galois_aesgcm_init_ex(st, key, 16, 3, GALOIS_FLAG_PERMISSIVE), GALOIS_ERR_TAG_LENGTH, "tag 3 permissive");
    CHECK_RC(galois_aesgcm_init_ex(st, key, 16, 16, 2), GALOIS_ERR_FLAGS, "unknown flag");
    CHECK_RC(galois_aesgcm_keygen(key, 20), GALOIS_ERR_KEY_LENGTH, "keygen 20");
    CHECK_RC(galois_aesgcm_keygen(NULL, 16), GALOIS_ERR_NULL_POINTER, "keygen NULL");

    /* a short tag takes 12-byte nonces only, unless permissive */
    CHECK_RC(galois_aesgcm_init_ex(st, key, 16, 8, 0), GALOIS_OK, "tag 8");
    CHECK(galois_aesgcm_taglen(st) == 8, "taglen 8");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 8), GALOIS_ERR_NONCE_LENGTH, "8-byte tag, 8-byte nonce");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 12), GALOIS_OK, "8-byte tag, 12-byte nonce");
    CHECK(out_len == 24, "out_len with an 8-byte tag");
    galois_aesgcm_wipe(st);
    CHECK_RC(galois_aesgcm_init_ex(st, key, 16, 8, GALOIS_FLAG_PERMISSIVE), GALOIS_OK, "tag 8 permissive");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 8), GALOIS_OK, "permissive 8-byte nonce");
    galois_aesgcm_wipe(st);

    /* seal / open argument checks */
    CHECK_RC(galois_aesgcm_init(st, key, 32), GALOIS_OK, "init 256");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, iv, 0), GALOIS_ERR_NONCE_LENGTH, "empty nonce");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 0, NULL, 12), GALOIS_ERR_NULL_POINTER, "NULL nonce");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, NULL, 16, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, "NULL input");
    CHECK_RC(galois_aesgcm_seal(st, out, sizeof out, &out_len, pt, 16, NULL, 5, iv, 12), GALOIS_ERR_NULL_POINTER, "NULL ad");
    CHECK_RC(galois_aesgcm_seal(st, NULL, 0, &out_len, pt, 0, NULL, 0, iv, 12), GALOIS_ERR_BUFFER_TOO_SMALL, "no room for the tag");
    CHECK(out_len == 16, "out_len reports the size needed: %zu", out_len);
    out_len = 0;
    CHECK_RC(galois_aesgcm_seal(st, out, 31, &out_len, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_BUFFER_TOO_SMALL, "out_cap 31");
    CHECK(out_len == 32, "out_len needed 32: %zu", out_len);
    CHECK_RC(galois_aesgcm_seal(st, out, 32, &out_len, pt, 16, NULL, 0, iv, 12), GALOIS_OK, "seal 16");
    CHECK_RC(galois_aesgcm_seal(st, out, 32, NULL, NULL, 0, NULL, 0, iv, 12), GALOIS_OK, "seal empty, NULL in, NULL out_len");
    CHECK_RC(galois_aesgcm_seal(st, out + 1, 40, NULL, out, 16, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "partial overlap");
    CHECK_RC(galois_aesgcm_seal(st, out, 40, NULL, pt, 16, out + 20, 4, iv, 12), GALOIS_ERR_OVERLAP, "ad overlaps out");
    CHECK_RC(galois_aesgcm_seal(st, out, 40, NULL, pt, 16, NULL, 0, out + 30, 12), GALOIS_ERR_OVERLAP, "nonce overlaps out");
    CHECK_RC(galois_aesgcm_seal_detached(st, out, tag, 12, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_TAG_LENGTH, "detached tag 12 on a 16 key");
    CHECK_RC(galois_aesgcm_seal_detached(st, out, NULL, 16, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, "detached NULL tag");
    CHECK_RC(galois_aesgcm_seal_detached(st, out, out + 8, 16, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "tag overlaps out");

    /* open */
    uint8_t sealed[32], opened[16];
    CHECK_RC(galois_aesgcm_seal(st, sealed, 32, NULL, pt, 16, NULL, 0, iv, 12), GALOIS_OK, "seal");
    CHECK_RC(galois_aesgcm_open(st, opened, 16, &out_len, sealed, 15, NULL, 0, iv, 12), GALOIS_ERR_INPUT_TOO_SHORT, "open 15 bytes");
    CHECK_RC(galois_aesgcm_open(st, opened, 15, &out_len, sealed, 32, NULL, 0, iv, 12), GALOIS_ERR_BUFFER_TOO_SMALL, "open out_cap 15");
    CHECK(out_len == 16, "open out_len needed");
    CHECK_RC(galois_aesgcm_open(st, opened, 16, &out_len, sealed, 32, NULL, 0, iv, 12), GALOIS_OK, "open");
    CHECK(memcmp(opened, pt, 16) == 0, "open gives the plaintext");
    CHECK_RC(galois_aesgcm_open(st, opened, 16, &out_len, sealed, 32, pt, 1, iv, 12), GALOIS_ERR_AUTH, "wrong ad");
    CHECK(all_zero(opened, 16), "wiped after wrong ad");
    uint8_t iv2[12] = {3};
    CHECK_RC(galois_aesgcm_open(st, opened, 16, &out_len, sealed, 32, NULL, 0, iv2, 12), GALOIS_ERR_AUTH, "wrong nonce");
    CHECK_RC(galois_aesgcm_open_detached(st, opened, sealed, 16, sealed + 16, 15, NULL, 0, iv, 12), GALOIS_ERR_TAG_LENGTH, "detached short tag");
    CHECK_RC(galois_aesgcm_open_detached(st, opened, sealed, 16, NULL, 16, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, "detached NULL tag");

    /* a state of another primitive, a moved state, a wiped state */
    CHECK_RC(galois_gmac_authenticate(st, tag, 16, iv, 12, pt, 16), GALOIS_ERR_STATE, "GCM state used as GMAC");
    uint8_t *moved = xmalloc(sb + 64);
    /* a copy at an address of another residue mod 16: the object offset changes */
    size_t d = 0;
    while (((uintptr_t)(moved + d) & 15) == ((uintptr_t)st & 15)) d++;
    memcpy(moved + d, st, sb);
    CHECK_RC(galois_aesgcm_seal(moved + d, out, 32, NULL, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_STATE, "moved state");
    memset(moved, 0, sb + 64);
    free(moved);
    CHECK_RC(galois_aesgcm_wipe(st), GALOIS_OK, "wipe");
    CHECK(all_zero(st, sb), "wipe zeroes the state");
    CHECK_RC(galois_aesgcm_seal(st, out, 32, NULL, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_STATE, "wiped state");
    CHECK_RC(galois_aesgcm_wipe(st), GALOIS_OK, "second wipe");
    CHECK_RC(galois_aesgcm_wipe(NULL), GALOIS_ERR_NULL_POINTER, "wipe NULL");

    /* GMAC */
    void *gs = xmalloc(galois_gmac_statebytes());
    CHECK_RC(galois_gmac_init(gs, key, 24), GALOIS_OK, "gmac init 192");
    /* tag 15, empty nonce, verify tag 12; the empty message */
    mac_errors(&GMAC, gs, iv, 12, 0, 15, 12, NULL, 0, tag);
    CHECK_RC(galois_aesgcm_seal(gs, out, 32, NULL, pt, 16, NULL, 0, iv, 12), GALOIS_ERR_STATE, "GMAC state used as GCM");
    galois_gmac_wipe(gs);
    free(gs);

    /* Poly1305-AES */
    void *ps = xmalloc(galois_poly1305aes_statebytes());
    uint8_t pkey[32], nonce[16] = {9};
    CHECK_RC(galois_poly1305aes_keygen(pkey, 31), GALOIS_ERR_KEY_LENGTH, "poly keygen 31");
    CHECK_RC(galois_poly1305aes_keygen(pkey, 32), GALOIS_OK, "poly keygen");
    CHECK((pkey[16 + 3] & 0xf0) == 0 && (pkey[16 + 4] & 3) == 0, "keygen clamps r");
    CHECK_RC(galois_poly1305aes_init(ps, pkey, 16), GALOIS_ERR_KEY_LENGTH, "poly key 16");
    uint8_t unclamped[32];
    memcpy(unclamped, pkey, 32);
    unclamped[16 + 3] |= 0x10;
    CHECK_RC(galois_poly1305aes_init(ps, unclamped, 32), GALOIS_ERR_INVALID_KEY, "unclamped r");
    CHECK_RC(galois_poly1305aes_init(ps, pkey, 32), GALOIS_OK, "poly init");
    /* tag 8, nonce 12, verify tag 15 */
    mac_errors(&POLY1305AES, ps, nonce, 16, 12, 8, 15, pt, 16, tag);
    galois_poly1305aes_wipe(ps);
    CHECK_RC(galois_poly1305aes_verify(ps, tag, 16, nonce, 16, pt, 16), GALOIS_ERR_STATE, "poly wiped");

    /* one-time Poly1305 */
    CHECK_RC(galois_poly1305_onetimeauth(tag, 16, pt, 16, pkey, 31), GALOIS_ERR_KEY_LENGTH, "onetime key 31");
    CHECK_RC(galois_poly1305_onetimeauth(tag, 15, pt, 16, pkey, 32), GALOIS_ERR_TAG_LENGTH, "onetime tag 15");
    CHECK_RC(galois_poly1305_onetimeauth(NULL, 16, pt, 16, pkey, 32), GALOIS_ERR_NULL_POINTER, "onetime NULL tag");
    CHECK_RC(galois_poly1305_onetimeauth(tag, 16, NULL, 16, pkey, 32), GALOIS_ERR_NULL_POINTER, "onetime NULL msg");
    CHECK_RC(galois_poly1305_onetimeauth(pt, 16, pt, 16, pkey, 32), GALOIS_ERR_OVERLAP, "onetime tag = msg");
    CHECK_RC(galois_poly1305_onetimeauth(tag, 16, NULL, 0, pkey, 32), GALOIS_OK, "onetime empty");
    CHECK_RC(galois_poly1305_onetimeauth_verify(tag, 16, NULL, 0, pkey, 32), GALOIS_OK, "onetime verify");
    CHECK_RC(galois_poly1305_onetimeauth_verify(tag, 12, NULL, 0, pkey, 32), GALOIS_ERR_TAG_LENGTH, "onetime verify tag 12");
    CHECK_RC(galois_poly1305_onetimeauth_verify(tag, 16, pt, 1, pkey, 32), GALOIS_ERR_AUTH, "onetime verify other msg");
    free(ps);
    free(mem);
}

/* ---- round trips: random lengths, unaligned states ----------------------- */

static void test_roundtrip(void) {
    size_t sb = galois_aesgcm_statebytes();
    uint8_t *mem = xmalloc(sb + 64);
    static const size_t key_lens[3] = {16, 24, 32};
    for (int round = 0; round < 300; round++) {
        void *st = mem + (round % 17); /* any alignment */
        uint8_t key[32], iv[40], ad[100];
        size_t kl = key_lens[round % 3], ivl = round % 5 == 0 ? 1 + rnd() % 40 : 12;
        size_t adl = rnd() % 100, n = (size_t)(rnd() % 2100);
        CHECK_RC(galois_aesgcm_keygen(key, kl), GALOIS_OK, "keygen");
        rnd_fill(iv, ivl);
        rnd_fill(ad, adl);
        uint8_t *pt = xmalloc(n), *a = xmalloc(n + 16), *b = xmalloc(n + 16), *c = xmalloc(n);
        uint8_t tag[16];
        rnd_fill(pt, n);
        CHECK_RC(galois_aesgcm_init(st, key, kl), GALOIS_OK, "init");
        CHECK_RC(galois_aesgcm_seal(st, a, n + 16, NULL, pt, n, ad, adl, iv, ivl), GALOIS_OK, "seal");
        memcpy(b, pt, n);
        CHECK_RC(galois_aesgcm_seal_detached(st, b, tag, 16, b, n, ad, adl, iv, ivl), GALOIS_OK, "seal detached in place");
        CHECK(memcmp(a, b, n) == 0 && memcmp(a + n, tag, 16) == 0, "attached and detached agree (n=%zu)", n);
        CHECK_RC(galois_aesgcm_open(st, c, n, NULL, a, n + 16, ad, adl, iv, ivl), GALOIS_OK, "open");
        CHECK(memcmp(c, pt, n) == 0, "round trip n=%zu", n);
        size_t flip = rnd() % (n + 16);
        a[flip] ^= (uint8_t)(1u << (rnd() % 8));
        memset(c, 0xa5, n);
        CHECK_RC(galois_aesgcm_open(st, c, n, NULL, a, n + 16, ad, adl, iv, ivl), GALOIS_ERR_AUTH, "tampered");
        CHECK(all_zero(c, n), "wiped after tampering");
        CHECK_RC(galois_aesgcm_wipe(st), GALOIS_OK, "wipe");
        free(pt);
        free(a);
        free(b);
        free(c);
    }
    free(mem);
}

/* ---- one state, many threads -------------------------------------------- */

#define T_LEN 3000
struct shared {
    const void *st;
    const uint8_t *pt, *want;
    int bad;
};

static void *thread_work(void *arg) {
    struct shared *sh = arg;
    uint8_t iv[12] = {1, 2, 3}, out[T_LEN + 16], back[T_LEN];
    for (int i = 0; i < 200; i++) {
        if (galois_aesgcm_seal(sh->st, out, sizeof out, NULL, sh->pt, T_LEN, NULL, 0, iv, 12) != GALOIS_OK ||
            memcmp(out, sh->want, sizeof out) != 0 ||
            galois_aesgcm_open(sh->st, back, sizeof back, NULL, out, sizeof out, NULL, 0, iv, 12) != GALOIS_OK ||
            memcmp(back, sh->pt, T_LEN) != 0) {
            sh->bad = 1;
        }
    }
    return NULL;
}

static void test_threads(void) {
    void *st = xmalloc(galois_aesgcm_statebytes());
    uint8_t key[16] = {5}, iv[12] = {1, 2, 3};
    static uint8_t pt[T_LEN], want[T_LEN + 16];
    rnd_fill(pt, T_LEN);
    CHECK_RC(galois_aesgcm_init(st, key, 16), GALOIS_OK, "init");
    CHECK_RC(galois_aesgcm_seal(st, want, sizeof want, NULL, pt, T_LEN, NULL, 0, iv, 12), GALOIS_OK, "seal");
    pthread_t th[4];
    struct shared sh[4];
    for (int i = 0; i < 4; i++) {
        sh[i] = (struct shared){st, pt, want, 0};
        CHECK(pthread_create(&th[i], NULL, thread_work, &sh[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(!sh[i].bad, "thread %d saw a wrong result", i);
    }
    galois_aesgcm_wipe(st);
    free(st);
}

/* ---- the state: copies, moves, re-init, overlap (issue 12 item 8) -------- */

/* A byte buffer at an address with the same residue mod 64 as `like`, so a copy of a
 * state there puts the key object at the same offset (the old check missed those). */
static uint8_t *same_residue(uint8_t *mem, size_t mem_len, const void *like, size_t need) {
    for (size_t d = 0; d + need <= mem_len; d++)
        if (((uintptr_t)(mem + d) & 63) == ((uintptr_t)like & 63)) return mem + d;
    return NULL;
}

static void test_state(void) {
    size_t sb = galois_aesgcm_statebytes();
    uint8_t key[32] = {7}, key2[32] = {8}, iv[12] = {1}, pt[48] = {2};
    uint8_t out[64], ref[64];
    uint8_t *a_mem = xmalloc(sb + 64), *b_mem = xmalloc(sb + 128);
    void *a = a_mem + 3;
    uint8_t *b = same_residue(b_mem, sb + 128, a, sb);
    CHECK(b != NULL, "found a copy address");

    /* a copy at another address with the same alignment is refused */
    CHECK_RC(galois_aesgcm_init(a, key, 32), GALOIS_OK, "init a");
    memcpy(b, a, sb);
    CHECK_RC(galois_aesgcm_seal(b, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_STATE, "copy (same residue) refused");
    CHECK_RC(galois_aesgcm_taglen(b), GALOIS_ERR_STATE, "copy taglen refused");
    CHECK_RC(galois_aesgcm_seal(a, ref, sizeof ref, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_OK, "original still works");
    /* wiping the copy: refused as a copy, releases the original's key exactly once */
    CHECK_RC(galois_aesgcm_wipe(b), GALOIS_ERR_STATE, "wipe of a copy");
    CHECK(all_zero(b, sb), "copy zeroed");
    CHECK_RC(galois_aesgcm_seal(a, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_STATE, "original refused after its copy was wiped");
    CHECK(all_zero(out, sizeof out), "refused seal zeroes out");
    CHECK_RC(galois_aesgcm_wipe(a), GALOIS_OK, "wipe the original afterwards (no double free)");
    CHECK(all_zero(a, sb), "original zeroed");

    /* both copies wiped the other way round */
    CHECK_RC(galois_aesgcm_init(a, key, 32), GALOIS_OK, "init a again");
    memcpy(b, a, sb);
    CHECK_RC(galois_aesgcm_wipe(a), GALOIS_OK, "wipe original");
    CHECK_RC(galois_aesgcm_wipe(b), GALOIS_OK, "wipe stale copy: nothing live, zeroed");
    CHECK(all_zero(b, sb), "stale copy zeroed");

    /* a wiped state's bytes copied back are refused (no use after free) */
    uint8_t *saved = xmalloc(sb);
    CHECK_RC(galois_aesgcm_init(a, key, 32), GALOIS_OK, "init for copy-back");
    memcpy(saved, a, sb);
    CHECK_RC(galois_aesgcm_wipe(a), GALOIS_OK, "wipe");
    memcpy(a, saved, sb);
    CHECK_RC(galois_aesgcm_seal(a, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_STATE, "restored bytes of a wiped state refused");
    CHECK_RC(galois_aesgcm_wipe(a), GALOIS_OK, "wipe restored bytes (nothing to free)");
    memset(saved, 0, sb);
    free(saved);

    /* a moved state (copied, original memory freed): use refused, wipe releases its key */
    uint8_t *m_mem = xmalloc(sb + 64);
    void *m = m_mem + 1;
    CHECK_RC(galois_aesgcm_init(m, key, 32), GALOIS_OK, "init to move");
    uint8_t *dst = b_mem + 5; /* another residue: the key object's offset differs */
    memcpy(dst, m, sb);
    memset(m_mem, 0x5a, sb + 64);
    free(m_mem);
    CHECK_RC(galois_aesgcm_seal(dst, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_STATE, "moved state refused");
    CHECK_RC(galois_aesgcm_wipe(dst), GALOIS_ERR_STATE, "wipe of a moved state (key released: no leak)");
    CHECK(all_zero(dst, sb), "moved state zeroed");

    /* re-initializing a live state releases the old key (no leak) and uses the new one */
    CHECK_RC(galois_aesgcm_init(a, key, 32), GALOIS_OK, "init key 1");
    CHECK_RC(galois_aesgcm_init(a, key2, 32), GALOIS_OK, "re-init key 2");
    CHECK_RC(galois_aesgcm_seal(a, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_OK, "seal key 2");
    CHECK(memcmp(out, ref, sizeof out) != 0, "re-init changed the key");
    CHECK_RC(galois_aesgcm_init(a, key, 32), GALOIS_OK, "back to key 1");
    CHECK_RC(galois_aesgcm_seal(a, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_OK, "seal key 1");
    CHECK(memcmp(out, ref, sizeof out) == 0, "key 1 again");
    /* a failed init over a live state: old key released, memory zeroed, no state */
    CHECK_RC(galois_aesgcm_init(a, key, 17), GALOIS_ERR_KEY_LENGTH, "failed re-init");
    CHECK(all_zero(a, sb), "failed re-init leaves zeroes");
    CHECK_RC(galois_aesgcm_seal(a, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_STATE, "no state after failed re-init");
    /* another primitive's init over a live GCM state, and the wrong wipe */
    size_t need = sb > galois_gmac_statebytes() ? sb : galois_gmac_statebytes();
    uint8_t *g_mem = xmalloc(need + 8);
    CHECK_RC(galois_aesgcm_init(g_mem, key, 16), GALOIS_OK, "gcm");
    CHECK_RC(galois_gmac_init(g_mem, key, 16), GALOIS_OK, "gmac over gcm");
    CHECK_RC(galois_aesgcm_wipe(g_mem), GALOIS_ERR_STATE, "gcm wipe of a gmac state (released anyway)");
    CHECK_RC(galois_gmac_authenticate(g_mem, out, 16, iv, 12, pt, 4), GALOIS_ERR_STATE, "gone");
    free(g_mem);

    /* outputs inside the state are refused and never written */
    CHECK_RC(galois_aesgcm_init(a, key, 32), GALOIS_OK, "init for overlap");
    uint8_t *sbytes = a, *snap = xmalloc(sb);
    memcpy(snap, a, sb);
    CHECK_RC(galois_aesgcm_seal(a, sbytes + 40, 64, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "seal out in the state");
    CHECK_RC(galois_aesgcm_seal(a, sbytes - 10, 64, NULL, pt, 48, NULL, 0, iv, 12) , GALOIS_ERR_OVERLAP, "seal out overlapping the state's start");
    CHECK_RC(galois_aesgcm_seal(a, out, 64, (size_t *)(sbytes + 8), pt, 48, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "out_len in the state");
    CHECK_RC(galois_aesgcm_open(a, sbytes + 40, 48, NULL, ref, 64, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "open out in the state");
    CHECK_RC(galois_aesgcm_seal_detached(a, out, sbytes + 20, 16, pt, 48, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "tag in the state");
    CHECK_RC(galois_aesgcm_open_detached(a, sbytes + sb - 1, ref, 48, ref + 48, 16, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, "open_detached out at the state's end");
    /* (the object's padding is uninitialized, so only the header is compared;
     * the seal below shows the object is intact) */
    CHECK(memcmp(snap, a, 32) == 0, "the state's header was not written");
    CHECK_RC(galois_aesgcm_seal(a, out, sizeof out, NULL, pt, 48, NULL, 0, iv, 12), GALOIS_OK, "state intact");
    CHECK(memcmp(out, ref, sizeof out) == 0, "same result");
    void *gs = xmalloc(galois_gmac_statebytes());
    CHECK_RC(galois_gmac_init(gs, key, 16), GALOIS_OK, "gmac");
    CHECK_RC(galois_gmac_authenticate(gs, (uint8_t *)gs + 33, 16, iv, 12, pt, 4), GALOIS_ERR_OVERLAP, "gmac tag in the state");
    CHECK_RC(galois_gmac_wipe(gs), GALOIS_OK, "gmac wipe");
    void *ps = xmalloc(galois_poly1305aes_statebytes());
    uint8_t pkey[32], nonce[16] = {1};
    CHECK_RC(galois_poly1305aes_keygen(pkey, 32), GALOIS_OK, "poly keygen");
    CHECK_RC(galois_poly1305aes_init(ps, pkey, 32), GALOIS_OK, "poly init");
    CHECK_RC(galois_poly1305aes_authenticate(ps, (uint8_t *)ps + 40, 16, nonce, 16, pt, 4), GALOIS_ERR_OVERLAP, "poly tag in the state");
    /* a Poly1305-AES copy */
    uint8_t *pc_mem = xmalloc(galois_poly1305aes_statebytes() + 64);
    uint8_t *pc = same_residue(pc_mem, galois_poly1305aes_statebytes() + 64, ps, galois_poly1305aes_statebytes());
    memcpy(pc, ps, galois_poly1305aes_statebytes());
    CHECK_RC(galois_poly1305aes_verify(pc, out, 16, nonce, 16, pt, 4), GALOIS_ERR_STATE, "poly copy refused");
    CHECK_RC(galois_poly1305aes_wipe(ps), GALOIS_OK, "poly wipe");
    CHECK_RC(galois_poly1305aes_wipe(pc), GALOIS_OK, "poly stale copy wipe");
    free(pc_mem);
    free(ps);
    free(gs);
    free(snap);
    CHECK_RC(galois_aesgcm_wipe(a), GALOIS_OK, "final wipe");
    free(a_mem);
    free(b_mem);
}

/* ---- every error of every function with an output zeroes it (item 4) ----- */

#define FILL(buf) memset((buf), 0xAA, sizeof(buf))
#define WIPED(rc_expr, want, buf, n, what)                                   \
    do {                                                                     \
        CHECK_RC((rc_expr), (want), what);                                   \
        CHECK(all_zero((buf), (n)), "%s: output not zeroed", what);         \
    } while (0)

static void test_wipe(void) {
    size_t sb = galois_aesgcm_statebytes();
    void *st = xmalloc(sb), *st8 = xmalloc(sb), *zero_st = xmalloc(sb);
    uint8_t key[32] = {1}, iv[12] = {2}, pt[64], out[96], out2[96], tag[16], sealed[80];
    size_t out_len;
    rnd_fill(pt, sizeof pt);
    memset(zero_st, 0, sb);
    CHECK_RC(galois_aesgcm_init(st, key, 32), GALOIS_OK, "init");
    CHECK_RC(galois_aesgcm_init_ex(st8, key, 32, 8, 0), GALOIS_OK, "init tag 8");
    CHECK_RC(galois_aesgcm_seal(st, sealed, sizeof sealed, NULL, pt, 64, NULL, 0, iv, 12), GALOIS_OK, "seal");

    /* seal */
    FILL(out); WIPED(galois_aesgcm_seal(zero_st, out, 96, NULL, pt, 64, NULL, 0, iv, 12), GALOIS_ERR_STATE, out, 96, "seal bad state");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, pt, 64, NULL, 0, iv, 0), GALOIS_ERR_NONCE_LENGTH, out, 96, "seal empty nonce");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, pt, 64, NULL, 0, NULL, 12), GALOIS_ERR_NULL_POINTER, out, 96, "seal NULL nonce");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, NULL, 64, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, out, 96, "seal NULL in");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, pt, 64, NULL, 3, iv, 12), GALOIS_ERR_NULL_POINTER, out, 96, "seal NULL ad");
    FILL(out); WIPED(galois_aesgcm_seal(st8, out, 96, NULL, pt, 64, NULL, 0, iv, 8), GALOIS_ERR_NONCE_LENGTH, out, 96, "seal short tag, 8-byte nonce");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 79, &out_len, pt, 64, NULL, 0, iv, 12), GALOIS_ERR_BUFFER_TOO_SMALL, out, 79, "seal out_cap 79");
    CHECK(out_len == 80, "needed size reported");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, pt, SIZE_MAX, NULL, 0, iv, 12), GALOIS_ERR_TOO_LONG, out, 96, "seal length overflow");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, out + 1, 64, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, out, 96, "seal partial overlap");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, NULL, pt, 64, out + 70, 4, iv, 12), GALOIS_ERR_OVERLAP, out, 96, "seal ad in out");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, &out_len, pt, 64, NULL, 0, out + 60, 12), GALOIS_ERR_OVERLAP, out, 96, "seal nonce in out");
    FILL(out); WIPED(galois_aesgcm_seal(st, out, 96, (size_t *)(out + 8), pt, 64, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, out, 96, "seal out_len in out");
    /* in place: the buffer is the output, so the caller's plaintext is zeroed too */
    memcpy(out, pt, 64);
    WIPED(galois_aesgcm_seal(st, out, 96, NULL, out, 64, NULL, 0, iv, 0), GALOIS_ERR_NONCE_LENGTH, out, 96, "seal in place, empty nonce");

    /* open */
    FILL(out); WIPED(galois_aesgcm_open(zero_st, out, 96, NULL, sealed, 80, NULL, 0, iv, 12), GALOIS_ERR_STATE, out, 96, "open bad state");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, sealed, 15, NULL, 0, iv, 12), GALOIS_ERR_INPUT_TOO_SHORT, out, 96, "open too short");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 63, &out_len, sealed, 80, NULL, 0, iv, 12), GALOIS_ERR_BUFFER_TOO_SMALL, out, 63, "open out_cap 63");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, sealed, 80, NULL, 0, iv, 0), GALOIS_ERR_NONCE_LENGTH, out, 96, "open empty nonce");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, sealed, 80, NULL, 0, NULL, 12), GALOIS_ERR_NULL_POINTER, out, 96, "open NULL nonce");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, sealed, 80, NULL, 2, iv, 12), GALOIS_ERR_NULL_POINTER, out, 96, "open NULL ad");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, sealed, 80, pt, 1, iv, 12), GALOIS_ERR_AUTH, out, 96, "open wrong ad");
    FILL(out); WIPED(galois_aesgcm_open(st8, out, 96, NULL, sealed, 80, NULL, 0, iv, 8), GALOIS_ERR_NONCE_LENGTH, out, 96, "open short tag, 8-byte nonce");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, out + 4, 80, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, out, 96, "open partial overlap");
    FILL(out); WIPED(galois_aesgcm_open(st, out, 96, NULL, sealed, 80, NULL, 0, out + 50, 12), GALOIS_ERR_OVERLAP, out, 96, "open nonce in out");
    memcpy(out, sealed, 80);
    out[3] ^= 1;
    WIPED(galois_aesgcm_open(st, out, 96, NULL, out, 80, NULL, 0, iv, 12), GALOIS_ERR_AUTH, out, 96, "open in place, forged");

    /* detached */
    FILL(out); FILL(tag);
    CHECK_RC(galois_aesgcm_seal_detached(st, out, tag, 12, pt, 64, NULL, 0, iv, 12), GALOIS_ERR_TAG_LENGTH, "seal_detached tag 12");
    CHECK(all_zero(out, 64) && all_zero(tag, 12), "seal_detached tag 12: out and tag zeroed");
    FILL(out); FILL(tag);
    CHECK_RC(galois_aesgcm_seal_detached(st, out, tag, 16, pt, 64, NULL, 0, iv, 0), GALOIS_ERR_NONCE_LENGTH, "seal_detached empty nonce");
    CHECK(all_zero(out, 64) && all_zero(tag, 16), "seal_detached empty nonce: out and tag zeroed");
    FILL(out);
    WIPED(galois_aesgcm_seal_detached(st, out, NULL, 16, pt, 64, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, out, 64, "seal_detached NULL tag");
    FILL(out);
    WIPED(galois_aesgcm_seal_detached(st, out, out + 60, 16, pt, 64, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, out, 76, "seal_detached tag in out");
    FILL(out);
    WIPED(galois_aesgcm_open_detached(st, out, sealed, 64, sealed + 64, 12, NULL, 0, iv, 12), GALOIS_ERR_TAG_LENGTH, out, 64, "open_detached tag 12");
    FILL(out);
    WIPED(galois_aesgcm_open_detached(st, out, sealed, 64, NULL, 16, NULL, 0, iv, 12), GALOIS_ERR_NULL_POINTER, out, 64, "open_detached NULL tag");
    FILL(out);
    WIPED(galois_aesgcm_open_detached(st, out, sealed, 64, sealed + 64, 16, NULL, 0, iv, 0), GALOIS_ERR_NONCE_LENGTH, out, 64, "open_detached empty nonce");
    FILL(out);
    WIPED(galois_aesgcm_open_detached(st, out, sealed, 64, out + 50, 16, NULL, 0, iv, 12), GALOIS_ERR_OVERLAP, out, 64, "open_detached tag in out");
    FILL(out);
    memcpy(out2, sealed, 80);
    out2[70] ^= 2;
    WIPED(galois_aesgcm_open_detached(st, out, out2, 64, out2 + 64, 16, NULL, 0, iv, 12), GALOIS_ERR_AUTH, out, 64, "open_detached forged tag");

    /* MACs and keygen */
    void *gs = xmalloc(galois_gmac_statebytes());
    CHECK_RC(galois_gmac_init(gs, key, 16), GALOIS_OK, "gmac init");
    FILL(tag); WIPED(galois_gmac_authenticate(gs, tag, 16, iv, 0, pt, 4), GALOIS_ERR_NONCE_LENGTH, tag, 16, "gmac empty nonce");
    FILL(tag); WIPED(galois_gmac_authenticate(gs, tag, 12, iv, 12, pt, 4), GALOIS_ERR_TAG_LENGTH, tag, 12, "gmac tag 12");
    FILL(tag); WIPED(galois_gmac_authenticate(zero_st, tag, 16, iv, 12, pt, 4), GALOIS_ERR_STATE, tag, 16, "gmac bad state");
    galois_gmac_wipe(gs);
    void *ps = xmalloc(galois_poly1305aes_statebytes());
    uint8_t pkey[32], nonce[16] = {3};
    CHECK_RC(galois_poly1305aes_keygen(pkey, 32), GALOIS_OK, "poly keygen");
    CHECK_RC(galois_poly1305aes_init(ps, pkey, 32), GALOIS_OK, "poly init");
    FILL(tag); WIPED(galois_poly1305aes_authenticate(ps, tag, 16, nonce, 12, pt, 4), GALOIS_ERR_NONCE_LENGTH, tag, 16, "poly nonce 12");
    FILL(tag); WIPED(galois_poly1305aes_authenticate(ps, tag, 8, nonce, 16, pt, 4), GALOIS_ERR_TAG_LENGTH, tag, 8, "poly tag 8");
    FILL(tag); WIPED(galois_poly1305_onetimeauth(tag, 16, pt, 4, pkey, 31), GALOIS_ERR_KEY_LENGTH, tag, 16, "onetime key 31");
    FILL(tag); WIPED(galois_poly1305_onetimeauth(tag, 15, pt, 4, pkey, 32), GALOIS_ERR_TAG_LENGTH, tag, 15, "onetime tag 15");
    uint8_t k[32];
    FILL(k); WIPED(galois_aesgcm_keygen(k, 20), GALOIS_ERR_KEY_LENGTH, k, 20, "keygen 20");
    FILL(k); WIPED(galois_poly1305aes_keygen(k, 31), GALOIS_ERR_KEY_LENGTH, k, 31, "poly keygen 31");
    galois_poly1305aes_wipe(ps);
    galois_aesgcm_wipe(st);
    galois_aesgcm_wipe(st8);
    free(gs);
    free(ps);
    free(st);
    free(st8);
    free(zero_st);
}

/* ---- open into memory another process reads (item 3) --------------------- */

/* A child process watches the output buffer (shared memory) while the parent opens
 * forged messages into it: it may see the old bytes (0xAA) or zeros, never anything
 * else (unverified plaintext). Valid opens run afterwards, so the watcher would also
 * see plaintext once verified; it stops before. */
#define SH_LEN (256 * 1024)
static void test_shared(void) {
    size_t len = SH_LEN + 64;
    uint8_t *shm = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(shm != MAP_FAILED, "mmap");
    if (shm == MAP_FAILED) return;
    volatile uint8_t *flag = shm + SH_LEN, *seen = shm + SH_LEN + 1, *ready = shm + SH_LEN + 2;
    uint8_t *out = shm;
    memset(out, 0xAA, SH_LEN);
    *flag = 0;
    *seen = 0;
    *ready = 0;
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        *ready = 1;
        while (!*flag) {
            for (size_t i = 0; i < SH_LEN; i += 61) {
                uint8_t v = ((volatile uint8_t *)out)[i];
                if (v != 0xAA && v != 0) *seen = 1;
            }
        }
        _exit(0);
    }
    while (!*ready) sched_yield();
    void *st = xmalloc(galois_aesgcm_statebytes());
    uint8_t key[16] = {9}, iv[12] = {4};
    uint8_t *pt = xmalloc(SH_LEN), *ct = xmalloc(SH_LEN + 16);
    rnd_fill(pt, SH_LEN);
    CHECK_RC(galois_aesgcm_init(st, key, 16), GALOIS_OK, "init");
    CHECK_RC(galois_aesgcm_seal(st, ct, SH_LEN + 16, NULL, pt, SH_LEN, NULL, 0, iv, 12), GALOIS_OK, "seal");
    ct[SH_LEN + 3] ^= 1; /* a forged tag: every open below fails */
    int all_auth = 1;
    for (int i = 0; i < 40; i++) {
        if (galois_aesgcm_open(st, out, SH_LEN, NULL, ct, SH_LEN + 16, NULL, 0, iv, 12) != GALOIS_ERR_AUTH) all_auth = 0;
        if (galois_aesgcm_open_detached(st, out, ct, SH_LEN, ct + SH_LEN, 16, NULL, 0, iv, 12) != GALOIS_ERR_AUTH) all_auth = 0;
        memset(out, 0xAA, SH_LEN);
    }
    *flag = 1;
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(all_auth, "every forged open failed");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "watcher exited");
    CHECK(!*seen, "the watcher saw unverified plaintext in the output buffer");
    galois_aesgcm_wipe(st);
    free(st);
    free(pt);
    free(ct);
    munmap(shm, len);
}

/* ---- a message too big for memory: GALOIS_ERR_NO_MEMORY, no abort ------ */

/* In a child limited to its current address space + 256 MiB, sealing a 1 GiB message
 * (a read-only mapping of zero pages) cannot get its private copy: the call returns
 * GALOIS_ERR_NO_MEMORY instead of aborting. Not run under valgrind or ASan, whose own
 * allocators do not live with an address-space limit. */
static long vm_size_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %ld kB", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}

static void test_nomem(void) {
    size_t big = (size_t)1 << 30;
    uint8_t *in = mmap(NULL, big, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(in != MAP_FAILED, "mmap 1 GiB");
    if (in == MAP_FAILED) return;
    void *st = xmalloc(galois_aesgcm_statebytes());
    uint8_t key[16] = {3}, iv[12] = {4}, tag[16];
    CHECK_RC(galois_aesgcm_init(st, key, 16), GALOIS_OK, "init");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        long kib = vm_size_kib();
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)(kib + 256 * 1024) * 1024;
        if (kib < 0 || setrlimit(RLIMIT_AS, &rl) != 0) _exit(3);
        int a = galois_aesgcm_seal(st, NULL, big + 16, NULL, in, big, NULL, 0, iv, 12);
        int b = galois_aesgcm_seal_detached(st, NULL, tag, 16, in, big, NULL, 0, iv, 12);
        int c = galois_aesgcm_open_detached(st, NULL, in, big, tag, 16, NULL, 0, iv, 12);
        if (a != GALOIS_ERR_NO_MEMORY || b != GALOIS_ERR_NO_MEMORY || c != GALOIS_ERR_NO_MEMORY) {
            fprintf(stderr, "nomem: got %d %d %d\n", a, b, c);
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork/wait");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "1 GiB seal/open under a 256 MiB limit: GALOIS_ERR_NO_MEMORY, no abort (status %d)", status);
    galois_aesgcm_wipe(st);
    free(st);
    munmap(in, big);
}

/* ---- differential against OpenSSL -------------------------------------- */

#ifdef GALOIS_TEST_OPENSSL
static int openssl_seal(const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl,
                        const uint8_t *ad, size_t adl, const uint8_t *pt, size_t n,
                        uint8_t *out, uint8_t tag[16]) {
    const EVP_CIPHER *c = kl == 16 ? EVP_aes_128_gcm() : kl == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0, ok = ctx != NULL;
    ok = ok && EVP_EncryptInit_ex(ctx, c, NULL, NULL, NULL);
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, (int)ivl, NULL);
    ok = ok && EVP_EncryptInit_ex(ctx, NULL, NULL, key, iv);
    if (adl) ok = ok && EVP_EncryptUpdate(ctx, NULL, &len, ad, (int)adl);
    if (n) ok = ok && EVP_EncryptUpdate(ctx, out, &len, pt, (int)n);
    ok = ok && EVP_EncryptFinal_ex(ctx, out + (n ? len : 0), &len);
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void test_openssl(void) {
    void *st = xmalloc(galois_aesgcm_statebytes());
    static const size_t key_lens[3] = {16, 24, 32};
    for (int round = 0; round < 400; round++) {
        uint8_t key[32], iv[64], ad[300], tag[16];
        size_t kl = key_lens[round % 3], ivl = round % 4 == 0 ? 1 + rnd() % 64 : 12;
        size_t adl = rnd() % 300, n = (size_t)(rnd() % 5000);
        rnd_fill(key, kl);
        rnd_fill(iv, ivl);
        rnd_fill(ad, adl);
        uint8_t *pt = xmalloc(n), *want = xmalloc(n), *got = xmalloc(n + 16);
        rnd_fill(pt, n);
        CHECK(openssl_seal(key, kl, iv, ivl, ad, adl, pt, n, want, tag), "OpenSSL failed");
        CHECK_RC(galois_aesgcm_init(st, key, kl), GALOIS_OK, "init");
        CHECK_RC(galois_aesgcm_seal(st, got, n + 16, NULL, pt, n, ad, adl, iv, ivl), GALOIS_OK, "seal");
        CHECK(memcmp(got, want, n) == 0 && memcmp(got + n, tag, 16) == 0,
              "differs from OpenSSL: key %zu iv %zu ad %zu n %zu", kl, ivl, adl, n);
        galois_aesgcm_wipe(st);
        free(pt);
        free(want);
        free(got);
    }
    free(st);
}
#endif

/* A one-shot AEAD's seal or open (galois_aesgcmsiv_seal, ...). */
typedef int (*oneshot_fn)(uint8_t *, size_t, size_t *, const uint8_t *, size_t,
                          const uint8_t *, size_t, const uint8_t *, size_t,
                          const uint8_t *, size_t);

/* A known answer of a one-shot AEAD (no AAD; pt_len + 16 <= 64): `pt`
 * seals to `want`, out of place and in place, and opens back both ways; a
 * flipped ciphertext bit, and a flipped nonce bit, fail with GALOIS_ERR_AUTH
 * and leave the whole output zeroed. */
static void kat_oneshot(const char *aead, oneshot_fn seal, oneshot_fn open, const uint8_t *key,
                        size_t key_len, const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *pt, size_t pt_len, const uint8_t *want) {
    uint8_t out[64], back[64], other[32];
    const size_t ct_len = pt_len + 16;
    size_t n = 0;
    int rc = seal(out, sizeof out, &n, pt, pt_len, NULL, 0, nonce, nonce_len, key, key_len);
    CHECK(rc == GALOIS_OK && n == ct_len && !memcmp(out, want, ct_len),
          "%s: known answer (%s)", aead, galois_strerror(rc));
    rc = open(back, sizeof back, &n, out, ct_len, NULL, 0, nonce, nonce_len, key, key_len);
    CHECK(rc == GALOIS_OK && n == pt_len && !memcmp(back, pt, pt_len),
          "%s: round trip (%s)", aead, galois_strerror(rc));
    memcpy(back, pt, pt_len);
    rc = seal(back, sizeof back, &n, back, pt_len, NULL, 0, nonce, nonce_len, key, key_len);
    CHECK(rc == GALOIS_OK && n == ct_len && !memcmp(back, want, ct_len),
          "%s: known answer in place (%s)", aead, galois_strerror(rc));
    rc = open(back, sizeof back, &n, back, ct_len, NULL, 0, nonce, nonce_len, key, key_len);
    CHECK(rc == GALOIS_OK && n == pt_len && !memcmp(back, pt, pt_len),
          "%s: round trip in place (%s)", aead, galois_strerror(rc));
    out[3] ^= 1;
    memset(back, 0x55, sizeof back);
    rc = open(back, sizeof back, &n, out, ct_len, NULL, 0, nonce, nonce_len, key, key_len);
    CHECK_RC(rc, GALOIS_ERR_AUTH, aead);
    CHECK(all_zero(back, sizeof back), "%s: failed open (tampered) leaves nothing", aead);
    out[3] ^= 1;
    memcpy(other, nonce, nonce_len);
    other[0] ^= 1;
    memset(back, 0x55, sizeof back);
    rc = open(back, sizeof back, &n, out, ct_len, NULL, 0, other, nonce_len, key, key_len);
    CHECK_RC(rc, GALOIS_ERR_AUTH, aead);
    CHECK(all_zero(back, sizeof back), "%s: failed open (other nonce) leaves nothing", aead);
}

/* AES-GCM-SIV (RFC 8452 C.1, vector 2) and XAES-256-GCM (C2SP vector 1):
 * known answers, round trips, tampering, and the length errors. */
static void test_siv(void) {
    uint8_t key[32] = {0}, nonce[24] = {0}, out[64], back[64];
    size_t n = 0;
    key[0] = 1;
    nonce[0] = 3;
    const uint8_t pt[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    const uint8_t want[24] = {0xb5, 0xd8, 0x39, 0x33, 0x0a, 0xc7, 0xb7, 0x86,
                              0x57, 0x87, 0x82, 0xff, 0xf6, 0x01, 0x3b, 0x81,
                              0x5b, 0x28, 0x7c, 0x22, 0x49, 0x3a, 0x36, 0x4c};
    kat_oneshot("aesgcmsiv", galois_aesgcmsiv_seal, galois_aesgcmsiv_open, key, 16, nonce, 12,
                pt, 8, want);
    CHECK_RC(galois_aesgcmsiv_seal(out, sizeof out, &n, pt, 8, NULL, 0, nonce, 13, key, 16),
             GALOIS_ERR_NONCE_LENGTH, "aesgcmsiv 13-byte nonce");
    CHECK_RC(galois_aesgcmsiv_seal(out, sizeof out, &n, pt, 8, NULL, 0, nonce, 12, key, 20),
             GALOIS_ERR_KEY_LENGTH, "aesgcmsiv 20-byte key");
    CHECK_RC(galois_aesgcmsiv_seal(out, 23, &n, pt, 8, NULL, 0, nonce, 12, key, 16),
             GALOIS_ERR_BUFFER_TOO_SMALL, "aesgcmsiv small out");
    CHECK(n == 24, "aesgcmsiv: out_len tells the size needed");
    CHECK_RC(galois_aesgcmsiv_open(back, sizeof back, &n, out, 15, NULL, 0, nonce, 12, key, 16),
             GALOIS_ERR_INPUT_TOO_SHORT, "aesgcmsiv short input");

    /* XAES-256-GCM, C2SP vector 1: K = 01 * 32, N = "ABCD...X". */
    memset(key, 1, 32);
    memcpy(nonce, "ABCDEFGHIJKLMNOPQRSTUVWX", 24);
    const uint8_t xwant[28] = {0xce, 0x54, 0x6e, 0xf6, 0x3c, 0x9c, 0xc6, 0x07, 0x65, 0x92,
                               0x36, 0x09, 0xb3, 0x3a, 0x9a, 0x19, 0x74, 0xe9, 0x6e, 0x52,
                               0xda, 0xf2, 0xfc, 0xf7, 0x07, 0x5e, 0x22, 0x71};
    kat_oneshot("xaes256gcm", galois_xaes256gcm_seal, galois_xaes256gcm_open, key, 32, nonce, 24,
                (const uint8_t *)"XAES-256-GCM", 12, xwant);
    CHECK_RC(galois_xaes256gcm_seal(out, sizeof out, &n, pt, 8, NULL, 0, nonce, 12, key, 32),
             GALOIS_ERR_NONCE_LENGTH, "xaes 12-byte nonce");
    CHECK_RC(galois_xaes256gcm_seal(out, sizeof out, &n, pt, 8, NULL, 0, nonce, 24, key, 16),
             GALOIS_ERR_KEY_LENGTH, "xaes 16-byte key");
}

/* C2SP chunked encryption: round trips at chunk edges, random-access reads
 * equal to the whole plaintext, tampering, truncation, trailing data, wrong
 * key or context, bad lengths; every failed call leaves out zeroed. */
static void test_chunked(void) {
    const size_t C = GALOIS_CHUNKED_CHUNKBYTES, S = GALOIS_CHUNKED_CHUNKBYTES + 16;
    const size_t sizes[] = {0, 1, 16383, 16384, 16385, 3 * 16384 + 77};
    uint8_t key[32], key2[32];
    rnd_fill(key, 32);
    memcpy(key2, key, 32);
    key2[5] ^= 1;
    const uint8_t ctx[] = "ctx";
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (size_t kl = 16; kl <= 32; kl += 16) {
            size_t n = sizes[si], slen = galois_chunked_sealed_len(n), got = 0;
            CHECK(slen == 56 + n + (n / C + 1) * 16, "sealed_len(%zu)", n);
            uint8_t *pt = xmalloc(n + 1), *sealed = xmalloc(slen + 1), *back = xmalloc(n + 1);
            rnd_fill(pt, n);
            CHECK_RC(galois_chunked_seal(sealed, slen - 1, &got, pt, n, ctx, 3, key, kl),
                     GALOIS_ERR_BUFFER_TOO_SMALL, "chunked seal small out");
            CHECK(got == slen, "chunked seal: out_len tells the size needed");
            CHECK_RC(galois_chunked_seal(sealed, slen, &got, pt, n, ctx, 3, key, kl), GALOIS_OK, "chunked seal");
            CHECK(got == slen, "chunked seal out_len");
            CHECK_RC(galois_chunked_open(back, n, &got, sealed, slen, ctx, 3, key, kl), GALOIS_OK, "chunked open");
            CHECK(got == n && (n == 0 || !memcmp(back, pt, n)), "chunked round trip %zu", n);
            /* random access: any (offset, length) equals the plaintext */
            for (int t = 0; t < 40; t++) {
                size_t off = (size_t)(rnd() % (n + 3)), len = (size_t)(rnd() % (2 * C + 1));
                uint8_t *ra = xmalloc(len + 1);
                int rc = galois_chunked_read_at(ra, len, &got, sealed, slen, off, ctx, 3, key, kl);
                size_t want = off >= n ? 0 : (n - off < len ? n - off : len);
                CHECK_RC(rc, GALOIS_OK, "chunked read_at");
                CHECK(got == want && (want == 0 || !memcmp(ra, pt + off, want)),
                      "read_at(%zu, %zu) of %zu: got %zu", off, len, n, got);
                free(ra);
            }
            /* wrong key, wrong context, a flipped byte anywhere, truncation, trailing byte */
            memset(back, 0x55, n + 1);
            CHECK_RC(galois_chunked_open(back, n, &got, sealed, slen, ctx, 3, key2, kl), GALOIS_ERR_AUTH, "chunked wrong key");
            CHECK(all_zero(back, n), "chunked wrong key: out zeroed");
            CHECK_RC(galois_chunked_open(back, n, &got, sealed, slen, ctx, 2, key, kl), GALOIS_ERR_AUTH, "chunked wrong ctx");
            size_t pos[] = {0, 30, 56, slen / 2, slen - 1};
            for (size_t i = 0; i < 5; i++) {
                sealed[pos[i]] ^= 4;
                memset(back, 0x55, n + 1);
                CHECK(galois_chunked_open(back, n, &got, sealed, slen, ctx, 3, key, kl) == GALOIS_ERR_AUTH,
                      "chunked flipped byte %zu of %zu", pos[i], slen);
                CHECK(all_zero(back, n), "chunked tampered: out zeroed");
                sealed[pos[i]] ^= 4;
            }
            if (n >= C) {
                /* cut after whole chunks: no final chunk */
                CHECK(galois_chunked_open(back, n, &got, sealed, 56 + S, ctx, 3, key, kl) == GALOIS_ERR_AUTH,
                      "chunked truncated at a chunk boundary");
                uint8_t one;
                CHECK(galois_chunked_read_at(&one, 1, &got, sealed, 56 + S, 0, ctx, 3, key, kl) == GALOIS_ERR_AUTH,
                      "chunked read_at on a message without its final chunk");
            }
            CHECK(galois_chunked_open(back, n + 1, &got, sealed, slen - 1, ctx, 3, key, kl) < 0, "chunked cut by 1");
            sealed[slen] = 0;
            CHECK(galois_chunked_open(back, n + 1, &got, sealed, slen + 1, ctx, 3, key, kl) < 0, "chunked trailing byte");
            if (n > C + 20) {
                /* a tampered second chunk: reads in the first still work, in the second fail with out zeroed */
                sealed[56 + S + 3] ^= 1;
                uint8_t r1[8], r2[8];
                CHECK_RC(galois_chunked_read_at(r1, 8, &got, sealed, slen, 5, ctx, 3, key, kl), GALOIS_OK, "read_at intact chunk");
                CHECK(!memcmp(r1, pt + 5, 8), "read_at intact chunk bytes");
                memset(r2, 0x55, 8);
                CHECK_RC(galois_chunked_read_at(r2, 8, &got, sealed, slen, C + 1, ctx, 3, key, kl), GALOIS_ERR_AUTH,
                         "read_at tampered chunk");
                CHECK(all_zero(r2, 8) && got == 0, "read_at tampered: out zeroed");
                sealed[56 + S + 3] ^= 1;
            }
            free(pt), free(sealed), free(back);
        }
    }
    uint8_t out[128], pt[4] = {1, 2, 3, 4};
    size_t got;
    CHECK_RC(galois_chunked_seal(out, sizeof out, &got, pt, 4, NULL, 0, key, 24), GALOIS_ERR_KEY_LENGTH, "chunked 24-byte key");
    CHECK(all_zero(out, sizeof out), "chunked bad key: out zeroed");
    CHECK_RC(galois_chunked_seal(out, sizeof out, &got, NULL, 4, NULL, 0, key, 16), GALOIS_ERR_NULL_POINTER, "chunked NULL in");
    CHECK_RC(galois_chunked_seal(out, sizeof out, &got, out + 50, 4, NULL, 0, key, 16), GALOIS_ERR_OVERLAP, "chunked overlap");
    CHECK_RC(galois_chunked_open(out, sizeof out, &got, out, 10, NULL, 0, key, 16), GALOIS_ERR_AUTH, "chunked shorter than header");
    CHECK(galois_chunked_sealed_len((size_t)-1) == 0, "sealed_len overflow");
}

/* ---- cstream: streaming chunked encryption -------------------------------- */

/* Seals pt in pieces (cuts: ascending split points, ncuts of them) with a
 * streaming sealer in unaligned memory; returns the sealed message (the
 * caller frees it) and its length in *slen. Checks every out_len. */
static uint8_t *stream_seal(const uint8_t *key, size_t kl, const uint8_t *ctx, size_t cl,
                            const uint8_t *pt, size_t n, const size_t *cuts, size_t ncuts, size_t *slen) {
    const size_t C = GALOIS_CHUNKED_CHUNKBYTES;
    size_t sb = galois_chunked_sealer_statebytes(), cap = galois_chunked_sealed_len(n), at = 0, buffered = 0;
    uint8_t *mem = xmalloc(sb + 7), *sealed = xmalloc(cap + 1);
    void *st = mem + 3;
    CHECK_RC(galois_chunked_sealer_init(st, sealed, GALOIS_CHUNKED_HEADERBYTES, ctx, cl, key, kl), GALOIS_OK,
             "sealer init");
    size_t w = GALOIS_CHUNKED_HEADERBYTES;
    for (size_t i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : n, len = end - at, got = 12345;
        size_t want = (buffered + len) / C * (C + 16);
        int rc = galois_chunked_sealer_update(st, sealed + w, cap - w, &got, pt + at, len);
        CHECK_RC(rc, GALOIS_OK, "sealer update");
        CHECK(got == want, "sealer update wrote %zu, want %zu", got, want);
        if (rc != GALOIS_OK) break;
        buffered = (buffered + len) % C;
        w += got, at = end;
    }
    size_t got = 0;
    CHECK_RC(galois_chunked_sealer_final(st, sealed + w, cap - w, &got), GALOIS_OK, "sealer final");
    CHECK(got == buffered + 16, "sealer final wrote %zu, want %zu", got, buffered + 16);
    w += got;
    CHECK(w == cap, "streamed sealed length %zu, want %zu", w, cap);
    CHECK_RC(galois_chunked_sealer_wipe(st), GALOIS_OK, "sealer wipe");
    CHECK(all_zero(mem + 3, sb), "sealer wiped");
    free(mem);
    *slen = w;
    return sealed;
}

/* Opens sealed[0..slen) with a streaming opener, the body fed in pieces cut
 * at body offsets cuts[]; returns the first error (GALOIS_OK if the whole
 * message opened) and the plaintext released so far in back (its length in *got). Every
 * failing call must leave its out zeroed. */
static int stream_open(const uint8_t *key, size_t kl, const uint8_t *ctx, size_t cl, const uint8_t *sealed,
                       size_t slen, const size_t *cuts, size_t ncuts, uint8_t *back, size_t back_cap,
                       size_t *got_total) {
    size_t sb = galois_chunked_opener_statebytes(), body = slen - GALOIS_CHUNKED_HEADERBYTES, at = 0, w = 0;
    uint8_t *mem = xmalloc(sb + 5), *tmp = xmalloc(body + 2 * GALOIS_CHUNKED_CHUNKBYTES);
    void *st = mem + 1;
    int rc = galois_chunked_opener_init(st, sealed, GALOIS_CHUNKED_HEADERBYTES, ctx, cl, key, kl);
    int started = rc == GALOIS_OK;
    for (size_t i = 0; rc == GALOIS_OK && i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : body, got = 777;
        memset(tmp, 0x55, end - at + GALOIS_CHUNKED_CHUNKBYTES);
        rc = galois_chunked_opener_update(st, tmp, end - at + GALOIS_CHUNKED_CHUNKBYTES, &got, sealed + GALOIS_CHUNKED_HEADERBYTES + at,
                                          end - at);
        if (rc != GALOIS_OK) {
            CHECK(all_zero(tmp, end - at + GALOIS_CHUNKED_CHUNKBYTES) && got == 0, "opener update %d: out zeroed", rc);
            break;
        }
        CHECK(got < end - at + GALOIS_CHUNKED_CHUNKBYTES && got % GALOIS_CHUNKED_CHUNKBYTES == 0, "opener update wrote %zu", got);
        CHECK(w + got <= back_cap, "opener released more than the message");
        if (w + got > back_cap) { rc = GALOIS_ERR_INTERNAL; break; }
        memcpy(back + w, tmp, got);
        w += got, at = end;
    }
    if (rc == GALOIS_OK) {
        size_t got = 777;
        memset(tmp, 0x55, GALOIS_CHUNKED_CHUNKBYTES);
        rc = galois_chunked_opener_final(st, tmp, GALOIS_CHUNKED_CHUNKBYTES, &got);
        if (rc == GALOIS_OK && w + got <= back_cap) {
            memcpy(back + w, tmp, got);
            w += got;
        } else {
            CHECK(all_zero(tmp, GALOIS_CHUNKED_CHUNKBYTES) && got == 0, "opener final %d: out zeroed", rc);
        }
    }
    if (started && rc != GALOIS_OK) {
        /* sticky: every later call gives the same code, out zeroed */
        size_t got = 9;
        uint8_t b[32];
        memset(b, 0x55, sizeof b);
        CHECK_RC(galois_chunked_opener_update(st, b, sizeof b, &got, sealed, 1), rc, "opener sticky update");
        CHECK(all_zero(b, sizeof b) && got == 0, "opener sticky update: out zeroed");
        memset(b, 0x55, sizeof b);
        CHECK_RC(galois_chunked_opener_final(st, b, sizeof b, &got), rc, "opener sticky final");
        CHECK(all_zero(b, sizeof b), "opener sticky final: out zeroed");
    }
    galois_chunked_opener_wipe(st);
    CHECK(all_zero(mem + 1, sb), "opener wiped");
    free(mem), free(tmp);
    *got_total = w;
    return rc;
}

static void test_cstream(void) {
    const size_t C = GALOIS_CHUNKED_CHUNKBYTES, S = C + 16, H = GALOIS_CHUNKED_HEADERBYTES;
    const size_t sizes[] = {0, 1, 15, 16383, 16384, 16385, 2 * 16384, 3 * 16384 + 77};
    const uint8_t ctx[] = "stream ctx";
    uint8_t key[32];
    rnd_fill(key, 32);

    /* Round trips against the one-shot functions: random pieces both ways. */
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (size_t kl = 16; kl <= 32; kl += 16) {
            size_t n = sizes[si], slen, got, cuts[6];
            uint8_t *pt = xmalloc(n + 1), *back = xmalloc(n + 1);
            rnd_fill(pt, n);
            for (int rep = 0; rep < 4; rep++) {
                for (int i = 0; i < 6; i++) cuts[i] = n ? (size_t)(rnd() % (n + 1)) : 0;
                for (int i = 0; i < 6; i++) /* sort */
                    for (int j = i + 1; j < 6; j++)
                        if (cuts[j] < cuts[i]) { size_t t = cuts[i]; cuts[i] = cuts[j]; cuts[j] = t; }
                uint8_t *sealed = stream_seal(key, kl, ctx, 10, pt, n, cuts, rep ? 6 : 0, &slen);
                CHECK_RC(galois_chunked_open(back, n, &got, sealed, slen, ctx, 10, key, kl), GALOIS_OK,
                         "one-shot open of a streamed seal");
                CHECK(got == n && (n == 0 || !memcmp(back, pt, n)), "streamed seal round trip %zu", n);
                free(sealed);
                sealed = xmalloc(galois_chunked_sealed_len(n));
                CHECK_RC(galois_chunked_seal(sealed, galois_chunked_sealed_len(n), &slen, pt, n, ctx, 10, key, kl),
                         GALOIS_OK, "one-shot seal");
                size_t body = slen - H;
                for (int i = 0; i < 6; i++) cuts[i] = body * (size_t)(i + 1) / 7 + (size_t)(rnd() % 3);
                for (int i = 0; i < 6; i++) if (cuts[i] > body) cuts[i] = body;
                memset(back, 0, n + 1);
                CHECK_RC(stream_open(key, kl, ctx, 10, sealed, slen, cuts, rep ? 6 : 0, back, n, &got), GALOIS_OK,
                         "streamed open of a one-shot seal");
                CHECK(got == n && (n == 0 || !memcmp(back, pt, n)), "streamed open round trip %zu", n);
                free(sealed);
            }
            free(pt), free(back);
        }
    }

    /* Every split into two pieces, both ways, of a message of one full chunk
     * and a final one (every byte position of the plaintext and of the body). */
    {
        size_t n = C + 300, slen, got;
        uint8_t *pt = xmalloc(n), *back = xmalloc(n);
        rnd_fill(pt, n);
        unsigned long bad = 0;
        unsigned long before = failed;
        for (size_t k = 0; k <= n; k++) {
            uint8_t *sealed = stream_seal(key, 16, ctx, 10, pt, n, &k, 1, &slen);
            if (galois_chunked_open(back, n, &got, sealed, slen, ctx, 10, key, 16) != GALOIS_OK || got != n ||
                memcmp(back, pt, n))
                bad++;
            free(sealed);
        }
        CHECK(bad == 0 && failed == before, "every split of the sealer's input: %lu bad", bad);
        uint8_t *sealed = xmalloc(galois_chunked_sealed_len(n));
        galois_chunked_seal(sealed, galois_chunked_sealed_len(n), &slen, pt, n, ctx, 10, key, 16);
        bad = 0;
        before = failed;
        for (size_t k = 0; k <= slen - H; k++) {
            memset(back, 0, n);
            if (stream_open(key, 16, ctx, 10, sealed, slen, &k, 1, back, n, &got) != GALOIS_OK || got != n ||
                memcmp(back, pt, n))
                bad++;
        }
        CHECK(bad == 0 && failed == before, "every split of the opener's input: %lu bad", bad);
        free(sealed), free(pt), free(back);
    }

    /* Truncation, tampering, reordering: nothing unverified comes out, the
     * verified prefix only, and the error sticks. */
    {
        size_t n = 3 * C + 500, slen, got;
        uint8_t *pt = xmalloc(n), *back = xmalloc(n), *sealed = xmalloc(galois_chunked_sealed_len(n) + 1);
        rnd_fill(pt, n);
        galois_chunked_seal(sealed, galois_chunked_sealed_len(n), &slen, pt, n, ctx, 10, key, 32);
        size_t cuts[] = {100, S + 7, 2 * S + 1};
        /* cut at each chunk boundary, inside the final chunk, by one byte, to the header */
        size_t lens[] = {H, H + S, H + 2 * S, H + 3 * S, H + 3 * S + 10, H + 3 * S + 15, slen - 1};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            int rc = stream_open(key, 32, ctx, 10, sealed, lens[i], cuts, 0, back, n, &got);
            CHECK_RC(rc, GALOIS_ERR_AUTH, "truncated stream");
            size_t whole = (lens[i] - H) / S;
            CHECK(got == whole * C && (got == 0 || !memcmp(back, pt, got)),
                  "truncated at %zu: released %zu, want the %zu verified chunks only", lens[i], got, whole);
        }
        sealed[slen] = 0x42; /* a byte appended */
        CHECK_RC(stream_open(key, 32, ctx, 10, sealed, slen + 1, cuts, 3, back, n, &got), GALOIS_ERR_AUTH,
                 "trailing byte");
        /* a flipped byte in each chunk: released = the chunks before it */
        for (size_t c = 0; c < 4; c++) {
            size_t pos = H + c * S + (c == 3 ? 20 : 1000);
            sealed[pos] ^= 0x10;
            int rc = stream_open(key, 32, ctx, 10, sealed, slen, cuts, 3, back, n, &got);
            CHECK_RC(rc, GALOIS_ERR_AUTH, "tampered chunk");
            CHECK(got == c * C && (got == 0 || !memcmp(back, pt, got)), "tampered chunk %zu: released %zu", c, got);
            sealed[pos] ^= 0x10;
        }
        /* the tag of the final chunk, and the header */
        sealed[slen - 1] ^= 1;
        CHECK_RC(stream_open(key, 32, ctx, 10, sealed, slen, cuts, 3, back, n, &got), GALOIS_ERR_AUTH, "final tag");
        sealed[slen - 1] ^= 1;
        sealed[30] ^= 1;
        CHECK_RC(stream_open(key, 32, ctx, 10, sealed, slen, cuts, 3, back, n, &got), GALOIS_ERR_AUTH, "header");
        CHECK(got == 0, "bad header: nothing released");
        sealed[30] ^= 1;
        /* chunks 0 and 1 swapped; chunk 1 dropped */
        uint8_t *sw = xmalloc(slen);
        memcpy(sw, sealed, slen);
        memcpy(sw + H, sealed + H + S, S);
        memcpy(sw + H + S, sealed + H, S);
        CHECK_RC(stream_open(key, 32, ctx, 10, sw, slen, cuts, 3, back, n, &got), GALOIS_ERR_AUTH, "swapped chunks");
        CHECK(got == 0, "swapped chunks: nothing released");
        memcpy(sw, sealed, H + S);
        memcpy(sw + H + S, sealed + H + 2 * S, slen - H - 2 * S);
        size_t at_chunks[] = {S, 2 * S};
        CHECK_RC(stream_open(key, 32, ctx, 10, sw, slen - S, at_chunks, 2, back, n, &got), GALOIS_ERR_AUTH,
                 "dropped chunk");
        CHECK(got == C && !memcmp(back, pt, C), "dropped chunk: the first chunk only");
        free(sw);
        /* wrong key, wrong context: init refuses, the state holds nothing */
        size_t sb = galois_chunked_opener_statebytes();
        uint8_t *mem = xmalloc(sb), b[64];
        uint8_t key2[32];
        memcpy(key2, key, 32);
        key2[0] ^= 1;
        CHECK_RC(galois_chunked_opener_init(mem, sealed, H, ctx, 10, key2, 32), GALOIS_ERR_AUTH, "opener wrong key");
        CHECK(all_zero(mem, sb), "failed opener init: state zeroed");
        CHECK_RC(galois_chunked_opener_update(mem, b, sizeof b, &got, sealed + H, 10), GALOIS_ERR_STATE,
                 "update after failed init");
        CHECK_RC(galois_chunked_opener_init(mem, sealed, H, ctx, 9, key, 32), GALOIS_ERR_AUTH, "opener wrong ctx");
        CHECK_RC(galois_chunked_opener_init(mem, sealed, H - 1, ctx, 10, key, 32), GALOIS_ERR_AUTH,
                 "opener short header");
        CHECK_RC(galois_chunked_opener_init(mem, sealed, H + 1, ctx, 10, key, 32), GALOIS_ERR_AUTH,
                 "opener long header");
        CHECK_RC(galois_chunked_opener_init(mem, sealed, H, ctx, 10, key, 24), GALOIS_ERR_KEY_LENGTH,
                 "opener 24-byte key");
        galois_chunked_opener_wipe(mem);
        free(mem);
        free(pt), free(back), free(sealed);
    }

    /* Arguments: NULL, small buffers, overlap, use after final, copies,
     * the wrong kind of state. None of these argument errors breaks the stream. */
    {
        size_t sb = galois_chunked_sealer_statebytes(), ob = galois_chunked_opener_statebytes(), got;
        uint8_t *mem = xmalloc(sb + ob + 64), hdr[GALOIS_CHUNKED_HEADERBYTES + 8];
        uint8_t *st = mem, *cp = mem + sb + 32, pt[100], out[2 * 16400];
        rnd_fill(pt, sizeof pt);
        CHECK_RC(galois_chunked_sealer_init(NULL, hdr, sizeof hdr, NULL, 0, key, 16), GALOIS_ERR_NULL_POINTER,
                 "sealer init NULL state");
        memset(hdr, 0x55, sizeof hdr);
        CHECK_RC(galois_chunked_sealer_init(st, NULL, 56, NULL, 0, key, 16), GALOIS_ERR_NULL_POINTER,
                 "sealer init NULL header");
        CHECK_RC(galois_chunked_sealer_init(st, hdr, 55, NULL, 0, key, 16), GALOIS_ERR_BUFFER_TOO_SMALL,
                 "sealer init small header");
        CHECK(all_zero(hdr, 55), "sealer init error: header zeroed");
        CHECK_RC(galois_chunked_sealer_init(st, hdr, sizeof hdr, NULL, 0, NULL, 16), GALOIS_ERR_NULL_POINTER,
                 "sealer init NULL key");
        CHECK_RC(galois_chunked_sealer_init(st, hdr, sizeof hdr, NULL, 5, key, 16), GALOIS_ERR_NULL_POINTER,
                 "sealer init NULL ctx");
        CHECK_RC(galois_chunked_sealer_init(st, hdr, sizeof hdr, NULL, 0, key, 17), GALOIS_ERR_KEY_LENGTH,
                 "sealer init 17-byte key");
        CHECK_RC(galois_chunked_sealer_init(st, hdr, sizeof hdr, hdr + 3, 4, key, 16), GALOIS_ERR_OVERLAP,
                 "sealer init header overlaps ctx");
        CHECK_RC(galois_chunked_sealer_init(st, st + 8, 56, NULL, 0, key, 16), GALOIS_ERR_OVERLAP,
                 "sealer init header inside the state");
        CHECK_RC(galois_chunked_sealer_init(st, hdr, sizeof hdr, NULL, 0, key, 16), GALOIS_OK, "sealer init");
        CHECK_RC(galois_chunked_sealer_update(NULL, out, sizeof out, &got, pt, 10), GALOIS_ERR_NULL_POINTER,
                 "update NULL state");
        CHECK_RC(galois_chunked_sealer_update(st, out, sizeof out, &got, NULL, 10), GALOIS_ERR_NULL_POINTER,
                 "update NULL in");
        CHECK_RC(galois_chunked_sealer_update(st, NULL, 0, &got, pt, 10), GALOIS_OK, "update NULL out, nothing out");
        CHECK(got == 0, "update of 10 bytes writes nothing");
        /* 16374 more bytes complete the first chunk: out needs 16400 */
        uint8_t *big = xmalloc(C);
        memcpy(big, pt, 10);
        rnd_fill(big + 10, C - 10);
        memset(out, 0x55, sizeof out);
        CHECK_RC(galois_chunked_sealer_update(st, out, S - 1, &got, big + 10, C - 10), GALOIS_ERR_BUFFER_TOO_SMALL,
                 "update small out");
        CHECK(got == S && all_zero(out, S - 1), "update small out: out_len = need, out zeroed");
        CHECK_RC(galois_chunked_sealer_update(st, NULL, S, &got, big + 10, C - 10), GALOIS_ERR_NULL_POINTER,
                 "update NULL out");
        CHECK_RC(galois_chunked_sealer_update(st, big, C, &got, big + 10, C - 10), GALOIS_ERR_BUFFER_TOO_SMALL,
                 "update out too small (and overlapping)");
        memcpy(big, pt, 10); /* that call zeroed big */
        uint8_t *ovl = xmalloc(2 * S);
        memcpy(ovl + S, big + 10, C - 10);
        CHECK_RC(galois_chunked_sealer_update(st, ovl + 20, S, &got, ovl + S, C - 10), GALOIS_ERR_OVERLAP,
                 "update out overlaps in");
        memcpy(cp, st, sb);
        CHECK_RC(galois_chunked_sealer_update(cp, out, sizeof out, &got, big + 10, C - 10), GALOIS_ERR_STATE,
                 "update on a copy");
        memset(cp, 0, sb);
        CHECK_RC(galois_chunked_opener_update(st, out, sizeof out, &got, big + 10, C - 10), GALOIS_ERR_STATE,
                 "opener update on a sealer");
        CHECK_RC(galois_chunked_sealer_update(st, out, sizeof out, &got, big + 10, C - 10), GALOIS_OK,
                 "update after argument errors");
        CHECK(got == S, "the first chunk");
        size_t w = got;
        CHECK_RC(galois_chunked_sealer_final(st, out + w, 15, &got), GALOIS_ERR_BUFFER_TOO_SMALL, "final small out");
        CHECK(got == 16, "final needs 16 (an empty final chunk)");
        CHECK_RC(galois_chunked_sealer_final(st, out + w, sizeof out - w, &got), GALOIS_OK, "final");
        w += got;
        memset(out + w, 0x55, 64);
        CHECK_RC(galois_chunked_sealer_update(st, out + w, 64, &got, pt, 1), GALOIS_ERR_STATE, "update after final");
        CHECK(all_zero(out + w, 64), "update after final: out zeroed");
        CHECK_RC(galois_chunked_sealer_final(st, out + w, 64, &got), GALOIS_ERR_STATE, "final after final");
        CHECK_RC(galois_chunked_sealer_wipe(st), GALOIS_OK, "wipe after final");
        CHECK_RC(galois_chunked_sealer_update(st, out + w, 64, &got, pt, 1), GALOIS_ERR_STATE, "update after wipe");
        /* the message opens: header then chunks */
        uint8_t *msg = xmalloc(56 + w), back[16384];
        memcpy(msg, hdr, 56);
        memcpy(msg + 56, out, w);
        CHECK_RC(galois_chunked_open(back, C, &got, msg, 56 + w, NULL, 0, key, 16), GALOIS_OK, "open streamed");
        CHECK(got == C && !memcmp(back, big, C), "streamed content");
        /* opener: use after final, NULL, small out */
        uint8_t *os = mem + 7;
        CHECK_RC(galois_chunked_opener_init(os, NULL, 56, NULL, 0, key, 16), GALOIS_ERR_NULL_POINTER,
                 "opener init NULL header");
        CHECK_RC(galois_chunked_opener_init(os, msg, 56, NULL, 0, key, 16), GALOIS_OK, "opener init");
        CHECK_RC(galois_chunked_opener_update(os, out, C - 1, &got, msg + 56, S), GALOIS_ERR_BUFFER_TOO_SMALL,
                 "opener small out");
        CHECK(got == C, "opener: out_len = need");
        CHECK_RC(galois_chunked_opener_update(os, out, sizeof out, &got, msg + 56, S), GALOIS_OK, "opener update");
        CHECK_RC(galois_chunked_opener_final(os, NULL, 0, &got), GALOIS_ERR_AUTH, "opener final, nothing buffered");
        CHECK_RC(galois_chunked_opener_update(os, out, sizeof out, &got, msg + 56 + S, 16), GALOIS_ERR_AUTH,
                 "truncation sticks");
        CHECK_RC(galois_chunked_opener_init(os, msg, 56, NULL, 0, key, 16), GALOIS_OK, "opener re-init");
        CHECK_RC(galois_chunked_opener_update(os, out, sizeof out, &got, msg + 56, w), GALOIS_OK, "opener update all");
        CHECK_RC(galois_chunked_opener_final(os, NULL, 0, &got), GALOIS_OK, "opener final (empty chunk, NULL out)");
        CHECK(got == 0, "empty final chunk");
        CHECK_RC(galois_chunked_opener_final(os, out, sizeof out, &got), GALOIS_ERR_STATE, "opener final after final");
        CHECK_RC(galois_chunked_opener_update(os, out, sizeof out, &got, msg, 1), GALOIS_ERR_STATE,
                 "opener update after final");
        CHECK_RC(galois_chunked_sealer_wipe(os), GALOIS_ERR_STATE, "sealer wipe of an opener");
        CHECK_RC(galois_chunked_opener_wipe(os), GALOIS_OK, "opener wipe of wiped memory");
        free(msg), free(big), free(ovl), free(mem);
    }
}

/* A refused seal into a caller buffer, of every AEAD: the output must hold
 * no plaintext afterwards. The buffer is filled with the plaintext itself
 * before each call (as a seal that copied its input first would leave it),
 * and every byte of it is checked to be zero after each refused call. */

#define HOLE_PT 40
#define HOLE_CAP (HOLE_PT + 16)

static void hole_check(const char *aead, const char *what, int rc, int want,
                       const uint8_t *out, size_t n) {
    CHECK(rc == want, "%s %s: got %d, want %d", aead, what, rc, want);
    CHECK(all_zero(out, n), "%s %s: refused seal left bytes in the output", aead, what);
}

static void hole_oneshot(const char *aead, oneshot_fn seal, size_t nonce_ok, size_t key_ok) {
    uint8_t pt[HOLE_PT], out[HOLE_CAP], key[32], nonce[32];
    size_t n;
    rnd_fill(pt, sizeof pt);
    rnd_fill(key, sizeof key);
    rnd_fill(nonce, sizeof nonce);
    const struct { const char *what; size_t cap, nonce_len, key_len; int null_key, want; } c[] = {
        {"nonce 11 bytes", HOLE_CAP, 11, key_ok, 0, GALOIS_ERR_NONCE_LENGTH},
        {"nonce 13 bytes", HOLE_CAP, 13, key_ok, 0, GALOIS_ERR_NONCE_LENGTH},
        {"nonce one byte short", HOLE_CAP, nonce_ok - 1, key_ok, 0, GALOIS_ERR_NONCE_LENGTH},
        {"nonce one byte long", HOLE_CAP, nonce_ok + 1, key_ok, 0, GALOIS_ERR_NONCE_LENGTH},
        {"empty nonce", HOLE_CAP, 0, key_ok, 0, GALOIS_ERR_NONCE_LENGTH},
        {"output one byte short", HOLE_CAP - 1, nonce_ok, key_ok, 0, GALOIS_ERR_BUFFER_TOO_SMALL},
        {"output without the tag", HOLE_PT, nonce_ok, key_ok, 0, GALOIS_ERR_BUFFER_TOO_SMALL},
        {"key of 20 bytes", HOLE_CAP, nonce_ok, 20, 0, GALOIS_ERR_KEY_LENGTH},
        {"key one byte short", HOLE_CAP, nonce_ok, key_ok - 1, 0, GALOIS_ERR_KEY_LENGTH},
        {"NULL key", HOLE_CAP, nonce_ok, key_ok, 1, GALOIS_ERR_NULL_POINTER},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        if (c[i].nonce_len == nonce_ok && c[i].want == GALOIS_ERR_NONCE_LENGTH) continue;
        memcpy(out, pt, sizeof pt);
        memcpy(out + HOLE_PT, pt, HOLE_CAP - HOLE_PT);
        int rc = seal(out, c[i].cap, &n, pt, HOLE_PT, NULL, 0, nonce, c[i].nonce_len,
                      c[i].null_key ? NULL : key, c[i].key_len);
        hole_check(aead, c[i].what, rc, c[i].want, out, c[i].cap);
        /* in place: the message is the output */
        memcpy(out, pt, sizeof pt);
        rc = seal(out, c[i].cap, &n, out, HOLE_PT, NULL, 0, nonce, c[i].nonce_len,
                  c[i].null_key ? NULL : key, c[i].key_len);
        hole_check(aead, c[i].what, rc, c[i].want, out, c[i].cap);
    }
    /* the control: the same buffers with valid lengths seal */
    CHECK_RC(seal(out, HOLE_CAP, &n, pt, HOLE_PT, NULL, 0, nonce, nonce_ok, key, key_ok),
             GALOIS_OK, aead);
}

static void test_holes(void) {
    hole_oneshot("aes-gcm-siv", galois_aesgcmsiv_seal, 12, 16);
    hole_oneshot("aes-gcm-siv-256", galois_aesgcmsiv_seal, 12, 32);
    hole_oneshot("xaes-256-gcm", galois_xaes256gcm_seal, 24, 32);

    /* AES-GCM through a state with 8-byte tags (only 12-byte nonces then;
     * with 16-byte tags any nonce of 1 or more bytes is valid) */
#define HOLE_GCM (HOLE_PT + 8)
    uint8_t pt[HOLE_PT], out[HOLE_GCM], tag[8], key[16], nonce[16];
    size_t n, sb = galois_aesgcm_statebytes();
    void *st = xmalloc(sb);
    rnd_fill(pt, sizeof pt);
    rnd_fill(key, sizeof key);
    rnd_fill(nonce, sizeof nonce);
    CHECK_RC(galois_aesgcm_init_ex(st, key, sizeof key, 8, 0), GALOIS_OK, "hole aes-gcm init");
    const struct { const char *what; size_t cap, nonce_len; int want; } c[] = {
        {"nonce 11 bytes", HOLE_GCM, 11, GALOIS_ERR_NONCE_LENGTH},
        {"nonce 13 bytes", HOLE_GCM, 13, GALOIS_ERR_NONCE_LENGTH},
        {"empty nonce", HOLE_GCM, 0, GALOIS_ERR_NONCE_LENGTH},
        {"output one byte short", HOLE_GCM - 1, 12, GALOIS_ERR_BUFFER_TOO_SMALL},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        memcpy(out, pt, sizeof pt);
        memcpy(out + HOLE_PT, pt, HOLE_GCM - HOLE_PT);
        int rc = galois_aesgcm_seal(st, out, c[i].cap, &n, pt, HOLE_PT, NULL, 0, nonce, c[i].nonce_len);
        hole_check("aes-gcm", c[i].what, rc, c[i].want, out, c[i].cap);
        if (c[i].want != GALOIS_ERR_NONCE_LENGTH) continue;
        memcpy(out, pt, sizeof pt);
        memcpy(tag, pt, sizeof tag);
        rc = galois_aesgcm_seal_detached(st, out, tag, sizeof tag, pt, HOLE_PT, NULL, 0, nonce, c[i].nonce_len);
        hole_check("aes-gcm detached", c[i].what, rc, c[i].want, out, HOLE_PT);
        CHECK(all_zero(tag, sizeof tag), "aes-gcm detached %s: tag not zeroed", c[i].what);
    }
    memcpy(out, pt, sizeof pt);
    int rc = galois_aesgcm_seal(NULL, out, HOLE_GCM, &n, pt, HOLE_PT, NULL, 0, nonce, 12);
    hole_check("aes-gcm", "NULL state", rc, GALOIS_ERR_NULL_POINTER, out, HOLE_GCM);
    CHECK_RC(galois_aesgcm_seal(st, out, HOLE_GCM, &n, pt, HOLE_PT, NULL, 0, nonce, 12), GALOIS_OK,
             "hole aes-gcm control");
    galois_aesgcm_wipe(st);
    free(st);
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "all";
    int all = strcmp(what, "all") == 0, ran = 0;
    if (all || !strcmp(what, "vectors")) test_vectors(), ran = 1;
    if (all || !strcmp(what, "errors")) test_errors(), ran = 1;
    if (all || !strcmp(what, "roundtrip")) test_roundtrip(), ran = 1;
    if (all || !strcmp(what, "threads")) test_threads(), ran = 1;
    if (all || !strcmp(what, "state")) test_state(), ran = 1;
    if (all || !strcmp(what, "wipe")) test_wipe(), ran = 1;
    if (all || !strcmp(what, "shared")) test_shared(), ran = 1;
    if (all || !strcmp(what, "siv")) test_siv(), ran = 1;
    if (all || !strcmp(what, "holes")) test_holes(), ran = 1;
    if (all || !strcmp(what, "chunked")) test_chunked(), ran = 1;
    if (all || !strcmp(what, "cstream")) test_cstream(), ran = 1;
    if (!strcmp(what, "nomem")) test_nomem(), ran = 1;
#ifdef GALOIS_TEST_OPENSSL
    if (all || !strcmp(what, "openssl")) test_openssl(), ran = 1;
#else
    if (!strcmp(what, "openssl")) {
        fprintf(stderr, "built without OpenSSL\n");
        return 1;
    }
#endif
    if (!ran) {
        fprintf(stderr, "unknown test group %s\n", what);
        return 2;
    }
    printf("%s: %lu passed, %lu failed\n", what, passed, failed);
    return failed ? 1 : 0;
}
