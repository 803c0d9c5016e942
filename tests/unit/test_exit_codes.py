"""One exit code per meaning across the commands: a usage or input error exits 2 everywhere (Click's own
code for an unknown option or a bad value), and ``putnam solve`` keeps 3 and 130 for a run that stopped
early; its help says so. ``solve`` refuses a malformed model name before importing Inspect AI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import click
import pytest
import typer
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.exit_codes import ExitCode
from tests.helpers import REPO, ROCQ_SAMPLES

runner = CliRunner()


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        found += _commands(command, path) if isinstance(command, click.Group) else [path]
    return found


COMMANDS = _commands(typer.main.get_group(app))


def test_every_command_is_covered() -> None:
    assert {c[0] for c in COMMANDS} >= {"solve", "verify", "list", "check", "policy", "doctor", "selftest"}


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_an_unknown_option_exits_2_in_every_command(command: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*command, "--bogus"])
    assert result.exit_code == ExitCode.USAGE == 2, result.output
    assert "No such option: --bogus" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--jobs", "0", "--model", "openai/gpt-5.5"],
        ["solve", "--model", "gpt-5.5", "--benchmark", str(ROCQ_SAMPLES), "--prover", "rocq"],
        ["solve", "--model", "openai/gpt-5.5", "--prover", "nosuch"],
        ["solve", "--model", "openai/gpt-5.5", "--benchmark", "/nonexistent/bench.jsonl"],
        ["solve", "--resume", "/nonexistent/run"],
        ["solve", "--list-only", "--benchmark", str(ROCQ_SAMPLES), "--prover", "rocq", "--problem", "nosuch"],
        ["list", "--prover", "nosuch"],
        ["verify", "--jobs", "0", "x.lean"],
        ["policy", "--prover", "nosuch"],
    ],
    ids=lambda args: " ".join(args[:3]),
)
def test_bad_input_exits_2_in_every_command(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == ExitCode.USAGE, result.output


@pytest.mark.parametrize("flag", ["--lemma-turns", "--lemma-token-limit"])
def test_a_lemma_budget_below_one_is_refused_naming_its_flag(flag: str) -> None:
    """As the Inspect tasks refuse ``-T lemma_turns=0`` (tests/unit/test_inspect_task_options.py)."""
    listing = ["solve", "--list-only", "--benchmark", str(ROCQ_SAMPLES), "--prover", "rocq"]
    refused = runner.invoke(app, [*listing, flag, "0"], terminal_width=200)
    assert refused.exit_code == ExitCode.USAGE and f"Invalid value for '{flag}'" in refused.output
    taken = runner.invoke(app, [*listing, flag, "1"])
    assert taken.exit_code == ExitCode.SUCCESS, taken.output


def test_solve_help_lists_every_exit_code() -> None:
    result = runner.invoke(app, ["solve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.output.replace("│", " ").split())
    for expected in (
        "0 the evaluation completed, solved or not",
        "1 a fatal error during the run",
        "2 bad usage or input",
        "3 a run budget stopped the run early",
        "4 with --fail-on-unsolved",
        "130 interrupted (Ctrl-C)",
    ):
        assert expected in text


def test_a_malformed_model_name_is_refused_at_once_without_importing_inspect(tmp_path: object) -> None:
    """The check that needs no Inspect runs before Inspect's import (seconds): a typo costs nothing."""
    code = (
        "import json, sys\n"
        "from putnam_solver.cli import app\n"
        "try:\n"
        "    app(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    print(json.dumps([exc.code, 'inspect_ai' in sys.modules]))\n"
    )
    args = ["solve", "--model", "gpt-5.5", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=REPO)
    assert json.loads(done.stdout.splitlines()[-1]) == [ExitCode.USAGE, False], done.stdout + done.stderr
    assert "--model 'gpt-5.5': name a model as provider/model, e.g. openai/gpt-5.5" in " ".join(done.stderr.split())
