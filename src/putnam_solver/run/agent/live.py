"""The live state of one campaign's evaluation: spend against the budgets, rate limiting, reports.

Inspect's model hook reports every completed model call, whichever agent made it (our react loop, or a
CLI agent through Inspect's model bridge); ``LiveRunHooks`` feeds it into the job's ``LiveRun``, and
when the run budget is spent it stops the attempts in flight. Rate limiting is read from Inspect's
per-model throughput counters (they count retries whether Inspect or the provider's SDK made them)
after every call and once a second (``RateLimitWatch``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.hooks import Hooks, ModelUsageData, hooks
from inspect_ai.model import ModelUsage
from inspect_ai.util import sample_limits

from putnam_solver.core.provers import Prover
from putnam_solver.run.agent._inspect import active_samples, adaptive_controllers, throughput_registry
from putnam_solver.run.agent.pricing import Price, usage_cost, usage_tokens
from putnam_solver.run.agent.tools import ProblemContext
from putnam_solver.run.agent.types import Allowance, AttemptResult, CampaignJob, LiveRun, SolveConfig
from putnam_solver.run.agent.worker import AttemptState

log = logging.getLogger(__name__)
RATE_LIMIT_POLL_SECONDS = 1.0


@dataclass
class CampaignRun:
    """Shared, harness-side state of one evaluation: contexts per problem, attempts, what was reported,
    and whether the run budget stopped it (``stopped``, the reason)."""

    job: CampaignJob
    prover: Prover
    contexts: dict[str, ProblemContext]
    prices: dict[str, Price]
    roots: tuple[Path, ...]
    glob: str
    states: dict[str, AttemptState] = field(default_factory=dict)
    reported: set[str] = field(default_factory=set)
    stopped: str | None = None

    @property
    def config(self) -> SolveConfig:
        return self.job.config

    @property
    def live(self) -> LiveRun:
        return self.job.live

    def allowance(self, problem_id: str) -> Allowance:
        budgets = self.config.budgets
        return self.job.allowances.get(problem_id, Allowance(budgets.token_limit, budgets.cost_limit_dollars))

    def spend(self, model: str, usage: ModelUsage, eval_id: str | None) -> None:
        """One model call completed: count it against the run budget; once that is spent, stop every
        attempt of this evaluation (each is scored on what it did, and recorded with what it spent)."""
        cost, _ = usage_cost({model: usage}, self.prices)
        self.live.spend(sum(usage_tokens(usage)), cost)
        if self.stopped is not None:
            return
        self.stopped = self.live.stop_reason()
        if self.stopped is not None:
            log.warning("%s: stopping the attempts in flight", self.stopped)
            for sample in active_samples():
                if eval_id is None or sample.eval_id == eval_id:
                    sample.interrupt("score")

    def observe_rate_limits(self) -> None:
        """Tell the live run how often the provider rate-limited our models, and the connection limit."""
        models = [self.config.model, *([self.config.reviewer_model] if self.config.reviewer_model else [])]
        counters = [throughput_registry.get(model) for model in models]
        retries = sum(c.retries_rate_limit for c in counters if c is not None)
        self.live.rate_limits_seen(retries, _connections())

    def report(self, problem_id: str, usage: Mapping[str, ModelUsage], transcript: Path | None) -> AttemptResult | None:
        """Turn one attempt's state into an AttemptResult and hand it to the campaign, once. An attempt
        the run budget kept from starting is not reported (its problem stays unattempted)."""
        state = self.states.get(problem_id)
        if state is None and self.stopped is not None:
            return None
        state = state or AttemptState(error="the attempt never started")
        if state.limit is None and not state.finished and state.error is None:
            state.limit = limit_hit() or self.stopped
        cost, unpriced = usage_cost(usage, self.prices)
        if unpriced:
            log.warning("no price for %s: its cost is counted as 0", ", ".join(unpriced))
        last = state.last
        result = AttemptResult(
            problem=problem_id,
            status=attempt_status(state),
            turns=state.turns,
            input_tokens=sum(usage_tokens(u)[0] for u in usage.values()),
            output_tokens=sum(usage_tokens(u)[1] for u in usage.values()),
            cost_dollars=cost,
            candidate=last.candidate if last else None,
            verdict=last.verdict if last else None,
            reviewer_feedback=last.feedback if last else None,
            error=state.error or state.limit or state.refused,
            transcript=transcript,
            turn_log=state.turn_log,
            key=state.key,
            plan=state.plan,
        )
        self.reported.add(problem_id)
        self.job.on_attempt(result)
        return result


ACTIVE_RUN: ContextVar[CampaignRun | None] = ContextVar("putnam_active_run", default=None)
"""The evaluation running in this context. Inspect's hooks are process-wide; they run in the tasks of
the evaluation, which inherit the context of the ``inspect_ai.eval`` call that set this."""


@hooks(name="putnam_live_run", description="Counts model spend against putnam solve's run budget.")
class LiveRunHooks(Hooks):
    """Feeds every completed model call into the running campaign."""

    def enabled(self) -> bool:
        return ACTIVE_RUN.get() is not None

    async def on_model_usage(self, data: ModelUsageData) -> None:
        run = ACTIVE_RUN.get()
        if run is not None:
            run.spend(data.model_name, data.usage, data.eval_id)
            run.observe_rate_limits()


class RateLimitWatch:
    """Observes rate limiting once a second while an evaluation runs, so that the view shows it even
    while every request is backing off and no call completes."""

    def __init__(self, run: CampaignRun) -> None:
        self._run = run
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="putnam-rate-limits", daemon=True)

    def __enter__(self) -> None:
        self._thread.start()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(RATE_LIMIT_POLL_SECONDS):
            self._run.observe_rate_limits()


def _connections() -> str | None:
    """The adaptive connection limit now (it falls on rate limits and recovers while calls succeed)."""
    controllers = adaptive_controllers()
    if not controllers:
        return None
    return ", ".join(f"{c.value} of {c.max} connections (at least {c.min})" for c in controllers)


def attempt_status(state: AttemptState) -> str:
    """passed only for an accepted, unvetoed submission; otherwise why the attempt ended without one."""
    if state.passed:
        return "passed"
    if state.error is not None:
        return "error"
    if state.limit is not None:
        return "budget"
    if not state.finished:
        return "error"
    last = state.last
    if last is None:
        return "no_submission"
    return "vetoed" if last.vetoed else "rejected"


def limit_hit() -> str | None:
    """The sample limit (tokens, cost, time) that stopped the attempt, if one did."""
    try:
        limits = sample_limits()
    except RuntimeError:
        return None
    for name in ("token", "cost", "time", "working", "message", "turn"):
        limit = getattr(limits, name)
        if limit.limit is not None and limit.usage >= limit.limit:
            return f"{name} limit reached ({limit.usage:g} of {limit.limit:g})"
    return None
