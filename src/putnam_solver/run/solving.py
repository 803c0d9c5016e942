"""``putnam solve``: turn the command's flags into a run request, check it can run, and run it.

``solve_command`` is the whole command; the CLI only parses flags and prints what it returns. Everything
before the run happens before the first model call, so that a user learns about a missing toolchain, a
bad price table, a wrong flag or a model server that refuses connections at once, not after an hour of
API spend; its first line is printed before the slow part (importing Inspect AI, the selftest).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from putnam_solver.benchmark_files import locate_benchmark, open_benchmark, require_track
from putnam_solver.bounded_json import check_depth
from putnam_solver.cluster.ray import open_verifier
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.benchmark import BenchmarkError
from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import InputError, json_error
from putnam_solver.core.verify import Track
from putnam_solver.doctor import require_gates
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.budget_numbers import price_problems
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.model_names import REASONING_EFFORTS, check_model_name, model_sources
from putnam_solver.run.agent.types import REVIEWER_MODES, AgentParts, Budgets, SolveConfig
from putnam_solver.run.audit import AuditRequest, audit_run
from putnam_solver.run.campaign import (
    Prepared,
    RunSettings,
    Selection,
    SolveOutcome,
    list_only,
    prepare_only,
    solve,
    stored_run,
)
from putnam_solver.run.dotenv_check import check_dotenv
from putnam_solver.run.ledger import LedgerError
from putnam_solver.run.prices import unpriced
from putnam_solver.run.report.html import report_after_run
from putnam_solver.run.report.progress import ProgressSink
from putnam_solver.run.resume_checks import check_resumable
from putnam_solver.run.resume_precheck import check_before_start
from putnam_solver.selftest.runner import require_selftest
from putnam_solver.terminal import shown_path

DEFAULT_CAMPAIGNS = 1
RESUME_FLAGS = (
    "--campaigns",
    "--run-token-limit",
    "--run-cost-limit",
    "--jobs",
    "--fallback-jobs",
    "--model-base-url",
    "--prices",
    "--fail-on-unsolved",
    "--quiet",
    "--audit",
    "--ray",
    "--ray-cpus",
    "--ray-memory-mb",
    "--ray-retries",
    "--tool",
    "--allow-recursion",
    "--model",
    "--reviewer-model",
    "--sandbox",
)
"""What ``--resume`` may be given: limits to raise and how to connect, never what the run is about
(``--tool``, ``--allow-recursion``, ``--model``, ``--reviewer-model`` and ``--sandbox`` only to say again what
the run's own were, which a resume uses only then: ``resume_checks``)."""
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
    reviewer: str | None  # off | advise | veto; None: advise when --reviewer-model names one, else off
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
    without: tuple[str, ...] = ()  # parts of the react worker's workflow turned off (AGENT_PARTS)
    lemma_turns: int = Budgets.lemma_turns
    lemma_token_limit: int | None = None
    history_tokens: int = Budgets.history_tokens or 0  # 0: never compacted
    samples: int = 1  # --samples: independent attempts per problem per campaign
    given: frozenset[str] = frozenset()  # the flags the user typed (others hold their defaults)
    ray: RaySettings | None = None  # --ray: the gates run on this cluster (never stored with the run)


class Action(Enum):
    RUN = "run"
    LIST = "list"  # --list-only
    PREPARE = "prepare"  # --prepare-only


@dataclass(frozen=True)
class CommandResult:
    """What ``putnam solve`` prints and exits with: ``stdout`` lines (the result), then ``message``
    (on stdout after a success, else on stderr)."""

    exit_code: int
    message: str = ""
    stdout: tuple[str, ...] = ()
    report: str = ""
    """Where the run's HTML report was written, or why it was not (on stderr; empty: none attempted)."""


def solve_command(
    flags: SolveFlags,
    action: Action,
    notify: Callable[[str], None],
    view: Callable[[], ProgressSink],
    audit: bool = False,
    fail_on_unsolved: bool = False,
) -> CommandResult:
    """The whole ``putnam solve``: check the flags, then list, prepare, or check that the run can start
    and run it (``run``: with ``audit``, audited at the end). ``notify`` hears what happens before the run
    (its first line comes before anything slow) and the audit's progress; ``view`` makes the progress view
    when the run starts. Input errors exit ``ExitCode.USAGE``; a completed evaluation exits
    ``ExitCode.SUCCESS`` solved or not, unless ``fail_on_unsolved`` asks for ``ExitCode.UNSOLVED``."""
    with contextlib.ExitStack() as stack:
        try:
            request = build_request(flags, action, notify)
            if action is Action.LIST:
                return CommandResult(ExitCode.SUCCESS, stdout=tuple(p.id for p in list_only(request.selection)))
            if action is Action.PREPARE:
                return CommandResult(ExitCode.SUCCESS, stdout=prepared_lines(prepare_only(request), request))
            verifier = stack.enter_context(open_verifier(flags.ray, notify))
        except (InputError, BenchmarkError, LedgerError) as exc:
            return CommandResult(ExitCode.USAGE, str(exc))
        except KeyboardInterrupt:
            return CommandResult(ExitCode.INTERRUPTED, "interrupted (Ctrl-C) before the run started; nothing was spent")
        outcome = run(dataclasses.replace(request, verifier=verifier), view(), audit, notify)
    code = outcome.exit_code
    if fail_on_unsolved and code == ExitCode.SUCCESS and outcome.unresolved:
        code = ExitCode.UNSOLVED
    return CommandResult(code, outcome.message, report=outcome.report)


def build_request(
    flags: SolveFlags, action: Action = Action.RUN, notify: Callable[[str], None] = lambda _: None
) -> RunSettings:
    """Validate the flags (or load a stored run for ``--resume``); for a run, check that the gates can
    run here and judge the selftest canaries right (once per toolchain) and that the models can be used
    and their servers accept connections."""
    request = _resumed(flags) if flags.resume is not None else _new(flags, needs_model=action is not Action.LIST)
    config = request.config
    sources = model_sources((config.model, config.reviewer_model))  # as the resume's model check just saw them
    if action is Action.LIST:
        return request
    if action is not Action.RUN:
        _require_prices(request, notify)
        return request
    if request.resume:
        check_before_start(request)  # the ledger and the benchmark file first: cheap, and they can refuse
    check_dotenv()
    notify(
        f"{'resuming' if request.resume else 'starting'} run {request.run_dir} with {config.model}: checking "
        "the toolchain, the model and its server before the first model call"
    )
    _require_prices(request, notify)
    options = config.verify_options()
    require_gates(config.prover, options)
    from putnam_solver.run.agent import check_models  # imports Inspect AI (seconds): only when a model will run

    try:
        check_models(config, sources)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    require_selftest(config.prover, options, notify)
    return dataclasses.replace(request, model_sources=sources)


def run(
    request: RunSettings,
    progress: ProgressSink | None,
    audit: bool = False,
    notice: Callable[[str], None] = lambda _: None,
) -> SolveOutcome:
    """Run (or resume) the campaigns; with ``audit``, then re-verify every stored pass afresh
    (``putnam audit``; ``notice`` hears its progress). An audit that does not confirm every pass, or
    cannot run, makes the outcome a ``FAILURE`` that says why. Last, the run's HTML report is
    written beside its other outputs (``outcome.report`` says where)."""
    outcome = _audited(request, solve(request, progress), audit, notice)
    return dataclasses.replace(outcome, report=report_after_run(outcome.run_dir))


def _audited(request: RunSettings, outcome: SolveOutcome, audit: bool, notice: Callable[[str], None]) -> SolveOutcome:
    if not audit or outcome.exit_code == ExitCode.FAILURE:
        return outcome
    try:
        jobs = request.verifier.slots()
        audit_request = AuditRequest(
            request.run_dir,
            jobs=jobs,
            benchmark=request.selection.benchmark,  # this invocation's own settings audit its run
            benchmark_sha256=request.selection.benchmark_sha256,
            options=request.config.verify_options(),
            verifier=request.verifier,
        )
        audited = audit_run(audit_request, notice, notice)
        for line in audited.pass_at_k:
            notice(line)
    except InputError as exc:
        message = f"{outcome.message}; audit refused: {exc}"
        return dataclasses.replace(outcome, exit_code=ExitCode.FAILURE, message=message)
    if audited.exit_code != ExitCode.SUCCESS:
        message = f"{outcome.message}; audit: {audited.message}"
        return dataclasses.replace(outcome, exit_code=ExitCode.FAILURE, message=message)
    return dataclasses.replace(outcome, message=f"{outcome.message}; audit: {audited.message}")


def prepared_lines(prepared: Prepared, request: RunSettings) -> tuple[str, ...]:
    """What ``--prepare-only`` wrote and what to run next."""
    run_dir, workspaces = prepared.run_dir, prepared.workspaces
    example = f" (e.g. {workspaces[0]})" if workspaces else ""
    return (
        f"prepared run {run_dir} for {len(workspaces)} problems with {request.config.model}; no model was called",
        f"  settings: {run_dir / 'run.json'} (the run's ledger: {run_dir / 'ledger.sqlite'})",
        f"  workspaces: {len(workspaces)} folders under {run_dir / 'work'}, each with the statement file the "
        f"model edits and PROMPT.md, what it is told{example}",
        f"next: putnam solve --resume {run_dir}",
    )


def _require_prices(request: RunSettings, notify: Callable[[str], None]) -> None:
    """A cost limit needs every model's price (an input error before anything is created); without one,
    a model with no price is said once, and its cost shows as unknown."""
    config = request.config
    missing = unpriced([config.model, config.reviewer_model], config.prices)
    if not missing:
        return
    limits = [
        flag
        for flag, value in (
            ("--cost-limit", config.budgets.cost_limit_dollars),
            ("--run-cost-limit", request.run_limits.max_cost_dollars),
        )
        if value is not None
    ]
    example = json.dumps({missing[0]: {"input": 1.25, "output": 10.0}})
    shown = shown_path(", ".join(missing))  # a resumed run's model names are the ledger's text
    if limits:
        raise InputError(
            f"{' and '.join(limits)} need the price of {shown}, which the price catalogue does not "
            f"have: give it with --prices FILE, a JSON file of dollars per million tokens, e.g. {example}"
        )
    notify(f"warning: no price for {shown}: its cost shows as unknown; --prices FILE gives one, e.g. {example}")


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
    base_url = flags.model_base_url if "--model-base-url" in flags.given else None
    named = (("--model", flags.model), ("--reviewer-model", flags.reviewer_model))
    models = {flag: name for flag, name in named if flag in flags.given and name is not None}
    sandbox = flags.sandbox if "--sandbox" in flags.given else None
    check_resumable(stored, flags.tools, base_url, flags.allow_recursion, models, sandbox)
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
    if flags.prices is not None:  # prices are facts about the world, not a setting of the run: newer ones win
        config = dataclasses.replace(config, prices={**config.prices, **_load_prices(flags.prices)})
    return dataclasses.replace(stored, config=config, campaigns=campaigns, run_limits=limits)


def _new(flags: SolveFlags, needs_model: bool) -> RunSettings:
    if needs_model and not flags.model:
        raise InputError("--model is required, e.g. --model openai/gpt-5.5 (any Inspect AI provider/model)")
    check_model_name("--model", flags.model)
    check_model_name("--reviewer-model", flags.reviewer_model, none=True)
    prover = get_prover(flags.prover)
    located = locate_benchmark(flags.benchmark, prover.name)
    loaded = open_benchmark(flags.benchmark, prover.name, flags.benchmark_sha256)
    require_track(loaded, flags.track.value)
    stated = loaded.file.toolchain.version if loaded.file is not None else None
    model = flags.model or "none"
    mode = reviewer_mode(flags.reviewer, flags.reviewer_model)
    reviewer = None if mode == "off" else (flags.reviewer_model or model)
    config = SolveConfig(
        prover=prover.name,
        track=flags.track,
        model=model,
        reviewer_model=reviewer,
        reviewer_veto=mode == "veto",
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
            lemma_turns=flags.lemma_turns,
            lemma_token_limit=flags.lemma_token_limit,
            history_tokens=flags.history_tokens or None,
        ),
        axle=flags.axle,
        tools=flags.tools,
        allow_recursion=flags.allow_recursion,
        kernels=flags.kernels,
        prices=_load_prices(flags.prices) if flags.prices else {},
        model_base_url=flags.model_base_url,
        toolchain=flags.toolchain or stated,
        parts=AgentParts.without(flags.without),
        samples=flags.samples,
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
        text = path.read_text(encoding="utf-8")
        check_depth(text, str(path))
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{json_error(str(path), exc)} (the price table is not valid JSON)") from exc
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the price table: {exc}") from exc
    valid = isinstance(data, dict) and all(
        isinstance(v, dict) and all(isinstance(x, int | float) for x in v.values()) for v in data.values()
    )
    if not valid:
        raise InputError(f'{path}: a price table maps models to {{"input": $/Mtok, "output": $/Mtok}}')
    # A negative rate (or NaN, Infinity, true, which JSON here reads as numbers) made every cost of the
    # model negative or unreadable: the run's cost shrank and its budget grew as it spent (``budget_numbers``).
    if problems := price_problems(data):
        raise InputError(
            f"{path}: {'; '.join(problems)}; give each rate as dollars per million tokens, 0 or more (input and output)"
        )
    return {str(k): {str(f): float(x) for f, x in v.items()} for k, v in data.items()}


def reviewer_mode(mode: str | None, model: str | None) -> str:
    """What the reviewer does: ``--reviewer`` if given, else ``advise`` when ``--reviewer-model`` names a
    model, else ``off``; a reviewer model with ``--reviewer off`` is a contradiction the user must resolve."""
    if mode is not None and mode not in REVIEWER_MODES:
        raise InputError(f"--reviewer {mode!r}: choose one of {', '.join(REVIEWER_MODES)}")
    named = model is not None and model != "none"
    if mode == "off" and named:
        raise InputError(f"--reviewer off and --reviewer-model {model}: drop one of them")
    if mode is None:
        return "advise" if named else "off"
    if model == "none" and mode != "off":
        raise InputError(f"--reviewer {mode} needs a reviewer model: drop --reviewer-model none")
    return mode
