"""Overhead of the sandbox and the gate pipeline over a bare `lean` run, on the toy Lean benchmark.

For each valid toy candidate, the median wall time of N runs of:

- bare:      `lean --json --threads=1 -o M.olean M.lean`, a plain subprocess in a fresh directory;
- G4:        ``compile_gate`` (find_lean, fresh copy, sandbox, message parsing, .olean hash);
- G1-G4:     ``run_gates`` with profile ``fast`` (adds the text gates and the pipeline);
- G4+G5:     compile, then the axiom check (a second sandboxed `lean` run: expect about 2x).

Printed side by side with the ratios to bare; the goal is G4 and G1-G4 within 10% of bare. Then the
verdict cache: a cache hit (``verify_candidates`` finding the stored verdict) against a fresh G1-G4
verification of the same candidate; the goal is a hit costing at most 1% of a fresh run. The toy
proofs take tens of milliseconds, so fixed costs (starting bubblewrap) weigh far more here than they
would next to a Mathlib import. Usage: ``python bench/lean_overhead.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.toylean

from putnam_solver.benchmark import Benchmark, load_benchmark
from putnam_solver.cache import VerdictCache
from putnam_solver.candidates import Candidate, verify_candidates
from putnam_solver.provers.lean import LeanProver
from putnam_solver.provers.lean.axioms import axioms_gate
from putnam_solver.provers.lean.compile import LEAN_THREADS, compile_gate
from putnam_solver.verify import Profile, ScratchDir, Submission, Track, VerifyOptions, run_gates
from tests.toylean.build import BENCHMARK, VALID, ToyLean, build_toy_lean


def timed(action: Callable[[], object], runs: int) -> float:
    """Median wall seconds of ``runs`` calls."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def bare(toy: ToyLean, module: str, source: bytes, scratch: Path) -> None:
    workdir = Path(tempfile.mkdtemp(dir=scratch))
    (workdir / f"{module}.lean").write_bytes(source)
    argv = [str(toy.lean), "--json", f"--threads={LEAN_THREADS}", "-o", f"{module}.olean", f"{module}.lean"]
    env = {"LEAN_PATH": str(toy.init_dir), "PATH": "/usr/bin:/bin"}
    subprocess.run(argv, cwd=workdir, env=env, capture_output=True, check=True)


def submission(bench: Benchmark, problem_id: str, source: bytes, scratch: Path) -> Submission:
    problem = bench.problems[problem_id]
    private = ScratchDir(existing=Path(tempfile.mkdtemp(dir=scratch)))
    return Submission(problem, bench, Track.WITH_ANSWER, source, source.decode(), problem.formal_statement,
                      private, VerifyOptions(profile=Profile.FAST))


def gate(bench: Benchmark, problem_id: str, source: bytes, scratch: Path) -> None:
    result = compile_gate(submission(bench, problem_id, source, scratch))
    assert result.passed, result.detail


def pipeline(bench: Benchmark, problem_id: str, source: bytes) -> None:
    verdict = run_gates(LeanProver(), bench, bench.problems[problem_id], source, Track.WITH_ANSWER,
                        VerifyOptions(profile=Profile.FAST))
    assert verdict.accepted, verdict.first_problem()


def g4_g5(bench: Benchmark, problem_id: str, source: bytes, scratch: Path) -> None:
    sub = submission(bench, problem_id, source, scratch)
    g4 = compile_gate(sub)
    assert g4.passed, g4.detail
    g5 = axioms_gate(replace(sub, prior=(g4,)))
    assert g5.passed, g5.detail


def measure(toy: ToyLean, bench: Benchmark, problem_id: str, scratch: Path, runs: int) -> list[float]:
    """Median seconds of bare lean, G4, G1-G4 and G4+G5 for one valid candidate."""
    source = (VALID / f"{problem_id}.lean").read_bytes()
    module = bench.problems[problem_id].module
    gate(bench, problem_id, source, scratch)  # warm the toolchain probe and hash caches, as a harness is
    return [
        timed(partial(bare, toy, module, source, scratch), runs),
        timed(partial(gate, bench, problem_id, source, scratch), runs),
        timed(partial(pipeline, bench, problem_id, source), runs),
        timed(partial(g4_g5, bench, problem_id, source, scratch), runs),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    bench = load_benchmark(BENCHMARK)
    with tempfile.TemporaryDirectory(prefix="lean-overhead-") as tmp:
        scratch = Path(tmp)
        toy = build_toy_lean(scratch / "toy")
        os.environ.update(toy.env)
        print(f"median of {args.runs} runs; seconds and ratio to bare lean")
        print(f"{'problem':<14}{'bare':>8}{'G4':>8}{'ratio':>7}{'G1-G4':>8}{'ratio':>7}{'G4+G5':>8}{'ratio':>7}")
        totals = [0.0, 0.0, 0.0, 0.0]
        for problem_id in sorted(bench.problems):
            times = measure(toy, bench, problem_id, scratch, args.runs)
            totals = [t + s for t, s in zip(totals, times, strict=True)]
            print(_row(problem_id, times))
        print(_row("total", totals))
        fresh, hit = cache_ratio(bench, scratch, args.runs)
        print(f"verdict cache: fresh G1-G4 {fresh * 1000:.1f} ms, cache hit {hit * 1000:.2f} ms, "
              f"hit/fresh = {hit / fresh:.2%} (goal <= 1%)")


def cache_ratio(bench: Benchmark, scratch: Path, runs: int) -> tuple[float, float]:
    """Median seconds of a fresh G1-G4 verification and of a verdict-cache hit, same candidate."""
    problem = bench.problems["toy_and_comm"]
    candidate = Candidate(VALID / "toy_and_comm.lean", problem, (VALID / "toy_and_comm.lean").read_bytes())
    options = VerifyOptions(profile=Profile.FAST)
    cache = VerdictCache(scratch / "cache")

    def verify(with_cache: VerdictCache | None) -> None:
        verdict = verify_candidates([candidate], LeanProver(), bench, Track.WITH_ANSWER, options, 1, with_cache)[0]
        assert verdict.accepted and verdict.cached == (with_cache is not None)

    verify(None)
    verify_candidates([candidate], LeanProver(), bench, Track.WITH_ANSWER, options, 1, cache)
    return timed(partial(verify, None), runs), timed(partial(verify, cache), runs * 10)


def _row(label: str, times: list[float]) -> str:
    base, *rest = times
    cells = "".join(f"{t:>8.3f}{t / base:>7.2f}" for t in rest)
    return f"{label:<14}{base:>8.3f}{cells}"


if __name__ == "__main__":
    main()
