"""Red team 26 (Lean, G2 on no-answer values): an extremum stated by hand, its condition searched in the answer.

Red team 24 made the set of ``IsLeast S solution`` (and kin) a side for the copy rule. Many pinned statements
write the extremum out instead: ``P sol ∧ ∀ a, P a → sol.prod ≥ a.prod`` (``putnam_1979_a1``), ``sol ∈ S ∧ ∀
p ∈ S, p.coeff 4 ≤ sol.coeff 4`` (``putnam_1978_b5``), ``(∀ a, C a → f a ≤ sol k) ∧ ∀ M, M < sol k → ∃ a, C
a ∧ f a > M`` (``putnam_1975_b3``), ``Injective sol ∧ ∀ m, Injective m → g sol ≤ g m`` (``putnam_1985_b1``).
No ``=`` or ``↔`` stands beside the solution there, so a value that searches the condition by an operator G2
does not name (a misspelt or unlisted one, ``List.find?``, ``Fin.find``) passed G2 on both profiles, the
hard half of the theorem then following from the search's specification. Now each premise of an
implication that holds the solution in its conclusion, over its ``∀``'s names, the set of ``sol ∈ S`` and of
a bounded ``∀ x ∈ S,`` around the solution, and the clause after ``∀ M < sol,`` (or ``M < sol →``) are sides
(``_answer_extremal.handwritten_sides``); a field of the solution (``sol.prod``) is a use of it, and a
predicate defined under a bounded binder (``putnam_2014_a6``'s ``∀ k ≥ 1, kex k = ∃ M N, ..``) is read
unfolded in the statement's side.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_extremal import extremal_sides, handwritten_sides
from putnam_solver.core.provers.lean.syntax import code_tokens, normalize_name, parse_statement
from putnam_solver.core.verify import Profile, Track
from tests.helpers import LEAN_PROVER, failures, lean_filled, lean_text_verdict, lean_verdict

C_1979 = "Multiset.card a > 0 ∧ (∀ i ∈ a, i > 0) ∧ a.sum = 1979"
SET_1978 = "{p : Polynomial ℝ | p.degree = 4 ∧ ∀ x ∈ Icc (-1) 1, p.eval x ∈ Icc 0 1}"
C_1975 = "(∀ i ∈ a, i > 0) ∧ card a ≥ k"

SEARCHED = {
    "a named predicate's condition under List.find?": (
        "putnam_1979_a1",
        f"(((List.range 2000).map zzMs).find? (fun a => decide ({C_1979}))).getD 0",
    ),
    "a named predicate's condition under an unlisted argmax": (
        "putnam_1979_a1",
        f"zzArgmax Multiset.prod {{a : Multiset ℕ | {C_1979}}}",
    ),
    "the set of sol ∈ S under a misspelt operator": ("putnam_1978_b5", f"zzArgmax (fun p => p.coeff 4) {SET_1978}"),
    "the set of sol ∈ S, bound variable renamed": (
        "putnam_1978_b5",
        "Clasical.epsilon fun q : Polynomial ℝ => q.degree = 4 ∧ ∀ y ∈ Icc (-1) 1, q.eval y ∈ Icc 0 1",
    ),
    "an upper bound's premise under an unlisted supremum": (
        "putnam_1975_b3",
        f"fun k => zzSup ((fun a => (esymm a k)/(esymm a 1)^k) '' {{a : Multiset ℝ | {C_1975}}})",
    ),
    "a predicate defined under a bounded binder": (
        "putnam_2014_a6",
        "fun n => zzGreatest {k : ℕ | ∃ M N : Fin k → Matrix (Fin n) (Fin n) ℝ, ∀ i j : Fin k, "
        "((∃ p : Fin n, (M i * N j) p p = 0) ↔ i ≠ j)}",
    ),
    "a premise over two names": (
        "putnam_1967_a6",
        "zzSupOver (fun a b : Fin 4 → ℝ => a 0 * b 1 - a 1 * b 0 ≠ 0) zzCount",
    ),
    "a premise beside a field of a pair": (
        "putnam_1970_a3",
        "(zzGreatest fun n : ℕ => (Nat.digits 10 (n^2))[0]! ≠ 0, 1444)",
    ),
    "the clause after M < sol": (
        "putnam_1975_b3",
        "fun k => zzSup {M : ℝ | ∃ a : Multiset ℝ, (∀ i ∈ a, i > 0) ∧ card a ≥ k ∧ (esymm a k)/(esymm a 1)^k > M}",
    ),
    "a premise searched by Fin.find": (
        "putnam_1985_b1",
        "zzArgmin (fun m : Fin 5 → ℤ => (Fin.find fun i : Fin 9 => Injective m ∧ i = i).isSome) {m | Injective m}",
    ),
}


@pytest.mark.parametrize("case", sorted(SEARCHED))
def test_a_hand_written_extremums_condition_held_in_the_answer_is_refused(
    lean_putnambench: Benchmark, case: str
) -> None:
    problem, value = SEARCHED[case]
    text = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    for profile in (Profile.TEXT, Profile.FULL):
        verdict = lean_verdict(lean_putnambench, problem, text, profile, Track.NO_ANSWER)
        assert "statement's own `" in failures(verdict).get("G2", ""), (profile, failures(verdict))


CLOSED = {
    "putnam_1979_a1": "Multiset.replicate 659 3 + Multiset.replicate 1 2",
    "putnam_1978_b5": "C 32 * X ^ 4 - C 32 * X ^ 2 + C 1",
    "putnam_1975_b3": "fun k : ℕ => 1 / (Nat.factorial k : ℝ)",
    "putnam_1985_b1": "fun i => (i : ℤ) - 2",
    "putnam_2014_a6": "fun n : ℕ => n ^ 2",
    "putnam_1967_a6": "8",
    "putnam_1970_a3": "(3, 1444)",
}


@pytest.mark.parametrize("problem", sorted(CLOSED))
def test_a_closed_answer_to_a_hand_written_extremum_passes(lean_putnambench: Benchmark, problem: str) -> None:
    text = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=CLOSED[problem], proof="by\n  simp")
    assert failures(lean_text_verdict(lean_putnambench, problem, text, Track.NO_ANSWER)) == {}


@pytest.mark.parametrize(
    ("theorem", "sides"),
    [
        ("P sol ∧ ∀ m , P m → sol ≤ m", [["{", "m", "|", "P", "m", "}"], ["fun", "m", "=>", "P", "m"]]),
        ("sol ∈ S ∧ T", [["S"]]),
        ("∀ x ∈ S , f x ≤ sol", [["S"]]),
        ("∀ M < sol , ∃ a , M < f a", [["{", "M", "|", "∃", "a", ",", "M", "<", "f", "a", "}"]]),
        ("∀ a b : ℕ , ( C a ∧ D b ) → f a b ≤ sol", [["fun", "a", "b", "=>", "(", "C", "a", "∧", "D", "b", ")"]]),
        ("0 < sol ∧ sol < 1", []),
        ("A → sol = 1", [["A"]]),
        ("f ( sol , 1 ) ≤ 2", []),
    ],
)
def test_the_hand_written_sides_of_a_solution(theorem: str, sides: list[list[str]]) -> None:
    tokens = theorem.split()
    at = len(tokens) - 1 - tokens[::-1].index("sol")
    found = [side for _, side in extremal_sides(tokens, at, at + 1)]
    assert [side for side in sides if side not in found] == [], found
    assert found or not sides
    assert sides or not found


BY_HAND = ["putnam_1967_a6", "putnam_1970_a3", "putnam_1975_b3", "putnam_1978_b5", "putnam_1979_a1", "putnam_2014_a6"]
"""The pinned statements whose solution is compared by order in a conclusion (or premise) by hand."""


@pytest.mark.parametrize("problem", BY_HAND)
def test_every_order_stated_by_hand_gives_a_side(lean_putnambench: Benchmark, problem: str) -> None:
    parsed = parse_statement(LEAN_PROVER.challenge(lean_putnambench.problems[problem], Track.NO_ANSWER))
    theorem = [t.text for t in code_tokens(parsed.theorem.tokens[: parsed.proof_assign])]
    name = normalize_name(parsed.solutions[0].command.name or "")
    uses = [i for i, t in enumerate(theorem) if normalize_name(t).partition(".")[0] == name]
    near = [(i, i + 1 + (theorem[i + 1][:1].isalpha())) for i in uses]
    compared = [(i, end) for i, end in near if {theorem[i - 1], theorem[end]} & {"≤", "<", "≥", ">"}]
    assert any(handwritten_sides(theorem, i, end) for i, end in compared)
