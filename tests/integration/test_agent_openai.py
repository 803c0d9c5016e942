"""The OpenAI-compatible path: Inspect's ``openai-api`` provider with the real ``openai`` client against
a loopback server that injects rate limits, server errors, timeouts and malformed replies.

A fault may cost an attempt but never counts as a pass; a rate-limited run still completes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("openai")

from putnam_solver.agent.types import Budgets
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.integration.test_agent_react import BAD, GOOD, config, pytestmark, run  # noqa: F401

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
def test_model_faults_are_errors_never_passes(tmp_path: Path, fault: str) -> None:
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
