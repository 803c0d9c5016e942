"""Campaigns over unresolved problems: the service behind ``putnam solve``.

A run lives in one directory. Each campaign hands the still-unresolved problems to the agent layer (one
call of the attempt runner), together with each problem's best earlier candidate and its diagnostics
(unless ``fresh``). Every finished attempt is recorded in the ledger as soon as it is reported, so a
``kill -9`` at any moment loses at most the attempts still running; ``resume=True`` finishes the
interrupted campaign (re-running only the attempts that were in flight) and carries on.

When a run stops (``SolveOutcome.exit_code``, an ``ExitCode``):

- every selected problem has a verified pass: SUCCESS (0);
- ``campaigns`` campaigns have run (``0`` means no campaign limit), a run budget (tokens, dollars) is
  spent, every unresolved problem has spent its per-problem budget, or every attempt of the last campaign
  ended in an infrastructure error (so that an unlimited run cannot spin forever on a broken setup): LIMIT
  (3), with the unresolved problems listed;
- the user interrupted it (Ctrl-C): INTERRUPTED (130). The attempts in flight stop and are recorded as
  ``interrupted`` with what they spent (``Ledger.interruptions``); their problems stay without an outcome
  in the unfinished campaign, so ``resume=True`` runs them again, as after a ``kill -9``;
- it cannot start as asked (the run directory is in use, already holds a run, or holds none to resume;
  the benchmark changed): USAGE (2);
- a fatal error (disk full, no API key, unknown model, no toolchain ...): FAILURE (1), with the error's
  message.

A run's stored settings are read back only as a ``StoredSettings`` (``stored_settings``, checked field by
field; ``putnam_solver.run.stored_settings``).

``prepare_only`` records a run and writes its workspaces without calling a model; resuming it starts it.

Budgets hold while a campaign runs, not only between campaigns. The run budget is checked by the agent
layer after every model call (``LiveRun``): once it is spent, the attempts in flight stop and are recorded
with what they spent, the problems not started stay unattempted and the campaign stays unfinished, so a
``--resume`` with a larger budget picks them up. A problem's budget (``Budgets.token_limit`` and
``cost_limit_dollars``) covers all its attempts: each campaign's attempt may spend what is left of it.
"""

from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.campaign._errors import CampaignError
from putnam_solver.run.campaign._run import (
    LOG_DIR,
    WORK_DIR,
    Prepared,
    Runner,
    SolveOutcome,
    default_runner,
    diagnostics,
    list_only,
    prepare_only,
    solve,
)
from putnam_solver.run.campaign._settings import RunSettings, stored_run
from putnam_solver.run.run_lock import LOCK_NAME, RunLock
from putnam_solver.run.stored_settings import (
    RecordedErratum,
    Selection,
    StoredBenchmark,
    StoredSettings,
    required_settings,
    settings_history,
    stored_settings,
)

__all__ = [
    "LOCK_NAME",
    "LOG_DIR",
    "WORK_DIR",
    "CampaignError",
    "Prepared",
    "RecordedErratum",
    "RunLimits",
    "RunLock",
    "RunSettings",
    "Runner",
    "Selection",
    "SolveOutcome",
    "StoredBenchmark",
    "StoredSettings",
    "default_runner",
    "diagnostics",
    "list_only",
    "prepare_only",
    "required_settings",
    "settings_history",
    "solve",
    "stored_run",
    "stored_settings",
]
