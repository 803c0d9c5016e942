"""Long histories compacted under the attempt's history budget (``Budgets.history_tokens``).

First on a long scripted history (what is kept, the token counts before and after), then in a react
attempt of ``putnam solve``'s agent layer against real coqc, with a scripted model whose provider counts
input tokens by the size of what it is sent, as a real provider does; ``--without compact`` keeps every
turn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.history import DIGEST_HEAD, HistoryBudget, chars
from putnam_solver.run.agent.types import AgentParts, Budgets, SolveConfig
from putnam_solver.run.agent.workspace import system_prompt, task_prompt
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.fakes.scripted_agent import (
    BAD,
    FIXTURE,
    GOOD,
    NEEDS_ROCQ,
    config,
    run,
    scripted,
    served_config,
    solve_fixture,
)

PLAN = "Plan: induction on n, then lia for the arithmetic."
SYSTEM = "You are an expert in formal mathematics."
TASK = "Problem `p`. Prove it."


def turn(number: int, tool: str, proof: str, answer: str, text: str = "") -> list[ChatMessage]:
    call = ToolCall(id=f"c{number}", function=tool, arguments={"proof": proof})
    return [
        ChatMessageAssistant(content=text, tool_calls=[call]),
        ChatMessageTool(content=answer, tool_call_id=f"c{number}", function=tool),
    ]


def long_history(turns: int) -> list[ChatMessage]:
    """The prompt, then ``turns`` checks of a growing file, each rejected with its own error; the first
    reply starts with the plan, one turn asks for goals."""
    messages: list[ChatMessage] = [ChatMessageSystem(content=SYSTEM), ChatMessageUser(content=TASK)]
    for n in range(1, turns + 1):
        proof = "Theorem p : True.\nProof.\n" + "  idtac.\n" * (20 * n) + f"  step{n}.\nQed.\n"
        answer = f"verdict: rejected; G4 compile: failed\nline {20 * n + 3}: Error: unknown tactic step{n} (ERROR-{n})"
        messages += turn(n, "check", proof, answer, PLAN if n == 1 else "")
        if n == turns // 2:
            messages += turn(
                1000, "goals", proof, "State at the end of line 3:\n1 goal\n  ============================\n  GOAL-MID"
            )
    return messages


def calibrated(budget: int, messages: list[ChatMessage]) -> HistoryBudget:
    """A budget whose last call was counted at one token per four characters sent."""
    history = HistoryBudget(budget)
    out = ModelOutput.from_content(model="mockllm/model", content="")
    out.usage = ModelUsage(input_tokens=chars(messages) // 4, output_tokens=1, total_tokens=chars(messages) // 4 + 1)
    history.record(messages, out)
    return history


def test_a_long_history_is_compacted_keeping_prompt_plan_latest_error_goals_and_file() -> None:
    messages = long_history(30)
    history = calibrated(20_000, messages)
    before = history.estimate(messages)
    sent = history.view(messages)
    after = history.estimate(sent)
    assert before > 20_000 and after <= 10_000, (before, after)
    assert history.compactions == [(before, after)]
    assert [m.text for m in sent[:2]] == [SYSTEM, TASK], "the prompt is kept as it was"
    digest = sent[2].text
    assert digest.startswith(DIGEST_HEAD) and PLAN in digest, "the plan (the first reply) is kept"
    assert "GOAL-MID" in digest, "the latest goals are kept"
    assert "ERROR-30" in sent[-1].text and "step30" in json.dumps(sent[-2].model_dump()), "the last turn whole"
    assert "ERROR-1\n" not in "\n".join(m.text for m in sent) + "\n", "an old error is gone"
    calls = {c.id for m in sent if isinstance(m, ChatMessageAssistant) for c in m.tool_calls or []}
    answers = {m.tool_call_id for m in sent if isinstance(m, ChatMessageTool)}
    assert calls == answers, "no tool call without its answer, no answer without its call"

    later = [*messages, *turn(31, "check", "Theorem p : True.\nProof.\n  exact I.\nQed.\n", "PASSED")]
    assert history.view(later)[: len(sent)] == sent, "until the next compaction the sent history only grows"
    assert len(history.compactions) == 1


def test_a_history_under_its_budget_is_sent_as_it_is() -> None:
    messages = long_history(3)
    history = calibrated(20_000, messages)
    assert history.view(messages) is messages and history.compactions == []


def test_the_latest_error_is_kept_when_the_latest_turns_are_searches() -> None:
    messages = long_history(12)
    for n in range(13, 19):
        messages += turn(n, "search", "nat_ind", f"Nat.ind_{n}: ...")
    history = calibrated(3_000, messages)
    digest = history.view(messages)[2].text
    assert "ERROR-12" in digest and "step12" in digest, "the last check's errors and file outlive the searches"
    assert "ERROR-11" not in digest


def sized(outputs: list[ModelOutput]) -> Any:
    """A scripted model whose provider counts one input token per four characters sent."""
    seen: list[list[ChatMessage]] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        seen.append(list(input))
        out = outputs[min(len(seen) - 1, len(outputs) - 1)]
        tokens = chars(input) // 4
        out.usage = ModelUsage(input_tokens=tokens, output_tokens=10, total_tokens=tokens + 10)
        return out

    return scripted(script), seen


def check(proof: str, number: int) -> ModelOutput:
    return ModelOutput.for_tool_call(
        model="mockllm/model", tool_name="check", tool_arguments={"proof": proof + f"(* try {number} *)\n"}
    )


ROOM = 500
"""Tokens a budget leaves beyond the first prompt: a few check turns (about 100 tokens each), so that
compaction has turns to drop when the count reaches it."""


def prompt_tokens(cfg: SolveConfig) -> tuple[int, int]:
    """The worker's first prompt (system and task, which carry the prover's policy and so grow with its
    rules) for the fixture problem: in tokens as the history counts them (four characters a token) and as
    the loopback model server counts them (its JSON of the messages, four characters a token)."""
    prover = get_prover(cfg.prover)
    problem = load_benchmark(FIXTURE).problems["one_plus_one"]
    texts = [system_prompt(prover, cfg), task_prompt(prover, problem, cfg, None)]
    messages = [{"role": role, "content": text} for role, text in zip(("system", "user"), texts, strict=True)]
    return sum(map(len, texts)) // 4, len(json.dumps(messages)) // 4


@NEEDS_ROCQ
@pytest.mark.parametrize("compact", [True, False])
def test_a_long_react_attempt_is_compacted_unless_turned_off(tmp_path: Path, compact: bool) -> None:
    outputs = [check(BAD, n) for n in range(1, 9)]
    outputs.append(ModelOutput.for_tool_call(model="mockllm/model", tool_name="submit", tool_arguments={"proof": GOOD}))
    model, seen = sized(outputs)
    parts = AgentParts() if compact else AgentParts.without(["compact"])
    budget = prompt_tokens(config(model, parts=parts, budgets=Budgets(max_turns=9)))[0] + ROOM
    cfg = config(model, parts=parts, budgets=Budgets(max_turns=9, history_tokens=budget))
    result = run(tmp_path, cfg)["one_plus_one"]
    assert result.status == "passed"
    sizes = [chars(input) // 4 for input in seen]
    compactions = [e for e in result.turn_log if str(e["result"]).startswith("history compacted")]
    if not compact:
        assert sizes == sorted(sizes) and sizes[-1] > budget and not compactions, "every turn sent whole"
        return
    assert compactions and max(sizes) <= budget < max(sizes) + 300, sizes
    last = seen[-1]
    digest = next(m.text for m in last if m.text.startswith(DIGEST_HEAD))
    assert "G4 compile: failed" in digest or "G4 compile: failed" in last[-1].text, "the latest error is kept"
    assert "(* try 8 *)" in json.dumps([m.model_dump() for m in last]), "the latest file is kept"


@NEEDS_ROCQ
def test_a_run_against_the_model_server_compacts_by_the_provider_s_own_token_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``putnam solve``'s campaign against the loopback model server, whose prompt tokens grow with what it
    is sent: the history is compacted where the server's count would pass the budget, and the ledger's
    turn log says so."""
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
    steps = [tool_call_reply("check", {"proof": BAD + f"(* try {n} *)\n"}, f"call_{n}") for n in range(1, 9)]
    fake = FakeOpenAI([*steps, tool_call_reply("submit", {"proof": GOOD}, "call_9")], chars_per_prompt_token=4)
    with serve(fake) as url:
        budget = prompt_tokens(served_config(url, Budgets(max_turns=9)))[1] + ROOM
        cfg = served_config(url, Budgets(max_turns=9, history_tokens=budget))
        outcome = solve_fixture(tmp_path, cfg, ["one_plus_one"])
    assert outcome.exit_code == ExitCode.SUCCESS and outcome.passed == 1, outcome.message
    counted = [fake.prompt_tokens(request) for request in fake.received]
    growth = counted[1] - counted[0]  # what one check turn adds
    assert max(counted) <= budget < counted[0] + growth * len(steps), counted
    assert DIGEST_HEAD in json.dumps(fake.received[-1]["messages"]) and "(* try 8 *)" in json.dumps(fake.received[-1])
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        [attempt] = ledger.attempts()
        log = [t["result"] for t in ledger.turns(attempt.id)]
    finally:
        ledger.close()
    assert any(str(r).startswith("history compacted: about") for r in log), log
