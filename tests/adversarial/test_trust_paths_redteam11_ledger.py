"""Red team round 11 of the trust paths, third part: ledger values no reader checked.

SQLite keeps text in an INTEGER column (``ledger_types`` leaves that to the readers), and two readers took
such text to ``int()``: an ``attempt_notes`` row whose attempt id is text, and the ``meta`` table's campaign
from which rate limits were recorded. ``putnam report`` ended in "unexpected ValueError ... This is a bug in
putnam"; each is now refused as an edited ledger, by table, and the report's refusal no longer says "cannot
write the run's evidence folders ... Report on a writable copy" when the ledger, not the disk, is at fault.
So did a stored verdict whose gate lacks a key ``GateResult.to_json`` writes (``KeyError: 'id'``) or whose
evidence is not an object; a verdict's gates are now checked for them as it is read
(``ledger_rows.verdict_column``).

SUMMARY.md's lemma table wrote a sub-attempt's status as the ledger held it: a line break there wrote a
heading of SUMMARY.md's own; and its cells kept bidirectional overrides (``markdown_text.inline``), as did
report.html (``report._page.esc``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from putnam_solver.run.ledger import RATE_LIMITS_SINCE
from tests.adversarial.test_trust_paths_redteam10 import EDITED, made_run
from tests.helpers import LEAN_BENCH, add_subattempt, sql
from tests.processes import putnam

EDITS = {
    "an attempt note of a text id": ("INSERT INTO attempt_notes VALUES ('x', 'plan', 'p')", "attempt_notes: 'x'"),
    "a text campaign in meta": (
        f"INSERT OR REPLACE INTO meta VALUES ('{RATE_LIMITS_SINCE}', 'abc')",
        f"{RATE_LIMITS_SINCE}: 'abc' is not a number",
    ),
    "a campaign past any number in meta": (
        f"INSERT OR REPLACE INTO meta VALUES ('{RATE_LIMITS_SINCE}', '{'9' * 30}')",
        f"{RATE_LIMITS_SINCE}: '{'9' * 30}' is not a number",
    ),
}


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run of ``test_trust_paths_redteam10`` (one Lean problem, one rejected attempt)."""
    return made_run(tmp_path, monkeypatch)


@pytest.mark.parametrize(
    "edit", [e if e == "an attempt note of a text id" else pytest.param(e, marks=pytest.mark.slow) for e in EDITS]
)
def test_text_where_the_ledger_keeps_a_number_refuses_it_by_table(run_dir: Path, edit: str) -> None:
    statement, says = EDITS[edit]
    sql(run_dir, statement)
    code, stdout, stderr = putnam("report", run_dir)
    said = " ".join(stderr.split())
    assert code == 2 and says in said and EDITED in said, stdout + stderr
    assert "bug in putnam" not in said and "writable copy" not in said


def test_honest_notes_and_rate_limit_campaign_still_report(run_dir: Path) -> None:
    """Valid beside: a plan note of the run's attempt and the campaign rate limits were recorded from."""
    ((attempt,),) = sql(run_dir, "SELECT id FROM attempts")
    sql(run_dir, "INSERT INTO attempt_notes VALUES (?, 'plan', 'induct on n')", attempt)
    sql(run_dir, f"INSERT OR REPLACE INTO meta VALUES ('{RATE_LIMITS_SINCE}', '1')")
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert "induct on n" in (run_dir / "attempts" / "campaign-1" / "putnam_1962_a1" / "plan.md").read_text()


VERDICTS = {
    "a gate without its keys": {"status": "rejected", "gates": [{}]},
    "evidence that is a list": {
        "status": "rejected",
        "gates": [{"id": "G1", "name": "syntax", "status": "failed", "detail": "d", "evidence": []}],
    },
    "a gate status that is no text": {
        "status": "rejected",
        "gates": [{"id": "G1", "name": "syntax", "status": None, "detail": "d"}],
    },
}


@pytest.mark.parametrize(
    "kind", [k if k == "a gate without its keys" else pytest.param(k, marks=pytest.mark.slow) for k in VERDICTS]
)
def test_a_stored_verdict_whose_gates_are_not_putnam_s_refuses_the_ledger(run_dir: Path, kind: str) -> None:
    """Before: "unexpected KeyError: 'id'" (or AttributeError) from ``putnam report`` and ``audit``."""
    ((attempt,),) = sql(run_dir, "SELECT id FROM attempts")
    sql(run_dir, "INSERT INTO verdicts VALUES (?, 'rejected', 'x', ?)", attempt, json.dumps(VERDICTS[kind]))
    code, stdout, stderr = putnam("report", run_dir)
    said = " ".join(stderr.split())
    assert code == 2 and "verdict" in said and EDITED in said and "bug in putnam" not in said, stdout + stderr


def test_a_stored_verdict_as_putnam_writes_it_reports(run_dir: Path) -> None:
    """Valid beside: gates with their four texts, with and without evidence (an older verdict)."""
    gates = [
        {"id": "G1", "name": "syntax", "status": "passed", "detail": "", "evidence": {"sha256": "ab"}},
        {"id": "G2", "name": "preservation", "status": "failed", "detail": "the statement changed"},
    ]
    ((attempt,),) = sql(run_dir, "SELECT id FROM attempts")
    verdict = {"status": "rejected", "gates": gates, "answers": {}}
    sql(run_dir, "INSERT INTO verdicts VALUES (?, 'rejected', 'x', ?)", attempt, json.dumps(verdict))
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    log = (run_dir / "attempts" / "campaign-1" / "putnam_1962_a1" / "gates.log").read_text()
    assert "G2 preservation: failed: the statement changed" in log


FORGED_HEADING = "# Solved: 9 of 9 (100.0%), audited"


def test_a_sub_attempt_s_status_writes_no_line_of_summary_md(run_dir: Path) -> None:
    """Before: SUMMARY.md's lemma table wrote a sub-attempt's status as it came, so a line break in it wrote
    ``# Solved: 9 of 9 (100.0%), audited`` as a heading of its own (``putnam audit`` writes SUMMARY.md); and
    no cell showed a right-to-left override as its escape."""
    add_subattempt(run_dir, "helper\u202edevorp", f"failed\n{FORGED_HEADING}")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", LEAN_BENCH)
    assert code == 0, stdout + stderr
    summary = (run_dir / "SUMMARY.md").read_text()
    assert not [line for line in summary.splitlines() if line.startswith("# Solved")], summary
    assert "\u202e" not in summary and "helper\\u202edevorp" in summary
    row = next(line for line in summary.splitlines() if "helper" in line)
    assert row.endswith("| 1 | 2 | unknown |") and "failed \\# Solved" not in row and "failed # Solved" in row


def test_an_honest_sub_attempt_row_reads_as_before(run_dir: Path) -> None:
    """Valid beside: a plain lemma name and status, and right-to-left text without an override, stay as they are."""
    add_subattempt(run_dir, "sum_le_א", "failed")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", LEAN_BENCH)
    assert code == 0, stdout + stderr
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| 1 | putnam_1962_a1 | sum_le_\u05d0 | failed | 1 | 2 | unknown |" in summary, summary


def test_the_report_shows_a_right_to_left_override_as_its_escape(run_dir: Path) -> None:
    """Before: report.html held the ledger's ``U+202E`` as it came, turning the rest of its line around (the
    harness's own words after it included); right-to-left text without an override is shown as it is."""
    sql(run_dir, "UPDATE attempts SET error=?", "\u05d0\u05d1 timeout\u202e dessap")
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    page = (run_dir / "report.html").read_text()
    assert "\u202e" not in page and "\u05d0\u05d1 timeout\\u202e dessap" in page
