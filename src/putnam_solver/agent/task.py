"""One Inspect evaluation per campaign: a sample per problem, a worker, a harness-side verdict.

``run_campaign_attempts`` builds the task, runs it with ``inspect_ai.eval`` (the ``.eval`` transcripts go
to ``log_dir``) and reports every finished attempt through ``on_attempt`` from the scorer, as soon as
that problem's verdict is known. The verdict never comes from the model or its sandbox: acceptance runs
the gate pipeline on the candidate's bytes (the ``submit`` argument, or the statement file copied out
of the sandbox for CLI agents), against the challenge the harness derives from the pinned record.

Budgets: each attempt runs inside Inspect's ``token_limit`` and ``cost_limit`` set to what its problem
may still spend. Inspect's model hook reports every completed model call, whichever agent made it (our
react loop, or a CLI agent through Inspect's model bridge); ``LiveRunHooks`` feeds it into the job's
``LiveRun``, and when the run budget is spent it stops the attempts in flight. Rate limiting is read from
Inspect's per-model throughput counters (they count retries whether Inspect or the provider's SDK made
them) after every call and once a second.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.hooks import Hooks, ModelUsageData, hooks
from inspect_ai.log import EvalLog
from inspect_ai.log._samples import active_samples
from inspect_ai.model import GenerateConfig, Model, ModelUsage, get_model
from inspect_ai.model._throughput import _registry as throughput_registry
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import (
    LimitExceededError,
    SandboxEnvironmentSpec,
    cost_limit,
    sample_limits,
    token_limit,
)
from inspect_ai.util._concurrency import AdaptiveConcurrency, adaptive_controllers

from putnam_solver.agent.cli_sandbox import SANDBOX_NAME, layer_for, require_layer
from putnam_solver.agent.pricing import Price, price_table, register_with_inspect, usage_cost, usage_tokens
from putnam_solver.agent.tools import ProblemContext, library_roots, render
from putnam_solver.agent.types import (
    Allowance,
    AttemptResult,
    CampaignJob,
    CarryForward,
    LiveRun,
    SolveConfig,
)
from putnam_solver.agent.worker import (
    AttemptState,
    Judge,
    carry_forward_text,
    cli_agent,
    cli_binary,
    file_worker,
    first_messages,
    react_worker,
)
from putnam_solver.benchmark import Benchmark, Problem, write_atomic
from putnam_solver.provers import Prover, get_prover
from putnam_solver.provers.lean.toolchain import LEAN_TOOLCHAIN, ToolchainPaths, toolchain_root
from putnam_solver.untrusted import clean_text

log = logging.getLogger(__name__)
PROMPT_FILE = "PROMPT.md"
RATE_LIMIT_POLL_SECONDS = 1.0


# ---------------------------------------------------------------------------------------------------------
# workspaces


def prepare_workspaces(
    problems: Sequence[Problem], benchmark: Benchmark, config: SolveConfig, work_dir: Path
) -> list[Path]:
    """Write each problem's workspace (statement file, project file, PROMPT.md); no model is called.

    The statement file holds what the model may see on this track; the challenge (with an inlined
    answer) never enters a workspace.
    """
    prover = get_prover(config.prover)
    return [_write_workspace(prover, problem, config, work_dir / problem.id) for problem in problems]


def _write_workspace(prover: Prover, problem: Problem, config: SolveConfig, where: Path) -> Path:
    statement = prover.model_statement(problem, config.track)
    file_name = f"{problem.module}{prover.suffix}"
    write_atomic(where / file_name, statement.encode("utf-8"))
    for name, text in _project_files(prover.name, config).items():
        write_atomic(where / name, text.encode("utf-8"))
    prompt = _system_prompt(prover, config) + "\n\n---\n\n" + _task_prompt(prover, problem, config, None)
    write_atomic(where / PROMPT_FILE, prompt.encode("utf-8"))
    return where


def _project_files(prover_name: str, config: SolveConfig) -> dict[str, str]:
    """A Coq project file, or a Lake project that reuses the bootstrapped Mathlib build."""
    if prover_name == "rocq":
        return {"_CoqProject": "-Q . Putnam\n"}
    mathlib = ToolchainPaths(toolchain_root()).project / ".lake" / "packages" / "mathlib"
    lakefile = f'name = "putnam_attempt"\n\n[[require]]\nname = "mathlib"\npath = "{mathlib.as_posix()}"\n'
    return {"lakefile.toml": lakefile, "lean-toolchain": LEAN_TOOLCHAIN + "\n"}


def _system_prompt(prover: Prover, config: SolveConfig) -> str:
    label = "Lean 4 with Mathlib" if prover.name == "lean" else "Rocq (Coq)"
    return render(
        "worker_system.md",
        prover_label=label,
        policy=prover.policy_text(),
        max_turns=str(config.budgets.max_turns),
    )


def _task_prompt(prover: Prover, problem: Problem, config: SolveConfig, carried: CarryForward | None) -> str:
    template = "worker_task.md" if config.agent == "react" else "codex_task.md"
    return render(
        template,
        problem_id=problem.id,
        file_name=f"{problem.module}{prover.suffix}",
        statement=prover.model_statement(problem, config.track),
        policy=prover.policy_text(),
        carry_forward=carry_forward_text(carried),
    )


# ---------------------------------------------------------------------------------------------------------
# the run


@dataclass
class CampaignRun:
    """Shared, harness-side state of one evaluation: contexts per problem, attempts, what was reported,
    and whether the run budget stopped it (``stopped``, the reason)."""

    job: CampaignJob
    prover: Prover
    contexts: dict[str, ProblemContext]
    prices: dict[str, Price]
    roots: tuple[Path, ...]
    glob: str
    states: dict[str, AttemptState] = field(default_factory=dict)
    reported: set[str] = field(default_factory=set)
    stopped: str | None = None

    @property
    def config(self) -> SolveConfig:
        return self.job.config

    @property
    def live(self) -> LiveRun:
        return self.job.live

    def allowance(self, problem_id: str) -> Allowance:
        budgets = self.config.budgets
        return self.job.allowances.get(problem_id, Allowance(budgets.token_limit, budgets.cost_limit_dollars))

    def spend(self, model: str, usage: ModelUsage, eval_id: str | None) -> None:
        """One model call completed: count it against the run budget; once that is spent, stop every
        attempt of this evaluation (each is scored on what it did, and recorded with what it spent)."""
        cost, _ = usage_cost({model: usage}, self.prices)
        self.live.spend(sum(usage_tokens(usage)), cost)
        if self.stopped is not None:
            return
        self.stopped = self.live.stop_reason()
        if self.stopped is not None:
            log.warning("%s: stopping the attempts in flight", self.stopped)
            for sample in active_samples():
                if eval_id is None or sample.eval_id == eval_id:
                    sample.interrupt("score")

    def observe_rate_limits(self) -> None:
        """Tell the live run how often the provider rate-limited our models, and the connection limit."""
        models = [self.config.model, *([self.config.reviewer_model] if self.config.reviewer_model else [])]
        counters = [throughput_registry.get(model) for model in models]
        retries = sum(c.retries_rate_limit for c in counters if c is not None)
        self.live.rate_limits_seen(retries, _connections())

    def report(
        self, problem_id: str, usage: Mapping[str, ModelUsage], transcript: Path | None
    ) -> AttemptResult | None:
        """Turn one attempt's state into an AttemptResult and hand it to the campaign, once. An attempt
        the run budget kept from starting is not reported (its problem stays unattempted)."""
        state = self.states.get(problem_id)
        if state is None and self.stopped is not None:
            return None
        state = state or AttemptState(error="the attempt never started")
        if state.limit is None and not state.finished and state.error is None:
            state.limit = _limit_hit() or self.stopped
        cost, unpriced = usage_cost(usage, self.prices)
        if unpriced:
            log.warning("no price for %s: its cost is counted as 0", ", ".join(unpriced))
        last = state.last
        result = AttemptResult(
            problem=problem_id,
            status=attempt_status(state),
            turns=state.turns,
            input_tokens=sum(usage_tokens(u)[0] for u in usage.values()),
            output_tokens=sum(usage_tokens(u)[1] for u in usage.values()),
            cost_dollars=cost,
            candidate=last.candidate if last else None,
            verdict=last.verdict if last else None,
            reviewer_feedback=last.feedback if last else None,
            error=state.error or state.limit or state.refused,
            transcript=transcript,
            turn_log=state.turn_log,
        )
        self.reported.add(problem_id)
        self.job.on_attempt(result)
        return result


_ACTIVE_RUN: CampaignRun | None = None
"""The evaluation running in this process; Inspect's hooks are process-wide, so they find it here."""


@hooks(name="putnam_live_run", description="Counts model spend against putnam solve's run budget.")
class LiveRunHooks(Hooks):
    """Feeds every completed model call into the running campaign."""

    def enabled(self) -> bool:
        return _ACTIVE_RUN is not None

    async def on_model_usage(self, data: ModelUsageData) -> None:
        run = _ACTIVE_RUN
        if run is not None:
            run.spend(data.model_name, data.usage, data.eval_id)
            run.observe_rate_limits()


def _load_hooks_quietly() -> None:
    """Inspect announces the hooks it loads on stdout, once per process; ours is part of ``putnam solve``,
    whose stdout carries only the run's result. Loading them here, silenced, makes the later load a no-op."""
    from inspect_ai.hooks._startup import init_hooks

    with contextlib.redirect_stdout(io.StringIO()):
        init_hooks()


_load_hooks_quietly()


class _RateLimitWatch:
    """Observes rate limiting once a second while an evaluation runs, so that the view shows it even
    while every request is backing off and no call completes."""

    def __init__(self, run: CampaignRun) -> None:
        self._run = run
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="putnam-rate-limits", daemon=True)

    def __enter__(self) -> None:
        self._thread.start()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(RATE_LIMIT_POLL_SECONDS):
            self._run.observe_rate_limits()


def _connections() -> str | None:
    """The adaptive connection limit now (it falls on rate limits and recovers while calls succeed)."""
    controllers = adaptive_controllers()
    if not controllers:
        return None
    return ", ".join(f"{c.value} of {c.max} connections (at least {c.min})" for c in controllers)


def attempt_status(state: AttemptState) -> str:
    """passed only for an accepted, unvetoed submission; otherwise why the attempt ended without one."""
    if state.passed:
        return "passed"
    if state.error is not None:
        return "error"
    if state.limit is not None:
        return "budget"
    if not state.finished:
        return "error"
    last = state.last
    if last is None:
        return "no_submission"
    return "vetoed" if last.vetoed else "rejected"


def _limit_hit() -> str | None:
    """The sample limit (tokens, cost, time) that stopped the attempt, if one did."""
    try:
        limits = sample_limits()
    except RuntimeError:
        return None
    for name in ("token", "cost", "time", "working", "message", "turn"):
        limit = getattr(limits, name)
        if limit.limit is not None and limit.usage >= limit.limit:
            return f"{name} limit reached ({limit.usage:g} of {limit.limit:g})"
    return None


@solver
def attempt_solver(run: CampaignRun) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        problem_id = str(state.metadata["problem_id"])
        if run.stopped is not None:  # the run budget was spent before this attempt could start
            return state
        ctx = run.contexts[problem_id]
        allowance = run.allowance(problem_id)
        attempt = run.states.setdefault(problem_id, AttemptState())
        reviewer = get_model(role="reviewer") if run.config.reviewer_model else None
        judge = Judge(
            ctx,
            run.prover.model_statement(ctx.problem, ctx.track),
            reviewer,
            run.config.budgets.reviewer_timeout_seconds,
        )
        task = _task_prompt(run.prover, ctx.problem, run.config, run.job.carried.get(problem_id))
        try:
            with token_limit(allowance.tokens), cost_limit(allowance.cost_dollars):
                if run.config.agent == "react":
                    state.messages = first_messages(_system_prompt(run.prover, run.config), task)
                    await react_worker(
                        judge, attempt, state.messages, run.roots, run.glob, run.config.budgets.max_turns
                    )
                else:
                    await file_worker(judge, attempt, cli_agent(run.config.agent, None), task)
        except LimitExceededError as exc:
            attempt.limit = exc.message
            raise
        except Exception as exc:
            attempt.error = clean_text(f"{type(exc).__name__}: {exc}")  # may quote a tool argument
            raise
        return state

    return solve


@scorer(metrics=[accuracy()])
def attempt_scorer(run: CampaignRun) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        from inspect_ai.log._samples import sample_active
        from inspect_ai.model._model import sample_model_usage

        active = sample_active()
        transcript = Path(active.log_location) if active is not None and active.log_location else None
        result = run.report(str(state.metadata["problem_id"]), sample_model_usage(), transcript)
        if result is None:
            return Score(value=INCORRECT, answer="not started", explanation=run.stopped)
        return Score(
            value=CORRECT if result.status == "passed" else INCORRECT,
            answer=result.status,
            explanation=result.error or (result.verdict.status if result.verdict else result.status),
            metadata={"status": result.status, "cost_dollars": result.cost_dollars, "turns": result.turns},
        )

    return score


def _sample(ctx: ProblemContext, workspace: Path, task_text: str) -> Sample:
    files = {p.name: str(p) for p in sorted(workspace.iterdir()) if p.is_file()}
    return Sample(id=ctx.problem.id, input=task_text, metadata={"problem_id": ctx.problem.id}, files=files)


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
        **(config.model_args if same_provider else {}),
    )


def check_models(config: SolveConfig) -> None:
    """Create the worker and reviewer models once, before any campaign, so that an unknown model or a
    missing API key is reported at once, in words that say what to do (ValueError)."""
    import re

    for role, name in (("worker", config.model), ("reviewer", config.reviewer_model)):
        if name is None:
            continue
        same_provider = name.split("/")[0] == config.model.split("/")[0]
        try:
            get_model(
                name,
                base_url=config.model_base_url if same_provider else None,
                **(config.model_args if same_provider else {}),
            )
        except Exception as exc:
            reason = re.sub(r"\[/?[a-z ]+\]", "", str(exc)).strip().replace("\n\n", " ").rstrip(".")
            raise ValueError(
                f"the {role} model {name!r} cannot be used: {reason}. Models are named provider/model "
                "(e.g. openai/gpt-5.5, anthropic/claude-sonnet-4-5); set the provider's API key in the "
                "environment (e.g. OPENAI_API_KEY, ANTHROPIC_API_KEY)."
            ) from exc


def run_campaign_attempts(job: CampaignJob) -> None:
    """Run one attempt per problem in one Inspect evaluation; report each through ``job.on_attempt``.

    Every problem is reported exactly once: from the scorer as soon as its verdict is known, or, if
    its sample died before scoring, with status ``error`` after the evaluation ends. The one exception:
    a problem whose attempt the run budget kept from starting is not reported.
    """
    global _ACTIVE_RUN
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
    roots, glob = library_roots(prover.name, config.lean)
    run = CampaignRun(
        job=job,
        prover=prover,
        contexts={p.id: _context(prover, job.benchmark, p, config) for p in job.problems},
        prices=prices,
        roots=roots,
        glob=glob,
    )
    workspaces = prepare_workspaces(job.problems, job.benchmark, config, job.work_dir)
    samples = [
        _sample(run.contexts[p.id], ws, _task_prompt(prover, p, config, job.carried.get(p.id)))
        for p, ws in zip(job.problems, workspaces, strict=True)
    ]
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
    if _ACTIVE_RUN is not None:
        raise RuntimeError("another campaign is already running in this process")
    _ACTIVE_RUN = run
    try:
        with _RateLimitWatch(run):
            logs = inspect_eval(
                task,
                model=config.model,
                model_base_url=config.model_base_url,
                model_args=dict(config.model_args),
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
        _ACTIVE_RUN = None
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


def _context(prover: Prover, benchmark: Benchmark, problem: Problem, config: SolveConfig) -> ProblemContext:
    return ProblemContext(
        prover=prover,
        benchmark=benchmark,
        problem=problem,
        track=config.track,
        check_options=config.verify_options(check=True),
        accept_options=config.verify_options(),
    )


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
    for problem in run.job.problems:
        if problem.id in run.reported or (problem.id not in run.states and run.stopped is not None):
            continue
        state = run.states.setdefault(problem.id, AttemptState())
        state.error = (
            state.error or errors.get(problem.id) or errors.get("") or "the sample ended before it was scored"
        )
        run.report(problem.id, usage.get(problem.id, {}), transcript)


__all__ = ["prepare_workspaces", "run_campaign_attempts"]
