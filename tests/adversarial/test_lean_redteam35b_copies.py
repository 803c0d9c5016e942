"""Copy red team 35b (Lean, no-answer): the classes round 35 left to a check by meaning, read by the
definitions Mathlib gives them. Each copy was accepted by G2 on the text profile before (the answer check
says no more than ``unknown``):

* tuple (``_answer_quantifiers._components``): a bound tuple used only by all its components, ``∃ t, P t.1
  t.2.1 t.2.2``, is ``∃ a b c, P a b c`` (``Prod.exists``), so a set over ``A B C`` re-indexed as the image
  of a set of triples is the set it restates;
* subtype (``_answer_images.subtype_ranges``): ``Set.range (Subtype.val : {x // C} → T)`` is ``{x | C}``
  (``Subtype.range_val_subtype``);
* cases (``_answer_naturals.cases``): ``match n with | 0 => B 0 | k + 1 => B (k + 1)`` is ``B n``;
* indicator (``_answer_commute``): ``Set.indicator s f x`` is ``if x ∈ s then f x else 0`` and an ``if`` of
  numerals equal to one of them is its condition or its negation;
* indexed (``_answer_quantifiers.INDEXED``): ``⋂ x, {c | P}`` is ``{c | ∀ x, P}`` (``Set.iInter_setOf``),
  ``⋃`` likewise with ``∃``;
* division (``_answer_commute.ordered``): ``a / b`` is ``a * b⁻¹`` but where it is shown to divide in ``ℕ``
  or ``ℤ``;
* hyperbolic (``_answer_commute.HYPERBOLIC``): ``cosh x`` is ``(exp x + exp (-x)) / 2`` (``Real.cosh_eq``),
  ``sinh`` likewise;
* notation (``_answer_spelling``): ``rexp``/``cexp`` are ``Real.exp``/``Complex.exp``, ``×₃`` is
  ``crossProduct``;
* norm (``_abs_bars.norm_spelled``): ``‖z‖`` is ``Norm.norm z``, read as a term (it was not: a question
  holding a norm was compared as written), and ``Complex.abs z`` is ``‖z‖`` (``Complex.norm_eq_abs``);
* eta (``_answer_sets.set_eta``): ``{x | x ∈ S}`` is ``S`` once its condition is read, so ``{y | (y ∈ S)}``
  and ``{x | x ∈ S ∧ True}`` meet ``solution = S``.

Red team on the pinned questions: of round 35's 76 copies the previous code accepted 13; this one refuses
11 of them (``COPIES``). Left: a change of type (``∃ A B C : ℕ, n = ↑A ^ 3 ..`` for ``∃ A B C : ℤ, 0 ≤ A ∧
..``, ``putnam_2019_a1``), which a text rule cannot judge. Honest answers in the new readings' shapes pass
(``HONEST``), beside round 35's 49.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam29_copies import _copied, _int, _nat, _real
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins, pinned_cases
from tests.helpers import sampled

EQUAL = "abbrev t_solution : Set ℕ := sorry\ntheorem t (S : Set ℕ) : t_solution = S := sorry\n"
CROSS = (
    "abbrev t_solution : Set (Fin 3 → ℝ) := sorry\n"
    "theorem t (v w : Fin 3 → ℝ) : ∀ u, (u = crossProduct v w ∨ u = 0 ↔ u ∈ t_solution) := sorry\n"
)
DISC = "abbrev t_solution : Set ℂ := sorry\ntheorem t : ∀ z : ℂ, (‖z‖ < 1 ∧ z ≠ 0 ↔ z ∈ t_solution) := sorry\n"
ASKED = "Even n ∧ 3 ∣ n"

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "tuple: an image of triples": (
        _int("∃ a b c : ℤ, 0 ≤ a ∧ 0 ≤ b ∧ 0 ≤ c ∧ a ^ 3 + b ^ 3 + c ^ 3 = n"),
        "(fun t : ℤ × ℤ × ℤ => t.1 ^ 3 + t.2.1 ^ 3 + t.2.2 ^ 3) '' {t | 0 ≤ t.1 ∧ 0 ≤ t.2.1 ∧ 0 ≤ t.2.2}",
        "(fun t : ℤ × ℤ × ℤ => t.1 ^ 3 + t.2.1 ^ 3 + t.2.2 ^ 2) '' {t | 0 ≤ t.1 ∧ 0 ≤ t.2.1 ∧ 0 ≤ t.2.2}",
    ),
    "tuple: a pair bound": (
        _int("∃ a b : ℤ, 0 < a ∧ n = a * b + 1"),
        "{n | ∃ p : ℤ × ℤ, 0 < p.1 ∧ n = p.1 * p.2 + 1}",
        "{n | ∃ p : ℤ × ℤ, 0 < p.1 ∧ n = p.1 * p.1 + 1}",
    ),
    "subtype: Subtype.val": (
        _nat("0 < n ∧ " + ASKED),
        "Set.range (Subtype.val : {k : ℕ // 0 < k ∧ Even k ∧ 3 ∣ k} → ℕ)",
        "Set.range (Subtype.val : {k : ℕ // 0 < k ∧ Even k ∧ 5 ∣ k} → ℕ)",
    ),
    "subtype: a coercion of Subtype p": (
        _nat("Even n"),
        "Set.range ((↑) : Subtype Even → ℕ)",
        "Set.range ((↑) : Subtype Odd → ℕ)",
    ),
    "cases: zero and successor": (
        _nat(ASKED),
        "{n | match n with | 0 => Even 0 ∧ 3 ∣ 0 | k + 1 => Even (k + 1) ∧ 3 ∣ (k + 1)}",
        "{n | match n with | 0 => False | k + 1 => Even (k + 1) ∧ 3 ∣ (k + 1)}",
    ),
    "indicator: of a constant": (
        _nat(ASKED),
        "{n | Set.indicator {m | Even m ∧ 3 ∣ m} (fun _ => (1 : ℕ)) n = 1}",
        "{n | Set.indicator {m | Even m ∧ 3 ∣ m} (fun _ => (1 : ℕ)) n = 0}",
    ),
    "indicator: an if of numerals": (
        _nat(ASKED),
        "{n | (if Even n ∧ 3 ∣ n then 1 else 0) = 1}",
        "{n | (if Even n ∧ 5 ∣ n then 1 else 0) = 1}",
    ),
    "indexed: ⋂ of set-builders": (
        _real("∀ x : ℝ, x ^ 2 ≤ n * x + 1"),
        "⋂ x : ℝ, {n : ℝ | x ^ 2 ≤ n * x + 1}",
        "⋂ x : ℝ, {n : ℝ | x ^ 2 ≤ n * x + 2}",
    ),
    "indexed: ⋃ of set-builders": (
        _real("∃ x : ℝ, n = x ^ 2 + 1"),
        "⋃ x : ℝ, {n : ℝ | n = x ^ 2 + 1}",
        "⋃ x : ℝ, {n : ℝ | n = x ^ 2 + 2}",
    ),
    "division: * (1 / 2)": (
        _real("n / 2 ≤ 3 ∧ 0 < n"),
        "{n | n * (1 / 2) ≤ 3 ∧ 0 < n}",
        "{n | n * (1 / 3) ≤ 3 ∧ 0 < n}",
    ),
    "hyperbolic: cosh": (
        _real("(Real.exp n + Real.exp (-n)) / 2 ≤ 2"),
        "{n | Real.cosh n ≤ 2}",
        "{n | Real.sinh n ≤ 2}",
    ),
    "notation: rexp": (
        _real("Real.exp n ≤ 2 ∧ 0 < n"),
        "{n | rexp n ≤ 2 ∧ 0 < n}",
        "{n | rexp n ≤ 3 ∧ 0 < n}",
    ),
    "notation: ×₃": (
        CROSS,
        "{u | u = v ×₃ w ∨ u = 0}",
        "{u | u = w ×₃ v ∨ u = 0}",
    ),
    "norm: Complex.abs": (
        DISC,
        "{z | Complex.abs z < 1 ∧ z ≠ 0}",
        "{z | Complex.abs z ≤ 1 ∧ z ≠ 0}",
    ),
    "eta: a bracketed condition": (EQUAL, "{y | (y ∈ S)}", "{y | (y ∈ S ∧ y ≠ 0)}"),
    "eta: a unit beside": (EQUAL, "{x | x ∈ S ∧ True}", "{x | x ∈ S ∧ 0 < x}"),
}
GROUPS = ("tuple", "subtype", "cases", "indicator", "indexed", "division", "hyperbolic", "notation", "norm", "eta")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


def test_a_natural_division_is_no_product_by_an_inverse() -> None:
    """``n / 2`` on ``ℕ`` truncates and ``1 / 2`` there is ``0``: ``n * (1 / 2)`` is ``0``, another set."""
    assert not _copied(_nat("n / 2 = 3"), "{n | n * (1 / 2) = 3}")


def test_a_tuple_used_whole_or_in_part_is_not_split() -> None:
    """``∃ p, f p.1 p.2 ∧ g p`` holds ``p`` whole and ``∃ t, P t.1 t.2.1`` leaves a component unbound, which
    may range over an empty type: neither is read as a binder over components, so neither meets ``∃ a b``."""
    statement = _int("∃ a b : ℤ, 0 < a ∧ n = a * b")
    assert not _copied(statement, "{n | ∃ p : ℤ × ℤ, 0 < p.1 ∧ n = p.1 * p.2 ∧ p ≠ (1, 1)}")
    assert not _copied(statement, "{n | ∃ p : ℤ × ℤ × ℤ, 0 < p.1 ∧ n = p.1 * p.2.1}")


C24 = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"
ALICE = "AliceHasWinningStrategy"
EXP = "(exp x + exp (-x))"
POLY = "(X^2 + (C (b : ℂ))*X + (C (c : ℂ)) : Polynomial ℂ)"
COPIES = {
    "putnam_2024_a1: a subtype's range": (
        "putnam_2024_a1",
        f"Set.range (Subtype.val : {{n : ℕ // {C24}}} → ℕ)",
        f"Set.range (Subtype.val : {{n : ℕ // {C24.replace('4*c', '5*c')}}} → ℕ)",
    ),
    "putnam_2019_a1: an image of triples": (
        "putnam_2019_a1",
        "(fun t : ℤ × ℤ × ℤ => t.1^3 + t.2.1^3 + t.2.2^3 - 3*t.1*t.2.1*t.2.2) '' {t | t.1 ≥ 0 ∧ t.2.1 ≥ 0 ∧ t.2.2 ≥ 0}",
        "(fun t : ℤ × ℤ × ℤ => t.1^3 + t.2.1^3 + t.2.2^3 - 2*t.1*t.2.1*t.2.2) '' {t | t.1 ≥ 0 ∧ t.2.1 ≥ 0 ∧ t.2.2 ≥ 0}",
    ),
    "putnam_2025_a3: a case split": (
        "putnam_2025_a3",
        f"fun n => match n with | 0 => {ALICE} 0 | k + 1 => {ALICE} (k + 1)",
        f"fun n => match n with | 0 => False | k + 1 => {ALICE} (k + 1)",
    ),
    "putnam_2025_a3: an indicator": (
        "putnam_2025_a3",
        f"fun n => Set.indicator {{m | {ALICE} m}} (fun _ => (1 : ℕ)) n = 1",
        f"fun n => Set.indicator {{m | {ALICE} (m + 1)}} (fun _ => (1 : ℕ)) n = 1",
    ),
    "putnam_1980_b1: rexp": (
        "putnam_1980_b1",
        "{c : ℝ | ∀ x : ℝ, (rexp x + rexp (-x)) / 2 ≤ rexp (c * x ^ 2)}",
        "{c : ℝ | ∀ x : ℝ, (rexp x + rexp (-x)) / 2 ≤ rexp (c * x ^ 4)}",
    ),
    "putnam_1980_b1: * (1/2)": (
        "putnam_1980_b1",
        f"{{c : ℝ | ∀ x : ℝ, {EXP} * (1/2) ≤ exp (c * x ^ 2)}}",
        f"{{c : ℝ | ∀ x : ℝ, {EXP} * (1/3) ≤ exp (c * x ^ 2)}}",
    ),
    "putnam_1980_b1: ⋂": (
        "putnam_1980_b1",
        f"⋂ x : ℝ, {{c : ℝ | {EXP} / 2 ≤ exp (c * x ^ 2)}}",
        f"⋂ x : ℝ, {{c : ℝ | {EXP} / 3 ≤ exp (c * x ^ 2)}}",
    ),
    "putnam_1980_b1: cosh": (
        "putnam_1980_b1",
        "{c : ℝ | ∀ x : ℝ, Real.cosh x ≤ exp (c * x ^ 2)}",
        "{c : ℝ | ∀ x : ℝ, Real.sinh x ≤ exp (c * x ^ 2)}",
    ),
    "putnam_1975_a2: IsRoot on an ascribed polynomial": (
        "putnam_1975_a2",
        f"fun (b, c) => ∀ z : ℂ, {POLY}.IsRoot z → ‖z‖ < 1",
        f"fun (b, c) => ∀ z : ℂ, {POLY}.IsRoot z → ‖z‖ < 2",
    ),
    "putnam_1975_a2: Complex.abs": (
        "putnam_1975_a2",
        f"fun (b, c) => ∀ z : ℂ, {POLY}.eval z = 0 → Complex.abs z < 1",
        f"fun (b, c) => ∀ z : ℂ, {POLY}.eval z = 0 → Complex.abs z ≤ 1",
    ),
    "putnam_2022_b2: ×₃": (
        "putnam_2022_b2",
        "{n : ℕ | 0 < n ∧ ∃ S : Finset (Fin 3 → ℝ), Finset.card S = n ∧ S = {u : Fin 3 → ℝ | ∃ v w : S, u = v ×₃ w}}",
        "{n : ℕ | 0 < n ∧ ∃ S : Finset (Fin 3 → ℝ), Finset.card S = n ∧ S = {u : Fin 3 → ℝ | ∃ v w : S, u = v ×₃ v}}",
    ),
}


HONEST = {
    "putnam_2024_a1: a subtype's range": ("putnam_2024_a1", "Set.range (Subtype.val : {n : ℕ // n = 1} → ℕ)"),
    "putnam_2025_a3: a case split": ("putnam_2025_a3", "fun n => match n with | 0 => False | k + 1 => False"),
    "putnam_2025_a3: an indicator": ("putnam_2025_a3", "fun n => Set.indicator ∅ (fun _ => (1 : ℕ)) n = 1"),
    "putnam_2019_a1: a pair split": (
        "putnam_2019_a1",
        "{n : ℤ | ∃ p : ℤ × ℤ, n = 9 * p.1 + p.2 ∧ 0 ≤ n ∧ 0 ≤ p.2 ∧ p.2 < 9 ∧ p.2 ≠ 3 ∧ p.2 ≠ 6}",
    ),
    "putnam_1980_b1: ⋂ of an interval": ("putnam_1980_b1", "⋂ x : ℝ, {c : ℝ | 1 / 2 ≤ c + 0 * x}"),
    "putnam_1980_b1: * (1/2)": ("putnam_1980_b1", "{c : ℝ | 1 * (1/2) ≤ c}"),
    "putnam_1975_a2: a norm": ("putnam_1975_a2", "fun (b, c) => ‖(c : ℂ)‖ < 1 ∧ c - b > -1 ∧ c + b > -1"),
    "putnam_1975_a2: Complex.abs": ("putnam_1975_a2", "fun p => Complex.abs p.2 < 1 ∧ -1 < p.2 - p.1 ∧ -1 < p.2 + p.1"),
    "putnam_2022_b2: official": ("putnam_2022_b2", "{1, 7}"),
}


PINNED = pinned_cases(COPIES, HONEST)
IN_CI = {
    "putnam_2019_a1: an image of triples / copy",
    "putnam_2019_a1: an image of triples / twin",
    "putnam_1975_a2: a norm / honest",
}


@pytest.mark.parametrize(("problem", "value", "refused"), sampled(PINNED, IN_CI))
def test_pinned_copies_are_refused_and_twins_and_honest_answers_pass(
    lean_putnambench: Benchmark, problem: str, value: str, refused: bool
) -> None:
    verdict = _g2(lean_putnambench, problem, value)
    assert COPIED in verdict if refused else verdict == ""
