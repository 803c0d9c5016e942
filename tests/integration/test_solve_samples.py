"""`putnam solve --samples K` end to end: K independent attempts per problem, each its own ledger row and
evidence folder, judged by the real Rocq gates; pass@k in SUMMARY.md and in `putnam audit`'s output.

The model is the loopback OpenAI-compatible server: its first reply submits a published-style proof of
the sample problem, its second an edited statement, so of the two samples one passes and one fails
(which sample gets which reply depends on their order, the counts do not).
"""

from __future__ import annotations

import csv
import shutil
import sqlite3
from pathlib import Path

import pytest

from putnam_solver.exit_codes import ExitCode
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.helpers import REPO
from tests.processes import putnam, solve_args

pytest.importorskip("inspect_ai")
pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")

SAMPLES = REPO / "samples" / "rocq"
BENCHMARK = SAMPLES / "benchmark.jsonl"
PROBLEM = "sample_rev_length"
GOOD = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
EDITED = GOOD.replace("length (rev l) = length l", "length l = length l")


@pytest.fixture(autouse=True)
def _env(solve_env: None) -> None:
    """Every test solves against the loopback model server (``solve_env``)."""


def _rows(run_dir: Path) -> list[dict[str, str]]:
    with (run_dir / "attempts.tsv").open() as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_two_samples_one_passing_give_pass_at_1_one_half_and_pass_at_2_one(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [tool_call_reply("submit", {"proof": GOOD}, "call_1"), tool_call_reply("submit", {"proof": EDITED}, "call_2")]
    )
    run_dir = tmp_path / "run"
    with serve(fake) as url:
        code, stdout, stderr = putnam(
            *solve_args(BENCHMARK, run_dir, PROBLEM, url=url, jobs=2, max_turns=1), "--samples", "2", "--audit"
        )
    assert code == ExitCode.SUCCESS, stdout + stderr
    assert fake.requests == 2, "one model call per sample"
    assert "| all | 1 | 0.500 | 1.000 |" in stderr, "solve --audit prints pass@k from the passes it confirmed"
    rows = _rows(run_dir)
    assert sorted((r["problem"], r["sample"], r["status"]) for r in rows) in (
        [(PROBLEM, "1", "passed"), (PROBLEM, "2", "rejected")],
        [(PROBLEM, "1", "rejected"), (PROBLEM, "2", "passed")],
    )
    first = run_dir / "attempts" / "campaign-1" / PROBLEM
    verdicts = [(first / "verdict.json").read_text(), (first / "sample-2" / "verdict.json").read_text()]
    assert sorted('"status": "accepted"' in v for v in verdicts) == [False, True], "each sample has its evidence"
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "## pass@k" in summary
    assert "| split | problems | pass@1 | pass@2 |" in summary
    assert "| all | 1 | 0.500 | 1.000 |" in summary
    report = (run_dir / "report.html").read_text()
    cells = '<td data-k="1" data-value="0.5">0.500</td><td data-k="2" data-value="1.0">1.000</td>'
    assert f'<tr data-split="all"><th>all</th><td>1</td>{cells}</tr>' in report

    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", BENCHMARK)
    assert code == ExitCode.SUCCESS, stdout + stderr
    assert "| all | 1 | 0.500 | 1.000 |" in stdout
    assert "audited 1 passes: 1 accepted" in stdout


def test_the_samples_are_part_of_the_run_and_resume_keeps_them(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    code, stdout, stderr = putnam(*solve_args(BENCHMARK, run_dir, PROBLEM), "--samples", "3", "--prepare-only")
    assert code == ExitCode.SUCCESS, stdout + stderr
    refused = putnam("solve", "--resume", run_dir, "--samples", "2", "--quiet")
    assert refused[0] == ExitCode.USAGE and "--samples" in refused[2]
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    try:
        (stored,) = db.execute("SELECT json FROM settings ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        db.close()
    assert '"samples": 3' in stored


@pytest.mark.parametrize("value", ["0", "65", "two"])
def test_samples_out_of_range_are_a_usage_error_and_create_nothing(tmp_path: Path, value: str) -> None:
    run_dir = tmp_path / "run"
    code, _, stderr = putnam(*solve_args(BENCHMARK, run_dir, PROBLEM), "--samples", value)
    assert code == ExitCode.USAGE
    assert "--samples" in stderr
    assert not run_dir.exists()
