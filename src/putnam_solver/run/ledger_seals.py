"""Which attempt rows, and which sample plan, this account's ``putnam solve`` wrote: the samples pass@k rests on.

pass@k counts, per problem, the samples of the first campaign (``n``) and those that passed (``c``). A ledger
is text anyone can edit, and ``putnam audit`` re-verifies only the passes it holds: copying a valid proof into
a failed sample's row of the same problem raised ``c`` (the audit confirms the copy too), deleting failed
samples' rows lowered ``n``, and pass@k rose with no candidate forged. The solved count does not depend on
these rows (a problem is solved by any one audited proof), pass@k does.

So ``putnam solve`` seals what pass@k reads, with this account's key (``audit_seal.seal``, the one seal of
every row kind, each kind's list of columns starting with its name):

- each attempt row it writes: the run (a random id in ``meta``, made with the run's first seal), the row's
  id, campaign, problem, sample, status, candidate (stored hash and hash of the stored bytes), time, spend,
  and its verdict's JSON; a row copied, edited or added fails its seal;
- each campaign's sample plan when it starts: the run, the campaign, its problems and ``--samples``; a
  sample of the plan without a row (deleted, or the run stopped before it) leaves its problem incomplete.

``sample_trust`` gives the sealed plan and which rows' seals check. pass@k's verified figures take, for each
problem of the plan, every planned sample (``n``) and only the passes in rows whose seal checks (``c``): a
sample without such a row counts as failed, so an edit can only lower them, never raise them (a bound, not
a subset: leaving out the problems an editor touched would raise the mean). The report and SUMMARY.md name
every problem whose samples are not all in sealed rows, and why, and show the ledger's claim apart. A
ledger of another account, of a putnam from before attempt rows were sealed, or edited, still loads: its
pass@k is shown as unverified, while its solved count stands on ``putnam audit`` re-verifying each pass.
What no seal can show is a whole ledger copied back from an earlier moment of its own run: that reads as
the run stopped then, and its problems whose samples had not all ended are incomplete.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from putnam_solver.run import audit_seal
from putnam_solver.run.ledger_rows import AttemptRow, sha256_text
from putnam_solver.run.ledger_writes import dump_json

if TYPE_CHECKING:
    from putnam_solver.run.ledger import Ledger

RUN_ID = "run_id"
"""Meta key: the run's random id, which every seal of its rows binds (a row sealed in another run of this
account does not check here)."""
ATTEMPT, PLAN = "attempt", "plan"

SCHEMA = """
CREATE TABLE IF NOT EXISTS seals (
    kind TEXT NOT NULL, ref INTEGER NOT NULL, seal TEXT NOT NULL, PRIMARY KEY (kind, ref));
"""
"""The seals of attempt rows (``ref``: the attempt's id) and sample plans (``ref``: the campaign's number);
created on open, so a ledger written before it reads the same, with nothing sealed."""

UNSEALED = (
    "no valid seal of this account's `putnam solve` (the run of another account or machine, of a putnam from "
    "before attempt rows were sealed, or an edited ledger)"
)


def _run_id(db: sqlite3.Connection) -> str:
    """The run's id, made now if the ledger has none yet (inside the caller's transaction)."""
    found = db.execute("SELECT value FROM meta WHERE key=?", (RUN_ID,)).fetchone()
    if found is not None:
        return str(found[0])
    made = secrets.token_hex(16)
    db.execute("INSERT INTO meta VALUES (?, ?)", (RUN_ID, made))
    return made


def attempt_stated(run: Any, row: AttemptRow) -> list[Any]:
    """What an attempt row's seal binds besides its verdict's JSON."""
    actual = sha256_text(row.candidate) if isinstance(row.candidate, str) else None
    spent = [row.turns, row.input_tokens, row.output_tokens, float(row.cost_dollars)]
    where = [run, row.id, row.campaign, row.problem, row.sample]
    return [ATTEMPT, *where, row.status, row.candidate_sha256, actual, row.recorded_at, *spent]


def plan_stated(run: Any, campaign: int, problems: Iterable[str], samples: int) -> list[Any]:
    """What a campaign's sample plan's seal binds."""
    return [PLAN, run, campaign, sorted(problems), samples]


def _verdict_json(row: AttemptRow) -> str:
    return dump_json(row.verdict) if row.verdict is not None else "null"


def seal_attempt(db: sqlite3.Connection, row: AttemptRow) -> None:
    """Seal a row ``putnam solve`` has just stored (in its transaction); nothing when no key can be had."""
    made = audit_seal.seal(attempt_stated(_run_id(db), row), _verdict_json(row))
    if made is not None:
        db.execute("INSERT OR REPLACE INTO seals VALUES (?, ?, ?)", (ATTEMPT, row.id, made))


def seal_plan(db: sqlite3.Connection, campaign: int, problems: Sequence[str], samples: int) -> None:
    """Seal a campaign's sample plan as it starts (in its transaction)."""
    made = audit_seal.seal(plan_stated(_run_id(db), campaign, problems, samples), "")
    if made is not None:
        db.execute("INSERT OR REPLACE INTO seals VALUES (?, ?, ?)", (PLAN, campaign, made))


@dataclass(frozen=True)
class SampleTrust:
    """What of the first campaign (``campaign``) pass@k may count as verified. ``plan``: its sealed plan,
    problem by problem, of ``samples`` samples each (empty when the plan's seal does not check: nothing is
    verified); ``sealed``: the ids of the attempt rows whose seal checks; ``unverified``: each problem of
    the campaign whose samples are not all in such rows, with why."""

    campaign: int | None
    plan: frozenset[str] = frozenset()
    samples: int = 0
    sealed: frozenset[int] = frozenset()
    unverified: Mapping[str, str] = field(default_factory=dict)

    def planned(self, problem: str) -> bool:
        """Whether ``problem`` is in the sealed plan (its pass@k then counts every planned sample)."""
        return problem in self.plan

    def passes(self, problem: str, rows: Iterable[AttemptRow], passed: Callable[[AttemptRow], bool]) -> int:
        """How many planned samples of ``problem`` passed in rows whose seal checks."""
        mine = [r for r in rows if r.id in self.sealed and r.problem == problem and r.campaign == self.campaign]
        found = {r.sample for r in mine if passed(r)}
        return min(self.samples, len({s for s in found if s <= self.samples}))


NOTHING_VERIFIED = SampleTrust(None)
"""No sample verified: what pass@k shows when it is not told otherwise."""


def sample_trust(ledger: Ledger, samples: int) -> SampleTrust:
    """Check the first campaign's sample plan and attempt rows against their seals (``samples``: the run's
    ``--samples``, as its settings state it; the plan's seal binds it)."""
    campaigns = ledger.campaigns()
    if not campaigns:
        return NOTHING_VERIFIED
    first = min(campaigns, key=lambda c: c.number)
    run, seals = ledger.meta(RUN_ID), ledger.seals()
    rows: dict[str, list[AttemptRow]] = {p: [] for p in first.problems}
    for row in ledger.attempts():
        if row.campaign == first.number:
            rows.setdefault(row.problem, []).append(row)
    plan = plan_stated(run, first.number, first.problems, samples)
    if first.number != 1 or run is None or not audit_seal.sealed(seals.get((PLAN, first.number)), plan, ""):
        why = f"the first campaign's sample plan (problems x samples) has {UNSEALED}"
        return SampleTrust(first.number, unverified={p: why for p in rows})
    sealed = frozenset(r.id for found in rows.values() for r in found if _row_sealed(run, seals, r))
    unverified = {p: why for p, found in rows.items() if (why := _why_not(sealed, found, samples))}
    return SampleTrust(first.number, frozenset(first.problems), samples, sealed, unverified)


def sealed_attempts(ledger: Ledger) -> frozenset[int]:
    """The ids of the attempt rows whose seal checks: rows this account's ``putnam solve`` wrote as they are."""
    run, seals = ledger.meta(RUN_ID), ledger.seals()
    if run is None:
        return frozenset()
    return frozenset(row.id for row in ledger.attempts() if _row_sealed(run, seals, row))


def _row_sealed(run: str, seals: Mapping[tuple[str, int], str], row: AttemptRow) -> bool:
    return audit_seal.sealed(seals.get((ATTEMPT, row.id)), attempt_stated(run, row), _verdict_json(row))


def _why_not(sealed: frozenset[int], rows: Sequence[AttemptRow], samples: int) -> str:
    bad = [r for r in rows if r.id not in sealed]
    missing = samples - len({r.sample for r in rows if r.id in sealed})
    if bad:
        return f"{len(bad)} of its {len(rows)} samples' rows have {UNSEALED}"
    if missing:
        return (
            f"{missing} of its {samples} planned samples have no row (not run yet, the run stopped before them, "
            "or removed from the ledger)"
        )
    return ""
