"""Shared paths and small builders for the test suite."""

from __future__ import annotations

from pathlib import Path

from putnam_solver.benchmark import Benchmark
from putnam_solver.provers import get_prover
from putnam_solver.verify import ScratchDir, Submission, Track, VerifyOptions

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data" / "putnambench"
LEAN_BENCH = SHARED_DATA / "putnam_bench_lean4.jsonl"
COQ_BENCH = SHARED_DATA / "putnam_bench_coq.jsonl"


def rocq_submission(
    bench: Benchmark,
    problem_id: str,
    candidate: str,
    track: Track = Track.WITH_ANSWER,
    scratch: Path | None = None,
    options: VerifyOptions | None = None,
) -> Submission:
    """One gate's input as the pipeline builds it: the harness's challenge for this track, the candidate,
    a scratch directory (``scratch``, created, or a private temporary one)."""
    problem = bench.problems[problem_id]
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
    return Submission(
        problem=problem,
        benchmark=bench,
        track=track,
        candidate_bytes=candidate.encode(),
        candidate=candidate,
        challenge=get_prover("rocq").challenge(problem, track),
        scratch_dir=ScratchDir(existing=scratch) if scratch is not None else ScratchDir(),
        options=options or VerifyOptions(),
    )
