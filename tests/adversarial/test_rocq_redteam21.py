"""Red team 21 on the Rocq side: new spellings through real coqc and coqchk, and wrong answers as computations.

Tried (about 160 candidates, full profile): on ``putnam_1962_a6`` (with-answer) blanks Coq does not read as
blanks (form feed, vertical tab, no-break space) before or inside an ``Axiom``, a comment glued to a
sentence's period (``.(*``), ``Unset Guard (* *) Checking`` and the phrase across a line break, ``Local``/
``#[local]`` kernel options, ``exact_no_check``/``vm_cast_no_check``/``change_no_check``, ``Unshelve`` with
an open evar, ``Set Nested Proofs Allowed`` (accepted since red team 29: nested proofs are read as
coqc reads them), ``Default Proof Mode``, ``Mangle Names``, ``Keyed
Unification``, the scheme options, Ltac2 (``@ external``, definitions, notations, types, the unsafe API by
its qualified name), ``Add Ring``/``Add Field``/``Add Parametric Relation``/``Add Printing`` at top level,
``Add Morphism``/``Add Zify``/``Add Ring``/``Add Search Blacklist`` in a proof, ``Declare Equivalent Keys``,
``Implicit Types`` and ``Generalizable`` at top level and in a proof, attribute forms around an ``Axiom``
(``#[ warnings = ... ]``, ``#[deprecated(...)]``), ``#[canonical]``/``#[canonical=yes]``,
``#[universes(...)]`` on definitions, ``Goal``, a ``let fix`` built by ``ltac:``, ``Wf.Fix``, universe
binders, SProp (``sEmpty`` and ``Squash`` eliminations), ``Qed exporting``, ``Proof (term)``, ``Fail Qed``,
``Optimize Heap``, strings and comments holding sentences, ``Ltac`` shadowing a library tactic's name,
``Tactic Notation "tauto"``, global hints of every kind (``Extern``, ``Mode``, ``Constants Opaque``,
``Remove Hints``), ``Print Universes`` to a file, ``Print ML Path``/``LoadPath``, ``Locate File``, ``Global
Set Printing Width``, ``Require Export`` of libraries, the allowed axioms (``classic``, functional
extensionality, proof irrelevance, ``epsilon_statement``, ``JMeq_eq``) and the primitive specifications
(``FloatAxioms.add_spec``, ``Sint63``) used by the proof; ``Add Field``/``Add Ring`` with a failing
``preprocess`` in a helper's proof, measured apart with coqc: a ring or field is active only where its
library is imported, so the candidate's never reaches the harness's files. And on the vacuous
``putnam_2013_b2`` (no-answer: only the answer check's ``differs`` keeps a wrong answer from
``accepted``) about fifty spellings of a wrong answer: through ``abstract`` (an opaque constant: G6
refuses its axiom-like print), a helper's ``_subproof``, ``ltac:``, ``let``, ``match``/``if`` on decisions,
library definitions and transcendental functions at known points.

Found: a wrong answer written as a number the answer check's arithmetic does not evaluate. ``lra`` and
``nra`` read any other term as an opaque atom, so ``Rsqr 2``, ``R_dist 4 0``, ``powerRZ 2 2``, ``INR (fact
3) - 2``, ``sum_f_R0 (fun _ => 1) 3``, Coquelicot's ``sum_n (fun _ => 1) 3``, ``if Nat.eqb 2 2 then 4 else
3``, ``cos 0 + 3``, ``sin PI + 4``, ``ln 1 + 4``, ``atan 0 + 4``, ``Rsqr (sqrt 4)``, ``4 * (PI / PI)``, ``ln
(exp 4)``, ``exp (ln 4)`` or a ``match`` on ``total_order_T 0 1`` for the official ``3`` were ``unknown``
and the verdict ``accepted``, every gate passed. Fixed by meaning (``answer_values``): a fourth attempt
computes the hypothesis (``cbv`` of every transparent constant but those ``lra`` reads and the atoms the
reals' facts know), rewrites the library's equations for known values, splits the cases of any ``match``
left on an undecided term, adds ``x * / x = 1`` for atoms shown nonzero, then the reals' facts and
``lra``/``nra``: all ``disputed``. The comparison of function answers at sample points closes the same way
(``fun k => Rsqr (INR k)`` for ``putnam_2020_a2``'s ``fun k => 4 ^ k``, "proved" through Coq 8.16's guard
bug with recursion allowed, was ``unknown``; now ``disputed``). An honest answer stays as it was
(``Rsqr (sqrt 3)`` for ``3`` is ``accepted``), and a ``differs`` is still a ``Qed`` the kernel checks.
Still ``unknown`` (no finite reading decides the reals): ``Rpower 2 2``, ``Rpower 16 (1/2)``, ``cos (PI +
PI) + 3``, ``IZR (up (1/2)) + 3``, and numbers too large to compute in unary within the attempt's time
(``INR (fact 12)``).

Every with-answer attack above was refused by the gate the table names; the near-neighbours below pass.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_values import KEPT, SPECIAL_VALUES
from putnam_solver.core.provers.rocq.answers import ATTEMPTS, DIFFERENT_COMPUTED, check_source
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.adversarial.test_rocq_redteam19_answers import status, unsound
from tests.adversarial.test_rocq_redteam20 import PROOF, USE, a6, stopping
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, thinned

# ------------------------------------------------------------------ no-answer: wrong answers as computations

COMPUTED = {
    "Rsqr": "Rsqr 2",
    "R_dist": "R_dist 4 0",
    "powerRZ": "powerRZ 2 2",
    "INR of fact": "INR (fact 3) - 2",
    "sum_f_R0": "sum_f_R0 (fun _ => 1) 3",
    "Coquelicot sum_n": "sum_n (fun _ => 1) 3",
    "a Boolean test": "if Nat.eqb 2 2 then 4 else 3",
    "cos 0": "cos 0 + 3",
    "sin PI": "sin PI + 4",
    "ln 1": "ln 1 + 4",
    "atan 0": "atan 0 + 4",
    "Rsqr of sqrt": "Rsqr (sqrt 4)",
    "PI / PI": "4 * (PI / PI)",
    "ln of exp": "ln (exp 4)",
    "exp of ln": "exp (ln 4)",
    "a match on total_order_T": "match total_order_T 0 1 with inleft _ => 4 | inright _ => 3 end",
}
"""Wrong answers (all ``4`` or ``5``) to the vacuous ``putnam_2013_b2`` (official ``3``): each was ``unknown``
and ``accepted`` before red team 21."""


@needs_coq
@pytest.mark.parametrize("answer", thinned(COMPUTED))
def test_a_wrong_answer_written_as_a_computation_is_disputed(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert all(g.status is GateStatus.PASSED for g in v.gates), failures(v)
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, v.answers)


@needs_coq
def test_an_honest_answer_written_as_a_computation_stays_accepted() -> None:
    """``Rsqr (sqrt 3)`` is ``3``: the computed reading cannot prove it different (a ``differs`` is a ``Qed``)."""
    v = verdict(vacuous("Rsqr (sqrt 3)"))
    assert v.status == "accepted" and check_status(v) != "differs", (v.status, v.answers)


@needs_coq
def test_a_wrong_function_answer_apart_only_by_computation_is_disputed() -> None:
    assert status(unsound("putnam_2020_a2", "fun k => Rsqr (INR k)"), "putnam_2020_a2") == ("disputed", "differs")


@needs_coq
def test_a_right_function_answer_written_as_a_computation_is_never_disputed() -> None:
    verdict_ = unsound("putnam_2020_a2", "fun k => Rsqr (2 ^ k)")
    assert status(verdict_, "putnam_2020_a2")[1] != "differs"


def test_the_computed_attempt_names_everything_in_full_and_loads_the_reals() -> None:
    statement = statement_of(pinned(COQ_BENCH).problems["putnam_2013_b2"])
    source = check_source(statement, "ne_computed", DIFFERENT_COMPUTED)
    assert "Require Coq.Reals.Reals." in source
    assert all(name.startswith("Coq.") for name in (*KEPT, *SPECIAL_VALUES))
    claims = [claim for claim, *_ in ATTEMPTS]
    assert claims == ["eq", "ne", "ne_reals", "ne_computed", "ne_at", "ne_member", "eq_computed"]  # round 52


# ------------------------------------------------------------------ with-answer: spellings refused

AXIOM = "Axiom zz_ax : False.\n"


def in_proof(command: str) -> str:
    return PROOF.replace("Proof.", f"Proof. {command}", 1)


REFUSED: dict[str, tuple[str, str]] = {
    "a form feed before an Axiom": ("Definition zz0 := 1.\x0c" + AXIOM, USE),
    "a vertical tab before an Axiom": ("Definition zz0 := 1.\x0b" + AXIOM, USE),
    "a form feed inside an Axiom": ("Axiom\x0czz_ax : False.\n", USE),
    "a no-break space before an Axiom": ("Definition zz0 := 1.\u00a0" + AXIOM, USE),
    "a comment glued to a period": ("Definition zz0 := 1.(* c *)" + AXIOM, USE),
    "Unset Guard (* *) Checking": ("Unset Guard (* x *) Checking.\n", PROOF),
    "Unset Guard Checking across lines": ("Unset Guard\n Checking.\n", PROOF),
    "Local Set Guard Checking": ("Local Set Guard Checking.\n", PROOF),
    "#[local] Unset Universe Checking": ("#[local] Unset Universe Checking.\n", PROOF),
    "#[warnings] Axiom": ('#[ warnings = "-all" ] ' + AXIOM, USE),
    "#[deprecated] Axiom": ('#[deprecated(since="x", note="y")] ' + AXIOM, USE),
    "exact_no_check": ("", "Proof. exact_no_check I. Qed."),
    "vm_cast_no_check": ("", "Proof. vm_cast_no_check I. Qed."),
    "change_no_check": ("", "Proof. intros. change_no_check True. exact I. Qed."),
    "Unshelve with an open evar": ("", "Proof. intros. refine (_ : A = A). Unshelve. Qed."),
    "Default Proof Mode": ('Set Default Proof Mode "Classic".\n', PROOF),
    "Keyed Unification": ("Set Keyed Unification.\n", PROOF),
    "Unset Case Analysis Schemes": ("Unset Case Analysis Schemes.\n", PROOF),
    "Decidable Equality Schemes": ("Set Decidable Equality Schemes.\n", PROOF),
    "Ltac2 external": (
        'From Ltac2 Require Import Ltac2.\nLtac2 @ external zzmake : constr -> constr := "coq-core.plugins.ltac2" '
        '"constr_make".\n',
        PROOF,
    ),
    "Ltac2 definition": ("From Ltac2 Require Import Ltac2.\nLtac2 zz () := ().\n", PROOF),
    "Ltac2 unsafe API by its qualified name": (
        "",
        "Proof. ltac2:(exact (Ltac2.Constr.Unsafe.make (Ltac2.Constr.Unsafe.Rel 1))). Qed.",
    ),
    "Add Ring at top level": ("Require Import Ring.\nAdd Ring zzr : Qsrt.\n", PROOF),
    "Add Field at top level": ("Require Import Field.\nAdd Field zzf : Qsft.\n", PROOF),
    "Add Morphism in a proof": ("", in_proof("Add Morphism Qplus with signature Qeq ==> Qeq ==> Qeq as zzm.")),
    "Add Zify in a proof": ("", in_proof("Add Zify InjTyp zz.")),
    "Declare Equivalent Keys": ("Declare Equivalent Keys Qplus Qmult.\n", PROOF),
    "Goal then Admitted": ("Goal False. Proof. Admitted.\n", PROOF),
    "a let fix built by ltac": (
        "Definition zz : nat -> False := ltac:(exact (fun n => let g := (fix f (m : nat) : False := f m) in g n)).\n",
        PROOF,
    ),
    "Program Fixpoint by measure": (
        "Require Import Program.\nProgram Fixpoint zz (n : nat) {measure n} : nat := "
        "match n with 0 => 0 | S k => zz k end.\n",
        PROOF,
    ),
    "#[canonical=yes]": ("#[canonical=yes] Definition zz := 1.\n", PROOF),
    "Qed exporting": ("", PROOF.replace("Qed.", "Qed exporting.")),
    "Fail Qed then Qed": ("", PROOF.replace("Qed.", "Fail Qed. Qed.")),
    "Optimize Heap": ("Optimize Heap.\n", PROOF),
    "Print ML Path": ("Print ML Path.\n", PROOF),
    "Print LoadPath": ("Print LoadPath.\n", PROOF),
    "Global Set Printing Width": ("Global Set Printing Width 20.\n", PROOF),
    "a float specification used": (
        "Require Import Floats.\n",
        in_proof("pose proof FloatAxioms.add_spec."),
    ),
    "a Sint63 specification used": ("Require Import Sint63.\n", in_proof("pose proof Sint63.of_to_Z.")),
}
"""Text before ``putnam_1962_a6``'s theorem and its proof."""


@pytest.mark.parametrize("case", thinned(sorted(REFUSED)))
def test_a_new_spelling_is_refused_on_the_text_and_full_profiles(case: str) -> None:
    before, proof = REFUSED[case]
    text = a6(before, proof)
    for profile in (Profile.TEXT, Profile.FULL):
        v = stopping("putnam_1962_a6", text, profile, Track.WITH_ANSWER)
        if profile is Profile.TEXT and v.status == "accepted":
            continue  # refused by what coqc or the kernel sees: the text profile runs neither
        assert v.status == "rejected", (profile, v.status, failures(v))


NO_ANSWER_REFUSED = {
    "an abstract in the answer (an opaque constant)": ("", "ltac:(abstract (exact 4))"),
    "a helper's _subproof": (
        "Lemma zzh : True. Proof. assert (h : R) by (abstract exact 4). exact I. Qed.",
        "zzh_subproof",
    ),
}


@needs_coq
@pytest.mark.parametrize("case", sorted(NO_ANSWER_REFUSED))
def test_an_answer_hidden_in_an_opaque_constant_is_refused(case: str) -> None:
    before, answer = NO_ANSWER_REFUSED[case]
    text = vacuous(answer)
    if before:
        text = text.replace("Definition putnam_2013_b2_solution", f"{before}\nDefinition putnam_2013_b2_solution", 1)
    assert verdict(text).status == "rejected"


# ------------------------------------------------------------------ near-neighbours that must pass

VALID: dict[str, tuple[str, str]] = {
    "a global Hint Rewrite": (
        "Lemma zzl : forall q : Q, q + 0 == q. Proof. intros; ring. Qed.\nGlobal Hint Rewrite zzl : core.\n",
        PROOF,
    ),
    "a universe-polymorphic definition": ("#[universes(polymorphic)] Definition zz := Type.\n", PROOF),
    "universe binders": ("Definition zz@{u} := Type@{u}.\n", PROOF),
    "a Let in a closed section": ("Section S0.\nLet zz : nat := 1.\nEnd S0.\n", PROOF),
    "the theorem ended by Defined": ("", PROOF.replace("Qed.", "Defined.")),
    "Add Ring in a proof": ("", in_proof("Add Ring zzr : Qsrt.")),
    # red team 31 (coqc 8.16, through a file that Requires the candidate): none of these reaches it
    "Mangle Names": ("Set Mangle Names.\n", PROOF),
    "Add Printing Let": ("Add Printing Let prod.\n", PROOF),
    "Generalizable in a proof": ("", in_proof("Generalizable All Variables.")),
    "Add Search Blacklist in a proof": ("", in_proof('Add Search Blacklist "zz".')),
    "Implicit Types in a proof": ("", in_proof("Implicit Types zz : nat.")),
    # round rfr36: class 2 before the theorem (G5 decides), as in a helper's proof
    "Implicit Types at top level": ("Implicit Types A : Ensemble nat.\n", PROOF),
    "an sEmpty elimination": (
        "Require Import Coq.Logic.StrictProp.\nDefinition zz (e : sEmpty) : False := match e with end.\n",
        PROOF,
    ),
    "Proof with a term": (
        "",
        "Proof (ltac:(intros; destruct (hSScond 1) as [[h|[h|h]] [h2 _]]; [tauto|tauto|discriminate])).",
    ),
    "Proof using Type": ("", PROOF.replace("Proof.", "Proof using Type.")),
    "Time Qed": ("", PROOF.replace("Qed.", "Time Qed.")),
    "a theorem in a comment": ("(* Theorem putnam_1962_a6 : True. *)\n", PROOF),
    "an Axiom in nested comments with a string": ('(* (* "*)" *) Axiom zz_ax : False. *)\n', PROOF),
    "a #[local] Ltac calling exact_no_check": ("#[local] Ltac zz := exact_no_check I.\n", PROOF),
    "hints of every kind": (
        "#[global] Hint Extern 0 => idtac : core.\n#[global] Hint Constants Opaque : core.\n"
        "Create HintDb zzdb discriminated.\n#[export] Hint Resolve Qeq_refl : core.\n",
        PROOF,
    ),
    "Require Export of libraries": (
        "From mathcomp Require Export ssreflect.\nRequire Export Coq.Program.Tactics.\n",
        PROOF,
    ),
    "allowed axioms used": (
        "Require Import Classical FunctionalExtensionality ProofIrrelevance.\n",
        in_proof("pose proof @classic. pose proof @functional_extensionality. pose proof @proof_irrelevance."),
    ),
}


@needs_coq
@pytest.mark.parametrize("case", thinned(sorted(VALID)))
def test_a_near_neighbour_is_accepted_on_the_full_profile(case: str) -> None:
    before, proof = VALID[case]
    v = stopping("putnam_1962_a6", a6(before, proof), Profile.FULL, Track.WITH_ANSWER)
    assert v.status == "accepted", failures(v)
