"""What the react worker sends the model, per turn, on scripted runs: prompt and tool-output tokens.

Scripted mock models drive real attempts (real coqc, Rocq fixtures of the tests): a worker that fixes a
wrong proof after one check, and one that splits a problem into two lemmas proved by ``prove_lemma``.
For every model call the script sees, it records the size of the prompt (system and task, tool
definitions, the conversation so far) and of the newest tool output. Tokens are estimated as characters
/ 4 (no tokenizer is downloaded here), the same way for every column, so the ratios are what counts.

Also printed: the ``check`` answer for the same failing Rocq and Lean files in the compact form and in
the form before this round (every gate listed, up to 8 annotated errors, 6000 characters), and the
standing prompt with every part on against ``--without warm,goals,lemmas,plan``.
Usage: ``python bench/agent_tokens.py``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.fakes

from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.kits import get_kit
from putnam_solver.kits.sessions import CheckOutcome
from putnam_solver.run.agent.tools import annotate, clip, format_check
from putnam_solver.run.agent.types import AgentParts, Budgets
from putnam_solver.run.agent.workspace import system_prompt
from tests.fakes.scripted_agent import BAD, FIXTURE, GOOD, USAGE, call, config, run

L1, L2 = "Lemma l1 : 2 = 1 + 1.", "Lemma l2 : forall n : nat, n + n = 2 * n."
HOLE = "Proof.\nAdmitted.\n"
MAIN = "Theorem two_plus_two : 2 + 2 = 4.\nProof.\n  rewrite (l2 2). pose proof l1 as H. reflexivity.\nQed.\n"
L1_FILE = f"{L1}\nProof.\n  reflexivity.\nQed.\n"
L2_FILE = f"{L2}\nProof.\n  intros n. simpl. rewrite <- plus_n_O. reflexivity.\nQed.\n"
DRAFT = f"{L1}\n{HOLE}\n{L2}\n{HOLE}\n{MAIN}"


def tokens(text: str) -> int:
    return (len(text) + 3) // 4


def recorder(rows: list[tuple[str, int, int]], decide: Callable[[list[ChatMessage]], ModelOutput]) -> Any:
    def script(input: list[ChatMessage], tools: list[Any], tool_choice: Any, cfg: Any) -> ModelOutput:
        schema = json.dumps([t.model_dump() if hasattr(t, "model_dump") else str(t) for t in tools])
        prompt = sum(tokens(m.text) for m in input) + tokens(schema)
        last = input[-1]
        tool_out = tokens(last.text) if last.role == "tool" else 0
        who = "lemma" if "Lemma `" in input[1].text else "main"
        rows.append((who, prompt, tool_out))
        return decide(input)

    return script


def fixing(input: list[ChatMessage]) -> ModelOutput:
    turn = sum(m.role == "assistant" for m in input)
    return [call("check", BAD), call("check", GOOD), call("submit", GOOD)][turn]


def splitting(input: list[ChatMessage]) -> ModelOutput:
    if "Lemma `l1`" in input[1].text:
        return call("submit", L1_FILE)
    if "Lemma `l2`" in input[1].text:
        return call("submit", L2_FILE)
    turn = sum(m.role == "assistant" for m in input)
    steps = [call("check", DRAFT), lemmas("l1", "l2"), call("submit", f"{L1_FILE}\n{L2_FILE}\n{MAIN}")]
    return steps[turn]


def lemmas(*names: str) -> ModelOutput:
    out = ModelOutput.for_tool_call(model="mockllm/model", tool_name="prove_lemma", tool_arguments={"name": names[0]})
    extra = ModelOutput.for_tool_call(model="mockllm/model", tool_name="prove_lemma", tool_arguments={"name": names[1]})
    assert out.message.tool_calls is not None and extra.message.tool_calls is not None
    out.message.tool_calls = [*out.message.tool_calls, *extra.message.tool_calls]
    out.usage = USAGE
    return out


def scenario(label: str, problem: str, decide: Callable[[list[ChatMessage]], ModelOutput], parts: AgentParts) -> None:
    rows: list[tuple[str, int, int]] = []
    cfg = config(recorder(rows, decide), budgets=Budgets(max_turns=4, lemma_turns=2), parts=parts)
    with tempfile.TemporaryDirectory(prefix="putnam-bench-tokens-") as tmp:
        result = run(Path(tmp), cfg, [problem])[problem]
    print(f"{label}: {result.status}, {len(rows)} model calls")
    print("  call  who    prompt tokens  tool output tokens")
    for i, (who, prompt, out) in enumerate(rows, 1):
        print(f"  {i:4}  {who:5}  {prompt:13}  {out:18}")
    total = sum(p for _, p, _ in rows)
    print(f"  total prompt tokens {total}; mean per call {total / len(rows):.0f}")


def before(verdict: Verdict, candidate: str) -> str:
    """The ``check`` answer as it was before this round: every gate, up to 8 annotated errors."""
    lines = [f"verdict: {verdict.status} (profile {verdict.profile.value})"]
    for gate in verdict.gates:
        if gate.status is GateStatus.PASSED:
            lines.append(f"{gate.id} {gate.name}: passed")
            continue
        lines.append(f"{gate.id} {gate.name}: {gate.status.value}")
        lines.append(annotate(gate.detail, candidate))
    return clip("\n".join(lines), 6000)


def answers() -> None:
    options = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL)
    bench = load_benchmark(FIXTURE)
    rocq = get_prover("rocq")
    wrong = "Theorem one_plus_one : 1 + 1 = 2.\nProof.\n  simpl.\n  exact I.\nQed.\n"
    verdict = run_gates(rocq, bench, bench.problems["one_plus_one"], wrong.encode(), Track.WITH_ANSWER, options)
    new, old = format_check(CheckOutcome(verdict), wrong), before(verdict, wrong)
    print(f"check answer for a wrong Rocq step: {tokens(new)} tokens now, {tokens(old)} before")
    long_detail = "\n".join(f"line {i}, column 2: error: unknown identifier `foo{i}`" for i in range(1, 120))
    many = dataclasses.replace(
        verdict,
        gates=[*verdict.gates[:-1], dataclasses.replace(verdict.gates[-1], detail=long_detail)],
    )
    source = "\n".join(f"  exact foo{i}." for i in range(1, 120))
    new, old = format_check(CheckOutcome(many), source), before(many, source)
    print(f"check answer for a file with 119 errors: {tokens(new)} tokens now, {tokens(old)} before")


def prompts() -> None:
    rocq = get_prover("rocq")
    full = config(None)
    bare = dataclasses.replace(full, parts=AgentParts.without(["warm", "goals", "lemmas", "plan"]))
    on, off = tokens(system_prompt(rocq, full)), tokens(system_prompt(rocq, bare))
    print(f"standing prompt (Rocq): {on} tokens with every part on, {off} with --without warm,goals,lemmas,plan")
    for prover in (rocq, get_prover("lean")):
        options = full.verify_options()
        brief, whole = (
            tokens(get_kit(prover.name).policy_brief(options)),
            tokens(get_kit(prover.name).policy_text(options)),
        )
        print(f"policy in the prompt ({prover.name}): {brief} tokens in brief, {whole} for the whole text before")


def main() -> None:
    answers()
    prompts()
    scenario("fix after one check (one_plus_one)", "one_plus_one", fixing, AgentParts())
    scenario("two lemmas in parallel (two_plus_two)", "two_plus_two", splitting, AgentParts())


if __name__ == "__main__":
    main()
