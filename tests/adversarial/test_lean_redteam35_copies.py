"""Copy red team 35 (Lean, no-answer): the limits round 34 left, and copies of pinned questions in spellings no
round had tried. Each class was accepted by G2 on the text profile before (the answer check says no more than
``unknown``):

* receiver (``_answer_images``): ``s.image f`` on a variable whose type is unwritten, and ``(Set.univ).image
  f``, read apart from the statement's ``Set.image f s`` (``f '' s``);
* image (``_answer_images``): ``Set.range``, ``Set.image``/``''`` and ``Set.preimage``/``⁻¹'`` read as the
  set-builders Mathlib defines them as, so ``Set.range g`` is ``{n | ∃ k, g k = n}`` and ``m ∈ Set.range g``
  is ``∃ k, g k = m``;
* eta (``_answer_reduce.set_builders``): ``{x | x ∈ S}`` is ``S`` for any term ``S`` binding tighter than
  ``∈``, not only a name, so the value ``T 3 ∪ T 4`` meets ``n ∈ T 3 ∪ T 4 ↔ n ∈ solution`` (compared with
  the side abstracted, ``{n | n ∈ T 3 ∪ T 4}``);
* multiple (``_answer_commute._multiples``): ``k + k`` is ``2 * k`` and ``x * x`` is ``x ^ 2``;
* inverse (``_answer_commute.ordered``): ``1 / a`` is ``a⁻¹`` (``one_div``) but where it is shown to divide
  in ``ℕ`` or ``ℤ``, and ``⁻¹``, which the lexer splits in two, is read as the postfix it is;
* cast (``_answer_types.inferred``): a bound variable no binder types, ascribed ``ℕ`` (``(k : ℕ) ≠ 0``), is
  of ``ℕ``, so ``k ≠ 0`` reads as the statement's ``0 < k``;
* root (``_answer_commute.applied``): ``p.IsRoot a`` is ``p.eval a = 0`` by definition.

Red team on the pinned questions (``COPIES`` below and the scratch table it was drawn from): 76 copies of 12
no-answer problems with set, function, pair and predicate answers (``putnam_2024_a1``, ``2019_a1``,
``2025_a3``, ``1980_b1``, ``2018_a1``, ``2011_a4``, ``2010_a2``, ``1971_a2``, ``1975_a2``, ``2022_b2``) in
set-builder, ``Set.image``/``Set.range``, eta, ``∘``, ``Function.comp``, ``Function.const``, ``decide``,
``if``, ``match``, ``let``, ``show .. from``, ascriptions, ``id``, ``Set.indicator``, ``∀ _ : Unit``,
``∃ _ : P, True``, ``Nonempty (PLift P)``, ``¬¬``, ``↔ True`` and algebraic spellings: the previous code
accepted 17, this one 13. Left (a check by meaning's): a set over a product re-indexed as one over its
components (``(fun t => t.1^3 + ..) '' {t | ..}`` for ``∃ A B C, ..``), ``Set.range Subtype.val``, a case
split (``match n with | 0 => A 0 | k + 1 => A (k + 1)``), ``Set.indicator S 1 n = 1`` for ``n ∈ S``, ``⋂ x,
{c | P x c}`` for ``{c | ∀ x, P x c}``, ``/ 2`` as ``* (1/2)``, ``Real.cosh x`` for ``(exp x + exp (-x)) /
2``, ``Complex.abs z`` for ``‖z‖``, Mathlib notations (``rexp``, ``×₃``); round 35b reads all of them but a
change of type (``test_lean_redteam35b_copies.py``).

Restricted domains (the strict xfail of round 34 stays): a premise on the quantifier's own variable that
some value of its type violates (``0 < x`` on ``ℕ``) is no safe mark of an honest answer either. The
premise ``a ≠ b`` is violated (at ``a = b``) yet ``∀ a b, a ≠ b → f a = f b → a = b`` IS injectivity, and
``Set.InjOn f {x | 0 < x}`` beside ``∀ x > 0, f x ≠ 0`` and ``f 0 = 0`` is ``Function.Injective f ∧ f 0 =
0``: what the restriction leaves out is put back beside it. Telling a restriction that changes the answer
from one that does not is deciding an equivalence, which a text rule cannot; both stay refused
(``RESTRICTED``).

Honest answers: 49 in the shapes of the official answers (``{1}``, ``{n | n = 1 ∨ n = 7}``, ``Set.Ici``,
``(fun k => 2 * k + 1) '' Set.univ``, ``Set.range``, ``{3 * m ^ 2 | m > 0}``, ``fun (b, c) => ..``,
``Function.uncurry``, ``let ⟨n, m⟩ := nm; ..``, ``match``, ``[MOD 6]``, ``⁻¹'``...), none refused before
or after (``HONEST``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam29_copies import INJ, _copied, _int, _nat
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins
from tests.adversarial.test_lean_redteam34_copies import EVEN
from tests.helpers import sampled

RANGE = (
    "abbrev t_solution : Set ℕ := sorry\n"
    "theorem t (g : ℕ → ℕ) (s : Set ℕ) : ∀ n : ℕ, (n ∈ Set.range g ∧ n ∈ Set.image (· + 1) s ↔ n ∈ t_solution)"
    " := sorry\n"
)
FAMILY = (
    "abbrev t_solution : Set ℕ := sorry\n"
    "theorem t (T : ℕ → Set ℕ) : ∀ n : ℕ, (n ∈ T 3 ∪ T 4 ↔ n ∈ t_solution) := sorry\n"
)
INVERSE = (
    "abbrev t_solution : Set (ℤ × ℤ) := sorry\n"
    "theorem t (a b : ℤ) : ((1 : ℚ) / a + (1 : ℚ) / b = 1 / 2 ↔ (a, b) ∈ t_solution) := sorry\n"
)
ROOT = (
    "abbrev t_solution : Set (Polynomial ℝ) := sorry\n"
    "theorem t (P : Polynomial ℝ) : (P.eval 0 = 0 ∧ P.eval 1 = 1 ↔ P ∈ t_solution) := sorry\n"
)

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "receiver: a variable's field": (
        RANGE,
        "{n | n ∈ Set.range g ∧ n ∈ s.image (· + 1)}",
        "{n | n ∈ Set.range g ∧ n ∈ s.image (· + 2)}",
    ),
    "receiver: a bracketed constant's field": (
        _nat("n ∈ Set.image (· + 1) Set.univ ∧ Even n"),
        "{n | n ∈ (Set.univ).image (· + 1) ∧ Even n}",
        "{n | n ∈ (Set.univ).image (· + 2) ∧ Even n}",
    ),
    "image: Set.range as its set-builder": (
        RANGE,
        "{n | (∃ k, g k = n) ∧ ∃ m, m ∈ s ∧ m + 1 = n}",
        "{n | (∃ k, g k = n) ∧ ∃ m, m ∈ s ∧ m + 2 = n}",
    ),
    "image: ''  as its set-builder": (
        _nat("∃ k, 2 * k + 1 = n ∧ k ∈ S"),
        "(fun k => 2 * k + 1) '' S",
        "(fun k => 2 * k + 3) '' S",
    ),
    "image: ⁻¹' as its set-builder": (
        _nat("n % 6 ∈ S"),
        "(· % 6) ⁻¹' S",
        "(· % 7) ⁻¹' S",
    ),
    "eta: the value whole against n ∈ X": (
        FAMILY,
        "T 4 ∪ T 3 ∪ ∅",
        "T 4 ∪ T 5",
    ),
    "multiple: k + k": (
        EVEN,
        "{n | ∃ k : ℕ, 0 < k ∧ n = k + k}",
        "{n | ∃ k : ℕ, 0 < k ∧ n = k + k + k}",
    ),
    "multiple: x * x": (
        _nat("∃ k : ℕ, n = k ^ 2 + 1"),
        "{n | ∃ k : ℕ, n = k * k + 1}",
        "{n | ∃ k : ℕ, n = k * (k + 1) + 1}",
    ),
    "inverse: a⁻¹ for 1 / a": (
        INVERSE,
        "{p : ℤ × ℤ | ((p.1 : ℚ))⁻¹ + ((p.2 : ℚ))⁻¹ = 1 / 2}",
        "{p : ℤ × ℤ | ((p.1 : ℚ))⁻¹ + ((p.2 : ℚ))⁻¹ = 1 / 3}",
    ),
    "cast: a bound variable ascribed ℕ": (
        _int("∃ k : ℕ, 0 < k ∧ n = 2 * (k : ℤ)"),
        "{n | ∃ k, (k : ℕ) ≠ 0 ∧ n = 2 * (k : ℤ)}",
        "{n | ∃ k, (k : ℕ) ≠ 0 ∧ n = 3 * (k : ℤ)}",
    ),
    "root: IsRoot for eval = 0": (
        ROOT,
        "{P | P.IsRoot 0 ∧ P.eval 1 = 1}",
        "{P | P.IsRoot 1 ∧ P.eval 1 = 1}",
    ),
}
GROUPS = ("receiver", "image", "eta", "multiple", "inverse", "cast", "root")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


def test_a_bound_variable_ascribed_a_wider_type_is_of_that_type() -> None:
    """``(k : ℤ)`` on an untyped ``k`` makes ``k`` an integer (Lean unifies its type with ``ℤ``): ``k ≠ 0``
    there is no ``0 < k``, and the set of ``2 * k`` over nonzero integers is a real answer."""
    assert not _copied(_int("∃ k : ℕ, 0 < k ∧ n = 2 * (k : ℤ)"), "{n | ∃ k, k ≠ 0 ∧ n = 2 * (k : ℤ)}")


def test_a_natural_division_is_no_inverse() -> None:
    """``1 / n`` on ``ℕ`` truncates (``0`` from ``n = 2``) and ``ℕ`` has no ``⁻¹``: ``(1 / n : ℕ)`` cast is not
    ``(n : ℚ)⁻¹``, and an answer in the latter is a different set."""
    assert not _copied(_nat("((1 / n : ℕ) : ℚ) = 0 ∧ Even n"), "{n | (n : ℚ)⁻¹ = 0 ∧ Even n}")


RESTRICTED = {
    "a premise some value violates, yet the question": "{f | (∀ a b, a ≠ b → f a = f b → a = b) ∧ f 0 = 0}",
    "the restriction put back beside it": "{f | Set.InjOn f {x | 0 < x} ∧ (∀ x, 0 < x → f x ≠ 0) ∧ f 0 = 0}",
}


@pytest.mark.parametrize("value", sampled(RESTRICTED, {next(iter(RESTRICTED))}))
def test_a_proper_restriction_is_no_mark_of_an_honest_answer(value: str) -> None:
    """Why round 34's xfail stays (module doc): each premise restricts the domain, and each value is the question."""
    assert _copied(INJ, value)


A2024 = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ "
COPIES = {
    "putnam_2024_a1: a + a": (
        "putnam_2024_a1",
        "{n : ℕ | " + A2024 + "a^n + a^n + 3*b^n = 4*c^n}",
        "{n : ℕ | " + A2024 + "a^n + b^n + 3*b^n = 4*c^n}",
    ),
    "putnam_1980_b1: x * x": (
        "putnam_1980_b1",
        "{c : ℝ | ∀ x : ℝ, (exp x + exp (-x)) / 2 ≤ exp (c * (x * x))}",
        "{c : ℝ | ∀ x : ℝ, (exp x + exp (-x)) / 2 ≤ exp (c * (x * 2))}",
    ),
    "putnam_1971_a2: P.eval x * P.eval x": (
        "putnam_1971_a2",
        "{P : Polynomial ℝ | P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (x * x + 1) = P.eval x * P.eval x + 1}",
        "{P : Polynomial ℝ | P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (x * x + 1) = P.eval x + 1}",
    ),
    "putnam_2018_a1: a⁻¹": (
        "putnam_2018_a1",
        "{p : ℤ × ℤ | ((p.1 : ℚ))⁻¹ + ((p.2 : ℚ))⁻¹ = (3 : ℚ) / 2018}",
        "{p : ℤ × ℤ | ((p.1 : ℚ))⁻¹ + ((p.2 : ℚ))⁻¹ = (3 : ℚ) / 2017}",
    ),
}


@pytest.mark.parametrize(("problem", "copy", "twin"), sampled(COPIES, {next(iter(COPIES))}))
def test_pinned_questions_copied_are_refused_and_their_twins_pass(
    lean_putnambench: Benchmark, problem: str, copy: str, twin: str
) -> None:
    assert COPIED in _g2(lean_putnambench, problem, copy)
    assert _g2(lean_putnambench, problem, twin) == ""


HONEST = {
    "putnam_2024_a1: {1}": ("putnam_2024_a1", "{1}"),
    "putnam_2024_a1: n = 1": ("putnam_2024_a1", "{n | n = 1}"),
    "putnam_2024_a1: a constant's range": ("putnam_2024_a1", "Set.range (fun _ : Unit => 1)"),
    "putnam_2024_a1: an image": ("putnam_2024_a1", "(fun k => k + 1) '' {0}"),
    "putnam_2019_a1: residues": ("putnam_2019_a1", "{n : ℤ | 0 ≤ n ∧ n % 9 ≠ 3 ∧ n % 9 ≠ 6}"),
    "putnam_2019_a1: an interval less a set": ("putnam_2019_a1", "Set.Ici 0 \\ {n : ℤ | n % 9 = 3 ∨ n % 9 = 6}"),
    "putnam_2021_a3: official": ("putnam_2021_a3", "{3 * m ^ 2 | m > 0}"),
    "putnam_2021_a3: image": ("putnam_2021_a3", "(fun m => 3 * m ^ 2) '' Set.Ioi 0"),
    "putnam_2021_a3: m * m": ("putnam_2021_a3", "{n | ∃ m > 0, n = 3 * m * m}"),
    "putnam_2021_a3: range": ("putnam_2021_a3", "Set.range (fun m : ℕ => 3 * (m + 1) ^ 2)"),
    "putnam_2010_b3: Ici": ("putnam_2010_b3", "Set.Ici 1005"),
    "putnam_2010_b3: set-builder": ("putnam_2010_b3", "{n | 1005 ≤ n}"),
    "putnam_2011_a4: Odd": ("putnam_2011_a4", "{n : ℕ | Odd n}"),
    "putnam_2011_a4: setOf": ("putnam_2011_a4", "setOf Odd"),
    "putnam_2011_a4: image": ("putnam_2011_a4", "(fun k => 2 * k + 1) '' Set.univ"),
    "putnam_2011_a4: range, k + k": ("putnam_2011_a4", "Set.range (fun k => k + k + 1)"),
    "putnam_2011_a4: a field image": ("putnam_2011_a4", "Set.univ.image (fun k => 2 * k + 1)"),
    "putnam_2009_b3: official": ("putnam_2009_b3", "{n : ℤ | ∃ k ≥ 1, n = 2 ^ k - 1}"),
    "putnam_2009_b3: image": ("putnam_2009_b3", "(fun k : ℕ => (2 : ℤ) ^ k - 1) '' Set.Ici 1"),
    "putnam_2018_a1: equations": (
        "putnam_2018_a1",
        "{p : ℤ × ℤ | p = (673, 1358114) ∨ p = (674, 340033) ∨ p = (1009, 2018) ∨ p = (2018, 1009) ∨ "
        "p = (340033, 674) ∨ p = (1358114, 673)}",
    ),
    "putnam_2022_b2: {1, 7}": ("putnam_2022_b2", "{1, 7}"),
    "putnam_2022_b2: or": ("putnam_2022_b2", "{n | n = 1 ∨ n = 7}"),
    "putnam_1980_b1: official": ("putnam_1980_b1", "{c : ℝ | c ≥ 1 / 2}"),
    "putnam_1980_b1: Ici": ("putnam_1980_b1", "Set.Ici (1 / 2)"),
    "putnam_1980_b1: an inverse": ("putnam_1980_b1", "{c : ℝ | 2⁻¹ ≤ c}"),
    "putnam_1980_b1: c + c": ("putnam_1980_b1", "{c : ℝ | 1 ≤ c + c}"),
    "putnam_1971_a2: {X}": ("putnam_1971_a2", "{Polynomial.X}"),
    "putnam_1971_a2: P = X": ("putnam_1971_a2", "{P | P = Polynomial.X}"),
    "putnam_2025_a3: False": ("putnam_2025_a3", "fun _ => False"),
    "putnam_2025_a3: Function.const": ("putnam_2025_a3", "Function.const ℕ False"),
    "putnam_1975_a2: official": ("putnam_1975_a2", "fun (b, c) => c < 1 ∧ c - b > -1 ∧ c + b > -1"),
    "putnam_1975_a2: projections": ("putnam_1975_a2", "fun p => p.2 < 1 ∧ -1 < p.2 - p.1 ∧ -1 < p.2 + p.1"),
    "putnam_1975_a2: uncurry": ("putnam_1975_a2", "Function.uncurry fun b c => c < 1 ∧ c - b > -1 ∧ c + b > -1"),
    "putnam_2008_b5: official": ("putnam_2008_b5", "{fun (x : ℝ) => x + n | n : ℤ} ∪ {fun (x : ℝ) => -x + n | n : ℤ}"),
    "putnam_2008_b5: ranges": (
        "putnam_2008_b5",
        "Set.range (fun n : ℤ => fun x : ℝ => x + n) ∪ Set.range (fun n : ℤ => fun x : ℝ => -x + n)",
    ),
    "putnam_2010_a2: official": ("putnam_2010_a2", "{f : ℝ → ℝ | ∃ c d : ℝ, ∀ x : ℝ, f x = c*x + d}"),
    "putnam_2010_a2: range": ("putnam_2010_a2", "Set.range (fun p : ℝ × ℝ => fun x => p.1 * x + p.2)"),
    "putnam_1998_b4: official": ("putnam_1998_b4", "{nm | let ⟨n,m⟩ := nm; multiplicity 2 n ≠ multiplicity 2 m}"),
    "putnam_1998_b4: match": (
        "putnam_1998_b4",
        "{nm : ℕ × ℕ | match nm with | (n, m) => multiplicity 2 n ≠ multiplicity 2 m}",
    ),
    "putnam_2012_a5: official": ("putnam_2012_a5", "{q | let ⟨n, _⟩ := q; n = 1} ∪ {(2,2)}"),
    "putnam_2017_a1: official": ("putnam_2017_a1", "{x : ℤ | x > 0 ∧ (x = 1 ∨ 5 ∣ x)}"),
    "putnam_2017_a1: a union with an image": ("putnam_2017_a1", "{1} ∪ (fun k => 5 * k) '' Set.Ioi 0"),
    "putnam_2014_b1: official": ("putnam_2014_b1", "{n : ℕ | n > 0 ∧ ¬∃ a ∈ digits 10 n, a = 0}"),
    "putnam_2014_b1: ∉": ("putnam_2014_b1", "{n | 0 < n ∧ 0 ∉ Nat.digits 10 n}"),
    "putnam_1991_b1: official": ("putnam_1991_b1", "{A : ℤ | ∃ x > 0, A = x ^ 2}"),
    "putnam_1991_b1: image": ("putnam_1991_b1", "(fun x : ℤ => x * x) '' Set.Ioi 0"),
    "putnam_1991_b1: x * x": ("putnam_1991_b1", "{A | ∃ x > 0, A = x * x}"),
    "putnam_1998_a4: official": ("putnam_1998_a4", "{n | n ≡ 1 [MOD 6]}"),
    "putnam_1998_a4: a preimage": ("putnam_1998_a4", "(· % 6) ⁻¹' {1}"),
}


@pytest.mark.parametrize(("problem", "value"), sampled(HONEST, {"putnam_2011_a4: image"}))
def test_honest_answers_in_the_official_shapes_pass(lean_putnambench: Benchmark, problem: str, value: str) -> None:
    assert _g2(lean_putnambench, problem, value) == ""
