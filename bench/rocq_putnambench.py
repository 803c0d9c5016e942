"""Time to run every compiling PutnamBench Coq statement (as shipped) through the full Rocq profile.

Usage: python bench/rocq_putnambench.py [--benchmark PATH] [--workers 2] [--max N]. Prints the total wall
time, the time per statement and how the verdicts split (every one should be rejected by G3, G5, G6).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.problem_selection import select_problems
from tests.helpers import COQ_BENCH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--benchmark", type=Path, default=COQ_BENCH)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max", type=int, default=None)
    args = parser.parse_args()
    bench = load_benchmark(args.benchmark)
    prover = RocqProver()
    problems = select_problems(bench, max_problems=args.max)
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)

    def verify(problem_id: str) -> tuple[Verdict, float]:
        problem = bench.problems[problem_id]
        start = time.perf_counter()
        verdict = run_gates(prover, bench, problem, problem.formal_statement.encode(), Track.WITH_ANSWER, options)
        return verdict, time.perf_counter() - start

    start = time.perf_counter()
    with ThreadPoolExecutor(args.workers) as pool:
        results = list(pool.map(verify, [p.id for p in problems]))
    total = time.perf_counter() - start
    compiled = [(v, t) for v, t in results if any(g.id == "G4" and g.passed for g in v.gates)]
    shapes = Counter(tuple(f"{g.id}:{g.status.value}" for g in v.gates) for v, _ in compiled)
    print(f"{len(problems)} statements, {len(compiled)} compile; workers={args.workers}")
    print(
        f"total {total:.1f}s; {total / max(len(problems), 1):.2f}s per statement (wall, {args.workers} workers);"
        f" {sum(t for _, t in results) / max(len(results), 1):.2f}s per verification"
    )
    for shape, count in shapes.most_common():
        print(f"{count:4} {' '.join(shape)}")


if __name__ == "__main__":
    main()
