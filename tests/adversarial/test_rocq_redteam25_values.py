"""Red team 25 on the Rocq answer check: ``PI`` to five places, trigonometry at rational multiples of ``PI``,
inverse trigonometry at roots, logarithms of powers, the power readings run again after known values.

On the vacuous ``putnam_2013_b2`` (every answer has a sound proof; official ``3``) only the answer check's
``differs`` keeps a wrong answer from being ``accepted``. The computed reading (``answer_values``) left these
wrong answers (each ``4``, or ``3`` plus a small amount) ``unknown``, so ``accepted`` on the full profile,
measured with the real coqc: ``PI - 1/8`` (it knew ``3 < PI <= 4`` only), ``exp 1 + 1/4`` (``exp 1 < 3``
only), ``sin (5 * PI / 6) * 8``, ``cos (2 * PI / 3) * (-8)`` (values known at ``PI/6``... and whole multiples
of ``PI`` only), ``asin (sqrt 2 / 2) * 16 / PI``, ``acos (sqrt 2 / 2) * 16 / PI``, ``atan (sqrt 3) * 12 / PI``
(inverse values known at ``0``, ``1``, ``+-1/2`` only), ``ln 8 / ln 2 + 1`` (a logarithm of a numeral power),
``sqrt 2 + sqrt 3`` and ``sqrt (sqrt 2) + 2`` (a square root known only by its square), ``Rpower (exp 1) (ln
4)`` (``ln (exp 1)`` read as ``1`` after the power lemmas had run). Fixed by meaning (``answer_bounds``): the
library's Machin-like bounds of ``PI``, ``exp 1`` to four places (``exp_ineq1`` at ``1/1024``, squared ten
times), arguments shown equal to a known point plus a whole multiple of ``PI``, inverse functions where the
argument's square is known, ``ln (b ^ k) = k * ln b``, and the exponent readings run a second time; lemmas the
harness's file proves (``Qed``). Honest answers in those spellings are never ``differs`` (a ``differs`` is a
``Qed``). Still ``unknown`` (measured): ``exp 1 + 0.2817`` (five places), ``cos (PI / 12) * 4``, ``ln 6 / ln 2``
(``ln 3`` known by no bound).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_bounds import BOUND_LEMMAS
from putnam_solver.core.provers.rocq.answer_values import COMPUTED, VALUE_LEMMAS
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.helpers import failures, needs_coq

WRONG = {
    "PI minus an eighth": "PI - 1/8",
    "PI minus 0.14": "PI - 0.14",
    "sin at five sixths of PI": "sin (5 * PI / 6) * 8",
    "cos at two thirds of PI": "cos (2 * PI / 3) * (-8)",
    "sin at thirteen sixths of PI": "sin (13 * PI / 6) * 8",
    "asin at sqrt 2 / 2": "asin (sqrt 2 / 2) * 16 / PI",
    "acos at sqrt 2 / 2": "acos (sqrt 2 / 2) * 16 / PI",
    "atan at sqrt 3": "atan (sqrt 3) * 12 / PI",
    "atan at 1 / sqrt 3": "atan (1 / sqrt 3) * 24 / PI",
    "asin at minus sqrt 3 / 2": "asin (- (sqrt 3 / 2)) * (-12) / PI",
    "ln of a numeral power": "ln 8 / ln 2 + 1",
    "ln of a power": "ln (2 ^ 3) / ln 2 + 1",
    "ln of a power of ten": "ln 1000 / ln 10 + 1",
    "Rpower of exp 1 at a logarithm": "Rpower (exp 1) (ln 4)",
    "exp 1 plus a quarter": "exp 1 + 1/4",
    "exp 1 plus PI": "exp 1 + PI - 2.8",
    "a sum of square roots": "sqrt 2 + sqrt 3",
    "a root of a root": "sqrt (sqrt 2) + 2",
    "ln of a product of exponentials": "ln (exp 1 * exp 2) + 1",
}
"""Wrong answers to ``putnam_2013_b2`` (official ``3``): ``unknown`` and ``accepted`` before."""

HONEST = {
    "sin at five sixths of PI": "sin (5 * PI / 6) * 6",
    "cos at two thirds of PI": "cos (2 * PI / 3) * (-6)",
    "asin at sqrt 2 / 2": "asin (sqrt 2 / 2) * 12 / PI",
    "atan at minus sqrt 3": "atan (- sqrt 3) * (-9) / PI",
    "ln of a numeral power": "ln 27 / ln 3",
    "Rpower of exp 1 at a logarithm": "Rpower (exp 1) (ln 3)",
    "PI cancelled": "PI - PI + 3",
    "exp 1 cancelled": "exp 1 / exp 1 * 3",
    "roots cancelled": "sqrt 9 + sqrt 2 - sqrt 2",
    "ln of a product": "ln (exp 3 * 1)",
    "a point no lemma knows": "sin (PI / 7) ^ 2 + cos (PI / 7) ^ 2 + 2",
}
"""The official ``3`` in the same spellings: never ``differs``."""

IN_CI = {
    "wrong: PI minus an eighth",
    "wrong: sin at five sixths of PI",
    "wrong: asin at sqrt 2 / 2",
    "wrong: ln of a numeral power",
    "wrong: Rpower of exp 1 at a logarithm",
    "wrong: exp 1 plus a quarter",
    "wrong: a sum of square roots",
    "official: sin at five sixths of PI",
    "official: Rpower of exp 1 at a logarithm",
    "official: roots cancelled",
    "official: a point no lemma knows",
}
"""One case of each reading runs in CI (each is a whole full-profile verdict); ``-m slow`` runs them all."""
NAMED = {
    **{f"wrong: {key}": (answer, "disputed") for key, answer in WRONG.items()},
    **{f"official: {key}": (answer, "accepted") for key, answer in HONEST.items()},
}
CASES = [pytest.param(*case, id=name, marks=() if name in IN_CI else pytest.mark.slow) for name, case in NAMED.items()]


def test_the_ci_sample_names_cases_that_exist() -> None:
    assert NAMED.keys() >= IN_CI


@needs_coq
@pytest.mark.parametrize(("answer", "expected"), CASES)
def test_an_answer_through_pi_multiples_roots_and_logarithms_is_read_by_its_value(answer: str, expected: str) -> None:
    """Every gate passes (the proof is sound); the answer check alone tells the wrong value from the official."""
    v = verdict(vacuous(answer))
    assert not any(failures(v).get(g) for g in ("G1", "G2", "G3", "G4", "G5", "G6")), failures(v)
    assert (v.status, check_status(v) == "differs") == (expected, expected == "disputed"), v.answers


def test_the_new_readings_are_proved_lemmas_named_in_full() -> None:
    """Each lemma a ``Qed`` in the harness's file, loaded with the others; the tactic names them in full."""
    assert BOUND_LEMMAS in VALUE_LEMMAS and "Admitted" not in BOUND_LEMMAS and "Axiom" not in BOUND_LEMMAS
    assert BOUND_LEMMAS.count("Qed.") == BOUND_LEMMAS.count("Lemma ")
    for name in (
        "pi_bounds",
        "e_bounds",
        "between",
        "shift",
        "same",
        "asin_quarter",
        "atan_third",
        "acos_neg",
        "ln_pow_pos",
    ):
        assert f"__PutnamBounds.{name}" in COMPUTED, name
