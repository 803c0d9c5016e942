"""Red team 25: a root helper named like a statement's auto-bound variable (miniF2F and ProofNet).

miniF2F's and ProofNet's Lean projects keep Lean's default ``autoImplicit`` (their ``lean_options`` are
empty, and every compiled gate passes the benchmark's own), so a name of the theorem's header that nothing
declares becomes an implicit variable ("Unbound local variables in declaration headers become implicit
arguments", leanprover/lean4 src/Lean/Elab/AutoBound.lean). G2 refuses a root helper named like a name the
statement uses free, but counted as bound every name some binder of the statement binds, wherever it stood:
in ``(h : ∀ x : ℕ, f x = 0) : f x = a * n`` the conclusion's ``x`` is outside the ``∀``'s scope, so
auto-bound, and ``def x : ℕ := 1`` before the theorem (accepted by the text profile) made the conclusion
speak of that constant. Under ``autoImplicit`` G2 now counts a name as free where any occurrence is outside
the scopes of its binders (``Statement.names_used_free``); with ``autoImplicit`` off (PutnamBench) such an
occurrence can only be a declaration, which a root helper makes ambiguous, never replaces, and the old rule
stays. No pinned miniF2F or ProofNet statement binds a name in one place and leaves it free in another
(ProofNet's ``Ireland_Rosen_exercise_2_4`` leaves ``f_a`` wholly unbound: see the ``_tried`` file); a record
sent to ``putnam serve`` or an unpinned file with that format can.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, StatementFormat
from putnam_solver.core.provers.lean.checks import preservation_gate
from putnam_solver.core.provers.lean.syntax import free_occurrences, lex_code, parse_statement
from putnam_solver.core.verify import GateStatus
from tests.helpers import lean_submission, one_record_benchmark

PROBLEM = "zz_auto"
STATEMENT = f"""import Mathlib

theorem {PROBLEM} (f : ℕ → ℕ) (h : ∀ x : ℕ, f x = 0) {{n : ℕ}} (a : ℕ) : f x = a * n := by sorry"""
RULE = "is a name the challenge uses"
DEFAULTS = StatementFormat(answers=False, lean_options=())
"""miniF2F's and ProofNet's format: no options of their own, so Lean's default ``autoImplicit``."""
PUTNAMBENCH = StatementFormat(answers=False, lean_options=(("autoImplicit", False),))


def _g2(tmp_path: Path, form: StatementFormat, helper: str) -> tuple[GateStatus, str]:
    bench = one_record_benchmark(tmp_path, PROBLEM, STATEMENT)
    problem = dataclasses.replace(bench.problems[PROBLEM], format=form)
    candidate = STATEMENT.replace(f"theorem {PROBLEM}", f"{helper}theorem {PROBLEM}").replace(
        "by sorry", "by\n  simp_all"
    )
    result = preservation_gate(lean_submission(bench, problem, candidate, scratch=tmp_path / "scratch"))
    return result.status, result.detail


@pytest.mark.parametrize("helper", ["def x : ℕ := 1\n\n", "private def x : ℕ := 1\n\n", "abbrev «x» : ℕ := 1\n\n"])
def test_a_helper_named_like_an_auto_bound_variable_is_refused(tmp_path: Path, helper: str) -> None:
    status, detail = _g2(tmp_path, DEFAULTS, helper)
    assert status is GateStatus.FAILED and RULE in detail, detail


@pytest.mark.parametrize("name", ["a", "n", "h", "f", "zz_aux"])
def test_helpers_named_like_variables_in_scope_stay_accepted(tmp_path: Path, name: str) -> None:
    status, detail = _g2(tmp_path, DEFAULTS, f"def {name} : ℕ := 1\n\n")
    assert status is GateStatus.PASSED, detail


def test_with_auto_implicit_off_the_rule_is_unchanged(tmp_path: Path) -> None:
    """PutnamBench's format: the conclusion's ``x`` could only be a declaration (the statement would not
    compile otherwise), which a root helper makes ambiguous, not replaces."""
    status, detail = _g2(tmp_path, PUTNAMBENCH, "def x : ℕ := 1\n\n")
    assert status is GateStatus.PASSED, detail


def test_the_registered_formats_say_which_rule_applies(
    minif2f: Benchmark, proofnet: Benchmark, lean_putnambench: Benchmark
) -> None:
    for bench in (minif2f, proofnet):
        assert all("autoImplicit" not in dict(p.format.lean_options) for p in bench.problems.values())
    assert all(dict(p.format.lean_options)["autoImplicit"] is False for p in lean_putnambench.problems.values())


@pytest.mark.parametrize(
    ("statement", "free"),
    [
        ("theorem t (h : ∀ x : ℕ, f x = 0) : f x = 0", ["t", "f", "f", "x"]),
        ("theorem t {n m : ℕ} (h : n > m) : n = n", ["t"]),
        ("theorem t (s : Set ℕ) (h : s = {a + i * d | i : ℕ}) : True", ["t", "a", "d"]),
        ("theorem t (F : {q : ℕ} → (Fin q → ℕ) → ℕ) : F q = 0", ["t", "q"]),
        ("theorem t : ∀ y : ℕ, y = y", ["t"]),
    ],
)
def test_occurrences_no_binder_of_their_name_scopes(statement: str, free: list[str]) -> None:
    tokens = lex_code(statement)
    assert [t.text for t in free_occurrences(tokens) if t.text not in ("theorem", "ℕ", "Set", "Fin", "True")] == free


def test_names_used_free_reads_the_whole_challenge() -> None:
    parsed = parse_statement(STATEMENT)
    assert "x" in parsed.names_used_free and "x" in parsed.bound_names
    assert not {"a", "n", "h"} & parsed.names_used_free
