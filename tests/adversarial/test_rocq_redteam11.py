"""Red team, round 11 (Rocq): the kernel's virtual machine.

1. **A proof of False through the VM (rocq#19402) accepted on ``fast``.** Coq 8.16.1's bytecode VM
   computes ``addmuldiv 64 1 0`` as 1 where the kernel's own conversion says 0. A candidate proves
   ``eqb t 1 = true`` by ``vm_compute. reflexivity.`` (a VM cast the kernel checks with the VM) and
   ``eqb t 1 = false`` by ``reflexivity``, so ``False``. mathcomp's headers load the primitive integers
   (``PrimInt63``, reached through ``PrimFloat.normfr_mantissa``: no ``Require`` and no number notation
   needed), so every mathcomp statement fell: ``putnam_1996_a3`` was ``accepted`` on the ``fast`` profile,
   no axiom, no forbidden word. On ``full``, coqchk (no VM) refused it, but as an ``error``. Every harness
   ``coqc`` now runs with the VM and the native compiler off (``build.COQC_MACHINES_OFF``): the tactics
   still compute, the kernel checks their casts by its own conversion, as coqchk does.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import COQ_BENCH, DATA_ROOT

needs_coq = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None,
    reason="coqc/coqchk not installed (putnam bootstrap --prover rocq)",
)
MINIF2F = DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl"

INT = "Coq.Numbers.Cyclic.Int63.PrimInt63"
VM_FALSE = f"""Definition zz_zero := {INT}.lxor (Coq.Floats.PrimFloat.normfr_mantissa Coq.Floats.PrimFloat.one)
  (Coq.Floats.PrimFloat.normfr_mantissa Coq.Floats.PrimFloat.one).
Definition zz_63 := {INT}.head0 zz_zero.
Definition zz_one := {INT}.div zz_63 zz_63.
Definition zz_t := {INT}.addmuldiv ({INT}.add zz_63 zz_one) zz_one zz_zero.
Lemma zz_vm : {INT}.eqb zz_t zz_one = true.
Proof. vm_compute. reflexivity. Qed.
Lemma zz_lazy : {INT}.eqb zz_t zz_one = false.
Proof. reflexivity. Qed.
Lemma zz_boom : False.
Proof. have := zz_lazy. by rewrite zz_vm. Qed.
"""
"""``False`` from the VM's ``addmuldiv`` (rocq#19402), over the primitive integers mathcomp loads."""


def _a3_attack() -> str:
    """``putnam_1996_a3`` (a mathcomp header) proved from :data:`VM_FALSE`."""
    pinned = load_benchmark(COQ_BENCH).problems["putnam_1996_a3"].formal_statement
    at = pinned.index("Theorem putnam_1996_a3")
    return pinned[:at] + VM_FALSE + pinned[at:].replace("Proof. Admitted.", "Proof. case: zz_boom. Qed.")


MACHINES_SOUND = """Require Import ZArith.
Open Scope Z_scope.

Theorem mathd_numbertheory_175 :
  (2^2010) mod 10 = 4.
Proof.
  assert (H : (2^2010) mod 10 = 4 /\\ 0 <= 4) by (split; [vm_compute; reflexivity | native_compute; discriminate]).
  destruct H as [H _]. exact H.
Qed.
"""
"""A sound proof by ``vm_compute`` and ``native_compute``: the kernel's conversion agrees with them."""


def _verdict(bench_path: Path, problem: str, candidate: str, profile: Profile) -> Verdict:
    bench = load_benchmark(bench_path)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[problem], candidate.encode(), Track.WITH_ANSWER, options)


@needs_coq
def test_the_vm_proves_false_under_plain_coqc(tmp_path: Path) -> None:
    """Why the harness turns the machines off: coqc with its defaults accepts ``False`` with no axiom."""
    header = _a3_attack().split("Theorem putnam_1996_a3")[0]
    (tmp_path / "C.v").write_text(header + "Print Assumptions zz_boom.\n")
    run = subprocess.run(["coqc", "-q", "C.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Axioms:" in run.stdout and "classic" not in run.stdout


@needs_coq
@pytest.mark.parametrize("profile", [Profile.FAST, Profile.FULL])
def test_a_vm_proof_of_false_is_refused_by_the_compile(profile: Profile) -> None:
    attack = _a3_attack()
    verdict = _verdict(COQ_BENCH, "putnam_1996_a3", attack, profile)
    assert verdict.status != "accepted"
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert g4.status is GateStatus.FAILED, g4.detail
    line = attack[: attack.index("Proof. vm_compute")].count("\n") + 1
    assert f"line {line}," in g4.detail, g4.detail


@needs_coq
@pytest.mark.skipif(not MINIF2F.is_file(), reason="miniF2F data not present")
@pytest.mark.parametrize("profile", [Profile.FAST, Profile.FULL])
def test_proofs_by_vm_compute_and_native_compute_still_pass(profile: Profile) -> None:
    verdict = _verdict(MINIF2F, "mathd_numbertheory_175", MACHINES_SOUND, profile)
    assert verdict.status == "accepted", [(g.id, g.detail) for g in verdict.gates]
