"""``putnam bootstrap``: one entry point over each prover's installer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from putnam_solver.benchmark_files import file_for, spec_provers
from putnam_solver.core.benchmarks import RegistryError, get_spec
from putnam_solver.core.provers import get_prover, prover_names
from putnam_solver.core.selftest_record import records_dir
from putnam_solver.core.util import InputError
from putnam_solver.directories import check_cache_dir
from putnam_solver.kits import InstallError, InstallRequest, InstallStep, get_kit
from putnam_solver.kits.library_index import IndexStep
from putnam_solver.offline import BOOTSTRAP_OFFLINE, with_offline_hint
from putnam_solver.verifier.options import GateFlags


def bootstrap_plan(
    prover: str, directory: Path | None, build_mathlib: bool, nanoda: bool = False, toolchain: str | None = None
) -> Sequence[InstallStep]:
    """The steps that install ``prover``'s pinned toolchain (the ``toolchain`` release where it installs
    several side by side; each step skips itself when already done), then the index of its libraries'
    declarations for the agent's ranked search (``library_index.IndexStep``).

    Bootstrap ends with a selftest that records its result in the cache directory: a cache directory
    that cannot be one is refused now, not after an install of hours."""
    check_cache_dir(records_dir())
    kit = get_kit(prover)
    steps = kit.install_plan(InstallRequest(directory, build_mathlib, nanoda, toolchain))
    options = GateFlags(toolchain=toolchain).options()
    suffix = get_prover(prover).suffix
    return [*steps, IndexStep(lambda: kit.library_roots(options), suffix)]


def benchmark_needs(benchmark: str, prover: str | None, toolchain: str | None) -> list[tuple[str, str | None]]:
    """What ``putnam bootstrap --benchmark NAME`` installs: (prover, release) for each prover the benchmark
    has statements in (only ``prover`` if given), the release its record states unless ``toolchain``."""
    try:
        spec = get_spec(benchmark)
    except RegistryError as exc:
        raise InputError(str(exc)) from exc
    wanted = [p for p in spec_provers(spec) if p in prover_names() and (prover is None or p == prover)]
    if not wanted:
        raise InputError(
            f"{spec.title} has no statements for prover {prover!r}; it has: {', '.join(spec_provers(spec))}"
        )
    return [(p, toolchain or file_for(spec, p).toolchain.version) for p in wanted]


def run_bootstrap(steps: Sequence[InstallStep], progress: Callable[[str], None]) -> None:
    """Run the steps in order; a failing step raises with the command and what to do."""
    for step in steps:
        try:
            step.run(progress)
        except InstallError as exc:
            raise InputError(with_offline_hint(f"bootstrap step {step.name} failed: {exc}", BOOTSTRAP_OFFLINE)) from exc
