"""The offline mock model (``mockllm/model``) runs with tiktoken unusable, as on a machine with no network
and nothing in tiktoken's cache: Inspect's ``mockllm`` counted an output without usage with tiktoken's
``o200k_base``, downloaded at first use, and every call of such a run failed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import tiktoken
from inspect_ai.model import ChatMessageUser, GenerateConfig, ModelOutput

from putnam_solver.run.agent._inspect import MockLLM
from putnam_solver.run.agent.mock_model import model_args_for
from putnam_solver.run.agent.types import Budgets
from tests.fakes.scripted_agent import GOOD, NEEDS_ROCQ, USAGE, call, config, run


@pytest.fixture(autouse=True)
def no_tiktoken(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def offline(*args: object, **kwargs: object) -> None:
        raise ConnectionError("no network: tiktoken cannot download its encoding")

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty-tiktoken-cache"))
    monkeypatch.setattr(tiktoken, "get_encoding", offline)
    monkeypatch.setattr(tiktoken, "encoding_for_model", offline)


def test_the_mock_models_default_reply_carries_a_usage_counted_without_tiktoken() -> None:
    args = model_args_for("mockllm/model", {})
    reply = asyncio.run(args["custom_outputs"]([ChatMessageUser(content="Prove it.")], [], "auto", GenerateConfig()))
    assert reply.completion == MockLLM.default_output
    assert reply.usage is not None and reply.usage.input_tokens > 0 and reply.usage.output_tokens > 0


def test_another_providers_arguments_are_passed_as_they_are() -> None:
    args = {"custom_outputs": "kept", "timeout": 5}
    assert model_args_for("openai/gpt-5.5", args) == args


@NEEDS_ROCQ
def test_scripted_outputs_keep_the_usage_they_carry_and_the_others_get_one(tmp_path: Path) -> None:
    bare = ModelOutput.from_content(model="mockllm/model", content="Let me think.")
    outputs = [bare, call("submit", GOOD)]
    result = run(tmp_path, config(outputs, budgets=Budgets(max_turns=2)))["one_plus_one"]
    assert result.status == "passed", result.error
    assert result.input_tokens > USAGE.input_tokens and result.output_tokens > USAGE.output_tokens
    assert bare.usage is not None and result.output_tokens == USAGE.output_tokens + bare.usage.output_tokens
