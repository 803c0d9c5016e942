"""False rejections, round 47 (Lean, no-answer, G2): honest values the copy, count and decision rules refused, each
class beside near misses that must stay refused.

* the copy rule (:mod:`_answer_binding`): a body of the question (``p.eval (r i) = 0`` of ``putnam_1991_a3``'s
  ``∀ i : Fin n,``) held under a quantifier over a closed domain with a numeral (``∀ i : Fin 2,``) is no copy
  of it: a quantifier's variable is marked by its written domain (a point, or one naming a variable), and a
  point does not match a variable's domain; the whole condition at a point is still a needle of its own;
* the shared binding reader (:func:`_number_decisions.bindings`) reads a dependent arrow ``(n : ℕ) → B``
  (``{n : ℕ} →``, ``⦃n⦄ →``, ``[i : C] →``, a pair ``(n : ℕ) × B``) as a binder of ``n`` over ``B``, and a
  group with no ``:`` before an arrow (``(ℕ → ℕ) → B``) as binding nothing; it gave up on any ``)`` before
  ``→``, so a value with ``(ℕ) → ℕ`` had no condition the library decides, and round 44's workaround in
  :mod:`_answer_count_parameters` (``_plain_arrows``, and any dependent arrow leaving no parameter positive)
  is gone: ``putnam_2023_b3``'s ``(IsZigZag : {k : ℕ} → ..)`` keeps its ``(hn : 2 ≤ n)``;
* a chain of ``+``/``-`` of coordinates and numerals as a bound (``a < b + c``, ``a ≤ b - 1``,
  :func:`_answer_count_links.shifted`), each coordinate's side as the term grows or shrinks with it;
* a term of coordinates below a number term (``a + b ≤ 2``, ``n + 1 ≤ 3988``, ``2 * n < 7974``,
  :func:`_answer_count_links.term_bound`): the upper bound of each coordinate the term grows with, where the
  others it grows with are bounded below and those it shrinks with above;
* an untyped bounded quantifier (``∃ j < 2,``) in a value that writes ``ℤ`` elsewhere, where its own scope
  holds only variables typed ``ℕ`` (:func:`_answer_count_quantifiers._natural_scope`);
* a one-point quantifier ``∃ k, k = n ∧ B`` / ``∀ k, k = n → B`` beside a count, outside every counted set
  (:func:`_answer_count_quantifiers._one_point`).

Measured (G2; the text profile, or the full profile with ``open Classical`` before the solution), before
the change and after it: ``HONEST`` (23): 0 accepted before, 23 now. ``ATTACKS`` (36): 36 refused before, 36
now. ``BINDINGS`` (6): the two rows that bind nothing read the same before; the four arrows and pairs were
not read. Pinned statements with a positive parameter: 36 before, 37 now (``putnam_2023_b3``), none lost;
round 44's table changed where intended (its dependent-arrow row ``(f : (m : ℕ) → Fin m) (n : ℕ) (hn : 0 <
n)`` gives ``{0}``: ``m`` is bound inside ``f``'s type only). Official answers 346 of 346, the verdict
snapshot identical.

Changed on purpose beside the honest rows: part of ``putnam_1991_a3``'s condition at the point ``2`` (``(∀ i :
Fin 2, B) ∧ (∀ i : Fin 1, C)``, its order conjunct left out) passes, as the honest rows do; the whole condition
at a point stays refused. Left (refused, fail closed): a body under a quantifier whose domain is unwritten
(``∀ i, p.eval (r i) = 0`` with ``r : Fin 2 → ℝ``) or names a variable (``Fin p.natDegree``); a
one-point quantifier inside a counted set (``Set.ncard {m | m < 9 ∧ ∃ k, k = m ∧ ..}``: the padding rule
does not read a member pinned through it); a bound by a product of coordinates, a power or a scaled term in a
chain (``a < b * c``, ``n ^ 2 < 9``, ``a < b + 2 * c``); a lower bound from a term (``a + b ≥ -3`` over
``ℤ``); ``Set.univ`` and a ``Finset`` cast to ``Set`` beside a count (``Set.ncard (Finset.range 9 : Set ℕ)``,
the word rule's).
"""

from __future__ import annotations

from functools import partial

import pytest

from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._number_decisions import bindings
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_falserej44 import FULL, LEAST, OPEN, TEXT, _verdict
from tests.adversarial.test_lean_falserej46 import _read
from tests.adversarial.test_lean_redteam39_values import BENCHMARK
from tests.helpers import assert_linear_work, refusal_table_test

__all__ = ["BENCHMARK"]
ZIGZAG = "putnam_2023_b3"  # `ℕ → ℝ`, `(IsZigZag : {k : ℕ} → ..) .. (n : ℕ) (hn : 2 ≤ n)`
ROOKS = "putnam_2005_a2"  # `ℕ → ℕ`, `fun n ↦ if n = 1 then 0 else 2 ^ (n - 2)`
INTEGER = "putnam_1963_b1"  # `ℤ`, `2`
SET = "putnam_2002_a6"  # `Set ℕ`, `{2}`
A1 = "putnam_2024_a1"  # `Set ℕ`, `{1}`
A3 = "putnam_1991_a3"  # `p ∈ solution ↔ ∃ r, (∀ i : Fin (n - 1), A) ∧ (∀ i : Fin n, B) ∧ (∀ i : Fin (n - 1), C)`
A = "r i < r (i + 1)"
B = "p.eval (r i) = 0"
C = "(Polynomial.derivative p).eval ((r i + r (i + 1)) / 2) = 0"
Q = "2 * m ^ 2 + 3 = 4 * m"

# name: (profile, problem, text put before the solution, value); each passes G2
HONEST: dict[str, tuple[str, str, str, str]] = {
    # 0. a body of the question under a quantifier over a point of its domain
    "roots over Fin 2": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | p.degree = 2 ∧ ∃ r : Fin 2 → ℝ, r 0 ≠ r 1 ∧ ∀ i : Fin 2, {B}}}",
    ),
    "roots of a sequence over Fin 2": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | p.degree = 2 ∧ ∃ r : ℕ → ℝ, r 0 < r 1 ∧ ∀ i : Fin 2, {B}}}",
    ),
    "roots over Fin (1 + 1)": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | p.natDegree = 2 ∧ ∃ r : ℕ → ℝ, r 0 ≠ r 1 ∧ ∀ i : Fin (1 + 1), {B}}}",
    ),
    # 1. dependent arrows read as binders
    "a count of ZMod under a statement with an implicit arrow": (
        TEXT,
        ZIGZAG,
        "",
        "fun n => ((2 * Nat.card (ZMod n) + 2 : ℕ) : ℝ) / 3",
    ),
    "a decided if under an arrow type with no binder": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k : ℕ => if k = 1 then 0 else 2 ^ (k - 2)) : (ℕ) → ℕ) n",
    ),
    "a decided if under a dependent arrow type": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k : ℕ => if k = 1 then 0 else 2 ^ (k - 2)) : (k : ℕ) → ℕ) n",
    ),
    # 2. bounds by two coordinates or by subtraction
    "a sum of two coordinates": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b + c ∧ b < 3 ∧ c < 3} + 3977",
    ),
    "a coordinate minus one": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a ≤ b - 1 ∧ b < 10} + 3942"),
    "strictly below a coordinate minus one": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a < b - 1 ∧ b < 10} + 3951",
    ),
    "a numeral minus a coordinate": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a ≤ 5 - b ∧ b < 10} + 3942"),
    "a difference of integer coordinates": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℤ × ℤ × ℤ | 0 ≤ a ∧ a ≤ b - c ∧ b < 3 ∧ 0 ≤ b ∧ c < 3 ∧ 0 ≤ c} + 3977",
    ),
    # 2b. a term of coordinates below a number
    "a sum of naturals below a numeral": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a + b ≤ 2} + 3981"),
    "one more than the variable": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n + 1 ≤ 3988}"),
    "twice the variable, mirrored": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 7974 > 2 * n}"),
    "a truncated difference": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a - b ≤ 2 ∧ b < 5} + 3965"),
    "a sum of integers bounded below": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a + b ≤ 2 ∧ 0 ≤ a ∧ 0 ≤ b} + 3981",
    ),
    # 3. an untyped bounded quantifier beside ℤ written elsewhere
    "a count cast into ℤ": (TEXT, INTEGER, "", "(Set.ncard {m : ℕ | m < 3 ∧ ∃ j < 2, m = j} : ℤ)"),
    "a forall beside a cast into ℤ": (TEXT, INTEGER, "", "((Set.ncard {m : ℕ | m < 3 ∧ ∀ j ≤ 1, m ≠ j + 1} : ℕ) : ℤ)"),
    "beside an integer numeral": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | m < 10 ∧ ∃ j < 3, m = 2 * j} + (3982 : ℤ).toNat",
    ),
    # 4. a one-point quantifier beside a count
    "exists equal to the member": (TEXT, SET, "", "{n | ∃ k, k = n ∧ {m | m < k}.ncard = 2}"),
    "exists equal to the member, typed": (TEXT, SET, "", "{n : ℕ | ∃ k : ℕ, n = k ∧ {m : ℕ | m < k}.ncard = 2}"),
    "forall equal to the member": (TEXT, SET, "", "{n : ℕ | ∀ k, k = n → {m : ℕ | m < k}.ncard = 2}"),
    "exists equal to a term": (TEXT, SET, "", "{n : ℕ | ∃ k, k = n + 1 ∧ {m : ℕ | m < k}.ncard = 3}"),
}

# name: (profile, problem, text put before the solution, value); each must stay refused by G2
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    # 0. the question over its own domain, or its whole condition at a point
    "the copy over the degree": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | ∃ r : ℕ → ℝ, (∀ i : Fin (p.natDegree - 1), {A}) ∧ (∀ i : Fin p.natDegree, {B}) ∧ "
        f"(∀ i : Fin (p.natDegree - 1), {C})}}",
    ),
    "the whole condition at the point 2": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | p.natDegree = 2 ∧ ∃ r : ℕ → ℝ, (∀ i : Fin 1, {A}) ∧ (∀ i : Fin 2, {B}) ∧ "
        f"(∀ i : Fin 1, {C})}}",
    ),
    "the whole condition merged at the point 2": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | p.natDegree = 2 ∧ ∃ r : ℕ → ℝ, ∀ i : Fin 2, {A} ∧ {B} ∧ {C}}}",
    ),
    "one conjunct over the question's own domain": (
        TEXT,
        A3,
        "",
        f"{{p : Polynomial ℝ | p.natDegree = 2 ∧ ∃ r : ℕ → ℝ, r 0 ≠ r 1 ∧ ∀ i : Fin p.natDegree, {B}}}",
    ),
    # 1. a parameter not shown positive
    "ZMod of a difference": (TEXT, ZIGZAG, "", "fun n => ((2 * Nat.card (ZMod (n - 2)) + 6 : ℕ) : ℝ) / 3"),
    "an undecided if under an arrow type": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k : ℝ => if Irrational k then 0 else 2 ^ (n - 2)) : (k : ℝ) → ℕ) n",
    ),
    # 2. a coordinate of the term unbounded, or wrapping
    "a sum with one summand unbounded": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b + c ∧ b < 3} + 3977",
    ),
    "a difference with the subtrahend unbounded below": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℤ × ℤ × ℤ | 0 ≤ a ∧ a ≤ b - c ∧ b < 3 ∧ 0 ≤ b ∧ c < 3} + 3977",
    ),
    "a numeral minus an integer unbounded below": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | 0 ≤ a ∧ a ≤ 5 - b ∧ b < 10} + 3942",
    ),
    "below itself plus another": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < a + b ∧ b < 10} + 3942"),
    "a product of two coordinates": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℤ × ℤ × ℤ | a < b * c ∧ b < 3 ∧ c < 3} + 3977",
    ),
    "a Fin coordinate in a sum": (TEXT, LEAST, "", "Set.ncard {(a, b, c) : ℕ × Fin 3 × ℕ | a < b + c ∧ c < 3} + 3977"),
    # 2b. a term of coordinates that bounds nothing
    "a sum of integers, one unbounded below": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a + b ≤ 2 ∧ 0 ≤ a} + 3981",
    ),
    "zero times the variable": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 0 * n ≤ 5} + 3981"),
    "a difference with the subtrahend unbounded": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a - b ≤ 2} + 3981"),
    "a term above a numeral": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n + 1 ≥ 5} + 3981"),
    "an integer below only": (TEXT, LEAST, "", "Set.ncard {n : ℤ | n + 1 ≤ 5} + 3981"),
    "a difference of the variable with itself": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a - a ≤ 2 ∧ b < 3} + 3981",
    ),
    "a numeral minus the variable": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 5 - n ≤ 2} + 3981"),
    "a Fin coordinate in the term": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × Fin 3 | a + b ≤ 2} + 3981"),
    "below a coordinate of the term": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a + b ≤ a} + 3981"),
    # 3. the quantifier's own scope not of naturals
    "an integer counted variable": (TEXT, INTEGER, "", "(Set.ncard {m : ℤ | 0 ≤ m ∧ m < 3 ∧ ∃ j < 2, m = j} : ℤ)"),
    "an untyped member made integer": (TEXT, INTEGER, "", "(Set.ncard {m | m < (3 : ℤ) ∧ 0 ≤ m ∧ ∃ j < 2, m = j} : ℤ)"),
    "a cast inside the scope": (TEXT, INTEGER, "", "(Set.ncard {m : ℕ | m < 3 ∧ ∃ j < 2, (m : ℤ) = j} : ℤ)"),
    "a field of the bound variable": (TEXT, INTEGER, "", "(Set.ncard {m : ℕ | m < 3 ∧ ∃ j < 2, m = j.toNat} : ℤ)"),
    "an unbounded quantifier inside": (TEXT, INTEGER, "", "(Set.ncard {m : ℕ | m < 3 ∧ ∃ j < 2, ∃ k, m = j + k} : ℤ)"),
    # 4. not one point, or inside the counted set
    "a pinned member through one point (red team 45's hedge)": (
        TEXT,
        A1,
        "",
        f"{{n : ℕ | Set.ncard {{m | ∃ k, k = n ∧ m = k ∧ {Q}}} = 1 ∧ n = 3}}",
    ),
    "equal to itself": (TEXT, SET, "", "{n : ℕ | ∃ k, k = k ∧ {m : ℕ | m < k}.ncard = 2 ∧ n = 2}"),
    "a disjunction": (TEXT, SET, "", "{n : ℕ | ∃ k, k = n ∨ {m : ℕ | m < k}.ncard = 2}"),
    "below the member": (TEXT, SET, "", "{n : ℕ | ∃ k, k < n ∧ {m : ℕ | m < k}.ncard = 2}"),
    "a term of the variable itself": (TEXT, SET, "", "{n : ℕ | ∃ k, k = n * k ∧ {m : ℕ | m < k}.ncard = 2}"),
    "one point, then an unbounded exists": (TEXT, SET, "", "{n : ℕ | ∃ k, k = n ∧ ∃ j, {m : ℕ | m < j}.ncard = k}"),
    "under an inner fun": (TEXT, SET, "", "{n : ℕ | (fun t => ∃ k, k = t ∧ {m : ℕ | m < k}.ncard = 2) n}"),
    "one point, then a looser or": (
        TEXT,
        SET,
        "",
        "{n : ℕ | ∃ k, k = n ∧ {m : ℕ | m < k}.ncard = 2 ∨ Irrational (Real.sqrt k)}",
    ),
    "one point, then an implication": (TEXT, SET, "", "{n : ℕ | ∃ k, k = n ∧ {m : ℕ | m < k}.ncard = 2 → n = 5}"),
}

test_each_honest_value_passes = refusal_table_test(_verdict, honest=HONEST)
test_each_near_miss_is_refused = refusal_table_test(_verdict, attacks=ATTACKS)


# id: (text, the names bound, each with its type, at the token of its last use)
BINDINGS: dict[str, tuple[str, dict[str, str | None]]] = {
    "a dependent arrow": ("(n : ℕ) → n = n", {"n": "ℕ"}),
    "an implicit arrow": ("{n : ℤ} → n = n", {"n": "ℤ"}),
    "an arrow of two names": ("(a b : ℝ) → a = b", {"a": "ℝ", "b": "ℝ"}),
    "a dependent pair": ("(n : ℕ) × Fin n", {"n": "ℕ"}),
    "no binder in a plain arrow": ("(ℕ → ℕ) → x = x", {}),
    "no binder in a subtype arrow": ("{x : ℕ | x > 0} → x = x", {}),
}


@pytest.mark.parametrize(("text", "names"), [pytest.param(*v, id=k) for k, v in BINDINGS.items()])
def test_dependent_arrows_bind(text: str, names: dict[str, str | None]) -> None:
    value = lex_code(text)
    found = bindings(value, bracket_partners([t.text for t in value]), ())
    last = len(value) - 1
    scoped = {b.name: b.type for b in found if b.start < last < b.end}
    assert scoped == names


UNITS = ("a < b + b - 1 ∧ ", "a + b - 1 ≤ 5 ∧ ", "(n : ℕ) → ∃ k, k = n ∧ ")
"""Hostile values of many chained links and arrows: each reading stays linear."""


@pytest.mark.parametrize("unit", UNITS)
def test_the_new_readings_are_linear_in_the_value(unit: str) -> None:
    assert_linear_work(partial(_read, unit), 100)
