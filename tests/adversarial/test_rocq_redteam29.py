"""Red team 29 on the Rocq gates, both directions (text gates, answer check), measured with coqc 8.16.1.

**Fixed (false rejections and inconsistencies left by red team 28):**

* A global hint (``Hint Resolve``, ``#[global] Hint Extern``, ``Hint Rewrite``, ``Remove Hints``) passed
  before the theorem and was refused after it, though ``Require`` replays it in the harness's files either
  way. By meaning: a hint acts only on the tactics that consult its database, and no harness file runs one
  after loading the candidate (``vernacular.HINT_TACTICS``; ``tests/unit/test_rocq_hint_reach.py`` keeps
  that true); instances (``typeclass_instances``, consulted by ``rewrite`` and ``lia``) stay refused. So a
  hint is now accepted in both places (measured: ``Hint Extern 0 => <a looping tactic>`` in ``core``,
  ``eq_true`` and ``arith``, global, before or after the theorem: a wrong answer to the vacuous
  ``putnam_2013_b2`` is still ``disputed``). A hint cannot change the statement's type (G5's type check
  decides on ``full``; before the theorem of a challenge that runs tactics it stays class 2).
* ``Set Hyps Limit`` (printing) and ``Set Nested Proofs Allowed`` were refused as unknown options. Nested
  proofs are now read as coqc reads them: a proof opened inside another ends before the outer one goes on
  (``scan.take_proof``, at most 8 deep; before, its ``Qed`` was read as the outer proof's end). A
  nested declaration is a helper: after the statement it sits in, or before the theorem judged as one.
* ``Goal T. ... Qed.`` was refused (red team 27 kept it so): it declares ``Unnamed_thm`` (then
  ``Unnamed_thm0``, ``Unnamed_thm1``, skipping declared names, measured), a helper like a ``Lemma``, whose
  term G5 reads as any field's; G2 now notes that name (an answer may not use it).
* Answer check: a tuple answer was compared whole, so a wrong yes/no part (``(True, -1, False, 0)`` for
  ``(True, -1, True, 0)``, ``putnam_1987_b4``'s shape) or a wrong real part (``(True, -2, True, 0)``) was
  ``unknown`` and the verdict ``accepted``; parts are now split (``injection``, ``f_equal2``) and each
  judged (``disputed``). ``~ False`` for ``True`` was ``unknown``: the same truth value, now ``confirmed``
  by propositional extensionality in the harness's file.

**Found and fixed (false acceptance on ``text``/``fast``):** a notation string names a constant in
``Arguments``, ``Opaque`` and ``Transparent`` (``Opaque zz "+".`` makes ``Rplus`` opaque, ``Local Arguments
"+" zz zz0 : rename.`` renames its arguments), and G2 read the first word (``zz``, a helper of the
candidate's) as the target: class 1 before the theorem. A string among the targets now counts as another
constant (class 2; G5 decides on ``full``).

**Found and fixed (G2 read a proof where coqc reads none, and none where coqc reads one):** ``Example`` is
a ``Definition`` to Coq, so ``Example e : T := t.`` opens no proof, but G2 read it as a theorem and opened
one: a sound ``Example`` with a body was refused ("never ends"), and, followed by a proof end, the commands
between passed G2 as tactics of that phantom proof, a top-level ``Property PI : R. Proof. exact 0%R.
Defined.`` among them, which made the statement's ``PI`` the candidate's ``0`` (``text`` accepted it; G4's
declared-name check and G5 refuse it on ``fast``/``full``). ``Property`` is a theorem keyword G2 did not
know (refused at top level, skipped as a tactic inside proofs, its name unread); and with nested proofs a
``Next Obligation`` inside a proof opens one. ``Example`` with a body now opens no proof, ``Property`` is a
theorem command like ``Lemma``, and an obligation inside a proof is read as a nested proof.

**Tried and refused already (lead B), before and after the theorem:** ``Local Notation``, ``Reserved
Notation``, ``Ltac2`` definitions and ``Ltac2 Eval`` at top level (the ``Ltac2`` library is not loadable
here: ``Require Import Ltac2.`` fails to compile, ``From Ltac2`` is outside the permitted roots), ``Module
Type``, ``Include``, ``Canonical Structure``/``#[canonical]``, ``Coercion``, ``Arguments`` of statement
constants (implicit status, scopes), ``Strategy``, ``Global Opaque``, ``Obligation Tactic``, ``Next
Obligation. Admitted.``, ``Solve All Obligations with admit``, ``Fail Axiom``, ``Redirect``, every
``Extraction`` command, ``Cd``, ``Load``, ``Add LoadPath``, ``Add ML Path``, ``Declare Scope``, ``Bind
Scope``, ``Implicit Types`` before the theorem; the same behind ``Time``/``Timeout``/``Fail`` prefixes
(judged as the command they run). ``#[instance]`` and ``#[coercion]`` on a ``Definition`` pass the text
gates but coqc 8.16 refuses them ("does not support this attribute"). ``From Coq Extra Dependency`` only
names a file for plugins (coqc 8.16 accepts it, nothing reads it without Elpi, which G3 refuses): class 2
before the theorem, passed after it. ``Set Printing All``/``Width``/``Depth`` and ``Unset Printing
Notations`` in the candidate do not reach G5's ``Print Assumptions`` (measured: a wrong answer with all of
them is ``disputed``, every compiled gate passing): the trusted files set their own printing.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.sentence_rules import goal_name
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import vacuous, verdict
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.helpers import (
    COQ_BENCH,
    failures,
    needs_coq,
    one_record_benchmark,
    pinned,
    rocq_full_verdict,
    sampled,
)

HINTS = {
    "Hint Resolve": "Hint Resolve Rle_refl : core.",
    "#[global] Hint Extern": "#[global] Hint Extern 1 => exact I : core.",
    "Hint Rewrite": "Hint Rewrite Rplus_0_r : zz_db.",
    "Hint Unfold": "Hint Unfold Rabs : core.",
    "Remove Hints": "Remove Hints Rle_refl : core.",
    "Timeout Hint": "Timeout 5 Hint Extern 0 => idtac : core.",
    "hint in a helper's proof": "Lemma zz : True. Proof. Hint Extern 0 => idtac : core. exact I. Qed.",
    "Hint Mode in core": "Hint Mode Rle - - : core.",
}
"""Hints judged alike before and after the theorem: accepted."""

HARMLESS = {
    "Set Hyps Limit": "Set Hyps Limit 10.",
    "Unset Hyps Limit": "Unset Hyps Limit.",
    "Set Nested Proofs Allowed": "Set Nested Proofs Allowed.",
    "Goal ... Defined": "Goal (1 + 1 = 2)%nat. Proof. reflexivity. Defined.",
    "nested lemma in a helper": (
        "Set Nested Proofs Allowed.\nLemma zz : True.\nProof.\nLemma zz0 : True. Proof. exact I. Qed.\nexact zz0. Qed."
    ),
    "Time Definition": "Time Definition zz := 1.",
    "Succeed Definition": "Succeed Definition zz := 1.",
    "Program obligation proved": "#[program] Definition zz : nat := _.\nNext Obligation. exact 0. Qed.",
    "Set Printing Depth": "Set Printing Depth 1.\nUnset Printing Notations.",
    "own Opaque": "Definition zz := 1%nat.\nOpaque zz.",
    "own Arguments": "Definition zz (n : nat) := n.\nArguments zz : simpl never.",
    "Goal after Succeed Lemma": "Succeed Lemma zz_h : True.\nGoal (1 + 1 = 2)%nat.\nreflexivity.\nQed.",
    "Example with a body": "Example zz : True := I.",
    "Example with a proof": "Example zz : True.\nProof. exact I. Qed.",
    "Property": "Property zz : True. Proof. exact I. Qed.",
}
"""Valid near-twins of the refused rows below: accepted before and after the theorem."""

REFUSED = {
    "hint in typeclass_instances": "#[local] Hint Extern 0 (Reflexive _) => idtac : typeclass_instances.",
    "Ltac redefinition": "Ltac lra ::= fail.",
    "Unset Guard Checking": "Unset Guard Checking.",
    "Global Set Nested Proofs Allowed": "Global Set Nested Proofs Allowed.",
    "Set Primitive Projections": "Set Primitive Projections.",
    "Goal ... Admitted": "Goal False. Admitted.",
    "Goal ... Abort": "Goal False. Abort.",
    "Local Notation": "Local Notation zz := 1%R.",
    "Reserved Notation": 'Reserved Notation "x +++ y" (at level 50).',
    "Ltac2 Eval": "Ltac2 Eval 1.",
    "Module Type": "Module Type ZZ. End ZZ.",
    "Canonical Structure": "Canonical Structure zz := Build_foo.",
    "Coercion": "Coercion INR : nat >-> R.",
    "Arguments of a statement constant": "Arguments Rplus : clear implicits.",
    "Strategy": "Strategy opaque [Rplus].",
    "Obligation Tactic": "Timeout 5 Obligation Tactic := idtac.",
    "Next Obligation. Admitted.": "Program Definition zz : {n : nat | n = 0} := 0.\nNext Obligation. Admitted.",
    "Fail Axiom": "Fail Axiom zz : False.",
    "Time Redirect": 'Time Redirect "zz" Print Rplus.',
    "Extraction": 'Extraction "zz.ml" Rplus.',
    "Cd": 'Cd "zz".',
    "Load": 'Load "zz".',
    "Add LoadPath": 'Add LoadPath "zz" as ZZ.',
    "Add ML Path": 'Add ML Path "zz".',
    "Time Declare ML Module": 'Time Declare ML Module "zz".',
    "a phantom proof after an Example": "Example zz : True := I.\nProperty PI : R. Proof. exact 0%R. Defined.",
    "a nested Property shadowing": (
        "Set Nested Proofs Allowed.\nLemma zz : True.\nProof.\nProperty PI : R. Proof. exact 0%R. Defined.\n"
        "exact I. Qed."
    ),
}
"""Refused before and after the theorem (G2 or G3)."""

NOTATION_TARGETS = {
    "Opaque through a notation": 'Opaque zz "+".',
    "Transparent through a notation": 'Transparent zz "+"%R.',
    "Local Arguments through a notation": 'Local Arguments "+" zz zz0 : rename.',
}
"""Settings of ``Rplus`` named through its notation beside a helper ``zz``: class 2 before the theorem."""

NESTED_REFUSED = {
    "the theorem nested in a helper": (
        lambda t: (
            t.replace(
                "Theorem putnam_2013_b2", "Set Nested Proofs Allowed.\nLemma zz : True.\nProof.\nTheorem putnam_2013_b2"
            ).rstrip()
            + "\nexact I. Qed.\n"
        ),
        "missing or changed",
    ),
    "a nested proof that never ends": (
        lambda t: t.replace("  clear hm.", "  Lemma zz : True. Proof. exact I.\n  clear hm."),
        "never ends",
    ),
    "proofs nested too deep": (
        lambda t: t.replace(
            "Theorem putnam_2013_b2",
            "".join(f"Lemma zz{i} : True. Proof.\n" for i in range(10))
            + "exact I. Qed.\n" * 10
            + "Theorem putnam_2013_b2",
        ),
        "nested over",
    ),
    "the answer names a Goal's theorem": (
        lambda t: t.replace("R := 4.", "R := Unnamed_thm.").replace(
            "Definition putnam_2013_b2_solution", "Goal R. exact 4%R. Defined.\nDefinition putnam_2013_b2_solution"
        ),
        "Unnamed_thm",
    ),
}


def _text_status_of(text: str) -> tuple[str, dict[str, str]]:
    """The text profile's verdict on the whole candidate ``text`` for ``putnam_2013_b2`` (no-answer)."""
    bench = pinned(COQ_BENCH)
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    v = run_gates(get_prover("rocq"), bench, bench.problems["putnam_2013_b2"], text.encode(), Track.NO_ANSWER, options)
    return v.status, failures(v)


def _both(addition: str) -> list[tuple[str, dict[str, str]]]:
    return [_text_status(addition, ""), _text_status("", addition)]


@pytest.mark.parametrize(
    "addition", sampled({**HINTS, **HARMLESS}, {"Hint Resolve", "Set Nested Proofs Allowed", "Example with a body"})
)
def test_hints_harmless_options_goals_and_twins_pass_before_and_after_the_theorem(addition: str) -> None:
    for status, failed in _both(addition):
        assert status == "accepted" and not failed, (addition, failed)


@pytest.mark.parametrize(
    "addition", sampled(REFUSED, {"hint in typeclass_instances", "Goal ... Abort", "a phantom proof after an Example"})
)
def test_what_reaches_the_harness_or_the_kernel_stays_refused(addition: str) -> None:
    for status, failed in _both(addition):
        assert status == "rejected" and set(failed) & {"G2", "G3"}, (addition, failed)


@pytest.mark.parametrize("setting", sampled(NOTATION_TARGETS, {"Opaque through a notation"}))
def test_a_setting_named_through_a_notation_is_not_the_candidates_own(setting: str) -> None:
    status, failed = _text_status(f"Definition zz := 1%nat.\n{setting}", "")
    assert status == "rejected" and "through elaboration only" in failed.get("G2", ""), failed
    status, failed = _text_status("", f"Definition zz := 1%nat.\n{setting}")  # not replayed: harmless after
    assert status == "accepted", failed


def test_a_nested_proof_in_the_theorems_proof_is_read_as_coqc_reads_it() -> None:
    """Before, the nested ``Qed`` ended the theorem's proof for G2, whose remaining tactics were then refused."""
    for nested in ("Lemma zz : True. Proof. exact I. Qed.", "Goal True. Proof. exact I. Qed."):
        text = vacuous("4", nested).replace(
            "Theorem putnam_2013_b2", "Set Nested Proofs Allowed.\nTheorem putnam_2013_b2"
        )
        status, failed = _text_status_of(text)
        assert status == "accepted" and not failed, failed


@pytest.mark.parametrize(("edit", "expected"), sampled(NESTED_REFUSED, {"the theorem nested in a helper"}))
def test_nesting_that_hides_the_theorem_or_never_ends_is_refused(edit: Callable[[str], str], expected: str) -> None:
    status, failed = _text_status_of(edit(vacuous("4")))
    assert status == "rejected" and expected in failed.get("G2", ""), failed


def test_a_goal_is_named_as_coqc_names_it() -> None:
    assert goal_name(set()) == "Unnamed_thm"
    assert goal_name({"Unnamed_thm"}) == "Unnamed_thm0"
    assert goal_name({"Unnamed_thm", "Unnamed_thm0", "zz"}) == "Unnamed_thm1"


TUPLE = (
    "Require Import Reals Lra.\nOpen Scope R_scope.\nDefinition yn_solution := (True, -1, True, 0).\n"
    "Theorem yn : (0 = 1 -> fst (fst (fst yn_solution))) /\\ (1 = 1).\nProof. Admitted.\n"
)
"""``putnam_1987_b4``'s answer shape on a statement every answer satisfies (its first part is vacuous)."""
TUPLE_ANSWERS = {
    "a wrong yes/no part": ("(True, -1, False, 0)", "disputed", "differs"),
    "a wrong real part": ("(True, -2, True, 0)", "disputed", "differs"),
    "~ False for True": ("(~ False, -1, True, 0)", "accepted", "confirmed"),
    "the official answer": ("(True, -1, True, 0)", "accepted", "confirmed"),
}


@needs_coq
@pytest.mark.parametrize(("answer", "status", "check"), sampled(TUPLE_ANSWERS, {"a wrong yes/no part"}))
def test_a_tuple_answer_is_compared_part_by_part(answer: str, status: str, check: str) -> None:
    """Before: ``unknown`` (and ``accepted``) for every row but the last."""
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "yn", TUPLE)
    candidate = TUPLE.replace(":= (True, -1, True, 0).", f":= {answer}.").replace(
        "Proof. Admitted.", "Proof. split; [intro h; exfalso; lra | reflexivity]. Qed."
    )
    v = rocq_full_verdict(bench, "yn", candidate, Track.NO_ANSWER)
    assert v.status == status and v.answers["yn_solution"]["check"]["status"] == check, (v.answers, failures(v))


LOOPING_HINTS = (
    "Ltac zz_loop := idtac; zz_loop.\nHint Extern 0 => zz_loop : core.\nHint Extern 0 => zz_loop : eq_true.\n"
    "#[global] Hint Extern 0 => zz_loop : arith.\nHint Rewrite Rplus_0_r : core.\nRemove Hints Rle_refl : core."
)
"""Global hints that would stop any harness tactic consulting ``core``, ``eq_true`` or ``arith``."""


@needs_coq
@pytest.mark.slow
def test_global_hints_goals_and_nested_proofs_leave_the_answer_check_alone() -> None:
    """A wrong answer to the vacuous ``putnam_2013_b2`` with all of red team 29's accepted additions."""
    extra = "Set Hyps Limit 3.\nSet Nested Proofs Allowed.\nGoal True. Proof. exact I. Qed.\n"
    text = vacuous("4", "Lemma zz_nested : True. Proof. exact I. Qed.").replace(
        "Theorem putnam_2013_b2", f"{extra}{LOOPING_HINTS}\nTheorem putnam_2013_b2"
    )
    found = verdict(f"{text}\n{LOOPING_HINTS.replace('zz_loop', 'zz_loop2')}\n")
    assert found.status == "disputed" and not failures(found), failures(found)


def test_an_obligation_inside_a_proof_is_a_nested_proof() -> None:
    """With nested proofs, ``Next Obligation`` inside a helper's proof opens the obligation's proof (measured):
    its ``Defined`` ends it, not the helper's proof, whose last tactics G2 then refused at top level."""
    helper = (
        "Set Nested Proofs Allowed.\nProgram Definition zzp : {n : nat | n = 0} := _.\nLemma zz : True.\nProof.\n"
        "Next Obligation. exact (exist _ 0 eq_refl). Defined.\nexact I. Qed."
    )
    status, failed = _text_status(helper, "")
    assert status == "accepted" and not failed, failed
