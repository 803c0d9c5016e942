"""Campaigns of ``--samples K``: every (problem, sample) runs once per campaign, an interrupted campaign
resumes only the samples without an outcome, a problem's budget is shared by its samples, and a later
campaign runs only the problems no sample solved. Real text gates (Lean) judge every candidate."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import run_gates
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.types import AttemptResult, Budgets, CampaignJob
from putnam_solver.run.campaign import RunSettings, Selection, solve
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from tests.integration.campaign_driver import LEAN_BENCH, lean_good_candidates, lean_text_config

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
PROBLEMS = ("putnam_1962_a1", "putnam_1962_a2")
GOOD = lean_good_candidates(PROBLEMS)


class Runner:
    """Reports every slot of the job in order (``passes`` says which (problem, sample) submits a good
    candidate, ``later`` which problems every sample solves after campaign 1); ``interrupt_after`` stops
    the campaign after that many reports, as Ctrl-C does."""

    def __init__(
        self, passes: set[tuple[str, int]], interrupt_after: int | None = None, later: frozenset[str] = frozenset()
    ) -> None:
        self.passes, self.interrupt_after, self.later = passes, interrupt_after, later
        self.jobs: list[list[tuple[str, int]]] = []
        self.allowances: list[dict[str, int | None]] = []

    def __call__(self, job: CampaignJob) -> None:
        prover = get_prover("lean")
        self.jobs.append([(p.id, n) for p, n in job.slots()])
        self.allowances.append({p: a.tokens for p, a in job.allowances.items()})
        for done, (problem, sample) in enumerate(job.slots()):
            if self.interrupt_after is not None and done == self.interrupt_after:
                job.live.interrupt()
                return
            good = (problem.id, sample) in self.passes or (job.number > 1 and problem.id in self.later)
            candidate = GOOD[problem.id] if good else prover.challenge(problem, job.config.track)
            verdict = run_gates(
                prover, job.benchmark, problem, candidate.encode(), job.config.track, job.config.verify_options()
            )
            status = "passed" if verdict.accepted else "rejected"
            job.on_attempt(AttemptResult(problem.id, status, 1, 10, 5, 0.0, candidate, verdict, sample=sample))


def _solve(run_dir: Path, runner: Callable[[CampaignJob], None], resume: bool = False, campaigns: int = 1) -> int:
    config = dataclasses.replace(lean_text_config(), samples=2, budgets=Budgets(max_turns=10, token_limit=1001))
    settings = RunSettings(run_dir, config, Selection(LEAN_BENCH, problems=PROBLEMS), campaigns, resume=resume)
    return solve(settings, None, runner=runner).exit_code


def _rows(run_dir: Path) -> list[tuple[int, str, int, str]]:
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        return [(a.campaign, a.problem, a.sample, a.status) for a in ledger.every_attempt()]
    finally:
        ledger.close()


def test_an_interrupted_campaign_resumes_only_the_samples_without_an_outcome(tmp_path: Path) -> None:
    first = Runner({("putnam_1962_a1", 2)}, interrupt_after=3)
    assert _solve(tmp_path, first) == ExitCode.INTERRUPTED
    every = [(p, n) for p in PROBLEMS for n in (1, 2)]
    assert first.jobs == [every]
    assert first.allowances == [{p: 500 for p in PROBLEMS}], "a problem's budget is shared by its samples"
    second = Runner({("putnam_1962_a1", 2)})
    assert _solve(tmp_path, second, resume=True) == ExitCode.SUCCESS
    assert second.jobs == [[("putnam_1962_a2", 2)]], "only the sample without an outcome runs again"
    assert second.allowances == [{"putnam_1962_a2": 1001 - 15}], "the one sample left has what is left"
    assert _rows(tmp_path) == [
        (1, "putnam_1962_a1", 1, "rejected"),
        (1, "putnam_1962_a1", 2, "passed"),
        (1, "putnam_1962_a2", 1, "rejected"),
        (1, "putnam_1962_a2", 2, "rejected"),
    ]
    summary = (tmp_path / "SUMMARY.md").read_text()
    assert "| all | 2 | 0.250 | 0.500 |" in summary  # a1: 1 of 2 (0.5, 1.0); a2: 0 of 2


def test_a_later_campaign_runs_the_unsolved_problems_and_pass_at_k_stays_the_first_campaigns(tmp_path: Path) -> None:
    runner = Runner({("putnam_1962_a1", 1)}, later=frozenset({"putnam_1962_a2"}))
    assert _solve(tmp_path, runner, campaigns=2) == ExitCode.SUCCESS
    assert runner.jobs[1] == [("putnam_1962_a2", 1), ("putnam_1962_a2", 2)]
    summary = (tmp_path / "SUMMARY.md").read_text()
    assert "**Solved: 2 of 2 (100.0%)**" in summary, "the second campaign solved a2"
    assert "| all | 2 | 0.250 | 0.500 |" in summary, "its passes are not samples of the first campaign"
