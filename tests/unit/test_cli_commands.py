"""``putnam``'s commands are imported one module at a time: ``putnam mcp`` (whose client waits for its
answer to ``initialize``) imports no other command's module, while the help, a typo's suggestions and
every command still see them all, listed in the same order."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from putnam_solver.cli._app import COMMAND_MODULES, app
from tests.helpers import REPO

REGISTERED_BY = """
import importlib, json, typer.main
from putnam_solver.cli._app import app
seen, by = set(), {}
for module in ("runs", "services", "setup", "solve", "verify"):
    importlib.import_module(f"putnam_solver.cli.{module}")
    names = set(typer.main.get_group(app).commands.built) - seen  # what is built, not built on demand
    by.update(dict.fromkeys(names, module))
    seen |= names
print(json.dumps(by))
"""

RESOLVED = """
import json, sys
from typer.testing import CliRunner
from putnam_solver.cli import app
CliRunner().invoke(app, [sys.argv[1], "--help"], catch_exceptions=False)
print(json.dumps(sorted(sys.modules)))
"""


def python(code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=REPO, check=True, timeout=120
    )
    return done.stdout.splitlines()[-1]


def test_the_table_names_every_command_and_the_module_that_registers_it() -> None:
    assert json.loads(python(REGISTERED_BY)) == COMMAND_MODULES


def test_a_command_imports_its_own_module_only() -> None:
    command_modules = {f"putnam_solver.cli.{m}" for m in COMMAND_MODULES.values()}
    for command, own in (("mcp", "services"), ("dataset", "setup"), ("solve", "solve")):
        loaded = set(json.loads(python(RESOLVED, command))) & command_modules
        assert loaded == {f"putnam_solver.cli.{own}"}, command


def test_mcp_leaves_out_what_only_other_commands_run() -> None:
    """The cluster's code (``--ray``: serve, verify, solve, audit), the selftest runner (selftest,
    bootstrap) and Rich's progress bar (verify) are imported by the commands that run them, not by
    ``putnam mcp``, which shares their option declarations (``cli/_options.py``)."""
    others = {"verify": {"putnam_solver.cluster.ray", "rich.progress"}, "selftest": {"putnam_solver.selftest.runner"}}
    for command, modules in others.items():
        assert modules <= set(json.loads(python(RESOLVED, command))), command
    assert not set().union(*others.values()) & set(json.loads(python(RESOLVED, "mcp")))


def test_the_help_and_a_typo_still_see_every_command() -> None:
    listing = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    shown = [line.split()[1] for line in listing.splitlines() if line.startswith("│ ") and line.split()[1].isalpha()]
    assert [name for name in shown if name in COMMAND_MODULES] == list(COMMAND_MODULES)
    typo = CliRunner().invoke(app, ["verfy"])
    assert typo.exit_code == 2 and "Did you mean 'verify'?" in typo.output
