"""Type stubs of the galois_aead._galois extension module (re-exported by galois)."""

from typing import Any, Optional, final

from typing_extensions import Buffer, Self

__all__ = [
    "ChunkedOpener",
    "ChunkedReader",
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
    "chunked_open",
    "chunked_open_stream",
    "chunked_seal",
    "chunked_seal_stream",
]

__version__: str
GIL_RELEASE_BYTES: int

# At run time each class also subclasses cryptography.exceptions.<same name>
# when cryptography is importable.
class InvalidTag(Exception):
    """The AEAD tag did not verify. No plaintext is released."""

class InvalidSignature(Exception):
    """A MAC tag (GMAC, Poly1305-AES, Poly1305) did not verify."""

class AlreadyFinalized(Exception):
    """The context was already finalized."""

class NotYetFinalized(Exception):
    """The tag is read before the encryption was finalized."""

class AlreadyUpdated(Exception):
    """Associated data given after data."""

class _OneShot:
    """The one-shot calls of every AEAD class here (a typing base of the stub
    only; at run time each class stands alone). The tag length: AESGCM's
    ``tag_length``, else 16 bytes."""

    def encrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns ciphertext || tag."""
    def decrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns the plaintext; raises InvalidTag if the tag does not verify."""
    def encrypt_into(
        self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer
    ) -> int:
        """Writes ciphertext || tag into ``buf`` (exactly len(data) + tag length bytes)."""
    def decrypt_into(
        self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer
    ) -> int:
        """Writes the plaintext into ``buf`` (exactly len(data) - tag length bytes)."""

class _Stream:
    """What the on-line encryption and decryption contexts share (typing only)."""

    def authenticate_additional_data(self, data: Buffer) -> None: ...
    def update(self, data: Buffer) -> bytes: ...
    def update_into(self, data: Buffer, buf: Buffer) -> int: ...

class _NonceMac:
    """What GMAC and Poly1305AES share (typing only)."""

    def authenticate(self, nonce: Buffer, data: Buffer) -> bytes: ...
    def verify(self, nonce: Buffer, data: Buffer, tag: Buffer) -> None:
        """Returns None, or raises InvalidSignature."""

class _GcmOptions:
    """The constructor and tag length of AESGCM and GMAC (typing only)."""

    def __new__(
        cls,
        key: Buffer,
        *,
        tag_length: int = 16,
        permissive: bool = False,
        any_nonce_length: bool = False,
    ) -> Self: ...
    @property
    def tag_length(self) -> int: ...

@final
class AESGCM(_OneShot, _GcmOptions):
    """AES-GCM with the call shapes of cryptography's ``AESGCM``.

    ``key``: 16, 24 or 32 bytes. ``tag_length``: 16 (default), 12..15, 8 or 4
    (short tags take 12-byte nonces only); ``permissive=True`` allows any tag
    length 4..16 with any nonce length (interoperability tests only).
    Nonces: 8..128 bytes as in cryptography; ``any_nonce_length=True`` allows
    any length from 1 byte.
    """

    @staticmethod
    def generate_key(bit_length: Optional[int] = None) -> bytes:
        """A random key of 128, 192 or 256 bits (``bit_length`` is required)."""
    def encryptor(self, nonce: Buffer) -> GCMEncryptor:
        """An on-line encryption: AAD, then data in pieces, then the tag."""
    def decryptor(self, nonce: Buffer, tag: Optional[Buffer] = None) -> GCMDecryptor:
        """An on-line decryption that releases nothing before the tag verifies."""

@final
class GCMEncryptor(_Stream):
    def finalize(self) -> bytes:
        """Returns b""; the tag is then ``tag``."""
    @property
    def tag(self) -> bytes: ...

@final
class GCMDecryptor(_Stream):
    """update() returns b"": the whole plaintext comes from finalize*()."""

    def finalize(self) -> bytes:
        """Returns the whole plaintext, or raises InvalidTag."""
    def finalize_with_tag(self, tag: Buffer) -> bytes:
        """Returns the whole plaintext, or raises InvalidTag."""

@final
class GMAC(_NonceMac, _GcmOptions):
    """AES-GMAC: GCM authenticating data without encrypting it."""

    @staticmethod
    def generate_key(bit_length: int) -> bytes: ...

@final
class Poly1305AES(_NonceMac):
    """Poly1305-AES: 32-byte key k || r (r clamped), 16-byte nonces and tags."""

    def __new__(cls, key: Buffer) -> Self: ...
    @staticmethod
    def generate_key() -> bytes: ...

@final
class Poly1305:
    """The one-time Poly1305 of RFC 8439 (key r || s), with cryptography's API."""

    def __new__(cls, key: Buffer) -> Self: ...
    def update(self, data: Buffer) -> None: ...
    def finalize(self) -> bytes: ...
    def verify(self, tag: Buffer) -> None:
        """Returns None, or raises InvalidSignature."""
    @staticmethod
    def generate_tag(key: Buffer, data: Buffer) -> bytes: ...
    @staticmethod
    def verify_tag(key: Buffer, data: Buffer, tag: Buffer) -> None: ...

@final
class AESGCMSIV(_OneShot):
    """AES-GCM-SIV (RFC 8452) with the call shapes and errors of cryptography's
    ``AESGCMSIV``: 16-, 24- or 32-byte keys, 12-byte nonces, 16-byte tags."""

    def __new__(cls, key: Buffer) -> Self: ...
    @staticmethod
    def generate_key(bit_length: Optional[int] = None) -> bytes:
        """A random key of 128, 192 or 256 bits (``bit_length`` is required)."""

@final
class XAES256GCM(_OneShot):
    """XAES-256-GCM (c2sp.org/XAES-256-GCM): 32-byte keys, 24-byte nonces that
    may be random for about 2^80 messages per key, 16-byte tags."""

    def __new__(cls, key: Buffer) -> Self: ...
    @staticmethod
    def generate_key(bit_length: Optional[int] = None) -> bytes:
        """A random 32-byte key (``bit_length``: 256, or None)."""

def chunked_seal(key: Buffer, context: Buffer, data: Buffer) -> bytes: ...
def chunked_open(key: Buffer, context: Buffer, data: Buffer) -> bytes: ...
def chunked_seal_stream(key: Buffer, context: Buffer, src: Any, dst: Any) -> int: ...
def chunked_open_stream(key: Buffer, context: Buffer, src: Any, dst: Any) -> int: ...

@final
class ChunkedReader:
    """Random access to a sealed message in a seekable file object."""

    def __new__(cls, key: Buffer, context: Buffer, file: Any) -> Self: ...
    def read(self, n: int = -1) -> bytes: ...
    def seek(self, offset: int, whence: int = 0) -> int: ...
    def tell(self) -> int: ...
    def length(self) -> int: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...

@final
class ChunkedOpener:
    """A sealed message from a file object, opened in order (verified bytes only)."""

    def __new__(cls, key: Buffer, context: Buffer, file: Any) -> Self: ...
    def read(self, n: int = -1) -> bytes: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
