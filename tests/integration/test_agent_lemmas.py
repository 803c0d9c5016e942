"""Lemma sub-attempts end to end: the scripted model server (a loopback OpenAI-compatible server), the
real agent layer and campaign, real coqc for every gate.

The worker splits ``two_plus_two`` into two lemmas left as holes, checks the draft, and proves each with
``prove_lemma``; every sub-attempt is recorded at once with its parent attempt, proved lemmas are kept
and offered to later campaigns, and budgets stop sub-attempts in flight.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import Budgets
from putnam_solver.run.campaign import SolveOutcome
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.fakes.scripted_agent import (
    DRAFT,
    FINAL,
    HOLE,
    L1,
    L1_PROOF,
    L2,
    L2_PROOF,
    NEEDS_ROCQ,
    served_config,
    solve_fixture,
)

pytestmark = NEEDS_ROCQ

L2_WRONG = "Proof.\n  intros n. exact I.\nQed.\n"
PLAN = "Plan: 2 + 2 = 2 * 2 by l2, which is n + n = 2 * n at 2; l1 is a warm-up."


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")


def step(tool: str, number: int, **arguments: Any) -> dict[str, Any]:
    return tool_call_reply(tool, arguments, f"call_{number}")


def calls(*steps: dict[str, Any]) -> dict[str, Any]:
    """One reply that makes several tool calls (run concurrently by the agent)."""
    return {"role": "assistant", "content": None, "tool_calls": [c for s in steps for c in s["tool_calls"]]}


def solve_with(
    fake: FakeOpenAI, run_dir: Path, campaigns: int = 1, limits: RunLimits | None = None, **budgets: Any
) -> SolveOutcome:
    with serve(fake) as url:
        cfg = served_config(url, Budgets(**{"max_turns": 6, "lemma_turns": 1, **budgets}))
        return solve_fixture(run_dir, cfg, ["two_plus_two"], campaigns, limits)


def texts(fake: FakeOpenAI, index: int) -> str:
    """Everything the client sent in request ``index`` (its messages, as JSON)."""
    return json.dumps(fake.received[index]["messages"])


def test_a_problem_split_into_two_lemmas_one_retried_is_solved(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [
            {**step("check", 1, proof=DRAFT), "content": PLAN},  # main: the plan, then the draft
            step("prove_lemma", 2, name="l1"),  # main
            step("submit", 3, proof=f"{L1}\n{L1_PROOF}"),  # sub-attempt on l1: proved
            step("prove_lemma", 4, name="l2"),  # main
            step("submit", 5, proof=f"{L2}\n{L2_WRONG}"),  # sub-attempt on l2: rejected, out of turns
            step("prove_lemma", 6, name="l2"),  # main: retry
            step("submit", 7, proof=f"{L2}\n{L2_PROOF}"),  # second sub-attempt on l2: proved
            step("submit", 8, proof=FINAL),  # main
        ]
    )
    outcome = solve_with(fake, tmp_path)
    assert outcome.exit_code == ExitCode.SUCCESS, outcome.message
    assert fake.requests == 8
    assert "DRAFT: holes left in l1 (line 1), l2 (line 5)" in texts(fake, 1), "check listed the holes"
    assert "Lemma `l1` of problem `two_plus_two`" in texts(fake, 2), "the sub-attempt sees the lemma file only"
    assert "Theorem two_plus_two" not in texts(fake, 2)
    assert "PROVED l1" in texts(fake, 3) and "reflexivity" in texts(fake, 3)
    assert "NOT PROVED: l2" in texts(fake, 5) and "exact I" in texts(fake, 5), "the failure and its diagnostics"
    assert "PROVED l2" in texts(fake, 7)

    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        [attempt] = ledger.attempts()
        subs = ledger.subattempts()
        notes = ledger.attempt_notes()[attempt.id]
        kept = ledger.proved_lemmas("two_plus_two")
    finally:
        ledger.close()
    assert attempt.status == "passed" and attempt.verified_pass and notes["plan"] == PLAN
    shown = (tmp_path / "attempts" / "campaign-1" / "two_plus_two" / "plan.md").read_text()
    assert f"```text\n{PLAN}" in shown, "the plan, as the model wrote it, in a code block (shown as text)"
    assert [(s.lemma, s.status, s.proved) for s in subs] == [
        ("l1", "passed", True),
        ("l2", "rejected", False),
        ("l2", "passed", True),
    ]
    assert {s.parent for s in subs} == {notes["key"]}, "each sub-attempt names its attempt"
    assert all(s.input_tokens == 100 and s.output_tokens == 20 for s in subs), "each sub-attempt made one call"
    assert attempt.input_tokens == 800, "the attempt's usage includes its sub-attempts'"
    assert {k.lemma for k in kept} == {"l1", "l2"} and all(k.statement.endswith(HOLE) for k in kept)

    head, *tsv = (tmp_path / "attempts.tsv").read_text().splitlines()
    rows = [dict(zip(head.split("\t"), line.split("\t"), strict=True)) for line in tsv]
    lemma_rows = [r for r in rows if r["lemma"]]
    parent = "attempts/campaign-1/two_plus_two"
    assert [(r["status"], r["lemma"], r["parent"]) for r in lemma_rows] == [
        ("passed", "l1", parent),
        ("rejected", "l2", parent),
        ("passed", "l2", parent),
    ]
    summary = (tmp_path / "SUMMARY.md").read_text()
    assert "## Lemma sub-attempts" in summary and "Sub-attempts: 3; lemmas proved: 2;" in summary
    folders = sorted((tmp_path / "attempts" / "campaign-1" / "two_plus_two" / "lemmas").iterdir())
    assert len(folders) == 3 and all((f / "subattempt.json").is_file() for f in folders)
    assert (folders[0] / "lemma.v").read_text().startswith(L1)
    assert json.loads((folders[1] / "verdict.json").read_text())["status"] == "rejected"


def test_a_lemma_proved_in_campaign_one_is_reused_in_campaign_two(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [
            step("check", 1, proof=DRAFT),  # campaign 1, main
            step("prove_lemma", 2, name="l1"),  # campaign 1, main
            step("submit", 3, proof=f"{L1}\n{L1_PROOF}"),  # campaign 1, sub-attempt: proved
            step("submit", 4, proof=DRAFT),  # campaign 1, main: rejected (holes); out of turns
            step("check", 5, proof=DRAFT),  # campaign 2, main
            # campaign 2, main: both lemmas at once; l1 from the cache (no model call), l2 in a sub-attempt
            calls(step("prove_lemma", 6, name="l1"), step("prove_lemma", 7, name="l2")),
            step("submit", 8, proof=f"{L2}\n{L2_PROOF}"),  # campaign 2, sub-attempt on l2: proved
            step("submit", 9, proof=FINAL),  # campaign 2, main
        ]
    )
    outcome = solve_with(fake, tmp_path, campaigns=2, max_turns=3)
    assert outcome.exit_code == ExitCode.SUCCESS, outcome.message
    assert fake.requests == 8
    assert "Lemmas proved earlier for this problem" in texts(fake, 4), "campaign 2 is offered the lemma"
    assert "reflexivity" in texts(fake, 4)
    assert "from the lemma cache, no model call" in texts(fake, 7) and "PROVED l2" in texts(fake, 7)
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        subs = [(s.campaign, s.lemma, s.status, s.input_tokens) for s in ledger.subattempts()]
        attempts = [(a.campaign, a.status) for a in ledger.attempts()]
    finally:
        ledger.close()
    assert subs == [(1, "l1", "passed", 100), (2, "l1", "cached", 0), (2, "l2", "passed", 100)]
    assert attempts == [(1, "rejected"), (2, "passed")]


def test_budgets_stop_sub_attempts_in_flight(tmp_path: Path) -> None:
    lemma_budget = FakeOpenAI(
        [
            step("check", 1, proof=DRAFT),  # main
            step("prove_lemma", 2, name="l1"),  # main
            step("check", 3, proof=f"{L1}\n{HOLE}"),  # sub-attempt: 120 tokens
            step("check", 4, proof=f"{L1}\n{HOLE}"),  # sub-attempt: over its 200 tokens
        ],
        default={"role": "assistant", "content": "I give up."},
    )
    solve_with(lemma_budget, tmp_path / "lemma", max_turns=3, lemma_turns=5, lemma_token_limit=200)
    assert "NOT PROVED: l1" in texts(lemma_budget, 4) and "budget" in texts(lemma_budget, 4)

    run_budget = FakeOpenAI(
        [
            step("check", 1, proof=DRAFT),  # main: 120
            step("prove_lemma", 2, name="l1"),  # main: 240
            step("check", 3, proof=f"{L1}\n{HOLE}"),  # sub-attempt: 360, over the run's 300
            step("check", 4, proof=f"{L1}\n{HOLE}"),  # never asked for
        ]
    )
    outcome = solve_with(run_budget, tmp_path / "run", limits=RunLimits(max_tokens=300), lemma_turns=5)
    assert outcome.exit_code == ExitCode.LIMIT and "run token budget reached" in outcome.message
    assert run_budget.requests == 3, "the sub-attempt stopped after the call that spent the run budget"
    problem_budget = FakeOpenAI(
        [
            step("check", 1, proof=DRAFT),  # main: 120
            step("prove_lemma", 2, name="l1"),  # main: 240
            step("check", 3, proof=f"{L1}\n{HOLE}"),  # sub-attempt: 360, over the problem's 300
            step("check", 4, proof=f"{L1}\n{HOLE}"),  # never asked for
        ]
    )
    outcome = solve_with(problem_budget, tmp_path / "problem", token_limit=300, lemma_turns=5)
    assert outcome.exit_code == ExitCode.SUCCESS and problem_budget.requests == 3

    cases = (
        (tmp_path / "lemma", 240, "Token limit exceeded"),
        (tmp_path / "problem", 120, "Token limit exceeded"),
        (tmp_path / "run", 120, "run token budget reached"),
    )
    for run_dir, lemma_tokens, why in cases:
        ledger = Ledger.open(run_dir / LEDGER_NAME)
        try:
            [sub] = ledger.subattempts()
            [attempt] = ledger.attempts()
        finally:
            ledger.close()
        assert sub.status == "budget" and sub.error is not None and why in sub.error
        assert sub.input_tokens + sub.output_tokens == lemma_tokens
        assert sub.parent and attempt.problem == "two_plus_two"
        if run_dir.name != "lemma":
            assert attempt.status == "budget", "a budget of the attempt or the run stops the attempt too"
