"""Red team 23 on the Rocq answer check: values outside a function's domain, and inverse trigonometry.

Coq's reals give every function a value everywhere: ``/ 0 = 0`` (the library's ``Rinv_0``), ``ln x = 0``
for ``x <= 0`` (``ln`` is a ``match`` on ``Rlt_dec 0 x``), ``sqrt x = 0`` for ``x <= 0`` (``sqrt_neg_0``),
so ``tan (PI / 2) = sin (PI / 2) / cos (PI / 2) = 0``. The answer check read none of these: ``lra`` takes
``/ 0``, ``ln 0`` or ``sqrt (-16)`` as an unknown atom, so a wrong answer written through them was
``unknown`` and, on the vacuous ``putnam_2013_b2`` (every answer has a sound proof; official ``3``), the
verdict ``accepted`` on the full profile instead of ``disputed``: ``1/0 + 4``, ``/ (2 - 2) + 4``,
``4 - / 0``, ``ln 0 + 4``, ``ln (1 - 1) + 4``, ``4 - 5 * ln (-2)``, ``4 - sqrt (-16)``, ``tan (PI/2) + 4``,
Coquelicot's ``real (Rbar_inv 0) + 4`` (all ``4``), measured with the real coqc. So was ``atan 1 * 16 /
PI`` (``atan 1 = PI / 4``, ``Ratan.atan_1``, was not among the known values). Fixed by meaning
(``answer_values``): the computed reading unfolds ``tan``, knows ``atan 1``, ``asin 0``, ``asin 1``, ``acos
0``, ``acos 1``, and rewrites ``/ x``, ``ln x`` and ``sqrt x`` to ``0`` wherever ``lra`` shows ``x = 0`` (``x
<= 0``), by lemmas the harness's file proves (``Qed``). Honest answers in those spellings stay ``accepted``.

A value outside a domain reached through another function is read too, the known values being rewritten
again after (``cos (ln 0) + 3``, ``sin (/ 0) + 4``). The library's values of ``cos`` and ``sin`` at ``PI / 3``,
``PI / 6`` and ``PI / 4`` (``Rtrigo_calc``) were no known values either: ``2 * cos (PI/3) + 3``, ``tan (PI/4)
+ 3`` were ``unknown``; they are known values now. Still ``unknown`` (measured): inverse trigonometric
functions at other points (``asin (1/2) * 24 / PI``, ``acos (1/2) * 12 / PI``, both ``4``).

And a candidate's spelling chose ``unknown``: before any tactic ran, the check called an answer "not a
closed form" (``unknown``, settled, so a verdict cache kept it) when a word of the official OR the
candidate's answer named a limit, bound, integral or choice operator. ``let inf := 4 in inf`` or ``(fun lim
=> lim) 4`` is ``4`` and was ``accepted`` so. What a candidate's answer names is read by meaning in G4 (its
kernel term, ``answer_env``); only the official answer's words are read now (``answers.official_not_closed``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_values import COMPUTED, OUTSIDE, SPECIAL_VALUES, VALUE_LEMMAS
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.helpers import failures, needs_coq, thinned

WRONG = {
    "a quotient by zero": "1/0 + 4",
    "an inverse of a difference that is zero": "/ (2 - 2) + 4",
    "an inverse of zero subtracted": "4 - / 0",
    "ln at zero": "ln 0 + 4",
    "ln at a difference that is zero": "ln (1 - 1) + 4",
    "ln at a negative, scaled": "4 - 5 * ln (-2)",
    "sqrt of a negative subtracted": "4 - sqrt (-16)",
    "tan at PI / 2": "tan (PI/2) + 4",
    "Coquelicot's inverse at zero": "real (Rbar_inv 0) + 4",
    "atan at one": "atan 1 * 16 / PI",
    "cos at ln of zero": "cos (ln 0) + 3",
    "sin at an inverse of zero": "sin (/ 0) + 4",
    "cos at PI / 3": "2 * cos (PI/3) + 3",
    "sin at PI / 6": "sin (PI/6) * 2 + 3",
    "cos at PI / 4 squared": "cos (PI/4) ^ 2 * 2 + 3",
    "tan at PI / 4": "tan (PI/4) + 3",
}
"""Wrong answers (each ``4``) to the vacuous ``putnam_2013_b2`` (official ``3``): ``unknown`` and ``accepted``
before red team 23."""

HONEST = {
    "a quotient by zero": "1/0 + 3",
    "an inverse of zero subtracted": "3 - / 0",
    "ln at a negative": "ln (-2) + 3",
    "sqrt of a negative": "3 + sqrt (-1)",
    "tan at PI / 2": "tan (PI/2) + 3",
    "atan at one": "atan 1 * 12 / PI",
    "acos at zero": "acos 0 * 6 / PI",
    "a quotient by a nonzero": "6 / 2",
    "cos at ln of zero": "cos (ln 0) + 2",
    "cos at PI / 3": "2 * cos (PI/3) + 2",
    "tan at PI / 4": "tan (PI/4) + 2",
}
"""The official ``3`` in the same spellings: never ``differs`` (it cannot be: a ``differs`` is a ``Qed``)."""


WORDS = {
    "let-bound inf, wrong": ("let inf := 4 in inf", "disputed"),
    "a lim parameter, wrong": ("(fun lim => lim) 4", "disputed"),
    "let-bound epsilon, wrong": ("let epsilon := 2 + 2 in epsilon", "disputed"),
    "let-bound sup, the official value": ("let sup := 3 in sup", "accepted"),
}
"""Operator names as the candidate's bound variables: the three wrong ones ``unknown`` and ``accepted`` before."""

CASES = [
    *((a, "disputed") for a in WRONG.values()),
    *((a, "accepted") for a in HONEST.values()),
    *WORDS.values(),
]
IDS = [*(f"wrong: {k}" for k in WRONG), *(f"official: {k}" for k in HONEST), *WORDS]


@needs_coq
@pytest.mark.parametrize(("answer", "expected"), thinned(dict(zip(IDS, CASES, strict=True))))
def test_an_answer_outside_a_domain_is_read_by_its_value(answer: str, expected: str) -> None:
    """Every gate passes (the proof is sound); the answer check alone tells the wrong value from the official."""
    v = verdict(vacuous(answer))
    assert not any(failures(v).get(g) for g in ("G1", "G2", "G3", "G4", "G5", "G6")), failures(v)
    assert (v.status, check_status(v) == "differs") == (expected, expected == "disputed"), v.answers


def test_the_readings_outside_a_domain_are_proved_lemmas_named_in_full() -> None:
    """Each lemma a ``Qed`` in the harness's file; the tactic names the library and the lemmas in full."""
    assert OUTSIDE in COMPUTED and "Admitted" not in VALUE_LEMMAS and "Axiom" not in VALUE_LEMMAS
    assert VALUE_LEMMAS.count("Qed.") == VALUE_LEMMAS.count("Lemma ")
    assert "Coq.Reals.Ratan.atan_1" in SPECIAL_VALUES
    names = [w for w in OUTSIDE.replace("(", " ").replace("[", " ").split() if "." in w.rstrip(".")]
    assert names and all(w.startswith(("Coq.", "__Putnam")) for w in names), names
