"""The copy rule's bound names read by scope (``_answer_scopes``), after red team 29.

The canonical form numbered a bound name wherever it stood after its binder, the value's parameters were
renamed to the statement's names at every occurrence, and a substitution (beta, ``let``) renamed under
binders: so a copy whose bound name shadows one of the statement's passed, by every binder form, and an
honest answer whose bound name is the statement's variable could read as the question (a false rejection).
Each row: the question, a copy that shadows a name (accepted by G2 before), and a valid near-twin over the
same names that must pass.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.helpers import sampled

STATEMENT = (
    "abbrev t_solution : ℕ → Prop := sorry\n"
    "theorem t (A B : ℕ → Prop) (f : ℕ → ℕ → ℕ) (S : Set ℕ) (n : ℕ) : t_solution n ↔ {Q} := sorry\n"
)

# (question, copy that shadows a name, near-twin that must pass), one row per binder form
CLASSES = {
    "∀ binding the statement's name": ("∀ k, f k n = 0", "fun m => ∀ n, f n m = 0", "fun m => ∀ n, f m n = 0"),
    "a body through if-then-else": (
        "∀ k, f k n = if k < 1 then 0 else k",
        "fun m => ∀ n, f n m = if n < 1 then 0 else n",
        "fun m => ∀ n, f n m = if m < 1 then 0 else n",
    ),
    "∃ binding the statement's name": (
        "∃ k, A k ∧ k > n",
        "fun m => ∃ n, A n ∧ n > m",
        "fun m => ∃ n, A n ∧ n > m + 1",
    ),
    "an anonymous binder inside the scope": (
        "∀ k, ∃ _ : A k, f k n = 0",
        "fun m => ∀ n, ∃ _ : A n, f n m = 0",
        "fun m => ∀ n, ∃ _ : A n, f m n = 0",
    ),
    "∃! binding the statement's name": ("∃! k, f k n = 0", "fun m => ∃! n, f n m = 0", "fun m => ∃! n, f m n = 0"),
    "a binder predicate": ("∃ k > n, A k", "fun m => ∃ n > m, A n", "fun m => ∃ n > m + 1, A n"),
    "a set-builder": ("S ⊆ {k | f k n = 0}", "fun m => S ⊆ {n | f n m = 0}", "fun m => S ⊆ {n | f m n = 0}"),
    "a set-builder applied to the name it shadows": (
        "f n n = 0 ∧ A n",
        "fun n => {n | f n n = 0 ∧ A n} n",
        "fun n => {n | f n 0 = 0 ∧ A n} n",
    ),
    "a set-builder's pattern": (
        "∃ p ∈ {(a, b) | f a b = n}, p.1 < p.2",
        "fun m => ∃ p ∈ {(n, b) | f n b = m}, p.1 < p.2",
        "fun m => ∃ p ∈ {(n, b) | f n b = m + 1}, p.1 < p.2",
    ),
    "fun applied (beta) under a binder": (
        "∀ k, f k n = 0",
        "fun n => (fun x => ∀ n, f n x = 0) n",
        "fun n => (fun x => ∀ n, f x n = 0) n",
    ),
    "a let under a binder": (
        "∀ k, f k n = 0",
        "fun n => let g := fun x => ∀ n, f n x = 0; g n",
        "fun n => let g := fun x => ∀ n, f x n = 0; g n",
    ),
    "a match arm under a binder": (
        "∀ k, f k n = 0",
        "fun n => match n with | m => ∀ n, f n m = 0",
        "fun n => match n with | m => ∀ n, f m n = 0",
    ),
    "a · section under a binder": ("∀ k, f k n = 0", "fun n => (∀ n, f n · = 0) n", "fun n => (∀ n, f · n = 0) n"),
    "a one-point quantifier over a binder": (
        "∀ k, f k n = 0",
        "fun n => ∃ m, m = n ∧ ∀ n, f n m = 0",
        "fun n => ∃ m, m = n ∧ ∀ n, f m n = 0",
    ),
    "∑ binding the statement's name": (
        "∑ k ∈ Finset.range n, f k n = 0",
        "fun m => ∑ n ∈ Finset.range m, f n m = 0",
        "fun m => ∑ n ∈ Finset.range m, f m n = 0",
    ),
    "∑'s set outside its scope": (
        "∑ k ∈ Finset.range n, f k k = 0",
        "fun n => ∑ n ∈ Finset.range n, f n n = 0",
        "fun n => ∑ n ∈ Finset.range n, f n 1 = 0",
    ),
    "∑'s body ends at +": (
        "∑ k ∈ Finset.range 3, f k 0 + f 0 n = 0",
        "fun n => ∑ n ∈ Finset.range 3, f n 0 + f 0 n = 0",
        "fun n => ∑ n ∈ Finset.range 3, (f n 0 + f 0 n) = 0",
    ),
    "∏ binding the statement's name": (
        "∏ k ∈ Finset.range n, f k n = 1",
        "fun m => ∏ n ∈ Finset.range m, f n m = 1",
        "fun m => ∏ n ∈ Finset.range m, f m n = 1",
    ),
    "⋃ binding the statement's name": (
        "∃ j, j ∈ ⋃ k ∈ S, {i | f i k = n}",
        "fun m => ∃ j, j ∈ ⋃ n ∈ S, {i | f i n = m}",
        "fun m => ∃ j, j ∈ ⋃ n ∈ S, {i | f i m = n}",
    ),
    "⨆ binding the statement's name": (
        "(⨆ k ∈ S, f k n) = 0",
        "fun m => (⨆ n ∈ S, f n m) = 0",
        "fun m => (⨆ n ∈ S, f m n) = 0",
    ),
    "⨅ binding the statement's name": (
        "(⨅ k ∈ S, f k n) = 0",
        "fun m => (⨅ n ∈ S, f n m) = 0",
        "fun m => (⨅ n ∈ S, f m n) = 0",
    ),
}

CAPTURED = {
    # an honest value whose bound `n` the renamed parameter fell into: `∀ n, f n n = 0` (refused before)
    "a parameter renamed into a binder": ("∀ k, f k k = 0", "fun m => ∀ n, f n m = 0"),
    "a parameter renamed into a set-builder": ("S ⊆ {k | f k k = 0}", "fun m => S ⊆ {n | f n m = 0}"),
    "a parameter renamed into a big operator": (
        "∑ k ∈ Finset.range 3, f k k = 0",
        "fun m => ∑ n ∈ Finset.range 3, f n m = 0",
    ),
}


def _copied(question: str, value: str) -> bool:
    statement = parse_statement(STATEMENT.format(Q=question))
    return bool(copied_violations(lex_code(value), "t_solution", statement, "t_solution"))


COPY_CASES = {k: (q, c) for k, (q, c, _) in CLASSES.items()}
TWIN_CASES = {k: (q, t) for k, (q, _, t) in CLASSES.items()}


@pytest.mark.parametrize(("question", "value"), sampled(COPY_CASES, set(COPY_CASES)))
def test_a_copy_that_shadows_a_name_is_refused(question: str, value: str) -> None:
    assert _copied(question, value)


@pytest.mark.parametrize(("question", "value"), sampled(TWIN_CASES, set(TWIN_CASES)))
def test_a_near_twin_over_the_same_names_passes(question: str, value: str) -> None:
    assert not _copied(question, value)


@pytest.mark.parametrize(("question", "value"), sampled(CAPTURED, {next(iter(CAPTURED))}))
def test_no_capture_makes_an_honest_value_a_copy(question: str, value: str) -> None:
    assert not _copied(question, value)


GAME = "putnam_2025_a3"
"""States ``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n``, ``AliceHasWinningStrategy n`` defined as
``HasWinningStrategy n []`` (official answer ``fun _ => False``)."""
BENCHMARK = {
    "setOf applied to the parameter it shadows": "fun n => setOf AliceHasWinningStrategy n",
    "a set-builder applied to the parameter it shadows": "fun n => {n | AliceHasWinningStrategy n} n",
    "a beta redex under a shadowing binder": "fun n => (fun k => ∀ n, n = n → AliceHasWinningStrategy k) n",
}
HONEST = {
    "the official answer through the shadowing set": "fun n => {n : ℕ | False} n",
    "a closed form over the shadowing name": "fun n => {n | n = 0} n",
}


@pytest.mark.parametrize("value", sampled(BENCHMARK, {next(iter(BENCHMARK))}))
def test_benchmark_shadowing_copies_are_refused(lean_putnambench: Benchmark, value: str) -> None:
    assert COPIED in _g2(lean_putnambench, GAME, value)


@pytest.mark.parametrize("value", sampled(HONEST, {next(iter(HONEST))}))
def test_benchmark_near_twins_pass(lean_putnambench: Benchmark, value: str) -> None:
    assert _g2(lean_putnambench, GAME, value) == ""
