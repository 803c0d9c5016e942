"""Value red team 45 (Lean, no-answer, G2 of the text profile): what red team 44 left, by class.

* (1) The question's condition at a point written inside a binder's type: ``putnam_2023_b5``'s ``∀ k : Fin
  n`` at ``1 + 1`` is ``∀ k : Fin (1 + 1)``. The canonical form drops a binder's type but kept its
  parentheses, an empty ``( )`` the question's ``Fin n`` has not, so the condition was not found and the
  hedge ``{n | n = 1 + 1 ∧ C (1 + 1)}`` passed. Now (``_answer_canonical``) parentheses that hold only
  tokens left out are left out too. Found on the way: a numeral point as a field's receiver was written as
  one token (``2.eval``, the point lost); now ``(2).eval`` (``_answer_points``). Without it,
  ``putnam_1991_a3``'s official answer was refused once the empty pairs were gone.
* (2) The condition restated up to order algebra under a premise: ``6 ≤ p``, ``p ≥ 6``, ``¬ p ≤ 5``, ``¬ (p
  ≤ 5)``, ``¬ 5 ≥ p`` for ``5 < p``; ``0 < r``, ``¬ r < 1``, ``¬ r ≤ 0`` for ``1 ≤ r``; ``¬ p - 1 < r`` for
  ``r ≤ p - 1``. Now (``_answer_respelled``) the reading as written takes ``¬ a < b`` as ``b ≤ a``, ``¬ a ≤
  b`` as ``b < a`` and a weak bound by a numeral as the strict one, the normal form's own step
  (``_answer_bounds.stepped``: not where a field is shown, nor where the value writes a field type for the
  name).
* (3) A count of a set that pins its member: ``{m | m = n ∧ Q m}.ncard = 1`` is ``Q n`` (the count is ``0``
  or ``1`` whatever ``n`` is), a hedge beside ``n = 3``. Now (``_answer_count_padding``) a set-builder whose
  condition has a conjunct ``m = t`` (``t`` free of ``m``) is not read as varying with the value's
  variables (the comparison counts as closed: refused).

Measured (G2, as ``g2`` runs it), before the change and after it: ``ATTACKS`` (24) 6 refused before (the
point ``2`` as a numeral, two least-by-``∀`` searches refused by a conjunct as written, ``p > 5``, and the
counts ``{m | m = n}.ncard`` and the ``encard`` of a pinned set, by the padding reader), 24 now. ``HONEST``
(15, the official answers of the touched statements among them): 15 accepted before and now. Reader tests:
9 of the 15 failed before (the new readings). Official answers 346 of 346 (red team 37's sweep), the
verdict snapshot unchanged.

Left: a condition restated up to other algebra (``2 * p`` for ``p + p``, ``p - 1 < r`` read from ``r + 1 ≤
p``); a value's bound variable whose type Lean infers as a field and the value does not write, where the
step is taken as the normal form takes it (only a refusal, never an acceptance); a count of a set pinned
through a binder or a function (``{m | ∃ k, k = n ∧ m = k}``, refused by the reader's fail-closed binder
rule, or ``Finset.filter (· = n) s``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.lean._answer_count_padding import depends
from putnam_solver.core.provers.lean._answer_respelled import respelled
from putnam_solver.core.provers.lean._answer_types import typed
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2_alone
from tests.adversarial.test_lean_redteam43_hedges import A1, A4, A19, B5, SQUARES, q_a1, q_a4, q_b5
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

SMALL = "{m : ℕ | m < 9 ∧ 2 * m ^ 2 + 3 = 4 * m"  # a closed set to count, for the task's shape


def a4_by_all(old: str, new: str) -> str:
    """The least ``p`` of ``putnam_2024_a4`` restated by ``∀`` with one part respelled."""
    return "{n | ∀ p, " + q_a4("p").replace(old, new) + " → n = p}"


# name: (problem, value); each refused now ("refused before" in the names of those refused before)
ATTACKS: dict[str, tuple[str, str]] = {
    # (1) the condition at a point written inside a binder's type
    "a point 1 + 1 in Fin": (B5, f"{{n | n = 1 + 1 ∧ {q_b5('(1 + 1)')}}}"),
    "a point 2 (refused before)": (B5, f"{{n | n = 2 ∧ {q_b5('2')}}}"),
    "a point 3 - 1 in Fin": (B5, f"{{n | n = 3 - 1 ∧ {q_b5('(3 - 1)')}}}"),
    "a point Nat.succ 1 in Fin": (B5, f"{{n | n = Nat.succ 1 ∧ {q_b5('(Nat.succ 1)')}}}"),
    "a hedge on 1 + 1 beside the answer": (B5, f"{{n | n = 1 ∨ (n = 1 + 1 ∧ {q_b5('(1 + 1)')})}}"),
    # (2) the condition restated up to order algebra
    "6 ≤ p": (A4, a4_by_all("5 < p", "6 ≤ p")),
    "p ≥ 6": (A4, a4_by_all("5 < p", "p ≥ 6")),
    "¬ p ≤ 5": (A4, a4_by_all("5 < p", "¬ p ≤ 5")),
    "¬ (p ≤ 5)": (A4, a4_by_all("5 < p", "¬ (p ≤ 5)")),
    "¬ 5 ≥ p": (A4, a4_by_all("5 < p", "¬ 5 ≥ p")),
    "¬ r < 1": (A4, a4_by_all("1 ≤ r", "¬ r < 1")),
    "0 < r": (A4, a4_by_all("1 ≤ r", "0 < r")),
    "¬ r ≤ 0": (A4, a4_by_all("1 ≤ r", "¬ r ≤ 0")),
    "¬ p - 1 < r": (A4, a4_by_all("r ≤ p - 1", "¬ p - 1 < r")),
    "6 ≤ p and 0 < r": (A4, a4_by_all("5 < p", "6 ≤ p").replace("1 ≤ r", "0 < r")),
    "the least by ∀ with ¬ ≤": (
        A1,
        f"{{n | ∀ m, {q_a1('m').replace('0 < a', '¬ a ≤ 0')} ∧ (∀ i < m, ¬{q_a1('i')}) → n = m}}",
    ),
    "the least by ∀ with 1 ≤ m": (
        A1,
        f"{{n | ∀ m, {q_a1('m').replace('0 < m', '1 ≤ m')} ∧ (∀ i < m, ¬{q_a1('i')}) → n = m}}",
    ),
    "p > 5 (refused before)": (A4, a4_by_all("5 < p", "p > 5")),
    # (3) a count of a set that depends on the member only trivially
    "a count of the member alone": (A1, f"{{n : ℕ | {{m : ℕ | m = n}}.ncard = 1 ∧ {SMALL}}}.ncard = 15 ∧ n = 3}}"),
    "a count of the member with a condition": (
        A1,
        "{n : ℕ | {m : ℕ | m = n ∧ 2 * m ^ 2 + 3 = 4 * m}.ncard = 1 ∧ n = 3}",
    ),
    "a count of the member, sides swapped": (
        A1,
        "{n : ℕ | {m : ℕ | n = m ∧ 2 * m ^ 2 + 3 = 4 * m}.ncard = 1 ∧ n = 3}",
    ),
    "a count of the member, condition first": (
        A1,
        "{n : ℕ | {m : ℕ | 2 * m ^ 2 + 3 = 4 * m ∧ m = n}.ncard = 1 ∧ n = 3}",
    ),
    "an encard of the member": (
        SQUARES,
        "{n : ℤ | {m : ℤ | m = n ∧ {k : ℕ | |m - ↑(k ^ 2)| ≤ 250}.encard = 15}.encard = 1 ∧ n = 320}",
    ),
    "a subtype of the member": (A1, "{n : ℕ | Nat.card {m : ℕ // m = n ∧ 2 * m ^ 2 + 3 = 4 * m} = 1 ∧ n = 3}"),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "putnam_2024_a1 official": (A1, "{1}"),
    "putnam_2024_a4 official": (A4, "{7}"),
    "putnam_2019_a1 official": (A19, "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_2023_b5 official": (B5, "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_1994_b1 official": (SQUARES, "{n : ℤ | (315 ≤ n ∧ n ≤ 325) ∨ (332 ≤ n ∧ n ≤ 350)}"),
    # (1) types with a term
    "a Fin type in a value": (B5, "{n : ℕ | n = 1 ∨ ∃ k : Fin (1 + 1), n = 4 * k.1 + 2 ∧ k.1 = k.1}"),
    "a Fin type with a point": (B5, "{n : ℕ | n = 1 ∨ (n = 1 + 1 ∧ ∀ k : Fin (1 + 1), k.1 < 2)}"),
    # (2) honest bounds respelled
    "6 ≤ p bound": (A4, "{p : ℕ | Nat.Prime p ∧ 6 ≤ p ∧ p < 8}"),
    "¬ p ≤ 5 bound": (A4, "{p : ℕ | Nat.Prime p ∧ ¬ p ≤ 5 ∧ ¬ 8 ≤ p}"),
    "¬ < residues": (A19, "{n : ℤ | ¬ n < 0 ∧ ¬ n % 9 = 3 ∧ n % 9 ≠ 6}"),
    "1 ≤ n and ¬ 2 ≤ n": (A1, "{n : ℕ | 1 ≤ n ∧ ¬ 2 ≤ n}"),
    "intervals by ¬ <": (SQUARES, "{n : ℤ | (¬ n < 315 ∧ ¬ 325 < n) ∨ (314 < n ∧ ¬ n > 350 ∧ 331 < n)}"),
    # (3) counts of sets that vary with the member
    "a count of the numbers below the member": (A1, "{n : ℕ | {k : ℕ | k < n}.ncard = 1}"),
    "a count of the member's divisors": (A1, "{n : ℕ | {d : ℕ | d ∣ n}.ncard = 1}"),
    "a count of the squares below the member": (A1, "{n : ℕ | {m : ℕ | m * m < n}.ncard = 1}"),
}

test_each_attack_is_refused = refusal_table_test(g2_alone, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2_alone, honest=HONEST)


@pytest.mark.parametrize(
    ("texts", "read"),
    [
        pytest.param("¬ p ≤ 5", "5 < p", id="not at most"),
        pytest.param("¬ ( p ≤ 5 )", "5 < p", id="not at most, in parentheses"),
        pytest.param("¬ a < b", "b ≤ a", id="not less"),
        pytest.param("6 ≤ p", "5 < p", id="a weak bound below"),
        pytest.param("p ≤ 5", "p < 6", id="a weak bound above"),
        pytest.param("¬ r < 1", "0 < r", id="not less than one"),
        pytest.param("x ≤ 1 ∧ ∀ x : ℝ , x ≤ 1", "x ≤ 1 ∧ ∀ x : ℝ , x ≤ 1", id="a name the value types real"),
        pytest.param("0 ≤ n", "0 ≤ n", id="no step below zero"),
        pytest.param("a < b", "a < b", id="a strict bound as written"),
    ],
)
def test_what_the_respelling_reads(texts: str, read: str) -> None:
    with typed(()):
        assert " ".join(respelled(texts.split(), [10**6, 0])) == read


def test_a_statements_real_variable_is_not_stepped() -> None:
    with typed((("x", "field"),)):
        assert respelled(["x", "≤", "1"], [10**6, 0]) == ["x", "≤", "1"]


@pytest.mark.parametrize(
    ("texts", "varies"),
    [
        pytest.param("ncard { m | m = n } = 1", False, id="the member alone"),
        pytest.param("ncard { m | n = m ∧ m < 9 } = 1", False, id="the member with a condition"),
        pytest.param("ncard { m | m < 9 ∧ m = n + 1 } = 1", False, id="a term of the member, last"),
        pytest.param("ncard { m | m < n } = 1", True, id="the numbers below the member"),
        pytest.param("ncard { m | m * m = n } = 1", False, id="a polynomial in the member (red team 49)"),
    ],
)
def test_what_the_padding_reader_reads_of_a_pinned_set(texts: str, varies: bool) -> None:
    assert depends(texts.split(), {"n"}) is varies
