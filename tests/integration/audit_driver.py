"""Run ``putnam audit`` in its own process and stop it after the Nth audit is stored, until it is killed.

Tests start it, wait for the marker file, ``kill -9`` it and check what the next audit makes of the rows
stored before the kill. Everything but the pause is the real audit: ledger, gates, sandbox.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from putnam_solver.run import audit
from putnam_solver.run.ledger import AuditRow, Ledger


def pause_after(nth: int, marker: Path) -> None:
    """Make the ``nth`` stored audit write ``marker`` and then wait (for the kill)."""
    real = Ledger.record_audit
    count = 0

    def record(self: Ledger, *args: Any, **kwargs: Any) -> AuditRow:
        nonlocal count
        row = real(self, *args, **kwargs)
        count += 1
        if count == nth:
            marker.write_text("paused\n")
            time.sleep(120)
        return row

    Ledger.record_audit = record  # type: ignore[method-assign]


def main(argv: Sequence[str]) -> int:
    run_dir, nth, marker, benchmark = Path(argv[0]), int(argv[1]), Path(argv[2]), Path(argv[3])
    pause_after(nth, marker)
    outcome = audit.audit_run(audit.AuditRequest(run_dir, jobs=1, benchmark=benchmark))
    print(outcome.message)
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
