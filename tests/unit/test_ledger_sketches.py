"""Sketches in the run ledger: stored when made (with no stored attempt, as for an interrupted one), completed
as their call goes on, read back whole, and a ledger whose sketch was edited (its skeleton, its length,
its counts, its problem id) refused whole; a version-2 ledger's sketches are migrated to version 3."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.ledger_rows import sha256_text
from putnam_solver.run.ledger_schema import SCHEMA_VERSION
from putnam_solver.run.ledger_sketches import MAX_SKETCH_CHARS, SketchMade
from putnam_solver.run.run_lock import RunLock

INFORMAL = "Complete the square: x^2 + 2x = (x + 1)^2 - 1 >= -1."
SKELETON = "Lemma lower : forall x : R, x ^ 2 + 2 * x >= -1.\nProof.\nAdmitted.\n"
MADE = SketchMade("p_one", 1, "key-one", 1, INFORMAL, SKELETON)


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    opened = Ledger.open(tmp_path / LEDGER_NAME)
    opened.start_campaign(1, ["p_one", "p_two"], fresh=False, samples=1)
    opened.record_sketch(1, MADE)
    yield opened
    opened.close()


def test_a_sketch_is_stored_when_made_without_a_stored_attempt_and_completed_later(ledger: Ledger) -> None:
    [made] = ledger.sketches()
    assert ledger.attempts() == [], "no attempt has an outcome yet: the sketch is stored on its own"
    slot = (made.campaign, made.problem, made.sample, made.attempt_key, made.call_index)
    assert slot == (1, "p_one", 1, "key-one", 1)
    texts = (made.informal_proof, made.skeleton)
    assert texts == (INFORMAL, SKELETON) and made.holes is made.proved is made.assembled_sha256 is None
    ledger.record_sketch(1, replace(MADE, holes=2, proved=0))
    ledger.record_sketch(1, replace(MADE, holes=2, proved=2, assembled_sha256=sha256_text("whole")))
    ledger.record_sketch(1, replace(MADE, call_index=2, informal_proof="again", skeleton="Lemma again."))
    first, second = ledger.sketches()
    assert (first.id, first.holes, first.proved, first.assembled_sha256) == (made.id, 2, 2, sha256_text("whole"))
    assert (first.informal_proof, first.skeleton) == (INFORMAL, SKELETON), "a call's texts never change"
    assert (second.call_index, second.informal_proof, second.holes) == (2, "again", None)


def test_an_interrupted_attempt_keeps_its_sketch(ledger: Ledger) -> None:
    interrupted = AttemptResult("p_one", "interrupted", 2, 100, 20, 0.1, None, None, key="key-one")
    ledger.record_attempts(1, [interrupted])
    assert [i.problem for i in ledger.interruptions()] == ["p_one"]
    assert [s.attempt_key for s in ledger.sketches()] == ["key-one"]


def edit(tmp_path: Path, sql: str, *args: object) -> None:
    db = sqlite3.connect(tmp_path / LEDGER_NAME)
    db.execute(sql, args)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("sql", "args", "why"),
    [
        ("UPDATE sketches SET skeleton = ?", ("Lemma lower : False.\nProof.\nAdmitted.\n",), "stored hash"),
        ("UPDATE sketches SET informal_proof = ?", ("x" * (MAX_SKETCH_CHARS + 1),), "at most"),
        ("UPDATE sketches SET informal_proof = ?", (b"\xff",), "not text"),  # a blob: SQLite keeps it a blob
        ("UPDATE sketches SET problem = ?", ("../../etc",), "not an id"),
        ("UPDATE sketches SET sample = ?", (0,), "sample"),
        ("UPDATE sketches SET holes = 1, proved = ?", (2,), "not a count"),
        ("UPDATE sketches SET holes = ?", ("two",), "not a number"),
        ("UPDATE sketches SET assembled_sha256 = ?", ("../x",), "SHA-256"),
    ],
)
def test_an_edited_sketch_refuses_the_ledger(
    ledger: Ledger, tmp_path: Path, sql: str, args: tuple[object, ...], why: str
) -> None:
    edit(tmp_path, sql, *args)
    with pytest.raises(LedgerError, match=why):
        ledger.sketches()


def test_a_sketch_of_the_longest_kept_length_and_full_counts_reads_back(ledger: Ledger, tmp_path: Path) -> None:
    edit(tmp_path, "UPDATE sketches SET informal_proof = ?, holes = 3, proved = 3", "x" * MAX_SKETCH_CHARS)
    [row] = ledger.sketches()
    assert len(row.informal_proof) == MAX_SKETCH_CHARS and (row.holes, row.proved) == (3, 3)


V2_SKETCHES = """
CREATE TABLE sketches (
    attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id), informal_proof TEXT NOT NULL,
    skeleton TEXT NOT NULL, skeleton_sha256 TEXT NOT NULL);
"""
"""The sketches table as version 2 created it (one per stored attempt, keyed by its id)."""


def test_a_version_2_ledger_s_sketches_become_the_first_call_of_their_attempts(tmp_path: Path) -> None:
    path = tmp_path / LEDGER_NAME
    opened = Ledger.open(path)
    opened.start_campaign(1, ["p_one", "p_two"], fresh=False, samples=1)
    attempts = [AttemptResult(p, "rejected", 1, 1, 1, 0.0, None, None, key=f"key-{p}") for p in ("p_one", "p_two")]
    [one, two] = opened.record_attempts(1, attempts)
    opened.close()
    db = sqlite3.connect(path)  # back to version 2: only its sketches table differs
    db.execute("DROP TABLE sketches")
    db.executescript(V2_SKETCHES)
    db.execute("INSERT INTO sketches VALUES (?, ?, ?, ?)", (two.id, INFORMAL, SKELETON, sha256_text(SKELETON)))
    db.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with RunLock(tmp_path), pytest.raises(LedgerError, match="earlier version"):
        Ledger.open(path)  # a run going on under a version-2 putnam: its sketches table is left alone
    reopened = Ledger.open(path)
    try:
        [row] = reopened.sketches()
        reopened.record_sketch(1, replace(MADE, attempt_key="key-p_one"))  # the new shape takes new sketches
        assert len(reopened.sketches()) == 2
    finally:
        reopened.close()
    assert (row.campaign, row.problem, row.sample, row.attempt_key, row.call_index) == (1, "p_two", 1, "key-p_two", 1)
    assert (row.informal_proof, row.skeleton, row.holes, row.proved) == (INFORMAL, SKELETON, None, None)
    assert one.id != two.id and SCHEMA_VERSION == 3
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("3",)
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'sketches_v2'").fetchall() == []
    finally:
        db.close()
