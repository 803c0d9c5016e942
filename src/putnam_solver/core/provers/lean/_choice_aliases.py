"""Choice, search and extremal operators under another name, found by a scan of Mathlib (value red team 41).

Earlier red teams found such names one at a time (the comments in ``_policy`` and ``_operators``). This
scan read Mathlib's definitions whose body applies ``Classical.choose``, ``Nat.find``, ``WellFounded.min``,
``sInf``/``sSup``/``⨅``/``⨆``, ``Trunc.out``, ``∫⁻`` or ``∮`` to a predicate, set, function or sequence its
caller gives (so the question's own property can be passed in) and that return a value; each name below
was accepted by the text profile as a search of ``putnam_1993_b1``'s property before it was listed here
(``tests/adversarial/test_lean_redteam41_aliases.py``). The file of each definition is Mathlib's
(leanprover-community/mathlib4), its text quoted from the stored sources (a snapshot to cite lines from
was too large to fetch); names whose last part the text profile already reads as a choice field
(``Set.Nonempty.some``, ``Set.IsWF.min``, ``CauSeq.lim``, ``MulEquiv.ofBijective``) need no entry; definitions
whose operator is applied only to data they fix (``Real.sqrt``, ``Nat.minFac``, ``padicValNat``,
``minpoly``, ``Polynomial.rootMultiplicity``) are closed forms and are not here."""

from __future__ import annotations

from typing import Final

CHOICE_ALIASES: Final = (
    # Mathlib/Data/Nat/PartENat.lean (`section Find`): `def find : PartENat := ⟨∃ n, P n, Nat.find⟩`, so
    # `(PartENat.find P).get h` is the least `n` with `P n`
    "PartENat.find",
    # Mathlib/Order/WellFounded.lean: `protected noncomputable def succ (wf : WellFounded r) (x : α) : α :=
    # if h : ∃ y, r x y then wf.min { y | r x y } h else x`, the least element above `x` (deprecated 2024-10-25)
    "WellFounded.succ",
    # Mathlib/Logic/Denumerable.lean: `def succ (x : s) : s := ⟨↑x + Nat.find h + 1, Nat.find_spec h⟩`, the
    # next element of an infinite set of naturals after `x`
    "Nat.Subtype.succ",
    # Mathlib/Computability/Partrec.lean: `def rfind (p : ℕ →. Bool) : Part ℕ := ⟨_, fun h => (rfindX p h).1⟩`,
    # "the smallest `n` satisfying `p n`" (`rfindX` its subtype form), `Nat.find` for partial predicates
    "Nat.rfind",
    "Nat.rfindX",
    # same file: `def rfindOpt (f : ℕ → Option α) : Part α := (rfind fun n => (f n).isSome).bind fun n => f n`
    "Nat.rfindOpt",
    # Mathlib/Logic/Basic.lean: `noncomputable def Classical.existsCases (H0 : C) (H : ∀ a, p a → C) : C :=
    # if h : ∃ a, p a then H (Classical.choose h) (Classical.choose_spec h) else H0`
    "Classical.existsCases",
    # Mathlib/Topology/MetricSpace/Contracting.lean: `noncomputable def efixedPoint (hf : ContractingWith K f)
    # (x : α) (hx : edist x (f x) ≠ ∞) : α := Classical.choose <| hf.exists_fixedPoint x hx`; `fixedPoint` is
    # `efixedPoint` from an arbitrary point: "the `x` with `f x = x`" by choice
    "ContractingWith.efixedPoint",
    "ContractingWith.fixedPoint",
    # Mathlib/Order/FixedPoints.lean: `def lfp : (α →o α) →o α where toFun f := sInf { a | f a ≤ a }`, and
    # `gfp` its `sSup` dual
    "OrderHom.lfp",
    "OrderHom.gfp",
    # Mathlib/RingTheory/PrincipalIdealDomain.lean: `noncomputable def generator (S : Submodule R M)
    # [S.IsPrincipal] : M := Classical.choose (principal S)`
    "Submodule.IsPrincipal.generator",
    # Mathlib/Logic/Equiv/Set.lean: `protected noncomputable def imageOfInjOn (f : α → β) (s : Set α) (H : InjOn
    # f s) : s ≃ f '' s`, whose inverse is `⟨Classical.choose p.2, ..⟩`, a preimage picked by choice
    "Equiv.Set.imageOfInjOn",
    # Mathlib/Data/Fintype/EquivFin.lean: `noncomputable def equivOfCardEq (h : card α = card β) : α ≃ β :=
    # ... (truncEquivOfCardEq h).out` and `equivFinOfCardEq` its `Fin n` form, a `Trunc.out`:
    # `(Fintype.equivFinOfCardEq h).symm 0` is an element of `{n // P n}` picked by choice
    "Fintype.equivOfCardEq",
    "Fintype.equivFinOfCardEq",
    # Mathlib/Data/Fintype/Basic.lean: `def bijInv (f_bij : Bijective f) (b : β) : α := Fintype.choose (fun a
    # => f a = b) (f_bij.existsUnique b)`, `Fintype.choose` (refused) under another name
    "Fintype.bijInv",
    # Mathlib/Order/Hom/Set.lean: `noncomputable def orderIsoOfSurjective : α ≃o β := (h_mono.orderIso f).trans
    # ..`, `orderIso` being `Equiv.ofInjective` (refused): its `symm` is a preimage picked by choice
    "StrictMono.orderIsoOfSurjective",
    # Mathlib/Data/Finset/Sort.lean: `def orderEmbOfFin (s : Finset α) (h : s.card = k) : Fin k ↪o α :=
    # (orderIsoOfFin s h).toOrderEmbedding.trans ..`, whose `i`-th value is `s.sort[i]` (`Finset.sort` is
    # refused, red team 12): at `0` the least element of `s`, a `Finset.min'`
    "Finset.orderIsoOfFin",
    "Finset.orderEmbOfFin",
)
"""Names that pick a value with a given property: a witness, a least element, a fixed point, a preimage."""

EXTREMAL_ALIASES: Final = (
    # Mathlib/Topology/MetricSpace/Infsep.lean: `noncomputable def einfsep [EDist α] (s : Set α) : ℝ≥0∞ := ⨅ (x
    # ∈ s) (y ∈ s) (_ : x ≠ y), edist x y` and `infsep s` its real value: the least distance between two
    # points of a set, the question "find the minimum distance" as its answer
    "Set.einfsep",
    "Set.infsep",
    # Mathlib/Topology/MetricSpace/HausdorffDistance.lean: `def infNndist (x : α) (s : Set α) : ℝ≥0 :=
    # ENNReal.toNNReal (infEdist x s)`, `Metric.infDist` (refused, red team 14) in `ℝ≥0`
    "Metric.infNndist",
    # Mathlib/Analysis/Analytic/Basic.lean: `def radius (p : FormalMultilinearSeries 𝕜 E F) : ℝ≥0∞ := ⨆ (r :
    # ℝ≥0) (C : ℝ) (_ : ∀ n, ‖p n‖ * (r : ℝ) ^ n ≤ C), (r : ℝ≥0∞)`, a radius of convergence as a supremum
    "FormalMultilinearSeries.radius",
    # Mathlib's exponential characteristic (Mathlib/Algebra/CharP): `noncomputable def ringExpChar : ℕ :=
    # max (ringChar R) 1`, `ringChar` (refused, red team 40) under another name
    "ringExpChar",
    # Mathlib/Topology/MetricSpace/HausdorffDimension.lean: `@[irreducible] noncomputable def dimH (s : Set X) :
    # ℝ≥0∞ := by borelize X; exact ⨆ (d : ℝ≥0) (_ : @hausdorffMeasure X _ _ ⟨rfl⟩ d s = ∞), d`
    "dimH",
)
"""Names that are an infimum or supremum of what the caller gives."""

ANALYSIS_ALIASES: Final = (
    # Mathlib/Analysis/Complex/LocallyUniformLimit.lean: `noncomputable def cderiv (r : ℝ) (f : ℂ → E) (z :
    # ℂ) : E := (2 * π * I : ℂ)⁻¹ • ∮ w in C(z, r), ((w - z) ^ 2)⁻¹ • f w`, the derivative by Cauchy's formula
    "Complex.cderiv",
    # Mathlib/MeasureTheory/Function/LpSeminorm/Defs.lean: `def eLpNorm' (f : α → ε) (q : ℝ) (μ : Measure α) :
    # ℝ≥0∞ := (∫⁻ a, ‖f a‖ₑ ^ q ∂μ) ^ (1 / q)` and `def eLpNorm (f : α → ε) (p : ℝ≥0∞) (μ : Measure α := by
    # volume_tac)`, its `eLpNorm'` for finite `p` (`snorm`, the deprecated alias of 2024-07-26): `eLpNorm f 1`
    # is `∫⁻ ‖f‖` over `volume` without naming it, the integral a question asks for when `f ≥ 0`
    "MeasureTheory.eLpNorm",
    "MeasureTheory.snorm",
    # Mathlib/MeasureTheory/Measure/Hausdorff.lean: `def hausdorffMeasure (d : ℝ) : Measure X := mkMetric fun
    # r => r ^ d` with `scoped[MeasureTheory] notation "μH[" d "]"`; on `ι → ℝ` with `d = card ι` it is
    # `volume` (`hausdorffMeasure_pi_real`), so `μH[2] R` is the area of `R`
    "MeasureTheory.Measure.hausdorffMeasure",
    "μH",
    "μH[",
)
"""The question's integral, derivative or measure by another name: each is an integral or derivative of
what the caller gives, not its value."""
