"""Time the Lean text gates (G1-G3 via run_gates, profile text) over all 672 filled challenges.

Prints median and p95 time per candidate, for the whole pipeline (``run_gates``, which also creates and
deletes a scratch directory per verification) and for the Lean prover's share alone, each as a ratio to
the 2 ms goal, and the peak memory traced while verifying all of them.
Usage: ``python bench/text_gates.py [path/to/putnam_bench_lean4.jsonl]``.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from putnam_solver.core.benchmark import Problem, load_benchmark
from putnam_solver.core.provers.lean import LeanProver, check_forbidden, check_preservation
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import LEAN_BENCH

GOAL_MS = 2.0


def filled(challenge: str, track: Track) -> str:
    """The challenge with a proof-like token sequence in every hole."""
    parsed = parse_statement(challenge)
    start = parsed.theorem.tokens[parsed.proof_assign].end
    text = challenge[:start] + " by\n  simp [foo] <;> linarith\n"
    if track is Track.NO_ANSWER:
        for solution in sorted(parsed.solutions, key=lambda s: -s.value.offset):
            text = text[: solution.value.offset] + "fun _ => 0" + text[solution.value.end :]
    return text


def _report(label: str, times: list[float]) -> float:
    median, p95 = statistics.median(times), statistics.quantiles(times, n=20)[-1]
    print(f"{label}: median {median:.2f} ms, p95 {p95:.2f} ms, median/goal = {median / GOAL_MS:.2f}")
    return median


def main(path: Path) -> int:
    bench = load_benchmark(path)
    prover, options = LeanProver(), VerifyOptions(profile=Profile.TEXT)
    track = Track.WITH_ANSWER
    cases = [(p, filled(prover.challenge(p, track), track).encode()) for p in bench.problems.values()]
    verdicts = [run_gates(prover, bench, p, c, track, options) for p, c in cases]
    rejected = sum(not v.accepted for v in verdicts)
    print(f"candidates: {len(cases)} ({rejected} rejected; expected 0); goal: median <= {GOAL_MS} ms")
    pipeline, share = [], []
    for problem, candidate in cases:
        start = time.perf_counter()
        run_gates(prover, bench, problem, candidate, track, options)
        middle = time.perf_counter()
        _prover_share(prover, problem, candidate, track)
        pipeline.append((middle - start) * 1000)
        share.append((time.perf_counter() - middle) * 1000)
    _report("run_gates G1-G3 per candidate (incl. the pipeline's scratch dir)", pipeline)
    _report("prover share (challenge + G2 + G3 + answers)", share)
    tracemalloc.start()
    for problem, candidate in cases:
        run_gates(prover, bench, problem, candidate, track, options)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"peak traced memory over all {len(cases)} runs: {peak / 1e6:.2f} MB")
    return 1 if rejected else 0


def _prover_share(prover: LeanProver, problem: Problem, candidate: bytes, track: Track) -> None:
    """What the Lean prover adds to a text-profile verification, without the pipeline's own overhead."""
    text = candidate.decode()
    challenge = prover.challenge(problem, track)
    check_preservation(challenge, text, track)
    check_forbidden(text)
    prover.answers(problem, text, track)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else LEAN_BENCH))
