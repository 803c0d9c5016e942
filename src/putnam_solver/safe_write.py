"""Writing files under a directory that someone else may have prepared (a run directory handed over).

A name under the target must not lead elsewhere: not by ``..`` or an absolute part, and not by a link
planted in its place (``attempts/campaign-1`` -> ``/home/you``). ``write_under`` therefore opens every
directory on the way relative to its parent's descriptor with ``O_NOFOLLOW`` (creating it when missing),
writes a fresh temporary file in the last one (``O_EXCL | O_NOFOLLOW``) and renames it over the name: a
rename replaces a link, never follows it. The file lies under the target's directory, whatever the
directory holds, and no check can be raced between a test and the use.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterator
from pathlib import Path, PurePath

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class UnsafePath(OSError):
    """A name that would leave its target directory, or a link or non-directory where a directory must be."""


def parts_of(relative: str | PurePath) -> tuple[str, ...]:
    """The components of ``relative``, each a plain name (never empty, ``.``, ``..``, absolute or with NUL)."""
    path = PurePath(relative)
    if path.is_absolute() or not path.parts:
        raise UnsafePath(errno.EINVAL, f"{relative!s}: not a relative path")
    for part in path.parts:
        if part in ("", ".", "..") or "/" in part or "\0" in part:
            raise UnsafePath(errno.EINVAL, f"{relative!s}: {part!r} would leave the target directory")
    return path.parts


@contextlib.contextmanager
def _directory(root: Path, parts: tuple[str, ...]) -> Iterator[int]:
    """A descriptor of ``root/parts...``, each part opened without following a link (made if missing)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the target itself, as the user named it
    try:
        for part in parts:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o777, dir_fd=fd)
            try:
                inner = os.open(part, _DIRECTORY, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise UnsafePath(exc.errno, f"{root}: {part!r} is a link or not a directory; not followed") from exc
                raise
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def directory_under(root: Path, relative: str | PurePath) -> Path:
    """``root/relative`` as a real directory, made if missing and proven to lie under ``root`` (no part a
    link): for a directory another writer fills by name afterwards (Inspect's transcripts)."""
    parts = parts_of(relative)
    root.mkdir(parents=True, exist_ok=True)
    with _directory(root, parts):
        return root.joinpath(*parts)


def write_under(root: Path, relative: str | PurePath, data: bytes, durable: bool = False) -> Path:
    """Write ``data`` to ``root/relative`` atomically, proven to lie under ``root`` (module doc); returns the
    path. ``durable`` syncs the data before the rename. Raises UnsafePath for a name or a link that would
    lead elsewhere, OSError for the rest."""
    parts = parts_of(relative)
    root.mkdir(parents=True, exist_ok=True)
    with _directory(root, parts[:-1]) as fd:
        temporary = f".{parts[-1][:200]}.{secrets.token_hex(6)}"
        out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=fd)
        try:
            with os.fdopen(out, "wb") as handle:
                handle.write(data)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(temporary, parts[-1], src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=fd)
            raise
    return root.joinpath(*parts)
