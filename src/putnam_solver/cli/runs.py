"""``putnam report``, ``audit`` and ``export``: what a run directory holds, checked and shared."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from putnam_solver.cli._app import app, err, out
from putnam_solver.cli._options import (
    GATE_DEFAULTS,
    AllowRecursionOpt,
    AxleOpt,
    KernelsOpt,
    PinOpt,
    RayCpusOpt,
    RayMemoryOpt,
    RayOpt,
    RayRetriesOpt,
    TimeoutOpt,
    ToolchainOpt,
    ToolOpt,
    input_errors,
    parse_kernels,
    ray_settings,
)
from putnam_solver.clikit import warning
from putnam_solver.cluster.ray import open_verifier
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.safe_write import check_output_file
from putnam_solver.verifier.options import GateFlags, tool_locations


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
    inline_plotly: Annotated[
        bool,
        typer.Option(
            "--inline-plotly",
            help="Put plotly's 5 MB script in the page (one file to send) instead of a file beside it.",
        ),
    ] = False,
) -> None:
    """Write one static HTML page (opens offline) of what a run did: solved, audited, cost, charts, a grid of
    the benchmark linking each problem to its evidence, gate rejections, rate limiting, every attempt.

    Exit 0 when written; 2 when a directory holds no run or the page cannot be written.
    """
    from putnam_solver.run.report import html as report_service  # plotly loads only for this command

    with input_errors():
        if output is not None:
            check_output_file(output, "-o", "report.html")
        path = report_service.build(run_dirs, compare, output, inline_plotly, warn=warning)
    out.print(str(path), markup=False)


@app.command()
def audit(
    run_dir: Annotated[
        Path, typer.Argument(metavar="RUN_DIR", help="The run directory `putnam solve` wrote (with ledger.sqlite).")
    ],
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
    axle: AxleOpt = False,
    kernels: KernelsOpt = "lean",
    timeout: TimeoutOpt = GATE_DEFAULTS.timeout_seconds,
    toolchain: ToolchainOpt = None,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    """Re-verify every stored pass of a run afresh, with your own benchmark, tools and gate options: the run's
    are only compared and reported; full profile, fresh sandbox, no cache; earlier audits are history.

    Exit 0 every pass confirmed; 1 a pass failed its audit; 2 refused (benchmark or toolchain changed,
    gates that cannot run) or an audit could not decide.
    """
    from putnam_solver.run import audit as audit_service  # the ledger's modules load only for this command

    settings = ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries)
    with input_errors(), open_verifier(settings, warning) as verifier:
        request = audit_service.AuditRequest(
            run_dir,
            jobs=max(jobs, verifier.slots()) if settings else jobs,
            allow_toolchain_change=allow_toolchain_change,
            benchmark=benchmark,
            benchmark_sha256=benchmark_sha256,
            options=GateFlags(
                axle=axle,
                timeout_seconds=timeout,
                tools=tool_locations(tool or []),
                allow_recursion=allow_recursion,
                kernels=parse_kernels(kernels),
                toolchain=toolchain,
            ).options(),
            verifier=verifier,
        )
        outcome = audit_service.audit_run(
            request, lambda m: err.print(m, markup=False), lambda m: out.print(m, markup=False)
        )
    for line in outcome.pass_at_k:
        out.print(line, markup=False)
    out.print(outcome.message, markup=False)
    raise typer.Exit(outcome.exit_code)


@app.command()
def export(
    run_dir: Annotated[
        Path, typer.Argument(metavar="RUN_DIR", help="The run directory `putnam solve` wrote (with ledger.sqlite).")
    ],
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
    from putnam_solver.run import export as export_service  # the ledger's modules load only for this command

    with input_errors():
        done = export_service.export_run(run_dir, output, proofs)
    for problem, why in done.skipped:
        err.print(f"warning: {problem} not exported: {why}", markup=False)
    for target in (done.bundle, done.proofs):
        if target is not None:
            out.print(f"{target}: {len(done.problems)} proofs", markup=False)
