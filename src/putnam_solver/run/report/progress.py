"""Progress of a running ``putnam solve``: the events the campaign emits and two views of them.

The campaign calls a ``ProgressSink`` when a campaign starts, when an attempt is recorded and for notices;
every event carries the run's ``Totals`` so a view never has to compute anything. ``RichProgress`` is the
live terminal view; ``LogLineProgress`` prints one line per event (``--quiet``, CI logs, pipes).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from putnam_solver.run.prices import cost_text


@dataclass(frozen=True)
class Totals:
    """The run so far. ``running`` counts problems of the current campaign not finished yet (running or
    queued); ``tokens`` and ``cost_dollars`` include what the running attempts have spent so far;
    ``rate_limit`` describes the provider's rate limiting over the last minute, ``failures`` the model
    requests that failed otherwise (refused connections, timeouts, server errors; None: there were none);
    ``run_dir`` is where the run lives (the views point to its HTML report). ``solved`` leaves out the
    solves of statements the benchmark's errata call defective: ``solved_apart`` counts those."""

    selected: int
    solved: int
    unresolved: int
    campaign: int
    running: int
    attempts: int
    turns: int
    tokens: int
    cost_dollars: float
    rate_limit: str | None = None
    eta_seconds: float | None = None
    run_dir: Path | None = None
    failures: str | None = None
    solved_apart: int = 0
    unpriced: tuple[str, ...] = ()
    """The run's models with no price: their cost shows as ``unknown``, never as $0.00."""


@dataclass(frozen=True)
class AttemptEvent:
    """One recorded attempt, as a view shows it."""

    campaign: int
    problem: str
    status: str
    turns: int
    tokens: int
    cost_dollars: float
    verdict: str
    unpriced: tuple[str, ...] = ()


class ProgressSink(Protocol):
    """Receives progress events. Called from the campaign's recorder thread; implementations must not
    block for long (the agent's attempts are waiting to be recorded)."""

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None: ...

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None: ...

    def update(self, totals: Totals) -> None:
        """New totals between attempts (spend of running attempts, rate limiting)."""
        ...

    def notice(self, message: str) -> None: ...

    def close(self) -> None: ...


def totals_line(totals: Totals) -> str:
    """A one-line summary of the totals, shared by both views."""
    eta = f", ETA {format_seconds(totals.eta_seconds)}" if totals.eta_seconds is not None else ""
    rate = f", rate limit: {totals.rate_limit}" if totals.rate_limit else ""
    failing = f", {totals.failures}" if totals.failures else ""
    apart = f" (+{totals.solved_apart} on statements known defective, counted apart)" if totals.solved_apart else ""
    return (
        f"campaign {totals.campaign}: {totals.solved}/{totals.selected} solved{apart}, "
        f"{totals.unresolved} unresolved, "
        f"{totals.running} running; {totals.attempts} attempts, {totals.turns} turns, "
        f"{totals.tokens:,} tokens, {cost_text(totals.cost_dollars, totals.unpriced)}{rate}{failing}{eta}"
    )


def report_hint(run_dir: Path) -> str:
    """Where the run's HTML report is: written at the end of the run, and on demand while it goes on."""
    return f"report: {run_dir / 'report.html'} at the end of the run; `putnam report {run_dir}` writes it any time"


def format_seconds(seconds: float) -> str:
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


class LogLineProgress:
    """One plain line per event, flushed at once (safe for pipes and log files)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._hinted = False

    def _write(self, line: str) -> None:
        with self._lock:
            self._stream.write(line + "\n")
            self._stream.flush()

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None:
        self._write(f"campaign {campaign} started: {len(problems)} problems")
        if totals.run_dir is not None and not self._hinted:
            self._hinted = True
            self._write(report_hint(totals.run_dir))

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None:
        self._write(
            f"{event.status:13} {event.problem} (campaign {event.campaign}, {event.turns} turns, "
            f"{event.tokens:,} tokens, {cost_text(event.cost_dollars, event.unpriced)}; "
            f"verdict {event.verdict or 'none'}) | " + totals_line(totals)
        )

    def update(self, totals: Totals) -> None:
        return None  # one line per attempt is enough for a log; rate limiting and failures arrive as notices

    def notice(self, message: str) -> None:
        self._write(message)

    def close(self) -> None:
        return None


class RichProgress:
    """A live terminal view: a totals panel plus the most recent attempts."""

    RECENT = 8

    def __init__(self, console: Console) -> None:
        self._console = console
        self._recent: list[AttemptEvent] = []
        self._totals: Totals | None = None
        self._lock = threading.Lock()
        self._live = Live(self._render(), console=console, refresh_per_second=4, transient=False)
        self._live.start()

    def _render(self) -> Group:
        head = Text(totals_line(self._totals) if self._totals else "starting ...", style="bold")
        if self._totals is not None and self._totals.run_dir is not None:
            head.append("\n" + report_hint(self._totals.run_dir), style="dim")
        table = Table(box=None, pad_edge=False, show_header=bool(self._recent))
        for column in ("status", "problem", "campaign", "turns", "tokens", "cost", "verdict"):
            table.add_column(column)
        for e in self._recent:
            style = (
                "green"
                if e.status == "passed"
                else "yellow"
                if e.status in ("rejected", "vetoed", "interrupted")
                else "red"
            )
            table.add_row(
                Text(e.status, style=style),
                e.problem,
                str(e.campaign),
                str(e.turns),
                f"{e.tokens:,}",
                cost_text(e.cost_dollars, e.unpriced),
                e.verdict,
            )
        return Group(head, table)

    def _refresh(self) -> None:
        self._live.update(self._render())

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None:
        with self._lock:
            self._totals = totals
            self._live.console.print(f"campaign {campaign}: {len(problems)} problems")
            self._refresh()

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None:
        with self._lock:
            self._totals = totals
            self._recent = [*self._recent, event][-self.RECENT :]
            self._refresh()

    def update(self, totals: Totals) -> None:
        with self._lock:
            self._totals = totals
            self._refresh()

    def notice(self, message: str) -> None:
        with self._lock:
            self._live.console.print(message, markup=False)

    def close(self) -> None:
        with self._lock:
            self._live.stop()
