"""Red team 27 (Lean, no-answer): the question copied in a spelling the copy rule's normal form did not reach.

G2's copy rule refuses a value that is, or holds, the other side of the statement's ``=``/``↔`` in one
normal form (``_answer_order``, red team 22). These copies were accepted by the text profile (and by the
full profile: no compiled gate reads the answer's shape, and the answer check says ``unknown``):

* De Morgan and negation in other places: ``¬(¬A ∨ ¬B)`` for ``A ∧ B`` under the question's own ``∃``,
  ``¬∀ a b c, ..`` for ``∃ a b c, ..``, ``(A → False) → False`` for ``A``;
* an implication and the units of logic: ``P → False`` for ``¬P``, ``True → P``, ``P ↔ True``, ``P =
  True``, ``P ↔ False``;
* a conjunct or disjunct repeated (``A ∧ A``, ``.. ∧ 0 < a ∧ .. ∧ 0 < a``);
* the arguments of a commutative function swapped: ``max``, ``min``, ``gcd``, ``lcm``; ``max`` spelled ``⊔``
  or nested around one of its own arguments;
* ``List.nil`` (``@List.nil _``) for ``[]``;
* a named argument (``AliceHasWinningStrategy (n := n)``) and a ``·`` section below the top
  (``(· ∈ {n | AliceHasWinningStrategy n})``);
* a one-point quantifier with its equation not first (``∃ m, A m ∧ m = n``, ``∀ m, A m ∨ m ≠ n``);
* membership in a set the value builds around the question, below the top: ``n ∈ {m | A m} ∧ True``,
  ``n ∈ {m | A m} ∩ Set.univ``, ``¬n ∈ {m | A m}ᶜ`` (and ``fun n => n ∈ S ∧ P`` was read as the set
  ``S ∧ P``, which lost the membership).

Fix, by class: the normal form pushes negation to the atoms (``_answer_commute.negated``), reads ``A → B``
as ``¬A ∨ B`` and takes the units and absorbing elements of ``∧ ∨ ∪ ∩`` off, reads an idempotent chain's
operands once, reads ``max``/``min`` as ``⊔``/``⊓``, orders ``gcd``'s and ``lcm``'s two arguments, reads
``List.nil`` as ``[]``; sections and
named arguments are rewritten to the ``fun`` and the application they are (``_answer_sections``); a
one-point ``∃``/``∀`` is read as its body with the point substituted, and ``x ∈ {y | P y}``, ``x ∈ S ∩ T``,
``x ∈ S ∪ T``, ``x ∈ Sᶜ``, ``x ∈ Set.univ``, ``x ∈ ∅`` as what they are by definition. Honest
answers that share a part with the question, or are spelled with the same connectives, stay accepted, and
so does every official answer (``test_lean_redteam15.py``).

Left (the limits of a text rule, ``docs/threat-model.md``): algebra beyond these identities (``1 ≤ a`` for
``0 < a``, ``¬(a < b)`` for ``b ≤ a``), ``⊔`` for ``∪`` on sets, a bounded binder written out (``∀ x, x ∈ s →
P`` for ``∀ x ∈ s, P``), a named argument of a function whose binders the challenge does not define.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_redteam22_normal import GAME, POLY, SET, A
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2

MAXED = "putnam_1989_a2"
"""States ``∫ x in Set.Ioo 0 a, ∫ y in Set.Ioo 0 b, Real.exp (max (b ^ 2 * x ^ 2) (a ^ 2 * y ^ 2)) =
putnam_1989_a2_solution a b``."""
INTEGRAL = "fun a b => ∫ x in Set.Ioo 0 a, ∫ y in Set.Ioo 0 b, Real.exp ({})"
DIVIDES = "putnam_1997_b3"
"""States ``n ∈ putnam_1997_b3_solution ↔ ¬5 ∣ (∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den``."""
DEN = "5 ∣ (∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den"
UNCOUNTABLE = "putnam_1989_b4"
"""States ``(∃ S : Type, Countable S ∧ Infinite S ∧ ∃ C : Set (Set S), ¬Countable C ∧ (∀ R ∈ C, R ≠ ∅) ∧
(∀ A ∈ C, ∀ B ∈ C, A ≠ B → (A ∩ B).Finite)) ↔ putnam_1989_b4_solution``."""
OPERATION = "putnam_1984_b3"
"""States ``(∀ (F : Type*) (_ : Fintype F), Fintype.card F ≥ 2 → (∃ mul : F → F → F, ∀ x y z : F, (mul x z
= mul y z → x = y) ∧ (mul x (mul y z) ≠ mul (mul x y) z))) ↔ putnam_1984_b3_solution``."""
ABC = "{{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), {}}}"
EQ = "2*a^n + 3*b^n = 4*c^n"

COPIES = {
    # negation elsewhere: De Morgan, its quantifier form, double negation through an implication
    "De Morgan under the ∃, with ≠": (SET, ABC.format("¬ (¬ 0 < a ∨ ¬ 0 < b ∨ ¬ 0 < c ∨ 2*a^n + 3*b^n ≠ 4*c^n)")),
    "¬∀ for ∃, the conjuncts as premises": (
        SET,
        "{n : ℕ | 0 < n ∧ ¬ ∀ (a b c : ℕ), 0 < a → 0 < b → 0 < c → 2*a^n + 3*b^n ≠ 4*c^n}",
    ),
    "De Morgan with a unit": (GAME, f"fun n => ¬ (¬ {A} n ∨ False)"),
    "¬¬ as implications into False": (GAME, f"fun n => ({A} n → False) → False"),
    "¬ of an implication into False": (GAME, f"fun n => ¬ ({A} n → False)"),
    "¬P → P": (GAME, f"fun n => ¬ {A} n → {A} n"),
    "the whole statement negated twice": (
        UNCOUNTABLE,
        "¬ ∀ S : Type, Countable S → Infinite S → ∀ C : Set (Set S), Countable C ∨ (∃ R ∈ C, R = ∅) ∨ "
        "∃ A ∈ C, ∃ B ∈ C, A ≠ B ∧ ¬ (A ∩ B).Finite",
    ),
    "the conjunction under ∀ as a negated disjunction": (
        OPERATION,
        "∀ (F : Type*) (_ : Fintype F), Fintype.card F ≥ 2 → (∃ mul : F → F → F, ∀ x y z : F, "
        "¬ ((mul x z = mul y z ∧ x ≠ y) ∨ mul x (mul y z) = mul (mul x y) z))",
    ),
    # the units of logic
    "P ↔ True": (GAME, f"fun n => ({A} n ↔ True)"),
    "P = True": (GAME, f"fun n => {A} n = True"),
    "True → P": (GAME, f"fun n => True → {A} n"),
    "the condition ↔ True under the ∃": (SET, ABC.format(f"(0 < a ∧ 0 < b ∧ 0 < c ∧ {EQ} ↔ True)")),
    "→ False for ¬": (DIVIDES, f"{{n | {DEN} → False}}"),
    "↔ False for ¬": (DIVIDES, f"{{n | ({DEN} ↔ False)}}"),
    "¬ of a conjunction with True": (DIVIDES, f"{{n | ¬ ({DEN} ∧ True)}}"),
    # idempotence
    "A ∧ A": (GAME, f"fun n => {A} n ∧ {A} n"),
    "A ∨ A ∨ False": (GAME, f"fun n => {A} n ∨ {A} n ∨ False"),
    "a conjunct repeated under the ∃": (SET, ABC.format(f"{EQ} ∧ 0 < c ∧ 0 < a ∧ 0 < b ∧ 0 < a")),
    # commutative functions
    "max's arguments swapped": (MAXED, INTEGRAL.format("max (a ^ 2 * y ^ 2) (b ^ 2 * x ^ 2)")),
    "max's arguments and factors swapped": (MAXED, INTEGRAL.format("max (y ^ 2 * a ^ 2) (x ^ 2 * b ^ 2)")),
    "Max.max swapped": (MAXED, INTEGRAL.format("Max.max (a ^ 2 * y ^ 2) (b ^ 2 * x ^ 2)")),
    "max as ⊔": (MAXED, INTEGRAL.format("a ^ 2 * y ^ 2 ⊔ b ^ 2 * x ^ 2")),
    "max of itself and its argument": (
        MAXED,
        INTEGRAL.format("max (max (b ^ 2 * x ^ 2) (a ^ 2 * y ^ 2)) (a ^ 2 * y ^ 2)"),
    ),
    # List.nil, named arguments, sections
    "List.nil": (GAME, "fun n => HasWinningStrategy n List.nil"),
    "@List.nil _": (GAME, "fun n => HasWinningStrategy n (@List.nil _)"),
    "a named argument": (GAME, f"fun n => {A} (n := n)"),
    "a named argument, renamed": (GAME, f"fun m => {A} (n := m)"),
    "a section of membership in the set-builder": (GAME, f"(· ∈ {{n | {A} n}})"),
    "a section inside an identity": (GAME, f"id (· ∈ {{n | {A} n}})"),
    # one-point quantifiers, the equation anywhere; membership in a set the value builds
    "∃ with the equation last": (GAME, f"fun n => ∃ m, {A} m ∧ m = n"),
    "∀ with the equation as a disjunct": (GAME, f"fun n => ∀ m, {A} m ∨ m ≠ n"),
    "∃ with the equation in the middle": (
        SET,
        "{n : ℕ | ∃ k, 0 < k ∧ k = n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^k + 3*b^k = 4*c^k}",
    ),
    "∀ over polynomials, the equation turned": (
        POLY,
        "{P : Polynomial ℝ | ∀ Q, P ≠ Q ∨ (Q.eval 0 = 0 ∧ ∀ x : ℝ, Q.eval (x^2 + 1) = (Q.eval x)^2 + 1)}",
    ),
    "membership in the set-builder beside True": (GAME, f"fun n => n ∈ {{m | {A} m}} ∧ True"),
    "membership in the set-builder ∩ Set.univ": (GAME, f"fun n => n ∈ {{m | {A} m}} ∩ Set.univ"),
    "membership twice, once in Set.univ": (GAME, f"fun n => n ∈ {{m | {A} m}} ∧ n ∈ Set.univ"),
    "not in the complement": (GAME, f"fun n => ¬ n ∈ {{m | {A} m}}ᶜ"),
    "membership in setOf ∪ ∅": (GAME, f"fun n => n ∈ setOf {A} ∪ ∅"),
    "membership in setOf a fun, ∩ Set.univ": (GAME, f"fun n => n ∈ setOf (fun m => {A} m) ∩ Set.univ"),
}


@pytest.mark.parametrize("case", sorted(COPIES))
def test_the_question_in_another_spelling_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = COPIES[case]
    assert COPIED in _g2(lean_putnambench, problem, value)


HONEST = {
    "the game's official answer": (GAME, "fun _ => False"),
    "a negated condition of its own": (GAME, "fun n => ¬ (n = 1 ∨ n = 2)"),
    "an implication of its own": (GAME, "fun n => 1 ≤ n → n % 2 = 0"),
    "a condition ↔ True": (GAME, "fun n => (n % 2 = 0 ↔ True)"),
    "a condition repeated": (GAME, "fun n => n % 2 = 0 ∧ n % 2 = 0"),
    "the set's official answer": (SET, "{1}"),
    "the set by a negated disjunction": (SET, "{n | ¬ (n = 0 ∨ 2 ≤ n)}"),
    "a part of the condition beside the answer": (SET, "{n : ℕ | 0 < n ∧ n < 2}"),
    "a weaker condition with the same terms": (SET, ABC.format("0 < a ∧ 2*a^n ≠ 4*c^n")),
    "the divisor's official answer": (
        DIVIDES,
        "{n | (1 ≤ n ∧ n ≤ 4) ∨ (20 ≤ n ∧ n ≤ 24) ∨ (100 ≤ n ∧ n ≤ 104) ∨ (120 ≤ n ∧ n ≤ 124)}",
    ),
    "the official answer's conditions turned": (
        DIVIDES,
        "{n | (n ≥ 1 ∧ 4 ≥ n) ∨ (24 ≥ n ∧ n ≥ 20) ∨ ¬ (n < 100 ∨ 104 < n) ∨ (120 ≤ n ∧ n ≤ 124)}",
    ),
    "not divisible, closed form": (DIVIDES, "{n | 5 ∣ n → False}"),
    "the integral's official answer": (MAXED, "fun a b : ℝ => (Real.exp (a ^ 2 * b ^ 2) - 1) / (a * b)"),
    "a max in the answer": (MAXED, "fun a b => (Real.exp (max (b ^ 2) (a ^ 2) * 1) - 1) / (a * b)"),
    "True": (UNCOUNTABLE, "True"),
    "¬False": (UNCOUNTABLE, "¬ False"),
    "False → False": (OPERATION, "False → False"),
    "a one-point ∃ of its own": (GAME, "fun n => ∃ m, m % 2 = 0 ∧ m = n + 1"),
    "membership in sets of its own": (GAME, "fun n => n ∈ ({1, 2} : Set ℕ) ∩ {m | m % 2 = 0}"),
    "not in a complement of its own": (SET, "{n | ¬ n ∈ ({1} : Set ℕ)ᶜ}"),
    "in a setOf of its own ∪ ∅": (SET, "{n | n ∈ setOf (fun m => m = 1) ∪ ∅}"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_answers_in_the_same_connectives_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _g2(lean_putnambench, problem, value) == ""


HEAD = "theorem t (a b : ℕ) (f g : ℕ → ℕ) (P Q : ℕ → Prop) : "
STATEMENTS = {
    "and": f"abbrev t_solution : ℕ → ℕ → Prop := sorry\n{HEAD}(P (f a) ∧ Q (g b)) ↔ t_solution a b := sorry\n",
    "not and": f"abbrev t_solution : ℕ → ℕ → Prop := sorry\n{HEAD}¬ (P (f a) ∧ Q (g b)) ↔ t_solution a b := sorry\n",
    "gcd": f"abbrev t_solution : ℕ → ℕ → ℕ := sorry\n{HEAD}Nat.gcd (f a) (g b) = t_solution a b := sorry\n",
    "lcm": f"abbrev t_solution : ℕ → ℕ → ℕ := sorry\n{HEAD}(f a).lcm (g b) + 1 = t_solution a b := sorry\n",
    "min": f"abbrev t_solution : ℕ → ℕ → ℕ := sorry\n{HEAD}min (f a) (g b) * 2 = t_solution a b := sorry\n",
    "nil": f"abbrev t_solution : ℕ → ℕ → ℕ := sorry\n{HEAD}(List.map f [a, b] ++ []).sum = t_solution a b := sorry\n",
    "section": "abbrev t_solution : ℕ → Prop := sorry\n"
    "theorem t (n : ℕ) (f : ℕ → ℕ → Prop) : f n 1 ↔ t_solution n := sorry\n",
    "named": "def F (x y : ℕ) : Prop := x < y ∧ y < 10\nabbrev t_solution : ℕ → ℕ → Prop := sorry\n"
    "theorem t (a b : ℕ) : F a b ↔ t_solution a b := sorry\n",
}


@pytest.mark.parametrize(
    ("statement", "value", "copied"),
    [
        ("and", "fun a b => ¬ (¬ P (f a) ∨ ¬ Q (g b))", True),
        ("and", "fun a b => ¬ (P (f a) → ¬ Q (g b))", True),
        ("and", "fun a b => Q (g b) ∧ P (f a) ∧ Q (g b)", True),
        ("and", "fun a b => (P (f a) ∧ Q (g b)) ∧ (P (f a) ∧ Q (g b))", True),
        ("and", "fun a b => (P (f a) ∧ Q (g b) ↔ True) ∨ False", True),
        ("and", "fun a b => True → P (f a) ∧ Q (g b)", True),
        ("and", "fun a b => P (f a) ∨ Q (g b)", False),
        ("and", "fun a b => P (f a) ∧ Q (g a)", False),
        ("and", "fun a b => ¬ (P (f a) ∧ Q (g b))", False),
        ("not and", "fun a b => ¬ P (f a) ∨ ¬ Q (g b)", True),
        ("not and", "fun a b => ¬ Q (g b) ∨ ¬ P (f a)", True),
        ("not and", "fun a b => P (f a) → ¬ Q (g b)", True),
        ("not and", "fun a b => Q (g b) → P (f a) → False", True),
        ("not and", "fun a b => P (f a) → Q (g b)", False),
        ("gcd", "fun a b => Nat.gcd (g b) (f a)", True),
        ("gcd", "fun a b => (g b).gcd (f a)", True),
        ("gcd", "fun a b => Nat.gcd (f a) (g a)", False),
        ("gcd", "fun a b => Nat.lcm (f a) (g b)", False),
        ("lcm", "fun a b => Nat.lcm (g b) (f a) + 1", True),
        ("lcm", "fun a b => 1 + (g b).lcm (f a)", True),
        ("min", "fun a b => 2 * min (g b) (f a)", True),
        ("min", "fun a b => 2 * max (g b) (f a)", False),
        ("min", "fun a b => 2 * (g b ⊓ f a)", True),
        ("min", "fun a b => 2 * min (min (g b) (f a)) (f a)", True),
        ("min", "fun a b => 2 * min (g b) (min (f a) (g b))", True),
        ("min", "fun a b => 2 * min (g b) (min (f a) 3)", False),
        ("nil", "fun a b => (List.map f [a, b] ++ List.nil).sum", True),
        ("nil", "fun a b => (List.map f [a, b] ++ [0]).sum", False),
        ("section", "(· ∈ {m | f m 1})", True),
        ("section", "(f · 1)", True),
        ("section", "fun n => (f · 1) n", True),
        ("section", "(f 1 ·)", False),
        ("section", "(· ∈ {m | f m 2})", False),
        ("named", "fun a b => F (x := a) (y := b)", True),
        ("named", "fun a b => F (y := b) (x := a)", True),
        ("named", "fun a b => F (y := b) a", True),
        ("named", "fun a b => F (x := b) (y := a)", False),
        ("named", "fun a b => F (y := a) b", False),
    ],
)
def test_each_class_on_small_statements(statement: str, value: str, copied: bool) -> None:
    found = copied_violations(lex_code(value), "t_solution", parse_statement(STATEMENTS[statement]), "t_solution")
    assert bool(found) is copied, found
