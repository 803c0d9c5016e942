"""Copy red team 34 (Lean, no-answer): the limits round 33 left in ``_answer_contains``, closed by class.

Each row is a question, a copy of it (refused), and an honest near-twin (a real answer in the same spelling,
which must pass). Classes:

* receiver (``_answer_dots.constant_field``): a field called on a constant, ``Set.univ.InjOn f``,
  ``Set.univ.image f``, is the function of the constant's namespace with the constant at the receiver's
  place (the reader took the dotted name for one name);
* pair (``_answer_pairs.pair_point``): ``∃ a b, C ∧ p = (a, b)``, the equation any conjunct, the names in
  typed groups or bound one ``∃`` at a time, reads as ``C`` with ``p.1``, ``p.2``;
* uncurry (``_answer_reduce.uncurried``): ``Function.uncurry g`` without its argument is ``fun q => g q.1
  q.2``;
* union (``_answer_quantifiers.union_of``): ``⋃₀ S`` for a set of sets not written out is ``{x | ∃ t, t ∈ S
  ∧ x ∈ t}``;
* prenex (``_answer_quantifiers._prenex``): ``∀ a, P → ∀ b, Q`` is ``∀ a b, P → Q`` (``Set.InjOn`` as
  Mathlib writes it out);
* typed (``_answer_types.inferred``): a bound variable no binder types is of the type of what it stands
  beside (``n = 2 * k``, ``n : ℕ``), so ``k ≠ 0`` reads as the statement's ``0 < k``;
* bool (``_answer_copy._tested``): ``solution n = true ↔ C`` locates a ``Bool`` solution, and the value is
  read as ``v = true`` (``decide C = true`` is ``C``, ``&&`` is ``∧``); a truth value is a literal, never a
  copy;
* restricted: a premise on a quantifier's own variable pads the question whatever it says (``0 ≤ x`` on
  ``ℕ`` holds of every value, and a text rule cannot tell it from ``0 < x``), so it stays a copy; an honest
  answer that restricts the domain (``Set.InjOn f {x | 0 < x}`` against ``Function.Injective f``) is
  refused with it, a false rejection left to a check by meaning (the strict xfail below).
"""

from __future__ import annotations

import pytest

from tests.adversarial.test_lean_redteam29_copies import INJ, _copied, _nat, _prop
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins
from tests.adversarial.test_lean_redteam32_copies import PAIR

PREDICATE = (
    "abbrev t_solution : ℤ × ℤ → Prop := sorry\ntheorem t (a b : ℤ) : t_solution (a, b) ↔ a + 2 * b = 7 := sorry\n"
)
ON = (
    "abbrev t_solution : Set (ℕ → ℕ) := sorry\n"
    "theorem t (S : Set ℕ) : ∀ f : ℕ → ℕ, (Set.InjOn f S ∧ f 0 = 0 ↔ f ∈ t_solution) := sorry\n"
)
BOOL = (
    "abbrev t_solution : ℕ → Bool := sorry\n"
    "theorem t (A B : ℕ → Prop) [DecidablePred A] [DecidablePred B] (n : ℕ) :\n"
    "    t_solution n = true ↔ A n ∧ B (n + 1) := sorry\n"
)
EVEN = _nat("∃ k : ℕ, 0 < k ∧ n = 2 * k")

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "receiver: Set.univ.InjOn f": (
        INJ,
        "{f | Set.univ.InjOn f ∧ f 0 = 0}",
        "{f | Set.univ.InjOn f ∧ f 0 = 1}",
    ),
    "receiver: Set.univ.image f": (
        _nat("n ∈ Set.image (· + 1) Set.univ ∧ Even n"),
        "{n | n ∈ Set.univ.image (· + 1) ∧ Even n}",
        "{n | n ∈ Set.univ.image (· + 2) ∧ Even n}",
    ),
    "pair: the equation written second": (
        PAIR,
        "{p : ℤ × ℤ | ∃ a b, a + 2 * b = 7 ∧ p = (a, b)}",
        "{p : ℤ × ℤ | ∃ a b, a + 2 * b = 9 ∧ p = (a, b)}",
    ),
    "pair: the equation between two conjuncts": (
        PAIR,
        "{p : ℤ × ℤ | ∃ a b, a + 2 * b = 7 ∧ ⟨a, b⟩ = p ∧ True}",
        "{p : ℤ × ℤ | ∃ a b, a + 2 * b = 9 ∧ ⟨a, b⟩ = p ∧ a = 1}",
    ),
    "pair: a typed binder group": (
        PAIR,
        "{p : ℤ × ℤ | ∃ (a b : ℤ), p = (a, b) ∧ a + 2 * b = 7}",
        "{p : ℤ × ℤ | ∃ (a b : ℤ), p = (a, b) ∧ a + 2 * b = 9}",
    ),
    "pair: a typed group per name": (
        PAIR,
        "{p : ℤ × ℤ | ∃ (a : ℤ) (b : ℤ), p = (a, b) ∧ a + 2 * b = 7}",
        "{p : ℤ × ℤ | ∃ (a : ℤ) (b : ℤ), p = (a, b) ∧ 2 * a + b = 7}",
    ),
    "pair: nested ∃": (
        PAIR,
        "{p : ℤ × ℤ | ∃ a, ∃ b, p = (a, b) ∧ a + 2 * b = 7}",
        "{p : ℤ × ℤ | ∃ a, ∃ b, p = (a, b) ∧ a + 2 * b = 9}",
    ),
    "uncurry: setOf (Function.uncurry g)": (
        PAIR,
        "setOf (Function.uncurry fun x y => x + 2 * y = 7)",
        "setOf (Function.uncurry fun x y => y + 2 * x = 7)",
    ),
    "uncurry: the value itself": (
        PREDICATE,
        "Function.uncurry (fun x y => x + 2 * y = 7)",
        "Function.uncurry (fun x y => 2 * y = 7)",
    ),
    "union: ⋃₀ of a set of sets": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "⋃₀ {T : Set ℕ | T = {n ∈ S | Even (n + 1)}}",
        "⋃₀ {T : Set ℕ | T = {n ∈ S | Even n}}",
    ),
    "prenex: Set.InjOn written out on Set.univ": (
        INJ,
        "{f | (∀ a, a ∈ Set.univ → ∀ b, b ∈ Set.univ → f a = f b → a = b) ∧ f 0 = 0}",
        "{f | (∀ a, a ∈ Set.univ → ∀ b, b ∈ Set.univ → f a = f b → a ≤ b) ∧ f 0 = 0}",
    ),
    "prenex: Set.InjOn written out with strict binders": (
        ON,
        "{f | (∀ ⦃a₁⦄, a₁ ∈ S → ∀ ⦃a₂⦄, a₂ ∈ S → f a₁ = f a₂ → a₁ = a₂) ∧ f 0 = 0}",
        "{f | (∀ ⦃a₁⦄, a₁ ∈ S → ∀ ⦃a₂⦄, a₂ ∈ S → f a₁ = f a₂ → a₁ = a₂) ∧ f 1 = 0}",
    ),
    "typed: a bound variable typed by an equation": (
        EVEN,
        "{n | ∃ k, k ≠ 0 ∧ n = 2 * k}",
        "{n | ∃ k, k ≠ 0 ∧ n = 3 * k}",
    ),
    "bool: decide C": (
        BOOL,
        "fun n => decide (A n ∧ B (n + 1))",
        "fun n => decide (A n ∧ B n)",
    ),
    "bool: a proposition coerced": (
        BOOL,
        "fun n => (A n ∧ B (n + 1) ∧ True : Bool)",
        "fun _ => true",
    ),
    "bool: Bool's connectives": (
        BOOL,
        "fun n => decide (A n) && decide (B (n + 1))",
        "fun n => decide (A n) || decide (B (n + 1))",
    ),
    "restricted: Set.InjOn on a set holding every value": (
        INJ,
        "{f | Set.InjOn f {x | 0 ≤ x} ∧ f 0 = 0}",
        "{f | Set.InjOn f Set.univ ∧ f 0 = 1}",
    ),
    "restricted: on a set beside the statement's": (
        ON,
        "{f | Set.InjOn f S ∧ f 0 = 0 ∧ True}",
        "{f | Set.InjOn f S ∧ f 1 = 0}",
    ),
    "restricted: the premise written out": (
        INJ,
        "{f | (∀ a, 0 ≤ a → ∀ b, 0 ≤ b → f a = f b → a = b) ∧ f 0 = 0}",
        "{f | (∀ a b, f a = f b → a = b) ∧ f 1 = 1}",
    ),
    "restricted: in a yes/no answer": (
        _prop("∀ n : ℕ, n ^ 2 ≥ n"),
        "∀ n : ℕ, 0 < n → n ^ 2 ≥ n",
        "True",
    ),
}
GROUPS = ("receiver", "pair", "uncurry", "union", "prenex", "typed", "bool", "restricted")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


@pytest.mark.xfail(strict=True, reason="a limit of the text rule: needs the check by meaning")
@pytest.mark.parametrize(
    "value",
    ["{f | Set.InjOn f {x | 0 < x} ∧ f 0 = 0}", "{f | (∀ a, 0 < a → ∀ b, 0 < b → f a = f b → a = b) ∧ f 0 = 0}"],
)
def test_an_honest_answer_that_restricts_the_domain_passes(value: str) -> None:
    """An answer that restricts the question's domain is a real answer, but a premise on the quantifier's own
    variable is read as padding whatever it says: refusing a tautological one (``0 ≤ x`` on ``ℕ``, above)
    refuses this too (documented in ``_answer_contains``)."""
    assert not _copied(INJ, value)
