"""Provers: what a proof language contributes to verification, behind one protocol, registered by name.

A prover knows its source syntax, how to derive the challenge from a pinned record, which files are
candidates, its gates G2 onwards (G1, provenance, is shared and lives in ``verify``), which executables
its gates run (so a user can point at their own) and their identity. That is all a verdict needs; what
the rest of the tree asks of a proof language beyond it (installers, the agent's workspace and warm
sessions, policy texts, selftest canaries) is the prover's kit, outside the trusted package
(``putnam_solver.kits``). Nothing outside the prover's folders branches on its name.

Provers register through the entry-point group ``putnam_solver.provers`` (``core.registry``), the
built-in ones in this project's pyproject.toml like any third party's; importing this module loads none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from putnam_solver.core.registry import load_plugin, plugin_names
from putnam_solver.core.util import InputError

if TYPE_CHECKING:
    from putnam_solver.core.answer_check import AnswerCheck
    from putnam_solver.core.benchmark import Problem
    from putnam_solver.core.gatekit import ToolSpec
    from putnam_solver.core.verify import Gate, Submission, Track, VerifyOptions


class StatementError(ValueError):
    """A pinned statement lacks the shape its prover expects; each prover raises this one type."""


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

    def gates(self) -> Sequence[Gate]:
        """This prover's gates G2 onwards, in order, each with its own readiness check."""
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


PROVERS_GROUP = "putnam_solver.provers"
"""The entry-point group a prover registers in: ``NAME = "module:Factory"``, ``Factory()`` a Prover."""
_ALIASES: dict[str, str] = {"coq": "rocq"}
"""Other names users know a prover by: PutnamBench's data file says ``coq`` (``putnam_bench_coq.jsonl``)."""


def prover_names() -> tuple[str, ...]:
    """The registered names, for CLI choices and help."""
    return plugin_names(PROVERS_GROUP)


def prover_aliases() -> dict[str, str]:
    """Other accepted names, each with the registered name it stands for (for help texts)."""
    return {alias: name for alias, name in _ALIASES.items() if name in prover_names()}


def canonical_prover_name(name: str) -> str:
    """The registered name ``name`` stands for (itself, or the prover an alias names); an unknown name
    is the caller's input error. Every place that takes a prover name from a user goes through this."""
    names = prover_names()
    canonical = name if name in names else _ALIASES.get(name, "")
    if canonical not in names:
        aliases = "".join(f", {alias} (= {target})" for alias, target in prover_aliases().items())
        raise InputError(f"unknown prover {name!r}; choose one of: {', '.join(names)}{aliases}")
    return canonical


def prover_for_suffix(suffix: str) -> str | None:
    """The registered prover whose candidate files end in ``suffix`` (None if none does)."""
    return next((name for name in prover_names() if get_prover(name).suffix == suffix), None)


def get_prover(name: str) -> Prover:
    """The prover registered under ``name`` (or an alias of it); an unknown name is the caller's input
    error."""
    factory: Callable[[], Prover] = load_plugin(PROVERS_GROUP, canonical_prover_name(name))
    return factory()


def tool_locations(given: Sequence[str]) -> dict[str, Path]:
    """``--tool NAME=PATH`` values as a mapping for ``VerifyOptions.tools``; a malformed value or a name
    no registered prover runs is the user's input error, naming the choices."""
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
    "PROVERS_GROUP",
    "Prover",
    "Readiness",
    "StatementError",
    "canonical_prover_name",
    "gate_readiness",
    "get_prover",
    "prover_aliases",
    "prover_for_suffix",
    "prover_names",
    "tool_locations",
]
