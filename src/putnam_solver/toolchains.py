"""``putnam bootstrap``: one entry point over each prover's installer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from putnam_solver.core.cache import check_cache_dir
from putnam_solver.core.provers import InstallError, InstallRequest, InstallStep, get_prover
from putnam_solver.core.selftest import records_dir
from putnam_solver.core.util import InputError


def bootstrap_plan(
    prover: str, directory: Path | None, build_mathlib: bool, nanoda: bool = False
) -> Sequence[InstallStep]:
    """The steps that install ``prover``'s pinned toolchain (each skips itself when already done).

    Bootstrap ends with a selftest that records its result in the cache directory: a cache directory
    that cannot be one is refused now, not after an install of hours."""
    check_cache_dir(records_dir())
    return get_prover(prover).install_plan(InstallRequest(directory, build_mathlib, nanoda))


def run_bootstrap(steps: Sequence[InstallStep], progress: Callable[[str], None]) -> None:
    """Run the steps in order; a failing step raises with the command and what to do."""
    for step in steps:
        try:
            step.run(progress)
        except InstallError as exc:
            raise InputError(f"bootstrap step {step.name} failed: {exc}") from exc
