"""The campaign loop: campaigns over the unresolved problems until every one passes or a limit is hit."""

from __future__ import annotations

import json
import sqlite3
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.benchmark import Benchmark, BenchmarkError, Problem
from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import InputError
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.live_run import LiveRun, RunLimits
from putnam_solver.run.agent.types import Allowance, AttemptResult, CampaignJob, CarryForward, ProvedLemma, Sketch
from putnam_solver.run.campaign._errors import CampaignError, disk_full
from putnam_solver.run.campaign._recorder import Recorder, Silent
from putnam_solver.run.campaign._settings import RunSettings, check_resume, ledger_settings
from putnam_solver.run.ledger import LEDGER_NAME, AttemptRow, Ledger, LedgerError
from putnam_solver.run.report.evidence import remove_stale_temporaries
from putnam_solver.run.report.progress import ProgressSink
from putnam_solver.run.report.summary import write_outputs
from putnam_solver.run.report.tables import verdict_summary
from putnam_solver.run.run_lock import RunLock
from putnam_solver.run.stored_settings import Selection, stored_settings
from putnam_solver.safe_write import UnsafePath, directory_under, planted_link_refusal
from putnam_solver.withheld import no_answer_view

Runner = Callable[[CampaignJob], None]
"""The agent layer's ``run_campaign_attempts``: runs one campaign, reports each attempt via the job's callback."""

WORK_DIR = "work"
LOG_DIR = "logs"


@dataclass(frozen=True)
class SolveOutcome:
    """How a run ended, as an ``ExitCode``: SUCCESS the evaluation completed, every problem solved or its
    campaigns and budgets used (``unresolved`` lists the rest); LIMIT a run budget or time limit stopped it
    early; INTERRUPTED by Ctrl-C; USAGE it could not start as asked (bad
    input, a run directory in use or holding another run); FAILURE a fatal error (``message`` says what
    to do). ``report``: where the run's HTML report was written, or why it was not (empty when none was
    attempted)."""

    exit_code: int
    message: str
    run_dir: Path
    selected: int = 0
    passed: int = 0
    unresolved: tuple[str, ...] = ()
    campaigns: int = 0
    report: str = ""


def default_runner(job: CampaignJob) -> None:
    """The agent layer's runner, imported only when a campaign runs (Inspect AI is heavy to import)."""
    from putnam_solver.run.agent import run_campaign_attempts

    run_campaign_attempts(job)


def list_only(selection: Selection) -> list[Problem]:
    """The problems a run with this selection would attempt."""
    return selection.load()[1]


@dataclass(frozen=True)
class Prepared:
    """What ``prepare_only`` wrote: the run's settings (``run.json`` and the ledger, so that ``--resume``
    starts the run) and one workspace per selected problem."""

    run_dir: Path
    workspaces: list[Path]


def prepare_only(run: RunSettings) -> Prepared:
    """Record the run in its directory and write the workspaces and prompts of the selected problems,
    calling no model: ``putnam solve --resume RUN_DIR`` starts it as if it had never stopped."""
    from putnam_solver.run.agent import prepare_workspaces

    benchmark, problems = run.selection.load()
    prover = get_prover(run.config.prover)
    with RunLock(run.run_dir):
        ledger = Ledger.open(run.run_dir / LEDGER_NAME, holding_run_lock=True)
        try:
            toolchain = prover.toolchain_fingerprint(run.config.verify_options())
            settings = ledger_settings(run, benchmark, problems, prover.suffix, toolchain)
            check_resume(run.run_dir, stored_settings(ledger), settings, resume=False, allow=False)
            # the workspaces before the run is recorded: a link planted on their way refuses a run that was
            # never recorded, so that the same command, the link removed, prepares it
            try:
                workspaces = prepare_workspaces(problems, benchmark, run.config, run.run_dir / WORK_DIR)
            except UnsafePath as exc:
                raise InputError(planted_link_refusal(exc)) from exc
            ledger.record_settings(settings.to_json())
            ledger.record_problems(
                [(p.id, p.statement_sha256, prover.challenge(p, run.config.track)) for p in problems]
            )
            write_outputs(run.run_dir, ledger)
        finally:
            ledger.close()
        return Prepared(run.run_dir, workspaces)


class _Interrupted(Exception):
    """The user interrupted a campaign (Ctrl-C); the attempts in flight were recorded as interrupted."""


def solve(
    run: RunSettings,
    progress: ProgressSink | None,
    runner: Runner = default_runner,
    allow_changed_settings: bool = False,
) -> SolveOutcome:
    """Run (or resume) campaigns in ``run.run_dir`` until every selected problem passes or a limit is hit.

    On resume, only what ``RunSettings`` says may change can differ from the stored run, unless
    ``allow_changed_settings``.
    """
    run_dir = run.run_dir
    sink: ProgressSink = progress or Silent()
    try:
        with RunLock(run_dir):
            ledger = Ledger.open(run_dir / LEDGER_NAME, holding_run_lock=True)
            try:
                return LockedRun(run, ledger, sink, runner).solve(allow_changed_settings)
            finally:
                ledger.close()
    except (LedgerError, BenchmarkError, InputError) as exc:
        return SolveOutcome(ExitCode.USAGE, str(exc), run_dir)
    except CampaignError as exc:
        return SolveOutcome(ExitCode.FAILURE, str(exc), run_dir)
    except KeyboardInterrupt:  # outside a campaign's attempts, or a second Ctrl-C
        return SolveOutcome(ExitCode.INTERRUPTED, interrupted_message(run_dir), run_dir)
    except (OSError, sqlite3.OperationalError) as exc:
        disk = disk_full(exc, run_dir)
        if disk is None:
            raise
        return SolveOutcome(ExitCode.FAILURE, str(disk), run_dir)
    finally:
        sink.close()


def interrupted_message(run_dir: Path, stopped: str = "") -> str:
    """What an interrupted run says: what happened to its attempts and how to go on."""
    what = stopped or "the attempts in flight were not recorded"
    return f"interrupted (Ctrl-C): {what}; `putnam solve --resume {run_dir}` runs them again"


class LockedRun:
    """One ``solve`` call holding the run directory's lock."""

    def __init__(self, settings: RunSettings, ledger: Ledger, sink: ProgressSink, runner: Runner):
        self.settings = settings
        self.run_dir = settings.run_dir
        self.ledger = ledger
        self.config = settings.config
        self.sink = sink
        self.runner = runner
        self.toolchain: str | None = None

    def solve(self, allow: bool) -> SolveOutcome:
        run = self.settings
        benchmark, selected = run.selection.load()
        prover = get_prover(self.config.prover)
        toolchain = prover.toolchain_fingerprint(self.config.verify_options())
        self.toolchain = toolchain  # what the run's selftest judged: its acceptances are made on it (toolchain_guard)
        settings = ledger_settings(run, benchmark, selected, prover.suffix, toolchain)
        check_resume(self.run_dir, stored_settings(self.ledger), settings, run.resume, allow)
        self.ledger.record_settings(settings.to_json())
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
            outcome = self._campaigns(benchmark, selected, run.campaigns, run.run_limits, run.fresh)
        except CampaignError as exc:
            outcome = self._outcome(ExitCode.FAILURE, str(exc), selected)
        except _Interrupted as exc:
            outcome = self._outcome(ExitCode.INTERRUPTED, interrupted_message(self.run_dir, str(exc)), selected)
        except KeyboardInterrupt:
            outcome = self._outcome(ExitCode.INTERRUPTED, interrupted_message(self.run_dir), selected)
        except UnsafePath as exc:  # a link planted in the run directory (`work/<problem>`), as audit and report say
            outcome = self._outcome(ExitCode.USAGE, planted_link_refusal(exc), selected)
        except Exception as exc:  # the agent layer's errors (no API key, unknown model ...) end the run
            self.ledger.set_meta("error_traceback", traceback.format_exc())
            outcome = self._outcome(ExitCode.FAILURE, str(exc) or type(exc).__name__, selected)
        self.ledger.set_meta("outcome", json.dumps({"exit_code": outcome.exit_code, "message": outcome.message}))
        write_outputs(self.run_dir, self.ledger)
        return outcome

    def _campaigns(
        self, benchmark: Benchmark, selected: Sequence[Problem], limit: int, limits: RunLimits, fresh: bool
    ) -> SolveOutcome:
        by_id = {p.id: p for p in selected}
        while True:
            history = self.ledger.campaigns()
            last = history[-1] if history else None
            resuming = last is not None and not last.finished
            if last is not None and resuming:
                done = self.ledger.attempted_samples(last.number)
                todo = [by_id[p] for p in last.problems if p in by_id and self._missing(p, done)]
                number = last.number
            else:
                passed = self.ledger.passed_problems()
                todo = [p for p in selected if p.id not in passed]
                if not todo:
                    message = f"all {len(selected)} selected problems passed verification"
                    return self._outcome(ExitCode.SUCCESS, message, selected)
                number = last.number + 1 if last else 1
            if not resuming and limit and number > limit:
                return self._outcome(ExitCode.SUCCESS, f"campaign limit reached ({limit} campaigns)", selected)
            failed = self._failed_campaign(number) if not resuming else None
            if failed is not None:
                return self._outcome(ExitCode.FAILURE, failed, selected)
            usage = self.ledger.usage()
            reason = limits.reached(usage.tokens, usage.cost_dollars)
            if reason is not None:
                return self._outcome(ExitCode.LIMIT, reason, selected)
            earlier = [*self.ledger.attempts(), *self.ledger.interruptions()]
            samples = {p.id: self._missing(p.id, self.ledger.attempted_samples(number)) for p in todo}
            allowances = self._allowances(todo, earlier, samples)
            if not resuming:
                todo = [p for p in todo if not allowances[p.id].spent()]
                if not todo:
                    return self._outcome(
                        ExitCode.SUCCESS,
                        "every unresolved problem has spent its budget (--token-limit, --cost-limit)",
                        selected,
                    )
                self.ledger.start_campaign(number, [p.id for p in todo], fresh, self.config.samples)
                write_outputs(self.run_dir, self.ledger)
            carried = {} if fresh else self._carry_forward(number, [p.id for p in todo], earlier)
            lemmas = {} if fresh else self._proved_lemmas([p.id for p in todo])
            sketches = {} if fresh else self._sketches(number)
            stopped = self._run_campaign(
                benchmark, number, todo, carried, allowances, limits, len(selected), lemmas, sketches, samples
            )
            if not any(self._missing(p.id, self.ledger.attempted_samples(number)) for p in todo):
                self.ledger.finish_campaign(number)
                write_outputs(self.run_dir, self.ledger)
            if stopped is not None:
                return self._outcome(ExitCode.LIMIT, stopped, selected)

    def _missing(self, problem: str, done: set[tuple[str, int]]) -> tuple[int, ...]:
        """The samples of ``problem`` without an outcome in a campaign whose outcomes are ``done``."""
        return tuple(n for n in range(1, self.config.samples + 1) if (problem, n) not in done)

    def _failed_campaign(self, number: int) -> str | None:
        """Why the run cannot go on: every attempt of the previous campaign ended in an error."""
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

    def _proved_lemmas(self, problems: Sequence[str]) -> dict[str, tuple[ProvedLemma, ...]]:
        """For each problem, the lemmas its earlier sub-attempts proved (accepted by the gates)."""
        found: dict[str, tuple[ProvedLemma, ...]] = {}
        for problem in problems:
            rows = self.ledger.proved_lemmas(problem)
            if rows:
                found[problem] = tuple(
                    ProvedLemma(r.lemma, r.statement, r.statement_sha256, r.lemma_text or "", r.campaign) for r in rows
                )
        return found

    def _sketches(self, number: int) -> dict[str, Sketch]:
        """For each problem, the latest sketch of its earlier campaigns (informal proof and skeleton), an
        interrupted attempt's included."""
        rows = self.ledger.sketches()  # in the order made: a later one replaces an earlier one
        return {r.problem: Sketch(r.informal_proof, r.skeleton, r.campaign) for r in rows if r.campaign < number}

    def _allowances(
        self, problems: Sequence[Problem], earlier: Sequence[AttemptRow], samples: Mapping[str, Sequence[int]]
    ) -> dict[str, Allowance]:
        """What each sample of each problem may still spend: the problem's budget less what all its earlier
        attempts spent, shared equally by the samples about to run (they run at once, so none can wait
        for what another leaves)."""
        budgets = self.config.budgets
        tokens: dict[str, int] = {p.id: 0 for p in problems}
        dollars: dict[str, float] = {p.id: 0.0 for p in problems}
        for row in earlier:
            if row.problem in tokens:
                tokens[row.problem] += row.input_tokens + row.output_tokens
                dollars[row.problem] += row.cost_dollars
        shares = {p.id: max(1, len(samples.get(p.id, ()))) for p in problems}
        return {
            p.id: Allowance(
                None if budgets.token_limit is None else (budgets.token_limit - tokens[p.id]) // shares[p.id],
                None
                if budgets.cost_limit_dollars is None
                else (budgets.cost_limit_dollars - dollars[p.id]) / shares[p.id],
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
        lemmas: Mapping[str, Sequence[ProvedLemma]],
        sketches: Mapping[str, Sketch],
        samples: Mapping[str, Sequence[int]],
    ) -> str | None:
        """Run one campaign; returns why the run budget stopped it early (None if it did not), or raises
        ``_Interrupted`` when the user interrupted it.

        A problem the agent layer never reported is recorded as an error, unless the run budget or an
        interruption stopped the campaign: then it was never started and stays unattempted, for a resume.
        """
        usage = self.ledger.usage()
        live = LiveRun(limits, usage.tokens, usage.cost_dollars)
        slots = [(p.id, n) for p in todo for n in samples[p.id]]
        recorder = Recorder(self, number, slots, selected, live)
        self.sink.campaign_started(number, [p.id for p in todo], recorder.totals())
        job = CampaignJob(
            problems=todo,
            benchmark=benchmark,
            config=self.config,
            number=number,
            work_dir=self.run_dir / WORK_DIR,
            log_dir=directory_under(self.run_dir, LOG_DIR),  # Inspect writes there by name: no planted link
            on_attempt=recorder,
            live=live,
            carried=carried,
            allowances=allowances,
            lemmas=lemmas,
            sketches=sketches,
            on_subattempt=recorder.subattempt,
            on_sketch=recorder.sketch,
            on_spend=recorder.spending,
            verifier=self.settings.verifier,
            model_sources=self.settings.model_sources,
            samples=samples,
            toolchain=self.toolchain,
        )
        try:
            self.runner(job)
        finally:
            recorder.close()
        recorder.raise_fatal()
        stopped = live.stop_reason()
        attempted = self.ledger.attempted_samples(number)
        missing = [slot for slot in slots if slot not in attempted]
        if missing and stopped is None:
            self.ledger.record_attempts(number, [_unreported(p, n) for p, n in missing])
        if live.interrupted:
            raise _Interrupted(
                f"campaign {number} stopped with {len(missing)} of its {len(slots)} attempts without an outcome "
                "(the attempts in flight are recorded as interrupted, with what they spent)"
            )
        return stopped

    def _outcome(self, code: int, reason: str, selected: Sequence[Problem]) -> SolveOutcome:
        passed = self.ledger.passed_problems()
        unresolved = tuple(p.id for p in selected if p.id not in passed)
        message = reason
        if code == ExitCode.LIMIT:
            message = (
                f"{reason}: {len(unresolved)} of {len(selected)} problems unresolved (see unresolved.txt); "
                "raise the limit and run again with --resume to continue"
            )
        elif code == ExitCode.SUCCESS and unresolved:
            message = (
                f"{reason}: the evaluation is complete, {len(selected) - len(unresolved)} of {len(selected)} "
                "problems solved (unresolved ones in unresolved.txt; --resume with a higher --campaigns tries "
                "them again)"
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
    """Why an earlier attempt did not pass, as the next campaign's worker is shown it: from the ledger's
    verdict as a model may see it (``no_answer_view``)."""
    if row.status == "disputed":  # a fact about the official answer: withheld from the model
        return f"Campaign {row.campaign}: not accepted (the reason is withheld on the no-answer track)."
    lines = [f"Campaign {row.campaign}: status {row.status}; verdict {verdict_summary(row) or 'none'}."]
    for gate in no_answer_view(row.verdict).get("gates", []) if row.verdict else []:
        if gate.get("status") != "passed":
            lines.append(f"{gate['id']} {gate['name']} {gate['status']}: {gate['detail']}")
    if row.reviewer_feedback:
        lines.append(f"Reviewer: {row.reviewer_feedback}")
    if row.error:
        lines.append(f"Error: {row.error}")
    return "\n".join(lines)


def _unreported(problem: str, sample: int) -> AttemptResult:
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
        sample=sample,
    )
