"""``putnam list``, ``check``, ``verify`` (files or a bundle) and ``policy``."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import putnam_solver.bundles as bundle_service
from putnam_solver import benchmark_files, pin_check
from putnam_solver.benchmark_files import require_track
from putnam_solver.cli._app import app, err, out
from putnam_solver.cli._options import (
    GATE_DEFAULTS,
    GATES_PANEL,
    PROVER_HELP,
    AllowRecursionOpt,
    AxleOpt,
    BenchmarkOpt,
    ComparatorMemoryOpt,
    ComparatorTimeoutOpt,
    KeepGoingOpt,
    KernelsOpt,
    MaxCandidateBytesOpt,
    MaxOpt,
    MemoryMbOpt,
    PinOpt,
    ProblemOpt,
    ProverOpt,
    RayCpusOpt,
    RayMemoryOpt,
    RayOpt,
    RayRetriesOpt,
    StatementByElaborationOpt,
    TimeoutOpt,
    ToolchainOpt,
    ToolOpt,
    UnsafeComparatorOpt,
    UnsafeNoSandboxOpt,
    apart_count,
    defect_note,
    input_errors,
    load_benchmark,
    parse_kernels,
    prover_option_value,
    ray_settings,
)
from putnam_solver.clikit import warning
from putnam_solver.cluster.ray import open_verifier
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core import benchmark as bench
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import (
    get_prover,
)
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import DEFAULT_MAX_CANDIDATE_BYTES, Profile, Track, Verdict, VerifyOptions
from putnam_solver.directories import checked_cache_dir
from putnam_solver.doctor import require_gates, unready_gates
from putnam_solver.errata import problem_errata, with_errata
from putnam_solver.kits import get_kit
from putnam_solver.problem_selection import select_problems
from putnam_solver.safe_write import check_output_file
from putnam_solver.terminal import one_line
from putnam_solver.verifier.candidates import (
    count_line,
    discover_candidates,
    exit_code,
    infer_prover,
    require_semantic_check,
    verdict_text,
    verify_candidates,
    write_verdicts_json,
)
from putnam_solver.verifier.dispatch import Verifier
from putnam_solver.verifier.options import GateFlags, tool_locations


class verify_progress:
    """A progress bar on stderr for long batches on a terminal; elsewhere (a log, CI) one line per verdict
    on stderr, since the results themselves print sorted once all are in."""

    def __init__(self, total: int) -> None:
        self.bar = (
            Progress(
                TextColumn("verifying"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            )
            if total > 4 and err.is_terminal
            else None
        )
        self.total = total

    def __enter__(self) -> Callable[[Verdict], None]:
        if self.bar is None:
            done = iter(range(1, self.total + 1))
            if self.total <= 1:
                return lambda verdict: None
            return lambda verdict: err.print(
                f"[{next(done)}/{self.total}] {verdict.problem}: {verdict.status}", markup=False
            )
        self.bar.start()
        task = self.bar.add_task("verify", total=self.total)
        bar = self.bar
        return lambda verdict: bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


@app.command("list")
def list_problems(
    prover: ProverOpt = "lean",
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    problem: ProblemOpt = None,
    max_problems: MaxOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON record per line.")] = False,
) -> None:
    """Print the selected problem ids, sorted."""
    with input_errors():
        chosen_prover, loaded = load_benchmark(prover, benchmark, benchmark_sha256)
        selected = select_problems(loaded, problem or (), max_problems)
        for p in selected:
            if as_json:
                record: dict[str, object] = {
                    "problem": p.id,
                    "module": p.module,
                    "statement_sha256": p.statement_sha256,
                    "has_answer": chosen_prover.has_answer(p),
                    "answer_forms": chosen_prover.answer_forms(p),
                    "benchmark_pinned": loaded.pinned,
                    **{
                        k: v
                        for k, v in with_errata(loaded.verdict_record(p), loaded, p).items()
                        if k != "toolchain_stated"
                    },
                }
                out.print(json.dumps(record, ensure_ascii=False), markup=False)
            else:
                out.print(p.id + defect_note(problem_errata(loaded, p.id)), markup=False)


@app.command(
    help=f"Verify the SHA-256 pins of the benchmark files; one line per file. Exit {pin_check.CHECK_EXIT_CODES}."
)
def check(
    benchmark: Annotated[
        list[str] | None,
        typer.Option(
            "--benchmark",
            metavar="NAME|FILE",
            help="Benchmark to check (repeatable): a registered NAME[@VARIANT] (each of its files) or a FILE "
            "(default: every registered benchmark, each from the copy the lookup finds: PUTNAM_BENCHMARK, the "
            "fetched data directory, else the copy packaged with putnam).",
        ),
    ] = None,
    benchmark_sha256: Annotated[
        list[str] | None,
        typer.Option(
            "--benchmark-sha256",
            metavar="HEX",
            help="The SHA-256 the --benchmark of the same position must have (repeatable: one per "
            "--benchmark, each naming one file, or none for the built-in pins).",
        ),
    ] = None,
) -> None:
    with input_errors():
        results = pin_check.check_pins(benchmark or [], benchmark_sha256 or [])
    for result in results:
        out.print(result.line(), markup=False)
    raise typer.Exit(pin_check.check_exit_code(results))


@app.command()
def verify(
    candidates: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="FILE...",
            help="Candidate files, or directories of them, named after their problem.",
            show_default=False,
        ),
    ] = None,
    bundle: Annotated[
        Path | None,
        typer.Option(
            "--bundle",
            help="Check a proof bundle (`putnam export -o`): its manifest, then every proof against your own "
            "pinned benchmark (prover and track from the bundle, which --prover and --track, if given, must match; "
            "the benchmark it names, unless --benchmark); "
            "prints claimed vs re-verified.",
            show_default=False,
        ),
    ] = None,
    prover: Annotated[
        str | None,
        typer.Option(
            "--prover",
            metavar="NAME",
            help=f"{PROVER_HELP} (default: from the candidates' file names, .lean or .v).",
            callback=prover_option_value,
            show_default=False,
        ),
    ] = None,
    gates: Annotated[
        Profile,
        typer.Option(
            "--gates", rich_help_panel=GATES_PANEL, help="Gate profile: text (G1-G3), fast (G1-G4), full (G1-G6)."
        ),
    ] = Profile.FULL,
    axle: AxleOpt = False,
    given_track: Annotated[
        Track | None,
        typer.Option(
            "--track",
            help="with-answer (the default) inlines the official answer (benchmarks without answer holes have only "
            "it); with --bundle, the track the bundle must claim.",
            show_default=False,
        ),
    ] = None,
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write all verdicts as JSON here.")] = None,
    show_official: Annotated[
        bool, typer.Option("--show-official", help="no-answer: print the official answers and the answer check.")
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", help="Candidates verified at once.", min=1)] = (os.cpu_count() or 1),
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Ignore cached verdicts and kept builds of statements; verify afresh.")
    ] = False,
    tool: ToolOpt = None,
    timeout: TimeoutOpt = GATE_DEFAULTS.timeout_seconds,
    memory_mb: MemoryMbOpt = GATE_DEFAULTS.memory_mb,
    unsafe_no_sandbox: UnsafeNoSandboxOpt = False,
    keep_going: KeepGoingOpt = False,
    max_candidate_bytes: MaxCandidateBytesOpt = DEFAULT_MAX_CANDIDATE_BYTES,
    allow_recursion: AllowRecursionOpt = False,
    statement_by_elaboration: StatementByElaborationOpt = False,
    comparator_timeout: ComparatorTimeoutOpt = GATE_DEFAULTS.comparator_timeout_seconds,
    comparator_memory_mb: ComparatorMemoryOpt = None,
    kernels: KernelsOpt = "lean",
    unsafe_comparator: UnsafeComparatorOpt = False,
    toolchain: ToolchainOpt = None,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    """Verify candidate proofs against the pinned benchmark. Exit 0 all accepted, 1 any rejected, 2 errors."""
    with input_errors():
        if bundle is not None and candidates:
            raise InputError("give candidate files or --bundle BUNDLE, not both")
        if bundle is None and not candidates:
            raise InputError("give candidate files (or directories of them) to verify, or --bundle BUNDLE")
        if json_out is not None:
            check_output_file(json_out, "--json")
        cache = None if no_cache else VerdictCache(checked_cache_dir())
        loaded_bundle = bundle_service.load_bundle(bundle) if bundle is not None else None
        track = given_track or Track.WITH_ANSWER
        if loaded_bundle is not None:
            _bundle_claims(loaded_bundle, prover, given_track)
        prover_name = loaded_bundle.prover if loaded_bundle else (prover or infer_prover(candidates or []))
        if benchmark is None and loaded_bundle is not None:  # the registered benchmark the bundle names
            benchmark = benchmark_files.request_for_file(loaded_bundle.benchmark_name)
        chosen_prover, loaded = load_benchmark(prover_name, benchmark, benchmark_sha256)
        require_track(loaded, (loaded_bundle.track if loaded_bundle else track).value)
        found = (
            []
            if loaded_bundle
            else discover_candidates(candidates or [], loaded, chosen_prover, max_candidate_bytes, warn=warning)
        )
        options = GateFlags(
            profile=gates,
            axle=axle,
            timeout_seconds=timeout,
            memory_mb=memory_mb,
            unsafe_no_sandbox=unsafe_no_sandbox,
            tools=tool_locations(tool or []),
            keep_going=keep_going,
            max_candidate_bytes=max_candidate_bytes,
            allow_recursion=allow_recursion,
            comparator_timeout_seconds=comparator_timeout,
            comparator_memory_mb=comparator_memory_mb,
            kernels=parse_kernels(kernels),
            unsafe_comparator=unsafe_comparator,
            toolchain=loaded.release(toolchain),
            statement_by_elaboration=statement_by_elaboration,
            kept_builds=not no_cache,
        ).options()
        if axle:
            require_gates(chosen_prover.name, options, {"G7"})
        for gate in unready_gates(chosen_prover.name, options):
            warning(f"{gate.name} cannot run here, so no verdict of this run is an acceptance: {gate.detail}")
        require_semantic_check(options)
        if allow_recursion:
            warning("--allow-recursion: candidate recursion is accepted (Rocq)")
        if unsafe_no_sandbox:
            warning("--unsafe-no-sandbox: tools run without isolation")
        settings = ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries)
        with open_verifier(settings, warning) as verifier:
            jobs = max(jobs, verifier.slots()) if settings else jobs
            if loaded_bundle is not None:
                _verify_bundle(loaded_bundle, loaded, options, jobs, cache, json_out, verifier, show_official)
            with verify_progress(len(found)) as advance:
                verdicts = verify_candidates(
                    found, chosen_prover, loaded, track, options, jobs, cache, advance, verifier
                )
        verdicts = sorted(verdicts, key=lambda v: (v.problem, v.candidate_path or ""))
        for verdict in verdicts:
            out.print(verdict_text(verdict, show_official), markup=False)
        if json_out is not None:
            write_verdicts_json(json_out, verdicts, loaded, show_official)
        cached = sum(v.cached for v in verdicts)
        out.print(
            f"{count_line(verdicts, apart_count(verdicts))} (profile {gates.value}"
            f"{' + axle' if axle else ''}, track {track.value}"
            f"{f', {cached} from cache' if cached else ''})",
            markup=False,
        )
        for note in dict.fromkeys(n for v in verdicts if (n := v.benchmark.get("toolchain", {}).get("note"))):
            out.print(f"toolchain: {note} (recorded in every verdict; --toolchain chooses another)", markup=False)
        raise typer.Exit(exit_code(verdicts))


def _verify_bundle(
    loaded: bundle_service.Bundle,
    benchmark: bench.Benchmark,
    options: VerifyOptions,
    jobs: int,
    cache: VerdictCache | None,
    json_out: Path | None,
    verifier: Verifier,
    show_official: bool,
) -> None:
    """``verify --bundle``: the bundle's claims re-verified (by ``verifier``), as a table; exits with
    verify's codes."""
    changed = [t for t in loaded.toolchains if t != get_prover(loaded.prover).toolchain_fingerprint(options)]
    if changed:
        shown = " | ".join(one_line(t) for t in changed)
        err.print(f"note: the bundle was made on another toolchain: {shown}", markup=False)
    with verify_progress(len(loaded.entries)) as advance:
        checks = bundle_service.check_bundle(
            loaded, benchmark, options, jobs, cache, lambda check: advance(check.verdict), verifier
        )
    for line in bundle_service.table_lines(checks):
        out.print(line, markup=False)
    verdicts = [c.verdict for c in checks]
    if json_out is not None:
        write_verdicts_json(json_out, verdicts, benchmark, show_official)
    claimed = sum(c.entry.claimed == "accepted" for c in checks)
    out.print(
        f"{loaded.path}: {len(checks)} proofs ({claimed} claimed accepted), re-verified here: "
        f"{count_line(verdicts, apart_count(verdicts), total=False)} "
        f"(profile {options.profile.value}"
        f"{' + axle' if options.axle else ''}, track {loaded.track.value}; benchmark sha256 {benchmark.sha256} "
        "matches the bundle's)",
        markup=False,
    )
    raise typer.Exit(exit_code(verdicts))


def _bundle_claims(loaded: bundle_service.Bundle, prover: str | None, track: Track | None) -> None:
    """A bundle is judged on the prover and track it claims; a checker's ``--prover``/``--track`` that differ
    are refused, never set aside: ``verify --bundle B --track with-answer`` judged a no-answer bundle on the
    no-answer track (where an answer the check cannot prove wrong is accepted) and exited 0."""
    asked_track = track.value if track is not None else None
    for flag, value, stated in (("--prover", prover, loaded.prover), ("--track", asked_track, loaded.track.value)):
        if value is not None and value != stated:
            raise InputError(
                f"{loaded.path}: the bundle claims {flag} {stated}, not the {value} you asked for; its proofs are "
                f"judged as what they claim to be. Drop {flag} to check that claim"
            )


@app.command()
def policy(
    prover: ProverOpt = "lean",
    tool: Annotated[
        list[str] | None,
        typer.Option(
            "--tool",
            metavar="NAME=PATH",
            help="Rocq: print the rules for this coqc, e.g. --tool coqc=/opt/coq/bin/coqc (its version's known "
            "kernel bugs decide the recursion rule; default: PUTNAM_COQC, else coqc on PATH).",
        ),
    ] = None,
) -> None:
    """Print exactly what a candidate may add to the statement and which constructs are forbidden."""
    with input_errors():
        out.print(get_kit(prover).policy_text(GateFlags(tools=tool_locations(tool or [])).options()), markup=False)
