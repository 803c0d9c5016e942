"""The agent layer: an Inspect AI task whose workers propose proofs and whose scorer runs the gates.

This is the only layer that imports Inspect. ``run_campaign_attempts`` runs one campaign's attempts;
``prepare_workspaces`` writes the workspaces and prompts without calling a model (``--prepare-only``).
Both are imported on first use, so that the campaign layer and the CLI can read ``agent.types`` (the
contract) without paying for Inspect's import until a model actually runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from putnam_solver.run.agent.task import check_models, prepare_workspaces, run_campaign_attempts

__all__ = ["check_models", "prepare_workspaces", "run_campaign_attempts"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from putnam_solver.run.agent import task

        return getattr(task, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
