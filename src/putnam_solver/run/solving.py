"""``putnam solve``: turn the command's flags into a run request, check it can run, and run it.

Everything here happens before the first model call, so that a user learns about a missing toolchain,
a bad price table or a wrong flag at once, not after an hour of API spend.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.benchmark import locate_benchmark, open_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.selftest import require_selftest
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track
from putnam_solver.doctor import require_gates
from putnam_solver.run.agent.types import Budgets, RunLimits, SolveConfig
from putnam_solver.run.campaign import RunSettings, Selection, SolveOutcome, solve, stored_run
from putnam_solver.run.report.progress import ProgressSink

DEFAULT_CAMPAIGNS = 1
RESUME_FLAGS = (
    "--campaigns",
    "--run-token-limit",
    "--run-cost-limit",
    "--jobs",
    "--fallback-jobs",
    "--model-base-url",
    "--quiet",
)
"""What ``--resume`` may be given: limits to raise and how to connect, never what the run is about."""
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
XHIGH_PROVIDERS = ("openai", "anthropic", "google")
"""Providers whose Inspect model classes adapt ``xhigh`` to what each model supports (clamp or drop it);
an OpenAI-compatible server (``openai-api/...``) or another provider might reject it, so ``auto`` leaves
reasoning effort off there."""


@dataclass(frozen=True)
class SolveFlags:
    """The flags of ``putnam solve`` as given (None where the user gave nothing)."""

    model: str | None
    prover: str
    track: Track
    benchmark: str | None
    benchmark_sha256: str | None
    problems: tuple[str, ...]
    max_problems: int | None
    reviewer_model: str | None
    reasoning_effort: str
    agent: str
    sandbox: str
    jobs: int
    fallback_jobs: int
    max_turns: int
    campaigns: int | None
    worker_timeout: float | None
    reviewer_timeout: float | None
    token_limit: int | None
    cost_limit: float | None
    run_token_limit: int | None
    run_cost_limit: float | None
    prices: Path | None
    model_base_url: str | None
    axle: bool
    tools: dict[str, Path]
    run_dir: Path | None
    resume: Path | None
    fresh: bool
    allow_recursion: bool = False
    kernels: tuple[str, ...] = ("lean",)
    toolchain: str | None = None
    given: frozenset[str] = frozenset()  # the flags the user typed (others hold their defaults)


def build_request(
    flags: SolveFlags, needs_model: bool = True, progress: Callable[[str], None] = lambda _: None
) -> RunSettings:
    """Validate the flags (or load a stored run for ``--resume``) and check the gates can run here and
    judge the selftest canaries right (the selftest runs once per toolchain; ``progress`` hears of it)."""
    request = _resumed(flags) if flags.resume is not None else _new(flags, needs_model)
    if needs_model:
        options = request.config.verify_options()
        require_gates(request.config.prover, options)
        from putnam_solver.run.agent import check_models  # imports Inspect AI: only when a model will run

        try:
            check_models(request.config)
        except ValueError as exc:
            raise InputError(str(exc)) from exc
        require_selftest(request.config.prover, options, progress)
    return request


def run(request: RunSettings, progress: ProgressSink | None) -> SolveOutcome:
    return solve(request, progress)


def _resumed(flags: SolveFlags) -> RunSettings:
    assert flags.resume is not None
    refused = sorted(flags.given - {"--resume", *RESUME_FLAGS})
    if refused:
        raise InputError(
            f"--resume takes the run's settings from {flags.resume}; {', '.join(refused)} cannot change "
            f"there. Resume with only {', '.join(RESUME_FLAGS)}, or start a new run with --run-dir"
        )
    stored = stored_run(flags.resume)
    if stored is None:
        raise InputError(f"{flags.resume}: no run to resume here (no ledger); start one with --run-dir")
    limits = RunLimits(
        max_tokens=flags.run_token_limit if flags.run_token_limit is not None else stored.run_limits.max_tokens,
        max_cost_dollars=(
            flags.run_cost_limit if flags.run_cost_limit is not None else stored.run_limits.max_cost_dollars
        ),
    )
    campaigns = stored.campaigns if flags.campaigns is None else flags.campaigns
    config = stored.config
    if "--jobs" in flags.given or "--fallback-jobs" in flags.given:
        jobs = flags.jobs if "--jobs" in flags.given else config.jobs
        fallback = flags.fallback_jobs if "--fallback-jobs" in flags.given else min(config.fallback_jobs, jobs)
        config = dataclasses.replace(config, jobs=jobs, fallback_jobs=fallback)
    if "--model-base-url" in flags.given:
        config = dataclasses.replace(config, model_base_url=flags.model_base_url)
    return dataclasses.replace(stored, config=config, campaigns=campaigns, run_limits=limits)


def _new(flags: SolveFlags, needs_model: bool) -> RunSettings:
    if needs_model and not flags.model:
        raise InputError("--model is required, e.g. --model openai/gpt-5.5 (any Inspect AI provider/model)")
    prover = get_prover(flags.prover)
    located = locate_benchmark(flags.benchmark, prover.name)
    loaded = open_benchmark(flags.benchmark, prover.name, flags.benchmark_sha256)
    loaded.require_track(flags.track.value)
    stated = loaded.file.toolchain.version if loaded.file is not None else None
    model = flags.model or "none"
    reviewer = None if flags.reviewer_model == "none" else (flags.reviewer_model or model)
    config = SolveConfig(
        prover=prover.name,
        track=flags.track,
        model=model,
        reviewer_model=reviewer,
        reasoning_effort=reasoning_effort(flags.reasoning_effort, model),
        agent=flags.agent,
        sandbox=flags.sandbox,
        jobs=flags.jobs,
        fallback_jobs=flags.fallback_jobs,
        budgets=Budgets(
            max_turns=flags.max_turns,
            worker_timeout_seconds=flags.worker_timeout,
            reviewer_timeout_seconds=flags.reviewer_timeout,
            token_limit=flags.token_limit,
            cost_limit_dollars=flags.cost_limit,
        ),
        axle=flags.axle,
        tools=flags.tools,
        allow_recursion=flags.allow_recursion,
        kernels=flags.kernels,
        prices=_load_prices(flags.prices) if flags.prices else {},
        model_base_url=flags.model_base_url,
        toolchain=flags.toolchain or stated,
    )
    selection = Selection(
        benchmark=located.path.resolve(),
        benchmark_sha256=flags.benchmark_sha256,
        problems=flags.problems,
        max_problems=flags.max_problems,
        split=located.split,
    )
    run_dir = flags.run_dir or Path("runs") / time.strftime("%Y%m%d-%H%M%S")
    limits = RunLimits(max_tokens=flags.run_token_limit, max_cost_dollars=flags.run_cost_limit)
    campaigns = DEFAULT_CAMPAIGNS if flags.campaigns is None else flags.campaigns
    return RunSettings(run_dir, config, selection, campaigns, limits, flags.fresh, resume=False)


def reasoning_effort(flag: str, model: str) -> str | None:
    """The reasoning effort to ask for: ``auto`` is ``xhigh`` where the provider adapts it to the model."""
    if flag == "auto":
        return "xhigh" if model.split("/")[0] in XHIGH_PROVIDERS else None
    if flag not in REASONING_EFFORTS:
        raise InputError(f"--reasoning-effort {flag!r}: choose auto or one of {', '.join(REASONING_EFFORTS)}")
    return None if flag == "none" else flag


def _load_prices(path: Path) -> dict[str, dict[str, float]]:
    """A user price table: ``{"provider/model": {"input": dollars per million tokens, "output": ...}}``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the price table: {exc}") from exc
    valid = isinstance(data, dict) and all(
        isinstance(v, dict) and all(isinstance(x, int | float) for x in v.values()) for v in data.values()
    )
    if not valid:
        raise InputError(f'{path}: a price table maps models to {{"input": $/Mtok, "output": $/Mtok}}')
    return {str(k): {str(f): float(x) for f, x in v.items()} for k, v in data.items()}
