"""Copy red team 32 (Lean, no-answer): a truncating ascription in a chain, bound variables' own types, and
the question restated through library spellings of a set or a condition.

Each row is a question, a copy of it (refused), and an honest near-twin (a real answer in the same spelling,
which must pass). Classes:

* chains (``_answer_commute.ordered``): ``((n - 5 : ℕ) - 1 : ℤ)`` merged its inner ``-`` into the outer
  chain, lost the ``ℕ`` ascription and read as ``↑n - 5 - 1``: an honest answer was refused as a copy of
  the question ``(n : ℤ) - 5 - 1``. An operand ascribed ``ℕ`` now stays whole;
* binders (``_answer_types.written``): a bound variable had no known type, so with ``x : ℝ`` the copy
  ``↑(x - 1)`` of the question's ``x - 1`` kept its cast as if it truncated, and passed. A binder's own
  number type (``∀ y : ℝ,``, ``{x : ℝ | C}``, ``fun x : ℝ =>``, a pattern's ``ℤ × ℝ``) now types its
  variable on either side, and a value's parameter where the statement writes no type for its name;
* library spellings (``_answer_sets.separated``, ``_answer_commute.applied``): ``Set.sep``, ``Sep.sep`` and
  ``Finset.filter`` at any depth are ``{x | x ∈ s ∧ C}`` (``{x ∈ s | C}`` was read so already), ``ite c a
  b`` and ``@ite _ c (Classical.propDecidable _) a b`` are ``if c then a else b``, ``decide P = true`` is
  ``P``, ``Nat.succ n`` is ``n + 1``; a filter or ``Set.sep`` by a named predicate (``s.filter (P 0)``)
  reads it applied to a fresh variable;
* images (``_answer_commute.ordered``): ``id '' S``, ``Set.image id S``, ``id ⁻¹' S`` are ``S``; ``id ''
  S`` was taken for the identity applied to ``'' S`` and read as nothing;
* unique existence (``_answer_quantifiers.quantified``): ``∃! n, n = m ∧ C n`` is ``C m``; the lexer splits
  Mathlib's ``∃!`` in two, now joined (``_answer_spelling``);
* patterns (``_answer_normal._match``, ``_let_pattern``): ``{p | match p with | (a, b) => C}`` is what the
  pattern set-builder ``{(a, b) | C}`` means, and ``let (a, b) := p; C`` is that ``match``: both passed
  against ``C ↔ (a, b) ∈ solution``; a one-case tuple pattern now reads its names as ``p.1``, ``p.2``
  (``p.2.1``, ``p.2.2`` for a triple); and a tuple's membership in a pattern set-builder, ``(m, k) ∈ {(a, b) |
  C}``, is ``C`` with ``m``, ``k`` for ``a``, ``b`` (``_answer_members``);
* vacuous binders (``_answer_quantifiers._vacuous``): ``∃ _ : Unit, C``, ``∀ k : ℕ, C`` (``k`` not in ``C``)
  and ``⋃ _ : Unit, S`` are ``C`` and ``S``; over a type that may be a proposition (``∃ _ : Q, True``) the
  binder is kept;
* definitions unfolded: ``Function.Injective f`` is ``∀ a b, f a = f b → a = b`` (so its contrapositive
  reads alike); ``S ⊆ T`` numbered its premise's variable apart from the one it binds (``∀ x, ¬y ∈ S ∨ x ∈
  T``) and was found only by the search that ignores the numbers: now one variable (a regression row).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COND, COPIED, _g2
from tests.adversarial.test_lean_redteam29_copies import GAME, INJ, _copied, _nat, _prop
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins

REAL = "abbrev t_solution : Set ℝ := sorry\ntheorem t (g : ℝ → ℝ) : ∀ x, ({Q} ↔ x ∈ t_solution) := sorry\n"
COUNT = (
    "abbrev t_solution : ℕ → ℕ := sorry\n"
    "theorem t (S : Set ℕ) (P : ℕ → ℕ → Prop) [∀ k, DecidablePred (P k)] : ∀ n, {Q} = t_solution n := sorry\n"
)
PAIR = (
    "abbrev t_solution : Set (ℤ × ℤ) := sorry\ntheorem t (a b : ℤ) : (a + 2 * b = 7 ↔ ⟨a, b⟩ ∈ t_solution) := sorry\n"
)
TRIPLE = (
    "abbrev t_solution : Set (ℤ × ℤ × ℤ) := sorry\n"
    "theorem t (a b c : ℤ) : (a + b = c ↔ (a, b, c) ∈ t_solution) := sorry\n"
)
DROPPED = _nat("(n : ℤ) - 5 - 1 < 3 ∧ Even n")

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "chain: an ℕ-ascribed operand stays whole": (
        DROPPED,
        "{n | ((n : ℤ) - 5) - 1 < 3 ∧ Even n ∧ True}",
        "{n | ((n - 5 : ℕ) - 1 : ℤ) < 3 ∧ Even n}",
    ),
    "chain: the ℕ-ascribed question": (
        _nat("((n - 5 : ℕ) - 1 : ℤ) < 3 ∧ Even n"),
        "{n | (↑(n - 5) - 1 : ℤ) < 3 ∧ Even n}",
        "{n | (n : ℤ) - 5 - 1 < 3 ∧ Even n}",
    ),
    "binder: the value's set-builder types its parameter": (
        REAL.format(Q="g (x - 1) = 0 ∧ 0 < x"),
        "{x : ℝ | g (↑(x - 1)) = 0 ∧ 0 < x}",
        "{x : ℝ | g (↑(x - 2)) = 0 ∧ 0 < x}",
    ),
    "binder: the value's fun types its parameter": (
        REAL.format(Q="g (x - 1) = 0 ∧ 0 < x"),
        "fun x : ℝ => g (↑x - 1) = 0 ∧ 0 < x",
        "fun x : ℝ => g (↑x + 1) = 0 ∧ 0 < x",
    ),
    "binder: an inner ∃ typed on both sides": (
        _prop("∃ y : ℝ, A 0 ∧ (y - 1) * 2 = 0"),
        "∃ y : ℝ, A 0 ∧ ↑(y - 1) * 2 = 0",
        "∃ y : ℝ, A 0 ∧ ↑(y - 1) * 3 = 0",
    ),
    "binder: an inner ∀ typed by the value only": (
        _prop("∀ y, A 0 → (y - 1) * 2 = (0 : ℝ)"),
        "∀ z : ℝ, A 0 → ↑(z - 1) * 2 = (0 : ℝ)",
        "∀ z : ℕ, A 0 → ↑(z - 1) * 2 = (0 : ℝ)",
    ),
    "binder: a pattern's product type": (
        _prop("{(a, b) : ℝ × ℕ | A b ∧ (a - 1) * 2 = 0}.Nonempty"),
        "{(a, b) : ℝ × ℕ | A b ∧ ↑(a - 1) * 2 = 0}.Nonempty",
        "{(a, b) : ℕ × ℕ | A b ∧ ↑(a - 1) * 2 = 0}.Nonempty",
    ),
    "library: Set.sep": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "Set.sep (fun n => Even (n + 1)) S",
        "Set.sep (fun n => Even (n + 2)) S",
    ),
    "library: Sep.sep": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "Sep.sep (fun n => Even (n + 1)) S ∪ ∅",
        "Sep.sep (fun n => Odd n) S ∪ ∅",
    ),
    "library: {x ∈ Finset.range n | C} for Finset.filter": (
        COUNT.format(Q="((Finset.range n).filter (fun x => P 0 x)).card"),
        "fun n => {x ∈ Finset.range n | P 0 x}.card",
        "fun n => {x ∈ Finset.range (n + 1) | P 0 x}.card",
    ),
    "library: Finset.filter for {x ∈ Finset.range n | C}": (
        COUNT.format(Q="{x ∈ Finset.range n | P 0 x}.card"),
        "fun n => (Finset.filter (fun y => P 0 y) (Finset.range n)).card",
        "fun n => (Finset.filter (fun y => P 1 y) (Finset.range n)).card",
    ),
    "library: ite": (GAME, "fun m => ite (A m ∧ B (m + 1)) True False", "fun m => ite (A m ∧ B m) True False"),
    "library: @ite with Classical.propDecidable": (
        GAME,
        "fun m => @ite _ (A m ∧ B (m + 1)) (Classical.propDecidable _) True False",
        "fun m => @ite _ (A m ∧ B (m + 1)) (Classical.propDecidable _) False True",
    ),
    "library: decide P = true": (
        GAME,
        "fun m => decide (A m ∧ B (m + 1)) = true",
        "fun m => decide (A m ∧ B (m + 1)) = false",
    ),
    "library: if P then true else false": (
        GAME,
        "fun m => (if A m ∧ B (m + 1) then true else false) = true",
        "fun m => (if A m ∧ B (m + 2) then true else false) = true",
    ),
    "library: Nat.succ": (GAME, "fun m => A m ∧ B m.succ", "fun m => A m ∧ B m.succ.succ"),
    "library: Finset.filter by a named predicate": (
        COUNT.format(Q="{x ∈ Finset.range n | P 0 x}.card"),
        "fun n => (Finset.filter (P 0) (Finset.range n)).card",
        "fun n => (Finset.filter (P 1) (Finset.range n)).card",
    ),
    "library: Set.sep by a named predicate": (
        _nat("n ∈ S ∧ Even n"),
        "Set.sep Even S",
        "Set.sep Odd S",
    ),
    "image: id '' S": (_nat("n ∈ S ∧ Even (n + 1)"), "id '' {n ∈ S | Even (n + 1)}", "id '' {n ∈ S | Even n}"),
    "image: Set.image id": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "Set.image id {n ∈ S | Even (n + 1)}",
        "Set.image (· + 1) {n ∈ S | Even (n + 1)}",
    ),
    "image: id ⁻¹' S": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "id ⁻¹' {n ∈ S | Even (n + 1)}",
        "(· + 1) ⁻¹' {n ∈ S | Even (n + 1)}",
    ),
    "unique: ∃! one point": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "{m | ∃! n, n = m ∧ n ∈ S ∧ Even (n + 1)}",
        "{m | ∃! n, n ∈ S ∧ Even (n + 1)}",
    ),
    "unfolded: Function.Injective written out": (
        INJ,
        "{f | (∀ a b, f a = f b → a = b) ∧ f 0 = 0}",
        "{f | (∀ a b, f a = f b → a = a) ∧ f 0 = 0}",
    ),
    "unfolded: Function.Injective, contrapositive": (
        INJ,
        "{f | f 0 = 0} ∩ {f | ∀ a b, a ≠ b → f a ≠ f b}",
        "{f | f 0 = 0} ∩ {f | ∀ a b, a ≠ b → f a = f b}",
    ),
    "unfolded: ⊆ as ∀ ∈ →": (
        _prop("S ⊆ {k | A k}"),
        "∀ k, k ∈ S → A k",
        "∀ k, k ∈ S → A (k + 1)",
    ),
    "pattern: a one-case match on a pair": (
        PAIR,
        "{p : ℤ × ℤ | match p with | (x, y) => x + 2 * y = 7}",
        "{p : ℤ × ℤ | match p with | (x, y) => y + 2 * x = 7}",
    ),
    "pattern: a triple matched": (
        TRIPLE,
        "{p : ℤ × ℤ × ℤ | match p with | ⟨x, y, z⟩ => x + y = z}",
        "{p : ℤ × ℤ × ℤ | match p with | ⟨x, y, z⟩ => x + z = y}",
    ),
    "pattern: a pair's membership in a pattern set-builder": (
        GAME,
        "fun m => (m, m + 1) ∈ {(a, b) | A a ∧ B b}",
        "fun m => (m, m + 1) ∈ {(a, b) | A b ∧ B a}",
    ),
    "pattern: let with a pair": (
        PAIR,
        "{p : ℤ × ℤ | let (x, y) := p; x + 2 * y = 7}",
        "{p : ℤ × ℤ | let (x, y) := p; x + 2 * y = 9}",
    ),
    "vacuous: ∃ _ : Unit": (GAME, "fun m => ∃ _ : Unit, A m ∧ B (m + 1)", "fun m => ∃ _ : Unit, A m ∧ B m"),
    "vacuous: ∀ over ℕ, unused": (GAME, "fun m => ∀ k : ℕ, A m ∧ B (m + 1)", "fun m => ∀ k : ℕ, A k ∧ B (m + 1)"),
    "vacuous: ⋃ _ : Unit": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "⋃ _ : Unit, {n ∈ S | Even (n + 1)}",
        "⋃ k : ℕ, {n ∈ S | Even (n + k)}",
    ),
}
GROUPS = ("chain", "binder", "library", "image", "unique", "unfolded", "pattern", "vacuous")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


# a pinned question restated through a unique existence (passed before): refused; honest sets pass
BENCHMARK = {
    "putnam_1971_a2": (
        f"{{Q : Polynomial ℝ | ∃! P : Polynomial ℝ, P = Q ∧ {COND}}}",
        ["{Polynomial.X}", "id '' {Polynomial.X}", "{P : Polynomial ℝ | ∃! c : ℝ, c = 1 ∧ P = Polynomial.C c}"],
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("problem", list(BENCHMARK))
def test_a_pinned_question_restated_is_refused(lean_putnambench: Benchmark, problem: str) -> None:
    copy, honest = BENCHMARK[problem]
    assert COPIED in _g2(lean_putnambench, problem, copy)
    assert all(_g2(lean_putnambench, problem, value) == "" for value in honest)
