"""End to end: the react worker on scripted mock models, verified by the real Rocq gates (coqc).

Each test scripts Inspect's ``mockllm/model`` and runs ``run_campaign_attempts`` as the campaign does;
the outcome a user sees is the AttemptResult handed to ``on_attempt`` and the ``.eval`` transcript.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.problem_selection import select_problems
from putnam_solver.run.agent import prepare_workspaces
from putnam_solver.run.agent.types import (
    Budgets,
    CarryForward,
)
from tests.fakes.scripted_agent import BAD, EDITED, FIXTURE, GOOD, NEEDS_ROCQ, call, config, run, say, scripted

pytestmark = NEEDS_ROCQ


def test_worker_fixes_its_proof_after_check_and_passes(tmp_path: Path) -> None:
    seen: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        return [call("check", BAD), call("submit", GOOD)][len(seen) - 1]

    result = run(tmp_path, config(scripted(script)))["one_plus_one"]
    assert result.status == "passed"
    assert result.verdict is not None and result.verdict.accepted
    assert result.candidate == GOOD
    assert result.turns == 2
    assert "G4" in seen[1] and "failed" in seen[1], "check returned the compile error"
    assert "exact I." in seen[1], "the diagnostics quote the offending source line"
    assert result.input_tokens == 200 and result.output_tokens == 40
    assert result.cost_dollars == pytest.approx((200 * 2.0 + 40 * 10.0) / 1e6)
    assert [t["tool"] for t in result.turn_log] == ["check", "submit"]
    assert list((tmp_path / "logs").glob("*.eval")), "the transcript is in the log directory"
    assert result.transcript is not None and result.transcript.suffix == ".eval"


def test_edited_statement_is_rejected_by_g2(tmp_path: Path) -> None:
    result = run(tmp_path, config([call("submit", EDITED)], budgets=Budgets(max_turns=1)))["one_plus_one"]
    assert result.status == "rejected"
    assert result.verdict is not None and not result.verdict.accepted
    problem = result.verdict.first_problem()
    assert problem is not None and problem.id == "G2"


def test_escape_attempts_are_contained(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    redirect = f'Redirect "{target}" Print nat.\n' + GOOD
    ml = 'Declare ML Module "unix".\n' + GOOD
    outputs = [call("check", redirect), call("submit", ml), call("submit", redirect)]
    result = run(tmp_path, config(outputs, budgets=Budgets(max_turns=3)))["one_plus_one"]
    assert result.status == "rejected"
    assert result.verdict is not None and not result.verdict.accepted
    assert not target.exists() and not Path(f"{target}.out").exists(), "nothing was written on the host"


def test_worker_that_never_submits_runs_out_of_turns(tmp_path: Path) -> None:
    outputs = [say("Let me think."), call("check", BAD), call("search", pattern="Nat.add_comm"), say("Hmm.")]
    result = run(tmp_path, config(outputs))["one_plus_one"]
    assert result.status == "no_submission"
    assert result.turns == 4
    assert result.candidate is None and result.verdict is None


def test_reviewer_veto_reaches_the_worker_and_ends_as_vetoed(tmp_path: Path) -> None:
    worker_inputs: list[str] = []
    reviews = iter(["VETO: please prove it with lia instead", "VETO: still not convinced"])

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        if not tools:  # the reviewer has no tools
            return say(next(reviews))
        worker_inputs.append(input[-1].text)
        return call("submit", GOOD)

    cfg = config(scripted(script), reviewer_model="mockllm/model", reviewer_veto=True, budgets=Budgets(max_turns=2))
    result = run(tmp_path, cfg)["one_plus_one"]
    assert result.status == "vetoed"
    assert "please prove it with lia instead" in worker_inputs[1]
    assert result.verdict is not None and result.verdict.accepted, "the vetoed candidate is still recorded"
    assert result.candidate == GOOD
    assert result.reviewer_feedback == "veto: still not convinced"


def test_an_advising_reviewers_veto_is_recorded_and_the_gates_decide(tmp_path: Path) -> None:
    """The default with a reviewer model: its VETO is kept beside the verdict; the proof counts."""

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        return say("VETO: I would have used lia") if not tools else call("submit", GOOD)

    result = run(tmp_path, config(scripted(script), reviewer_model="mockllm/model"))["one_plus_one"]
    assert result.status == "passed" and result.turns == 1
    assert result.reviewer_feedback == "veto: I would have used lia"


def test_a_reply_that_is_neither_approve_nor_veto_is_asked_again_never_read_as_a_veto(tmp_path: Path) -> None:
    """A rambling reviewer is asked again (at most three replies); its last clear answer is recorded, and
    one that never answers clearly is no opinion: even ``--reviewer veto`` then lets the gates decide."""
    asked: list[int] = []
    replies = iter(["Let me think about this proof...", "It looks fine overall.", "APPROVE, it is standard."])

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        if tools:
            return call("submit", GOOD)
        asked.append(len(input))
        return say(next(replies))

    cfg = config(scripted(script), reviewer_model="mockllm/model", reviewer_veto=True, budgets=Budgets(max_turns=1))
    result = run(tmp_path, cfg)["one_plus_one"]
    assert result.status == "passed" and asked == [2, 4, 6], "asked three times, with its replies and a reminder"
    assert result.reviewer_feedback == "approve: APPROVE, it is standard."

    def rambling(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        return say("Interesting.") if not tools else call("submit", GOOD)

    cfg = config(scripted(rambling), reviewer_model="mockllm/model", reviewer_veto=True, budgets=Budgets(max_turns=1))
    result = run(tmp_path / "again", cfg)["one_plus_one"]
    assert result.status == "passed"
    assert (result.reviewer_feedback or "").startswith("none: the reviewer's reply was neither APPROVE nor VETO")


def test_reviewer_approval_lets_an_accepted_candidate_pass(tmp_path: Path) -> None:
    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        return say("APPROVE") if not tools else call("submit", GOOD)

    cfg = config(scripted(script), reviewer_model="mockllm/model")
    assert run(tmp_path, cfg)["one_plus_one"].status == "passed"


def test_reviewer_cannot_accept_a_rejected_candidate(tmp_path: Path) -> None:
    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        return say("APPROVE") if not tools else call("submit", BAD)

    cfg = config(scripted(script), reviewer_model="mockllm/model", budgets=Budgets(max_turns=1))
    assert run(tmp_path, cfg)["one_plus_one"].status == "rejected"


def test_token_limit_ends_the_attempt_as_budget(tmp_path: Path) -> None:
    outputs = [call("check", BAD)] * 4
    result = run(tmp_path, config(outputs, budgets=Budgets(max_turns=4, token_limit=200)))["one_plus_one"]
    assert result.status == "budget"
    assert result.error is not None and "token limit" in result.error.lower()
    assert result.turns < 4


def test_carried_candidate_and_diagnostics_open_the_attempt(tmp_path: Path) -> None:
    first: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        first.append(input[-1].text)
        return call("submit", GOOD)

    carried = {"one_plus_one": CarryForward(candidate=BAD, diagnostics="G4 compile: failed: exact I is wrong")}
    result = run(tmp_path, config(scripted(script)), carried=carried)["one_plus_one"]
    assert result.status == "passed"
    assert "exact I." in first[0] and "exact I is wrong" in first[0]


def test_two_problems_run_in_one_evaluation(tmp_path: Path) -> None:
    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        task = input[1].text
        if "two_plus_two" in task:
            return call("submit", "Theorem two_plus_two : 2 + 2 = 4.\nProof.\n  reflexivity.\nQed.\n")
        return call("submit", BAD)

    results = run(tmp_path, config(scripted(script), budgets=Budgets(max_turns=1)), ["one_plus_one", "two_plus_two"])
    assert results["two_plus_two"].status == "passed"
    assert results["one_plus_one"].status == "rejected"


def test_prepare_only_writes_workspaces_and_prompts_without_a_model(tmp_path: Path) -> None:
    bench = load_benchmark(FIXTURE)
    cfg = config([], model="no-such-provider/never-called")
    [workspace] = prepare_workspaces(select_problems(bench, ["one_plus_one"]), bench, cfg, tmp_path)
    assert (workspace / "OnePlusOne.v").read_text() == bench.problems["one_plus_one"].formal_statement
    prompt = (workspace / "PROMPT.md").read_text()
    assert "check(proof)" in prompt and "one_plus_one" in prompt
    assert (workspace / "_CoqProject").exists()


def test_a_model_that_only_talks_is_reminded_and_its_attempt_ends_after_three_such_turns(tmp_path: Path) -> None:
    """Not after ``--max-turns`` reminders: three turns in a row without a tool call end the attempt, and a
    tool call in between starts the count again."""
    talk = say("I believe the statement holds by arithmetic.")
    outputs = [talk, talk, call("check", BAD), talk, talk, talk, call("submit", GOOD)]
    result = run(tmp_path, config(outputs, budgets=Budgets(max_turns=10)))["one_plus_one"]
    assert result.status == "no_submission" and result.turns == 6
    assert result.turn_log[-1]["result"] == "ended: 3 turns without a tool call"


def test_check_answers_for_each_alternative_at_one_line_in_one_call(tmp_path: Path) -> None:
    """Several tactics tried in one call: each replaces the given line and is checked as its own file."""
    seen: list[str] = []
    tries = {"proof": BAD, "line": 3, "alternatives": ["  exact I.", "  reflexivity.", "  lia."]}
    alternatives = ModelOutput.for_tool_call(model="mockllm/model", tool_name="check", tool_arguments=tries)
    alternatives.usage = call("check", BAD).usage  # a usage of its own, or the mock model counts tokens online
    outputs = iter([alternatives])

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        return next(outputs, call("submit", GOOD))

    result = run(tmp_path, config(scripted(script), budgets=Budgets(max_turns=2)))["one_plus_one"]
    assert result.status == "passed", result.error
    answer = seen[1]
    assert answer.startswith("alternative 1: verdict: rejected")
    assert "alternative 2: PASSED the fast gates" in answer and "alternative 3: verdict: rejected" in answer
