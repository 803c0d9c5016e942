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

from collections.abc import Callable

from putnam_solver.core.provers.protocol import Prover, StatementError
from putnam_solver.core.registry import load_plugin, plugin_names
from putnam_solver.core.util import InputError

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


def get_prover(name: str) -> Prover:
    """The prover registered under ``name`` (or an alias of it); an unknown name is the caller's input
    error."""
    factory: Callable[[], Prover] = load_plugin(PROVERS_GROUP, canonical_prover_name(name))
    return factory()


__all__ = [
    "PROVERS_GROUP",
    "Prover",
    "StatementError",
    "canonical_prover_name",
    "get_prover",
    "prover_aliases",
    "prover_names",
]
