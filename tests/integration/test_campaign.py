"""Campaigns with a scripted agent and real verification: carry-forward, fresh restarts, limits, errors."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.types import Allowance, Budgets, CampaignJob
from putnam_solver.run.campaign import RunLimits, Runner, RunSettings, Selection, SolveOutcome, solve, stored_run
from putnam_solver.run.report import LogLineProgress, RichProgress
from putnam_solver.run.report.progress import ProgressSink
from tests.integration.campaign_driver import LEAN_BENCH, SIX, SIX_SCRIPT, lean_runner, lean_text_config

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
SELECTION = Selection(LEAN_BENCH, problems=SIX)


def _solve(
    run_dir: Path,
    runner: Runner,
    campaigns: int = 3,
    progress: ProgressSink | None = None,
    allow_changed_settings: bool = False,
    **settings: Any,
) -> SolveOutcome:
    run = RunSettings(run_dir, settings.pop("config", lean_text_config()), SELECTION, campaigns, **settings)
    return solve(run, progress, runner, allow_changed_settings)


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_carry_forward_reruns_only_unresolved_problems(tmp_path: Path) -> None:
    runner = lean_runner(SIX_SCRIPT)
    outcome = _solve(tmp_path, runner)
    assert outcome.exit_code == ExitCode.SUCCESS, outcome.message
    assert "campaign limit reached" in outcome.message and outcome.unresolved == ("putnam_1962_a5",)
    assert _lines(tmp_path / "selections/campaign-1.txt") == list(SIX)
    assert _lines(tmp_path / "selections/campaign-2.txt") == [
        "putnam_1962_a2",
        "putnam_1962_a3",
        "putnam_1962_a4",
        "putnam_1962_a5",
    ]
    assert _lines(tmp_path / "selections/campaign-3.txt") == ["putnam_1962_a4", "putnam_1962_a5"]
    assert _lines(tmp_path / "unresolved.txt") == ["putnam_1962_a5"]
    ran = sorted((n, p) for n, p, _ in runner.seen)
    assert ran == sorted(
        [(1, p) for p in SIX] + [(2, p) for p in SIX[1:5]] + [(3, "putnam_1962_a4"), (3, "putnam_1962_a5")]
    )
    carried = {(n, p): c for n, p, c in runner.seen}
    assert all(c is None for (n, _), c in carried.items() if n == 1)
    shown = carried[(2, "putnam_1962_a2")]
    first = (tmp_path / "attempts/campaign-1/putnam_1962_a2/candidate.lean").read_text()
    assert shown is not None and shown.candidate == first
    assert "G3 forbidden failed" in shown.diagnostics and "sorry" in shown.diagnostics
    summary = (tmp_path / "SUMMARY.md").read_text()
    assert "| Verified passes | 5 (83.3%) |" in summary and "| Campaigns | 3 of 3;" in summary
    assert "pinned as PutnamBench Lean 4" in summary


def test_fresh_restarts_show_the_worker_nothing_from_earlier_campaigns(tmp_path: Path) -> None:
    runner = lean_runner(SIX_SCRIPT)
    outcome = _solve(tmp_path, runner, fresh=True)
    assert outcome.exit_code == ExitCode.SUCCESS
    assert all(c is None for _, _, c in runner.seen)
    assert outcome.unresolved == ("putnam_1962_a2", "putnam_1962_a3", "putnam_1962_a4", "putnam_1962_a5")
    assert "fresh restarts" in (tmp_path / "SUMMARY.md").read_text()


def test_unlimited_campaigns_run_until_every_problem_passes(tmp_path: Path) -> None:
    runner = lean_runner({p: 1 + i % 3 for i, p in enumerate(SIX)})
    outcome = _solve(tmp_path, runner, campaigns=0)
    assert outcome.exit_code == 0, outcome.message
    assert (outcome.passed, outcome.campaigns) == (6, 3)
    assert _lines(tmp_path / "unresolved.txt") == []
    assert (
        "| Run | finished, exit code 0: all 6 selected problems passed verification |"
        in (tmp_path / "SUMMARY.md").read_text()
    )


def test_a_run_budget_stops_an_unlimited_run_with_its_own_exit_code(tmp_path: Path) -> None:
    # Each attempt of campaign n costs $0.25 n: campaign 1 $1.50, campaign 2 $2.00 (4 problems) ...
    outcome = _solve(tmp_path, lean_runner(SIX_SCRIPT), campaigns=0, run_limits=RunLimits(max_cost_dollars=3.0))
    assert outcome.exit_code == ExitCode.LIMIT
    assert "run cost budget reached ($3.50 of $3.00)" in outcome.message
    assert outcome.campaigns == 2
    resumed = _solve(
        tmp_path,
        lean_runner(SIX_SCRIPT),
        campaigns=0,
        run_limits=RunLimits(max_cost_dollars=6.0),
        resume=True,
    )
    assert resumed.campaigns == 4 and "run cost budget reached" in resumed.message


def test_a_problem_budget_covers_all_its_attempts_over_the_campaigns(tmp_path: Path) -> None:
    # An attempt in campaign n spends 1000 n + 214 tokens (for these ids): campaign 1 leaves each problem
    # 786 of its 2000 tokens, campaign 2 spends the rest, so campaign 3 has nothing it may run.
    scripted = lean_runner(SIX_SCRIPT)
    allowances: dict[int, dict[str, Allowance]] = {}

    def runner(job: CampaignJob) -> None:
        allowances[job.number] = dict(job.allowances)
        scripted(job)

    config = dataclasses.replace(lean_text_config(), budgets=Budgets(max_turns=10, token_limit=2000))
    outcome = _solve(tmp_path, runner, campaigns=0, config=config)
    assert outcome.exit_code == ExitCode.SUCCESS
    assert "every unresolved problem has spent its budget" in outcome.message
    assert outcome.unresolved == ("putnam_1962_a4", "putnam_1962_a5") and outcome.campaigns == 2
    assert allowances[1] == {p: Allowance(2000, None) for p in SIX}
    assert allowances[2] == {p: Allowance(786, None) for p in SIX[1:5]}
    summary = (tmp_path / "SUMMARY.md").read_text()
    assert "| Limits per attempt | turns 10 |" in summary
    assert "| Limits per problem (all its attempts) | tokens 2000 |" in summary


def test_a_run_where_every_attempt_errors_stops_instead_of_spinning(tmp_path: Path) -> None:
    runner = dataclasses.replace(lean_runner({}), status_override="error")
    outcome = _solve(tmp_path, runner, campaigns=0)
    assert outcome.exit_code == ExitCode.FAILURE
    assert "every attempt of campaign 1 ended in an error" in outcome.message
    assert outcome.campaigns == 1


def test_a_pass_claimed_without_an_accepted_verdict_is_not_counted(tmp_path: Path) -> None:
    runner = dataclasses.replace(lean_runner({"putnam_1962_a1": 1}), status_override="passed")
    outcome = _solve(tmp_path, runner, campaigns=1)
    assert outcome.passed == 1 and len(outcome.unresolved) == 5
    rows = [line.split("\t") for line in _lines(tmp_path / "attempts.tsv")[1:]]
    assert {r[1]: r[2] for r in rows}["putnam_1962_a2"] == "error"


def test_problems_the_agent_never_reported_are_recorded_as_errors(tmp_path: Path) -> None:
    def silent(job: CampaignJob) -> None:
        assert job.log_dir == tmp_path / "logs" and job.work_dir == tmp_path / "work"

    outcome = _solve(tmp_path, silent, campaigns=0)
    assert outcome.exit_code == ExitCode.FAILURE and "finished without reporting this problem" in outcome.message


def test_agent_layer_errors_end_the_run_with_their_message_and_it_resumes(tmp_path: Path) -> None:
    def no_key(*args: object) -> None:
        raise RuntimeError("no API key for provider openai: set OPENAI_API_KEY")

    outcome = _solve(tmp_path, no_key)
    assert (outcome.exit_code, outcome.message) == (
        ExitCode.FAILURE,
        "no API key for provider openai: set OPENAI_API_KEY",
    )
    assert "exit code 1: no API key" in (tmp_path / "SUMMARY.md").read_text()
    resumed = _solve(tmp_path, lean_runner(SIX_SCRIPT), resume=True)
    assert resumed.exit_code == ExitCode.SUCCESS and resumed.passed == 5


def test_resume_refuses_other_settings_unless_allowed(tmp_path: Path) -> None:
    assert _solve(tmp_path, lean_runner(SIX_SCRIPT), campaigns=1).exit_code == ExitCode.SUCCESS
    again = _solve(tmp_path, lean_runner(SIX_SCRIPT), campaigns=1)
    assert again.exit_code == ExitCode.USAGE and "already holds a run; continue it with --resume" in again.message
    other = dataclasses.replace(lean_text_config(), model="other/model")
    refused = _solve(tmp_path, lean_runner(SIX_SCRIPT), config=other, resume=True, campaigns=2)
    assert refused.exit_code == ExitCode.USAGE
    assert "config.model: 'scripted/worker' -> 'other/model'" in refused.message
    assert "--allow-changed-settings" not in refused.message  # no such flag: say what really works
    assert "start a new run with another --run-dir" in refused.message
    allowed = _solve(
        tmp_path, lean_runner(SIX_SCRIPT), config=other, resume=True, campaigns=2, allow_changed_settings=True
    )
    assert allowed.exit_code == ExitCode.SUCCESS and allowed.campaigns == 2 and allowed.passed == 4
    stored = stored_run(tmp_path)
    assert stored is not None and stored.config == other and stored.campaigns == 2
    assert stored.selection.problems == SIX


def test_resume_with_nothing_to_resume_says_so(tmp_path: Path) -> None:
    outcome = _solve(tmp_path, lean_runner(SIX_SCRIPT), resume=True)
    assert outcome.exit_code == ExitCode.USAGE and "nothing to resume" in outcome.message


def test_progress_views_show_attempts_and_totals(tmp_path: Path) -> None:
    stream = io.StringIO()
    _solve(tmp_path / "a", lean_runner(SIX_SCRIPT), campaigns=1, progress=LogLineProgress(stream))
    log = stream.getvalue()
    assert "campaign 1 started: 6 problems" in log
    assert f"`putnam report {tmp_path / 'a'}` writes it any time" in log, "the view points to the report"
    # scripted/worker has no price: the $0.25 its script reports is not all it may have spent
    assert "passed        putnam_1962_a1 (campaign 1, 2 turns, 1,214 tokens, at least $0.25; verdict accepted)" in log
    assert "campaign 1: 2/6 solved, 4 unresolved, 0 running; 6 attempts" in log.splitlines()[-1]
    console = Console(file=io.StringIO(), width=200, force_terminal=False)
    _solve(tmp_path / "b", lean_runner(SIX_SCRIPT), campaigns=1, progress=RichProgress(console))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "2 of 6 problems" in shown and "6 of 6 attempts done, 0 running, 0 queued" in shown
    assert "ETA ~0m00s for campaign 1" in shown, "finished attempts give the ETA its pace"
    assert "putnam_1962_a6 (campaign 1" in shown, "each finished attempt is printed above the live part"
    # Rich wraps the line at the console's width, before the run folder where its path is long
    assert f"putnam report {tmp_path / 'b'}" in " ".join(shown.split())
