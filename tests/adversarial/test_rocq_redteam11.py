"""Red team, round 11 (Rocq): what coqc's kernel accepts and coqchk refuses (the `fast` profile), and the allow-list.

1. **A proof of False through the VM (rocq#19402) accepted on ``fast``.** Coq 8.16.1's bytecode VM
   computes ``addmuldiv 64 1 0`` as 1 where the kernel's own conversion says 0. A candidate proves
   ``eqb t 1 = true`` by ``vm_compute. reflexivity.`` (a VM cast the kernel checks with the VM) and
   ``eqb t 1 = false`` by ``reflexivity``, so ``False``. mathcomp's headers load the primitive integers
   (``PrimInt63``, reached through ``PrimFloat.normfr_mantissa``: no ``Require`` and no number notation
   needed), so every mathcomp statement fell: ``putnam_1996_a3`` was ``accepted`` on the ``fast`` profile,
   no axiom, no forbidden word. On ``full``, coqchk (no VM) refused it, but as an ``error``. Every harness
   ``coqc`` now runs with the VM and the native compiler off (``build.COQC_MACHINES_OFF``): the tactics
   still compute, the kernel checks their casts by its own conversion, as coqchk does.
2. **A proof of False through a section's discharge (rocq#19861) accepted on ``fast``.** In a section
   the candidate opens (allowed: published helpers use them), ``Variable zz_h : False.`` and a lemma
   ``zz_l : False`` with ``Proof using.`` (it declares it uses no section variable) proved by ``abstract
   (exact zz_h)``: Coq 8.16 checks the declaration against the proof but not against its ``abstract``
   subproof, so ``End`` leaves ``zz_l : False`` with no hypothesis, ill-typed inside, and coqc accepts
   it (coqchk refuses it; ``Print Assumptions`` of it is an anomaly). ``putnam_1986_a1`` was ``accepted``
   on ``fast``. G3 refused an explicit declaration of a proof's section variables inside a section
   (``Proof using``, ``#[using=...]``) and refuses ``Set Default Proof Using`` anywhere: without them Coq
   finds the variables itself, ``abstract`` included (measured), and ``Proof using`` outside a section stays
   accepted. Since round 37 a profile that compiles has coqchk re-check a section closed over a declaration
   instead (G4, ``discharge.py``): the attack is refused there, an honest declaration passes; ``text`` keeps
   G3's refusal.
3. **coqchk's refusal read as a signal (an ``error``, not a rejection).** coqchk 8.16 reports a kernel
   type error as ``Fatal Error: Type error: ...`` and exits 129, as for an anomaly; the gate kit reads
   129 as "died by signal 1", so both attacks above were ``error`` on ``full`` (never cached, "not a
   verdict on the candidate"). G6 now reads coqchk's own report of a kernel refusal as a rejection.
4. **Primitive arrays' axioms on the allow-list.** The allow-list admitted every assumption of
   ``Coq.Array.PArray`` as a kernel primitive, but that module also states the arrays' specification as
   real ``Axiom``s (``get_make``, ``get_set_same``, ``array_ext``...): G5 passed a proof using
   ``PArray.get_make`` (G6 refused it only because ``PArray`` loads ``Uint63``, whose axioms are not
   allowed either). Only PArray's ``Primitive`` declarations are allowed now, by name.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.coqchk import kernel_gate
from putnam_solver.core.provers.rocq.statement import statement_gate
from putnam_solver.core.provers.rocq.toolchain import allowed_full_name, allowed_printed_name
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import COQ_BENCH, DATA_ROOT, failures, rocq_submission

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


SECTION_FALSE = """Section zz_s.
  Variable zz_h : False.
  {attr}Lemma zz_l : False.
  {proof}
    abstract (exact zz_h).
  Qed.
End zz_s.
"""
"""A helper section whose lemma claims ``False`` outright once the section is closed (rocq#19861)."""
DECLARED_USING = {
    "Proof using": ("", "", "Proof using."),
    "Proof using Type": ("", "", "Proof using Type."),
    "attribute": ("", '#[using="Type"] ', "Proof."),
    "default option": ('Set Default Proof Using "Type".\n', "", "Proof."),
    "after a module closed in the section": ("", "Module zz_m. End zz_m.\n  ", "Proof using."),
}
"""Each way to declare the section variables a proof uses: (before the section, attribute, proof start)."""


def _a1(helpers: str, proof: str) -> str:
    """``putnam_1986_a1`` (no mathcomp) with ``helpers`` before its theorem, proved by ``proof``."""
    pinned = load_benchmark(COQ_BENCH).problems["putnam_1986_a1"].formal_statement
    at = pinned.index("Theorem putnam_1986_a1")
    return pinned[:at] + helpers + pinned[at:].replace("Proof. Admitted.", proof)


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


@needs_coq
def test_a_section_lemma_with_declared_variables_proves_false_under_plain_coqc(tmp_path: Path) -> None:
    """Why G3 refuses the declaration: coqc accepts ``False`` from the closed section."""
    helpers = SECTION_FALSE.format(attr="", proof="Proof using.")
    (tmp_path / "C.v").write_text(helpers + "Lemma zz_boom : 0 = 1.\nProof. destruct zz_l. Qed.\n")
    run = subprocess.run(["coqc", "-q", "C.v"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


@needs_coq
@pytest.mark.parametrize("name", sorted(DECLARED_USING))
def test_declared_section_variables_are_refused(name: str) -> None:
    before, attr, proof = DECLARED_USING[name]
    attack = _a1(before + SECTION_FALSE.format(attr=attr, proof=proof), "Proof. destruct zz_l. Qed.")
    verdict = _verdict(COQ_BENCH, "putnam_1986_a1", attack, Profile.FAST)
    assert verdict.status == "rejected"
    # G3 refuses every spelling on `text`; on a profile that compiles a declaration in the section is G4's,
    # which has coqchk re-check it (`Set Default Proof Using` stays G3's), and coqc refuses a module in a section
    g3 = next(g for g in _verdict(COQ_BENCH, "putnam_1986_a1", attack, Profile.TEXT).gates if g.id == "G3")
    assert g3.status is GateStatus.FAILED and "rocq#19861" in g3.detail, g3.detail
    if name != "after a module closed in the section":
        assert any("rocq#19861" in detail for detail in failures(verdict).values()), failures(verdict)


A1_HELPER = """Lemma zz_bound (x : R) : x ^ 4 + 36 <= 13 * x ^ 2 -> x ^ 3 - 3 * x <= 18.
Proof.
  intros hx.
  assert (h1 : (x ^ 2 - 4) * (x ^ 2 - 9) <= 0) by nra.
  assert (h2 : x ^ 2 <= 9) by nra.
  assert (h3 : -3 <= x <= 3) by (split; nra).
  nra.
Qed.
"""
A1_SOUND = """Proof.
  unfold In, T, f, putnam_1986_a1_solution. split.
  - intros x hx. apply Rle_ge. apply zz_bound. exact hx.
  - exists 3. split; lra.
Qed."""


@needs_coq
def test_sections_with_found_variables_and_proof_using_outside_still_pass() -> None:
    """A helper section whose lemma lets Coq find its variables (``abstract`` included), and ``Proof
    using.`` outside any section (full: the proof needs ``Require Import Lra``)."""
    helpers = (
        "Require Import Lra.\n"
        + A1_HELPER
        + """Section zz_s.
  Variable zz_c : R.
  Hypothesis zz_hc : zz_c = 18.
  Lemma zz_le : forall y : R, y <= zz_c -> y <= 18.
  Proof. intros y hy. abstract (rewrite <- zz_hc; exact hy). Qed.
End zz_s.
Lemma zz_bound' (x : R) : x ^ 4 + 36 <= 13 * x ^ 2 -> x ^ 3 - 3 * x <= 18.
Proof using.
  intros hx. apply (zz_le 18); [reflexivity|]. apply zz_bound; exact hx.
Qed.
"""
    )
    verdict = _verdict(
        COQ_BENCH, "putnam_1986_a1", _a1(helpers, A1_SOUND.replace("zz_bound.", "zz_bound'.")), Profile.FULL
    )
    assert verdict.status == "accepted", [(g.id, g.detail) for g in verdict.gates]


@needs_coq
def test_coqchk_refusing_a_constant_is_a_rejection_not_an_error() -> None:
    """The section attack compiles (G3 refuses it on ``text`` only, G4 by this same coqchk run elsewhere);
    coqchk refuses the ill-typed lemma."""
    attack = _a1(SECTION_FALSE.format(attr="", proof="Proof using."), "Proof. destruct zz_l. Qed.")
    bench = load_benchmark(COQ_BENCH)
    sub = rocq_submission(bench, "putnam_1986_a1", attack, Track.WITH_ANSWER)
    try:
        result = kernel_gate(sub)
    finally:
        sub.scratch_dir.cleanup()
    assert result.status is GateStatus.FAILED, result.detail
    assert result.detail.startswith("coqchk: Fatal Error: Type error"), result.detail


@pytest.mark.parametrize("axiom", ["get_make", "get_set_same", "array_ext", "length_make"])
def test_the_axioms_of_primitive_arrays_are_not_allowed(axiom: str) -> None:
    assert not allowed_full_name(f"Coq.Array.PArray.{axiom}")
    assert not allowed_printed_name(f"PArray.{axiom}", reserved=("Candidate", "Putnam"))


@pytest.mark.parametrize("primitive", ["Coq.Array.PArray.make", "Coq.Array.PArray.get", "Coq.Array.PArray.array"])
def test_the_primitives_of_arrays_integers_and_floats_stay_allowed(primitive: str) -> None:
    for name in (primitive, "Coq.Numbers.Cyclic.Int63.PrimInt63.addmuldiv", "Coq.Floats.PrimFloat.Leibniz.eqb"):
        assert allowed_full_name(name)
        assert allowed_printed_name(".".join(name.split(".")[-2:]), reserved=("Candidate", "Putnam"))


@needs_coq
def test_a_proof_using_an_array_axiom_is_refused_by_g5() -> None:
    helpers = "Require Import Lra.\nRequire Coq.Array.PArray.\n" + A1_HELPER
    proof = A1_SOUND.replace(
        "Proof.\n", "Proof.\n  pose proof (@Coq.Array.PArray.get_make) as zz_pa. clear zz_pa.\n", 1
    )
    bench = load_benchmark(COQ_BENCH)
    sub = rocq_submission(bench, "putnam_1986_a1", _a1(helpers, proof), Track.WITH_ANSWER)
    try:
        result = statement_gate(sub)
    finally:
        sub.scratch_dir.cleanup()
    assert result.status is GateStatus.FAILED and "`PArray.get_make` is not on the allow-list" in result.detail
