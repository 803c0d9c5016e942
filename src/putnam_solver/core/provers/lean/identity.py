"""What identifies a Lean toolchain in cache keys, selftest records and evidence: every file that decides
a Lean verdict.

A verdict depends on the `lake` that loads the project and the `lean` (and its shared library) that
elaborates, on the library the proof is checked against (Mathlib and its dependencies, as built), and,
for G6, on comparator, the release's lean4export, landrun and nanoda. Two runs against different
Mathlibs, or a rebuilt checker, must never share a cache entry.

The library is identified cheaply, without hashing gigabytes of ``.olean`` files: the bytes of
``lake-manifest.json`` (which pins every package's commit) and the listing of every ``.olean`` under the
library directories with its size and modification time. A package at another commit changes the
manifest; a rebuilt, re-downloaded or edited library rewrites files, which changes their times or sizes.
A false difference only costs a re-verification; a false match is what must not happen. The listing is
remembered while the manifest, the library directories and the root modules' ``.olean`` files (rewritten
by every ``lake build`` and ``lake exe cache get``) keep their state.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from putnam_solver.core.gatekit import file_sha256


def library_digest(directories: Sequence[Path], manifest: Path | None = None) -> str:
    """SHA-256 over the manifest's bytes and the ``.olean`` listing of ``directories`` (see above)."""
    roots = tuple(str(d) for d in directories)
    return _digest_cached(roots, str(manifest) if manifest else "", _state(directories, manifest))


def _state(directories: Sequence[Path], manifest: Path | None) -> tuple[tuple[str, int, int], ...]:
    """The stat of what any change to the library rewrites: the manifest, the directories and the
    ``.olean`` files directly in them (the root modules, ``Mathlib.olean`` among them)."""
    watched = [*([manifest] if manifest else []), *directories]
    for directory in directories:
        watched += sorted(directory.glob("*.olean")) if directory.is_dir() else []
    return tuple(_stat(path) for path in watched)


def _stat(path: Path) -> tuple[str, int, int]:
    try:
        info = path.stat()
    except OSError:
        return str(path), -1, -1
    return str(path), info.st_size, info.st_mtime_ns


@functools.lru_cache(maxsize=16)
def _digest_cached(roots: tuple[str, ...], manifest: str, state: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    if manifest and Path(manifest).is_file():
        digest.update(Path(manifest).read_bytes())
    for root in roots:
        digest.update(json.dumps(["root", root]).encode())
        for directory, subdirs, names in os.walk(root):
            subdirs.sort()
            for name in sorted(n for n in names if n.endswith(".olean")):
                _, size, mtime = _stat(Path(directory) / name)
                digest.update(json.dumps([os.path.relpath(os.path.join(directory, name), root), size, mtime]).encode())
    return digest.hexdigest()


def files_fingerprint(files: Sequence[Path]) -> str:
    """``name sha16`` for each file, or ``name absent``: the checkers G6 runs."""
    return ", ".join(f"{p.name} {file_sha256(p)[:16]}" if p.is_file() else f"{p.name} absent" for p in files)
