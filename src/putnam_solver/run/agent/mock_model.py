"""The offline mock model (Inspect's ``mockllm``), with a token usage on every output.

``mockllm`` gives an output that carries no usage one counted with tiktoken's ``o200k_base``, which tiktoken
downloads at first use: on a machine with no network every call of a mock run failed with a connection
error, though the mock model is meant to need nothing. Each output here carries a usage before ``mockllm``
sees it, counted from characters at the rate compaction assumes before a provider has reported one
(``history.DEFAULT_TOKENS_PER_CHAR``); a usage a scripted output sets itself is kept.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage
from inspect_ai.tool import ToolChoice, ToolInfo

from putnam_solver.run.agent._inspect import MockLLM
from putnam_solver.run.agent.history import DEFAULT_TOKENS_PER_CHAR, chars
from putnam_solver.run.agent.model_names import MOCK_PROVIDER, is_mock_model


def model_args_for(model: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The client arguments ``model`` is created with: ``args``; for the mock model, its outputs (those of
    ``custom_outputs``, else Inspect's default reply) each given a usage when it has none."""
    if not is_mock_model(model):
        return dict(args)
    return {**args, "custom_outputs": CountedOutputs(args.get("custom_outputs"))}


def tokens(text_chars: int) -> int:
    """The tokens of ``text_chars`` characters at compaction's starting rate: no tokenizer, as none is offline."""
    return math.ceil(text_chars * DEFAULT_TOKENS_PER_CHAR)


class CountedOutputs:
    """``mockllm``'s outputs as one callable (the form ``mockllm`` hands its whole call to), each output
    given a usage counted from the characters sent (messages and tool definitions) and received."""

    def __init__(self, outputs: Any) -> None:
        if outputs is None:
            default = MockLLM.default_output
            outputs = (ModelOutput.from_content(model=MOCK_PROVIDER, content=default) for _ in iter(int, 1))
        self.source: Callable[..., Any] | Iterator[Any] = (
            outputs if callable(outputs) and not isinstance(outputs, Iterator) else iter(outputs)
        )

    async def __call__(
        self, messages: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        output = await self._next(messages, tools, tool_choice, config)
        if output.usage is None:
            sent = tokens(chars(messages) + sum(len(tool.model_dump_json()) for tool in tools))
            received = tokens(chars([choice.message for choice in output.choices]))
            output.usage = ModelUsage(input_tokens=sent, output_tokens=received, total_tokens=sent + received)
        return output

    async def _next(
        self, messages: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        if isinstance(self.source, Iterator):
            output = next(self.source, None)
            if output is None:
                raise ValueError("custom_outputs ran out of values")
        else:
            output = self.source(messages, tools, tool_choice, config)
            if inspect.isawaitable(output):
                output = await output
        if not isinstance(output, ModelOutput):
            raise ValueError(f"output must be an instance of ModelOutput; got {type(output)}")
        return output
