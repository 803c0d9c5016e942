"""Type and universe declarations inside a proof: Coq 8.16 accepts them in proof mode, and its universe
and positivity kernel bugs (rocq#22376, rocq#22385) need a candidate-declared inductive, so G2 refuses
them inside every proof, the theorem's and the helpers'.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import REPO, ROCQ_SAMPLES

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

SAMPLES = REPO / "samples" / "rocq"
PROBLEM = "sample_even_square"
DECLARATIONS = {
    "polymorphic inductive": "Polymorphic Cumulative Inductive zz_t@{u} : Type@{u} := zz_c.",
    "coinductive": "CoInductive zz_s : Type := zz_cons : zz_s -> zz_s.",
    "variant": "Variant zz_v := zz_a | zz_b.",
    "record": "Record zz_r := { zz_x : nat }.",
    "structure": "Structure zz_st := { zz_y : nat }.",
    "class": "Class zz_k := { zz_z : nat }.",
    "scheme": "Scheme Equality for nat.",
    "universe": "Universe zz_u.",
}


def _in_theorem_proof(declaration: str) -> str:
    proof = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
    return proof.replace("Proof.\n", f"Proof.\n  {declaration}\n", 1)


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc missing")
def test_coq_accepts_type_declarations_in_proof_mode(tmp_path: Path) -> None:
    """The threat is real: without G2 these would reach the kernel."""
    body = "\n  ".join(DECLARATIONS.values())
    (tmp_path / "T.v").write_text(f"Theorem zz : True.\nProof.\n  {body}\n  exact I.\nQed.\n")
    done = subprocess.run(["coqc", "T.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("declaration", DECLARATIONS.values(), ids=DECLARATIONS.keys())
def test_type_declarations_inside_a_proof_are_refused(bench: Benchmark, declaration: str) -> None:
    candidate = _in_theorem_proof(declaration)
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems[PROBLEM],
        candidate.encode(),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.TEXT),
    )
    g2 = next(g for g in verdict.gates if g.id == "G2")
    assert g2.status.value == "failed" and "declares types or universes" in g2.detail, g2.detail


def test_the_unchanged_proof_still_passes(bench: Benchmark) -> None:
    candidate = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_bytes()
    verdict = run_gates(
        RocqProver(), bench, bench.problems[PROBLEM], candidate, Track.WITH_ANSWER, VerifyOptions(profile=Profile.TEXT)
    )
    assert verdict.accepted, [g.to_json() for g in verdict.gates]
