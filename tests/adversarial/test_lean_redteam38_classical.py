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
``<|``, a set-builder not stated as a ``Set`` (Mathlib reads ``({x | p x} : Finset α)`` as a filter); a
literal ``{a, b}`` (or ``{fun ..}``) whose elements are not number terms (unless the value states it as a
``Set``), ``∪``/``∩``/``\\``/``∆`` with no ``Set`` beside it, a ``Finset (ℕ → ℕ)`` or ``Finset Prop``, and
the ``Finset`` names (``insert``, ``image``, ``univ``, ``Fintype``... but ``Set.``'s). The statement's own ``open
Classical`` counts as the candidate's. And ``open scoped Classical`` opens no name (leanprover/lean4
src/Lean/Elab/Open.lean: ``openScoped`` only activates), nor does any ``open`` reach a receiver's field
(``(n - 1).choose k`` is ``Nat.choose``): ``putnam_1974_a4``'s official answer passes beside either open.

Measured on the tables below (G2 of the full profile): ``ATTACKS`` (30), before 7 refused (5 by the names
listed in red teams 36-37: ``decide``, ``Bool``, ``if``, ``count``, ``idxOf``; 2 by the extremal ``sup``) and 23
accepted, now 30 refused, each as a classical decision; ``HONEST`` (14): 13 accepted before (``putnam_1974_a4``
beside ``open Classical`` was refused for its ``(n - 1).choose``), 14 now. Official answers with ``open scoped
Classical`` before the solution: 345 of 346 before, 346 now; with ``open Classical``: 345 before, 346 now.
Left: a proposition with no symbol given as a predicate (``fun k => Irrational k``) or a predicate given by
its name (``List.span Nat.Prime``), the library's own classical instances (``Real.decidableLT``), and
``\\``/``∪`` of two finsets of numbers, refused though harmless (no ``Set`` beside them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_decisions import deciding_token
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam37_classical import LEAST, SCOPED, P, g2, refused_officials
from tests.helpers import assert_linear_work, putnambench_dir, sampled

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"

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
    "sup of function singletons": (
        LEAST,
        SCOPED,
        "3987 * ((Finset.range 2).sup fun k => ({fun m : ℕ => m * k - 1993 * m} : Finset (ℕ → ℕ))).card",
    ),
    "singleton of a function": (
        LEAST,
        SCOPED,
        "3987 * (Finset.range 2).card - ((Finset.range 2).sup fun k => {fun m : ℕ => m * k - 1993 * m}).card",
    ),
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


@pytest.mark.parametrize(
    ("problem", "before", "value"),
    sampled(ATTACKS, {"literal of functions", "union", "and coerces", "List.span predicate", "2016_b2 searches"}),
)
def test_each_classical_decision_is_refused(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert "`Classical` in force at the answer" in g2(bench, problem, before, value)


@pytest.mark.parametrize(
    ("problem", "before", "value"),
    sampled(HONEST, {"literal of pairs", "set literal under fun", "set union", "1974_a4 beside open Classical"}),
)
def test_each_honest_twin_passes(bench: Benchmark, problem: str, before: str, value: str) -> None:
    assert g2(bench, problem, before, value) == ""


def test_every_official_answer_passes_beside_open_classical(bench: Benchmark) -> None:
    """Red team 37's sweep with ``open Classical`` (which opens names too): none is refused, the three
    statements that open ``Classical`` themselves included (red team 37's sweep: ``open scoped``)."""
    assert refused_officials(bench, "open Classical\n\n") == set()


@pytest.mark.parametrize(
    "unit",
    [
        pytest.param("f (fun k : ℕ => k = 1 ∧ ", id="nested predicates"),
        pytest.param("g {x : ℕ | x = 1 ∧ ", id="nested set-builders"),
        pytest.param("h ({1, 2} ∪ ", id="nested unions"),
        pytest.param("if n = 1 then (", id="nested branches"),
    ],
)
def test_the_reading_of_places_is_linear_in_the_value(unit: str) -> None:
    """A hostile value of many nested places Lean may decide: the reading stays linear."""
    closer = {"(": ")", "{": "}"}

    def read(n: int) -> object:
        closers = "".join(closer[c] for c in reversed(unit * n) if c in closer)
        return deciding_token(lex_code("fun n => " + unit * n + "0" + closers), ("ℕ", "ℕ"))

    assert_linear_work(read, 100)
