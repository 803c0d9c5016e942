"""Value red team 43 (Lean, no-answer, G2 of the text profile): hedges on one undecided proposition and
searches restated with quantifiers alone; ``Order.succ`` refused though honest.

* (b) A search of the question's own property with no ``Nat.find``, ``sInf`` or count: ``{n | ∀ m, Q m ∧ (∀
  i < m, ¬Q i) → n = m}`` is the least ``m`` with ``Q`` (against ``putnam_2024_a1``'s ``{n | Q n} = solution``
  a proof needs a witness and the uniqueness, never the value); ``∀ m, Q m → m = n``, ``∃ m ≤ n, n ≤ m ∧ Q
  m``, behind ``let``, as ``setOf``, on ``putnam_2024_a4``, ``2018_b3``, ``2019_a1``, ``2023_b5``. The copy
  rule matched ``Q`` only where the member stands (and, since copy red team 30, only under a binder of the
  same kind). Now (``_answer_restated``) the question's member condition may stand under no binder of the
  value, and no conjunct of it that asks alone under a quantifier of the value.
* (a) A hedge at a point: ``{n | n = 1 ∧ Q 1}`` is ``{1}`` or empty, and the theorem then needs ``Q n → n =
  1`` but never ``Q 1``; ``putnam_1994_b1``'s count at ``320`` beside ``n = 320`` lets a proof skip counting
  the squares near each member. ``_answer_restated`` refuses the condition (or a conjunct) instantiated at
  any numeral the value writes; ``_answer_count_hedges`` refuses a count compared with a term that names
  none of the value's variables (a closed proposition: ``{m : ℕ | m < 30 ∧ |320 - m ^ 2| ≤ 250}.encard =
  15``, ``ncard`` for ``encard``, ``Nat.card`` of a subtype, reversed, ``≥``), which red team 42's domain
  rule left unread as "a property of each member" though it names no member.
* (c) ``Order.succ n`` was read as a ``succ`` field of a receiver ``Order``; it is judged by its argument now
  (``_answer_fields``), as a field's receiver is.

Measured (G2, as ``g2`` runs it), before the change and after it: ``ATTACKS`` (30) 4 refused before (the
``IsLeast``, ``lowerBounds`` and one-point ``∃`` spellings by the copy rule, a cast count by the domain rule),
30 now. ``HONEST`` (31, the official answers of the statements touched among them): 25 accepted before (the
six ``Order.succ`` were refused), 31 now. ``SUCC_REFUSED`` (3) refused before and now. ``BY_DESIGN`` (1):
red team 16's ``fun n => n + 1 ∈ setOf AliceHasWinningStrategy`` (the question's own set asked at ``n + 1``,
listed there as no copy) accepted before, refused now. Official answers 346 of 346 (red team 37's sweep), the
verdict snapshot unchanged.

Left: the official answer (or any superset of it) ∩ the question's own conjunct at the member (``{n | {m :
ℕ | |n - m ^ 2| ≤ 250}.encard = 15} ∩ Set.Icc (300 : ℤ) 400``: the proof bounds the members and never counts),
since an honest answer may share an easy conjunct of its question there (red team 23's ``{P | P.eval 0 = 0}
∩ ..``, red team 42's twin) and the text cannot tell which conjunct is the hard one; the condition restated
up to algebra or respelled (``Nat.Prime p`` for ``p.Prime``), at a point written as a term or a negative
literal, a count naming the member only in a padding (``0 * n``), a premise or an extremum stated by hand,
and a value with the condition's words beside a thousand numerals (each tried as a point: it may meet the
text gates' time bound, refused).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, LEAST, g2, g2_alone
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

A1 = "putnam_2024_a1"  # `{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), ..} = solution`, answer `{1}`
A4 = "putnam_2024_a4"  # `{p : ℕ | p.Prime ∧ 5 < p ∧ ..} = solution`, answer `{7}`
B3 = "putnam_2018_b3"  # `(n < 10^100 ∧ ..) ↔ n ∈ solution`
A19 = "putnam_2019_a1"  # `{n : ℤ | ∃ A B C : ℤ, ..} = solution`
B5 = "putnam_2023_b5"  # `n ∈ solution ↔ 0 < n ∧ ∀ m : ℤ, IsRelPrime m n → ..`
SQUARES = "putnam_1994_b1"  # `n ∈ solution ↔ (0 < n ∧ {m : ℕ | |n - m ^ 2| ≤ 250}.encard = 15)`
OFFICIAL_1994 = "{n : ℤ | (315 ≤ n ∧ n ≤ 325) ∨ (332 ≤ n ∧ n ≤ 350)}"


def q_a1(v: str, a: str = "a", b: str = "b", c: str = "c") -> str:
    """``putnam_2024_a1``'s condition at ``v`` (its witnesses named ``a b c``)."""
    return f"(0 < {v} ∧ ∃ ({a} {b} {c} : ℕ), 0 < {a} ∧ 0 < {b} ∧ 0 < {c} ∧ 2*{a}^{v} + 3*{b}^{v} = 4*{c}^{v})"


def q_a4(v: str) -> str:
    return (
        f"({v}.Prime ∧ 5 < {v} ∧ ∃ a r : ℤ, 1 ≤ r ∧ r ≤ {v} - 1 ∧ ∃ e : ℕ → ℕ, Set.BijOn e (Set.Icc 0 ({v} - 5 : ℕ)) "
        f"(Set.Icc 0 ({v} - 5 : ℕ)) ∧ ∀ n, 1 ≤ n ∧ n ≤ ({v} - 5 : ℕ) → "
        f"({v} : ℤ) ∣ a ^ (e n : ℕ) - a ^ (e (n - 1) : ℕ) - r)"
    )


def q_b3(v: str) -> str:
    divides = f"(({v} : ℤ) ∣ (2^{v} : ℤ) ∧ ({v} - 1 : ℤ) ∣ (2^{v} - 1 : ℤ) ∧ ({v} - 2 : ℤ) ∣ (2^{v} - 2 : ℤ))"
    return f"({v} < 10^100 ∧ {divides})"


def q_a19(v: str) -> str:
    return f"(∃ A B C : ℤ, A ≥ 0 ∧ B ≥ 0 ∧ C ≥ 0 ∧ A^3 + B^3 + C^3 - 3*A*B*C = {v})"


def q_b5(v: str) -> str:
    return (
        f"(0 < {v} ∧ ∀ m : ℤ, IsRelPrime m {v} → ∃ p : Equiv.Perm (Fin {v}), ∀ k : Fin {v}, "
        f"(↑(p (p k)).1 + 1) ≡ m * (↑k.1 + 1) [ZMOD ↑{v}])"
    )


def near(v: str, bound: str = "") -> str:
    """``putnam_1994_b1``'s count of the squares near ``v`` (optionally with a bound on ``m``)."""
    return f"{{m : ℕ | {bound}|({v} : ℤ) - ↑(m ^ 2)| ≤ 250}}"


# name: (problem, value); each a hedge or a restated search (the accepted-before ones in ACCEPTED_BEFORE)
ATTACKS: dict[str, tuple[str, str]] = {
    # (b) the question's own condition at another bound variable: a search with quantifiers alone
    "the least by ∀": (A1, f"{{n | ∀ m, {q_a1('m')} ∧ (∀ i < m, ¬{q_a1('i')}) → n = m}}"),
    "the only one by ∀": (A1, f"{{n | ∀ m, {q_a1('m')} → m = n}}"),
    "the least by ∀, witnesses renamed": (
        A1,
        f"{{n | ∀ m, {q_a1('m', 'x', 'y', 'z')} ∧ (∀ i < m, ¬{q_a1('i', 'u', 'v', 'w')}) → n = m}}",
    ),
    "the least behind let": (
        A1,
        f"let Q := fun m : ℕ => {q_a1('m')}; {{n | ∀ m, Q m ∧ (∀ i < m, ¬Q i) → n = m}}",
    ),
    "the least as setOf": (A1, f"setOf fun n => ∀ m, {q_a1('m')} ∧ (∀ i < m, ¬{q_a1('i')}) → n = m"),
    "squeezed between bounds": (A1, f"{{n | ∃ m ≤ n, n ≤ m ∧ {q_a1('m')}}}"),
    "the least by ∀ beside a bound": (A1, f"{{n | n < 100 ∧ ∀ m, {q_a1('m')} → n ≤ m ∧ m ≤ n}}"),
    "the least by ∀ (putnam_2024_a4)": (A4, f"{{n | ∀ p, {q_a4('p')} → n = p}}"),
    "squeezed (putnam_2018_b3)": (B3, f"{{n | ∃ m : ℕ, m ≤ n ∧ n ≤ m ∧ {q_b3('m')}}}"),
    "by ∀ and two bounds (putnam_2018_b3)": (B3, f"{{n | ∀ m : ℕ, n ≤ m → m ≤ n → {q_b3('m')}}}"),
    "squeezed (putnam_2019_a1)": (A19, f"{{n : ℤ | ∃ m : ℤ, m ≤ n ∧ n ≤ m ∧ {q_a19('m')}}}"),
    "squeezed (putnam_2023_b5)": (B5, f"{{n : ℕ | ∃ j : ℕ, j ≤ n ∧ n ≤ j ∧ {q_b5('j')}}}"),
    "IsLeast of the question's set inside (refused before)": (A1, f"{{n | IsLeast {{m : ℕ | {q_a1('m')}}} n}}"),
    "lowerBounds of the question's set (refused before)": (
        A1,
        f"{{n | n ∈ lowerBounds {{m : ℕ | {q_a1('m')}}} ∧ ∀ k ∈ lowerBounds {{m : ℕ | {q_a1('m')}}}, k ≤ n}}",
    ),
    "the least by ∃, one point (refused before)": (
        A1,
        f"{{n | ∃ m, {q_a1('m')} ∧ (∀ i < m, ¬{q_a1('i')}) ∧ n = m}}",
    ),
    # (a) a hedge at a point: the member's own half of the answer is the question's, unevaluated
    "a point": (A1, f"{{n | n = 1 ∧ {q_a1('1')}}}"),
    "a point by ∩": (A1, f"{{1}} ∩ {{_n : ℕ | {q_a1('1')}}}"),
    "a hedge between two points": (A1, f"{{n | (n = 1 ∧ {q_a1('1')}) ∨ (n = 2 ∧ ¬{q_a1('1')})}}"),
    "a point (putnam_2019_a1)": (A19, f"{{n : ℤ | (n = 5 ∧ {q_a19('5')}) ∨ (n ≥ 0 ∧ n ≠ 5 ∧ ¬Int.ModEq 9 n 3)}}"),
    "the whole condition at a point": (
        SQUARES,
        f"{{n : ℤ | n = 320 ∧ (0 < (320 : ℤ) ∧ {near('320')}.encard = 15)}}",
    ),
    "the count at a point": (SQUARES, f"{{n : ℤ | {near('320')}.encard = 15 ∧ n = 320}}"),
    # (a) a closed count compared with a numeral: a closed proposition the answer hedges on
    "a closed ncard": (SQUARES, f"{{n : ℤ | {near('320')}.ncard = 15 ∧ n = 320}}"),
    "a closed count, bounded": (SQUARES, f"{{n : ℤ | {near('320', 'm < 30 ∧ ')}.encard = 15 ∧ n = 320}}"),
    "a closed count, reversed": (SQUARES, f"{{n : ℤ | 15 = Set.ncard {near('320')} ∧ n = 320}}"),
    "a closed count, at least": (SQUARES, f"{{n : ℤ | n = 320 ∧ Set.encard {near('320')} ≥ 15}}"),
    "a closed Nat.card of a subtype": (
        SQUARES,
        "{n : ℤ | Nat.card {m : ℕ // |(320 : ℤ) - ↑(m ^ 2)| ≤ 250} = 15 ∧ n = 320}",
    ),
    "a closed count beside the answer": (
        SQUARES,
        f"{{n : ℤ | ((315 ≤ n ∧ n ≤ 325) ∨ (332 ≤ n ∧ n ≤ 350)) ∧ {near('320')}.ncard = 15}}",
    ),
    "a closed count, cast": (SQUARES, f"{{n : ℤ | (({near('320')}.ncard : ℤ) = 15) ∧ n = 320}}"),
    "a closed count, the task's shape": (A1, "{n | {m : ℕ | m < 9 ∧ 2 * m ^ 2 + 3 = 4 * m}.ncard = 15 ∧ n = 3}"),
    "a closed count in a predicate": ("putnam_1979_a3", "fun (a, b) => {m : ℕ | m < 9 ∧ m ∣ 12}.ncard = 6 ∧ a = b"),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "putnam_2024_a1 official": (A1, "{1}"),
    "putnam_2024_a4 official": (A4, "{7}"),
    "putnam_2018_b3 official": (B3, "{2^2, 2^4, 2^16, 2^256}"),
    "putnam_2019_a1 official": (A19, "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_2023_b5 official": (B5, "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_1994_b1 official": (SQUARES, OFFICIAL_1994),
    "putnam_1993_b1 official": (LEAST, "3987"),
    "putnam_2009_b3 official, by ∃": ("putnam_2009_b3", "{n : ℤ | ∃ k ≥ 1, n = 2 ^ k - 1}"),
    "putnam_1991_b1 official, by ∃": ("putnam_1991_b1", "{A : ℤ | ∃ x > 0, A = x ^ 2}"),
    "putnam_2001_a3 official, by ∃": ("putnam_2001_a3", "{m : ℤ | ∃ k : ℤ, k^2 = m ∨ 2*k^2 = m}"),
    # quantifiers that do not hold the question
    "a singleton by ∃": (A1, "{n | ∃ k : ℕ, n = 2 * k + 1 ∧ k = 0}"),
    "a singleton by ∀": (A1, "{n : ℕ | 0 < n ∧ ∀ m < n, m = 0}"),
    "a singleton squeezed": (A1, "{n | ∃ m ≤ n, n ≤ m ∧ m = 1}"),
    "powers by ∃": (B3, "{n | ∃ k ∈ ({1, 2, 4, 8} : Finset ℕ), n = 2 ^ (2 ^ k)}"),
    "intervals by ∃": (
        SQUARES,
        "{n : ℤ | ∃ k : ℤ, (k = 315 ∨ k = 332) ∧ k ≤ n ∧ n ≤ k + (if k = 315 then 10 else 18)}",
    ),
    "residues by ∀": (A19, "{n : ℤ | 0 ≤ n ∧ ∀ r ∈ ({3, 6} : Finset ℤ), ¬n ≡ r [ZMOD 9]}"),
    "a point that is no condition": (A4, "{p | p = 7 ∧ Nat.Prime 7}"),
    "numerals everywhere": (SQUARES, "{n : ℤ | (315 ≤ n ∧ n ≤ 320 ∨ 320 ≤ n ∧ n ≤ 325) ∨ (332 ≤ n ∧ n ≤ 350)}"),
    # counts that depend on the member, or compared with it
    "a count compared with the member": (A1, "{n : ℕ | n = Set.ncard {k : ℕ | k < 1}}"),
    "a divisor count beside a member": ("putnam_2011_b2", "{t | t = {d : ℕ | d ∣ 4}.ncard - 1 ∨ t = 5}"),
    "a count of the member (red team 42)": (SQUARES, "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 251}.encard = 15}"),
    "a count of a finite type beside a member": (A1, "{n : ℕ | n + 2 = Fintype.card (Fin 3)}"),
    "a count under the answer's fun": ("putnam_2005_a2", "fun n => {k : ℕ | k < n ∧ Nat.Coprime k n}.ncard"),
    "the published putnam_2011_a1 count": (
        "putnam_2011_a1",
        "{p : Fin 2 → Fin 2012 | p 0 = 0 ∨ (p 1 ≤ p 0 ∧ p 1 ≤ 3)}.ncard",
    ),
    "an indicator at a point (red team 40)": (
        LEAST,
        "Set.indicator {x : ℕ | Irrational (Real.sqrt (x * 1993 + 1))} 1 5 + 3986",
    ),
    # (c) Order.succ of a number
    "Order.succ of a numeral": (LEAST, "Order.succ 3986"),
    "Order.succ of a sum": (LEAST, "Order.succ (3985 + 1)"),
    "Order.succ ascribed": (LEAST, "Order.succ (3986 : ℕ)"),
    "Order.succ of a parameter": ("putnam_2005_a2", "fun n ↦ if n = 1 then 0 else Order.succ (2 ^ (n - 2) - 1)"),
    "Order.succ twice": (LEAST, "Order.succ (Order.succ 3985)"),
    "Order.succ cast": (LEAST, "((Order.succ (3986 : ℕ) : ℕ) : ℕ)"),
}

# name: (problem, value); refused now by design (red team 16 listed it as no copy): the question's own set,
# asked at the next point, states no answer
BY_DESIGN: dict[str, tuple[str, str]] = {
    "membership of another element (red team 16)": (
        "putnam_2025_a3",
        "fun n => n + 1 ∈ setOf AliceHasWinningStrategy",
    ),
}

# name: (problem, value); `Order.succ` of what the text cannot show to be a number stays refused
SUCC_REFUSED: dict[str, tuple[str, str]] = {
    "of a cardinal": (LEAST, "(Order.succ (3985 : Cardinal)).toNat"),
    "of a choice": (LEAST, "Order.succ (Classical.choose (⟨3986, rfl⟩ : ∃ k : ℕ, k = 3986))"),
    "of a name": (LEAST, "Order.succ x"),
}


test_each_hedge_or_restated_search_is_refused = refusal_table_test(g2_alone, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2_alone, honest=HONEST)


@pytest.mark.parametrize(("problem", "value"), [*BY_DESIGN.values(), *SUCC_REFUSED.values()])
def test_what_stays_refused(bench: Benchmark, problem: str, value: str) -> None:
    assert g2(bench, problem, "", value)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("the least by ∀", "the answer holds the question's own condition at another variable or at a point"),
        ("a closed ncard", "the answer compares a count with a term that names none of its own variables"),
    ],
)
def test_the_refusal_says_why(bench: Benchmark, name: str, said: str) -> None:
    problem, value = ATTACKS[name]
    assert said in g2(bench, problem, "", value)


def test_many_numerals_are_read_in_linear_work(bench: Benchmark) -> None:
    """A set of many numerals (each one a point the question's condition is tried at) is read, not refused
    for the work it takes."""
    many = " ∨ ".join(f"n = {k}" for k in range(1, 200))
    assert g2(bench, A1, "", f"{{n | {many}}}") == ""
