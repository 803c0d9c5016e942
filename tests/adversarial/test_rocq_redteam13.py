"""Red team 13 on the no-answer rule that an answer may not restate the question (Rocq, G4).

1. **The question restated under a quantifier over equals.** ``fun n => exists m, m = n /\\ cond m`` and
   ``fun n => forall m, m = n -> cond m`` are the condition itself, but neither ``tauto`` nor ``intuition``
   instantiates a quantifier. The check now rewrites by the one-point rule first (lemmas of the harness's,
   proved in place; the equation either way round and among the first conjuncts or premises), under the
   theorem's binders and in its premises, inside MathComp's set-builders once membership is read as
   application (``test_rocq_redteam12.py`` has the ``nat`` predicate cases).
2. **A set equal to the question's set, by a premise's condition.** ``putnam_2019_a1`` asks for the set
   ``A`` a premise describes pointwise (``hA : forall n, A n <-> exists A B C, ..``) as ``A = solution``:
   the premise's condition copied as the answer passed, since an equation of two sets met only syntactic
   identity and ``tauto`` never instantiates a premise's quantifier (the candidate proves it by
   ``Extensionality_Ensembles`` and ``hA``). Two sets or predicates equal are now compared pointwise (by
   functional and propositional extensionality), and a premise is applied at the goal's point.
3. **MathComp's set operations and nested set-builders.** ``putnam_1980_b1``'s condition as ``[set d |
   cond d] `&` setT``, ``.. `|` set0``, ``~` [set d | ~ cond d]`` or ``[set c | c \\in [set d | cond d]]``
   passed: ``setI``/``setU``/``setC``/``setD``/``setT``/``set0`` were never unfolded, and membership was
   read as application once. They are unfolded now (and Ensembles' ``Complement``/``Setminus``), with
   membership read again after each unfolding.
4. **The expression asked for under an identity function.** ``putnam_2020_a2``'s ``fun k => id (sum_n
   ..)`` is its own question, but a numeric answer meets syntactic identity only, and ``id`` (here the
   reals' ``Ranalysis1.id``, which ``Require Import Reals`` puts before the prelude's) was never unfolded.
   ``Datatypes.id``, ``Ranalysis1.id`` and ssreflect's ``idfun`` are unfolded with the answer now.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.verify import GateStatus
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4
from tests.helpers import needs_coq, thinned

QUANTIFIED_SETS = {
    "putnam_1971_a2": "[set P : {poly R} | exists Q, (Q.[0] = 0 /\\ P = Q) /\\ "
    "(forall x : R, Q.[x ^+ 2 + 1] = (Q.[x]) ^+ 2 + 1)]",
    "putnam_1980_b1": "[set c | forall d, d = c -> forall x : R, (expR x + expR (-x)) / 2 <= expR (d * x^2)]",
}
"""MathComp set answers restating the question's condition under a quantifier over equals."""


@needs_coq
@pytest.mark.parametrize("problem_id", thinned(sorted(QUANTIFIED_SETS)))
def test_a_set_restating_the_question_under_a_quantifier_is_refused(problem_id: str) -> None:
    result = g4(problem_id, answered(problem_id, QUANTIFIED_SETS[problem_id]))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
def test_an_honest_set_under_a_quantifier_over_equals_passes() -> None:
    """``putnam_1971_a2``'s official answer (``P = 'X``) written with a quantifier over equals."""
    answer = "[set P : {poly R} | exists Q, Q = 'X /\\ P = Q]"
    result = g4("putnam_1971_a2", answered("putnam_1971_a2", answer))
    assert result.status is GateStatus.PASSED, result.detail


PREMISE_COPY = "fun n => exists (A B C: Z), A >= 0 /\\ B >= 0 /\\ C >= 0 /\\ A ^ 3 + B ^ 3 + C ^ 3 - 3 * A * B * C = n"


@needs_coq
def test_a_set_copied_from_a_premise_is_refused() -> None:
    result = g4("putnam_2019_a1", answered("putnam_2019_a1", PREMISE_COPY))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
@pytest.mark.parametrize(
    "answer",
    thinned(
        ["fun n => Z.ge n 0 /\\ n mod 9 <> 3 /\\ n mod 9 <> 6", "fun n => n mod 9 <> 3 /\\ n mod 9 <> 6 /\\ n >= 0"]
    ),
)
def test_the_set_stated_outright_passes(answer: str) -> None:
    result = g4("putnam_2019_a1", answered("putnam_2019_a1", answer))
    assert result.status is GateStatus.PASSED, result.detail


COND_1980_B1 = "forall x : R, (expR x + expR (-x)) / 2 <= expR (d * x^2)"
SET_SPELLINGS = {
    "intersection with the full set": f"[set d : R | {COND_1980_B1}] `&` setT",
    "union with the empty set": f"[set d : R | {COND_1980_B1}] `|` set0",
    "complement of the complement": f"~` [set d : R | ~ ({COND_1980_B1})]",
    "membership inside a set-builder": f"[set c | c \\in [set d : R | {COND_1980_B1}]]",
}


@needs_coq
@pytest.mark.parametrize("spelling", thinned(sorted(SET_SPELLINGS), every=2))
def test_the_condition_through_set_operations_is_refused(spelling: str) -> None:
    result = g4("putnam_1980_b1", answered("putnam_1980_b1", SET_SPELLINGS[spelling]))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
def test_the_official_set_through_a_set_operation_passes() -> None:
    result = g4("putnam_1980_b1", answered("putnam_1980_b1", "[set x : R | x >= 1/2] `&` setT"))
    assert result.status is GateStatus.PASSED, result.detail


SUM_2020_A2 = "sum_n (fun j => 2 ^ (k - j) * Binomial.C (k + j) j) k"


@needs_coq
@pytest.mark.parametrize("identity", thinned(["id", "Datatypes.id"]))
def test_the_expression_under_an_identity_function_is_refused(identity: str) -> None:
    answer = f"(fun k => {identity} ({SUM_2020_A2}))"
    result = g4("putnam_2020_a2", answered("putnam_2020_a2", answer))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
def test_the_closed_form_under_an_identity_function_passes() -> None:
    result = g4("putnam_2020_a2", answered("putnam_2020_a2", "(fun k => id (4 ^ k))"))
    assert result.status is GateStatus.PASSED, result.detail
