"""The state of an installed library tree, as a toolchain's fingerprint holds it, read again cheaply.

A prover's library (Coq's ``.vo`` files and the plugins coqc loads, Lean's compiled modules) is
identified by the size and modification time of each file of it the prover loads, hashed (why not the
bytes, the inode or the change time: ``rocq.toolchain.library_state``). The fingerprint is read twice a
verification (the cache key before the gates, then ``verifier.one_toolchain`` after them), by ``serve``
and ``mcp`` for days, so each process remembers a tree's listing while nothing in it moved:

- a file created, renamed or deleted changes the modification and change time of its directory;
- a file rewritten in place changes its own size or modification time.

A reading stats every directory and every kept file of the listing (no directory is listed, nothing is
hashed) and lists the tree afresh when one of them differs. A directory is stat'ed before it is listed and
a file after, so a change made while the tree is listed shows at the next reading.

Before (red team 21) Rocq listed and hashed its library at every reading (10 ms on an idle machine, 73
to 109 ms under load), and Lean remembered its listing while the manifest, the library directories and
the ``.olean`` files directly in them kept their state: a module deep in Mathlib replaced while ``serve``
ran kept the old digest until a restart, and a verdict made after the swap was stored under the old key.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

State = tuple[int, ...] | None
"""What a reading compares of one directory or file (None: not there)."""


@dataclass(frozen=True)
class Tree:
    """A directory whose files a prover loads: those ending in one of ``suffixes``, or every file."""

    root: Path
    suffixes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Listing:
    directories: tuple[tuple[str, State], ...]
    files: tuple[str, ...]
    states: tuple[State, ...]
    digest: str

    def current(self) -> bool:
        """Whether every directory and file listed is still in the state it was listed in."""
        return all(_directory_state(d) == s for d, s in self.directories) and self.states == _file_states(self.files)


_listings: dict[tuple[tuple[Tree, ...], str], _Listing] = {}
_lock = threading.Lock()
_KEPT = 16
"""Trees remembered per process (a service serves a toolchain or two; a test makes many)."""


def tree_state(trees: Sequence[Tree], seed: str = "") -> str:
    """SHA-256 over ``seed`` and, per tree in order, its root and the path (relative to it), size and
    modification time of each file it keeps, in path order (see the module docstring)."""
    return tree_listing(trees, seed)[0]


def tree_listing(trees: Sequence[Tree], seed: str = "") -> tuple[str, tuple[str, ...]]:
    """``tree_state`` and the files it was read from (their paths), from one listing: what a gate derives
    from the library's files (Coq's module names) then belongs to the state the fingerprint names."""
    key = (tuple(trees), seed)
    known = _listings.get(key)
    if known is not None and known.current():
        return known.digest, known.files
    listing = _listed(key[0], seed)
    with _lock:
        _listings.pop(key, None)
        _listings[key] = listing
        while len(_listings) > _KEPT:
            _listings.pop(next(iter(_listings)))
    return listing.digest, listing.files


def _listed(trees: tuple[Tree, ...], seed: str) -> _Listing:
    digest = hashlib.sha256(seed.encode())
    directories: list[tuple[str, State]] = []
    files: list[str] = []
    states: list[State] = []
    for tree in trees:
        root = str(tree.root)
        kept = sorted(_walk(root, tree.suffixes, directories))
        digest.update(f"root\0{root}\0{len(kept)}\n".encode())
        for path, state in zip(kept, _file_states(kept), strict=True):
            digest.update(f"{path[len(root) + 1 :]}\0{state}\n".encode())  # below the root, as scandir joins
            states.append(state)
        files += kept
    return _Listing(tuple(directories), tuple(files), tuple(states), digest.hexdigest())


def _walk(
    directory: str, suffixes: tuple[str, ...], directories: list[tuple[str, State]], seen: set[State] | None = None
) -> Iterator[str]:
    """The kept files under ``directory``, noting each directory's state before it is listed. Into linked
    directories too, each once, as the provers find modules (Coq's ``System.all_subdirs`` tells a directory
    by ``Unix.stat``, which follows links: lib/system.ml): ``os.walk`` does not follow them, so a module
    under a linked directory was in no listing (before red team 21)."""
    seen = set() if seen is None else seen
    state = _directory_state(directory)
    directories.append((directory, state))
    if state in seen:
        return
    seen.add(state)
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir():
            yield from _walk(entry.path, suffixes, directories, seen)
        elif not suffixes or entry.name.endswith(suffixes):
            yield entry.path


def _directory_state(path: str) -> State:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns


def _file_states(paths: Sequence[str]) -> tuple[State, ...]:
    return tuple(_file_state(path) for path in paths)


def _file_state(path: str) -> State:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns
