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

Both file classes release only verified chunks, and after ``InvalidTag`` every
call raises it again. Every authentication failure (wrong key or context, an
altered chunk, truncation, trailing data) is ``galois_aead.InvalidTag``.
"""

from ._galois import ChunkedOpener as Opener
from ._galois import ChunkedReader as Reader
from ._galois import chunked_open as open
from ._galois import chunked_open_stream as open_stream
from ._galois import chunked_seal as seal
from ._galois import chunked_seal_stream as seal_stream

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
