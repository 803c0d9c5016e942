"""Red team 22 on the Rocq answer check: wrong answers through library definitions with known values.

Red team 21 left ``unknown`` (and so ``accepted`` on the vacuous ``putnam_2013_b2``, where only the answer
check's ``differs`` keeps a wrong answer out) the answers its computed reading could not evaluate:
``Rpower 2 2``, ``Rpower 16 (1/2)``, ``cos (PI + PI) + 3``, ``IZR (up (1/2)) + 3``. Measured with the
real coqc, the same class held ``Rpower 4 0.5 + 2``, ``Rpower 8 (/3) + 2``, ``Rpower 3 2 - 5``, ``exp (ln 2
+ ln 2)``, ``cos (PI - PI) + 3``, ``sin (- PI) + 4``, ``IZR (Int_part (5/2)) + 2`` and ``IZR (up 3)``, all
``4`` for the official ``3``. Fixed by meaning (``answer_values``): the fourth attempt now rewrites the
addition formulas of ``cos``, ``sin`` and ``exp`` before the known values, keeps ``up`` and ``Int_part``
folded and adds their bounds (``archimed``, ``base_Int_part``), and turns ``Rpower`` at a rational
exponent, once computed to ``exp (y * ln x)``, into powers (``x ^ n``) or the equation ``r ^ b = x ^ a``,
from lemmas the harness's file proves from ``Rpower_pow`` and ``Rpower_mult``. A ``differs`` is still a
``Qed`` the kernel checks; honest answers in these spellings stay ``accepted``.

Still ``unknown``: numbers too large to compute within the attempt's time (``INR (fact 12)``), ``cos`` or
``sin`` of a multiple of ``PI`` other than the formulas reach (``cos (3 * PI)``), ``Rpower`` whose
exponent is not a rational numeral once computed (``Rpower 2 (INR 2)``, where ``INR`` computes to a sum).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_values import ARCHIMEDEAN, COMPUTED, POWERS, SUMS, VALUE_LEMMAS
from putnam_solver.core.provers.rocq.answers import DIFFERENT_COMPUTED, DIFFERENT_REALS, check_source
from putnam_solver.core.provers.rocq.challenge import statement_of
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, thinned

WRONG = {
    "Rpower at a whole exponent": "Rpower 2 2",
    "Rpower at a half": "Rpower 16 (1/2)",
    "Rpower at a decimal": "Rpower 4 0.5 + 2",
    "Rpower at an inverse": "Rpower 8 (/3) + 2",
    "Rpower less a number": "Rpower 3 2 - 5",
    "cos of a sum": "cos (PI + PI) + 3",
    "cos of a difference": "cos (PI - PI) + 3",
    "sin of an opposite": "sin (- PI) + 4",
    "exp of a sum": "exp (ln 2 + ln 2)",
    "up of a half": "IZR (up (1/2)) + 3",
    "up of a whole number": "IZR (up 3)",
    "Int_part": "IZR (Int_part (5/2)) + 2",
}
"""Wrong answers (each ``4``) to the vacuous ``putnam_2013_b2`` (official ``3``): ``unknown`` and ``accepted``
before red team 22."""

HONEST = {
    "Rpower at one": "Rpower 3 1",
    "Rpower at a half": "Rpower 9 (1/2)",
    "Rpower at a decimal": "Rpower 9 0.5",
    "Rpower at an inverse": "Rpower 27 (/3)",
    "Rpower less a number": "Rpower 3 2 - 6",
    "Rpower at zero": "Rpower 2 0 + 2",
    "cos of a sum": "cos (PI + PI) + 2",
    "up of a half": "IZR (up (1/2)) + 2",
    "Int_part": "IZR (Int_part (7/2))",
    "exp of ln": "exp (ln 3)",
}
"""The official ``3`` in the same spellings: a ``differs`` would be a false alarm (it never can be: a ``Qed``)."""


@needs_coq
@pytest.mark.parametrize("answer", thinned(WRONG))
def test_a_wrong_answer_through_a_library_value_is_disputed(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert all(not failures(v).get(g) for g in ("G1", "G2", "G3", "G4", "G5", "G6")), failures(v)
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, v.answers)


@needs_coq
@pytest.mark.parametrize("answer", thinned(HONEST))
def test_the_official_answer_through_a_library_value_stays_accepted(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert v.status == "accepted" and check_status(v) != "differs", (v.status, v.answers)


def test_the_computed_attempt_proves_its_lemmas_and_names_everything_in_full() -> None:
    """The lemmas are ``Qed``s in the harness's file; the tactic names the library by full paths."""
    statement = statement_of(pinned(COQ_BENCH).problems["putnam_2013_b2"])
    source = check_source(statement, "ne_computed", DIFFERENT_COMPUTED)
    assert VALUE_LEMMAS in source and "Admitted" not in VALUE_LEMMAS and "Axiom" not in VALUE_LEMMAS
    assert VALUE_LEMMAS.count("Qed.") == VALUE_LEMMAS.count("Lemma ")
    assert all(name.startswith("Coq.") for name in SUMS)
    assert POWERS in COMPUTED and ARCHIMEDEAN in COMPUTED
    assert VALUE_LEMMAS not in check_source(statement, "ne_reals", DIFFERENT_REALS)  # the third attempt as before
