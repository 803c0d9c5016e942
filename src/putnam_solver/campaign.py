"""Campaigns over unresolved problems: the service behind ``putnam solve``.

A run lives in one directory. Each campaign hands the still-unresolved problems to the agent layer (one
call of the attempt runner), together with each problem's best earlier candidate and its diagnostics
(unless ``fresh``). Every finished attempt is recorded in the ledger as soon as it is reported, so a
``kill -9`` at any moment loses at most the attempts still running; ``resume=True`` finishes the
interrupted campaign (re-running only the attempts that were in flight) and carries on.

When a run stops:

- every selected problem has a verified pass: exit code 0;
- ``campaigns`` campaigns have run (``0`` means no campaign limit), a run budget (tokens, dollars) is
  spent, every unresolved problem has spent its per-problem budget, or every attempt of the last campaign
  ended in an infrastructure error (so that an unlimited run cannot spin forever on a broken setup): exit
  code 2, with the unresolved problems listed;
- a fatal error (run directory in use, disk full, no API key, unknown model, no toolchain ...): exit code
  1, with the error's message.

Budgets hold while a campaign runs, not only between campaigns. The run budget is checked by the agent
layer after every model call (``LiveRun``): once it is spent, the attempts in flight stop and are recorded
with what they spent, the problems not started stay unattempted and the campaign stays unfinished, so a
``--resume`` with a larger budget picks them up. A problem's budget (``Budgets.token_limit`` and
``cost_limit_dollars``) covers all its attempts: each campaign's attempt may spend what is left of it.
"""

from __future__ import annotations

import dataclasses
import errno
import fcntl
import json
import os
import queue
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.agent.types import (
    Allowance,
    AttemptResult,
    Budgets,
    CampaignJob,
    CarryForward,
    LiveRun,
    RunLimits,
    SolveConfig,
)
from putnam_solver.benchmark import Benchmark, BenchmarkError, Problem, load_benchmark
from putnam_solver.ledger import LEDGER_NAME, AttemptRow, Ledger, LedgerError, ProblemRow
from putnam_solver.provers import get_prover
from putnam_solver.report.progress import AttemptEvent, ProgressSink, Totals
from putnam_solver.report.summary import (
    remove_stale_temporaries,
    verdict_summary,
    write_evidence,
    write_outputs,
)
from putnam_solver.verify import InputError, Profile, Track

Runner = Callable[[CampaignJob], None]
"""The agent layer's ``run_campaign_attempts``: runs one campaign, reports each attempt via the job's callback."""

LOCK_NAME = "run.lock"
WORK_DIR = "work"
LOG_DIR = "logs"
RECORD_BATCH = 256
EVIDENCE_WRITERS = 16
VIEW_REFRESH_SECONDS = 1.0


class CampaignError(Exception):
    """The run cannot go on; the message says what to do."""


@dataclass(frozen=True)
class Selection:
    """Which problems a run is about: a benchmark file (optionally pinned) and the ids or a maximum."""

    benchmark: Path
    benchmark_sha256: str | None = None
    problems: tuple[str, ...] = ()
    max_problems: int | None = None


@dataclass(frozen=True)
class SolveOutcome:
    """How a run ended: 0 every selected problem passed; 2 a limit or budget stopped it with problems
    unresolved; 1 a fatal error (``message`` says what to do)."""

    exit_code: int
    message: str
    run_dir: Path
    selected: int = 0
    passed: int = 0
    unresolved: tuple[str, ...] = ()
    campaigns: int = 0


@dataclass(frozen=True)
class StoredRun:
    """The settings a run directory was started with, so ``--resume`` need not repeat every flag."""

    config: SolveConfig
    selection: Selection
    campaigns: int
    run_limits: RunLimits
    fresh: bool


def default_runner(job: CampaignJob) -> None:
    """The agent layer's runner, imported only when a campaign runs (Inspect AI is heavy to import)."""
    from putnam_solver.agent import run_campaign_attempts

    run_campaign_attempts(job)


# -- entry points --------------------------------------------------------------------------------------


def list_only(selection: Selection) -> list[Problem]:
    """The problems a run with this selection would attempt."""
    benchmark = load_benchmark(selection.benchmark, selection.benchmark_sha256)
    return benchmark.select(selection.problems, selection.max_problems)


def prepare_only(run_dir: Path, config: SolveConfig, selection: Selection) -> list[Path]:
    """Create the agent workspaces of the selected problems without running anything."""
    from putnam_solver.agent import prepare_workspaces

    benchmark = load_benchmark(selection.benchmark, selection.benchmark_sha256)
    problems = benchmark.select(selection.problems, selection.max_problems)
    return prepare_workspaces(problems, benchmark, config, run_dir / WORK_DIR)


def stored_run(run_dir: Path) -> StoredRun | None:
    """The settings recorded in ``run_dir``'s ledger (None if there is no run there)."""
    if not (run_dir / LEDGER_NAME).is_file():
        return None
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        settings = ledger.settings()
    finally:
        ledger.close()
    if settings is None:
        return None
    sel = settings["selection"]
    return StoredRun(
        config=config_from_json(settings["config"]),
        selection=Selection(
            Path(sel["benchmark"]), sel["requested_sha256"], tuple(sel["problems"]), sel["max_problems"]
        ),
        campaigns=int(settings["campaigns"]),
        run_limits=RunLimits(**settings["limits"]),
        fresh=bool(settings["fresh"]),
    )


def solve(
    run_dir: Path,
    config: SolveConfig,
    selection: Selection,
    campaigns: int,
    run_limits: RunLimits,
    fresh: bool,
    resume: bool,
    progress: ProgressSink | None,
    runner: Runner = default_runner,
    allow_changed_settings: bool = False,
) -> SolveOutcome:
    """Run (or resume) campaigns in ``run_dir`` until every selected problem passes or a limit is hit.

    ``campaigns`` is the total number of campaigns of the run (0 = no limit); it and ``run_limits`` may
    be raised when resuming. Any other setting must match the stored one unless
    ``allow_changed_settings``.
    """
    sink: ProgressSink = progress or _Silent()
    try:
        with _RunLock(run_dir):
            ledger = Ledger.open(run_dir / LEDGER_NAME)
            try:
                run = _Run(run_dir, ledger, config, sink, runner)
                return run.solve(selection, campaigns, run_limits, fresh, resume, allow_changed_settings)
            finally:
                ledger.close()
    except (CampaignError, LedgerError, BenchmarkError, InputError) as exc:
        return SolveOutcome(1, str(exc), run_dir)
    except (OSError, sqlite3.OperationalError) as exc:
        disk = _disk_full(exc, run_dir)
        if disk is None:
            raise
        return SolveOutcome(1, str(disk), run_dir)
    finally:
        sink.close()


# -- settings ------------------------------------------------------------------------------------------


def config_to_json(config: SolveConfig) -> dict[str, Any]:
    """The config as plain JSON values (enums by value, paths as text)."""
    data: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(config), default=str))
    return data


def config_from_json(data: Mapping[str, Any]) -> SolveConfig:
    known = {f.name for f in dataclasses.fields(SolveConfig)}
    values = {k: v for k, v in data.items() if k in known}
    values["track"] = Track(values["track"])
    values["budgets"] = Budgets(**values["budgets"])
    if "acceptance_profile" in values:
        values["acceptance_profile"] = Profile(values["acceptance_profile"])
    if values.get("lean") is not None:
        values["lean"] = Path(values["lean"])
    if "kernels" in values:
        values["kernels"] = tuple(values["kernels"])
    return SolveConfig(**values)


IDENTITY_KEYS = ("config", "benchmark_sha256", "selected", "fresh")
"""Settings that define what a run is; changing one on resume would mix two different runs."""
CONNECTION_KEYS = ("jobs", "fallback_jobs", "model_base_url")
"""Parts of the config that say how to reach the model, not what the run is: a resume may change them."""


def _settings(
    config: SolveConfig,
    selection: Selection,
    benchmark: Benchmark,
    selected: Sequence[Problem],
    campaigns: int,
    limits: RunLimits,
    fresh: bool,
    suffix: str,
) -> dict[str, Any]:
    return {
        "config": config_to_json(config),
        "benchmark_sha256": benchmark.sha256,
        "selected": [p.id for p in selected],
        "fresh": fresh,
        "selection": {
            "benchmark": str(selection.benchmark.resolve()),
            "requested_sha256": selection.benchmark_sha256,
            "benchmark_sha256": benchmark.sha256,
            "pin": benchmark.pin_name,
            "problems": list(selection.problems),
            "max_problems": selection.max_problems,
        },
        "campaigns": campaigns,
        "limits": dataclasses.asdict(limits),
        "suffix": suffix,
    }


def _identity(settings: Mapping[str, Any]) -> dict[str, Any]:
    identity = {k: settings.get(k) for k in IDENTITY_KEYS}
    config = identity["config"]
    if isinstance(config, dict):
        identity["config"] = {k: v for k, v in config.items() if k not in CONNECTION_KEYS}
    return identity


def _differences(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> list[str]:
    found = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            found.extend(_differences(a, b, f"{prefix}{key}."))
        elif a != b:
            shown = [v if not isinstance(v, list) or len(v) <= 6 else f"{len(v)} problems" for v in (a, b)]
            found.append(f"{prefix}{key}: {shown[0]!r} -> {shown[1]!r}")
    return found


# -- the run ---------------------------------------------------------------------------------------------


class _Run:
    """One ``solve`` call holding the run directory's lock."""

    def __init__(
        self, run_dir: Path, ledger: Ledger, config: SolveConfig, sink: ProgressSink, runner: Runner
    ):
        self.run_dir = run_dir
        self.ledger = ledger
        self.config = config
        self.sink = sink
        self.runner = runner

    def solve(
        self, selection: Selection, campaigns: int, limits: RunLimits, fresh: bool, resume: bool, allow: bool
    ) -> SolveOutcome:
        if campaigns < 0:
            raise CampaignError(f"the campaign limit must be 0 (no limit) or more, got {campaigns}")
        benchmark = load_benchmark(selection.benchmark, selection.benchmark_sha256)
        selected = benchmark.select(selection.problems, selection.max_problems)
        prover = get_prover(self.config.prover)
        settings = _settings(
            self.config, selection, benchmark, selected, campaigns, limits, fresh, prover.suffix
        )
        self._check_settings(settings, resume, allow)
        self.ledger.record_settings(settings)
        self.ledger.record_problems(
            [(p.id, p.statement_sha256, prover.challenge(p, self.config.track)) for p in selected]
        )
        self.ledger.set_meta("outcome", "null")
        for row in self.ledger.unverified_passes():
            self.sink.notice(
                f"warning: campaign {row.campaign} {row.problem} is marked passed without a matching "
                "accepted verdict in the ledger; it does not count"
            )
        remove_stale_temporaries(self.run_dir)
        write_outputs(self.run_dir, self.ledger)
        try:
            outcome = self._campaigns(benchmark, selected, campaigns, limits, fresh)
        except CampaignError as exc:
            outcome = self._outcome(1, str(exc), selected)
        except Exception as exc:  # the agent layer's errors (no API key, unknown model ...) end the run
            self.ledger.set_meta("error_traceback", traceback.format_exc())
            outcome = self._outcome(1, str(exc) or type(exc).__name__, selected)
        self.ledger.set_meta(
            "outcome", json.dumps({"exit_code": outcome.exit_code, "message": outcome.message})
        )
        write_outputs(self.run_dir, self.ledger)
        return outcome

    def _check_settings(self, settings: dict[str, Any], resume: bool, allow: bool) -> None:
        stored = self.ledger.settings()
        if stored is None:
            if resume:
                raise CampaignError(f"{self.run_dir}: nothing to resume here; run without --resume to start")
            return
        if not resume:
            raise CampaignError(
                f"{self.run_dir} already holds a run; continue it with --resume or choose another --run-dir"
            )
        changed = _differences(_identity(stored), _identity(settings))
        if changed and not allow:
            raise CampaignError(
                f"{self.run_dir} was started with other settings ({'; '.join(changed)}); `putnam solve "
                "--resume` reuses the stored settings (with the same benchmark file), or start a new run "
                "with another --run-dir"
            )

    def _campaigns(
        self, benchmark: Benchmark, selected: Sequence[Problem], limit: int, limits: RunLimits, fresh: bool
    ) -> SolveOutcome:
        by_id = {p.id: p for p in selected}
        while True:
            history = self.ledger.campaigns()
            last = history[-1] if history else None
            resuming = last is not None and not last.finished
            if last is not None and resuming:
                done = self.ledger.attempted(last.number)
                todo = [by_id[p] for p in last.problems if p in by_id and p not in done]
                number = last.number
            else:
                passed = self.ledger.passed_problems()
                todo = [p for p in selected if p.id not in passed]
                if not todo:
                    return self._outcome(
                        0, f"all {len(selected)} selected problems passed verification", selected
                    )
                number = last.number + 1 if last else 1
            reason = self._stop_reason(number, limit, limits, starting=not resuming)
            if reason is not None:
                return self._outcome(2, reason, selected)
            earlier = self.ledger.attempts()
            allowances = self._allowances(todo, earlier)
            if not resuming:
                todo = [p for p in todo if not allowances[p.id].spent()]
                if not todo:
                    return self._outcome(
                        2, "every unresolved problem has spent its budget (--token-limit, --cost-limit)", selected
                    )
                self.ledger.start_campaign(number, [p.id for p in todo], fresh)
                write_outputs(self.run_dir, self.ledger)
            carried = {} if fresh else self._carry_forward(number, [p.id for p in todo], earlier)
            stopped = self._run_campaign(benchmark, number, todo, carried, allowances, limits, len(selected))
            if self.ledger.attempted(number) >= {p.id for p in todo}:
                self.ledger.finish_campaign(number)
                write_outputs(self.run_dir, self.ledger)
            if stopped is not None:
                return self._outcome(2, stopped, selected)

    def _stop_reason(self, number: int, limit: int, limits: RunLimits, starting: bool) -> str | None:
        usage = self.ledger.usage()
        budget = limits.reached(usage.tokens, usage.cost_dollars)
        if budget is not None or not starting:
            return budget
        if limit and number > limit:
            return f"campaign limit reached ({limit} campaigns)"
        previous = [a for a in self.ledger.attempts() if a.campaign == number - 1]
        if previous and all(a.status == "error" for a in previous):
            return (
                f"every attempt of campaign {number - 1} ended in an error ({previous[0].error}); "
                "fix the cause and resume"
            )
        return None

    def _carry_forward(
        self, number: int, problems: Sequence[str], earlier: Sequence[AttemptRow]
    ) -> dict[str, CarryForward]:
        """For each problem, its best earlier candidate (most gates passed, then the latest) and why it
        failed."""
        wanted = set(problems)
        best: dict[str, tuple[tuple[int, int], AttemptRow]] = {}
        for row in earlier:
            if row.campaign >= number or row.problem not in wanted or row.candidate is None:
                continue
            gates = row.verdict.get("gates", []) if row.verdict else []
            rank = (sum(g.get("status") == "passed" for g in gates), row.campaign)
            if row.problem not in best or rank > best[row.problem][0]:
                best[row.problem] = (rank, row)
        return {p: CarryForward(row.candidate or "", diagnostics(row)) for p, (_, row) in best.items()}

    def _allowances(self, problems: Sequence[Problem], earlier: Sequence[AttemptRow]) -> dict[str, Allowance]:
        """What each problem may still spend: its budget less what all its earlier attempts spent."""
        budgets = self.config.budgets
        tokens: dict[str, int] = {p.id: 0 for p in problems}
        dollars: dict[str, float] = {p.id: 0.0 for p in problems}
        for row in earlier:
            if row.problem in tokens:
                tokens[row.problem] += row.input_tokens + row.output_tokens
                dollars[row.problem] += row.cost_dollars
        return {
            p.id: Allowance(
                None if budgets.token_limit is None else budgets.token_limit - tokens[p.id],
                None if budgets.cost_limit_dollars is None else budgets.cost_limit_dollars - dollars[p.id],
            )
            for p in problems
        }

    def _run_campaign(
        self,
        benchmark: Benchmark,
        number: int,
        todo: Sequence[Problem],
        carried: Mapping[str, CarryForward],
        allowances: Mapping[str, Allowance],
        limits: RunLimits,
        selected: int,
    ) -> str | None:
        """Run one campaign; returns why the run budget stopped it early (None if it did not).

        A problem the agent layer never reported is recorded as an error, unless the run budget stopped
        the campaign: then it was never started and stays unattempted for a resume with a larger budget.
        """
        usage = self.ledger.usage()
        live = LiveRun(limits, usage.tokens, usage.cost_dollars)
        recorder = _Recorder(self, number, [p.id for p in todo], selected, live)
        self.sink.campaign_started(number, [p.id for p in todo], recorder.totals())
        job = CampaignJob(
            problems=todo,
            benchmark=benchmark,
            config=self.config,
            number=number,
            work_dir=self.run_dir / WORK_DIR,
            log_dir=self.run_dir / LOG_DIR,
            on_attempt=recorder,
            live=live,
            carried=carried,
            allowances=allowances,
        )
        try:
            self.runner(job)
        finally:
            recorder.close()
        recorder.raise_fatal()
        stopped = live.stop_reason()
        attempted = self.ledger.attempted(number)
        missing = [p.id for p in todo if p.id not in attempted]
        if missing and stopped is None:
            self.ledger.record_attempts(number, [_unreported(p) for p in missing])
        return stopped

    def _outcome(self, code: int, reason: str, selected: Sequence[Problem]) -> SolveOutcome:
        passed = self.ledger.passed_problems()
        unresolved = tuple(p.id for p in selected if p.id not in passed)
        message = reason
        if code == 2:
            message = (
                f"{reason}: {len(unresolved)} of {len(selected)} problems unresolved (see unresolved.txt); "
                "raise the limit and run again with --resume to continue"
            )
        return SolveOutcome(
            code,
            message,
            self.run_dir,
            len(selected),
            len(selected) - len(unresolved),
            unresolved,
            len(self.ledger.campaigns()),
        )


def diagnostics(row: AttemptRow) -> str:
    """Why an earlier attempt did not pass, as the next campaign's worker is shown it."""
    lines = [f"Campaign {row.campaign}: status {row.status}; verdict {verdict_summary(row) or 'none'}."]
    for gate in row.verdict.get("gates", []) if row.verdict else []:
        if gate.get("status") != "passed":
            lines.append(f"{gate['id']} {gate['name']} {gate['status']}: {gate['detail']}")
    if row.reviewer_feedback:
        lines.append(f"Reviewer: {row.reviewer_feedback}")
    if row.error:
        lines.append(f"Error: {row.error}")
    return "\n".join(lines)


def _unreported(problem: str) -> AttemptResult:
    return AttemptResult(
        problem,
        "error",
        0,
        0,
        0,
        0.0,
        None,
        None,
        error="the agent layer finished without reporting this problem",
    )


class _Recorder:
    """The ``on_attempt`` callback of one campaign.

    The agent layer may call it from any thread or its event loop, so it only queues the result; one
    recorder thread stores queued attempts in the ledger in batches (one transaction, one sync per batch),
    hands evidence folders to a small writer pool and emits progress. A result still queued at a
    ``kill -9`` was never recorded, so its problem is re-run on resume like any attempt in flight.
    """

    def __init__(self, run: _Run, number: int, problems: Sequence[str], selected: int, live: LiveRun) -> None:
        self._run = run
        self._live = live
        self._rate_limit: str | None = None
        self._last_view = 0.0
        self._number = number
        self._expected = set(problems)
        self._selected = selected
        self._queue: queue.Queue[AttemptResult | None] = queue.Queue()
        self._fatal: BaseException | None = None
        self._closed = False
        self._evidence = ThreadPoolExecutor(EVIDENCE_WRITERS, thread_name_prefix="putnam-evidence")
        self._pending: list[Future[None]] = []
        self._problems: dict[str, ProblemRow] = run.ledger.problems()
        self._suffix = str((run.ledger.settings() or {}).get("suffix", ""))
        usage = run.ledger.usage()
        self._attempts, self._turns = usage.attempts, usage.turns
        self._tokens, self._cost = usage.tokens, usage.cost_dollars
        self._solved = len(run.ledger.passed_problems())
        self._done = 0
        self._remaining = len(problems)
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._loop, name="putnam-recorder", daemon=True)
        self._thread.start()
        live.on_change = self._live_changed

    def __call__(self, result: AttemptResult) -> None:
        if self._fatal is not None:
            raise CampaignError(str(self._fatal))
        if self._closed:
            raise CampaignError(f"attempt of {result.problem} reported after campaign {self._number} ended")
        self._queue.put(result)

    def totals(self) -> Totals:
        elapsed = time.monotonic() - self._started
        eta = elapsed / self._done * self._remaining if self._done else None
        live_tokens, live_dollars = self._live.spent()  # includes the attempts still running
        return Totals(
            selected=self._selected,
            solved=self._solved,
            unresolved=self._selected - self._solved,
            campaign=self._number,
            running=self._remaining,
            attempts=self._attempts,
            turns=self._turns,
            tokens=max(self._tokens, live_tokens),
            cost_dollars=max(self._cost, live_dollars),
            rate_limit=self._live.rate_limit(),
            eta_seconds=eta,
        )

    def _live_changed(self) -> None:
        """Spend or rate limiting changed: refresh the view (at most once a second), and say so in the log
        when the provider starts rate-limiting."""
        rate = self._live.rate_limit()
        starting = rate is not None and self._rate_limit is None
        self._rate_limit = rate
        now = time.monotonic()
        if starting:
            self._run.sink.notice(f"the provider is rate-limiting: {rate}")
        if starting or now - self._last_view >= VIEW_REFRESH_SECONDS:
            self._last_view = now
            self._run.sink.update(self.totals())

    def _loop(self) -> None:
        stop = False
        while not stop:
            batch = [self._queue.get()]
            while len(batch) < RECORD_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = None in batch
            results = [r for r in batch if r is not None]
            if results and self._fatal is None:
                try:
                    self._record(results)
                except BaseException as exc:  # kept, and raised in the campaign's thread
                    self._fatal = _disk_full(exc, self._run.run_dir) or exc

    def _record(self, results: Sequence[AttemptResult]) -> None:
        sink = self._run.sink
        wanted = [r for r in results if r.problem in self._expected]
        for r in results:
            if r.problem not in self._expected:
                sink.notice(f"ignored a result for {r.problem}: campaign {self._number} did not select it")
        rows = self._run.ledger.record_attempts(self._number, wanted)
        if len(rows) < len(wanted):
            stored = {row.problem for row in rows}
            for r in wanted:
                if r.problem not in stored:
                    sink.notice(f"ignored a second result for {r.problem} in campaign {self._number}")
        for row in rows:
            self._pending.append(
                self._evidence.submit(
                    write_evidence, self._run.run_dir, row, self._problems.get(row.problem), self._suffix
                )
            )
            self._count(row)
            event = AttemptEvent(
                row.campaign,
                row.problem,
                row.status,
                row.turns,
                row.input_tokens + row.output_tokens,
                row.cost_dollars,
                verdict_summary(row),
            )
            sink.attempt_done(event, self.totals())

    def _count(self, row: AttemptRow) -> None:
        self._attempts += 1
        self._turns += row.turns
        self._tokens += row.input_tokens + row.output_tokens
        self._cost += row.cost_dollars
        self._solved += row.verified_pass
        self._done += 1
        self._remaining -= 1

    def close(self) -> None:
        """Record everything queued, finish the evidence folders, stop the threads."""
        self._closed = True
        self._queue.put(None)
        self._thread.join()
        for future in self._pending:
            error = future.exception()
            if error is not None and self._fatal is None:
                self._fatal = _disk_full(error, self._run.run_dir) or error
        self._evidence.shutdown()

    def raise_fatal(self) -> None:
        if self._fatal is not None:
            raise self._fatal


def _disk_full(exc: BaseException, run_dir: Path) -> CampaignError | None:
    """A clear message for a full disk (the ledger rolled back; nothing recorded is lost)."""
    full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
    full = full or (isinstance(exc, sqlite3.OperationalError) and "full" in str(exc))
    if not full:
        return None
    return CampaignError(
        f"the disk holding {run_dir} is full ({exc}); free some space and run again with --resume "
        "(the ledger is intact: every recorded attempt is kept, unrecorded ones are re-run)"
    )


class _RunLock:
    """An exclusive ``flock`` on the run directory; the kernel releases it when the process dies."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self._fd = -1

    def __enter__(self) -> _RunLock:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.run_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise CampaignError(
                f"run directory {self.run_dir} in use by PID {holder} (another `putnam solve`); wait for it "
                "to finish or stop it, or choose another --run-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)


class _Silent:
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
