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

A tag that does not verify raises ``galois_aead.InvalidTag``. Every function takes
``bytes``, ``bytearray``, ``memoryview`` or any C-contiguous buffer; wrong
types raise ``TypeError`` and wrong sizes ``ValueError``. Inputs of
``GIL_RELEASE_BYTES`` (4 KiB) or more are processed with the GIL released.
"""

from ._galois import (
    AESGCM,
    GCMDecryptor,
    GCMEncryptor,
    GIL_RELEASE_BYTES,
    GMAC,
    InvalidTag,
    Poly1305,
    Poly1305AES,
    __version__,
)

__all__ = [
    "AESGCM",
    "GCMDecryptor",
    "GCMEncryptor",
    "GIL_RELEASE_BYTES",
    "GMAC",
    "InvalidTag",
    "Poly1305",
    "Poly1305AES",
    "__version__",
]
