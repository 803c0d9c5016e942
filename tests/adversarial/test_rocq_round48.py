"""Round 48 on the Rocq answer check (G4): a condition behind a proof, a value out of an opaque witness.

Measured with coqc 8.16.1 (before: this file against the sources of the round's start; after: with the
fixes), on vacuous statements over ``Z`` where every answer is provable, so only G4 keeps a wrong answer from
being ``accepted``.

**1. A set or predicate answer behind a proof taken apart.** Round 47 refused a value answer that takes a
proof of ``eq``/``and``/``True`` (or a reflection, a specification) apart, but read value answers only: a
predicate ``fun n => match Z.lt_0_1 with eq_refl => n = 4 end`` (a wrong ``n = 4`` for ``n = 3``; the ``match``
on a ``Qed`` proof never reduces, so the logic step and the answer check meet a term they cannot open) was
accepted. Now the rule that a ``match`` may not take a proof apart reads every answer but a yes/no one (whose
truth-value rule is stricter). Before: 2 of 2 accepted; after: 2 of 2 rejected; honest twins 2 of 2 accepted.

**2. A value behind a library decision closed by ``Qed``.** G4 read a ``match`` on a decision (``left``/``right``
patterns) as a test only where it names a variable the answer binds; of closed numbers every decision passed,
as Coq's real comparisons should (the answer check splits them into cases and decides each by ``lra``). But
``if Z_noteq_dec 0 1 then 4 else 3`` (``ZArith_dec.v``: ``Qed``, ``About`` says opaque, ``Eval compute``
leaves the ``if``) is a wrong ``4`` for ``3`` that no check computes: accepted with the check ``unknown``. Now
a decision neither located as computable (``decision_names.COMPUTABLE_DECISIONS``) nor a real comparison
(``answer_tests.REAL_DECISIONS``) is a test even of closed numbers. Before: 1 of 1 accepted; after: rejected;
the honest ``if Z_lt_dec 0 1 then 3 else 4`` (computable) accepted before and after.

Tried and refused before and after: a value out of a ``Qed`` lemma's witness (``Zdiv_eucl_exist``) by a
``match``, a ``let (qr, _) :=``, ``sig_rect`` or ``sig_rec`` (``policy.answer_choice_operators``: ``exist``
and the ``sig`` recursors). Honest twins (a pair taken apart, ``Z.div_eucl``'s quotient) accepted.

Left: a library constant of a data type closed by ``Qed`` named bare (none of type ``Z`` or ``nat`` found
here); a transparent library decision that is not located (``Sumbool.sumbool_not``) is now refused, fail
closed; a classical reflection taken apart in a predicate (``asboolP``'s ``ReflectT``) is refused as a proof
taken apart, where the decision operators themselves are allowed in sets.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.answer_tests import proofs_taken_apart, searched_tests
from putnam_solver.core.verify import Track, Verdict
from tests.helpers import failures, needs_coq, one_record_benchmark, rocq_full_verdict, sampled

PREDICATE = (
    "Require Import ZArith.\nOpen Scope Z_scope.\nDefinition putnam_zz_solution : Z -> Prop := {answer}.\n"
    "Theorem putnam_zz (m : Z) (h : m < m) : putnam_zz_solution m.\n"
)
"""A vacuous statement asking for a predicate over ``Z`` (official answer ``fun n => n = 3``)."""
VALUE = (
    "Require Import ZArith.\nOpen Scope Z_scope.\nDefinition putnam_zz_solution : Z := {answer}.\n"
    "Theorem putnam_zz (m : Z) (h : m < m) : m = putnam_zz_solution.\n"
)
"""A vacuous statement asking for a value in ``Z`` (official answer ``3``)."""
PROOF = "Proof. exfalso. exact (Z.lt_irrefl m h). Qed.\n"
OFFICIAL = {PREDICATE: "fun n => n = 3", VALUE: "3"}


def _vacuous(statement: str, answer: str) -> Verdict:
    bench = one_record_benchmark(
        Path(tempfile.mkdtemp()), "putnam_zz", statement.format(answer=OFFICIAL[statement]) + "Proof. Admitted.\n"
    )
    return rocq_full_verdict(bench, "putnam_zz", statement.format(answer=answer) + PROOF, Track.NO_ANSWER)


HIDDEN = {
    "a predicate behind a Qed proof of an equation": (
        PREDICATE,
        "fun n => match Z.lt_0_1 with eq_refl => n = 4 end",
        "Z.lt_0_1",
    ),
    "a predicate behind a Qed proof of an iff": (
        PREDICATE,
        "fun n => match Z.lt_succ_r 0 0 with conj _ _ => n = 4 end",
        "Z.lt_succ_r",
    ),
    "a Qed decision of closed integers": (VALUE, "if Z_noteq_dec 0 1 then 4 else 3", "Z_noteq_dec"),
    "a value out of an opaque witness by sig_rect (already refused)": (
        VALUE,
        "@sig_rect _ _ (fun _ => Z) (fun qr _ => fst qr) (Zdiv_eucl_exist (eq_refl : 2 > 0) 9)",
        "sig_rect",
    ),
    "a value out of an opaque witness by sig_rec (already refused)": (
        VALUE,
        "@sig_rec _ _ (fun _ => Z) (fun qr _ => fst qr) (Zdiv_eucl_exist (eq_refl : 2 > 0) 9)",
        "sig_rec",
    ),
}
"""(statement, a wrong answer, what G4 names): before, each but the two already refused was accepted; now G4
refuses each."""


@needs_coq
@pytest.mark.parametrize(
    ("statement", "answer", "named"),
    sampled(HIDDEN, {"a predicate behind a Qed proof of an equation", "a Qed decision of closed integers"}),
)
def test_an_answer_no_computation_reaches_is_refused(statement: str, answer: str, named: str) -> None:
    found = failures(v := _vacuous(statement, answer))
    assert (v.status, named in found.get("G4", "")) == ("rejected", True), (v.status, found)


HONEST = {
    "the official predicate": (PREDICATE, "fun n => n = 2 + 1"),
    "a predicate by a computable test": (PREDICATE, "fun n => Z.eqb n 3 = true"),
    "a pair taken apart": (VALUE, "match (3, 4) with (a, _) => a end"),
    "Z.div_eucl's quotient": (VALUE, "fst (Z.div_eucl 7 2)"),
    "a computable decision of closed integers": (VALUE, "if Z_lt_dec 0 1 then 3 else 4"),
}
"""Honest twins: each passes G4 (its verdict ``accepted``)."""


@needs_coq
@pytest.mark.parametrize(("statement", "answer"), sampled(HONEST, {"the official predicate", "a pair taken apart"}))
def test_an_honest_twin_passes(statement: str, answer: str) -> None:
    v = _vacuous(statement, answer)
    assert "G4" not in failures(v) and v.status == "accepted", (v.status, v.answers, failures(v))


MARK = "PUTNAM-ANSWER-r48"
PRINTS = {
    "an equation's proof": (
        "fun n : Z => match Z.lt_0_1 in (eq _ c) return Prop with | eq_refl => n = 4 end",
        ["Z.lt_0_1"],
    ),
    "an iff's proof": ("fun n : Z => match Z.lt_succ_r Z0 Z0 with | conj _ _ => n = 4 end", ["Z.lt_succ_r"]),
    "a reflection": ("fun n : nat => match leqP n 4 with | LeqNotGtn _ => True | GtnNotLeq _ => False end", []),
    "a reflect proof": (
        "fun n : nat => match idP (n == 4) with | ReflectT _ => True | ReflectF _ => False end",
        ["idP"],
    ),
    "a decision": ("fun n : Z => match Z.eq_dec n 3 with | left _ => True | right _ => False end", []),
    "a pair": ("fun n : Z => match pair n 3 with | pair a b => a = b end", []),
}
CLOSED = {
    "a Qed decision": ("match Z_noteq_dec (Zpos xH) Z0 with | left _ => Zpos xH | right _ => Z0 end", ["Z_noteq_dec"]),
    "a real comparison": ("match Rle_dec (IZR Z0) (IZR (Zpos xH)) with | left _ => Zpos xH | right _ => Z0 end", []),
    "a located computable decision unlocated": (
        "match Z_lt_dec Z0 (Zpos xH) with | left _ => Zpos xH | right _ => Z0 end",
        ["Z_lt_dec"],
    ),
}
"""(a value answer's print deciding closed numbers, what ``searched_tests`` names): a decision that is neither
located as computable (no ``Locate`` printed here) nor a real comparison is a test (round 48)."""


@pytest.mark.parametrize(("body", "named"), list(CLOSED.values()), ids=list(CLOSED))
def test_a_closed_decision_no_computation_reaches_is_read(body: str, named: list[str]) -> None:
    assert searched_tests(f"{MARK}\nzz_solution = {body}\n     : Z\n", MARK) == named


"""(a set or predicate answer's print, what :func:`proofs_taken_apart` names): only a ``match`` whose patterns or
``in`` clause show a proof. ``leqP``'s own patterns (``LeqNotGtn``) are read by their ``in`` clause only, which
this print leaves out."""


@pytest.mark.parametrize(("body", "named"), list(PRINTS.values()), ids=list(PRINTS))
def test_a_predicate_s_proofs_taken_apart_are_read(body: str, named: list[str]) -> None:
    output = f"{MARK}\nzz_solution = {body}\n     : Z -> Prop\n"
    assert proofs_taken_apart(output, MARK) == named
    assert proofs_taken_apart("nothing printed\n", MARK) is None
