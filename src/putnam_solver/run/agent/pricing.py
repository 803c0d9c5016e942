"""Model prices for the agent: Inspect's token usage in dollars, and the prices Inspect itself needs.

Where a price comes from (the maintained catalogue, the user's ``--prices`` on top) is ``run.prices``;
this module applies it to Inspect's ``ModelUsage`` and registers the same prices with Inspect so that
its per-sample ``cost_limit`` can stop an attempt.
"""

from __future__ import annotations

from collections.abc import Mapping

from inspect_ai.model import ModelCost, ModelInfo, ModelUsage, get_model_info, set_model_info

from putnam_solver.run.prices import Price, price_of, user_prices


def price_table(overrides: Mapping[str, Mapping[str, float]]) -> dict[str, Price]:
    """The user's prices (the catalogue answers for every other model, see ``run.prices``)."""
    return user_prices(overrides)


def _usage_cost_of(price: Price, usage: ModelUsage) -> float:
    cache_read = usage.input_tokens_cache_read or 0
    cache_write = usage.input_tokens_cache_write or 0
    return price.dollars(usage.input_tokens, usage.output_tokens, cache_read, cache_write)


def usage_tokens(usage: ModelUsage) -> tuple[int, int]:
    """Input tokens (cached ones included: they are billed, at their own rate) and output tokens."""
    cached = (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
    return usage.input_tokens + cached, usage.output_tokens


def usage_cost(usage: Mapping[str, ModelUsage], table: Mapping[str, Price]) -> tuple[float, list[str]]:
    """Dollars for a per-model usage map, and the models that had no price (their cost is unknown)."""
    total = 0.0
    unpriced: list[str] = []
    for model, used in usage.items():
        price = price_of(model, table)
        if price is not None:
            total += _usage_cost_of(price, used)
        elif used.total_cost is not None:
            total += used.total_cost
        else:
            unpriced.append(model)
    return total, unpriced


def register_with_inspect(models: list[str], table: Mapping[str, Price]) -> list[str]:
    """Give Inspect the prices of ``models`` (so ``cost_limit`` works); returns the unpriced ones."""
    unpriced = []
    for model in models:
        price = price_of(model, table)
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
