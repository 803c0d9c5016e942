"""Value red team 44 (Lean, no-answer, G2 of the text profile): what red team 43 left of the hedges and the
restated searches, by class.

* (1) The question's condition at a point written as a term: ``{n | n = Nat.succ 0 ∧ C (Nat.succ 0)}``,
  ``3 / 3``, ``Finset.card {0}``, a negative literal ``-3`` or ``0 - 3`` on ``ℤ`` (``putnam_2019_a1``),
  ``3 + 4`` (``putnam_2024_a4``). Round 43 tried the condition at each numeral token the value writes; now
  (``_answer_points``) at every closed term of the value's normal form (literal arithmetic folded, casts of
  literals dropped, ``Nat.succ 0`` read as ``1``).
* (2) A count compared with a term that names the member only as padding: ``{m : ℕ | |(320 + 0 * n) -
  ↑(m ^ 2)| ≤ 250}.encard = 15``, ``= n - n``, ``= 0 * n``, ``n ^ 0``, ``0 ^ (n + 1)``, ``(n, 15).2``, ``n =
  n`` or ``0 ≤ n`` or ``False ∧ ..`` inside the counted set, ``Finset.Icc n n``. Now
  (``_answer_count_padding``) the value's variables must stand where the comparison varies with them, read
  on the normal form's tree through operations known to vary with an operand (``+``; ``-``, ``*``, ``/``,
  ``%``, ``^`` beside no absorbing literal; relations and connectives not decided by their other side; a
  count of a set-builder, interval, range or divisor set), and the rule fails closed elsewhere (``if``,
  ``min``, an unknown function, a binder, two occurrences that may cancel).
* (3) The condition respelled under a premise: ``{n | ∀ p, Nat.Prime p ∧ p > 5 ∧ .. → n = p}`` against
  ``putnam_2024_a4``'s ``p.Prime ∧ 5 < p``, ``r ≥ 1``, ``(p).Prime``, ``¬ C ∨ m = n``, ``¬ ∃ m, C m ∧ m ≠
  n``. The normal form reads those spellings alike but turns the implication into a disjunction and
  pulls the premise's quantifiers out, so the condition is found only as written, where any respelling hid
  it; an equation's sides swapped there (``m = A ^ 3 + ..`` for ``A ^ 3 + .. = n``). Now
  (``_answer_respelled``) both sides are read as written with ``a > b`` as ``b < a``, ``a ≥ b`` as ``b ≤ a``,
  ``a ≠ b`` as ``¬ a = b``, ``Nat.Prime p``/``_root_.Prime p``/``p.Prime`` as one and an equation's sides in
  one order.
* (4) A premise or an extremum stated by hand (``IsLeast`` written out with ``∀``, ``lowerBounds``, ``∃!``
  by hand, a premise ``m = n → C m``): every spelling tried was refused before (red team 43 and the copy
  rule); those with a respelled condition are in (3).

Measured (G2, as ``g2`` runs it), before the change and after it: ``ATTACKS`` (46) 9 refused before (``2 + 1``
and ``1 * 1`` and a hedge between ``1 + 0`` and ``2`` through the numerals the value writes, ``15 + 0 * n``
and ``if True`` and ``Finset.Icc n n`` by the domain, word or restated rules, and three restated searches
whose other conjunct or unpremised form stayed as written), 46 now. ``HONEST`` (26, the official answers of
the touched statements among them): 26 accepted before and now. ``BY_HAND`` (6) refused before and now.
Official answers 346 of 346 (red team 37's sweep), the verdict snapshot unchanged.

Left: the official answer ∩ the question's hard conjunct (as round 43: an honest answer may share an easy
conjunct of its question, and the text cannot tell which is hard; a sound rule would need the proof's own
terms); the condition restated up to algebra (``6 ≤ p`` for ``5 < p``, ``¬ p ≤ 5``); a point inside a
binder's type written as a term (``∀ k : Fin (1 + 1)``: the canonical form keeps the parentheses of the type
it drops, so ``putnam_2023_b5``'s condition at ``1 + 1`` passes); a condition of arithmetic alone at a point
(``putnam_2018_b3`` at ``2 ^ 2``: decided by evaluation, red team 43); a count of a set that depends on the
member only trivially where the reader reads a varying place (``{m | m = n}.ncard``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_count_padding import depends
from putnam_solver.core.provers.lean._answer_respelled import respelled
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, LEAST, g2_alone
from tests.adversarial.test_lean_redteam43_hedges import A1, A4, A19, B3, B5, SQUARES, near, q_a1, q_a4, q_a19
from tests.helpers import assert_linear_work, refusal_table_test

__all__ = ["BENCHMARK"]

PAIRS = "putnam_1979_a3"  # `(∀ m, ∃ n > m, ..) ↔ solution (x 1, x 2)`, a predicate on pairs
SMALL = "{m : ℕ | m < 9 ∧ 2 * m ^ 2 + 3 = 4 * m"  # a closed set to count, for the task's shape


def r4(v: str) -> str:
    """``putnam_2024_a4``'s condition at ``v``, respelled: ``Nat.Prime v`` and ``v > 5``."""
    return q_a4(v).replace(f"{v}.Prime", f"Nat.Prime {v}").replace(f"5 < {v}", f"{v} > 5")


def a4_by_all(old: str, new: str) -> str:
    """The least ``p`` of ``putnam_2024_a4`` restated by ``∀`` with one part respelled."""
    return "{n | ∀ p, " + q_a4("p").replace(old, new) + " → n = p}"


# name: (problem, value); each refused now ("refused before" in the names of those refused before)
ATTACKS: dict[str, tuple[str, str]] = {
    # (1) the condition at a point written as a term
    "a point 2 + 1 (refused before)": (A1, f"{{n | n = 2 + 1 ∧ {q_a1('(2 + 1)')}}}"),
    "a point 1 * 1 (refused before)": (A1, f"{{n | n = 1 * 1 ∧ {q_a1('(1 * 1)')}}}"),
    "a point Nat.succ 0": (A1, f"{{n | n = Nat.succ 0 ∧ {q_a1('(Nat.succ 0)')}}}"),
    "a point 3 / 3": (A1, f"{{n | n = 3 / 3 ∧ {q_a1('(3 / 3)')}}}"),
    "a point Finset.card {0}": (A1, f"{{n | n = Finset.card {{0}} ∧ {q_a1('(Finset.card {0})')}}}"),
    "a point Nat.pred 2": (A1, f"{{n | n = Nat.pred 2 ∧ {q_a1('(Nat.pred 2)')}}}"),
    "a hedge between two terms": (A1, f"{{n | (n = 1 ∧ {q_a1('((1 : ℕ) + 0)')}) ∨ (n = 2 ∧ ¬{q_a1('(1 + 0)')})}}"),
    "a negative literal": (A19, f"{{n : ℤ | n = -3 ∧ {q_a19('-3')}}}"),
    "a negative literal in parentheses": (A19, f"{{n : ℤ | n = -3 ∧ {q_a19('(-3)')}}}"),
    "a negative difference": (A19, f"{{n : ℤ | n = 0 - 3 ∧ {q_a19('(0 - 3)')}}}"),
    "a negative literal beside the answer": (
        A19,
        f"{{n : ℤ | (n = -3 ∧ {q_a19('-3')}) ∨ (n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6)}}",
    ),
    "a negative literal, respelled": (
        A19,
        "{n : ℤ | n = -3 ∧ ∃ A B C : ℤ, 0 ≤ A ∧ 0 ≤ B ∧ 0 ≤ C ∧ A^3 + B^3 + C^3 - 3*A*B*C = -3}",
    ),
    "a point 3 + 4 (putnam_2024_a4)": (A4, f"{{p | p = 3 + 4 ∧ {q_a4('(3 + 4)')}}}"),
    "a point 3 + 4, respelled": (A4, f"{{p | p = 3 + 4 ∧ {r4('(3 + 4)')}}}"),
    # (2) a count naming the member only as padding
    "the member times zero in the counted set": (SQUARES, f"{{n : ℤ | {near('(320 + 0 * n)')}.encard = 15 ∧ n = 320}}"),
    "the member less itself in the counted set": (
        SQUARES,
        f"{{n : ℤ | {near('(320 + (n - n))')}.encard = 15 ∧ n = 320}}",
    ),
    "zero times the member first": (SQUARES, f"{{n : ℤ | {near('(n * 0 + 320)')}.encard = 15 ∧ n = 320}}"),
    "a padded subtype count": (
        SQUARES,
        "{n : ℤ | Nat.card {m : ℕ // |(320 + 0 * n) - ↑(m ^ 2)| ≤ 250} = 15 ∧ n = 320}",
    ),
    "compared with n - n": (A1, f"{{n : ℕ | {SMALL}}}.ncard = n - n ∧ n = 3}}"),
    "compared with 0 * n": (A1, f"{{n : ℕ | {SMALL}}}.ncard = 0 * n ∧ n = 3}}"),
    "compared with n ^ 0": (A1, f"{{n : ℕ | {SMALL}}}.ncard = 14 + n ^ 0 ∧ n = 3}}"),
    "compared with 0 ^ (n + 1)": (A1, f"{{n : ℕ | {SMALL}}}.ncard = 15 + 0 ^ (n + 1) ∧ n = 3}}"),
    "compared with a projection": (A1, f"{{n : ℕ | {SMALL}}}.ncard = (n, 15).2 ∧ n = 3}}"),
    "n = n in the counted set": (A1, f"{{n : ℕ | {SMALL} ∧ n = n}}.ncard = 15 ∧ n = 3}}"),
    "0 ≤ n in the counted set": (A1, f"{{n : ℕ | {SMALL} ∧ 0 ≤ n}}.ncard = 15 ∧ n = 3}}"),
    "n < n + 1 in the counted set": (A1, f"{{n : ℕ | {SMALL} ∧ n < n + 1}}.ncard = 15 ∧ n = 3}}"),
    "False ∧ in the counted set": (
        A1,
        "{n : ℕ | {m : ℕ | m < 9 ∧ (2 * m ^ 2 + 3 = 4 * m ∨ (False ∧ n = m))}.ncard = 15 ∧ n = 3}",
    ),
    "an interval of one point": (A1, f"{{n : ℕ | (Finset.Icc n n).card = 1 ∧ {SMALL}}}.ncard = 15 ∧ n = 3}}"),
    "a predicate padded by 0 * a": (PAIRS, "fun (a, b) => {m : ℕ | m < 9 ∧ m ∣ 12}.ncard = 6 + 0 * a ∧ a = b"),
    "a predicate padded by 0 * b": (PAIRS, "fun (a, b) => {m : ℕ | m < 9 ∧ m ∣ 12}.ncard = 6 + 0 * b ∧ a = b"),
    "15 + 0 * n (refused before)": (SQUARES, f"{{n : ℤ | {near('320')}.encard = 15 + 0 * n ∧ n = 320}}"),
    "if True (refused before)": (SQUARES, f"{{n : ℤ | {near('(if True then 320 else n)')}.encard = 15 ∧ n = 320}}"),
    # (3) the condition respelled under a premise
    "Nat.Prime p": (A4, a4_by_all("p.Prime", "Nat.Prime p")),
    "Prime p": (A4, a4_by_all("p.Prime", "Prime p")),
    "(p).Prime": (A4, a4_by_all("p.Prime", "(p).Prime")),
    "p > 5": (A4, a4_by_all("5 < p", "p > 5")),
    "r ≥ 1": (A4, a4_by_all("1 ≤ r", "r ≥ 1")),
    "p - 1 ≥ r": (A4, a4_by_all("r ≤ p - 1", "p - 1 ≥ r")),
    "the greatest by hand, respelled": (A4, f"{{n | ∀ m, {r4('m')} → m ≤ n ∧ n ≤ m}}"),
    "the implication as a disjunction": (A4, f"{{n | ∀ m, ¬{r4('m')} ∨ m = n}}"),
    "none other": (A4, f"{{n | ¬ ∃ m, {r4('m')} ∧ m ≠ n}}"),
    "squeezed, respelled": (A4, f"{{n | ∃ m ≥ n, n ≥ m ∧ {r4('m')}}}"),
    "the least by ∀ with ≠": (
        A1,
        f"{{n | ∀ m, {q_a1('m').replace('0 < a', 'a ≠ 0')} ∧ (∀ i < m, ¬{q_a1('i')}) → n = m}}",
    ),
    "an equation's sides swapped (putnam_2019_a1)": (
        A19,
        "{n : ℤ | ∀ m : ℤ, (∃ A B C : ℤ, A ≥ 0 ∧ B ≥ 0 ∧ C ≥ 0 ∧ m = A^3 + B^3 + C^3 - 3*A*B*C) → m = n}",
    ),
    "an equation's sides swapped (putnam_2024_a1)": (
        A1,
        f"{{n | ∀ m, {q_a1('m').replace('2*a^m + 3*b^m = 4*c^m', '4*c^m = 2*a^m + 3*b^m')} → n = m}}",
    ),
    "the least by ∀ with >": (
        A1,
        f"{{n | ∀ m, {q_a1('m').replace('0 < b', 'b > 0')} ∧ (∀ i < m, ¬{q_a1('i')}) → n = m}}",
    ),
}
# (4) spelled by hand: refused before and now (red team 43, the copy rule)
P_LEAST = "(0 < k ∧ ∀ m ∈ Set.Ioo (0 : ℤ) (1993), ∃ j : ℤ, (m / 1993 < (j : ℝ) / k) ∧ ((j : ℝ) / k < (m + 1) / 1994))"
BY_HAND: dict[str, tuple[str, str]] = {
    "IsLeast written out": (LEAST, f"sInf {{n : ℕ | {P_LEAST.replace('k', 'n')} ∧ ∀ k : ℕ, {P_LEAST} → n ≤ k}}"),
    "lowerBounds written out": (
        LEAST,
        f"sInf {{n : ℕ | n ∈ {{k : ℕ | {P_LEAST}}} ∧ n ∈ lowerBounds {{k : ℕ | {P_LEAST}}}}}",
    ),
    "IsLeast of the member written out": (A1, f"{{n | {q_a1('n')} ∧ ∀ m, {q_a1('m')} → n ≤ m}}"),
    "upperBounds written out": (
        A1,
        f"{{n | ∀ m, {q_a1('m')} → m ≤ n}} ∩ {{n | ∀ k, (∀ m, {q_a1('m')} → m ≤ k) → n ≤ k}}",
    ),
    "∃! written out": (A1, f"{{n | ∃ m, {q_a1('m')} ∧ (∀ k, {q_a1('k')} → k = m) ∧ n = m}}"),
    "a premise written out": (A1, f"{{n | ∀ m : ℕ, m = n → {q_a1('m')}}}"),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "putnam_2024_a1 official": (A1, "{1}"),
    "putnam_2024_a4 official": (A4, "{7}"),
    "putnam_2019_a1 official": (A19, "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_2023_b5 official": (B5, "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_1994_b1 official": (SQUARES, "{n : ℤ | (315 ≤ n ∧ n ≤ 325) ∨ (332 ≤ n ∧ n ≤ 350)}"),
    "putnam_2018_b3 official": (B3, "{2^2, 2^4, 2^16, 2^256}"),
    "putnam_1979_a3 official": (PAIRS, "fun (a, b) => ∃ m : ℤ, a = m ∧ b = m"),
    "putnam_1993_b1 official": (LEAST, "3987"),
    # (1) points written as terms that hold no question
    "a member as a term": (A1, "{n | n = 2 - 1}"),
    "a term with an easy conjunct": (A1, "{n | n = 2 + 1 - 2 ∧ 0 < 2 + 1 - 2}"),
    "a prime at a term": (A4, "{p | p = 3 + 4 ∧ Nat.Prime (3 + 4)}"),
    "negative residues": (A19, "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n (-6) ∧ ¬Int.ModEq 9 n (-3)}"),
    # (3) honest respellings
    "a respelled bound": (A4, "{p : ℕ | Nat.Prime p ∧ p > 5 ∧ p < 8}"),
    "residues respelled": (A19, "{n : ℤ | 0 ≤ n ∧ ¬ n % 9 = 3 ∧ n % 9 ≠ 6}"),
    "putnam_2023_b5 official respelled": (B5, "{n : ℕ | n = 1 ∨ n % 4 = 2}"),
    "intervals by ≥": (SQUARES, "{n : ℤ | (n ≥ 315 ∧ 325 ≥ n) ∨ (n ≥ 332 ∧ 350 ≥ n)}"),
    "≠ and >": (A1, "{n : ℕ | n ≠ 0 ∧ 2 > n}"),
    "a member on the right": (A1, "{n | 1 = n}"),
    "residues with sides swapped": (A19, "{n : ℤ | 0 ≤ n ∧ ¬ 3 = n % 9 ∧ 6 ≠ n % 9}"),
    # (2) counts that vary with the member
    "a count of a range": (A1, "{n : ℕ | (Finset.range n).card = 1}"),
    "a count compared with twice the member": (A1, "{n : ℕ | 2 * n = Set.ncard {k : ℕ | k < 2}}"),
    "a count of the numbers below the member": (A1, "{n : ℕ | {k : ℕ | k < n}.ncard = 1}"),
    "a count of the member (red team 42)": (SQUARES, "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 251}.encard = 15}"),
    "a divisor count beside a member": ("putnam_2011_b2", "{t | t = {d : ℕ | d ∣ 4}.ncard - 1 ∨ t = 5}"),
    "a count of a finite type beside a member": (A1, "{n : ℕ | n + 2 = Fintype.card (Fin 3)}"),
    "a count compared with the member": (A1, "{n : ℕ | n = Set.ncard {k : ℕ | k < 1}}"),
}


test_each_attack_is_refused = refusal_table_test(g2_alone, attacks=ATTACKS)
test_each_premise_or_extremum_by_hand_stays_refused = refusal_table_test(g2_alone, attacks=BY_HAND)
test_each_honest_twin_passes = refusal_table_test(g2_alone, honest=HONEST)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("a negative literal", "the answer holds the question's own condition at another variable or at a point"),
        ("Nat.Prime p", "the answer holds the question's own condition at another variable or at a point"),
        ("compared with n - n", "or names them only where they cannot change it"),
    ],
)
def test_the_refusal_says_why(bench: Benchmark, name: str, said: str) -> None:
    problem, value = ATTACKS[name]
    assert said in g2_alone(bench, problem, value)


@pytest.mark.parametrize(
    ("texts", "variables", "varies"),
    [
        pytest.param("encard { m | | n - m ^ 2 | ≤ 250 } = 15", {"n"}, True, id="the member in the counted set"),
        pytest.param("t = ncard { d | d ∣ 4 } - 1", {"t"}, True, id="compared with the member"),
        pytest.param("ncard { m | m < 9 } = 15 + 0 * n", {"n"}, False, id="times zero"),
        pytest.param("ncard { m | m < 9 } = n - n", {"n"}, False, id="less itself"),
        pytest.param("ncard { m | m < 9 } = min n 0", {"n"}, False, id="an unread function"),
        pytest.param("ncard { m | m < 9 } = if n = 0 then 1 else 1", {"n"}, False, id="an if"),
        pytest.param("ncard { m | m < 9 ∧ ∃ k , k = n } = 3", {"n"}, False, id="a binder"),
    ],
)
def test_what_the_padding_reader_reads(texts: str, variables: set[str], varies: bool) -> None:
    assert depends(texts.split(), variables) is varies


def test_respelling_keeps_a_binders_predicate() -> None:
    """``∃ x > 0, ..`` binds ``x``: its predicate is not swapped into ``0 < x``, which would bind ``0``."""
    assert respelled(["∃", "x", ">", "0", ",", "x", "≠", "y", "∧", "a", "≥", "b"], [10**6, 0]) == [
        "∃",
        "x",
        ">",
        "0",
        ",",
        "¬",
        "x",
        "=",
        "y",
        "∧",
        "b",
        "≤",
        "a",
    ]


def test_respelling_many_relations_stays_within_its_budget() -> None:
    """A value of many relations is respelled within the work the value's size allows, or the budget is
    marked spent (the caller then refuses)."""

    def read(n: int) -> object:
        budget = [40 * n, 0]
        return respelled(" ∧ ".join(f"x{k} > {k}" for k in range(n)).split(), budget)

    assert_linear_work(read, 50)
