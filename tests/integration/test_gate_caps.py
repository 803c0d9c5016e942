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

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.forbidden import forbidden_gate
from putnam_solver.core.verify import GateStatus, Profile, Track, VerifyOptions
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from tests.helpers import REPO, needs_sandbox, rocq_submission

SAMPLES = REPO / "samples" / "rocq"
SUM = "sample_sum_first_n"
pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
BENCHMARK = SAMPLES / "benchmark.jsonl"
"""What the ``bench`` fixture (conftest.py) loads for this module."""


def sample(problem_id: str) -> bytes:
    return (SAMPLES / "proofs" / f"{problem_id}.v").read_bytes()


def test_a_timed_out_verdict_is_an_error_and_a_larger_cap_decides_afresh(bench: Benchmark, tmp_path: Path) -> None:
    candidate = Candidate(SAMPLES / "proofs" / f"{SUM}.v", bench.problems[SUM], sample(SUM))
    cache = VerdictCache(tmp_path / "cache")

    def run(timeout: float) -> str:
        options = VerifyOptions(profile=Profile.FAST, timeout_seconds=timeout)
        (verdict,) = verify_candidates([candidate], RocqProver(), bench, Track.WITH_ANSWER, options, cache=cache)
        return verdict.status

    assert run(0.05) == "error"
    assert run(600) == "accepted"


def _fake_coqc(directory: Path) -> Path:
    """A `coqc` that says it is Coq 9.9 and fails every compile with a marker, readable by the sandbox."""
    directory.mkdir()
    directory.chmod(0o755)
    for parent in directory.parents:  # the sandbox uid must be able to reach the fake
        if parent.is_relative_to(directory.parent.parent.parent):
            parent.chmod(parent.stat().st_mode | 0o755)
    fake = directory / "coqc"
    fake.write_text(
        '#!/bin/sh\ncase "$1" in --version) echo "The Coq Proof Assistant, version 9.9";; '
        "*) echo FAKE-COQC-RAN >&2; exit 3;; esac\n"
    )
    fake.chmod(0o755)
    return fake


@needs_sandbox
def test_the_coqc_first_on_path_is_the_one_run_and_recorded(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = _fake_coqc(tmp_path / "fake-bin")
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    options = VerifyOptions(timeout_seconds=60)
    sub = rocq_submission(bench, SUM, sample(SUM).decode(), scratch=tmp_path / "s", options=options)
    result = compile_gate(sub)
    assert result.status is not GateStatus.PASSED, result.detail
    assert "FAKE-COQC-RAN" in result.detail
    assert result.evidence["argv"][0] == str(fake)
    assert result.evidence["tools"]["coqc"]["path"] == str(fake)
    assert result.evidence["coq_version"] == "9.9"


@needs_sandbox
@pytest.mark.parametrize("how", ["--tool", "environment"])
def test_a_chosen_coqc_is_the_one_run_recorded_and_asked_for_its_version(
    bench: Benchmark, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """``--tool coqc=PATH`` (or ``PUTNAM_COQC``) beats the PATH: G4 runs and records it, and G3 asks it,
    not the PATH's coqc, whether the Coq has guard checker bugs."""
    fake = _fake_coqc(tmp_path / "chosen")
    monkeypatch.delenv("PUTNAM_COQC", raising=False)
    if how == "environment":
        monkeypatch.setenv("PUTNAM_COQC", str(fake))
        options, origin = VerifyOptions(timeout_seconds=60), "PUTNAM_COQC"
    else:
        options, origin = VerifyOptions(timeout_seconds=60, tools={"coqc": fake}), "--tool coqc"
    sub = rocq_submission(bench, SUM, sample(SUM).decode(), scratch=tmp_path / "s", options=options)
    result = compile_gate(sub)
    assert "FAKE-COQC-RAN" in result.detail and result.status is not GateStatus.PASSED
    recorded = result.evidence["tools"]["coqc"]
    assert (recorded["path"], recorded["origin"]) == (str(fake), origin)
    assert forbidden_gate(sub).evidence["coq_version"] == "9.9"
    monkeypatch.delenv("PUTNAM_COQC", raising=False)
    plain = rocq_submission(bench, SUM, sample(SUM).decode(), scratch=tmp_path / "p", options=VerifyOptions())
    assert forbidden_gate(plain).evidence["coq_version"] != "9.9"
