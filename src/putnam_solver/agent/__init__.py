"""The agent layer: an Inspect AI task whose workers propose proofs and whose scorer runs the gates.

This is the only layer that imports Inspect. ``run_campaign_attempts`` runs one campaign's attempts;
``prepare_workspaces`` writes the workspaces and prompts without calling a model (``--prepare-only``).
"""

from putnam_solver.agent.task import prepare_workspaces, run_campaign_attempts

__all__ = ["prepare_workspaces", "run_campaign_attempts"]
