"""False rejections, round 48 (Lean, no-answer, G2): honest counts the domain and word rules refused."""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_falserej44 import LEAST, TEXT, _verdict
from tests.adversarial.test_lean_redteam39_values import BENCHMARK

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
    "an unbounded set ascribed": (TEXT, LEAST, "", "Set.ncard (Set.Ici 3987 : Set ℕ)"),
}


@pytest.mark.parametrize("case", [pytest.param(v, id=k) for k, v in HONEST.items()])
def test_each_honest_value_passes(bench: Benchmark, case: tuple[str, ...]) -> None:
    profile, problem, before, value = case
    assert _verdict(bench, profile, problem, before, value) == ""


@pytest.mark.parametrize("case", [pytest.param(v, id=k) for k, v in ATTACKS.items()])
def test_each_near_miss_is_refused(bench: Benchmark, case: tuple[str, ...]) -> None:
    profile, problem, before, value = case
    assert _verdict(bench, profile, problem, before, value)
