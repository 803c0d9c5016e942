"""``python -m putnam_solver``: the ``putnam`` command."""

from putnam_solver.cli import app

app(prog_name="putnam")
