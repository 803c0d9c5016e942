"""Red team on the numbers a run publishes beside its solved count: tokens and dollars (docs/threat-model.md).

The model server is not trusted, and neither is its accounting: the usage of every reply comes from it.
The runs are real: ``putnam solve`` of one Rocq sample with the loopback model server (real coqc/coqchk in
the sandbox), priced by a ``--prices`` table, the server reporting honest, negative or absurd usage. A
run directory handed over is edited with plain ``sqlite3``, as in ``test_run_directory.py``.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.sample_prover import SAMPLES, SampleProver
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import sql
from tests.processes import FAKE_MODEL, putnam

pytestmark = NEEDS_ROCQ

PROBLEM = "sample_even_square"
PRICES = {FAKE_MODEL: {"input": 1.0, "output": 10.0}}
"""A dollar per million input tokens, ten per million output tokens."""


@dataclass
class Reporting(SampleProver):
    """Submits the sample proof, reporting ``prompt`` prompt tokens (and the usual 20 completion tokens)."""

    prompt: int = 100

    def prompt_tokens(self, request: dict[str, Any]) -> int:
        return self.prompt


def _run(base: Path, prompt: int) -> tuple[int, str, Path, Path]:
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve
    from tests.processes import solve_args

    benchmark = base / "benchmark.jsonl"
    shutil.copyfile(SAMPLES / "benchmark.jsonl", benchmark)
    prices = base / "prices.json"
    prices.write_text(json.dumps(PRICES))
    with serve(Reporting([], prompt=prompt)) as url:
        args = solve_args(benchmark, base / "run", PROBLEM, url=url, max_turns=1)
        code, stdout, stderr = putnam(*args, "--prices", prices, FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1")
    return code, stdout + stderr, base / "run", benchmark


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    code, output, run_dir, benchmark = _run(tmp_path_factory.mktemp("honest"), 100)
    assert code == 0, output
    return run_dir, benchmark


def spent(run_dir: Path) -> list[tuple[Any, ...]]:
    return sql(run_dir, "SELECT status, input_tokens, output_tokens, cost_dollars FROM attempts")


def summary_row(run_dir: Path, name: str) -> str:
    text = (run_dir / "SUMMARY.md").read_text()
    return next(line for line in text.splitlines() if line.startswith(f"| {name} |"))


def test_the_honest_run_records_what_its_server_reported_priced_by_the_table(honest: tuple[Path, Path]) -> None:
    run_dir, benchmark = honest
    assert spent(run_dir) == [("passed", 100, 20, pytest.approx((100 * 1.0 + 20 * 10.0) / 1e6))]
    assert summary_row(run_dir, "Tokens") == "| Tokens | 120 (100 input, 20 output) |"
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr


@pytest.mark.parametrize("prompt", [-5_000_000, 10**20])
def test_usage_a_model_server_cannot_have_spent_is_held_to_what_a_run_can_count(tmp_path: Path, prompt: int) -> None:
    """Before: a server reporting ``prompt_tokens: -5000000`` made the attempt's tokens -4,999,980 and its
    cost $-5.00 in the ledger, the progress line and SUMMARY.md, and the audit accepted the run as it
    was (a run budget grows by what such a call subtracts); one reporting 10**20 ended ``putnam solve``
    with exit 1 ("Python int too large to convert to SQLite INTEGER") before the attempt that had passed
    was recorded: "Solved: 0 of 1"."""
    code, output, run_dir, benchmark = _run(tmp_path, prompt)
    assert code == 0, output
    [(status, input_tokens, output_tokens, cost)] = spent(run_dir)
    assert status == "passed" and output_tokens == 20
    assert 0 <= input_tokens <= 10**12 and 0 <= cost <= 1e12, (input_tokens, cost)
    assert (input_tokens == 0) == (prompt < 0)
    assert "**Solved: 1 of 1 (100.0%)**" in (run_dir / "SUMMARY.md").read_text()
    assert "$-" not in summary_row(run_dir, "Cost") and "| Tokens | -" not in summary_row(run_dir, "Tokens")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr


EDITS = {
    "a negative cost": ("cost_dollars", -100.0, "cost -100.0 is not an amount of dollars"),
    "a cost that is text": ("cost_dollars", "free", "cost 'free' is not an amount of dollars"),
    "negative input tokens": ("input_tokens", -(10**9), "input tokens -1000000000 is not between 0"),
    "negative turns": ("turns", -3, "turns -3 is not between 0"),
    "output tokens that are text": ("output_tokens", "twenty", "'twenty' is not a number"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_spend_a_run_cannot_have_recorded_is_refused_by_every_reader(
    honest: tuple[Path, Path], tmp_path: Path, edit: str
) -> None:
    """Before: a ledger whose pass cost $-100 was audited (exit 0) and its regenerated SUMMARY.md said "Cost
    | $-100.00", the report likewise; text in a spend column was summed as 0 by the run's totals."""
    run_dir = tmp_path / "run"
    shutil.copytree(honest[0], run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    column, value, refusal = EDITS[edit]
    sql(run_dir, f"UPDATE attempts SET {column}=?", value)
    for command in (
        ("audit", run_dir, "--benchmark", honest[1]),
        ("report", run_dir),
        ("export", run_dir, "--proofs", tmp_path / "proofs"),
    ):
        code, stdout, stderr = putnam(*command)
        assert code == 2 and refusal in stderr and "the ledger was edited" in stderr, (command, stdout + stderr)
    assert not (tmp_path / "proofs").exists()


REVIEWER = "openai-api/fake/unpriced-reviewer"


@dataclass
class Reviewed(Reporting):
    """Also answers the reviewer (``REVIEWER``, at the same server), which approves."""

    def next_step(self, request: dict[str, Any]) -> Any:
        if request.get("model") == REVIEWER.rsplit("/", 1)[-1]:
            with self.lock:
                self.requests += 1
            return {"role": "assistant", "content": "APPROVE"}
        return super().next_step(request)


def test_a_cost_that_leaves_out_a_model_without_a_price_is_never_shown_as_the_run_s_cost(tmp_path: Path) -> None:
    """Before: with the worker priced and the reviewer not, every view showed the worker's dollars alone as
    the run's cost ("| Cost | $0.00 |", "$0.0003" per attempt, the report's dollars), the reviewer's
    tokens left out without a word; "unknown" was said only when nothing at all was priced."""
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve
    from tests.processes import solve_args

    benchmark = tmp_path / "benchmark.jsonl"
    shutil.copyfile(SAMPLES / "benchmark.jsonl", benchmark)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    with serve(Reviewed([])) as url:
        args = solve_args(benchmark, tmp_path / "run", PROBLEM, url=url, max_turns=1)
        args[args.index("--reviewer-model") + 1] = REVIEWER
        code, stdout, stderr = putnam(*args, "--prices", prices, FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1")
    assert code == 0, stdout + stderr
    run_dir = tmp_path / "run"
    [(status, input_tokens, _, cost)] = spent(run_dir)
    assert status == "passed" and input_tokens == 200 and cost == pytest.approx(300 / 1e6), "reviewer tokens counted"
    row = summary_row(run_dir, "Cost")
    assert row.startswith("| Cost | at least $0.00 (no price for openai-api/fake/unpriced-reviewer"), row
    assert putnam("report", run_dir)[0] == 0
    page = (run_dir / "report.html").read_text()
    assert "at least $0.00" in page and "at least $0.0003" in page
