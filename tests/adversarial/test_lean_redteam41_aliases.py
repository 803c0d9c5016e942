"""Value red team 41 (Lean, no-answer, G2 of the text profile): a scan of Mathlib for choice operators
under another name.

Earlier red teams found library names that are a choice, search or extremal operator one at a time. This
one read Mathlib's definitions whose body applies ``Classical.choose``, ``Nat.find``, ``WellFounded.min``,
``sInf``/``⨅``/``⨆``, ``Trunc.out``, an integral or a derivative to a predicate, set, function or sequence
the caller gives, and that return a value. The names the text profile already refused were left (a
last part it reads as a field: ``Set.Nonempty.some``, ``Set.IsWF.min``, ``CauSeq.lim``, ``MulEquiv
.ofBijective``...); each other one is now listed (``_choice_aliases``, with its definition) and is
refused below, used as a search of ``putnam_1993_b1``'s own property (the least ``n`` with ``P n``), by
its full name, under ``open`` (not ``Classical``'s: opening it is refused already) and through a field
where its first explicit argument has its namespace.

Measured (text profile, G2): ``SEARCHES`` (44) 0 refused before, 44 now; ``HONEST`` (8) accepted before
and now (the stated answer, ``Nat.succ`` and a ``.succ`` field, which share their last part with
``WellFounded.succ``, and closed forms). Official answers 346 of 346 and the verdict snapshot unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._choice_aliases import ANALYSIS_ALIASES, CHOICE_ALIASES, EXTREMAL_ALIASES
from tests.adversarial.test_lean_redteam37_classical import LEAST, P, g2
from tests.helpers import putnambench_dir

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"
PN = P.replace("k", "n")  # the question's property of `n`
PY = P.replace("k", "y")
SET = f"{{n : ℕ | {PN}}}"
MAP = f"(fun n : ℕ => if {PN} then n else n + 1)"  # its fixed points are the `n` with the property
SORRY = "(by sorry)"

# name: (text before the solution, value for `LEAST`), each a search of the question's property
SEARCHES: dict[str, tuple[str, str]] = {
    "WellFounded.succ": ("", f"((WellFounded.succ (by sorry : WellFounded fun a y : ℕ => a < y ∧ {PY}) 0 : ℕ) : ℤ)"),
    "Nat.Subtype.succ": ("", f"((Nat.Subtype.succ (⟨0, by sorry⟩ : {SET}) : ℕ) : ℤ)"),
    "Nat.Subtype.succ by a leading dot": ("", f"((.Subtype.succ (⟨0, by sorry⟩ : {SET}) : ℕ) : ℤ)"),
    "Nat.rfind": ("", f"(((Nat.rfind fun n => ⟨{PN}, fun _ => true⟩).get {SORRY} : ℕ) : ℤ)"),
    "Nat.rfindX": ("", f"(((Nat.rfindX (fun n => ⟨{PN}, fun _ => true⟩) {SORRY}).1 : ℕ) : ℤ)"),
    "Nat.rfindOpt": ("", f"(((Nat.rfindOpt fun n => if {PN} then some n else none).get {SORRY} : ℕ) : ℤ)"),
    "Nat.rfind under open": ("open Nat\n\n", f"(((rfind fun n => ⟨{PN}, fun _ => true⟩).get {SORRY} : ℕ) : ℤ)"),
    "Classical.existsCases": ("", f"((Classical.existsCases (p := fun n : ℕ => {PN}) 0 fun n _ => n : ℕ) : ℤ)"),
    "ContractingWith.fixedPoint": ("", f"((ContractingWith.fixedPoint {MAP} {SORRY} : ℕ) : ℤ)"),
    "ContractingWith.efixedPoint": ("", f"((ContractingWith.efixedPoint {MAP} {SORRY} 0 {SORRY} : ℕ) : ℤ)"),
    "efixedPoint as a field": ("", f"(((by sorry : ContractingWith 1 {MAP}).efixedPoint 0 {SORRY} : ℕ) : ℤ)"),
    "fixedPoint under open": ("open ContractingWith\n\n", f"((fixedPoint {MAP} {SORRY} : ℕ) : ℤ)"),
    "OrderHom.lfp": (
        "",
        f"(((OrderHom.lfp ⟨fun a : ℕ∞ => if ∃ n : ℕ, {PN} ∧ ↑n ≤ a then a else ⊤, {SORRY}⟩).toNat : ℕ) : ℤ)",
    ),
    "OrderHom.gfp": (
        "",
        f"(((OrderHom.gfp ⟨fun a : ℕ∞ => if ∃ n : ℕ, {PN} ∧ ↑n ≤ a then ⊥ else a, {SORRY}⟩).toNat : ℕ) : ℤ)",
    ),
    "lfp under open": (
        "open OrderHom\n\n",
        f"(((lfp ⟨fun a : ℕ∞ => if ∃ n : ℕ, {PN} ∧ ↑n ≤ a then a else ⊤, {SORRY}⟩).toNat : ℕ) : ℤ)",
    ),
    "Submodule.IsPrincipal.generator": (
        "",
        f"((Submodule.IsPrincipal.generator (Ideal.span ({SET}.image (fun n : ℕ => (n : ℤ)))) : ℤ))",
    ),
    "generator under open": ("open Submodule.IsPrincipal\n\n", f"(generator (Ideal.span ((↑) '' {SET})) : ℤ)"),
    "Equiv.Set.imageOfInjOn": (
        "",
        f"(((Equiv.Set.imageOfInjOn (fun n : ℕ => (0 : ℕ)) {SET} {SORRY}).symm ⟨0, {SORRY}⟩ : ℕ) : ℤ)",
    ),
    "Fintype.equivOfCardEq": ("", f"((((Fintype.equivOfCardEq {SORRY} : Fin 1 ≃ {SET}) 0 : ℕ)) : ℤ)"),
    "Fintype.equivFinOfCardEq": ("", f"((((Fintype.equivFinOfCardEq {SORRY} : {SET} ≃ Fin 1).symm 0 : ℕ)) : ℤ)"),
    "Fintype.bijInv": ("", f"(((Fintype.bijInv (f := fun n : {SET} => (0 : Fin 1)) {SORRY} 0 : ℕ)) : ℤ)"),
    "StrictMono.orderIsoOfSurjective": (
        "",
        f"((((StrictMono.orderIsoOfSurjective (fun n : {SET} => (n : ℕ)) {SORRY} {SORRY}).symm 0 : ℕ)) : ℤ)",
    ),
    "orderIsoOfSurjective as a field": (
        "",
        f"((((by sorry : StrictMono fun n : {SET} => (n : ℕ)).orderIsoOfSurjective _ {SORRY}).symm 0 : ℕ) : ℤ)",
    ),
    "Finset.orderEmbOfFin": (
        "",
        f"((Finset.orderEmbOfFin ((Finset.range 4000).filter fun n => {PN}) rfl ⟨0, {SORRY}⟩ : ℕ) : ℤ)",
    ),
    "Finset.orderIsoOfFin": (
        "",
        f"((Finset.orderIsoOfFin ((Finset.range 4000).filter fun n => {PN}) rfl ⟨0, {SORRY}⟩ : ℕ) : ℤ)",
    ),
    "orderEmbOfFin as a field": (
        "",
        f"((((Finset.range 4000).filter fun n => {PN}).orderEmbOfFin rfl ⟨0, {SORRY}⟩ : ℕ) : ℤ)",
    ),
    "Set.einfsep": ("", f"(((Set.einfsep ({{0}} ∪ {SET} : Set ℕ)).toReal : ℝ) : ℤ)"),
    "Set.infsep": ("", f"⌊Set.infsep ((↑) '' ({{0}} ∪ {SET}) : Set ℝ)⌋"),
    "infsep as a field": ("", f"⌊((↑) '' ({{0}} ∪ {SET}) : Set ℝ).infsep⌋"),
    "infsep under open": ("open Set\n\n", f"⌊infsep ((↑) '' ({{0}} ∪ {SET}) : Set ℝ)⌋"),
    "Metric.infNndist": ("", f"⌊(Metric.infNndist 0 ((↑) '' {SET} : Set ℝ) : ℝ)⌋"),
    "infNndist under open": ("open Metric\n\n", f"⌊(infNndist 0 ((↑) '' {SET} : Set ℝ) : ℝ)⌋"),
    "FormalMultilinearSeries.radius": (
        "",
        f"⌊(FormalMultilinearSeries.radius (fun n => if {PN} then 0 else 1 : FormalMultilinearSeries ℝ ℝ ℝ)).toReal⌋",
    ),
    "radius as a field": ("", f"⌊((fun n => if {PN} then 0 else 1 : FormalMultilinearSeries ℝ ℝ ℝ)).radius.toReal⌋"),
    "ringExpChar": ("", "(ringExpChar (ZMod 3987) : ℤ)"),
    "dimH": ("", f"⌊(dimH ((↑) '' {SET} : Set ℝ)).toReal⌋"),
    "Complex.cderiv": ("", "⌊(Complex.cderiv 1 (fun z : ℂ => z ^ 2) 0).re⌋"),
    "cderiv under open": ("open Complex\n\n", "⌊(cderiv 1 (fun z : ℂ => z ^ 2) 0).re⌋"),
    "MeasureTheory.eLpNorm": ("", "⌊(MeasureTheory.eLpNorm (fun x : ℝ => x) 1).toReal⌋"),
    "eLpNorm under open": ("open MeasureTheory\n\n", "⌊(eLpNorm (fun x : ℝ => x) 1).toReal⌋"),
    "eLpNorm'": ("", "⌊(MeasureTheory.eLpNorm' (fun x : ℝ => x) 1 (MeasureTheory.Measure.dirac 0)).toReal⌋"),
    "MeasureTheory.snorm": ("", "⌊(MeasureTheory.snorm (fun x : ℝ => x) 1).toReal⌋"),
    "hausdorffMeasure": ("", "⌊(MeasureTheory.Measure.hausdorffMeasure 1 (Set.Icc (0 : ℝ) 1)).toReal⌋"),
    "μH notation": ("open scoped MeasureTheory\n\n", "⌊(μH[1] (Set.Icc (0 : ℝ) 1)).toReal⌋"),
}
HONEST: dict[str, str] = {
    "stated": "3987",
    "Nat.succ": "(Nat.succ 3986 : ℤ)",
    "a succ field": "((3986 : ℕ).succ : ℤ)",
    "a leading .succ": "((.succ 3986 : ℕ) : ℤ)",  # `Nat.succ`: red team 12's twin, `_NUMBER_SUFFIXES`
    "Fin.succ": "(((3 : Fin 4000).succ : ℕ) : ℤ) + 3983",
    "Real.sqrt": "⌊Real.sqrt 2⌋ + 3986",
    "Nat.minFac": "(Nat.minFac 91 : ℤ) + 3980",
    "Real.log": "⌊Real.log 3⌋ + 3986",
}


@pytest.mark.parametrize(("before", "value"), SEARCHES.values(), ids=SEARCHES.keys())
def test_each_alias_search_is_refused(bench: Benchmark, before: str, value: str) -> None:
    said = g2(bench, LEAST, before, value)
    assert "a choice operator picks" in said or "the integral, series or derivative itself" in said, said


@pytest.mark.parametrize("value", HONEST.values(), ids=HONEST.keys())
def test_honest_twins_pass(bench: Benchmark, value: str) -> None:
    assert g2(bench, LEAST, "", value) == ""


def test_every_listed_alias_is_searched_above() -> None:
    searched = " ".join(f"{k} {v}" for k, (_, v) in SEARCHES.items())
    for name in (*CHOICE_ALIASES, *EXTREMAL_ALIASES, *ANALYSIS_ALIASES):
        assert name.rsplit(".", 1)[-1] in searched, name
