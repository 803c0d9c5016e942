"""The ledger's clock: the time a row is recorded at, never earlier than a time the ledger already holds.

Readers tell which settings record was in force for an attempt (the toolchain it was verified on, which
`audit` compares with its own; the prices its spend was counted at) by comparing their times
(``audit.run_toolchains``, ``prices.unpriced_when_spent``). A clock stepped back (NTP, an operator, a
virtual machine restored) between a run and its resume made the resume's record older than the attempts
before it: an attempt verified on the first toolchain read as the resumed one's, so ``putnam audit`` on
the new toolchain confirmed it as judged on the run's own, and a model without a price when it spent was
left out of the cost (trust paths red team 18). So a row takes the later of the clock and the ledger's
latest time: the ledger's times then follow the order its rows were written in, and records of the same
second are read as possibly in force together.
"""

from __future__ import annotations

import sqlite3

from putnam_solver.run.ledger_rows import now

CLOCK = "clock"
"""The ``meta`` key holding the latest time the ledger's rows were recorded at (kept by :func:`ledger_now`)."""

_LATEST = """
SELECT max(t) FROM (
    SELECT max(recorded_at) AS t FROM settings UNION ALL SELECT max(started_at) FROM campaigns
    UNION ALL SELECT max(finished_at) FROM campaigns UNION ALL SELECT max(recorded_at) FROM attempts
    UNION ALL SELECT max(recorded_at) FROM interruptions UNION ALL SELECT max(recorded_at) FROM subattempts
    UNION ALL SELECT max(recorded_at) FROM sketches UNION ALL SELECT max(audited_at) FROM audits
    UNION ALL SELECT max(observed_at) FROM rate_limits
)
"""
"""The latest time of every time column putnam writes (each is ``now``'s ISO text, which sorts in time): read
once, for a ledger an earlier putnam wrote, whose ``meta`` holds no ``clock`` (a scan of every row, which a
write after every model call must not pay)."""


def ledger_now(db: sqlite3.Connection) -> str:
    """The time to record a row at in ``db`` (inside the writing transaction): ``now``, or the ledger's
    latest time when the clock is behind it; kept as the ledger's latest."""
    clock = now()
    kept = db.execute("SELECT value FROM meta WHERE key = ?", (CLOCK,)).fetchone()
    (latest,) = kept if kept is not None else db.execute(_LATEST).fetchone()
    at = latest if isinstance(latest, str) and latest > clock else clock
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (CLOCK, at))
    return at
