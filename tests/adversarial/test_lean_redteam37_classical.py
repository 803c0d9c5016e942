"""Classical red team 37 (Lean, no-answer): the candidate's own text puts ``Classical`` in force at the
solution, so that ``if P then``, ``decide P``, ``Finset.filter``... elaborate by ``Classical.propDecidable``
with no name in the value to read, and "the least ``n`` with ``P``" is answered by a bounded search that
tests the question's own ``P`` (round 36 refused the decision operators by name and ``open Classical in``
inside a value, and pinned the global ``open`` as left).

How G2 let it through: on a profile that runs G6 a global ``open`` before a value passes when the answer
rules can read it (``_opens_in_force.answer_reads``: every form but ``renaming``), so ``open Classical``,
``open scoped Classical``, ``open Classical hiding ..``, ``open _root_.Classical``, ``open Nat Classical``
or an ``open`` in a ``section`` still open at the solution reached the value unseen; the text profile
refused them all as left to G6. Every other way was refused already (an ``instance``, ``attribute
[instance]``/``[local instance]``, a ``section`` ``variable [∀ p, Decidable p]`` or local instance still open
at the solution, ``open Classical in`` before the solution, ``namespace Classical`` around it, ``export``).
Inside a value, the ``classical`` and ``by_cases`` tactics (which open ``Classical`` themselves) passed on
every profile.

Now ``_answer_decisions`` refuses a value that decides a proposition where the candidate's ``open``s
activate ``Classical`` (``openSimple``, ``openScoped``, ``openHiding``: Lean's ``elabOpenDecl``) and the
statement's do not, or where the value runs the ``classical`` tactic, and refuses a ``by_cases`` tactic in a
value (a classical decision itself) as ``open Classical in``; a condition the
library decides at default priority (a comparison of ``ℕ``/``ℤ``/``ℚ``/``ℝ`` variables the value types,
``Odd`` of an integer, ``[MOD n]``) stays accepted (``_number_decisions``).

Measured on the table below (``SPELLINGS``: 39 attacks on the full profile's G1-G3, ``putnam_1993_b1``):
before, 9 refused (the instance, attribute, section, namespace and ``export`` forms and ``open ..
renaming``) and 30 accepted; now all 39 refused. Honest twins
(``HONEST``, 15): 15 accepted before and after. Every official answer with ``open scoped Classical`` before
its solution: 345 of 346 pass before and after (``putnam_1974_a4``'s bare ``choose`` is read as
``Classical.choose`` there, as before); a first cut that refused every ``if`` refused 10 more. Left: a
statement that opens ``Classical`` itself (``putnam_1964_b4``, ``2016_b2``, ``2022_a4``: their values are read
as before), ``Finset``'s operations that share ``Set``'s names and notations (``{a, b}``, ``insert``,
``∪``, ``image``: a ``DecidableEq`` on the elements), a proposition coerced to ``Bool`` by a function no
list names, and the library's own classical instances (``Real.decidableLT``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_decisions import deciding_token
from putnam_solver.core.provers.lean._preservation import check_preservation
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verdict import Profile
from putnam_solver.core.verify import Track
from tests.helpers import (
    LEAN_PROVER,
    assert_linear_work,
    failures,
    lean_filled,
    lean_verdict,
    putnambench_dir,
    sampled,
)

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"

LEAST = "putnam_1993_b1"
# the statement's property multiplied out (the copy rule leaves it), as in red team 36
P = "(0 < k ∧ ∀ m : ℤ, 0 < m → m < 1993 → ∃ j : ℤ, (m : ℝ) * k < 1993 * j ∧ 1994 * (j : ℝ) < (m + 1) * k)"
SEARCH = f"((List.range 4000).find? fun k => decide {P}).getD 0"
SCOPED = "open scoped Classical\n\n"
CANDIDATE = "puts `Classical` in force at the answer"
OPENS = "the answer opens `Classical`"

# name: (text put before the solution, value); every one must be refused by the full profile's G2
SPELLINGS: dict[str, tuple[str, str]] = {
    # the candidate's global `open`, every form that activates scoped instances
    "open Classical": ("open Classical\n\n", SEARCH),
    "open scoped Classical": (SCOPED, SEARCH),
    "open Classical hiding": ("open Classical hiding choose\n\n", SEARCH),
    "open _root_.Classical": ("open _root_.Classical\n\n", SEARCH),
    "open «Classical»": ("open «Classical»\n\n", SEARCH),
    "open among namespaces": ("open Nat Classical Real\n\n", SEARCH),
    "open scoped among namespaces": ("open scoped Nat Classical\n\n", SEARCH),
    "open then another open": ("open Classical\nopen Nat\n\n", SEARCH),
    "open split over lines": ("open\n  Classical\n\n", SEARCH),
    "open in an enclosing section": ("section\nopen Classical\n\n", SEARCH),
    "open renaming": ("open Classical renaming choose → pick\n\n", SEARCH),
    # what the open lets the value decide
    "if in a recursion": (SCOPED, f"Nat.rec 0 (fun k acc => if {P} then k else acc) 4000"),
    "dite": (SCOPED, f"Nat.rec 0 (fun k acc => dite {P} (fun _ => k) (fun _ => acc)) 4000"),
    "cond": (SCOPED, f"Nat.rec 0 (fun k acc => cond {P} k acc) 4000"),
    "find? coerced to Bool": (SCOPED, f"((List.range 4000).find? fun k => {P}).getD 0"),
    "List.filter": (SCOPED, f"((List.range 4000).filter fun k => {P}).headD 0"),
    "Finset filter notation": (SCOPED, f"4000 - ({{k ∈ Finset.range 4000 | {P}}}).card"),
    "sum with a filter": (SCOPED, f"4000 - ∑ k ∈ Finset.range 4000 with {P}, 1"),
    "Nat.count": (SCOPED, f"4000 - Nat.count (fun k => {P}) 4000"),
    "Fin.find": (SCOPED, f"((Fin.find fun k : Fin 4000 => {P}).map Fin.val).getD 0"),
    "Bool.toNat": (SCOPED, f"4000 - (Finset.range 4000).sum fun k => Bool.toNat ({P} : Bool)"),
    "beq of sets": (SCOPED, f"Bool.toNat ({{k : ℕ | {P}}} == ∅) * 3987"),
    "Or.by_cases": (
        SCOPED,
        f"Nat.rec 0 (fun k acc => (Or.inl trivial : True ∨ {P}).by_cases (fun _ => k) (fun _ => acc)) 4000",
    ),
    "if on a quantifier": (SCOPED, "if ∃ j : ℕ, 1993 < j * j then 3987 else 0"),
    "if on Odd of a real": (SCOPED, "(fun x : ℝ => if Odd x then 3987 else 0) 1"),
    "if on a shadowed binder": (SCOPED, "(fun k : ℕ => (fun k => if k = 1 then 3987 else 0) ({1} : Set ℕ)) 0"),
    "if on a name out of scope": (SCOPED, "((fun k : ℕ => k, if k = 1 then 3987 else 0).2)"),
    "if on an untyped binder": (SCOPED, "Nat.rec 0 (fun k acc => if k = 3 then k else acc) 4000"),
    # the classical tactics inside the value, no open needed
    "classical tactic": ("", f"by classical exact ((List.range 4000).find? fun k => decide {P}).getD 0"),
    "classical tactic on its line": (
        "",
        f"by\n  classical\n  exact Nat.rec 0 (fun k acc => if {P} then k else acc) 4000",
    ),
    "by_cases tactic": ("", f"Nat.rec 0 (fun k acc => by by_cases h : {P}; exact k; exact acc) 4000"),
    # refused before this round too
    "attribute local instance": ("attribute [local instance] Classical.propDecidable\n\n", SEARCH),
    "attribute instance": ("attribute [instance] Classical.propDecidable\n\n", SEARCH),
    "instance": ("noncomputable instance zz_dec (p : Prop) : Decidable p := Classical.propDecidable p\n\n", SEARCH),
    "local instance in a section": (
        "section\nnoncomputable local instance zz_dec (p : Prop) : Decidable p := Classical.propDecidable p\n\n",
        SEARCH,
    ),
    "section variable": ("section\nvariable [∀ p : Prop, Decidable p]\n\n", SEARCH),
    "open in before the solution": ("open Classical in\n", SEARCH),
    "namespace Classical": ("namespace Classical\n\n", SEARCH),
    "export": ("export Classical (propDecidable)\n\n", SEARCH),
}

# name: (problem, text put before its solution, value); each must pass the full profile's G2
HONEST: dict[str, tuple[str, str, str]] = {
    "Aristotle header, a number": (LEAST, SCOPED, "3987"),
    "Aristotle header, if on ℕ": ("putnam_2005_a2", SCOPED, "fun n ↦ if n = 1 then 0 else 2 ^ (n - 2)"),
    "Aristotle header, ite on Odd": (
        "putnam_1992_a3",
        SCOPED,
        "fun m ↦ ite (Odd m) ∅ {(m + 1, 2 ^ (m / 2), 2 ^ (m / 2))}",
    ),
    "Aristotle header, if on ℝ": (
        "putnam_1998_b2",
        SCOPED,
        "fun a b => if a > b then Real.sqrt (2*a^2 + 2*b^2) else 0",
    ),
    "Aristotle header, MOD": ("putnam_2006_a5", SCOPED, "(fun n : ℕ => if (n ≡ 1 [MOD 4]) then n else -n)"),
    "Aristotle header, typed binder": (LEAST, SCOPED, "(fun k : ℕ => if k = 3 then 3987 else 0) 3"),
    "open with only names": (
        LEAST,
        "open Classical (choose)\n\n",
        "((List.range 4000).find? fun k => decide (k = 3987)).getD 0",
    ),
    "open Nat": (LEAST, "open Nat\n\n", "((List.range 4000).find? fun k => decide (k = 3987)).getD 0"),
    "open in a closed section": (LEAST, "section\nopen Classical\nend\n\n", "if 3987 = 3987 then 3987 else 0"),
    "statement opens Classical: extra open": ("putnam_1964_b4", SCOPED, "fun n => n^2 - n + 2"),
    "statement opens Classical: if": (
        "putnam_2022_a4",
        "",
        "if (2 : ℝ) < 3 then 2 * Real.exp ((1 : ℝ) / 2) - 3 else 0",
    ),
    "statement opens Classical: open Classical again": ("putnam_2016_b2", "open Classical\n\n", "(3 / 4, 4 / 3)"),
    "Finset literal": ("putnam_2005_a2", SCOPED, "fun n ↦ (({1, 2} : Finset ℕ).card) ^ n"),
    "no open, decide computable": (LEAST, "", "((List.range 4000).find? fun k => decide (k = 3987)).getD 0"),
    "classical tactic deciding nothing": (LEAST, "", "by classical exact 3987"),
}


def g2(bench: Benchmark, problem: str, before: str, value: str) -> str:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    solution = parse_statement(candidate).solutions[0].command
    at = solution.tokens[0].offset
    candidate = candidate[:at] + before + candidate[at:]
    return failures(lean_verdict(bench, problem, candidate, Profile.FULL, Track.NO_ANSWER)).get("G2", "")


def g2_alone(bench: Benchmark, problem: str, value: str) -> str:
    """``g2`` on ``value`` with nothing written before the solution."""
    return g2(bench, problem, "", value)


@pytest.mark.parametrize(
    ("before", "value"),
    sampled(
        SPELLINGS, {"open scoped Classical", "find? coerced to Bool", "classical tactic", "if on a shadowed binder"}
    ),
)
def test_each_classical_search_is_refused(bench: Benchmark, before: str, value: str) -> None:
    assert g2(bench, LEAST, before, value)


@pytest.mark.parametrize(
    ("before", "value", "said"),
    [
        pytest.param(SCOPED, SEARCH, CANDIDATE, id="the open"),
        pytest.param("", SPELLINGS["by_cases tactic"][1], OPENS, id="the tactic"),
    ],
)
def test_the_refusal_says_why(bench: Benchmark, before: str, value: str, said: str) -> None:
    assert said in g2(bench, LEAST, before, value)


@pytest.mark.parametrize(
    ("problem", "before", "value"),
    sampled(HONEST, {"Aristotle header, if on ℕ", "open with only names", "statement opens Classical: if"}),
)
def test_each_honest_twin_passes(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert g2(bench, problem, before, value) == ""


def test_every_official_answer_passes_beside_the_candidates_open(bench: Benchmark) -> None:
    """The sweep: each official answer with ``open scoped Classical`` before its solution, G2 as the full
    profile runs it; none is refused (``putnam_1974_a4``'s ``(n - 1).choose`` was until red team 38: ``open
    scoped`` opens no name)."""
    assert refused_officials(bench, SCOPED) == set()


def refused_officials(bench: Benchmark, before: str) -> set[str]:
    """The problems whose official answer G2 (as the full profile runs it) refuses with ``before`` put
    before the solution."""
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
    return refused


@pytest.mark.parametrize(
    "unit",
    [
        pytest.param("if n = 1 then 1 else ", id="a chain of conditions"),
        pytest.param("(fun k : ℕ => k + ", id="nested binders"),
        pytest.param("(fun k : ℕ => if k = 1 then 1 else ", id="nested binders and conditions"),
    ],
)
def test_the_reading_is_linear_in_the_value(unit: str) -> None:
    """A hostile value of many binders and conditions: the reading of types and scopes stays linear."""

    def read(n: int) -> object:
        value = lex_code("fun n => " + unit * n + "0" + ")" * (n * unit.count("(")))
        return deciding_token(value, ("ℕ",))

    assert_linear_work(read, 100)
