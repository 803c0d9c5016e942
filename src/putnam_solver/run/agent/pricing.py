"""Model prices: turn Inspect's token usage into dollars.

Inspect counts tokens per model (``ModelUsage``); what a token costs is a fact about a provider's price
list that changes over time, so it lives in one table the user can override (``SolveConfig.prices``,
``model -> {"input": $/Mtok, "output": $/Mtok}``, optionally ``"cache_read"`` and ``"cache_write"``).
The same prices are registered with Inspect so that its per-sample ``cost_limit`` can stop an attempt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from inspect_ai.model import ModelCost, ModelInfo, ModelUsage, get_model_info, set_model_info


@dataclass(frozen=True)
class Price:
    """Dollars per million tokens. Cached input is billed at its own rates where the provider has them."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def cost(self, usage: ModelUsage) -> float:
        cache_read = usage.input_tokens_cache_read or 0
        cache_write = usage.input_tokens_cache_write or 0
        dollars = usage.input_tokens * self.input + usage.output_tokens * self.output
        dollars += cache_read * (self.cache_read if self.cache_read is not None else self.input)
        dollars += cache_write * (self.cache_write if self.cache_write is not None else self.input)
        return dollars / 1_000_000


# List prices (USD per million tokens) of common models; override with SolveConfig.prices when they change.
DEFAULT_PRICES: dict[str, Price] = {
    "openai/gpt-5": Price(1.25, 10.0, cache_read=0.125),
    "openai/gpt-5-mini": Price(0.25, 2.0, cache_read=0.025),
    "openai/gpt-5-nano": Price(0.05, 0.40, cache_read=0.005),
    "openai/gpt-5.1": Price(1.25, 10.0, cache_read=0.125),
    "openai/o3": Price(2.0, 8.0, cache_read=0.5),
    "openai/o4-mini": Price(1.10, 4.40, cache_read=0.275),
    "openai/gpt-4.1": Price(2.0, 8.0, cache_read=0.5),
    "anthropic/claude-opus-4-1": Price(15.0, 75.0, cache_read=1.5, cache_write=18.75),
    "anthropic/claude-opus-4-5": Price(5.0, 25.0, cache_read=0.5, cache_write=6.25),
    "anthropic/claude-sonnet-4-5": Price(3.0, 15.0, cache_read=0.3, cache_write=3.75),
    "anthropic/claude-haiku-4-5": Price(1.0, 5.0, cache_read=0.1, cache_write=1.25),
    "google/gemini-2.5-pro": Price(1.25, 10.0, cache_read=0.31),
    "google/gemini-2.5-flash": Price(0.30, 2.50, cache_read=0.075),
}


def price_table(overrides: Mapping[str, Mapping[str, float]]) -> dict[str, Price]:
    """The default table with the user's prices laid over it (a user entry replaces a default one)."""
    table = dict(DEFAULT_PRICES)
    for model, entry in overrides.items():
        try:
            table[model] = Price(
                input=float(entry["input"]),
                output=float(entry["output"]),
                cache_read=_optional(entry.get("cache_read")),
                cache_write=_optional(entry.get("cache_write")),
            )
        except KeyError as exc:
            raise ValueError(f"price of {model}: missing {exc.args[0]!r} (dollars per million tokens)") from exc
    return table


def _optional(value: float | None) -> float | None:
    return None if value is None else float(value)


def price_for(model: str, table: Mapping[str, Price]) -> Price | None:
    """A model's price: exact name first, then without a dated suffix (``gpt-5-2025-08-07``)."""
    if model in table:
        return table[model]
    stem = model.rsplit("-", 3)[0] if model.count("-") >= 3 else model
    return table.get(stem)


def usage_tokens(usage: ModelUsage) -> tuple[int, int]:
    """Input tokens (cached ones included: they are billed, at their own rate) and output tokens."""
    cached = (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
    return usage.input_tokens + cached, usage.output_tokens


def usage_cost(usage: Mapping[str, ModelUsage], table: Mapping[str, Price]) -> tuple[float, list[str]]:
    """Dollars for a per-model usage map, and the models that had no price (counted as zero)."""
    total = 0.0
    unpriced: list[str] = []
    for model, used in usage.items():
        price = price_for(model, table)
        if price is not None:
            total += price.cost(used)
        elif used.total_cost is not None:
            total += used.total_cost
        else:
            unpriced.append(model)
    return total, unpriced


def register_with_inspect(models: list[str], table: Mapping[str, Price]) -> list[str]:
    """Give Inspect the prices of ``models`` (so ``cost_limit`` works); returns the unpriced ones."""
    unpriced = []
    for model in models:
        price = price_for(model, table)
        if price is None:
            unpriced.append(model)
            continue
        cost = ModelCost(
            input=price.input,
            output=price.output,
            input_cache_read=price.cache_read if price.cache_read is not None else price.input,
            input_cache_write=price.cache_write if price.cache_write is not None else price.input,
        )
        known = get_model_info(model)
        info = known.model_copy(update={"cost": cost}) if known is not None else ModelInfo(cost=cost)
        set_model_info(model, info)
    return unpriced
