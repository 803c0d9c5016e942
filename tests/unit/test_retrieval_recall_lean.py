"""The Lean recall bench's reading of a proof (``bench/retrieval_recall_lean.py``), on a small text and
a small library: which names are library lemma uses, and which written statement each is queried with.
The bench itself needs a Mathlib source tree and runs by hand."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "bench"

PROOF = """import Mathlib

open Finset

lemma helper_bound (x : ℝ) : 0 ≤ x ^ 2 := sq_nonneg x

theorem toy (n : ℕ) (x : ℝ) (hx : 0 < x) : ∑ i ∈ range n, x ≤ n * x := by
  have h1 : 0 ≤ x ^ 2 + 1 := by
    nlinarith [sq_nonneg x, helper_bound x]
  by_cases hn : n = 0
  · simp [hn, hx.le, Nat.succ_le_iff]
  · show ∑ i ∈ range n, x ≤ (n : ℝ) * x
    rw [sum_const, card_range]
    calc _ = (n : ℝ) * x := by rw [nsmul_eq_mul]
      _ ≤ n * x := le_refl _
  exact Nat.cast_nonneg.trans (le_of_lt hx).symm
"""

LIBRARY = {
    "sq_nonneg": "theorem",
    "Finset.sum_const": "theorem",
    "Finset.card_range": "theorem",
    "Finset.range": "def",
    "nsmul_eq_mul": "theorem",
    "le_refl": "theorem",
    "le_of_lt": "alias",
    "Nat.cast_nonneg": "theorem",
    "by_cases": "theorem",
    "symm": "theorem",
    "hx": "theorem",
}
"""As Mathlib has them, with three traps: ``by_cases`` and ``symm`` are also Mathlib theorems (the
proof uses the tactic and a field of a term), and a library name ``hx`` that the proof's hypothesis
shadows."""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH))
        return importlib.import_module("retrieval_recall_lean")


def test_uses_are_library_lemmas_with_the_nearest_statement(bench: ModuleType) -> None:
    uses, unresolved = bench.uses_in("toy.lean", PROOF, bench.Library(LIBRARY))
    found = [(u.lemma, u.goal) for u in uses]
    conclusion = "∑ i ∈ range n, x ≤ n * x"
    shown = "∑ i ∈ range n, x ≤ (n : ℝ) * x"
    assert found == [
        ("sq_nonneg", "0 ≤ x ^ 2"),  # the helper's own proof: its conclusion
        ("sq_nonneg", "0 ≤ x ^ 2 + 1"),  # inside the `have`: its statement
        ("Finset.sum_const", shown),  # after `show`, to the end of its block, through `open Finset`
        ("Finset.card_range", shown),
        ("nsmul_eq_mul", "_ = (n : ℝ) * x"),  # a calc step
        ("le_refl", "_ ≤ n * x"),
        ("Nat.cast_nonneg", conclusion),  # past the `show`'s block: the theorem's conclusion
        ("le_of_lt", conclusion),
    ], (
        "not uses: the file's helper_bound, hypotheses (hx.le), the tactic by_cases, the def range, "
        "a name the library lacks"
    )
    assert {u.heads for u in uses if u.lemma == "Nat.cast_nonneg"} == {("Finset.range",)}
    assert {u.heads for u in uses if u.lemma == "nsmul_eq_mul"} == {("=", "*")}, "no library name: operators"
    assert unresolved == {"Nat.succ_le_iff": 1}, "a lemma-like name of no library lemma (Lean core's)"


def test_statements_end_where_their_proofs_begin(bench: ModuleType) -> None:
    from putnam_solver.core.provers.lean.syntax import lex_code

    text = "  obtain ⟨k, hk⟩ : ∃ k, n = 2 * k := by omega\n  have := foo\n  suffices h : a ≤ b by simp\n"
    found = [a.statement for a in bench.anchors(text, lex_code(text))]
    assert found == ["∃ k, n = 2 * k", "a ≤ b"], "`have := foo` states nothing"


def test_bound_names_are_binders_not_terms(bench: ModuleType) -> None:
    from putnam_solver.core.provers.lean.syntax import lex_code

    signature = lex_code("(x y : ℝ) {n : ℕ} (h : (foo x : ℝ) = y)")
    assert bench.bound_names(signature, brackets=True) == {"x", "y", "n", "h"}
    proof = lex_code("intro a ha\n  obtain ⟨b, rfl | hb⟩ := key_lemma a\n  exact (bar_lemma a : P)")
    assert bench.bound_names(proof, brackets=False) == {"a", "ha", "b", "rfl", "hb"}, "not key_lemma, bar_lemma"
