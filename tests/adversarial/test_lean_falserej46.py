"""False rejections, round 46 (Lean, no-answer, G2): honest values the count rules refused, each class
beside near misses that must stay refused.

* a bounded quantifier beside a count (:mod:`_answer_count_quantifiers`): ``∃ j < c,``/``∀ j ≤ c,``/``∃ j ∈
  Finset.range c,`` with ``c`` numerals, arithmetic and the answer's own parameters, in a value that writes no
  number type but ``ℕ`` (so ``j`` is a ``ℕ``), or ``∃ j : T,`` over a finite type; read harmless by the
  quantifier rule, the word rule and the domain rule (a conjunct it begins bounds nothing: ``∀ j < 0, m < 5`` is
  vacuous);
* positive parameters (:mod:`_answer_count_parameters`): a ``∀ n > 0,`` anywhere in the conclusion, not
  only at its head (``∀ n, n > 0 → B n`` holds or fails by ``B`` at positive ``n`` alone);
* a coordinate bounded by another plus or times a numeral (``a < b + 1``, ``a ≤ 2 * b``,
  :func:`_answer_count_links.shifted`), one way only (``a ≤ 0 * b`` says nothing of ``b``);
* a piped image counted, ``(Finset.range e |>.image fun n => ..).card`` (:func:`_finset_types._counted_image`).

Measured (G2), before the change and after it: ``HONEST`` (14): 2 accepted before (the unpiped image and
the image of a parameter in the text profile), 14 now. ``ATTACKS`` (26): 26 refused before, 26 now.
``PARAMETERS`` (6): the three rows with ``∀ n > 0`` off the head gave none before, one each now; the three
near misses read the same. Red team 44's table changed where intended (``True ∧ ∀ n > 0,`` reads ``{0}``;
its plus-one attack is now ``a < b + 1 ∧ a < 10``), and round 43's (its piped image not ascribed passes;
its near miss casts into ``ℤ``). Official answers 346 of 346, the verdict snapshot
identical.

Left (refused, fail closed): a quantifier not bounded by numerals and parameters (``∃ k, k = n ∧ ..``, a
count nested in a count: two counts stay refused by the quantifier rule), an
untyped bounded quantifier in a value that writes ``ℤ`` anywhere, a bound by two coordinates (``a < b +
c``) or by subtraction (``a < b - 1``), a lower bound carried back through a shift (``{(a, b) : ℤ × ℤ | 0
≤ a ∧ a < b + 1 ∧ b < 10}``), a count whose domain only the quantifier bounds (``{m | ∃ j < 3, m = 2 *
j}``).
"""

from __future__ import annotations

from functools import partial

import pytest

from putnam_solver.core.provers.lean._answer_count_domains import unbounded_count
from putnam_solver.core.provers.lean._answer_count_parameters import positive_parameters
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean._answer_counts import counted_search
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_falserej43 import _theorem
from tests.adversarial.test_lean_falserej44 import FULL, LEAST, OPEN, PLAIN, TEXT, _verdict
from tests.adversarial.test_lean_redteam39_values import BENCHMARK, _statement
from tests.helpers import assert_linear_work, refusal_table_test

__all__ = ["BENCHMARK"]

# name: (profile, problem, text put before the solution, value); each passes G2
HONEST: dict[str, tuple[str, str, str, str]] = {
    # 1. a bounded quantifier
    "exists below a bound": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j < 3, m = 2 * j} + 3984"),
    "forall up to a bound": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∀ j ≤ 2, m ≠ j} + 3980"),
    "exists over Fin": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j : Fin 3, m = 2 * j.val} + 3984"),
    "exists in a range": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j ∈ Finset.range 3, m = 2 * j} + 3984"),
    "forall in an interval": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∀ j ∈ Finset.Icc 1 3, m ≠ j} + 3980"),
    "exists below the parameter": (TEXT, PLAIN, "", "fun n => Set.ncard {m : ℕ | m < 2 * n ∧ ∃ j < n, m = 2 * j}"),
    # 3. a coordinate bounded by another plus or times a numeral
    "plus one": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b + 1 ∧ b < 10} + 3932"),
    "one plus, mirrored": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | 1 + b > a ∧ b < 10} + 3932"),
    "twice": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a ≤ 2 * b ∧ b < 10} + 3887"),
    "by projections": (TEXT, LEAST, "", "Set.ncard {p : ℕ × ℕ | p.1 ≤ p.2 * 2 ∧ p.2 < 10} + 3887"),
    # 4. images counted
    "piped image": (FULL, LEAST, OPEN, "(Finset.range 3 |>.image fun n => n * 2).card * 1329"),
    "piped image, bracketed function": (FULL, LEAST, OPEN, "(Finset.range 3 |>.image (fun n => n + 1)).card * 1329"),
    "piped image of the parameter": (TEXT, PLAIN, "", "fun n => (Finset.range n |>.image fun k => k * 2).card"),
    "image of the parameter": (TEXT, PLAIN, "", "fun n => ((Finset.range n).image fun k => k * 2).card"),
}

# name: (profile, problem, text put before the solution, value); each must stay refused by G2
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    # 1. quantifiers not bounded, bounded through the counted variable, over ℤ, or bounding nothing
    "unbounded exists": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j, m = 2 * j} + 3984"),
    "exists bounded below only": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j > 3, m = 2 * j} + 3984"),
    "bound through the counted variable": (TEXT, LEAST, "", "Set.ncard {k : ℕ | k < 10 ∧ ∀ i ≤ k, i ≠ 5} + 3982"),
    "bound through a counted variable named as the parameter": (
        TEXT,
        PLAIN,
        "",
        "fun n => Set.ncard {n : ℕ | n < 10 ∧ ∀ i ≤ n, i ≠ 5}",
    ),
    "bound through another bound name": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | m < 10 ∧ ∃ i < 3, ∃ j < i, m = j} + 3986",
    ),
    "exists over ℤ below a bound": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℤ | 0 ≤ m ∧ m < 10 ∧ ∃ j < 3, m = 2 * j} + 3984",
    ),
    "exists cast into ℤ": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j < 3, (m : ℤ) = 2 * j} + 3984"),
    "exists over cardinals": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | m < 10 ∧ ∃ j < 3, Cardinal.mk (Fin m) = j} + 3984",
    ),
    "exists in a real interval": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | m < 10 ∧ ∃ j ∈ Finset.Icc (0 : ℝ) 3, m = j} + 3984",
    ),
    "exists in a set interval": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j ∈ Set.Ici 3, m = j} + 3984"),
    "exists in a range of the counted variable": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | m < 10 ∧ ∃ j ∈ Finset.range m, j = 3} + 3984",
    ),
    "exists over ℕ": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j : ℕ, m = 2 * j} + 3982"),
    "exists in a unit set": (TEXT, LEAST, "", "Set.ncard {_u : Unit | ∃ j, Nat.Prime j ∧ j > 10} + 3986"),
    "exists of an irrational": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j < 3, Irrational (m + j)} + 3986"),
    "a vacuous forall bounds nothing": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∀ j < 0, m < 5} + 3987"),
    "a bound inside an exists": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ j < 3, m > j} + 3987"),
    "exists over a real bound": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 10 ∧ ∃ j < Real.pi, m = j} + 3987"),
    # 3. links: through the variable itself, a field, the other unbounded, the converse of a shift
    "a bound by itself plus one": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < a + 1 ∧ b < 10} + 3987"),
    "a real coordinate below another plus one": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℝ × ℕ | a < b + 1 ∧ b < 10} + 3987",
    ),
    "plus one, the other unbounded": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b + 1 ∧ a < 10} + 3987"),
    "the converse of a zero multiple": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | 0 ≤ a ∧ a ≤ 0 * b ∧ b < 10} + 3987",
    ),
    "a Fin coordinate plus one (it wraps)": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × Fin 5 | a < b + 1} + 3987",
    ),
    # 4. images: not a range, into Prop, cast, of a set
    "piped image into Prop": (FULL, LEAST, OPEN, "(Finset.range 3 |>.image fun n => n < 2).card * 1329"),
    "piped image cast into ℝ": (FULL, LEAST, OPEN, "(Finset.range 3 |>.image fun n => (n : ℝ)).card * 1329"),
    "piped image of a real interval": (
        FULL,
        LEAST,
        OPEN,
        "(Finset.Icc (1 : ℝ) 3 |>.image fun x => x).card * 1329",
    ),
    "piped image of an infinite set": (FULL, LEAST, OPEN, "(Set.univ |>.image fun n : ℕ => n).ncard * 1329"),
}


test_each_honest_value_passes = refusal_table_test(_verdict, honest=HONEST)
test_each_near_miss_is_refused = refusal_table_test(_verdict, attacks=ATTACKS)


# id: (solution type, the theorem's signature and conclusion, the positive parameters)
PARAMETERS: dict[str, tuple[str, str, set[int]]] = {
    "∀ n > 0 after a hypothesis": ("ℕ → ℕ", "(h : True) : True → ∀ n > 0, t_solution n = 1", {0}),
    "∀ n > 0 under ∀ m": ("ℕ → ℕ → ℕ", ": ∀ m : ℕ, ∀ n > 0, t_solution m n = 1", {1}),
    "∀ n ≥ 1 in a conjunction": ("ℕ → ℕ", ": True ∧ ∀ n ≥ 1, t_solution n = 1", {0}),
    "∀ n ≥ 0 inside": ("ℕ → ℕ", ": True ∧ ∀ n ≥ 0, t_solution n = 1", set()),
    "rebound under the inner ∀": ("ℕ → ℕ", ": ∀ m : ℕ, ∀ n > 0, ∀ n : ℕ, t_solution n = m", set()),
    "also applied outside the inner ∀": (
        "ℕ → ℕ",
        "(m : ℕ) : True ∧ (∀ n > 0, t_solution n = 1) ∧ t_solution m = 0",
        set(),
    ),
}


@pytest.mark.parametrize(
    ("solution_type", "theorem", "positive"), [pytest.param(*v, id=k) for k, v in PARAMETERS.items()]
)
def test_the_positive_parameters_are_read(solution_type: str, theorem: str, positive: set[int]) -> None:
    assert positive_parameters(parse_statement(_theorem(solution_type, theorem)), "t_solution") == positive


UNITS = ("m < 3 ∧ ∃ j < 3, ", "a < b + 1 ∧ ")
"""Hostile values of many bounded quantifiers and shifted links: each reading stays linear."""


@pytest.mark.parametrize("unit", UNITS)
def test_the_new_readings_are_linear_in_the_value(unit: str) -> None:
    assert_linear_work(partial(_read, unit), 100)


def _read(unit: str, n: int) -> object:
    value = f"Set.ncard {{(a, b) : ℕ × ℕ | {unit * n}b < 3}}"
    reading = read_counts(lex_code(value), _statement("ℕ"), "t_solution")
    return unbounded_count(reading), counted_search(reading)
