"""``putnam solve`` flags turned into a run request, before any model is called."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.util import InputError
from putnam_solver.run.solving import reasoning_effort, reviewer_mode
from tests.helpers import REPO


@pytest.mark.parametrize(
    ("flag", "model", "expected"),
    [
        ("auto", "openai/gpt-5.5", "xhigh"),
        ("auto", "anthropic/claude-opus-4-7", "xhigh"),
        ("auto", "openai-api/vllm/qwen3", None),
        ("auto", "mockllm/model", None),
        ("high", "openai-api/vllm/qwen3", "high"),
        ("none", "openai/gpt-5.5", None),
    ],
)
def test_reasoning_effort_defaults_to_xhigh_only_where_the_provider_fits_it(
    flag: str, model: str, expected: str | None
) -> None:
    assert reasoning_effort(flag, model) == expected


def test_an_unknown_reasoning_effort_is_refused_with_the_choices() -> None:
    with pytest.raises(InputError, match="--reasoning-effort 'extreme': choose auto or one of none, minimal"):
        reasoning_effort("extreme", "openai/gpt-5.5")


def test_kernels_reach_the_stored_run_and_the_agents_check_and_submit(tmp_path: Path) -> None:
    """`putnam solve --kernels lean,nanoda` must make every G6 of the run require nanoda too, including
    after a resume (the stored config), not only `putnam verify`."""
    from putnam_solver.run.agent.task import _context
    from putnam_solver.run.campaign import stored_run

    bench_file = REPO / "samples" / "lean" / "benchmark.jsonl"
    args = ["solve", "--prover", "lean", "--benchmark", str(bench_file), "--model", "mockllm/model", "--prepare-only"]
    result = CliRunner().invoke(app, [*args, "--run-dir", str(tmp_path / "run"), "--kernels", "lean,nanoda"])
    assert result.exit_code == 0, result.output
    stored = stored_run(tmp_path / "run")
    assert stored is not None
    config = stored.config
    assert config.kernels == ("lean", "nanoda")
    bench = load_benchmark(bench_file)
    context = _context(LeanProver(), bench, bench.problems[min(bench.problems)], config)
    kernels = [options.of(LeanOptions).kernels for options in (context.check_options, context.accept_options)]
    assert kernels == [("lean", "nanoda")] * 2


def test_the_gates_checked_before_the_run_are_the_ones_that_judge_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve` checks the gates can run and the selftest passed with the very options that accept every
    attempt, and the agent's `check` rehearses that acceptance: one derivation from the run's config."""
    from putnam_solver.core.provers.rocq import RocqProver
    from putnam_solver.core.verify import Profile, Track
    from putnam_solver.run import agent, solving
    from putnam_solver.run.agent.task import _context

    checked: list[object] = []
    monkeypatch.setattr(solving, "require_gates", lambda prover, options: checked.append(options))
    monkeypatch.setattr(solving, "require_selftest", lambda prover, options, progress: checked.append(options))
    monkeypatch.setattr(agent, "check_models", lambda config, sources: None)
    unset = ("benchmark_sha256", "max_problems", "reviewer_model", "reviewer", "campaigns", "worker_timeout")
    unset += ("reviewer_timeout", "token_limit", "cost_limit", "run_token_limit", "run_cost_limit", "prices")
    unset += ("model_base_url", "run_dir", "resume")
    flags = solving.SolveFlags(
        model="mockllm/model",
        prover="rocq",
        track=Track.WITH_ANSWER,
        benchmark=REPO / "samples" / "rocq" / "benchmark.jsonl",
        problems=(),
        reasoning_effort="none",
        agent="react",
        sandbox="local",
        jobs=2,
        fallback_jobs=1,
        max_turns=3,
        axle=False,
        fresh=False,
        allow_recursion=True,
        tools={"coqc": Path("/opt/coq/bin/coqc")},
        **dict.fromkeys(unset),
    )
    config = solving.build_request(flags).config
    bench = load_benchmark(REPO / "samples" / "rocq" / "benchmark.jsonl")
    context = _context(RocqProver(), bench, bench.problems[min(bench.problems)], config)
    assert checked == [context.accept_options, context.accept_options]
    assert context.accept_options.recursion_allowed and context.accept_options.profile is Profile.FULL
    assert context.accept_options.tools == context.check_options.tools == {"coqc": Path("/opt/coq/bin/coqc")}
    check = context.check_options
    assert (check.profile, check.acceptance, check.axle) == (Profile.FAST, Profile.FULL, False)
    with pytest.raises(InputError, match="--fallback-jobs 3 exceeds --jobs 2"):
        dataclasses.replace(config, fallback_jobs=3)


@pytest.mark.parametrize(
    ("mode", "model", "chosen"),
    [(None, None, "off"), (None, "openai/gpt-5.5", "advise"), ("veto", None, "veto"), ("advise", None, "advise")],
)
def test_the_reviewer_is_off_by_default_and_advises_when_a_model_is_named(
    mode: str | None, model: str | None, chosen: str
) -> None:
    assert reviewer_mode(mode, model) == chosen


@pytest.mark.parametrize(
    ("mode", "model", "message"),
    [
        ("off", "openai/gpt-5.5", "drop one of them"),
        ("veto", "none", "needs a reviewer model"),
        ("maybe", None, "one of"),
    ],
)
def test_contradictory_reviewer_flags_are_the_users_error(mode: str, model: str | None, message: str) -> None:
    with pytest.raises(InputError, match=message):
        reviewer_mode(mode, model)
