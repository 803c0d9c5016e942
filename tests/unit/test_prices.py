"""Model prices: the maintained catalogue, the user's ``--prices`` on top, and costs never invented."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.run.prices import (
    Price,
    catalogue_price,
    cost_text,
    price_of,
    run_unpriced,
    unpriced,
    unpriced_when_spent,
    user_prices,
)
from putnam_solver.run.report.progress import Totals, totals_line
from tests.helpers import REPO
from tests.integration.campaign_driver import lean_text_config

SAMPLES = REPO / "samples" / "rocq" / "benchmark.jsonl"
UNPRICED = "openai-api/local/my-finetune"


def test_the_catalogue_prices_the_models_the_readme_names_and_not_a_local_server() -> None:
    price = catalogue_price("openai/gpt-5.5")
    assert price is not None and price.input > 0 and price.output > price.input
    assert catalogue_price("anthropic/claude-sonnet-4-5") is not None
    assert catalogue_price(UNPRICED) is None
    assert catalogue_price("nosuchprovider/nosuchmodel") is None


def test_long_context_tiers_do_not_leak_into_the_per_token_rate() -> None:
    price = catalogue_price("anthropic/claude-sonnet-4-5")
    assert price is not None and price.input == pytest.approx(3.0) and price.output == pytest.approx(15.0)


def test_the_users_prices_replace_and_extend_the_catalogue() -> None:
    table = user_prices({"openai/gpt-5.5": {"input": 1.0, "output": 2.0}, UNPRICED: {"input": 0.1, "output": 0.2}})
    assert price_of("openai/gpt-5.5", table) == Price(1.0, 2.0)
    assert price_of(UNPRICED, table) == Price(0.1, 0.2)
    assert unpriced([UNPRICED, None, "openai/gpt-5.5", UNPRICED], {}) == [UNPRICED]
    with pytest.raises(ValueError, match="price of x/y: missing 'output'"):
        user_prices({"x/y": {"input": 1.0}})


def test_an_unknown_cost_is_never_shown_as_zero_dollars() -> None:
    assert cost_text(0.0, [UNPRICED]) == "unknown" and cost_text(1.5, []) == "$1.50"
    assert cost_text(1.5, [UNPRICED]) == "at least $1.50", "what was counted is not the whole cost"
    config = dataclasses.replace(lean_text_config(), model=UNPRICED)
    assert run_unpriced(config) == [UNPRICED]
    assert run_unpriced(dataclasses.replace(config, prices={UNPRICED: {"input": 1.0, "output": 2.0}})) == []
    totals = Totals(3, 0, 3, 1, 3, 0, 0, 0, 0.0, unpriced=(UNPRICED,))
    assert "0 tokens, unknown" in totals_line(totals) and "$0.00" not in totals_line(totals)


def _prepare(tmp_path: Path, *extra: str) -> tuple[int, str]:
    args = ["solve", "--prover", "rocq", "--benchmark", str(SAMPLES), "--model", UNPRICED, "--prepare-only"]
    result = CliRunner().invoke(app, [*args, "--reviewer-model", "none", "--run-dir", str(tmp_path / "run"), *extra])
    return result.exit_code, result.stdout + result.stderr


def test_a_cost_budget_without_a_price_is_refused_before_anything_is_created(tmp_path: Path) -> None:
    for flag in (["--run-cost-limit", "5"], ["--cost-limit", "1"]):
        code, output = _prepare(tmp_path, *flag)
        assert code == 2, output
        assert flag[0] in output and "--prices FILE" in output and UNPRICED in output
        assert not (tmp_path / "run").exists(), "a usage error creates no run directory"


def test_prices_given_make_the_budget_usable(tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({UNPRICED: {"input": 0.5, "output": 1.5}}))
    code, output = _prepare(tmp_path, "--run-cost-limit", "5", "--prices", str(prices))
    assert code == 0, output
    assert "warning: no price" not in output


def test_without_a_budget_an_unpriced_model_is_one_warning(tmp_path: Path) -> None:
    code, output = _prepare(tmp_path)
    assert code == 0, output
    assert output.count(f"warning: no price for {UNPRICED}") == 1


@pytest.mark.parametrize("rate", ["-1.5", "NaN", "Infinity", "true"])
def test_a_price_that_is_no_amount_of_dollars_is_refused_before_anything_is_created(tmp_path: Path, rate: str) -> None:
    """Before: ``{"input": -1.5, ...}`` was taken, and every attempt of the model cost a negative amount
    (the run budget grew as it spent); NaN made every cost NaN."""
    prices = tmp_path / "prices.json"
    prices.write_text(f'{{"{UNPRICED}": {{"input": {rate}, "output": 1.5}}}}')
    code, output = _prepare(tmp_path, "--run-cost-limit", "5", "--prices", str(prices))
    assert code == 2 and f"price of {UNPRICED}: input=" in output and "0 or more" in output, output
    assert not (tmp_path / "run").exists()


def test_spend_in_the_second_a_resume_gave_the_price_still_reads_unpriced() -> None:
    """Ledger times are whole seconds: an attempt of the unpriced campaign recorded in the second the resume
    with ``--prices`` was recorded may have spent before it (a fast run did; the cost then read as whole)."""
    priced = {UNPRICED: {"input": 1.0, "output": 2.0}}
    config = dataclasses.replace(lean_text_config(), model=UNPRICED, prices=priced)
    start, resume = "2026-12-03T02:24:13+00:00", "2026-12-03T02:24:14+00:00"
    history = [(start, dataclasses.replace(config, prices={})), (resume, config)]
    assert unpriced_when_spent(history, [start], config) == [UNPRICED]
    assert unpriced_when_spent(history, [resume], config) == [UNPRICED], "the same second: either record"
    assert unpriced_when_spent(history, ["2026-12-03T02:24:15+00:00"], config) == []
