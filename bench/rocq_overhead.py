"""Full-profile Rocq verification against a bare ``coqc`` on the same files, side by side in one run.

Usage: python bench/rocq_overhead.py [--repeat N] [--samples] [--against REVISION]. Proofs: the
published PutnamBench proofs of the conformance corpus (tests/fixtures/conformance) that must be
accepted on the full profile, or with ``--samples`` the proofs of the project's own benchmark
(samples/rocq). For each proof it times:

- ``coqc``: ``coqc`` on a copy of the proof, no sandbox, nothing else;
- ``cold``: the full profile with an empty cache directory (the reference is compiled too);
- ``cached``: the full profile again on the same cache directory, so the reference compiled for the
  problem (trusted inputs only) is reused: what a second candidate of the same problem costs;
- with ``--against REVISION``: the same two of that revision's ``src`` (``git archive``) in a child
  process, timed there around ``run_gates`` alone after a text-profile warm-up (as in this process, where
  earlier proofs warmed it), in the same minutes as the others (a loaded machine slows all alike).

It prints the ratios per proof, their medians, and where the time of the cold and cached runs goes: the
wall time of every sandboxed tool run (the runs overlap, so they add up to more than the total), and the
processor time of all of them (``cpu``: what several verifications side by side share the cores for;
a cached reference saves its compile there even where, on two idle cores, it overlapped the candidate's).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.cache import CACHE_DIR_VARIABLE
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq import build as rocq_build
from putnam_solver.core.sandbox import SandboxResult
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.problem_selection import select_problems
from tests.helpers import COQ_BENCH, REPO

SAMPLES = REPO / "samples" / "rocq"
CORPUS = REPO / "tests" / "fixtures" / "conformance"


@dataclass
class Runs:
    """The sandboxed tool runs of one verification: ``tool file`` and wall seconds, in finishing order."""

    timed: list[tuple[str, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __str__(self) -> str:
        return ", ".join(f"{name} {seconds:.2f}" for name, seconds in self.timed)


RUNS = Runs()
_RUN_SANDBOXED = rocq_build.run_sandboxed


def _timed_run(argv: list[str], **kwargs: Any) -> SandboxResult:
    """The gates' own sandboxed run, timed (the bench's only addition)."""
    start = time.perf_counter()
    result = _RUN_SANDBOXED(argv, **kwargs)
    with RUNS.lock:
        RUNS.timed.append((f"{Path(argv[0]).name} {argv[-1]}", time.perf_counter() - start))
    return result


rocq_build.run_sandboxed = _timed_run  # type: ignore[assignment]


def proofs(samples: bool) -> Iterator[tuple[Benchmark, Problem, Path]]:
    """(benchmark, problem, proof file) of every proof the bench runs."""
    if samples:
        bench = load_benchmark(SAMPLES / "benchmark.jsonl")
        for problem in select_problems(bench):
            yield bench, problem, SAMPLES / "proofs" / f"{problem.id}.v"
        return
    bench = load_benchmark(COQ_BENCH)
    for entry in json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))["entries"]:
        if entry["prover"] == "rocq" and entry["expected"]["full/with-answer"]["verdict"] == "accepted":
            yield bench, bench.problems[entry["problem_id"]], CORPUS / entry["file"]


def bare_coqc(source: Path) -> tuple[float, float]:
    """Seconds and processor seconds of ``coqc`` on a copy of ``source``."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(source, Path(tmp) / "Candidate.v")
        start, cpu = time.perf_counter(), children_cpu()
        subprocess.run(["coqc", "-q", "-Q", ".", "Putnam", "Candidate.v"], cwd=tmp, check=True, capture_output=True)
        return time.perf_counter() - start, children_cpu() - cpu


AGAINST = """
import json, sys, time
from pathlib import Path
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
bench = load_benchmark(Path(sys.argv[1]))
problem, source = bench.problems[sys.argv[2]], Path(sys.argv[3]).read_bytes()
def run(profile):
    start = time.perf_counter()
    verdict = run_gates(RocqProver(), bench, problem, source, Track.WITH_ANSWER, VerifyOptions(profile=profile))
    return time.perf_counter() - start, verdict.status
run(Profile.TEXT)  # warm-up, as in the bench's own process: the text gates' worker started, modules imported
print(json.dumps([run(Profile.FULL), run(Profile.FULL)]))
"""
"""The child process that times another revision's full profile on one proof, cold then cached (its cache
directory is the bench's, emptied for each proof)."""


def revision_src(revision: str, root: Path) -> Path:
    """That revision's ``src``, unpacked under ``root``."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "src"], check=True, capture_output=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
    return root / "src"


def full_against(src: Path, bench: Benchmark, problem: Problem, source: Path) -> list[tuple[float, str]]:
    """That revision's cold and cached full profile on ``source``: (seconds, status) each."""
    argv = [sys.executable, "-c", AGAINST, str(bench.path), problem.id, str(source)]
    with tempfile.TemporaryDirectory(prefix="rocq-bench-against-cache-") as cache:
        env = {**os.environ, "PYTHONPATH": str(src), CACHE_DIR_VARIABLE: cache}
        done = subprocess.run(argv, check=True, capture_output=True, text=True, env=env)
    return [(float(seconds), str(status)) for seconds, status in json.loads(done.stdout.strip().splitlines()[-1])]


def children_cpu() -> float:
    """Processor seconds (user and system) of every finished child process so far, tool runs included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def full(bench: Benchmark, problem: Problem, source: Path) -> tuple[float, float, str, str]:
    """Seconds, processor seconds of its tool runs, verdict status and tool runs of one full-profile
    verification."""
    RUNS.timed.clear()
    start, cpu = time.perf_counter(), children_cpu()
    options = VerifyOptions(profile=Profile.FULL)
    verdict = run_gates(RocqProver(), bench, problem, source.read_bytes(), Track.WITH_ANSWER, options)
    return time.perf_counter() - start, children_cpu() - cpu, verdict.status, str(RUNS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--samples", action="store_true", help="the project's sample proofs instead")
    parser.add_argument("--against", metavar="REVISION", help="also time this revision's full profile")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rocq-overhead-against-") as root:
        measure(args, revision_src(args.against, Path(root)) if args.against else None)


def measure(args: argparse.Namespace, src: Path | None) -> None:
    """Time and print every proof (see the module docstring)."""
    times: dict[str, list[float]] = {}
    for bench, problem, source in proofs(args.samples):
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="rocq-bench-cache-") as cache:
                os.environ[CACHE_DIR_VARIABLE] = cache
                coqc, coqc_cpu = bare_coqc(source)
                row = {"coqc": coqc}
                statuses = []
                if src is not None:
                    against = full_against(src, bench, problem, source)
                    for kind, (seconds, status) in zip(("cold", "cached"), against, strict=True):
                        row[f"{args.against} {kind}"] = seconds
                        statuses.append(status)
                row["cold"], cold_cpu, status, cold_runs = full(bench, problem, source)
                statuses.append(status)
                row["cached"], cached_cpu, status, cached_runs = full(bench, problem, source)
                statuses.append(status)
            for name, seconds in (("cold cpu", cold_cpu), ("cached cpu", cached_cpu)):
                times.setdefault(f"{name} ratio", []).append(seconds / coqc_cpu)
            for name, seconds in row.items():
                times.setdefault(name, []).append(seconds)
                if name != "coqc":
                    times.setdefault(f"{name} ratio", []).append(seconds / row["coqc"])
            shown = "  ".join(f"{n} {t:5.2f}s" + (f" x{t / row['coqc']:4.2f}" * (n != "coqc")) for n, t in row.items())
            print(f"{problem.id:20} {shown}  {'/'.join(statuses)}")
            print(f"{'':20} cold runs: {cold_runs} (cpu x{cold_cpu / coqc_cpu:.2f} coqc's)")
            print(f"{'':20} cached runs: {cached_runs} (cpu x{cached_cpu / coqc_cpu:.2f} coqc's)")
    medians = ", ".join(f"{name} {statistics.median(values):.2f}" for name, values in times.items())
    print(f"medians over {len(times['coqc'])} (seconds; ratios to bare coqc; cpu: processor time): {medians}")


if __name__ == "__main__":
    main()
