"""Red team 22 (values) on the Rocq answer check: naturals in binary, ``cos``/``sin`` at multiples of ``PI``.

Measured with the real coqc on the current check, the computed reading (``answer_values``) still left
``unknown`` (so ``accepted`` on the vacuous ``putnam_2013_b2``, official ``3``) ``cos (4 * PI) + 3``,
``sin (3 * PI) + 4``, ``Rpower 2 (INR 2)`` and ``INR (fact 12)``: only ``PI`` and ``2 * PI`` were known
points, ``INR 2`` computed to ``1 + 1``, which the ``Rpower`` lemmas do not read, and ``fact 12`` overflowed
the stack in unary. ``sqrt 16 + 1``, ``Rabs (-4)``, ``Rmax 2 4``, ``Rmin 4 5``, ``IZR (Z.of_nat 4)``,
``INR (Nat.pow 2 2)``, ``/ (1/4)``, ``powerRZ 2 (-1) + 3`` and ``cos (INR 2 * PI)`` were already
``differs``. Fixed by meaning (``answer_exact``): before computing, ``INR (fact n)`` becomes the factorial in
binary integers, ``INR`` of products, sums and powers those of reals, ``INR n`` the numeral ``IZR n``, and
``cos``/``sin`` at a whole multiple of ``PI`` (``k * PI`` or ``PI * k``) their values, from lemmas the
harness's file proves (``Qed``).

The default run checks one form of each reading; ``-m slow`` checks every form.

Still ``unknown``: multiples not written as one product of a numeral and ``PI`` (``cos (2 * 2 * PI)``,
``cos (PI / 2 * 8)``), sums of multiples beyond the addition formulas' rounds, naturals built from
operations other than products, sums, powers and the factorial that are too large for unary computation.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_exact import EXACT_LEMMAS, MULTIPLES, NATURALS
from putnam_solver.core.provers.rocq.answer_values import COMPUTED, VALUE_LEMMAS
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.adversarial.test_rocq_redteam19_answers import status, unsound
from tests.helpers import failures, needs_coq, sampled

WRONG = {
    "cos at four PI": "cos (4 * PI) + 3",
    "sin at three PI": "sin (3 * PI) + 4",
    "cos at three PI": "cos (3 * PI) + 3",
    "cos at a negative multiple": "cos (-3 * PI) + 3",
    "cos at INR times PI": "cos (INR 4 * PI) + 3",
    "cos at PI times a numeral": "cos (PI * 4) + 3",
    "sin at PI times a negative": "sin (PI * (-3)) + 4",
    "Rpower at an INR exponent": "Rpower 2 (INR 2)",
    "a large factorial": "INR (fact 12)",
    "a ratio of large factorials": "INR (fact 12) / INR (fact 11) - 8",
    "a large power of naturals": "INR (Nat.pow 2 30) / 1073741824 + 3",
}
"""Wrong answers (``4`` or ``2``) to the vacuous ``putnam_2013_b2`` (official ``3``): ``unknown`` before."""

HONEST = {
    "cos at four PI": "cos (4 * PI) + 2",
    "sin at three PI": "sin (3 * PI) + 3",
    "cos at INR times PI": "cos (INR 2 * PI) + 2",
    "cos at PI times a numeral": "cos (PI * 4) + 2",
    "Rpower at an INR exponent": "Rpower 3 (INR 1)",
    "a ratio of large factorials": "INR (fact 12) / INR (fact 11) - 9",
    "a small factorial": "INR (fact 3) / 2",
    "Z.of_nat": "IZR (Z.of_nat 3)",
    "Rabs": "Rabs (-3)",
    "Rmax": "Rmax 2 3",
}
"""The official ``3`` in the same spellings: never ``differs`` (it cannot be: a ``differs`` is a ``Qed``)."""


@needs_coq
@pytest.mark.parametrize("answer", sampled(WRONG, {"cos at PI times a numeral", "a ratio of large factorials"}))
def test_a_wrong_answer_through_a_multiple_of_pi_or_a_natural_is_disputed(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert all(not failures(v).get(g) for g in ("G1", "G2", "G3", "G4", "G5", "G6")), failures(v)
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, v.answers)


@needs_coq
@pytest.mark.parametrize("answer", sampled(HONEST, {"cos at INR times PI", "a small factorial"}))
def test_the_official_answer_through_the_same_definitions_stays_accepted(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert v.status == "accepted" and check_status(v) != "differs", (v.status, v.answers)


OTHER = {
    "wrong, cos at four PI": ("cos (4 * PI) + 6", "disputed", "differs"),
    "wrong, a ratio of factorials": ("INR (fact 12) / INR (fact 11) - 5", "disputed", "differs"),
}


@needs_coq
@pytest.mark.parametrize(("answer", "verdict_", "check"), sampled(OTHER, {"wrong, cos at four PI"}))
def test_another_real_answer_problem_disputes_the_wrong_forms(answer: str, verdict_: str, check: str) -> None:
    """``putnam_1998_b1`` (official ``6``, Coquelicot), its answer "proved" through Coq 8.16's guard bug."""
    assert status(unsound("putnam_1998_b1", answer), "putnam_1998_b1") == (verdict_, check)


@needs_coq
@pytest.mark.parametrize("answer", sampled({"cos": "cos (4 * PI) + 5", "fact": "INR (fact 3)"}, {"fact"}))
def test_another_real_answer_problem_keeps_the_honest_forms(answer: str) -> None:
    v = unsound("putnam_1998_b1", answer)
    assert v.answers["putnam_1998_b1_solution"]["check"]["status"] != "differs", v.answers


def test_the_exact_readings_are_proved_lemmas_named_in_full() -> None:
    """Each lemma a ``Qed`` in the harness's file; the tactic names the library and the lemmas in full."""
    assert EXACT_LEMMAS in VALUE_LEMMAS and "Admitted" not in EXACT_LEMMAS and "Axiom" not in EXACT_LEMMAS
    assert EXACT_LEMMAS.count("Qed.") == EXACT_LEMMAS.count("Lemma ")
    assert COMPUTED.startswith(NATURALS) and MULTIPLES in COMPUTED
    assert all(w.startswith(("?Coq.", "?__Putnam")) for w in NATURALS.split() if w.startswith("?"))
