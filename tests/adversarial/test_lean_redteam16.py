"""Red team 16 (Lean): a helper type's ``deriving`` clause at column 0, and no-answer values that pick or
copy through library definitions and projections.

* False rejection: ``deriving DecidableEq`` written at column 0 after an ``inductive`` or ``structure``
  (a common layout) was split off as a command of its own and refused as "not a permitted addition",
  though Lean reads it as the type's own clause (measured on Lean 4.35, the toy toolchain: the handler
  runs on the type, also after a blank line; ``deriving X`` alone is no command). Fix
  (``_commands.split_commands``): such a ``deriving`` continues the declaration, whose handlers G2 then
  judges as it does an indented clause; ``deriving instance`` stays a command (refused).
* Bypass: ``Nat.Subtype.orderIsoOfNat s 0`` and ``Nat.orderEmbeddingOfSet s 0`` are the least element
  of an infinite set of naturals (``Nat.Subtype.ofNat``, a ``Nat.find``), and
  ``monotonicSequenceLimitIndex`` an ``sInf``: ``putnam_1990_a4``'s own set so passed the text profile
  as its answer. Fix: listed with the choice operators (a first line by spelling; the check by meaning
  on the compiled answer is the known gap).
* Bypass: on no-answer, the question copied inside a tuple or constructor and taken back out by Lean's
  reduction, ``fun n => (A n, 0).1``, ``Prod.fst (A n, 0)``, ``(⟨A n, 0⟩ : Prop × ℕ).fst``,
  ``PLift.down ⟨A n⟩``, ``Subtype.val ⟨A n, trivial⟩``, ``Function.const ℕ (A n) 0``, or put in a set
  and asked for again, ``n ∈ setOf A``, passed the text profile (the theorem is then ``Iff.rfl``). Fix
  (``_answer_reduce.projections``, ``membership``): the value and the statement's side are both
  rewritten through the projection of a constructor and ``Set.mem_setOf_eq``, as through the other
  reductions of red team 15. A copy in logic (``A n ∧ True``, ``¬¬A n``, ``if A n then True else
  False``) still passes the text profile: the known gap.
* Bypass (a known gap until now): ``putnam_2020_a2``'s sum copied in the function form it elaborates to,
  ``Finset.sum (Finset.Icc 0 k) (fun j => ...)``, ``(Finset.Icc 0 k).sum fun j => ...``, passed the text
  profile beside the refused ``∑ j ∈ Finset.Icc 0 k, ...``. Fix (``_answer_reduce.big_operators``): both
  are read as the notation.
* Bypass: ``putnam_2024_a1``'s own set ``{n : ℕ | C}`` was refused as its answer, but the same term
  written ``{n | C}`` (the set's type fixes its element's), ``setOf fun n => C``, ``setOf (fun n : ℕ =>
  C)`` or ``{x | x ∈ {n : ℕ | C}}`` passed the text profile (the theorem is then ``rfl``). Fix
  (``_answer_copy._canonical``, ``_answer_reduce.set_builders``): a set-builder's binder is read without
  its type, ``setOf fun`` as the set-builder and ``{y | y ∈ S}`` as ``S``.
* Bypass: ``putnam_2020_a1``'s count copied as ``{x : ℕ | ...}.ncard`` (or ``({x : ℕ | ...}).ncard``,
  ``{x : ℕ | ...} |>.ncard``) passed beside the refused ``Set.ncard {x : ℕ | ...}``: field notation on a
  set-builder is that ``Set`` function applied to it (``_answer_reduce.set_fields``), on both sides (the
  statement ``{n : ℤ | ...}.encard = putnam_1983_a1_solution`` and the value ``Set.encard {...}``).
* Bypass: ``putnam_1973_a4`` states ``putnam_1973_a4_solution = {x : ℝ | f x = 0}.ncard`` with the
  hypothesis ``hf : f = fun x => 2^x - 1 - x^2``: the count with ``f`` unfolded, ``{x : ℝ | 2^x - 1 - x^2
  = 0}.ncard``, passed the text profile (the theorem is then ``subst hf; rfl``). Fix
  (``_answer_reduce.hypothesis_definitions``): a theorem variable that its own hypothesis defines
  (``v = e``, ``∀ xs, v xs = e``, ``∀ xs, v xs ↔ e``) is unfolded in the statement's side, as the
  statement's definitions are (``putnam_2009_b3``'s ``A`` and ``mediocre`` copied so were refused too).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_reduce import hypothesis_definitions
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import Track
from tests.adversarial.test_lean_redteam15 import _game
from tests.helpers import failures, lean_filled, lean_text_verdict

# --- a type's deriving clause at column 0 -------------------------------------------------------------

PLAIN = "putnam_1962_a1"
"""A statement without an answer."""
DERIVING_SOUND = {
    "a structure": "structure Zz where\n  x : ℕ\nderiving DecidableEq\n\n",
    "an inductive, two handlers": "inductive Zz\n  | a\n  | b\nderiving DecidableEq, Repr\n\n",
    "after a blank line": "inductive Zz\n  | a\n\nderiving Inhabited\n\n",
    "indented, as before": "inductive Zz\n  | a\n  deriving Inhabited\n\n",
}
DERIVING_REFUSED = {
    "a handler that is not listed": ("inductive Zz\n  | a\nderiving ToJson\n\n", "G2", "derive only"),
    "a meta handler": ("inductive Zz\n  | a\nderiving Lean.ToExpr\n\n", "G3", "Lean.ToExpr"),
    "deriving instance at column 0": (
        "inductive Zz\n  | a\n\nderiving instance Inhabited for Zz\n\n",
        "G3",
        "instance",
    ),
    "after a theorem": ("theorem zz : True := trivial\nderiving Inhabited\n\n", "G2", "not a permitted addition"),
    "after a def": ("def Zz := ℕ\nderiving Inhabited\n\n", "G2", "starts a new command"),
}


@pytest.mark.parametrize("case", sorted(DERIVING_SOUND))
def test_a_column_0_deriving_clause_of_a_helper_type_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, proof="by\n  simp", before=DERIVING_SOUND[case])
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("case", sorted(DERIVING_REFUSED))
def test_a_column_0_deriving_that_is_no_permitted_clause_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    before, gate, rule = DERIVING_REFUSED[case]
    candidate = lean_filled(lean_putnambench, PLAIN, proof="by\n  simp", before=before)
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get(gate, ""), failures(verdict)


# --- the least element through an enumeration -----------------------------------------------------------

LEAST = "putnam_1990_a4"
"""States ``sInf {n : ℕ | ...} = putnam_1990_a4_solution``."""
SET = (
    "{n : ℕ | ∃ S : Set (EuclideanSpace ℝ (Fin 2)), S.encard = n ∧ ∀ Q : EuclideanSpace ℝ (Fin 2), "
    "∃ P ∈ S, Irrational (dist P Q)}"
)
ENUMERATED = {
    "orderIsoOfNat": f"(Nat.Subtype.orderIsoOfNat {SET} 0 : ℕ)",
    "orderIsoOfNat under open": f"open Nat.Subtype in (orderIsoOfNat {SET} 0).val",
    "orderEmbeddingOfSet": f"Nat.orderEmbeddingOfSet {SET} 0",
    "orderEmbeddingOfSet under open": f"open Nat in orderEmbeddingOfSet {SET} 0",
    "orderIsoOfNat's function": f"(Nat.Subtype.orderIsoOfNat {SET}).toFun 0",
    "monotonicSequenceLimitIndex": f"monotonicSequenceLimitIndex (fun k : ℕ => if k ∈ {SET} then k else 0)",
}


def _least(lean_putnambench: Benchmark, value: str) -> dict[str, str]:
    candidate = lean_filled(lean_putnambench, LEAST, Track.NO_ANSWER, value=value, proof="by\n  simp")
    verdict = lean_text_verdict(lean_putnambench, LEAST, candidate, Track.NO_ANSWER)
    return failures(verdict)


@pytest.mark.parametrize("case", sorted(ENUMERATED))
def test_the_least_element_through_an_enumeration_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _least(lean_putnambench, ENUMERATED[case])
    assert "a choice operator picks a value" in found.get("G2", ""), found


@pytest.mark.parametrize("value", ["3", "Nat.succ 2", "(Finset.range 4).card - 1", "Finset.fold max 0 id {1, 3}"])
def test_honest_naturals_stay_accepted(lean_putnambench: Benchmark, value: str) -> None:
    assert _least(lean_putnambench, value) == {}


# --- the question taken back out of a tuple or constructor ---------------------------------------------

PROJECTED_COPIES = {
    "a pair's first": "fun n => (AliceHasWinningStrategy n, 0).1",
    "a pair's fst": "fun n => (AliceHasWinningStrategy n, (0 : ℕ)).fst",
    "Prod.fst": "fun n => Prod.fst (AliceHasWinningStrategy n, 0)",
    "Prod.snd": "fun n => Prod.snd (0, AliceHasWinningStrategy n)",
    "a triple's second then first": "fun n => (0, AliceHasWinningStrategy n, 1).2.1",
    "an ascribed constructor": "fun n => (⟨AliceHasWinningStrategy n, 0⟩ : Prop × ℕ).fst",
    "a constructor's second": "fun n => (⟨0, AliceHasWinningStrategy n⟩ : ℕ × Prop).2",
    "Function.const": "fun n => Function.const ℕ (AliceHasWinningStrategy n) 0",
    "Function.const of the predicate": "Function.const ℕ AliceHasWinningStrategy 7",
    "PLift's field": "fun n => (⟨AliceHasWinningStrategy n⟩ : PLift Prop).down",
    "PLift.down": "fun n => PLift.down ⟨AliceHasWinningStrategy n⟩",
    "ULift.down": "fun n => ULift.down (⟨AliceHasWinningStrategy n⟩ : ULift Prop)",
    "Subtype.val": "fun n => Subtype.val (⟨AliceHasWinningStrategy n, trivial⟩ : {p : Prop // True})",
    "a subtype's val": "fun n => (⟨AliceHasWinningStrategy n, trivial⟩ : {p : Prop // True}).val",
    "membership in setOf": "fun n => n ∈ setOf AliceHasWinningStrategy",
    "membership in setOf a lambda": "fun n => (n ∈ setOf fun m => AliceHasWinningStrategy m)",
}
"""Each reduces to ``AliceHasWinningStrategy n``, the other side of ``putnam_2025_a3``'s ``↔``."""
PROJECTED_HONEST = {  # a value that holds `AliceHasWinningStrategy n` at all is refused since red team 18
    "the other component": "fun n => Prod.snd (AliceHasWinningStrategy n, n = 3)",
    "a pair of constants": "fun _ => (False, True).1",
    "Function.const of an answer": "fun n => Function.const ℕ (n = 2) 5",
    "a projection of a name": "fun n => (n, n).1 = 4",
    "PLift of an answer": "fun n => PLift.down ⟨n = 1⟩",
    "membership in another set": "fun n => n ∈ setOf (fun m => m = 2)",
    # red team 43: `n + 1 ∈ setOf AliceHasWinningStrategy` holds the question's set and asks it at `n + 1`,
    # refused now by design (`test_lean_redteam43_hedges.BY_DESIGN`)
}


@pytest.mark.parametrize("case", sorted(PROJECTED_COPIES))
def test_the_question_projected_out_of_a_constructor_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    verdict = _game(lean_putnambench, PROJECTED_COPIES[case])
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize("case", sorted(PROJECTED_HONEST))
def test_projections_that_are_no_copy_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    verdict = _game(lean_putnambench, PROJECTED_HONEST[case])
    assert verdict.status == "accepted", failures(verdict)


# --- a big operator in the function form it elaborates to ----------------------------------------------

SUM = "putnam_2020_a2"
"""States ``∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j = putnam_2020_a2_solution k``."""
BODY = "2 ^ (k - j) * Nat.choose (k + j) j"
SUM_COPIES = {
    "Finset.sum": f"fun k => Finset.sum (Finset.Icc 0 k) (fun j => {BODY})",
    "a typed binder": f"fun k => Finset.sum (Finset.Icc 0 k) fun (j : ℕ) => {BODY}",
    "dot notation": f"fun k => (Finset.Icc 0 k).sum (fun j => {BODY})",
    "dot notation, fun unbracketed": f"fun k => (Finset.Icc 0 k).sum fun j => {BODY}",
    "a local set": f"fun k => let s := Finset.Icc 0 k; s.sum fun j => {BODY}",
    "a named summand": f"fun k => let g := fun j => {BODY}; Finset.sum (Finset.Icc 0 k) g",
}
SUM_HONEST = {  # the question's summand under another range or product is refused since red team 18
    "the official answer": "fun k => 4 ^ k",
    "another range": "fun k => Finset.sum (Finset.range k) (fun j => 2 ^ (k - j))",
    "another summand": "fun k => Finset.sum (Finset.Icc 0 k) (fun j => 2 ^ (k - j) * Nat.choose (k + j) (j + 1))",
    "a product": "fun k => Finset.prod (Finset.Icc 0 k) (fun j => 2 ^ (k - j))",
}


def _sum(lean_putnambench: Benchmark, value: str) -> dict[str, str]:
    candidate = lean_filled(lean_putnambench, SUM, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(lean_putnambench, SUM, candidate, Track.NO_ANSWER))


@pytest.mark.parametrize("case", sorted(SUM_COPIES))
def test_the_sum_copied_in_function_form_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _sum(lean_putnambench, SUM_COPIES[case])
    assert "the other side of the statement's own `=`" in found.get("G2", ""), found


@pytest.mark.parametrize("case", sorted(SUM_HONEST))
def test_other_sums_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _sum(lean_putnambench, SUM_HONEST[case]) == {}


# --- a set-builder copied in another spelling of the same term -------------------------------------------

SET_PROBLEM = "putnam_2024_a1"
"""States ``{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), ...} = putnam_2024_a1_solution``."""
COND = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"
SET_COPIES = {
    "without the binder's type": f"{{n | {COND}}}",
    "setOf fun": f"setOf fun n => {COND}",
    "setOf of a typed fun": f"setOf (fun n : ℕ => {COND})",
    "membership in the set": f"{{x | x ∈ {{n : ℕ | {COND}}}}}",
    "typed membership in the set": f"{{x : ℕ | x ∈ {{n | {COND}}}}}",
}
SET_HONEST = {  # a value that holds the question's set at all is refused since red team 18
    "the official answer": "{1}",
    "another condition": "{n | 0 < n ∧ n < 2}",
    "setOf of another predicate": "setOf fun n => n = 1",
}


def _set(lean_putnambench: Benchmark, value: str) -> dict[str, str]:
    candidate = lean_filled(lean_putnambench, SET_PROBLEM, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(lean_putnambench, SET_PROBLEM, candidate, Track.NO_ANSWER))


@pytest.mark.parametrize("case", sorted(SET_COPIES))
def test_the_set_copied_in_another_spelling_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _set(lean_putnambench, SET_COPIES[case])
    assert "the other side of the statement's own `=`" in found.get("G2", ""), found


@pytest.mark.parametrize("case", sorted(SET_HONEST))
def test_other_sets_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _set(lean_putnambench, SET_HONEST[case]) == {}


# --- a count written with field notation on the set-builder ---------------------------------------------

COUNT = "putnam_2020_a1"
"""States ``Set.ncard {x : ℕ | ...} = putnam_2020_a1_solution``."""
COUNTED = "(2020 ∣ x) ∧ (Nat.log 10 x) + 1 ≤ 2020 ∧ (∃ k l, k ≥ l ∧ x = ∑ i ∈ Finset.range (k-l+1), 10 ^ (i+l))"
COUNT_COPIES = {
    "field notation": f"{{x : ℕ | {COUNTED}}}.ncard",
    "field notation on a bracketed set": f"({{x : ℕ | {COUNTED}}}).ncard",
    "a pipeline": f"{{x : ℕ | {COUNTED}}} |>.ncard",
}
COUNT_HONEST = {
    "the official answer": "508536",
    "another set's count": "{x : ℕ | 2020 ∣ x ∧ x < 10}.ncard",
}
ENCARD = "putnam_1983_a1"
"""States ``{n : ℤ | n > 0 ∧ (n ∣ 10 ^ 40 ∨ n ∣ 20 ^ 30)}.encard = putnam_1983_a1_solution``."""


def _count(lean_putnambench: Benchmark, problem: str, value: str) -> dict[str, str]:
    candidate = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(lean_putnambench, problem, candidate, Track.NO_ANSWER))


@pytest.mark.parametrize("case", sorted(COUNT_COPIES))
def test_a_count_copied_with_field_notation_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _count(lean_putnambench, COUNT, COUNT_COPIES[case])
    assert "the other side of the statement's own `=`" in found.get("G2", ""), found


def test_a_statements_field_notation_is_read_as_the_function(lean_putnambench: Benchmark) -> None:
    found = _count(lean_putnambench, ENCARD, "Set.encard {n | n > 0 ∧ (n ∣ 10 ^ 40 ∨ n ∣ 20 ^ 30)}")
    assert "the other side of the statement's own `=`" in found.get("G2", ""), found


@pytest.mark.parametrize("case", sorted(COUNT_HONEST))
def test_other_counts_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _count(lean_putnambench, COUNT, COUNT_HONEST[case]) == {}


def test_another_sets_encard_stays_accepted(lean_putnambench: Benchmark) -> None:
    assert _count(lean_putnambench, ENCARD, "Set.encard {n : ℤ | n > 1 ∧ (n ∣ 10 ^ 40 ∨ n ∣ 20 ^ 30)}") == {}


# --- a theorem variable defined by its own hypothesis ---------------------------------------------------

DEFINED = "putnam_1973_a4"
"""States ``putnam_1973_a4_solution = {x : ℝ | f x = 0}.ncard`` with ``hf : f = fun x => 2^x - 1 - x^2``."""
UNFOLDED_COPIES = {
    "f unfolded": "{x : ℝ | 2^x - 1 - x^2 = 0}.ncard",
    "f unfolded, the function form": "Set.ncard {x : ℝ | 2^x - 1 - x^2 = 0}",
    "f as a lambda": "{x : ℝ | (fun x => 2^x - 1 - x^2) x = 0}.ncard",
}
UNFOLDED_HONEST = {"the official answer": "3"}
ANOTHER_EQUATION = "Set.ncard {x : ℝ | 2^x - 1 - x^2 = 1}"
"""No copy; since value red team 41 refused as a count of a set over ``ℝ`` (its equality no computation
decides: ``_answer_count_words``), which states no answer either."""


@pytest.mark.parametrize("case", sorted(UNFOLDED_COPIES))
def test_a_copy_with_a_hypothesis_definition_unfolded_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _count(lean_putnambench, DEFINED, UNFOLDED_COPIES[case])
    assert "the other side of the statement's own `=`" in found.get("G2", ""), found


def test_chained_hypothesis_definitions_are_unfolded(lean_putnambench: Benchmark) -> None:
    """``putnam_2009_b3``: ``hA : A = fun n ↦ ({S : Set ℤ | mediocre n S}.ncard : ℤ)`` and ``hmediocre : ∀ n
    S, mediocre n S ↔ ...``; its set with both unfolded."""
    mediocre = "(S ⊆ Icc 1 n) ∧ ∀ a ∈ S, ∀ b ∈ S, 2 ∣ a + b → (a + b) / 2 ∈ S"
    a = f"(fun n ↦ ({{S : Set ℤ | {mediocre}}}.ncard : ℤ))"
    copy = f"{{n : ℤ | n > 0 ∧ {a} (n + 2) - 2 * {a} (n + 1) + {a} n = 1}}"
    found = _count(lean_putnambench, "putnam_2009_b3", copy)
    assert "the other side of the statement's own `=`" in found.get("G2", ""), found
    assert _count(lean_putnambench, "putnam_2009_b3", "{n : ℤ | n > 0 ∧ ∃ k, n = 2 ^ k - 1}") == {}


@pytest.mark.parametrize("case", sorted(UNFOLDED_HONEST))
def test_other_values_beside_a_hypothesis_definition_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _count(lean_putnambench, DEFINED, UNFOLDED_HONEST[case]) == {}


def test_another_equation_is_no_copy_but_a_count_no_computation_decides(lean_putnambench: Benchmark) -> None:
    found = _count(lean_putnambench, DEFINED, ANOTHER_EQUATION).get("G2", "")
    assert "the other side" not in found and "a quantifier hidden in a word" in found, found


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("theorem t (f : ℝ → ℝ) (hf : f = fun x => x + 1) : True", {"f": "fun x => x + 1"}),
        ("theorem t (n : ℕ → ℕ → ℕ) (hn : ∀ a b : ℕ, n a b = a + b) : True", {"n": "( fun a b => a + b )"}),
        ("theorem t (p : ℕ → Prop) (hp : ∀ n, p n ↔ n = 2) : True", {"p": "( fun n => n = 2 )"}),
        ("theorem t (f : ℕ → ℕ) [Fact True] (hf : f = id) : True", {"f": "id"}),
        ("theorem t (hf : f = 1) : True", {}),  # `f` is no variable of the theorem's
        ("theorem t (f : ℕ → ℕ) (hf : f = fun x => f x) : True", {}),  # recursive: not a definition
        ("theorem t (f : ℕ → ℕ) (hf : ∀ x, f (x + 1) = x) : True", {}),  # a pattern, not the parameters
    ],
)
def test_the_hypotheses_that_define_a_variable(signature: str, expected: dict[str, str]) -> None:
    found = hypothesis_definitions(list(lex_code(signature)))
    assert {name: " ".join(t.text for t in value) for name, value in found.items()} == expected
