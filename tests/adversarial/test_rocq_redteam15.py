"""Red team 15 on the Rocq side: modules, elaboration settings, forged markers, and what reaches the harness.

What a candidate's compiled module carries into the harness's files is what ``Require`` replays there:
measured with coqc 8.16, a global hint, an ``Arguments`` of a library constant, an instance that is not
``#[local]``/``#[export]``, ``Global`` options and ``Add Zify`` tables are replayed; coercions and canonical
structures (even global ones), ``Add Ring``/``Add Field`` tables and local or exported instances are not.

1. **``Global Set Warnings`` read as a query.** G2 took every ``Set Warnings`` for a command that only
   silences messages, harmless anywhere, on every profile. ``Global Set Warnings "+all".`` (anywhere, after
   the theorem too) is replayed in every file that merely ``Require``s the candidate and turns each warning
   there into an error, the harness's answer check included, whose failure is an ``unknown`` answer rather
   than a ``differs`` (a wrong answer ``accepted`` instead of ``disputed``). No harness file was found to
   warn today, so no verdict changed, but the policy refuses exported options for exactly this reach: such
   a ``Set Warnings`` is now judged as the option it is (refused); a plain one stays a query.
2. **Instances and lia tables declared by ``Add``.** ``Add Parametric Relation ... as r`` (also ``Add
   Relation``, ``Add Setoid``, ``Add Morphism``) declares typeclass instances, and ``Add Zify`` extends
   ``lia``'s tables; Coq accepts them inside a proof, where G2 let them pass (the theorem's own proof on
   every profile), and ``Require`` replays both. The policy refuses ``Instance`` and hints in
   ``typeclass_instances`` for that reach (the answer check runs ``lia``), so G3 now refuses these
   spellings too. ``Add Field`` (not replayed) stays accepted.

Tried and found stopped by meaning (each kept below as a test): modules of every kind (``Declare Module``, a
parameter being an axiom in disguise; a functor applied to one; a library axiom's name under the candidate's
module) fail G5 and G6 by their assumptions even with the text gates bypassed, and a helper module without
one fails G5's field listing; a library axiom in a module named like an allowed one (``FloatAxioms.Leibniz``
beside ``PrimFloat.Leibniz``) prints with its library's segment and is refused; output the candidate prints
at compile time, mimicking ``Print Assumptions``, never reaches the trusted file; hints, ``Arguments`` of
the reals' operations and ``Add Field`` leave the answer check's ``differs`` alone, and so does ``Arguments
not {A}`` (replayed, but ``<>`` keeps the implicit status ``not`` had when the notation was declared); a
``Tactic Notation "lra"`` or ``"discriminate"`` overriding the check's tactics is not replayed by
``Require`` (measured), nor is a ``Global Open Scope``. Sound proofs with sections, ``Context``, local
hints, hint databases and ``Arguments`` of their own definitions stay accepted.

Left to the lead (a false rejection by design, not changed here): ``Local Coercion``, ``#[local]`` or
``#[export]`` instances and ``#[local] Canonical`` act only in the candidate's own file (measured below), so
they could be class 2 (G5 decides), but the policy refuses them on every profile (DESIGN section 7, "new
instance").
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.checks import check_preservation
from putnam_solver.core.provers.rocq.coqchk import kernel_gate
from putnam_solver.core.provers.rocq.forbidden import check_forbidden
from putnam_solver.core.provers.rocq.statement import statement_gate
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import vacuous
from tests.adversarial.test_rocq_redteam14 import verdict as vacuous_verdict
from tests.helpers import MINIF2F_ROCQ, REPO, needs_coq, pinned, rocq_submission

PROBLEM = "mathd_algebra_104"
SOUND = (REPO / "samples" / "minif2f" / "rocq" / f"{PROBLEM}.v").read_text()
"""A sound proof of ``mathd_algebra_104`` (``lra``), shipped with the samples."""
THEOREM = f"Theorem {PROBLEM}"


def before_theorem(addition: str, proof: str = "lra.") -> str:
    """The sound proof with ``addition`` before the theorem and ``proof`` as the theorem's proof."""
    text = SOUND.replace("  lra.", f"  {proof}")
    at = text.index(THEOREM)
    return text[:at] + addition + "\n" + text[at:]


def text_violations(candidate: str, profile: Profile = Profile.FULL) -> list[str]:
    """What G2 (judged by ``profile``) and G3 say about ``candidate``, as rules."""
    statement = statement_of(pinned(MINIF2F_ROCQ).problems[PROBLEM])
    found = check_preservation(statement, candidate, Track.WITH_ANSWER, profile) + check_forbidden(statement, candidate)
    return [v.rule for v in found]


def full(candidate: str) -> Verdict:
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    problem = pinned(MINIF2F_ROCQ).problems[PROBLEM]
    return run_gates(get_prover("rocq"), pinned(MINIF2F_ROCQ), problem, candidate.encode(), Track.WITH_ANSWER, options)


def compile_pair(tmp_path: Path, candidate: str, loader: str) -> subprocess.CompletedProcess[str]:
    """``candidate`` compiled as ``T.C``, then ``loader`` (which ``Require``s it) compiled; the second run."""
    (tmp_path / "C.v").write_text(candidate)
    (tmp_path / "D.v").write_text(loader)
    first = subprocess.run(["coqc", "-Q", ".", "T", "C.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    return subprocess.run(["coqc", "-Q", ".", "T", "D.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)


# ------------------------------------------------------------------ 1. exported warning settings

EXPORTED_WARNINGS = {
    "Global, before the theorem": before_theorem('Global Set Warnings "+all".'),
    "#[global], before the theorem": before_theorem('#[global] Set Warnings "+all".'),
    "Export, before the theorem": before_theorem('Export Set Warnings "+deprecated".'),
    "in a helper's proof": before_theorem('Lemma zz_l : True.\nProof. Global Set Warnings "+all". exact I. Qed.'),
    "in the theorem's proof": before_theorem("", 'Global Set Warnings "+all". lra.'),
    "after the theorem": SOUND + '\nGlobal Set Warnings "+all".\n',
}


@needs_coq
def test_a_global_warnings_setting_reaches_a_file_that_only_requires_the_candidate(tmp_path: Path) -> None:
    """Why it is no query: replayed by ``Require``, it makes the loading file fail on a mere warning."""
    loader = "Require T.C.\nGlobal Set zz_no_such_option.\n"
    assert compile_pair(tmp_path, 'Global Set Warnings "+all".\n', loader).returncode != 0
    assert compile_pair(tmp_path, 'Set Warnings "+all".\n', loader).returncode == 0


@pytest.mark.parametrize("name", sorted(EXPORTED_WARNINGS))
def test_an_exported_warnings_setting_is_refused(name: str) -> None:
    found = text_violations(EXPORTED_WARNINGS[name])
    assert any("reaches every file that loads the candidate" in r or "after the theorem only" in r for r in found), (
        found
    )


@pytest.mark.parametrize("profile", [Profile.TEXT, Profile.FULL])
def test_a_plain_warnings_setting_stays_a_query(profile: Profile) -> None:
    candidate = SOUND.replace("Require Import Lra.", "").replace("  lra.", '  Set Warnings "-all".\n  lra.')
    candidate = candidate.replace(THEOREM, 'Set Warnings "-notation-overridden".\n' + THEOREM)
    assert text_violations(candidate + '\nSet Warnings "+deprecated".\n', profile) == []


# ------------------------------------------------------------------ 2. instances and lia tables by `Add`

RELATION = "Add Parametric Relation : {t} (@eq {t}) reflexivity proved by (@eq_refl {t}) as zz_rel."
ADD_RELATION = RELATION.format(t="R")
ADDS = {
    "Add Parametric Relation": ADD_RELATION,
    "Add Relation": "Add Relation R (@eq R) reflexivity proved by (@eq_refl R) as zz_rel.",
    "Add Setoid": "Add Setoid R (@eq R) zz_eq_setoid as zz_setoid.",
    "#[local] Add Parametric Morphism": "#[local] Add Parametric Morphism : Rplus with signature eq ==> eq as zz_m.",
    "Add Zify": "Add Zify UnOp zz_op.",
}


@needs_coq
def test_an_added_relation_and_zify_table_reach_a_file_that_only_requires_the_candidate(tmp_path: Path) -> None:
    """Why they are ``Instance`` by another spelling: ``Require`` replays both (``Add Field`` is not)."""
    candidate = (
        "Require Import Setoid ZArith Lia ZifyClasses Field Reals.\n"
        "Definition zz_f (n : Z) : Z := n.\n"
        "Definition zz_op : UnOp zz_f := {| TUOp := fun x => x; TUOpInj := fun _ => eq_refl |}.\n"
        f"Lemma zz_l : True.\nProof.\n{RELATION.format(t='nat')}\nAdd Zify UnOp zz_op.\n"
        "Add Field zz_field : Rfield.\nexact I.\nQed.\n"
    )
    loader = (
        "Require T.C.\nRequire Import ZArith Lia Field.\n"
        "Print Instances Coq.Classes.RelationClasses.Reflexive.\nShow Zify UnOp.\nPrint Fields.\n"
    )
    run = compile_pair(tmp_path, candidate, loader)
    assert run.returncode == 0, run.stderr
    assert "zz_rel_Reflexive" in run.stdout and "zz_f" in run.stdout and "zz_field" not in run.stdout, run.stdout


@pytest.mark.parametrize("name", sorted(ADDS))
def test_an_add_that_declares_instances_or_lia_tables_is_refused_in_any_proof(name: str) -> None:
    for candidate in (
        before_theorem("", f"{ADDS[name]}\n  lra."),
        before_theorem(f"Lemma zz_l : True.\nProof. {ADDS[name]} exact I. Qed."),
    ):
        assert any("as the `Instance` command does" in r for r in text_violations(candidate, Profile.TEXT)), name


@needs_coq
def test_an_added_relation_in_the_theorem_proof_was_accepted_and_is_now_refused() -> None:
    """The reproducer on the full profile: every compiled gate passes it, G3 refuses it."""
    v = full(before_theorem("", f"{ADD_RELATION}\n  lra."))
    assert v.status == "rejected", [(g.id, g.detail) for g in v.gates]
    assert {g.id for g in v.gates if g.status is not GateStatus.PASSED} == {"G3"}, [(g.id, g.detail) for g in v.gates]


@needs_coq
def test_add_field_in_a_proof_is_still_accepted() -> None:
    v = full(before_theorem("", "Add Field zz_field : Rfield.\n  lra."))
    assert v.status == "accepted", [(g.id, g.detail) for g in v.gates]


# ------------------------------------------------------------------ modules, by meaning

THM = f"{THEOREM} (x : R) (h0 : 125 / 8 = x / 12) : x = 375 / 2.\nProof.\n"
HEADER = SOUND[: SOUND.index(THEOREM)]
SIGNATURE = "Module Type zz_T. Parameter classic : False. End zz_T.\n"
MODULES = {
    "Declare Module: a parameter is an axiom": (f"{SIGNATURE}Declare Module zz_M : zz_T.\n", "destruct zz_M.classic."),
    "a library axiom's path": (
        f"{SIGNATURE}Declare Module Classical_Prop : zz_T.\n",
        "destruct Classical_Prop.classic.",
    ),
    "a functor applied to a declared module": (
        f"{SIGNATURE}Module zz_F (X : zz_T). Definition zz_g := X.classic. End zz_F.\n"
        "Declare Module zz_A : zz_T.\nModule zz_B := zz_F zz_A.\n",
        "destruct zz_B.zz_g.",
    ),
}
"""Candidates that bypass the text gates (which refuse ``Module`` and ``Declare`` as words) and prove the
theorem from a module parameter; G5 and G6 judge them by their assumptions."""


@needs_coq
@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_parameter_is_an_assumption_g5_and_g6_refuse(name: str) -> None:
    modules, proof = MODULES[name]
    sub = rocq_submission(pinned(MINIF2F_ROCQ), PROBLEM, HEADER + modules + THM + proof + "\nQed.\n")
    for gate in (statement_gate, kernel_gate):
        result = gate(sub)
        assert result.status is GateStatus.FAILED and "not on the allow-list" in result.detail, result.detail


@needs_coq
def test_a_helper_module_without_assumptions_fails_g5_by_the_listing() -> None:
    """Nested modules are not read by the recursion check: G5 refuses them from the kernel's listing."""
    module = "Module zz_M.\nLemma zz_l : True. Proof. exact I. Qed.\nEnd zz_M.\n"
    result = statement_gate(rocq_submission(pinned(MINIF2F_ROCQ), PROBLEM, HEADER + module + THM + "lra.\nQed.\n"))
    assert result.status is GateStatus.FAILED and "`zz_M`" in result.detail, result.detail


MODULE_TEXTS = {
    "Module": "Module zz_M.\nLemma zz_l : True. Proof. exact I. Qed.\nEnd zz_M.\nImport zz_M.",
    "Module Type": "Module Type zz_T.\nEnd zz_T.",
    "Declare Module": "Declare Module zz_M : Coq.Structures.Equalities.Typ.",
    "functor application": "Module zz_N := Coq.Structures.OrdersEx.Nat_as_OT.",
    "Include": "Include Coq.Structures.OrdersEx.Nat_as_OT.",
}


@pytest.mark.parametrize("name", sorted(MODULE_TEXTS))
def test_module_commands_are_refused_as_text(name: str) -> None:
    assert text_violations(before_theorem(MODULE_TEXTS[name]))


# ------------------------------------------------------------------ 3. forged markers


@needs_coq
def test_compile_time_prints_mimicking_print_assumptions_never_reach_the_trusted_file() -> None:
    forged = (
        "Axiom zz_ax : False.\n"
        'Goal True. idtac "Closed under the global context". idtac "Axioms:". exact I. Qed.\n'
        "Print Assumptions zz_ax.\n"
    )
    sub = rocq_submission(pinned(MINIF2F_ROCQ), PROBLEM, HEADER + forged + THM + "destruct zz_ax.\nQed.\n")
    result = statement_gate(sub)
    assert result.status is GateStatus.FAILED and "zz_ax" in result.detail, result.detail


# ------------------------------------------------------------------ answer check steering


@needs_coq
def test_hints_arguments_and_fields_leave_the_answer_check_alone() -> None:
    """Each is replayed (or not) in the answer check's file; the wrong answer is still proved different."""
    candidate = vacuous("4", "Add Field zz_field : Rfield. #[global] Hint Extern 0 => idtac : core.")
    # a bare `Arguments` of a library constant, replayed by `Require`, is refused since red team 20
    # (`test_rocq_redteam20.py`); `Local` ones stay in the candidate's file
    settings = "Local Arguments Rplus : simpl never.\nLocal Arguments Rlt : simpl never.\nLocal Arguments not {A}.\n"
    v = vacuous_verdict(candidate.replace("Theorem putnam_2013_b2", settings + "Theorem putnam_2013_b2"))
    assert v.status == "disputed", (v.status, v.answers)


# ------------------------------------------------------------------ sound proofs still pass

SOUND_EXTRAS = """Section zz_S.
Context {A : Type}.
Lemma zz_id (a : A) : a = a. Proof. reflexivity. Qed.
End zz_S.
Create HintDb zz_db.
Lemma zz_plus0 (y : R) : y + 0 = y. Proof. ring. Qed.
#[local] Hint Rewrite zz_plus0 : zz_db.
#[export] Hint Resolve zz_id : zz_db.
Local Definition zz_c (B : Type) (b : B) := b.
Arguments zz_c {B} b.
Remark zz_r : zz_c 1 = 1. Proof. reflexivity. Qed."""


@needs_coq
def test_sections_hints_and_own_arguments_pass_the_full_profile() -> None:
    v = full(before_theorem(SOUND_EXTRAS, "autorewrite with zz_db. lra."))
    assert v.status == "accepted", [(g.id, g.detail) for g in v.gates]


@needs_coq
def test_coercions_canonical_structures_and_local_instances_stay_in_the_candidate_file(tmp_path: Path) -> None:
    """The measurement behind the note above: none of them acts in a file that only ``Require``s the
    candidate (a global ``Instance`` does), so only G5's elaboration of the statement could be affected."""
    candidate = """Class Zc (n : nat) := { zv : nat }.
Definition c1 : Zc 1 := {| zv := 1 |}.
Definition c2 : Zc 2 := {| zv := 2 |}.
#[local] Existing Instance c1.
#[export] Existing Instance c2.
Global Instance c4 : Zc 4 := {| zv := 4 |}.
Definition g (b : unit) : nat := 7.
Coercion g : unit >-> nat.
Structure S := { car : Type; op : car -> nat }.
Canonical Structure Sb := {| car := bool; op := fun _ => 5 |}.
"""
    probe = 'Goal True. tryif (let x := constr:({}) in idtac) then idtac "{}-found" else idtac "{}-absent". Abort.\n'
    terms = {"local": "@T.C.zv 1 _", "export": "@T.C.zv 2 _", "global": "@T.C.zv 4 _", "coercion": "(tt : nat)"}
    terms["canonical"] = "T.C.op _ true"
    loader = "Require T.C.\n" + "".join(probe.format(t, k, k) for k, t in terms.items())
    run = compile_pair(tmp_path, candidate, loader)
    assert run.returncode == 0, run.stderr
    found = {k for k in terms if f"{k}-found" in run.stdout}
    assert found == {"global"}, run.stdout


@needs_coq
def test_tactic_notations_and_scopes_stay_in_the_candidate_file(tmp_path: Path) -> None:
    """A ``Tactic Notation`` named like a tactic of the answer check, and a ``Global Open Scope``: the
    check's ``lra`` and numerals read as the library's in a file that only ``Require``s the candidate."""
    candidate = (
        'Require Import Reals Lra.\nTactic Notation "lra" := fail "zz-override".\n'
        'Tactic Notation "discriminate" ident(h) := fail "zz-override".\nGlobal Open Scope R_scope.\n'
        "Goal (4 <> 3)%R. intro h. Fail lra. Abort.\nCheck ((1 + 1) : R).\n"  # in force here
    )
    loader = (
        "Require T.C.\nRequire Import Reals Lra.\nGoal (4 <> 3)%R. intro h. lra. Qed.\n"
        "Goal 4 <> 3. intro h. discriminate h. Qed.\nCheck (eq_refl : 1 + 1 = 2%nat).\n"
    )
    run = compile_pair(tmp_path, candidate, loader)
    assert run.returncode == 0, run.stderr


@needs_coq
def test_a_library_axiom_in_a_module_named_like_an_allowed_one_is_refused() -> None:
    """``Coq.Floats.FloatAxioms.Leibniz.eqb_spec`` sits in a module named like the allowed primitive module
    ``Coq.Floats.PrimFloat.Leibniz``: the trusted file prints it with its library's segment, so G5 reads it
    as the axiom it is. (G6 reads its full name as a loaded library's specification of a kernel primitive,
    which may sit in the environment: G5 refuses its use, round 20.)"""
    helper = (
        "Require Coq.Floats.FloatAxioms.\nLemma zz_l : Coq.Floats.PrimFloat.one = Coq.Floats.PrimFloat.one.\n"
        "Proof. apply Coq.Floats.FloatAxioms.Leibniz.eqb_spec. reflexivity. Qed.\n"
    )
    sub = rocq_submission(pinned(MINIF2F_ROCQ), PROBLEM, HEADER + helper + THM + "pose proof zz_l.\nlra.\nQed.\n")
    result = statement_gate(sub)
    assert result.status is GateStatus.FAILED and "Leibniz.eqb_spec` is not on the allow-list" in result.detail
    result = kernel_gate(sub)
    assert result.status is GateStatus.PASSED and "specifications of kernel primitives" in result.detail
