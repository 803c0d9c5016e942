"""The run ledger's tables (``putnam_solver.run.ledger``) and how a ledger of an earlier version is brought
up to this one when it is opened, so that old runs still open, resume, report and audit.

Versions: 1, one attempt per campaign and problem (``UNIQUE (campaign, problem)``); 2, ``putnam solve
--samples``: an attempt is one sample of its problem in its campaign (``sample``, 1 for every attempt of a
version-1 ledger, ``UNIQUE (campaign, problem, sample)``), and so is an interruption; 3, a sketch is stored
when it is made (``ledger_sketches``): ``sketches`` names its attempt by campaign, problem, sample and run
key instead of the id of a stored attempt, which an interrupted attempt does not have. Each migration
rebuilds its table as SQLite's documented procedure for changing a constraint says (new table, copy,
drop, rename; foreign keys off meanwhile and checked before the commit), in one transaction: a ledger is
wholly of one version, whatever stops the process. It only adds: every row and column of the version
before is kept, so a migrated ledger reads as the same evidence.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from putnam_solver.run.ledger_rows import LedgerError
from putnam_solver.run.ledger_seals import SCHEMA as SEALS
from putnam_solver.run.ledger_sketches import MIGRATE_FROM_2
from putnam_solver.run.ledger_sketches import SCHEMA as SKETCHES

SCHEMA_VERSION = 3

_ATTEMPT_COLUMNS = (
    "id, campaign, problem, status, turns, input_tokens, output_tokens, cost_dollars, candidate, candidate_sha256, "
    "reviewer_feedback, error, transcript, recorded_at"
)

_ATTEMPTS = """
CREATE TABLE IF NOT EXISTS {name} (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(number),
    problem TEXT NOT NULL, status TEXT NOT NULL, turns INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cost_dollars REAL NOT NULL,
    candidate TEXT, candidate_sha256 TEXT, reviewer_feedback TEXT, error TEXT, transcript TEXT,
    recorded_at TEXT NOT NULL, sample INTEGER NOT NULL DEFAULT 1, UNIQUE (campaign, problem, sample));
"""

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (
    id INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS problems (
    id TEXT PRIMARY KEY, position INTEGER NOT NULL, statement_sha256 TEXT NOT NULL,
    challenge TEXT NOT NULL, challenge_sha256 TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
    number INTEGER PRIMARY KEY, fresh INTEGER NOT NULL, started_at TEXT NOT NULL, finished_at TEXT);
CREATE TABLE IF NOT EXISTS campaign_problems (
    campaign INTEGER NOT NULL REFERENCES campaigns(number), problem TEXT NOT NULL,
    PRIMARY KEY (campaign, problem));
"""
    + _ATTEMPTS.format(name="attempts")
    + """
CREATE TABLE IF NOT EXISTS verdicts (
    attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id), status TEXT NOT NULL,
    candidate_sha256 TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS gates (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id), position INTEGER NOT NULL, gate TEXT NOT NULL,
    name TEXT NOT NULL, status TEXT NOT NULL, detail TEXT NOT NULL, PRIMARY KEY (attempt_id, position));
CREATE TABLE IF NOT EXISTS interruptions (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(number), problem TEXT NOT NULL,
    turns INTEGER NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
    cost_dollars REAL NOT NULL, error TEXT, transcript TEXT, recorded_at TEXT NOT NULL,
    sample INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS turns (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id), turn INTEGER NOT NULL, json TEXT NOT NULL,
    PRIMARY KEY (attempt_id, turn));
CREATE TABLE IF NOT EXISTS audits (
    id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL REFERENCES attempts(id), audited_at TEXT NOT NULL,
    status TEXT NOT NULL, candidate_sha256 TEXT NOT NULL, toolchain TEXT NOT NULL,
    benchmark_sha256 TEXT NOT NULL, toolchain_changed INTEGER NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempt_notes (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id), key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (attempt_id, key));
CREATE TABLE IF NOT EXISTS subattempts (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(number), problem TEXT NOT NULL,
    parent TEXT NOT NULL, lemma TEXT NOT NULL, status TEXT NOT NULL, turns INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cost_dollars REAL NOT NULL,
    statement TEXT NOT NULL, statement_sha256 TEXT NOT NULL, candidate TEXT, candidate_sha256 TEXT,
    lemma_text TEXT, verdict TEXT, error TEXT, recorded_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rate_limits (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL, observed_at TEXT NOT NULL, retries INTEGER NOT NULL,
    connections TEXT);
"""
    + SKETCHES
    + SEALS
)


def create_or_migrate(
    db: sqlite3.Connection, path: Path, migration_guard: Callable[[], AbstractContextManager[object]]
) -> None:
    """Create the tables of a new ledger, or bring an earlier version's up to ``SCHEMA_VERSION``, one
    version at a time, inside ``migration_guard`` (the run lock: a run still going on under the putnam that
    wrote the old version must not find its tables changed under it); a ledger of a version this putnam
    does not know is refused (LedgerError), and ``db`` closed."""
    try:
        existing = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        version = _version(db) if existing else None
        if version is not None and version not in range(1, SCHEMA_VERSION + 1):
            raise LedgerError(
                f"{path}: ledger schema version {version}, this putnam reads versions 1 to {SCHEMA_VERSION}; "
                "use the putnam version that started this run, or start a new run directory"
            )
        if version is not None and version < SCHEMA_VERSION:
            with migration_guard():
                for step in range(version, SCHEMA_VERSION):
                    _migrate(db, step)
        db.executescript(SCHEMA)
        if _version(db) is None:
            db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    except BaseException:
        db.close()
        raise


def _version(db: sqlite3.Connection) -> int | None:
    found = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if found is None:
        return None
    try:
        return int(found[0])
    except (TypeError, ValueError):
        return -1  # refused as an unknown version


def _migrate(db: sqlite3.Connection, version: int) -> None:
    """Version ``version`` to the next, in one transaction (see the module's doc). Foreign keys must be off
    while a table is rebuilt (SQLite: "Making Other Kinds Of Table Schema Changes"); the caller turns them
    on after opening."""
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute("BEGIN IMMEDIATE")
    try:
        if _version(db) == version:  # another process may have migrated it while this one waited for the lock
            (_from_1 if version == 1 else _from_2)(db)
            broken = db.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise LedgerError(f"the ledger's references do not hold after the migration: {broken[:3]}")
            db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(version + 1),))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def _from_1(db: sqlite3.Connection) -> None:
    """Version 1 to 2: every attempt becomes sample 1 of its campaign and problem."""
    db.execute(_ATTEMPTS.format(name="attempts_v2"))
    db.execute(f"INSERT INTO attempts_v2 ({_ATTEMPT_COLUMNS}) SELECT {_ATTEMPT_COLUMNS} FROM attempts")
    db.execute("DROP TABLE attempts")
    db.execute("ALTER TABLE attempts_v2 RENAME TO attempts")
    if _has_table(db, "interruptions"):
        db.execute("ALTER TABLE interruptions ADD COLUMN sample INTEGER NOT NULL DEFAULT 1")


def _from_2(db: sqlite3.Connection) -> None:
    """Version 2 to 3: the sketches of stored attempts (a table a version-2 putnam made on open, so maybe
    absent) become the first sketch call of their attempts."""
    if not _has_table(db, "sketches"):
        return
    db.execute("ALTER TABLE sketches RENAME TO sketches_v2")
    db.execute(SKETCHES)
    db.execute(MIGRATE_FROM_2)
    db.execute("DROP TABLE sketches_v2")
