"""False rejections red team 15 reported in the Rocq text gates, and the attacks that must stay refused.

G2 refused three sound forms with no soundness reason:

1. **``Program`` obligations.** ``Program Definition h : {y : R | P y} := v.`` then ``Next Obligation. lra.
   Qed.`` (or ``Defined.``, ``Obligation 1.``, ``Solve Obligations with tac.``): G2 read ``Next`` as an
   addition that is not permitted. An obligation is a lemma the declaration depends on; an unsolved one
   leaves the declaration undefined (coqc fails at the end of the file), ``admit``/``Admit Obligations``
   are G3's words, and a library axiom under an obligation is in the theorem's ``Print Assumptions`` (G5)
   and coqchk's report (G6). ``Obligation Tactic := ...`` stays refused: ``Require`` replays it in every
   file that loads the candidate (measured below), and inside a proof, where G2 passed over it as a
   tactic, it is refused now.
2. **``Let`` outside a section.** Coq 8.16 reads it as a ``Local Definition`` (it warns so): a helper like
   any other. Inside the challenge's own section (``putnam_1969_b5``) it stays refused, since it would be
   in scope of the theorem.
3. **Additions after the theorem.** Nothing after the theorem's ``Qed`` (and the challenge's last
   sentence) can change the closed theorem; what it can still reach are the harness's files that
   ``Require`` the candidate (G5's trusted file, the answer check), where ``Require`` replays global
   settings. So the additions permitted before the theorem are permitted after it, judged by that reach:
   a hint that is neither ``#[local]`` nor ``#[export]`` and an ``Arguments`` of a constant the candidate
   did not define that is not ``Local`` are replayed (measured) and can serve nothing but those files
   there, so they are refused; instances, notations, tactic redefinitions, exported options and global
   reduction settings stay refused as everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.checks import check_preservation
from putnam_solver.core.provers.rocq.coqchk import kernel_gate
from putnam_solver.core.provers.rocq.forbidden import check_forbidden
from putnam_solver.core.provers.rocq.statement import statement_gate
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous
from tests.adversarial.test_rocq_redteam14 import verdict as vacuous_verdict
from tests.adversarial.test_rocq_redteam15 import (
    HEADER,
    PROBLEM,
    SOUND,
    THM,
    before_theorem,
    compile_pair,
)
from tests.helpers import COQ_BENCH, MINIF2F_ROCQ, needs_coq, pinned, rocq_submission

PROGRAM = "Require Coq.Program.Tactics.\nProgram Definition zz_p : {y : R | 125 / 8 = y / 12} := 375 / 2.\n"
USE = "pose proof (proj2_sig zz_p) as zz_h. simpl in zz_h. lra."
"""The theorem's proof through the helper, so the helper's obligation is in its assumptions."""


def text_violations(candidate: str, problem: str = PROBLEM, profile: Profile = Profile.FULL) -> list[str]:
    """What G2 and G3 (recursion refused, as on this Coq) say about ``candidate``."""
    bench = pinned(MINIF2F_ROCQ) if problem == PROBLEM else pinned(COQ_BENCH)
    statement = statement_of(bench.problems[problem])
    found = check_preservation(statement, candidate, Track.WITH_ANSWER, profile) + check_forbidden(statement, candidate)
    return [v.rule for v in found]


def without_requires(candidate: str) -> str:
    """``candidate`` without its added ``Require``s (class 2 before the theorem), for the other profiles."""
    return candidate.replace("Require Import Lra.\n", "").replace("Require Coq.Program.Tactics.\n", "")


def full(candidate: str, allow_recursion: bool = False) -> Verdict:
    options = GateFlags(profile=Profile.FULL, allow_recursion=allow_recursion, keep_going=True).options()
    problem = pinned(MINIF2F_ROCQ).problems[PROBLEM]
    return run_gates(get_prover("rocq"), pinned(MINIF2F_ROCQ), problem, candidate.encode(), Track.WITH_ANSWER, options)


def gates(v: Verdict) -> list[tuple[str, str, str]]:
    return [(g.id, str(g.status), g.detail) for g in v.gates]


# ------------------------------------------------------------------ 1. Program obligations

OBLIGATIONS = {
    "Next Obligation ... Qed": "Next Obligation. lra. Qed.",
    "Next Obligation ... Defined": "Next Obligation.\nProof. lra. Defined.",
    "Obligation 1 of": "Obligation 1 of zz_p. lra. Qed.",
    "Solve Obligations": "Solve Obligations with lra.",
}


@pytest.mark.parametrize("name", sorted(OBLIGATIONS))
def test_program_obligations_pass_the_text_gates_on_every_profile(name: str) -> None:
    candidate = before_theorem(PROGRAM + OBLIGATIONS[name], USE)
    assert text_violations(candidate) == []
    assert text_violations(without_requires(candidate), profile=Profile.TEXT) == []


@needs_coq
@pytest.mark.parametrize("name", ["Next Obligation ... Qed", "Next Obligation ... Defined"])
def test_a_program_definition_with_its_obligation_proved_is_accepted(name: str) -> None:
    v = full(before_theorem(PROGRAM + OBLIGATIONS[name], USE))
    assert v.status == "accepted", gates(v)


NON_RECURSIVE_FIXPOINT = (
    "Require Coq.Program.Tactics.\n"
    "Program Fixpoint zz_f (n : nat) : {y : R | 125 / 8 = y / 12} := 375 / 2.\nNext Obligation. lra. Qed.\n"
)


def test_a_program_fixpoint_is_still_refused_by_the_recursion_rule() -> None:
    found = text_violations(before_theorem(NON_RECURSIVE_FIXPOINT, "pose proof (proj2_sig (zz_f 0)). lra."))
    assert len(found) == 1 and "defines its own recursion" in found[0], found


@needs_coq
def test_a_non_recursive_program_fixpoint_is_accepted_where_recursion_is_allowed() -> None:
    v = full(before_theorem(NON_RECURSIVE_FIXPOINT, "pose proof (proj2_sig (zz_f 0)) as h. simpl in h. lra."), True)
    assert v.status == "accepted", gates(v)


OBLIGATION_ATTACKS = {
    "admit in the obligation": (PROGRAM + "Next Obligation. admit. Qed.", "leaves a proof obligation unproved"),
    "Admit Obligations": (PROGRAM + "Admit Obligations.", "leaves a proof obligation unproved"),
    "Obligation Tactic": (
        "Obligation Tactic := idtac.\n" + PROGRAM + "Next Obligation. lra. Qed.",
        "`Obligation` is not a permitted addition",
    ),
    "Obligation Tactic in a helper's proof": (
        "Lemma zz_l : True.\nProof. Obligation Tactic := idtac. exact I. Qed.\n"
        + PROGRAM
        + "Solve Obligations with lra.",
        "is not allowed in proofs",
    ),
}


@pytest.mark.parametrize("name", sorted(OBLIGATION_ATTACKS))
def test_obligation_holes_and_obligation_tactics_stay_refused(name: str) -> None:
    addition, expected = OBLIGATION_ATTACKS[name]
    assert any(expected in r for r in text_violations(before_theorem(addition, USE))), name


def test_an_obligation_tactic_in_the_theorem_proof_is_refused() -> None:
    found = text_violations(before_theorem("", "Obligation Tactic := idtac. lra."))
    assert any("is not allowed in proofs" in r for r in found), found


@needs_coq
def test_an_obligation_tactic_set_in_a_proof_reaches_a_file_that_only_requires_the_candidate(tmp_path: Path) -> None:
    """Why it is refused: the requiring file's own obligation is left unsolved (the default would solve it)."""
    candidate = (
        "Require Import Coq.Program.Tactics.\nLemma zz_l : True.\nProof. Obligation Tactic := idtac. exact I. Qed.\n"
    )
    loader = "Require Import Coq.Program.Tactics.\nRequire T.C.\nProgram Definition zz_r : {n : nat | n = 2} := 2.\n"
    assert compile_pair(tmp_path, candidate, loader).returncode != 0
    assert compile_pair(tmp_path, candidate.replace("Obligation Tactic := idtac. ", ""), loader).returncode == 0


AXIOM_PROOF = "destruct (FloatAxioms.Leibniz.eqb_spec PrimFloat.one PrimFloat.one) as [zz_a zz_b]. lra."
"""``Leibniz.eqb_spec`` is a library axiom, not on the allow-list: the obligation (or ``Let``) rests on it
(``JMeq_eq`` would not do: Coq 8.16 proves it from the allowed ``eq_rect_eq``)."""


@needs_coq
@pytest.mark.parametrize(
    "helper",
    [
        f"Require Coq.Floats.FloatAxioms.\n{PROGRAM}Next Obligation. {AXIOM_PROOF} Qed.\n",
        "Require Coq.Floats.FloatAxioms.\nLet zz_p : {y : R | 125 / 8 = y / 12}.\n"
        f"Proof. exists (375 / 2). {AXIOM_PROOF} Qed.\n",
    ],
    ids=["obligation", "Let"],
)
def test_an_obligation_or_let_proved_by_an_axiom_is_refused_by_g5(helper: str) -> None:
    """G5 reads the axiom in the theorem's assumptions; G6 sees it only in the environment, where a loaded
    library's specification of a kernel primitive may sit (round 20)."""
    sub = rocq_submission(
        pinned(MINIF2F_ROCQ), PROBLEM, HEADER + helper + THM + "pose proof (proj2_sig zz_p). lra.\nQed.\n"
    )
    assert text_violations(sub.candidate) == []
    result = statement_gate(sub)
    assert result.status is GateStatus.FAILED and "Leibniz.eqb_spec" in result.detail, result.detail
    result = kernel_gate(sub)
    assert result.status is GateStatus.PASSED and "specifications of kernel primitives" in result.detail


# ------------------------------------------------------------------ 2. Let outside a section

LET = "Let zz_c : R := 12.\nLet zz_l : 125 / 8 = (375 / 2) / zz_c.\nProof. unfold zz_c. lra. Qed.\n"


@needs_coq
def test_let_outside_a_section_is_a_local_definition_and_is_accepted() -> None:
    candidate = before_theorem(LET, "pose proof zz_l. unfold zz_c in *. lra.")
    assert text_violations(without_requires(candidate), profile=Profile.TEXT) == []
    v = full(candidate)
    assert v.status == "accepted", gates(v)


LET_ATTACKS = {
    "admitted": ("Let zz_h : False.\nAdmitted.\n", "leaves a proof obligation unproved"),
    "named like a word of the statement": ("Let x : R := 0.\n", "has the name of a word of the challenge"),
    "Let Fixpoint": ("Let Fixpoint zz_f (n : nat) : nat := 0.\n", "`Let` is not a permitted addition"),
}


@pytest.mark.parametrize("name", sorted(LET_ATTACKS))
def test_a_let_that_hides_a_hole_or_shadows_stays_refused(name: str) -> None:
    addition, expected = LET_ATTACKS[name]
    assert any(expected in r for r in text_violations(before_theorem(addition))), name


B5 = "putnam_1969_b5"


def b5(before: str = "", after: str = "") -> str:
    """``putnam_1969_b5`` (its theorem in a section the statement opens) with ``before`` its theorem."""
    text = str(pinned(COQ_BENCH).problems[B5].formal_statement).replace("Proof. Admitted.", "Proof.\nQed.")
    return text.replace(f"Theorem {B5}", before + f"Theorem {B5}") + after


def test_a_let_inside_the_challenge_section_stays_refused() -> None:
    found = text_violations(b5("Let zz_c : nat := 1.\n"), B5)
    assert any("inside the challenge's section" in r for r in found), found
    assert text_violations(b5("Definition zz_c : nat := 1.\n"), B5) == []


# ------------------------------------------------------------------ 3. additions after the theorem

AFTER = """
Lemma zz_after (y : R) : y + 0 = y. Proof. ring. Qed.
Definition zz_d : R := 1.
Arguments zz_d : simpl never.
#[local] Hint Resolve zz_after : core.
#[export] Hint Unfold zz_d : core.
Local Arguments Rplus : simpl never.
Let zz_e : nat := 2%nat.
Section zz_S.
Context (zz_n : nat).
Variable zz_h : zz_n = zz_n.
Let zz_g : nat := 3%nat.
Lemma zz_in : zz_g = 3%nat. Proof. reflexivity. Qed.
End zz_S.
Require Coq.Program.Tactics.
Program Definition zz_q : {y : R | y = 1} := 1.
Opaque zz_d.
"""


def test_helpers_after_the_theorem_pass_the_text_gates_on_every_profile() -> None:
    for profile in (Profile.TEXT, Profile.FAST, Profile.FULL):
        assert text_violations(SOUND.replace("Require Import Lra.\n", "") + AFTER, profile=profile) == [], profile
    assert text_violations(b5(after=AFTER), B5) == []


@needs_coq
def test_helpers_after_the_theorem_are_accepted() -> None:
    v = full(SOUND + AFTER)
    assert v.status == "accepted", gates(v)


@needs_coq
def test_helpers_after_the_theorem_leave_the_answer_check_deciding() -> None:
    """PutnamBench, no-answer: the official answer accepted, a wrong one still disputed, helpers after both."""
    after = "\nLemma zz_after : (1 + 0 = 1)%R. Proof. ring. Qed.\n#[local] Hint Resolve zz_after : core.\n"
    right = vacuous_verdict(vacuous("3") + after)
    assert right.status == "accepted", gates(right)
    wrong = vacuous_verdict(vacuous("4") + after)
    assert wrong.status == "disputed" and check_status(wrong) == "differs", (wrong.status, wrong.answers)


REPLAYED_AFTER = {
    "Arguments of a library constant": ("Arguments Rplus : simpl never.", "after the theorem it can act only"),
    "an instance hint": (
        "#[local] Hint Extern 0 (Reflexive _) => idtac : typeclass_instances.",
        "declares an instance",
    ),
    "Global Instance": ("Global Instance zz_i : Reflexive (@eq R) := @eq_refl R.", "instances or coercions"),
    "Notation": ('Notation "x <+> y" := (Rplus x y) (at level 50).', "changes what notation means"),
    "Ltac redefinition": ("Ltac lra ::= fail.", "replaces a tactic"),
    "Global Opaque": ("Global Opaque Rplus.", "every file that merely Requires"),
    "Global Set Warnings": ('Global Set Warnings "+all".', "reaches every file that loads the candidate"),
    "Obligation Tactic": ("Obligation Tactic := idtac.", "`Obligation` is not a permitted addition"),
    "an inductive type": ("Inductive zz_t : Type := zz_k.", "`Inductive` is not a permitted addition"),
    "an axiom": ("Axiom zz_ax : False.", "declares an assumption"),
}


def test_an_assumption_after_the_theorem_outside_a_closed_section_stays_refused() -> None:
    for addition in ("Variable zz_v : False.", "Section zz_S.\nContext (zz_v : False).\n"):
        found = text_violations(SOUND + "\n" + addition + "\n")
        assert any("declares an assumption" in r for r in found), found


@pytest.mark.parametrize("name", sorted(REPLAYED_AFTER))
def test_what_reaches_the_harness_files_stays_refused_after_the_theorem(name: str) -> None:
    addition, expected = REPLAYED_AFTER[name]
    found = text_violations(SOUND + "\n" + addition + "\n")
    assert any(expected in r for r in found), found


@pytest.mark.parametrize("name", ["an instance hint"])  # other hints: red team 29 (harmless wherever they stand)
def test_a_replayed_hint_in_a_helper_proof_after_the_theorem_stays_refused(name: str) -> None:
    addition, expected = REPLAYED_AFTER[name]
    found = text_violations(SOUND + f"\nLemma zz_l : True.\nProof. {addition} exact I. Qed.\n")
    assert any(expected in r for r in found), found


@needs_coq
def test_a_bare_hint_and_arguments_after_the_theorem_reach_a_file_that_only_requires_the_candidate(
    tmp_path: Path,
) -> None:
    """The measurement behind the refusal: replayed by ``Require``; ``#[local]``/``#[export]``/``Local`` not."""
    candidate = (
        "Require Import Reals.\nLemma zz_a : (0 + 0 = 0)%R. Proof. ring. Qed.\n"
        "Lemma zz_b : (1 + 0 = 1)%R. Proof. ring. Qed.\n"
        "Hint Resolve zz_a : core.\n#[export] Hint Resolve zz_b : core.\nArguments Rmult : simpl never.\n"
        "Local Arguments Rplus : simpl never.\n"
    )
    loader = "Require T.C.\nRequire Import Reals.\nPrint HintDb core.\nAbout Rmult.\nAbout Rplus.\n"
    run = compile_pair(tmp_path, candidate, loader)
    assert run.returncode == 0, run.stderr
    about_plus = run.stdout[run.stdout.index("Rplus :") :]
    assert "C.zz_a" in run.stdout and "zz_b" not in run.stdout, run.stdout
    assert "never unfold Rmult" in run.stdout and "never" not in about_plus, run.stdout
