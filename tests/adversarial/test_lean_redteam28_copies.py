"""Red team 28 (Lean, no-answer): copies of the question in spellings the copy rule's normal form did not
read, and honest answers it refused by the order its operands sort in.

Found, each accepted by G2 on the text profile before (the answer check can only say ``unknown``):

* a bound of the question written as an interval beside the rest of its set-builder: ``Set.Ioi 0 ∩ {n |
  C n}`` for ``0 < n ∧ C n``, ``Set.Icc 1 9``, ``x ∈ Finset.range 5`` for ``x < 5`` (``_answer_bounds``:
  membership of an interval is its bounds; ``_answer_cover`` reads an interval beside a set-builder as the
  set-builder of its bounds). ``{n | C n} ∩ {n | 0 < n}`` itself passed: the cover's first filter asked the
  side's ``∧`` of the copy, which spells it ``∩``;
* a bound in another order spelling: ``1 ≤ n`` (``n ≥ 1``) for ``0 < n``, ``¬n < 2`` for ``2 ≤ n``, ``n ≤
  4`` for ``n < 5`` (``not_lt``, ``Nat.lt_iff_add_one_le``);

and refused though honest: the answer restricted to a premise's domain, ``{n | 0 < n ∧ Nat.Prime n ∧ n =
3}`` under ``∀ n, 0 < n ∧ Nat.Prime n → (Even (n + 1) ↔ n ∈ solution)``, by whichever operand sorted
first (``_answer_chains``: a side that is a chain is read by its operands), and always when written with
``∩``, ``{n | 0 < n ∧ Nat.Prime n} ∩ {n | n % 4 = 1}``, though its ``∧`` spelling passed.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_canonical import canonical_kept
from putnam_solver.core.provers.lean._answer_chains import chain_of, held_by_operands
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.helpers import sampled

Q1994 = "{m : ℕ | |n - m ^ 2| ≤ 250}.encard = 15"
Q2023 = "∀ m : ℤ, IsRelPrime m n → ∃ p : Equiv.Perm (Fin n), ∀ k : Fin n, (p (p k)).1 + 1 ≡ m * (k.1 + 1) [ZMOD n]"
E1980 = "(exp x + exp (-x)) / 2"
Q2018 = "((n : ℤ) ∣ (2^n : ℤ) ∧ (n - 1 : ℤ) ∣ (2^n - 1 : ℤ) ∧ (n - 2 : ℤ) ∣ (2^n - 2 : ℤ))"

COPIES = {
    "a positive bound as an interval beside the set": ("putnam_1994_b1", f"Set.Ioi 0 ∩ {{n : ℤ | {Q1994}}}"),
    "a positive bound as one more than zero": ("putnam_1994_b1", f"{{n : ℤ | 1 ≤ n ∧ {Q1994}}}"),
    "a positive bound negated": ("putnam_1994_b1", f"{{n : ℤ | ¬n ≤ 0 ∧ {Q1994}}}"),
    "a positive bound as a member of an interval": ("putnam_1994_b1", f"{{n : ℤ | n ∈ Set.Ici 1 ∧ {Q1994}}}"),
    "a positive bound after the set": ("putnam_2023_b5", f"{{n | {Q2023}}} ∩ Set.Ici 1"),
    "a positive bound as at least one": ("putnam_2023_b5", f"{{n | n ≥ 1 ∧ ({Q2023})}}"),
    "an upper bound as a range": ("putnam_2018_b3", f"{{n | n ∈ Finset.range (10^100) ∧ {Q2018}}}"),
    "an upper bound as an interval": ("putnam_2018_b3", f"{{n | {Q2018}}} ∩ Set.Iio (10^100)"),
    "a positive bound split off as a set-builder": ("putnam_2023_b5", f"{{n | {Q2023}}} ∩ {{n | 0 < n}}"),
    "an upper bound as a binder predicate": ("putnam_2018_b3", f"{{n ∈ Finset.range (10^100) | {Q2018}}}"),
    "an upper bound as a binder predicate on an interval": ("putnam_2018_b3", f"{{n ∈ Set.Iio (10^100) | {Q2018}}}"),
    "an upper bound as a filtered range": (
        "putnam_2018_b3",
        f"↑((Finset.range (10^100)).filter (fun n => {Q2018}))",
    ),
    "a positive bound as a difference": ("putnam_1994_b1", f"{{n : ℤ | {Q1994}}} \\ Set.Iic 0"),
    "an order negated under a binder": ("putnam_1980_b1", f"{{c : ℝ | ∀ x : ℝ, ¬exp (c * x ^ 2) < {E1980}}}"),
    "an order negated through an existential": ("putnam_1980_b1", f"{{c : ℝ | ¬∃ x : ℝ, exp (c * x ^ 2) < {E1980}}}"),
}


@pytest.mark.parametrize(("problem", "value"), sampled(COPIES, {next(iter(COPIES))}))
def test_copies_in_bound_spellings_are_refused(lean_putnambench: Benchmark, problem: str, value: str) -> None:
    assert COPIED in _g2(lean_putnambench, problem, value)


HONEST = {
    "the official interval": ("putnam_2019_b6", "Set.Ici 1"),
    "the official interval as a bound": ("putnam_2019_b6", "{n | 0 < n}"),
    "the official interval as a weak bound": ("putnam_2019_b6", "{n : ℕ | n ≥ 1}"),
    "the official interval as a negated bound": ("putnam_2019_b6", "{n : ℕ | ¬n < 1}"),
    "a set literal as bounds": ("putnam_2011_b2", "{t | t = 2 ∨ t = 5}"),
    "a set literal beside a bound": ("putnam_2022_b2", "{n | 1 ≤ n ∧ (n = 1 ∨ n = 7)}"),
    "a literal through an interval": ("putnam_2022_b2", "Set.Icc 1 7 ∩ {1, 7}"),
    "an official interval as its set-builder": ("putnam_1994_b3", "{k : ℝ | ¬1 ≤ k}"),
    "an official union of intervals": (
        "putnam_1997_b3",
        "Set.Icc 1 4 ∪ Set.Icc 20 24 ∪ Set.Icc 100 104 ∪ Set.Icc 120 124",
    ),
    "an official set-builder of strict bounds": (
        "putnam_1994_b1",
        "{n : ℤ | (314 < n ∧ n < 326) ∨ (331 < n ∧ n < 351)}",
    ),
    "an official bound as an interval's difference": ("putnam_1987_a6", "Set.Iio 25 \\ Set.Iic 0"),
    "an official literal as a filtered range": (
        "putnam_2022_b2",
        "↑((Finset.range 8).filter (fun n => n = 1 ∨ n = 7))",
    ),
    "an official bound as a binder predicate": ("putnam_1987_a6", "{x ∈ Set.Ioi (0 : ℝ) | x < 25}"),
}


@pytest.mark.parametrize(("problem", "value"), sampled(HONEST, {next(iter(HONEST))}))
def test_honest_answers_in_bound_spellings_pass(lean_putnambench: Benchmark, problem: str, value: str) -> None:
    assert _g2(lean_putnambench, problem, value) == ""


SMALL = "abbrev t_solution : Set ℕ := sorry\ntheorem t : ∀ n : ℕ, ({} ↔ n ∈ t_solution) := sorry\n"
PREMISE = "abbrev t_solution : Set ℕ := sorry\ntheorem t : ∀ n : ℕ, {} → ({} ↔ n ∈ t_solution) := sorry\n"
ASKED = "0 < n ∧ Even (n + 1)"


PRIME = PREMISE.format("0 < n ∧ Nat.Prime n", "Even (n + 1)")
THREE = SMALL.format("Nat.Prime n ∧ Even (n + 1) ∧ n ∣ 12")
BOUNDS = [
    (SMALL.format(ASKED), "{n | Even (n + 1)} ∩ Set.Ioi 0", True),
    (SMALL.format(ASKED), "{n | Even (n + 1)} ∩ {n | 0 < n}", True),
    (SMALL.format(ASKED), "{n | n ∈ Set.Ioi 0 ∧ Even (n + 1)}", True),
    (SMALL.format(ASKED), "{n | ¬n < 1 ∧ Even (n + 1)}", True),
    (SMALL.format(ASKED), "{n | Even (n + 1)} ∩ Set.Ioo 0 7", True),  # every operand and more (`_answer_cover`)
    (SMALL.format(ASKED), "{n | 0 < n ∧ Odd n}", False),
    (SMALL.format(ASKED), "Set.Ioi 0", False),
    # `Set.range f` is an image, no interval: left as written
    (SMALL.format("n ∈ Set.range (fun k => 2 * k) ∧ Even (n + 1)"), "{n | n < 2 ∧ Even (n + 1)}", False),
    (SMALL.format("n ≥ 2 ∧ Even (n + 1)"), "Set.Ici 2 ∩ {n | Even (n + 1)}", True),
    (SMALL.format("n ≥ 2 ∧ Even (n + 1)"), "{n | 1 < n ∧ Even (n + 1)}", True),
    (SMALL.format("n ∈ Finset.range 5 ∧ Even (n + 1)"), "{n | n ≤ 4 ∧ Even (n + 1)}", True),
    (SMALL.format("1 ≤ n ∧ n ≤ 9 ∧ Even (n + 1)"), "{n | n ∈ Finset.Icc 1 9 ∧ Even (n + 1)}", True),
    (SMALL.format(ASKED), "{n ∈ Set.Ioi 0 | Even (n + 1)}", True),  # a binder predicate (``_answer_sets``)
    (SMALL.format(ASKED), "{n | Even (n + 1)} \\ {n | n ≤ 0}", True),  # a difference
    (SMALL.format(ASKED), "{n | Even (n + 1)} \\ {0}", True),  # `n ≠ 0` is `0 < n` on ℕ (red team 29)
    (SMALL.format(ASKED), "{n ∈ Set.Ioi 0 | n = 3}", False),
]
CHAINED = [
    # a premise's chain among more by ∧, in any order: the answer restricted to the domain
    (PRIME, "{n | n = 3 ∧ 0 < n ∧ Nat.Prime n}", False),
    (PRIME, "{n | Nat.Prime n ∧ n = 3 ∧ 0 < n}", False),
    (PRIME, "{n | Nat.Prime n ∧ 0 < n ∨ n = 3}", True),  # widened by ∨, in any order: refused
    # restricted by ∩ as by ∧ (the premise's condition the whole condition of an operand of ∩)
    (PRIME, "{n | n % 4 = 1} ∩ {n | Nat.Prime n ∧ 0 < n}", False),
    (PRIME, "{n | 0 < n ∧ Nat.Prime n} ∩ {n | n % 4 = 1}", False),
    (PRIME, "{n | 0 < n ∧ Nat.Prime n} ∪ {n | n % 4 = 1}", True),
    (PRIME, "↑((Finset.range 100).filter (fun n => 0 < n ∧ Nat.Prime n ∧ n % 4 = 1))", False),
    (SMALL.format(ASKED), "↑((Finset.range 5).filter (fun n => Even (n + 1) ∧ 0 < n))", True),
    (
        PREMISE.replace("→ ({} ↔ n ∈ t_solution)", "→ n ∈ t_solution").format("0 < n ∧ Nat.Prime n"),
        "{n | n % 4 = 1} ∩ {n | Nat.Prime n ∧ 0 < n}",
        True,
    ),  # the use is the conclusion: padding proves it
    # a question's chain among more, inside an application: refused in any order
    (THREE, "zzSearch (fun n => n ∣ 12 ∧ n = 5 ∧ Nat.Prime n ∧ Even (n + 1))", True),
    (THREE, "zzSearch (fun n => Even (n + 1) ∧ n = 5 ∧ n ∣ 12 ∧ Nat.Prime n)", True),
]


def _sampled(cases: list[tuple[str, str, bool]]) -> list[object]:
    """The first case of a class runs in CI, the rest are slow (HELPERS.md's CI-time rule)."""
    return [pytest.param(*case, marks=[pytest.mark.slow] if i else []) for i, case in enumerate(cases)]


@pytest.mark.parametrize(("statement", "value", "copied"), _sampled(BOUNDS) + _sampled(CHAINED))
def test_bounds_and_chains_on_small_statements(statement: str, value: str, copied: bool) -> None:
    found = copied_violations(lex_code(value), "t_solution", parse_statement(statement), "t_solution")
    assert bool(found) is copied, found


def test_reading_chains_by_their_operands_is_charged_to_the_budget() -> None:
    """Each node visited in the search by operands spends the copy rule's one budget, which marks itself
    spent (the copy rule then refuses the value unread, never passes it unread)."""
    value = canonical_kept(lex_texts("zz (fun n => A n ∧ B n ∧ C n) (fun n => B n ∧ D n ∧ A n)"))[1]
    side = chain_of(canonical_kept(lex_texts("fun n => A n ∧ B n"))[1])
    assert side is not None
    assert held_by_operands(value, side, [10_000, 0])
    budget = [1, 0]
    assert not held_by_operands(value, side, budget)
    assert budget[1] == 1


def lex_texts(text: str) -> list[str]:
    return [t.text for t in lex_code(text)]
