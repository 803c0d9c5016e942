"""``putnam doctor``: what is installed, and which gate of which prover can run here (and why not)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from putnam_solver.core.gatekit import ToolSpec
from putnam_solver.core.provers import Readiness, gate_readiness, get_prover
from putnam_solver.core.sandbox import landlock_status, sandbox_status
from putnam_solver.core.selftest import describe_last
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import PROFILE_GATES, Profile, VerifyOptions


@dataclass(frozen=True)
class ProverHealth:
    """One prover's tools and gates; ``full_ready`` when every gate of the full profile can run.

    ``selftest`` says when the canaries last went through this toolchain's gates and how they fared;
    ``choosable`` names the executables the user may replace (``--tool NAME=PATH``)."""

    prover: str
    tools: list[Readiness]
    gates: list[Readiness]
    selftest: Readiness
    choosable: tuple[ToolSpec, ...] = ()

    @property
    def full_ready(self) -> bool:
        needed = set(PROFILE_GATES[Profile.FULL])
        return all(g.ok for g in self.gates if g.name.split()[0] in needed)


@dataclass(frozen=True)
class Health:
    system: list[Readiness]
    provers: list[ProverHealth]

    @property
    def ready(self) -> bool:
        return all(p.full_ready for p in self.provers)


def check_health(provers: Sequence[str], options: VerifyOptions) -> Health:
    """Probe the sandbox, then each prover's tools and gates."""
    system = [Readiness("bubblewrap sandbox", *sandbox_status()), Readiness("Landlock", *landlock_status())]
    reports = []
    for name in provers:
        prover = get_prover(name)
        last = Readiness("last selftest", *describe_last(name, options))
        tools, gates = prover.tool_status(options), gate_readiness(prover, options)
        reports.append(ProverHealth(name, tools, gates, last, prover.tools))
    return Health(system, reports)


def require_gates(prover_name: str, options: VerifyOptions) -> None:
    """Refuse to start work whose acceptance gates cannot run here, saying what is missing."""
    wanted = set(PROFILE_GATES[options.profile]) | ({"G7"} if options.axle else set())
    missing = [g for g in gate_readiness(get_prover(prover_name), options) if g.name.split()[0] in wanted and not g.ok]
    if missing:
        lines = "; ".join(f"{g.name}: {g.detail}" for g in missing)
        raise InputError(
            f"the {options.profile.value} profile of {prover_name} cannot run here ({lines}). "
            "Run `putnam bootstrap` to install the toolchain and `putnam doctor` to see what is missing."
        )
