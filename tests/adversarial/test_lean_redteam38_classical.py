"""Classical red team 38 (Lean, no-answer): where ``Classical`` is in force at a value, the decisions red team
37 left unread: ``Finset``'s operations that share ``Set``'s names and notations (``{a, b}``, ``insert``,
``∪``, ``\\``, ``image``, ``Fintype``/``Finset.univ`` of a subtype: a ``DecidableEq`` or ``DecidablePred``
elaborated by ``Classical.propDecidable``), a proposition coerced to ``Bool`` or given as a predicate to a
function no list names (``and (P) true``, ``List.span fun k => ¬P``, ``(¬ · ∈ S)``, ``Finset.subtype {k | P}``,
``f <| P``), and the three statements that open ``Classical`` themselves (``putnam_1964_b4``, ``2016_b2``,
``2022_a4``), whose values were read as if nothing were open.

Now (``_answer_decisions``) a proposition the library does not decide at default priority is refused
wherever Lean may be asked to decide it, whatever function asks: the body of a ``fun`` that is not the
value's own leading one, a bracket group given as an argument, a ``·`` section, a list literal, what follows
``<|``, a set-builder given as an argument; a literal ``{a, b}`` whose elements are not number terms (unless
it is the value itself, of a ``Set`` type), ``∪``/``∩``/``\\``/``∆`` with no ``Set`` beside it, and the
``Finset`` names (``insert``, ``image``, ``univ``, ``Fintype``... but ``Set.``'s). The statement's own ``open
Classical`` counts as the candidate's. And ``open scoped Classical`` opens no name (leanprover/lean4
src/Lean/Elab/Open.lean: ``openScoped`` only activates), nor does any ``open`` reach a receiver's field
(``(n - 1).choose k`` is ``Nat.choose``): ``putnam_1974_a4``'s official answer passes beside either open.

Measured on the tables below (G2 of the full profile): ``ATTACKS`` (24), before 6 refused (the listed names:
``decide``, ``Bool``, ``if``, ``count``, ``takeWhile``) and 18 accepted, now 24 refused; ``HONEST`` (14):
14 accepted before and after. Official answers with ``open scoped Classical`` before the solution: 345 of
346 before, 346 now; with ``open Classical``: 345 before, 346 now. Left: a predicate given by name
(``List.span Nat.Prime``, or a proposition with no symbol: ``fun k => Irrational k``), the library's own
classical instances (``Real.decidableLT``), and ``\\``/``∪`` of two finsets of numbers, refused though
harmless (no ``Set`` beside them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._preservation import check_preservation
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.verdict import Profile
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_PROVER, failures, lean_filled, lean_verdict, putnambench_dir, sampled

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"

LEAST = "putnam_1993_b1"
# the statement's property multiplied out (the copy rule leaves it), as in red teams 36 and 37
P = "(0 < k ∧ ∀ m : ℤ, 0 < m → m < 1993 → ∃ j : ℤ, (m : ℝ) * k < 1993 * j ∧ 1994 * (j : ℝ) < (m + 1) * k)"
SCOPED = "open scoped Classical\n\n"
MATCH = "Nat.rec 0 (fun k acc => match {} with | true => k | false => acc) 4000"

# name: (problem, text put before the solution, value); each must be refused by the full profile's G2
ATTACKS: dict[str, tuple[str, str, str]] = {
    # Finset's operations that share Set's names: a DecidableEq of the elements
    "literal of propositions": (
        LEAST,
        SCOPED,
        f"4000 - ∑ k ∈ Finset.range 4000, (({{{P}, True}} : Finset Prop).card - 1)",
    ),
    "literal of functions": (
        LEAST,
        SCOPED,
        "3987 * (({fun m : ℕ => m * 1994 - 1993 * m, fun _ => 0} : Finset (ℕ → ℕ)).card - 1)",
    ),
    "insert": (LEAST, SCOPED, f"4000 - ∑ k ∈ Finset.range 4000, ((insert {P} ({{True}} : Finset Prop)).card - 1)"),
    "union": (LEAST, SCOPED, f"4000 - ∑ k ∈ Finset.range 4000, ((({{{P}}} : Finset Prop) ∪ {{True}}).card - 1)"),
    "sdiff": (LEAST, SCOPED, f"∑ k ∈ Finset.range 4000, (({{{P}}} : Finset Prop) \\ {{True}}).card"),
    "image": (LEAST, SCOPED, "((Finset.range 4000).image (· * 0)).card * 3987"),
    "Fintype.card of a subtype": (
        LEAST,
        SCOPED,
        f"4000 - Fintype.card {{k : Fin 4000 // {P.replace('k', '(k : ℕ)')}}}",
    ),
    "Finset.univ of a subtype": (LEAST, SCOPED, f"(Finset.univ : Finset {{k : Fin 4000 // {P}}}).card"),
    # a proposition coerced to Bool, or a predicate, given to a function no list names
    "and coerces": (LEAST, SCOPED, MATCH.format(f"and {P} true")),
    "not coerces": (LEAST, SCOPED, MATCH.format(f"not {P}")),
    "after <|": (LEAST, SCOPED, MATCH.format(f"and true <| {P[1:-1]}")),
    "List.span predicate": (LEAST, SCOPED, f"((List.range 4000).span fun k => ¬{P}).2.headD 0"),
    "pipeline predicate": (LEAST, SCOPED, f"((List.range 4000) |>.span fun k ↦ ¬{P}).2.headD 0"),
    "map then count True": (LEAST, SCOPED, f"4000 - ((List.range 4000).map fun k => {P}).count True"),
    "section": (LEAST, SCOPED, f"((List.range 4000).span (¬ · ∈ {{k : ℕ | {P}}})).2.headD 0"),
    "set-builder as a predicate": (LEAST, SCOPED, f"(Finset.subtype {{k : ℕ | {P}}} (Finset.range 4000)).card"),
    "list literal": (LEAST, SCOPED, f"∑ k ∈ Finset.range 4000, ([{P}].idxOf True)"),
    "ascribed Prop then coerced": (LEAST, SCOPED, MATCH.format(f"and ({P[1:-1]} : Prop) true")),
    "set-builder as a Finset": (LEAST, SCOPED, f"4000 - (({{k : ℕ | {P}}} : Finset ℕ)).card"),
    "binder predicate filter": (LEAST, SCOPED, f"4000 - ({{k < 4000 | {P}}} : Finset ℕ).card"),
    "branch coerced": (LEAST, SCOPED, MATCH.format(f"and (if 1 = 1 then {P} else False) true")),
    "match on a proposition": (LEAST, SCOPED, MATCH.format(f"({P} : Bool)").replace(": Bool", ": Prop")),
    # listed before this round (the names)
    "Decidable.decide": (LEAST, SCOPED, f"((List.range 4000).find? fun k => Decidable.decide {P}).getD 0"),
    "Bool ascription": (LEAST, SCOPED, MATCH.format(f"({P} : Bool)")),
    "if h": (LEAST, SCOPED, f"Nat.rec 0 (fun k acc => if h : {P} then k else acc) 4000"),
    # the statements that open Classical themselves
    "1964_b4 searches": (
        "putnam_1964_b4",
        "",
        "fun n => Nat.rec 0 (fun k acc => if ∃ j : ℕ, j * j = k + n then k else acc) 100",
    ),
    "2016_b2 searches": ("putnam_2016_b2", "", "if ∃ n : ℕ, (n : ℝ) * 4 = 3 then (3 / 4, 4 / 3) else (0, 0)"),
    "2022_a4 searches": (
        "putnam_2022_a4",
        "",
        "((List.range 9).find? fun q => ∃ x : ℝ, x * q = 2).getD 0 * Real.exp ((1 : ℝ) / 2) - 3",
    ),
}

# name: (problem, text put before the solution, value); each must pass the full profile's G2
HONEST: dict[str, tuple[str, str, str]] = {
    "literal of numbers": (LEAST, SCOPED, "({3987, 1, 2} : Finset ℕ).sum id - 3"),
    "literal of pairs": (LEAST, SCOPED, "(({(1, 3986), (2, 3)} : Finset (ℕ × ℕ)).card - 1) * 3987"),
    "sum of a lambda": (LEAST, SCOPED, "(Finset.range 2).sum (fun k : ℕ => k * 3987)"),
    "set literal, the value": ("putnam_2007_a1", SCOPED, "{2 / 3, 3 / 2, (13 + √601) / 12, (13 - √601) / 12}"),
    "set literal under fun": ("putnam_2023_a2", SCOPED, "fun n => {(1 : ℝ) / n.factorial, -(1 : ℝ) / n.factorial}"),
    "set union": ("putnam_2007_a1", SCOPED, "{x : ℝ | x = 2 / 3 ∨ x = 3 / 2} ∪ {(13 + √601) / 12, (13 - √601) / 12}"),
    "set of functions": ("putnam_1990_b1", SCOPED, "{f : ℝ → ℝ | ∃ c : ℝ, c ^ 2 = 1990 ∧ f = fun x => c * Real.exp x}"),
    "predicate answer": ("putnam_1975_a2", SCOPED, "fun (b, c) => |c| < 1 ∧ c - 1 < b ∧ b < 1 - c"),
    "ncard of a decided set": (LEAST, SCOPED, "Set.ncard {n : ℕ | n < 5} * 797 + 2"),
    "binder groups": ("putnam_1990_b1", SCOPED, "{f : ℝ → ℝ | ∃ᵉ (c > 0) (d > (0 : ℝ)), f = fun x => c * d * x}"),
    "1974_a4 beside open Classical": (
        "putnam_1974_a4",
        "open Classical\n\n",
        "(fun n ↦ (1 : ℚ) / (2 ^ (n - 1)) * (n * (n - 1).choose ⌊n / 2⌋₊))",
    ),
    "1964_b4 if on ℕ": ("putnam_1964_b4", "", "fun n => if n = 0 then 2 else n ^ 2 - n + 2"),
    "2016_b2 official": ("putnam_2016_b2", "", "(3 / 4, 4 / 3)"),
    "2022_a4 official": ("putnam_2022_a4", "", "2 * Real.exp ((1 : ℝ) / 2) - 3"),
}


def _g2(bench: Benchmark, problem: str, before: str, value: str) -> str:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    solution = parse_statement(candidate).solutions[0].command
    at = solution.tokens[0].offset
    candidate = candidate[:at] + before + candidate[at:]
    return failures(lean_verdict(bench, problem, candidate, Profile.FULL, Track.NO_ANSWER)).get("G2", "")


@pytest.mark.parametrize(
    ("problem", "before", "value"),
    sampled(ATTACKS, {"literal of functions", "union", "and coerces", "List.span predicate", "2016_b2 searches"}),
)
def test_each_classical_decision_is_refused(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert "`Classical` in force at the answer" in _g2(bench, problem, before, value)


@pytest.mark.parametrize(
    ("problem", "before", "value"),
    sampled(HONEST, {"literal of pairs", "set literal under fun", "set union", "1974_a4 beside open Classical"}),
)
def test_each_honest_twin_passes(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert _g2(bench, problem, before, value) == ""


@pytest.mark.parametrize("before", [SCOPED, "open Classical\n\n"], ids=["open scoped", "open"])
def test_every_official_answer_passes_beside_an_open_classical(bench: Benchmark, before: str) -> None:
    """The sweep of red team 37, with either open: every official answer passes G2 as the full profile runs
    it (the three statements that open ``Classical`` themselves included)."""
    refused = set()
    for problem_id, problem in bench.problems.items():
        solutions = parse_statement(problem.formal_statement).solutions
        if len(solutions) != 1:
            continue
        challenge = LEAN_PROVER.challenge(problem, Track.NO_ANSWER)
        candidate = lean_filled(bench, problem_id, Track.NO_ANSWER, value=solutions[0].answer or "")
        at = parse_statement(candidate).solutions[0].command.tokens[0].offset
        candidate = candidate[:at] + before + candidate[at:]
        if check_preservation(challenge, candidate, Track.NO_ANSWER, semantic=True):
            refused.add(problem_id)
    assert refused == set()
