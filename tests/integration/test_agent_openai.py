"""The OpenAI-compatible path: Inspect's ``openai-api`` provider with the real ``openai`` client against
a loopback server that injects rate limits, server errors, timeouts and malformed replies.

A fault may cost an attempt but never counts as a pass; a rate-limited run still completes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

pytest.importorskip("openai")

from putnam_solver.run.agent.types import Budgets
from putnam_solver.run.campaign import RunSettings, Selection, solve
from putnam_solver.run.report.progress import AttemptEvent, Totals
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.fakes.scripted_agent import BAD, FIXTURE, GOOD, NEEDS_ROCQ, config, run

pytestmark = NEEDS_ROCQ

MODEL = "openai-api/fake/fake-model"


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
    monkeypatch.setenv("INSPECT_EVAL_ATTEMPT_TIMEOUT", "2")


def openai_config(url: str, **overrides: object) -> object:
    fields = {"model": MODEL, "model_base_url": url, "model_args": {}, "prices": {}}
    fields.update(overrides)
    return config(None, **fields)


def test_rate_limited_run_falls_back_and_completes(tmp_path: Path) -> None:
    fake = FakeOpenAI(["429", tool_call_reply("submit", {"proof": GOOD}, "call_1")])
    with serve(fake) as url:
        result = run(tmp_path, openai_config(url, jobs=4, fallback_jobs=1))["one_plus_one"]
    assert fake.faults_served == ["429"]
    assert result.status == "passed"
    assert result.input_tokens == 100 and result.output_tokens == 20


@pytest.mark.parametrize("fault", ["500", "malformed", "timeout"])
def test_model_faults_are_errors_never_passes(tmp_path: Path, fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "0")  # every request faults: a retry only waits out a backoff
    fake = FakeOpenAI([], default=fault, timeout_sleep=4.0)
    with serve(fake) as url:
        result = run(tmp_path, openai_config(url, budgets=Budgets(max_turns=2)))["one_plus_one"]
    assert result.status == "error"
    assert result.verdict is None
    assert result.error
    assert fake.faults_served and set(fake.faults_served) == {fault}


def test_a_rejected_candidate_over_http_is_rejected(tmp_path: Path) -> None:
    fake = FakeOpenAI([tool_call_reply("submit", {"proof": BAD}, "call_1")])
    with serve(fake) as url:
        result = run(tmp_path, openai_config(url, budgets=Budgets(max_turns=1)))["one_plus_one"]
    assert result.status == "rejected"


class RecordingSink:
    """A progress sink that keeps what a view would show."""

    def __init__(self) -> None:
        self.notices: list[str] = []
        self.totals: list[Totals] = []

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None:
        self.totals.append(totals)

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None:
        self.totals.append(totals)

    def update(self, totals: Totals) -> None:
        self.totals.append(totals)

    def notice(self, message: str) -> None:
        self.notices.append(message)

    def close(self) -> None:
        return None


def test_rate_limiting_shows_in_the_progress_view_and_the_run_completes(tmp_path: Path) -> None:
    fake = FakeOpenAI(["429", tool_call_reply("submit", {"proof": GOOD}, "call_1")])
    sink = RecordingSink()
    with serve(fake) as url:
        cfg = openai_config(url, jobs=4, fallback_jobs=1)
        selection = Selection(FIXTURE, problems=("one_plus_one",))
        outcome = solve(RunSettings(tmp_path, cfg, selection), sink)  # type: ignore[arg-type]
    assert outcome.exit_code == 0, outcome.message
    [notice] = [n for n in sink.notices if "rate-limiting" in n]
    assert "1 rate-limited request in the last minute" in notice
    assert "of 4 connections (at least 1)" in notice, "the adaptive connection limit is shown"
    assert any(t.rate_limit and "rate-limited request" in t.rate_limit for t in sink.totals)
    assert sink.totals[-1].tokens == 120, "the view counts the spend of the finished attempt"
