"""``kill -9`` of a real ``putnam solve`` after its attempt's verdict and before the attempt is recorded, then
``--resume``: nothing the killed attempt spent is lost from the run's totals, and nothing is counted twice
(docs/threat-model.md).

The moment is real: the worker's one call submits the sample proof (real coqc/coqchk in the sandbox
accept it), then the approving reviewer's call is held open at the loopback model server, and the solve's
process group is killed while it waits. Each call reports 100 prompt and 20 completion tokens, priced
at $1 and $10 per million.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.adversarial.test_cost_redteam import PRICES, PROBLEM, REVIEWER, Reviewed, spent, summary_row
from tests.fakes.sample_prover import SAMPLES
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import sql
from tests.processes import WAIT_SECONDS, finished, putnam, putnam_process, resume_args, solve_args

pytestmark = NEEDS_ROCQ
CALL = (100 * 1.0 + 20 * 10.0) / 1e6
"""What one call costs."""


@dataclass
class HeldReview(Reviewed):
    """Holds the reviewer's call open (``held`` is set) until ``release``, when ``hold`` is set."""

    hold: bool = False
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def next_step(self, request: dict[str, Any]) -> Any:
        if self.hold and request.get("model") == REVIEWER.rsplit("/", 1)[-1]:
            self.held.set()
            self.release.wait(WAIT_SECONDS)
        return super().next_step(request)


def _solve(tmp_path: Path, model: HeldReview, kill: bool, *flags: str) -> Path:
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve

    tmp_path.mkdir(parents=True, exist_ok=True)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(PRICES))
    run_dir = tmp_path / "run"
    args = solve_args(SAMPLES / "benchmark.jsonl", run_dir, PROBLEM, url="URL", max_turns=1)
    args[args.index("--reviewer-model") + 1] = REVIEWER
    with serve(model) as url:
        args[args.index("URL")] = url
        with putnam_process(*args, "--prices", str(prices), *flags) as proc:
            if not kill:
                finished(proc)
                return run_dir
            try:
                assert model.held.wait(WAIT_SECONDS), "the reviewer was never called"
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=WAIT_SECONDS)
            finally:
                model.release.set()
    return run_dir


def test_the_spend_of_an_attempt_killed_before_its_record_stays_in_the_run_s_totals(tmp_path: Path) -> None:
    """Before: the killed attempt's worker call (the one that made the accepted proof) left nothing in the
    ledger; after ``--resume`` ran it again, SUMMARY.md said "240 (200 input, 40 output)" tokens and
    a cost of one worker call for a run that had been billed for two, and a run budget would have let the resumed
    run spend the lost call again."""
    run_dir = _solve(tmp_path / "killed", HeldReview([], hold=True), kill=True)
    assert sql(run_dir, "SELECT COUNT(*) FROM attempts") == [(0,)], "the kill came before the record"
    [(error, tokens_in, tokens_out, cost)] = sql(
        run_dir, "SELECT error, input_tokens, output_tokens, cost_dollars FROM interruptions"
    )
    assert error.startswith("in flight") and (tokens_in, tokens_out) == (100, 20) and cost == pytest.approx(CALL)

    from tests.fakes.openai_server import serve

    with serve(Reviewed([])) as url, putnam_process(*resume_args(run_dir, url)) as proc:
        finished(proc)
    assert spent(run_dir) == [("passed", 200, 40, pytest.approx(CALL))], (
        "one outcome, with both its calls (the reviewer has no price)"
    )
    [(error, tokens_in)] = sql(run_dir, "SELECT error, input_tokens FROM interruptions")
    assert error.startswith("lost with the harness") and tokens_in == 100
    assert summary_row(run_dir, "Tokens") == "| Tokens | 360 (300 input, 60 output) |"
    assert summary_row(run_dir, "Attempts, turns").startswith("| Attempts, turns | 2 attempts")
    assert "**Solved: 1 of 1 (100.0%)**" in (run_dir / "SUMMARY.md").read_text()
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", SAMPLES / "benchmark.jsonl")
    assert code == 0 and "audited 1 passes: 1 accepted" in stdout, stdout + stderr


def test_an_uninterrupted_run_keeps_no_spend_apart_from_its_attempts(tmp_path: Path) -> None:
    run_dir = _solve(tmp_path, HeldReview([]), kill=False)
    assert spent(run_dir) == [("passed", 200, 40, pytest.approx(CALL))]
    assert sql(run_dir, "SELECT COUNT(*) FROM interruptions") == [(0,)]
    assert summary_row(run_dir, "Tokens") == "| Tokens | 240 (200 input, 40 output) |"
