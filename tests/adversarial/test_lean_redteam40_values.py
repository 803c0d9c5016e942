"""Value red team 40 (Lean, no-answer, G2 of the text profile): the searches red team 39 left.

* A count or indicator with no quantifier beside it, of a property no instance decides (``Irrational``),
  taken at each point of a range and combined: ``∑ k ∈ range N, ∏ i ∈ range (k + 1), (1 - Set.indicator {x
  | Q x} 1 i)`` is the least ``n < N`` with ``Q`` (Mathlib's ``indicator`` decides membership by
  ``Classical.decPred``: Mathlib/Algebra/Group/Indicator.lean, commit 097235a, lines 46-48), and so is the
  same table folded, iterated (``f^[N] 0``), recursed or mapped. Red team 39's rule read only a quantifier,
  a second count or a nested set. Now (``_answer_counts._iterates``, ``_under_inner_fun``) a count in a
  value that also combines values at many points (a big operator, a fold, a recursion, ``f^[n]``), or that
  stands under a ``fun`` other than the answer's own parameters (whatever combinator then applies it), is
  refused.
* The least period or order by its library name, each a ``Nat.find`` (``Function.minimalPeriod``,
  ``orderOf``, ``addOrderOf``, ``MulAction.period``, ``Monoid.exponent``) or a ``Classical.choose``
  (``ringChar``); ``_operators`` cites each definition. No PutnamBench answer uses them (they appear only
  in statements and proofs: ``putnam_2009_a5``'s theorem, published proofs of ``putnam_1976_b2``,
  ``1979_b3``, ``1991_b5``, ``2015_a3``).

Measured (text profile, G2): ``ATTACKS`` (20) 0 refused before, 20 now; ``HONEST`` (9) 9 accepted before and
now (the indicator beside a ``fun`` it is not under, a count under the answer's own ``fun``s, written in
parentheses or curried, a sum with no count). Official answers 346 of 346, the conformance corpus and the
verdict snapshot unchanged.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean._answer_counts import counted_search
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import Track
from tests.adversarial.test_lean_redteam39_values import BENCHMARK, COUNT, LEAST, _statement
from tests.helpers import failures, lean_filled, lean_text_verdict

__all__ = ["BENCHMARK"]
CHOICE = "a choice operator picks a value"
# a property of `x` with no quantifier that no instance decides
Q = "Irrational (Real.sqrt (x * 1993 + 1))"
IND = f"Set.indicator {{x : ℕ | {Q}}} 1"
NOT_IND = f"Set.indicator {{x : ℕ | ¬{Q}}} 1"

# name: value for `LEAST`, refused as a count that searches
COUNT_SEARCHES: dict[str, str] = {
    "indicators multiplied and summed": f"∑ k ∈ Finset.range 4000, ∏ i ∈ Finset.range (k + 1), (1 - {IND} i)",
    "ncard of a meet, multiplied and summed": (
        f"∑ k ∈ Finset.range 4000, ∏ i ∈ Finset.range (k + 1), (1 - Set.ncard ({{i}} ∩ {{x : ℕ | {Q}}}))"
    ),
    "a table summed as a field": f"((List.range 4000).map ({IND})).sum",
    "a table summed by name": f"List.sum (List.map ({IND}) (List.range 4000))",
    "Finset.sum": f"Finset.sum (Finset.range 4000) ({IND})",
    "iterated by ^[": f"(fun k => k + {NOT_IND} k)^[4000] 0",
    "Nat.iterate": f"Nat.iterate (fun k => k + {NOT_IND} k) 4000 0",
    "foldl": f"(List.range 4000).foldl (fun acc i => acc * {NOT_IND} i + acc) 0",
    "Nat.rec": f"Nat.rec (motive := fun _ => ℕ) 0 (fun k acc => acc + {NOT_IND} k) 4000",
    "find?": f"((List.range 4000).find? (fun i => {IND} i == 1)).getD 0",
    "Nat.count under a fun": f"Nat.count (fun k => {IND} k = 0) 4000",
    "an unlisted combinator, under a fun": f"List.foldlIdx (fun i acc _ => acc + {NOT_IND} i) 0 [1, 2]",
    "a fun applied, the count inside": f"(fun s : Set ℕ => s.ncard) {{x : ℕ | {Q}}}",
}
# name: value for `LEAST`, refused as a choice operator
NAMED_SEARCHES: dict[str, str] = {
    "orderOf": "orderOf (2 : ZMod 3987) * 1",
    "addOrderOf": "addOrderOf (1 : ZMod 3987)",
    "Function.minimalPeriod": "Function.minimalPeriod (fun k : ZMod 3987 => k + 1) 0",
    "minimalPeriod under open Function": "open Function in minimalPeriod (fun k : ZMod 3987 => k + 1) 0",
    "MulAction.period": "MulAction.period (1 : Multiplicative (ZMod 3987)) (0 : ZMod 3987)",
    "Monoid.exponent": "Monoid.exponent (Multiplicative (ZMod 3987))",
    "ringChar": "ringChar (ZMod 3987)",
}
ATTACKS = [
    *(pytest.param(value, COUNT, id=name) for name, value in COUNT_SEARCHES.items()),
    *(pytest.param(value, CHOICE, id=name) for name, value in NAMED_SEARCHES.items()),
]

# name: (problem, value); each passes G2
HONEST: dict[str, tuple[str, str]] = {
    "indicator beside a fun it is not under": (LEAST, "Set.indicator (Set.Icc (0 : ℝ) 1) (fun _ => 3987) 0 |>.toNat"),
    "indicator at one point": (LEAST, f"{IND} 5 + 3986"),
    "a count under the answer's fun, in parentheses": (
        "putnam_2005_a2",
        "(fun n => {k : ℕ | k < n ∧ Nat.Coprime k n}.ncard)",
    ),
    "a count under the answer's curried fun": (
        "putnam_2005_a2",
        "fun n ↦ fun (m : ℕ) ↦ {k : ℕ | k < n + m ∧ Nat.Coprime k n}.ncard",
    ),
    "a sum with no count": (LEAST, "∑ k ∈ Finset.range 89, k + 1"),
    "a fold with no count": (LEAST, "(List.range 4).foldl (· + ·) 3981"),
    "Nat.card of a finite type": (LEAST, "Nat.card (ZMod 3987)"),
    "ZMod's value": (LEAST, "(3986 : ZMod 3987).val + 1"),
    "order of an integer's size": (LEAST, "Int.natAbs (-3987)"),
}


def _g2(bench: Benchmark, problem: str, value: str) -> str:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)).get("G2", "")


@pytest.mark.parametrize(("value", "said"), ATTACKS)
def test_each_search_is_refused(bench: Benchmark, value: str, said: str) -> None:
    assert said in _g2(bench, LEAST, value)


@pytest.mark.parametrize(("problem", "value"), [pytest.param(*v, id=k) for k, v in HONEST.items()])
def test_each_honest_twin_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value) == ""


@pytest.mark.parametrize(
    ("solution_type", "value", "found"),
    [
        pytest.param("ℕ", f"∑ k ∈ Finset.range 3, {IND} k", True, id="a sum"),
        pytest.param("ℕ", f"(fun k => {IND} k) 3", True, id="an inner fun"),
        pytest.param("ℕ → ℕ", f"fun k => {IND} k", False, id="the answer's fun"),
        pytest.param("ℕ → ℕ", f"(fun k => ({IND} k, 1)).1", True, id="a fun in a group"),
        pytest.param("ℕ", f"(fun k => k) 2 + {IND} 3", False, id="a fun closed before the count"),
        pytest.param("Prop", f"∑ k ∈ Finset.range 3, {IND} k = 1", False, id="a proposition"),
        # red team 42: a set's body is read as a value, so the iteration there is found too
        pytest.param("Set ℕ", f"{{n | ∑ k ∈ Finset.range n, {IND} k = 1}}", True, id="a set's property"),
    ],
)
def test_the_iteration_rule_reads_scope_and_type(solution_type: str, value: str, found: bool) -> None:
    assert (counted_search(read_counts(lex_code(value), _statement(solution_type), "t_solution")) is not None) is found
