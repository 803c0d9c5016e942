"""``putnam selftest``: put known-good and known-bad canaries through every gate, on this machine's toolchain.

The gates are only as good as the tools under them, and the real Lean toolchain cannot run where this
project is developed. So the product checks itself where it runs: each canary is a problem record plus a
candidate (shipped by each prover's kit, ``kits/<prover>/canaries/<suite>/``) with what each gate must
say about it. A known-good canary must pass every gate; a known-bad one names the gates that must refuse
it on their own (``failed``, not ``error``: a gate that cannot judge has not shown that it refuses).
Every canary goes through the real pipeline (``verify.run_gates`` with ``keep_going``, so that each gate
judges it even after another gate refused it). A surprise is a known-bad canary a gate accepted, a known-
good one a gate refused, or a gate that could not run although ``doctor`` says it can: the toolchain must
not judge real candidates.

The outcome is recorded per prover, toolchain fingerprint, gate code and gate options in the user's cache directory,
out of any agent's reach: ``solve`` runs the selftest once per record before it spends money, ``doctor``
reports the last one (``record``), and gates can ask whether a known-good canary passed them
(``core.selftest_record``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.cache import gate_code_fingerprint
from putnam_solver.core.code_identity import code_fingerprint
from putnam_solver.core.gatekit import watched_tool_files
from putnam_solver.core.provers import Prover, get_prover, prover_names
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.selftest_record import records_dir
from putnam_solver.core.util import InputError
from putnam_solver.core.verdict import ALL_GATE_IDS
from putnam_solver.core.verify import (
    GateResult,
    GateStatus,
    Profile,
    Track,
    Verdict,
    VerifyOptions,
    gate_ids,
    provenance_gate_def,
    run_gates,
)
from putnam_solver.directories import check_cache_dir
from putnam_solver.kits import Readiness, get_kit
from putnam_solver.selftest.answers import CHECKS, check_cells, check_table, expected_checks, surprise_text
from putnam_solver.selftest.record import Cell, CellResult, SelftestRecord, SuiteSkip, last_record, write_record

SELFTEST_FIX = (
    "do not run campaigns on this toolchain; reinstall it with `putnam bootstrap`, run `putnam doctor`, "
    "and run `putnam selftest` again (report it if the surprise stays)"
)


@dataclass(frozen=True)
class Canary:
    """A candidate for a problem of its suite, on a track, and the gates that must refuse it (none:
    known-good); on no-answer, also what its answer checks and its verdict must find (``answers``)."""

    suite: str
    name: str
    problem: str
    file: str
    what: str
    refuse: frozenset[str]
    track: Track = Track.WITH_ANSWER
    answers: tuple[tuple[str, str], ...] = ()
    """(solution, ``confirmed``/``differs``/``unknown``): what its answer check must find, exactly."""
    verdict: str | None = None
    """``accepted``/``disputed``/``rejected``: the verdict it must get over the gates that can run here."""
    unjudged: frozenset[str] = frozenset()
    """Gates shown but not judged on it, nor counted in its verdict (``suite.json`` says why)."""

    @property
    def known_good(self) -> bool:
        return not self.refuse


@dataclass(frozen=True)
class Suite:
    """A canary set: its benchmark records, its canaries, and what it needs beyond the gates' tools."""

    name: str
    prover: str
    title: str
    needs: str
    canaries: tuple[Canary, ...]
    directory: Path

    def benchmark(self) -> Benchmark:
        return load_benchmark(self.directory / "benchmark.jsonl")

    def candidate(self, canary: Canary) -> bytes:
        return (self.directory / canary.file).read_bytes()

    def fingerprint(self) -> str:
        """The SHA-256 of its files: its canaries' bytes, what each must get, its benchmark records."""
        return code_fingerprint(self.directory)


def suite_at(directory: Path) -> Suite:
    """The suite shipped in ``directory`` (its ``suite.json``, benchmark and candidates); named after it."""
    name = directory.name
    data = json.loads((directory / "suite.json").read_text(encoding="utf-8"))
    canaries = tuple(
        Canary(
            name,
            c["name"],
            c["problem"],
            c["file"],
            c["what"],
            frozenset(c["refuse"]),
            Track(c.get("track", "with-answer")),
            *expected_checks(c["name"], c),
            frozenset(c.get("unjudged", ())),
        )
        for c in data["canaries"]
    )
    return Suite(name, data["prover"], data["title"], data["needs"], canaries, directory)


def suites_for(prover: str) -> tuple[Suite, ...]:
    """The canary suites the prover's kit ships (in its own folder)."""
    return tuple(suite_at(directory) for directory in get_kit(prover).selftest_suites)


def load_suite(name: str) -> Suite:
    """The suite named ``name`` among every registered prover's."""
    for prover in prover_names():
        for suite in suites_for(prover):
            if suite.name == name:
                return suite
    raise InputError(f"no prover ships a canary suite named {name!r}")


def gate_readiness(prover: Prover, options: VerifyOptions) -> list[Readiness]:
    """For each gate G1..G7 (named ``"G4 compile"`` etc.): can it run here, and if not, why. A gate the
    prover does not offer is a row that is not ready, so a profile asking for it is refused. It reports
    (``putnam doctor``, the selftest's preflight); the pipeline itself runs each gate's own check."""
    by_id = {g.id: g for g in (provenance_gate_def, *prover.gates())}
    return [
        Readiness(f"{g.id} {g.name}", *g.ready(options))
        if (g := by_id.get(gate_id)) is not None
        else Readiness(gate_id, False, f"prover {prover.name} has no gate {gate_id}", applies=False)
        for gate_id in ALL_GATE_IDS
    ]


def selftest_options(options: VerifyOptions) -> VerifyOptions:
    """The user's options on the full profile, every gate run even after a refusal (each judges alone),
    marked as the selftest's own run. A rule the user lifted for a run (Rocq's ``allow_recursion``) stays on:
    the canaries judge the toolchain's gates, and the record is kept per toolchain, not per run."""
    kept = dataclasses.replace(options, profile=Profile.FULL, keep_going=True, selftest_run=True, acceptance=None)
    return kept.with_options(RocqOptions())


def mathlib_status(options: VerifyOptions) -> tuple[bool, str]:
    """Whether the Mathlib canaries can run: they need the bootstrapped project's `lean`, not another."""
    from putnam_solver.core.gatekit import explicit_tool
    from putnam_solver.core.provers.lean.toolchain import LEAN_TOOL, release_paths

    chosen = explicit_tool(LEAN_TOOL, options)
    if chosen is not None:
        return False, f"a `lean` was given ({chosen[1]}); the Mathlib canaries use the bootstrapped one"
    mathlib = release_paths(options).mathlib
    if not mathlib.is_dir():
        return False, f"no Mathlib at {mathlib}; run `putnam bootstrap`"
    return True, "Mathlib from the bootstrapped project"


def selftest_runs(prover_name: str, options: VerifyOptions) -> list[VerifyOptions]:
    """The toolchains ``putnam selftest`` checks: the one ``options`` name, else, for Lean without a
    `lean` of the user's, every release installed side by side. Comparator is built at its own Lean
    release and replays exports made at each benchmark's; no upstream test covers that pairing, so each
    installed release puts its Mathlib canaries (a known-good proof, one the kernel rejects on replay)
    through G6 here, before any campaign spends money on it."""
    from putnam_solver.core.gatekit import explicit_tool
    from putnam_solver.core.provers.lean.toolchain import LEAN_TOOL, installed_releases

    if prover_name != "lean" or options.toolchain is not None or explicit_tool(LEAN_TOOL, options) is not None:
        return [options]
    return [dataclasses.replace(options, toolchain=release) for release in installed_releases()] or [options]


def expectation(canary: Canary, gate: str) -> str:
    """What ``gate`` must say about ``canary``: ``pass``, ``refuse`` or ``any`` (another gate's job, or one
    the canary leaves unjudged)."""
    if gate in canary.unjudged:
        return "any"
    if canary.known_good:
        return "pass"
    return "refuse" if gate in canary.refuse else "any"


def judge(canary: Canary, result: GateResult, ready: bool) -> Cell:
    """Read one gate result against the canary's expectation (see ``Cell``)."""
    if not ready and result.status is not GateStatus.PASSED:
        return Cell.CANNOT_RUN  # whatever it says (unavailable, or an error for want of G4's output)
    wanted = {"pass": GateStatus.PASSED, "refuse": GateStatus.FAILED}.get(expectation(canary, result.id))
    if wanted is None:
        return Cell.UNJUDGED
    return Cell.RIGHT if result.status is wanted else Cell.WRONG


Progress = Callable[[str], None]


def run_suites(
    suites: Sequence[Suite], options: VerifyOptions, ready: dict[str, bool], jobs: int, progress: Progress
) -> list[CellResult]:
    """Every canary of ``suites`` through the pipeline (``jobs`` at once, across suites, so that one suite's
    slowest canary does not hold the next suite back), one cell per gate of the profile and, for a
    no-answer canary that names them, one per answer check and one for its verdict (``answers``)."""
    benches = {suite.name: suite.benchmark() for suite in suites}
    provers = {suite.name: get_prover(suite.prover) for suite in suites}
    work = [(suite, canary) for suite in suites for canary in suite.canaries]

    def verdict_of(item: tuple[Suite, Canary]) -> Verdict:
        suite, canary = item
        progress(f"selftest: {suite.name}/{canary.name}")
        bench = benches[suite.name]
        label = f"{suite.name}/{canary.file}"
        candidate = suite.candidate(canary)
        return run_gates(
            provers[suite.name], bench, bench.problems[canary.problem], candidate, canary.track, options, label
        )

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        verdicts = list(pool.map(verdict_of, work))
    return [
        cell
        for (suite, canary), v in zip(work, verdicts, strict=True)
        for cell in [*(_cell(suite, canary, r, ready) for r in v.gates), *check_cells(suite.name, canary, v, ready)]
    ]


def _cell(suite: Suite, canary: Canary, result: GateResult, ready: dict[str, bool]) -> CellResult:
    detail = result.detail.splitlines()[0][:300] if result.detail else ""
    expected = expectation(canary, result.id)
    judgement = judge(canary, result, ready.get(result.id, False))
    return CellResult(suite.name, canary.name, result.id, result.name, expected, result.status.value, judgement, detail)


def selftest_readiness(prover_name: str, options: VerifyOptions) -> dict[str, Readiness]:
    """The prover's readiness rows by gate id, for the gates this selftest runs."""
    wanted = set(gate_ids(options))
    rows = gate_readiness(get_prover(prover_name), options)
    return {r.name.split()[0]: r for r in rows if r.name.split()[0] in wanted}


def run_selftest(
    prover_name: str, options: VerifyOptions, jobs: int | None = None, progress: Progress = lambda _: None
) -> SelftestRecord:
    """Run every suite of the prover that can run here (``jobs`` canaries at once, default one per core),
    store the record under the options given (``record_path``: the ones later runs look it up by), and
    return it."""
    given, options = options, selftest_options(options)
    check_cache_dir(records_dir())  # the record is written at the end: refuse a bad place before the work
    prover = get_prover(prover_name)
    readiness = selftest_readiness(prover_name, options)
    ready = {gate: row.ok for gate, row in readiness.items()}
    started = time.monotonic()
    with watched_tool_files() as watch:
        judged_on = prover.toolchain_fingerprint(options)
        cells, skipped, runnable = _run_canaries(prover_name, options, ready, jobs, progress)
        now = prover.toolchain_fingerprint(options)
        changed = watch.rewritten()
    record = SelftestRecord(
        prover=prover_name,
        fingerprint=judged_on,
        gate_code=gate_code_fingerprint(),
        axle=options.axle,
        finished_at=time.time(),
        seconds=round(time.monotonic() - started, 3),
        cells=cells,
        skipped=skipped,
        cannot_run={gate: row.detail for gate, row in readiness.items() if not row.ok},
        suites={suite.name: suite.fingerprint() for suite in runnable},
    )
    if now != judged_on or changed:
        # the record speaks for one toolchain: taken after the canaries (before red team 18) it vouched for a
        # tool replaced after the last of them, on which none ran, and `serve` and `mcp` judged with it; a
        # tool replaced and put back while they ran (before red team 19) left both readings the same
        what = f"from {judged_on} to {now}" if now != judged_on else f"{', '.join(changed)} written or replaced"
        raise UnrecordedSelftest(
            record,
            f"the toolchain changed while the selftest ran ({what}); no record was kept: run `putnam selftest` again",
        )
    try:
        write_record(record, given)
    except InputError as exc:
        raise UnrecordedSelftest(record, str(exc)) from exc
    return record


def _run_canaries(
    prover_name: str, options: VerifyOptions, ready: dict[str, bool], jobs: int | None, progress: Progress
) -> tuple[list[CellResult], list[SuiteSkip], list[Suite]]:
    """Every suite of the prover that can run here, run: its cells, the suites skipped and why, the suites run."""
    skipped: list[SuiteSkip] = []
    runnable: list[Suite] = []
    for suite in suites_for(prover_name):
        can, why = mathlib_status(options) if suite.needs == "mathlib" else (True, "")
        if not can:
            skipped.append(SuiteSkip(suite.name, suite.title, why))
            continue
        runnable.append(suite)
    return run_suites(runnable, options, ready, jobs or os.cpu_count() or 1, progress), skipped, runnable


class UnrecordedSelftest(InputError):
    """A selftest that ran to its end but whose record could not be written (``write_record``'s message):
    what it found is still shown (``record``), then why no later run will find it; an input error all the
    same (exit 2), since nothing that waits for a passing record can use it."""

    def __init__(self, record: SelftestRecord, message: str) -> None:
        super().__init__(message)
        self.record = record


def require_selftest(prover_name: str, options: VerifyOptions, progress: Progress = lambda _: None) -> SelftestRecord:
    """The passing selftest of this toolchain, run now if there is none; raises InputError on a surprise.

    ``solve`` calls this before its first model call, so that money is never spent on a toolchain whose
    gates misjudge a canary. A failed record is not trusted to stay failed: the selftest runs again; nor is a
    passed one that never judged a gate or canary set that can run now (``uncovered``).
    """
    record = last_record(prover_name, options)
    if record is None or not record.passed or uncovered(record, prover_name, options):
        record = run_selftest(prover_name, options, progress=progress)
    if not record.passed:
        raise InputError(
            f"the {prover_name} selftest found gates that misjudge canaries on this toolchain: "
            f"{surprise_summary(record)}; {SELFTEST_FIX}"
        )
    return record


def uncovered(record: SelftestRecord, prover_name: str, options: VerifyOptions) -> list[str]:
    """What can run here now but did not when ``record`` was made: gates it lists as unable to run (no
    sandbox then, say), canary suites it skipped (no Mathlib then) and canaries the kit did not ship
    then, or shipped other (a suite whose files differ from those judged: red team 17). The record is
    keyed by the toolchain's fingerprint and the gates' code, which none of these changes; a record that
    passed without putting a gate or canary through says nothing of it, so it does not let ``solve`` or
    ``serve`` judge with it."""
    now = selftest_options(options)
    ready = [gate for gate, row in selftest_readiness(prover_name, now).items() if row.ok]
    found = [f"{gate} (could not run when the record was made)" for gate in ready if gate in record.cannot_run]
    skipped = {s.suite for s in record.skipped}
    judged = {(c.suite, c.canary) for c in record.cells}
    for suite in suites_for(prover_name):
        if suite.name in skipped:
            if suite.needs != "mathlib" or mathlib_status(now)[0]:
                found.append(f"canary set {suite.name} (skipped when the record was made)")
            continue
        if record.suites.get(suite.name) != suite.fingerprint():
            found.append(f"canary set {suite.name} (other canaries than the record judged)")
            continue
        found += [
            f"canary {suite.name}/{c.name} (not in the record)"
            for c in suite.canaries
            if (suite.name, c.name) not in judged
        ]
    return found


# ---------------------------------------------------------------------------------------------- text


def surprise_line(cell: CellResult) -> str:
    """One surprise, naming the gate, the canary and what happened."""
    suite = load_suite(cell.suite)
    canary = next(c for c in suite.canaries if c.name == cell.canary)
    if cell.gate in CHECKS:
        return surprise_text(cell, canary.what)
    if cell.status == GateStatus.PASSED.value:
        what = f"accepted the known-bad canary {cell.suite}/{cell.canary} ({canary.what})"
    elif cell.expected == "pass":
        what = f"refused the known-good canary {cell.suite}/{cell.canary} ({cell.status}: {cell.detail})"
    else:
        what = (
            f"could not judge the known-bad canary {cell.suite}/{cell.canary} ({canary.what}): "
            f"{cell.status}: {cell.detail}"
        )
    return f"{cell.gate} {cell.gate_name} {what}"


def surprise_summary(record: SelftestRecord) -> str:
    return "; ".join(surprise_line(c) for c in record.surprises)


def cell_text(cell: CellResult) -> str:
    """The status when judged right; ``(status)`` when not judged; ``n/a``; ``WRONG status``."""
    if cell.judgement is Cell.CANNOT_RUN:
        return "n/a"
    if cell.judgement is Cell.UNJUDGED:
        return f"({cell.status})"
    return f"WRONG {cell.status}" if cell.judgement is Cell.WRONG else cell.status


def table_lines(record: SelftestRecord) -> list[str]:
    """The table, gate by gate (rows) and canary by canary (columns), one block per suite, and notes."""
    lines: list[str] = []
    for suite_name in dict.fromkeys(c.suite for c in record.cells):
        suite = load_suite(suite_name)
        cells = [c for c in record.cells if c.suite == suite_name and c.gate not in CHECKS]
        canaries = [c.name for c in suite.canaries]
        lines += _gate_block(suite, cells, canaries) if cells else []
        lines += check_table(suite_name, record.cells, canaries)
    for skip in record.skipped:
        lines.append(f"{skip.title} [{skip.suite}]: cannot run here: {skip.reason}")
    for gate, why in sorted(record.cannot_run.items()):
        lines.append(f"{gate} cannot run here: {why}")
    for cell in record.surprises:
        lines.append(f"SURPRISE: {surprise_line(cell)}")
    if record.surprises:
        lines.append(f"FIX: {SELFTEST_FIX}")
    return lines


def _gate_block(suite: Suite, cells: list[CellResult], canaries: list[str]) -> list[str]:
    """One suite's gates (rows) by canary (columns)."""
    gates = list(dict.fromkeys((c.gate, c.gate_name) for c in cells))
    by_key = {(c.canary, c.gate): cell_text(c) for c in cells}
    width = max([len(n) for n in canaries] + [len(t) for t in by_key.values()]) + 2
    label = max(len(f"{g} {n}") for g, n in gates) + 2
    lines = [f"{suite.title} [{suite.name}]", " " * label + "".join(n.ljust(width) for n in canaries).rstrip()]
    for gate, name in gates:
        row = "".join(by_key.get((n, gate), "-").ljust(width) for n in canaries)
        lines.append(f"{gate} {name}".ljust(label) + row.rstrip())
    return [*lines, ""]


def summary_line(record: SelftestRecord) -> str:
    judged = sum(c.judgement is Cell.RIGHT for c in record.cells)
    state = "passed" if record.passed else f"FAILED ({len(record.surprises)} surprises)"
    return (
        f"selftest of {record.prover} {state}: {judged} judgements right, {len(record.surprises)} wrong, "
        f"{len(record.cannot_run)} gates cannot run here, {len(record.skipped)} suites skipped "
        f"({record.seconds:.1f} s; toolchain {record.fingerprint})"
    )


def describe_last(prover_name: str, options: VerifyOptions) -> tuple[bool, str]:
    """For ``doctor``: when the last selftest of this toolchain ran and whether it passed."""
    record = last_record(prover_name, options)
    if record is None:
        return False, f"never run on this toolchain; run `putnam selftest --prover {prover_name}`"
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.finished_at))
    if record.passed:
        return True, f"passed at {when} ({len(record.cannot_run)} gates could not run)"
    return False, f"FAILED at {when}: {surprise_summary(record)}; {SELFTEST_FIX}"
