"""Red team 24 on the Rocq answer check: inverse trigonometry at ``1/2``, exponents, square roots of squares.

On the vacuous ``putnam_2013_b2`` (every answer has a sound proof; official ``3``) only the answer check's
``differs`` keeps a wrong answer from being ``accepted``. The computed reading (``answer_values``) left these
wrong answers (each ``4``) ``unknown``, so ``accepted`` on the full profile, measured with the real coqc:
``asin (1/2) * 24 / PI``, ``acos (1/2) * 12 / PI`` (no library value at ``1/2``), ``Rpower 2 (1 + 1)`` (an
exponent no numeral), ``exp (ln 2 * 2)``, ``exp (ln 4 / 2) + 2`` (the logarithm on the left), ``Rpower (sqrt
2) 4`` (``lra`` cannot show ``0 < sqrt 2``), ``sqrt (sqrt 16) + 2`` (out of ``nra``'s degree). Fixed by
meaning (``answer_powers``): ``asin``/``acos`` at ``+-1/2`` rewritten to multiples of ``PI``, ``exp (ln x *
y)`` commuted and a non-numeral exponent put in the ring's normal form, a power's base shown positive as a
square root or an exponential, and ``sqrt`` of a numeral square computed; lemmas the harness's file proves
(``Qed``). Other spellings of the same class are read too (``Rpower 4 (1/2 + 1/2)``, ``asin (2/4)``, ``acos
(-(1/2))``, ``sqrt (sqrt 256)``). Still ``unknown`` (measured): ``Rpower (exp 1) (ln 4)``. Honest answers in those
spellings are never ``differs`` (a ``differs`` is a ``Qed``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_powers import POWER_LEMMAS
from putnam_solver.core.provers.rocq.answer_values import COMPUTED, VALUE_LEMMAS
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.helpers import failures, needs_coq, thinned

WRONG = {
    "asin at one half": "asin (1/2) * 24 / PI",
    "acos at one half": "acos (1/2) * 12 / PI",
    "asin at minus one half": "5 + asin (-(1/2)) * 6 / PI",
    "Rpower at a sum exponent": "Rpower 2 (1 + 1)",
    "exp of ln times a numeral": "exp (ln 2 * 2)",
    "exp of ln over a numeral": "exp (ln 4 / 2) + 2",
    "Rpower at a square root base": "Rpower (sqrt 2) 4",
    "sqrt of sqrt of a square": "sqrt (sqrt 16) + 2",
    "Rpower at a sum of halves": "Rpower 4 (1/2 + 1/2)",
    "Rpower at a difference exponent": "Rpower 2 (3 - 1)",
    "asin at another spelling of one half": "asin (2/4) * 24 / PI",
    "acos at minus one half": "acos (-(1/2)) * 6 / PI",
    "sqrt of sqrt of a larger square": "sqrt (sqrt 256)",
}
"""Wrong answers (each ``4``) to ``putnam_2013_b2`` (official ``3``): ``unknown`` and ``accepted`` before."""

HONEST = {
    "asin at one half": "asin (1/2) * 18 / PI",
    "acos at one half": "acos (1/2) * 9 / PI",
    "Rpower at a sum exponent": "Rpower 9 (1/4 + 1/4)",
    "exp of ln times a numeral": "exp (ln 3 * 1)",
    "exp of ln over a numeral": "exp (ln 9 / 2)",
    "Rpower at a square root base": "Rpower (sqrt 3) 2",
    "sqrt of sqrt of a square": "sqrt (sqrt 81)",
    "sqrt of a non-square": "sqrt 2 * sqrt 2 + 1",
}
"""The official ``3`` in the same spellings: never ``differs``."""

CASES = [*((a, "disputed") for a in WRONG.values()), *((a, "accepted") for a in HONEST.values())]
IDS = [*(f"wrong: {k}" for k in WRONG), *(f"official: {k}" for k in HONEST)]


@needs_coq
@pytest.mark.parametrize(("answer", "expected"), thinned(dict(zip(IDS, CASES, strict=True))))
def test_an_answer_through_powers_roots_and_inverse_trigonometry_is_read_by_its_value(
    answer: str, expected: str
) -> None:
    """Every gate passes (the proof is sound); the answer check alone tells the wrong value from the official."""
    v = verdict(vacuous(answer))
    assert not any(failures(v).get(g) for g in ("G1", "G2", "G3", "G4", "G5", "G6")), failures(v)
    assert (v.status, check_status(v) == "differs") == (expected, expected == "disputed"), v.answers


def test_the_new_readings_are_proved_lemmas_named_in_full() -> None:
    """Each lemma a ``Qed`` in the harness's file, loaded with the others; the tactic names them in full."""
    assert POWER_LEMMAS in VALUE_LEMMAS and "Admitted" not in POWER_LEMMAS and "Axiom" not in POWER_LEMMAS
    assert POWER_LEMMAS.count("Qed.") == POWER_LEMMAS.count("Lemma ")
    for name in ("asin_half", "acos_half", "exp_comm", "sqrt_sq"):
        assert f"__PutnamPowers.{name}" in COMPUTED, name
