"""Red team 10 (Lean): no-answer values that pick "the value with the property" under names and
spellings G2 did not know, each accepted by the text profile before (the answer check can only say
``unknown`` for them, so the verdict was ``accepted``).

* Limits. 26 PutnamBench problems state ``Tendsto u atTop (𝓝 putnam_X_solution)``. The answer
  ``limUnder atTop u`` (Mathlib: ``lim (map u atTop)``, and ``lim f`` is ``Classical.epsilon fun x =>
  f ≤ 𝓝 x``, Mathlib/Topology/Defs/Filter.lean) leaves only convergence to prove, never the value; a
  published "proof" of ``putnam_2015_b6`` in the conformance corpus does exactly that. ``lim``,
  ``Filter.limsup``/``liminf`` (an ``sInf``/``sSup``) and the other extremal and constructive choice
  operators (``PNat.find``, ``Nat.findX``, ``Fintype.choose``, ``Encodable.choose``,
  ``Classical.arbitrary``, ``Function.argmin``, ``Finset.sup'``...) are choice operators by another
  name, like red team 9's ``sInf``.
* ``Exists.choose`` through dot notation with an argument. Red team 9 refused ``(p).choose`` without an
  argument (a binomial always has one); an answer whose type is a function (``ℕ → ℝ`` in
  ``putnam_2006_b6``) writes ``fun k => (p).choose k`` for ``p : ∃ f : ℕ → ℝ, P f``, or binds the proof
  first (``let h := p; fun k => h.choose k``), or takes it from a lemma (``(exists_f k).choose k``):
  Lean resolves the field in the receiver's type's namespace (src/Lean/Elab/App.lean,
  ``resolveLValLoop``), ``Exists`` here. G2 cannot type a receiver, so it keeps the field only where the
  receiver is visibly a number: the answer's own ``fun`` parameters, a finset index, or arithmetic on
  them and numerals (``(n - 1).choose ⌊n / 2⌋₊``, the official answer of ``putnam_1974_a4``).
* The scope of the challenge's other declarations. A theorem means what the definitions and answers it
  uses elaborate to, and G2 checked the ``open``s and section variables in force only at the theorem: a
  ``section`` holding ``open Nat`` (or ``variable [h : Fact False]``) around ``putnam_1997_b1``'s pinned
  ``def dist_to_int``, closed before the theorem, passed the text profile. Each pinned declaration is now
  held to the theorem's rules (an ``open`` left to G6, section variables refused).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.checks import check_preservation
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict
from tests.helpers import (
    LEAN_PROVER,
    failures,
    lean_filled,
    lean_text_verdict,
    lean_verdict,
    needs_sandbox,
    one_record_benchmark,
)
from tests.toylean.build import ToyLean

LIMIT = "putnam_1965_b1"
FUNCTION = "putnam_2006_b6"
_SEQUENCE = (
    "(fun n : ℕ ↦ ∫ x in {x : Fin (n+1) → ℝ | ∀ k : Fin (n+1), x k ∈ Set.Icc 0 1}, "
    "(Real.cos (Real.pi/(2 * (n+1)) * ∑ k : Fin (n+1), x k))^2)"
)


RESTATED = {
    "limUnder of the statement's sequence": (LIMIT, f"limUnder atTop {_SEQUENCE}"),
    "lim of the mapped filter": (LIMIT, f"lim (Filter.map {_SEQUENCE} atTop)"),
    "limsup of the sequence": (LIMIT, f"Filter.limsup {_SEQUENCE} atTop"),
    "liminf as a field": (LIMIT, f"({_SEQUENCE}).liminf atTop"),
    "a parametric limit": (FUNCTION, "fun k => limUnder atTop (fun n : ℕ => (n : ℝ) ^ k)"),
    "PNat.find": (FUNCTION, "fun k => ((PNat.find (⟨1, trivial⟩ : ∃ n : ℕ+, True) : ℕ) : ℝ)"),
    "Nat.findX": (FUNCTION, "fun k => ((Nat.findX (⟨k, rfl⟩ : ∃ n : ℕ, n = k)).1 : ℝ)"),
    "Fintype.choose": (
        FUNCTION,
        "fun k => ((Fintype.choose (fun b : Bool => b = true) ⟨true, rfl, by simp⟩ : Bool).toNat : ℝ)",
    ),
    "Classical.arbitrary": (FUNCTION, "Classical.arbitrary (ℕ → ℝ)"),
    "an instance made from a proof": (
        FUNCTION,
        "@default (ℕ → ℝ) (Classical.inhabited_of_nonempty (⟨fun _ => 0⟩ : Nonempty (ℕ → ℝ)))",
    ),
    "an inverse of a bijection": (
        FUNCTION,
        "(Equiv.ofBijective (fun k : ℕ => k) ⟨fun _ _ h => h, fun k => ⟨k, rfl⟩⟩).symm",
    ),
    "Function.argmin": (FUNCTION, "fun k => (Function.argmin (fun x : ℕ => x) Nat.lt_wfRel.wf : ℝ)"),
    "Finset.sup'": (FUNCTION, "fun k => (Finset.range (k + 1)).sup' ⟨0, by simp⟩ (fun i => (i : ℝ))"),
    "a proof's choose field applied": (FUNCTION, "fun k => (⟨fun _ => 0, trivial⟩ : ∃ f : ℕ → ℝ, True).choose k"),
    "a let-bound proof's choose field": (
        FUNCTION,
        "let h : ∃ f : ℕ → ℝ, True := ⟨fun _ => 0, trivial⟩\n  fun k => h.choose k",
    ),
    "a lemma's choose field": (FUNCTION, "fun k => (exists_nat_gt (k : ℝ)).choose"),
    "a lemma's choose field applied": (FUNCTION, "fun k => (Classical.exists_true_of_nonempty ⟨k⟩).choose k"),
    "an assumption's choose field applied": (
        FUNCTION,
        "have h : ∃ f : ℕ → ℝ, True := ⟨fun _ => 0, trivial⟩\n  fun k => ‹∃ f : ℕ → ℝ, True›.choose k",
    ),
    "a projection's choose field applied": (
        FUNCTION,
        "fun k => (⟨⟨fun _ => 0, trivial⟩, 0⟩ : PProd (∃ f : ℕ → ℝ, True) ℕ).1.choose k",
    ),
    "a sum over proofs": (FUNCTION, "fun k => ∑ h : (∃ f : ℕ → ℝ, True), h.choose k"),
    "a nonempty set's some field applied": (
        FUNCTION,
        "fun k => (⟨fun _ => 0, rfl⟩ : ({fun _ => 0} : Set (ℕ → ℝ)).Nonempty).some k",
    ),
}


@pytest.mark.parametrize("case", sorted(RESTATED))
def test_a_choice_by_another_name_or_spelling_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = RESTATED[case]
    candidate = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, proof="by\n  simp", value=value)
    verdict = lean_text_verdict(lean_putnambench, problem, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "a choice operator picks a value" in failures(verdict).get("G2", ""), failures(verdict)


HONEST = {
    "closed form": (FUNCTION, "fun k => ((k + 1) / k) ^ k"),
    "binomials on parameters and arithmetic": (FUNCTION, "fun k => ((k.choose 2 + (k - 1).choose ⌊k / 2⌋₊ : ℕ) : ℝ)"),
    "binomial of a finset index": (FUNCTION, "fun k => ∑ i ∈ Finset.range k, ((i.choose 2 : ℕ) : ℝ)"),
    "binomial of a Fin index": (FUNCTION, "fun k => ∑ i : Fin (k + 1), (((i : ℕ).choose 2 : ℕ) : ℝ)"),
    "explicit Nat.choose and a numeral receiver": (FUNCTION, "fun k => ((Nat.choose k 2 + (4 : ℕ).choose 2 : ℕ) : ℝ)"),
    "two parameters": (FUNCTION, "fun (k : ℕ) => (((k + 1).choose (k - 1) : ℕ) : ℝ)"),
    "a real closed form": (LIMIT, "1 / 2"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_answers_stay_values(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    candidate = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, proof="by\n  simp", value=value)
    verdict = lean_text_verdict(lean_putnambench, problem, candidate, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


# --- the scope of the challenge's own declarations ------------------------------------------------

DEFINED = "putnam_1997_b1"
"""Declares ``noncomputable def dist_to_int : ℝ → ℝ := fun r => |r - round r|`` before its theorem, which
uses it: the theorem means what that definition elaborates to."""


def _around_definition(bench: Benchmark, before: str, after: str) -> str:
    """The with-answer challenge of ``DEFINED``, proved, with ``before``/``after`` around its definition."""
    text = LEAN_PROVER.challenge(bench.problems[DEFINED], Track.WITH_ANSWER)
    start = text.index("noncomputable def dist_to_int")
    end = text.index("\n/--", start)
    text = text[:start] + before + text[start:end] + after + text[end:]
    return text.replace(":=\nsorry", ":= by\n  simp")


SCOPED = {
    # Lean reads the definition with `Nat` open (src/Lean/Elab/Open.lean): `round`, `|.|` may resolve
    # to another constant, and the theorem then states something else; the block closes before the
    # theorem, so the check at the theorem saw no `open` in force
    "an open in a section around the definition": ("section\nopen Nat\n", "\nend\n"),
    "an open in a named section around it": ("section zz\nopen Real Nat\n", "\nend zz\n"),
    # an instance-implicit section variable whose type names no other variable is added to every
    # declaration of its block (red team 8's finding for the theorem), the pinned definition included
    "a section variable around the definition": ("section\nvariable [h : Fact False]\n", "\nend\n"),
}


@pytest.mark.parametrize("case", sorted(SCOPED))
def test_a_scope_change_around_a_pinned_definition_is_refused_on_text(lean_putnambench: Benchmark, case: str) -> None:
    before, after = SCOPED[case]
    verdict = lean_text_verdict(lean_putnambench, DEFINED, _around_definition(lean_putnambench, before, after))
    assert verdict.status == "rejected"
    assert "`dist_to_int`" in failures(verdict).get("G2", ""), failures(verdict)


def test_an_open_around_a_pinned_definition_is_left_to_g6(lean_putnambench: Benchmark) -> None:
    """Where comparator runs, it compares the definitions the theorem uses (their values), so an ``open``
    around one is its to judge, as one in force at the theorem is."""
    candidate = _around_definition(lean_putnambench, "section\nopen Nat\n", "\nend\n")
    challenge = LEAN_PROVER.challenge(lean_putnambench.problems[DEFINED], Track.WITH_ANSWER)
    assert check_preservation(challenge, candidate, Track.WITH_ANSWER, semantic=True) == []


def test_an_open_around_helpers_closed_before_the_definition_stays_accepted(lean_putnambench: Benchmark) -> None:
    helper = "section\nopen Nat\ntheorem zz_helper (n : ℕ) : n ≤ n + 1 := le_succ n\nend\n\n"
    verdict = lean_text_verdict(lean_putnambench, DEFINED, _around_definition(lean_putnambench, helper, ""))
    assert verdict.status == "accepted", failures(verdict)


def test_an_open_around_a_solution_is_refused_on_text(lean_putnambench: Benchmark) -> None:
    """The answer's type (and, on with-answer, the kept official value) is read in its scope too."""
    candidate = lean_filled(lean_putnambench, "putnam_1965_b1", Track.NO_ANSWER, proof="by\n  simp", value="1 / 2")
    start = candidate.index("noncomputable abbrev putnam_1965_b1_solution")
    end = candidate.index("/--", start)
    candidate = candidate[:start] + "section\nopen Nat\n" + candidate[start:end] + "end\n" + candidate[end:]
    verdict = lean_text_verdict(lean_putnambench, "putnam_1965_b1", candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "in force at `putnam_1965_b1_solution`" in failures(verdict).get("G2", ""), failures(verdict)


# --- the same, for real on the toy Lean (Lean 4.35's elaborator and kernel) -------------------------

SCOPE_STATEMENT = (
    "class ZzC where\n  val : Bool\n"
    "instance zzDefault : ZzC := ⟨Bool.false⟩\n"
    "namespace ZzAlt\nscoped instance (priority := 2000) zzScoped : ZzC := ⟨Bool.true⟩\nend ZzAlt\n"
    "def zz_f : Bool := ZzC.val\n"
    "theorem toy_scope : Eq zz_f Bool.true := sorry\n"
)
"""A false statement: ``zz_f`` is ``ZzC.val`` with the default instance, ``false``."""
SCOPE_CANDIDATE = SCOPE_STATEMENT.replace(
    "def zz_f : Bool := ZzC.val\n", "section\nopen ZzAlt\ndef zz_f : Bool := ZzC.val\nend\n"
).replace(":= sorry", ":= rfl")
"""``open ZzAlt`` activates the scoped instance for the pinned definition only (the section ends before
the theorem): ``zz_f`` becomes ``true`` and ``rfl`` proves the statement."""


@pytest.fixture(scope="module")
def scope_bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_scope", SCOPE_STATEMENT)


def _verify_scope(bench: Benchmark, profile: Profile) -> Verdict:
    return lean_verdict(bench, "toy_scope", SCOPE_CANDIDATE, profile)


def test_g2_refuses_an_open_around_the_pinned_definition(scope_bench: Benchmark) -> None:
    verdict = _verify_scope(scope_bench, Profile.TEXT)
    assert verdict.status == "rejected"
    assert "a global `open` in force at `zz_f`" in failures(verdict).get("G2", ""), failures(verdict)


@needs_sandbox
def test_lean_reads_the_pinned_definition_in_the_candidates_scope(
    toy_lean_env: ToyLean, scope_bench: Benchmark
) -> None:
    """Lean compiles the candidate cleanly (the definition changed, ``rfl`` proves a false statement): only
    a semantic check (G6, which compares the definitions) or G2's rule can refuse it."""
    verdict = _verify_scope(scope_bench, Profile.FULL)
    compiled = next(g for g in verdict.gates if g.id == "G4")
    assert compiled.status is GateStatus.PASSED, compiled.detail
    assert verdict.status != "accepted"
