"""The ``putnam`` Typer app, its consoles and its top-level options (``--version``)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Annotated, Any

import typer
import typer.main

from putnam_solver import __version__
from putnam_solver.clikit import PutnamGroup, PutnamTyper, TerminalConsole

COMMAND_MODULES: dict[str, str] = {
    **dict.fromkeys(("report", "audit", "export"), "runs"),
    **dict.fromkeys(("mcp", "serve"), "services"),
    **dict.fromkeys(("bootstrap", "selftest", "doctor"), "setup"),
    "solve": "solve",
    **dict.fromkeys(("list", "check", "verify", "policy"), "verify"),
    "dataset": "setup",
}
"""Each command and the module of ``putnam_solver.cli`` that registers it, in the order ``putnam --help``
lists them. A command's module is imported when the command is asked for, so that ``putnam mcp``, whose
client waits for it to answer, does not first import and build every other command
(``tests/unit/test_cli_commands.py`` checks this table against what the modules register)."""


class LazyCommands(MutableMapping[str, Any]):
    """The commands of ``putnam`` as its group holds them: a command looked up by name is built (by Typer,
    from what its module registers) the first time, and listing them builds them all, in the order of
    ``COMMAND_MODULES``. Click and Typer find, list and suggest commands through this mapping only."""

    def __init__(self, built: Mapping[str, Any]) -> None:
        # a group built after other tests or callers imported command modules holds them in import order
        self.built = _in_listed_order(built)

    def __getitem__(self, name: str) -> Any:
        if name not in self.built:
            self.load(name)
        return self.built[name]

    def __iter__(self) -> Iterator[str]:
        if not COMMAND_MODULES.keys() <= self.built.keys():
            self.load(None)
        return iter(list(self.built))

    def __len__(self) -> int:
        return len(list(iter(self)))

    def __setitem__(self, name: str, command: Any) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.built[name]

    def load(self, name: str | None) -> None:
        """Import the module of command ``name`` (every command's for None or an unknown name) and add
        what it registered."""
        modules = [COMMAND_MODULES[name]] if name in COMMAND_MODULES else dict.fromkeys(COMMAND_MODULES.values())
        for module in modules:
            importlib.import_module(f"putnam_solver.cli.{module}")
        fresh = typer.main.get_group(app).commands
        self.built = _in_listed_order({**(fresh.built if isinstance(fresh, LazyCommands) else fresh), **self.built})


def _in_listed_order(commands: Mapping[str, Any]) -> dict[str, Any]:
    """``commands`` in the order of ``COMMAND_MODULES``, then any other in the order given."""
    return {**{name: commands[name] for name in COMMAND_MODULES if name in commands}, **commands}


class PutnamCommands(PutnamGroup):
    """The ``putnam`` group, whose commands are built when first asked for (``LazyCommands``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self.commands)


app = PutnamTyper(
    name="putnam",
    help="Run and check formal proofs for PutnamBench, miniF2F and ProofNet; a proof counts only when every "
    "verification gate passes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=PutnamCommands,
)


dataset_app = PutnamTyper(help="Build the pinned benchmark data files.", no_args_is_help=True)
"""``putnam dataset``: its commands are in ``setup``, which adds it to ``app``."""


out = TerminalConsole(highlight=False, soft_wrap=True)


err = TerminalConsole(stderr=True, highlight=False, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        out.print(f"putnam (putnambench-solver) {__version__}", markup=False)
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version, is_eager=True)
    ] = False,
) -> None:
    pass
