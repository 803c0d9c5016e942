"""The run ledger: one SQLite database (WAL) in the run directory, the source of truth of a ``putnam solve``.

Everything a run did is recorded here: the settings it was started with, the problems and their
harness-derived challenges, every campaign and its selection, every attempt with its turns, usage, cost,
candidate and hash, the verdict with every gate's detail, and the provider's rate limiting as each campaign
observed it. Every output file of the run (SUMMARY.md, attempts.tsv, evidence folders, report.html ...) is
derived from these tables alone, so after a ``kill -9`` the outputs can be rebuilt and the run resumed
without guessing.

Soundness: an attempt and its verdict are stored in one transaction, and a problem counts as passed only
if an attempt marked ``passed`` has a stored verdict that is ``accepted`` for exactly the stored
candidate bytes (checked again on every read, see ``passed_problems``).

An attempt stopped by an interruption (Ctrl-C) has no outcome: it is kept apart, in ``interruptions``,
with what it spent, so that its spend counts against the budgets while its problem stays unattempted in
its campaign and ``--resume`` runs it again there (``attempts`` holds one outcome per campaign,
problem and sample). The table is created on open, so ledgers written before it existed read the same.
It also holds what an attempt in flight has spent by its last model call (``record_spend``), replaced by
its outcome in the transaction that records it, and kept as lost spend when the process ends first.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from putnam_solver.core.util import InputError
from putnam_solver.run.ledger_audits import COLUMNS as AUDIT_COLUMNS
from putnam_solver.run.ledger_audits import audit_row, insert_audit, newest_own
from putnam_solver.run.ledger_clock import ledger_now
from putnam_solver.run.ledger_rows import (
    IN_FLIGHT,
    INTERRUPTED,
    LOST,
    SUBATTEMPT_COLUMNS,
    AttemptRow,
    AuditRow,
    CampaignRow,
    LedgerError,
    ProblemRow,
    RateLimitRow,
    SubAttemptRow,
    Usage,
    attempt_row,
    checked_flag,
    checked_id,
    checked_number,
    checked_sample,
    checked_spend,
    checked_time,
    json_object,
    now,
    problem_row,
    rate_limit_row,
    sha256_text,
    strict_text,
    subattempt_row,
)
from putnam_solver.run.ledger_schema import SCHEMA, SCHEMA_VERSION, create_or_migrate
from putnam_solver.run.ledger_seals import seal_attempt, seal_plan
from putnam_solver.run.ledger_side_files import check_ledger_file, check_side_files
from putnam_solver.run.ledger_sketches import COLUMNS as SKETCH_COLUMNS
from putnam_solver.run.ledger_sketches import SketchMade, SketchRow, sketch_row, upsert_sketch
from putnam_solver.run.ledger_types import check_schema_objects, check_stored_types
from putnam_solver.run.ledger_writes import (
    dump_json,
    insert_attempt,
    insert_interruption,
    insert_subattempt,
)
from putnam_solver.run.run_lock import RunLock

__all__ = [  # the rows live in ledger_rows; importers keep importing them from here
    "INTERRUPTED",
    "LEDGER_NAME",
    "RATE_LIMITS_SINCE",
    "SCHEMA_VERSION",
    "AttemptRow",
    "AuditRow",
    "CampaignRow",
    "Ledger",
    "LedgerError",
    "ProblemRow",
    "RateLimitRow",
    "SubAttemptRow",
    "Usage",
    "now",
    "sha256_text",
]

if TYPE_CHECKING:  # only the type: importing the agent package would load Inspect AI
    from putnam_solver.run.agent.types import AttemptResult, SubAttemptResult

LEDGER_NAME = "ledger.sqlite"
RATE_LIMITS_SINCE = "rate_limits_since_campaign"
"""Meta key: the first campaign whose rate limiting was recorded (runs started before the ledger kept it
have none)."""


@contextmanager
def _migration_lock(path: Path) -> Iterator[None]:
    """The run lock of the ledger's directory, held while an old ledger is brought up to date."""
    lock = RunLock(path.parent)
    try:
        lock.__enter__()
    except InputError as exc:
        raise LedgerError(
            f"{path}: the ledger is of an earlier version and must be brought up to this one, but {exc}; "
            "it is left as it was: run this command again once that run has ended"
        ) from None
    try:
        yield
    finally:
        lock.__exit__()


_DROP_IN_FLIGHT = "DELETE FROM interruptions WHERE campaign=? AND problem=? AND sample=? AND error=?"


class Ledger:
    """The run's SQLite database. Safe to share between threads: every call takes the ledger's lock."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self._lock = threading.Lock()
        self.path = path

    @classmethod
    def open(cls, path: Path, *, holding_run_lock: bool = False) -> Ledger:
        """Open (creating if needed) the ledger at ``path`` in WAL mode with full-sync commits. A ledger of an
        earlier version is brought up to this one under the run lock: taken here unless the caller
        ``holding_run_lock`` holds it already; when another process holds it, the ledger is left as it is
        and LedgerError says so."""
        guard = nullcontext if holding_run_lock else partial(_migration_lock, path)
        if path.is_symlink():  # SQLite follows a link to the database: the ledger would be another file
            raise LedgerError(
                f"{path} is a symbolic link; not followed (a run's ledger is a file of its run directory, and "
                "reading it can write to it)"
            )
        check_ledger_file(path)
        check_side_files(path)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
            try:
                db.text_factory = strict_text(path)
                check_schema_objects(db, path)  # before the first statement that touches a table
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                create_or_migrate(db, path, guard)
                check_stored_types(db, path, SCHEMA)
                db.execute("PRAGMA foreign_keys=ON")
            except BaseException:
                db.close()
                raise
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{path}: cannot open the run ledger: {exc}") from exc
        return cls(db, path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: everything inside is committed together or not at all."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # -- settings and metadata -------------------------------------------------------------------------

    def journal_mode(self) -> str:
        return str(self._query("PRAGMA journal_mode")[0][0])

    def settings(self) -> dict[str, Any] | None:
        """The latest settings recorded for this run (None for a new ledger)."""
        rows = self._query("SELECT json FROM settings ORDER BY id DESC LIMIT 1")
        return json_object(rows[0][0], f"{self.path}: settings") if rows else None

    def settings_history(self) -> list[tuple[str, dict[str, Any]]]:
        """Every settings record with the time it was recorded, oldest first: a run records its settings
        when it starts and at each resume (with the toolchain fingerprint it then runs on)."""
        rows = self._query("SELECT recorded_at, json FROM settings ORDER BY id")
        return [(str(at), json_object(text, f"{self.path}: settings")) for at, text in rows]

    def record_settings(self, settings: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO settings (recorded_at, json) VALUES (?, ?)", (ledger_now(db), dump_json(settings)))

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key=?", (key,))
        return str(rows[0][0]) if rows else None

    # -- problems ----------------------------------------------------------------------------------------

    def record_problems(self, problems: Sequence[tuple[str, str, str]]) -> None:
        """Store (id, statement SHA-256, challenge) of problems not stored yet; stored ones never change."""
        with self._transaction() as db:
            start = db.execute("SELECT COUNT(*) FROM problems").fetchone()[0]
            db.executemany(
                "INSERT INTO problems VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                [
                    (pid, start + i, statement, challenge, sha256_text(challenge))
                    for i, (pid, statement, challenge) in enumerate(problems)
                ],
            )

    def problems(self) -> dict[str, ProblemRow]:
        rows = self._query("SELECT id, statement_sha256, challenge, challenge_sha256 FROM problems")
        return {r[0]: problem_row(r, f"{self.path}: problems") for r in rows}

    # -- campaigns ---------------------------------------------------------------------------------------

    def start_campaign(self, number: int, problems: Sequence[str], fresh: bool, samples: int) -> None:
        """Store a campaign's start with its selection, and seal its plan of ``samples`` per problem."""
        with self._transaction() as db:
            db.execute("INSERT INTO campaigns VALUES (?, ?, ?, NULL)", (number, int(fresh), ledger_now(db)))
            db.executemany("INSERT INTO campaign_problems VALUES (?, ?)", [(number, p) for p in problems])
            seal_plan(db, number, problems, samples)

    def finish_campaign(self, number: int) -> None:
        with self._transaction() as db:
            db.execute("UPDATE campaigns SET finished_at=? WHERE number=?", (ledger_now(db), number))

    def campaigns(self) -> list[CampaignRow]:
        selections: dict[int, list[str]] = {}
        for campaign, problem in self._query(
            "SELECT campaign, problem FROM campaign_problems ORDER BY campaign, problem"
        ):
            where = f"{self.path}: campaign {campaign!r}"
            selections.setdefault(checked_number(campaign, where), []).append(checked_id(problem, where))
        rows = self._query("SELECT number, fresh, started_at, finished_at FROM campaigns ORDER BY number")
        where = f"{self.path}: campaigns"
        return [
            CampaignRow(
                checked_number(n, where),
                checked_flag(f, f"{where}: campaign {n!r}: fresh"),
                checked_time(s, f"{where}: {n!r} started_at"),
                checked_time(e, f"{where}: {n!r} finished_at", optional=True),
                tuple(selections.get(n, ())),
            )
            for n, f, s, e in rows
        ]

    # -- attempts ----------------------------------------------------------------------------------------

    def record_attempts(self, campaign: int, results: Sequence[AttemptResult]) -> list[AttemptRow]:
        """Store finished attempts, each with its verdict, gates and turns, in one transaction.

        An attempt already stored for the same (campaign, problem, sample) is not stored again: an attempt is
        never counted twice. An ``interrupted`` one goes to ``interruptions`` (see the module's doc).
        Returns the rows that were stored.
        """
        stored: list[AttemptRow] = []
        with self._transaction() as db:
            for result in results:
                db.execute(_DROP_IN_FLIGHT, (campaign, result.problem, result.sample, IN_FLIGHT))
                insert = insert_interruption if result.status == INTERRUPTED else insert_attempt
                row = insert(db, campaign, result)
                if row is not None:
                    stored.append(row)
                    if row.status != INTERRUPTED:  # sealed as this account's (``ledger_seals``)
                        seal_attempt(db, row)
        return stored

    def record_spend(
        self, campaign: int, problem: str, sample: int, turns: int, tokens: tuple[int, int], dollars: float
    ) -> None:
        """What an attempt in flight has spent so far, kept until its outcome replaces it: after ``kill -9``
        (or a crash) between a model call and the attempt's record, the spend is still in the run's
        totals and budgets (``settle_in_flight`` marks it lost), where it was forgotten and the resumed
        run spent it again under the same budget."""
        with self._transaction() as db:
            db.execute(_DROP_IN_FLIGHT, (campaign, problem, sample, IN_FLIGHT))
            db.execute(
                "INSERT INTO interruptions (campaign, problem, turns, input_tokens, output_tokens, cost_dollars, "
                "error, transcript, recorded_at, sample) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                (campaign, problem, turns, *tokens, dollars, IN_FLIGHT, ledger_now(db), sample),
            )

    def settle_in_flight(self) -> int:
        """Mark the spend of attempts in flight that an earlier process left as lost (run before this one's
        attempts start); returns how many."""
        with self._transaction() as db:
            return db.execute("UPDATE interruptions SET error=? WHERE error=?", (LOST, IN_FLIGHT)).rowcount

    def attempts(self) -> list[AttemptRow]:
        """Every stored attempt, by campaign then problem."""
        rows = self._query(
            "SELECT a.id, a.campaign, a.problem, a.status, a.turns, a.input_tokens, a.output_tokens, "
            "a.cost_dollars, a.candidate, a.candidate_sha256, a.reviewer_feedback, a.error, a.transcript, "
            "v.json, a.recorded_at, a.sample FROM attempts a LEFT JOIN verdicts v ON v.attempt_id = a.id "
            "ORDER BY a.campaign, a.problem, a.sample"
        )
        return [attempt_row(r, str(self.path)) for r in rows]

    def interruptions(self) -> list[AttemptRow]:
        """Every attempt stopped by an interruption, by campaign then problem, in the order recorded."""
        rows = self._query(
            "SELECT id, campaign, problem, turns, input_tokens, output_tokens, cost_dollars, error, transcript, "
            "sample FROM interruptions ORDER BY campaign, problem, id"
        )
        found = []
        for r in rows:
            where = f"{self.path}: interruption {r[0]!r}"
            campaign, problem, sample = (
                checked_number(r[1], where),
                checked_id(r[2], where),
                checked_sample(r[9], where),
            )
            checked_spend(r[3], r[4], r[5], r[6], where)
            spent = (r[3], r[4], r[5], r[6])
            found.append(
                AttemptRow(r[0], campaign, problem, INTERRUPTED, *spent, None, None, None, r[7], r[8], None, "", sample)
            )
        return found

    def every_attempt(self) -> list[AttemptRow]:
        """Every attempt, the interrupted ones included, by campaign then problem (an interrupted attempt
        before the one that ran its problem again)."""
        return sorted([*self.interruptions(), *self.attempts()], key=lambda a: (a.campaign, a.problem, a.sample))

    def attempted(self, campaign: int) -> set[str]:
        """The problems of this campaign with an outcome of at least one sample (an interrupted attempt has
        none)."""
        return {problem for problem, _ in self.attempted_samples(campaign)}

    def attempted_samples(self, campaign: int) -> set[tuple[str, int]]:
        """The (problem, sample) pairs of this campaign with an outcome."""
        rows = self._query("SELECT problem, sample FROM attempts WHERE campaign=?", (campaign,))
        return {(str(problem), int(sample)) for problem, sample in rows}

    def passed_problems(self) -> set[str]:
        """Problems with a verified pass: see ``AttemptRow.verified_pass``."""
        return {a.problem for a in self.attempts() if a.verified_pass}

    def seals(self) -> dict[tuple[str, int], str]:
        """The stored seals of attempt rows and sample plans, by kind and reference (``ledger_seals``)."""
        where = f"{self.path}: seals"  # text in ref ended `putnam report` in a ValueError (red team round 12)
        rows = self._query("SELECT kind, ref, seal FROM seals")
        return {(str(k), checked_number(r, f"{where}: ref")): str(v) for k, r, v in rows}

    def unverified_passes(self) -> list[AttemptRow]:
        """Attempts marked passed whose stored verdict does not back them; they never count."""
        return [a for a in self.attempts() if a.status == "passed" and not a.verified_pass]

    # -- audits ------------------------------------------------------------------------------------------

    def record_audit(
        self,
        attempt_id: int,
        verdict: dict[str, Any],
        toolchain: str,
        benchmark_sha256: str,
        toolchain_changed: bool,
    ) -> AuditRow:
        """Store one re-verification of a stored attempt (``verdict`` is ``Verdict.to_json()``), sealed as this
        account's (``audit_seal``)."""
        with self._transaction() as db:
            return insert_audit(db, attempt_id, verdict, toolchain, benchmark_sha256, toolchain_changed)

    def audits(self) -> list[AuditRow]:
        """Every audit, oldest first."""
        rows = self._query(f"SELECT {AUDIT_COLUMNS} FROM audits ORDER BY id")
        return [audit_row(r, str(self.path)) for r in rows]

    def latest_audits(self) -> dict[int, AuditRow]:
        """The newest audit of each audited attempt, by attempt id, among the audits this account's ``putnam
        audit`` made (``AuditRow.own``): any other row is history, never counted as an audit (``newest_own``)."""
        return newest_own(self.audits())

    def foreign_audits(self) -> int:
        """How many audit rows this account's ``putnam audit`` did not write (``audit_seal``)."""
        return sum(not a.own for a in self.audits())

    def audited_problems(self) -> set[str]:
        """Problems with a verified pass whose newest audit accepted exactly the stored candidate bytes."""
        latest = self.latest_audits()
        return {
            a.problem
            for a in self.attempts()
            if a.verified_pass and (audit := latest.get(a.id)) is not None and audit.confirms(a)
        }

    # -- lemma sub-attempts and attempt notes ---------------------------------------------------------------

    def record_subattempts(self, campaign: int, results: Sequence[SubAttemptResult]) -> list[SubAttemptRow]:
        """Store finished lemma sub-attempts (each at once, whatever its attempt does later)."""
        with self._transaction() as db:
            return [insert_subattempt(db, campaign, r) for r in results]

    def subattempts(self) -> list[SubAttemptRow]:
        """Every stored sub-attempt, oldest first."""
        rows = self._query(f"SELECT {SUBATTEMPT_COLUMNS} FROM subattempts ORDER BY id")
        return [subattempt_row(r, str(self.path)) for r in rows]

    def proved_lemmas(self, problem: str) -> list[SubAttemptRow]:
        """The lemmas of ``problem`` the gates accepted, one per statement (the first proof of each)."""
        found: dict[str, SubAttemptRow] = {}
        for row in self.subattempts():
            if row.problem == problem and row.proved:
                found.setdefault(row.statement_sha256, row)
        return list(found.values())

    def record_sketch(self, campaign: int, made: SketchMade) -> None:
        """Store a ``sketch`` call when it is made, and its progress later (``ledger_sketches``)."""
        with self._transaction() as db:
            upsert_sketch(db, campaign, made)

    def sketches(self) -> list[SketchRow]:
        """Every sketch call of the run's attempts, the interrupted ones' included, in the order made."""
        rows = self._query(f"SELECT {SKETCH_COLUMNS} FROM sketches ORDER BY id")
        return [sketch_row(r, str(self.path)) for r in rows]

    def attempt_notes(self) -> dict[int, dict[str, str]]:
        """Per attempt id: its notes (``key``: the attempt's run key, ``plan``: its informal plan)."""
        notes: dict[int, dict[str, str]] = {}
        for attempt_id, key, value in self._query("SELECT attempt_id, key, value FROM attempt_notes"):
            where = f"{self.path}: attempt_notes"  # text where the attempt's id goes: "a bug in putnam" before
            notes.setdefault(checked_number(attempt_id, where), {})[str(key)] = str(value)
        return notes

    # -- turns and rate limiting -------------------------------------------------------------------------

    def turns(self, attempt_id: int) -> list[dict[str, Any]]:
        """The turn log of one attempt (per turn: tool, digest of its arguments, start of its result)."""
        rows = self._query("SELECT json FROM turns WHERE attempt_id=? ORDER BY turn", (attempt_id,))
        return [json_object(r[0], f"{self.path}: turn of attempt {attempt_id}") for r in rows]

    def record_rate_limit(
        self, campaign: int, retries: int, connections: str | None, observed_at: str | None = None
    ) -> None:
        """Store one observation of the provider's rate limiting (see ``RateLimitRow``)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO rate_limits (campaign, observed_at, retries, connections) VALUES (?, ?, ?, ?)",
                (campaign, observed_at or ledger_now(db), retries, connections),
            )

    def rate_limits(self) -> list[RateLimitRow]:
        """Every observation of rate limiting, in the order recorded."""
        rows = self._query("SELECT campaign, observed_at, retries, connections FROM rate_limits ORDER BY id")
        return [rate_limit_row(row, f"{self.path}: rate_limits") for row in rows]

    def usage(self) -> Usage:
        """What every attempt of the run spent, the interrupted ones included."""
        row = self._query(
            "SELECT COUNT(*), COALESCE(SUM(turns), 0), COALESCE(SUM(input_tokens), 0), "
            "COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cost_dollars), 0.0) FROM ("
            "SELECT turns, input_tokens, output_tokens, cost_dollars FROM attempts UNION ALL "
            "SELECT turns, input_tokens, output_tokens, cost_dollars FROM interruptions)"
        )[0]
        return Usage(int(row[0]), int(row[1]), int(row[2]), int(row[3]), float(row[4]))
