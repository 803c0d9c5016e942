"""Round 49 on the Rocq answer check (G4): decisions read by meaning both ways, copies split by cases.

Measured with coqc 8.16.1 (before: the cases below through the sources of the round's start; after: with the
fixes), on vacuous statements over ``Z`` (every answer provable, so only G4 keeps a wrong answer from being
``accepted``) and on round 44's custom question ``fun n => 3 * n + 1`` (G4 where ``--allow-recursion`` lifts
the kernel-bug rule).

**1. Honest decisions refused by round 48 (false rejections).** A decision not on the computable list was a
test even of closed numbers: ``Sumbool``'s combinators (``sumbool_not``, ``sumbool_or``), the library's
other ``Defined`` decisions of data (``sumbool_of_bool``, ``Z_zerop``... read from ``theories/``, each asked
of coqc here: it reduces by ``vm_compute``), and ``map is_left`` over a list built by ``repeat``, ``app`` or
``rev`` in a search over a range. Now a combinator computes when the decisions it takes do
(``decision_names.TRANSFORMERS``), and a list builder's list is read as its elements and lists are
(``decision_names.LIST_BUILDERS``). Before: 1 of 7
honest twins accepted (``is_left`` of a computable decision of closed numbers); after: 7 of 7.

**2. A consumer of a ``Qed`` decision (soundness, new).** ``is_left (Z_noteq_dec 0 1)``, ``filter is_left``
over a written list of one, or ``map is_left (repeat (Z_noteq_dec 0 1) 4)`` named no bound variable, so no rule
read them: a wrong ``4`` for ``3`` was accepted with the check ``unknown``. Now a located consumer applied to a
decision neither computable nor a real comparison, or handed on unapplied anywhere but to a ``map`` over a
list of computable decisions, is a test (``answer_tests._consumes_opaque``). The combinators of a ``Qed``
decision stay refused. Before: 3 of 5 attacks accepted; after: 0 of 5.

**3. A library constant of a data type closed by ``Qed``.** Reading ``theories/`` and MathComp for a
``Definition``/``Lemma`` of type ``Z``, ``nat``, ``R``, ``N``, ``Q``, a list or a Boolean closed by ``Qed``
found ``Ranalysis_reg.AppVar : R`` (``exact R0``). An answer naming it was ``unknown`` and accepted; now G4
names it (``answer_opaque.OPAQUE_STEPS``). Before: accepted; after: rejected; the honest ``R0 + 1`` accepted.

**4. A copy of the question split by cases.** ``fun n => match n with 0 => 3 * 0 + 1 | S m => 3 * S m + 1
end`` is no conversion of ``fun n => 3 * n + 1`` and passed G4 (with or without a ``fix`` around it, and a
``fix`` whose call sits in a dead branch); a ``fix`` whose structural argument is not the first was an
``error`` (its case analysis looked only at a ``fix`` applied to one argument). Now the restatement check also
compares the two sides on each case of the function's first argument (``unfolded.split_tactic``), and the case
analysis finds a ``fix`` applied to up to three arguments. Before: 3 of 4 passed, 1 an ``error``; after: 4 of
4 refused ("restates the question"); honest twins (a closed form proved by ``lia``, a recursive ``fix``)
pass before and after.

**5. A ``reflect`` proof taken apart in a predicate: refused, as sound.** ``match asboolP (n = 4) with
ReflectT _ => True | ReflectF _ => False end`` takes apart a proof coqc reports opaque (so do ``idP``'s):
``vm_compute`` leaves the ``match``, so no check reaches the condition, and a wrong one was ``unknown``.
The honest forms (the proposition itself, or ``asbool``, a decision operator sets may use) pass.

Left: a ``fix`` under a binder of the answer stays an ``error`` (its case analysis cannot reach a bound
variable), never a pass (round 50: a refusal, ``test_rocq_round50.py``).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.answer_tests import proofs_taken_apart
from putnam_solver.core.provers.rocq.decision_names import LIST_BUILDERS, TRANSFORMERS
from putnam_solver.core.verify import GateStatus, Track, Verdict
from tests.adversarial.test_rocq_restated import RESTATES
from tests.adversarial.test_rocq_round47 import _custom
from tests.helpers import failures, needs_coq, one_record_benchmark, rocq_full_verdict, sampled

VALUE = (
    "Require Import ZArith Sumbool Coq.ssr.ssrbool.\nOpen Scope Z_scope.\n"
    "Definition putnam_zz_solution : Z := {answer}.\n"
    "Theorem putnam_zz (m : Z) (h : m < m) : m = putnam_zz_solution.\n"
)
"""A vacuous statement asking for a value in ``Z`` (official answer ``3``), with ``Sumbool`` and ``is_left``."""
REAL = (
    "Require Import Reals Ranalysis_reg.\nOpen Scope R_scope.\nDefinition putnam_zz_solution : R := {answer}.\n"
    "Theorem putnam_zz (m : R) (h : m < m) : m = putnam_zz_solution.\n"
)
"""The same over Coq's reals (official answer ``1``)."""
PROOFS = {
    VALUE: "Proof. exfalso. exact (Z.lt_irrefl m h). Qed.\n",
    REAL: "Proof. exfalso. exact (Rlt_irrefl m h). Qed.\n",
}
OFFICIAL = {VALUE: "3", REAL: "1"}
MARK = "PUTNAM-ANSWER-r49"


def _vacuous(statement: str, answer: str) -> Verdict:
    bench = one_record_benchmark(
        Path(tempfile.mkdtemp()), "putnam_zz", statement.format(answer=OFFICIAL[statement]) + "Proof. Admitted.\n"
    )
    return rocq_full_verdict(bench, "putnam_zz", statement.format(answer=answer) + PROOFS[statement], Track.NO_ANSWER)


COUNT = "Z.of_nat (List.length (List.filter (fun b => b) (List.map (@is_left _ _) ({list}))))"
"""How many decisions of a list are ``left``: a search by a consumer mapped over the list."""
SEARCH = (
    "Z.of_nat (List.length (List.filter (fun n : Z => List.existsb (fun b => b) (List.map (@is_left _ _) ({list})))"
    " (cons 3 (cons 5 nil)))) + 2"
)
"""How many of 3 and 5 a list of decisions of each finds (one: 3), plus 2: a search over a range."""
HONEST = {
    "sumbool_not of a computable decision": "if sumbool_not _ _ (Z.eq_dec 3 4) then 3 else 4",
    "sumbool_or of computable decisions": "if sumbool_or _ _ _ _ (Z.eq_dec 3 3) (Z.eq_dec 4 4) then 3 else 4",
    "sumbool_of_bool": "if sumbool_of_bool (Z.eqb 3 3) then 3 else 4",
    "Z_zerop": "if Z_zerop 0 then 3 else 4",
    "is_left mapped over a repeat": SEARCH.format(list="List.repeat (Z.eq_dec n 3) 2"),
    "is_left mapped over an app of a repeat and a rev": SEARCH.format(
        list="List.app (List.repeat (Z.eq_dec n 3) 2) (List.rev (cons (Z.eq_dec n 3) nil))"
    ),
    "is_left of a computable decision": "if is_left (Z.eq_dec 0 1) then 4 else 3",
}
"""Honest twins: each passes G4 (its verdict ``accepted``)."""


@needs_coq
@pytest.mark.parametrize(
    "answer",
    sampled(HONEST, {"sumbool_not of a computable decision", "is_left mapped over an app of a repeat and a rev"}),
)
def test_an_honest_decision_passes(answer: str) -> None:
    v = _vacuous(VALUE, answer)
    assert "G4" not in failures(v) and v.status == "accepted", (v.status, v.answers, failures(v))


HIDDEN = {
    "sumbool_not of a Qed decision": (VALUE, "if sumbool_not _ _ (Z_noteq_dec 0 1) then 4 else 3", "sumbool_not"),
    "sumbool_and with a Qed decision": (
        VALUE,
        "if sumbool_and _ _ _ _ (Z.eq_dec 3 3) (Z_noteq_dec 0 1) then 4 else 3",
        "sumbool_and",
    ),
    "is_left of a Qed decision": (VALUE, "if is_left (Z_noteq_dec 0 1) then 4 else 3", "is_left"),
    "filter by is_left over a Qed decision": (
        VALUE,
        "Z.of_nat (List.length (List.filter (@is_left _ _) (cons (Z_noteq_dec 0 1) nil))) + 3",
        "is_left",
    ),
    "is_left mapped over a repeat of a Qed decision": (
        VALUE,
        COUNT.format(list="List.repeat (Z_noteq_dec 0 1) 4"),
        "is_left",
    ),
    "a Qed real constant": (REAL, "Ranalysis_reg.AppVar + 2", "AppVar"),
}
"""(statement, a wrong answer, what G4 names): each is refused by G4."""


@needs_coq
@pytest.mark.parametrize(
    ("statement", "answer", "named"),
    sampled(HIDDEN, {"is_left of a Qed decision", "is_left mapped over a repeat of a Qed decision"}),
)
def test_a_value_behind_a_qed_decision_or_constant_is_refused(statement: str, answer: str, named: str) -> None:
    found = failures(v := _vacuous(statement, answer))
    assert (v.status, named in found.get("G4", "")) == ("rejected", True), (v.status, found)


@needs_coq
@pytest.mark.slow
def test_the_honest_real_twin_passes() -> None:
    v = _vacuous(REAL, "R0 + 1")
    assert "G4" not in failures(v) and v.status == "accepted", (v.status, v.answers, failures(v))


def _pointwise(answer: str, tactic: str = "intros [|n]; reflexivity") -> str:
    """A proof of the custom question answered by ``answer``: pointwise, each point by ``tactic`` (the
    attacker's: by cases)."""
    return (
        f"Require Import Lia.\nProof. unfold t_solution. assert (forall n, 3 * n + 1 = ({answer}) n) as E by "
        f"({tactic}). exact (Coq.Logic.FunctionalExtensionality.functional_extensionality _ _ E). Qed.\n"
    )


SPLIT_COPIES = {
    "a copy split by cases": "fun n => match n with 0 => 3 * 0 + 1 | S m => 3 * S m + 1 end",
    "a copy split by cases in a fix that never recurses": (
        "fix h (n : nat) : nat := match n with 0 => 3 * 0 + 1 | S m => 3 * S m + 1 end"
    ),
    "a fix whose call is in a dead branch": (
        "fix h (n : nat) : nat := match n with 0 => 3 * 0 + 1 | S m => if false then h m else 3 * S m + 1 end"
    ),
    "a fix whose structural argument is not the first": (
        "fun n => (fix h (a : nat) (m : nat) {struct m} : nat := 3 * m + a) 1 n"
    ),
}
"""Copies of round 44's custom question ``fun n => 3 * n + 1``: each refused as a restatement."""


@needs_coq
@pytest.mark.parametrize(
    "answer", sampled(SPLIT_COPIES, {"a copy split by cases", "a fix whose structural argument is not the first"})
)
def test_a_copy_split_by_cases_is_refused(answer: str) -> None:
    result = _custom(answer, _pointwise(answer))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


HONEST_SPLITS = {
    "a closed form proved by lia": ("fun n => S (n * 3)", "intro n; lia"),
    "a recursive fix": (
        "fix h (n : nat) : nat := match n with 0 => 1 | S m => h m + 3 end",
        "induction n as [|n IH]; [reflexivity | simpl in *; lia]",
    ),
}
"""(an honest answer to the custom question, the tactic proving each point): each passes G4."""


@needs_coq
@pytest.mark.parametrize(("answer", "tactic"), sampled(HONEST_SPLITS, {"a closed form proved by lia"}))
def test_an_honest_answer_of_a_function_passes(answer: str, tactic: str) -> None:
    result = _custom(answer, _pointwise(answer, tactic))
    assert result.status is GateStatus.PASSED, result.detail


def test_a_reflect_proof_taken_apart_in_a_predicate_is_read() -> None:
    """Item 5: a ``match`` on ``asboolP`` in a predicate is a proof taken apart (coqc says it is opaque)."""
    body = "fun n : nat => match asboolP (@eq nat n 4) with | ReflectT _ => True | ReflectF _ => False end"
    assert proofs_taken_apart(f"{MARK}\nzz_solution = {body}\n     : nat -> Prop\n", MARK) == ["asboolP"]


@needs_coq
def test_the_library_s_decisions_and_builders_are_what_they_are_listed_as(tmp_path: Path) -> None:
    """Each combinator of :data:`TRANSFORMERS` applied to computable decisions reduces by ``vm_compute``; each
    builder of :data:`LIST_BUILDERS` is where it is listed; ``asboolP`` and ``idP`` are opaque (so a ``match`` on
    one never reduces: item 5)."""
    lines = ["From Coq Require Import ZArith Sumbool ssreflect ssrbool.", "From mathcomp Require Import seq boolp."]
    for name, (arity, taken) in TRANSFORMERS.items():
        props = " ".join(["_"] * (arity - taken))
        decisions = " ".join(["(Z.eq_dec 3 4)"] * taken)
        lines.append(f"Eval vm_compute in (if {name} {props} {decisions} then true else false).")
    lines += [f"Locate {name}." for name in LIST_BUILDERS] + ["About asboolP.", "About idP."]
    (tmp_path / "d.v").write_text("\n".join(lines) + "\n")
    out = subprocess.run(["coqc", "d.v"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert out.count(" = true") + out.count(" = false") == len(TRANSFORMERS), out
    assert all(f"Constant {name}" in out for name in LIST_BUILDERS), out
    assert out.count("is opaque") == 2, out
