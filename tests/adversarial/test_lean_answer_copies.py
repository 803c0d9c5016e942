"""No-answer Lean answers copied from the other side of the statement's own ``=`` or ``↔``
(``provers/lean/_answer_copy.py``).

``putnam_2020_a2`` states ``∑ j ∈ Finset.Icc 0 k, ... = putnam_2020_a2_solution k``; the value ``fun k =>
∑ j ∈ Finset.Icc 0 k, ...`` makes the theorem ``fun k => rfl``, and the text profile accepted it (red team
12: no name of it is a choice, limit or analysis operator). G2 now refuses a value whose body, its
parameters read as the names the statement applies the solution to, is the relation's other side,
parentheses and bound variables' names aside. Every official answer still passes
(``test_lean_redteam9``'s control sweeps all 346).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_BENCH, failures, lean_filled, lean_text_verdict

COPIED = "the answer is the other side of the statement's own"

COPIES = {
    "sum, closed over the answer's parameter": (
        "putnam_2020_a2",
        "fun k => ∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j",
        "fun k => rfl",
    ),
    "the parameter renamed, typed, the body bracketed": (
        "putnam_2020_a2",
        "fun (m : ℕ) => (∑ j ∈ Finset.Icc 0 m, 2 ^ (m - j) * Nat.choose (m + j) j)",
        "fun k => rfl",
    ),
    "a bound variable renamed": (
        "putnam_2020_a2",
        "fun k => ∑ i ∈ Finset.Icc 0 k, 2 ^ (k - i) * Nat.choose (k + i) i",
        "fun k => rfl",
    ),
    "solution on the left, under a bounded ∀": (
        "putnam_1962_a5",
        "fun n => ∑ k ∈ Finset.Icc 1 n, Nat.choose n k * k^2",
        "fun n _ => rfl",
    ),
    "the other side with its product's factors swapped (red team 22)": (
        "putnam_1962_a5",
        "fun n => ∑ k ∈ Finset.Icc 1 n, k^2 * Nat.choose n k",
        "fun n _ => by simp [mul_comm]",
    ),
    "polynomial sum, opens of the header": (
        "putnam_1976_b5",
        "fun n => ∑ k ∈ Finset.range (n + 1), C ((-(1 : ℤ))^k * Nat.choose n k) * (X - (C (k : ℤ)))^n",
        "fun n => rfl",
    ),
    "condition into a set-builder, regrouped": (
        "putnam_1971_a2",
        "{Q : Polynomial ℝ | Q.eval 0 = 0 ∧ (∀ x : ℝ, Q.eval (x^2 + 1) = (Q.eval x)^2 + 1)}",
        "Iff.rfl",
    ),
}


BENCHMARK = LEAN_BENCH


@pytest.mark.parametrize("case", sorted(COPIES))
def test_an_answer_copied_from_the_statement_is_refused(bench: Benchmark, case: str) -> None:
    problem_id, value, proof = COPIES[case]
    candidate = lean_filled(bench, problem_id, Track.NO_ANSWER, proof=proof, value=value)
    verdict = lean_text_verdict(bench, problem_id, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert COPIED in failures(verdict).get("G2", ""), failures(verdict)


HONEST = {
    "the official closed form": ("putnam_2020_a2", "fun k => 4 ^ k"),
    "a part of the other side only": ("putnam_2020_a2", "fun k => 2 ^ (k - k) * Nat.choose (k + k) k"),
    "a set-builder of its own condition": ("putnam_1971_a2", "{Q : Polynomial ℝ | Q = Polynomial.X}"),
}
"""Values that are not the other side. (The other side with its product's factors swapped, ``k^2 *
Nat.choose n k``, was here as a copy this first line let pass; red team 22's normal form,
``_answer_order``, orders a commutative operation's operands, and it is refused: see ``COPIES``.)"""


@pytest.mark.parametrize("case", sorted(HONEST))
def test_an_answer_that_is_not_the_other_side_passes_g2(bench: Benchmark, case: str) -> None:
    problem_id, value = HONEST[case]
    candidate = lean_filled(bench, problem_id, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(bench, problem_id, candidate, Track.NO_ANSWER)
    assert "G2" not in failures(verdict), failures(verdict)


STATEMENT = """abbrev s_solution : ℕ → ℕ → ℕ := sorry
theorem s (a b : ℕ) (h : g a = 1) : (f a b = s_solution a b ∧ s_solution b a = f (a + 1) b) := sorry
"""


@pytest.mark.parametrize(
    ("value", "copied"),
    [
        ("fun x y => f x y", True),  # the left side of the first `=`, read at `s_solution a b`
        ("fun x => fun y => f x y", True),
        ("fun x y => f (y + 1) x", True),  # the right side of the second, read at `s_solution b a`
        ("fun x y => f y x", False),
        ("fun x y => g x", False),  # a hypothesis' side, not next to the solution
        ("fun x => f x", True),  # eta-reduced (red team 14): `fun x => f x` is `f`, so `s_solution a b` is `f a b`
        ("f", True),
        ("fun x => f (x + 1)", False),  # applied to `b` it is `f (a + 1) b`, no side of the statement
        ("fun x => g x", False),
    ],
)
def test_the_other_side_is_read_at_each_application(value: str, copied: bool) -> None:
    statement = parse_statement(STATEMENT)
    found = copied_violations(lex_code(value), "s_solution", statement, "s_solution")
    assert bool(found) is copied, found


@pytest.mark.parametrize(
    ("value", "copied"),
    [("{y : ℕ | 2 < y}", True), ("{y : ℕ | 3 ≤ y}", True), ("{y : ℕ | 3 < y}", False)],  # `3 ≤ y` is `2 < y`
)  # on ℕ (red team 28, ``_answer_bounds``): the question in another spelling
def test_a_whole_set_builder_is_read_against_the_solution_alone(value: str, copied: bool) -> None:
    statement = parse_statement(
        "abbrev t_solution : Set ℕ := sorry\ntheorem t : {x : ℕ | 2 < x} = t_solution := sorry\n"
    )
    assert bool(copied_violations(lex_code(value), "t_solution", statement, "t_solution")) is copied


def test_a_literal_beside_the_solution_is_not_a_copied_question() -> None:
    """A record that states ``solution = 1`` gives its answer away: the answer ``1`` copies nothing."""
    statement = parse_statement("abbrev t_solution : ℕ := sorry\ntheorem t : t_solution = (1 : ℕ) := sorry\n")
    for value in ("1", "(1 : ℕ)"):
        assert not copied_violations(lex_code(value), "t_solution", statement, "t_solution")
