"""Model prices for the agent: Inspect's token usage in dollars, and the prices Inspect itself needs.

Where a price comes from (the maintained catalogue, the user's ``--prices`` on top) is ``run.prices``;
this module applies it to Inspect's ``ModelUsage`` and registers the same prices with Inspect so that
its per-sample ``cost_limit`` can stop an attempt.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping

from inspect_ai.model import ModelCost, ModelInfo, ModelUsage, get_model_info, set_model_info

from putnam_solver.run.ledger_rows import MAX_DOLLARS, MAX_TOKENS
from putnam_solver.run.prices import Price, price_of, user_prices

log = logging.getLogger(__name__)
TOKEN_FIELDS = ("input_tokens", "output_tokens", "total_tokens", "input_tokens_cache_read", "input_tokens_cache_write")


def price_table(overrides: Mapping[str, Mapping[str, float]]) -> dict[str, Price]:
    """The user's prices (the catalogue answers for every other model, see ``run.prices``)."""
    return user_prices(overrides)


def counted_usage(usage: ModelUsage) -> ModelUsage:
    """``usage`` as it is counted: every token count from 0 to ``MAX_TOKENS``, a reported cost from 0 to
    ``MAX_DOLLARS`` (else none). The counts are the model server's, which is not trusted: a negative
    ``prompt_tokens`` made an attempt's tokens and cost negative (SUMMARY.md showed "$-5.00"; the run
    budget grew by what it subtracted), and a count beyond SQLite's integers ended the run with exit 1
    before the attempt it passed was recorded. A count held to the bounds is logged."""
    changes: dict[str, object] = {}
    for name in TOKEN_FIELDS:
        value = getattr(usage, name)
        if value is not None and not 0 <= value <= MAX_TOKENS:
            changes[name] = min(max(int(value), 0), MAX_TOKENS)
    cost = usage.total_cost
    if cost is not None and not (math.isfinite(cost) and 0 <= cost <= MAX_DOLLARS):
        changes["total_cost"] = min(cost, MAX_DOLLARS) if cost > 0 else None  # NaN and negatives: none
    if changes:
        log.warning("the model server reported impossible usage (%s): counted as %s", usage, changes)
        return usage.model_copy(update=changes)
    return usage


def _usage_cost_of(price: Price, usage: ModelUsage) -> float:
    cache_read = usage.input_tokens_cache_read or 0
    cache_write = usage.input_tokens_cache_write or 0
    return price.dollars(usage.input_tokens, usage.output_tokens, cache_read, cache_write)


def usage_tokens(usage: ModelUsage) -> tuple[int, int]:
    """Input tokens (cached ones included: they are billed, at their own rate) and output tokens."""
    usage = counted_usage(usage)
    cached = (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
    return min(usage.input_tokens + cached, MAX_TOKENS), usage.output_tokens


def attempt_tokens(usage: Mapping[str, ModelUsage]) -> tuple[int, int]:
    """An attempt's input and output tokens over every model it called, as the ledger records them."""
    counts = [usage_tokens(u) for u in usage.values()]
    return min(sum(c[0] for c in counts), MAX_TOKENS), min(sum(c[1] for c in counts), MAX_TOKENS)


def usage_cost(usage: Mapping[str, ModelUsage], table: Mapping[str, Price]) -> tuple[float, list[str]]:
    """Dollars for a per-model usage map, and the models that had no price (their cost is unknown)."""
    total = 0.0
    unpriced: list[str] = []
    for model, reported in usage.items():
        used = counted_usage(reported)
        price = price_of(model, table)
        if price is not None:
            total += _usage_cost_of(price, used)
        elif used.total_cost is not None:
            total += used.total_cost
        else:
            unpriced.append(model)
    return min(total, MAX_DOLLARS), unpriced


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
