"""Provers: what a proof language contributes to verification, behind one protocol, registered by name.

A prover knows its source syntax, how to derive the challenge from a pinned record, which files are
candidates, its gates G2 onwards (G1, provenance, is shared and lives in ``verify``), and what the rest
of the tree asks of a proof language: a label for prompts, the files of an agent's workspace, where its
library sources are, which executables its gates run (so a user can point at their own), how to
install them, and optionally an interactive piece for the agent's tools (``core.interactive``). Nothing
outside ``provers/`` branches on a prover's name, so adding one is one ``register_prover`` call.

The registry maps a name to a factory or to a ``"module:attribute"`` reference resolved on first use
(as Inspect AI's registries do), so importing this module loads no prover.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from putnam_solver.core.answer_check import AnswerCheck
    from putnam_solver.core.benchmark import Problem
    from putnam_solver.core.gatekit import ToolSpec
    from putnam_solver.core.interactive import Interactive
    from putnam_solver.core.verify import Gate, Submission, Track, VerifyOptions


class StatementError(ValueError):
    """A pinned statement lacks the shape its prover expects; each prover raises this one type."""


class InstallError(Exception):
    """An install step could not finish; the message names the command, its output and what to do."""


class InstallStep(Protocol):
    """One step of a prover's install plan; it skips itself when already done."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def run(self, progress: Callable[[str], None]) -> None: ...


@dataclass(frozen=True)
class InstallRequest:
    """What ``putnam bootstrap`` was asked for; a prover refuses an option that does not apply to it
    rather than ignoring it silently."""

    directory: Path | None = None
    """Where the toolchain goes (None: the prover's default)."""
    build_mathlib: bool = False
    """Build the library from source rather than fetching a prebuilt cache."""
    nanoda: bool = False
    """Also build the optional external kernel."""
    toolchain: str | None = None
    """The release to install where a prover installs several side by side (Lean: ``v4.24.0``, the one a
    benchmark states); None: the prover's default."""

    def options_given(self) -> list[str]:
        """The command-line options that asked for something other than the defaults."""
        given = {"--dir": self.directory is not None, "--build-mathlib": self.build_mathlib, "--nanoda": self.nanoda}
        return [flag for flag, on in given.items() if on]


@dataclass(frozen=True)
class Readiness:
    """Whether a tool or a gate can run here; ``detail`` says where it is, or what to do if not."""

    name: str
    ok: bool
    detail: str
    applies: bool = True
    """False for a row that does not apply here (a gate the prover does not have): shown as n/a."""


class Prover(Protocol):
    """The contract between the pipeline and one proof language."""

    name: str
    """Registry key and CLI value."""
    label: str
    """How prompts name the language and its library (``Lean 4 with Mathlib``)."""
    suffix: str
    """Candidate file suffix, with the dot."""
    selftest_suites: tuple[str, ...]
    """Canary suites (directories under ``putnam_solver/canaries``) that ``putnam selftest`` runs."""
    tools: tuple[ToolSpec, ...]
    """The executables the gates run that a user may choose (``--tool NAME=PATH``)."""
    pins: Mapping[str, str]
    """What the prover's toolchain is pinned to (versions, revisions), recorded in proof bundles."""

    def challenge(self, problem: Problem, track: Track) -> str:
        """The exact file a candidate must complete, derived by the harness from the pinned record."""
        ...

    def model_statement(self, problem: Problem, track: Track) -> str:
        """What the model is shown: the challenge without anything that leaks the answer on that track."""
        ...

    def has_answer(self, problem: Problem) -> bool:
        """Whether the statement asks for an answer (has ``*_solution`` declarations)."""
        ...

    def answer_forms(self, problem: Problem) -> list[str]:
        """The with-answer forms a candidate may use, for ``putnam list`` (empty when there is one)."""
        ...

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

    def gates(self) -> Sequence[Gate]:
        """This prover's gates G2 onwards, in order, each with its own readiness check."""
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

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        """For the no-answer track: the candidate's answer beside the official one (empty otherwise)."""
        ...

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        """For the no-answer track, after the candidate compiled: each answer against the official one
        (``answer_check``), by name. A record for the verdict, never a gate."""
        ...

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        """Versions and binary hashes of the tools the gates run, for evidence and the verdict cache."""
        ...

    def toolchain_version(self, options: VerifyOptions) -> str | None:
        """The release of the toolchain the gates would run with ``options`` (``v4.27.0``, ``8.16.1``),
        to hold against the one a benchmark states; None when none is installed."""
        ...

    def interactive(self) -> Interactive | None:
        """What the agent's tools may use beyond the gates (``core.interactive``): warm checker sessions,
        proof states, lemma holes. None: the agent's ``check`` runs the cold gates and there is no
        ``goals`` or ``prove_lemma``. Never part of acceptance."""
        ...


_REGISTRY: dict[str, str | Callable[[], Prover]] = {
    "lean": "putnam_solver.core.provers.lean:LeanProver",
    "rocq": "putnam_solver.core.provers.rocq:RocqProver",
}
_ALIASES: dict[str, str] = {"coq": "rocq"}
"""Other names users know a prover by: PutnamBench's data file says ``coq`` (``putnam_bench_coq.jsonl``)."""


def register_prover(name: str, factory: str | Callable[[], Prover]) -> None:
    """Make ``name`` a prover: ``factory`` makes one, or is a ``"module:attribute"`` naming it, imported
    only when the prover is first asked for (so registering costs no import)."""
    _REGISTRY[name] = factory


def prover_names() -> tuple[str, ...]:
    """The registered names, for CLI choices and help."""
    return tuple(_REGISTRY)


def prover_aliases() -> dict[str, str]:
    """Other accepted names, each with the registered name it stands for (for help texts)."""
    return {alias: name for alias, name in _ALIASES.items() if name in _REGISTRY}


def canonical_prover_name(name: str) -> str:
    """The registered name ``name`` stands for (itself, or the prover an alias names); an unknown name
    is the caller's input error. Every place that takes a prover name from a user goes through this."""
    from putnam_solver.core.util import InputError

    canonical = name if name in _REGISTRY else _ALIASES.get(name, "")
    if canonical not in _REGISTRY:
        aliases = "".join(f", {alias} (= {target})" for alias, target in prover_aliases().items())
        raise InputError(f"unknown prover {name!r}; choose one of: {', '.join(prover_names())}{aliases}")
    return canonical


def prover_for_suffix(suffix: str) -> str | None:
    """The registered prover whose candidate files end in ``suffix`` (None if none does)."""
    return next((name for name in _REGISTRY if get_prover(name).suffix == suffix), None)


def get_prover(name: str) -> Prover:
    """The prover registered under ``name`` (or an alias of it); an unknown name is the caller's input
    error."""
    factory = _REGISTRY[canonical_prover_name(name)]
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        factory = getattr(importlib.import_module(module), attribute)
    return factory()


def tool_locations(given: Sequence[str]) -> dict[str, Path]:
    """``--tool NAME=PATH`` values as a mapping for ``VerifyOptions.tools``; a malformed value or a name
    no registered prover runs is the user's input error, naming the choices."""
    from putnam_solver.core.util import InputError

    known = {spec.name: spec for name in prover_names() for spec in get_prover(name).tools}
    chosen: dict[str, Path] = {}
    for value in given:
        name, sep, path = value.partition("=")
        if not sep or not path:
            raise InputError(f"--tool {value!r}: write NAME=PATH, e.g. --tool coqc=/opt/coq/bin/coqc")
        if name not in known:
            raise InputError(f"--tool {value!r}: no prover runs a tool {name!r}; choose one of: {', '.join(known)}")
        chosen[name] = Path(path).expanduser().resolve()
    return chosen


def gate_readiness(prover: Prover, options: VerifyOptions) -> list[Readiness]:
    """For each gate G1..G7 (named ``"G4 compile"`` etc.): can it run here, and if not, why. A gate the
    prover does not offer is a row that is not ready, so a profile asking for it is refused."""
    from putnam_solver.core.verify import ALL_GATE_IDS, provenance_gate_def

    by_id = {g.id: g for g in (provenance_gate_def, *prover.gates())}
    return [
        Readiness(f"{g.id} {g.name}", *g.ready(options))
        if (g := by_id.get(gate_id)) is not None
        else Readiness(gate_id, False, f"prover {prover.name} has no gate {gate_id}", applies=False)
        for gate_id in ALL_GATE_IDS
    ]


__all__ = [
    "InstallError",
    "InstallRequest",
    "InstallStep",
    "Prover",
    "Readiness",
    "StatementError",
    "canonical_prover_name",
    "gate_readiness",
    "get_prover",
    "prover_aliases",
    "prover_for_suffix",
    "prover_names",
    "register_prover",
    "tool_locations",
]
