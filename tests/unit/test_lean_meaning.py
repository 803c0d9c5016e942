"""Issue 10 sections 1-3 for Lean: one minimal reproduction per rule of the meaning-based G2.

Each case is a challenge filled with a proof plus one difference; the verdict on the text profile, and
(for differences that act only through elaboration) on a run whose rules are those of ``full``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.challenge import AnswerForm, challenge
from putnam_solver.core.provers.lean.layout import same_tokens
from putnam_solver.core.provers.lean.syntax import lex
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import LEAN_BENCH

BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""

PROVER = LeanProver()
B5, A1 = "putnam_1997_b5", "putnam_2024_a1"  # no answer; official answer `{1}`
TEXT = VerifyOptions(profile=Profile.TEXT)
OPTIONS = (
    "set_option linter.unusedVariables false\nset_option maxHeartbeats 400000\n"
    "set_option exponentiation.threshold 500 in\n"
)
JUDGED_BY_FULL = VerifyOptions(profile=Profile.TEXT, acceptance=Profile.FULL)


def filled(bench: Benchmark, problem_id: str, form: AnswerForm | None = None) -> str:
    text = challenge(bench.problems[problem_id].formal_statement, Track.WITH_ANSWER, form)
    return text[: text.rindex("sorry")] + "by\n  simp\n"


def status(bench: Benchmark, problem_id: str, candidate: str, options: VerifyOptions = TEXT) -> tuple[str, str]:
    verdict = run_gates(PROVER, bench, bench.problems[problem_id], candidate.encode(), Track.WITH_ANSWER, options)
    return verdict.status, "\n".join(g.detail for g in verdict.gates if not g.passed)


HARMLESS = {
    "helper class": (B5, lambda t: t.replace("/--", "class Zk where\n  x : ℕ\n/--", 1)),
    "docstring removed": (B5, lambda t: t[: t.index("/--")] + t[t.index("-/") + 3 :]),
    "operator spacing": (B5, lambda t: t.replace("n ≥ 2", "n≥2")),
    "a helper with attributes of its own": (
        B5,
        lambda t: t.replace("/--", "@[reducible, inline] def zr : ℕ := 0\n@[simp] lemma zr_eq : zr = 0 := rfl\n/--", 1),
    ),
    "noncomputable section": (
        B5,
        lambda t: t.replace("/--", "noncomputable section\nopen Real in\nlemma h1 : True := trivial\n/--", 1) + "end\n",
    ),
    "closed namespace named after the problem, with open inside": (
        B5,
        lambda t: t.replace(
            "/--", "namespace Putnam1997B5\nopen Real\nlemma h2 : True := trivial\nend Putnam1997B5\n/--", 1
        ),
    ),
    "linter and heartbeat options": (
        B5,
        lambda t: t.replace("/--", f"{OPTIONS}/--", 1),
    ),
    "helper named like a bound variable": (B5, lambda t: t.replace("/--", "def hn : ℕ := 0\n/--", 1)),
    "helper type deriving instances for itself": (
        B5,
        lambda t: t.replace("/--", "inductive Zz where\n  | a\n  | b\n  deriving DecidableEq, Fintype\n/--", 1),
    ),
    "helper structure": (B5, lambda t: t.replace("/--", "structure Zp where\n  x : ℕ\n  y : ℕ\n/--", 1)),
}
NEEDS_G6 = {
    "global open": (B5, lambda t: t.replace("/--", "open Real\n/--", 1)),
    # `Multiset` may already exist: what it gains can become what dot notation in the statement finds
    "helper in a namespace that may exist": (
        B5,
        lambda t: t.replace("/--", "namespace Multiset\nlemma h3 : True := trivial\nend Multiset\n/--", 1),
    ),
    "open ... in the theorem": (B5, lambda t: t.replace("/--", "open Real in\n/--", 1)),
}
REFUSED = {
    "helper type deriving an unlisted handler": (
        B5,
        lambda t: t.replace("/--", "inductive Zz where\n  | a\n  deriving ToExpr\n/--", 1),
    ),
    "deriving instance for a library type": (
        B5,
        lambda t: t.replace("/--", "inductive Zz where\n  | a\nderiving instance Repr for Zz\n/--", 1),
    ),
    "helper type with an attribute": (
        B5,
        lambda t: t.replace("/--", "@[instance] structure Zp where\n  x : ℕ\n/--", 1),
    ),
    "helper class with a parent": (B5, lambda t: t.replace("/--", "class Zk extends Inhabited ℕ\n/--", 1)),
    "index spaced apart": ("putnam_1968_a5", lambda t: t.replace("ℝ[X]", "ℝ [X]", 1)),
    "variable": (B5, lambda t: t.replace("/--", "variable (k : ℕ)\n/--", 1)),
    "namespace around the theorem": (B5, lambda t: t.replace("/--", "namespace Aux\n/--", 1) + "end Aux\n"),
    "answer changed (inlined)": (A1, lambda t: t.replace("(({1}) : Set ℕ)", "(({2}) : Set ℕ)")),
}


@pytest.mark.parametrize("case", sorted(HARMLESS))
def test_harmless_difference_is_accepted_on_text(bench: Benchmark, case: str) -> None:
    problem_id, edit = HARMLESS[case]
    assert status(bench, problem_id, edit(filled(bench, problem_id))) == ("accepted", "")


@pytest.mark.parametrize("case", sorted(NEEDS_G6))
def test_elaboration_difference_is_left_to_g6(bench: Benchmark, case: str) -> None:
    problem_id, edit = NEEDS_G6[case]
    candidate = edit(filled(bench, problem_id))
    verdict, detail = status(bench, problem_id, candidate)
    assert verdict == "rejected" and "runs G6 (comparator), such as `full`" in detail
    assert status(bench, problem_id, candidate, JUDGED_BY_FULL) == ("accepted", "")


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_meaningful_difference_is_refused_everywhere(bench: Benchmark, case: str) -> None:
    problem_id, edit = REFUSED[case]
    candidate = edit(filled(bench, problem_id))
    assert status(bench, problem_id, candidate)[0] == "rejected"
    assert status(bench, problem_id, candidate, JUDGED_BY_FULL)[0] == "rejected"


def test_a_no_answer_answer_naming_a_candidate_constant_is_refused(bench: Benchmark) -> None:
    """A helper can hide anything (an unproved or circular definition): the answer must be written
    over the challenge's environment; the same answer written out passes."""
    problem = bench.problems[A1]
    shown = challenge(problem.formal_statement, Track.NO_ANSWER)
    proof = shown[: shown.rindex("sorry")] + "by\n  simp\n"
    written_out = proof.replace("Set ℕ := sorry", "Set ℕ := {1}", 1)
    hidden = proof.replace("Set ℕ := sorry", "Set ℕ := zz_answer", 1).replace(
        "noncomputable abbrev", "def zz_answer : Set ℕ := {1}\nnoncomputable abbrev", 1
    )
    accepted = run_gates(PROVER, bench, problem, written_out.encode(), Track.NO_ANSWER, TEXT)
    assert accepted.status == "accepted", [g.detail for g in accepted.gates if not g.passed]
    refused = run_gates(PROVER, bench, problem, hidden.encode(), Track.NO_ANSWER, TEXT)
    detail = "\n".join(g.detail for g in refused.gates if not g.passed)
    assert refused.status == "rejected" and "`zz_answer`, which the candidate defines" in detail, detail


def test_both_with_answer_forms_are_accepted_and_recorded(bench: Benchmark) -> None:
    for form in AnswerForm:
        candidate = filled(bench, A1, form)
        verdict = run_gates(PROVER, bench, bench.problems[A1], candidate.encode(), Track.WITH_ANSWER, TEXT)
        assert verdict.accepted, verdict.gates
        assert verdict.gates[1].evidence["answer_form"] == form.value


def test_abbrev_form_with_another_answer_is_refused(bench: Benchmark) -> None:
    candidate = filled(bench, A1, AnswerForm.ABBREV).replace("Set ℕ := {1}", "Set ℕ := {2}")
    assert status(bench, A1, candidate)[0] == "rejected"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("1 / 8", "1/8", True),
        ("5 ^ k", "5^k", True),
        ("( a + b )", "(a+b)", True),
        ("x[i]", "x [i]", False),  # GetElem: noWs "["
        ("h.1", "h .1", False),  # proj: checkNoWsBefore "."
        ("f (x)", "f(x)", False),  # app: checkWsBefore before an argument
        ("a ^ ^ b", "a ^^ b", False),  # two operators: a library token could join them
    ],
)
def test_spacing_is_compared_only_where_lean_checks_it(a: str, b: str, same: bool) -> None:
    assert same_tokens(lex(a), lex(b)) is same
