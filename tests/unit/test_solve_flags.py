"""``putnam solve`` flags turned into a run request, before any model is called."""

from __future__ import annotations

import pytest

from putnam_solver.solving import reasoning_effort
from putnam_solver.verify import InputError


@pytest.mark.parametrize(
    ("flag", "model", "expected"),
    [
        ("auto", "openai/gpt-5.5", "xhigh"),
        ("auto", "anthropic/claude-opus-4-7", "xhigh"),
        ("auto", "openai-api/vllm/qwen3", None),
        ("auto", "mockllm/model", None),
        ("high", "openai-api/vllm/qwen3", "high"),
        ("none", "openai/gpt-5.5", None),
    ],
)
def test_reasoning_effort_defaults_to_xhigh_only_where_the_provider_fits_it(
    flag: str, model: str, expected: str | None
) -> None:
    assert reasoning_effort(flag, model) == expected


def test_an_unknown_reasoning_effort_is_refused_with_the_choices() -> None:
    with pytest.raises(InputError, match="--reasoning-effort 'extreme': choose auto or one of none, minimal"):
        reasoning_effort("extreme", "openai/gpt-5.5")
