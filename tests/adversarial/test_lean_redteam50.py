"""Value red team 50 (Lean, no-answer, G2 of the text profile): the question's own condition respelled by an
identity Lean proves, which the copy rule's readings did not share, by class.

* (1) Its equation ``x = y`` respelled (``_answer_equalities``): ``x == y`` and ``(x == y) = true``
  (``beq_iff_eq``), ``Nat.dist x y = 0``, ``dist``, ``Int.natAbs (x - y) = 0``, ``|x - y| = 0``, ``compare x y =
  Ordering.eq``, ``max x y = min x y``, and two conjuncts bounding each side by the other (``x - y = 0 ∧ y - x =
  0`` on ``ℕ``, ``x ≥ y ∧ y ≥ x``, ``x ≤ y ∧ ¬ x < y``: red team 49 read ``x ≤ y ∧ y ≤ x`` in the normal form
  only, so under a premise, where the reading as written finds the condition, it passed).
* (2) Positivity respelled (``_answer_positives``): ``0 < a * b * c`` on ``ℕ`` and ``a * b * c ≠ 0`` for three
  bounds, ``0 < min a (min b c)``, ``max A 0 = A`` and ``|A| = A`` for ``0 ≤ A``, and the witnesses in ``ℕ+``
  with no bound (``∃ (a b c : ℕ+), ..``).
* (3) A ``[ZMOD n]`` congruence, or a divisibility, as an equation in ``ZMod n`` (``_answer_equalities``:
  ``((a : ℤ) : ZMod n) = (m : ZMod n) * ..``, ``(d : ZMod 5) ≠ 0`` for ``¬ 5 ∣ d``).
* (4) A set copied through a subtype's image of ``Set.univ`` (``_answer_images``: ``Set.image_univ``, read as
  the subtype's range, which copy red team 35b reads).
* (6) A common factor where no type is written (``∃ a b c, .. 4*a^n + 6*b^n = 8*c^n``, ``∀ p, .. 10 < 2 * p``):
  red team 49 divided only where the type is written; a quantifier's name with none takes the type its uses
  elaborate (``_answer_spelling.untyped_names``), a number type unless the value ascribes another.
* (5, new) Operations written by their definitions (``_answer_operations``): ``Monoid.npow n a`` and ``∏ _i ∈
  Finset.range n, a`` for ``a ^ n``, ``∃ k : ℤ, b = a * k`` for ``a ∣ b``.

Each rule is a token rewrite of ``_answer_normal``, so the value and the question's side are read alike in
every reading (normal form, as written, algebra). Measured (G2, as ``g2`` runs it), before the change (on
main) and after it: ``ATTACKS`` (47) 5 refused before (four pairs of bounds in the set-builder, which red
team 49's normal form reads, and ``PNat`` witnesses under a premise, by the conjunct rule), 47 now.
``HONEST`` (24, the official answers of the five statements touched among them): 24 accepted before and
now. Official answers 346 of 346 (red team 37's sweep), the verdict snapshot unchanged.

Left: the official answer's superset ∩ the question's hard conjunct (``{n | {m | ..}.encard = 15} ∩ Set.Icc
315 350``, red teams 43 and 49: no text rule tells the hard conjunct from an honest shared one), a common
factor where no type is written (``∃ a b c,``), witnesses packed in a function (``∃ v : Fin 3 → ℕ, .. v 0``),
a positive witness written as a successor (``∃ a, .. (a + 1) ^ n``), a cast pushed into a big operator
(``(∑ m ∈ s, 1 / m : ℚ)`` against ``∑ m ∈ s, (m : ℚ)⁻¹``), a double negation under a premise (``¬ (x != y) =
true``: the normal form alone reads it), and ``Nat.Coprime 5 d`` for ``¬ 5 ∣ d`` (true for a prime alone).
"""

from __future__ import annotations

from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2_alone
from tests.adversarial.test_lean_redteam43_hedges import A1, A4, A19, B3, B5, q_a1, q_a4
from tests.adversarial.test_lean_redteam49 import EQUATION, a1_builder, a1_only
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

B97 = "putnam_1997_b3"  # `n ∈ solution ↔ ¬5 ∣ (∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den`
LEFT, RIGHT = "2*a^m + 3*b^m", "4*c^m"
SUM = "(∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den"
B3_REST = "(n - 1 : ℤ) ∣ (2^n - 1 : ℤ) ∧ (n - 2 : ℤ) ∣ (2^n - 2 : ℤ)"
A19_REST = "B ≥ 0 ∧ C ≥ 0 ∧ A^3 + B^3 + C^3 - 3*A*B*C = n"
B5_HEAD = "{n | 0 < n ∧ ∀ m : ℤ, IsRelPrime m n → ∃ p : Equiv.Perm (Fin n), ∀ k : Fin n, "


def both(equation: str) -> list[tuple[str, str]]:
    """``putnam_2024_a1``'s own set with its equation written ``equation``, and the least such ``m`` (under a
    premise, where only the reading as written finds it)."""
    return [(A1, a1_builder(equation)), (A1, a1_only(EQUATION, equation))]


EQUATIONS: dict[str, str] = {
    "a Boolean equation": f"(({LEFT}) == {RIGHT}) = true",
    "a Boolean equation bare": f"({LEFT}) == {RIGHT}",
    "a distance zero": f"Nat.dist ({LEFT}) ({RIGHT}) = 0",
    "a distance zero turned": f"0 = Nat.dist ({RIGHT}) ({LEFT})",
    "an integer distance zero": f"Int.natAbs (({LEFT} : ℤ) - {RIGHT}) = 0",
    "an absolute difference zero": f"|(({LEFT} : ℤ)) - {RIGHT}| = 0",
    "compare": f"compare ({LEFT}) ({RIGHT}) = Ordering.eq",
    "max and min": f"max ({LEFT}) ({RIGHT}) = min ({LEFT}) ({RIGHT})",
    "two truncated differences": f"{LEFT} - {RIGHT} = 0 ∧ {RIGHT} - ({LEFT}) = 0",
    "two truncated differences bounded": f"{LEFT} - {RIGHT} ≤ 0 ∧ {RIGHT} - ({LEFT}) ≤ 0",
    "two reversed bounds": f"{LEFT} ≥ {RIGHT} ∧ {RIGHT} ≥ {LEFT}",
    "two bounds": f"{LEFT} ≤ {RIGHT} ∧ {RIGHT} ≤ {LEFT}",
    "a bound and a negated one": f"{LEFT} ≤ {RIGHT} ∧ ¬ ({LEFT} < {RIGHT})",
}

# name: (problem, value); each refused now
ATTACKS: dict[str, tuple[str, str]] = {
    **{f"{name} in the set-builder": both(e)[0] for name, e in EQUATIONS.items()},
    **{f"{name} under a premise": both(e)[1] for name, e in EQUATIONS.items()},
    # (2) positivity respelled
    "a product's positivity": (A1, a1_builder(EQUATION, bounds="0 < a * b * c")),
    "a product not zero": (A1, a1_builder(EQUATION, bounds="a * b * c ≠ 0")),
    "a nested min's positivity": (A1, a1_builder(EQUATION, bounds="0 < min a (min b c)")),
    "witnesses in ℕ+": (A1, "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ+), 2*a^n + 3*b^n = 4*c^n}"),
    "witnesses in PNat under a premise": (A1, "{n | ∀ m, (0 < m ∧ ∃ a b c : PNat, 2*a^m + 3*b^m = 4*c^m) → m = n}"),
    "a max for a bound": (A19, f"{{n : ℤ | ∃ A B C : ℤ, max A 0 = A ∧ {A19_REST}}}"),
    "an absolute value for a bound": (A19, f"{{n : ℤ | ∃ A B C : ℤ, |A| = A ∧ {A19_REST}}}"),
    # (3) congruences and divisibility in ZMod n
    "a congruence in ZMod": (
        B5,
        B5_HEAD + "((↑(p (p k)).1 + 1 : ℤ) : ZMod n) = ((m * (↑k.1 + 1) : ℤ) : ZMod n)}",
    ),
    "a congruence in ZMod, a product of casts": (
        B5,
        B5_HEAD + "(((p (p k)).1 + 1 : ℤ) : ZMod n) = (m : ZMod n) * ((k.1 : ZMod n) + 1)}",
    ),
    "a congruence in ZMod as a difference": (
        B5,
        B5_HEAD + "((((p (p k)).1 + 1 : ℤ) - m * (k.1 + 1) : ℤ) : ZMod n) = 0}",
    ),
    "a divisibility in ZMod": (B3, f"{{n | n < 10^100 ∧ ((2^n : ℤ) : ZMod n) = 0 ∧ {B3_REST}}}"),
    "a non-divisibility in ZMod": (B97, f"{{n : ℕ | ({SUM} : ZMod 5) ≠ 0}}"),
    # (4) a subtype's image
    "a subtype's image of univ": (A1, f"((↑) : {{m : ℕ // {q_a1('m')}}} → ℕ) '' Set.univ"),
    "a subtype's image by Subtype.val": (A1, f"(Subtype.val : {{m : ℕ // {q_a1('m')}}} → ℕ) '' Set.univ"),
    "a subtype's Set.image": (A1, f"Set.image (Subtype.val : {{m : ℕ // {q_a1('m')}}} → ℕ) Set.univ"),
    # (6) a common factor where no type is written (the binder's type is elaborated)
    "a factor on untyped witnesses": (
        A1,
        "{n : ℕ | 0 < n ∧ ∃ a b c, 0 < a ∧ 0 < b ∧ 0 < c ∧ 4*a^n + 6*b^n = 8*c^n}",
    ),
    "a factor on untyped witnesses under a premise": (
        A1,
        "{n | ∀ m, (0 < m ∧ ∃ a b c, 0 < a ∧ 0 < b ∧ 0 < c ∧ 4*a^m + 6*b^m = 8*c^m) → m = n}",
    ),
    "a bound doubled on an untyped prime": (A4, f"{{n | ∀ p, {q_a4('p').replace('5 < p', '10 < 2 * p')} → n = p}}"),
    # (5) operations by their definitions
    "a power by Monoid.npow": (A1, a1_builder("2*Monoid.npow n a + 3*b^m = 4*c^m")),
    "a power as a product": (A1, a1_builder("2*(∏ _i ∈ Finset.range n, a) + 3*b^m = 4*c^m")),
    "a divisibility by its definition": (B3, f"{{n | n < 10^100 ∧ (∃ k : ℤ, (2^n : ℤ) = n * k) ∧ {B3_REST}}}"),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "putnam_2024_a1 official": (A1, "{1}"),
    "putnam_2023_b5 official": (B5, "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_2019_a1 official": (A19, "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_2018_b3 official": (B3, "{2^2, 2^4, 2^16, 2^256}"),
    "putnam_1997_b3 official": (
        B97,
        "{n | (1 ≤ n ∧ n ≤ 4) ∨ (20 ≤ n ∧ n ≤ 24) ∨ (100 ≤ n ∧ n ≤ 104) ∨ (120 ≤ n ∧ n ≤ 124)}",
    ),
    "the official answer by a Boolean equation": (A1, "{n : ℕ | (n == 1) = true}"),
    "the official answer by a distance": (A1, "{n : ℕ | Nat.dist n 1 = 0}"),
    "the official answer by max and min": (A1, "{n : ℕ | max n 1 = min n 1}"),
    "the official answer by two differences": (A1, "{n : ℕ | n - 1 = 0 ∧ 1 - n = 0}"),
    "the official answer by compare": (A1, "{n : ℕ | compare n 1 = Ordering.eq}"),
    "a product's positivity": (A1, "{n : ℕ | 0 < n * n ∧ n ≤ 1}"),
    "a witness in ℕ+": (A1, "{n : ℕ | ∃ k : ℕ+, (k : ℕ) = n ∧ n ≤ 1}"),
    "a residue in ZMod": (B5, "{n : ℕ | n = 1 ∨ (n : ZMod 4) = 2}"),
    "a residue in ZMod from ℤ": (B5, "{n : ℕ | n = 1 ∨ ((n : ℤ) : ZMod 4) = 2}"),
    "residues in ZMod": (A19, "{n : ℤ | 0 ≤ n ∧ (n : ZMod 9) ≠ 3 ∧ (n : ZMod 9) ≠ 6}"),
    "a bound by an absolute value": (A19, "{n : ℤ | |n| = n ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "a bound by max": (A19, "{n : ℤ | max n 0 = n ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "a subtype's image": (A1, "((↑) : {m : ℕ // m = 1} → ℕ) '' Set.univ"),
    "a square by Monoid.npow": (A1, "{n : ℕ | Monoid.npow 2 n = 1}"),
    "a square as a product": (A1, "{n : ℕ | ∏ _i ∈ Finset.range 2, n = 1}"),
    "multiples by their definition": (B3, "{n : ℕ | ∃ k, n = 4 * k}"),
    "an untyped factor in ZMod is no factor": (A1, "{n | ∃ a b, (2 * a : ZMod 4) = 2 * b ∧ a ≠ b ∧ n = 1}"),
    "the official answer doubled on an untyped witness": (A1, "{n : ℕ | ∃ k, 2 * k = 2 ∧ n = k}"),
    "the official answer of putnam_1997_b3 in ZMod": (
        B97,
        "{n | (n : ZMod 100) ∈ ({1, 2, 3, 4, 20, 21, 22, 23, 24} : Set (ZMod 100)) ∧ n ≤ 124 ∧ 0 < n}",
    ),
}

test_each_attack_is_refused = refusal_table_test(g2_alone, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2_alone, honest=HONEST)
