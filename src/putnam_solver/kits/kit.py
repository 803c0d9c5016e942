"""The prover kit: what the rest of the tree asks of a proof language beyond its gates.

The trusted package knows a prover only by its gates (``putnam_solver.core.provers``). Everything else a
proof language brings (the toolchain installer, how healthy the installed tools are, the files and
warm sessions of an agent's workspace, where its library sources are, the policy written for people
and for the agent, the selftest canaries) is its kit, registered under the same name in the
entry-point group ``putnam_solver.kits``. A kit may import the trusted package; the trusted package never
imports a kit, so none of this can change a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from putnam_solver.core.provers import canonical_prover_name
from putnam_solver.core.registry import load_plugin
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.kits.installing import InstallRequest, InstallStep

if TYPE_CHECKING:
    from putnam_solver.kits.interactive import Interactive

KITS_GROUP = "putnam_solver.kits"
"""The entry-point group a kit registers in, under its prover's name: ``NAME = "module:Factory"``."""


@dataclass(frozen=True)
class Readiness:
    """Whether a tool or a gate can run here; ``detail`` says where it is, or what to do if not."""

    name: str
    ok: bool
    detail: str
    applies: bool = True
    """False for a row that does not apply here (a gate the prover does not have): shown as n/a."""


class ProverKit(Protocol):
    """What a proof language offers beyond its gates; never part of acceptance."""

    selftest_suites: tuple[Path, ...]
    """The folders of the canary suites ``putnam selftest`` runs (shipped in the kit's own folder)."""

    def policy_text(self, options: VerifyOptions) -> str:
        """What a candidate may add and what is forbidden, for users and docs (rules that depend on the
        installed tools are stated for the ones ``options`` selects)."""
        ...

    def policy_brief(self, options: VerifyOptions) -> str:
        """The rules of ``policy_text`` a worker needs while proving, without their reasons: what the
        agent's standing prompt carries (a rejection names the rule and its reason)."""
        ...

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        """Installed tools, their versions and locations (for ``putnam doctor``)."""
        ...

    def workspace_files(self, options: VerifyOptions) -> dict[str, str]:
        """Project files an agent's workspace needs beside the statement file, by name (for the toolchain
        ``options`` selects)."""
        ...

    def library_roots(self, options: VerifyOptions) -> tuple[Path, ...]:
        """Directories of library sources the agent's ``search`` looks in (absent ones are skipped)."""
        ...

    def install_plan(self, request: InstallRequest) -> Sequence[InstallStep]:
        """The steps that install this prover's pinned toolchain."""
        ...

    def interactive(self) -> Interactive | None:
        """What the agent's tools may use beyond the gates (``kits.sessions``): warm checker sessions,
        proof states, lemma holes. None: the agent's ``check`` runs the cold gates and there is no
        ``goals`` or ``prove_lemma``."""
        ...


def get_kit(prover: str) -> ProverKit:
    """The kit registered for ``prover`` (or an alias of it); an unknown prover is the caller's input
    error, a prover without a kit a PluginError naming the group."""
    factory = load_plugin(KITS_GROUP, canonical_prover_name(prover))
    kit: ProverKit = factory()
    return kit
