"""Operators a no-answer value may not use (``_policy.LeanPolicy.choice_operators`` and
``analysis_operators``): extremal and limit operators, and the integrals, series and derivatives a question
asks to evaluate."""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._choice_aliases import ANALYSIS_ALIASES

EXTREMAL_OPERATORS: Final = (
    "sInf",
    "sSup",
    "iInf",
    "iSup",
    "WellFounded.min",
    "Nonempty.some",
    "Function.surjInv",
    "Nat.findGreatest",
    "Finset.min'",
    "Finset.max'",
    "Finset.inf'",
    "Finset.sup'",
    "Function.argmin",
    "Function.argminOn",
    "Int.leastOfBdd",
    "Int.greatestOfBdd",
    "limUnder",
    "lim",
    # red team 24: a real built as the limit of a rational Cauchy sequence (`Real.mk ⟨f, h⟩`, Mathlib's
    # Data/Real/Basic.lean), the limit of the question's own sequence with only its Cauchy property to prove
    "Real.mk",
    "Real.ofCauchy",
    "Filter.limsup",
    "Filter.liminf",
    "Filter.limsSup",
    "Filter.limsInf",
    # red team 39, accepted by the text profile: the bounded forms (Mathlib/Order/LiminfLimsup.lean, `def
    # blimsup (u : β → α) (f : Filter β) (p : β → Prop) := sInf { a | ∀ᶠ x in f, p x → u x ≤ a }`), which
    # with `p := fun _ => True` are `limsup`/`liminf`
    "Filter.blimsup",
    "Filter.bliminf",
    # red team 12: the duals and the unprimed forms of the finite extremal operators above (`s.min`
    # was refused and `s.max` accepted): a finset's greatest element of `WithBot`, its `sup` of a
    # function (for `ℕ`, the largest value), a list's largest element
    "Finset.max",
    "Finset.min",
    "Finset.sup",
    "Finset.inf",
    "Multiset.sup",
    "Multiset.inf",
    "WellFounded.sup",
    "List.maximum",
    "List.minimum",
    "List.max?",
    "List.min?",
    "List.argmax",
    "List.argmin",
    # red team 14: the infimum and supremum of distances (`infDist x s` is `⨅ y ∈ s, dist x y`, `diam s`
    # a `⨆`), the answer to "find the least distance" written as the question
    "Metric.infDist",
    "Metric.diam",
    "EMetric.diam",
    "EMetric.infEdist",
    "Metric.hausdorffDist",
    "EMetric.hausdorffEdist",
    # red team 40, each accepted by the text profile: the least period or order by its library name, a
    # `Nat.find` inside its definition (Mathlib/Dynamics/PeriodicPts/Defs.lean `def minimalPeriod (f : α → α)
    # (x : α) := if h : x ∈ periodicPts f then Nat.find h else 0` under `open scoped Classical in`;
    # Mathlib/GroupTheory/OrderOfElement.lean `noncomputable def orderOf (x : G) : ℕ := minimalPeriod (x *
    # ·) 1` with `addOrderOf` its `to_additive` twin; `MulAction.period m a` is `minimalPeriod (m • ·) a`;
    # Mathlib/GroupTheory/Exponent.lean `noncomputable def exponent := if h : ExponentExists G then Nat.find
    # h else 0`), and the characteristic, a `Classical.choose` (Mathlib/Algebra/CharP/Defs.lean
    # `noncomputable def ringChar [NonAssocSemiring R] : ℕ := Classical.choose (CharP.existsUnique R)`):
    # "the least `n` with `P`" is the order of an element or the period of a map built from `P`
    "Function.minimalPeriod",
    "orderOf",
    "addOrderOf",
    "MulAction.period",
    "AddAction.period",
    "Monoid.exponent",
    "AddMonoid.exponent",
    "ringChar",
    # red team 42, accepted by the text profile: the minimal period by the length of the orbit
    # (Mathlib/Dynamics/PeriodicPts/Defs.lean `def periodicOrbit (f : α → α) (x : α) : Cycle α := (List.range
    # (minimalPeriod f x)).map fun n => f^[n] x`), so `(periodicOrbit f x).length` is `minimalPeriod f x`
    "Function.periodicOrbit",
)
"""Choice operators by another name (Rocq's list has ``ex_minn``): "the least ``n`` with ``P``" written
``sInf {n | P n}`` is the question, not its answer (the theorem then holds by ``rfl``). No official
PutnamBench answer and no published proof's answer uses any of them. Counting (``ncard``, ``card``) is
not here: a published sound proof answers ``putnam_2011_a1`` with the ``ncard`` of a set it derived.
Limits are here too: ``limUnder atTop u`` is ``lim (map u atTop)``, which Mathlib defines as
``Classical.epsilon fun x => map u atTop ≤ 𝓝 x`` (Mathlib/Topology/Defs/Filter.lean), and ``limsup``
is an ``sInf``; as the answer of a problem stated ``Tendsto u atTop (𝓝 putnam_X_solution)`` (26
PutnamBench problems) it leaves only convergence to prove, not the value (a published "proof" of
``putnam_2015_b6`` answers with ``limUnder``)."""


DECISION_OPERATORS: Final = (
    "Classical.propDecidable",
    "Classical.dec",
    "Classical.decPred",
    "Classical.decRel",
    "Classical.decEq",
    "Classical.typeDecidableEq",
    "Classical.typeDecidable",
    "Classical.decidableInhabited",
    "Classical.em",
)
"""Decisions by excluded middle (Rocq's ``answer_decision_operators``, red team 36): "the least ``n`` with
``P``" written as a bounded search that tests ``P`` itself, ``((List.range 4000).find? fun n => @decide (P
n) (Classical.propDecidable _)).getD 0``, leaves only a witness under the bound to prove, and no tactic
evaluates it. ``propDecidable`` (every proposition decided by ``Classical.choice``), ``decidableInhabited``
and ``typeDecidableEq``/``typeDecidable`` are core's (src/Init/Classical.lean); ``dec``, ``decPred``,
``decRel`` and ``decEq`` Mathlib's instances built from it (Mathlib/Logic/Basic.lean); ``em`` is what
``Or.by_cases`` splits on. ``open Classical in`` inside a value activates ``propDecidable`` (a scoped
instance) without naming it: :func:`_answer_value.answer_violations` refuses that too. A decision the
library makes by its own instances stays allowed (``if x < 0`` on ``ℝ`` is ``Real.decidableLT``, an
official answer's shape), as is ``decide`` on a computable property."""

ANALYSIS_OPERATORS: Final = (
    "∫",
    "∑'",
    "∏'",
    "∮",
    "MeasureTheory.integral",
    "MeasureTheory.lintegral",
    "MeasureTheory.volume",
    "intervalIntegral",
    "circleIntegral",
    "tsum",
    "tprod",
    "deriv",
    "derivWithin",
    "fderiv",
    "fderivWithin",
    "iteratedDeriv",
    "iteratedDerivWithin",
    "iteratedFDeriv",
    "iteratedFDerivWithin",
    "lineDeriv",
    "taylorWithin",
    "taylorWithinEval",
    "taylorCoeffWithin",
    # red team 39, each accepted by the text profile: a library definition that is one of the above
    # (Mathlib/Analysis/Calculus/LogDeriv.lean `def logDeriv (f : 𝕜 → 𝕜') := deriv f / f`;
    # Mathlib/Analysis/Calculus/Gradient/Basic.lean `def gradient (f : F → 𝕜) (x : F) : F := (toDual 𝕜
    # F).symm (fderiv 𝕜 f x)`; Mathlib/Analysis/Calculus/DSlope.lean `dslope f a` is `deriv f a` at `a`;
    # Mathlib/Analysis/Analytic/Basic.lean `protected def sum (p : FormalMultilinearSeries 𝕜 E F) (x : E) :
    # F := ∑' n : ℕ, p n fun _ => x`; Mathlib/Analysis/SpecialFunctions/Gamma/Beta.lean `def betaIntegral
    # (u v : ℂ) : ℂ := ∫ x : ℝ in 0..1, ..` and Gamma/Basic.lean `def GammaIntegral (s : ℂ) : ℂ := ∫ x in
    # Ioi (0 : ℝ), ..`), and `volume` by its declared name (`MeasureTheory.volume` is the `export` of the
    # class field `MeasureTheory.MeasureSpace.volume`)
    "logDeriv",
    "gradient",
    "gradientWithin",
    "dslope",
    "FormalMultilinearSeries.sum",
    "Complex.betaIntegral",
    "Complex.GammaIntegral",
    "MeasureTheory.MeasureSpace.volume",
    *ANALYSIS_ALIASES,  # value red team 41's scan of Mathlib (`_choice_aliases`)
)
"""What Rocq's G4 refuses as ``answer_limit_operators`` (Coquelicot's ``RInt``, ``Series``, ``Derive``),
in Mathlib's names: about sixty PutnamBench theorems ask for the value of an integral, a series or a
derivative (``putnam_1980_a3``: ``∫ x in Set.Ioo 0 (Real.pi / 2), ... = putnam_1980_a3_solution``), and
that expression copied as the no-answer answer makes the theorem ``rfl``. Each is also defined by choice
(``deriv`` is ``fderiv``'s ``Classical.choose`` of a derivative, ``tsum`` a ``Classical.choose`` of a sum,
``∫`` a limit of simple functions). The notations are matched as tokens (``∫⁻`` begins with ``∫``), the
names as a choice operator's are. No official answer uses any of them; an average (``⨍``) is not here,
since the official answer of ``putnam_1962_a2`` characterises its functions by one (and no theorem asks
for an average's value)."""
