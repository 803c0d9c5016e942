"""Build products derived from a pinned statement alone, kept across verifications in the cache directory.

Some artifacts (``core.artifacts``) depend only on trusted inputs: the Rocq reference module compiled
from the pinned statement, the Lean challenge built by Lake. They are the same for every candidate of a
problem, so each prover keeps them here under a key it derives from everything they depend on (the
source's SHA-256, the toolchain's identity) plus the code that builds them (:func:`entry_path` adds it),
and builds them again only when the key changes. Nothing derived from a candidate is ever kept here.

An entry is one file, written atomically: a first line of JSON naming the entry itself and each stored
file with its size and SHA-256, then the files' bytes in that order. :func:`read_entry` returns the files
only when every one hashes to what the header says and the header names this very entry (an entry
copied or linked under another key, the reference of another statement, is not this one); an entry
that is damaged, cut short, not a regular file under the cap, or not this user's own (owned by another
account, or writable by others: a shared cache directory someone else prepared) is treated as absent
(built again and replaced), never used. A verification said to be afresh (``putnam audit``, ``verify
--no-cache``: ``VerifyOptions.kept_builds`` off) uses only entries this process wrote, so that what
an earlier process (or anything else running as this user) left in the cache directory decides none of
its verdicts.

A producer reads, builds and writes an entry while holding it (:func:`building`), so that in one process
an entry is built once even when several verifications of a problem ask for it at the same time (a
campaign preparing a problem beside its first submission, a batch of candidates of one problem).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from putnam_solver.core.cache import ENTRY_MODE, default_cache_dir, gate_code_fingerprint
from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file, write_below

HEADER_BYTES = 65536
"""Room for the JSON header on top of the stored files' own cap."""
_HELD: dict[Path, threading.Lock] = {}
_WRITTEN: dict[Path, str] = {}
"""The SHA-256 of each entry this process wrote, by path: what a verification that uses no earlier
process's builds (``read_entry`` without ``kept``) may still share with the others of its process."""
_HELD_GUARD = threading.Lock()


def entry_path(folder: str, key: Mapping[str, object], name: str, *, producer: object) -> Path:
    """Where the entry for ``key`` lives under ``folder``. The code that makes it is always part of the key:
    the trusted package's, and ``producer``'s (the function or prover that builds the entry) when it lies
    outside that package (``code_identity.plugin_code``). A plug-in prover's folder and key are what it
    names, so before red team 17 an upgraded plug-in, or another registering the same folder, read the
    builds of other code: a kept reference an older release made too loose passed a changed claim."""
    code = plugin_code(producer)
    full = {**key, "gate_code": gate_code_fingerprint(), **({"producer_code": code} if code else {})}
    digest = hashlib.sha256(json.dumps(full, sort_keys=True).encode()).hexdigest()
    return default_cache_dir() / folder / digest[:2] / f"{digest}-{name}"


def read_entry(entry: Path, limit: int, kept: bool = True) -> dict[str, bytes] | None:
    """The files of ``entry`` when each matches its recorded size and SHA-256, else None; without ``kept``
    (``VerifyOptions.kept_builds``), only an entry whose bytes this process wrote itself."""
    try:
        raw = read_regular_file(entry, limit + HEADER_BYTES, own=True)
        header, _, body = raw.partition(b"\n")
        stated = json.loads(header)
    except (OSError, UnsafeFile, ValueError):
        return None
    if not kept and _WRITTEN.get(entry) != hashlib.sha256(raw).hexdigest():
        return None
    if not isinstance(stated, dict) or stated.get("entry") != entry.name:
        return None
    listed = stated.get("files")
    if not isinstance(listed, list) or not listed:
        return None
    files: dict[str, bytes] = {}
    offset = 0
    for item in listed:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], int)):
            return None
        name, size, digest = item
        data = body[offset : offset + size]
        offset += size
        if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
            return None
        files[name] = data
    return files if offset == len(body) else None


def write_entry(entry: Path, files: Mapping[str, bytes]) -> None:
    """Store ``files`` (name to bytes) at ``entry``; a cache that cannot be written is only a lost saving."""
    listed = [[name, len(data), hashlib.sha256(data).hexdigest()] for name, data in files.items()]
    data = json.dumps({"entry": entry.name, "files": listed}).encode() + b"\n" + b"".join(files.values())
    with contextlib.suppress(OSError, UnsafeFile):  # the next verification builds it again
        base = entry.parents[2]  # the cache directory: `entry_path`'s folder and digest folders below it
        write_below(base, entry.relative_to(base), data, ENTRY_MODE)
        _WRITTEN[entry] = hashlib.sha256(data).hexdigest()


@contextlib.contextmanager
def building(entry: Path) -> Iterator[None]:
    """Hold ``entry`` while it is read and, when absent, built and written: another thread of this process
    asking for the same entry waits, then reads what the first one wrote instead of building it again."""
    with _HELD_GUARD:
        lock = _HELD.setdefault(entry, threading.Lock())
    with lock:
        yield
