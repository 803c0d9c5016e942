"""Red team 36 on the Rocq gates, measured with coqc/coqchk 8.16.1.

**A classical search as a no-answer answer (G4, fixed).** The policy refuses an answer that picks "some
value with the property" (``epsilon``, ``ex_minn``, ``epsilon_smallest``, ``linear_search_from_0``), but an
answer could write the search out: ``match find (fun n => if excluded_middle_informative (n * n > 5) then
true else false) (seq 0 10) with Some n => n | None => 0 end`` is "the least ``n < 10`` with the question's
property". Its proof needs only a witness under the bound (minimality comes with the search), no tactic
can evaluate it, so the answer check said ``unknown`` and the verdict was ``accepted`` on the full profile.
The ingredient is a classical decision of an arbitrary proposition, a choice of branch: Coq's
``excluded_middle_informative`` (both), the reals' ``sig_not_dec``/``sig_forall_dec`` (``Rlogic``, and the
axioms of ``ClassicalDedekindReals``), Coquelicot's ``LPO``/``EM_dec`` family, mathcomp's ``pselect``,
``asbool``, the classical ``==`` on ``Prop`` (``gen_eq``) and ``\\in`` on a classical set (``set_predType``).
They are ``policy.answer_decision_operators``, read from the answer's kernel term as the choice operators
are, however the answer spelled them, in every answer but a set or predicate, where a decided condition
turned back into a proposition is the condition (and ``restated.py`` reads it so). boolp's record ``classic``
(``pselect`` and a choice structure for every type) and its classical choice structures join the choice
operators. No official answer uses one (``tests/adversarial/test_rocq_restated.py``, ``-m slow`` for all);
decisions of real comparisons (``Rle_dec``, which ``putnam_1996_a6``'s official answer uses, ``Req_EM_T``)
decide no other proposition and pass, as do a search whose test computes (``Nat.ltb``), which the answer
check then evaluates, and a classical decision in the proof.

**Tried, held** (text profile, refused by G2 or G3, or harmless; :data:`TEXT_PROBES`): options no rule knows
(``Firstorder Solver``, ``Keyed Unification``, ``Default Timeout``, ``Kernel Term Sharing``...), ``Number``/
``String Notation`` (numerals re-read), ``Declare Scope``, ``Register``, attributes on the pinned theorem, a
symbol tactic notation, ``Local Infix``. Lexing edges (:data:`COMMENTS`): ``(*)`` opens a comment, ``"*)"``
inside one is a string, a byte order mark is skipped; coqc agrees (the axiom inside is comment text).

**Left** (documented in ``docs/threat-model.md``): a search whose test is a real comparison (``Rlt_dec`` of a
sum), mathcomp's order on functions and ``==`` on a ``realType``: they decide only what they compare.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

PROBLEM = "zz_rt36"
HEADER = "Require Import Arith List Lia.\n"
LEAST = "zz_rt36_solution * zz_rt36_solution > 5 /\\ forall m, m * m > 5 -> zz_rt36_solution <= m"
STATEMENT = f"{HEADER}Definition zz_rt36_solution : nat := 3.\nTheorem zz_rt36 : {LEAST}.\nProof. Admitted.\n"
"""A "least n" question: the official answer 3."""
MINIMAL = (
    "split; [lia|]. intros m hm. destruct (le_lt_dec 3 m); [auto|]. assert (m <= 2) by lia.\n"
    "assert (m * m <= 4) by (apply (Nat.mul_le_mono m 2 m 2); lia). lia."
)


def _search(test: str, requires: str = "") -> str:
    """The least-n question answered by a search over ``seq 0 10`` with ``test`` (a function to ``bool``),
    proved by deciding the test at 0..3."""
    answer = f"match find ({test}) (seq 0 10) with Some n => n | None => 0 end"
    return (
        f"{HEADER}{requires}Definition zz_rt36_solution : nat := {answer}.\nTheorem zz_rt36 : {LEAST}.\nProof.\n"
        "unfold zz_rt36_solution; simpl.\n"
        + "".join(f"destruct (excluded_middle_informative ({k} > 5)); [lia|].\n" for k in (0, 1, 4))
        + f"destruct (excluded_middle_informative (9 > 5)); [|lia].\n{MINIMAL}\nQed.\n"
    )


CLASSICAL = "Require Import Coq.Logic.ClassicalDescription.\n"
ATTACK = _search("fun n => if excluded_middle_informative (n * n > 5) then true else false", CLASSICAL)


def _verdict(
    tmp_path: Path, candidate: str, profile: Profile, statement: str = STATEMENT, track: Track = Track.NO_ANSWER
) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, statement)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), track, options)


@needs_coq
def test_a_classical_search_is_no_answer(tmp_path: Path) -> None:
    found = failures(_verdict(tmp_path, ATTACK, Profile.FULL))
    assert set(found) == {"G4"} and "ClassicalDescription.excluded_middle_informative" in found["G4"], found


@needs_coq
@pytest.mark.slow
def test_a_computed_search_is_an_answer_the_check_evaluates(tmp_path: Path) -> None:
    candidate = (
        f"{HEADER}Definition zz_rt36_solution : nat := "
        "match find (fun n => 5 <? n * n) (seq 0 10) with Some n => n | None => 0 end.\n"
        f"Theorem zz_rt36 : {LEAST}.\nProof. unfold zz_rt36_solution; simpl. {MINIMAL} Qed.\n"
    )
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)
    assert verdict.answers["zz_rt36_solution"]["check"]["status"] == "confirmed", verdict.answers


ANY_STATEMENT = f"{HEADER}Definition zz_rt36_solution : nat := 3.\nTheorem zz_rt36 : {{}}.\nProof. Admitted.\n"
ANY = "zz_rt36_solution = zz_rt36_solution + 0"
"""A theorem every answer satisfies (not a restated question: its two sides differ), for the answer's words."""


def _any(answer: str, requires: str = "") -> str:
    return (
        f"{HEADER}{requires}Definition zz_rt36_solution : nat := {answer}.\nTheorem zz_rt36 : {ANY}.\n"
        "Proof. rewrite Nat.add_0_r. reflexivity. Qed.\n"
    )


DECISIONS = {
    "ClassicalEpsilon": (
        _any("if excluded_middle_informative (exists k, k > 4) then 3 else 4", "Require Import ClassicalEpsilon.\n"),
        "ClassicalEpsilon.excluded_middle_informative",
    ),
    "the reals' sig_not_dec": (
        _any("if Rlogic.sig_not_dec (exists k, k > 4) then 3 else 4", "Require Coq.Reals.Rlogic.\n"),
        "Rlogic.sig_not_dec",
    ),
    "Coquelicot's LPO": (
        _any(
            "if Markov.LPO (fun k => k > 4) (fun k => classic _) then 3 else 4",
            "From Coquelicot Require Markov.\nRequire Import Classical.\n",
        ),
        "Markov.LPO",
    ),
    "mathcomp's asbool under a let": (
        _any("let b := boolp.asbool (exists k, k > 4) in if b then 3 else 4", "From mathcomp Require boolp.\n"),
        "boolp.asbool",
    ),
    "mathcomp's \\in on a classical set": (
        _any(
            "if 3 \\in [set k : nat | exists m, m > k] then 3 else 4",
            "From mathcomp Require Import ssreflect ssrbool classical_sets.\nLocal Open Scope classical_set_scope.\n",
        ),
        "classical_sets.set_predType",
    ),
    "mathcomp's == on Prop": (
        _any(
            "if @eqtype.eq_op boolp.Prop_eqType (exists k, k > 4) True then 3 else 4",
            "From mathcomp Require eqtype boolp.\n",
        ),
        "boolp.Prop_eqType",
    ),
}
"""Other spellings of the class :func:`test_a_classical_search_is_no_answer` runs by default (``-m slow``)."""


@needs_coq
@pytest.mark.parametrize(("candidate", "name"), sampled(DECISIONS, set()))
def test_a_classical_decision_is_no_answer(tmp_path: Path, candidate: str, name: str) -> None:
    found = failures(_verdict(tmp_path, candidate, Profile.FULL, ANY_STATEMENT.format(ANY)))
    assert set(found) == {"G4"} and name in found["G4"] and "classically" in found["G4"], found


HONEST = {
    "a real comparison by Rle_dec": _any("Z.to_nat (up (if Rle_dec 0 1 then 2 else 3))", "Require Import Reals.\n"),
    "a nat comparison by le_lt_dec": _any("if le_lt_dec 3 4 then 3 else 4"),
    "a classical decision in the proof": (
        f"{HEADER}{CLASSICAL}Definition zz_rt36_solution : nat := 3.\nTheorem zz_rt36 : {ANY}.\n"
        "Proof. destruct (excluded_middle_informative (exists k, k > 4)); rewrite Nat.add_0_r; reflexivity. Qed.\n"
    ),
}


@needs_coq
@pytest.mark.slow
def test_boolps_record_of_choice_is_choice(tmp_path: Path) -> None:
    """mathcomp's ``classic`` holds ``pselect`` and a choice structure for every type: destructured, it is
    choice, refused in every answer (sets too)."""
    answer = "match boolp.classic with boolp.Build_mclassic sel _ => if sel (exists k, k > 4) then 3 else 4 end"
    found = failures(
        _verdict(tmp_path, _any(answer, "From mathcomp Require boolp.\n"), Profile.FULL, ANY_STATEMENT.format(ANY))
    )
    assert set(found) == {"G4"} and "`boolp.classic`" in found["G4"] and "by choice" in found["G4"], found


SET_HEADER = (
    "From mathcomp Require Import ssreflect ssrbool ssrnat classical_sets.\nLocal Open Scope classical_set_scope.\n"
)
SET_THEOREM = "Theorem zz_rt36 : zz_rt36_solution 3 /\\ ~ zz_rt36_solution 1.\n"
SET_STATEMENT = (
    f"{SET_HEADER}Definition zz_rt36_solution : set nat := [set k | 2 < k].\n{SET_THEOREM}Proof. Admitted.\n"
)


@needs_coq
@pytest.mark.slow
def test_a_set_answer_may_decide_membership(tmp_path: Path) -> None:
    """``x \\in A`` for a classical set is ``asbool (A x)``, but in a set answer the decided condition is turned
    back into a proposition: the condition itself. Such answers meet the restated check instead."""
    answer = "[set k | k \\in [set j : nat | 2 < j]]"
    candidate = (
        f"{SET_HEADER}Definition zz_rt36_solution : set nat := {answer}.\n{SET_THEOREM}"
        "Proof. rewrite /zz_rt36_solution /= !in_setE /=. by split. Qed.\n"
    )
    verdict = _verdict(tmp_path, candidate, Profile.FULL, SET_STATEMENT)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"a nat comparison by le_lt_dec"}))
def test_a_decision_that_is_no_choice_stays_an_answer(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.FULL, ANY_STATEMENT.format(ANY))
    assert verdict.status == "accepted", failures(verdict)


WITH_THEOREM = "Theorem zz_rt36 : forall n : nat, n + 0 = n.\n"
WITH_STATEMENT = f"{WITH_THEOREM}Proof. Admitted.\n"
WITH_PROOF = "Proof. intros n. induction n; simpl; auto. Qed.\n"


def _with_answer(tmp_path: Path, before: str, profile: Profile) -> Verdict:
    """The honest with-answer proof with ``before`` in front of its theorem."""
    candidate = f"{before}{WITH_THEOREM}{WITH_PROOF}"
    return _verdict(tmp_path, candidate, profile, WITH_STATEMENT, Track.WITH_ANSWER)


TEXT_PROBES = {
    "Set Firstorder Solver": ("Set Firstorder Solver auto.\n", "rejected"),
    "Number Notation": ("Number Notation nat Nat.of_num_uint Nat.to_num_uint : nat_scope.\n", "rejected"),
    "String Notation": ("String Notation nat Nat.of_num_uint Nat.to_num_uint : nat_scope.\n", "rejected"),
    "Declare Scope": ("Declare Scope zz_scope.\n", "rejected"),
    "Typeclasses Depth": ("Set Typeclasses Depth 1.\n", "rejected"),
    "Uniform Inductive Parameters": ("Set Uniform Inductive Parameters.\n", "rejected"),
    "Keyed Unification": ("Set Keyed Unification.\n", "rejected"),
    "Loose Hint Behavior": ('Set Loose Hint Behavior "Strict".\n', "rejected"),
    "Global Set Warnings": ('Global Set Warnings "+all".\n', "rejected"),
    "Unset Allow StrictProp": ("Unset Allow StrictProp.\n", "rejected"),
    "Private Polymorphic Universes": ("Set Private Polymorphic Universes.\n", "rejected"),
    "Kernel Term Sharing": ("Unset Kernel Term Sharing.\n", "rejected"),
    "Register": ("Register nat as zz.nat.\n", "rejected"),
    "Default Timeout": ("Set Default Timeout 1.\n", "rejected"),
    "Universe Minimization ToSet": ("Unset Universe Minimization ToSet.\n", "rejected"),
    "an attribute on the theorem": ('#[deprecated(since="x", note="y")]\n', "rejected"),
    "#[universes(polymorphic)] on the theorem": ("#[universes(polymorphic)]\n", "rejected"),
    "#[canonical=no] on the theorem": ("#[canonical=no]\n", "rejected"),
    "a symbol tactic notation": ('Tactic Notation "zz" "+" := idtac.\n', "rejected"),
    "Local Infix": ('Local Infix "+" := Nat.mul.\n', "rejected"),
    "Set Warnings": ('Set Warnings "-all".\n', "accepted"),
    "Set Printing Width": ("Set Printing Width 5.\n", "accepted"),
    "Hint Rewrite": ("Hint Rewrite plus_n_O : zz_db.\n", "accepted"),
    "Create HintDb": ("Create HintDb zz_db discriminated.\n", "accepted"),
    "Local Ltac": ("Local Ltac zz := idtac.\n", "accepted"),
    "a definition over SProp": ("Definition zz (A : SProp) := A.\n", "accepted"),
    "a universe-polymorphic definition": ("Definition zz@{u} : Type@{u} := nat.\n", "accepted"),
}
"""(what stands before the honest theorem, the text profile's verdict): options no rule knows, commands that
re-read numerals or declare scopes, attributes on the pinned theorem, and harmless neighbours."""


@pytest.mark.parametrize(("before", "status"), list(TEXT_PROBES.values()), ids=list(TEXT_PROBES))
def test_text_probes(tmp_path: Path, before: str, status: str) -> None:
    verdict = _with_answer(tmp_path, before, Profile.TEXT)
    assert verdict.status == status, failures(verdict)


COMMENTS = {
    "a comment opened by (*)": "(*) Axiom zz : 0 = 1. (* *) *)\n",
    "a string holding *) in a comment": '(* "*)" Axiom zz : 0 = 1. *)\n',
    "a byte order mark": "\ufeff",
}
"""Lexing edges the text gates read as coqc does: the axiom is comment text to both (G5 and G6 list none)."""


@needs_coq
@pytest.mark.parametrize("before", sampled(COMMENTS, {"a comment opened by (*)"}))
def test_lexing_edges_agree_with_coqc(tmp_path: Path, before: str) -> None:
    verdict = _with_answer(tmp_path, before, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
def test_each_decision_operator_is_a_library_constant(tmp_path: Path) -> None:
    """A misspelt full name would never match the print: coqc checks each one after loading its library."""
    loads = (
        "From Coq Require ClassicalDescription ClassicalEpsilon ChoiceFacts Reals.Rlogic.\n"
        "From Coq Require Reals.ClassicalDedekindReals.\n"
        "From mathcomp Require boolp classical_sets cardinality reals.\n"
        "From Coquelicot Require Markov.\n"
    )
    names = (*POLICY.answer_decision_operators, *(n for n in POLICY.answer_choice_operators if ".boolp." in n))
    (tmp_path / "names.v").write_text(loads + "".join(f"Check @{name}.\n" for name in names))
    run = subprocess.run(["coqc", "names.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
