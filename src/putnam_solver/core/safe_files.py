"""Read files that untrusted code could have written, without trusting what they are.

A sandboxed compiler or an agent leaves files behind for the harness to read: a compiled ``.vo`` or
``.olean``, the proof file an agent edited. Whoever wrote them may have replaced them with a symbolic
link (to a host secret, to ``/proc/self/environ``, to ``/proc/self/pagemap``), a FIFO (the harness
would block forever), a device, or a file of many gigabytes. So a file is opened without following a
link in its last component and without blocking, checked to be a regular file, and read only up to a
cap; anything else is an ``UnsafeFile`` error that names the path and what was found there.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path, PurePath

__all__ = ["UnsafeFile", "copy_regular_file", "read_regular_file", "write_below"]

_CHUNK = 1 << 20


class UnsafeFile(Exception):
    """The path is not a regular file of acceptable size (or cannot be opened as one)."""


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_regular_file(path: Path, max_bytes: int, own: bool = False) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link) of at most ``max_bytes`` bytes; with
    ``own``, also owned by this user and writable by no one else (a cache entry another account could
    have written is not ours).

    ``O_NOFOLLOW`` refuses a link in the last component, ``O_NONBLOCK`` keeps a FIFO from blocking the
    open, and the type and size are checked on the opened descriptor, so a swap between check and
    read changes nothing. Reading stops one byte past the cap, so a file that grows while it is read
    is refused as well.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            raise UnsafeFile(f"{path}: cannot open: {exc.strerror}") from exc
        raise UnsafeFile(f"{path}: refused to read {_kind(mode)}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"{path}: refused to read {_kind(info.st_mode)}")
        if own and (info.st_uid != os.geteuid() or info.st_mode & 0o022):
            raise UnsafeFile(f"{path}: not this user's own file (owner {info.st_uid}, mode {info.st_mode & 0o7777:o})")
        if info.st_size > max_bytes:
            raise UnsafeFile(f"{path}: {info.st_size} bytes, more than the cap of {max_bytes}")
        parts: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(_CHUNK, max_bytes + 1 - total)):
            parts.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise UnsafeFile(f"{path}: grew past the cap of {max_bytes} bytes while being read")
        return b"".join(parts)
    finally:
        os.close(fd)


def copy_regular_file(source: Path, target: Path, max_bytes: int) -> bytes:
    """Copy ``source`` (checked as ``read_regular_file`` does) to a new file ``target``; return the bytes.

    ``target`` is created exclusively, so an existing link or file there is never written through.
    """
    data = read_regular_file(source, max_bytes)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return data


_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


def write_below(base: Path, relative: PurePath, data: bytes, mode: int, durable: bool = True) -> None:
    """Write ``data`` at ``base / relative`` so that readers see the old file or the new one (``durable``
    also syncs it to disk before the rename), following no link below ``base``: each folder is opened with
    ``O_NOFOLLOW`` (made when missing), the temporary file is created there and renamed within it
    (an atomic write of one file is this with the file's own folder as ``base``). A cache directory may be shared
    (``PUTNAM_CACHE_DIR``), and another account that can write it can make an entry's folder a link to any
    folder of this user's, into which a plain write would put the file. Raises UnsafeFile for such a folder, or one that
    cannot be opened (nothing is written), OSError when the write fails."""
    base.mkdir(parents=True, exist_ok=True)
    *folders, name = relative.parts
    fd = os.open(base, _FOLDER)
    try:
        for folder in folders:
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, dir_fd=fd)
            try:
                inner = os.open(folder, _FOLDER | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise UnsafeFile(f"{base}: {folder!r} is a link or not a directory; not followed") from exc
                raise UnsafeFile(f"{base}: {folder!r} cannot be opened ({exc.strerror}); nothing is written") from exc
            os.close(fd)
            fd = inner
        temporary = f".{name[:200]}.{secrets.token_hex(8)}"  # within NAME_MAX however long the name
        out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=fd)
        try:
            with os.fdopen(out, "wb") as handle:
                os.fchmod(handle.fileno(), mode)
                handle.write(data)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=fd)
            raise
    finally:
        os.close(fd)
