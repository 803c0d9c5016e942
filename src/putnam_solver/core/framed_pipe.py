"""Whole pickled messages over a pipe: what the gate worker and the harness say to each other.

``multiprocessing.connection`` does the same but loads the socket module with it, which the trusted
package does not import; this is its small subset for a pipe: a message is its length (8 bytes, big
endian) and its pickle. A short read is the other end gone (``EOFError``), never half a message.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
from typing import Any, Final

_LENGTH: Final = struct.Struct(">Q")


class FramedPipe:
    """One end of a pipe (a file descriptor this object owns and closes)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, message: Any) -> None:
        """Write ``message``'s pickle as one frame (pickling errors are raised before anything is written)."""
        data = pickle.dumps(message)
        view = memoryview(_LENGTH.pack(len(data)) + data)
        while view:
            view = view[os.write(self.fd, view) :]

    def poll(self, seconds: float) -> bool:
        """Whether something can be read within ``seconds`` (a message, or the end of the pipe).

        ``poll(2)``, not ``select(2)``: a server holding a thousand connections gives the worker's pipe a
        descriptor above ``FD_SETSIZE`` (1024), which ``select`` refuses, and every verification failed."""
        waiter = select.poll()
        waiter.register(self.fd, select.POLLIN)
        return bool(waiter.poll(max(0.0, seconds) * 1000))

    def recv(self) -> Any:
        """The next message; EOFError when the other end closed before a whole frame arrived."""
        (length,) = _LENGTH.unpack(self._read(_LENGTH.size))
        return pickle.loads(self._read(length))

    def _read(self, size: int) -> bytes:
        chunks: list[bytes] = []
        while size:
            chunk = os.read(self.fd, min(size, 1 << 20))
            if not chunk:
                raise EOFError("the pipe closed mid-message")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
