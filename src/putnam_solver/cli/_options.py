"""What several commands share: their option types, benchmark loading and error handling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer

from putnam_solver import benchmark_files
from putnam_solver.clikit import error, warning
from putnam_solver.cluster.settings import RAY_EXTRA, RaySettings
from putnam_solver.core import benchmark as bench
from putnam_solver.core.benchmarks import (
    BenchmarkSpec,
    RegistryError,
    get_spec,
)
from putnam_solver.core.provers import (
    Prover,
    canonical_prover_name,
    get_prover,
    prover_aliases,
    prover_names,
)
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Verdict
from putnam_solver.errata import Erratum, defects
from putnam_solver.exit_codes import ExitCode
from putnam_solver.verifier.candidates import BY_ELABORATION
from putnam_solver.verifier.options import GateFlags

TOOL_VARIABLES = ", ".join(f"{t.name}: {t.env}" for name in prover_names() for t in get_prover(name).tools)
"""Each replaceable tool and the environment variable that names it, as ``--tool``'s help shows them."""


GATES_PANEL = "Gates"
"""The help panel of every gate flag, in every command that takes them."""
GATE_DEFAULTS = GateFlags()
"""What a gate flag means when it is not given (the options' own defaults)."""


def prover_option_value(value: str | None) -> str | None:
    """--prover: the registered name the value stands for (``coq`` is ``rocq``), else a usage error."""
    try:
        return None if value is None else canonical_prover_name(value)
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from exc


def _prover_names(values: list[str] | None) -> list[str] | None:
    return None if values is None else [str(prover_option_value(v)) for v in values]


def provers_option(what: str) -> Any:
    """--prover NAME, repeatable: ``what`` the option does with each prover named, all by default."""
    return typer.Option(
        "--prover", metavar="NAME", help=f"{what} (repeatable; default all). {PROVER_HELP}.", callback=_prover_names
    )


PROVER_HELP = f"Proof language: {', '.join(prover_names())}" + "".join(
    f" ({alias} means {name})" for alias, name in prover_aliases().items()
)


ProverOpt = Annotated[
    str, typer.Option("--prover", metavar="NAME", help=f"{PROVER_HELP}.", callback=prover_option_value)
]


BenchmarkOpt = Annotated[
    str | None,
    typer.Option(
        "--benchmark",
        metavar="NAME|PATH",
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
        rich_help_panel=GATES_PANEL,
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


AxleOpt = Annotated[
    bool,
    typer.Option(
        "--axle",
        rich_help_panel=GATES_PANEL,
        help="Also judge with the AXLE API (G7; key: AXLE_API_KEY); a pass needs it.",
    ),
]
TimeoutOpt = Annotated[
    float, typer.Option("--timeout", rich_help_panel=GATES_PANEL, help="Seconds per tool run.", min=1)
]
MemoryMbOpt = Annotated[
    int,
    typer.Option("--memory-mb", rich_help_panel=GATES_PANEL, help="Address-space cap per tool process (MB).", min=64),
]
UnsafeNoSandboxOpt = Annotated[
    bool,
    typer.Option(
        "--unsafe-no-sandbox",
        rich_help_panel=GATES_PANEL,
        help="Run tools without bubblewrap (recorded in every verdict).",
    ),
]
KeepGoingOpt = Annotated[
    bool,
    typer.Option(
        "--keep-going",
        rich_help_panel=GATES_PANEL,
        help="Run every gate even after one failed (slower; for audits).",
    ),
]
StatementByElaborationOpt = Annotated[
    bool, typer.Option("--statement-by-elaboration", rich_help_panel=GATES_PANEL, help=BY_ELABORATION)
]
ComparatorTimeoutOpt = Annotated[
    float,
    typer.Option(
        "--comparator-timeout",
        rich_help_panel=GATES_PANEL,
        help="Lean: seconds for G6 (comparator) per candidate.",
        min=1,
    ),
]
ComparatorMemoryOpt = Annotated[
    int | None,
    typer.Option(
        "--comparator-memory-mb",
        rich_help_panel=GATES_PANEL,
        help="Lean: G6 address-space cap (MB); default 8 GB + 1 GB per core.",
        min=64,
    ),
]
UnsafeComparatorOpt = Annotated[
    bool,
    typer.Option(
        "--unsafe-comparator",
        rich_help_panel=GATES_PANEL,
        help="Lean: run G6 even where AF_UNIX cannot be denied or root cannot be dropped (recorded in the verdict).",
    ),
]
AllowRecursionOpt = Annotated[
    bool,
    typer.Option(
        "--allow-recursion",
        rich_help_panel=GATES_PANEL,
        help="Rocq: accept candidate-defined recursion even on a Coq with known guard checker bugs "
        "(through which it can prove False; recorded in every verdict).",
    ),
]


ToolOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--tool",
        metavar="NAME=PATH",
        rich_help_panel=GATES_PANEL,
        help="Run this executable as tool NAME, e.g. --tool coqc=/opt/coq/bin/coqc (repeatable); each tool's "
        f"variable does the same ({TOOL_VARIABLES}); `putnam doctor` lists each prover's tools.",
    ),
]


KernelsOpt = Annotated[
    str,
    typer.Option(
        "--kernels",
        metavar="NAME,...",
        rich_help_panel=GATES_PANEL,
        help="Lean: kernels G6 requires: lean, or lean,nanoda (putnam bootstrap --nanoda).",
    ),
]


PinOpt = Annotated[
    str | None,
    typer.Option(
        "--benchmark-sha256", metavar="HEX", help="Pin the benchmark file to this SHA-256; a mismatch is an error."
    ),
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
        metavar="RELEASE",
        rich_help_panel=GATES_PANEL,
        help="Lean: the bootstrapped Lean/Mathlib release to judge with, e.g. v4.27.0 (default: the one the "
        "benchmark states; a different one is said in every verdict). Rocq: one Coq is used; --tool coqc=PATH.",
        show_default=False,
    ),
]


def _fail(message: str) -> typer.Exit:
    error(message)
    return typer.Exit(ExitCode.USAGE)


def load_benchmark(prover_name: str, benchmark: str | None, pin: str | None) -> tuple[Prover, bench.Benchmark]:
    prover = get_prover(prover_name)
    loaded = benchmark_files.open_benchmark(benchmark, prover.name, pin)
    if not loaded.pinned:
        warning(
            f"{loaded.path} is not pinned (no built-in pin, no --benchmark-sha256); "
            f"results are recorded as unpinned (sha256 {loaded.sha256})"
        )
    return prover, loaded


def defect_note(errata: Sequence[Erratum]) -> str:
    """How a line of output flags a statement with known errata (empty when it has none)."""
    shown = [e for e in errata if e.defective] or list(errata)
    if not shown:
        return ""
    what = "statement known defective" if shown[0].defective else "statement note"
    return f"  ({what}: {'; '.join(e.short() for e in shown)})"


def apart_count(verdicts: Sequence[Verdict]) -> str:
    """How many acceptances were on statements known defective (counted apart from solved), if any."""
    defective = sum(v.accepted and bool(defects(v)) for v in verdicts)
    return f" ({defective} of them on statements known defective, counted apart)" if defective else ""


def parse_kernels(text: str) -> tuple[str, ...]:
    return tuple(k.strip() for k in text.split(",") if k.strip())


class input_errors:
    """Turn the library's input and benchmark errors into a message and exit code 2 (``ExitCode.USAGE``)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, (InputError, bench.BenchmarkError)):
            raise _fail(str(exc)) from exc


def benchmark_spec(name: str) -> BenchmarkSpec:
    try:
        return get_spec(name)
    except RegistryError as exc:
        raise InputError(str(exc)) from exc


def benchmark_provers(benchmark: str | None) -> list[str]:
    """The provers ``--benchmark`` has statements for: a registered name's, else every prover."""
    request = benchmark_files.parse_request(benchmark)
    if request.name is None:
        return list(prover_names())
    return [p for p in prover_names() if p in benchmark_files.spec_provers(benchmark_spec(request.name))]


def ray_settings(address: str | None, cpus: float, memory_mb: int, retries: int) -> RaySettings | None:
    """``--ray`` and its resource flags as settings; None (the local pool) without ``--ray``."""
    return None if address is None else RaySettings(address, cpus, memory_mb, retries)


def typed_flags(ctx: typer.Context) -> frozenset[str]:
    """The options given on the command line (not defaults, not environment variables)."""
    from typer._click.core import ParameterSource  # typer 0.29 vendors click

    return frozenset(
        param.opts[0]
        for param in ctx.command.params
        if param.name and ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE
    )
