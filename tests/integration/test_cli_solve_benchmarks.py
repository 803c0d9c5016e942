"""`putnam solve --benchmark minif2f:valid` end to end: the CLI, the campaign, the Inspect agent over HTTP,
real coqc/coqchk, and the benchmark's record through to the run's outputs.

The model is a loopback OpenAI-compatible server that answers each problem's worker from its prompt: for
``mathd_algebra_455`` it first submits an edited statement (refused), then the shipped proof; for
``amc12b_2020_p5`` it submits a one-line proof through the statement's contradictory hypotheses, which the
gates accept and the run counts apart because the errata list the statement as vacuous.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.helpers import DATA_ROOT, REPO
from tests.processes import putnam, solve_args

pytest.importorskip("inspect_ai")
pytestmark = [
    pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed"),
    pytest.mark.skipif(not (DATA_ROOT / "minif2f").is_dir(), reason="miniF2F data not found"),
]

GOOD = (REPO / "samples" / "minif2f" / "rocq" / "mathd_algebra_455.v").read_text()
EDITED = GOOD.replace("x = 3.", "x = 4.", 1)
VACUOUS_STATEMENT = json.loads(
    next(
        line
        for line in (DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl").read_text().splitlines()
        if '"amc12b_2020_p5"' in line
    )
)["formal_statement"]
VACUOUS = VACUOUS_STATEMENT.replace("Theorem", "Require Import Lia.\n\nTheorem", 1).replace(
    "Proof.\nAdmitted.", "Proof.\n  intros; exfalso; lia.\nQed."
)
runner = CliRunner()


class ByProblem(FakeOpenAI):
    """Answers each worker from the problem its prompt names, turn by turn."""

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        text = json.dumps(request.get("messages", []))
        turn = text.count('"role": "tool"')
        if "amc12b_2020_p5" in text:
            return tool_call_reply("submit", {"proof": VACUOUS}, f"v{turn}") if turn == 0 else self.default
        proofs = [EDITED, GOOD]
        return tool_call_reply("submit", {"proof": proofs[turn]}, f"g{turn}") if turn < len(proofs) else self.default


@pytest.fixture(autouse=True)
def _env(solve_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))


def test_solve_on_a_minif2f_split_with_real_coq_counts_a_vacuous_statement_apart(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with serve(ByProblem([])) as url:
        args = solve_args("minif2f:valid", run_dir, "mathd_algebra_455", "amc12b_2020_p5", url=url, max_turns=4)
        code, stdout, stderr = putnam(*args)
    assert code == 0, stdout + stderr
    assert "1/2 solved (+1 on statements known defective, counted apart)" in stdout + stderr
    with (run_dir / "attempts.tsv").open() as handle:
        rows = {r["problem"]: r for r in csv.DictReader(handle, delimiter="\t")}
    assert {p: r["status"] for p, r in rows.items()} == {"mathd_algebra_455": "passed", "amc12b_2020_p5": "passed"}
    verdict = json.loads((run_dir / "attempts" / "campaign-1" / "amc12b_2020_p5" / "verdict.json").read_text())
    assert verdict["status"] == "accepted"
    assert (verdict["benchmark"]["name"], verdict["benchmark"]["variant"]) == ("minif2f", "adapted")
    assert [e["kind"] for e in verdict["benchmark"]["errata"]] == ["vacuous"]
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| Benchmark | minif2f@adapted:valid (miniF2F Rocq (Coq) (adapted) @ b60affa): " in summary
    assert "Note: Rocq: the statements were translated by LLMs" in summary and "Note: Lean:" not in summary
    assert (
        "| Verified passes | 1 (50.0%), plus 1 on statements known defective (counted apart: amc12b_2020_p5) |"
        in summary
    )
    assert "- amc12b_2020_p5 (solved, counted apart): vacuous:" in summary
    settings = json.loads((run_dir / "run.json").read_text())
    assert settings["selection"]["split"] == "valid"
    assert settings["benchmark"]["record"]["name"] == "minif2f"
    assert any(e["problem"] == "amc12b_2020_p5" for e in settings["benchmark"]["record"]["errata"])

    audit = runner.invoke(app, ["audit", str(run_dir), "--jobs", "1"])
    assert audit.exit_code == 0, audit.stdout + audit.stderr
    line = next(x for x in audit.stdout.splitlines() if " amc12b_2020_p5 " in x)
    assert "] accepted " in line and "solved, counted apart (statement known defective: vacuous:" in line
    assert "audited 2 passes: 2 accepted (1 on statements known defective, counted apart: amc12b_2020_p5)" in (
        audit.stdout
    )
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "**Solved: 1 of 2 (50.0%), audited**" in summary
    assert "Also solved, on statements known defective (counted apart): amc12b_2020_p5." in summary

    report = runner.invoke(app, ["report", str(run_dir)])
    assert report.exit_code == 0, report.stdout + report.stderr
    page = (run_dir / "report.html").read_text()
    assert 'id="stat-solved" data-value="1"' in page and 'id="stat-solved-apart" data-value="1"' in page
    assert 'data-problem="amc12b_2020_p5" data-state="defective"' in page
    assert "statement known defective: vacuous:" in page
    assert 'data-problem="mathd_algebra_455" data-state="solved"' in page
    assert page.count('class="cell ') == 244, "the grid holds the run's split of miniF2F (valid: 244)"
    assert 'data-problem="mathd_algebra_478"' not in page, "a test-split problem is not in the valid grid"
    compared = runner.invoke(app, ["report", "--compare", str(run_dir), str(run_dir), "-o", str(tmp_path / "c.html")])
    assert compared.exit_code == 0, compared.stdout + compared.stderr
    page = (tmp_path / "c.html").read_text()
    assert 'id="stat-both" data-value="1"' in page and 'id="stat-apart" data-value="1"' in page
    assert 'data-problem="amc12b_2020_p5" data-state="defective"' in page

    bundle = tmp_path / "proofs.tar.gz"
    exported = runner.invoke(app, ["export", str(run_dir), "-o", str(bundle)])
    assert exported.exit_code == 0, exported.stdout + exported.stderr
    checked = runner.invoke(app, ["verify", "--bundle", str(bundle), "--jobs", "1"])
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert "re-verified here: 2 accepted" in checked.stdout
    assert "statement known defective: vacuous:" in checked.stdout
