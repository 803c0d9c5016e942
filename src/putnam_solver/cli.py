"""The ``putnam`` command. Thin: parse flags, call one library function, print, return an exit code.

Exit codes everywhere (``exit_codes.ExitCode``): 0 success (every candidate accepted); 1 a candidate
rejected; 2 bad usage or input, as Click exits on an unknown option or a bad value, and an
infrastructure error (a gate that could not run, a missing tool, a changed benchmark). ``solve`` exits 0
for a completed evaluation, solved or not, and adds 3 (a run budget stopped it early), 4 (unsolved, with
``--fail-on-unsolved``) and 130 (interrupted).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from putnam_solver import __version__, datasets
from putnam_solver import toolchains as toolchain_service
from putnam_solver.clikit import PutnamTyper, error, warning
from putnam_solver.cluster import RAY_EXTRA, RaySettings, open_verifier
from putnam_solver.core import benchmark as bench
from putnam_solver.core import bundle as bundle_service
from putnam_solver.core import pin_check
from putnam_solver.core import selftest as selftest_service
from putnam_solver.core.benchmarks import (
    DEFAULT_BENCHMARK,
    BenchmarkSpec,
    Erratum,
    RegistryError,
    benchmark_names,
    get_spec,
)
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.candidates import (
    BY_ELABORATION,
    count_line,
    discover_candidates,
    exit_code,
    infer_prover,
    require_semantic_check,
    verdict_text,
    verify_candidates,
    write_verdicts_json,
)
from putnam_solver.core.dispatch import Verifier
from putnam_solver.core.provers import (
    Prover,
    canonical_prover_name,
    get_prover,
    prover_aliases,
    prover_names,
    tool_locations,
)
from putnam_solver.core.util import InputError, check_output_file
from putnam_solver.core.verify import DEFAULT_MAX_CANDIDATE_BYTES, Profile, Track, Verdict, VerifyOptions
from putnam_solver.doctor import EXIT_CODES as DOCTOR_EXIT_CODES
from putnam_solver.doctor import check_health, require_gates, unready_gates
from putnam_solver.exit_codes import SOLVE_EXIT_CODES, ExitCode
from putnam_solver.run import audit as audit_service
from putnam_solver.run import export as export_service
from putnam_solver.run import solving as solve_service

app = PutnamTyper(
    name="putnam",
    help="Run and check formal proofs for PutnamBench, miniF2F and ProofNet; a proof counts only when every "
    "verification gate passes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
dataset_app = PutnamTyper(help="Build the pinned benchmark data files.", no_args_is_help=True)
app.add_typer(dataset_app, name="dataset")

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _prover_name(value: str | None) -> str | None:
    """--prover: the registered name the value stands for (``coq`` is ``rocq``), else a usage error."""
    try:
        return None if value is None else canonical_prover_name(value)
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from exc


def _prover_names(values: list[str] | None) -> list[str] | None:
    return None if values is None else [str(_prover_name(v)) for v in values]


def _provers_option(what: str) -> Any:
    """--prover NAME, repeatable: ``what`` the option does with each prover named, all by default."""
    return typer.Option(
        "--prover", metavar="NAME", help=f"{what} (repeatable; default all). {PROVER_HELP}.", callback=_prover_names
    )


PROVER_HELP = f"Proof language: {', '.join(prover_names())}" + "".join(
    f" ({alias} means {name})" for alias, name in prover_aliases().items()
)
ProverOpt = Annotated[str, typer.Option("--prover", metavar="NAME", help=f"{PROVER_HELP}.", callback=_prover_name)]
BenchmarkOpt = Annotated[
    str | None,
    typer.Option(
        "--benchmark",
        help="NAME[@VARIANT][:SPLIT] of a registered benchmark (putnambench, minif2f, minif2f:test, "
        "minif2f@published, proofnet:valid; looked up under $PUTNAM_BENCHMARK, then the data directory "
        "filled by `putnam dataset fetch`, then the copy packaged with putnam), or a JSONL PATH (default: "
        "$PUTNAM_BENCHMARK when it is a file, else putnambench).",
        show_default=False,
    ),
]
MaxCandidateBytesOpt = Annotated[
    int,
    typer.Option(
        "--max-candidate-bytes",
        min=1,
        help="Refuse candidate files larger than this many bytes before any gate reads them (default 1 MiB; "
        "published proofs stay under 150 KB).",
    ),
]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help="Run the gates as tasks on a Ray cluster: auto (the default when no address follows: the cluster "
        "`ray start` made on this machine), "
        "HOST:PORT of its head, ray://HOST:PORT, or local (a one-machine cluster for this command). Each node "
        "uses its own toolchain; a node whose toolchain fingerprint differs from this machine's is refused. "
        f"Needs {RAY_EXTRA} on every node.",
        show_default=False,
    ),
]
RayCpusOpt = Annotated[
    float, typer.Option("--ray-cpus", min=0.01, help="With --ray: CPUs each verification reserves on its node.")
]
RayMemoryOpt = Annotated[
    int,
    typer.Option("--ray-memory-mb", min=1, help="With --ray: memory (MB) each verification reserves on its node."),
]
RayRetriesOpt = Annotated[
    int,
    typer.Option(
        "--ray-retries",
        min=0,
        help="With --ray: times a verification is sent again after its worker or node died (then: error).",
    ),
]
AllowRecursionOpt = Annotated[
    bool,
    typer.Option(
        "--allow-recursion",
        help="Rocq: accept candidate-defined recursion even on a Coq with known guard checker bugs "
        "(through which it can prove False; recorded in every verdict).",
    ),
]
ToolOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--tool",
        metavar="NAME=PATH",
        help="Run this executable as tool NAME, e.g. --tool coqc=/opt/coq/bin/coqc (repeatable). "
        "`putnam doctor` lists each prover's tools and the environment variable that does the same.",
    ),
]
KernelsOpt = Annotated[
    str, typer.Option("--kernels", help="Kernels G6 requires: lean, or lean,nanoda (putnam bootstrap --nanoda).")
]
PinOpt = Annotated[
    str | None,
    typer.Option("--benchmark-sha256", help="Pin the benchmark file to this SHA-256; a mismatch is an error."),
]
ProblemOpt = Annotated[
    list[str] | None,
    typer.Option("--problem", help="Select this problem id (repeatable).", show_default=False),
]
MaxOpt = Annotated[int | None, typer.Option("--max-problems", help="Select at most N problems (by id order).")]
ToolchainOpt = Annotated[
    str | None,
    typer.Option(
        "--toolchain",
        help="Lean: the bootstrapped Lean/Mathlib release to judge with, e.g. v4.27.0 (default: the one the "
        "benchmark states; a different one is said in every verdict). Rocq: one Coq is used; --tool coqc=PATH.",
        show_default=False,
    ),
]


def _fail(message: str) -> typer.Exit:
    error(message)
    return typer.Exit(ExitCode.USAGE)


def _version(value: bool) -> None:
    if value:
        out.print(f"putnam (putnambench-solver) {__version__}", markup=False)
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version, is_eager=True)
    ] = False,
) -> None:
    pass


def _load(prover_name: str, benchmark: str | None, pin: str | None) -> tuple[Prover, bench.Benchmark]:
    prover = get_prover(prover_name)
    loaded = bench.open_benchmark(benchmark, prover.name, pin)
    if not loaded.pinned:
        warning(
            f"{loaded.path} is not pinned (no built-in pin, no --benchmark-sha256); "
            f"results are recorded as unpinned (sha256 {loaded.sha256})"
        )
    return prover, loaded


def _defect_note(errata: Sequence[Erratum]) -> str:
    """How a line of output flags a statement with known errata (empty when it has none)."""
    shown = [e for e in errata if e.defective] or list(errata)
    if not shown:
        return ""
    what = "statement known defective" if shown[0].defective else "statement note"
    return f"  ({what}: {'; '.join(e.short() for e in shown)})"


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
    with _errors():
        chosen_prover, loaded = _load(prover, benchmark, benchmark_sha256)
        selected = loaded.select(problem or (), max_problems)
        for p in selected:
            if as_json:
                record: dict[str, object] = {
                    "problem": p.id,
                    "module": p.module,
                    "statement_sha256": p.statement_sha256,
                    "has_answer": chosen_prover.has_answer(p),
                    "answer_forms": chosen_prover.answer_forms(p),
                    "benchmark_pinned": loaded.pinned,
                    **{k: v for k, v in loaded.verdict_record(p).items() if k != "toolchain_stated"},
                }
                out.print(json.dumps(record, ensure_ascii=False), markup=False)
            else:
                out.print(p.id + _defect_note(loaded.errata(p.id)), markup=False)


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
    with _errors():
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
            "pinned benchmark (prover and track from the bundle; the benchmark it names, unless --benchmark); "
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
            callback=_prover_name,
            show_default=False,
        ),
    ] = None,
    gates: Annotated[
        Profile, typer.Option("--gates", help="Gate profile: text (G1-G3), fast (G1-G4), full (G1-G6).")
    ] = Profile.FULL,
    axle: Annotated[bool, typer.Option("--axle", help="Also verify with the AXLE API (G7).")] = False,
    track: Annotated[
        Track,
        typer.Option(
            "--track", help="with-answer inlines the official answer (benchmarks without answer holes have only it)."
        ),
    ] = Track.WITH_ANSWER,
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write all verdicts as JSON here.")] = None,
    show_official: Annotated[
        bool, typer.Option("--show-official", help="no-answer: print the official answers and the answer check.")
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", help="Candidates verified at once.", min=1)] = (os.cpu_count() or 1),
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Ignore cached verdicts; verify afresh.")] = False,
    tool: ToolOpt = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per tool run.", min=1)] = 600.0,
    memory_mb: Annotated[
        int, typer.Option("--memory-mb", help="Address-space cap per tool process (MB).", min=64)
    ] = 16384,
    unsafe_no_sandbox: Annotated[
        bool,
        typer.Option("--unsafe-no-sandbox", help="Run tools without bubblewrap (recorded in every verdict)."),
    ] = False,
    keep_going: Annotated[
        bool, typer.Option("--keep-going", help="Run every gate even after one failed (slower; for audits).")
    ] = False,
    max_candidate_bytes: MaxCandidateBytesOpt = DEFAULT_MAX_CANDIDATE_BYTES,
    allow_recursion: AllowRecursionOpt = False,
    statement_by_elaboration: Annotated[bool, typer.Option("--statement-by-elaboration", help=BY_ELABORATION)] = False,
    comparator_timeout: Annotated[
        float, typer.Option("--comparator-timeout", help="Seconds for G6 (comparator) per candidate.", min=1)
    ] = 3600.0,
    comparator_memory_mb: Annotated[
        int | None,
        typer.Option("--comparator-memory-mb", help="G6 address-space cap (MB); default 8 GB + 1 GB per core.", min=64),
    ] = None,
    kernels: KernelsOpt = "lean",
    unsafe_comparator: Annotated[
        bool,
        typer.Option(
            "--unsafe-comparator",
            help="Run G6 even where AF_UNIX cannot be denied or root cannot be dropped (recorded in the verdict).",
        ),
    ] = False,
    toolchain: ToolchainOpt = None,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    """Verify candidate proofs against the pinned benchmark. Exit 0 all accepted, 1 any rejected, 2 errors."""
    with _errors():
        if bundle is not None and candidates:
            raise InputError("give candidate files or --bundle BUNDLE, not both")
        if bundle is None and not candidates:
            raise InputError("give candidate files (or directories of them) to verify, or --bundle BUNDLE")
        if json_out is not None:
            check_output_file(json_out, "--json")
        cache = None if no_cache else VerdictCache()
        loaded_bundle = bundle_service.load_bundle(bundle) if bundle is not None else None
        prover_name = loaded_bundle.prover if loaded_bundle else (prover or infer_prover(candidates or []))
        if benchmark is None and loaded_bundle is not None:  # the registered benchmark the bundle names
            benchmark = bench.request_for_file(loaded_bundle.benchmark_name)
        chosen_prover, loaded = _load(prover_name, benchmark, benchmark_sha256)
        loaded.require_track((loaded_bundle.track if loaded_bundle else track).value)
        found = (
            []
            if loaded_bundle
            else discover_candidates(candidates or [], loaded, chosen_prover, max_candidate_bytes, warn=warning)
        )
        options = VerifyOptions(
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
            kernels=_kernels(kernels),
            unsafe_comparator=unsafe_comparator,
            toolchain=loaded.release(toolchain),
            statement_by_elaboration=statement_by_elaboration,
        )
        if axle:
            require_gates(chosen_prover.name, options, {"G7"})
        for gate in unready_gates(chosen_prover.name, options):
            warning(f"{gate.name} cannot run here, so no verdict of this run is an acceptance: {gate.detail}")
        require_semantic_check(options)
        if allow_recursion:
            warning("--allow-recursion: candidate recursion is accepted (Rocq)")
        if unsafe_no_sandbox:
            warning("--unsafe-no-sandbox: tools run without isolation")
        settings = _ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries)
        with open_verifier(settings, warning) as verifier:
            jobs = max(jobs, verifier.slots()) if settings else jobs
            if loaded_bundle is not None:
                _verify_bundle(loaded_bundle, loaded, options, jobs, cache, json_out, verifier, show_official)
            with _progress(len(found)) as advance:
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
            f"{count_line(verdicts, _apart(verdicts))} (profile {gates.value}"
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
        err.print(f"note: the bundle was made on another toolchain: {' | '.join(changed)}", markup=False)
    with _progress(len(loaded.entries)) as advance:
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
        f"{count_line(verdicts, _apart(verdicts))} "
        f"(profile {options.profile.value}"
        f"{' + axle' if options.axle else ''}, track {loaded.track.value}; benchmark sha256 {benchmark.sha256} "
        "matches the bundle's)",
        markup=False,
    )
    raise typer.Exit(exit_code(verdicts))


def _apart(verdicts: Sequence[Verdict]) -> str:
    """How many acceptances were on statements known defective (counted apart from solved), if any."""
    defective = sum(v.accepted and bool(v.defects) for v in verdicts)
    return f" ({defective} of them on statements known defective, counted apart)" if defective else ""


def _kernels(text: str) -> tuple[str, ...]:
    return tuple(k.strip() for k in text.split(",") if k.strip())


class _progress:
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


class _errors:
    """Turn the library's input and benchmark errors into a message and exit code 2 (``ExitCode.USAGE``)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, (InputError, bench.BenchmarkError)):
            raise _fail(str(exc)) from exc


@app.command()
def policy(prover: ProverOpt = "lean", tool: ToolOpt = None) -> None:
    """Print exactly what a candidate may add to the statement and which constructs are forbidden."""
    with _errors():
        out.print(get_prover(prover).policy_text(VerifyOptions(tools=tool_locations(tool or []))), markup=False)


@dataset_app.command("fetch")
def dataset_fetch(
    benchmark: Annotated[
        str, typer.Option("--benchmark", help=f"Which benchmark to build: {', '.join(benchmark_names())}.")
    ] = DEFAULT_BENCHMARK,
    source: Annotated[
        list[str] | None,
        typer.Option(
            "--source",
            help="Git URL or local path to clone instead of an upstream: [ID=]URL-OR-PATH (repeatable; ID names "
            "one of the benchmark's upstreams, e.g. minif2f's lean, rocq, informal; optional when it has one).",
        ),
    ] = None,
    revision: Annotated[
        list[str] | None,
        typer.Option("--revision", help="Commit to check out instead of the pinned one: [ID=]REV (repeatable)."),
    ] = None,
    directory: Annotated[
        Path | None,
        typer.Option("--dir", help="Where to write the JSONL files (default: the benchmark's data directory)."),
    ] = None,
) -> None:
    """Clone a benchmark's upstreams at the pinned commits and build its JSONL files; every file must match its pin."""
    with _errors():
        spec = _spec(benchmark)
        target = directory or bench.default_data_dir(spec.name)
        files = datasets.fetch_benchmark(
            spec.name,
            target,
            datasets.source_choices(spec, source or [], "--source"),
            datasets.source_choices(spec, revision or [], "--revision"),
            progress=lambda m: err.print(m, markup=False),
        )
    for f in files:
        out.print(f.describe(), markup=False)


def _spec(name: str) -> BenchmarkSpec:
    try:
        return get_spec(name)
    except RegistryError as exc:
        raise InputError(str(exc)) from exc


def _benchmark_provers(benchmark: str | None) -> list[str]:
    """The provers ``--benchmark`` has statements for: a registered name's, else every prover."""
    request = bench.parse_request(benchmark)
    if request.name is None:
        return list(prover_names())
    return [p for p in prover_names() if p in _spec(request.name).provers()]


@app.command(
    help="Run a model on the benchmark; a problem counts as solved only with an accepted verdict.\n\n"
    + SOLVE_EXIT_CODES
)
def solve(
    ctx: typer.Context,
    model: Annotated[
        str | None,
        typer.Option(
            "--model", rich_help_panel="Model", help="Worker model, e.g. openai/gpt-5.5 (any Inspect AI provider)."
        ),
    ] = None,
    prover: ProverOpt = "lean",
    track: Annotated[Track, typer.Option("--track", help="with-answer inlines the official answer.")] = (
        Track.WITH_ANSWER
    ),
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    problem: ProblemOpt = None,
    max_problems: MaxOpt = None,
    reviewer_model: Annotated[
        str | None,
        typer.Option(
            "--reviewer-model", rich_help_panel="Model", help="Reviewer model (default: the worker's; `none` to skip)."
        ),
    ] = None,
    reasoning_effort: Annotated[
        str,
        typer.Option(
            "--reasoning-effort",
            rich_help_panel="Model",
            help="none, minimal, low, medium, high, xhigh or max; auto: xhigh for openai/, anthropic/ and "
            "google/ models (Inspect fits it to each model), off for other providers.",
        ),
    ] = "auto",
    agent: Annotated[
        str, typer.Option("--agent", rich_help_panel="Agent", help="Worker: react, codex or claude-code.")
    ] = "react",
    sandbox: Annotated[
        str, typer.Option("--sandbox", rich_help_panel="Agent", help="Inspect sandbox for workspaces: local, docker.")
    ] = ("local"),
    jobs: Annotated[
        int, typer.Option("--jobs", rich_help_panel="Concurrency", help="Concurrent model connections.", min=1)
    ] = 64,
    fallback_jobs: Annotated[
        int,
        typer.Option(
            "--fallback-jobs", rich_help_panel="Concurrency", help="Concurrency to fall back to on rate limits.", min=1
        ),
    ] = 16,
    max_turns: Annotated[
        int, typer.Option("--max-turns", rich_help_panel="Agent", help="Worker turns per attempt.", min=1)
    ] = 50,
    campaigns: Annotated[
        int | None,
        typer.Option(
            "--campaigns",
            rich_help_panel="Budgets and limits",
            help="Campaigns in the run (default 1; 0 = until solved or a budget runs out).",
            min=0,
        ),
    ] = None,
    worker_timeout: Annotated[
        float | None,
        typer.Option("--worker-timeout", rich_help_panel="Budgets and limits", help="Seconds per attempt."),
    ] = None,
    reviewer_timeout: Annotated[
        float | None,
        typer.Option("--reviewer-timeout", rich_help_panel="Budgets and limits", help="Seconds per review."),
    ] = None,
    token_limit: Annotated[
        int | None,
        typer.Option(
            "--token-limit", rich_help_panel="Budgets and limits", help="Tokens per problem, over all its attempts."
        ),
    ] = None,
    cost_limit: Annotated[
        float | None,
        typer.Option(
            "--cost-limit", rich_help_panel="Budgets and limits", help="Dollars per problem, over all its attempts."
        ),
    ] = None,
    run_token_limit: Annotated[
        int | None, typer.Option("--run-token-limit", rich_help_panel="Budgets and limits", help="Tokens for the run.")
    ] = None,
    run_cost_limit: Annotated[
        float | None,
        typer.Option("--run-cost-limit", rich_help_panel="Budgets and limits", help="Dollars for the run."),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(
            "--prices",
            rich_help_panel="Model",
            help='JSON price table: {"model": {"input": $/Mtok, "output": $/Mtok}}.',
        ),
    ] = None,
    model_base_url: Annotated[
        str | None,
        typer.Option("--model-base-url", rich_help_panel="Model", help="Base URL for an OpenAI-compatible server."),
    ] = None,
    axle: Annotated[
        bool, typer.Option("--axle", rich_help_panel="Gates", help="Acceptance also needs the AXLE API (G7).")
    ] = False,
    tool: ToolOpt = None,
    run_dir: Annotated[
        Path | None,
        typer.Option(
            "--run-dir", rich_help_panel="Run directory and output", help="Run directory (default runs/<time>)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            rich_help_panel="Run directory and output",
            help="Continue the run in this directory with its settings (may raise --campaigns and the run "
            "budgets, and change --jobs, --fallback-jobs, --model-base-url).",
        ),
    ] = None,
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh",
            rich_help_panel="Run directory and output",
            help="Cold restarts: do not carry candidates into later campaigns.",
        ),
    ] = False,
    list_only: Annotated[
        bool,
        typer.Option(
            "--list-only", rich_help_panel="Run directory and output", help="Print the selected problems and stop."
        ),
    ] = False,
    prepare_only: Annotated[
        bool,
        typer.Option(
            "--prepare-only",
            rich_help_panel="Run directory and output",
            help="Record the run and write its workspaces and prompts; call no model. `--resume RUN_DIR` starts it.",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", rich_help_panel="Run directory and output", help="Log lines instead of the live view."),
    ] = False,
    kernels: KernelsOpt = "lean",
    allow_recursion: AllowRecursionOpt = False,
    toolchain: ToolchainOpt = None,
    without: Annotated[
        str | None,
        typer.Option(
            "--without",
            rich_help_panel="Agent",
            help="Turn parts of the react worker off, comma-separated: warm (check with the cold gates), "
            "goals (no goals tool), lemmas (no drafts with holes, prove_lemma or lemma cache), plan (no plan "
            "asked first). Acceptance is the same either way.",
        ),
    ] = None,
    lemma_turns: Annotated[
        int,
        typer.Option("--lemma-turns", rich_help_panel="Agent", help="Turns of each prove_lemma sub-attempt.", min=1),
    ] = 12,
    lemma_token_limit: Annotated[
        int | None,
        typer.Option(
            "--lemma-token-limit",
            rich_help_panel="Agent",
            help="Tokens of each prove_lemma sub-attempt (within its attempt's).",
        ),
    ] = None,
    audit: Annotated[
        bool,
        typer.Option(
            "--audit",
            rich_help_panel="Run directory and output",
            help="At the end, re-verify every stored pass afresh (`putnam audit`); exit 1 if one is not confirmed.",
        ),
    ] = False,
    fail_on_unsolved: Annotated[
        bool,
        typer.Option(
            "--fail-on-unsolved",
            rich_help_panel="Run directory and output",
            help="Exit 4 when the evaluation completes with problems unresolved (default: exit 0, a normal result).",
        ),
    ] = False,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    from putnam_solver.run.report.progress import LogLineProgress, ProgressSink, RichProgress

    with _errors():
        tools = tool_locations(tool or [])
    flags = solve_service.SolveFlags(
        model=model,
        prover=prover,
        track=track,
        benchmark=benchmark,
        benchmark_sha256=benchmark_sha256,
        problems=tuple(problem or ()),
        max_problems=max_problems,
        reviewer_model=reviewer_model,
        reasoning_effort=reasoning_effort,
        agent=agent,
        sandbox=sandbox,
        jobs=jobs,
        fallback_jobs=fallback_jobs,
        max_turns=max_turns,
        campaigns=campaigns,
        worker_timeout=worker_timeout,
        reviewer_timeout=reviewer_timeout,
        token_limit=token_limit,
        cost_limit=cost_limit,
        run_token_limit=run_token_limit,
        run_cost_limit=run_cost_limit,
        prices=prices,
        model_base_url=model_base_url,
        axle=axle,
        tools=tools,
        allow_recursion=allow_recursion,
        kernels=_kernels(kernels),
        toolchain=toolchain,
        without=tuple(p.strip() for p in (without or "").split(",") if p.strip()),
        lemma_turns=lemma_turns,
        lemma_token_limit=lemma_token_limit,
        run_dir=run_dir,
        resume=resume,
        fresh=fresh,
        given=_typed_flags(ctx),
        ray=_ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries),
    )
    action = (
        solve_service.Action.LIST
        if list_only
        else solve_service.Action.PREPARE
        if prepare_only
        else solve_service.Action.RUN
    )

    def view() -> ProgressSink:
        return LogLineProgress(sys.stderr) if quiet or not err.is_terminal else RichProgress(err)

    result = solve_service.solve_command(
        flags, action, lambda m: err.print(m, markup=False), view, audit, fail_on_unsolved
    )
    for line in result.stdout:
        out.print(line, markup=False)
    if result.exit_code == ExitCode.SUCCESS:
        if result.message:
            out.print(result.message, markup=False)
    elif result.exit_code == ExitCode.USAGE:
        err.print(f"[red]error:[/red] {escape(result.message)}")
    else:
        err.print(result.message, markup=False)
    if result.report:
        err.print(result.report, markup=False)
    raise typer.Exit(result.exit_code)


def _ray_settings(address: str | None, cpus: float, memory_mb: int, retries: int) -> RaySettings | None:
    """``--ray`` and its resource flags as settings; None (the local pool) without ``--ray``."""
    return None if address is None else RaySettings(address, cpus, memory_mb, retries)


def _typed_flags(ctx: typer.Context) -> frozenset[str]:
    """The options given on the command line (not defaults, not environment variables)."""
    from typer._click.core import ParameterSource  # typer 0.29 vendors click

    return frozenset(
        param.opts[0]
        for param in ctx.command.params
        if param.name and ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE
    )


@app.command()
def report(
    run_dirs: Annotated[
        list[Path], typer.Argument(metavar="RUN_DIR...", help="A run directory of putnam solve (two with --compare).")
    ],
    compare: Annotated[
        bool, typer.Option("--compare", help="Show two runs side by side: putnam report --compare RUN_A RUN_B.")
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Write the page here (default RUN_DIR/report.html; with --compare RUN_A/compare-<RUN_B>.html).",
        ),
    ] = None,
) -> None:
    """Write one static HTML page (opens offline) of what a run did: solved, audited, cost, charts, a grid of
    the benchmark linking each problem to its evidence, gate rejections, rate limiting, every attempt.

    Exit 0 when written; 2 when a directory holds no run or the page cannot be written.
    """
    from putnam_solver.run.report import html as report_service  # plotly loads only for this command

    with _errors():
        path = report_service.build(run_dirs, compare, output)
    out.print(str(path), markup=False)


@app.command()
def audit(
    run_dir: Annotated[Path, typer.Argument(help="The run directory `putnam solve` wrote (with ledger.sqlite).")],
    jobs: Annotated[int, typer.Option("--jobs", help="Passes re-verified at once.", min=1)] = (os.cpu_count() or 1),
    allow_toolchain_change: Annotated[
        bool,
        typer.Option(
            "--allow-toolchain-change",
            help="Audit on a toolchain other than the run's (recorded in every audit row).",
        ),
    ] = False,
    benchmark: Annotated[
        str | None,
        typer.Option(
            "--benchmark",
            metavar="PATH|NAME",
            help="The benchmark to judge against, a PATH or a registered NAME (default: your own copy of the "
            "registered benchmark the run names; never a file because the run names it); its bytes must be "
            "the run's.",
            show_default=False,
        ),
    ] = None,
    benchmark_sha256: PinOpt = None,
    tool: ToolOpt = None,
    allow_recursion: AllowRecursionOpt = False,
    axle: Annotated[bool, typer.Option("--axle", help="Also verify with the AXLE API (G7).")] = False,
    kernels: KernelsOpt = "lean",
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per tool run.", min=1)] = 600.0,
    toolchain: ToolchainOpt = None,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    """Re-verify every stored pass of a run afresh with your own benchmark, tools and gate options (the run's
    are only compared and reported): full profile, fresh sandbox, no cache; earlier audits are history.

    Exit 0 every pass confirmed; 1 a pass failed its audit; 2 refused (benchmark or toolchain changed,
    gates that cannot run) or an audit could not decide.
    """
    settings = _ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries)
    with _errors(), open_verifier(settings, warning) as verifier:
        request = audit_service.AuditRequest(
            run_dir,
            jobs=max(jobs, verifier.slots()) if settings else jobs,
            allow_toolchain_change=allow_toolchain_change,
            benchmark=benchmark,
            benchmark_sha256=benchmark_sha256,
            options=VerifyOptions(
                axle=axle,
                timeout_seconds=timeout,
                tools=tool_locations(tool or []),
                allow_recursion=allow_recursion,
                kernels=_kernels(kernels),
                toolchain=toolchain,
            ),
            verifier=verifier,
        )
        outcome = audit_service.audit_run(
            request, lambda m: err.print(m, markup=False), lambda m: out.print(m, markup=False)
        )
    out.print(outcome.message, markup=False)
    raise typer.Exit(outcome.exit_code)


@app.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="The run directory `putnam solve` wrote (with ledger.sqlite).")],
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Write a proof bundle here: a .tar.gz (or .tgz, .tar) archive, else a directory.",
            show_default=False,
        ),
    ] = None,
    proofs: Annotated[
        Path | None,
        typer.Option(
            "--proofs",
            help="Write a PutnamBench-style proof folder here: one <problem>.lean (or .v) per solved problem.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Export a run's verified passes as a proof bundle and/or a proof folder, from the ledger alone.

    A pass whose newest audit did not confirm it is left out and named. Exit 0 exported; 2 nothing to
    export, an existing target or no run there.
    """
    with _errors():
        done = export_service.export_run(run_dir, output, proofs)
    for problem, why in done.skipped:
        err.print(f"warning: {problem} not exported: {why}", markup=False)
    for target in (done.bundle, done.proofs):
        if target is not None:
            out.print(f"{target}: {len(done.problems)} proofs", markup=False)


@app.command()
def bootstrap(
    prover: Annotated[
        str | None,
        typer.Option(
            "--prover",
            help=f"Proof language: {', '.join(prover_names())} (default: lean, or every one --benchmark has).",
            show_default=False,
        ),
    ] = None,
    benchmark: Annotated[
        str | None,
        typer.Option(
            "--benchmark",
            help="Install what this registered benchmark needs: the toolchain its record states, per prover.",
            show_default=False,
        ),
    ] = None,
    toolchain: ToolchainOpt = None,
    directory: Annotated[
        Path | None,
        typer.Option("--dir", help="Where the Lean toolchain goes (default: $PUTNAM_TOOLCHAIN_DIR or the data dir)."),
    ] = None,
    build_mathlib: Annotated[
        bool, typer.Option("--build-mathlib", help="Build Mathlib from source instead of fetching its cache.")
    ] = False,
    nanoda: Annotated[
        bool, typer.Option("--nanoda", help="Also build the nanoda kernel (cargo) for G6 --kernels lean,nanoda.")
    ] = False,
) -> None:
    """Install the pinned toolchain (needs internet), then run `putnam selftest` on it (same exit codes).

    Releases install side by side (one Lake project per pinned Mathlib). Idempotent: finished steps are
    skipped."""
    with _errors():
        if benchmark is not None:
            needs = toolchain_service.benchmark_needs(benchmark, prover, toolchain)
        else:
            needs = [(prover or "lean", toolchain)]
        for name, release in needs:
            steps = toolchain_service.bootstrap_plan(name, directory, build_mathlib, nanoda, release)
            for step in steps:
                out.print(f"- {name}: {step.name}: {step.description}", markup=False)
            toolchain_service.run_bootstrap(steps, lambda m: err.print(m, markup=False))
    for name, release in needs:
        out.print(f"bootstrap of {name} finished; testing its gates with the selftest canaries", markup=False)
        _selftest(name, VerifyOptions(toolchain=release), None, final=name == needs[-1][0])


@app.command()
def selftest(
    prover: ProverOpt = "lean",
    axle: Annotated[bool, typer.Option("--axle", help="Also put the canaries through the AXLE API (G7).")] = False,
    tool: ToolOpt = None,
    jobs: Annotated[int | None, typer.Option("--jobs", help="Canaries verified at once (default: cores).", min=1)] = (
        None
    ),
    toolchain: ToolchainOpt = None,
) -> None:
    """Put known-good and known-bad canaries through every gate of this toolchain and print a table.

    Without --toolchain, every installed Lean release is tested in turn. Exit 0 when every gate that can
    run here judged every canary right (the table names the gates and canary sets that could not run, and
    why); 2 on any surprise: a known-bad canary accepted, a known-good one refused, or a gate that could
    not run although `putnam doctor` says it can.
    """
    with _errors():
        options = VerifyOptions(axle=axle, tools=tool_locations(tool or []), toolchain=toolchain)
        runs = selftest_service.selftest_runs(prover, options)
    for index, run in enumerate(runs):
        _selftest(prover, run, jobs, final=index == len(runs) - 1)


def _selftest(prover: str, options: VerifyOptions, jobs: int | None, final: bool = True) -> None:
    with _errors():
        record = selftest_service.run_selftest(prover, options, jobs, lambda m: err.print(m, markup=False))
    for line in selftest_service.table_lines(record):
        out.print(line, markup=False)
    out.print(selftest_service.summary_line(record), markup=False)
    if final or not record.passed:
        raise typer.Exit(0 if record.passed else 2)


@app.command("mcp")
def mcp_server(
    transport: Annotated[
        str, typer.Option("--transport", help="stdio (the client starts this command) or http (streamable HTTP).")
    ] = "stdio",
    host: Annotated[str, typer.Option("--host", help="HTTP: the address to listen on (keep it loopback).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", help="HTTP: the port (0: a free one, announced on stderr).", min=0)] = (
        8000
    ),
    prover: ProverOpt = "lean",
    track: Annotated[
        Track,
        typer.Option(
            "--track", help="The default track; a no-answer server never shows or judges with-answer statements."
        ),
    ] = Track.WITH_ANSWER,
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    tool: ToolOpt = None,
    max_candidate_bytes: MaxCandidateBytesOpt = DEFAULT_MAX_CANDIDATE_BYTES,
    allow_recursion: AllowRecursionOpt = False,
    kernels: KernelsOpt = "lean",
    toolchain: ToolchainOpt = None,
) -> None:
    """Serve the benchmark and the gates as MCP tools for Claude Code, Codex, an IDE or any MCP client.

    Tools: list_problems, get_statement, check (fast profile, compact diagnostics), goals, search and
    verify (full profile, the verdict JSON of `putnam verify --json`); every gate runs here, in its
    sandbox. Over stdio, nothing but the protocol is written to stdout. Exit 2 on bad input.
    """
    with _errors():
        from putnam_solver import mcp as mcp_service  # the MCP SDK loads only for this command (extras.py)

        if transport not in mcp_service.TRANSPORTS:
            raise InputError(f"--transport {transport!r}: choose {' or '.join(mcp_service.TRANSPORTS)}")
        chosen_prover, loaded = _load(prover, benchmark, benchmark_sha256)
        loaded.require_track(track.value)
        options = VerifyOptions(
            tools=tool_locations(tool or []),
            max_candidate_bytes=max_candidate_bytes,
            allow_recursion=allow_recursion,
            kernels=_kernels(kernels),
            toolchain=loaded.release(toolchain),
        )
        settings = mcp_service.McpSettings(chosen_prover, loaded, track, options)
        mcp_service.run_server(settings, "http" if transport == "http" else "stdio", host, port)


@app.command()
def serve(
    keys: Annotated[
        Path | None,
        typer.Option(
            "--keys",
            help="API keys file: one key per line, as KEY, NAME KEY or NAME KEY LIMIT (# starts a comment). "
            "Clients send `Authorization: Bearer KEY`. Without it, the same lines from PUTNAM_SERVE_KEYS "
            "(`;` also ends a line).",
            show_default=False,
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).", min=0, max=65535)] = 8000,
    prover: Annotated[list[str] | None, _provers_option("Serve this prover")] = None,
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Verifications run at once.", min=1)] = (os.cpu_count() or 1),
    per_key: Annotated[
        int,
        typer.Option("--per-key-limit", help="Requests in flight per key; more get 429 (a key's LIMIT wins).", min=1),
    ] = 4,
    max_batch: Annotated[int, typer.Option("--max-batch", help="Items per batch request.", min=1)] = 64,
    max_body_bytes: Annotated[
        int, typer.Option("--max-body-bytes", help="Bytes per request body; larger bodies get 413 unread.", min=1024)
    ] = 8 << 20,
    max_candidate_bytes: MaxCandidateBytesOpt = DEFAULT_MAX_CANDIDATE_BYTES,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per tool run.", min=1)] = 600.0,
    memory_mb: Annotated[
        int, typer.Option("--memory-mb", help="Address-space cap per tool process (MB).", min=64)
    ] = 16384,
    tool: ToolOpt = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Ignore cached verdicts; verify afresh.")] = False,
    no_selftest: Annotated[
        bool,
        typer.Option(
            "--no-selftest",
            help="Do not run the selftest at start when this toolchain has none that passed (the server is "
            "then not ready, and verifies nothing, until `putnam selftest` passes).",
        ),
    ] = False,
    toolchain: ToolchainOpt = None,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    """Serve the verification gates over HTTP: POST /verify, POST /verify/batch, GET /health, GET /ready,
    the OpenAPI schema at /openapi.json. Runs until interrupted. Exit 2 when it cannot start."""
    with _errors():
        from putnam_solver.serve import Limits, load_config, run_server  # the serve extra (extras.py)

        options = VerifyOptions(
            timeout_seconds=timeout,
            memory_mb=memory_mb,
            tools=tool_locations(tool or []),
            max_candidate_bytes=max_candidate_bytes,
            toolchain=toolchain,
        )
        limits = Limits(per_key=per_key, batch_items=max_batch, body_bytes=max_body_bytes)
        config = load_config(
            keys,
            prover or _benchmark_provers(benchmark),
            benchmark,
            benchmark_sha256,
            options,
            jobs,
            limits,
            cache=not no_cache,
            run_selftest=not no_selftest,
        )
        settings = _ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries)
        run_server(config, host, port, lambda line: out.print(line, markup=False), settings)


@app.command(
    help="Show what is installed and, per prover, which gates can run here and where its benchmark data is; "
    "each benchmark's stated toolchain is held against the one its gates would use (DIFF: they differ, shown, "
    "not an error). " + DOCTOR_EXIT_CODES
)
def doctor(
    prover: Annotated[list[str] | None, _provers_option("Check only this prover")] = None,
    tool: ToolOpt = None,
    benchmark: Annotated[
        str | None,
        typer.Option(
            "--benchmark",
            help="Check for this registered benchmark: its data and its stated toolchain.",
            show_default=False,
        ),
    ] = None,
    toolchain: ToolchainOpt = None,
) -> None:
    with _errors():
        options = VerifyOptions(tools=tool_locations(tool or []), toolchain=toolchain)
        chosen = prover or [p for p in prover_names() if benchmark is None or p in _spec(benchmark).provers()]
        health = check_health(chosen, options, benchmark)
    for line in health.lines():
        out.print(line, markup=False)
    raise typer.Exit(health.exit_code)


def main() -> None:
    """Console entry point."""
    app()
