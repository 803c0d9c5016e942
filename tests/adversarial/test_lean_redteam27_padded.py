"""Red team 27, found at merge (Lean, no-answer): the question copied with one more operand in a chain.

The copy rule compares in a normal form that reads a chain of ``∧``/``∨``/``∩``/``∪`` flat and sorts its
operands (``_answer_order``), so a copy with one more operand was neither equal to the statement's side nor
held it as a run of tokens: the padding sorts in between the question's operands. Accepted by the text
profile, and by the full profile for set answers (no compiled gate reads an answer's shape, and the answer
check says ``unknown``): ``putnam_2022_b2``'s condition with ``∧ 0 ≤ n`` at either end or in the middle,
``∨ n < 0``, the set intersected with ``{n | 0 ≤ n}`` or split in two (``{n | 0 < n} ∩ {n | ∃ ..}``);
``putnam_2022_b5``'s with ``∧ p ≤ 1``; and, for the yes/no answers (which the full profile's yes/no check
refuses anyway), ``putnam_2019_a4``'s question behind ``0 ≤ 0 →``, reading ``→`` as ``¬ ∨`` since red
team 27.

Fix, by meaning of the chains (``_answer_cover``): a value that is a chain of one of these operators
holding every operand of the side's chain, each by a different operand, or a term built like the side
whose parts do so in place, is the question padded; a ``∩``/``∪`` of set-builders with one header is read
as the one set-builder it is (``Set.setOf_and``). An honest answer that shares some operands with the
question, but not all, stays accepted, and so does every official answer (``test_lean_redteam15.py``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2

CROSS = "putnam_2022_b2"
"""States ``(0 < n ∧ ∃ S : Finset (Fin 3 → ℝ), S.card = n ∧ P S) ↔ n ∈ putnam_2022_b2_solution``."""
EXISTS = "∃ S : Finset (Fin 3 → ℝ), S.card = n ∧ P S"
WALK = "putnam_2022_b5"
"""States ``(0 ≤ p ∧ p ≤ 1 / 2 ∧ (∀ n > 0, ∀ (b : ℤ) (a : Fin n → ℤ), P n 0 a ≥ P n b a)) ↔ p ∈
putnam_2022_b5_solution``."""
EVERY = "(∀ n > 0, ∀ (b : ℤ) (a : Fin n → ℤ), P n 0 a ≥ P n b a)"
SPHERE = "putnam_2019_a4"
"""States ``(∀ f, Continuous f → P f → f = 0) ↔ putnam_2019_a4_solution`` (a ``Prop`` answer)."""
BRIDGE = "putnam_1988_b2"
"""States ``(∀ x y : ℝ, (y ≥ 0 ∧ y * (y + 1) ≤ (x + 1) ^ 2) → (y * (y - 1) ≤ x ^ 2)) ↔ putnam_1988_b2_solution``."""

PADDED = {
    "a conjunct after": (CROSS, f"{{n : ℕ | 0 < n ∧ ({EXISTS}) ∧ 0 ≤ n}}"),
    "a conjunct between": (CROSS, f"{{n : ℕ | 0 < n ∧ n < n + 1 ∧ ({EXISTS})}}"),
    "a conjunct before": (CROSS, f"{{n : ℕ | n < n + 1 ∧ 0 < n ∧ ({EXISTS})}}"),
    "a false disjunct": (CROSS, f"{{n : ℕ | (0 < n ∧ ({EXISTS})) ∨ n < 0}}"),
    "intersected with a superset": (CROSS, f"{{n : ℕ | 0 < n ∧ ({EXISTS})}} ∩ {{n | 0 ≤ n}}"),
    "united with the empty condition": (CROSS, f"{{n : ℕ | 0 < n ∧ ({EXISTS})}} ∪ {{n | n < 0}}"),
    "the set split in two": (CROSS, f"{{n : ℕ | 0 < n}} ∩ {{m | {EXISTS.replace(' n ', ' m ')}}}"),
    "the set split in three": (CROSS, f"{{n : ℕ | 0 ≤ n}} ∩ {{n : ℕ | 0 < n}} ∩ {{n | {EXISTS}}}"),
    "a bound padded": (WALK, f"{{p : ℝ | 0 ≤ p ∧ p ≤ 1 / 2 ∧ {EVERY} ∧ p ≤ 1}}"),
    "a bound padded, as a function": (WALK, f"fun p : ℝ => p ≤ 1 ∧ 0 ≤ p ∧ p ≤ 1 / 2 ∧ {EVERY}"),
    "a premise before the question": (SPHERE, "(0 : ℕ) ≤ 0 → ∀ f, Continuous f → P f → f = 0"),
    "a premise inside the question": (SPHERE, "∀ f, (0 : ℕ) ≤ 0 → Continuous f → P f → f = 0"),
    "a conclusion padded": (
        BRIDGE,
        "∀ x y : ℝ, (y ≥ 0 ∧ y * (y + 1) ≤ (x + 1) ^ 2) → (y * (y - 1) ≤ x ^ 2 ∧ (0 : ℝ) ≤ 1)",
    ),
}


@pytest.mark.parametrize("case", sorted(PADDED))
def test_the_question_with_one_more_operand_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = PADDED[case]
    assert COPIED in _g2(lean_putnambench, problem, value)


HONEST = {
    "the official answer": (CROSS, "{1, 7}"),
    "a set-builder of the official answer": (CROSS, "{n : ℕ | n = 1 ∨ n = 7}"),
    "the question's easy operand and the answer": (CROSS, "{n : ℕ | 0 < n ∧ (n = 1 ∨ n = 7)}"),
    "the official answer's two sets": (CROSS, "{n : ℕ | n = 1} ∪ {n | n = 7}"),
    "the easy operand's set and the answer's": (CROSS, "{n : ℕ | 0 < n} ∩ {n | n = 1 ∨ n = 7}"),
    "the walk's official answer": (WALK, "Set.Icc 0 (1 / 4)"),
    "the walk's answer as a set-builder": (WALK, "{p : ℝ | 0 ≤ p ∧ p ≤ 1 / 4}"),
    "two of the three operands and a bound": (WALK, "{p : ℝ | 0 ≤ p ∧ p ≤ 1 / 2 ∧ p ≤ 1 / 4}"),
    "the sphere's official answer": (SPHERE, "False"),
    "the bridge's official answer": (BRIDGE, "True"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_an_answer_holding_some_of_the_operands_stays_accepted(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _g2(lean_putnambench, problem, value) == ""
