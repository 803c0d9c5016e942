"""Red team 11 (Lean): no-answer values that restate the question with an operator G2 did not know, and
honest values G2 refused by a name's last part.

* Integrals, series and derivatives. About sixty PutnamBench theorems ask for the value of one
  (``putnam_1980_a3``: ``∫ x in Set.Ioo 0 (Real.pi / 2), 1 / (1 + (Real.tan x) ^ (Real.sqrt 2)) =
  putnam_1980_a3_solution``; ``putnam_1978_b2``: a double ``∑'``; ``putnam_1992_a4``: ``iteratedDeriv k f
  0 = putnam_1992_a4_solution k``). The expression copied as the answer makes the theorem ``rfl``, and
  the text profile accepted it (the answer check can only say ``unknown``). Rocq's G4 refuses the same
  class (Coquelicot's ``RInt``, ``Series``, ``Derive``: ``answer_limit_operators``); Lean's G2 now refuses
  Mathlib's notations (``∫``, ``∑'``, ``∏'``, ``⨍``, ``∮``) and names (``tsum``, ``deriv``,
  ``iteratedDeriv``, ``MeasureTheory.integral``, ``intervalIntegral``...).
* Choice through a library definition: ``Function.invFunOn f s b`` and ``Function.extend`` pick an ``a``
  with ``f a = b`` by ``Classical.choose``; ``Nat.nth p 0`` is the least ``n`` with ``p n`` (an ``sInf``),
  ``Nat.Subtype.ofNat s 0`` the least element of ``s``; ``Set.rangeSplitting`` a preimage; Mathlib's
  ``inhabit`` tactic turns a proof of ``Nonempty {x // P x}`` into an ``Inhabited`` instance, whose
  ``default`` is then "an ``x`` with ``P x``" (``Classical.inhabited_of_nonempty`` unwritten).
* The false rejection: ``min a b`` (``Min.min``) and ``some x`` (``Option.some``) were refused as choice
  operators, because the extremal field rule read any name whose last part is ``min`` (``WellFounded.min``)
  or ``some`` (``Nonempty.some``), bare names included. A bare name is what it resolves to (the choice
  rule already resolves it in the open namespaces); only a field (``s.min``, ``(s).min``) is judged by
  its last part.
* A redex: ``(fun h : ∃ f, P f => fun k => h.choose k) p`` passed, since the field rule took the
  leading ``fun``'s parameters for the answer's own arguments; only a ``fun`` that is the whole value
  (parentheses around all of it allowed) binds them now.
* Auxiliary declarations under the solution's name: a ``where`` clause or ``let rec`` in the value of
  ``putnam_2015_a2_solution`` declares ``putnam_2015_a2_solution.Prime``, which the statement's
  ``putnam_2015_a2_solution.Prime`` (``Nat.Prime`` by field notation) then resolves to: ``True``. The
  text profile accepted it, and so did the fast profile where the statement declares a definition
  (its statement check then reads the signature in the candidate's environment; toy Lean below).
* ``stop``, core Lean's ``repeat sorry`` (Init/Tactics.lean): ``by stop`` then anything was accepted by
  the text profile (G3 knew ``sorry`` and ``admit``; G4 and G5 see the ``sorryAx``).
* The pipeline's field access. ``e |>.f`` is ``e.f``: ``(p : ∃ f : ℕ → ℝ, P f) |>.choose`` (with or
  without an argument) was accepted, since the field rules looked only at a ``.`` glued to the name.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.helpers import (
    failures,
    lean_filled,
    lean_text_verdict,
    lean_verdict,
    needs_sandbox,
    one_record_benchmark,
)
from tests.toylean.build import ToyLean

INTEGRAL = "putnam_1980_a3"
SERIES = "putnam_1978_b2"
DERIVATIVES = "putnam_1992_a4"
FUNCTION = "putnam_2006_b6"


def _no_answer(bench: Benchmark, problem: str, value: str, proof: str = "by\n  rfl") -> tuple[str, dict[str, str]]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, proof=proof, value=value)
    verdict = lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)
    return verdict.status, failures(verdict)


RESTATED = {
    "the statement's integral copied": (
        INTEGRAL,
        "∫ x in Set.Ioo 0 (Real.pi / 2), 1 / (1 + (Real.tan x) ^ (Real.sqrt 2))",
    ),
    "the integral by its name": (
        INTEGRAL,
        "MeasureTheory.integral (MeasureTheory.volume.restrict (Set.Ioo 0 1)) (fun x : ℝ => x)",
    ),
    "an interval integral under open ... in": (
        INTEGRAL,
        "open MeasureTheory in intervalIntegral (fun x : ℝ => x) 0 1 volume",
    ),
    "a volume's real field": (INTEGRAL, "open MeasureTheory in volume.real (Set.Icc (0 : ℝ) 1)"),
    "the statement's series copied": (SERIES, "∑' i : ℕ+, ∑' j : ℕ+, (1 : ℚ) / (i ^ 2 * j + 2 * i * j + i * j ^ 2)"),
    "tsum by name": (SERIES, "tsum fun i : ℕ+ => (1 : ℚ) / i ^ 2"),
    "a product series": (SERIES, "∏' i : ℕ+, (1 : ℚ)"),
    "the derivatives": (DERIVATIVES, "fun k => iteratedDeriv k (fun x : ℝ => 1 / (1 + x ^ 2)) 0"),
    "deriv": (INTEGRAL, "deriv (fun x : ℝ => Real.sin x) 0"),
    "Nat.nth": (INTEGRAL, "((Nat.nth (fun n => 3 < n) 0 : ℕ) : ℝ)"),
    "Nat.Subtype.ofNat": (INTEGRAL, "((Nat.Subtype.ofNat {n : ℕ | 3 < n} 0 : ℕ) : ℝ)"),
    "Function.invFunOn": (INTEGRAL, "Function.invFunOn (fun _ : ℝ => (0 : ℕ)) {x : ℝ | 0 < x} 0"),
    "Function.extend": (INTEGRAL, "Function.extend (fun x : {x : ℝ // 0 < x} => ()) (fun x => x.1) (fun _ => 0) ()"),
    "Set.rangeSplitting": (INTEGRAL, "(Set.rangeSplitting (fun x : {x : ℝ // 0 < x} => ()) ⟨(), ⟨1, by simp⟩, rfl⟩).1"),
    "Equiv.ofInjective's inverse": (
        INTEGRAL,
        "((Equiv.ofInjective (fun x : {x : ℝ // 0 < x} => ()) (fun a b _ => Subsingleton.elim a b)).symm "
        "⟨(), 1, rfl⟩).1",
    ),
    "an infinite set's embedding": (INTEGRAL, "(Set.Infinite.natEmbedding {x : ℝ | 0 < x} (Set.Ioi_infinite 0) 0).1"),
    "Quotient.out'": (INTEGRAL, "(Quotient.out' (Quotient.mk'' (1 : ℝ)) : ℝ)"),
    "the inhabit tactic": (
        INTEGRAL,
        "by\n  have h : Nonempty {x : ℝ // 0 < x} := ⟨⟨1, one_pos⟩⟩\n  inhabit {x : ℝ // 0 < x}\n  exact default.1",
    ),
}

CHOICE_INSIDE = {
    "Nat.nth",
    "Nat.Subtype.ofNat",
    "Function.invFunOn",
    "Function.extend",
    "Set.rangeSplitting",
    "Equiv.ofInjective's inverse",
    "an infinite set's embedding",
    "Quotient.out'",
    "the inhabit tactic",
}
"""The cases of ``RESTATED`` that pick a value by choice inside a library definition (the others copy the
question's integral, series or derivative): each must be refused by its own rule."""


@pytest.mark.parametrize("case", sorted(RESTATED))
def test_an_answer_written_with_the_question_operator_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = RESTATED[case]
    status, why = _no_answer(lean_putnambench, problem, value)
    assert status == "rejected", why
    rule = "a choice operator" if case in CHOICE_INSIDE else "the integral, series or derivative itself"
    assert rule in why.get("G2", ""), why


HONEST = {
    "the official integral value": (INTEGRAL, "Real.pi / 4"),
    "a binary min": (INTEGRAL, "min (Real.pi / 4) 1"),
    "Min.min and max": (INTEGRAL, "Min.min (Real.pi / 4) (max 0 1)"),
    "an option's value": (INTEGRAL, "(some (Real.pi / 4)).getD 0"),
    "Option.some": (INTEGRAL, "(Option.some (Real.pi / 4)).getD 0"),
    "the official series value": (SERIES, "7 / 4"),
    "a finite sum": (SERIES, "∑ i ∈ Finset.range 3, (i : ℚ) / 4 + 1"),
    "the official derivatives": (DERIVATIVES, "fun k ↦ ite (Even k) ((-1) ^ (k / 2) * Nat.factorial k) 0"),
    "a parenthesised lambda's binomial": (DERIVATIVES, "((fun k => ((k.choose 2 : ℕ) : ℝ)))"),
    "a binomial inside min": (DERIVATIVES, "fun k => (min (Nat.choose k 2) 3 : ℝ)"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_answers_stay_values(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    status, why = _no_answer(lean_putnambench, problem, value, proof="by\n  simp")
    assert status == "accepted", why


FIELDS = {
    "a well-founded minimum as a field": (INTEGRAL, "((Nat.lt_wfRel.wf.min {n : ℕ | 3 < n} ⟨4, by simp⟩ : ℕ) : ℝ)"),
    "a finset's min as a glued field": (INTEGRAL, "(((Finset.range 3)).min).getD 0"),
    "a nonempty set's some": (INTEGRAL, "(⟨1, one_pos⟩ : {x : ℝ | 0 < x}.Nonempty).some"),
    "a nonempty set's some through the pipeline": (INTEGRAL, "(⟨1, one_pos⟩ : {x : ℝ | 0 < x}.Nonempty) |>.some"),
    "a finset's min through the pipeline": (INTEGRAL, "((Finset.range 3) |>.min).getD 0"),
    # `e |>.f` is `e.f`: a proof's `choose` field was accepted this way, with or without an argument
    # a leading `fun` that is applied binds whatever it is applied to, not the answer's argument
    "a lambda applied to a proof": (
        FUNCTION,
        "(fun h : ∃ f : ℕ → ℝ, True => fun k => h.choose k) ⟨fun _ => 0, trivial⟩",
    ),
    "a wrapped lambda applied to a proof": (
        FUNCTION,
        "((fun h : ∃ f : ℕ → ℝ, True => fun k => h.choose k) ⟨fun _ => 0, trivial⟩)",
    ),
    "a proof's choose through the pipeline": (FUNCTION, "(⟨fun _ => 0, trivial⟩ : ∃ f : ℕ → ℝ, True) |>.choose"),
    "a proof's choose through the pipeline, applied": (
        FUNCTION,
        "fun k => ((⟨fun _ => 0, trivial⟩ : ∃ f : ℕ → ℝ, True) |>.choose) k",
    ),
    "a proof's choose through the pipeline, with an argument": (
        FUNCTION,
        "fun k => (⟨fun _ => 0, trivial⟩ : ∃ f : ℕ → ℝ, True) |>.choose k",
    ),
}


@pytest.mark.parametrize("case", sorted(FIELDS))
def test_a_choice_or_extremal_field_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = FIELDS[case]
    status, why = _no_answer(lean_putnambench, problem, value)
    assert status == "rejected", why
    assert "a choice operator picks a value" in why.get("G2", ""), why


# --- the challenge's own `open`s, where they stand -------------------------------------------------

OPEN_AFTER = (
    "import Mathlib\nopen Real\n\nnoncomputable def toy_foo : ℝ := π\n\nopen Nat\n\n"
    "theorem toy_open : toy_foo = π := by\n  sorry\n"
)
"""A statement (a client's record: any JSONL of statements is a benchmark) that opens ``Nat`` after its
definition: the definition is read with ``Real`` open only, the theorem with both."""


@pytest.fixture(scope="module")
def open_after(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_open", OPEN_AFTER)


def test_the_statements_own_later_open_is_not_in_force_at_its_definition(open_after: Benchmark) -> None:
    """The faithful copy was refused (every ``open`` of the challenge was expected at the definition)."""
    candidate = OPEN_AFTER.replace("by\n  sorry", "by\n  rfl")
    verdict = lean_text_verdict(open_after, "toy_open", candidate)
    assert verdict.status == "accepted", failures(verdict)


def test_a_later_open_moved_above_the_definition_is_refused_on_text(open_after: Benchmark) -> None:
    """``open Nat`` moved above the definition changes what its names resolve to: it was accepted."""
    candidate = OPEN_AFTER.replace("by\n  sorry", "by\n  rfl").replace("open Real\n", "open Real\nopen Nat\n", 1)
    candidate = candidate.replace("π\n\nopen Nat\n\n", "π\n\n", 1)
    verdict = lean_text_verdict(open_after, "toy_open", candidate)
    assert verdict.status == "rejected"
    assert "in force at `toy_foo`" in failures(verdict).get("G2", ""), failures(verdict)


OPEN_BEFORE_SOLUTION = (
    "import Mathlib\n\ndef toy_one : ℕ := 1\n\nopen Classical\n\n"
    "abbrev toy_choice_solution : ℕ := sorry\n-- 1\n\n"
    "theorem toy_choice : toy_choice_solution = toy_one := by\n  sorry\n"
)


def test_a_bare_choice_name_resolved_through_a_later_open_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``epsilon`` is ``Classical.epsilon`` where the statement opened ``Classical`` before its solution,
    after a definition: only the header's ``open``s were read, so the bare name passed."""
    bench = one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_choice", OPEN_BEFORE_SOLUTION)
    refused = lean_filled(bench, "toy_choice", Track.NO_ANSWER, proof="by\n  rfl", value="epsilon (fun n : ℕ => n = 1)")
    verdict = lean_text_verdict(bench, "toy_choice", refused, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "a choice operator" in failures(verdict).get("G2", ""), failures(verdict)
    honest = lean_filled(bench, "toy_choice", Track.NO_ANSWER, proof="by\n  rfl", value="1")
    verdict = lean_text_verdict(bench, "toy_choice", honest, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


# --- a proof hole by another name ----------------------------------------------------------------


def test_the_stop_tactic_is_a_proof_hole(lean_putnambench: Benchmark) -> None:
    candidate = lean_filled(lean_putnambench, INTEGRAL, proof="by\n  stop\n  simp")
    verdict = lean_text_verdict(lean_putnambench, INTEGRAL, candidate)
    assert verdict.status == "rejected"
    assert "proof hole" in failures(verdict).get("G3", ""), failures(verdict)


def test_the_word_stop_outside_code_stays_accepted(lean_putnambench: Benchmark) -> None:
    proof = 'by\n  -- stop here and simp\n  simp [show "stop" = "stop" from rfl]'
    candidate = lean_filled(lean_putnambench, INTEGRAL, proof=proof)
    verdict = lean_text_verdict(lean_putnambench, INTEGRAL, candidate)
    assert verdict.status == "accepted", failures(verdict)


# --- auxiliary declarations under the solution's name ---------------------------------------------

PRIME = "putnam_2015_a2"
"""States ``... ∧ putnam_2015_a2_solution.Prime ∧ ...``: ``Nat.Prime`` of the answer, by field notation."""
AUXILIARY = {
    "a where clause": "181\nwhere\n  Prime : Prop := True",
    "a let rec": "let rec Prime : Prop := True\n  181",
    "an escaped let rec name": "let rec «Prime» : Prop := True\n  181",
}


@pytest.mark.parametrize("case", sorted(AUXILIARY))
def test_an_auxiliary_declaration_under_a_field_the_statement_uses_is_refused(
    lean_putnambench: Benchmark, case: str
) -> None:
    status, why = _no_answer(lean_putnambench, PRIME, AUXILIARY[case], proof="by\n  simp")
    assert status == "rejected", why
    assert "under the solution's name" in why.get("G2", ""), why


def test_an_auxiliary_declaration_under_another_name_stays_accepted(lean_putnambench: Benchmark) -> None:
    value = "go 3\nwhere\n  go : ℕ → ℕ\n    | 0 => 1\n    | n + 1 => 60 * go n + 1"
    status, why = _no_answer(lean_putnambench, PRIME, value, proof="by\n  simp")
    assert status == "accepted", why


AUX_STATEMENT = (
    "def Nat.Big (n : Nat) : Prop := False\n\n"
    "abbrev toy_big_solution : Nat := sorry\n-- Nat.zero\n\n"
    "theorem toy_big : toy_big_solution.Big := sorry\n"
)
"""A false statement, ``Nat.Big toy_big_solution`` (``False``), which declares a definition before its
theorem: G4's statement check then reads the pinned signature in the candidate's environment."""
AUX_CANDIDATE = (
    "def Nat.Big (n : Nat) : Prop := False\n\n"
    "abbrev toy_big_solution : Nat := Nat.zero\nwhere Big : Prop := True\n\n"
    "theorem toy_big : toy_big_solution.Big := True.intro\n"
)


@pytest.fixture(scope="module")
def aux_bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_big", AUX_STATEMENT)


def test_g2_refuses_the_where_clause_on_the_toy_statement(aux_bench: Benchmark) -> None:
    verdict = lean_verdict(aux_bench, "toy_big", AUX_CANDIDATE, Profile.TEXT, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "under the solution's name" in failures(verdict).get("G2", ""), failures(verdict)


@needs_sandbox
def test_lean_resolves_the_field_to_the_where_clause(toy_lean_env: ToyLean, aux_bench: Benchmark) -> None:
    """Lean 4.35 compiles the candidate cleanly and its theorem proves ``True``: the fast profile's own
    statement check reads the signature in the candidate's environment, so only G2 refuses it (it was
    accepted on the fast profile before)."""
    verdict = lean_verdict(aux_bench, "toy_big", AUX_CANDIDATE, Profile.FAST, Track.NO_ANSWER)
    compiled = next(g for g in verdict.gates if g.id == "G4")
    assert compiled.status is GateStatus.PASSED, compiled.detail
    assert verdict.status == "rejected"
    assert set(failures(verdict)) == {"G2"}, failures(verdict)
