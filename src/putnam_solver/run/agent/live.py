"""The live state of one campaign's evaluation: spend against the budgets, rate limiting, reports.

Inspect's model hook reports every completed model call, whichever agent made it (our react loop, or a
CLI agent through Inspect's model bridge); ``LiveRunHooks`` feeds it into the job's ``LiveRun``, and
when the run budget is spent it stops the attempts in flight. Rate limiting is read from Inspect's
per-model throughput counters (they count retries whether Inspect or the provider's SDK made them)
after every call and once a second (``RateLimitWatch``); every other failed request Inspect retries
(a refused or dropped connection, a timeout, a server error) reaches the ``LiveRun`` through the same
hooks. ``InterruptWatch`` turns Ctrl-C into a clean stop of the evaluation.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import FrameType

from inspect_ai.hooks import Hooks, ModelRetry, ModelUsageData, TaskStart, hooks
from inspect_ai.model import ModelUsage
from inspect_ai.util import sample_limits

from putnam_solver.core.provers import Prover
from putnam_solver.core.sandbox import stopping
from putnam_solver.run.agent._inspect import (
    active_samples,
    adaptive_controllers,
    sample_active,
    sample_model_usage,
    throughput_registry,
)
from putnam_solver.run.agent.live_run import INTERRUPTED_REASON, LiveRun, RunningAttempt
from putnam_solver.run.agent.pricing import attempt_tokens, usage_cost, usage_tokens
from putnam_solver.run.agent.react import AgentSetup
from putnam_solver.run.agent.tools import ProblemContext
from putnam_solver.run.agent.types import Allowance, AttemptResult, CampaignJob, SolveConfig, slot_label
from putnam_solver.run.agent.worker import AttemptState
from putnam_solver.run.prices import Price

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
    states: dict[str, AttemptState] = field(default_factory=dict)  # by attempt: its ``slot_label``
    reported: set[str] = field(default_factory=set)
    stopped: str | None = None
    schedule: Callable[[Callable[[], None]], object] | None = None  # runs a callback on the evaluation's loop
    interrupt_pending: bool = False  # Ctrl-C came before the evaluation's loop was known

    @property
    def config(self) -> SolveConfig:
        return self.job.config

    @cached_property
    def slots(self) -> dict[str, tuple[str, int]]:
        """Every attempt of the evaluation by its ``slot_label``: (problem, sample)."""
        return {slot_label(p.id, n): (p.id, n) for p, n in self.job.slots()}

    @cached_property
    def agent(self) -> AgentSetup:
        """What the react agent of every attempt of this evaluation shares (react.py)."""
        job = self.job
        return AgentSetup(
            self.config,
            self.roots,
            self.glob,
            self.prices,
            job.lemmas,
            job.number,
            job.on_subattempt,
            self._stopped,
            job.on_sketch,
        )

    def _stopped(self) -> str | None:
        return self.stopped

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
        self._keep_spend()
        if self.stopped is not None:
            return
        self.stopped = self.live.stop_reason()
        if self.stopped is not None:
            log.warning("%s: stopping the attempts in flight", self.stopped)
            for sample in active_samples():
                if eval_id is None or sample.eval_id == eval_id:
                    sample.interrupt("score")

    def _keep_spend(self) -> None:
        """Hand what the calling attempt has spent so far to ``on_spend`` (the hook runs in its sample)."""
        active = sample_active()
        key = str(active.sample.id) if active is not None else None
        if self.job.on_spend is None or key not in self.slots or key in self.reported:
            return
        problem, sample = self.slots[key]
        usage = sample_model_usage()
        state = self.states.get(key)
        turns = state.turns if state is not None else 0
        self.job.on_spend(problem, sample, turns, attempt_tokens(usage), usage_cost(usage, self.prices)[0])

    def interrupt(self) -> None:
        """Ctrl-C: stop every attempt in flight (each is reported as interrupted, with what it spent) and
        start no more. Runs on the evaluation's loop."""
        if self.live.interrupted:
            return
        log.warning("interrupted: stopping the attempts in flight")
        self.live.interrupt()
        self.stopped = INTERRUPTED_REASON
        for sample in active_samples():
            sample.interrupt("score")

    def loop_started(self) -> None:
        """The evaluation's event loop runs: from now on a Ctrl-C is handled there."""
        try:
            loop = asyncio.get_running_loop()
            self.schedule = lambda callback: loop.call_soon_threadsafe(callback)
        except RuntimeError:  # Inspect on trio (INSPECT_ASYNC_BACKEND=trio)
            token = importlib.import_module("trio").lowlevel.current_trio_token()
            self.schedule = lambda callback: token.run_sync_soon(callback)
        if self.interrupt_pending:
            self.interrupt()

    def observe_rate_limits(self) -> None:
        """Tell the live run how often the provider rate-limited our models and how many other requests
        failed and were retried, and the connection limit."""
        models = [self.config.model, *([self.config.reviewer_model] if self.config.reviewer_model else [])]
        counters = [c for c in (throughput_registry.get(model) for model in models) if c is not None]
        self.live.rate_limits_seen(sum(c.retries_rate_limit for c in counters), _connections())
        self.live.failures_seen(sum(c.retries_transient for c in counters))

    def observe_attempts(self) -> None:
        """Tell the live run which attempts are in flight: turn and tool from the attempt's own state,
        tokens and start from Inspect's running sample (they include the reviewer and lemma
        sub-attempts, as the attempt's recorded usage does). Runs on the evaluation's loop and, once a
        second, on the watch's thread: it only reads."""
        rows = []
        for sample in list(active_samples()):
            key = str(sample.sample.id)
            if key not in self.slots or key in self.reported:
                continue
            state = self.states.get(key)
            turn = state.turns if state is not None and state.turns else sample.total_turns
            tool = state.tool if state is not None else None
            rows.append(RunningAttempt(key, turn, tool, sample.total_tokens, sample.started or time.time()))
        self.live.attempts_seen(sorted(rows, key=lambda r: (r.started, r.problem)))

    def report(self, key: str, usage: Mapping[str, ModelUsage], transcript: Path | None) -> AttemptResult | None:
        """Turn one attempt's state (``key``: its ``slot_label``) into an AttemptResult and hand it to the
        campaign, once. An attempt the run budget kept from starting is not reported (it stays
        unattempted)."""
        problem_id, sample = self.slots[key]
        state = self.states.get(key)
        if state is None and self.stopped is not None:
            return None
        state = state or AttemptState(error="the attempt never started")
        interrupted = False
        if state.limit is None and not state.finished and state.error is None:
            state.limit = limit_hit()
            interrupted = state.limit is None and self.live.interrupted and not state.passed
            state.limit = state.limit or self.stopped
        cost, unpriced = usage_cost(usage, self.prices)
        if unpriced:
            log.info("no price for %s: its cost is unknown (--prices gives one)", ", ".join(unpriced))
        last = state.last
        input_tokens, output_tokens = attempt_tokens(usage)
        result = AttemptResult(
            problem=problem_id,
            status="interrupted" if interrupted else attempt_status(state),
            turns=state.turns,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_dollars=cost,
            candidate=last.candidate if last else None,
            verdict=last.verdict if last else None,
            reviewer_feedback=last.feedback if last else None,
            error=INTERRUPTED_REASON if interrupted else state.error or state.limit or state.refused,
            transcript=transcript,
            turn_log=state.turn_log,
            key=state.key,
            plan=state.plan,
            sample=sample,
        )
        self.reported.add(key)
        self.observe_attempts()
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

    async def on_task_start(self, data: TaskStart) -> None:
        run = ACTIVE_RUN.get()
        if run is not None:
            run.loop_started()

    async def on_model_usage(self, data: ModelUsageData) -> None:
        run = ACTIVE_RUN.get()
        if run is not None:
            run.spend(data.model_name, data.usage, data.eval_id)
            run.observe_rate_limits()
            run.observe_attempts()

    async def on_model_retry(self, data: ModelRetry) -> None:
        """Inspect's own retry loop is about to retry a failed model request: what failed. (The counts
        come from Inspect's throughput counters, which also see the retries the provider's SDK makes.)"""
        run = ACTIVE_RUN.get()
        if run is not None and data.status_code != 429:
            status = f" {data.status_code}" if data.status_code is not None else ""
            run.live.request_failed(f"{data.exception_type or 'error'}{status}")


class RateLimitWatch:
    """Observes rate limiting, failing requests and the attempts in flight once a second while an
    evaluation runs, so that the view shows them even while every request is backing off and no call
    completes (or a long compile runs)."""

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
            self._run.observe_attempts()


class InterruptWatch:
    """While the evaluation runs, the first Ctrl-C (SIGINT) stops it cleanly: the attempts in flight stop
    and are reported as interrupted, with what they spent; a second Ctrl-C stops at once
    (``KeyboardInterrupt``; what was in flight then has no outcome, as after ``kill -9``, and
    is counted only with what it spent by its last model call).

    Every Ctrl-C first kills the sandboxes (``lifetime.stopping``): an attempt stops only when its tools
    return, and a tool compiling in a worker thread would otherwise go on until its timeout. The signal
    handler takes no other lock (the main thread it interrupts may hold one): it only hands the
    interruption to the evaluation's loop, or leaves it for the loop to find when it starts. Signal
    handlers belong to the main thread; elsewhere this does nothing.
    """

    def __init__(self, run: CampaignRun) -> None:
        self._run = run
        self._previous: Callable[[int, FrameType | None], object] | int | None = None
        self._installed = False

    def __enter__(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, stopping(self._on_sigint))
            self._installed = True

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            previous = self._previous
            signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        run = self._run
        if run.interrupt_pending:
            raise KeyboardInterrupt
        run.interrupt_pending = True
        if run.schedule is not None:
            run.schedule(run.interrupt)


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
    if last.verdict is not None and last.verdict.status == "disputed":
        return "disputed"
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
