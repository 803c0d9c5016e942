"""A proof bundle's bytes: written as a directory or a ``.tar.gz``, read back with every bound held.

Reading is where a bundle from someone else meets our machine, so it never extracts: an archive is
streamed member by member and a directory walked without following links; names that lead out of the
bundle (``/...``, ``..``), links, devices and duplicates are refused, and the count of files, each file and
the inflated total are capped (so a gzip bomb stops at the cap).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import tarfile
import tempfile
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.safe_write import write_under
from putnam_solver.terminal import shown_path

MAX_FILES = 10_000
MAX_FILE_BYTES = 32 << 20
MAX_TOTAL_BYTES = 512 << 20
_TAR_OVERHEAD = 64 << 20  # headers and padding a tar stream may add to its files' bytes


class BundleError(InputError):
    """The bundle cannot be read or does not describe itself; the message names the file and problem."""


def is_archive_name(path: Path) -> bool:
    """Whether ``putnam export -o PATH`` writes an archive (by its name) rather than a directory."""
    return path.name.endswith((".tar.gz", ".tgz", ".tar"))


FORMAT = "putnam-proof-bundle"
VERSION = 1
MANIFEST = "manifest.json"


FOLDERS = ("proofs/", "challenges/", "verdicts/")


def problem_note(name: str) -> str:
    """`` (problem X)`` for a file of a problem's folder, else nothing."""
    for folder in FOLDERS:
        if name.startswith(folder):
            stem = name[len(folder) :].split(".", 1)[0]
            return f" (problem {shown_path(stem)})" if stem else ""
    return ""


def file_label(name: str) -> str:
    """A bundle's file as a message names it: its name (chosen by whoever made the bundle, so shown with its
    line breaks as escapes: ``terminal.shown_path``) and the problem its folder says it is for."""
    return f"{shown_path(name)}{problem_note(name)}"


def after_path(exc: Exception) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


def dump_json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, default=str) + "\n").encode("utf-8")


# ----------------------------------------------------------------------------------------------- writing


def write_bundle(target: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` and their manifest as a directory, or an archive when the name says so
    (``is_archive_name``): reproducibly (sorted, no times or owners) and atomically (a temporary beside
    the target, renamed). An existing target is refused, never overwritten."""
    if target.exists() or target.is_symlink():
        raise BundleError(f"{target}: already exists; choose another output path or remove it")
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "algorithm": "sha256",
        "files": {name: sha256_hex(data) for name, data in sorted(files.items())},
    }
    everything = {**files, MANIFEST: dump_json(manifest)}
    target.parent.mkdir(parents=True, exist_ok=True)
    if is_archive_name(target):
        _write_archive(target, everything)
    else:
        _write_directory(target, everything)


def _write_archive(target: Path, files: Mapping[str, bytes]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as raw:
            packed = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if target.suffix != ".tar" else None
            with tarfile.open(fileobj=packed or raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for name, data in sorted(files.items()):
                    info = tarfile.TarInfo(name)
                    info.size, info.mode, info.mtime = len(data), 0o644, 0
                    tar.addfile(info, io.BytesIO(data))
            if packed is not None:
                packed.close()
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_directory(target: Path, files: Mapping[str, bytes]) -> None:
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, data in files.items():
            write_under(tmp, name, data)
        os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def read_bundle_files(path: Path) -> dict[str, bytes]:
    """Every file of the bundle by its name inside it, read safely (see the module docstring)."""
    if path.is_dir():
        files = _read_directory(path)
    elif path.is_file():
        files = _read_archive(path)
    else:
        raise BundleError(f"{path}: no such bundle (a directory or .tar.gz written by `putnam export`)")
    return _strip_top_folder(files)


def _read_directory(root: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = seen = 0
    stack: list[tuple[Path, str]] = [(root, "")]
    while stack:
        directory, prefix = stack.pop()
        with os.scandir(directory) as listing:
            for item in listing:
                name = f"{prefix}{item.name}"
                seen += 1
                if seen > MAX_FILES:
                    raise BundleError(f"{root}: more than {MAX_FILES} entries; not a proof bundle")
                if item.is_symlink():
                    raise BundleError(f"{root}: {shown_path(name)}: a symbolic link; a bundle holds only regular files")
                if item.is_dir(follow_symlinks=False):
                    stack.append((Path(item.path), f"{name}/"))
                    continue
                try:
                    data = read_regular_file(Path(item.path), MAX_FILE_BYTES)
                except UnsafeFile as exc:
                    raise BundleError(f"{root}: {file_label(name)}: {after_path(exc)}") from exc
                total += len(data)
                if total > MAX_TOTAL_BYTES:
                    raise BundleError(f"{root}: more than {MAX_TOTAL_BYTES} bytes in all; not a proof bundle")
                files[name] = data
    return files


class _Reader(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Capped:
    """A read-only stream that fails once more than ``cap`` bytes have come through it (a gzip bomb, or
    a tar header claiming gigabytes, stops here instead of filling memory)."""

    def __init__(self, inner: _Reader, cap: int, where: Path) -> None:
        self.inner, self.cap, self.where, self.count = inner, cap, where, 0

    def read(self, size: int | None = -1) -> bytes:
        room = self.cap - self.count + 1
        data = self.inner.read(room if size is None or size < 0 or size > room else size)
        self.count += len(data)
        if self.count > self.cap:
            raise BundleError(f"{self.where}: the archive holds more than {self.cap} bytes; not a proof bundle")
        return data


def _read_archive(path: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = seen = 0
    try:
        with path.open("rb") as raw:
            compressed = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            inner: _Reader = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
            stream = _Capped(inner, MAX_TOTAL_BYTES + _TAR_OVERHEAD, path)
            with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
                for member in tar:
                    seen += 1
                    if seen > MAX_FILES:
                        raise BundleError(f"{path}: more than {MAX_FILES} entries; not a proof bundle")
                    name = _member_name(path, member)
                    if name is None or member.isdir():
                        continue
                    if name in files:
                        raise BundleError(f"{path}: {file_label(name)}: appears twice in the archive")
                    if member.size > MAX_FILE_BYTES:
                        raise BundleError(
                            f"{path}: {file_label(name)}: {member.size} bytes, over the cap of "
                            f"{MAX_FILE_BYTES} bytes per file"
                        )
                    total += member.size
                    if total > MAX_TOTAL_BYTES:
                        raise BundleError(f"{path}: more than {MAX_TOTAL_BYTES} bytes in all; not a proof bundle")
                    handle = tar.extractfile(member)
                    data = handle.read(MAX_FILE_BYTES + 1) if handle is not None else b""
                    if len(data) != member.size:
                        raise BundleError(f"{path}: {file_label(name)}: truncated in the archive")
                    files[name] = data
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise BundleError(
            f"{path}: not a readable bundle archive ({type(exc).__name__}: {exc}); a bundle is a directory or a "
            ".tar.gz written by `putnam export`"
        ) from exc
    return files


def _member_name(path: Path, member: tarfile.TarInfo) -> str | None:
    """The member's name inside the bundle, or None for the archive's own root; anything that could
    point outside the bundle or is not a file or directory is refused."""
    raw = member.name
    if "\x00" in raw or "\\" in raw:
        raise BundleError(f"{path}: {raw!r}: a member name with a NUL or backslash")
    if raw.startswith("/"):
        raise BundleError(f"{path}: {shown_path(raw)}: an absolute path; a bundle holds only relative names")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise BundleError(f"{path}: {shown_path(raw)}: a name with '..'; a bundle holds only names inside itself")
    name = "/".join(parts)
    if not (member.isreg() or member.isdir()) or member.issparse():
        kind = (
            "a symbolic link"
            if member.issym()
            else "a hard link"
            if member.islnk()
            else "a device or FIFO"
            if member.isdev()
            else "not a regular file"
        )
        raise BundleError(f"{path}: {file_label(name or raw)}: {kind}; a bundle holds only regular files")
    return name or None


def _strip_top_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """Accept a bundle packed with its folder (``tar czf b.tgz bundle/``): drop a single top folder."""
    if MANIFEST in files or not files:
        return files
    tops = {name.split("/", 1)[0] for name in files}
    if len(tops) != 1 or any("/" not in name for name in files):
        return files
    top = next(iter(tops))
    return {name[len(top) + 1 :]: data for name, data in files.items()}
