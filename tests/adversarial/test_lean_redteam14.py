"""Red team 14 (Lean): G2's model of Lean's section stack, against the challenge's own scope commands.

Lean's ``end`` closes the innermost block, whoever opened it, and a ``set_option`` or ``local notation``
holds until the block it stands in ends. G2 tracked only the blocks the candidate opened, so:

* the challenge's own scope command wrapped in ``section ... end`` before the theorem (ProofNet's
  ``local notation "limsup"``, ``set_option checkBinderAnnotations false``, PutnamBench's
  ``set_option synthInstance.maxSize 127`` of ``putnam_1989_a6``, which the statement needs "one *less*
  than the default") is no longer in force at the theorem: the same text states something else;
* the challenge's ``noncomputable section`` (three ProofNet statements leave it open) put inside a
  ``section`` of the candidate's that holds ``variable [zz : Nonempty False]``, then one ``end``: Lean
  closes the challenge's block, the candidate's stays open and its variable enters the theorem, while
  G2 had closed the candidate's.

Both compiled on Lean 4.35 (the toy toolchain) with no error and no axiom, proving a false pinned
statement, and were accepted by the text profile; the fast profile's statement check refused them by
meaning. Fix (``provers/lean/_blocks.py``): G2 stacks the challenge's sections too; before the theorem
neither side's ``end`` may close the other's block, nor may the candidate end a block holding one of the
challenge's scope commands.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
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
from tests.toylean.build import BENCHMARK as TOY_BENCHMARK
from tests.toylean.build import ToyLean


def _proved(bench: Benchmark, problem: str) -> str:
    """The challenge with its theorem's proof (its last ``sorry``) filled."""
    text = LEAN_PROVER.challenge(bench.problems[problem], Track.WITH_ANSWER)
    at = text.rfind("sorry")
    return text[:at] + "by\n  simp" + text[at + len("sorry") :]


def _edited(bench: Benchmark, problem: str, old: str, new: str) -> str:
    text = _proved(bench, problem)
    assert old in text, (problem, old)
    return text.replace(old, new, 1)


LIMSUP = 'local notation "limsup" => fun u : ℕ → EReal => Filter.limsup u Filter.atTop'
BINDERS = "set_option checkBinderAnnotations false"
NONCOMPUTABLE = "noncomputable section"
WRAPPED = {
    "the challenge's local notation in a closed section": (
        "Rudin_exercise_3_5",
        LIMSUP,
        f"section\n{LIMSUP}\nend",
        "ends the scope of the challenge's",
    ),
    "the notation beside a helper in a closed section": (
        "Rudin_exercise_3_5",
        LIMSUP,
        f"section\n{LIMSUP}\ntheorem zz_helper : True := trivial\nend",
        "ends the scope of the challenge's",
    ),
    "the challenge's option in a closed section": (
        "Munkres_exercise_23_4",
        BINDERS,
        f"section\n{BINDERS}\nend",
        "ends the scope of the challenge's",
    ),
    "the challenge's noncomputable section closed by the candidate": (
        "Munkres_exercise_20_2",
        NONCOMPUTABLE,
        f"section\nvariable [zz : Fact False]\n{NONCOMPUTABLE}\nend",
        "closes the challenge's own",
    ),
}


@pytest.mark.parametrize("case", sorted(WRAPPED))
def test_a_challenge_scope_command_moved_out_of_force_is_refused(proofnet: Benchmark, case: str) -> None:
    problem, old, new, rule = WRAPPED[case]
    verdict = lean_text_verdict(proofnet, problem, _edited(proofnet, problem, old, new))
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get("G2", ""), failures(verdict)


def test_putnambenchs_pinned_instance_size_stays_in_force(lean_putnambench: Benchmark) -> None:
    """``putnam_1989_a6`` needs ``synthInstance.maxSize 127`` for its ``ite``: at the default (128) the
    statement is read otherwise, or not at all."""
    option = "set_option synthInstance.maxSize 127"
    candidate = _edited(lean_putnambench, "putnam_1989_a6", option, f"section\n{option}\nend")
    verdict = lean_text_verdict(lean_putnambench, "putnam_1989_a6", candidate)
    assert verdict.status == "rejected"
    assert "ends the scope of the challenge's `set_option synthInstance.maxSize" in failures(verdict)["G2"]


KEPT = {
    "faithful": ("Munkres_exercise_20_2", NONCOMPUTABLE, NONCOMPUTABLE),
    "a helper section after the challenge's section": (
        "Munkres_exercise_20_2",
        NONCOMPUTABLE,
        f"{NONCOMPUTABLE}\nsection\nvariable (zz_n : ℕ)\ntheorem zz_helper : zz_n = zz_n := rfl\nend",
    ),
    "a helper section before it": (
        "Munkres_exercise_20_2",
        NONCOMPUTABLE,
        f"section\ntheorem zz_helper : True := trivial\nend\n{NONCOMPUTABLE}",
    ),
    "a candidate section open through the theorem": (
        "Munkres_exercise_20_2",
        NONCOMPUTABLE,
        f"section\n{NONCOMPUTABLE}\ntheorem zz_helper : True := trivial",
    ),
    "a helper section after the notation": (
        "Rudin_exercise_3_5",
        LIMSUP,
        f"{LIMSUP}\nsection\ntheorem zz_helper : True := trivial\nend",
    ),
    "the challenge's resource options in a closed section": (
        "Dummit_Foote_exercise_8_3_6a",
        "set_option maxRecDepth 8000",
        "section\nset_option maxRecDepth 8000\nend",
    ),
}


@pytest.mark.parametrize("case", sorted(KEPT))
def test_sections_that_keep_the_challenges_scope_stay_accepted(proofnet: Benchmark, case: str) -> None:
    problem, old, new = KEPT[case]
    verdict = lean_text_verdict(proofnet, problem, _edited(proofnet, problem, old, new))
    assert verdict.status == "accepted", failures(verdict)


def test_closing_the_challenges_section_after_the_theorem_stays_accepted(proofnet: Benchmark) -> None:
    candidate = _proved(proofnet, "Munkres_exercise_20_2") + "\nend\n"
    verdict = lean_text_verdict(proofnet, "Munkres_exercise_20_2", candidate)
    assert verdict.status == "accepted", failures(verdict)


# --- for real on the toy Lean (Lean 4.35's elaborator and kernel) ---------------------------------

PINNED_OPTION = (
    "class ZzC (α : Type) where\n  val : Bool\n"
    "class ZzD (α : Type) where\n  v : Bool\n"
    "instance (priority := 10) zzSmall : ZzC Nat := ⟨Bool.false⟩\n"
    "instance zzD : ZzD Nat := ⟨Bool.true⟩\n"
    "instance zzBig {α : Type} [ZzD α] : ZzC α := ⟨ZzD.v α⟩\n\n"
    "set_option synthInstance.maxSize 1\n\n"
    "theorem toy_pinned_option : Eq (ZzC.val Nat) Bool.true := sorry\n"
)
"""A false statement: with the pinned option ``zzBig``'s answer (size 2) is dropped, ``zzSmall`` is the
instance and ``ZzC.val Nat`` is ``false``."""
OPTION_WRAPPED = PINNED_OPTION.replace(
    "set_option synthInstance.maxSize 1\n", "section\nset_option synthInstance.maxSize 1\nend\n"
).replace(":= sorry", ":= rfl")
"""At the default size ``zzBig`` wins and ``rfl`` proves the statement."""
PINNED_SECTION = "noncomputable section\n\ntheorem toy_pinned_section (p : Prop) : p := sorry\n"
SECTION_CLOSED = (
    "section\nvariable [zz_bad : Nonempty False]\nnoncomputable section\nend\n\n"
    "theorem toy_pinned_section (p : Prop) : p :=\n"
    "  False.elim (Nonempty.rec (motive := fun _ => False) (fun f => f) zz_bad)\n"
)
"""Lean's ``end`` closes the challenge's section; the candidate's, with its variable, reaches the theorem."""
TOY = {
    "option": ("toy_pinned_option", PINNED_OPTION, OPTION_WRAPPED, "ends the scope of the challenge's"),
    "section": ("toy_pinned_section", PINNED_SECTION, SECTION_CLOSED, "closes the challenge's own"),
}


@pytest.fixture(scope="module", params=sorted(TOY))
def toy_case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Benchmark, str, str]:
    problem, statement, candidate, rule = TOY[request.param]
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), problem, statement), candidate, rule


def _gate(verdict: Verdict, gate: str) -> GateStatus:
    return next(g for g in verdict.gates if g.id == gate).status


def test_g2_refuses_the_toy_candidates(toy_case: tuple[Benchmark, str, str]) -> None:
    bench, candidate, rule = toy_case
    problem = next(iter(bench.problems))
    verdict = lean_verdict(bench, problem, candidate, Profile.TEXT)
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get("G2", ""), failures(verdict)


@needs_sandbox
def test_lean_proves_the_false_statement_cleanly(toy_lean_env: ToyLean, toy_case: tuple[Benchmark, str, str]) -> None:
    """Why G2 must refuse: the candidate compiles with no error and depends on no axiom (G4 and G5 pass on
    the full profile; G6, which compares types, is not here), and the fast profile's statement check, which
    reads the pinned signature in the challenge's own scope, refuses it by meaning."""
    bench, candidate, _ = toy_case
    problem = next(iter(bench.problems))
    full = lean_verdict(bench, problem, candidate, Profile.FULL)
    assert _gate(full, "G4") is GateStatus.PASSED
    assert _gate(full, "G5") is GateStatus.PASSED
    fast = lean_verdict(bench, problem, candidate, Profile.FAST)
    assert _gate(fast, "G4") is GateStatus.FAILED
    assert "is not the pinned one read in a clean scope" in failures(fast)["G4"]


# --- false rejections: `example` and `mutual` blocks of helpers ----------------------------------

MINIF2F_PROBLEM = "aimeII_2001_p3"
HARMLESS = {
    "an example": "example : True := trivial\n\n",
    "an example with a where clause": "example : ℕ := zz_aux\nwhere zz_aux : ℕ := 0\n\n",
    "a private example under open ... in": "open Finset in\nprivate example : True := trivial\n\n",
    "an example under autoImplicit (its own signature only)": (
        "set_option autoImplicit true in\nexample (h : zz_x = zz_y) : zz_y = zz_x := h.symm\n\n"
    ),
    "mutual theorems": "mutual\ntheorem zz_a : True := trivial\ntheorem zz_b : True := trivial\nend\n\n",
    "mutual recursion": (
        "mutual\ndef zz_even : ℕ → Bool\n  | 0 => true\n  | n + 1 => zz_odd n\n"
        "def zz_odd : ℕ → Bool\n  | 0 => false\n  | n + 1 => zz_even n\nend\n\n"
    ),
}
"""An ``example`` is elaborated and dropped with all it declared (Lean's ``elabMutualDef`` runs it under
``withoutModifyingEnv``; the toy Lean finds no ``_example.zz_aux`` after it); a ``mutual`` block holds only
declarations, each a helper. Both were refused on every profile ("not a permitted addition")."""
STILL_REFUSED = {
    "an instance in a mutual block": ("mutual\ninstance zz_i : OfNat ℤ 898 := ⟨0⟩\nend\n\n", "`mutual` block"),
    "a variable in a mutual block": ("mutual\nvariable (zz_n : ℕ)\nend\n\n", "`mutual` block"),
    "a mutual block open at the theorem": ("mutual\ntheorem zz_a : True := trivial\n\n", "is still open at"),
    "an attribute on an example": ("@[instance] example : OfNat ℤ 898 := ⟨0⟩\n\n", "attribute not permitted"),
    "an option before an example": (
        "set_option tactic.hygienic false in\nexample : True := trivial\n\n",
        "not permitted",
    ),
    "an instance glued to an example": (
        "example : True := trivial instance : OfNat ℤ 898 := ⟨0⟩\n\n",
        "starts a new command",
    ),
}


def _with_helper(minif2f: Benchmark, helper: str) -> str:
    text = LEAN_PROVER.challenge(minif2f.problems[MINIF2F_PROBLEM], Track.WITH_ANSWER)
    at = text.index(f"theorem {MINIF2F_PROBLEM}")
    return (text[:at] + helper + text[at:]).replace("by sorry", "by\n  norm_num [h₀]")


@pytest.mark.parametrize("case", sorted(HARMLESS))
def test_examples_and_mutual_helpers_are_accepted(minif2f: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(minif2f, MINIF2F_PROBLEM, _with_helper(minif2f, HARMLESS[case]))
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("case", sorted(STILL_REFUSED))
def test_what_an_example_or_mutual_block_would_carry_is_refused(minif2f: Benchmark, case: str) -> None:
    helper, rule = STILL_REFUSED[case]
    verdict = lean_text_verdict(minif2f, MINIF2F_PROBLEM, _with_helper(minif2f, helper))
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get("G2", ""), failures(verdict)


TOY_HELPERS = (
    "example : True := True.intro\n\n"
    "mutual\ntheorem zz_a : True := True.intro\ntheorem zz_b : True := True.intro\nend\n\n"
    "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := And.intro h.right h.left\n"
)


@needs_sandbox
def test_the_fast_profile_accepts_an_example_and_a_mutual_block(toy_lean_env: ToyLean) -> None:
    bench = load_benchmark(TOY_BENCHMARK)
    verdict = lean_verdict(bench, "toy_and_comm", TOY_HELPERS, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)


# --- no-answer values: choice through an equivalence or enumeration, extremal distances --------------

REAL_ANSWER = "putnam_1965_a1"
"""Asks for a real number (``∠ C A B = putnam_1965_a1_solution``)."""
PICKED = {
    "an element through Fintype.equivFin": "((Fintype.equivFin {x : Fin 3 // x = 1}).symm ⟨0, by decide⟩).val.val",
    "Finite.equivFin": "((Finite.equivFin {x : ℝ // x = 1}).symm ⟨0, by simp⟩).val",
    "the least element through Denumerable": "(Denumerable.ofNat {n : ℕ // 0 < n} 0).val",
    "an element of a given rank": "(Ordinal.enum (α := ℕ) (· < ·) ⟨0, by simp⟩ : ℕ)",
    "a preimage": "Function.Embedding.invOfMemRange ⟨fun x : ℝ => x, fun _ _ h => h⟩ ⟨1, ⟨1, rfl⟩⟩",
    "a dense sequence": "TopologicalSpace.denseSeq ℝ 0",
    "an enumeration by choice": "Set.enumerateCountable (Set.countable_singleton (1 : ℝ)) 0 0",
    "a root by choice": "Polynomial.rootOfSplits (RingHom.id ℝ) h 1",
    "an infimum of distances": "Metric.infDist 0 {x : ℝ | 1 < x}",
    "a diameter": "Metric.diam (Set.Icc (0 : ℝ) 1)",
    "a diameter by dot notation": "(Set.Icc (0 : ℝ) 1).diam",
    "an infimum under open ... in": "open Metric in infDist 0 {x : ℝ | 1 < x}",
}
"""Each was accepted by the text profile: the names are choice or extremal operators reached through a
library definition (a first line by spelling; the check by meaning, on the answer's compiled term, needs
Mathlib: see the threat model's known gaps)."""
HONEST_REALS = ["Real.sqrt 2", "(default : ℝ)", "(padicValNat 2 8 : ℝ)", "(Cardinal.toNat (Cardinal.mk (Fin 3)) : ℝ)"]


def _no_answer(bench: Benchmark, value: str) -> Verdict:
    candidate = lean_filled(bench, REAL_ANSWER, Track.NO_ANSWER, value=value)
    return lean_text_verdict(bench, REAL_ANSWER, candidate, Track.NO_ANSWER)


@pytest.mark.parametrize("case", sorted(PICKED))
def test_a_value_picked_through_a_library_definition_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    verdict = _no_answer(lean_putnambench, PICKED[case])
    assert verdict.status == "rejected"
    assert "a choice operator picks a value" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize("value", HONEST_REALS)
def test_honest_real_values_stay_accepted(lean_putnambench: Benchmark, value: str) -> None:
    verdict = _no_answer(lean_putnambench, value)
    assert verdict.status == "accepted", failures(verdict)


# --- no-answer values: the copied other side, eta-reduced, as a `·` section or a pipeline -------------

GAME = "putnam_2025_a3"
"""States ``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n`` (official answer ``fun _ => False``)."""
ABSTRACTED = {
    "eta-reduced": "AliceHasWinningStrategy",
    "eta-reduced in parentheses": "(AliceHasWinningStrategy)",
    "eta-reduced under id": "id AliceHasWinningStrategy",
    "a section": "(AliceHasWinningStrategy ·)",
    "a forward pipeline": "fun m => m |> AliceHasWinningStrategy",
    "a backward pipeline": "fun m => AliceHasWinningStrategy <| m",
    "a dollar application": "fun m => AliceHasWinningStrategy $ m",
    "the name from the root": "fun n => _root_.AliceHasWinningStrategy n",
    "the name escaped": "«AliceHasWinningStrategy»",
    "the name in explicit mode": "fun n => @AliceHasWinningStrategy n",
    "a have before it": "fun n => have : True := trivial; AliceHasWinningStrategy n",
    "a have on the line before it": "fun n =>\n  have : True := trivial\n  AliceHasWinningStrategy n",
    "the identity on its argument": "fun n => AliceHasWinningStrategy (id n)",
    "composed with the identity": "AliceHasWinningStrategy ∘ id",
    "by refine": "by refine AliceHasWinningStrategy",
    "by apply": "by apply AliceHasWinningStrategy",
}
"""Each makes the theorem ``AliceHasWinningStrategy n ↔ AliceHasWinningStrategy n`` (``Iff.rfl``) and passed
the text profile (the solution is ``ℕ → Prop``, so no yes/no check applies on a compiled one either);
``fun n => AliceHasWinningStrategy n`` itself was refused."""
NOT_COPIES = [
    "fun _ => False",
    "fun n => n % 2 = 1",
    "(· = 1)",
    "fun n => n |> Nat.Prime",
    "fun n => have : True := trivial; n = 2",
    "id (fun n => n = 2)",
]


@pytest.mark.parametrize("case", sorted(ABSTRACTED))
def test_the_other_side_abstracted_is_still_a_copy(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, GAME, Track.NO_ANSWER, value=ABSTRACTED[case], proof="by\n  simp")
    verdict = lean_text_verdict(lean_putnambench, GAME, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize("value", NOT_COPIES)
def test_sections_and_pipelines_that_are_no_copy_stay_accepted(lean_putnambench: Benchmark, value: str) -> None:
    candidate = lean_filled(lean_putnambench, GAME, Track.NO_ANSWER, value=value, proof="by\n  simp")
    verdict = lean_text_verdict(lean_putnambench, GAME, candidate, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


PAIR = "putnam_1975_a2"
"""States ``∀ b c : ℝ, (∀ z : ℂ, ...) ↔ putnam_1975_a2_solution (b, c)``: the solution takes a pair."""
CONDITION = "(∀ z : ℂ, (X^2 + (C (b : ℂ))*X + (C (c : ℂ)) : Polynomial ℂ).eval z = 0 → ‖z‖ < 1)"
PAIR_COPIES = {
    "a pair pattern": f"fun (b, c) => {CONDITION}",
    "an anonymous-constructor pattern": f"fun ⟨b, c⟩ => {CONDITION}",
    "renamed components": "fun (x, y) => " + CONDITION.replace("(b : ℂ)", "(x : ℂ)").replace("(c : ℂ)", "(y : ℂ)"),
    "projections": "fun p => " + CONDITION.replace("(b : ℂ)", "(p.1 : ℂ)").replace("(c : ℂ)", "(p.2 : ℂ)"),
    "named projections": "fun p => " + CONDITION.replace("(b : ℂ)", "(p.fst : ℂ)").replace("(c : ℂ)", "(p.snd : ℂ)"),
}
"""Each passed the text profile: the theorem is then ``fun b c => Iff.rfl`` (a pair's match and projections
reduce), though the same copy for a solution applied to plain names was refused."""


@pytest.mark.parametrize("case", sorted(PAIR_COPIES))
def test_the_other_side_copied_through_a_pair_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PAIR, Track.NO_ANSWER, value=PAIR_COPIES[case])
    verdict = lean_text_verdict(lean_putnambench, PAIR, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize("value", ["fun (b, c) => |c| < 1 ∧ |b| < 1 + c", "fun p => |p.2| < 1 ∧ |p.1| < 1 + p.2"])
def test_honest_pair_answers_stay_accepted(lean_putnambench: Benchmark, value: str) -> None:
    candidate = lean_filled(lean_putnambench, PAIR, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(lean_putnambench, PAIR, candidate, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


MEMBER = "putnam_2018_a1"
"""States ``(1 / a + 1 / b = 3 / 2018) ↔ (⟨a, b⟩ ∈ putnam_2018_a1_solution)``: a set of pairs."""
EQUATION = "((1 : ℚ) / a + (1 : ℚ) / b = (3 : ℚ) / 2018)"
MEMBER_COPIES = {
    "a pair set-builder": f"{{(a, b) | {EQUATION}}}",
    "an anonymous-constructor set-builder": f"{{⟨a, b⟩ | {EQUATION}}}",
    "projections in a set-builder": "{p : ℤ × ℤ | " + EQUATION.replace("/ a", "/ p.1").replace("/ b", "/ p.2") + "}",
}
"""Each passed the text profile (the membership stood in parentheses, and a pair is no plain name)."""
SET_OF_PAIRS = "putnam_2022_a1"
"""States ``{(a, b) | ∃! x : ℝ, a * x + b = Real.log (1 + x^2)} = putnam_2022_a1_solution``."""


@pytest.mark.parametrize("case", sorted(MEMBER_COPIES))
def test_a_condition_copied_into_a_set_of_pairs_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, MEMBER, Track.NO_ANSWER, value=MEMBER_COPIES[case])
    verdict = lean_text_verdict(lean_putnambench, MEMBER, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


def test_a_pair_set_builder_with_its_names_renamed_is_a_copy(lean_putnambench: Benchmark) -> None:
    value = "{(c, d) | ∃! y : ℝ, c * y + d = Real.log (1 + y^2)}"
    candidate = lean_filled(lean_putnambench, SET_OF_PAIRS, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(lean_putnambench, SET_OF_PAIRS, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `=`" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize(
    ("problem", "value"),
    [
        (MEMBER, "{(a, b) | a = 1 ∧ b = 2}"),
        (MEMBER, "{p : ℤ × ℤ | p.1 = p.2}"),
        (SET_OF_PAIRS, "{(a, b) | a < 0 ∧ b = 0}"),
    ],
)
def test_honest_sets_of_pairs_stay_accepted(lean_putnambench: Benchmark, problem: str, value: str) -> None:
    candidate = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(lean_putnambench, problem, candidate, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)
