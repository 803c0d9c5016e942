"""What identifies a Lean toolchain in cache keys, selftest records and evidence: every file that decides
a Lean verdict.

A verdict depends on the `lake` that loads the project and the `lean` (and its shared library) that
elaborates, on the library the proof is checked against (Mathlib and its dependencies, as built), and,
for G6, on comparator, the release's lean4export, landrun and nanoda. Two runs against different
Mathlibs, or a rebuilt checker, must never share a cache entry.

The library is identified cheaply, without hashing gigabytes of ``.olean`` files: the bytes of
``lake-manifest.json`` (which pins every package's commit) and the listing of every compiled module file
under the library directories with its size and modification time (``tree_state``, which each process
remembers while no directory or file of it moved). A package at another commit changes the manifest; a
rebuilt, re-downloaded or edited library rewrites files, which changes their times or sizes. A false
difference only costs a re-verification; a false match is what must not happen.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from putnam_solver.core.gatekit import file_sha256
from putnam_solver.core.tree_state import Tree, tree_state

MODULE_FILES = (".olean", ".olean.server", ".olean.private", ".ir")
"""What `lean` loads of a compiled module: its ``.olean`` and, for a module of Lean's module system, the
server and private parts of it and its IR (Lake's ``Module.oleanFile``, ``oleanServerFile``,
``oleanPrivateFile`` and ``irFile``, src/lake/Lake/Config/Module.lean lines 101-114), which `lean` may
read as it imports such a module. ``.ilean``, ``.trace`` and ``.hash`` files are read by the editor and
Lake, not by `lean` compiling a file."""


def library_digest(directories: Sequence[Path], manifest: Path | None = None) -> str:
    """SHA-256 over the manifest's bytes and the compiled modules' listing of ``directories`` (see above).

    Remembered (before red team 21) while the manifest, the directories and the ``.olean`` files directly
    in them kept their state: a module deep in the library replaced while ``serve`` ran kept the old digest
    until a restart, so a verdict made after the swap was stored under the old key, and only ``.olean``
    files were listed, not the other parts of a module."""
    digest = hashlib.sha256(manifest.read_bytes() if manifest is not None and manifest.is_file() else b"")
    digest.update(tree_state([Tree(d, MODULE_FILES) for d in directories]).encode())
    return digest.hexdigest()


def files_fingerprint(files: Sequence[Path]) -> str:
    """``name sha16`` for each file, or ``name absent``: the checkers G6 runs."""
    return ", ".join(f"{p.name} {file_sha256(p)[:16]}" if p.is_file() else f"{p.name} absent" for p in files)
