"""Red team 13 on the no-answer rule that an answer may not restate the question (Rocq, G4).

1. **The question restated under a quantifier over equals.** ``fun n => exists m, m = n /\\ cond m`` and
   ``fun n => forall m, m = n -> cond m`` are the condition itself, but neither ``tauto`` nor ``intuition``
   instantiates a quantifier. The check now rewrites by the one-point rule first (lemmas of the harness's,
   proved in place; the equation either way round and among the first conjuncts or premises), under the
   theorem's binders and in its premises, inside MathComp's set-builders once membership is read as
   application (``test_rocq_redteam12.py`` has the ``nat`` predicate cases).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.verify import GateStatus
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4
from tests.helpers import needs_coq

QUANTIFIED_SETS = {
    "putnam_1971_a2": "[set P : {poly R} | exists Q, (Q.[0] = 0 /\\ P = Q) /\\ "
    "(forall x : R, Q.[x ^+ 2 + 1] = (Q.[x]) ^+ 2 + 1)]",
    "putnam_1980_b1": "[set c | forall d, d = c -> forall x : R, (expR x + expR (-x)) / 2 <= expR (d * x^2)]",
}
"""MathComp set answers restating the question's condition under a quantifier over equals."""


@needs_coq
@pytest.mark.parametrize("problem_id", sorted(QUANTIFIED_SETS))
def test_a_set_restating_the_question_under_a_quantifier_is_refused(problem_id: str) -> None:
    result = g4(problem_id, answered(problem_id, QUANTIFIED_SETS[problem_id]))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
def test_an_honest_set_under_a_quantifier_over_equals_passes() -> None:
    """``putnam_1971_a2``'s official answer (``P = 'X``) written with a quantifier over equals."""
    answer = "[set P : {poly R} | exists Q, Q = 'X /\\ P = Q]"
    result = g4("putnam_1971_a2", answered("putnam_1971_a2", answer))
    assert result.status is GateStatus.PASSED, result.detail
