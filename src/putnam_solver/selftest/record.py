"""What a selftest found, as stored in the user's cache directory: the whole record, written and read back.

``putnam selftest`` (``runner``) puts canaries through every gate and records here, per prover, toolchain
fingerprint, gate code and gate options (``core.selftest_record.record_path``), how each gate judged each
canary; ``doctor``, ``serve`` and ``solve`` read the record back to say whether the toolchain passed. The
trusted gates read only one fact of it, through the trusted package's own reader
(``core.selftest_record``: where the record lives, under which key, and whether a gate passed its
known-good canaries), which this module builds on; the vocabulary of its cells (``Cell``) is defined here.
"""

from __future__ import annotations

import errno
import json
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from putnam_solver.core.cache import CACHE_DIR_VARIABLE, ENTRY_MODE
from putnam_solver.core.safe_files import UnsafeFile, write_below
from putnam_solver.core.selftest_record import (
    CANNOT_RUN,
    KEY,
    RECORD_VERSION,
    known_good_passed,
    record_key,
    record_path,
    stored_record,
)
from putnam_solver.core.untrusted import stored_flag
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import VerifyOptions


class Cell(StrEnum):
    """How one gate judged one canary, against what the canary expects of it (``JUDGEMENTS``, which the
    gates' reader accepts, holds exactly these)."""

    RIGHT = "right"
    """The gate said what it must (passed a known-good canary, refused a known-bad one)."""
    UNJUDGED = "unjudged"
    """A known-bad canary another gate is there to refuse; the status is shown, not judged."""
    CANNOT_RUN = CANNOT_RUN
    """The gate cannot run here (doctor says so too) and did not pass: shown, not a surprise."""
    WRONG = "wrong"
    """A surprise: the gate misjudged the canary, or could not run although it should."""


@dataclass(frozen=True)
class CellResult:
    """One gate's result on one canary, and how the selftest reads it."""

    suite: str
    canary: str
    gate: str
    gate_name: str
    expected: str
    """``pass``, ``refuse``, or ``any`` (not judged)."""
    status: str
    judgement: Cell
    detail: str

    def to_json(self) -> dict[str, str]:
        return {
            "suite": self.suite,
            "canary": self.canary,
            "gate": self.gate,
            "gate_name": self.gate_name,
            "expected": self.expected,
            "status": self.status,
            "judgement": self.judgement.value,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class SuiteSkip:
    """A suite that cannot run here, and why (say, no Mathlib without ``putnam bootstrap``)."""

    suite: str
    title: str
    reason: str


@dataclass
class SelftestRecord:
    """The outcome of one selftest, as stored per prover, toolchain fingerprint and gate code."""

    prover: str
    fingerprint: str
    gate_code: str
    axle: bool
    finished_at: float
    seconds: float
    cells: list[CellResult]
    skipped: list[SuiteSkip]
    cannot_run: dict[str, str] = field(default_factory=dict)
    """Gate id -> why it cannot run here (from the prover's readiness)."""
    suites: dict[str, str] = field(default_factory=dict)
    """Canary set name -> the SHA-256 of its files (``code_identity.code_fingerprint``) when it was judged:
    the canaries ship with the kits, outside every code the key takes (``runner.uncovered``)."""

    @property
    def surprises(self) -> list[CellResult]:
        return [c for c in self.cells if c.judgement is Cell.WRONG]

    @property
    def passed(self) -> bool:
        """True when every gate that could run judged every canary right."""
        return not self.surprises

    def known_good_passed(self, gate: str) -> bool | None:
        """Whether ``gate`` passed every known-good canary it ran on (None: it ran on none), read as the
        gates read it (``core.selftest_record.known_good_passed``)."""
        return known_good_passed((c.to_json() for c in self.cells), gate)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": RECORD_VERSION,
            "prover": self.prover,
            "fingerprint": self.fingerprint,
            "gate_code": self.gate_code,
            "axle": self.axle,
            "finished_at": self.finished_at,
            "seconds": self.seconds,
            "passed": self.passed,
            "cells": [c.to_json() for c in self.cells],
            "skipped": [{"suite": s.suite, "title": s.title, "reason": s.reason} for s in self.skipped],
            "cannot_run": self.cannot_run,
            "suites": self.suites,
        }


# ---------------------------------------------------------------------------------------------- records


def write_record(record: SelftestRecord, options: VerifyOptions) -> Path:
    """Store ``record`` where later runs with ``options`` look it up (``record_path``), holding the key it is
    read back under only (``record_key``), writable by this user alone (others' records are never read).

    The write goes to a temporary file renamed over the record (``write_below``), so a reader sees the old
    record or the new one, never part of one, and a failed write leaves no temporary file behind. A write
    that fails (a full disk, a read-only or foreign directory, a link planted for the folder) raises an
    InputError naming the file, what went wrong and the fix, instead of ending the command in a traceback."""
    path = record_path(record.prover, record.fingerprint, options)
    stored = {**record.to_json(), KEY: record_key(record.prover, record.fingerprint, options)}
    base = path.parent.parent  # the cache directory: its `selftest` folder is opened as no link too
    try:
        write_below(base, path.relative_to(base), json.dumps(stored).encode(), ENTRY_MODE)
    except (OSError, UnsafeFile) as exc:
        raise InputError(unwritable_record(path, exc)) from exc
    return path


FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def unwritable_record(path: Path, exc: OSError | UnsafeFile) -> str:
    """What ``putnam selftest`` says when its record cannot be written: the file, the problem, the fix."""
    code = exc.errno if isinstance(exc, OSError) else None
    why = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    if code in FULL:
        fix = f"free space on the disk of {path.parent}, or set {CACHE_DIR_VARIABLE} to a directory on another disk"
    elif code in READ_ONLY:
        fix = f"make {path.parent} writable by this user, or set {CACHE_DIR_VARIABLE} to a directory you can write"
    else:
        fix = f"remove what stands in the way, or set {CACHE_DIR_VARIABLE} to a directory of your own"
    return (
        f"{path}: cannot write the selftest record: {why}; nothing was written (an earlier record there is "
        f"unchanged), so this run's result is not kept: {fix}, then run `putnam selftest` again"
    )


def last_record(prover_name: str, options: VerifyOptions) -> SelftestRecord | None:
    """The last selftest of this prover on the toolchain ``options`` select (None if none, or damaged)."""
    data = stored_record(prover_name, options)
    try:
        return None if data is None else record_from_json(data)
    except (ValueError, KeyError, TypeError):
        return None


def record_from_json(data: dict[str, Any]) -> SelftestRecord:
    """A stored record (of ``RECORD_VERSION``, as ``stored_record`` returns it) as a SelftestRecord."""
    return SelftestRecord(
        prover=data["prover"],
        fingerprint=data["fingerprint"],
        gate_code=data["gate_code"],
        axle=stored_flag(data["axle"], stored_as_json=True),
        finished_at=float(data["finished_at"]),
        seconds=float(data["seconds"]),
        cells=[
            CellResult(
                c["suite"],
                c["canary"],
                c["gate"],
                c["gate_name"],
                c["expected"],
                c["status"],
                Cell(c["judgement"]),
                c["detail"],
            )
            for c in data["cells"]
        ],
        skipped=[SuiteSkip(s["suite"], s["title"], s["reason"]) for s in data["skipped"]],
        cannot_run=dict(data["cannot_run"]),
        suites=_a_str_map(data.get("suites", {})),  # none in a record made before red team 17: all changed
    )


def _a_str_map(value: object) -> dict[str, str]:
    """A stored map of names to hashes; another type is a damaged record (``last_record``: none)."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise TypeError("a selftest record's suites must map names to hashes")
    return dict(value)
