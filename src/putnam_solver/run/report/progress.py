"""Progress of a running ``putnam solve``: the events the campaign emits and two views of them.

The campaign calls a ``ProgressSink`` when a campaign starts, when an attempt is recorded, for notices,
and at least once a second with new totals; every event carries the run's ``Totals`` so a view never has
to compute anything. ``RichProgress`` is the live terminal view (bars, spend, ETA, a row per attempt in
flight; see ``live_view``); ``LogLineProgress`` prints one line per event (``--quiet``, CI logs, pipes).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from putnam_solver.run.agent.live_run import RunningAttempt
from putnam_solver.run.prices import cost_text
from putnam_solver.terminal import one_line, terminal_text


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
    attempted: int = 0
    """Selected problems with at least one recorded outcome in the run."""
    campaign_size: int = 0
    """Problems the current campaign selected (``running`` of them are not finished)."""
    in_flight: tuple[RunningAttempt, ...] = ()
    """The attempts running now, in the order they started (``running`` less these are queued)."""
    elapsed_seconds: float = 0.0
    """Wall time of the current campaign so far."""


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
    error: str | None = None
    """Why an attempt without a verdict ended (the agent layer's error): without it an ``error`` line
    named no cause, which stood in the ledger and the ``.eval`` log only."""


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


def attempt_line(event: AttemptEvent) -> str:
    """One recorded attempt, as both views print it."""
    return (
        f"{event.status:13} {event.problem} (campaign {event.campaign}, {event.turns} turns, "
        f"{event.tokens:,} tokens, {cost_text(event.cost_dollars, event.unpriced)}; "
        f"verdict {event.verdict or 'none'})"
    ) + (f": {_clipped(one_line(event.error))}" if event.error and not event.verdict else "")


ERROR_CHARS = 300
"""How much of an attempt's error its line shows (a provider's error can run to kilobytes)."""


def _clipped(text: str) -> str:
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 3] + "..."


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
        self._write(attempt_line(event) + " | " + totals_line(totals))

    def update(self, totals: Totals) -> None:
        return None  # one line per attempt is enough for a log; rate limiting and failures arrive as notices

    def notice(self, message: str) -> None:
        self._write(message)

    def close(self) -> None:
        return None


STATUS_STYLES = {"passed": "green", "rejected": "yellow", "vetoed": "yellow", "interrupted": "yellow"}
BAR_WIDTH = 30


def live_view(totals: Totals | None, width: int, now: float | None = None) -> RenderableType:
    """What the live view shows for ``totals`` at a terminal ``width`` columns wide: bars of solved and
    attempted problems and of the campaign's attempts, a line of spend and time, rate limiting and
    failing requests, where the report is, and a row per attempt in flight. Every text wraps at the
    width; nothing is cut."""
    if totals is None:
        return Text("starting ...", style="bold")
    bar = max(8, min(BAR_WIDTH, width // 3))
    bars = Table.grid(padding=(0, 1))
    bars.add_column(no_wrap=True)
    bars.add_column(width=bar, no_wrap=True)
    bars.add_column(overflow="fold")
    apart = f" (+{totals.solved_apart} on defective statements, counted apart)" if totals.solved_apart else ""
    done = totals.campaign_size - totals.running
    rows: list[tuple[str, int, int, str]] = [
        ("solved", totals.solved, totals.selected, f"{totals.solved} of {totals.selected} problems{apart}"),
        ("attempted", totals.attempted, totals.selected, f"{totals.attempted} of {totals.selected} problems"),
        (
            f"campaign {totals.campaign}",
            done,
            totals.campaign_size,
            f"{done} of {totals.campaign_size} attempts done, {len(totals.in_flight)} running, "
            f"{max(0, totals.running - len(totals.in_flight))} queued",
        ),
    ]
    for label, count, total, text in rows:
        bars.add_row(label, ProgressBar(total=max(total, 1), completed=count, width=bar), Text(text))
    parts: list[RenderableType] = [bars, Text(_spend_and_time(totals), overflow="fold")]
    for trouble in (totals.rate_limit and f"rate limit: {totals.rate_limit}", totals.failures):
        if trouble:
            parts.append(Text(terminal_text(trouble), style="yellow", overflow="fold"))  # a provider's words
    if totals.run_dir is not None:
        parts.append(Text(report_hint(totals.run_dir), style="dim", overflow="fold"))
    if totals.in_flight:
        parts.append(_in_flight_table(totals.in_flight, time.time() if now is None else now))
    return Group(*parts)


def _spend_and_time(totals: Totals) -> str:
    cost = cost_text(totals.cost_dollars, totals.unpriced)
    if totals.unpriced:
        cost = f"{cost} (no price for {', '.join(totals.unpriced)}; --prices FILE gives one)"
    if totals.eta_seconds is not None:
        eta = f"ETA ~{format_seconds(totals.eta_seconds)} for campaign {totals.campaign}"
    else:
        eta = "ETA after the first attempt ends"
    return (
        f"spent {totals.tokens:,} tokens, cost {cost} over {totals.attempts} attempts; "
        f"elapsed {format_seconds(totals.elapsed_seconds)}, {eta}"
    )


def _in_flight_table(running: Sequence[RunningAttempt], now: float) -> Table:
    table = Table(box=None, pad_edge=False, title_justify="left")
    for column, justify in (("running", "left"), ("turn", "right"), ("last tool", "left"), ("tokens", "right")):
        table.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
    table.add_column("for", justify="right", no_wrap=True)
    for r in running:
        # the tool names are the model's (a call of a tool that does not exist is named too): text, never markup
        tool = Text(one_line(r.tool or "-"))
        table.add_row(Text(r.problem), str(r.turn), tool, f"{r.tokens:,}", format_seconds(now - r.started))
    return table


class _View:
    """The live view's renderable, rebuilt at each refresh at the console's width. It wraps whatever the
    console's own setting: a console made with ``soft_wrap=True`` (the CLI's, so that printed paths stay
    whole) would otherwise cut each line of the live part at the terminal's width."""

    def __init__(self) -> None:
        self.totals: Totals | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from console.render(live_view(self.totals, options.max_width), options.update(no_wrap=False))


class RichProgress:
    """The live terminal view: ``live_view`` redrawn in place, each finished attempt and each notice
    printed above it as one line (the scrollback keeps them)."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._view = _View()
        self._lock = threading.Lock()
        self._live = Live(self._view, console=console, refresh_per_second=2, transient=False)
        self._live.start()

    def _print(self, text: Text) -> None:
        """A line above the live part: the terminal wraps it (soft wrap), so a path in it stays whole
        when copied; the live part below is wrapped by Rich, which must know its height."""
        self._live.console.print(text, soft_wrap=True)

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None:
        with self._lock:
            self._view.totals = totals
            self._print(Text(f"campaign {campaign} started: {len(problems)} problems", style="bold"))
            self._live.refresh()

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None:
        with self._lock:
            self._view.totals = totals
            self._print(Text(attempt_line(event), style=STATUS_STYLES.get(event.status, "red")))
            self._live.refresh()

    def update(self, totals: Totals) -> None:
        with self._lock:
            self._view.totals = totals
            self._live.refresh()

    def notice(self, message: str) -> None:
        with self._lock:
            self._print(Text(message))

    def close(self) -> None:
        with self._lock:
            self._live.stop()
