"""Recording a campaign's attempts as the agent layer reports them, and the progress it shows."""

from __future__ import annotations

import heapq
import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from putnam_solver.run.agent.live_run import LiveRun
from putnam_solver.run.agent.types import AttemptResult, SubAttemptResult, slot_label
from putnam_solver.run.campaign._errors import CampaignError, disk_full
from putnam_solver.run.ledger import INTERRUPTED, RATE_LIMITS_SINCE, AttemptRow, ProblemRow
from putnam_solver.run.ledger import now as timestamp
from putnam_solver.run.ledger_sketches import SketchMade
from putnam_solver.run.prices import run_unpriced
from putnam_solver.run.report.errata import known_defects
from putnam_solver.run.report.evidence import prover_suffix, write_evidence, write_subattempt_evidence
from putnam_solver.run.report.progress import AttemptEvent, Totals
from putnam_solver.run.report.tables import verdict_summary
from putnam_solver.run.stored_settings import required_settings

if TYPE_CHECKING:
    from putnam_solver.run.campaign._run import LockedRun

RECORD_BATCH = 256
EVIDENCE_WRITERS = 16
VIEW_REFRESH_SECONDS = 1.0
RATE_LIMIT_RECORD_SECONDS = 1.0


@dataclass(frozen=True)
class _RateLimitSample:
    """An observation of the provider's rate limiting, queued for the recorder thread to store."""

    observed_at: str
    retries: int
    connections: str | None


FAILURE_NOTICE_SECONDS = 60.0
"""While model requests keep failing, the log says so again this often (the live view shows it always)."""


class Recorder:
    """The ``on_attempt`` callback of one campaign.

    The agent layer may call it from any thread or its event loop, so it only queues the result; one
    recorder thread stores queued attempts in the ledger in batches (one transaction, one sync per batch),
    hands evidence folders to a small writer pool and emits progress. A result still queued at a
    ``kill -9`` was never recorded, so its problem is re-run on resume like any attempt in flight.

    Rate limiting is recorded the same way: when the running count of rate-limited requests grows, an
    observation is queued (at most one a second, and the last one when the campaign ends), so the ledger
    holds how the provider throttled the run over time without a write per model call.
    """

    def __init__(
        self, run: LockedRun, number: int, slots: Sequence[tuple[str, int]], selected: int, live: LiveRun
    ) -> None:
        self._run = run
        self._live = live
        self._rate_limit: str | None = None
        self._failures_noticed: float | None = None
        self._last_view = 0.0
        self._number = number
        self._expected = set(slots)  # (problem, sample) pairs
        self._selected = selected
        self._queue: queue.Queue[AttemptResult | SubAttemptResult | _RateLimitSample | None] = queue.Queue()
        self._rate_lock = threading.Lock()
        self._rate_queued = 0  # the running count of rate-limited requests last queued for the ledger
        self._rate_queued_at = 0.0
        self._fatal: BaseException | None = None
        self._closed = False
        self._evidence = ThreadPoolExecutor(EVIDENCE_WRITERS, thread_name_prefix="putnam-evidence")
        self._pending: list[Future[None]] = []
        self._problems: dict[str, ProblemRow] = run.ledger.problems()
        settings = required_settings(run.ledger, "record")
        self._suffix = prover_suffix(settings)
        run.ledger.settle_in_flight()  # what attempts an earlier process did not record had spent
        usage = run.ledger.usage()
        self._attempts, self._turns = usage.attempts, usage.turns
        self._tokens, self._cost = usage.tokens, usage.cost_dollars
        self._defects = frozenset(known_defects(settings))
        self._unpriced = tuple(run_unpriced(settings.config))
        stored = run.ledger.attempts()
        passed = {a.problem for a in stored if a.verified_pass}
        self._attempted = {a.problem for a in stored}
        self._solved = len(passed - self._defects)
        self._apart = len(passed & self._defects)
        self._remaining = len(slots)
        self._started = time.monotonic()
        self._started_at = time.time()
        self._starts: dict[str, float] = {}  # when each attempt seen in flight started (Unix time)
        self._durations: list[float] = []  # wall time of this campaign's finished attempts
        if run.ledger.meta(RATE_LIMITS_SINCE) is None:
            run.ledger.set_meta(RATE_LIMITS_SINCE, str(number))
        self._thread = threading.Thread(target=self._loop, name="putnam-recorder", daemon=True)
        self._thread.start()
        live.on_change = self._live_changed

    def __call__(self, result: AttemptResult) -> None:
        if self._fatal is not None:
            raise CampaignError(str(self._fatal))
        if self._closed:
            raise CampaignError(f"attempt of {result.problem} reported after campaign {self._number} ended")
        self._queue.put(result)

    def subattempt(self, result: SubAttemptResult) -> None:
        """The ``on_subattempt`` callback: a lemma sub-attempt is recorded as soon as it ends."""
        if self._fatal is None and not self._closed:
            self._queue.put(result)

    def sketch(self, made: SketchMade) -> None:
        """The ``on_sketch`` callback: the sketch call is stored now, in the caller's thread, not queued, so
        that nothing that stops its attempt (not even ``kill -9`` a moment later) loses it. A write that
        fails stops the campaign as a failed write of an attempt does, not the attempt."""
        if self._fatal is not None or self._closed or (made.problem, made.sample) not in self._expected:
            return
        try:
            self._run.ledger.record_sketch(self._number, made)
        except Exception as exc:  # kept, and raised in the campaign's thread
            self._fatal = disk_full(exc, self._run.run_dir) or exc

    def spending(self, problem: str, sample: int, turns: int, tokens: tuple[int, int], dollars: float) -> None:
        """The ``on_spend`` callback: stored now, in the caller's thread, as a sketch is, so that ``kill -9``
        before the attempt's record leaves its spend in the ledger."""
        if self._fatal is not None or self._closed or (problem, sample) not in self._expected:
            return
        try:
            self._run.ledger.record_spend(self._number, problem, sample, turns, tokens, dollars)
        except Exception as exc:  # kept, and raised in the campaign's thread
            self._fatal = disk_full(exc, self._run.run_dir) or exc

    def totals(self) -> Totals:
        running = self._live.running()
        for attempt in running:
            self._starts.setdefault(attempt.problem, attempt.started)
        eta = None
        if self._durations:
            now = time.time()
            mean = sum(self._durations) / len(self._durations)
            ages = [now - a.started for a in running]
            eta = finish_estimate(mean, ages, max(0, self._remaining - len(running)))
        live_tokens, live_dollars = self._live.spent()  # includes the attempts still running
        return Totals(
            selected=self._selected,
            solved=self._solved,
            solved_apart=self._apart,
            unresolved=self._selected - self._solved - self._apart,
            campaign=self._number,
            running=self._remaining,
            attempts=self._attempts,
            turns=self._turns,
            tokens=max(self._tokens, live_tokens),
            cost_dollars=max(self._cost, live_dollars),
            rate_limit=self._live.rate_limit(),
            eta_seconds=eta,
            run_dir=self._run.run_dir,
            failures=self._live.failures(),
            unpriced=self._unpriced,
            attempted=len(self._attempted),
            campaign_size=len(self._expected),
            in_flight=running,
            elapsed_seconds=time.monotonic() - self._started,
        )

    def _live_changed(self) -> None:
        """Spend, rate limiting or failures changed: refresh the view (at most once a second), and say so
        in the log when the provider starts rate-limiting and while model requests fail."""
        rate = self._live.rate_limit()
        starting = rate is not None and self._rate_limit is None
        self._rate_limit = rate
        now = time.monotonic()
        if starting:
            self._run.sink.notice(f"the provider is rate-limiting: {rate}")
        failures = self._live.failures()
        if failures is None:
            self._failures_noticed = None
        elif self._failures_noticed is None or now - self._failures_noticed >= FAILURE_NOTICE_SECONDS:
            self._failures_noticed = now
            starting = True
            self._run.sink.notice(
                f"model requests are failing: {failures}; Inspect retries them with backoff "
                f"(details in {self._run.run_dir / 'logs'})"
            )
        if starting or now - self._last_view >= VIEW_REFRESH_SECONDS:
            self._refresh_view()
        self._queue_rate_limit(final=False)

    def _refresh_view(self) -> None:
        self._last_view = time.monotonic()
        if self._fatal is None:
            self._run.sink.update(self.totals())

    def _queue_rate_limit(self, final: bool) -> None:
        """Queue an observation for the ledger if more requests were rate-limited since the last one."""
        retries, connections = self._live.rate_limited()
        with self._rate_lock:
            due = final or time.monotonic() - self._rate_queued_at >= RATE_LIMIT_RECORD_SECONDS
            if self._closed or retries <= self._rate_queued or not due:
                return
            self._rate_queued, self._rate_queued_at = retries, time.monotonic()
            self._queue.put(_RateLimitSample(timestamp(), retries, connections))

    def _loop(self) -> None:
        stop = False
        while not stop:
            try:
                batch = [self._queue.get(timeout=VIEW_REFRESH_SECONDS)]
            except queue.Empty:  # nothing to record: the view still shows the time, the ETA, the attempts
                self._refresh_view()
                continue
            while len(batch) < RECORD_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = None in batch
            results = [r for r in batch if isinstance(r, AttemptResult)]
            subattempts = [r for r in batch if isinstance(r, SubAttemptResult)]
            samples = [r for r in batch if isinstance(r, _RateLimitSample)]
            if (results or subattempts or samples) and self._fatal is None:
                try:
                    self._record_subattempts(subattempts)
                    self._record(results)
                    for sample in samples:
                        self._run.ledger.record_rate_limit(
                            self._number, sample.retries, sample.connections, sample.observed_at
                        )
                except BaseException as exc:  # kept, and raised in the campaign's thread
                    self._fatal = disk_full(exc, self._run.run_dir) or exc

    def _record(self, results: Sequence[AttemptResult]) -> None:
        sink = self._run.sink
        wanted = [r for r in results if (r.problem, r.sample) in self._expected]
        for r in results:
            if (r.problem, r.sample) not in self._expected:
                label = slot_label(r.problem, r.sample)
                sink.notice(f"ignored a result for {label}: campaign {self._number} did not select it")
        rows = self._run.ledger.record_attempts(self._number, wanted) if wanted else []
        turns: dict[tuple[str, int], list[dict[str, Any]]] = {(r.problem, r.sample): r.turn_log for r in wanted}
        if len(rows) < len(wanted):
            stored = {(row.problem, row.sample) for row in rows}
            for r in wanted:
                if (r.problem, r.sample) not in stored:
                    label = slot_label(r.problem, r.sample)
                    sink.notice(f"ignored a second result for {label} in campaign {self._number}")
        for row in rows:
            if row.status != INTERRUPTED:  # no outcome, so no evidence: the problem runs again on resume
                self._pending.append(
                    self._evidence.submit(
                        write_evidence,
                        self._run.run_dir,
                        row,
                        self._problems.get(row.problem),
                        self._suffix,
                        turns.get((row.problem, row.sample), []),
                    )
                )
            self._count(row)
            event = AttemptEvent(
                row.campaign,
                slot_label(row.problem, row.sample),
                row.status,
                row.turns,
                row.input_tokens + row.output_tokens,
                row.cost_dollars,
                verdict_summary(row),
                self._unpriced,
                row.error,
            )
            sink.attempt_done(event, self.totals())

    def _record_subattempts(self, results: Sequence[SubAttemptResult]) -> None:
        if not results:
            return
        rows = self._run.ledger.record_subattempts(self._number, results)
        for row in rows:
            self._pending.append(self._evidence.submit(write_subattempt_evidence, self._run.run_dir, row, self._suffix))
            proved = "proved" if row.proved else row.status
            self._run.sink.notice(f"campaign {row.campaign} {row.problem}: lemma {row.lemma} {proved}")

    def _count(self, row: AttemptRow) -> None:
        self._attempts += 1
        self._turns += row.turns
        self._tokens += row.input_tokens + row.output_tokens
        self._cost += row.cost_dollars
        if row.problem in self._defects:
            self._apart += row.verified_pass
        else:
            self._solved += row.verified_pass
        self._attempted.add(row.problem)
        started = self._starts.pop(
            slot_label(row.problem, row.sample), self._started_at
        )  # never seen in flight: since the start
        self._durations.append(max(0.0, time.time() - started))
        self._remaining -= 1

    def close(self) -> None:
        """Record everything queued, finish the evidence folders, stop the threads."""
        self._queue_rate_limit(final=True)
        with self._rate_lock:
            self._closed = True
        self._queue.put(None)
        self._thread.join()
        for future in self._pending:
            error = future.exception()
            if error is not None and self._fatal is None:
                self._fatal = disk_full(error, self._run.run_dir) or error
        self._evidence.shutdown()

    def raise_fatal(self) -> None:
        if self._fatal is not None:
            raise self._fatal


def finish_estimate(mean: float, ages: Sequence[float], queued: int) -> float:
    """Seconds until a campaign's last attempt ends if every attempt takes ``mean`` seconds (the mean of
    those that ended) and as many run at once as now: each running attempt (``ages``: how long each has
    run) still needs what it lacks of the mean, and each queued one starts when the first slot frees.
    Unlike elapsed time over attempts done (which, with eight attempts of a minute running at once,
    says eight minutes after the first one ends), it counts the attempts that run side by side."""
    slots = [max(0.0, mean - age) for age in ages] or [0.0]
    heapq.heapify(slots)
    for _ in range(queued):
        heapq.heapreplace(slots, slots[0] + mean)
    return max(slots)


class Silent:
    """The sink used when the caller wants no progress."""

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None:
        return None

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None:
        return None

    def update(self, totals: Totals) -> None:
        return None

    def notice(self, message: str) -> None:
        return None

    def close(self) -> None:
        return None
