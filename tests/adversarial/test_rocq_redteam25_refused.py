"""Red team 25 on the Rocq text gates: new vernacular classes tried and correctly judged (a regression table).

Each addition was put into the published proof of the vacuous ``putnam_2013_b2`` with the wrong answer ``4``
(only the answer check's ``differs`` keeps it from ``accepted``), before the theorem or after its proof,
where ``Require`` could carry it into the harness's files. Classes: locality attributes on hints, options and
reduction settings (``#[export]``, ``Global``, in sections), ``Arguments`` changing scopes or implicit status,
scope commands (``Delimit``, ``Undelimit``, ``Close Scope``), ``Set Primitive Projections``, ``Unset Guard
Checking`` behind an attribute or a comment, ``Ltac2`` commands, ``Register``, ``Extraction``,
``Comments From .. Extra Dependency``, ``Module Type``, ``Canonical Structure``, ``Existing Instance``/``Class``,
``Obligation Tactic``, ``Admit Obligations``, ``Add Ring``/``Add Field``, ``Scheme``, and attributes or prefixes on
the challenge's own sentences. Every one is refused by G2 or G3 (text profile, no coqc).

Accepted by the text gates and measured harmless with the real coqc (``test_..._measured``): a library loaded
after the theorem (``Program``, MathComp, mathcomp-analysis, ``ssreflect``, which set global options
in the files that load them) and a ``Global`` scope command after it: the wrong answers ``4`` and ``sin (5 * PI /
6) * 8`` (the second read only by the computed attempt, whose lemmas use bullets and ``ring``) stay
``differs``, the verdict ``disputed``. Contradictory localities (``#[local] #[global] Hint``) pass the text gates
and are refused by coqc (G4: "Attribute for Locality specified twice"); red team 26 refuses them in the text gates too,
and ``Ltac2`` loaded after the theorem (no permitted library: ``test_rocq_redteam26_text.py``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, thinned

REFUSED = {
    "#[global] Arguments in a section after": ("", "Section S. #[global] Arguments Rplus : simpl never. End S."),
    "Arguments clearing scopes after": ("", "Arguments sqrt : clear scopes."),
    "Local Arguments changing a scope before": ("Local Arguments sqrt _%nat_scope.", ""),
    "#[export] Arguments after": ("", "#[export] Arguments Rplus : simpl never."),
    "Delimit Scope after": ("", "Delimit Scope R_scope with QQ."),
    "Undelimit Scope before": ("Undelimit Scope R_scope.", ""),
    "Close Scope before": ("Close Scope R_scope.", ""),
    "#[export] Strategy after": ("", "#[export] Strategy opaque [Rplus]."),
    "#[export] Opaque after": ("", "#[export] Opaque Rplus."),
    "#[export] Transparent after": ("", "#[export] Transparent Rplus."),
    "Strategy in a section": ("", "Section S. Strategy opaque [Rplus]. End S."),
    "Set Primitive Projections after": ("", "Set Primitive Projections."),
    "#[local] Unset Guard Checking": ("", "#[local] Unset Guard Checking."),
    "Unset Guard Checking around a comment": ("", "Unset Guard (* x *) Checking."),
    "#[bypass_check(guard=yes)]": ("#[bypass_check(guard=yes)] Definition zz := 1.", ""),
    "bypass_check spaced": ("#[ bypass_check ( universes ) ] Definition zz := 1.", ""),
    "Ltac2 Notation": ("", 'From Ltac2 Require Import Ltac2.\nLtac2 Notation "lra" := ().'),
    "Ltac2 mutable": ("", "From Ltac2 Require Import Ltac2.\nLtac2 mutable foo () := ()."),
    "Set Default Proof Mode": ("", 'Set Default Proof Mode "Ltac2".'),
    "Register Inline": ("", "Register Inline Rplus."),
    "Extraction Inline": ("", "Extraction Inline Rplus."),
    "Comments Extra Dependency after": ("", 'Comments From Coq Extra Dependency "Init/Prelude.vo".'),
    "Module Type": ("", "Module Type T. End T."),
    "Canonical Structure": ("", "Canonical Structure foo := 1%R."),
    "Existing Instance": ("", "Existing Instance Rle_refl."),
    "Existing Class": ("", "Existing Class Rle."),
    "#[global] Obligation Tactic": ("", "#[global] Obligation Tactic := idtac."),
    "Admit Obligations": ("", "Program Definition zz : {x : nat | x = 1} := _.\nAdmit Obligations."),
    "Add Ring after": ("", "Require Import Ring. Add Ring Rring2 : RTheory."),
    "Add Field before": ("Add Field Rfield2 : Rfield.", ""),
    "Declare Equivalent Keys": ("", "Declare Equivalent Keys Rplus Rminus."),
    "Export Set Default Timeout": ("", "Export Set Default Timeout 1."),
    "Global Set Keyed Unification": ("", "Global Set Keyed Unification."),
    "Scheme Equality": ("", "Scheme Equality for bool."),
}
"""(before the theorem, after its proof): each refused by G2 or G3. (A global hint after the theorem, ``Hint
Opaque`` or behind ``Timeout 3 #[global]``, is accepted since red team 29: no harness file consults a hint
database after loading the candidate.)"""

_T, _D = "Theorem putnam_2013_b2", "Definition putnam_2013_b2_solution"
PREFIXED = {
    "#[local] theorem": (_T, "#[local] "),
    "#[program] theorem": (_T, "#[program] "),
    "Polymorphic theorem": (_T, "Polymorphic "),
    "#[universes(polymorphic)] theorem": (_T, "#[universes(polymorphic)] "),
    "Timeout theorem": (_T, "Timeout 100 "),
    "#[program] solution": (_D, "#[program] "),
    "#[universes(polymorphic)] solution": (_D, "#[universes(polymorphic)] "),
}
"""An attribute or a prefix on the challenge's own sentence: G2 refuses it (the sentence differs)."""

MEASURED = {
    "Program loaded after": "Require Import Coq.Program.Program.",
    "MathComp loaded after": "From mathcomp Require Import all_ssreflect all_algebra.",
    "mathcomp-analysis loaded after": "From mathcomp Require Import classical_sets boolp reals topology.",
    "Global Open Scope after": "Global Open Scope nat_scope.",
    "#[global] Close Scope after": "#[global] Close Scope R_scope.",
}
"""Accepted by the text gates; measured not to reach the answer check."""


@pytest.mark.parametrize(("before", "after"), REFUSED.values(), ids=REFUSED.keys())
def test_vernacular_that_reaches_later_text_or_the_harness_is_refused(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "rejected" and set(failed) & {"G2", "G3"}, failed


def _text_verdict(text: str) -> Verdict:
    bench = pinned(COQ_BENCH)
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    return run_gates(
        get_prover("rocq"), bench, bench.problems["putnam_2013_b2"], text.encode(), Track.NO_ANSWER, options
    )


@pytest.mark.parametrize(("sentence", "prefix"), PREFIXED.values(), ids=PREFIXED.keys())
def test_a_prefix_on_a_challenge_sentence_is_refused(sentence: str, prefix: str) -> None:
    v = _text_verdict(vacuous("4").replace(sentence, prefix + sentence))
    assert v.status == "rejected" and failures(v).get("G2"), failures(v)


def test_a_proof_with_its_own_proof_options_still_passes_the_text_gates() -> None:
    """Valid: ``Proof using All``, ``Proof with``, ``Defined`` for ``Qed`` change nothing of the statement."""
    for old, new in (("Proof.", "Proof using All."), ("Proof.", "Proof with auto."), ("Qed.", "Defined.")):
        v = _text_verdict(vacuous("4").replace(old, new, 1))
        assert v.status == "accepted" and not failures(v), (new, failures(v))


@needs_coq
@pytest.mark.parametrize("after", thinned(MEASURED))
@pytest.mark.parametrize("answer", [pytest.param("4", marks=pytest.mark.slow), "sin (5 * PI / 6) * 8"])
def test_a_library_or_scope_after_the_theorem_leaves_a_wrong_answer_disputed(answer: str, after: str) -> None:
    assert _text_status("", after)[0] == "accepted"
    v = verdict(f"{vacuous(answer)}\n{after}\n")
    assert not failures(v) and v.status == "disputed" and check_status(v) == "differs", (failures(v), v.answers)
