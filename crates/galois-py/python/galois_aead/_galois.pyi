"""Type stubs of the galois_aead._galois extension module (re-exported by galois)."""

from typing import Optional, final

from typing_extensions import Buffer, Self

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

__version__: str
GIL_RELEASE_BYTES: int

class InvalidTag(Exception):
    """The tag did not verify. No plaintext is released."""

@final
class AESGCM:
    """AES-GCM with the call shapes of cryptography's ``AESGCM``.

    ``key``: 16, 24 or 32 bytes. ``tag_length``: 16 (default), 12..15, 8 or 4
    (short tags take 12-byte nonces only); ``permissive=True`` allows any tag
    length 4..16 with any nonce length (interoperability tests only).
    """

    def __new__(cls, key: Buffer, *, tag_length: int = 16, permissive: bool = False) -> Self: ...
    @staticmethod
    def generate_key(bit_length: int) -> bytes:
        """A random key of 128, 192 or 256 bits."""
    @property
    def tag_length(self) -> int: ...
    def encrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns ciphertext || tag."""
    def decrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]) -> bytes:
        """Returns the plaintext; raises InvalidTag if the tag does not verify."""
    def encrypt_into(
        self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer
    ) -> int:
        """Writes ciphertext || tag into ``buf`` (exactly len(data) + tag_length bytes)."""
    def decrypt_into(
        self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer], buf: Buffer
    ) -> int:
        """Writes the plaintext into ``buf`` (exactly len(data) - tag_length bytes)."""
    def encryptor(self, nonce: Buffer) -> GCMEncryptor:
        """An on-line encryption: AAD, then data in pieces, then the tag."""
    def decryptor(self, nonce: Buffer) -> GCMDecryptor:
        """An on-line decryption that releases nothing before the tag verifies."""

@final
class GCMEncryptor:
    def authenticate_additional_data(self, data: Buffer) -> None: ...
    def update(self, data: Buffer) -> bytes: ...
    def finalize(self) -> bytes:
        """Returns the tag."""

@final
class GCMDecryptor:
    def authenticate_additional_data(self, data: Buffer) -> None: ...
    def update(self, data: Buffer) -> None: ...
    def finalize(self, tag: Buffer) -> bytes:
        """Returns the whole plaintext, or raises InvalidTag."""

@final
class GMAC:
    """AES-GMAC: GCM authenticating data without encrypting it."""

    def __new__(cls, key: Buffer, *, tag_length: int = 16, permissive: bool = False) -> Self: ...
    @staticmethod
    def generate_key(bit_length: int) -> bytes: ...
    @property
    def tag_length(self) -> int: ...
    def authenticate(self, nonce: Buffer, data: Buffer) -> bytes: ...
    def verify(self, nonce: Buffer, data: Buffer, tag: Buffer) -> None:
        """Returns None, or raises InvalidTag."""

@final
class Poly1305AES:
    """Poly1305-AES: 32-byte key k || r (r clamped), 16-byte nonces and tags."""

    def __new__(cls, key: Buffer) -> Self: ...
    @staticmethod
    def generate_key() -> bytes: ...
    def authenticate(self, nonce: Buffer, data: Buffer) -> bytes: ...
    def verify(self, nonce: Buffer, data: Buffer, tag: Buffer) -> None:
        """Returns None, or raises InvalidTag."""

@final
class Poly1305:
    """The one-time Poly1305 of RFC 8439 (key r || s), with cryptography's API."""

    def __new__(cls, key: Buffer) -> Self: ...
    def update(self, data: Buffer) -> None: ...
    def finalize(self) -> bytes: ...
    def verify(self, tag: Buffer) -> None:
        """Returns None, or raises InvalidTag."""
    @staticmethod
    def generate_tag(key: Buffer, data: Buffer) -> bytes: ...
    @staticmethod
    def verify_tag(key: Buffer, data: Buffer, tag: Buffer) -> None: ...
