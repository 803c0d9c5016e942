"""One Inspect evaluation per campaign: a sample per problem, a worker, a harness-side verdict.

``run_campaign_attempts`` builds the task, runs it with ``inspect_ai.eval`` (the ``.eval`` transcripts go
to ``log_dir``) and reports every finished attempt through ``on_attempt`` from the scorer, as soon as
that problem's verdict is known. The verdict never comes from the model or its sandbox: acceptance runs
the gate pipeline on the candidate's bytes (the ``submit`` argument, or the statement file copied out
of the sandbox for CLI agents), against the challenge the harness derives from the pinned record.

Budgets: each attempt runs inside Inspect's ``token_limit`` and ``cost_limit`` set to what its problem
may still spend; the run budget and rate limiting are watched by ``live.py``. Workspaces and prompts
are ``workspace.py``'s.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model, ModelUsage, get_model
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import (
    AdaptiveConcurrency,
    LimitExceededError,
    SandboxEnvironmentSpec,
    background,
    cost_limit,
    token_limit,
)

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.untrusted import clean_text
from putnam_solver.kits.interactive import DEFAULT_MAX_SESSIONS
from putnam_solver.kits.sessions import SessionPool
from putnam_solver.markdown_text import paragraph
from putnam_solver.run.agent._inspect import load_hooks_quietly, sample_active, sample_model_usage
from putnam_solver.run.agent.cli_sandbox import SANDBOX_NAME, layer_for, require_layer
from putnam_solver.run.agent.cli_worker import cli_agent, cli_binary, file_worker
from putnam_solver.run.agent.live import ACTIVE_RUN, CampaignRun, InterruptWatch, RateLimitWatch
from putnam_solver.run.agent.mock_model import model_args_for
from putnam_solver.run.agent.model_names import require_same_sources
from putnam_solver.run.agent.preflight import unreachable
from putnam_solver.run.agent.pricing import price_table, register_with_inspect
from putnam_solver.run.agent.react import attempt_judge, react_attempt
from putnam_solver.run.agent.toolkit import prepare
from putnam_solver.run.agent.tools import ProblemContext, library_roots
from putnam_solver.run.agent.types import CampaignJob, SolveConfig, slot_label
from putnam_solver.run.agent.worker import AttemptState
from putnam_solver.run.agent.workspace import prepare_workspaces, task_prompt
from putnam_solver.verifier.dispatch import LOCAL, Verifier


@solver
def attempt_solver(run: CampaignRun) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        problem_id, key = str(state.metadata["problem_id"]), str(state.sample_id)
        if run.stopped is not None:  # the run budget was spent before this attempt could start
            return state
        ctx = run.contexts[problem_id]
        allowance = run.allowance(problem_id)
        attempt = run.states.setdefault(key, AttemptState())
        judge = attempt_judge(run.config, ctx)
        task = _task_prompt(run, ctx.problem)
        try:
            with token_limit(allowance.tokens), cost_limit(allowance.cost_dollars):
                if run.config.agent == "react":
                    await react_attempt(run.agent, ctx, judge, attempt, state, task, run.slots[key][1])
                else:
                    background(prepare, ctx)
                    await file_worker(judge, attempt, cli_agent(run.config.agent, None), task)
        except LimitExceededError as exc:
            attempt.limit = exc.message
            raise
        except Exception as exc:
            attempt.error = clean_text(f"{type(exc).__name__}: {exc}")  # may quote a tool argument
            raise
        return state

    return solve


def _task_prompt(run: CampaignRun, problem: Problem) -> str:
    job = run.job
    return task_prompt(
        run.prover,
        problem,
        run.config,
        job.carried.get(problem.id),
        job.lemmas.get(problem.id, ()),
        job.sketches.get(problem.id),
    )


@scorer(metrics=[accuracy()])
def attempt_scorer(run: CampaignRun) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        active = sample_active()
        transcript = Path(active.log_location) if active is not None and active.log_location else None
        result = run.report(str(state.sample_id), sample_model_usage(), transcript)
        if result is None:
            return Score(value=INCORRECT, answer="not started", explanation=run.stopped)
        return Score(
            value=CORRECT if result.status == "passed" else INCORRECT,
            answer=result.status,
            explanation=paragraph(result.error or (result.verdict.status if result.verdict else result.status)),
            metadata={"status": result.status, "cost_dollars": result.cost_dollars, "turns": result.turns},
        )

    return score


def _sample(ctx: ProblemContext, workspace: Path, task_text: str, sample: int = 1) -> Sample:
    """One attempt: a sample per (problem, sample) pair, named by ``slot_label``; each gets a fresh
    sandbox with its own copy of the workspace's files."""
    files = {p.name: str(p) for p in sorted(workspace.iterdir()) if p.is_file()}
    metadata = {"problem_id": ctx.problem.id, "sample": sample}
    return Sample(id=slot_label(ctx.problem.id, sample), input=task_text, metadata=metadata, files=files)


def generate_config(config: SolveConfig) -> GenerateConfig:
    """Reasoning effort and connections: ``jobs`` at first, falling back towards ``fallback_jobs`` on 429s.

    Inspect's adaptive concurrency lowers the connection limit when the provider rate-limits and raises
    it again while requests succeed, within ``[fallback_jobs, jobs]``. Retries and timeouts follow
    Inspect's own environment variables (``INSPECT_EVAL_MAX_RETRIES``, ``INSPECT_EVAL_TIMEOUT``,
    ``INSPECT_EVAL_ATTEMPT_TIMEOUT``) when they are set.
    """

    def env_int(name: str) -> int | None:
        value = os.environ.get(name)
        return int(value) if value else None

    adaptive: AdaptiveConcurrency | bool
    if config.fallback_jobs < config.jobs:
        adaptive = AdaptiveConcurrency(min=config.fallback_jobs, start=config.jobs, max=config.jobs)
        max_connections = None
    else:
        adaptive, max_connections = False, config.jobs
    return GenerateConfig(
        reasoning_effort=config.reasoning_effort,  # type: ignore[arg-type]
        max_connections=max_connections,
        adaptive_connections=adaptive,
        max_retries=env_int("INSPECT_EVAL_MAX_RETRIES"),
        timeout=env_int("INSPECT_EVAL_TIMEOUT"),
        attempt_timeout=env_int("INSPECT_EVAL_ATTEMPT_TIMEOUT"),
    )


def _reviewer(config: SolveConfig, generate: GenerateConfig) -> Model | None:
    """The reviewer role's model. The worker's base URL and model args apply when both share a provider."""
    if config.reviewer_model is None:
        return None
    same_provider = config.reviewer_model.split("/")[0] == config.model.split("/")[0]
    return get_model(
        config.reviewer_model,
        role="reviewer",
        config=generate,
        base_url=config.model_base_url if same_provider else None,
        **model_args_for(config.reviewer_model, config.model_args if same_provider else {}),
    )


def check_models(config: SolveConfig, sources: Mapping[str, str]) -> None:
    """Create the worker and reviewer models once, before any campaign, and open one connection to each
    model's server, so that an unknown model, a missing API key or a server that refuses connections is
    reported at once, in words that say what to do (ValueError). A model loaded on this machine is loaded
    only while it is what ``sources`` found (``model_names.require_same_sources``)."""
    import re

    require_same_sources(sources, (config.model, config.reviewer_model))
    load_hooks_quietly()  # creating a model loads Inspect's hooks, which announce themselves on stdout
    checked: set[str] = set()
    for role, name in (("worker", config.model), ("reviewer", config.reviewer_model)):
        if name is None:
            continue
        same_provider = name.split("/")[0] == config.model.split("/")[0]
        try:
            model = get_model(
                name,
                base_url=config.model_base_url if same_provider else None,
                **model_args_for(name, config.model_args if same_provider else {}),
            )
        except Exception as exc:
            reason = re.sub(r"\[/?[a-z ]+\]", "", str(exc)).strip().replace("\n\n", " ").rstrip(".")
            raise ValueError(
                f"the {role} model {name!r} cannot be used: {reason}. Models are named provider/model "
                "(e.g. openai/gpt-5.5, anthropic/claude-sonnet-4-5); set the provider's API key in the "
                "environment (e.g. OPENAI_API_KEY, ANTHROPIC_API_KEY)."
            ) from exc
        url = server_url(model)
        if url is None or url in checked:
            continue
        checked.add(url)
        why = unreachable(url)
        if why is not None:
            given = "--model-base-url" if same_provider and config.model_base_url else "the provider's base URL"
            fix = (
                f"Start the server, or correct {given}"
                if model.api.base_url
                else "Check this machine's network (or set HTTPS_PROXY), or give --model-base-url"
            )
            raise ValueError(
                f"the {role} model {name!r} cannot reach its server at {url}: {why}. {fix} "
                "(`putnam solve --resume` may change --model-base-url); nothing was spent."
            )


def server_url(model: Model) -> str | None:
    """Where ``model``'s calls go: the base URL it was given, else its client's own default (Inspect leaves
    ``base_url`` unset for a provider's default server, which the connection check then skipped: a first run
    with no network retried for minutes instead of naming the host)."""
    given = model.api.base_url
    client = getattr(model.api, "client", None)
    default = getattr(client, "base_url", None)
    return given or (str(default) if default else None)


def run_campaign_attempts(job: CampaignJob) -> None:
    """Run one attempt per problem and sample (``job.slots()``) in one Inspect evaluation; report each
    through ``job.on_attempt``.

    Every attempt is reported exactly once: from the scorer as soon as its verdict is known, or, if
    its sample died before scoring, with status ``error`` after the evaluation ends. The one exception:
    an attempt the run budget kept from starting is not reported.
    """
    config = job.config
    sandbox_spec = workspace_sandbox(config)  # fails before any model call when a CLI cannot run here
    if not job.problems:
        return
    prover = get_prover(config.prover)
    prices = price_table(config.prices)
    models = [config.model, *([config.reviewer_model] if config.reviewer_model else [])]
    unpriced = register_with_inspect(models, prices)
    if unpriced and (config.budgets.cost_limit_dollars is not None or job.live.limits.max_cost_dollars is not None):
        raise ValueError(
            f"a cost limit needs prices for {', '.join(unpriced)}; give them as model -> "
            '{"input": $/Mtok, "output": $/Mtok}'
        )
    roots, glob = library_roots(prover, config.verify_options())
    pool = session_pool(config)
    run = CampaignRun(
        job=job,
        prover=prover,
        contexts={
            p.id: _context(prover, job.benchmark, p, config, pool, job.verifier, job.toolchain) for p in job.problems
        },
        prices=prices,
        roots=roots,
        glob=glob,
    )
    workspaces = dict(
        zip(job.problems, prepare_workspaces(job.problems, job.benchmark, config, job.work_dir), strict=True)
    )
    prompts = {p.id: _task_prompt(run, p) for p in job.problems}
    samples = [_sample(run.contexts[p.id], workspaces[p], prompts[p.id], n) for p, n in job.slots()]
    generate = generate_config(config)
    task = Task(
        name=f"putnam_{prover.name}_campaign_{job.number}",
        dataset=samples,
        solver=attempt_solver(run),
        scorer=attempt_scorer(run),
        sandbox=sandbox_spec,
        metadata={"campaign": job.number, "prover": prover.name, "track": config.track.value},
    )
    timeout = config.budgets.worker_timeout_seconds
    if ACTIVE_RUN.get() is not None:
        raise RuntimeError("another campaign is already running in this context")
    load_hooks_quietly()
    require_same_sources(job.model_sources, models)  # the campaign loads its models now: as they were checked
    active = ACTIVE_RUN.set(run)
    try:
        with RateLimitWatch(run), InterruptWatch(run), contextlib.closing(pool):
            logs = inspect_eval(
                task,
                model=config.model,
                model_base_url=config.model_base_url,
                model_args=model_args_for(config.model, config.model_args),
                model_roles=_roles(config, generate),
                log_dir=str(job.log_dir),
                display="none",
                fail_on_error=False,
                score_on_error=True,
                max_samples=config.jobs,
                time_limit=int(timeout) if timeout else None,
                **generate.model_dump(exclude_none=True),
            )
    finally:
        ACTIVE_RUN.reset(active)
    _report_unscored(run, logs)


def workspace_sandbox(config: SolveConfig) -> str | SandboxEnvironmentSpec:
    """The sandbox the workspaces run in. A CLI agent under ``local`` runs in ``putnam-cli``, the local
    sandbox that shows the agent only its workspace and its CLI (cli_sandbox.py); it is refused, never
    run without it, when that layer cannot be set up here."""
    if config.agent == "react":
        return config.sandbox
    binary = cli_binary(config.agent)
    if config.sandbox != "local":
        return config.sandbox
    layer = layer_for(binary)
    require_layer(layer)
    return SandboxEnvironmentSpec(SANDBOX_NAME, layer)


def _roles(config: SolveConfig, generate: GenerateConfig) -> dict[str, str | Model] | None:
    reviewer = _reviewer(config, generate)
    return {"reviewer": reviewer} if reviewer is not None else None


def _context(
    prover: Prover,
    benchmark: Benchmark,
    problem: Problem,
    config: SolveConfig,
    pool: SessionPool | None = None,
    verifier: Verifier = LOCAL,
    toolchain: str | None = None,
) -> ProblemContext:
    return ProblemContext(
        prover=prover,
        benchmark=benchmark,
        problem=problem,
        track=config.track,
        check_options=config.verify_options(check=True),
        accept_options=config.verify_options(),
        pool=pool,
        parts=config.parts,
        verifier=verifier,
        toolchain=toolchain,
    )


def session_pool(config: SolveConfig) -> SessionPool:
    """The campaign's checker sessions: warm and reused (``--without warm``: one per exchange, for proof
    states and drafts only). At most one per core, and no more than ``DEFAULT_MAX_SESSIONS``: each
    holds its imports in memory."""
    sessions = max(1, min(os.cpu_count() or 1, DEFAULT_MAX_SESSIONS))
    return SessionPool(max_sessions=sessions, reuse=config.parts.warm)


def _report_unscored(run: CampaignRun, logs: list[EvalLog]) -> None:
    """Problems whose sample never reached the scorer are reported as errors, with the reason."""
    errors: dict[str, str] = {}
    usage: dict[str, dict[str, ModelUsage]] = {}
    transcript: Path | None = None
    for evaluation in logs:
        transcript = Path(evaluation.location) if evaluation.location else transcript
        for sample in evaluation.samples or []:
            usage[str(sample.id)] = dict(sample.model_usage)
            if sample.error is not None:
                errors[str(sample.id)] = sample.error.message
        if evaluation.error is not None:
            errors.setdefault("", evaluation.error.message)
    for key in run.slots:
        if key in run.reported or (key not in run.states and run.stopped is not None):
            continue
        state = run.states.setdefault(key, AttemptState())
        state.error = state.error or errors.get(key) or errors.get("") or "the sample ended before it was scored"
        run.report(key, usage.get(key, {}), transcript)


__all__ = ["check_models", "prepare_workspaces", "run_campaign_attempts"]
