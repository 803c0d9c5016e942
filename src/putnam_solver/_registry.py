"""Inspect AI's entry point (``[project.entry-points.inspect_ai]`` in pyproject.toml): importing it
registers the tasks ``inspect eval putnam_solver/putnambench`` (and ``minif2f``, ``proofnet``) runs.

Inspect imports this module only when a name under ``putnam_solver/`` is asked for, so nothing here
loads for ``putnam`` itself."""

from putnam_solver.run.agent.inspect_tasks import minif2f, proofnet, putnambench

__all__ = ["minif2f", "proofnet", "putnambench"]
