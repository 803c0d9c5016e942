"""Value red team 39 (Lean, no-answer, G1-G3 of the text profile): answers that restate the question
through a library function that picks, searches or evaluates, with no name any list refused.

* Counts as searches (``_answer_counts``). Mathlib's ``Set.ncard``/``encard``, ``Nat.card``,
  ``Cardinal.mk``, ``Set.Finite.toFinset`` and ``Set.indicator``/``mulIndicator`` decide membership
  classically inside their own definitions (Mathlib/Data/Set/Card.lean, commit 002297d: ``noncomputable
  def ncard (s : Set α) : ℕ := ENat.toNat s.encard``; Mathlib/Algebra/Group/Indicator.lean, commit 097235a,
  lines 46-48:
  ``haveI := Classical.decPred (· ∈ s); if x ∈ s then f x else 1``; Mathlib/Data/Set/Finite/Basic.lean
  ``Finite.toFinset``: "Using choice, get the `Finset`"), so no ``open Classical``, ``decide`` or ``if`` is
  in the value for red team 37-38's rule to read. "The least ``n`` with ``P``" is ``Set.ncard {k | ∀ i ≤ k,
  ¬P i}`` (the ``k`` below the least one), the proof then needs only a witness, as for ``sInf {n | P n}``.
  Now a value that counts and also quantifies, counts twice or defines a set inside a set
  (``{k | Set.Iic k ∩ {i | P i} = ∅}``) is refused wherever they stand; a
  count of a set stated without quantifiers (the published ``putnam_2011_a1`` answer) passes, and so do
  a proposition's (a ``Prop`` solution states, it picks nothing: the published ``putnam_1973_a2`` answer)
  and a count inside a ``Set`` answer's set-builder (it characterises the members: red team 27's honest
  spellings of ``putnam_1994_b1``, ``2011_b2``, ``2019_b6``; a first cut refused them).
* Limits, derivatives, series and integrals by another name (``_operators``): ``Filter.blimsup`` and
  ``bliminf`` (``sInf { a | ∀ᶠ x in f, p x → u x ≤ a }``: with ``p := fun _ => True``, ``limsup``),
  ``logDeriv`` (``deriv f / f``), ``gradient`` (``fderiv``), ``dslope`` (``deriv f a`` at ``a``),
  ``FormalMultilinearSeries.sum`` (a ``∑'``), ``Complex.betaIntegral``/``GammaIntegral`` (``∫``) and
  ``volume`` by its declared name ``MeasureTheory.MeasureSpace.volume``.

Measured (text profile, G2): ``ATTACKS`` (24): 0 refused before, 24 now. ``HONEST`` (12): 12 accepted
before and now. Every official answer (346) stays accepted (red team 37's ``refused_officials``), the conformance
corpus keeps its verdicts and the verdict snapshot is identical.

Tried and refused already (pinned in ``TRIED``, a regression would show): ``sInf``/``Nat.find``/
``Classical.choose``/``epsilon``/``Exists.choose``/``Nat.nth``/``WellFounded.min``/``Function.invFun``
reached through ``let``, ``id``, ``fun`` applied, ``show .. from``, ``by exact``, ``Function.const``, ``(·
)``, ``match``, an anonymous constructor, a ``where`` helper; ``Set.Nonempty.some``, ``Set.IsWF.min``,
``(wellFounded_lt).min``, ``InfSet.sInf``, ``Nat.lt_wfRel.wf.min``, ``.toList.headI``, ``CauSeq.lim``,
``Real.sSup``. Header tricks (all refused or harmless): ``@[reducible]``/``@[simp]``/``@[irreducible]``/
``@[implemented_by]``/``@[csimp]`` on the solution, ``private``/``protected``, ``def``/``theorem``/``instance``
/``opaque``/``irreducible_def`` for ``abbrev``, ``set_option``/``open .. in`` before it, a ``namespace``
around it with ``export``, a ``section`` ``variable``, ``attribute [simp]``/``seal``/``unseal``/``unif_hint``/
``macro_rules``/``local notation`` after it; ``noncomputable``, ``set_option .. in`` inside the value, a
``where``/``let rec`` helper of a plain value and ``termination_by`` pass (nothing they change reaches the
answer). Left: ``orderOf``/``Function.minimalPeriod``/``Monoid.exponent`` (a ``Nat.find``; no PutnamBench
question asks for one), an indicator of a quantifier-free property no instance decides (``Irrational``), a
quantifier inside a library predicate not listed, a search inside a ``Set`` answer's set-builder (``{n | n =
Set.ncard {k | ..}}``: a singleton whose uniqueness the proof must still show), ``Real.Gamma`` (a special
function honest answers may use), ``MeasureTheory.average`` (red team 14's ``⨍``).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Final

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean._answer_counts import counted_search
from putnam_solver.core.provers.lean.syntax import Statement, lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import assert_linear_work, failures, lean_filled, lean_text_verdict, putnambench_dir, sampled

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"

LEAST = "putnam_1993_b1"
LIMIT = "putnam_1977_b1"
INTEGRAL = "putnam_1980_a3"
# red team 36's property, multiplied out (the copy rule leaves it), over `i`
P = "(0 < i ∧ ∀ m : ℤ, 0 < m → m < 1993 → ∃ j : ℤ, (m : ℝ) * i < 1993 * j ∧ 1994 * (j : ℝ) < (m + 1) * i)"
BELOW = f"{{k : ℕ | ∀ i ≤ k, ¬{P}}}"
U = "(fun N : ℤ => ∏ n ∈ Finset.Icc (2 : ℤ) N, (1 - 2 / ((n : ℝ) ^ 3 + 1)))"
F = "(fun x => 1 / (1 + (Real.tan x) ^ (Real.sqrt 2)))"
COUNT = "the answer counts (or takes the indicator of) a set it defines with a quantifier"
CHOICE = "a choice operator picks a value"
ANALYSIS = "the integral, series or derivative itself"

# name: (problem, value, what G2 says)
ATTACKS: dict[str, tuple[str, str, str]] = {
    "ncard of the initial segment": (LEAST, f"Set.ncard {BELOW}", COUNT),
    "ncard as a field": (LEAST, f"{BELOW}.ncard", COUNT),
    "ncard through let": (LEAST, f"let s := {BELOW}; s.ncard", COUNT),
    "ncard through a fun applied": (LEAST, f"(fun s : Set ℕ => s.ncard) {BELOW}", COUNT),
    "encard toNat": (LEAST, f"({BELOW}.encard).toNat", COUNT),
    "Nat.card of a subtype": (LEAST, f"Nat.card {{k : ℕ // ∀ i ≤ k, ¬{P}}}", COUNT),
    "Cardinal.mk": (LEAST, f"Cardinal.toNat (Cardinal.mk {{k : ℕ // ∀ i ≤ k, ¬{P}}})", COUNT),
    "Cardinal notation": (LEAST, f"Cardinal.toNat (#{{k : ℕ // ∀ i ≤ k, ¬{P}}})", COUNT),
    "indicator summed": (LEAST, f"∑ k ∈ Finset.range 4000, Set.indicator {BELOW} (fun _ => 1) k", COUNT),
    "indicator decides": (LEAST, f"Set.indicator {{_u : Unit | ∃ i < 3987, {P}}} (fun _ => 0) () + 3987", COUNT),
    "ncard of Unit decides": (LEAST, f"∑ k ∈ Finset.range 4000, Set.ncard {{_u : Unit | ∀ i ≤ k, ¬{P}}}", COUNT),
    "fold of toFinset": (
        LEAST,
        f"Finset.fold min 4000 id (Set.Finite.toFinset (s := {{i : ℕ | i ≤ 4000 ∧ {P}}}) "
        "((Set.finite_Iic 4000).subset fun _ h => h.1))",
        COUNT,
    ),
    "ncard of lower bounds": (LEAST, f"(lowerBounds {{i : ℕ | {P}}}).ncard - 1", COUNT),
    "nested counts": (LEAST, "Set.ncard {k : ℕ | Set.ncard {i : ℕ | i ≤ k ∧ 2 ∣ i * 1993} = 0}", COUNT),
    "a set-builder inside the counted set": (
        LEAST,
        "Set.ncard {k : ℕ | Set.Iic k ∩ {i : ℕ | 0 < i ∧ 2 ^ i % 1993 = 1} = ∅}",
        COUNT,
    ),
    "a fun as a set inside": (
        LEAST,
        "Set.ncard {k : ℕ | Set.Iic k ∩ (fun i : ℕ => 0 < i ∧ 2 ^ i % 1993 = 1 : Set ℕ) = ∅}",
        COUNT,
    ),
    "Nonempty inside": (LEAST, "{k : ℕ | ¬(Set.Iic k ∩ setOf (· ∣ 1993 * 2)).Nonempty}.ncard", COUNT),
    "blimsup": (LIMIT, f"Filter.blimsup {U} Filter.atTop (fun _ => True)", CHOICE),
    "bliminf as a field": (LIMIT, f"Filter.atTop.bliminf {U} (fun _ => True)", CHOICE),
    "logDeriv": (INTEGRAL, "logDeriv (fun x : ℝ => Real.exp (x * Real.pi / 4)) 0", ANALYSIS),
    "gradient": (INTEGRAL, "gradient (fun x : ℝ => x * Real.pi / 4) 1", ANALYSIS),
    "dslope": (INTEGRAL, "dslope (fun x : ℝ => x * Real.pi / 4) 0 0", ANALYSIS),
    "betaIntegral": (INTEGRAL, "(Complex.betaIntegral 1 1).re * Real.pi / 4", ANALYSIS),
    "volume by its declared name": (
        INTEGRAL,
        "(MeasureTheory.MeasureSpace.volume (Set.Ioo (0 : ℝ) 1)).toReal * Real.pi / 4",
        ANALYSIS,
    ),
}

# name: (problem, value); each passes G2
HONEST: dict[str, tuple[str, str]] = {
    "a number": (LEAST, "3987"),
    "ncard of a stated set": (LEAST, "Set.ncard {i : ℕ | i < 3987}"),
    "ncard of a divisor set": (LEAST, "{d : ℕ | d ∣ 3987}.ncard * 664 + 3"),
    "Nat.card of a finite type": (LEAST, "Nat.card (Fin 3987)"),
    "a quantifier without a count": (
        "putnam_1990_b1",
        "{f : ℝ → ℝ | ∃ c : ℝ, c ^ 2 = 1990 ∧ f = fun x => c * Real.exp x}",
    ),
    "indicator of an interval": (INTEGRAL, "Set.indicator (Set.Icc (0 : ℝ) 1) (fun _ => Real.pi / 4) 0"),
    "Finset.card of a range": (LEAST, "(Finset.range 3987).card"),
    "a count under the answer's own fun": ("putnam_2005_a2", "fun n => {k : ℕ | k < n ∧ Nat.Coprime k n}.ncard"),
    "a count of subsets": (LEAST, "Set.ncard {S : Finset ℕ | S ⊆ Finset.range 12} - 109"),
    "limit by its value": (LIMIT, "2 / 3"),
    "Real.Gamma": (INTEGRAL, "Real.Gamma (1 / 2) ^ 2 / 4"),
    "a sum of a literal": (LIMIT, "∑ k ∈ Finset.range 2, (k : ℝ) * 2 / 3"),
}

TRIED: dict[str, tuple[str, str]] = {
    "sInf through let": (LEAST, f"let s := {{i : ℕ | {P}}}; sInf s"),
    "Nat.find through show": (LEAST, f"show ℕ from Nat.find (⟨3987, by simp⟩ : ∃ i, {P})"),
    "Function.const": (LEAST, f"Function.const ℕ (sInf {{i : ℕ | {P}}}) 0"),
    "section": (LEAST, f"(sInf ·) {{i : ℕ | {P}}}"),
    "match": (LEAST, f"match {{i : ℕ | {P}}} with | s => sInf s"),
    "Set.Nonempty.some as a field": (LEAST, f"(⟨3987, by simp⟩ : ({{i : ℕ | {P}}} : Set ℕ).Nonempty).some"),
    "WellFounded.min as a field": (LEAST, f"(wellFounded_lt (α := ℕ)).min {{i : ℕ | {P}}} ⟨3987, by simp⟩"),
    "InfSet.sInf": (LEAST, f"InfSet.sInf {{i : ℕ | {P}}}"),
    "Real.sSup": (LIMIT, f"Real.sSup (Set.range {U})"),
}


def _g2(bench: Benchmark, problem: str, value: str) -> str:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)).get("G2", "")


@pytest.mark.parametrize(
    ("problem", "value", "said"),
    sampled(ATTACKS, {"ncard of the initial segment", "indicator decides", "fold of toFinset", "blimsup", "dslope"}),
)
def test_each_restating_value_is_refused(bench: Benchmark, problem: str, value: str, said: str) -> None:
    assert said in _g2(bench, problem, value)


@pytest.mark.parametrize(
    ("problem", "value"), sampled(HONEST, {"ncard of a stated set", "indicator of an interval", "Real.Gamma"})
)
def test_each_honest_twin_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value) == ""


@pytest.mark.parametrize(("problem", "value"), sampled(TRIED, {"match", "WellFounded.min as a field"}))
def test_what_was_tried_stays_refused(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value)


@pytest.mark.parametrize(
    ("solution_type", "value", "found"),
    [
        pytest.param("ℕ", "Set.ncard {k : ℕ | ∃ i, i = k}", True, id="a count beside ∃"),
        pytest.param("ℕ", "n.card + Set.ncard {k : ℕ | k < 2}", False, id="a field card"),
        pytest.param("ℕ", "(Nat.card (Fin 2)) + Nat.card (Fin 3)", True, id="two counts"),
        pytest.param("Prop", "∀ n, Set.ncard {k : ℕ | k < n} = n", False, id="a proposition"),
        # red team 42: a predicate's or a set's body is read as a value (a count beside a quantifier)
        pytest.param("ℕ → Prop", "fun n => ∃ k, Set.ncard {i | i < k} = n", True, id="a predicate"),
        pytest.param("ℕ → Prop", "fun n => Set.ncard {i | i < n} = n", False, id="a predicate, no quantifier"),
        pytest.param("Set ℕ", "{n | ∃ k, {i | i ∣ k}.ncard = n}", True, id="a set's property"),
        pytest.param("Set ℕ", "{n | {i | i ∣ n}.ncard = 2}", False, id="a set's property, no quantifier"),
        pytest.param("Set ℕ", "{Set.ncard {k : ℕ | ∀ i ≤ k, i = 0}}", True, id="a set's element"),
        pytest.param("ℕ → Set ℕ", "fun m => {(Set.ncard {k | ∃ i, i * m = k} : ℕ)}", True, id="under a fun"),
    ],
)
def test_the_count_rule_reads_the_solution_type(solution_type: str, value: str, found: bool) -> None:
    assert (counted_search(read_counts(lex_code(value), _statement(solution_type), "t_solution")) is not None) is found


NESTED_UNITS: Final = ("{x : ℕ | x ∈ ", "(fun y => {x : ℕ | x = y + ", "f (g 1) ({1, 2} ∪ ")
"""Hostile values of many nested groups: set-builders, builders under ``fun``s, groups that are none."""


def test_the_count_rule_is_linear_in_the_value() -> None:
    """The reading stays linear in each of :data:`NESTED_UNITS` (each group's top level is read once)."""
    for unit in NESTED_UNITS:
        assert_linear_work(partial(_nested_value, unit), 100)


def _nested_value(unit: str, n: int) -> object:
    closing = "".join({"(": ")", "{": "}"}[c] for c in reversed(unit) if c in "({")
    return counted_search(
        read_counts(lex_code("Set.ncard " + unit * n + "0" + closing * n), _statement("ℕ"), "t_solution")
    )


def _statement(solution_type: str) -> Statement:
    return parse_statement(
        f"abbrev t_solution : {solution_type} := sorry\ntheorem t : t_solution = t_solution := sorry\n"
    )
