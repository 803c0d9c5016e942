"""A scripted attempt runner with real verification, and a command line that runs ``solve`` with it.

The runner stands in for the agent layer only: it decides what each "worker" submits from a script, and
every verdict comes from the real gate pipeline (``run_gates``). Run as a script, it drives a whole
``solve`` in its own process so that tests can ``kill -9`` it at chosen moments and resume.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.run import campaign
from putnam_solver.run.agent.types import AttemptResult, Budgets, CampaignJob, CarryForward, SolveConfig
from putnam_solver.run.report import summary
from putnam_solver.run.stored_settings import StoredSettings, describe_benchmark
from tests.helpers import LEAN_BENCH

SIX = (
    "putnam_1962_a1",
    "putnam_1962_a2",
    "putnam_1962_a3",
    "putnam_1962_a4",
    "putnam_1962_a5",
    "putnam_1962_a6",
)
SIX_SCRIPT = {
    "putnam_1962_a1": 1,
    "putnam_1962_a2": 2,
    "putnam_1962_a3": 2,
    "putnam_1962_a4": 3,
    "putnam_1962_a6": 1,
}
"""First campaign in which each problem's worker submits a passing proof (putnam_1962_a5: never)."""


@dataclass
class ScriptedRunner:
    """Runs a campaign like the agent layer would: concurrently, reporting each attempt when verified.

    A problem's worker submits its passing candidate from campaign ``solve_at[problem]`` on, but after
    campaign 1 only when it was shown the problem's carried candidate and diagnostics (a worker that
    learns from the previous failure); otherwise it submits the unfinished challenge, which the gates
    reject. Usage is a function of (campaign, problem), so reruns are reproducible.
    """

    prover: Prover
    good: Mapping[str, str]
    solve_at: Mapping[str, int]
    latency: float = 0.0
    jobs: int = 4
    status_override: str | None = None
    seen: list[tuple[int, str, CarryForward | None]] = field(default_factory=list)

    def __call__(self, job: CampaignJob) -> None:
        config = job.config
        options = config.verify_options()  # the acceptance, as the agent layer's submit runs it

        def attempt(problem: Problem) -> None:
            self.seen.append((job.number, problem.id, job.carried.get(problem.id)))
            time.sleep(self.latency)
            job.on_attempt(self.attempt(problem, job.benchmark, config.track, options, job.number, job.carried))

        with ThreadPoolExecutor(self.jobs) as pool:
            for future in [pool.submit(attempt, p) for p in job.problems]:
                future.result()

    def attempt(
        self,
        problem: Problem,
        benchmark: Benchmark,
        track: Track,
        options: VerifyOptions,
        number: int,
        carried: Mapping[str, CarryForward],
    ) -> AttemptResult:
        first = self.solve_at.get(problem.id)
        learned = number == 1 or problem.id in carried
        wins = first is not None and number >= first and learned
        candidate = self.good[problem.id] if wins else self.prover.challenge(problem, track)
        verdict = run_gates(self.prover, benchmark, problem, candidate.encode("utf-8"), track, options)
        status = self.status_override or ("passed" if verdict.accepted else "rejected")
        return AttemptResult(
            problem=problem.id,
            status=status,
            turns=number + 1,
            input_tokens=1000 * number + len(problem.id),
            output_tokens=200,
            cost_dollars=0.25 * number,
            candidate=candidate,
            verdict=verdict,
            turn_log=[{"tool": "submit", "campaign": number}],
        )


def lean_text_config(jobs: int = 4) -> SolveConfig:
    """A config whose acceptance gates are the text profile: real gates that need no Lean toolchain."""
    return SolveConfig(
        prover="lean",
        track=Track.WITH_ANSWER,
        model="scripted/worker",
        reviewer_model=None,
        reasoning_effort=None,
        agent="react",
        sandbox="local",
        jobs=jobs,
        fallback_jobs=1,
        budgets=Budgets(max_turns=10),
        acceptance_profile=Profile.TEXT,
    )


def recorded_lean_settings(selected: Sequence[str], **changes: object) -> StoredSettings:
    """The settings ``solve`` records for a text-profile Lean run over ``selected`` of the PutnamBench Lean
    file (``changes``: fields set otherwise), for tests that fill a ledger by hand."""
    bench = load_benchmark(LEAN_BENCH)
    recorded = StoredSettings(
        config=lean_text_config(),
        selection=campaign.Selection(LEAN_BENCH.resolve(), problems=tuple(selected)),
        benchmark_sha256=bench.sha256,
        selected=tuple(selected),
        pin=bench.pin_name,
        suffix=".lean",
        toolchain="lean text gates",
        benchmark=describe_benchmark(bench),
    )
    return dataclasses.replace(recorded, **changes)  # type: ignore[arg-type]


def lean_good_candidates(problem_ids: Sequence[str]) -> dict[str, str]:
    """Each challenge with its final ``sorry`` filled: accepted by the text gates."""
    prover = get_prover("lean")
    bench = load_benchmark(LEAN_BENCH)
    return {
        pid: re.sub(r":=\s*sorry\s*\Z", ":= by\n  simp\n", prover.challenge(bench.problems[pid], Track.WITH_ANSWER))
        for pid in problem_ids
    }


def lean_runner(solve_at: Mapping[str, int], latency: float = 0.0, jobs: int = 4) -> ScriptedRunner:
    return ScriptedRunner(get_prover("lean"), lean_good_candidates(SIX), solve_at, latency, jobs)


def _pause_outputs(marker: Path, name: str, nth: int) -> None:
    """Make the ``nth`` write of output file ``name`` stop (after writing ``marker``) until killed."""
    real = summary.write_under  # type: ignore[attr-defined]
    count = 0

    def write(root: Path, relative: str | PurePath, data: bytes, durable: bool = False) -> Path:
        nonlocal count
        if PurePath(relative).name == name:
            count += 1
            if count == nth:
                marker.write_text("paused\n")
                time.sleep(120)
        return real(root, relative, data, durable)

    summary.write_under = write  # type: ignore[attr-defined]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--campaigns", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--pause-at", help="FILE:N:MARKER - stop at the Nth write of FILE, after writing MARKER")
    args = parser.parse_args(argv)
    if args.pause_at:
        name, nth, marker = args.pause_at.split(":", 2)
        _pause_outputs(Path(marker), name, int(nth))
    selection = campaign.Selection(LEAN_BENCH, problems=SIX)
    run = campaign.RunSettings(args.run_dir, lean_text_config(args.jobs), selection, args.campaigns, resume=args.resume)
    outcome = campaign.solve(run, progress=None, runner=lean_runner(SIX_SCRIPT, args.latency, args.jobs))
    print(f"exit {outcome.exit_code}: {outcome.message}")
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
