"""Budgets while a campaign runs, with the real agent layer (Inspect, scripted mock model, real coqc).

The run budget is counted after every model call: when it is spent, the attempt in flight stops and is
recorded with what it spent, the problems not started stay unattempted, and a ``--resume`` with a larger
budget runs exactly those.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import Budgets
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from tests.fakes.scripted_agent import BAD, NEEDS_ROCQ, call, config, scripted, solve_fixture

pytestmark = NEEDS_ROCQ

TWO_GOOD = "Theorem two_plus_two : 2 + 2 = 4.\nProof.\n  reflexivity.\nQed.\n"


def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
    """one_plus_one keeps checking a wrong proof; two_plus_two submits a right one (120 tokens a call)."""
    if "two_plus_two" in input[1].text:
        return call("submit", TWO_GOOD)
    return call("check", BAD)


CONFIG = config(scripted(script), jobs=1, fallback_jobs=1, budgets=Budgets(max_turns=6))


def test_the_run_budget_stops_the_attempt_in_flight_and_starts_no_other(tmp_path: Path) -> None:
    outcome = solve_fixture(tmp_path, CONFIG, limits=RunLimits(max_tokens=300))
    assert outcome.exit_code == ExitCode.LIMIT
    assert "run token budget reached (360 of 300 tokens)" in outcome.message
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        [attempt] = ledger.attempts()
        [campaign] = ledger.campaigns()
    finally:
        ledger.close()
    assert attempt.problem == "one_plus_one" and attempt.status == "budget"
    assert attempt.turns == 3, "stopped after the call that spent the budget, not at max_turns"
    assert attempt.input_tokens + attempt.output_tokens == 360
    assert attempt.error is not None and "run token budget reached" in attempt.error
    assert not campaign.finished, "two_plus_two was never started: the campaign is not over"
    assert "two_plus_two" not in (tmp_path / "attempts.tsv").read_text()


def test_resume_with_a_larger_budget_runs_only_the_unstarted_problems(tmp_path: Path) -> None:
    assert solve_fixture(tmp_path, CONFIG, limits=RunLimits(max_tokens=300)).exit_code == ExitCode.LIMIT
    resumed = solve_fixture(tmp_path, CONFIG, limits=RunLimits(max_tokens=10_000), resume=True)
    assert resumed.exit_code == ExitCode.SUCCESS and "campaign limit reached" in resumed.message
    assert resumed.passed == 1 and resumed.unresolved == ("one_plus_one",)
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        attempts = [(a.campaign, a.problem, a.status) for a in ledger.attempts()]
        [campaign] = ledger.campaigns()
        usage = ledger.usage()
    finally:
        ledger.close()
    assert attempts == [(1, "one_plus_one", "budget"), (1, "two_plus_two", "passed")]
    assert campaign.finished
    assert usage.tokens == 360 + 120


def test_a_run_budget_already_spent_starts_nothing(tmp_path: Path) -> None:
    assert solve_fixture(tmp_path, CONFIG, limits=RunLimits(max_tokens=300)).exit_code == ExitCode.LIMIT
    again = solve_fixture(tmp_path, CONFIG, limits=RunLimits(max_tokens=300), resume=True)
    assert again.exit_code == ExitCode.LIMIT and "run token budget reached (360 of 300 tokens)" in again.message
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        assert len(ledger.attempts()) == 1
    finally:
        ledger.close()


def test_concurrent_attempts_all_stop_and_overshoot_by_at_most_one_call_each(tmp_path: Path) -> None:
    def check_forever(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        return call("check", BAD)

    cfg = config(scripted(check_forever), jobs=2, fallback_jobs=2, budgets=Budgets(max_turns=6))
    outcome = solve_fixture(tmp_path, cfg, limits=RunLimits(max_tokens=300))
    assert outcome.exit_code == ExitCode.LIMIT and "run token budget reached" in outcome.message
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        attempts = ledger.attempts()
        [campaign] = ledger.campaigns()
        usage = ledger.usage()
    finally:
        ledger.close()
    assert attempts and all(a.status == "budget" for a in attempts)
    assert all(a.turns < 6 for a in attempts), "every attempt was stopped, none ran out its turns"
    assert 300 <= usage.tokens <= 300 + 120 * len(attempts), "at most one call per running attempt over"
    assert campaign.finished == (len(attempts) == 2), "an attempt never started leaves the campaign open"
