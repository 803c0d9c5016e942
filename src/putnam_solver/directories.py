"""Checks of the directories the harness writes (a cache, a run, a bundle), made before any work starts,
so that a setting naming a file or an unwritable place is the user's input error, said at once, rather
than a failure after an hour of work. None of them decides a verdict: the verdict cache only misses
where it cannot write (``core.cache``)."""

from __future__ import annotations

import os
from pathlib import Path

from putnam_solver.core.cache import CACHE_DIR_VARIABLE, default_cache_dir
from putnam_solver.core.util import InputError


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


def check_cache_dir(directory: Path) -> None:
    """Refuse, before any work starts, a cache directory that cannot be one (``PUTNAM_CACHE_DIR`` naming
    a file, say), naming the setting it came from."""
    if os.environ.get(CACHE_DIR_VARIABLE):
        check_directory(directory, CACHE_DIR_VARIABLE, "unset it to use the per-user cache directory")
    else:
        check_directory(directory, "the per-user cache directory")


def checked_cache_dir() -> Path:
    """The verdict cache's directory (``core.cache.default_cache_dir``), refused as ``check_cache_dir``
    says when it cannot be one."""
    directory = default_cache_dir()
    check_cache_dir(directory)
    return directory
