"""Full-profile Rocq verification against a bare ``coqc`` on the same files; prints the overhead ratio.

Usage: python bench/rocq_overhead.py [--repeat N]. Uses samples/rocq (proofs of the project's own
benchmark). The bare run is ``coqc`` on a copy of the proof with no sandbox; the full profile adds the
text gates, the sandbox, the reference and trusted compiles and coqchk.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "rocq"


def bare_coqc(source: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "Candidate.v"
        shutil.copyfile(source, target)
        start = time.perf_counter()
        subprocess.run(["coqc", "-q", "-Q", ".", "Putnam", "Candidate.v"], cwd=tmp, check=True, capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    prover = RocqProver()
    total_bare = total_full = 0.0
    for problem in bench.select():
        source = SAMPLES / "proofs" / f"{problem.id}.v"
        for _ in range(args.repeat):
            bare = bare_coqc(source)
            start = time.perf_counter()
            verdict = run_gates(
                prover, bench, problem, source.read_bytes(), Track.WITH_ANSWER, VerifyOptions(profile=Profile.FULL)
            )
            full = time.perf_counter() - start
            total_bare += bare
            total_full += full
            print(f"{problem.id:28} coqc {bare:6.2f}s  full {full:6.2f}s  x{full / bare:5.2f}  {verdict.status}")
    print(f"total: coqc {total_bare:.2f}s, full profile {total_full:.2f}s, overhead x{total_full / total_bare:.2f}")


if __name__ == "__main__":
    main()
