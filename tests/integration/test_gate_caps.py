"""Issue 17, section 1: a cap is not a fact about the candidate, and the tool recorded is the tool run.

Real coqc on the project's Rocq samples. A run stopped by the time cap must give ``error`` (never
``rejected``), so the verdict cache never keeps it and a later run with a larger cap decides afresh.
A `coqc` found first on the user's PATH is the one hashed, recorded and run inside the sandbox.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.candidates import Candidate, verify_candidates
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.sandbox import sandbox_status
from putnam_solver.core.verify import GateStatus, Profile, Track, VerifyOptions
from tests.helpers import REPO, rocq_submission

SAMPLES = REPO / "samples" / "rocq"
SUM = "sample_sum_first_n"
pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")


def sample(problem_id: str) -> bytes:
    return (SAMPLES / "proofs" / f"{problem_id}.v").read_bytes()


def test_a_timed_out_verdict_is_an_error_and_a_larger_cap_decides_afresh(tmp_path: Path) -> None:
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    candidate = Candidate(SAMPLES / "proofs" / f"{SUM}.v", bench.problems[SUM], sample(SUM))
    cache = VerdictCache(tmp_path / "cache")

    def run(timeout: float) -> str:
        options = VerifyOptions(profile=Profile.FAST, timeout_seconds=timeout)
        (verdict,) = verify_candidates([candidate], RocqProver(), bench, Track.WITH_ANSWER, options, cache=cache)
        return verdict.status

    assert run(0.05) == "error"
    assert run(600) == "accepted"


@pytest.mark.skipif(not sandbox_status()[0], reason="bubblewrap sandbox unavailable")
def test_the_coqc_first_on_path_is_the_one_run_and_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fakes = tmp_path / "fake-bin"
    fakes.mkdir()
    fakes.chmod(0o755)
    for parent in fakes.parents:  # the sandbox uid must be able to reach the fake
        if parent.is_relative_to(tmp_path.parent.parent):
            parent.chmod(parent.stat().st_mode | 0o755)
    fake = fakes / "coqc"
    fake.write_text(
        '#!/bin/sh\ncase "$1" in --version) echo "The Coq Proof Assistant, version 9.9";; '
        "*) echo FAKE-COQC-RAN >&2; exit 3;; esac\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fakes}:{os.environ['PATH']}")
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    options = VerifyOptions(timeout_seconds=60)
    sub = rocq_submission(bench, SUM, sample(SUM).decode(), scratch=tmp_path / "s", options=options)
    result = compile_gate(sub)
    assert result.status is not GateStatus.PASSED, result.detail
    assert "FAKE-COQC-RAN" in result.detail
    assert result.evidence["argv"][0] == str(fake)
    assert result.evidence["tools"]["coqc"]["path"] == str(fake)
    assert result.evidence["coq_version"] == "9.9"
