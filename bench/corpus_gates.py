"""Time the Lean text gates (G2 + G3 and the answer record) on published proofs: ms per 10 KB.

Reads the conformance corpus (``tests/fixtures/conformance``, or a directory given as the first argument),
verifies every Lean proof on the text profile, with-answer track, and prints the median time per 10 KB,
the goal ratio (goal: 5 ms per 10 KB) and the slope of a least-squares fit of time against size (linear
means the per-KB cost does not grow with size: compare the small and large halves).
Usage: ``python bench/corpus_gates.py [corpus_dir] [path/to/putnam_bench_lean4.jsonl]``.

With ``--against REVISION`` (first argument) it measures that revision's ``src`` and the current one side
by side: child processes, alternating, three rounds each, and prints both medians (best round) and their
ratio, so that a loaded machine slows both alike.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import LEAN_BENCH

GOAL_MS_PER_10KB = 5.0
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT / "tests" / "fixtures" / "conformance"


def measure(corpus: Path, bench_path: Path) -> list[tuple[int, float]]:
    """(size in bytes, ms) of the text gates on each Lean proof of the corpus, with-answer track."""
    manifest = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    bench, prover = load_benchmark(bench_path), LeanProver()
    options = VerifyOptions(profile=Profile.TEXT)
    rows: list[tuple[int, float]] = []
    for entry in (e for e in manifest["entries"] if e["prover"] == "lean"):
        data = (corpus / entry["file"]).read_bytes()
        problem = bench.problems[entry["problem_id"]]
        run_gates(prover, bench, problem, data, Track.WITH_ANSWER, options)  # challenge derived once
        start = time.perf_counter()
        run_gates(prover, bench, problem, data + b"\n", Track.WITH_ANSWER, options)  # new bytes: no lex cache
        rows.append((len(data), (time.perf_counter() - start) * 1000))
    return rows


def main(corpus: Path, bench_path: Path) -> int:
    rows = measure(corpus, bench_path)
    per_10kb = [ms / (size / 10240) for size, ms in rows]
    rows.sort()
    half = len(rows) // 2
    small = statistics.median(ms / (size / 10240) for size, ms in rows[:half])
    large = statistics.median(ms / (size / 10240) for size, ms in rows[half:])
    median = statistics.median(per_10kb)
    print(f"{len(rows)} proofs, {rows[0][0]}..{rows[-1][0]} bytes (median {statistics.median(s for s, _ in rows)})")
    print(f"median {median:.2f} ms per 10 KB, median/goal = {median / GOAL_MS_PER_10KB:.2f}")
    print(f"small half {small:.2f} ms/10 KB, large half {large:.2f} ms/10 KB (linear: about equal)")
    print(f"largest: {rows[-1][0]} bytes in {rows[-1][1]:.1f} ms")
    return 0 if median <= GOAL_MS_PER_10KB else 1


def against(revision: str, corpus: Path, bench_path: Path, rounds: int = 3) -> int:
    """Median ms per 10 KB of ``revision`` and of the working tree, measured alternately; their ratio."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "src"], check=True, capture_output=True
    ).stdout
    old_root = Path(tempfile.mkdtemp(prefix="corpus-gates-reference-"))
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(old_root, filter="data")
    sources = {revision: old_root / "src", "current": ROOT / "src"}
    best: dict[str, float] = {}
    for _ in range(rounds):
        for label, src in sources.items():
            env = {**os.environ, "PYTHONPATH": str(src)}
            child = [sys.executable, __file__, "--child", str(corpus), str(bench_path)]
            median = float(subprocess.run(child, env=env, check=True, capture_output=True, text=True).stdout)
            best[label] = min(best.get(label, median), median)
    old, new = best[revision], best["current"]
    print(f"median ms per 10 KB (best of {rounds}): {revision} {old:.2f}, current {new:.2f}")
    print(f"ratio {revision}/current = {old / new:.2f}; current/goal = {new / GOAL_MS_PER_10KB:.2f}")
    return 0 if new <= GOAL_MS_PER_10KB else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--child"]:
        rows = measure(Path(args[1]), Path(args[2]))
        print(statistics.median(ms / (size / 10240) for size, ms in rows))
        sys.exit(0)
    if args[:1] == ["--against"]:
        rest = args[2:]
        corpus = Path(rest[0]) if rest else DEFAULT_CORPUS
        sys.exit(against(args[1], corpus, Path(rest[1]) if len(rest) > 1 else LEAN_BENCH))
    sys.exit(main(Path(args[0]) if args else DEFAULT_CORPUS, Path(args[1]) if len(args) > 1 else LEAN_BENCH))
