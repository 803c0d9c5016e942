"""Inspect tasks for Inspect's own CLI: ``inspect eval putnam_solver/putnambench --model ...``.

The same dataset (the pinned benchmark), the same agent and the same gates as ``putnam solve``, with the
gates as the scorer: a sample is CORRECT only when the full acceptance profile, run harness-side on the
bytes of the worker's last submission against the challenge derived from the pinned record, accepts it
(and, with ``-T reviewer=veto``, the reviewer did not veto it). Nothing the model says or prints is read
for the score. ``--epochs K`` runs K independent samples per problem; Inspect's own reducers give pass@k
(``--epochs-reducer mean,pass_at_2,pass_at_4``), and ``-T samples=K`` sets both at once.

The agent is ``putnam solve``'s, built by the same function (``react.react_attempt``): ``check``,
``goals``, ``search``, the retrieval tools, the ``sketch`` stage, ``prove_lemma`` sub-attempts (each
lemma judged on the fast profile on its own file) and ``submit``, with history compaction.
``-T without=sketch,lemmas`` turns parts off as ``putnam solve --without`` does; ``-T max_turns=N``,
``-T lemma_turns=N`` and ``-T lemma_token_limit=N`` are its ``--max-turns``, ``--lemma-turns`` and
``--lemma-token-limit`` (same defaults; a count that is not positive is refused). The reviewer is the
model bound to Inspect's ``reviewer`` role (``--model-role reviewer=provider/model``), else the
worker's. As with ``putnam solve``, none is asked by default (``-T reviewer=off``); ``-T reviewer=advise``
records its view of each proof the gates accepted in the score's metadata and the sample counts as the
gates say; ``-T reviewer=veto`` lets its veto un-count the proof, and adds the scorer
``putnam_reviewer_veto`` whose metric ``accepted_but_vetoed`` is the share of samples accepted by the gates
and vetoed by the reviewer.

What ``putnam solve`` adds and these tasks leave out: the run directory and its ledger, campaigns (and
with them carried candidates, earlier sketches and the lemma cache across attempts), budgets beyond
Inspect's own limits. Before the first sample the gates must be able to run here and the selftest must
pass on this toolchain, as for ``putnam solve``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    metric,
    scorer,
    stderr,
    value_to_float,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store

from putnam_solver.benchmark_files import locate_benchmark, open_benchmark, require_track
from putnam_solver.benchmark_view import benchmark_label
from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track
from putnam_solver.doctor import require_gates
from putnam_solver.kits.sessions import SessionPool
from putnam_solver.markdown_text import paragraph
from putnam_solver.run.agent._inspect import installed_package
from putnam_solver.run.agent.react import AgentSetup, attempt_judge, react_attempt
from putnam_solver.run.agent.task import _context, session_pool
from putnam_solver.run.agent.tools import ProblemContext, library_roots, verify_text
from putnam_solver.run.agent.types import (
    REVIEWER_MODES,
    AgentParts,
    Budgets,
    SolveConfig,
    SubAttemptResult,
    recorded_opinion,
)
from putnam_solver.run.agent.worker import AttemptState
from putnam_solver.run.agent.workspace import task_prompt
from putnam_solver.run.campaign import Selection
from putnam_solver.run.dotenv_check import check_dotenv
from putnam_solver.run.ledger_rows import MAX_SAMPLES
from putnam_solver.selftest.runner import require_selftest

log = logging.getLogger(__name__)
PACKAGE = "putnam_solver"
CANDIDATE_KEY = "putnam_candidate"
"""The store entry holding the bytes of the worker's last submission (what the scorer judges)."""
REVIEW_KEY = "putnam_review"
"""The store entry holding the reviewer's record of the last submission and whether its veto counted."""
SUBATTEMPTS_KEY = "putnam_subattempts"
"""The store entry listing the sample's lemma sub-attempts as they finished."""
MODEL = "inspect/eval"
"""Stands for the model ``inspect eval --model`` chooses: the prompts and gates never depend on it."""
REVIEWER = "inspect/reviewer"
"""Stands for the model of Inspect's ``reviewer`` role (the worker's unless ``--model-role`` binds one)."""


def _registered(name: str) -> str:
    """The name to give ``@task`` so that it is registered as ``putnam_solver/NAME`` however the package
    is installed: Inspect prefixes the package's name only when it finds the package installed under that
    name (a wheel in site-packages), not for an editable install of ``putnambench-solver``."""
    return name if installed_package(_registered) == PACKAGE else f"{PACKAGE}/{name}"


@dataclass(frozen=True)
class Options:
    """The task parameters (``-T NAME=VALUE``) every benchmark takes besides its selection. Inspect reads
    ``-T`` values as YAML: ``a,b`` comes as a list and ``off`` as False, which these accept too. The turn
    and token counts default as ``putnam solve``'s flags do and, as they are, must be positive."""

    max_turns: int = Budgets.max_turns
    samples: int = 1
    reviewer: str | bool = "off"
    without: str | Sequence[str] = ()
    lemma_turns: int = Budgets.lemma_turns
    lemma_token_limit: int | None = Budgets.lemma_token_limit

    def budgets(self) -> Budgets:
        """The attempt's budgets, as ``putnam solve --max-turns, --lemma-turns, --lemma-token-limit`` give
        them (no ``lemma_token_limit``: unlimited)."""
        limit = self.lemma_token_limit
        return Budgets(
            max_turns=positive("max_turns", self.max_turns),
            lemma_turns=positive("lemma_turns", self.lemma_turns),
            lemma_token_limit=None if limit is None else positive("lemma_token_limit", limit),
        )

    def reviewer_mode(self) -> str:
        mode = "off" if self.reviewer is False else str(self.reviewer)
        if mode not in REVIEWER_MODES:
            raise InputError(f"-T reviewer={self.reviewer}: choose one of {', '.join(REVIEWER_MODES)}")
        return mode


def positive(name: str, value: object) -> int:
    """A count given as ``-T NAME=VALUE``; refused in the parameter's words unless a positive whole number
    (Inspect's YAML may give a string, a bool or a float), before anything runs."""
    if type(value) is not int or value < 1:
        raise InputError(f"-T {name}={value}: give a positive whole number")
    return value


def names(value: str | Sequence[str]) -> tuple[str, ...]:
    """A comma-separated ``-T`` value, given as one string or (as Inspect parses ``a,b``) a list."""
    items = value.split(",") if isinstance(value, str) else [str(item) for item in value]
    return tuple(item.strip() for item in items if item.strip())


@dataclass(frozen=True)
class _Setup:
    """What every sample of one task shares: the benchmark, its selected problems, the run's config and
    the agent's setup."""

    prover: Prover
    benchmark: Benchmark
    problems: dict[str, Problem]
    config: SolveConfig
    agent: AgentSetup
    toolchain: str | None = None


def _setup(
    benchmark: str, prover: str, track: str, problems: Sequence[str], max_problems: int | None, options: Options
) -> _Setup:
    """The benchmark by name or path (held against its pin), the selection, and a config built as
    ``putnam solve`` builds one; refused when the gates cannot run here or fail the selftest."""
    budgets, mode = options.budgets(), options.reviewer_mode()
    chosen = get_prover(prover)
    located = locate_benchmark(benchmark, chosen.name)
    require_track(open_benchmark(benchmark, chosen.name, None), track)
    bench, selected = Selection(located.path.resolve(), None, tuple(problems), max_problems, located.split).load()
    stated = bench.file.toolchain.version if bench.file is not None else None
    config = SolveConfig(
        prover=chosen.name,
        track=Track(track),
        model=MODEL,
        reviewer_model=None if mode == "off" else REVIEWER,
        reviewer_veto=mode == "veto",
        reasoning_effort=None,
        agent="react",
        sandbox="local",
        jobs=1,
        fallback_jobs=1,
        budgets=budgets,
        toolchain=stated,
        parts=AgentParts.without(names(options.without)),
    )
    verify = config.verify_options()
    check_dotenv()  # Inspect loaded it already: refuse what it may have set
    require_gates(chosen.name, verify)
    require_selftest(chosen.name, verify, log.info)  # Inspect shows it at --log-level info
    roots, glob = library_roots(chosen, verify)
    agent = AgentSetup(config, roots, glob, on_subattempt=_keep_subattempt)
    toolchain = chosen.toolchain_fingerprint(verify)  # the one the selftest judged (``toolchain_guard``)
    return _Setup(chosen, bench, {p.id: p for p in selected}, config, agent, toolchain)


def _problem(setup: _Setup, problem_id: str, pool: SessionPool | None) -> ProblemContext:
    """The problem's context as a campaign builds it (``task._context``): the same check and acceptance."""
    return _context(
        setup.prover, setup.benchmark, setup.problems[problem_id], setup.config, pool, toolchain=setup.toolchain
    )


def _keep_subattempt(result: SubAttemptResult) -> None:
    """A finished lemma sub-attempt, kept with its sample (there is no ledger): for the score's metadata."""
    profile = result.verdict.profile.value if result.verdict is not None else None
    kept = {"lemma": result.lemma, "status": result.status, "profile": profile, "turns": result.turns}
    store().set(SUBATTEMPTS_KEY, [*store().get(SUBATTEMPTS_KEY, []), kept])


@solver
def putnam_worker(setup: _Setup) -> Solver:
    """The react agent of ``putnam solve``; the bytes of its last submission and the reviewer's record of
    it go to the store."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        config = setup.config
        with contextlib.closing(session_pool(config)) as pool:
            ctx = _problem(setup, str(state.metadata["problem_id"]), pool)
            attempt = AttemptState()
            try:
                await react_attempt(setup.agent, ctx, attempt_judge(config, ctx), attempt, state, state.input_text)
            finally:
                last = attempt.last
                store().set(CANDIDATE_KEY, last.candidate if last is not None else None)
                review = {"record": last.feedback, "vetoed": last.vetoed} if last and last.feedback else None
                store().set(REVIEW_KEY, review)
        return state

    return solve


def reviewer_view(config: SolveConfig, stored: Any) -> dict[str, Any] | None:
    """The reviewer's view of the submission scored, for the score's metadata (None: no reviewer).
    ``counted``: whether its opinion decided the score (a veto with ``-T reviewer=veto``)."""
    if config.reviewer_model is None:
        return None
    mode = "veto" if config.reviewer_veto else "advise"
    if not isinstance(stored, dict) or not isinstance(stored.get("record"), str):
        return {
            "mode": mode,
            "opinion": None,
            "feedback": "not reviewed: the gates did not accept it",
            "counted": False,
        }
    record = stored["record"]
    opinion = recorded_opinion(record)
    feedback = record.split(":", 1)[1].strip() if opinion is not None else record
    return {"mode": mode, "opinion": opinion, "feedback": feedback, "counted": stored.get("vetoed") is True}


@scorer(metrics=[accuracy(), stderr()])
def putnam_gates(setup: _Setup) -> Scorer:
    """The acceptance gates of ``putnam solve`` (full profile, fresh sandbox) on the last submission; with
    ``-T reviewer=veto``, a proof the reviewer vetoed does not count (answer ``vetoed``)."""

    async def score(state: TaskState, target: Target) -> Score:
        candidate = store().get(CANDIDATE_KEY)
        review = reviewer_view(setup.config, store().get(REVIEW_KEY))
        noted: dict[str, Any] = {"reviewer": review, "subattempts": store().get(SUBATTEMPTS_KEY, [])}
        if not isinstance(candidate, str):
            why = "the worker submitted nothing"
            return Score(value=INCORRECT, answer="no_submission", explanation=why, metadata=noted)
        ctx = _problem(setup, str(state.metadata["problem_id"]), None)
        verdict = await verify_text(ctx, candidate, ctx.accept_options)
        if isinstance(verdict, str):
            return Score(value=INCORRECT, answer="not a candidate", explanation=paragraph(verdict), metadata=noted)
        vetoed = verdict.accepted and review is not None and review["counted"]
        first = verdict.first_problem()
        explanation = f"{first.id} {first.name} {first.status}: {first.detail[:500]}" if first else verdict.status
        # `inspect view` renders an explanation as Markdown; a gate's detail quotes the candidate (coqc prints
        # `fail "..."` as it is) and the reviewer's feedback is a model's: shown as text (red team round 7)
        return Score(
            value=CORRECT if verdict.accepted and not vetoed else INCORRECT,
            answer="vetoed" if vetoed else verdict.status,
            explanation=paragraph(
                f"vetoed by the reviewer: {review['feedback']}" if vetoed and review else explanation
            ),
            metadata={
                "verdict": verdict.status,
                "candidate_sha256": verdict.candidate_sha256,
                "gates": {g.id: g.status for g in verdict.gates},
                "profile": ctx.accept_options.profile.value,
                **noted,
            },
        )

    return score


@metric(name="accepted_but_vetoed")
def accepted_but_vetoed() -> Metric:
    """The share of samples the gates accepted and the reviewer's veto un-counted: the headline of
    ``-T reviewer=veto`` ("accepted by the gates, vetoed by the reviewer"), apart from the accuracy."""
    to_float = value_to_float()

    def compute(scores: list[SampleScore]) -> float:
        return sum(to_float(s.score.value) for s in scores) / len(scores) if scores else 0.0

    return compute


@scorer(metrics=[accepted_but_vetoed()])
def putnam_reviewer_veto() -> Scorer:
    """CORRECT where the worker's last submission passed the gates and the reviewer vetoed it (counted)."""

    async def score(state: TaskState, target: Target) -> Score:
        stored = store().get(REVIEW_KEY)
        vetoed = isinstance(stored, dict) and stored.get("vetoed") is True
        return Score(value=CORRECT if vetoed else INCORRECT, answer="vetoed" if vetoed else "not vetoed")

    return score


def benchmark_task(
    benchmark: str, prover: str, track: str, problems: str | Sequence[str], max_problems: int | None, options: Options
) -> Task:
    """One benchmark as an Inspect task: a sample per selected problem, each with its task prompt."""
    if not 1 <= options.samples <= MAX_SAMPLES:
        raise ValueError(f"samples={options.samples}: give 1 to {MAX_SAMPLES} samples per problem")
    setup = _setup(benchmark, prover, track, names(problems), max_problems, options)
    dataset = [
        Sample(
            id=p.id,
            input=task_prompt(setup.prover, p, setup.config, None, ()),
            metadata={"problem_id": p.id, "prover": setup.prover.name, "track": track},
        )
        for p in setup.problems.values()
    ]
    reducers = ["mean", *(f"pass_at_{k}" for k in range(2, options.samples + 1))]
    scorers = [putnam_gates(setup), *([putnam_reviewer_veto()] if setup.config.reviewer_veto else [])]
    return Task(
        dataset=dataset,
        solver=putnam_worker(setup),
        scorer=scorers,
        epochs=Epochs(options.samples, reducers) if options.samples > 1 else None,
        metadata={"benchmark": benchmark_label(setup.benchmark), "benchmark_sha256": setup.benchmark.sha256},
    )


@task(name=_registered("putnambench"))
def putnambench(
    prover: str = "rocq",
    track: str = "with-answer",
    problems: str | list[str] = "",
    max_problems: int | None = None,
    max_turns: int = Budgets.max_turns,
    samples: int = 1,
    benchmark: str = "putnambench",
    reviewer: str | bool = "off",
    without: str | list[str] = "",
    lemma_turns: int = Budgets.lemma_turns,
    lemma_token_limit: int | None = Budgets.lemma_token_limit,
) -> Task:
    """PutnamBench (``-T prover=lean`` for Lean 4; ``-T benchmark=PATH`` for a JSONL file of its format)."""
    options = Options(max_turns, samples, reviewer, without, lemma_turns, lemma_token_limit)
    return benchmark_task(benchmark, prover, track, problems, max_problems, options)


@task(name=_registered("minif2f"))
def minif2f(
    prover: str = "rocq",
    split: str = "test",
    problems: str | list[str] = "",
    max_problems: int | None = None,
    max_turns: int = Budgets.max_turns,
    samples: int = 1,
    reviewer: str | bool = "off",
    without: str | list[str] = "",
    lemma_turns: int = Budgets.lemma_turns,
    lemma_token_limit: int | None = Budgets.lemma_token_limit,
) -> Task:
    """miniF2F, one split (``valid`` or ``test``)."""
    options = Options(max_turns, samples, reviewer, without, lemma_turns, lemma_token_limit)
    return benchmark_task(f"minif2f:{split}", prover, "with-answer", problems, max_problems, options)


@task(name=_registered("proofnet"))
def proofnet(
    split: str = "test",
    problems: str | list[str] = "",
    max_problems: int | None = None,
    max_turns: int = Budgets.max_turns,
    samples: int = 1,
    reviewer: str | bool = "off",
    without: str | list[str] = "",
    lemma_turns: int = Budgets.lemma_turns,
    lemma_token_limit: int | None = Budgets.lemma_token_limit,
) -> Task:
    """ProofNet (Lean 4), one split (``valid`` or ``test``)."""
    options = Options(max_turns, samples, reviewer, without, lemma_turns, lemma_token_limit)
    return benchmark_task(f"proofnet:{split}", "lean", "with-answer", problems, max_problems, options)
