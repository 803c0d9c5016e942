"""The numbers a run's budgets, run limits and prices may hold: finite, and in the range each one means.

They reach a run from two doors: the flags of ``putnam solve`` (typer reads ``nan``, ``inf`` and ``-5`` as
floats), and the settings a ledger stores, which ``--resume``, ``report``, ``audit`` and ``export`` read
back (Python's ``json`` reads ``NaN`` and ``Infinity``, and anyone who hands a run directory over may have
edited them). Before, neither door checked them. A stored price of ``-1000`` dollars per million tokens
made every cost of its model negative: the resumed run's spend shrank as it spent, so the caller's own
``--run-cost-limit`` was never reached and Inspect's per-attempt cost limit never stopped an attempt, and
the first attempt recorded with a negative cost made the ledger unreadable to every later reader (the run
broke half-way); a ``NaN`` price did the same through a ``NaN`` cost, which SQLite stores as NULL. A
``NaN`` limit compares false with every spend and showed as ``$nan``. The dataclasses check themselves
here (``__post_init__``), so both doors refuse the same values with the same words, the flag's name among
them; no limit is spelled by leaving the flag out (``null`` in the ledger).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from putnam_solver.core.util import InputError
from putnam_solver.run.ledger_rows import MAX_DOLLARS, MAX_TOKENS
from putnam_solver.terminal import shown_path

MAX_SECONDS = 10.0**9
"""The longest time limit: about 31 years, far beyond any attempt, and finite."""
REQUIRED_RATES = ("input", "output")
"""The rates every price gives (``prices.user_prices``): dollars per million tokens."""


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def count(flag: str, value: Any, least: int, optional: bool = True) -> None:
    """``value`` is a whole number from ``least`` to ``MAX_TOKENS`` (or None when ``optional``)."""
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= MAX_TOKENS:
        raise InputError(f"{flag} {value!r}: give a whole number from {least} to {MAX_TOKENS}{_unset(optional)}")


def amount(flag: str, value: Any, unit: str, most: float, positive: bool = False) -> None:
    """``value`` is None or a finite number from 0 (above 0 when ``positive``) to ``most``."""
    if value is None:
        return
    low = value > 0 if positive else value >= 0
    if not _number(value) or not math.isfinite(value) or not low or value > most:
        least = "above 0" if positive else "from 0"
        raise InputError(f"{flag} {value!r}: give {unit}, a finite number {least} to {most:g}{_unset(True)}")


def _unset(optional: bool) -> str:
    return " (leave the flag out for no limit)" if optional else ""


def check_budgets(budgets: Any) -> None:
    """Every field of a ``Budgets``."""
    count("--max-turns", budgets.max_turns, 1, optional=False)
    amount("--worker-timeout", budgets.worker_timeout_seconds, "seconds", MAX_SECONDS, positive=True)
    amount("--reviewer-timeout", budgets.reviewer_timeout_seconds, "seconds", MAX_SECONDS, positive=True)
    count("--token-limit", budgets.token_limit, 0)
    amount("--cost-limit", budgets.cost_limit_dollars, "dollars", MAX_DOLLARS)
    count("--lemma-turns", budgets.lemma_turns, 1, optional=False)
    count("--lemma-token-limit", budgets.lemma_token_limit, 1)
    count("--history-tokens", budgets.history_tokens, 0)


def check_limits(limits: Any) -> None:
    """Every field of a ``RunLimits``."""
    count("--run-token-limit", limits.max_tokens, 0)
    amount("--run-cost-limit", limits.max_cost_dollars, "dollars", MAX_DOLLARS)


def price_problems(prices: Mapping[str, Any]) -> list[str]:
    """What is wrong with a price table (``{"model": {"input": $/Mtok, "output": $/Mtok, ...}}``), one entry
    per model at fault (none: every rate a finite number of 0 or more, ``input`` and ``output`` given)."""
    problems = []
    for model, rates in prices.items():
        if not isinstance(rates, Mapping):
            problems.append(f"price of {shown_path(model)}: {rates!r} is not a table of rates")
            continue
        bad = [
            f"{shown_path(k)}={x!r}" for k, x in rates.items() if not _number(x) or not (math.isfinite(x) and x >= 0)
        ]
        bad += [f"{k} missing" for k in REQUIRED_RATES if k not in rates]
        if bad:
            problems.append(f"price of {shown_path(model)}: {', '.join(bad)}")
    return problems


def check_prices(prices: Mapping[str, Any]) -> None:
    """A config's price table (``price_problems``), refused whole."""
    if problems := price_problems(prices):
        raise InputError(
            f"{'; '.join(problems)}; give each rate as dollars per million tokens, 0 or more (input and output)"
        )
