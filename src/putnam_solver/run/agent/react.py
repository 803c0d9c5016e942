"""The react agent of one attempt, built in one place for ``putnam solve`` and for the Inspect tasks.

Both run the same agent on a problem: the judge (the acceptance gates, then the reviewer as the config
says: advising, or vetoing with ``reviewer_veto``), the worker's tools (``check``, ``goals``, ``search``,
the retrieval tools, the ``sketch`` stage and ``prove_lemma`` where their parts are on, ``submit``) and
the react loop with its history compaction. What differs is what runs it, which ``AgentSetup`` carries:
a campaign (task.py: its ledger's proved lemmas, its number, its sub-attempt reports, its run budget) or
an Inspect task (inspect_tasks.py: no campaign, sub-attempts kept with the sample).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai.model import get_model
from inspect_ai.solver import TaskState
from inspect_ai.util import background

from putnam_solver.run.agent.history import history_budget
from putnam_solver.run.agent.lemmas import LemmaRunner
from putnam_solver.run.agent.sketch import SketchStage
from putnam_solver.run.agent.toolkit import prepare
from putnam_solver.run.agent.tools import ProblemContext
from putnam_solver.run.agent.types import ProvedLemma, SolveConfig, SubAttemptCallback
from putnam_solver.run.agent.worker import AttemptState, Judge, first_messages, react_worker, worker_tools
from putnam_solver.run.agent.workspace import system_prompt
from putnam_solver.run.ledger_sketches import SketchCallback
from putnam_solver.run.prices import Price


def _never_stopped() -> str | None:
    return None


@dataclass(frozen=True)
class AgentSetup:
    """What the agents of every attempt of one evaluation share.

    ``lemmas``: each problem's lemmas proved before this evaluation (offered, and answered from without a
    model call); ``campaign``: the number proved lemmas are recorded under; ``on_subattempt``: hears of
    each finished lemma sub-attempt at once; ``stopped``: why the run budget stopped the evaluation, if
    it did (said of a sub-attempt cancelled with its attempt); ``on_sketch``: stores each ``sketch`` call
    as it is made and as it goes on (``sketch.py``)."""

    config: SolveConfig
    roots: tuple[Path, ...]
    glob: str
    prices: Mapping[str, Price] = field(default_factory=dict)
    lemmas: Mapping[str, Sequence[ProvedLemma]] = field(default_factory=dict)
    campaign: int = 0
    on_subattempt: SubAttemptCallback | None = None
    stopped: Callable[[], str | None] = _never_stopped
    on_sketch: SketchCallback | None = None


def attempt_judge(config: SolveConfig, ctx: ProblemContext) -> Judge:
    """The acceptance of one attempt: the gates, then the reviewer (the ``reviewer`` role's model: the
    worker's unless one is bound to it) when the config has one, whose veto counts only with
    ``reviewer_veto``."""
    reviewer = get_model(role="reviewer") if config.reviewer_model else None
    statement = ctx.prover.model_statement(ctx.problem, ctx.track)
    timeout = config.budgets.reviewer_timeout_seconds
    return Judge(ctx, statement, reviewer, timeout, veto=config.reviewer_veto)


async def react_attempt(
    setup: AgentSetup,
    ctx: ProblemContext,
    judge: Judge,
    attempt: AttemptState,
    state: TaskState,
    task: str,
    sample: int = 1,
) -> None:
    """Run the react agent on ``task`` until a submission passes or its turns run out; its messages are
    the sample's (``state.messages``), what it did is ``attempt``'s; its sketches are kept as ``sample``'s.
    What the acceptance needs of the problem alone is made meanwhile (``toolkit.prepare``)."""
    config = setup.config
    state.messages = first_messages(system_prompt(ctx.prover, config), task)
    lemmas = LemmaRunner(setup, ctx, attempt)
    stages = [*SketchStage(ctx, attempt, lemmas, sample).tools(), *lemmas.tools()]
    tools = worker_tools(judge, attempt, setup.roots, setup.glob, stages)
    background(prepare, ctx)
    await react_worker(judge, attempt, state.messages, tools, config.budgets.max_turns, history_budget(config))
