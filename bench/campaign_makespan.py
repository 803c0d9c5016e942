"""Campaign controller overhead: a simulated 672-problem campaign with a scripted agent.

The scripted runner stands in for the agent layer: every attempt takes a fixed latency (default 2 s) on
one of 64 worker threads, and its verdict is made instantly (no gates run), so everything measured
beyond the ideal makespan ceil(672 / 64) * latency is the campaign controller's own work: queueing,
ledger transactions, evidence folders, progress, output files. Printed:

- campaign makespan (from the campaign's start to ``solve`` returning, outputs included) / ideal
  (goal: <= 1.05);
- controller CPU time per attempt (``time.process_time`` over the whole solve, divided by attempts);
- peak resident memory of the process.

Real attempts take minutes, so the default latency of 2 s is already pessimistic; with ``--latency 0.05``
the controller's ~3 ms of CPU per attempt (on a 2-core machine) dominates and the ratio is about 3x.

Usage: python bench/campaign_makespan.py [--latency 2] [--jobs 64] [--run-dir DIR]
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, Verdict
from putnam_solver.run.agent.types import AttemptResult, Budgets, CampaignJob, SolveConfig
from putnam_solver.run.campaign import RunSettings, Selection, solve
from putnam_solver.run.report.progress import AttemptEvent, Totals
from tests.helpers import LEAN_BENCH


class InstantRunner:
    """Each attempt sleeps ``latency`` on one of ``jobs`` threads, then passes with an instant verdict."""

    def __init__(self, latency: float, jobs: int) -> None:
        self.latency = latency
        self.jobs = jobs
        self.seconds = 0.0

    def __call__(self, job: CampaignJob) -> None:
        start = time.perf_counter()

        def attempt(problem: Problem) -> None:
            time.sleep(self.latency)
            job.on_attempt(self.result(problem, job.benchmark))

        with ThreadPoolExecutor(self.jobs) as pool:
            for future in [pool.submit(attempt, p) for p in job.problems]:
                future.result()
        self.seconds = time.perf_counter() - start

    @staticmethod
    def result(problem: Problem, benchmark: Benchmark) -> AttemptResult:
        candidate = problem.formal_statement.replace("sorry", "by simp")
        gates = [GateResult(g, g, GateStatus.PASSED, "simulated") for g in ("G1", "G2", "G3")]
        verdict = Verdict(
            problem=problem.id,
            prover="lean",
            track=Track.WITH_ANSWER,
            profile=Profile.TEXT,
            gates=gates,
            expected_gates=("G1", "G2", "G3"),
            candidate_sha256=sha256_hex(candidate.encode("utf-8")),
            statement_sha256=problem.statement_sha256,
            challenge_sha256=problem.statement_sha256,
            benchmark_sha256=benchmark.sha256,
            benchmark_pinned=benchmark.pinned,
        )
        return AttemptResult(problem.id, "passed", 5, 20_000, 2_000, 0.1, candidate, verdict)


class Clock:
    """A progress sink that notes when the campaign started and when the last attempt was recorded
    (the ledger transaction committed; evidence folders and output files may still be being written)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.last_recorded = 0.0

    def campaign_started(self, campaign: int, problems: Sequence[str], totals: Totals) -> None:
        self.started = time.perf_counter()

    def attempt_done(self, event: AttemptEvent, totals: Totals) -> None:
        self.last_recorded = time.perf_counter()

    def update(self, totals: Totals) -> None:
        return None

    def notice(self, message: str) -> None:
        print(message)

    def close(self) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=2.0, help="seconds per simulated attempt")
    parser.add_argument("--jobs", type=int, default=64, help="concurrent attempts")
    parser.add_argument("--benchmark", type=Path, default=LEAN_BENCH, help="PutnamBench Lean 4 JSONL (672 problems)")
    parser.add_argument("--run-dir", type=Path, help="where to put the run (default: a temporary directory)")
    args = parser.parse_args()
    config = SolveConfig(
        prover="lean",
        track=Track.WITH_ANSWER,
        model="simulated",
        reviewer_model=None,
        reasoning_effort=None,
        agent="react",
        sandbox="local",
        jobs=args.jobs,
        fallback_jobs=args.jobs,
        budgets=Budgets(),
        acceptance_profile=Profile.TEXT,
    )
    with tempfile.TemporaryDirectory(prefix="putnam-bench-") as tmp:
        run_dir = args.run_dir or Path(tmp) / "run"
        runner = InstantRunner(args.latency, args.jobs)
        clock = Clock()
        cpu = time.process_time()
        begin = time.perf_counter()
        outcome = solve(RunSettings(run_dir, config, Selection(args.benchmark)), clock, runner=runner)
        end = time.perf_counter()
        cpu = time.process_time() - cpu
    if outcome.exit_code != 0:
        raise SystemExit(f"the simulated campaign failed: {outcome.message}")
    attempts = outcome.selected
    ideal = math.ceil(attempts / args.jobs) * args.latency
    makespan = end - clock.started
    print(f"outcome: exit {outcome.exit_code}: {outcome.message}")
    print(f"attempts: {attempts}, jobs {args.jobs}, latency {args.latency * 1000:.0f} ms")
    print(f"ideal makespan:    {ideal:.3f} s  (ceil({attempts}/{args.jobs}) x latency)")
    print(f"runner makespan:   {runner.seconds:.3f} s  ({runner.seconds / ideal:.3f}x ideal)")
    recorded = clock.last_recorded - clock.started
    print(f"all attempts in the ledger after: {recorded:.3f} s  ({recorded / ideal:.3f}x ideal)")
    print(f"campaign makespan: {makespan:.3f} s  ({makespan / ideal:.3f}x ideal; goal <= 1.05x)")
    print(f"  after the last record (evidence folders, output files): {end - clock.last_recorded:.3f} s")
    print(f"setup before the campaign: {clock.started - begin:.3f} s (benchmark, challenges, ledger)")
    print(f"controller CPU per attempt: {cpu / attempts * 1000:.2f} ms (process_time over the whole solve)")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
