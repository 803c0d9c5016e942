"""Ledgers of schema version 1 (one attempt per campaign and problem, before ``--samples``) open under
version 2: every row kept with its id, each attempt sample 1, and the new constraint in force."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.ledger_rows import sha256_text
from putnam_solver.run.ledger_schema import SCHEMA_VERSION
from putnam_solver.run.report.data import ReportError, load_run
from putnam_solver.run.run_lock import RunLock

PID = "sample_even_square"

# The tables as version 1 created them (ledger.py before --samples), the ones this test fills.
V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE settings (id INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE campaigns (
    number INTEGER PRIMARY KEY, fresh INTEGER NOT NULL, started_at TEXT NOT NULL, finished_at TEXT);
CREATE TABLE campaign_problems (
    campaign INTEGER NOT NULL REFERENCES campaigns(number), problem TEXT NOT NULL,
    PRIMARY KEY (campaign, problem));
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(number),
    problem TEXT NOT NULL, status TEXT NOT NULL, turns INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cost_dollars REAL NOT NULL,
    candidate TEXT, candidate_sha256 TEXT, reviewer_feedback TEXT, error TEXT, transcript TEXT,
    recorded_at TEXT NOT NULL, UNIQUE (campaign, problem));
CREATE TABLE verdicts (
    attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id), status TEXT NOT NULL,
    candidate_sha256 TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE interruptions (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(number), problem TEXT NOT NULL,
    turns INTEGER NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
    cost_dollars REAL NOT NULL, error TEXT, transcript TEXT, recorded_at TEXT NOT NULL);
CREATE TABLE audits (
    id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL REFERENCES attempts(id), audited_at TEXT NOT NULL,
    status TEXT NOT NULL, candidate_sha256 TEXT NOT NULL, toolchain TEXT NOT NULL,
    benchmark_sha256 TEXT NOT NULL, toolchain_changed INTEGER NOT NULL, json TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '1');
"""
CANDIDATE = "Theorem t : True. Proof. exact I. Qed."


def _v1_ledger(path: Path, dangling: bool = False) -> None:
    """A version-1 ledger written with plain sqlite3: a pass (with its verdict and an audit), a
    rejection, an interruption; ``dangling``: also a verdict of an attempt that does not exist."""
    digest = sha256_text(CANDIDATE)
    verdict = json.dumps({"status": "accepted", "candidate_sha256": digest, "gates": []})
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.execute("INSERT INTO settings VALUES (1, '2026-01-01', ?)", (json.dumps({"config": {"prover": "rocq"}}),))
    db.execute("INSERT INTO campaigns VALUES (1, 0, '2026-01-01', '2026-01-01')")
    db.execute("INSERT INTO campaign_problems VALUES (1, ?), (1, 'other_problem')", (PID,))
    attempt = "INSERT INTO attempts VALUES (?, 1, ?, ?, 2, 10, 5, 0.25, ?, ?, NULL, NULL, NULL, '2026-01-01')"
    db.execute(attempt, (7, PID, "passed", CANDIDATE, digest))
    db.execute(attempt, (9, "other_problem", "rejected", "x", sha256_text("x")))
    db.execute("INSERT INTO verdicts VALUES (7, 'accepted', ?, ?)", (digest, verdict))
    db.execute(
        "INSERT INTO audits VALUES (1, 7, '2026-01-01', 'accepted', ?, 'tc', 'b', 0, ?)",
        (digest, verdict),
    )
    db.execute("INSERT INTO interruptions VALUES (3, 1, 'other_problem', 1, 4, 2, 0.1, 'Ctrl-C', NULL, '2026-01-01')")
    if dangling:
        db.execute("INSERT INTO verdicts VALUES (42, 'accepted', ?, ?)", (digest, verdict))
    db.commit()
    db.close()


def _version(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return str(db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0])
    finally:
        db.close()


def test_a_version_1_ledger_opens_with_every_row_kept_as_sample_1(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_NAME
    _v1_ledger(path)
    ledger = Ledger.open(path)
    try:
        rows = ledger.attempts()
        assert [(a.id, a.problem, a.status, a.sample) for a in rows] == [
            (9, "other_problem", "rejected", 1),
            (7, PID, "passed", 1),
        ]
        assert ledger.passed_problems() == {PID}
        # its audit is kept as history; written without this account's seal, it counts as no audit (audit_seal)
        assert [a.status for a in ledger.audits()] == ["accepted"] and ledger.audited_problems() == set()
        assert [(i.id, i.sample, i.cost_dollars) for i in ledger.interruptions()] == [(3, 1, 0.1)]
        assert ledger.attempted_samples(1) == {(PID, 1), ("other_problem", 1)}
        assert ledger.usage().attempts == 3
        # The new constraint: a second sample of the problem is stored, sample 1 again is not.
        second = AttemptResult(PID, "rejected", 1, 1, 1, 0.0, "y", None, sample=2)
        again = AttemptResult(PID, "rejected", 1, 1, 1, 0.0, "z", None, sample=1)
        stored = ledger.record_attempts(1, [second, again])
        assert [(r.problem, r.sample) for r in stored] == [(PID, 2)]
    finally:
        ledger.close()
    assert _version(path) == str(SCHEMA_VERSION)
    reopened = Ledger.open(path)  # a migrated ledger opens as it is
    try:
        assert len(reopened.attempts()) == 3
    finally:
        reopened.close()


def test_foreign_keys_hold_after_the_migration(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_NAME
    _v1_ledger(path)
    Ledger.open(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys=ON")
    try:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):  # verdicts still reference the rebuilt attempts
            db.execute("INSERT INTO verdicts VALUES (1000, 'accepted', 'x', '{}')")
    finally:
        db.close()


def test_a_version_1_ledger_with_a_broken_reference_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_NAME
    _v1_ledger(path, dangling=True)
    with pytest.raises(LedgerError, match="references"):
        Ledger.open(path)
    assert _version(path) == "1"
    db = sqlite3.connect(path)
    try:
        columns = [r[1] for r in db.execute("PRAGMA table_info(attempts)")]
    finally:
        db.close()
    assert "sample" not in columns  # the rollback left version 1 whole


def test_an_edited_sample_index_is_refused(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_NAME
    _v1_ledger(path)
    Ledger.open(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE attempts SET sample='../x' WHERE id=7")
    db.commit()
    db.close()
    ledger = Ledger.open(path)
    try:
        with pytest.raises(LedgerError, match="not a number"):
            ledger.attempts()
    finally:
        ledger.close()


def test_a_version_1_ledger_of_a_run_going_on_is_left_alone(tmp_path: Path) -> None:
    """A run still going on under the putnam that wrote version 1 holds the run lock: `putnam report` or
    `export` opening its ledger meanwhile must not change the tables under it."""
    path = tmp_path / LEDGER_NAME
    _v1_ledger(path)
    with RunLock(tmp_path), pytest.raises(LedgerError, match=r"earlier version.*in use by PID.*run this command again"):
        Ledger.open(path)
    assert _version(path) == "1"
    with pytest.raises(ReportError, match="earlier version"), RunLock(tmp_path):
        load_run(tmp_path)
    assert _version(path) == "1"
    Ledger.open(path).close()  # the run has ended: the lock is free, the ledger is brought up to date
    assert _version(path) == str(SCHEMA_VERSION)


def test_the_holder_of_the_run_lock_brings_the_ledger_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_NAME
    _v1_ledger(path)
    with RunLock(tmp_path):
        Ledger.open(path, holding_run_lock=True).close()
    assert _version(path) == str(SCHEMA_VERSION)
