"""Value red team 49 (Lean, no-answer, G2 of the text profile): what red team 48 left, and what else restated
the question and passed, by class.

* (1) ``putnam_2023_b5``'s congruence written ``Int.ModEq ↑j a b``: the normal form (``_answer_modeq``) read
  each argument as one token or group, so ``↑`` was the modulus, ``j`` the left side; even the plain
  set-builder copy ``{n | 0 < n ∧ .. Int.ModEq ↑n (..) (..)}`` passed. Now ``↑`` is read with its argument,
  and the function form's equation is left without parentheses where the notation would stand (``∀ k,
  Int.ModEq ..``). With an ascription inside a side (``m * ((↑k.1 : ℤ) + 1)``), the normal form's reading
  found it but the reading as written (where a condition under a premise is found) did not: an ascription
  of one name or projection inside a congruence's own ascription is now read once (``_answer_restated._uncast``).
* (2) A count of a set pinned through an equation not of the member alone: ``{m | m * m = n ∧ Q m}``,
  ``2 * m = 2 * n``, ``m + 1 = n``, ``(m : ℤ) = n`` (``_answer_count_padding._rooted``): an equation of a
  polynomial in the member with positive coefficients and a term free of it has at most its degree of
  roots, so its count is bounded whatever the member: the hedge ``Q`` at the roots.
* (3) Common factors across a relation (``_answer_algebra._divided``): ``4*a^m + 6*b^m = 8*c^m``,
  ``3*(..) = 3*(..)``, ``10 < 2 * p``. Divided out only where every leaf is a numeral or a variable whose
  type is written as ``ℕ``, ``ℤ`` or a field (a binder's group ``∃ (a b c : ℕ)`` now shows its type,
  ``_answer_spelling.grouped_kinds``), and the value and the question ascribe nothing to another type
  (``(e : ZMod 3)``, which the normal form takes off, ``_answer_terms.foreign_types``).
* (4) The official answer intersected with the question's hard conjunct: no sound text rule. The value
  ``A ∩ {n | H n}`` equals the official answer whenever that is right, so the answer check confirms it; the
  proof then needs ``H`` of no member. But ``test_lean_honest27``'s ``putnam_2022_b5`` twin ``{p | (∀ n >
  0, ..) ∧ p ∈ Set.Icc 0 (1 / 4)}`` has exactly this shape and is honest: whether ``A`` alone is the answer
  (``A ⊆ H``) is what the proof shows, not something the text shows. Left to the reader of the proof.
* (5, new) The question's equation in other clothes: a pair or list equation (``(x, 0) = (y, 0)``, ``[x] =
  [y]``: ``Prod.mk.injEq``, ``List.cons.injEq``), two bounds (``x ≤ y ∧ y ≤ x``: ``le_antisymm_iff``), an
  integer ascription around one side moved across (``(x : ℤ) - y = 0``, read by the algebra now), and a
  ``[ZMOD n]`` congruence written as a divisibility (``(n : ℤ) ∣ b - a``: ``Int.modEq_iff_dvd``; the algebra
  reads an integer ``a % n = b % n`` as ``n ∣ b - a``, its sign fixed, ``_answer_algebra._remainders``); the
  question at ``n + 1 - 1`` and a preimage by ``(· + 1)`` of the question at ``n - 1`` (the normal form reads
  ``a + b - b`` as ``a``, ``_answer_commute._cancelled``).
* (6, found after the round) A pin padded with terms of the member that vanish: ``m = n + 0 * m``, ``m + 0 *
  m = n``, ``m = n + (m - m)`` passed ``_rooted``, which reads the sides as written. An equation is now also
  read as one polynomial (``_answer_algebra.difference``): ``P(m) - c`` with numeral coefficients, positive
  degree in one member and ``c`` free of the members pins it (``_answer_count_padding._polynomial_pin``).

Measured (G2, as ``g2`` runs it), before the change (on main) and after it: ``ATTACKS`` (31) 2 refused
before, 31 now: class (1) 0 of 6, (2) 0 of 9, (3) 1 of 6, (5) 1 of 10 before. ``HONEST`` (19, official
answers among them): 19 accepted before and now. ``BY_DESIGN`` (1): accepted before, refused now. Official
answers 346 of 346 (red team 37's sweep), the verdict snapshot unchanged. Class (6): 0 of 5 refused before, 5
after; two counts accepted before are refused now and listed in ``BY_DESIGN``: one pinned by ``m - 3 = n``
(at most four members on ``ℕ``, one in a ring; an honest twin of this round before) and one pinned to the
roots of ``m * m = m``.
Left: a factor where a type is not written (``∃ a b c,``, ``∀ p,``), ``Nat.dist x y = 0``, ``(x == y) =
true``, ``max x y = min x y``, ``x - y = 0 ∧ y - x = 0`` on ``ℕ``, ``0 < a * b * c`` for three bounds, the
witnesses' type changed (``ℕ+``), a ``[ZMOD n]`` congruence as an equation in ``ZMod n``, a subtype's image
with the type on the function (``((↑) : {m // C m} → ℕ) '' Set.univ``), and a foreign ascription anywhere in
the value switches the factor reading off for all of it.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.lean._answer_algebra import algebraic, cancelling
from putnam_solver.core.provers.lean._answer_count_padding import pinned_count
from putnam_solver.core.provers.lean._answer_nodes import ASCRIBED
from putnam_solver.core.provers.lean._answer_terms import foreign_types
from putnam_solver.core.provers.lean._answer_types import showing, typed
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2
from tests.adversarial.test_lean_redteam43_hedges import A1, A4, A19, B5, OFFICIAL_1994, SQUARES, q_a1, q_a4, q_a19
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

Q = "2 * m ^ 2 + 3 = 4 * m"  # a decidable condition to hedge on
EQUATION = "2*a^m + 3*b^m = 4*c^m"
PAIRS = "0 < a ∧ 0 < b ∧ 0 < c"
B5_SIDES = "∃ p : Equiv.Perm (Fin j), ∀ k : Fin j, "


def b5_only(congruence: str) -> str:
    """``putnam_2023_b5``'s only ``j`` with its condition, the congruence written ``congruence``."""
    return f"{{n | ∀ j, (0 < j ∧ ∀ m : ℤ, IsRelPrime m j → {B5_SIDES}{congruence}) → j = n}}"


def a1_only(old: str, new: str) -> str:
    return f"{{n | ∀ m, {q_a1('m').replace(old, new)} → m = n}}"


def a1_builder(equation: str, bounds: str = PAIRS, binder: str = "∃ (a b c : ℕ),") -> str:
    """``putnam_2024_a1``'s own set with its equation (at ``n``) written ``equation``."""
    return f"{{n : ℕ | 0 < n ∧ {binder} {bounds} ∧ {equation.replace('^m', '^n')}}}"


def pin(count: str, point: str = "3") -> str:
    """A hedge of ``putnam_2024_a1`` on ``Q`` at a root: a count (``Q`` put in) of a pinned set, compared."""
    return f"{{n : ℕ | {count.format(Q=Q)} = 1 ∧ n = {point}}}"


# name: (problem, text before the solution, value); each refused now ("refused before" in the names)
ATTACKS: dict[str, tuple[str, str, str]] = {
    # (1) putnam_2023_b5's congruence as a function, an ascription inside a side
    "Int.ModEq with a cast modulus in the set-builder": (
        B5,
        "",
        "{n | 0 < n ∧ ∀ m : ℤ, IsRelPrime m n → ∃ p : Equiv.Perm (Fin n), ∀ k : Fin n, "
        "Int.ModEq ↑n (↑(p (p k)).1 + 1) (m * (↑k.1 + 1))}",
    ),
    "Int.ModEq under a premise": (B5, "", b5_only("Int.ModEq ↑j (↑(p (p k)).1 + 1) (m * (↑k.1 + 1))")),
    "Int.ModEq with a bracketed cast": (B5, "", b5_only("Int.ModEq (↑j) ((p (p k)).1 + 1) (m * (k.1 + 1))")),
    "an ascription inside the right side": (B5, "", b5_only("(↑(p (p k)).1 + 1) ≡ m * ((↑k.1 : ℤ) + 1) [ZMOD ↑j]")),
    "an ascription inside the left side": (B5, "", b5_only("((↑(p (p k)).1 : ℤ) + 1) ≡ m * (↑k.1 + 1) [ZMOD ↑j]")),
    "ascriptions inside both sides": (
        B5,
        "",
        b5_only("((↑(p (p k)).1 : ℤ) + 1) ≡ m * ((↑k.1 : ℤ) + 1) [ZMOD (j : ℤ)]"),
    ),
    # (2) a set pinned through an equation not of the member alone
    "a square pin": (A1, "", pin("((Finset.range 9).filter (fun m => m * m = n ∧ {Q})).card", "9")),
    "a doubled pin": (A1, "", pin("((Finset.range 9).filter (fun m => 2 * m = 2 * n ∧ {Q})).card")),
    "a successor pin": (A1, "", pin("((Finset.range 9).filter (fun m => m + 1 = n + 1 ∧ {Q})).card")),
    "a shifted pin": (A1, "", pin("((Finset.range 9).filter (fun m => m + 1 = n ∧ {Q})).card", "4")),
    "a cast pin": (A1, "", pin("((Finset.range 9).filter (fun m => (m : ℤ) = n ∧ {Q})).card")),
    "a square pin counted by ncard": (A1, "", pin("{{m : ℕ | m * m = n ∧ {Q}}}.ncard", "9")),
    "a square pin alone": (A1, "", f"{{n : ℕ | 0 < ((Finset.range 9).filter (fun m => m * m = n * n ∧ {Q})).card}}"),
    "a doubled pin by countP": (A1, "", f"{{n : ℕ | 0 < (List.range 9).countP (fun m => 2 * m = 2 * n ∧ {Q})}}"),
    "a polynomial pin by an indicator sum": (
        A1,
        "",
        pin("(∑ m ∈ Finset.range 9, if m ^ 2 + 2 * m = n ∧ {Q} then 1 else 0)", "3"),
    ),
    # (6, after the round) a pin padded with zero terms of the member, read as polynomials
    "a pin padded by a zero product": (A1, "", pin("{{m : ℕ | m < 9 ∧ m = n + 0 * m ∧ {Q}}}.ncard")),
    "a pin padded on the member's side": (A1, "", pin("{{m : ℕ | m < 9 ∧ m + 0 * m = n ∧ {Q}}}.ncard")),
    "a pin padded by a difference": (A1, "", pin("{{m : ℕ | m < 9 ∧ m = n + (m - m) ∧ {Q}}}.ncard")),
    "a cast pin padded": (A1, "", pin("{{m : ℕ | m < 9 ∧ (m : ℤ) = n + 0 * m ∧ {Q}}}.ncard")),
    "a square pin padded": (A1, "", pin("{{m : ℕ | m < 9 ∧ m * m + 0 * m = n * n ∧ {Q}}}.ncard")),
    # (3) common factors across a relation
    "the equation doubled under a premise": (A1, "", a1_only(EQUATION, "4*a^m + 6*b^m = 8*c^m")),
    "the equation times three under a premise": (A1, "", a1_only(EQUATION, "3*(2*a^m + 3*b^m) = 3*(4*c^m)")),
    "the equation doubled in the set-builder": (A1, "", a1_builder("4*a^m + 6*b^m = 8*c^m")),
    "the equation doubled at a point": (
        A1,
        "",
        f"{{n | n = 1 ∧ {q_a1('1').replace('2*a^1 + 3*b^1 = 4*c^1', '4*a + 6*b = 8*c')}}}",
    ),
    "a bound doubled on a typed prime": (
        A4,
        "",
        f"{{n | ∀ p : ℕ, {q_a4('p').replace('5 < p', '10 < 2 * p')} → n = p}}",
    ),
    "a weak bound doubled (refused before)": (
        A19,
        "",
        f"{{n : ℤ | ∀ m : ℤ, {q_a19('m').replace('A ≥ 0', '2 * A ≥ 0').replace('= m', '= m')} → m = n}}",
    ),
    # (5) the question's equation in other clothes
    "a pair equation": (A1, "", a1_builder("(2*a^m + 3*b^m, 0) = (4*c^m, 0)")),
    "a list equation": (A1, "", a1_builder("[2*a^m + 3*b^m] = [4*c^m]")),
    "two bounds": (A1, "", a1_builder("2*a^m + 3*b^m ≤ 4*c^m ∧ 4*c^m ≤ 2*a^m + 3*b^m")),
    "an integer difference (refused before)": (A1, "", a1_builder("(2*a^m + 3*b^m : ℤ) - 4*c^m = 0")),
    "a congruence as divisibility in the set-builder": (
        B5,
        "",
        "{n | 0 < n ∧ ∀ m : ℤ, IsRelPrime m n → ∃ p : Equiv.Perm (Fin n), ∀ k : Fin n, "
        "(n : ℤ) ∣ m * (k.1 + 1) - ((p (p k)).1 + 1)}",
    ),
    "a congruence as divisibility under a premise": (B5, "", b5_only("(j : ℤ) ∣ m * (k.1 + 1) - ((p (p k)).1 + 1)")),
    "a congruence as divisibility turned": (B5, "", b5_only("↑j ∣ ((↑(p (p k)).1 : ℤ) + 1) - m * (↑k.1 + 1)")),
    "the question at a successor's predecessor": (A1, "", f"{{n : ℕ | {q_a1('(n + 1 - 1)')}}}"),
    "a preimage by a successor": (A1, "", f"(· + 1) ⁻¹' {{n : ℕ | {q_a1('(n - 1)')} ∧ 0 < n}}"),
    "a pair equation under a premise": (A1, "", a1_only(EQUATION, "(2*a^m + 3*b^m, 1) = (4*c^m, 1)")),
}

# name: (problem, text before the solution, value); each passes
HONEST: dict[str, tuple[str, str, str]] = {
    "putnam_2023_b5 official": (B5, "", "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_2023_b5 official as Int.ModEq": (B5, "", "{n : ℕ | n = 1 ∨ Int.ModEq 4 ↑n 2}"),
    "putnam_2023_b5 official as Nat.ModEq": (B5, "", "{n : ℕ | n = 1 ∨ Nat.ModEq 4 n 2}"),
    "a cast congruence": (B5, "", "{n : ℕ | n = 1 ∨ ((n : ℤ) + 0) ≡ 2 [ZMOD 4]}"),
    "putnam_2023_b5 official as divisibility": (B5, "", "{n : ℕ | n = 1 ∨ (4 : ℤ) ∣ ↑n - 2}"),
    "putnam_2023_b5 official as a remainder": (B5, "", "{n : ℕ | n = 1 ∨ n % 4 = 2}"),
    "putnam_2024_a1 official": (A1, "", "{1}"),
    "the official answer at a successor's predecessor": (A1, "", "{n : ℕ | n + 1 - 1 = 1}"),
    "the official answer as a preimage": (A1, "", "(· + 1) ⁻¹' ({2} : Set ℕ)"),
    "putnam_1994_b1 official": (SQUARES, "", OFFICIAL_1994),
    "squares below the member": (A1, "", "{n : ℕ | ((Finset.range 30).filter (fun m => m * m < n)).card = 1}"),
    "a product by the member pins nothing": (
        A1,
        "",
        "{n : ℕ | ((Finset.range 30).filter (fun m => m * n = 0)).card = 30}",
    ),
    "the official answer doubled": (A1, "", "{n : ℕ | 2 * n = 2}"),
    "the official answer with a factor": (A1, "", "{n : ℕ | 0 < n ∧ 3 * n ≤ 3}"),
    "a factor in ZMod is no factor": (
        A1,
        "",
        f"{{n | ∀ m, {q_a1('m').replace(EQUATION, '(4*a^m + 6*b^m : ZMod 3) = 8*c^m')} → m = n}}",
    ),
    "the official answer as a pair": (A1, "", "{n : ℕ | (n, 0) = (1, 0)}"),
    "the official answer by two bounds": (A1, "", "{n : ℕ | n ≤ 1 ∧ 1 ≤ n}"),
    "putnam_2019_a1 residues": (A19, "", "{n : ℤ | 0 ≤ n ∧ ¬(n % 9 = 3 ∨ n % 9 = 6)}"),
}

BY_DESIGN: dict[str, tuple[str, str, str]] = {
    "a count of square roots": (A1, "", "{n : ℕ | ((Finset.range 30).filter (fun m => m * m = n)).card = 1}"),
    "a count pinned by a difference": (A1, "", "{n : ℕ | ((Finset.range 30).filter (fun m => m - 3 = n)).card = 4}"),
    "a count pinned to the roots of a closed equation": (A1, "", "{n : ℕ | {m : ℕ | m ∣ n ∧ m * m = m}.ncard = 1}"),
}
"""Refused now, though it is no hedge: the squares below ``900`` counted through a pinned set, as red team 46
refused ``{n | ((Finset.range 30).filter (· = n)).card = 1}``; ``{m ^ 2 | m < 30}`` states it."""


test_each_attack_is_refused = refusal_table_test(g2, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2, honest=HONEST)
test_a_pinned_count_is_refused_by_design = refusal_table_test(g2, attacks=BY_DESIGN)


@pytest.mark.parametrize(
    ("texts", "kinds", "read"),
    [
        pytest.param("2 * x = 2 * y", (("x", "ℕ"), ("y", "ℕ")), "x = y", id="naturals"),
        pytest.param("4 * x < 6 * y", (("x", "field"), ("y", "field")), "x * 2 < y * 3", id="a field"),
        pytest.param("2 * x ≤ 2 * y + 1", (("x", "ℤ"), ("y", "ℤ")), "x ≤ y", id="integers, stepped"),
        pytest.param("2 * x ∣ 4 * y", (("x", "ℕ"), ("y", "ℕ")), "x ∣ y * 2", id="divisibility"),
        pytest.param("2 * x = 2 * y", (("x", "ℕ"),), "x * 2 = y * 2", id="an untyped leaf"),
        pytest.param("2 * f x = 2 * y", (("x", "ℕ"), ("y", "ℕ")), "2 * f x = y * 2", id="an application"),
        pytest.param("2 * x ≡ 2 * y [ ZMOD n ]", (("x", "ℤ"), ("y", "ℤ")), "x * 2 ≡ y * 2 [ ZMOD n ]", id="modulo"),
    ],
)
def test_what_the_factor_reading_divides(texts: str, kinds: tuple[tuple[str, str], ...], read: str) -> None:
    with typed(kinds), showing(kinds), cancelling(True):
        assert " ".join(algebraic(texts.split(), [10**6, 0])) == read


@pytest.mark.parametrize(
    ("texts", "read"),
    [
        pytest.param("( ⇑ x ) % ( ⇑ n ) = ( ⇑ y ) % ( ⇑ n )", "n ∣ ↑ x - ↑ y", id="on ℤ, a divisibility"),
        pytest.param("x % n = y % n", "x % n = y % n", id="on ℕ, as written"),
    ],
)
def test_what_the_remainders_reading_reads(texts: str, read: str) -> None:
    """``⇑`` stands for the normal form's ``↑ (ascribed)`` (``(x : ℤ)``; no token a candidate writes)."""
    with typed(()):
        assert " ".join(algebraic([ASCRIBED if t == "⇑" else t for t in texts.split()], [10**6, 0])) == read


def test_no_factor_is_divided_unless_asked() -> None:
    with typed((("x", "ℕ"), ("y", "ℕ"))):
        assert " ".join(algebraic(["2", "*", "x", "=", "2", "*", "y"], [10**6, 0])) == "x * 2 = y * 2"


@pytest.mark.parametrize(
    ("value", "foreign"),
    [
        pytest.param("(2 * n : ZMod 4) = 2", True, id="an ascription to ZMod"),
        pytest.param("(show ZMod 4 from 2 * n) = 2", True, id="a show"),
        pytest.param("(2 * n : ℤ) = 2", False, id="an ascription to ℤ"),
        pytest.param("∀ (k : Fin 3), k = k", False, id="a binder's type"),
        pytest.param("∃ x : ZMod 4, x = 2", False, id="a binder's type unbracketed"),
    ],
)
def test_what_ascribes_a_foreign_type(value: str, foreign: bool) -> None:
    assert foreign_types(lex_code(value)) is foreign


@pytest.mark.parametrize(
    ("value", "pinned"),
    [
        pytest.param("{m | m * m = n ∧ Q m}.ncard = 1", True, id="a square"),
        pytest.param("{m | 2 * m + 1 = n ∧ Q m}.ncard = 1", True, id="a line"),
        pytest.param("{m | (m : ℤ) = n ∧ Q m}.ncard = 1", True, id="a cast"),
        pytest.param("{m | m - 3 = n ∧ Q m}.ncard = 1", True, id="a difference"),  # at most 4 on ℕ, 1 in a ring
        pytest.param("{m | m * k = n ∧ Q m}.ncard = 1", False, id="a factor free of the member"),
        pytest.param("{m | 0 * m = n ∧ Q m}.ncard = 1", False, id="a factor zero"),
        pytest.param("{m | m ^ k = n ∧ Q m}.ncard = 1", False, id="an exponent free of the member"),
    ],
)
def test_what_pins_a_member(value: str, pinned: bool) -> None:
    assert (pinned_count([t.text for t in lex_code(value)]) is not None) is pinned
