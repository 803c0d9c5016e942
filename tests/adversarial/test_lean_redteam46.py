"""Value red team 46 (Lean, no-answer, G2 of the text profile): what red team 45 left, by class.

* (1) Merged domains: the canonical form drops a binder's type, so ``putnam_1991_a3``'s ``(∀ i : Fin (n -
  1), A) ∧ (∀ i : Fin n, B) ∧ (∀ i : Fin (n - 1), C)`` reads as one ``∀`` (``_answer_quantifiers.merged``).
  Probed: merging reads more terms alike, never fewer, so it can only add refusals; every copy tried
  (verbatim, regrouped, merged onto ``Fin (n - 1)`` or ``Fin n``, at the point ``2``) is refused with the
  merge and with it switched off alike. The honest values refused there (``∀ i : Fin 2, p.eval (r i) = 0``
  beside ``r 0 < r 1``) are refused with the merge off too: the conjunct ``∀ i : Fin n, B`` is found with its
  domain dropped, a false rejection of the copy rule's type reading, not of the merge. No change.
* (2) A count of a set pinned through a binder or a function: ``(Finset.filter (· = n) s).card``,
  ``Finset.filter (fun m => m = n ∧ Q m) s``, ``s.filter (Eq n)``, ``{m ∈ s | Q m ∧ n = m}.card``, ``m ∈
  ({n} : Finset ℕ)``: at most one element, a count of ``0`` or ``1``, the hedge ``Q n``. The hedge rule reads
  no ``Finset`` count (``_answer_count_reading`` leaves ``Finset.card`` to the decision rules, and a
  decidable ``Q`` needs no ``Classical``), so each passed. Now (``_answer_count_padding.pinned_count``) a
  count anywhere in the value of a set whose condition pins its member (the normal form reads the filter,
  ``Eq n`` and ``m ∈ {n}`` as the set-builder ``{m | m = n ∧ ..}``; a section ``(· = n)`` is read as written)
  is refused.
* (3) A classical bounded count of a proposition with no mark: ``Finset.card {k : Fin 4000 | Irrational (f
  k)}`` beside ``open scoped Classical`` passed, where ``Set.ncard`` of the same set is refused (a word no
  computation decides beside a count) and ``Finset.univ.filter`` of it is refused (a decision): the decision
  reader looked only at terms marked as propositions (``=``, ``∧``, ``∀``...), and a condition that is a
  predicate by its name has none, so the question's own predicate could stand there. Now
  (``_answer_decisions._decided_place``) a set-builder's condition is read whatever it shows.

Measured (G2, as ``g2`` runs it), before the change and after it: ``ATTACKS`` (19) 7 refused before (the five
copies of (1), the ``Set`` count spelled with a subtype, the ``Classical`` count with a quantifier), 19 now.
``HONEST`` (9): 9 accepted before and now. Reader tests: 4 of 8 failed before (the new readings). Official
answers 346 of 346 (red team 37's sweep), the verdict snapshot unchanged.

Left: a closed ``Finset`` count compared with a numeral (``{n : ℤ | ((Finset.range 30).filter (fun m => |320
- ↑(m ^ 2)| ≤ 250)).card = 15 ∧ n = 320}``, red team 43's hedge with a decidable count) passes: the hedge
rule reads only the counts ``_answer_count_reading`` lists; the copy rule's reading of a conjunct with its
binder's domain dropped refuses an honest ``∀ i : Fin 2, p.eval (r i) = 0`` against ``putnam_1991_a3``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.lean._answer_count_padding import pinned_count
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, LEAST, SCOPED, g2
from tests.adversarial.test_lean_redteam43_hedges import A1, SQUARES
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

A3 = "putnam_1991_a3"  # `p ∈ solution ↔ ∃ r, (∀ i : Fin (n - 1), ..) ∧ (∀ i : Fin n, ..) ∧ (∀ i : Fin (n - 1), ..)`
N = "p.natDegree"
A = "r i < r (i + 1)"
B = "p.eval (r i) = 0"
C = "(Polynomial.derivative p).eval ((r i + r (i + 1)) / 2) = 0"
Q = "2 * m ^ 2 + 3 = 4 * m"  # a decidable condition to hedge on
IRRATIONAL = "Irrational (Real.sqrt ((k : ℝ) * 1993 + 1))"  # a predicate by its name, no instance decides it


def roots(body: str, degree: str = "") -> str:
    """A value of ``putnam_1991_a3``: the polynomials with ``r`` as ``body`` says."""
    return f"{{p : Polynomial ℝ | {degree}∃ r : ℕ → ℝ, {body}}}"


def pin(count: str) -> str:
    """A hedge of ``putnam_2024_a1`` on ``Q 3``: a pinned count equal to ``1``."""
    return f"{{n : ℕ | {count} = 1 ∧ n = 3}}"


# name: (problem, text before the solution, value); each refused now ("refused before" in the names)
ATTACKS: dict[str, tuple[str, str, str]] = {
    # (1) the question's domains merged or kept
    "the copy (refused before)": (
        A3,
        "",
        roots(f"(∀ i : Fin ({N} - 1), {A}) ∧ (∀ i : Fin {N}, {B}) ∧ (∀ i : Fin ({N} - 1), {C})"),
    ),
    "merged on n - 1 (refused before)": (A3, "", roots(f"∀ i : Fin ({N} - 1), {A} ∧ {B} ∧ {C}")),
    "merged on n (refused before)": (A3, "", roots(f"∀ i : Fin {N}, {A} ∧ {B} ∧ {C}")),
    "regrouped (refused before)": (A3, "", roots(f"(∀ i : Fin ({N} - 1), {A} ∧ {C}) ∧ (∀ i : Fin {N}, {B})")),
    "at the point 2 (refused before)": (
        A3,
        "",
        roots(f"(∀ i : Fin 1, {A}) ∧ (∀ i : Fin 2, {B}) ∧ (∀ i : Fin 1, {C})", f"{N} = 2 ∧ "),
    ),
    # (2) a count of a set pinned through a binder or a function
    "a filter by a section": (A1, "", pin("(Finset.filter (· = n) (Finset.range 9)).card")),
    "a filter by a section, sides swapped": (A1, "", pin("(Finset.filter (n = ·) (Finset.range 9)).card")),
    "a filter by a fun": (A1, "", pin(f"(Finset.filter (fun m => m = n ∧ {Q}) (Finset.range 9)).card")),
    "a filter as a field": (A1, "", pin(f"((Finset.range 9).filter (fun m => {Q} ∧ n = m)).card")),
    "a filter by Eq": (A1, "", pin("(Finset.filter (Eq n) (Finset.range 9)).card")),
    "a filter by a singleton": (
        A1,
        "",
        pin(f"(Finset.filter (fun m => m ∈ ({{n}} : Finset ℕ) ∧ {Q}) (Finset.range 9)).card"),
    ),
    "a Finset builder as a field": (A1, "", pin(f"{{m ∈ Finset.range 9 | m = n ∧ {Q}}}.card")),
    "a Finset builder counted": (A1, "", pin(f"Finset.card {{m ∈ Finset.range 9 | {Q} ∧ m = n}}")),
    "a pinned filter alone": (A1, "", f"{{n : ℕ | (Finset.filter (fun m => m = n ∧ {Q}) (Finset.range 9)).card ≠ 0}}"),
    "a subtype (refused before)": (A1, "", f"{{n : ℕ | Nat.card {{m : ℕ // m = n ∧ {Q}}} = 1}}"),
    "a pinned filter of integers": (
        SQUARES,
        "",
        "{n : ℤ | (Finset.filter (fun m : ℤ => m = n ∧ ((Finset.range 30).filter (fun k => |m - ↑(k ^ 2)| ≤ 250))"
        ".card = 15) (Finset.Icc 0 400)).card = 1}",
    ),
    # (3) a classical count of a proposition with no mark
    "a classical Finset count": (LEAST, SCOPED, f"Finset.card {{k : Fin 4000 | {IRRATIONAL}}}"),
    "a classical Finset builder in a range": (LEAST, SCOPED, f"Finset.card {{k ∈ Finset.range 4000 | {IRRATIONAL}}}"),
    "a classical count with a quantifier (refused before)": (
        LEAST,
        SCOPED,
        f"Finset.card {{k : Fin 4000 | ∀ j : Fin 4000, j ≤ k → ¬ {IRRATIONAL.replace('k', 'j')}}}",
    ),
}

# name: (problem, text before the solution, value); each passes
HONEST: dict[str, tuple[str, str, str]] = {
    "putnam_1991_a3 official": (
        A3,
        "",
        "{p : Polynomial ℝ | p.degree = 2 ∧ (∃ r1 r2 : ℝ, r1 ≠ r2 ∧ p.eval r1 = 0 ∧ p.eval r2 = 0)}",
    ),
    "two roots, one order by Fin": (
        A3,
        "",
        roots(f"(∀ i : Fin 1, {A}) ∧ p.eval (r 0) = 0 ∧ p.eval (r 1) = 0", f"{N} = 2 ∧ "),
    ),
    "putnam_2024_a1 official": (A1, "", "{1}"),
    "a filter below the member": (A1, "", "{n : ℕ | (Finset.filter (fun m => m ≤ n) (Finset.range 9)).card = 2}"),
    "a filter by a section below the member": (A1, "", "{n : ℕ | ((Finset.range 9).filter (· < n)).card = 1}"),
    "a count of divisors": (A1, "", "{n : ℕ | (Finset.filter (fun m => m ∣ n) (Finset.range (n + 1))).card = 1}"),
    "putnam_1993_b1 official, Classical open": (LEAST, SCOPED, "3987"),
    "a plain Finset count": (LEAST, "", "Finset.card {k : Fin 4000 | k.1 < 3987}"),
    "a Set count stated, Classical open": (LEAST, SCOPED, "Set.ncard {k : ℕ | k < 3987}"),
}


test_each_attack_is_refused = refusal_table_test(g2, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2, honest=HONEST)


@pytest.mark.parametrize(
    ("value", "pinned"),
    [
        pytest.param("(Finset.filter (· = n) s).card = 1", True, id="a section"),
        pytest.param("(s.filter fun m => Q m ∧ m = n).card = 1", True, id="a fun"),
        pytest.param("#{m ∈ s | n = m} = 1", True, id="a builder counted by #"),
        pytest.param("(Finset.filter (Eq (n + 1)) s).card", True, id="Eq of a term"),
        pytest.param("(Finset.filter (· < n) s).card = 1", False, id="a section below"),
        pytest.param("(Finset.filter (fun m => m = m + 0 * n) s).card", False, id="an equation of the member itself"),
        pytest.param("{m ∈ s | m = n}", False, id="no count"),
        pytest.param("n = Set.ncard {k : ℕ | k < 1}", False, id="a closed set read as pinned to a numeral"),
    ],
)
def test_what_the_pin_reader_reads(value: str, pinned: bool) -> None:
    assert (pinned_count([t.text for t in lex_code(value)]) is not None) is pinned
