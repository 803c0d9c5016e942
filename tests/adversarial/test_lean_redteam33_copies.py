"""Copy red team 33 (Lean, no-answer): the question restated through what a library spelling unfolds to.

Each row is a question, a copy of it (refused), and an honest near-twin (a real answer in the same spelling,
which must pass). Classes:

* pairs (``_answer_normal._pair_point``, ``_answer_nodes.component``): ``{p | ∃ a b, p = (a, b) ∧ C}`` is
  the pattern set-builder ``{(a, b) | C}`` written out, read as ``C`` with ``p.1``, ``p.2`` for ``a``,
  ``b``; and a projection of a tuple a substitution made, ``(m, k).1``, ``Prod.fst (m, k)``, is ``m``
  (``(m, k) ∈ {p | A p.1}`` read ``A (m, k).1`` and passed);
* uncurry (``_answer_reduce.uncurried``): ``Function.uncurry f p`` is ``f p.1 p.2``, so ``{p |
  Function.uncurry (fun a b => C) p}`` is ``{(a, b) | C}``;
* proofs (``_answer_reduce.anonymous``, ``_answer_quantifiers.proposition``): ``∃ _ : C, D`` (or a name
  ``D`` does not hold) is ``C ∧ D``, ``∀ _ : C, D`` is ``C → D``, ``Nonempty C`` and ``Nonempty (PLift C)``
  are ``C``: the canonical form leaves binders' types out, so ``∃ _ : C, True`` read as ``True``;
* sets (``_answer_spelling.TWO``, ``_answer_members``): the lexer splits Mathlib's ``⋃₀`` and ``×ˢ`` in two
  (``⋃₀ {S}`` was a binder over ``₀``): joined, ``⋃₀ {S, T}`` (``Set.sUnion``) is ``S ∪ T``, and ``p ∈ S ×ˢ
  T`` (``Set.prod S T``) is ``p.1 ∈ S ∧ p.2 ∈ T``;
* injective (``_answer_quantifiers.injective``, ``_answer_spelling.ONE``): ``Set.InjOn f s`` is ``∀ a b, a ∈
  s → b ∈ s → f a = f b → a = b`` (on ``Set.univ``, ``Function.Injective f``), and a strict implicit group
  ``∀ ⦃a b⦄,`` is ``∀ (a b),`` (the proposition is the same; ``Function.Injective`` is defined so).
"""

from __future__ import annotations

import pytest

from tests.adversarial.test_lean_redteam29_copies import GAME, INJ, _copied, _nat, _prop
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins
from tests.adversarial.test_lean_redteam32_copies import PAIR, TRIPLE

PRODUCT = (
    "abbrev t_solution : Set (ℕ × ℕ) := sorry\n"
    "theorem t (S T : Set ℕ) (A : ℕ → Prop) : ∀ p : ℕ × ℕ, (p.1 ∈ S ∧ p.2 ∈ T ∧ A p.1 ↔ p ∈ t_solution) := sorry\n"
)

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "pair: ∃ a b, p = (a, b) ∧ C": (
        PAIR,
        "{p : ℤ × ℤ | ∃ a b, p = (a, b) ∧ a + 2 * b = 7}",
        "{p : ℤ × ℤ | ∃ a b, p = (a, b) ∧ a + 2 * b = 9}",
    ),
    "pair: typed names, the equation turned": (
        PAIR,
        "{p : ℤ × ℤ | ∃ x y : ℤ, ⟨x, y⟩ = p ∧ x + 2 * y = 7}",
        "{p : ℤ × ℤ | ∃ x y : ℤ, ⟨x, y⟩ = p ∧ y + 2 * x = 7}",
    ),
    "pair: a triple": (
        TRIPLE,
        "{p : ℤ × ℤ × ℤ | ∃ x y z, p = (x, y, z) ∧ x + y = z}",
        "{p : ℤ × ℤ × ℤ | ∃ x y z, p = (x, y, z) ∧ x + z = y}",
    ),
    "pair: a looser operator after the conjunction": (
        PAIR,
        "{p : ℤ × ℤ | ∃ a b, p = (a, b) ∧ (a + 2 * b = 7 ∨ a + 2 * b = 7)}",
        "{p : ℤ × ℤ | ∃ a b, p = (a, b) ∧ a + 2 * b = 7 ∨ a = 0}",
    ),
    "pair: a tuple's projection in a membership": (
        GAME,
        "fun m => (m, m + 1) ∈ {p : ℕ × ℕ | A p.1 ∧ B p.2}",
        "fun m => (m, m + 1) ∈ {p : ℕ × ℕ | A p.2 ∧ B p.1}",
    ),
    "pair: in a membership, ∃ a b": (
        GAME,
        "fun m => (m, m + 1) ∈ {p : ℕ × ℕ | ∃ a b, p = (a, b) ∧ A a ∧ B b}",
        "fun m => (m, m + 1) ∈ {p : ℕ × ℕ | ∃ a b, p = (a, b) ∧ A b ∧ B a}",
    ),
    "pair: setOf applied to a tuple": (
        GAME,
        "fun m => setOf (fun p : ℕ × ℕ => A p.1 ∧ B p.2) (m, m + 1)",
        "fun m => setOf (fun p : ℕ × ℕ => A p.2 ∧ B p.2) (m, m + 1)",
    ),
    "uncurry: a set of pairs": (
        PAIR,
        "{p : ℤ × ℤ | Function.uncurry (fun x y => x + 2 * y = 7) p}",
        "{p : ℤ × ℤ | Function.uncurry (fun x y => y + 2 * x = 7) p}",
    ),
    "uncurry: applied to a tuple": (
        GAME,
        "fun m => Function.uncurry (fun a b => A a ∧ B b) (m, m + 1)",
        "fun m => Function.uncurry (fun a b => A b ∧ B a) (m, m + 1)",
    ),
    "proof: ∃ _ : C, True": (
        GAME,
        "fun m => ∃ _ : A m ∧ B (m + 1), True",
        "fun m => ∃ _ : A m ∧ B m, True",
    ),
    "proof: a named proof, ∃ (h : C), D": (
        GAME,
        "fun m => ∃ (h : A m), B (m + 1)",
        "fun m => ∃ (h : A m), B m",
    ),
    "proof: ∀ _ : C, D is C → D": (
        _prop("¬A 0 ∨ B 1"),
        "∀ _ : A 0, B 1",
        "∀ _ : A 1, B 1",
    ),
    "proof: Nonempty (PLift C)": (
        GAME,
        "fun m => Nonempty (PLift (A m ∧ B (m + 1)))",
        "fun m => Nonempty (PLift (A m ∧ B m))",
    ),
    "proof: Nonempty C": (
        GAME,
        "fun m => Nonempty (A m ∧ B (m + 1))",
        "fun m => Nonempty (A (m + 1) ∧ B (m + 1))",
    ),
    "sets: ⋃₀ {S}": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "⋃₀ {{n ∈ S | Even (n + 1)}}",
        "⋃₀ {{n ∈ S | Even n}}",
    ),
    "sets: Set.sUnion of a pair of sets": (
        _nat("n ∈ S ∧ Even (n + 1)"),
        "Set.sUnion {{n ∈ S | Even (n + 1)}, ∅}",
        "Set.sUnion {{n ∈ S | Even n}, ∅}",
    ),
    "sets: membership in S ×ˢ T": (
        PRODUCT,
        "S ×ˢ T ∩ {p | A p.1}",
        "S ×ˢ T ∩ {p | A p.2}",
    ),
    "sets: membership in Set.prod S T": (
        PRODUCT,
        "Set.prod S T ∩ {p | A p.1}",
        "Set.prod T S ∩ {p | A p.1}",
    ),
    "sets: a tuple in a product": (
        GAME,
        "fun m => (m, m + 1) ∈ {k | A k} ×ˢ {k | B k}",
        "fun m => (m + 1, m) ∈ {k | A k} ×ˢ {k | B k}",
    ),
    "injective: Set.InjOn f Set.univ": (
        INJ,
        "{f | Set.InjOn f Set.univ ∧ f 0 = 0}",
        "{f | Set.InjOn f Set.univ ∧ f 0 = 1}",
    ),
    "injective: Set.InjOn f Set.univ, apart": (
        INJ,
        "{f | Set.InjOn f Set.univ} ∩ {f | f 0 = 0}",
        "{f | Set.InjOn f Set.univ} ∩ {f | f 1 = 0}",
    ),
    "injective: strict implicit binders": (
        INJ,
        "{f | (∀ ⦃a b⦄, f a = f b → a = b) ∧ f 0 = 0}",
        "{f | (∀ ⦃a b⦄, f a = f b → a ≤ b) ∧ f 0 = 0}",
    ),
}
GROUPS = ("pair", "uncurry", "proof", "sets", "injective")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused
