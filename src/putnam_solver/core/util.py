"""Small helpers every layer shares: SHA-256 of bytes and files, the user-input error, checks of the
directories the harness writes.

They sit here rather than in one of their users so that nothing imports ``benchmark`` or ``verify`` only
to hash a file or report bad input.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

__all__ = [
    "InputError",
    "check_creatable",
    "check_directory",
    "json_error",
    "sha256_file",
    "sha256_hex",
]


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


def check_directory(path: Path, origin: str, alternative: str = "") -> None:
    """Refuse, before any work starts, a directory setting (``origin`` names it, e.g. PUTNAM_CACHE_DIR)
    that names a file or cannot be created or written; ``alternative`` is another way out (``unset it``)."""
    if path.exists() and not path.is_dir():
        other = f", or {alternative}" if alternative else ""
        raise InputError(
            f"{path}: {origin} names a file, not a directory; point it at a directory (created if missing){other}"
        )
    check_creatable(path, origin)


def check_creatable(directory: Path, what: str) -> None:
    existing = directory
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise InputError(f"{existing}: a file, so {what} cannot be created under it; choose another path")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"{existing}: not writable, so {what} cannot be written; choose another path")


def json_error(where: str, exc: json.JSONDecodeError, line: int | None = None) -> str:
    """``FILE line L column C: what is wrong`` for a JSON error; ``line`` overrides the error's own
    (for JSON Lines, where each line is parsed alone)."""
    message = exc.msg
    if message.endswith(" at"):  # "Unterminated string starting at": the position follows in the message
        message = message.removesuffix(" at") + " here"
    return f"{where} line {exc.lineno if line is None else line} column {exc.colno}: {message}"
