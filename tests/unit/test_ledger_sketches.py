"""Sketches in the run ledger: stored with their attempt, read back whole, and a ledger whose sketch was
edited (its skeleton, its length, its problem id) refused whole; an interrupted attempt keeps none."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.ledger_sketches import MAX_SKETCH_CHARS

INFORMAL = "Complete the square: x^2 + 2x = (x + 1)^2 - 1 >= -1."
SKELETON = "Lemma lower : forall x : R, x ^ 2 + 2 * x >= -1.\nProof.\nAdmitted.\n"


def result(
    problem: str, status: str = "rejected", sketch: tuple[str, str] | None = (INFORMAL, SKELETON)
) -> AttemptResult:
    return AttemptResult(problem, status, 2, 100, 20, 0.1, None, None, sketch=sketch)


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    opened = Ledger.open(tmp_path / LEDGER_NAME)
    opened.start_campaign(1, ["p_one", "p_two", "p_three"], fresh=False)
    opened.record_attempts(1, [result("p_one"), result("p_two", sketch=None), result("p_three", "interrupted")])
    yield opened
    opened.close()


def test_a_sketch_is_stored_with_its_attempt_and_read_back_whole(ledger: Ledger) -> None:
    [row] = ledger.sketches()
    [attempt] = [a for a in ledger.attempts() if a.problem == "p_one"]
    assert (row.attempt_id, row.campaign, row.problem) == (attempt.id, 1, "p_one")
    assert (row.informal_proof, row.skeleton) == (INFORMAL, SKELETON)


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
        ("UPDATE attempts SET problem = ? WHERE problem = 'p_one'", ("../../etc",), "not an id"),
    ],
)
def test_an_edited_sketch_refuses_the_ledger(
    ledger: Ledger, tmp_path: Path, sql: str, args: tuple[object, ...], why: str
) -> None:
    edit(tmp_path, sql, *args)
    with pytest.raises(LedgerError, match=why):
        ledger.sketches()


def test_a_sketch_of_the_longest_kept_length_reads_back(ledger: Ledger, tmp_path: Path) -> None:
    edit(tmp_path, "UPDATE sketches SET informal_proof = ?", "x" * MAX_SKETCH_CHARS)
    [row] = ledger.sketches()
    assert len(row.informal_proof) == MAX_SKETCH_CHARS
