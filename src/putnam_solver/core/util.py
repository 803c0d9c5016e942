"""Small helpers every layer shares: SHA-256 of bytes and files, the user-input error, where a JSON error is.

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
    "json_error",
    "path_variable",
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


def json_error(where: str, exc: json.JSONDecodeError, line: int | None = None) -> str:
    """``FILE line L column C: what is wrong`` for a JSON error; ``line`` overrides the error's own
    (for JSON Lines, where each line is parsed alone)."""
    message = exc.msg
    if message.endswith(" at"):  # "Unterminated string starting at": the position follows in the message
        message = message.removesuffix(" at") + " here"
    return f"{where} line {exc.lineno if line is None else line} column {exc.colno}: {message}"


def path_variable(name: str) -> Path | None:
    """The path the environment variable ``name`` gives (``~`` expanded), None when unset or empty.

    Raises InputError for a relative one: it names a place under whatever directory putnam runs in, often a
    folder of someone else's proofs or a run directory handed over, whose own verdict cache, toolchain or
    tool would then judge its proofs (trust paths red team 19; the same reason ``PATH``'s relative entries
    are not searched, ``gatekit.absolute_path_entries``)."""
    value = os.environ.get(name)
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_absolute():
        raise InputError(
            f"{name}={value} is a relative path, which would name a place under the working directory; "
            f"set {name} to an absolute path"
        )
    return path
