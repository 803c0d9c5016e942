"""The react worker's workflow in ``putnam solve``'s agent layer, on both provers: a plan first, proof
states from ``goals``, checks compiled in warm sessions, and each part turned off by ``--without``.

Scripted mock models, the real gates: coqc/coqtop for Rocq, the toy Lean (its language server) for Lean.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import needs_sandbox

pytest.importorskip("inspect_ai")

from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.verify import Profile
from putnam_solver.run.agent.toolkit import offers_ranked_search
from putnam_solver.run.agent.types import AgentParts, Budgets, SolveConfig
from tests.fakes.scripted_agent import BAD, GOOD, NEEDS_ROCQ, USAGE, call, config, run, scripted
from tests.integration.campaign_driver import lean_text_config
from tests.toylean.build import BENCHMARK, VALID, ToyLean

RANKED = ["find_declarations"] if offers_ranked_search() else []
"""The ranked search is offered where its engine (extra ``retrieval``) is installed."""
PLAN = "Plan: 1 + 1 reduces to 2 by computation, so reflexivity closes it."
STEPS = "Theorem one_plus_one : 1 + 1 = 2.\nProof.\n  simpl.\n  reflexivity.\nQed.\n"


def with_plan(output: ModelOutput) -> ModelOutput:
    """The same tool call, after a paragraph of plan."""
    output.message.content = PLAN
    output.usage = USAGE
    return output


def goals(proof: str, line: int) -> ModelOutput:
    out = ModelOutput.for_tool_call(
        model="mockllm/model", tool_name="goals", tool_arguments={"proof": proof, "line": line}
    )
    out.usage = USAGE
    return out


def tool_names(tools: list[Any]) -> list[str]:
    return [getattr(t, "name", None) or t.__name__ for t in tools]


@NEEDS_ROCQ
def test_plan_goals_and_warm_check_in_a_rocq_attempt(tmp_path: Path) -> None:
    seen: list[str] = []
    offered: list[list[str]] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        offered.append(tool_names(tools))
        steps = [with_plan(goals(STEPS, 3)), call("check", BAD), call("check", GOOD), call("submit", GOOD)]
        return steps[len(seen) - 1]

    result = run(tmp_path, config(scripted(script), budgets=Budgets(max_turns=4)))["one_plus_one"]
    assert result.status == "passed" and result.plan == PLAN
    assert offered[0] == ["check", "goals", "search", "library_search", *RANKED, "sketch", "prove_lemma", "submit"]
    assert "State at the end of line 3:\n1 goal" in seen[1] and seen[1].endswith("2 = 2"), "the goal after simpl"
    assert "G4 compile: failed" in seen[2] and "exact I." in seen[2]
    assert "PASSED the fast gates" in seen[3] and "warm session" in seen[3]


@NEEDS_ROCQ
def test_every_part_can_be_turned_off(tmp_path: Path) -> None:
    seen: list[str] = []
    offered: list[list[str]] = []
    system: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        offered.append(tool_names(tools))
        system.append(input[0].text)
        return [call("check", GOOD), call("submit", GOOD)][len(seen) - 1]

    parts = AgentParts.without(["warm", "goals", "lemmas", "plan", "sketch", "compact", "retrieval"])
    result = run(tmp_path, config(scripted(script), parts=parts))["one_plus_one"]
    assert result.status == "passed"
    assert offered[0] == ["check", "search", "submit"]
    assert "PASSED the fast gates" in seen[1] and "warm" not in seen[1], "checked by the cold gates"
    assert "proof plan" not in system[0] and "prove_lemma" not in system[0] and "`goals" not in system[0]
    assert "library_search" not in system[0] and "find_declarations" not in system[0]
    assert "sketch" not in system[0]


@NEEDS_ROCQ
def test_the_library_searches_answer_in_a_rocq_attempt(tmp_path: Path) -> None:
    seen: list[str] = []
    system: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        system.append(input[0].text)
        steps = [
            call("library_search", command="SearchRewrite", query="(S _ + _)"),
            call("library_search", command="Search", query='x. Redirect "out" Print All'),
            *([call("find_declarations", query="addition is commutative: n + m = m + n")] if RANKED else []),
            call("submit", GOOD),
        ]
        return steps[len(seen) - 1]

    result = run(tmp_path, config(scripted(script), budgets=Budgets(max_turns=4)))["one_plus_one"]
    assert result.status == "passed"
    assert "plus_Sn_m: forall n m : nat, S n + m = S (n + m)" in seen[1], "what the statement's imports hold"
    assert seen[2].startswith("refused: the query may not contain a period")
    assert "`library_search(command, query)`" in system[0]
    if RANKED:
        assert "1. " in seen[3] and "add_comm" in seen[3], "the ranked search over the installed libraries"
        assert "`find_declarations(query)`" in system[0]


@NEEDS_ROCQ
def test_retrieval_alone_can_be_turned_off(tmp_path: Path) -> None:
    offered: list[list[str]] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        offered.append(tool_names(tools))
        return call("submit", GOOD)

    run(tmp_path, config(scripted(script), parts=AgentParts.without(["retrieval"])))
    assert offered[0] == ["check", "goals", "search", "sketch", "prove_lemma", "submit"]


@needs_sandbox
def test_goals_and_checks_in_a_lean_attempt_judged_without_g6(tmp_path: Path, toy_lean_env: ToyLean) -> None:
    """With an acceptance that runs no G6, Lean's G4 also checks the theorem's type in a file of its own,
    so ``check`` takes the cold gates (a warm compile would pass what the acceptance refuses)."""
    good = (VALID / "toy_and_comm.lean").read_text()
    tactic = good.replace("And.intro h.right h.left", "by\n  match h with\n  | ⟨a, b⟩ => ?_")
    seen: list[str] = []
    offered: list[list[str]] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(input[-1].text)
        offered.append(tool_names(tools))
        return [goals(tactic, 3), call("check", tactic), call("check", good), call("submit", good)][len(seen) - 1]

    cfg: SolveConfig = dataclasses.replace(
        lean_text_config(jobs=1),
        model="mockllm/model",
        model_args={"custom_outputs": scripted(script)},
        budgets=Budgets(max_turns=4),
        acceptance_profile=Profile.FAST,
        tools={"lean": toy_lean_env.lean},
        prices={"mockllm/model": {"input": 2.0, "output": 10.0}},
    )
    result = run(tmp_path, cfg, ["toy_and_comm"], benchmark=load_benchmark(BENCHMARK))["toy_and_comm"]
    assert result.status == "passed"
    assert offered[0] == ["check", "goals", "search", *RANKED, "sketch", "prove_lemma", "submit"], "no Lean Search"
    assert "a : p" in seen[1] and "b : q" in seen[1] and "⊢ And q p" in seen[1], "the state after the match"
    assert "G4 compile: failed" in seen[2] and "unsolved goals" in seen[2] and "a : p" in seen[2]
    assert "PASSED the fast gates" in seen[3] and "warm session" not in seen[3]
    assert result.verdict is not None and "warm" not in str(result.verdict.to_json()), "acceptance ran cold"
