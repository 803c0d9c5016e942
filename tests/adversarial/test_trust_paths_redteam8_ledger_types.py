"""Red team round 8 of the trust paths: ledger values of another SQLite type than putnam writes.

Every reader of a run directory handed over checks the values it uses, but SQLite lets an edit store
any value in any column, and Python's ``sqlite3`` hands it over as it is. Before this round, a BLOB in
``attempts.transcript`` or ``attempts.error``, a ``candidate`` whose text is not UTF-8, or a column
dropped from a table ended ``putnam report``, ``export`` and ``audit`` alike in "unexpected TypeError /
OperationalError ... This is a bug in putnam" (exit 2, naming no file, table or fix). Now the ledger is
refused whole as it is opened, by table and column (``run/ledger_types.py``, ``ledger_rows.strict_text``);
text in a number column keeps the readers' own refusal, and an honest ledger reads as before.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from tests.helpers import REPO, sql
from tests.integration.campaign_driver import recorded_lean_settings

PID = "putnam_1962_a1"
EDITED = "the ledger was edited after the run"

EDITS = {
    "a blob transcript": ("UPDATE attempts SET transcript=x'41'", "attempts.transcript holds a blob value"),
    "a blob error": ("UPDATE attempts SET error=x'41'", "attempts.error holds a blob value"),
    "a blob candidate": ("UPDATE attempts SET candidate=x'4141'", "attempts.candidate holds a blob value"),
    "a blob cost": ("UPDATE attempts SET cost_dollars=x'00'", "attempts.cost_dollars holds a blob value"),
    "a blob gate detail": ("UPDATE gates SET detail=x'41'", "gates.detail holds a blob value"),
    "a blob setting": ("UPDATE settings SET json=x'7b7d'", "settings.json holds a blob value"),
    "a candidate not UTF-8": ("UPDATE attempts SET candidate=CAST(x'ff41' AS TEXT)", "a text column is not UTF-8"),
    "a problem id not UTF-8": ("UPDATE attempts SET problem=CAST(x'c0' AS TEXT)", "a text column is not UTF-8"),
    "a dropped column": ("ALTER TABLE attempts DROP COLUMN transcript", "table attempts has no column transcript"),
}


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run of one Lean problem with one recorded attempt, as `putnam solve` leaves it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "run"
    folder.mkdir()
    ledger = Ledger.open(folder / LEDGER_NAME)
    ledger.record_settings(recorded_lean_settings([PID]).to_json())
    ledger.start_campaign(1, [PID], fresh=False, samples=1)
    ledger.record_attempts(1, [AttemptResult(PID, "rejected", 2, 10, 5, 0.25, "candidate", None, sample=1)])
    ledger.close()
    return folder


def putnam(*args: object) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "putnam_solver", *map(str, args)], capture_output=True, text=True, env=env, timeout=300
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_value_of_another_type_refuses_the_ledger_by_name(run_dir: Path, edit: str) -> None:
    statement, refusal = EDITS[edit]
    if "gates" in statement:  # a gate row, as a verdict leaves one
        sql(run_dir, "INSERT INTO gates VALUES ((SELECT MIN(id) FROM attempts), 0, 'G1', 'n', 'passed', 'd')")
    sql(run_dir, statement)
    with pytest.raises(LedgerError) as refused:  # as it is opened, or (text not UTF-8) as the row is read
        Ledger.open(run_dir / LEDGER_NAME).attempts()
    assert refusal in str(refused.value) and EDITED in str(refused.value)
    assert str(run_dir / LEDGER_NAME) in str(refused.value)


@pytest.mark.parametrize("edit", ["a blob transcript", "a candidate not UTF-8", "a dropped column"])
def test_every_reader_refuses_it_with_exit_2_and_no_bug_report(run_dir: Path, tmp_path: Path, edit: str) -> None:
    sql(run_dir, EDITS[edit][0])
    for command in (("report", run_dir), ("export", run_dir, "--proofs", tmp_path / "proofs"), ("audit", run_dir)):
        code, output = putnam(*command)
        assert code == 2 and EDITS[edit][1] in output and EDITED in output, (command, output)
        assert "a bug in putnam" not in output and "unexpected" not in output, output
    assert not (tmp_path / "proofs").exists()


def test_text_in_a_number_column_keeps_the_reader_s_own_refusal(run_dir: Path) -> None:
    sql(run_dir, "UPDATE attempts SET turns='x'")
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        with pytest.raises(LedgerError, match="'x' is not a number"):
            ledger.attempts()
    finally:
        ledger.close()


def test_an_honest_ledger_reads_and_reports_as_before(run_dir: Path) -> None:
    sql(run_dir, "UPDATE attempts SET error=5")  # a number in a TEXT column is stored as text by SQLite
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        (attempt,) = ledger.attempts()
        assert attempt.candidate == "candidate" and attempt.error == "5"
    finally:
        ledger.close()
    code, output = putnam("report", run_dir)
    assert code == 0 and "report.html" in output, output
