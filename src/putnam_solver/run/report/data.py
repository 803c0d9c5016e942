"""What a report shows about a run, read from its ledger: the run's rows and the numbers derived from them.

Nothing here renders anything; ``run_page`` and ``compare`` (written by ``html``) turn these into pages, and the tests
compare what a browser shows against these numbers and the ledger's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from putnam_solver.benchmark_files import locate_benchmark, request_for_file
from putnam_solver.benchmark_view import known_defect
from putnam_solver.core.benchmark import Benchmark, BenchmarkError, load_benchmark
from putnam_solver.core.util import InputError
from putnam_solver.run.ledger import (
    LEDGER_NAME,
    RATE_LIMITS_SINCE,
    AttemptRow,
    AuditRow,
    CampaignRow,
    Ledger,
    LedgerError,
    RateLimitRow,
    Usage,
)
from putnam_solver.run.ledger_checks import check_attempts
from putnam_solver.run.ledger_rows import meta_number, outcome_record
from putnam_solver.run.ledger_seals import NOTHING_VERIFIED, UNSEALED, SampleTrust, sample_trust, sealed_attempts
from putnam_solver.run.ledger_sketches import SketchRow
from putnam_solver.run.prices import run_unpriced, unpriced_when_spent
from putnam_solver.run.report.errata import counted_apart
from putnam_solver.run.report.tables import lifted_audits
from putnam_solver.run.stored_settings import StoredSettings, settings_history, stored_settings


class ReportError(InputError):
    """A report cannot be written (not a run directory, unreadable ledger, wrong arguments)."""


class NoRunRecorded(ReportError):
    """The ledger holds no run settings: the run was refused before it started, there is nothing to show."""


# -- what a run did, read from its ledger -----------------------------------------------------------------


@dataclass(frozen=True)
class RunData:
    """Everything a report shows about one run, read from its ledger in one go.

    ``benchmark_ids``: every problem id of the run's benchmark file (of its split, when the run chose one)
    when this machine holds the registered benchmark the run names with the same SHA-256 (None otherwise:
    the grid then shows the run's own problems). ``defects``: the problems whose statements the benchmark's errata (as
    the run recorded its record) call defective, with what is wrong; a solve of one is counted apart.
    ``sketches``: every sketch call of the run's attempts (``ledger_sketches``)."""

    run_dir: Path
    settings: StoredSettings
    selected: tuple[str, ...]
    campaigns: tuple[CampaignRow, ...]
    attempts: tuple[AttemptRow, ...]
    usage: Usage
    passed: frozenset[str]
    audited: frozenset[str]
    audits: Mapping[int, AuditRow]
    rate_limits: tuple[RateLimitRow, ...]
    rate_limits_since: int | None
    outcome: dict[str, Any] | None
    benchmark_ids: tuple[str, ...] | None
    defects: Mapping[str, str] = field(default_factory=dict)
    sketches: tuple[SketchRow, ...] = ()

    @property
    def name(self) -> str:
        return self.run_dir.name

    spent_unpriced: tuple[str, ...] = ()
    """The models without a price when some attempt spent tokens (``prices.unpriced_when_spent``)."""
    foreign_audits: int = 0
    """Audit rows this account's ``putnam audit`` did not write: history, never counted (``audit_seal``)."""
    sample_trust: SampleTrust = NOTHING_VERIFIED
    """Which problems' samples pass@k counts as verified (``ledger_seals``)."""
    sealed: frozenset[int] = frozenset()
    """The attempt rows this account's ``putnam solve`` sealed as they stand (``ledger_seals``)."""
    challenges: frozenset[str] = frozenset()
    """The problems whose challenge the ledger holds (checked against its hash: ``ledger_rows.problem_row``):
    only theirs is an evidence file the report links."""

    @property
    def unpriced(self) -> tuple[str, ...]:
        """The run's models with no price now or when some of its spend was counted (that cost is unknown)."""
        return tuple(dict.fromkeys([*run_unpriced(self.settings.config), *self.spent_unpriced]))

    @property
    def problems(self) -> tuple[str, ...]:
        """The run's problems: the selected ones, and any attempted one that was not (older runs)."""
        attempted = {a.problem for a in self.attempts}
        return tuple(sorted(set(self.selected) | attempted))

    @cached_property
    def by_problem(self) -> dict[str, list[AttemptRow]]:
        """Each problem's attempts, by campaign."""
        found: dict[str, list[AttemptRow]] = {}
        for a in self.attempts:
            found.setdefault(a.problem, []).append(a)
        return found

    @property
    def solved(self) -> frozenset[str]:
        """Selected problems with a verified pass (the count SUMMARY.md shows), less those on statements
        known defective (``solved_apart``)."""
        solved = self.passed & frozenset(self.selected) if self.selected else self.passed
        return solved - frozenset(self.defects)

    @property
    def solved_apart(self) -> frozenset[str]:
        """Selected problems with a verified pass on a statement known defective: counted apart."""
        solved = self.passed & frozenset(self.selected) if self.selected else self.passed
        return solved & frozenset(self.defects)


def load_run(run_dir: Path) -> RunData:
    """Read a run directory's ledger; a directory without one is refused (nothing is created there)."""
    path = run_dir / LEDGER_NAME
    if not (path.exists() or path.is_symlink()):  # anything else there: Ledger.open says what it is
        raise ReportError(f"{run_dir}: not a run directory (no {LEDGER_NAME}); give the --run-dir of a putnam solve")
    try:
        ledger = Ledger.open(path)
    except LedgerError as exc:
        raise ReportError(str(exc)) from exc
    try:
        settings = stored_settings(ledger)
        if settings is None:
            raise NoRunRecorded(
                f"{run_dir}: the ledger holds no run settings (the run never started); nothing to report"
            )
        check_attempts(ledger, settings)
        here = _local_benchmark(settings)
        attempts = tuple(ledger.every_attempt())
        since = ledger.meta(RATE_LIMITS_SINCE)
        return RunData(
            run_dir=run_dir,
            settings=settings,
            selected=settings.selected,
            campaigns=tuple(ledger.campaigns()),
            attempts=attempts,
            usage=ledger.usage(),
            passed=frozenset(a.problem for a in attempts if a.verified_pass),
            audited=frozenset(ledger.audited_problems()),
            audits=ledger.latest_audits(),
            rate_limits=tuple(ledger.rate_limits()),
            rate_limits_since=meta_number(since, f"{path}: {RATE_LIMITS_SINCE}") or None,
            outcome=outcome_record(ledger.meta("outcome"), f"{path}: outcome"),
            benchmark_ids=_benchmark_ids(here),
            defects={**_defects(here, settings.selected), **counted_apart(settings, ledger.latest_audits().values())},
            sketches=tuple(ledger.sketches()),
            spent_unpriced=tuple(spent_unpriced(ledger, settings, attempts)),
            foreign_audits=ledger.foreign_audits(),
            sample_trust=sample_trust(ledger, settings.config.samples),
            sealed=sealed_attempts(ledger),
            challenges=frozenset(ledger.problems()),
        )
    except LedgerError as exc:
        raise ReportError(str(exc)) from exc
    finally:
        ledger.close()


def _local_benchmark(settings: StoredSettings) -> Benchmark | None:
    """This machine's copy of the registered benchmark the run names (by file name, never at the path the
    ledger holds: a run directory handed over may name any file), if its SHA-256 is the run's."""
    try:
        name = request_for_file(settings.selection.benchmark.name)
        located = locate_benchmark(name, settings.config.prover) if name else None
        split = settings.selection.split
        benchmark = load_benchmark(located.path, settings.benchmark_sha256, split) if located else None
    except BenchmarkError:
        return None
    return benchmark


def _benchmark_ids(benchmark: Benchmark | None) -> tuple[str, ...] | None:
    if benchmark is None:
        return None
    return tuple(sorted(p for p, problem in benchmark.problems.items() if benchmark.in_split(problem)))


def _defects(benchmark: Benchmark | None, selected: Sequence[str]) -> dict[str, str]:
    """What this machine's errata of the run's registered benchmark call defective among its problems: the
    errata the ledger's settings record are text an editor can drop, which counted an unaudited solve of a
    known defective statement in the solved figure, not apart (red team round 15)."""
    if benchmark is None:
        return {}
    return {p: said for p in selected if (said := known_defect(benchmark, p))}


# -- the numbers -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Headline:
    """The run at a glance, as the top of the report shows it."""

    selected: int
    solved: int
    audited: int
    solved_apart: int
    unresolved: int
    attempts: int
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float
    wall_seconds: float
    unpriced: tuple[str, ...] = ()
    """The run's models with no price: every cost of the run is then unknown (never $0.00), or at least what
    the priced models spent."""
    audited_lifted: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Audited problems confirmed only by audits that lifted a rule (``tables.lifted_audits``)."""
    foreign_audits: int = 0
    """Audit rows left out of ``audited``: not written by this account's ``putnam audit``."""
    unsealed: int = 0
    """Solved problems whose every verified pass is in a row this account's ``putnam solve`` did not seal: a
    pass added or edited with ``sqlite3`` (its stored verdict made to accept its bytes) counted in ``solved``
    like the run's own, with nothing on the page to tell them apart until an audit (red team round 15)."""

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def dollars_per_solved(self) -> float | None:
        return self.cost_dollars / self.solved if self.solved and not self.unpriced else None


def headline(run: RunData) -> Headline:
    solved = run.solved
    return Headline(
        selected=len(run.selected),
        solved=len(solved),
        audited=len(run.audited & solved),
        solved_apart=len(run.solved_apart),
        unresolved=len([p for p in run.selected if p not in solved]),
        attempts=run.usage.attempts,
        turns=run.usage.turns,
        input_tokens=run.usage.input_tokens,
        output_tokens=run.usage.output_tokens,
        cost_dollars=run.usage.cost_dollars,
        wall_seconds=wall_seconds(run.campaigns, run.attempts),
        unpriced=run.unpriced,
        audited_lifted=lifted_audits(run.attempts, run.audits, run.audited & solved),
        foreign_audits=run.foreign_audits,
        unsealed=unsealed_solved(solved, run.attempts, run.sealed),
    )


def unsealed_solved(solved: Iterable[str], attempts: Iterable[AttemptRow], sealed: frozenset[int]) -> int:
    """How many of the ``solved`` problems have no verified pass in a row of ``sealed`` (the rows this
    account's ``putnam solve`` sealed as they stand): the report's and SUMMARY.md's solved figures name them."""
    backed = {a.problem for a in attempts if a.verified_pass and a.id in sealed}
    return len([p for p in solved if p not in backed])


def unsealed_note(count: int) -> str:
    """What the solved figure says of its problems whose passes no row of this account's ``putnam solve`` backs."""
    return f"{count} of them only in attempt rows with {UNSEALED}; `putnam audit` re-verifies them"


def wall_seconds(campaigns: Sequence[CampaignRow], attempts: Sequence[AttemptRow]) -> float:
    """The campaigns' spans added up: from each start to its end, or to its last recorded attempt while it
    is unfinished. Time between campaigns (a run stopped and resumed later) does not count."""
    last: dict[int, datetime] = {}
    for a in attempts:
        if a.recorded_at:
            when = parse_time(a.recorded_at)
            last[a.campaign] = max(last.get(a.campaign, when), when)
    total = 0.0
    for c in campaigns:
        start = parse_time(c.started_at)
        end = parse_time(c.finished_at) if c.finished_at else last.get(c.number, start)
        total += max(0.0, (end - start).total_seconds())
    return total


def stop_reason(attempt: AttemptRow) -> tuple[str, str] | None:
    """What stopped an attempt that did not pass, and how: the first gate of its verdict that did not pass
    (``("G2 preservation", "failed")``), else why there was no accepted verdict; None for a verified pass."""
    if attempt.verified_pass:
        return None
    gates = attempt.verdict.get("gates", []) if attempt.verdict else []
    first = next((g for g in gates if g.get("status") != "passed"), None)
    if first is not None:
        return f"{first.get('id')} {first.get('name')}", str(first.get("status"))
    if attempt.verdict is None:
        label = "no submission" if attempt.status == "no_submission" else f"no verdict ({attempt.status})"
        return label, attempt.status
    if attempt.status == "vetoed":
        return "reviewer veto", "vetoed"
    if attempt.status == "disputed":
        return "answer provably not the official one", "disputed"
    return f"verdict {attempt.verdict_status}, attempt {attempt.status}", attempt.status


def stop_counts(attempts: Iterable[AttemptRow]) -> Counter[tuple[str, str]]:
    """How many attempts each (stopper, how) stopped; gates sort before the other reasons."""
    return Counter(r for a in attempts if (r := stop_reason(a)) is not None)


def rate_limited_requests(rows: Sequence[RateLimitRow]) -> int:
    """Requests the provider rate-limited over the whole run (each campaign's running count, added up)."""
    last: dict[int, int] = {}
    for row in rows:
        last[row.campaign] = max(last.get(row.campaign, 0), row.retries)
    return sum(last.values())


def problem_costs(attempts: Iterable[AttemptRow]) -> dict[str, float]:
    """Dollars spent on each problem over all its attempts, failed ones included."""
    costs: dict[str, float] = {}
    for a in attempts:
        costs[a.problem] = costs.get(a.problem, 0.0) + a.cost_dollars
    return costs


@dataclass(frozen=True)
class Comparison:
    """Two runs over the problems both selected: who solved what. A problem whose statement either run's
    errata call defective is in ``apart`` only (a solve of it counts for neither run)."""

    common: tuple[str, ...]
    both: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    neither: tuple[str, ...]
    apart: tuple[str, ...] = ()


def compare(a: RunData, b: RunData) -> Comparison:
    common = sorted(set(a.problems) & set(b.problems))
    defective = set(a.defects) | set(b.defects)
    judged = [p for p in common if p not in defective]
    return Comparison(
        common=tuple(common),
        both=tuple(p for p in judged if p in a.passed and p in b.passed),
        only_a=tuple(p for p in judged if p in a.passed and p not in b.passed),
        only_b=tuple(p for p in judged if p in b.passed and p not in a.passed),
        neither=tuple(p for p in judged if p not in a.passed and p not in b.passed),
        apart=tuple(p for p in common if p in defective),
    )


def in_order(attempts: Iterable[AttemptRow]) -> list[AttemptRow]:
    """Attempts in the order they were recorded (the ledger's id breaks ties within a second)."""
    return sorted(attempts, key=lambda a: (a.recorded_at, a.id))


def parse_time(stamp: str) -> datetime:
    when = datetime.fromisoformat(stamp)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def spent_unpriced(ledger: Ledger, settings: StoredSettings, attempts: Iterable[AttemptRow]) -> list[str]:
    """The run's models without a price when some of its attempts spent tokens (their cost is unknown)."""
    spent = [a.recorded_at for a in attempts if a.input_tokens + a.output_tokens > 0]
    history = [(at, stored.config) for at, stored in settings_history(ledger)]
    return unpriced_when_spent(history, spent, settings.config)
