"""Which rows of a ledger this account wrote: a seal on each, checked when read (audit rows here; the attempt
rows and sample plans of ``putnam solve`` in ``ledger_seals``, with this same seal and key).

A ledger is text anyone can edit. ``putnam audit`` itself never believes a stored audit (it re-verifies every
pass), but ``putnam report``, SUMMARY.md and attempts.tsv count the audits a ledger holds: a run directory
handed over with an ``accepted`` audit row inserted for a pass no audit confirmed (its candidate replaced and
every stored hash made to agree) was reported as "Solved: 2 of 2, audited" (red team round 6).

So every audit row the ledger writes carries an HMAC-SHA256 of everything it states (the attempt, time,
status, candidate hash, toolchain, benchmark hash, whether the toolchain changed, and the verdict's JSON),
under a key that only this account can read (``audit-seal.key`` in its configuration directory, created on
first use with mode 0600). A row whose seal does not check (written by hand, edited, or by an audit of
another account or machine) stays in the ledger as history and is shown as such, and is never counted as an
audit: the reader's own ``putnam audit`` re-verifies the pass. The key protects against whoever edits a
ledger, not against this account itself (who can run ``putnam audit`` anyway), as the verdict cache trusts
this account's own files.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

KEY_NAME = "audit-seal.key"
SEAL = "seal"
"""The key of the stored verdict JSON that holds its row's seal."""
_KEY_BYTES = 32


def key_path() -> Path:
    """Where this account's sealing key lives (its configuration directory, not the cache: clearing the cache
    must not un-count the audits already made)."""
    return Path(platformdirs.user_config_dir("putnambench-solver")) / KEY_NAME


def seal(stated: Sequence[Any], payload: str, create: bool = True) -> str | None:
    """The seal of one row: ``stated``, the row's columns as a JSON list whose first item says what kind of
    row it is (an audit row's is its attempt id, a number; ``ledger_seals``' rows start with their kind's
    name), and ``payload``, the row's JSON document, by its SHA-256. None when there is no key and
    ``create`` is false, or no key can be made."""
    key = _key(create)
    if key is None:
        return None
    message = json.dumps(list(stated), ensure_ascii=True) + "\n" + hashlib.sha256(payload.encode("utf-8")).hexdigest()
    return hmac.new(key, message.encode("ascii"), hashlib.sha256).hexdigest()


def sealed(given: Any, stated: Sequence[Any], payload: str) -> bool:
    """Whether ``given`` is the seal of ``stated`` and ``payload`` (``seal``) under this account's key."""
    if not isinstance(given, str):
        return False
    expected = seal(stated, payload, create=False)
    return expected is not None and hmac.compare_digest(given, expected)


def audit_stated(
    attempt_id: Any,
    audited_at: Any,
    status: Any,
    candidate_sha256: Any,
    toolchain: Any,
    benchmark_sha256: Any,
    toolchain_changed: bool,
) -> list[Any]:
    """What an audit row's seal binds besides its verdict's JSON (its first item, the attempt id, is a
    number: no other kind of sealed row starts with one)."""
    return [attempt_id, audited_at, status, candidate_sha256, toolchain, benchmark_sha256, toolchain_changed]


_READ: dict[Path, bytes] = {}
"""Keys read by this process, by path: a ledger's every row is checked on each read (a file open per row
otherwise); a key once made is never replaced (``_create_key``)."""


def _key(create: bool) -> bytes | None:
    path = key_path()
    found = _READ.get(path) or _read_key(path)
    if found is None and create:
        with contextlib.suppress(OSError):
            _create_key(path)
        found = _read_key(path)
    if found is not None:
        _READ[path] = found
    return found


def _read_key(path: Path) -> bytes | None:
    """The key, if ``path`` is a regular file of this account's that no one else can read or write."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None
        data = os.read(fd, _KEY_BYTES + 1)
    finally:
        os.close(fd)
    return data if len(data) == _KEY_BYTES else None


def _create_key(path: Path) -> None:
    """A new random key at ``path``, never replacing one: another process may create it at the same time."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    scratch = path.with_name(f".{KEY_NAME}.{secrets.token_hex(8)}")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, secrets.token_bytes(_KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(scratch, path)  # fails if a key is there already: the first one stays
    except FileExistsError:
        pass
    finally:
        scratch.unlink()
