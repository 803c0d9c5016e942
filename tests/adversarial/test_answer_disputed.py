"""Answers are alarms: an acceptance whose answer is provably not the official one is ``disputed``.

On the no-answer track the gates judge the candidate's own answer. If every gate passes and the answer
check proves the answer different from the official one, the gates cannot have seen a sound proof of a
correct statement: the verdict is ``disputed``, never counted, never cached, shown everywhere. The proof
here is real: Coq 8.16's guard-checker bug (rocq#20455) proves ``False`` once ``--allow-recursion``
lifts the recursion rule, and from ``False`` a wrong answer "follows".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, run_gates
from putnam_solver.run.agent.tools import format_verdict
from putnam_solver.run.ledger import AttemptRow
from putnam_solver.run.report.errata import disputed_attempts
from putnam_solver.verifier.options import GateFlags
from putnam_solver.withheld import model_view
from tests.adversarial.test_rocq_recursion import GUARD_FALSE
from tests.helpers import ROCQ_SAMPLES, needs_coq

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""


HELPERS = GUARD_FALSE.split("Theorem sample_even_square")[0].replace("Require Import Arith.\n", "")


def _last_digit(answer: str, proof: str) -> str:
    return (
        f"Require Import ZArith.\n{HELPERS}\nOpen Scope Z_scope.\n"
        f"Definition sample_last_digit_solution : Z := {answer}.\nTheorem sample_last_digit\n"
        f"    : (2 ^ 100) mod 10 = sample_last_digit_solution.\nProof.\n  {proof}\nQed.\n"
    )


WRONG = _last_digit("7", "exfalso; exact zz_false.")
RIGHT = _last_digit("6", "reflexivity.")


def _verdict(bench: Benchmark, candidate: str):  # type: ignore[no-untyped-def]
    return run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_last_digit"],
        candidate.encode(),
        Track.NO_ANSWER,
        GateFlags(profile=Profile.FULL, allow_recursion=True).options(),
    )


@needs_coq
def test_a_wrong_answer_proved_through_a_kernel_bug_is_disputed_not_accepted(bench: Benchmark) -> None:
    verdict = _verdict(bench, WRONG)
    assert all(g.passed for g in verdict.gates), [g.detail for g in verdict.gates if not g.passed]
    assert verdict.answers["sample_last_digit_solution"]["check"]["status"] == "differs"
    assert verdict.status == "disputed" and not verdict.accepted
    shown = verdict.to_json()
    assert shown["status"] == "disputed" and "unsound" in shown["dispute"]
    assert "sample_last_digit_solution" in shown["dispute"]
    # the model never learns from a dispute that its answer is not the official one
    assert "differs" not in format_verdict(verdict, WRONG) and "disputed" not in format_verdict(verdict, WRONG)
    seen = model_view(shown)
    assert seen["status"] == "not accepted" and "dispute" not in seen
    assert "6" not in json.dumps(seen["answers"])


@needs_coq
def test_the_right_answer_stays_accepted(bench: Benchmark) -> None:
    verdict = _verdict(bench, RIGHT)
    assert verdict.answers["sample_last_digit_solution"]["check"]["status"] == "confirmed"
    assert verdict.status == "accepted"


@needs_coq
def test_verify_prints_disputed_exits_1_and_never_caches_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    candidate = tmp_path / "sample_last_digit.v"
    candidate.write_text(WRONG, encoding="utf-8")
    args = ["verify", "--prover", "rocq", "--track", "no-answer", "--allow-recursion"]
    args += ["--benchmark", str(ROCQ_SAMPLES), "--json", str(tmp_path / "v.json"), str(candidate)]
    for _ in range(2):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, result.output
        assert "DISPUTED" in result.stdout and "1 disputed" in result.stdout and "candidate errata" in result.stdout
        stored = json.loads((tmp_path / "v.json").read_text())["results"][0]
        assert stored["status"] == "disputed" and not stored["cached"]


def test_summary_lists_disputed_problems_as_candidate_errata() -> None:
    def row(problem: str, status: str, verdict: dict[str, object] | None) -> AttemptRow:
        return AttemptRow(1, 1, problem, status, 1, 0, 0, 0.0, "x", "h", None, None, None, verdict)

    rows = [
        row("p_b", "disputed", {"status": "disputed", "dispute": "the answer check proved `s` different"}),
        row("p_a", "passed", {"status": "accepted"}),
        row("p_c", "rejected", {"status": "rejected"}),
    ]
    assert disputed_attempts(rows) == {"p_b": "the answer check proved `s` different"}
