"""The ``putnam`` command. Thin: parse flags, call one library function, print, return an exit code.

Exit codes everywhere (``exit_codes.ExitCode``): 0 success (every candidate accepted); 1 a candidate
rejected; 2 bad usage or input, as Click exits on an unknown option or a bad value, and an
infrastructure error (a gate that could not run, a missing tool, a changed benchmark). ``solve`` exits 0
for a completed evaluation, solved or not, and adds 3 (a run budget stopped it early), 4 (unsolved, with
``--fail-on-unsolved``) and 130 (interrupted).
"""

from __future__ import annotations

from putnam_solver.cli._app import app, dataset_app  # each command's module is imported when it is asked for


def main() -> None:
    """Console entry point."""
    app()


__all__ = ["app", "dataset_app", "main"]
