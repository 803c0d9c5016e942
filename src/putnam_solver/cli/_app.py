"""The ``putnam`` Typer app, its consoles and its top-level options (``--version``)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from putnam_solver import __version__
from putnam_solver.clikit import PutnamTyper

app = PutnamTyper(
    name="putnam",
    help="Run and check formal proofs for PutnamBench, miniF2F and ProofNet; a proof counts only when every "
    "verification gate passes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


dataset_app = PutnamTyper(help="Build the pinned benchmark data files.", no_args_is_help=True)


app.add_typer(dataset_app, name="dataset")


out = Console(highlight=False, soft_wrap=True)


err = Console(stderr=True, highlight=False, soft_wrap=True)


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
