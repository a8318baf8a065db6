"""C2SP chunked encryption ("Cobblestone"): files and streams in 16 KiB chunks.

Keys of 16 bytes give Cobblestone-128 (AES-128-GCM), 32 bytes Cobblestone-256
(AES-256-GCM); ``context`` (bytes, may be empty) binds the message to its use.
The 32-byte key commitment is checked before any chunk is opened.

>>> from galois_aead import chunked
>>> sealed = chunked.seal(bytes(16), b"ctx", b"hello")
>>> chunked.open(bytes(16), b"ctx", sealed)
b'hello'

- ``seal``/``open``: whole messages in memory (``open`` releases nothing unless
  every chunk and the final chunk verified).
- ``seal_stream(key, context, src, dst)``/``open_stream(...)``: file objects
  (``src.read(n)``, ``dst.write(b)``); ``open_stream`` writes each chunk only
  after it verified (on ``InvalidTag`` discard what was written).
- ``Opener(key, context, file)``: a read-only file over the plaintext, in order.
- ``Reader(key, context, file)``: random access (``read``, ``seek``, ``tell``)
  to a sealed message in a seekable file.

Both are ``io.RawIOBase`` objects: ``read``, ``readinto``, ``readline``,
iteration, ``with``, and ``io.BufferedReader(reader)`` work as on any raw
binary file. ``read(n)`` allocates in bounded steps as plaintext arrives,
never ``n`` bytes up front.

Both file classes release only verified chunks, and after ``InvalidTag`` every
call raises it again. Every authentication failure (wrong key or context, an
altered chunk, truncation, trailing data) is ``galois_aead.InvalidTag``.
"""

import io as _io
from typing import Any as _Any

from ._galois import ChunkedOpener as _Opener
from ._galois import ChunkedReader as _Reader
from ._galois import chunked_open as open
from ._galois import chunked_open_stream as open_stream
from ._galois import chunked_seal as seal
from ._galois import chunked_seal_stream as seal_stream



class _Raw(_io.RawIOBase):
    """A read-only raw binary file over the verified plaintext of a galois chunked file object."""

    def __init__(self, impl: _Any) -> None:
        super().__init__()
        self._f = impl

    def read(self, size=-1):
        """Up to ``size`` verified plaintext bytes (the rest for ``size < 0``)."""
        return self._f.read(-1 if size is None else size)

    def readall(self):
        """The rest of the verified plaintext."""
        return self._f.read(-1)

    def readinto(self, buffer):
        """Fills ``buffer`` with up to ``len(buffer)`` bytes; returns how many."""
        with memoryview(buffer) as view, view.cast("B") as out:
            data = self._f.read(len(out))
            out[: len(data)] = data
        return len(data)

    def readable(self):
        self._checkClosed()
        return True

    def close(self):
        """Wipes the plaintext held; later reads raise ValueError."""
        f = getattr(self, "_f", None)
        if f is not None:
            f.close()
        super().close()

    def __repr__(self):
        return f"galois_aead.chunked.{type(self).__name__}()"


class Opener(_Raw):
    """Opens a sealed message read from ``file`` (``read(n)``) in order: a
    chunk is released only after its tag verified, the end only after the
    final chunk verified; after an error every call raises it again."""

    def __init__(self, key, context, file):
        super().__init__(_Opener(key, context, file))


class Reader(_Raw):
    """Random access to a sealed message in a seekable ``file``: each chunk
    is verified before any of its bytes are returned; a seek relative to the
    end (and reading up to the end) first authenticates the final chunk."""

    def __init__(self, key, context, file):
        super().__init__(_Reader(key, context, file))

    def seekable(self):
        self._checkClosed()
        return True

    def seek(self, offset, whence=0):
        """Moves to ``offset`` from the start (0), the current position (1)
        or the end (2); returns the new position."""
        return self._f.seek(offset, whence)

    def tell(self):
        """The current plaintext position."""
        return self._f.tell()

    def length(self):
        """The plaintext length (authenticates the final chunk first)."""
        return self._f.length()


CHUNK_SIZE = 16384
OVERHEAD_HEADER = 56
TAG_SIZE = 16

__all__ = [
    "CHUNK_SIZE",
    "OVERHEAD_HEADER",
    "Opener",
    "Reader",
    "TAG_SIZE",
    "open",
    "open_stream",
    "seal",
    "seal_stream",
]
