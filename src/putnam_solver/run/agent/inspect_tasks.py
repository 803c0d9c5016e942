"""Inspect tasks for Inspect's own CLI: ``inspect eval putnam_solver/putnambench --model ...``.

The same dataset (the pinned benchmark), the same react worker (``check``, ``goals``, ``search``,
``submit``) and the same gates as ``putnam solve``, with the gates as the scorer: a sample is CORRECT
only when the full acceptance profile, run harness-side on the bytes of the worker's last submission
against the challenge derived from the pinned record, accepts it. Nothing the model says or prints is
read for the score. ``--epochs K`` runs K independent samples per problem; Inspect's own reducers give
pass@k (``--epochs-reducer mean,pass_at_2,pass_at_4``), and ``-T samples=K`` sets both at once.

What ``putnam solve`` adds and these tasks leave out: the run directory and its ledger, campaigns,
budgets beyond Inspect's own limits, lemma sub-attempts (``prove_lemma`` needs a campaign) and the
reviewer. Before the first sample the gates must be able to run here and the selftest must pass on this
toolchain, as for ``putnam solve``.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.benchmark_files import locate_benchmark, open_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.verify import Track
from putnam_solver.doctor import require_gates
from putnam_solver.kits.sessions import SessionPool
from putnam_solver.run.agent._inspect import installed_package
from putnam_solver.run.agent.task import _context, session_pool
from putnam_solver.run.agent.tools import ProblemContext, library_roots, verify_text
from putnam_solver.run.agent.types import AgentParts, Budgets, SolveConfig
from putnam_solver.run.agent.worker import AttemptState, Judge, first_messages, react_worker, worker_tools
from putnam_solver.run.agent.workspace import system_prompt, task_prompt
from putnam_solver.run.campaign import Selection
from putnam_solver.run.ledger_rows import MAX_SAMPLES
from putnam_solver.selftest.runner import require_selftest

log = logging.getLogger(__name__)
PACKAGE = "putnam_solver"
CANDIDATE_KEY = "putnam_candidate"
"""The store entry holding the bytes of the worker's last submission (what the scorer judges)."""
MODEL = "inspect/eval"
"""Stands for the model ``inspect eval --model`` chooses: the prompts and gates never depend on it."""


def _registered(name: str) -> str:
    """The name to give ``@task`` so that it is registered as ``putnam_solver/NAME`` however the package
    is installed: Inspect prefixes the package's name only when it finds the package installed under that
    name (a wheel in site-packages), not for an editable install of ``putnambench-solver``."""
    return name if installed_package(_registered) == PACKAGE else f"{PACKAGE}/{name}"


@dataclass(frozen=True)
class _Setup:
    """What every sample of one task shares: the benchmark, its selected problems, the run's config."""

    prover: Prover
    benchmark: Benchmark
    problems: dict[str, Problem]
    config: SolveConfig


def _setup(benchmark: str, prover: str, track: str, problems: str, max_problems: int | None, max_turns: int) -> _Setup:
    """The benchmark by name or path (held against its pin), the selection, and a config built as
    ``putnam solve`` builds one; refused when the gates cannot run here or fail the selftest."""
    chosen = get_prover(prover)
    located = locate_benchmark(benchmark, chosen.name)
    open_benchmark(benchmark, chosen.name, None).require_track(track)
    ids = tuple(p.strip() for p in problems.split(",") if p.strip())
    bench, selected = Selection(located.path.resolve(), None, ids, max_problems, located.split).load()
    stated = bench.file.toolchain.version if bench.file is not None else None
    config = SolveConfig(
        prover=chosen.name,
        track=Track(track),
        model=MODEL,
        reviewer_model=None,
        reasoning_effort=None,
        agent="react",
        sandbox="local",
        jobs=1,
        fallback_jobs=1,
        budgets=Budgets(max_turns=max_turns),
        toolchain=stated,
        parts=AgentParts(lemmas=False),
    )
    options = config.verify_options()
    require_gates(chosen.name, options)
    require_selftest(chosen.name, options, log.info)  # Inspect shows it at --log-level info
    return _Setup(chosen, bench, {p.id: p for p in selected}, config)


def _problem(setup: _Setup, problem_id: str, pool: SessionPool | None) -> ProblemContext:
    """The problem's context as a campaign builds it (``task._context``): the same check and acceptance."""
    return _context(setup.prover, setup.benchmark, setup.problems[problem_id], setup.config, pool)


@solver
def putnam_worker(setup: _Setup) -> Solver:
    """The react worker of ``putnam solve``; the bytes of its last submission go to the store."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        config = setup.config
        with contextlib.closing(session_pool(config)) as pool:
            ctx = _problem(setup, str(state.metadata["problem_id"]), pool)
            statement = setup.prover.model_statement(ctx.problem, ctx.track)
            judge = Judge(ctx, statement, None, None)
            attempt = AttemptState()
            roots, glob = library_roots(setup.prover, config.verify_options())
            state.messages = first_messages(system_prompt(setup.prover, config), state.input_text)
            try:
                tools = worker_tools(judge, attempt, roots, glob)
                await react_worker(judge, attempt, state.messages, tools, config.budgets.max_turns)
            finally:
                last = attempt.last
                store().set(CANDIDATE_KEY, last.candidate if last is not None else None)
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def putnam_gates(setup: _Setup) -> Scorer:
    """The acceptance gates of ``putnam solve`` (full profile, fresh sandbox) on the last submission."""

    async def score(state: TaskState, target: Target) -> Score:
        candidate = store().get(CANDIDATE_KEY)
        if not isinstance(candidate, str):
            return Score(value=INCORRECT, answer="no_submission", explanation="the worker submitted nothing")
        ctx = _problem(setup, str(state.metadata["problem_id"]), None)
        verdict = await verify_text(ctx, candidate, ctx.accept_options)
        if isinstance(verdict, str):
            return Score(value=INCORRECT, answer="not a candidate", explanation=verdict)
        first = verdict.first_problem()
        return Score(
            value=CORRECT if verdict.accepted else INCORRECT,
            answer=verdict.status,
            explanation=f"{first.id} {first.name} {first.status}: {first.detail[:500]}" if first else verdict.status,
            metadata={
                "candidate_sha256": verdict.candidate_sha256,
                "gates": {g.id: g.status for g in verdict.gates},
                "profile": ctx.accept_options.profile.value,
            },
        )

    return score


def benchmark_task(
    benchmark: str,
    prover: str,
    track: str,
    problems: str,
    max_problems: int | None,
    max_turns: int,
    samples: int,
) -> Task:
    """One benchmark as an Inspect task: a sample per selected problem, each with its task prompt."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples={samples}: give 1 to {MAX_SAMPLES} samples per problem")
    setup = _setup(benchmark, prover, track, problems, max_problems, max_turns)
    dataset = [
        Sample(
            id=p.id,
            input=task_prompt(setup.prover, p, setup.config, None, ()),
            metadata={"problem_id": p.id, "prover": setup.prover.name, "track": track},
        )
        for p in setup.problems.values()
    ]
    reducers = ["mean", *(f"pass_at_{k}" for k in range(2, samples + 1))]
    return Task(
        dataset=dataset,
        solver=putnam_worker(setup),
        scorer=putnam_gates(setup),
        epochs=Epochs(samples, reducers) if samples > 1 else None,
        metadata={"benchmark": setup.benchmark.label, "benchmark_sha256": setup.benchmark.sha256},
    )


@task(name=_registered("putnambench"))
def putnambench(
    prover: str = "rocq",
    track: str = "with-answer",
    problems: str = "",
    max_problems: int | None = None,
    max_turns: int = 50,
    samples: int = 1,
    benchmark: str = "putnambench",
) -> Task:
    """PutnamBench (``-T prover=lean`` for Lean 4; ``-T benchmark=PATH`` for a JSONL file of its format)."""
    return benchmark_task(benchmark, prover, track, problems, max_problems, max_turns, samples)


@task(name=_registered("minif2f"))
def minif2f(
    prover: str = "rocq",
    split: str = "test",
    problems: str = "",
    max_problems: int | None = None,
    max_turns: int = 50,
    samples: int = 1,
) -> Task:
    """miniF2F, one split (``valid`` or ``test``)."""
    return benchmark_task(f"minif2f:{split}", prover, "with-answer", problems, max_problems, max_turns, samples)


@task(name=_registered("proofnet"))
def proofnet(
    split: str = "test", problems: str = "", max_problems: int | None = None, max_turns: int = 50, samples: int = 1
) -> Task:
    """ProofNet (Lean 4), one split (``valid`` or ``test``)."""
    return benchmark_task(f"proofnet:{split}", "lean", "with-answer", problems, max_problems, max_turns, samples)
