"""The exit codes of every ``putnam`` command, in one place.

A usage or input error exits 2 in every command, as Click exits on an unknown option or a bad value
(``--bogus``, ``--jobs 0``), so that a script can tell "you called it wrong" from any result. The other
codes keep one meaning per command; ``putnam solve`` adds its own for a run that stopped early.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    SUCCESS = 0
    """Every candidate accepted; ``solve``: the evaluation completed, solved or not (as ``inspect eval``
    does), unless ``--fail-on-unsolved``; the full profile can run here."""
    FAILURE = 1
    """``verify``: a candidate was rejected. ``solve``: a fatal error during the run (the message says
    what to do). ``doctor``: the full profile cannot run here."""
    USAGE = 2
    """Bad usage or input: an unknown option, a bad value, a missing or changed benchmark, an unusable
    model, an unreachable model server, a toolchain that cannot run, a run directory that cannot be used
    as asked; for ``verify`` and ``selftest`` also a gate that could not run. Nothing was spent."""
    LIMIT = 3
    """``solve``: a run budget (``--run-token-limit``, ``--run-cost-limit``) stopped the run early, with
    problems not yet tried (``--resume`` with a higher limit continues)."""
    UNSOLVED = 4
    """``solve --fail-on-unsolved``: the evaluation completed with problems unresolved."""
    INTERRUPTED = 130
    """``solve``: interrupted (Ctrl-C, SIGINT); the attempts in flight are recorded as ``interrupted``
    and ``--resume`` runs them again. 128 + SIGINT, as shells report it."""


SOLVE_EXIT_CODES = (
    "Exit codes: 0 the evaluation completed, solved or not (its campaigns and per-problem budgets used); "
    "1 a fatal error during the run (the message says what to do); 2 bad usage or input, nothing spent (an "
    "unknown option or bad value, the benchmark, the model's name, API key or server, a toolchain that "
    "cannot run or fails its selftest, a run directory in use or holding another run); 3 a run budget "
    "stopped the run early (--resume continues); 4 with --fail-on-unsolved, the evaluation completed with "
    "problems unresolved; 130 interrupted (Ctrl-C): the attempts in flight are recorded as "
    "interrupted and --resume runs them again."
)
"""The exit codes as ``putnam solve --help`` and its messages state them."""
