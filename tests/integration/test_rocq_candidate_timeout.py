"""A time limit the candidate writes itself (``Timeout n``, ``timeout n``) counts wall-clock seconds
(real coqc): on a loaded host a sound proof can run out of it, so its expiry is an ``error`` (never
cached, never counted as a rejection), like the harness's own caps; a proof that fails otherwise is still
a rejection."""

from __future__ import annotations

import shutil

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.build import parse_messages
from putnam_solver.core.verify import GateStatus, Profile, Track, VerifyOptions, run_gates
from tests.helpers import ROCQ_SAMPLES

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

needs_coq = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")

LOOP = "Ltac zz_loop := idtac; zz_loop.\n"
THEOREM = "Theorem sample_even_square\n    (n : nat)\n    : Nat.even (n * n) = Nat.even n.\n"
PROOF = "rewrite Nat.even_mul.\n  destruct (Nat.even n); reflexivity."


def _g4(bench: Benchmark, before_proof: str) -> tuple[GateStatus, str]:
    candidate = f"Require Import Arith.\n\n{LOOP}{THEOREM}Proof.\n  {before_proof}{PROOF}\nQed.\n"
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    problem = bench.problems["sample_even_square"]
    verdict = run_gates(RocqProver(), bench, problem, candidate.encode(), Track.WITH_ANSWER, options)
    gate = next(g for g in verdict.gates if g.id == "G4")
    return gate.status, gate.detail


@needs_coq
@pytest.mark.parametrize("limit", ["Timeout 1 zz_loop.\n  ", "timeout 1 zz_loop.\n  "])
def test_a_time_limit_of_the_candidates_own_that_runs_out_is_an_error(bench: Benchmark, limit: str) -> None:
    status, detail = _g4(bench, limit)
    assert status is GateStatus.ERROR, detail
    assert "time limit written in the file ran out" in detail


@needs_coq
def test_a_proof_that_fails_otherwise_is_still_refused(bench: Benchmark) -> None:
    status, detail = _g4(bench, "exact I.\n  ")
    assert status is GateStatus.FAILED, detail


def test_the_expiry_messages_are_coqs() -> None:
    """The two forms coqc 8.16 prints (checked above for real), and nothing that merely mentions one."""
    output = (
        'File "./A.v", line 3, characters 7-25:\nError: Timeout!\n\n'
        'File "./B.v", line 3, characters 7-25:\nError: Tactic failure: [Proofview.tclTIMEOUT] Tactic timeout!.\n\n'
        'File "./C.v", line 3, characters 7-25:\nError: The term "Timeout!" is not a tactic\n'
    )
    assert [m.timed_out for m in parse_messages(output)] == [True, True, False]
