"""Campaigns over unresolved problems: the service behind ``putnam solve``.

A run lives in one directory. Each campaign hands the still-unresolved problems to the agent layer (one
call of the attempt runner), together with each problem's best earlier candidate and its diagnostics
(unless ``fresh``). Every finished attempt is recorded in the ledger as soon as it is reported, so a
``kill -9`` at any moment loses at most the attempts still running; ``resume=True`` finishes the
interrupted campaign (re-running only the attempts that were in flight) and carries on.

When a run stops:

- every selected problem has a verified pass: exit code 0;
- ``campaigns`` campaigns have run (``0`` means no campaign limit), a run budget (tokens, dollars) is
  spent, every unresolved problem has spent its per-problem budget, or every attempt of the last campaign
  ended in an infrastructure error (so that an unlimited run cannot spin forever on a broken setup): exit
  code 2, with the unresolved problems listed;
- a fatal error (run directory in use, disk full, no API key, unknown model, no toolchain ...): exit code
  1, with the error's message.

Budgets hold while a campaign runs, not only between campaigns. The run budget is checked by the agent
layer after every model call (``LiveRun``): once it is spent, the attempts in flight stop and are recorded
with what they spent, the problems not started stay unattempted and the campaign stays unfinished, so a
``--resume`` with a larger budget picks them up. A problem's budget (``Budgets.token_limit`` and
``cost_limit_dollars``) covers all its attempts: each campaign's attempt may spend what is left of it.
"""

from putnam_solver.run.agent.types import RunLimits
from putnam_solver.run.campaign._errors import CampaignError
from putnam_solver.run.campaign._lock import LOCK_NAME
from putnam_solver.run.campaign._run import (
    LOG_DIR,
    WORK_DIR,
    Runner,
    SolveOutcome,
    default_runner,
    diagnostics,
    list_only,
    prepare_only,
    solve,
)
from putnam_solver.run.campaign._settings import RunSettings, Selection, config_from_json, config_to_json, stored_run

__all__ = [
    "LOCK_NAME",
    "LOG_DIR",
    "WORK_DIR",
    "CampaignError",
    "RunLimits",
    "RunSettings",
    "Runner",
    "Selection",
    "SolveOutcome",
    "config_from_json",
    "config_to_json",
    "default_runner",
    "diagnostics",
    "list_only",
    "prepare_only",
    "solve",
    "stored_run",
]
