"""The Rocq kit: bootstrap (apt), doctor's rows, the agent's Coq project and warm coqtop."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from putnam_solver.core.provers.rocq.kernel_bugs import recursion_refused
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.provers.rocq.toolchain import COQC, coq_library, detected_version, optional_tool
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.kits.installing import InstallRequest, InstallStep
from putnam_solver.kits.interactive import Interactive
from putnam_solver.kits.kit import Readiness
from putnam_solver.kits.rocq.install import install_plan
from putnam_solver.kits.rocq.policy_text import brief, describe
from putnam_solver.kits.rocq.status import kernel_bug_report, rocq_status

CANARIES = Path(__file__).parent / "canaries"
"""The selftest's canary suites for this prover, one folder each (``putnam_solver.selftest``)."""


class RocqKit:
    """The ProverKit of the Rocq prover."""

    selftest_suites: tuple[Path, ...] = (CANARIES / "rocq", CANARIES / "rocq-answers")

    def policy_text(self, options: VerifyOptions) -> str:
        """The policy, and whether the chosen Coq has the guard bugs that switch the recursion rule on."""
        return f"{describe(POLICY)}\nHere: {kernel_bug_report(detected_version(optional_tool(COQC, options)))}."

    def policy_brief(self, options: VerifyOptions) -> str:
        version = detected_version(optional_tool(COQC, options))
        return brief(POLICY, recursion_refused(options.of(RocqOptions).allow_recursion, version))

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        return [Readiness(*row) for row in rocq_status(options)]

    def workspace_files(self, options: VerifyOptions) -> dict[str, str]:
        """A Coq project file mapping the workspace to ``Putnam``, as the gates compile it."""
        return {"_CoqProject": "-Q . Putnam\n"}

    def library_roots(self, options: VerifyOptions) -> tuple[Path, ...]:
        """The standard library and installed packages of the `coqc` the gates run (none if missing)."""
        coqc = optional_tool(COQC, options)
        library = coq_library(coqc) if coqc is not None else None
        return () if library is None else (library / "theories", library / "user-contrib")

    def install_plan(self, request: InstallRequest) -> Sequence[InstallStep]:
        """The system packages (apt). The request's options are Lean's: refused, never silently ignored."""
        if given := request.options_given():
            raise InputError(
                f"{' and '.join(given)} {'applies' if len(given) == 1 else 'apply'} to the Lean toolchain only: "
                "bootstrap installs Coq and its libraries as system packages (apt), in the system's own "
                f"directories. Run `putnam bootstrap --prover rocq` without {' and '.join(given)}."
            )
        return install_plan()

    def interactive(self) -> Interactive:
        """A warm coqtop per import header (``interactive``), for the agent's tools only."""
        from putnam_solver.kits.rocq.sessions import RocqInteractive

        return RocqInteractive()
