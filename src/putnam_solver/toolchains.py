"""``putnam bootstrap``: one entry point over each prover's installer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from putnam_solver.verify import InputError


class InstallStep(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def run(self, progress: Callable[[str], None]) -> None: ...


def bootstrap_plan(
    prover: str, directory: Path | None, build_mathlib: bool, nanoda: bool = False
) -> Sequence[InstallStep]:
    """The steps that install ``prover``'s pinned toolchain (each skips itself when already done)."""
    if prover == "lean":
        from putnam_solver.provers.lean.bootstrap import plan
        from putnam_solver.provers.lean.toolchain import toolchain_root

        return plan(directory or toolchain_root(), build_mathlib=build_mathlib, nanoda=nanoda)
    if prover == "rocq":
        from putnam_solver.provers.rocq.toolchain import install_plan

        return install_plan()
    raise InputError(f"unknown prover {prover!r} for bootstrap; choose lean or rocq")


def run_bootstrap(steps: Sequence[InstallStep], progress: Callable[[str], None]) -> None:
    """Run the steps in order; a failing step raises with the command and what to do."""
    from putnam_solver.provers.lean.bootstrap import BootstrapError
    from putnam_solver.provers.rocq.toolchain import RocqInstallError

    for step in steps:
        try:
            step.run(progress)
        except (BootstrapError, RocqInstallError) as exc:
            raise InputError(f"bootstrap step {step.name} failed: {exc}") from exc
