"""The names ``@[to_additive]`` adds, guessed as Mathlib guesses them, and the Lean declarations the
ranked search reads beside the written ones (additive twins, aliases), never from inside comments."""

from __future__ import annotations

import pytest

from putnam_solver.kits.declarations import lean_declarations
from putnam_solver.kits.lean_additive import Twin, additive_name, additive_text, split_case, translated_name


def test_split_case_follows_mathlibs_own_example() -> None:
    # Mathlib/Tactic/Translate/GuessName.lean, the docstring of String.splitCase
    expected = ["Inv", "HMul", "LE", "Conjugate₂", "SMul", "_", "ne", "_", "top"]
    assert split_case("InvHMulLEConjugate₂SMul_ne_top") == expected
    assert split_case("x") == ["x"]


@pytest.mark.parametrize(
    ("written", "additive"),
    [
        ("mul_comm", "add_comm"),
        ("one_mul", "zero_add"),
        ("Finset.prod_range_succ", "Finset.sum_range_succ"),
        ("div_eq_mul_inv", "sub_eq_add_neg"),
        ("mabs_of_one_le", "abs_of_nonneg"),  # "one_le" becomes "zero_le", which the abbreviations fix
        ("Monoid.npow_succ", "AddMonoid.nsmul_succ"),
        ("isUnit_iff", "isAddUnit_iff"),
        ("eventuallyLE_one", "eventuallyLE_zero"),  # an upper-case run never reaches over "_" (GuessName.lean)
        ("mul_le_one'", "add_nonpos'"),
        ("le_refl", "le_refl"),
        ("mul_" * 200, "mul_" * 200),  # past MAX_NAME: left as it is
    ],
)
def test_additive_names_are_mathlibs_guesses(written: str, additive: str) -> None:
    assert additive_name(written) == additive


def test_additive_text_reads_products_as_sums() -> None:
    assert additive_text("s.prod f = ∏ i ∈ s, f i * g i⁻¹ / 1") == "s.sum f = ∑ i ∈ s, f i + g i- - 1"


def test_translated_names_stated_guessed_or_none() -> None:
    assert translated_name("@[to_additive]", "Finset.prod_comm") == Twin("Finset.sum_comm", "", True)
    stated = translated_name('@[to_additive (attr := simp) sum_foo "Sums foo."]', "Finset.prod_bar")
    assert stated == Twin("Finset.sum_foo", "Sums foo.", True), "a stated name lives in the namespace"
    assert translated_name("@[simp, to_additive /-- Doc. -/]", "mul_x") == Twin("add_x", "Doc.", True)
    assert translated_name("@[to_additive _root_.top]", "Foo.mul") == Twin("top", "", True)
    assert translated_name("@[to_dual ne_of_gt]", "ne_of_lt") == Twin("ne_of_gt", "", False)
    assert translated_name("@[to_additive existing]", "mul_comm") is None, "written out elsewhere"
    assert translated_name("@[to_dual]", "le_x") is None, "to_dual's own guesses are not followed"
    assert translated_name("@[simp]", "mul_comm") is None
    assert translated_name("@[to_additive_helper]", "mul_comm") is None


LIBRARY = """/-!
# Toy
lemma in the construction of something: prose, not a declaration
-/
namespace Finset

/-- The product over `range (n + 1)`. -/
@[to_additive (attr := simp) "The sum over `range (n + 1)`."]
theorem prod_range_succ (f : ℕ → M) (n : ℕ) : ∏ x ∈ range (n + 1), f x = (∏ x ∈ range n, f x) * f n := by
  simp

theorem Left.mul_pos (ha : 0 < a) (hb : 0 < b) : 0 < a * b := by
  simp

alias mul_pos := Left.mul_pos
alias ⟨_, of_le⟩ := le_iff

end Finset
"""


def test_lean_declarations_add_twins_and_aliases_and_skip_comments() -> None:
    found = {d.name: d for d in lean_declarations(LIBRARY, "Mathlib.Toy", "Mathlib/Toy.lean")}
    assert set(found) == {
        "Finset.prod_range_succ",
        "Finset.sum_range_succ",
        "Finset.Left.mul_pos",
        "Finset.mul_pos",
        "Finset.of_le",
    }, "nothing from the module comment, no name for `_`"
    twin = found["Finset.sum_range_succ"]
    assert twin.statement == "(f : ℕ → M) (n : ℕ) : ∑ x ∈ range (n + 1), f x = (∑ x ∈ range n, f x) + f n"
    assert twin.doc == "The sum over `range (n + 1)`."
    assert (twin.kind, twin.line) == ("theorem", found["Finset.prod_range_succ"].line)
    assert found["Finset.prod_range_succ"].doc == "The product over `range (n + 1)`."
    assert found["Finset.mul_pos"].statement == "(ha : 0 < a) (hb : 0 < b) : 0 < a * b := Left.mul_pos"
    assert found["Finset.of_le"].statement == ":= le_iff", "a target the file does not state"
