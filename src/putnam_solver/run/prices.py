"""What a model's tokens cost, from a maintained catalogue, with the user's own prices on top.

Prices change more often than this package: the catalogue is ``genai-prices`` (Pydantic's maintained
price data, shipped as a snapshot with the package, so a lookup needs no network), and the user's
``--prices`` table (``model -> {"input": $/Mtok, "output": $/Mtok}``, optionally ``"cache_read"`` and
``"cache_write"``) replaces an entry or adds one the catalogue lacks. A model with no price in either has
an unknown cost: shown as ``unknown`` wherever a cost is shown, and refused where a cost limit needs it.
This module imports no agent library, so the flags are checked and reports are written without one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from genai_prices import Usage, calc_price

if TYPE_CHECKING:
    from putnam_solver.run.agent.types import SolveConfig

SAMPLE_TOKENS = 1000
"""The request size priced to read per-token rates: small, so that long-context tiers never apply."""
PROVIDERS = {"grok": "x-ai", "bedrock": "aws", "azureai": "azure", "vertex": "google", "openai-api": None}
"""Inspect provider names that the catalogue spells differently (None: an OpenAI-compatible server of
any vendor, matched by the model's name alone)."""


@dataclass(frozen=True)
class Price:
    """Dollars per million tokens. Cached input is billed at its own rates where the provider has them."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def dollars(self, input_tokens: int, output_tokens: int, cache_read: int = 0, cache_write: int = 0) -> float:
        """The cost of this many tokens (``input_tokens`` without the cached ones)."""
        total = input_tokens * self.input + output_tokens * self.output
        total += cache_read * (self.cache_read if self.cache_read is not None else self.input)
        total += cache_write * (self.cache_write if self.cache_write is not None else self.input)
        return total / 1_000_000


def user_prices(overrides: Mapping[str, Mapping[str, float]]) -> dict[str, Price]:
    """The user's table as prices (ValueError naming the model when an entry lacks a rate)."""
    table = {}
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


@functools.cache
def catalogue_price(model: str) -> Price | None:
    """The catalogue's price of an Inspect model name (``provider/model``), or None if it has none."""
    provider, _, name = model.partition("/")
    provider_id = PROVIDERS.get(provider, provider)
    ref = name.rsplit("/", 1)[-1]
    try:
        base, output, read, write = (
            calc_price(Usage(**tokens), ref, provider_id=provider_id)
            for tokens in (
                {"input_tokens": SAMPLE_TOKENS},
                {"output_tokens": SAMPLE_TOKENS},
                {"input_tokens": SAMPLE_TOKENS, "cache_read_tokens": SAMPLE_TOKENS},
                {"input_tokens": SAMPLE_TOKENS, "cache_write_tokens": SAMPLE_TOKENS},
            )
        )
    except (LookupError, ValueError):
        return None
    scale = 1_000_000 / SAMPLE_TOKENS
    return Price(
        input=float(base.input_price) * scale,
        output=float(output.output_price) * scale,
        cache_read=float(read.input_price) * scale,
        cache_write=float(write.input_price) * scale,
    )


def price_of(model: str, overrides: Mapping[str, Price]) -> Price | None:
    """A model's price: the user's entry, else the catalogue's; None when neither has one."""
    return overrides[model] if model in overrides else catalogue_price(model)


def unpriced(models: Iterable[str | None], overrides: Mapping[str, Mapping[str, float]]) -> list[str]:
    """The models (None and repeats skipped) whose cost is unknown."""
    table = user_prices(overrides)
    return [m for m in dict.fromkeys(models) if m is not None and price_of(m, table) is None]


def run_unpriced(config: SolveConfig) -> list[str]:
    """The models of a run's config whose cost is unknown."""
    return unpriced([config.model, config.reviewer_model], config.prices)


def unpriced_when_spent(
    history: Sequence[tuple[str, SolveConfig]], spent_at: Iterable[str], config: SolveConfig
) -> list[str]:
    """The models of the run without a price, now (``config``) or under any settings record (``history``:
    (recorded_at, its config), oldest first) in force when an attempt recorded at one of ``spent_at``
    spent tokens: such an attempt's cost was counted as $0 for that model, and a later ``--resume
    --prices`` does not price it again."""
    times = sorted(t for t in spent_at if t)
    found = run_unpriced(config)
    for i, (at, stored) in enumerate(history):
        until = history[i + 1][0] if i + 1 < len(history) else None
        # Times are whole seconds: an attempt in the second a resume was recorded may have spent under
        # either record, so it counts for both (the cost then reads "at least", never too little).
        if any(at <= t and (until is None or t <= until) for t in times):
            found += run_unpriced(stored)
    return list(dict.fromkeys(m for m in found if m != "none"))


def cost_text(dollars: float, unknown: Sequence[str], digits: int = 2) -> str:
    """A cost as every view shows it: dollars, or ``unknown`` when a model had no price and nothing was
    counted (never $0.00 for it; a provider that reports its own cost is still counted), or ``at least``
    the dollars counted when a model of the run had no price: a reviewer without one had its tokens left
    out of a cost shown as the whole run's."""
    if not unknown:
        return f"${dollars:.{digits}f}"
    return f"at least ${dollars:.{digits}f}" if dollars else "unknown"
