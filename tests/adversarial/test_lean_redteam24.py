"""Red team 24 (Lean, G1-G3 on the text and full profiles, and the no-answer answer rules).

Found and fixed (accepted by G2 and G3 on both profiles before; the full profile's G5 would see
``Lean.ofReduceBool``, the text profile nothing):

* ``decide``'s configuration given whole. Core's ``DecideConfig`` is ``kernel, native, zetaReduce, revert``
  (leanprover/lean4 src/Init/Tactics.lean), and ``valConfigItem`` there takes ``(config := term)``, "sets the
  entire configuration": ``decide (config := ⟨false, true, true, false⟩)`` is ``decide +native`` (the
  compiler evaluates the instance, admitted by ``Lean.ofReduceBool``) with no ``native`` word for G3 to
  see; so are ``.mk false true true false``, ``id ⟨..⟩``, ``{ c with }`` and ``decide!``. G3 now reads a
  ``(config := e)`` item only when ``e`` is a structure instance that names its fields, with no source
  (``_tactic_config``); the published proofs' ``(config := { decide := true })`` stays accepted.

* On no-answer, the set of an extremal statement searched in the answer by an operator G2 does not name:
  against ``putnam_1993_b1``'s ``IsLeast {n : ℕ | ...} putnam_1993_b1_solution``, the value
  ``((Fin.find fun i : Fin 5000 => (i : ℕ) ∈ {n : ℕ | ...}).map Fin.val).getD 0`` (or ``List.find?``, a
  ``Nat.rec`` that keeps the least member, ``Nat.card`` of the set) passed G2 on both profiles: no ``=`` or
  ``↔`` stands beside the solution, so the copy rule had nothing to look for, and the lower bound, the
  problem's hard half, follows from ``Fin.find_min``. The set argument of ``IsLeast``, ``IsGreatest``,
  ``IsLUB``, ``IsGLB``, ``Minimal``, ``Maximal`` right before the solution is now one more side for the copy
  rule (``_answer_extremal``): a value holding it, or its condition, is refused; official answers pass.
  The same for ``Tendsto F l (𝓝 solution)`` (27 problems): ``F`` under an operator G2 does not name (a
  candidate's own or a misspelt one, ``Real.mk ⟨F, h⟩``, the real a rational Cauchy sequence tends to) is
  refused as holding the question's sequence; ``Real.mk`` and ``Real.ofCauchy`` are limit operators by name
  too.

* On no-answer, a value that searches the environment by a tactic the search rule did not list: core's
  ``try?`` (its last resort is ``intros; first | ... | exact?``, src/Lean/Elab/Tactic/Try.lean) and
  Mathlib's ``observe x : Set ℕ`` (``have x : T := by exact?``, Mathlib/Tactic/Observe.lean), then ``exact
  x``: like ``exact?``, they can return a helper of the candidate's that holds the question, with no name
  in the text. Refused now beside ``exact?``, ``apply?``, ``rw?``, ``hint``.

* ``bv_decide?``, core's "suggest a proof script for a ``bv_decide`` call" (src/Std/Tactic/BVDecide/Syntax.lean),
  runs ``bv_decide`` (its proof is ``Lean.ofReduceBool``) and writes an LRAT file beside the source; G3 read
  the token as a name no word matched. Lean's names may end in ``?`` and ``!``, and a library token so
  spelt is read before a name of its length: a name part is now matched with those marks taken off
  (``sorry!``, ``native_decide?`` refused too; ``exact?``, ``simp?``, ``h_sorry?`` kept).

Also tried and refused by G2 or G3, or harmless: see :data:`TRIED` (the attack classes of the brief that
earlier rounds had not covered, each spelled several ways) and ``test_lean_redteam24_tried.py``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean._answer_extremal import extremal_sides
from putnam_solver.core.provers.lean._tactic_config import CONFIG_CONSTRUCT, whole_configs
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict

PROBLEM = "putnam_1962_a1"
HELPER = "theorem zz_h : 2 + 2 = 4 := by\n  {}\n\n"

NATIVE_BY_POSITION = {
    "anonymous constructor": "decide (config := ⟨false, true, true, false⟩)",
    "dot constructor": "decide (config := .mk false true true false)",
    "decide!": "decide! (config := ⟨false, true, true, false⟩)",
    "wrapped in id": "decide (config := id ⟨false, true, true, false⟩)",
    "ascribed": "decide (config := (⟨false, true, true, false⟩ : _))",
    "escaped config": "decide («config» := ⟨false, true, true, false⟩)",
    "no spaces": "decide (config:=⟨false,true,true,false⟩)",
    "on the next line": "decide\n    (config := ⟨false, true, true, false⟩)",
    "after a named item": "decide (kernel := false) (config := ⟨false, true, true, false⟩)",
    "a structure source": "decide (config := { (⟨false, true, true, false⟩ : _) with })",
    "a source and a field": "decide (config := { (⟨false, true, true, false⟩ : _) with kernel := false })",
    "braces then more": "decide (config := {} |> fun _ => ⟨false, true, true, false⟩)",
    "in a discharger": "simp (disch := decide (config := ⟨false, true, true, false⟩))",
    "a let": "decide (config := let c := ⟨false, true, true, false⟩; c)",
    "a term proof": "exact (by decide (config := ⟨false, true, true, false⟩))",
}


@pytest.mark.parametrize("case", sorted(NATIVE_BY_POSITION))
def test_a_tactic_configuration_given_whole_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PROBLEM, before=HELPER.format(NATIVE_BY_POSITION[case]))
    assert CONFIG_CONSTRUCT in failures(lean_text_verdict(lean_putnambench, PROBLEM, text)).get("G3", "")
    full = lean_verdict(lean_putnambench, PROBLEM, text, Profile.FULL)
    assert next(g for g in full.gates if g.id == "G3").status is GateStatus.FAILED


NAMED = {
    "a simp option by name": "simp (config := { decide := true })",
    "two fields": "simp (config := { decide := true, failIfUnchanged := false })",
    "kernel by name": "decide (config := { kernel := true })",
    "plus kernel": "decide +kernel",
    "a named item": "decide (kernel := true)",
    "empty braces": "decide (config := {})",
    # red team 27: a field's value is run by Lean's interpreter, so a `match` or a helper's projection there
    # is now refused (`test_lean_redteam27.py`); only literals stay
    "an argument named like config elsewhere": "exact foo (configs := ⟨1, 2⟩)",
    "config as a plain name": "exact config",
}


@pytest.mark.parametrize("case", sorted(NAMED))
def test_a_configuration_by_field_names_stays_accepted(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PROBLEM, before=HELPER.format(NAMED[case]))
    assert failures(lean_text_verdict(lean_putnambench, PROBLEM, text)) == {}


def test_the_native_field_by_name_is_still_the_native_word() -> None:
    for tactic in ("decide (config := { native := true })", "decide +native", "decide («native» := true)"):
        found = check_forbidden(f"theorem x : 2 + 2 = 4 := by {tactic}\n")
        # red team 50 also reads the guillemet name after `(` as a possible tactic's (`parse`)
        assert "native" in [v.rule.split(":")[0] for v in found], tactic


def test_the_configuration_scan_is_linear_in_nested_items() -> None:
    depth = 3000
    text = "by simp " + "(config := { decide := " * depth + "true" + " })" * depth
    assert whole_configs(lex_code(text)) == []
    assert len(whole_configs(lex_code(text.replace("{ decide := true }", "⟨true⟩")))) == 1


SEARCHED = {
    "Fin.find over the set": (
        "putnam_1993_b1",
        "((Fin.find fun i : Fin 5000 => (i : ℕ) ∈ {n : ℕ | 0 < n ∧ ∀ m ∈ Set.Ioo (0 : ℤ) (1993), ∃ k : ℤ, "
        "(m / 1993 < (k : ℝ) / n) ∧ ((k : ℝ) / n < (m + 1) / 1994) }).map Fin.val).getD 0",
    ),
    "List.find? over the condition": (
        "putnam_2016_a1",
        "((List.range 9000).find? (fun j => decide (0 < j ∧ ∀ P : ℤ[X], ∀ k : ℤ, 2016 ∣ (derivative^[j] P).eval k)"
        ")).getD 0",
    ),
    "a recursion that keeps the least member": (
        "putnam_2016_a1",
        "Nat.rec 0 (fun n r => if n ∈ {j : ℕ | 0 < j ∧ ∀ P : ℤ[X], ∀ k : ℤ, 2016 ∣ (derivative^[j] P).eval k} "
        "then n else r) 9000",
    ),
    "a bound variable renamed": (
        "putnam_2025_a4",
        "((Fin.find fun i : Fin 9000 => ∃ A : Fin 2025 → Matrix (Fin i) (Fin i) ℝ, ∀ a b : Fin 2025, a ≤ b → "
        "(A a * A b = A b * A a ↔ b.val - a.val ∈ ({0, 1, 2024} : Set ℕ))).map Fin.val).getD 0",
    ),
    "IsGreatest's set under an unlisted choice": (
        "putnam_2018_a3",
        "Classical.epsilon fun y => y ∈ {∑ i, Real.cos (3 * x i) | (x : Fin 10 → ℝ) (hx : ∑ i, Real.cos (x i) = 0)}",
    ),
}


@pytest.mark.parametrize("case", sorted(SEARCHED))
def test_an_extremal_statements_set_held_in_the_answer_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = SEARCHED[case]
    text = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    for profile in (Profile.TEXT, Profile.FULL):
        verdict = lean_verdict(lean_putnambench, problem, text, profile, Track.NO_ANSWER)
        assert "statement's own `" in failures(verdict).get("G2", ""), (profile, failures(verdict))


LIMIT = "(fun N ↦ ∏ n ∈ Finset.Icc (2 : ℤ) N, ((n : ℝ) ^ 3 - 1) / (n ^ 3 + 1))"
SEARCHED |= {
    "a limit by an unlisted name": ("putnam_1977_b1", f"zzLimit {LIMIT}"),
    "Real.mk of the rational sequence": (
        "putnam_1977_b1",
        "Real.mk ⟨(fun N ↦ ∏ n ∈ Finset.Icc (2 : ℤ) N, ((n : ℚ) ^ 3 - 1) / (n ^ 3 + 1)) ∘ Int.ofNat, by simp⟩",
    ),
    "the limit of a pair's function": (
        "putnam_1979_b2",
        "fun (a, b) => zzLimit (fun t : ℝ => (∫ x in Icc 0 1, (b*x + a*(1 - x))^t)^(1/t))",
    ),
}

CLOSED = {
    "putnam_1993_b1": "3987",
    "putnam_2016_a1": "8",
    "putnam_2018_a3": "480 / 49",
    "putnam_2025_a4": "(2 * 2025 + 1) / 3",
    "putnam_1992_b1": "fun n => 2 * n - 3",
    "putnam_1977_b1": "2 / 3",
    "putnam_1979_b2": "fun (a, b) => (b ^ b / a ^ a) ^ (1 / (b - a)) / Real.exp 1",
}


@pytest.mark.parametrize("problem", sorted(CLOSED))
def test_a_closed_answer_to_an_extremal_statement_passes(lean_putnambench: Benchmark, problem: str) -> None:
    text = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=CLOSED[problem], proof="by\n  simp")
    assert failures(lean_text_verdict(lean_putnambench, problem, text, Track.NO_ANSWER)) == {}


@pytest.mark.parametrize(
    ("theorem", "sides"),
    [
        ("IsLeast { n | P n } sol", [("IsLeast _ _", ["{", "n", "|", "P", "n", "}"])]),
        ("IsGreatest S ( sol n )", [("IsGreatest _ _", ["S"])]),
        ("_root_.IsLUB ( f '' T ) sol", [("IsLUB _ _", ["(", "f", "''", "T", ")"])]),
        ("foo { n | P n } sol", []),
        ("IsLeast 3 sol", []),
        ("IsLeast ( a ] sol", []),
        ("Tendsto F atTop ( 𝓝 sol )", [("Tendsto _ _ (𝓝 _)", ["F"])]),
        (
            "Tendsto ( fun n => f n ) ( 𝓝[≠] 0 ) ( nhds ( sol ( a , b ) ) )",
            [("Tendsto _ _ (𝓝 _)", ["(", "fun", "n", "=>", "f", "n", ")"])],
        ),
        ("Foo F atTop ( 𝓝 sol )", []),
    ],
)
def test_the_extremal_set_is_the_argument_right_before_the_solution(theorem: str, sides: list[object]) -> None:
    tokens = theorem.split()
    at = tokens.index("sol")
    start = at - (1 if tokens[at - 1] == "(" and tokens[at - 2] != "𝓝" else 0)
    assert extremal_sides(tokens, start) == sides


SEARCH_HELPER = "def zzAns : Set ℕ := {1}\n\n"


def _with_helper(bench: Benchmark, value: str) -> str:
    text = lean_filled(bench, "putnam_2024_a1", Track.NO_ANSWER, value=value, proof="by\n  rfl")
    start = text.index("noncomputable abbrev")
    return text[:start] + SEARCH_HELPER + text[start:]


@pytest.mark.parametrize(
    "value", ["by try?", "by\n  observe x : Set ℕ\n  exact x", "by\n  observe? x : Set ℕ\n  exact x"]
)
def test_a_value_found_by_a_search_tactic_is_refused(lean_putnambench: Benchmark, value: str) -> None:
    text = _with_helper(lean_putnambench, value)
    detail = failures(lean_text_verdict(lean_putnambench, "putnam_2024_a1", text, Track.NO_ANSWER)).get("G2", "")
    assert "searched for in the environment" in detail, detail


@pytest.mark.parametrize("value", ["(fun observe : ℕ => ({observe} : Set ℕ)) 1", "by exact {1}", "{1}"])
def test_a_variable_named_observe_or_a_plain_tactic_stays_accepted(lean_putnambench: Benchmark, value: str) -> None:
    text = _with_helper(lean_putnambench, value)
    assert failures(lean_text_verdict(lean_putnambench, "putnam_2024_a1", text, Track.NO_ANSWER)) == {}


@pytest.mark.parametrize("tactic", ["bv_decide?", "native_decide?", "admit!", "plausible?", "Nat.sorry!", "stop?!"])
def test_a_forbidden_word_ending_in_a_question_or_exclamation_mark_is_refused(tactic: str) -> None:
    assert [v.construct for v in check_forbidden(f"theorem x : True := by {tactic}\n")] == [tactic]


@pytest.mark.parametrize("tactic", ["exact?", "apply?", "simp?", "decide?", "h_sorry?", "hsorry!", "x?", "aesop?"])
def test_other_names_ending_in_those_marks_stay_accepted(tactic: str) -> None:
    assert check_forbidden(f"theorem x : True := by {tactic}\n") == []


CAUCHY_LIMITS = [
    "Real.mk ⟨fun _ => (2 : ℚ) / 3, by simp⟩",
    "(.mk ⟨fun _ => (2 : ℚ) / 3, by simp⟩ : ℝ)",
    "Real.ofCauchy zzCauchy",
    "(.ofCauchy zzCauchy : ℝ)",
]
NAMED_CONSTRUCTORS = ["(Cardinal.toNat (Cardinal.mk (Fin 3)) : ℝ) / 2", "((Prod.mk (2 : ℝ) 3).1 / 3)"]


@pytest.mark.parametrize("value", CAUCHY_LIMITS)
def test_a_real_built_from_a_cauchy_sequence_is_refused_by_name(lean_putnambench: Benchmark, value: str) -> None:
    text = lean_filled(lean_putnambench, "putnam_1977_b1", Track.NO_ANSWER, value=value, proof="by\n  simp")
    assert "G2" in failures(lean_text_verdict(lean_putnambench, "putnam_1977_b1", text, Track.NO_ANSWER))


@pytest.mark.parametrize("value", NAMED_CONSTRUCTORS)
def test_another_types_mk_stays_accepted(lean_putnambench: Benchmark, value: str) -> None:
    """``Real.mk`` made ``mk`` a choice field, which refused ``Cardinal.mk`` and ``Prod.mk``: a field reaches
    ``Real.mk`` only from a value of type ``ℝ``, which is not its argument (a Cauchy sequence)."""
    text = lean_filled(lean_putnambench, "putnam_1977_b1", Track.NO_ANSWER, value=value, proof="by\n  simp")
    assert failures(lean_text_verdict(lean_putnambench, "putnam_1977_b1", text, Track.NO_ANSWER)) == {}
