"""Scripted models for the agent tests: Inspect's ``mockllm/model`` with outputs a test writes, a one-problem
Rocq benchmark, a runner that runs one campaign's attempts as the campaign layer does, and a whole run."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.verify import Track
from putnam_solver.problem_selection import select_problems
from putnam_solver.run.agent import run_campaign_attempts
from putnam_solver.run.agent.live_run import LiveRun, RunLimits
from putnam_solver.run.agent.types import AttemptResult, Budgets, CampaignJob, CarryForward, SolveConfig
from putnam_solver.run.campaign import RunSettings, Selection, SolveOutcome, solve

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "agent" / "benchmark.jsonl"
STATEMENT = "Theorem one_plus_one : 1 + 1 = 2.\nProof.\n"
GOOD = STATEMENT + "  reflexivity.\nQed.\n"
BAD = STATEMENT + "  exact I.\nQed.\n"
EDITED = "Theorem one_plus_one : 1 + 1 = 2 \\/ False.\nProof.\n  left; reflexivity.\nQed.\n"
# two_plus_two split into two helper lemmas, as the lemma sub-attempt tests script it
L1 = "Lemma l1 : 2 = 1 + 1."
L2 = "Lemma l2 : forall n : nat, n + n = 2 * n."
L1_PROOF = "Proof.\n  reflexivity.\nQed.\n"
L2_PROOF = "Proof.\n  intros n. simpl. rewrite <- plus_n_O. reflexivity.\nQed.\n"
HOLE = "Proof.\nAdmitted.\n"
MAIN = "Theorem two_plus_two : 2 + 2 = 4.\nProof.\n  rewrite (l2 2). pose proof l1 as H. reflexivity.\nQed.\n"
DRAFT = f"{L1}\n{HOLE}\n{L2}\n{HOLE}\n{MAIN}"
FINAL = f"{L1}\n{L1_PROOF}\n{L2}\n{L2_PROOF}\n{MAIN}"
USAGE = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)


def rocq_ready() -> str | None:
    """Why these tests cannot run here, or None."""
    if shutil.which("coqc") is None:
        return "coqc is not installed"
    try:
        from putnam_solver.core.provers import get_prover

        get_prover("rocq")
    except ImportError as exc:
        return f"the Rocq prover is not available: {exc}"
    from putnam_solver.core.sandbox import sandbox_status

    ok, why = sandbox_status()
    return None if ok else f"sandbox unavailable: {why}"


NEEDS_ROCQ = pytest.mark.skipif(rocq_ready() is not None, reason=str(rocq_ready()))
"""Skip marker of the tests that verify with the real Rocq gates in the sandbox."""


def call(tool: str, proof: str | None = None, **args: Any) -> ModelOutput:
    arguments = {"proof": proof} if proof is not None else args
    out = ModelOutput.for_tool_call(model="mockllm/model", tool_name=tool, tool_arguments=arguments)
    out.usage = USAGE
    return out


def say(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = USAGE
    return out


def config(outputs: Any, **overrides: Any) -> SolveConfig:
    fields: dict[str, Any] = {
        "prover": "rocq",
        "track": Track.WITH_ANSWER,
        "model": "mockllm/model",
        "reviewer_model": None,
        "reasoning_effort": None,
        "agent": "react",
        "sandbox": "local",
        "jobs": 2,
        "fallback_jobs": 1,
        "budgets": Budgets(max_turns=4),
        "model_args": {"custom_outputs": outputs},
        "prices": {"mockllm/model": {"input": 2.0, "output": 10.0}},
    }
    fields.update(overrides)
    return SolveConfig(**fields)


SERVED_MODEL = "openai-api/fake/fake-model"
"""The worker model as the loopback server (tests/fakes/openai_server.py) serves it."""


def served_config(url: str, budgets: Budgets, jobs: int = 1) -> SolveConfig:
    """A config whose worker is the loopback model server at ``url``, priced, with ``jobs`` connections."""
    prices = {SERVED_MODEL: {"input": 2.0, "output": 10.0}}
    return config(
        None, model=SERVED_MODEL, model_base_url=url, model_args={}, prices=prices, jobs=jobs, budgets=budgets
    )


def run(
    tmp_path: Path,
    cfg: SolveConfig,
    problems: Sequence[str] = ("one_plus_one",),
    carried: dict[str, CarryForward] | None = None,
    live: LiveRun | None = None,
    benchmark: Benchmark | None = None,
) -> dict[str, AttemptResult]:
    bench = benchmark or load_benchmark(FIXTURE)
    results: dict[str, AttemptResult] = {}

    def on_attempt(result: AttemptResult) -> None:
        assert result.problem not in results, "each problem is reported once"
        results[result.problem] = result

    job = CampaignJob(
        problems=select_problems(bench, list(problems)),
        benchmark=bench,
        config=cfg,
        number=1,
        work_dir=tmp_path / "work",
        log_dir=tmp_path / "logs",
        on_attempt=on_attempt,
        live=live or LiveRun(RunLimits()),
        carried=carried or {},
    )
    run_campaign_attempts(job)
    if live is None:
        assert set(results) == set(problems)
    return results


def solve_fixture(
    run_dir: Path,
    cfg: SolveConfig,
    problems: Sequence[str] = (),
    campaigns: int = 1,
    limits: RunLimits | None = None,
    resume: bool = False,
) -> SolveOutcome:
    """A whole run, as ``putnam solve`` makes it, of the fixture's ``problems`` (all if none)."""
    selection = Selection(FIXTURE, problems=tuple(problems))
    return solve(RunSettings(run_dir, cfg, selection, campaigns, limits or RunLimits(), resume=resume), None)


def scripted(script: Callable[[list[ChatMessage], list[Any]], ModelOutput]) -> Callable[..., ModelOutput]:
    def outputs(input: list[ChatMessage], tools: list[Any], tool_choice: Any, config: Any) -> ModelOutput:
        return script(input, tools)

    return outputs
