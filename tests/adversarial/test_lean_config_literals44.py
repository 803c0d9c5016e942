"""A false rejection found in BFS-Prover-V2's published miniF2F-test proofs (round 44, text
profile), and the bypasses next to the relaxed spot.

``simp (config := {decide := Bool.true}) only [h₁, h₂] at h₃ ⊢`` (its ``amc12b_2002_p7``): G3 reads a
configuration's values, which Lean compiles and runs (``_evaluated``, red team 27), and let through only
literals, among them ``true``/``false``/``none``/``some``; the same constructors by their full names were
refused as names Lean would run. They now pass too, under the condition ``true`` already had: no
declaration of the file may end in ``true`` (or ``false``...), since ``Bool.true`` resolves to a
``Foo.Bool.true`` the candidate declares under ``open Foo`` or inside ``namespace Foo``, and Lean would run
that. Other qualified names stay refused: a field path (``Bool.true.and``), a primed name, ``Nat.Bool.true``.

Measured on the 228 files of the source (``nyc030325/BFS-Prover-V2`` @ ``4ef51ea``): one refused for this
before (``amc12b_2002_p7``), none after; the other refusals are by rule (``native_decide``, older statements,
``elab``/``macro`` commands).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

PROBLEM = "mathd_algebra_17"
RUN = "def zzRun : Bool := false\n\n"

HONEST: dict[str, tuple[str, str]] = {
    # name: (helpers before the theorem, proof)
    "published: decide := Bool.true": ("", "by\n  simp (config := {decide := Bool.true}) only [] at *"),
    "an option by its full constructor name": ("", "by\n  simp (decide := Bool.false)"),
    "with other literal fields": ("", "by\n  simp (config := { maxSteps := 5, decide := Bool.true })"),
    "Option.none and Option.some": ("", "by\n  simp (maxSteps := 5) (zzOpt := Option.none) (zzSome := Option.some 3)"),
    "escaped parts": ("", "by\n  simp (config := {decide := «Bool».true})"),
    "beside a helper of another name": (RUN, "by\n  simp (config := {decide := Bool.true})"),
}
ATTACKS: dict[str, tuple[str, str]] = {
    # name: (helpers before the theorem, proof) where `Bool.true` (or its look-alike) may run the helper
    "a Foo.Bool.true under open Foo": (
        "def Foo.Bool.true : Bool := zzRun\n\nopen Foo\n\n",
        "by\n  simp (config := {decide := Bool.true})",
    ),
    "a Bool.true in a namespace": (
        "namespace Foo\ndef Bool.true : Bool := zzRun\nend Foo\n\nopen Foo\n\n",
        "by\n  simp (decide := Bool.true)",
    ),
    "a root def true": ("def Foo.true : Bool := zzRun\n\nopen Foo\n\n", "by\n  simp (decide := Bool.true)"),
    "a field path after the constructor": ("", "by\n  simp (decide := Bool.true.and zzRun)"),
    "a primed look-alike": ("def Bool.true' : Bool := zzRun\n\n", "by\n  simp (decide := Bool.true')"),
    "a longer qualified name": ("def Nat.Bool.true : Bool := zzRun\n\n", "by\n  simp (decide := Nat.Bool.true)"),
    "Option.some of a helper": ("", "by\n  simp (config := {maxSteps := (Option.some zzRun).get!})"),
}


def _failures(bench: Benchmark, before: str, proof: str) -> dict[str, str]:
    text = lean_filled(bench, PROBLEM, proof=proof, before=before)
    return failures(lean_text_verdict(bench, PROBLEM, text, Track.WITH_ANSWER))


@pytest.mark.parametrize("case", sorted(HONEST))
def test_a_constructor_by_its_full_name_is_a_literal(minif2f: Benchmark, case: str) -> None:
    before, proof = HONEST[case]
    assert _failures(minif2f, before, proof) == {}


@pytest.mark.parametrize("case", sorted(ATTACKS))
def test_a_name_that_may_run_a_helper_stays_refused(minif2f: Benchmark, case: str) -> None:
    before, proof = ATTACKS[case]
    assert "interpreter" in _failures(minif2f, RUN + before, proof).get("G3", "")
