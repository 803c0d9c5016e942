"""``putnam solve``: flags to a run request, the run, its result."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from putnam_solver.cli._app import app, err, out
from putnam_solver.cli._options import (
    AllowRecursionOpt,
    AxleOpt,
    BenchmarkOpt,
    KernelsOpt,
    MaxOpt,
    PinOpt,
    ProblemOpt,
    ProverOpt,
    RayCpusOpt,
    RayMemoryOpt,
    RayOpt,
    RayRetriesOpt,
    ToolchainOpt,
    ToolOpt,
    input_errors,
    parse_kernels,
    ray_settings,
    typed_flags,
)
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.verify import Track
from putnam_solver.directories import check_directory
from putnam_solver.exit_codes import SOLVE_EXIT_CODES, ExitCode
from putnam_solver.run.agent.types import Agent, Sandbox
from putnam_solver.verifier.options import tool_locations


@app.command(
    help="Run a model on the benchmark; a problem counts as solved only with an accepted verdict.\n\n"
    + SOLVE_EXIT_CODES
)
def solve(
    ctx: typer.Context,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            metavar="PROVIDER/MODEL",
            rich_help_panel="Model",
            help="Worker model, e.g. openai/gpt-5.5 (any Inspect AI provider; its key from the provider's "
            "variable, e.g. OPENAI_API_KEY, ANTHROPIC_API_KEY).",
        ),
    ] = None,
    prover: ProverOpt = "lean",
    track: Annotated[Track, typer.Option("--track", help="with-answer inlines the official answer.")] = (
        Track.WITH_ANSWER
    ),
    benchmark: BenchmarkOpt = None,
    benchmark_sha256: PinOpt = None,
    problem: ProblemOpt = None,
    max_problems: MaxOpt = None,
    reviewer: Annotated[
        str | None,
        typer.Option(
            "--reviewer",
            rich_help_panel="Model",
            metavar="off|advise|veto",
            help="What a second model does with each proof the gates accept: nothing (off, the default), record "
            "its opinion beside the verdict (advise; the default when --reviewer-model is given), or un-count "
            "the proof on VETO (veto; such proofs are counted apart). It never accepts what the gates refused.",
        ),
    ] = None,
    reviewer_model: Annotated[
        str | None,
        typer.Option(
            "--reviewer-model",
            rich_help_panel="Model",
            metavar="NAME",
            help="The reviewer's model (default: the worker's); naming one turns the reviewer on as `advise`.",
        ),
    ] = None,
    reasoning_effort: Annotated[
        str,
        typer.Option(
            "--reasoning-effort",
            rich_help_panel="Model",
            help="none, minimal, low, medium, high, xhigh or max; auto: xhigh for openai/, anthropic/ and "
            "google/ models (Inspect fits it to each model), off for other providers.",
        ),
    ] = "auto",
    agent: Annotated[
        Agent,
        typer.Option(
            "--agent", rich_help_panel="Agent", help="Worker: our react loop, or the Codex or Claude Code CLI."
        ),
    ] = "react",
    sandbox: Annotated[
        Sandbox, typer.Option("--sandbox", rich_help_panel="Agent", help="Inspect sandbox for the workspaces.")
    ] = "local",
    jobs: Annotated[
        int, typer.Option("--jobs", rich_help_panel="Concurrency", help="Concurrent model connections.", min=1)
    ] = 64,
    fallback_jobs: Annotated[
        int,
        typer.Option(
            "--fallback-jobs", rich_help_panel="Concurrency", help="Concurrency to fall back to on rate limits.", min=1
        ),
    ] = 16,
    max_turns: Annotated[
        int, typer.Option("--max-turns", rich_help_panel="Agent", help="Worker turns per attempt.", min=1)
    ] = 50,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            rich_help_panel="Agent",
            help="Independent attempts per problem in each campaign, run concurrently within --jobs; SUMMARY.md, "
            "the report and `putnam audit` give pass@1..K (default 1: one attempt, no pass@k).",
            min=1,
            max=64,
        ),
    ] = 1,
    campaigns: Annotated[
        int | None,
        typer.Option(
            "--campaigns",
            rich_help_panel="Budgets and limits",
            help="Campaigns in the run (default 1; 0 = until solved or a budget runs out).",
            min=0,
        ),
    ] = None,
    worker_timeout: Annotated[
        float | None,
        typer.Option("--worker-timeout", rich_help_panel="Budgets and limits", help="Seconds per attempt."),
    ] = None,
    reviewer_timeout: Annotated[
        float | None,
        typer.Option("--reviewer-timeout", rich_help_panel="Budgets and limits", help="Seconds per review."),
    ] = None,
    token_limit: Annotated[
        int | None,
        typer.Option(
            "--token-limit", rich_help_panel="Budgets and limits", help="Tokens per problem, over all its attempts."
        ),
    ] = None,
    cost_limit: Annotated[
        float | None,
        typer.Option(
            "--cost-limit", rich_help_panel="Budgets and limits", help="Dollars per problem, over all its attempts."
        ),
    ] = None,
    run_token_limit: Annotated[
        int | None, typer.Option("--run-token-limit", rich_help_panel="Budgets and limits", help="Tokens for the run.")
    ] = None,
    run_cost_limit: Annotated[
        float | None,
        typer.Option("--run-cost-limit", rich_help_panel="Budgets and limits", help="Dollars for the run."),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(
            "--prices",
            rich_help_panel="Model",
            help='JSON price table: {"model": {"input": $/Mtok, "output": $/Mtok}}.',
        ),
    ] = None,
    model_base_url: Annotated[
        str | None,
        typer.Option("--model-base-url", rich_help_panel="Model", help="Base URL for an OpenAI-compatible server."),
    ] = None,
    axle: AxleOpt = False,
    tool: ToolOpt = None,
    run_dir: Annotated[
        Path | None,
        typer.Option(
            "--run-dir", rich_help_panel="Run directory and output", help="Run directory (default runs/<time>)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            rich_help_panel="Run directory and output",
            help="Continue the run in this directory with its settings (may raise --campaigns and the run "
            "budgets, and change --jobs, --fallback-jobs, --model-base-url; --tool, --allow-recursion, --model "
            "and --reviewer-model only say again what the run used, which a resume uses only then).",
        ),
    ] = None,
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh",
            rich_help_panel="Run directory and output",
            help="Cold restarts: do not carry candidates into later campaigns.",
        ),
    ] = False,
    list_only: Annotated[
        bool,
        typer.Option(
            "--list-only", rich_help_panel="Run directory and output", help="Print the selected problems and stop."
        ),
    ] = False,
    prepare_only: Annotated[
        bool,
        typer.Option(
            "--prepare-only",
            rich_help_panel="Run directory and output",
            help="Record the run and write its workspaces and prompts; call no model. `--resume RUN_DIR` starts it.",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", rich_help_panel="Run directory and output", help="Log lines instead of the live view."),
    ] = False,
    kernels: KernelsOpt = "lean",
    allow_recursion: AllowRecursionOpt = False,
    toolchain: ToolchainOpt = None,
    without: Annotated[
        str | None,
        typer.Option(
            "--without",
            rich_help_panel="Agent",
            help="Turn parts of the react worker off, comma-separated: warm (check with the cold gates), "
            "goals (no goals tool), lemmas (no drafts with holes, prove_lemma or lemma cache), plan (no plan "
            "asked first), sketch (no informal statement, sketch stage or earlier sketches), compact (histories "
            "never compacted), retrieval (no library_search or find_declarations). Acceptance is the same either way.",
        ),
    ] = None,
    lemma_turns: Annotated[
        int,
        typer.Option("--lemma-turns", rich_help_panel="Agent", help="Turns of each prove_lemma sub-attempt.", min=1),
    ] = 12,
    lemma_token_limit: Annotated[
        int | None,
        typer.Option(
            "--lemma-token-limit",
            rich_help_panel="Agent",
            help="Tokens of each prove_lemma sub-attempt (within its attempt's).",
            min=1,
        ),
    ] = None,
    history_tokens: Annotated[
        int,
        typer.Option(
            "--history-tokens",
            rich_help_panel="Agent",
            help="Compact an attempt's history before a model call would be sent more than this many tokens, "
            "keeping the prompt, the plan and the latest errors, goals and file (0: never).",
            min=0,
        ),
    ] = 64_000,
    audit: Annotated[
        bool,
        typer.Option(
            "--audit",
            rich_help_panel="Run directory and output",
            help="At the end, re-verify every stored pass afresh (`putnam audit`); exit 1 if one is not confirmed.",
        ),
    ] = False,
    fail_on_unsolved: Annotated[
        bool,
        typer.Option(
            "--fail-on-unsolved",
            rich_help_panel="Run directory and output",
            help="Exit 4 when the evaluation completes with problems unresolved (default: exit 0, a normal result).",
        ),
    ] = False,
    ray: RayOpt = None,
    ray_cpus: RayCpusOpt = RaySettings.num_cpus,
    ray_memory_mb: RayMemoryOpt = RaySettings.memory_mb,
    ray_retries: RayRetriesOpt = RaySettings.max_retries,
) -> None:
    from putnam_solver.run import solving as solve_service  # the run's modules load only for this command
    from putnam_solver.run.report.progress import LogLineProgress, ProgressSink, RichProgress

    with input_errors():
        tools = tool_locations(tool or [])
        if run_dir is not None:
            check_directory(run_dir, f"--run-dir {run_dir}")
    flags = solve_service.SolveFlags(
        model=model,
        prover=prover,
        track=track,
        benchmark=benchmark,
        benchmark_sha256=benchmark_sha256,
        problems=tuple(problem or ()),
        max_problems=max_problems,
        reviewer_model=reviewer_model,
        reviewer=reviewer,
        reasoning_effort=reasoning_effort,
        agent=agent,
        sandbox=sandbox,
        jobs=jobs,
        fallback_jobs=fallback_jobs,
        max_turns=max_turns,
        campaigns=campaigns,
        worker_timeout=worker_timeout,
        reviewer_timeout=reviewer_timeout,
        token_limit=token_limit,
        cost_limit=cost_limit,
        run_token_limit=run_token_limit,
        run_cost_limit=run_cost_limit,
        prices=prices,
        model_base_url=model_base_url,
        axle=axle,
        tools=tools,
        allow_recursion=allow_recursion,
        kernels=parse_kernels(kernels),
        toolchain=toolchain,
        without=tuple(p.strip() for p in (without or "").split(",") if p.strip()),
        lemma_turns=lemma_turns,
        lemma_token_limit=lemma_token_limit,
        history_tokens=history_tokens,
        samples=samples,
        run_dir=run_dir,
        resume=resume,
        fresh=fresh,
        given=typed_flags(ctx),
        ray=ray_settings(ray, ray_cpus, ray_memory_mb, ray_retries),
    )
    action = (
        solve_service.Action.LIST
        if list_only
        else solve_service.Action.PREPARE
        if prepare_only
        else solve_service.Action.RUN
    )

    def view() -> ProgressSink:
        return LogLineProgress(sys.stderr) if quiet or not err.is_terminal else RichProgress(err)

    result = solve_service.solve_command(
        flags, action, lambda m: err.print(m, markup=False), view, audit, fail_on_unsolved
    )
    for line in result.stdout:
        out.print(line, markup=False)
    if result.exit_code == ExitCode.SUCCESS:
        if result.message:
            out.print(result.message, markup=False)
    elif result.exit_code == ExitCode.USAGE:
        err.print(f"[red]error:[/red] {escape(result.message)}")
    else:
        err.print(result.message, markup=False)
    if result.report:
        err.print(result.report, markup=False)
    raise typer.Exit(result.exit_code)
