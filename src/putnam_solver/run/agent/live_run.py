"""The run as it happens: the run-wide budget (``RunLimits``) and what the live run (``LiveRun``) has spent
against it, the provider's rate limiting and failed requests, the attempts in flight and an interruption.

The agent layer feeds every model call's spend and what it sees of the provider into the campaign job's
``LiveRun`` (``live.py``); the campaign and the progress view read it from their own threads. Once the run
budget is spent, or the user interrupts the run, no more model calls are made.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from putnam_solver.run.agent.budget_numbers import check_limits


@dataclass(frozen=True)
class RunLimits:
    """Budgets for the whole run, over every campaign (None = unlimited)."""

    max_tokens: int | None = None
    max_cost_dollars: float | None = None

    def __post_init__(self) -> None:
        check_limits(self)

    def reached(self, tokens: int, cost_dollars: float) -> str | None:
        """Why the run must stop after spending this much, or None while there is budget left."""
        if self.max_tokens is not None and tokens >= self.max_tokens:
            return f"run token budget reached ({tokens:,} of {self.max_tokens:,} tokens)"
        if self.max_cost_dollars is not None and cost_dollars >= self.max_cost_dollars:
            return f"run cost budget reached (${cost_dollars:.2f} of ${self.max_cost_dollars:.2f})"
        return None


RATE_LIMIT_WINDOW_SECONDS = 60.0
INTERRUPTED_REASON = "interrupted (Ctrl-C)"


@dataclass(frozen=True)
class RunningAttempt:
    """An attempt in flight, as the live view shows it: its turn, the tool it runs or ran last (None
    before its first tool call, and for CLI agents, whose tools are their own), the tokens its sample
    spent so far and when it started (Unix time)."""

    problem: str  # the attempt's ``slot_label``: its problem, with its sample where there are several
    turn: int
    tool: str | None
    tokens: int
    started: float


class LiveRun:
    """The run as it happens: what has been spent against the run budget (including attempts still
    running), how the provider is rate-limiting us, which model requests fail, and whether the user
    interrupted the run.

    The agent layer calls ``spend`` after every model call, ``rate_limits_seen`` and ``failures_seen``
    whenever it looks at the provider's rate limiting and failed requests, ``request_failed`` when it
    learns why a request failed, ``attempts_seen`` with the attempts in flight (at least once a second),
    and ``interrupt`` on Ctrl-C; the campaign and the progress view read it
    from their own threads; ``on_change`` (if set) is called after each change, outside the lock.
    """

    def __init__(
        self,
        limits: RunLimits,
        tokens: int = 0,
        cost_dollars: float = 0.0,
        on_change: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits
        self.on_change = on_change
        self._clock = clock
        self._lock = threading.Lock()
        self._tokens = tokens
        self._cost = cost_dollars
        self._retries: deque[tuple[float, int]] = deque()  # (when seen, how many)
        self._retries_seen = 0
        self._connections: str | None = None
        self._failures: deque[tuple[float, int]] = deque()  # (when seen, how many)
        self._failures_seen = 0
        self._last_failure: str | None = None
        self._interrupted = False
        self._running: tuple[RunningAttempt, ...] = ()

    def spend(self, tokens: int, cost_dollars: float) -> None:
        with self._lock:
            self._tokens += tokens
            self._cost += cost_dollars
        self._changed()

    def rate_limits_seen(self, retries: int, connections: str | None) -> None:
        """The provider has rate-limited ``retries`` requests of this campaign so far (a running count);
        ``connections`` is the adaptive connection limit now (e.g. "16 of 64 connections")."""
        with self._lock:
            new = retries - self._retries_seen
            if new > 0:
                self._retries.append((self._clock(), new))
            self._retries_seen = retries
            changed = new > 0 or connections != self._connections
            self._connections = connections
        if changed:
            self._changed()

    def rate_limited(self) -> tuple[int, str | None]:
        """The campaign's rate-limited requests so far (a running count) and the connection limit now."""
        with self._lock:
            return self._retries_seen, self._connections

    def failures_seen(self, retried: int) -> None:
        """``retried`` model requests of this campaign so far (a running count) failed for a reason
        other than rate limiting (a refused or dropped connection, a timeout, a server error) and were
        retried."""
        with self._lock:
            new = retried - self._failures_seen
            if new > 0:
                self._failures.append((self._clock(), new))
            self._failures_seen = retried
        if new > 0:
            self._changed()

    def request_failed(self, error: str) -> None:
        """Why a model request failed, where it is known, e.g. ``APIConnectionError`` or
        ``InternalServerError 500`` (the count comes from ``failures_seen``)."""
        with self._lock:
            self._last_failure = error
        self._changed()

    def interrupt(self) -> None:
        """The user interrupted the run: no attempt may start, those in flight stop."""
        with self._lock:
            self._interrupted = True
        self._changed()

    @property
    def interrupted(self) -> bool:
        with self._lock:
            return self._interrupted

    def spent(self) -> tuple[int, float]:
        """Tokens and dollars spent by the run so far."""
        with self._lock:
            return self._tokens, self._cost

    def stop_reason(self) -> str | None:
        """Why no more model calls may be made in this run (interrupted, or the run budget is spent), or
        None."""
        return INTERRUPTED_REASON if self.interrupted else self.limits.reached(*self.spent())

    def rate_limit(self) -> str | None:
        """The provider's rate limiting over the last minute, in words, or None if there was none."""
        with self._lock:
            horizon = self._clock() - RATE_LIMIT_WINDOW_SECONDS
            while self._retries and self._retries[0][0] < horizon:
                self._retries.popleft()
            if not self._retries:
                return None
            count = sum(new for _, new in self._retries)
            text = f"{count} rate-limited {'request' if count == 1 else 'requests'} in the last minute"
            return f"{text}, {self._connections}" if self._connections else text

    def failures(self) -> str | None:
        """The model requests that failed over the last minute, in words, or None if none did."""
        with self._lock:
            horizon = self._clock() - RATE_LIMIT_WINDOW_SECONDS
            while self._failures and self._failures[0][0] < horizon:
                self._failures.popleft()
            if not self._failures:
                return None
            count, last = sum(new for _, new in self._failures), self._last_failure
        requests = "request" if count == 1 else "requests"
        why = f" (last: {last})" if last else ""
        return f"{count} failed model {requests} in the last minute, retrying{why}"

    def attempts_seen(self, running: Sequence[RunningAttempt]) -> None:
        """The attempts in flight now, in the order they started."""
        snapshot = tuple(running)
        with self._lock:
            changed = snapshot != self._running
            self._running = snapshot
        if changed:
            self._changed()

    def running(self) -> tuple[RunningAttempt, ...]:
        with self._lock:
            return self._running

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
