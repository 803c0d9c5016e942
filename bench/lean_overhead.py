"""Overhead of the sandbox and the gate pipeline over a bare `lean` run, on the toy Lean benchmark.

For each valid toy candidate, the median wall time of N interleaved rounds of:

- bare:      `lean --json --threads=1 -o M.olean M.lean`, a plain subprocess in a fresh directory;
- G4:        ``compile_gate`` (find_lean, fresh copy, sandbox, message parsing, .olean hash);
- G1-G4:     ``run_gates`` with profile ``fast`` (adds the text gates and the pipeline);
- G4+G5:     compile, then the axiom check (a second sandboxed `lean` run: expect about 2x).

Printed side by side with the ratios to bare, and the milliseconds G4 adds; the goal is G4 and G1-G4
within 10% of bare. Each sandboxed run costs a fixed few milliseconds (bubblewrap's namespaces and
mounts, the limit wrapper), which weighs heavily next to the sample proofs (tens of milliseconds) and
little next to a realistic compile. So the samples are followed by a heavier valid candidate for
``toy_and_comm``: ``--helpers`` chained helper theorems (the default, 800, takes 1-2 s bare with the
toy ``Init``), measured the same way; its file is large (about 84 KB), so its G1-G4 column also
shows what the text gates cost on that many bytes. Then the verdict cache: a cache hit
(``verify_candidates`` finding the stored verdict) against a fresh G1-G4 verification of the same
candidate; the goal is a hit costing at most 1% of a fresh run. Last, tool runs counted (not timed) for
two candidates of one problem: the candidate's `lean` runs through G4, G5 and the pipeline (toy Lean),
and what Lake elaborated for G6 with the faithful fake toolchain (tests/fakes: its `lake` decides
up-to-date as Lake does): with a cold cache for each candidate (what every G6 run cost before the
challenge build was kept) against a shared one.
Usage: ``python bench/lean_overhead.py [--runs N] [--helpers K]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.toylean

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean import compile as lean_compile
from putnam_solver.core.provers.lean.axioms import axioms_gate
from putnam_solver.core.provers.lean.comparator import comparator_gate
from putnam_solver.core.provers.lean.compile import LEAN_THREADS, compile_gate
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths
from putnam_solver.core.verify import Profile, ScratchDir, Submission, Track, VerifyOptions, run_gates
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from putnam_solver.verifier.options import GateFlags
from tests.helpers import LEAN_BENCH, lean_submission
from tests.integration.test_lean_comparator import fake_toolchain
from tests.toylean.build import BENCHMARK, VALID, ToyLean, build_toy_lean


def timed(action: Callable[[], object], runs: int) -> float:
    """Median wall seconds of ``runs`` calls."""
    return interleaved([action], runs)[0]


def interleaved(actions: Sequence[Callable[[], object]], runs: int) -> list[float]:
    """Median wall seconds of each action over ``runs`` rounds that call every action once, so that
    the load of a shared machine falls on all of them alike."""
    samples: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for action, times in zip(actions, samples, strict=True):
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
    return [statistics.median(times) for times in samples]


def bare(toy: ToyLean, module: str, source: bytes, scratch: Path) -> None:
    workdir = Path(tempfile.mkdtemp(dir=scratch))
    (workdir / f"{module}.lean").write_bytes(source)
    argv = [str(toy.lean), "--json", f"--threads={LEAN_THREADS}", "-o", f"{module}.olean", f"{module}.lean"]
    env = {"LEAN_PATH": str(toy.init_dir), "PATH": "/usr/bin:/bin"}
    subprocess.run(argv, cwd=workdir, env=env, capture_output=True, check=True)


def submission(bench: Benchmark, problem_id: str, source: bytes, scratch: Path) -> Submission:
    problem = bench.problems[problem_id]
    private = ScratchDir(existing=Path(tempfile.mkdtemp(dir=scratch)))
    return Submission(
        problem,
        bench,
        Track.WITH_ANSWER,
        source,
        source.decode(),
        problem.formal_statement,
        private,
        VerifyOptions(profile=Profile.FAST),
    )


def gate(bench: Benchmark, problem_id: str, source: bytes, scratch: Path) -> None:
    result = compile_gate(submission(bench, problem_id, source, scratch))
    assert result.passed, result.detail


def pipeline(bench: Benchmark, problem_id: str, source: bytes) -> None:
    verdict = run_gates(
        LeanProver(), bench, bench.problems[problem_id], source, Track.WITH_ANSWER, VerifyOptions(profile=Profile.FAST)
    )
    assert verdict.accepted, verdict.first_problem()


def g4_g5(bench: Benchmark, problem_id: str, source: bytes, scratch: Path) -> None:
    sub = submission(bench, problem_id, source, scratch)
    g4 = compile_gate(sub)
    assert g4.passed, g4.detail
    g5 = axioms_gate(replace(sub, prior=(g4,)))
    assert g5.passed, g5.detail


def heavy_candidate(helpers: int) -> bytes:
    """A valid ``toy_and_comm`` proof through a chain of ``helpers`` theorems, each using the one before
    three times: many declarations to elaborate and check, and all of them behind the theorem for
    ``#print axioms`` (G5) to walk."""
    lines = ["theorem chain_0 (p q : Prop) (h : And p q) : And q p := And.intro h.right h.left"]
    lines += [
        f"theorem chain_{i} (p q : Prop) (h : And p q) : And q p := "
        f"chain_{i - 1} p q (chain_{i - 1} q p (chain_{i - 1} p q h))"
        for i in range(1, helpers)
    ]
    lines.append(f"theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := chain_{helpers - 1} p q h")
    return ("\n".join(lines) + "\n").encode()


def measure(toy: ToyLean, bench: Benchmark, problem_id: str, source: bytes, scratch: Path, runs: int) -> list[float]:
    """Median seconds of bare lean, G4, G1-G4 and G4+G5 for one valid candidate."""
    module = bench.problems[problem_id].module
    gate(bench, problem_id, source, scratch)  # warm the toolchain probe and hash caches, as a harness is
    actions = [
        partial(bare, toy, module, source, scratch),
        partial(gate, bench, problem_id, source, scratch),
        partial(pipeline, bench, problem_id, source),
        partial(g4_g5, bench, problem_id, source, scratch),
    ]
    return interleaved(actions, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--helpers", type=int, default=800, help="helper theorems in the heavy candidate")
    args = parser.parse_args()
    bench = load_benchmark(BENCHMARK)
    with tempfile.TemporaryDirectory(prefix="lean-overhead-") as tmp:
        scratch = Path(tmp)
        toy = build_toy_lean(scratch / "toy")
        os.environ.update(toy.env)
        print(f"median of {args.runs} runs; seconds, ratio to bare lean, and milliseconds G4 adds to bare")
        print(
            f"{'problem':<18}{'bare':>8}{'G4':>8}{'ratio':>7}{'G1-G4':>8}{'ratio':>7}{'G4+G5':>8}{'ratio':>7}"
            f"{'G4 +ms':>8}"
        )
        totals = [0.0, 0.0, 0.0, 0.0]
        for problem_id in sorted(bench.problems):
            source = (VALID / f"{problem_id}.lean").read_bytes()
            times = measure(toy, bench, problem_id, source, scratch, args.runs)
            totals = [t + s for t, s in zip(totals, times, strict=True)]
            print(_row(problem_id, times))
        print(_row("samples total", totals))
        heavy = measure(toy, bench, "toy_and_comm", heavy_candidate(args.helpers), scratch, args.runs)
        print(_row(f"{args.helpers} helpers", heavy))
        fresh, hit = cache_ratio(bench, scratch, args.runs)
        print(
            f"verdict cache: fresh G1-G4 {fresh * 1000:.1f} ms, cache hit {hit * 1000:.2f} ms, "
            f"hit/fresh = {hit / fresh:.2%} (goal <= 1%)"
        )
        print(f"toy Lean, `lean` runs per full verification (G4, G5): {lean_runs(bench)}")
        for label, shared in (("cold cache per candidate", False), ("shared cache", True)):
            print(f"G6, Lake elaborations for two candidates, {label}: {lake_runs(scratch / label, shared)}")


def lean_runs(bench: Benchmark) -> dict[str, int]:
    """How many times `lean` ran per module in one full verification of a valid toy candidate."""
    counts: dict[str, int] = {}
    real = lean_compile.compile_lean

    def counted(lean: Any, module: str, *args: Any, **kwargs: Any) -> Any:
        counts[module] = counts.get(module, 0) + 1
        return real(lean, module, *args, **kwargs)

    lean_compile.compile_lean = counted  # type: ignore[assignment]
    try:
        source = (VALID / "toy_and_comm.lean").read_bytes()
        run_gates(LeanProver(), bench, bench.problems["toy_and_comm"], source, Track.WITH_ANSWER, VerifyOptions())
    finally:
        lean_compile.compile_lean = real
    return counts


def lake_runs(scratch: Path, shared: bool, problem: str = "putnam_1962_a2") -> dict[str, int]:
    """What the fake toolchain's `lake` elaborated (per module) over G6 runs on two candidates."""
    putnam = load_benchmark(LEAN_BENCH)
    root = fake_toolchain(scratch / "toolchain")
    statement = putnam.problems[problem].formal_statement
    for index in range(2):
        os.environ["PUTNAM_CACHE_DIR"] = str(scratch / ("cache" if shared else f"cache-{index}"))
        text = statement.replace(":= sorry", f":= by\n  -- fake-comparator: ok\n  sorry -- {index}", 1)
        options = GateFlags(unsafe_comparator=True).options()
        sub = lean_submission(putnam, problem, text, scratch=scratch / f"run-{index}", options=options)
        assert comparator_gate(sub, root).passed
    counts: dict[str, int] = {}
    for line in (ToolchainPaths(root).toolchain_bin / "lake-runs.jsonl").read_text().splitlines():
        run = json.loads(line)
        if run["action"] == "elaborated":
            counts[run["target"]] = counts.get(run["target"], 0) + 1
    return counts


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
    return f"{label:<18}{base:>8.3f}{cells}{(rest[0] - base) * 1000:>8.1f}"


if __name__ == "__main__":
    main()
