"""Red team 13 on the no-answer rule that a Lean answer may not copy the statement's other side (G2,
``provers/lean/_answer_copy.py``, ``_answer_unwrap.py``).

The rule read the value's body as written, so the copy wrapped in something that elaborates to the copy
itself passed, and ``rfl`` / ``Iff.rfl`` still proved the theorem from it: ``id e``, ``show T from e``, a
type ascription ``(e : T)``, ``by exact e``, ``let k := m; e``, a beta redex ``fun m => (fun k => e) m``,
``setOf fun Q => c`` for ``{Q | c}``, ``fun R => R ∈ {Q | c}``, and inside the copy the older ``∑ j in
s`` or a binder's type ``∑ (j : ℕ) ∈ s``. Each is read through now, in one linear walk.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_BENCH, assert_linear_work, failures, lean_filled, lean_text_verdict

BENCHMARK = LEAN_BENCH
COPIED = "the answer is the other side of the statement's own"
SUM = "∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j"
COND = "Q.eval 0 = 0 ∧ (∀ x : ℝ, Q.eval (x^2 + 1) = (Q.eval x)^2 + 1)"

WRAPPED = {
    "id": ("putnam_2020_a2", f"fun k => id ({SUM})", "fun k => rfl"),
    "id around the function": ("putnam_2020_a2", f"id (fun k => {SUM})", "fun k => rfl"),
    "show": ("putnam_2020_a2", f"fun k => show ℕ from {SUM}", "fun k => rfl"),
    "show around the function": ("putnam_2020_a2", f"show ℕ → ℕ from fun k => {SUM}", "fun k => rfl"),
    "ascription": ("putnam_2020_a2", f"fun k => ({SUM} : ℕ)", "fun k => rfl"),
    "by exact": ("putnam_2020_a2", f"fun k => by exact {SUM}", "fun k => rfl"),
    "let alias": ("putnam_2020_a2", f"fun m => let k := m; {SUM}", "fun k => rfl"),
    "beta redex": ("putnam_2020_a2", f"fun m => (fun k => {SUM}) m", "fun k => rfl"),
    "older ∑ in": (
        "putnam_2020_a2",
        "fun k => ∑ j in Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j",
        "fun k => rfl",
    ),
    "typed ∑ binder": (
        "putnam_2020_a2",
        "fun k => ∑ (j : ℕ) ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j",
        "fun k => rfl",
    ),
    "setOf": ("putnam_1971_a2", f"setOf (fun Q => {COND})", "Iff.rfl"),
    "setOf without brackets": ("putnam_1971_a2", f"setOf fun Q => {COND}", "Iff.rfl"),
    "membership in the copied set": ("putnam_1971_a2", f"fun R => R ∈ {{Q : Polynomial ℝ | {COND}}}", "Iff.rfl"),
    "set-builder of membership": (
        "putnam_1971_a2",
        f"{{R : Polynomial ℝ | R ∈ {{Q : Polynomial ℝ | {COND}}}}}",
        "Iff.rfl",
    ),
    "ascribed set": ("putnam_1971_a2", f"({{Q | {COND}}} : Set (Polynomial ℝ))", "Iff.rfl"),
}


@pytest.mark.parametrize("case", sorted(WRAPPED))
def test_a_copy_in_a_wrapper_that_elaborates_to_it_is_refused(bench: Benchmark, case: str) -> None:
    problem_id, value, proof = WRAPPED[case]
    candidate = lean_filled(bench, problem_id, Track.NO_ANSWER, proof=proof, value=value)
    verdict = lean_text_verdict(bench, problem_id, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert COPIED in failures(verdict).get("G2", ""), failures(verdict)


HONEST = {
    "the closed form ascribed": ("putnam_2020_a2", "fun k => (4 ^ k : ℕ)"),
    "the closed form under show": ("putnam_2020_a2", "fun k => show ℕ from 4 ^ k"),
    "a let of another value": ("putnam_2020_a2", f"fun m => let k := m + 1; {SUM}"),
    "the official set by membership": ("putnam_1971_a2", "fun R => R ∈ {Q : Polynomial ℝ | Q = Polynomial.X}"),
    "the official set by setOf": ("putnam_1971_a2", "setOf (fun Q => Q = Polynomial.X)"),
}
"""Honest values in the same wrappers (the third shares every token of the other side but its ``k``)."""


@pytest.mark.parametrize("case", sorted(HONEST))
def test_an_honest_value_in_the_same_wrappers_passes_g2(bench: Benchmark, case: str) -> None:
    problem_id, value = HONEST[case]
    candidate = lean_filled(bench, problem_id, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(bench, problem_id, candidate, Track.NO_ANSWER)
    assert "G2" not in failures(verdict), failures(verdict)


STATEMENT = "abbrev t_solution : ℕ → ℕ := sorry\ntheorem t (k : ℕ) : f k = t_solution k := sorry\n"


@pytest.mark.parametrize(
    "wrap",
    ["id ({})", "show ℕ from {}", "({} : ℕ)", "let a := k; {}", "(fun a => {}) k", "fun a => {}", "setOf {}"],
)
def test_deep_wrappers_are_read_in_linear_time(wrap: str) -> None:
    """Wrappers around a copy: the work grows linearly with their number, and 20,000 of them are read
    through (the copy is found)."""
    statement = parse_statement(STATEMENT)

    def read(wrappers: int) -> list[Violation]:
        value = "fun k => f k"
        for _ in range(wrappers):
            value = wrap.format(value)
        return copied_violations(lex_code(value), "t_solution", statement, "t_solution")

    assert_linear_work(read, 100)
    assert read(20_000)


@pytest.mark.parametrize("unit", ["show ", "show ℕ from (", "(a : ℕ)"])
def test_unclosed_or_unmatched_wrappers_are_read_in_linear_time(unit: str) -> None:
    statement = parse_statement(STATEMENT)

    def read(units: int) -> list[Violation]:
        text = "(" * units + "a : ℕ" + ")" * units if unit == "(a : ℕ)" else unit * units
        return copied_violations(lex_code("fun k => " + text + " f k"), "t_solution", statement, "t_solution")

    assert_linear_work(read, 100)
    read(20_000)
