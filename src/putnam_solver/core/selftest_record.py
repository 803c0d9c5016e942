"""What a selftest found, as stored in the user's cache directory, and how a gate reads it back.

``putnam selftest`` (``putnam_solver.selftest``) puts canaries through every gate and records here, per
prover, toolchain fingerprint and gate code, how each gate judged each canary. The trusted gates read one
fact back: whether a gate passed its known-good canaries on this toolchain (G6 reports ``unavailable``
rather than ``failed`` when comparator did not), so that a broken toolchain is never read as a rejection.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import platformdirs

from putnam_solver.core.cache import gate_code_fingerprint
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import GateStatus, VerifyOptions

RECORD_VERSION = 1


class Cell(StrEnum):
    """How one gate judged one canary, against what the canary expects of it."""

    RIGHT = "right"
    """The gate said what it must (passed a known-good canary, refused a known-bad one)."""
    UNJUDGED = "unjudged"
    """A known-bad canary another gate is there to refuse; the status is shown, not judged."""
    CANNOT_RUN = "cannot-run"
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

    @property
    def surprises(self) -> list[CellResult]:
        return [c for c in self.cells if c.judgement is Cell.WRONG]

    @property
    def passed(self) -> bool:
        """True when every gate that could run judged every canary right."""
        return not self.surprises

    def known_good_passed(self, gate: str) -> bool | None:
        """Whether ``gate`` passed every known-good canary it ran on (None: it ran on none).

        A gate whose known-good canary did not pass cannot tell a rejection from a broken toolchain, so
        callers (G6 for comparator) report ``unavailable`` instead of ``failed`` then.
        """
        goods = [
            c for c in self.cells if c.gate == gate and c.expected == "pass" and c.judgement is not Cell.CANNOT_RUN
        ]
        if not goods:
            return None
        return all(c.status == GateStatus.PASSED.value for c in goods)

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
        }


# ---------------------------------------------------------------------------------------------- records


def records_dir() -> Path:
    """``$PUTNAM_CACHE_DIR/selftest``, else the per-user cache directory: where no agent can write."""
    override = os.environ.get("PUTNAM_CACHE_DIR")
    base = Path(override) if override else Path(platformdirs.user_cache_dir("putnambench-solver"))
    return base / "selftest"


def record_path(prover_name: str, fingerprint: str, axle: bool) -> Path:
    """One file per prover, toolchain fingerprint, gate code and AXLE choice (a change in any reruns it)."""
    key = json.dumps([prover_name, fingerprint, gate_code_fingerprint(), axle])
    return records_dir() / f"{prover_name}-{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"


def last_record(prover_name: str, options: VerifyOptions) -> SelftestRecord | None:
    """The last selftest of this prover on the toolchain ``options`` select (None if none, or damaged)."""
    fingerprint = get_prover(prover_name).toolchain_fingerprint(options)
    try:
        data = json.loads(record_path(prover_name, fingerprint, options.axle).read_text(encoding="utf-8"))
        return record_from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def record_from_json(data: dict[str, Any]) -> SelftestRecord:
    if data["version"] != RECORD_VERSION:
        raise ValueError(f"selftest record version {data['version']}")
    return SelftestRecord(
        prover=data["prover"],
        fingerprint=data["fingerprint"],
        gate_code=data["gate_code"],
        axle=bool(data["axle"]),
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
    )
