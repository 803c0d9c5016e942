"""The run's live state: spend against the run budget, per-problem allowances, rate limiting and failing
requests in words, an interruption; and how the progress views show them."""

from __future__ import annotations

import io

from rich.console import Console

from putnam_solver.run.agent.live_run import LiveRun, RunLimits
from putnam_solver.run.agent.types import Allowance
from putnam_solver.run.report.progress import RichProgress, Totals, totals_line


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_run_limits_name_the_budget_that_was_reached() -> None:
    limits = RunLimits(max_tokens=1000, max_cost_dollars=2.0)
    assert limits.reached(999, 1.99) is None
    assert limits.reached(1000, 0.0) == "run token budget reached (1,000 of 1,000 tokens)"
    assert limits.reached(10, 2.5) == "run cost budget reached ($2.50 of $2.00)"
    assert RunLimits().reached(10**12, 10.0**6) is None


def test_live_spend_starts_from_what_the_ledger_recorded_and_stops_at_the_budget() -> None:
    changes: list[tuple[int, float]] = []
    live = LiveRun(RunLimits(max_tokens=500), tokens=300, cost_dollars=1.0)
    live.on_change = lambda: changes.append(live.spent())
    live.spend(120, 0.5)
    assert live.stop_reason() is None
    live.spend(120, 0.5)
    assert live.spent() == (540, 2.0)
    assert live.stop_reason() == "run token budget reached (540 of 500 tokens)"
    assert changes == [(420, 1.5), (540, 2.0)]


def test_an_allowance_is_spent_when_any_of_its_limits_is_used_up() -> None:
    assert not Allowance().spent()
    assert not Allowance(tokens=1, cost_dollars=0.01).spent()
    assert Allowance(tokens=0).spent()
    assert Allowance(tokens=-5, cost_dollars=3.0).spent()
    assert Allowance(cost_dollars=-0.01).spent()


def test_rate_limiting_is_described_for_a_minute_then_forgotten() -> None:
    clock = FakeClock()
    changes: list[str | None] = []
    live = LiveRun(RunLimits(), clock=clock)
    live.on_change = lambda: changes.append(live.rate_limit())
    live.rate_limits_seen(0, None)
    assert live.rate_limit() is None and changes == []
    live.rate_limits_seen(2, None)
    clock.now += 20
    live.rate_limits_seen(3, "16 of 64 connections (at least 16)")
    live.rate_limits_seen(3, "16 of 64 connections (at least 16)")  # nothing new: no change reported
    assert live.rate_limit() == "3 rate-limited requests in the last minute, 16 of 64 connections (at least 16)"
    assert changes == ["2 rate-limited requests in the last minute", live.rate_limit()]
    clock.now += 45  # the first two are now more than a minute old
    assert live.rate_limit() == "1 rate-limited request in the last minute, 16 of 64 connections (at least 16)"
    clock.now += 16
    assert live.rate_limit() is None


def test_failed_requests_are_described_for_a_minute_with_the_last_known_error() -> None:
    clock = FakeClock()
    live = LiveRun(RunLimits(), clock=clock)
    changes: list[str | None] = []
    live.on_change = lambda: changes.append(live.failures())
    live.failures_seen(0)
    assert live.failures() is None and changes == []
    live.failures_seen(1)  # a retry of the provider's SDK: the count is known, not the error
    assert changes == ["1 failed model request in the last minute, retrying"]
    clock.now += 30
    live.failures_seen(3)
    live.request_failed("InternalServerError 500")
    assert live.failures() == "3 failed model requests in the last minute, retrying (last: InternalServerError 500)"
    live.failures_seen(3)  # nothing new: no change reported
    assert len(changes) == 3
    clock.now += 31
    assert live.failures() == "2 failed model requests in the last minute, retrying (last: InternalServerError 500)"
    clock.now += 30
    assert live.failures() is None


def test_an_interruption_stops_the_run_like_a_spent_budget() -> None:
    live = LiveRun(RunLimits(max_tokens=1000))
    assert live.stop_reason() is None and not live.interrupted
    live.interrupt()
    assert live.interrupted and live.stop_reason() == "interrupted (Ctrl-C)"


def test_the_live_view_and_the_log_lines_show_failing_requests() -> None:
    failing = "3 failed model requests in the last minute, retrying (last: APIConnectionError)"
    totals = Totals(
        selected=2, solved=0, unresolved=2, campaign=1, running=2, attempts=0, turns=0, tokens=0,
        cost_dollars=0.0, failures=failing,
    )  # fmt: skip
    screen = Console(file=io.StringIO(), force_terminal=True, width=250, color_system=None)
    view = RichProgress(screen)
    view.update(totals)
    view.close()
    shown = " ".join(screen.file.getvalue().split())  # the view wraps at the width: join its lines
    assert failing in shown and "spent 0 tokens, cost $0.00 over 0 attempts" in shown
    assert "2 running; 0 attempts, 0 turns, 0 tokens, $0.00, " + failing in totals_line(totals)
