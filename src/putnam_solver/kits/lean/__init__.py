"""The Lean kit: bootstrap, doctor's rows, the agent's Lake workspace and warm ``lean --server``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from putnam_solver.core.gatekit import explicit_tool
from putnam_solver.core.provers.lean.checks import POLICY
from putnam_solver.core.provers.lean.toolchain import (
    LEAN_TOOL,
    LeanNotFound,
    find_lean,
    lean_release,
    release_paths,
    toolchain_root,
)
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.kits.installing import InstallRequest, InstallStep
from putnam_solver.kits.interactive import Interactive
from putnam_solver.kits.kit import Readiness
from putnam_solver.kits.lean.install import plan
from putnam_solver.kits.lean.policy_text import brief, describe
from putnam_solver.kits.lean.status import toolchain_status

CANARIES = Path(__file__).parent / "canaries"
"""The selftest's canary suites for this prover, one folder each (``putnam_solver.selftest``)."""


class LeanKit:
    """The ProverKit of the Lean prover."""

    selftest_suites: tuple[Path, ...] = (CANARIES / "lean-core", CANARIES / "lean-mathlib", CANARIES / "lean-answers")

    def policy_text(self, options: VerifyOptions) -> str:
        return describe(POLICY)

    def policy_brief(self, options: VerifyOptions) -> str:
        return brief(POLICY)

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        rows = [Readiness(*row) for row in toolchain_status(toolchain_root(), lean_release(options.toolchain))]
        try:
            lean = find_lean(options)
            rows.insert(0, Readiness("lean used by the gates", True, f"{lean.version} ({lean.origin})"))
        except LeanNotFound as exc:
            rows.insert(0, Readiness("lean used by the gates", False, str(exc)))
        return rows

    def workspace_files(self, options: VerifyOptions) -> dict[str, str]:
        """A Lake project that reuses the bootstrapped Mathlib build, on the pinned Lean of the release."""
        paths = release_paths(options)
        lakefile = f'name = "putnam_attempt"\n\n[[require]]\nname = "mathlib"\npath = "{paths.mathlib.as_posix()}"\n'
        return {"lakefile.toml": lakefile, "lean-toolchain": paths.release.toolchain + "\n"}

    def library_roots(self, options: VerifyOptions) -> tuple[Path, ...]:
        """The bootstrapped project's packages (Mathlib and its dependencies) and Lean's own sources:
        those of every elan toolchain there, and of a `lean` the user chose."""
        paths = release_paths(options)
        toolchains = sorted((paths.elan_home / "toolchains").glob("*/src/lean"))
        chosen = explicit_tool(LEAN_TOOL, options)
        given = (chosen[0].resolve().parent.parent / "src" / "lean",) if chosen is not None else ()
        return (paths.project / ".lake" / "packages", *toolchains, *given)

    def install_plan(self, request: InstallRequest) -> Sequence[InstallStep]:
        return plan(
            request.directory or toolchain_root(),
            build_mathlib=request.build_mathlib,
            nanoda=request.nanoda,
            release=lean_release(request.toolchain),
        )

    def interactive(self) -> Interactive:
        """A warm ``lean --server`` per import header (``interactive``), for the agent's tools only."""
        from putnam_solver.kits.lean.sessions import LeanInteractive

        return LeanInteractive()
