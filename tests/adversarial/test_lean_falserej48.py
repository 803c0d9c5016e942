"""False rejections, round 48 (Lean, no-answer, G2): honest counts the domain and word rules refused, each
class beside near misses that must stay refused.

* a bound by a product or a power of coordinates (:func:`_answer_count_links.shifted`): a summand of a chain
  may be a product of coordinates (``a < b * c``: bounded where each factor is bounded on both sides, a ``ℕ``
  by ``0`` below), a scaled coordinate (``a < b + 2 * c``) or a coordinate to a positive numeral power (an odd
  one monotone, an even one never negative and bounded where its coordinate is on both sides); a term below
  a number bounds a coordinate under an even power on both sides (``n ^ 2 < 9`` over ``ℕ`` and ``ℤ``,
  ``x ^ 2 + y ^ 2 ≤ 1``), under an odd one above only (``x ^ 3 < 8`` over ``ℤ`` stays refused); a product
  below a number bounds no factor (``a * b ≤ 6``: ``b`` may be ``0``);
* a term above a number bounds below each coordinate it grows with (``a + b ≥ -3`` over ``ℤ`` with both
  bounded above, :func:`_answer_count_links.term_bound`);
* a negated order read as its complement (``¬ (3987 ≤ n)`` is ``n < 3987``; not ``¬ (n = e)``, a negated
  conjunction or a double negation): round 44's near miss ``¬(b ≤ a) ∧ b < 10`` was a finite set, and is
  now ``¬(b ≥ a)``, which leaves ``a`` unbounded;
* a count's argument ascribed a ``Set`` type (``Set.ncard (Finset.range 3987 : Set ℕ)``) and ``Set.univ``
  ascribed the set type of a finite type (``Set.ncard (Set.univ : Set (Fin 3987))``), read by the word rule
  (:func:`_answer_count_words._ascribed_arguments`) and the domain rule; ``Set.univ`` of ``ℕ``, untyped or
  anywhere else stays refused.

Measured (G2, the text profile), before the change and after it: ``HONEST`` (23): 0 accepted before, 23 now.
``ATTACKS`` (31): 31 refused before, 31 now. Official answers 346 of 346, the verdict snapshot identical.

Left (refused, fail closed): a power of a numeral (``2 ^ n < 9``), a power of a power, a product below a
number whose factors are bounded elsewhere (``a * b ≤ 6 ∧ 1 ≤ b``), a lower bound of a coordinate the term
shrinks with (``x ^ 2 - y ≤ 1`` bounds ``y`` below), a negation not around one order (``¬ n < 5`` without
brackets), ``Finset.univ`` beside a count.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests.adversarial.test_lean_falserej44 import LEAST, TEXT, _verdict
from tests.adversarial.test_lean_falserej46 import _read
from tests.adversarial.test_lean_redteam39_values import BENCHMARK
from tests.helpers import assert_linear_work, refusal_table_test

__all__ = ["BENCHMARK"]

# name: (profile, problem, text put before the solution, value); each passes G2
HONEST: dict[str, tuple[str, str, str, str]] = {
    # 1. a product of bounded coordinates
    "a product of two naturals": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b * c ∧ b < 3 ∧ c < 3} + 3978",
    ),
    "a product of integers bounded both ways": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℤ × ℕ × ℤ | 0 ≤ a ∧ a < b * c ∧ b < 3 ∧ 0 ≤ c ∧ c < 3} + 3978",
    ),
    "a scaled term in a chain": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b + 2 * c ∧ b < 3 ∧ c < 3} + 3960",
    ),
    "a product in a chain": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a ≤ b * c + 1 ∧ b < 3 ∧ c < 3} + 3969",
    ),
    # 2. a power below a number
    "a square of a natural": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n ^ 2 < 9} + 3984"),
    "a square of an integer": (TEXT, LEAST, "", "Set.ncard {n : ℤ | n ^ 2 < 9} + 3982"),
    "a square of an integer, at most": (TEXT, LEAST, "", "Set.ncard {x : ℤ | x ^ 2 ≤ 4} + 3982"),
    "a cube of a natural": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n ^ 3 < 8} + 3985"),
    "a cube of an integer bounded below": (TEXT, LEAST, "", "Set.ncard {n : ℤ | n ^ 3 < 8 ∧ -2 ≤ n} + 3983"),
    "a sum of squares": (TEXT, LEAST, "", "Set.ncard {(x, y) : ℤ × ℤ | x ^ 2 + y ^ 2 ≤ 1} + 3982"),
    "below a square": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℤ | a < b ^ 2 ∧ b < 3 ∧ -3 < b} + 3977"),
    # 3. a term above a number
    "a sum of integers above a negative": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a + b ≥ -3 ∧ a ≤ 0 ∧ b ≤ 0} + 3977",
    ),
    "a negative below a sum": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℤ | -3 ≤ a + b ∧ a ≤ 0 ∧ b ≤ 0} + 3977"),
    "an integer plus one equal to a bound": (TEXT, LEAST, "", "Set.ncard {n : ℤ | n + 1 = 5} + 3986"),
    # 4. a bound inside a negation
    "not at least": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ (3987 ≤ n)}"),
    "not above": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ (n > 3986)}"),
    "a link under a negation (round 44's near miss)": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | ¬(b ≤ a) ∧ b < 10} + 3942",
    ),
    "not below, beside a bound": (TEXT, LEAST, "", "Set.ncard {n : ℤ | ¬ (n < 0) ∧ n < 3987}"),
    # 5. the whole of a finite type, a Finset as a set
    "the universe of Fin": (TEXT, LEAST, "", "Set.ncard (Set.univ : Set (Fin 3987))"),
    "the universe of Fin, by field": (TEXT, LEAST, "", "(Set.univ : Set (Fin 3987)).ncard"),
    "a range as a set": (TEXT, LEAST, "", "Set.ncard (Finset.range 3987 : Set ℕ)"),
    "the universe of Fin, by Nat.card": (TEXT, LEAST, "", "Nat.card (Set.univ : Set (Fin 3987))"),
    "an interval as a set": (TEXT, LEAST, "", "(Finset.Icc 1 3987 : Set ℕ).ncard"),
}

# name: (profile, problem, text put before the solution, value); each must stay refused by G2
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    # 1. a factor unbounded, or bounded one way over ℤ
    "a product with one factor unbounded": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b * c ∧ b < 3} + 3978",
    ),
    "a product of integers bounded above only": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℤ × ℤ | a < b * c ∧ b < 3 ∧ c < 3} + 3978",
    ),
    "a product bounded by a product": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a * b ≤ 6} + 3978",
    ),
    "a product of a coordinate with itself below a number": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a * b ≤ 6 ∧ b < 3} + 3978",
    ),
    "a scaled term with its coordinate unbounded": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b + 2 * c ∧ b < 3} + 3960",
    ),
    # 2. powers that bound one side or none
    "a cube of an integer": (TEXT, LEAST, "", "Set.ncard {x : ℤ | x ^ 3 < 8} + 3985"),
    "a zeroth power": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n ^ 0 < 9} + 3985"),
    "a power of a numeral": (TEXT, LEAST, "", "Set.ncard {n : ℤ | 2 ^ n < 9} + 3985"),
    "a square above a number": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n ^ 2 > 9} + 3985"),
    "a square of a rational": (TEXT, LEAST, "", "Set.ncard {x : ℚ | x ^ 2 < 9} + 3985"),
    "a square of a real": (TEXT, LEAST, "", "Set.ncard {x : ℝ | x ^ 2 < 9} + 3985"),
    "a square minus a coordinate": (TEXT, LEAST, "", "Set.ncard {(x, y) : ℤ × ℤ | x ^ 2 - y ≤ 1 ∧ y < 3} + 3982"),
    "below a square, its base bounded above only": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℤ | a < b ^ 2 ∧ b < 3} + 3977",
    ),
    "a square beside an unbounded summand": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(x, y) : ℤ × ℤ | x ^ 2 + y ≤ 1} + 3982",
    ),
    # 3. a term above a number, a side unbounded
    "a sum of integers above, one unbounded above": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a + b ≥ -3 ∧ a ≤ 0} + 3977",
    ),
    "a difference of naturals above": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a - b ≥ 0 ∧ a < 5} + 3977"),
    "a difference of integers above": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a - b ≥ -3 ∧ a ≤ 0 ∧ b ≤ 0} + 3977",
    ),
    # 4. negations that bound nothing
    "not at most": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ (n ≤ 3987)}"),
    "not equal": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ (n = 3987)}"),
    "a negated conjunction": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ (n < 3987 ∧ n > 5)}"),
    "a double negation": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ ¬ (3987 ≤ n)}"),
    "a negated bound of an integer, one side": (TEXT, LEAST, "", "Set.ncard {n : ℤ | ¬ (3987 ≤ n)}"),
    # 5. the whole of an infinite type, or a set not a Finset
    "the universe of ℕ": (TEXT, LEAST, "", "Set.ncard (Set.univ : Set ℕ)"),
    "the universe of ℤ, by field": (TEXT, LEAST, "", "(Set.univ : Set ℤ).ncard"),
    "the universe untyped": (TEXT, LEAST, "", "Set.ncard Set.univ"),
    "the universe beside a subset": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {n : ℕ | n < 3987 ∧ (Set.univ : Set ℕ) ⊆ Finset.range n}",
    ),
    "a range and a set combined": (TEXT, LEAST, "", "Set.ncard (Finset.range 3987 ∪ Set.univ : Set ℕ)"),
    "the universe of functions into ℕ": (TEXT, LEAST, "", "Set.ncard (Set.univ : Set (Fin 2 → ℕ))"),
    "the universe of ZMod 0": (TEXT, LEAST, "", "Set.ncard (Set.univ : Set (ZMod 0))"),
    "the universe inside the counted set": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {n : ℕ | n ∈ (Set.univ : Set ℕ)}",
    ),
    "an unbounded set ascribed": (TEXT, LEAST, "", "Set.ncard (Set.Ici 3987 : Set ℕ)"),
}

test_each_honest_value_passes = refusal_table_test(_verdict, honest=HONEST)
test_each_near_miss_is_refused = refusal_table_test(_verdict, attacks=ATTACKS)


UNITS = ("a < b * b + 2 * b ^ 2 ∧ ", "a ^ 2 + b ^ 3 - a ≥ 1 ∧ ", "¬ (a ≥ b) ∧ ")
"""Hostile values of many products, powers and negations: each reading stays linear."""


@pytest.mark.parametrize("unit", UNITS)
def test_the_new_readings_are_linear_in_the_value(unit: str) -> None:
    assert_linear_work(partial(_read, unit), 100)
