"""Value red team 47 (Lean, no-answer, G2 of the text profile): what red team 46 left, by class.

* (1) The question's condition restated by algebra: the restated rule (``_answer_restated``) finds a
  condition under a premise (``{n | ∀ m, C m → m = n}``, the only ``m`` with ``C``) only in the reading as
  written, where ``a ^ m * 2`` for ``2 * a ^ m``, ``a ^ m + a ^ m``, a sum reordered, ``x - y = 0`` for ``x =
  y``, ``x + 7 = y + 7``, ``A * A * A`` for ``A ^ 3``, ``r + 1 ≤ p`` for ``r ≤ p - 1`` hid it. The copy rule's
  normal form reads commutation and ``p + p`` but not a difference moved across ``=``, so ``putnam_2019_a1``'s
  condition written ``.. - n = 0`` straight in the set-builder passed too. Now (``_answer_algebra``) a third
  reading, as written with each number relation's sides as polynomials (monomials collected, products
  multiplied out, every monomial moved to the side where it is positive, ``≤`` as ``<`` by one on the
  integers), is searched beside the other two; what it cannot read stays as written.

Measured (G2, as ``g2`` runs it), before the change and after it: see each table's comment.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_algebra import algebraic
from putnam_solver.core.provers.lean._answer_types import typed
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2
from tests.adversarial.test_lean_redteam43_hedges import A1, A4, A19, B5, OFFICIAL_1994, SQUARES, q_a1, q_a4, q_a19

__all__ = ["BENCHMARK"]


def a1_only(old: str, new: str) -> str:
    """``putnam_2024_a1``'s only ``m`` with its condition, restated by ``∀`` with one part respelled."""
    return f"{{n | ∀ m, {q_a1('m').replace(old, new)} → m = n}}"


def a4_only(old: str, new: str) -> str:
    return f"{{n | ∀ p, {q_a4('p').replace(old, new)} → n = p}}"


def a19_only(old: str, new: str) -> str:
    return f"{{n : ℤ | ∀ m : ℤ, {q_a19('m').replace(old, new)} → m = n}}"


def a19_builder(old: str, new: str) -> str:
    return f"{{n : ℤ | {q_a19('n').replace(old, new)}}}"


EQUATION_A1 = "2*a^m + 3*b^m = 4*c^m"
EQUATION_A19 = "A^3 + B^3 + C^3 - 3*A*B*C"

# name: (problem, text before the solution, value); each refused now ("refused before" in the names)
ATTACKS: dict[str, tuple[str, str, str]] = {
    # (1) the condition restated by algebra
    "a factor after": (A1, "", a1_only("2*a^m", "a^m*2")),
    "a multiple as a sum": (A1, "", a1_only("2*a^m", "a^m + a^m")),
    "a sum reordered": (A1, "", a1_only("2*a^m + 3*b^m", "3*b^m + 2*a^m")),
    "a difference equal to zero": (A1, "", a1_only(EQUATION_A1, "2*a^m + 3*b^m - 4*c^m = 0")),
    "a product distributed": (A1, "", a1_only(EQUATION_A1, "2*(a^m + b^m) + b^m = 4*c^m")),
    "a term moved across": (A19, "", a19_only(f"{EQUATION_A19} = m", "A^3 + B^3 + C^3 = m + 3*A*B*C")),
    "the same added to both sides": (A19, "", a19_only("= m", "+ 1 = m + 1")),
    "a product reordered": (A19, "", a19_only("3*A*B*C", "3*C*B*A")),
    "a cube as a product": (A19, "", a19_only("A^3", "A*A*A")),
    "a weak bound moved across": (A4, "", a4_only("r ≤ p - 1", "r + 1 ≤ p")),
    "a bound as a difference": (A4, "", a4_only("r ≤ p - 1", "r - p + 1 ≤ 0")),
    "a bound padded": (A4, "", a4_only("5 < p", "5 < p + 0")),
    "a difference in the set-builder": (A19, "", a19_builder("= n", "- n = 0")),
    "zero equal to a difference in the set-builder": (
        A19,
        "",
        a19_builder(f"{EQUATION_A19} = n", f"0 = n - ({EQUATION_A19})"),
    ),
    "the same added in the set-builder": (A19, "", a19_builder("= n", "+ 7 = n + 7")),
    "cubes as products in the set-builder": (A19, "", a19_builder("A^3", "A*A*A").replace("B^3", "B*B^2")),
    "at a point, a difference": (A19, "", f"{{n : ℤ | n = 5 ∧ {q_a19('5').replace('= 5', '- 5 = 0')}}}"),
    "the point hedge as a sum (refused before)": (A1, "", f"{{n | n = 1 ∧ {q_a1('1').replace('2*a^1', 'a^1 + a^1')}}}"),
}

# name: (problem, text before the solution, value); each passes
HONEST: dict[str, tuple[str, str, str]] = {
    "putnam_2024_a1 official": (A1, "", "{1}"),
    "putnam_2024_a4 official": (A4, "", "{7}"),
    "putnam_2019_a1 official": (A19, "", "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_2023_b5 official": (B5, "", "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_1994_b1 official": (SQUARES, "", OFFICIAL_1994),
    # (1) honest values written with algebra
    "a sum of the member": (A1, "", "{n : ℕ | n + n = 2}"),
    "a square of the member": (A1, "", "{n : ℕ | 0 < n ∧ n * n = n}"),
    "a prime by its square": (A4, "", "{p : ℕ | Nat.Prime p ∧ p * p = 49}"),
    "a prime by a difference": (A4, "", "{p : ℕ | p.Prime ∧ 2 * p - 1 = 13}"),
    "residues by divisibility": (A19, "", "{n : ℤ | 0 ≤ n ∧ ¬ 9 ∣ n - 3 ∧ ¬ 9 ∣ n - 6}"),
    "residues by congruence": (A19, "", "{n : ℤ | 0 ≤ n ∧ ¬ n ≡ 3 [ZMOD 9] ∧ ¬ n - 6 ≡ 0 [ZMOD 9]}"),
    "residues by a premise": (A19, "", "{n : ℤ | ∀ k : ℤ, n = 9 * k + 3 → k < 0}"),
    "a premise of the answer": (B5, "", "{n : ℕ | ∀ k, n = 4 * k + 2 ∨ n = 1 → 0 < n}"),
    "intervals by differences": (SQUARES, "", "{n : ℤ | (0 ≤ n - 315 ∧ n - 325 ≤ 0) ∨ (332 ≤ n ∧ n ≤ 350)}"),
}


@pytest.mark.parametrize(("problem", "before", "value"), ATTACKS.values(), ids=ATTACKS.keys())
def test_each_attack_is_refused(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert g2(bench, problem, before, value)


@pytest.mark.parametrize(("problem", "before", "value"), HONEST.values(), ids=HONEST.keys())
def test_each_honest_twin_passes(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert g2(bench, problem, before, value) == ""


@pytest.mark.parametrize(
    ("texts", "read"),
    [
        pytest.param("x + x = y", "y = x * 2", id="a multiple"),
        pytest.param("x - y = 0", "x = y", id="a difference"),
        pytest.param("0 = x - y", "x = y", id="zero equal to a difference"),
        pytest.param("x + 3 = y + 3", "x = y", id="the same added"),
        pytest.param("( x + y ) * 2 < z", "x * 2 + y * 2 < z", id="a product multiplied out"),
        pytest.param("x * x ≤ y", "x ^ 2 < y + 1", id="a square, a weak bound stepped"),
        pytest.param("x + 1 ≤ y", "x < y", id="a successor"),
        pytest.param("( x : ℕ ) - 1 = y", "y = ( x : ℕ ) - 1", id="a natural difference kept"),
        pytest.param("( x : ℤ ) - 1 = y", "x = y + 1", id="an integer difference moved"),
        pytest.param("x ∣ y + y", "x ∣ y * 2", id="divisibility side by side"),
        pytest.param("x + x ≡ y [ ZMOD n ]", "x * 2 ≡ y [ ZMOD n ]", id="a congruence keeps its modulus"),
        pytest.param("S = T ∧ f x = y", "S = T ∧ f x = y", id="no arithmetic: as written"),
        pytest.param("∃ x > 0 , x = y", "∃ x > 0 , x = y", id="a binder's own predicate"),
    ],
)
def test_what_the_algebra_reads(texts: str, read: str) -> None:
    with typed(()):
        assert " ".join(algebraic(texts.split(), [10**6, 0])) == read


def test_the_algebra_charges_its_budget() -> None:
    budget = [5, 0]
    with typed(()):
        algebraic(["x", "+", "x", "=", "y", "∧", "y", "+", "y", "=", "z"], budget)
    assert budget[1] == 1
