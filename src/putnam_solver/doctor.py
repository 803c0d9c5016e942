"""``putnam doctor``: what is installed, and which gate of which prover can run here (and why not)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from putnam_solver import benchmark_files
from putnam_solver.benchmark_view import describe_toolchain
from putnam_solver.core import benchmark as bench
from putnam_solver.core.benchmarks import benchmark_names, get_spec
from putnam_solver.core.cache import default_cache_dir
from putnam_solver.core.gatekit import ToolSpec
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.sandbox import landlock_status, sandbox_status
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import PROFILE_GATES, Profile, VerifyOptions, toolchain_match
from putnam_solver.directories import check_cache_dir
from putnam_solver.extras import EXTRAS, NEEDED_BY, install_command, installed
from putnam_solver.kits import Readiness, get_kit
from putnam_solver.selftest.runner import describe_last, gate_readiness

EXIT_CODES = (
    "Exit 0 when, for every prover checked, the full profile can run here and the benchmark data is present; "
    "1 when something is missing (the MISS rows say what and how to get it); 2 on bad input. Without "
    "--prover, a prover whose compiler is not installed at all (Lean on a Rocq-only machine) is one line and "
    "does not count."
)
"""What ``putnam doctor`` exits with, for its ``--help`` and the README."""


@dataclass(frozen=True)
class ProverHealth:
    """One prover's tools, gates and benchmark data; ``full_ready`` when every gate of the full profile
    can run, ``ready`` when the benchmark is there too.

    ``selftest`` says when the canaries last went through this toolchain's gates and how they fared;
    ``choosable`` names the executables the user may replace (``--tool NAME=PATH``)."""

    prover: str
    tools: list[Readiness]
    gates: list[Readiness]
    benchmark: Readiness
    selftest: Readiness
    choosable: tuple[ToolSpec, ...] = ()
    benchmarks: list[Readiness] = field(default_factory=list)
    """Each registered benchmark file of this prover: the toolchain it was written for against the one
    its gates would run (not ready: they differ, or none is installed)."""

    @property
    def full_ready(self) -> bool:
        needed = set(PROFILE_GATES[Profile.FULL])
        return all(g.ok for g in self.gates if g.name.split()[0] in needed)

    @property
    def ready(self) -> bool:
        return self.full_ready and self.benchmark.ok

    @property
    def installed(self) -> bool:
        """Whether this prover's compiler is here at all (G4 can run): a machine without Lean is a Rocq
        machine, not a broken Lean one."""
        return any(g.ok for g in self.gates if g.name.startswith(COMPILE_GATE))


COMPILE_GATE = "G4"


@dataclass(frozen=True)
class Health:
    system: list[Readiness]
    provers: list[ProverHealth]
    asked: bool = True
    """The provers were named (``--prover``): each is reported in full and counts, installed or not."""

    @property
    def counted(self) -> list[ProverHealth]:
        """The provers the verdict is about: all when named, else those installed here (all when none is)."""
        installed = [p for p in self.provers if p.installed]
        return self.provers if self.asked or not installed else installed

    @property
    def ready(self) -> bool:
        return all(p.ready for p in self.counted)

    @property
    def exit_code(self) -> int:
        return 0 if self.ready else 1

    def lines(self) -> list[str]:
        """The report: system rows, then per prover its tools, gates, benchmark data and last selftest."""
        lines = ["system", *(_row(r) for r in self.system)]
        for report in self.provers:
            name = report.prover
            if report not in self.counted:
                lines.append(_not_installed(report, [p.prover for p in self.counted]))
                continue
            lines += [f"{name}: tools", *(_row(r) for r in report.tools)]
            lines += [
                f"  choose {spec.name}: --tool {spec.name}=PATH or {spec.env}=PATH; {spec.description}"
                for spec in report.choosable
            ]
            lines += [f"{name}: gates", *(_row(r) for r in report.gates)]
            lines.append(f"{name}: benchmarks (toolchain stated / used)")
            lines += [f"  {'ok  ' if r.ok else 'DIFF'} {r.name}: {r.detail}" for r in report.benchmarks]
            state = "can run" if report.full_ready else "CANNOT run here (see MISS above)"
            lines += [f"{name}: full profile {state}", f"{name}: {_row(report.benchmark).lstrip()}"]
            lines.append(f"{name}: {_row(report.selftest).lstrip()}")
        return lines


def _not_installed(report: ProverHealth, others: list[str]) -> str:
    """The one line for a prover whose compiler this machine does not have (not counted in the exit code)."""
    text = ", ".join(g.name.split()[0] for g in report.gates if g.ok)
    return (
        f"{report.prover}: not installed here (this machine has {' and '.join(others)} only): "
        f"only its text gates ({text}) run; "
        f"`putnam bootstrap --prover {report.prover}` installs it, `putnam doctor --prover {report.prover}` shows "
        "each missing part"
    )


def _row(row: Readiness) -> str:
    mark = "n/a " if not row.applies else "ok  " if row.ok else "MISS"
    return f"  {mark} {row.name}: {row.detail}"


def check_health(
    provers: Sequence[str], options: VerifyOptions, benchmark: str | None = None, asked: bool = True
) -> Health:
    """Probe the sandbox and the cache directory, then each prover's tools and gates (for the toolchain
    ``options`` chooses, else the one ``benchmark`` states), its benchmark data, and hold each benchmark's
    stated toolchain against the installed one. ``asked``: the user named these provers."""
    system = [
        Readiness("bubblewrap sandbox", *sandbox_status()),
        Readiness("Landlock", *landlock_status()),
        _cache_status(),
        extras_status(),
    ]
    reports = []
    for name in provers:
        prover = get_prover(name)
        chosen = _for_benchmark(options, prover.name, benchmark)
        last = Readiness("last selftest", *describe_last(prover.name, chosen))
        tools, gates = get_kit(prover.name).tool_status(chosen), gate_readiness(prover, chosen)
        data = benchmark_status(prover, benchmark)
        rows = benchmark_toolchains(prover.name, options, benchmark)
        reports.append(ProverHealth(prover.name, tools, gates, data, last, prover.tools, rows))
    return Health(system, reports, asked)


def _for_benchmark(options: VerifyOptions, prover: str, benchmark: str | None) -> VerifyOptions:
    if options.toolchain is not None or benchmark is None:
        return options
    files = [f for f in get_spec(benchmark).files if f.prover == prover]
    return dataclasses.replace(options, toolchain=files[0].toolchain.version) if files else options


def benchmark_toolchains(prover: str, options: VerifyOptions, benchmark: str | None = None) -> list[Readiness]:
    """For each benchmark file of ``prover``: the toolchain it states against the one its gates would run
    (the stated release when installed, unless ``options`` chooses one)."""
    checker = get_prover(prover)
    rows = []
    for spec in map(get_spec, [benchmark] if benchmark else benchmark_names()):
        for file in (f for f in spec.files if f.prover == prover):
            stated = file.toolchain
            used = checker.toolchain_version(
                dataclasses.replace(options, toolchain=options.toolchain or stated.version)
            )
            match = toolchain_match(prover, stated.version, used)
            label = f"{spec.name}{f'@{file.variant}' if file.several_variants else ''}"
            if used is None:
                what = f"not installed here (putnam bootstrap --benchmark {spec.name})"
            else:
                what = f"judged with {used}" + ("" if match["matches"] else " (differs; --toolchain or --tool chooses)")
            detail = f"written for {describe_toolchain(stated)}; {what}"
            rows.append(Readiness(label, bool(match["matches"]), detail))
    return rows


def _cache_status() -> Readiness:
    directory = default_cache_dir()
    try:
        check_cache_dir(directory)
    except InputError as exc:
        return Readiness("cache directory", False, str(exc))
    return Readiness("cache directory", True, str(directory))


def benchmark_status(prover: Prover, benchmark: str | None = None) -> Readiness:
    """Which copy of the prover's benchmark data (``benchmark``, else the default) is used, whether it is
    there and whether it matches its pin."""
    try:
        located = benchmark_files.locate_benchmark(benchmark, prover.name)
        loaded = bench.load_benchmark(located.path, split=located.split)
    except bench.BenchmarkError as exc:
        return Readiness("benchmark data", False, str(exc))
    pin = f"matches the pin ({loaded.pin_name})" if loaded.pinned else "unpinned (no pin for this file name)"
    return Readiness("benchmark data", True, f"{loaded.path} ({located.copy}): {len(loaded.problems)} problems, {pin}")


def extras_status() -> Readiness:
    """Which optional extras are installed, and the ``pip install`` of each missing one (never a failure:
    the gates need none of them)."""
    missing = [extra for extra in EXTRAS if not installed(extra)]
    have = ", ".join(extra for extra in EXTRAS if extra not in missing) or "none"
    hints = "; ".join(f"{NEEDED_BY[extra]}: {install_command(extra)}" for extra in missing)
    return Readiness("optional extras", True, f"installed: {have}" + (f"; missing: {hints}" if missing else ""))


def unready_gates(prover_name: str, options: VerifyOptions, gates: set[str] | None = None) -> list[Readiness]:
    """The gates (``gates``, default: the profile's and G7 with ``--axle``) that cannot run here, with why
    (for miniF2F's Lean release, G6: comparator cannot judge it, and which profile can)."""
    wanted = gates if gates is not None else set(PROFILE_GATES[options.profile]) | ({"G7"} if options.axle else set())
    return [g for g in gate_readiness(get_prover(prover_name), options) if g.name.split()[0] in wanted and not g.ok]


def require_gates(prover_name: str, options: VerifyOptions, gates: set[str] | None = None) -> None:
    """Refuse to start work whose acceptance gates cannot run here (``unready_gates``), saying what is
    missing. ``verify``, which reports a gate that cannot run in each verdict, asks this of G7 only: an
    AXLE that does not serve the release is refused up front."""
    missing = unready_gates(prover_name, options, gates)
    if missing:
        lines = "; ".join(f"{g.name}: {g.detail}" for g in missing)
        raise InputError(
            f"the {options.profile.value} profile of {prover_name} cannot run here ({lines}). "
            "Run `putnam bootstrap` to install the toolchain and `putnam doctor` to see what is missing."
        )
