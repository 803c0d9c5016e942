"""``--ray [ADDRESS]``: an option whose value may be left out gets its default before Click parses."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.clikit import fill_optional_values
from putnam_solver.core.util import InputError
from tests.helpers import ROCQ_SAMPLES


@pytest.mark.parametrize(
    ("given", "parsed"),
    [
        (["verify", "--ray", "a.v"], ["verify", "--ray", "auto", "a.v"]),
        (["verify", "a.v", "--ray"], ["verify", "a.v", "--ray", "auto"]),
        (["verify", "--ray", "--jobs", "2", "a.v"], ["verify", "--ray", "auto", "--jobs", "2", "a.v"]),
        (["verify", "--ray", "proofs/", "a.v"], ["verify", "--ray", "auto", "proofs/", "a.v"]),
        (["verify", "--ray", "local", "a.v"], ["verify", "--ray", "local", "a.v"]),
        (["verify", "--ray", "head.lan:6379", "a.v"], ["verify", "--ray", "head.lan:6379", "a.v"]),
        (["verify", "--ray", "ray://10.0.0.2:10001"], ["verify", "--ray", "ray://10.0.0.2:10001"]),
        (["verify", "--ray=auto", "a.v"], ["verify", "--ray=auto", "a.v"]),
        (["verify", "--", "--ray"], ["verify", "--", "--ray"]),
    ],
)
def test_a_missing_ray_address_is_auto(given: list[str], parsed: list[str]) -> None:
    assert fill_optional_values(given) == parsed


def test_the_command_line_takes_ray_without_an_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Click sees ``--ray auto PROOF``: the proof is a candidate and the address is auto."""
    import putnam_solver.cli.verify as cli

    seen: list[str | None] = []

    def settings(address: str | None, *_: object) -> None:
        seen.append(address)
        raise InputError("no cluster in this test")

    monkeypatch.setattr(cli, "ray_settings", settings)
    proof = ROCQ_SAMPLES.parent / "proofs" / "sample_even_square.v"
    args = ["verify", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES), "--ray", str(proof)]
    result = CliRunner().invoke(app, args)
    assert (result.exit_code, seen) == (2, ["auto"]), result.output
    assert "no cluster in this test" in result.output


def test_a_commands_description_is_paragraphs_the_terminal_wraps() -> None:
    """Typer's help keeps every newline of a docstring: the wrapped lines of a paragraph are joined, so a
    narrow or wide terminal wraps them itself; paragraphs stay apart."""
    import typer

    group = typer.main.get_group(app)
    for name, command in group.commands.items():
        paragraphs = (command.help or "").split("\n\n")
        assert all("\n" not in p for p in paragraphs), name
    report = group.commands["report"].help or ""
    assert "a grid of the benchmark linking each problem" in report and "\n\nExit 0 when written" in report


@pytest.mark.parametrize("command", [[], ["verify"], ["solve"], ["dataset"], ["dataset", "fetch"], ["audit"]])
def test_dash_h_is_help_on_every_command(command: list[str]) -> None:
    short, long = (CliRunner().invoke(app, [*command, flag]) for flag in ("-h", "--help"))
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Usage: putnam" in short.stdout


def test_solves_options_come_in_groups() -> None:
    shown = CliRunner().invoke(app, ["solve", "--help"], terminal_width=120).stdout
    for panel in ("Model", "Agent", "Concurrency", "Budgets and limits", "Run directory and output", "Gates"):
        assert f"─ {panel} ─" in shown
    budgets = shown.split("─ Budgets and limits ─")[1].split("╰")[0]
    assert "--run-cost-limit" in budgets and "--model-base-url" not in budgets
