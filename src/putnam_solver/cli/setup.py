"""``putnam dataset fetch``, ``bootstrap``, ``selftest`` and ``doctor``: data, toolchains, health."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from putnam_solver import benchmark_files, datasets
from putnam_solver import toolchains as toolchain_service
from putnam_solver.cli._app import app, dataset_app, err, out
from putnam_solver.cli._options import (
    AxleOpt,
    ProverOpt,
    ToolchainOpt,
    ToolOpt,
    benchmark_spec,
    input_errors,
    provers_option,
)
from putnam_solver.core.benchmarks import (
    DEFAULT_BENCHMARK,
    benchmark_names,
)
from putnam_solver.core.provers import (
    prover_names,
)
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.directories import check_directory
from putnam_solver.doctor import EXIT_CODES as DOCTOR_EXIT_CODES
from putnam_solver.doctor import check_health
from putnam_solver.selftest import runner as selftest_service
from putnam_solver.verifier.options import GateFlags, tool_locations

app.add_typer(dataset_app, name="dataset")


def run_selftest(prover: str, options: VerifyOptions, jobs: int | None, final: bool = True) -> None:
    """Run the selftest and print its table and summary; when its record could not be written, the table is
    printed all the same (the canaries were judged), then the error about the record, and the exit is 2."""
    unrecorded: selftest_service.UnrecordedSelftest | None = None
    with input_errors():
        try:
            record = selftest_service.run_selftest(prover, options, jobs, lambda m: err.print(m, markup=False))
        except selftest_service.UnrecordedSelftest as exc:
            record, unrecorded = exc.record, exc
    for line in selftest_service.table_lines(record):
        out.print(line, markup=False)
    out.print(selftest_service.summary_line(record), markup=False)
    if unrecorded is not None:
        with input_errors():
            raise unrecorded
    if final or not record.passed:
        raise typer.Exit(0 if record.passed else 2)


@dataset_app.command("fetch")
def dataset_fetch(
    benchmark: Annotated[
        str, typer.Option("--benchmark", help=f"Which benchmark to build: {', '.join(benchmark_names())}.")
    ] = DEFAULT_BENCHMARK,
    source: Annotated[
        list[str] | None,
        typer.Option(
            "--source",
            metavar="[ID=]URL-OR-PATH",
            help="Git URL or local path to clone instead of an upstream: [ID=]URL-OR-PATH (repeatable; ID names "
            "one of the benchmark's upstreams, e.g. minif2f's lean, rocq, informal; optional when it has one).",
        ),
    ] = None,
    revision: Annotated[
        list[str] | None,
        typer.Option(
            "--revision", metavar="[ID=]REV", help="Commit to check out instead of the pinned one (repeatable)."
        ),
    ] = None,
    directory: Annotated[
        Path | None,
        typer.Option(
            "--dir", metavar="DIR", help="Where to write the JSONL files (default: the benchmark's data directory)."
        ),
    ] = None,
) -> None:
    """Clone a benchmark's upstreams at the pinned commits and build its JSONL files; every file must match its pin."""
    with input_errors():
        spec = benchmark_spec(benchmark)
        target = directory or benchmark_files.default_data_dir(spec.name)
        check_directory(target, f"--dir {target}" if directory else "the data directory")
        files = datasets.fetch_benchmark(
            spec.name,
            target,
            datasets.source_choices(spec, source or [], "--source"),
            datasets.source_choices(spec, revision or [], "--revision"),
            progress=lambda m: err.print(m, markup=False),
        )
    for f in files:
        out.print(f.describe(), markup=False)


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
    toolchain: Annotated[
        str | None,
        typer.Option(
            "--toolchain",
            metavar="RELEASE",
            help="Lean: the release to install, e.g. v4.27.0 (default: the one --benchmark states, else "
            "PutnamBench's); releases stay installed side by side.",
            show_default=False,
        ),
    ] = None,
    directory: Annotated[
        Path | None,
        typer.Option(
            "--dir",
            metavar="DIR",
            help="Where the Lean toolchain goes (default: $PUTNAM_TOOLCHAIN_DIR or the data dir).",
        ),
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
    with input_errors():
        if directory is not None:
            check_directory(directory, f"--dir {directory}")
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
        run_selftest(name, GateFlags(toolchain=release).options(), None, final=name == needs[-1][0])


@app.command()
def selftest(
    prover: ProverOpt = "lean",
    axle: AxleOpt = False,
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
    with input_errors():
        options = GateFlags(axle=axle, tools=tool_locations(tool or []), toolchain=toolchain).options()
        runs = selftest_service.selftest_runs(prover, options)
    for index, run in enumerate(runs):
        run_selftest(prover, run, jobs, final=index == len(runs) - 1)


@app.command(
    help="Show what is installed and, per prover, which gates can run here and where its benchmark data is; "
    "each benchmark's stated toolchain is held against the one its gates would use (DIFF: they differ, shown, "
    "not an error). " + DOCTOR_EXIT_CODES
)
def doctor(
    prover: Annotated[list[str] | None, provers_option("Check only this prover")] = None,
    tool: Annotated[
        list[str] | None,
        typer.Option(
            "--tool",
            metavar="NAME=PATH",
            help="Check this executable as tool NAME, e.g. --tool lean=/opt/lean/bin/lean (repeatable); the "
            "`choose` rows name the variable that does the same.",
        ),
    ] = None,
    benchmark: Annotated[
        str | None,
        typer.Option(
            "--benchmark",
            help="Check for this registered benchmark: its data and its stated toolchain.",
            show_default=False,
        ),
    ] = None,
    toolchain: Annotated[
        str | None,
        typer.Option(
            "--toolchain",
            metavar="RELEASE",
            help="Lean: the release to check, e.g. v4.27.0 (default: the one --benchmark states, else PutnamBench's).",
            show_default=False,
        ),
    ] = None,
) -> None:
    with input_errors():
        options = GateFlags(tools=tool_locations(tool or []), toolchain=toolchain).options()
        chosen = prover or [
            p
            for p in prover_names()
            if benchmark is None or p in benchmark_files.spec_provers(benchmark_spec(benchmark))
        ]
        health = check_health(chosen, options, benchmark, asked=bool(prover))
    for line in health.lines():
        out.print(line, markup=False)
    raise typer.Exit(health.exit_code)
