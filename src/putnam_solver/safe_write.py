"""Writing files under a directory that someone else may have prepared (a run directory handed over).

A name under the target must not lead elsewhere: not by ``..`` or an absolute part, and not by a link
planted in its place (``attempts/campaign-1`` -> ``/home/you``). ``write_under`` therefore refuses such
names and writes with the trusted package's ``write_below`` (the verdict cache's writer), which opens every
directory on the way relative to its parent's descriptor with ``O_NOFOLLOW`` (creating it when missing),
writes a fresh temporary file in the last one (``O_EXCL | O_NOFOLLOW``) and renames it over the name: a
rename replaces a link, never follows it. The file lies under the target's directory, whatever the
directory holds, and no check can be raced between a test and the use.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path, PurePath

from putnam_solver.core.safe_files import UnsafeFile, read_regular_file, write_below
from putnam_solver.core.util import InputError
from putnam_solver.directories import check_creatable

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def check_output_file(path: Path, option: str, example: str = "verdicts.json") -> None:
    """Refuse, before any work starts, an output path that cannot become a file: a directory, a path
    under a file, a directory that cannot be written. Missing parent directories are fine (created)."""
    if path.is_dir():
        raise InputError(f"{path}: {option} names a directory; give a file path, e.g. {path / example}")
    if path.exists() and not path.is_file():
        raise InputError(f"{path}: {option} names something that is not a regular file; give a file path")
    check_creatable(path.parent, f"{option} {path}")


class UnsafePath(OSError):
    """A name that would leave its target directory, or a link or non-directory where a directory must be."""

    def __str__(self) -> str:  # the message names the path; an errno number tells a user nothing
        return self.strerror or super().__str__()


RUN_OUTPUT_FIX = (
    "putnam writes the run's outputs there and follows no link: remove it (every output is rebuilt from the "
    "ledger) and run this command again"
)
"""What to do about an ``UnsafePath`` planted in a run directory, for every command that writes its outputs."""


def planted_link_refusal(exc: UnsafePath) -> str:
    """What every command that writes into a run directory says of a link planted there: where it lies (and
    what it stands for, as the writer named it) and what to do."""
    return f"{exc}; {RUN_OUTPUT_FIX}"


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
    """Write ``data`` to ``root/relative`` atomically, proven to lie under ``root`` (module doc; the trusted
    package's ``write_below`` does the writing); returns the path. ``durable`` syncs the data before the
    rename. Raises UnsafePath for a name or a link that would lead elsewhere, OSError for the rest."""
    parts = parts_of(relative)
    try:
        write_below(root, PurePath(*parts), data, 0o666 & ~_umask(), durable)
    except UnsafeFile as exc:
        raise UnsafePath(errno.ELOOP, str(exc)) from exc
    return root.joinpath(*parts)


def holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) holding exactly ``data``, read no further than
    ``len(data)`` bytes: a file of a run directory handed over may be a sparse terabyte (``truncate -s 1T``),
    whose whole read, to compare it with what would be written there, ended ``putnam report`` and
    ``putnam audit`` in a MemoryError (red team round 5), or a link to a file of the reader's."""
    try:
        return read_regular_file(path, len(data)) == data
    except (OSError, UnsafeFile):
        return False


def write_atomic(target: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``target`` so that readers see the old file or the new one, never a part.

    ``durable`` also syncs the data to disk before the rename; files that can be rebuilt from a
    durable source (evidence folders derived from the ledger) skip that cost.
    """
    write_under(target.parent, target.name, data, durable)


def _umask() -> int:
    """The process's umask, read without changing it where Linux says it (``os.umask`` can only be read
    by setting it, which would race with threads creating files meanwhile)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current
