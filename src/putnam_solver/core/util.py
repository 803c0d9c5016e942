"""Small helpers every layer shares: atomic writes, SHA-256 of bytes and files, the user-input error.

They sit here rather than in one of their users so that nothing imports ``benchmark`` or ``verify`` only
to write a file or hash one.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

__all__ = ["InputError", "sha256_file", "sha256_hex", "write_atomic"]


class InputError(Exception):
    """Bad input from the user (a file, a flag, a record): exit code 2, message says what to do."""


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_atomic(target: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``target`` so that readers see the old file or the new one, never a part.

    ``durable`` also syncs the data to disk before the rename; files that can be rebuilt from a
    durable source (evidence folders derived from the ledger) skip that cost.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
