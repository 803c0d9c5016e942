"""Gate flags are declared once and mean one thing everywhere (issue 25, item 4).

Every command that takes a gate flag takes the same declaration (same help, same panel), and every way of
starting a verification turns its flags into options through ``GateFlags.options``, where the options
only one prover reads go into that prover's own type.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path
from typing import Any

import typer.main

from putnam_solver.cli import app
from putnam_solver.cli._options import GATES_PANEL
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.verify import Profile, VerifyOptions
from putnam_solver.verifier.options import GateFlags

SRC = Path(__file__).resolve().parents[2] / "src" / "putnam_solver"
GATE_FLAGS = (
    "--axle",
    "--timeout",
    "--memory-mb",
    "--unsafe-no-sandbox",
    "--keep-going",
    "--max-candidate-bytes",
    "--tool",
    "--toolchain",
    "--allow-recursion",
    "--statement-by-elaboration",
    "--kernels",
    "--unsafe-comparator",
    "--comparator-timeout",
    "--comparator-memory-mb",
)


VERIFYING = ("putnam verify", "putnam solve", "putnam audit", "putnam serve", "putnam mcp", "putnam selftest")
"""The commands that run gates. ``bootstrap``'s ``--toolchain`` names a release to install, and ``doctor``'s
and ``policy``'s ``--tool`` a tool to inspect: their help says so (``test_cli_help_and_messages``)."""


def commands(group: Any, path: str = "putnam") -> dict[str, Any]:
    """Every command of the CLI by its full name (Typer's command objects: it carries its own click)."""
    found = {path: group}
    if hasattr(group, "commands"):
        for name, sub in group.commands.items():
            found.update(commands(sub, f"{path} {name}"))
    return found


def test_each_gate_flag_has_one_declaration_shared_by_every_command_that_takes_it() -> None:
    declared: dict[str, set[tuple[str, str]]] = defaultdict(set)
    takers: dict[str, list[str]] = defaultdict(list)
    for name, command in commands(typer.main.get_command(app)).items():
        if name not in VERIFYING:
            continue
        for param in command.params:
            for flag in set(param.opts) & set(GATE_FLAGS):
                declared[flag].add((str(getattr(param, "help", "")), str(getattr(param, "rich_help_panel", ""))))
                takers[flag].append(name)
    assert set(declared) == set(GATE_FLAGS)
    for flag, forms in declared.items():
        assert len(forms) == 1, f"{flag} is declared {len(forms)} ways in {takers[flag]}: {forms}"
        assert next(iter(forms))[1] == GATES_PANEL, flag
    assert {"putnam verify", "putnam solve", "putnam audit"} <= set(takers["--axle"])


def test_options_are_built_only_by_gate_flags() -> None:
    """Outside the trusted package and its tests, no module builds ``VerifyOptions`` itself or gives a
    prover's options by hand: they come from ``GateFlags.options`` (read in the sources' syntax trees)."""
    builders = {"VerifyOptions", "RocqOptions", "LeanOptions"}
    allowed = {SRC / "verifier" / "options.py", SRC / "selftest" / "runner.py"}  # runner: resets Rocq's lifted rule
    found = []
    for path in SRC.rglob("*.py"):
        if path.is_relative_to(SRC / "core") or path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in builders:
                found.append(f"{path.relative_to(SRC)}:{node.lineno} {node.func.id}(...)")
    assert found == []


def test_each_flag_reaches_the_option_it_names() -> None:
    options = GateFlags(
        profile=Profile.FAST,
        timeout_seconds=9.0,
        allow_recursion=True,
        kernels=("lean", "nanoda"),
        statement_by_elaboration=True,
        comparator_timeout_seconds=5.0,
    ).options()
    assert (options.profile, options.timeout_seconds) == (Profile.FAST, 9.0)
    assert options.of(RocqOptions) == RocqOptions(allow_recursion=True)
    lean = options.of(LeanOptions)
    assert (lean.kernels, lean.statement_by_elaboration, lean.comparator_timeout_seconds) == (
        ("lean", "nanoda"),
        True,
        5.0,
    )


def test_flags_left_out_mean_the_options_defaults() -> None:
    options = GateFlags().options()
    assert options.of(RocqOptions) == RocqOptions() and options.of(LeanOptions) == LeanOptions()
    assert options == VerifyOptions(prover_options=(RocqOptions(), LeanOptions()))
