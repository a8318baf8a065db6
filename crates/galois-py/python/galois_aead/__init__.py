"""galois: AES-GCM, GMAC and Poly1305-AES over Galois fields, implemented in Rust.

``galois_aead.AESGCM`` has the call shapes of
``cryptography.hazmat.primitives.ciphers.aead.AESGCM``:

>>> import galois_aead
>>> key = galois_aead.AESGCM.generate_key(256)
>>> aead = galois_aead.AESGCM(key)
>>> nonce = bytes(12)          # never reuse a nonce with the same key
>>> ct = aead.encrypt(nonce, b"attack at dawn", b"header")
>>> aead.decrypt(nonce, ct, b"header")
b'attack at dawn'

``AESGCMSIV`` (AES-GCM-SIV, RFC 8452: 12-byte nonces, nonce-misuse resistant)
and ``XAES256GCM`` (XAES-256-GCM: 32-byte keys, 24-byte nonces that may be
random) have the same call shapes (``generate_key(bit_length)``, ``encrypt``,
``decrypt``, ``encrypt_into``, ``decrypt_into``):

>>> siv = galois_aead.AESGCMSIV(galois_aead.AESGCMSIV.generate_key(128))
>>> siv.decrypt(nonce, siv.encrypt(nonce, b"m", None), None)
b'm'
>>> x = galois_aead.XAES256GCM(galois_aead.XAES256GCM.generate_key(256))
>>> x.decrypt(bytes(24), x.encrypt(bytes(24), b"m", b"h"), b"h")
b'm'

``galois_aead.chunked`` seals and opens files in C2SP chunked form.

A tag that does not verify raises ``galois_aead.InvalidTag`` (a MAC's:
``InvalidSignature``); when ``cryptography`` is importable these subclass
``cryptography.exceptions.InvalidTag``/``InvalidSignature``, so code written for
cryptography catches them. Nonces are 8..128 bytes as in cryptography
(``any_nonce_length=True`` allows the rest). Every function takes ``bytes``,
``bytearray``, ``memoryview`` or any contiguous buffer of unsigned bytes;
non-contiguous buffers raise ``BufferError``, other types ``TypeError`` and wrong
sizes ``ValueError``. Inputs of ``GIL_RELEASE_BYTES`` (4 KiB) or more are
processed with the GIL released.
"""

from ._galois import (
    AESGCM,
    AESGCMSIV,
    AlreadyFinalized,
    AlreadyUpdated,
    GCMDecryptor,
    GCMEncryptor,
    GIL_RELEASE_BYTES,
    GMAC,
    InvalidSignature,
    InvalidTag,
    NotYetFinalized,
    Poly1305,
    Poly1305AES,
    XAES256GCM,
    __version__,
)

__all__ = [
    "AESGCM",
    "AESGCMSIV",
    "AlreadyFinalized",
    "AlreadyUpdated",
    "GCMDecryptor",
    "GCMEncryptor",
    "GIL_RELEASE_BYTES",
    "GMAC",
    "InvalidSignature",
    "InvalidTag",
    "NotYetFinalized",
    "Poly1305",
    "Poly1305AES",
    "XAES256GCM",
    "__version__",
]
