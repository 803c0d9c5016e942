"""Red team round 11 of the trust paths, third part: ledger values no reader checked.

SQLite keeps text in an INTEGER column (``ledger_types`` leaves that to the readers), and two readers took
such text to ``int()``: an ``attempt_notes`` row whose attempt id is text, and the ``meta`` table's campaign
from which rate limits were recorded. ``putnam report`` ended in "unexpected ValueError ... This is a bug in
putnam"; each is now refused as an edited ledger, by table. The report's refusal no longer says "cannot
write the run's evidence folders ... Report on a writable copy" when the ledger, not the disk, is at fault.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.run.ledger import RATE_LIMITS_SINCE
from tests.adversarial.test_trust_paths_redteam10 import EDITED, made_run
from tests.helpers import sql
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
