"""The sandbox's files: the fresh workspace the harness builds, what it binds in, what it takes back."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath

from putnam_solver.core.sandbox.host import Identity


def fresh_copy(files: Mapping[str, bytes], into: Path) -> Path:
    """Write ``files`` into a new, empty directory created inside ``into`` and return that directory.

    Names must be relative POSIX paths without ``..``: the workspace is built by the harness from the
    candidate's bytes, never by copying a directory the agent could have filled with links.
    """
    into.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="ws-", dir=into))
    for name, data in files.items():
        rel = PurePosixPath(name)
        if not name or rel.is_absolute() or ".." in rel.parts or rel == PurePosixPath("."):
            raise ValueError(f"workspace file name {name!r} must be a relative path without '..'")
        target = root.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o644)
    for directory in (root, *(d for d in root.rglob("*") if d.is_dir())):
        directory.chmod(0o755)  # the sandbox uid must read it; the private directories above keep others out
    return root


def bound_inputs(workdir: Path) -> tuple[str, ...]:
    """The entries of ``workdir`` to bind read-only; a link could point the bind anywhere on the host."""
    names = []
    for entry in os.scandir(workdir):
        if not (entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False)):
            raise ValueError(
                f"{entry.path} is a link or special file: the sandbox binds only the regular files and "
                "directories the harness wrote into the workdir (build it with fresh_copy)"
            )
        names.append(entry.name)
    return tuple(sorted(names))


def precreate(workdir: Path, name: str, inputs: tuple[str, ...], identity: Identity) -> None:
    """Create the empty host file that will receive output ``name``, writable by the sandbox uid only."""
    rel = PurePosixPath(name)
    if not name or rel.is_absolute() or ".." in rel.parts or rel == PurePosixPath(".") or rel.parts[0] in inputs:
        raise ValueError(
            f"output {name!r} must be a relative path without '..' that does not overwrite a file the "
            f"harness put in {workdir}"
        )
    target = workdir.joinpath(*rel.parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        if identity.drop:
            os.fchown(fd, identity.uid, identity.gid)
    finally:
        os.close(fd)


def drop_unproduced(workdir: Path, outputs: tuple[str, ...]) -> None:
    """Remove the outputs the tool did not leave (still empty), so that callers can test for existence."""
    for name in outputs:
        target = workdir / name
        with contextlib.suppress(FileNotFoundError):
            info = os.lstat(target)
            if stat.S_ISREG(info.st_mode) and info.st_size == 0:
                target.unlink()


def checked_dir(path: Path) -> Path:
    resolved = Path(path).resolve()
    if not resolved.is_dir():
        raise ValueError(f"workdir {str(path)!r} must be an existing directory")
    if resolved == Path("/"):
        raise ValueError("workdir must not be the filesystem root")
    return resolved


def checked_path(path: Path) -> Path:
    resolved = Path(path).resolve()
    if not resolved.exists():
        raise ValueError(f"readonly path {str(path)!r} does not exist")
    return resolved


def resolve_command(argv: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """Resolve a bare ``argv[0]`` on the sandbox's PATH now, so a missing tool is a clear error."""
    if not argv:
        raise ValueError("argv is empty")
    if "/" in argv[0]:
        return list(argv)
    found = shutil.which(argv[0], path=env["PATH"])
    if found is None:
        raise FileNotFoundError(f"{argv[0]!r} not found on the sandbox PATH {env['PATH']!r}")
    return [found, *argv[1:]]
