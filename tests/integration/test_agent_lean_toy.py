"""End to end on Lean: the react worker on scripted mock models, its ``check`` and ``submit`` verified by
the real gates with the toy Lean toolchain (a real Lean kernel and elaborator with a small prelude).

The toy toolchain has no comparator, so the full acceptance profile cannot decide G6: a candidate that
real Lean compiles with no forbidden axiom is still never counted as passed (fail closed). With the
``fast`` acceptance profile (G1-G4), which the toy toolchain decides, the same candidate passes.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import needs_sandbox

pytest.importorskip("inspect_ai")

from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.verify import GateStatus, Profile
from putnam_solver.run.agent.history import DIGEST_HEAD, chars
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import AttemptResult, Budgets, SolveConfig
from putnam_solver.run.campaign import RunSettings, Selection, solve
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from tests.fakes.scripted_agent import call, run, scripted
from tests.integration.campaign_driver import lean_text_config
from tests.toylean.build import BENCHMARK, VALID, ToyLean

pytestmark = needs_sandbox

PROBLEM = "toy_and_comm"
GOOD = (VALID / f"{PROBLEM}.lean").read_text()
BAD = GOOD.replace("And.intro h.right h.left", "And.intro h.left h.right")
EDITED = GOOD.replace("And q p := ", "And p p := ").replace("h.right h.left", "h.left h.left")


@pytest.fixture
def lean_config(toy_lean_env: ToyLean, tmp_path: Path) -> SolveConfig:
    return dataclasses.replace(
        lean_text_config(jobs=1),
        model="mockllm/model",
        budgets=Budgets(max_turns=3),
        acceptance_profile=Profile.FULL,
        tools={"lean": toy_lean_env.lean},
        prices={"mockllm/model": {"input": 2.0, "output": 10.0}},
    )


def attempt(tmp_path: Path, cfg: SolveConfig, script: Any) -> AttemptResult:
    cfg = dataclasses.replace(cfg, model_args={"custom_outputs": script})
    return run(tmp_path, cfg, [PROBLEM], benchmark=load_benchmark(BENCHMARK))[PROBLEM]


def fail_then_fix(seen: list[str]) -> Any:
    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        return [call("check", BAD), call("submit", GOOD)][min(len(seen), 2) - 1]

    return scripted(script)


def test_check_reports_lean_errors_and_full_acceptance_fails_closed_without_comparator(
    tmp_path: Path, lean_config: SolveConfig
) -> None:
    seen: list[str] = []
    result = attempt(tmp_path, lean_config, fail_then_fix(seen))
    assert "G4" in seen[1] and "failed" in seen[1], "check ran the real compiler"
    assert "And.intro h.left h.right" in seen[1], "the diagnostics quote the offending line"
    assert result.candidate == GOOD and result.verdict is not None
    gates = {g.id: g.status for g in result.verdict.gates}
    assert gates["G4"] == gates["G5"] == GateStatus.PASSED, "real Lean compiled it with no forbidden axiom"
    assert gates["G6"] == GateStatus.UNAVAILABLE
    assert result.status == "rejected" and not result.verdict.accepted


def test_the_fixed_proof_passes_where_every_acceptance_gate_can_run(tmp_path: Path, lean_config: SolveConfig) -> None:
    seen: list[str] = []
    cfg = dataclasses.replace(lean_config, acceptance_profile=Profile.FAST)
    result = attempt(tmp_path, cfg, fail_then_fix(seen))
    assert result.status == "passed" and result.turns == 2
    assert result.verdict is not None and result.verdict.accepted


def test_an_edited_statement_that_lean_compiles_is_rejected(tmp_path: Path, lean_config: SolveConfig) -> None:
    cfg = dataclasses.replace(lean_config, acceptance_profile=Profile.FAST, budgets=Budgets(max_turns=1))
    result = attempt(tmp_path, cfg, [call("submit", EDITED)])
    assert result.status == "rejected" and result.verdict is not None
    problem = result.verdict.first_problem()
    assert problem is not None and problem.id == "G2"


def test_a_sorry_proof_never_passes(tmp_path: Path, lean_config: SolveConfig) -> None:
    cfg = dataclasses.replace(lean_config, acceptance_profile=Profile.FAST, budgets=Budgets(max_turns=1))
    sorry = GOOD.replace("And.intro h.right h.left", "sorry")
    result = attempt(tmp_path, cfg, [call("submit", sorry)])
    assert result.status == "rejected" and result.verdict is not None
    problem = result.verdict.first_problem()
    assert problem is not None and problem.id in ("G3", "G4")


SKETCH_LEMMAS = (
    "/-- The right half. -/\ntheorem right_of (p q : Prop)\n    (h : And p q) : q := sorry\n",
    "theorem left_of (p q : Prop) (h : And p q) : p := sorry\n",
)
SKETCH_MAIN = (
    "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := And.intro (right_of p q h) (left_of p q h)\n"
)
LEMMA_PROOFS = {"right_of": "h.right", "left_of": "h.left"}


@pytest.mark.parametrize("left_proof", ["h.left", "h.right"], ids=["both-proved", "one-wrong"])
def test_a_lean_sketch_s_holes_are_proved_at_once_on_the_fast_profile(
    tmp_path: Path, lean_config: SolveConfig, left_proof: str
) -> None:
    """The sketch stage on Lean: both holes of the skeleton go to sub-attempts of the one ``sketch`` call,
    each judged on the fast profile; when both are proved, the file pasted together from them (the
    doc comment of the first kept) passes and is submitted, else the worker is told which one is left and
    submits a file of its own. The ledger and SUMMARY.md say which."""
    skeleton = "".join(SKETCH_LEMMAS) + SKETCH_MAIN
    own = skeleton.replace("(h : And p q) : q := sorry", "(h : And p q) : q := h.right")
    own = own.replace("h : And p q) : p := sorry", "h : And p q) : p := h.left")
    answers: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        task = input[1].text
        for name, proof in {**LEMMA_PROOFS, "left_of": left_proof}.items():
            if task.startswith(f"Lemma `{name}` of problem"):
                statement = task.split("```\n", 1)[1].split("\n```", 1)[0] + "\n"
                return call("submit", statement.replace("sorry", proof))
        answers.append(input[-1].text)
        if len(answers) == 1:
            return call("sketch", informal_proof="Swap the two halves of the conjunction.", skeleton=skeleton)
        handed = answers[-1].split("submit it:\n```\n", 1)
        return call("submit", handed[1].rsplit("```", 1)[0] if len(handed) == 2 else own)

    budgets = Budgets(max_turns=3, lemma_turns=1)
    cfg = dataclasses.replace(
        lean_config, acceptance_profile=Profile.FAST, budgets=budgets, model_args={"custom_outputs": scripted(script)}
    )
    run_dir = tmp_path / "run"
    outcome = solve(RunSettings(run_dir, cfg, Selection(BENCHMARK, problems=(PROBLEM,)), 1, RunLimits()), None)
    assert outcome.passed == 1, outcome.message
    assert "PROVED right_of" in answers[1]
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        [sketch], [passed] = ledger.sketches(), ledger.attempts()
    finally:
        ledger.close()
    assert (sketch.skeleton, sketch.holes) == (skeleton, 2)
    summary = (run_dir / "SUMMARY.md").read_text().split("## Sketches", 1)[1]
    if left_proof == "h.left":
        assert "SKETCH kept; 2 holes went to sub-attempts in parallel, 2 proved." in answers[1], answers[1]
        assert "PROVED left_of" in answers[1]
        assert "ALL HOLES PROVED. With the lemmas in place the file passes the fast gates" in answers[1]
        assert "/-- The right half. -/\ntheorem right_of (p q : Prop)\n    (h : And p q) : q :=" in answers[1]
        assert sketch.proved == 2 and sketch.assembled_sha256 == passed.candidate_sha256
        assert f"| {PROBLEM} | 1 | 2 of 2 | yes |" in summary
    else:
        assert "SKETCH kept; 2 holes went to sub-attempts in parallel, 1 proved." in answers[1], answers[1]
        assert "NOT PROVED: left_of" in answers[1] and "ALL HOLES PROVED" not in answers[1]
        assert sketch.proved == 1 and sketch.assembled_sha256 is None and passed.candidate == own
        assert f"| {PROBLEM} | 1 | 1 of 2 | no |" in summary


def test_two_lean_samples_one_passing_give_pass_at_1_one_half_and_pass_at_2_one(
    tmp_path: Path, lean_config: SolveConfig
) -> None:
    """``--samples 2`` on Lean: two independent attempts of the problem in one campaign, judged by the real
    toy Lean gates; one submits the proof, the other an edited statement (which sample gets which depends
    on their order, the counts do not)."""
    cfg = dataclasses.replace(
        lean_config,
        acceptance_profile=Profile.FAST,
        budgets=Budgets(max_turns=1),
        samples=2,
        jobs=2,
        model_args={"custom_outputs": [call("submit", GOOD), call("submit", EDITED)]},
    )
    run_dir = tmp_path / "run"
    outcome = solve(RunSettings(run_dir, cfg, Selection(BENCHMARK, problems=(PROBLEM,)), 1, RunLimits()), None)
    assert outcome.passed == 1, outcome.message
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        rows = sorted((a.sample, a.status) for a in ledger.attempts())
    finally:
        ledger.close()
    assert rows in ([(1, "passed"), (2, "rejected")], [(1, "rejected"), (2, "passed")])
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| split | problems | pass@1 | pass@2 |" in summary and "| all | 1 | 0.500 | 1.000 |" in summary


def test_a_long_lean_attempt_is_compacted_under_its_history_budget(tmp_path: Path, lean_config: SolveConfig) -> None:
    """History compaction on Lean, checked by the real toy Lean: eight failing checks, then the proof; the
    calls after the budget is reached carry a digest with the latest error instead of every turn."""
    seen: list[list[ChatMessage]] = []
    checks = [call("check", BAD + f"-- try {n}\n") for n in range(1, 9)]

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(list(input))
        out = [*checks, call("submit", GOOD)][min(len(seen), 9) - 1]
        tokens = chars(input) // 4
        out.usage = ModelUsage(input_tokens=tokens, output_tokens=10, total_tokens=tokens + 10)
        return out

    budget = 2_600
    cfg = dataclasses.replace(
        lean_config, acceptance_profile=Profile.FAST, budgets=Budgets(max_turns=9, history_tokens=budget)
    )
    result = attempt(tmp_path, cfg, scripted(script))
    assert result.status == "passed"
    sizes = [chars(input) // 4 for input in seen]
    assert any(str(e["result"]).startswith("history compacted") for e in result.turn_log), sizes
    assert max(sizes) <= budget, sizes
    digest = next(m.text for m in seen[-1] if m.text.startswith(DIGEST_HEAD))
    assert "G4" in digest or "G4" in seen[-1][-1].text, "the latest error is kept"
    assert "-- try 8" in json.dumps([m.model_dump() for m in seen[-1]]), "the latest file is kept"
